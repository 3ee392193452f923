"""An interactive attention explorer, in the manner of bertviz's head view, that needs no server.

``attention_explorer(tokens, weights)`` returns an object that Jupyter displays. Its HTML
output carries two things:

- a **static picture**: every head's attention map for one layer (``mha.book.plot.head_grid``),
  as an embedded SVG. It is what a reader sees where JavaScript is off or where the page has
  no Vega (a notebook in Jupyter, on GitHub), and what a printout shows; the output also
  offers it as ``image/svg+xml``;
- a **Vega-Lite specification** of the interactive view, drawn by Vega-Embed when the page
  has loaded it. The book's website does: ``_ext/book_assets.py`` bundles Vega, Vega-Lite and
  Vega-Embed from the ``vl-convert-python`` package into ``_static/`` at build time and loads
  the bundle on each page that holds an explorer (no CDN, no kernel). The picture is then
  hidden.

The interactive view draws the query tokens on the left and the key tokens on the right,
joined by one line per head and pair, coloured by head, as opaque as the weight. Hovering
over (or clicking) a query token keeps only its lines: where every head looks from that
token. A double-click shows every token again. Two menus choose the layer and the head (so a
head is told by its menu entry, not only by its colour). The view is as wide as its column,
up to 34 rem, so it fits a phone; the legend sits below it.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mha.gpu import to_host

_ROW_PX, _TOKENS_PX = 22, 110  # the height of a row; the room for the tokens on each side
_HELP = "Hover over or tap a query token (left) to keep only its lines; double-click to see all."
_ids = itertools.count()


@dataclass(frozen=True)
class AttentionExplorer:
    """What :func:`attention_explorer` returns: Jupyter displays it; ``html`` is its markup.

    Attributes
    ----------
    spec : dict
        The Vega-Lite specification of the interactive view (data included).
    svg : str
        The static picture (an SVG document).
    alt : str
        Text that says what the static picture shows (its ``alt`` attribute).
    """

    spec: dict
    svg: str
    alt: str

    @property
    def html(self) -> str:
        """A ``<div class="mha-explorer">``: the picture, the specification, and a script
        that draws the view with Vega-Embed when the page has it, then hides the picture."""
        uid = f"mha-explorer-{next(_ids)}"
        svg = base64.b64encode(self.svg.encode("utf-8")).decode("ascii")
        spec = json.dumps(self.spec, separators=(",", ":")).replace("</", "<\\/")
        return f"""<div class="mha-explorer" id="{uid}">
<img class="mha-explorer-static" src="data:image/svg+xml;base64,{svg}" alt="{html.escape(self.alt)}">
<p class="mha-explorer-help" hidden>{_HELP}</p>
<div class="mha-explorer-view" style="max-width: 34rem"></div>
<script type="application/json" class="mha-explorer-spec">{spec}</script>
<script>
(function () {{
  var root = document.getElementById("{uid}");
  function draw() {{
    if (typeof vegaEmbed !== "function" || root.dataset.ready) return;
    var spec = JSON.parse(root.querySelector(".mha-explorer-spec").textContent);
    vegaEmbed(root.querySelector(".mha-explorer-view"), spec,
              {{mode: "vega-lite", renderer: "svg", actions: false}})
      .then(function () {{
        root.querySelector(".mha-explorer-static").style.display = "none";
        root.querySelector(".mha-explorer-help").hidden = false;
        root.dataset.ready = "true";
      }});
  }}
  if (document.readyState === "complete") draw(); else window.addEventListener("load", draw);
}})();
</script>
</div>"""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        return {
            "text/html": self.html,
            "image/svg+xml": self.svg,
            "text/plain": f"<AttentionExplorer: {self.alt}>",
        }


def _names(name: str, given: Sequence[str] | None, count: int, default: str) -> list[str]:
    if given is None:
        return [f"{default} {i + 1}" for i in range(count)]
    given = [str(g) for g in given]
    if len(given) != count:
        raise ValueError(f"{name} has {len(given)} entries but weights has {count}")
    return given


def attention_explorer(
    tokens: Sequence[str],
    weights: Any,
    *,
    layer_names: Sequence[str] | None = None,
    head_names: Sequence[str] | None = None,
    query_tokens: Sequence[str] | None = None,
    layer_label: str = "layer",
    title: str = "Where each head looks",
    static_layer: int = 0,
    min_weight: float = 0.01,
) -> AttentionExplorer:
    """Explore where every head of every layer looks, token by token.

    Parameters
    ----------
    tokens : sequence of str
        The key tokens (and the query tokens too, for self-attention), any real sentence.
    weights : array
        Attention weights, queries by keys, for every layer and head (NumPy, CuPy, or a CPU
        torch tensor); a 3-D array is one layer.
    layer_names, head_names : sequence of str, optional
        Names in the menus; "layer 1", ..., "head 1", ... by default.
    query_tokens : sequence of str, optional
        The query tokens when they differ from the keys (cross-attention).
    layer_label : str
        What a "layer" is in the menu (e.g. ``"model"`` to compare models).
    title : str
        A title above the view.
    static_layer : int
        The layer the static picture shows.
    min_weight : float
        Lines of smaller weight are left out (they would be invisible) to keep pages small.

    Returns
    -------
    AttentionExplorer
        Displayed by Jupyter; ``.html`` is the markup, ``.spec`` the Vega-Lite view.

    Shapes
    ------
    weights : (layers, heads, n_q, n_k) or (heads, n_q, n_k)
    """
    from mha.book.plot import figure_style, head_grid

    w = np.asarray(to_host(weights))
    if w.ndim == 3:
        w = w[None]
    if w.ndim != 4:
        raise ValueError(
            f"weights must have shape (layers, heads, n_q, n_k) or (heads, n_q, n_k), got {w.shape}"
        )
    if not np.issubdtype(w.dtype, np.floating):
        raise TypeError(f"weights must hold floating-point numbers, got dtype {w.dtype}")
    layers, heads, n_q, n_k = w.shape
    keys = [str(t) for t in tokens]
    queries = keys if query_tokens is None else [str(t) for t in query_tokens]
    if (len(queries), len(keys)) != (n_q, n_k):
        raise ValueError(
            f"weights has n_q={n_q} queries and n_k={n_k} keys, but there are "
            f"{len(queries)} query tokens and {len(keys)} key tokens"
        )
    layer_names = _names("layer_names", layer_names, layers, "layer")
    head_names = _names("head_names", head_names, heads, "head")
    if not 0 <= static_layer < layers:
        raise ValueError(f"static_layer={static_layer} is not one of the {layers} layers")

    alt = (
        f"Attention maps of the {heads} heads of {layer_names[static_layer]} "
        f"(row = query, column = key) on the tokens: {' '.join(keys)}"
    )
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    with mpl.rc_context(figure_style()):
        figure = head_grid(
            w[static_layer],
            query_labels=queries,
            key_labels=keys,
            titles=head_names,
            suptitle=f"{layer_names[static_layer]}: where each head looks",
        )
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(figure)
    spec = _spec(w, queries, keys, layer_names, head_names, layer_label, title, min_weight)
    return AttentionExplorer(spec=spec, svg=buffer.getvalue(), alt=alt)


def _spec(w, queries, keys, layer_names, head_names, layer_label, title, min_weight) -> dict:
    """The Vega-Lite specification: one line per (layer, head, query i, key j) of weight w.

    The lines of the heads fan out a little around each token's row (``yi``, ``yj``), so
    that heads looking at the same key stay apart.
    """
    layer, head, i, j = np.nonzero(w >= min_weight)
    lines = [
        {"layer": int(a), "head": int(b), "i": int(c), "j": int(d), "w": round(float(e), 3)}
        for a, b, c, d, e in zip(layer, head, i, j, w[layer, head, i, j], strict=True)
    ]
    rows, heads = max(len(queries), len(keys)), len(head_names)
    fan = f"(datum.head - {(heads - 1) / 2}) * {0.5 / heads}"
    domain = {"domain": [-0.5, rows - 0.5], "reverse": True, "nice": False, "zero": False}
    y = {"type": "quantitative", "axis": None, "scale": domain}

    def menu(name: str, options: list, labels: list[str]) -> dict:
        return {"input": "select", "name": f"{name} ", "options": options, "labels": labels}

    def tokens(field: str, words: list[str], align: str, x: int | dict, params: list) -> dict:
        colour = {"condition": {"param": "query", "empty": False, "value": "#c62828"}}
        return {
            "data": {"values": [{field: n, "token": t} for n, t in enumerate(words)]},
            "params": params,
            "mark": {"type": "text", "align": align, "fontSize": 13, "cursor": "pointer"},
            "encoding": {
                "x": {"value": x},
                "y": {"field": field, **y},
                "text": {"field": "token"},
                "color": {**colour, "value": "black"} if params else {"value": "black"},
            },
        }

    hover = {"type": "point", "fields": ["i"], "on": "mouseover", "clear": "dblclick"}
    return {
        "description": f"Attention lines from {len(queries)} query tokens to {len(keys)} keys",
        "title": {"text": title, "anchor": "start"},
        "width": "container",  # the view's box: its column, up to 34 rem (see the html)
        "autosize": {"type": "fit-x", "contains": "padding"},
        "height": rows * _ROW_PX,
        "params": [
            {
                "name": "layer",
                "value": 0,
                "bind": menu(layer_label, list(range(len(layer_names))), layer_names),
            },
            {
                "name": "head",
                "value": -1,
                "bind": menu("head", [-1, *range(heads)], ["all heads", *head_names]),
            },
        ],
        "layer": [
            {
                "data": {"values": lines},
                "transform": [
                    {"filter": "datum.layer == layer && (head < 0 || datum.head == head)"},
                    {"filter": {"param": "query", "empty": True}},
                    {"calculate": f"datum.i + {fan}", "as": "yi"},
                    {"calculate": f"datum.j + {fan}", "as": "yj"},
                    {"calculate": f"{json.dumps(head_names)}[datum.head]", "as": "head name"},
                    {"calculate": f"{json.dumps(queries)}[datum.i]", "as": "query"},
                    {"calculate": f"{json.dumps(keys)}[datum.j]", "as": "key"},
                ],
                "mark": {"type": "rule", "strokeWidth": 2.5, "strokeCap": "round"},
                "encoding": {
                    "x": {"value": _TOKENS_PX},
                    "x2": {"value": {"expr": f"width - {_TOKENS_PX}"}},
                    "y": {"field": "yi", **y},
                    "y2": {"field": "yj"},
                    "color": {
                        "field": "head name",
                        "type": "nominal",
                        "sort": head_names,
                        "legend": {"title": "head", "orient": "bottom", "columns": 4},
                        "scale": {"scheme": "category10" if heads <= 10 else "tableau20"},
                    },
                    "opacity": {
                        "field": "w",
                        "type": "quantitative",
                        "legend": None,
                        "scale": {"domain": [0, 1], "range": [0, 1]},
                    },
                    "tooltip": [
                        {"field": "head name"},
                        {"field": "query"},
                        {"field": "key"},
                        {"field": "w", "title": "weight"},
                    ],
                },
            },
            tokens("i", queries, "right", _TOKENS_PX - 6, [{"name": "query", "select": hover}]),
            tokens("j", keys, "left", {"expr": f"width - {_TOKENS_PX - 6}"}, []),
        ],
        "config": {"view": {"stroke": None}},
    }
