"""mha.book.explorer: the view's data are the weights; the output works without JavaScript.

Whether the view reacts to the pointer in a browser is checked on the built site
(tests/test_book.py).
"""

import base64
import json
import re

import matplotlib
import numpy as np
import pytest

from mha.book.explorer import attention_explorer

matplotlib.use("Agg")

TOKENS = ["the", "cat", "sat", "</script>"]  # a token that must not end the page's script


@pytest.fixture
def weights():
    return np.random.default_rng(0).dirichlet(np.ones(4), size=(2, 3, 4))  # (layers, h, n, n)


def _lines(explorer) -> list[dict]:
    return explorer.spec["layer"][0]["data"]["values"]


def test_every_weight_above_the_threshold_is_one_line(weights):
    explorer = attention_explorer(TOKENS, weights, min_weight=0.0)
    lines = _lines(explorer)
    assert len(lines) == weights.size
    for line in lines:
        assert line["w"] == pytest.approx(
            weights[line["layer"], line["head"], line["i"], line["j"]], abs=5e-4
        )
    kept = _lines(attention_explorer(TOKENS, weights, min_weight=0.2))
    assert len(kept) == (weights >= 0.2).sum() and all(line["w"] >= 0.2 for line in kept)


def test_tokens_and_menus_come_from_the_arguments(weights):
    explorer = attention_explorer(
        TOKENS,
        weights,
        layer_names=["first", "second"],
        head_names=["a", "b", "c"],
        layer_label="model",
    )
    layer_menu, head_menu = (param["bind"] for param in explorer.spec["params"])
    assert layer_menu["options"] == [0, 1] and layer_menu["labels"] == ["first", "second"]
    assert layer_menu["name"].strip() == "model"
    assert head_menu["options"] == [-1, 0, 1, 2] and head_menu["labels"] == [
        "all heads",
        "a",
        "b",
        "c",
    ]
    queries, keys = (layer["data"]["values"] for layer in explorer.spec["layer"][1:])
    assert [q["token"] for q in queries] == TOKENS == [k["token"] for k in keys]


def test_cross_attention_and_a_single_layer():
    weights = np.full((2, 3, 5), 0.2)  # (h, n_q, n_k): one layer
    explorer = attention_explorer(list("abcde"), weights, query_tokens=["x", "y", "z"])
    assert {line["layer"] for line in _lines(explorer)} == {0}
    assert explorer.spec["params"][0]["bind"]["labels"] == ["layer 1"]
    assert [q["token"] for q in explorer.spec["layer"][1]["data"]["values"]] == ["x", "y", "z"]


def test_html_holds_the_picture_and_the_spec_and_works_without_javascript(weights):
    explorer = attention_explorer(TOKENS, weights, static_layer=1, layer_names=["one", "two"])
    page = explorer.html
    image = re.search(
        r'<img class="mha-explorer-static" src="data:image/svg\+xml;base64,([^"]+)" alt="([^"]+)"',
        page,
    )
    assert image and base64.b64decode(image.group(1)).decode() == explorer.svg
    assert explorer.svg.lstrip().startswith("<?xml") and "<svg" in explorer.svg
    assert ">head 3</text>" in explorer.svg  # text kept as text: legible, measurable
    assert "two" in image.group(2) and "&lt;/script&gt;" in image.group(2)  # the layer, escaped
    spec = re.search(
        r'<script type="application/json" class="mha-explorer-spec">(.*?)</script>', page, re.S
    )
    assert json.loads(spec.group(1)) == explorer.spec  # "</script>" in a token did not cut it
    assert "typeof vegaEmbed" in page and "http" not in page  # draws only with the page's Vega
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/html"].startswith('<div class="mha-explorer"')
    assert bundle["image/svg+xml"] == explorer.svg  # for frontends without HTML


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"weights": np.zeros((4, 4))}, r"\(layers, heads, n_q, n_k\)"),
        ({"weights": np.zeros((1, 1, 4, 4), dtype=int)}, "floating"),
        ({"tokens": ["a", "b"]}, "2 key tokens"),
        ({"query_tokens": ["a"]}, "1 query tokens"),
        ({"layer_names": ["only one"]}, "layer_names has 1"),
        ({"head_names": ["a"]}, "head_names has 1"),
        ({"static_layer": 2}, "static_layer=2"),
    ],
)
def test_bad_input_is_rejected_with_a_message(weights, kwargs, message):
    arguments = {"tokens": TOKENS, "weights": weights, **kwargs}
    with pytest.raises((TypeError, ValueError), match=message):
        attention_explorer(arguments.pop("tokens"), arguments.pop("weights"), **arguments)
