"""mha.book.plot: the shared figures draw what they are given and reject malformed input."""

import io
import subprocess
import sys

import matplotlib
import numpy as np
import pytest

import mha
from mha.book import plot

matplotlib.use("Agg")
import matplotlib.pyplot as plt

pytestmark = pytest.mark.usefixtures("close_figures")


def test_import_mha_does_not_import_matplotlib():
    code = "import sys, mha, mha.book.plot; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_attention_heatmap_draws_the_weights_with_labels():
    _, weights = mha.scaled_dot_product_attention(
        *(np.random.default_rng(0).normal(size=(3, 4, 8)).astype(np.float32))
    )
    ax = plot.attention_heatmap(weights, query_labels=list("abcd"), key_labels=list("wxyz"))
    np.testing.assert_array_equal(ax.images[0].get_array(), weights)
    assert [t.get_text() for t in ax.get_xticklabels()] == list("wxyz")
    assert [t.get_text() for t in ax.get_yticklabels()] == list("abcd")
    assert ax.images[0].get_clim() == (0.0, 1.0)
    assert len(ax.figure.axes) == 2  # the map and its colour bar


def test_attention_heatmap_draws_on_the_given_axes_and_accepts_masks():
    _, (left, right) = plt.subplots(1, 2)
    returned = plot.attention_heatmap(mha.causal_mask(3), ax=right, colorbar=False, title="m")
    assert returned is right
    np.testing.assert_array_equal(right.images[0].get_array(), np.tril(np.ones((3, 3))))
    assert right.get_title() == "m"
    assert not left.images


def test_attention_heatmap_scales_to_data_when_asked():
    scores = np.array([[-2.0, 3.0], [0.5, 1.0]])
    ax = plot.attention_heatmap(scores, vmin=None, vmax=None)
    assert ax.images[0].get_clim() == (-2.0, 3.0)


def test_head_grid_draws_one_map_per_head_on_a_shared_scale():
    weights = np.random.default_rng(1).dirichlet(np.ones(5), size=(6, 4))  # (h=6, 4, 5)
    fig = plot.head_grid(weights, ncols=4, vmax=None)
    maps = [ax for ax in fig.axes if ax.images]
    assert len(maps) == 6
    for i, ax in enumerate(maps):
        np.testing.assert_allclose(ax.images[0].get_array(), weights[i])
        assert ax.get_title() == f"head {i + 1}"
        assert ax.images[0].get_clim() == (0.0, weights.max())
    hidden = [ax for ax in fig.axes if not ax.get_visible()]
    assert len(hidden) == 2  # a 2 x 4 grid holds 6 maps


def test_similarity_maps_draws_each_matrix_on_the_scale_minus_one_to_one():
    maps = np.eye(3)
    outputs = -np.ones((3, 3)) / 2
    fig = plot.similarity_maps([maps, outputs], titles=["maps", "outputs"])
    drawn = [ax for ax in fig.axes if ax.images]
    assert [ax.get_title() for ax in drawn] == ["maps", "outputs"]
    for ax, expected in zip(drawn, (maps, outputs), strict=True):
        np.testing.assert_allclose(ax.images[0].get_array(), expected)
        assert ax.images[0].get_clim() == (-1.0, 1.0)
        assert ax.get_xlabel() == ax.get_ylabel() == "head"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: plot.attention_heatmap(np.zeros((2, 3, 4))), r"\(n_q, n_k\), got shape"),
        (lambda: plot.attention_heatmap(np.array([["a"]])), "numbers or booleans"),
        (lambda: plot.attention_heatmap(np.zeros((2, 3)), key_labels=["a"]), "key_labels has 1"),
        (lambda: plot.head_grid(np.zeros((2, 3))), r"\(h, n_q, n_k\)"),
        (lambda: plot.head_grid(np.zeros((2, 3, 3)), titles=["a"]), "titles has 1"),
        (lambda: plot.head_grid(np.zeros((2, 3, 3)), ncols=0), "ncols must be"),
        (lambda: plot.similarity_maps([np.eye(2)], titles=[]), "one title per matrix"),
        (lambda: plot.similarity_maps([np.zeros((2, 2, 2))], titles=["a"]), r"\(h, h\)"),
    ],
)
def test_bad_input_is_rejected_with_a_message(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_the_style_keeps_text_as_text_and_tells_series_apart_without_colour():
    style = plot.figure_style()
    assert style["svg.fonttype"] == "none" and style["figure.figsize"][0] == plot.PAGE_WIDTH
    cycle = list(style["axes.prop_cycle"])
    assert len({str(entry["linestyle"]) for entry in cycle}) == len(cycle) >= 8
    with matplotlib.rc_context(style):
        fig, ax = plt.subplots()
        first, second = ax.plot([0, 1], label="a")[0], ax.plot([1, 0], label="b")[0]
        assert first.get_linestyle() != second.get_linestyle()
        ax.legend()
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg")
    assert ">a</text>" in buffer.getvalue()  # the legend's text is text, not glyph outlines


def test_setup_figures_shows_svg_in_a_jupyter_kernel():
    code = (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "from matplotlib.figure import Figure\n"
        "shell = InteractiveShell.instance()\n"
        "from mha.book.plot import setup_figures\n"
        "setup_figures()\n"
        "import matplotlib\n"
        "svg = shell.display_formatter.formatters['image/svg+xml']\n"
        "print(matplotlib.rcParams['svg.fonttype'], svg.lookup_by_type(Figure) is not None)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["none", "True"]


@pytest.mark.parametrize(
    ("h", "n", "labels", "columns"),
    [
        (8, 12, False, 4),  # chapter 8's toy model: 8 heads, 12 positions, numbered
        (4, 6, True, 4),  # 4 heads on a 6-token sentence, in one row
        (4, 12, True, 2),  # three would fit, not four: two rows of two, not 3 + 1
        (12, 11, True, 3),  # a real model's 12 heads on 11 word pieces
        (1, 30, True, 1),
    ],
)
def test_head_grid_fits_the_page_with_room_for_its_labels(h, n, labels, columns):
    weights = np.random.default_rng(2).dirichlet(np.ones(n), size=(h, n))  # (h, n, n)
    tokens = [f"t{i}" for i in range(n)] if labels else None
    fig = plot.head_grid(weights, query_labels=tokens, key_labels=tokens)
    maps = [ax for ax in fig.axes if ax.images]
    assert len({round(ax.get_position().x0, 3) for ax in maps}) == columns
    assert fig.get_size_inches()[0] <= plot.PAGE_WIDTH + 1e-9


def test_attention_heatmap_of_many_keys_is_no_wider_than_the_page():
    ax = plot.attention_heatmap(np.full((3, 40), 1 / 40))
    assert ax.figure.get_size_inches()[0] <= plot.PAGE_WIDTH + 1e-9
    assert len(ax.get_xticks()) < 40  # numbered positions: as many as fit, not all 40
