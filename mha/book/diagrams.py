"""Diagrams of the computation itself, drawn from what the package computes.

Each function runs the package on small inputs (``mha.split_heads``, ``mha.causal_mask``,
``mha.efficient.KVCache``, ...) and draws what came out, so a diagram cannot disagree with
the code it explains. Each returns a matplotlib Figure; a chapter calls one and
``plt.show()``. Drawn arrays and boxes carry a ``gid`` (e.g. ``"causal-0"``) by which tests
find them. matplotlib is imported inside the functions, so ``import mha`` stays light.

=================================  ======================================================
:func:`soft_lookup`                a hard lookup beside attention's soft one (ch. 1)
:func:`split_and_merge_heads`      reshape, transpose, and the reshape-only mistake (ch. 3)
:func:`layer_dataflow`             one layer, every tensor with its shape (ch. 4)
:func:`concat_output_projection`   Concat · W^O as a sum of per-head products (ch. 4)
:func:`score_masks`                the score grid under padding, causal, both (ch. 5)
:func:`backward_graph`             the graph autograd records and walks backwards (ch. 6)
:func:`toy_task`                   the toy task's two answers and their sources (ch. 8)
:func:`pre_and_post_ln`            the two blocks' data flow, read from the call (ch. 10)
:func:`induction_mechanism`        a previous-token head and an induction head (ch. 10)
:func:`kv_cache_growth`            the KV cache growing call by call (ch. 11)
:func:`online_softmax_tiles`       the tiles of the lean, online-softmax path (ch. 11)
:func:`heads_across_devices`       heads split over devices, one all-reduce (ch. 11)
=================================  ======================================================
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from mha import _validate
from mha._validate import Array
from mha.book.plot import PAGE_WIDTH
from mha.efficient import GQAParams, KVCache, decode_step
from mha.functional import merge_heads, scaled_dot_product_attention, split_heads
from mha.gpu import to_host
from mha.lean import tile_shape
from mha.masks import causal_mask, combine_masks, padding_mask
from mha.numpy_mha import multi_head_attention
from mha.params import MHAParams, init_params

#: The colour code of the illustrated-transformer posts: queries, keys, values, weights.
COLOURS = {"Q": "#b39ddb", "K": "#ffcc80", "V": "#90caf9", "A": "#a5d6a7", "X": "#eeeeee"}
ALLOWED, BLOCKED = "#a5d6a7", "#bdbdbd"  # a score that is kept / that becomes -inf


def _canvas(width: float, height: float, inches: float = PAGE_WIDTH) -> tuple[Any, Any]:
    """A figure ``inches`` wide with one frameless Axes, in units of cells; y grows downwards.

    Every diagram is as wide as the book's text column (``PAGE_WIDTH``), so that it is shown
    at the size it is drawn and its smallest labels (7 pt) stay above 9 CSS px.
    """
    import matplotlib.pyplot as plt

    size = (inches, height * inches / width)
    fig, ax = plt.subplots(figsize=size, layout="constrained")
    ax.set(xlim=(0, width), ylim=(height, 0), aspect="equal")
    ax.set_autoscale_on(False)
    ax.axis("off")
    return fig, ax


def _grid(ax: Any, values: np.ndarray, x: float, y: float, gid: str, **imshow: Any) -> Any:
    """Draw a 2-D array with its top-left corner at (x, y), one unit per entry, framed."""
    rows, cols = values.shape
    extent = (x, x + cols, y + rows, y)
    image = ax.imshow(values, extent=extent, interpolation="nearest", gid=gid, **imshow)
    _frame(ax, x, y, cols, rows, "0.2", 0.8)
    return image


def _frame(ax: Any, x: float, y: float, width: float, height: float, colour: Any, lw=2.2):
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((x, y), width, height, fill=False, lw=lw, ec=colour))


def _text(ax: Any, x: float, y: float, text: str, fontsize: float = 8, **kwargs: Any) -> Any:
    """``ax.text``; a text that holds a sub- or superscript ($W^O$) is set at 10 pt at least,
    so that its scripts (70% of it) stay above 9 CSS px on the page."""
    if re.search(r"\$[^$]*[_^][^$]*\$", text):
        fontsize = max(fontsize, 10)
    return ax.text(x, y, text, fontsize=fontsize, **kwargs)


def _box(ax: Any, x: float, y: float, text: str, colour: Any, gid: str | None = None, size=8.5):
    bbox = {"boxstyle": "round,pad=0.45", "fc": colour, "ec": "0.35"}
    _text(ax, x, y, text, ha="center", va="center", fontsize=size, gid=gid, bbox=bbox)


def _arrow(ax: Any, start: tuple, end: tuple, text: str = "", colour: Any = "0.3", dx=0.15):
    ax.annotate("", xy=end, xytext=start, arrowprops={"arrowstyle": "-|>", "color": colour})
    middle = ((start[0] + end[0]) / 2 + dx, (start[1] + end[1]) / 2)
    _text(ax, *middle, text, fontsize=8, style="italic", va="center", color="0.2")


def _head_colour(i: int) -> tuple:
    import matplotlib as mpl

    return mpl.colormaps["tab10"](i % 10)


def _listed(*colours: Any) -> dict:
    """imshow arguments that draw 0, 1, ... in the given colours."""
    from matplotlib.colors import ListedColormap

    return {"cmap": ListedColormap(colours), "vmin": -0.5, "vmax": len(colours) - 0.5}


def _shape(shape: tuple[int, ...], tail: tuple[str, ...]) -> str:
    """ "(B, h, n_q, d_k) = (2, 4, 5, 8)": symbols for the trailing axes, B for leading ones."""
    lead = len(shape) - len(tail)
    names = ["B"] if lead == 1 else [f"B{i + 1}" for i in range(lead)]
    return f"({', '.join([*names, *tail])}) = {tuple(int(s) for s in shape)}"


def soft_lookup(query: Array, keys: Array, values: Array) -> Any:
    """One query looked up among the keys twice: hard (a dictionary, the best key only) and
    soft (attention: every key, weighted).

    The scores ``q·k_j/sqrt(d_k)``, the soft weights and the soft result are what
    ``mha.scaled_dot_product_attention`` returns for the query; the hard lookup puts weight 1
    on the best-scoring key and returns its value. Entries are printed in their cells.

    Shapes
    ------
    query : (d_k,);  keys : (n_k, d_k);  values : (n_k, d_v)
    """
    query, keys, values = (np.asarray(to_host(a), dtype=float) for a in (query, keys, values))
    if query.ndim != 1:
        raise ValueError(f"query must have shape (d_k,), got shape {query.shape}")
    if keys.ndim != 2 or keys.shape[1] != query.shape[0]:
        raise ValueError(
            f"keys must have shape (n_k, d_k) = (n_k, {query.shape[0]}), got {keys.shape}"
        )
    if values.ndim != 2 or values.shape[0] != keys.shape[0]:
        raise ValueError(
            f"values must have shape (n_k, d_v) = ({keys.shape[0]}, d_v), got {values.shape}"
        )
    (n_k, d_k), d_v = keys.shape, values.shape[1]
    soft_out, soft = scaled_dot_product_attention(query[None], keys, values)  # (1, d_v), (1, n_k)
    scores = keys @ query / np.sqrt(d_k)  # (n_k,)
    hard = (np.arange(n_k) == scores.argmax()).astype(float)  # (n_k,): one-hot
    columns = {  # gid: (x, values drawn, title, colour map)
        "keys": (1.5, keys, f"keys K {keys.shape}", "Oranges"),
        "scores": (d_k + 3, scores[:, None], "scores\nq·k/√d_k", "Greys"),
        "hard-weights": (d_k + 5.5, hard[:, None], "hard:\nbest key", "Greens"),
        "soft-weights": (d_k + 8, soft.T, "soft:\nsoftmax", "Greens"),
        "values": (d_k + 10.5, values, f"values V\n{values.shape}", "Blues"),
    }
    top, x_values = 4.4, d_k + 10.5
    fig, ax = _canvas(x_values + max(d_v, 2) + 0.5, top + n_k + 4)

    def draw(gid: str, grid: np.ndarray, x: float, y: float, cmap: str, span: float) -> None:
        _grid(ax, grid, x, y, gid, cmap=cmap, vmin=-0.3 * span, vmax=1.6 * span)
        for (i, j), entry in np.ndenumerate(grid):
            weight = gid in ("scores", "hard-weights", "soft-weights")
            text = f"{entry:.2f}" if weight else f"{entry:.3g}"
            _text(ax, x + j + 0.5, y + i + 0.5, text, fontsize=7, ha="center", va="center")

    draw("query", query[None], 1.5, 1.0, "Purples", float(np.abs(query).max()) or 1.0)
    _text(ax, 1.5, 0.7, f"query q {query.shape}", fontsize=8, va="bottom")
    for j in range(n_k):
        _text(ax, 1.2, top + j + 0.5, f"key {j}", fontsize=7, ha="right", va="center")
    for gid, (x, grid, title, cmap) in columns.items():
        draw(gid, grid, x, top, cmap, float(np.abs(grid).max()) or 1.0)
        _text(ax, x, top - 0.3, title, fontsize=8, va="bottom")
    span = float(np.abs(values).max()) or 1.0
    results = {"hard-output": (hard @ values, "hard"), "soft-output": (soft_out[0], "soft")}
    for row, (gid, (out, kind)) in enumerate(results.items()):
        y = top + n_k + 0.8 + 1.6 * row
        draw(gid, out[None], x_values, y, "Blues", span)
        what = "the best key's value" if kind == "hard" else "Σ_j soft weight_j · value_j"
        _text(ax, x_values - 0.3, y + 0.5, f"{kind} lookup: {what} =", fontsize=8,
              ha="right", va="center")  # fmt: skip
    return fig


def split_and_merge_heads(n: int = 4, num_heads: int = 3, d: int = 2) -> Any:
    """Split and merge as coloured blocks: colour = head, shade and label = token.

    The same numbers four ways: ``x @ W^Q`` as ``(n, h·d)``; reshaped to ``(n, h, d)`` (one
    block per token); transposed to ``(h, n, d)``, which is ``mha.split_heads`` (one block
    per head, holding every token); and, for contrast, reshaped to ``(h, n, d)`` without the
    transpose: the same shape, tokens mixed. ``mha.merge_heads`` runs the arrows backwards.
    """
    n = _validate.positive_int("n", n)
    h, d = _validate.positive_int("num_heads", num_heads), _validate.positive_int("d", d)
    token = np.repeat(np.arange(n)[:, None], h * d, axis=1)  # (n, h*d)
    head = np.repeat(np.arange(h), d)[None, :].repeat(n, axis=0)  # (n, h*d)
    codes = head * n + token  # (n, h*d): which head's feature, of which token
    panels = {  # gid: (array, what a block is, title, arrow forward, arrow back)
        "reshape": (
            codes.reshape(n, h, d),
            "token",
            f"(n, h, d) = {(n, h, d)}",
            "reshape",
            "reshape",
        ),
        "split": (
            split_heads(codes, h),
            "head",
            f"(h, n, d) = {(h, n, d)}:\nsplit_heads",
            "transpose",
            "transpose\nback",
        ),
        "wrong": (
            codes.reshape(h, n, d),
            "“head”",
            "mistake, (h, n, d):\nsame shape, tokens mixed",
            "reshape only\n(no transpose)",
            "",
        ),
    }
    colours = [
        (1 - t) * np.array(_head_colour(i)[:3]) + t
        for i in range(h)
        for t in np.linspace(0, 0.6, n)
    ]
    style = _listed(*colours)
    gap, top, step = 0.7, 3.6, d + 7  # step: from one panel to the next
    height = top + max(n * h + (max(n, h) - 1) * gap, n) + 0.5
    fig, ax = _canvas(h * d + 7 + 2 * step + d + 2.5, height)

    def draw(block: np.ndarray, x: float, y: float, gid: str) -> None:
        _grid(ax, block, x, y, gid, **style)
        for (r, c), code in np.ndenumerate(block):
            _text(
                ax, x + c + 0.5, y + r + 0.5, f"t{code % n}", ha="center", va="center", fontsize=8
            )

    draw(codes, 0, top, "projected")
    for i in range(h):
        _frame(ax, i * d, top, d, n, _head_colour(i))
        _text(ax, i * d + d / 2, top - 0.15, f"head\n{i}", ha="center", va="bottom")
    _text(ax, 0, top - 2.4, f"$x W^Q$: (n, h·d) = {(n, h * d)}", fontsize=9)
    legend = "rows: tokens t0, t1, ...\ncolour: head\n\nsplit_heads: →\nmerge_heads: ←"
    _text(ax, 0, top + n + 1, legend, fontsize=8, va="top")
    x = h * d + 7
    for name, (array, block_name, title, forward, back) in panels.items():
        colour = "firebrick" if name == "wrong" else "black"
        _text(ax, x - 3.2, top - 2.4, title, fontsize=9, color=colour)
        _arrow(ax, (x - 6.6, top + 0.6), (x - 3.4, top + 0.6), "", colour)
        _text(ax, x - 5, top + 0.3, forward, fontsize=8, style="italic", ha="center", va="bottom")
        if back:
            _arrow(ax, (x - 3.4, top + 3.2), (x - 6.6, top + 3.2), "", "0.5")
            _text(ax, x - 5, top + 3.5, back, fontsize=8, style="italic", ha="center", va="top")
        y = top
        for b, block in enumerate(array):
            draw(block, x, y, f"{name}-{b}")
            label = f"{block_name} {b}"
            _text(ax, x - 0.3, y + len(block) / 2, label, ha="right", va="center", fontsize=8)
            y += len(block) + gap
        x += step
    return fig


def layer_shapes(q: Array, k: Array, v: Array, params: MHAParams, mask: Array = None) -> dict:
    """The shape of every tensor of one layer, in the order the layer computes them.

    Runs the projections, ``mha.split_heads``, ``mha.multi_head_attention`` (its weights and
    output) and ``mha.merge_heads`` on the given inputs. Returns ``{name: (shape, symbols)}``.
    """
    params = to_host(params)
    q, k, v = (to_host(x) for x in (q, k, v))
    h = params.num_heads
    projected = {"Q": q @ params.w_q, "K": k @ params.w_k, "V": v @ params.w_v}
    heads = {name: split_heads(x, h) for name, x in projected.items()}
    out, weights = multi_head_attention(q, k, v, params, mask)
    head_outputs = weights @ heads["V"]  # (..., h, n_q, d_v): what merge_heads concatenates
    return {
        "X_q": (q.shape, ("n_q", "d_model")),
        "X_k": (k.shape, ("n_k", "d_model")),
        "X_v": (v.shape, ("n_k", "d_model")),
        "W^Q": (params.w_q.shape, ("d_model", "h·d_k")),
        "W^K": (params.w_k.shape, ("d_model", "h·d_k")),
        "W^V": (params.w_v.shape, ("d_model", "h·d_v")),
        "Q": (projected["Q"].shape, ("n_q", "h·d_k")),
        "K": (projected["K"].shape, ("n_k", "h·d_k")),
        "V": (projected["V"].shape, ("n_k", "h·d_v")),
        "Q heads": (heads["Q"].shape, ("h", "n_q", "d_k")),
        "K heads": (heads["K"].shape, ("h", "n_k", "d_k")),
        "V heads": (heads["V"].shape, ("h", "n_k", "d_v")),
        "weights": (weights.shape, ("h", "n_q", "n_k")),
        "heads": (head_outputs.shape, ("h", "n_q", "d_v")),
        "Concat": (merge_heads(head_outputs).shape, ("n_q", "h·d_v")),
        "W^O": (params.w_o.shape, ("h·d_v", "d_model")),
        "output": (out.shape, ("n_q", "d_model")),
    }


def layer_dataflow(q: Array, k: Array, v: Array, params: MHAParams, mask: Array = None) -> Any:
    """The data flow of one multi-head attention layer, each tensor with its real shape.

    Queries purple, keys orange, values blue, weights green; the shapes are those of
    :func:`layer_shapes` for these inputs (and so change with them).
    """
    shapes = layer_shapes(q, k, v, params, mask)
    fig, ax = _canvas(12.0, 14.4)

    def box(name: str, x: float, y: float, colour: str, label: str | None = None) -> None:
        _box(ax, x, y, f"{label or name}\n{_shape(*shapes[name])}", colour, f"box-{name}")

    for name, x in {"Q": 2.0, "K": 6.0, "V": 10.0}.items():
        box(f"X_{name.lower()}", x, 0.9, COLOURS["X"], f"{name.lower()} input $X$")
        _arrow(ax, (x, 1.6), (x, 2.9), f"@ $W^{name}$ {shapes[f'W^{name}'][0]}")
        box(name, x, 3.6, COLOURS[name], f"${name}$")
        _arrow(ax, (x, 4.3), (x, 5.6), "split_heads:\nreshape, transpose")
        box(f"{name} heads", x, 6.3, COLOURS[name], f"${name}$ heads")
    _arrow(ax, (2.0, 7.0), (3.6, 8.3))
    _arrow(ax, (6.0, 7.0), (4.4, 8.3), "$QK^T$/√$d_k$, mask,\nsoftmax over keys", dx=0.55)
    box("weights", 4.0, 9.0, COLOURS["A"], "attention weights")
    _arrow(ax, (4.6, 9.7), (6.6, 10.4), "weights @ V heads", dx=0.2)
    _arrow(ax, (10.0, 7.0), (8.0, 10.4))
    box("heads", 7.2, 11.1, COLOURS["V"], "head outputs")
    _arrow(ax, (7.2, 11.8), (7.2, 12.4), "merge_heads (Concat)", dx=0.25)
    box("Concat", 3.2, 13.2, COLOURS["V"])
    _arrow(ax, (4.9, 13.2), (6.9, 13.2))
    _text(ax, 5.9, 12.8, f"@ $W^O$ {shapes['W^O'][0]}", fontsize=8, style="italic", ha="center")
    box("output", 8.9, 13.2, COLOURS["X"])
    return fig


def concat_output_projection(heads: Array, w_o: Array) -> Any:
    """``Concat(head_1..head_h) W^O`` next to ``sum_i head_i W^O_i``: the same matrix.

    Head i's columns of the concatenation meet rows ``i*d_v .. (i+1)*d_v`` of ``W^O``
    (framed in head i's colour); the products ``head_i W^O_i`` add up to the output.
    Entries are drawn red (positive) to blue (negative).

    Shapes
    ------
    heads : (h, n_q, d_v);  w_o : (h*d_v, d_model)
    """
    heads, w_o = np.asarray(to_host(heads)), np.asarray(to_host(w_o))
    if heads.ndim != 3:
        raise ValueError(f"heads must have shape (h, n_q, d_v), got shape {heads.shape}")
    h, n_q, d_v = heads.shape
    if w_o.ndim != 2 or w_o.shape[0] != h * d_v:
        raise ValueError(
            f"w_o must have shape (h*d_v, d_model) = ({h * d_v}, d_model), got {w_o.shape}"
        )
    d_model, gap = w_o.shape[1], 6
    concat = merge_heads(heads)  # (n_q, h*d_v)
    parts = [heads[i] @ w_o[i * d_v : (i + 1) * d_v] for i in range(h)]  # h x (n_q, d_model)
    width = max(h * d_v + 2 * (d_model + gap), h * (d_model + gap) + d_model) + 1
    line = 0.18 * width / PAGE_WIDTH  # one line of 10 pt text, in cells
    top, y = 2.4 * line + 1, 2.4 * line + 2  # the first row of arrays; the second, below it
    y += top + h * d_v
    fig, ax = _canvas(width, y + n_q + 1)

    def draw(values: np.ndarray, x: float, y: float, gid: str, title: str, colour="k") -> None:
        limit = float(np.abs(values).max()) or 1.0
        _grid(ax, values, x, y, gid, cmap="RdBu_r", vmin=-limit, vmax=limit)
        _text(ax, x, y - 0.6, title, fontsize=8, color=colour, va="bottom")

    x_w, x_out = h * d_v + gap, h * d_v + d_model + 2 * gap
    draw(concat, 0, top, "concat", f"Concat(heads)\n{concat.shape}")
    draw(w_o, x_w, top, "w_o", f"$W^O$\n{w_o.shape}")
    draw(concat @ w_o, x_out, top, "out", f"output\n{(n_q, d_model)}")
    for i in range(h):
        _frame(ax, i * d_v, top, d_v, n_q, _head_colour(i))
        _frame(ax, x_w, top + i * d_v, d_model, d_v, _head_colour(i))
    for x, sign in ((x_w - gap / 2, "·"), (x_out - gap / 2, "=")):
        _text(ax, x, top + n_q / 2, sign, fontsize=12, ha="center", va="center")
    for i, part in enumerate(parts):
        x = i * (d_model + gap)
        draw(part, x, y, f"part-{i}", f"$head_{i + 1} W^O_{i + 1}$", _head_colour(i))
        _frame(ax, x, y, d_model, n_q, _head_colour(i))
        _text(
            ax,
            x + d_model + gap / 2,
            y + n_q / 2,
            "+" if i < h - 1 else "=",
            fontsize=12,
            ha="center",
            va="center",
        )
    draw(np.sum(parts, axis=0), h * (d_model + gap), y, "sum", "the sum:\nthe output again")
    return fig


def score_masks(lengths: Any = (5, 3), n: int = 5) -> Any:
    """The score grid of each sequence under its padding mask, the causal mask, and both.

    Made with ``mha.padding_mask(lengths, n)``, ``mha.causal_mask(n)`` and
    ``mha.combine_masks``: a green cell keeps its score, a grey one becomes ``-inf`` before
    the softmax. Rows are queries, columns keys; pad keys are marked.
    """
    padding = padding_mask(np.asarray(lengths), n)  # (B, 1, 1, n)
    causal = causal_mask(n)  # (n, n)
    combined = combine_masks(causal, padding)  # (B, 1, n, n)
    titles = {
        "padding": f"padding_mask(lengths, {n})\n{padding.shape}: no pad keys",
        "causal": f"causal_mask({n})\n{causal.shape}: no future keys",
        "combined": f"combine_masks(causal, padding)\n{combined.shape}: both",
    }
    fig, ax = _canvas(3 * (n + 3) + 4, len(padding) * (n + 2.5) + 3)
    for b in range(len(padding)):
        y = 3 + b * (n + 2.5)
        _text(ax, 0, y + n / 2, f"seq. {b}\nlength {lengths[b]}", va="center", fontsize=9)
        grids = {
            "padding": np.broadcast_to(padding[b, 0], (n, n)),
            "causal": causal,
            "combined": combined[b, 0],
        }
        for p, (kind, grid) in enumerate(grids.items()):
            x = 4 + p * (n + 3)
            _grid(ax, grid.astype(float), x, y, f"{kind}-{b}", **_listed(BLOCKED, ALLOWED))
            for (i, j), allowed in np.ndenumerate(grid):
                _text(
                    ax,
                    x + j + 0.5,
                    y + i + 0.5,
                    f"s{i}{j}" if allowed else "−∞",
                    ha="center",
                    va="center",
                    fontsize=7,
                )
            for j in range(n):
                pad = j >= lengths[b]
                _text(
                    ax,
                    x + j + 0.5,
                    y + n + 0.4,
                    "pad" if pad else f"k{j}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="firebrick" if pad else "0.3",
                )
            if b == 0:
                _text(ax, x, 2.2, titles[kind], fontsize=8, va="bottom")
    return fig


def backward_graph(output: Any, named: dict[str, Any]) -> Any:
    """The graph autograd recorded for ``output``, as ``backward()`` walks it: from the
    output's node at the top to the leaves (the tensors that get a ``.grad``) at the bottom.

    Read from ``output.grad_fn`` and each node's ``next_functions``; a box shows the node's
    autograd name and, where ``named`` gives it, the tensor the node made (its ``grad_fn``) or
    the leaf it accumulates into. Each arrow carries the gradient with respect to the tensor
    below it, ``∂L/∂name``. Only ``torch`` tensors have a ``grad_fn``; torch is not imported.

    Parameters
    ----------
    output : torch.Tensor with a ``grad_fn``
    named : {name: tensor}, the intermediate results and the leaves to label
    """
    root = getattr(output, "grad_fn", None)
    if root is None:
        raise ValueError("output must be a tensor computed from tensors that require grad")
    names = {}
    for name, tensor in named.items():
        node = getattr(tensor, "grad_fn", None)
        names[id(node) if node is not None else ("leaf", id(tensor))] = name

    def label(node: Any) -> str:
        variable = getattr(node, "variable", None)  # AccumulateGrad: the leaf it fills
        key = ("leaf", id(variable)) if variable is not None else id(node)
        return names.get(key, "")

    children, depth, order = {}, {id(root): 0}, [root]
    for node in order:  # breadth first: every node once, the deepest depth wins below
        children[id(node)] = [child for child, _ in node.next_functions if child is not None]
        for child in children[id(node)]:
            if id(child) not in depth:
                order.append(child)
            depth[id(child)] = max(depth.get(id(child), 0), depth[id(node)] + 1)
    x: dict[int, float] = {}

    def place(node: Any, next_leaf: list[float]) -> float:
        if id(node) not in x:
            kids = [place(child, next_leaf) for child in children[id(node)]]
            x[id(node)] = sum(kids) / len(kids) if kids else next_leaf.append(0) or len(next_leaf)
        return x[id(node)]

    place(root, [])
    width, height = 5 * max(x.values()) + 1, 2.4 * max(depth.values()) + 3.6
    fig, ax = _canvas(width, height)

    def at(node: Any) -> tuple[float, float]:
        return 5 * x[id(node)] - 2, 2.4 * depth[id(node)] + 2.2

    _arrow(ax, (at(root)[0], 0.1), (at(root)[0], at(root)[1] - 0.6), f"∂L/∂{label(root)}")
    for i, node in enumerate(order):
        name, (cx, cy) = label(node), at(node)
        leaf = getattr(node, "variable", None) is not None
        text = f"leaf {name}\n{name}.grad" if leaf else f"{name}\n{type(node).__name__}"
        colour = COLOURS.get(name[:1], COLOURS["X"]) if leaf else COLOURS["X"]
        _box(ax, cx, cy, text if name else type(node).__name__, colour, gid=f"node-{i}", size=7)
        for child in children[id(node)]:
            end = at(child)
            _arrow(ax, (cx, cy + 0.6), (end[0], end[1] - 0.6), f"∂L/∂{label(child)}")
    return fig


def toy_task(tokens: Array, targets: Array, position: int = 3) -> Any:
    """Chapter 8's task on one sequence: the tokens, and the two answers at every position.

    ``tokens`` and ``targets`` are one sequence of ``mha.toy.make_batch`` (an answer that is
    not scored, ``mha.toy.IGNORE``, is drawn empty). Arrows show where the two answers at
    ``position`` come from: the previous token (local) and the mirrored one (global).

    Shapes
    ------
    tokens : (n,);  targets : (n, 2) (local, global)
    """
    tokens, targets = np.asarray(to_host(tokens)), np.asarray(to_host(targets))
    n = tokens.shape[0] if tokens.ndim == 1 else -1
    if n < 2 or targets.shape != (n, 2):
        raise ValueError(
            f"tokens must have shape (n,) with n >= 2 and targets (n, 2), got {tokens.shape} "
            f"and {targets.shape}"
        )
    if not 1 <= position < n:
        raise ValueError(
            f"position must be in 1 .. {n - 1} (it has a previous token), got {position}"
        )
    rows = {"tokens": tokens, "local": targets[:, 0], "global": targets[:, 1]}
    names = {"tokens": "tokens x", "local": "local: x[i-1]", "global": "global: x[n-1-i]"}
    fig, ax = _canvas(n + 5, 9.2)
    tops = {"tokens": 1.2, "local": 4.6, "global": 7.6}
    colours = {"tokens": COLOURS["X"], "local": COLOURS["K"], "global": COLOURS["V"]}
    for gid, row in rows.items():
        drawn = np.where(row >= 0, row, np.nan).astype(float)[None]
        _grid(ax, drawn, 4, tops[gid], gid, **_listed(colours[gid]), alpha=0.9)
        _text(ax, 3.7, tops[gid] + 0.5, names[gid], fontsize=8, ha="right", va="center")
        for i, value in enumerate(row):
            _text(ax, 4.5 + i, tops[gid] + 0.5, "" if value < 0 else str(int(value)),
                  fontsize=8, ha="center", va="center")  # fmt: skip
    for i in range(n):
        _text(ax, 4.5 + i, 0.9, f"{i}", fontsize=7, ha="center", va="bottom", color="0.4")
    _text(ax, 3.7, 0.9, "position i", fontsize=7, ha="right", va="bottom", color="0.4")
    for gid, source in (("local", position - 1), ("global", n - 1 - position)):
        _frame(ax, 4 + source, tops["tokens"], 1, 1, "firebrick", 1.6)
        _frame(ax, 4 + position, tops[gid], 1, 1, "firebrick", 1.6)
        ax.annotate("", xy=(4.5 + position, tops[gid]), xytext=(4.5 + source, tops["tokens"] + 1),
                    arrowprops={"arrowstyle": "-|>", "color": "firebrick"}, gid=f"arrow-{gid}")  # fmt: skip
    return fig


def kv_cache_growth(
    prompt_len: int = 3,
    new_tokens: int = 3,
    *,
    num_heads: int = 2,
    num_kv_heads: int = 1,
    d_model: int = 8,
    seed: int = 0,
) -> Any:
    """A KV cache filled by a prefill and then one token per call, as ``decode_step`` does.

    Runs ``mha.efficient.decode_step`` with a real ``KVCache(prompt_len + new_tokens)``.
    Left, after each call: the cache's buffer (reserved once), its positions cached before
    the call, appended by it, and free. Right: which cached keys that call's queries may
    attend, ``mha.causal_mask(n_new, n_k)``, aligned bottom-right.
    """
    prompt_len = _validate.positive_int("prompt_len", prompt_len)
    max_len = prompt_len + _validate.positive_int("new_tokens", new_tokens)
    params = GQAParams.from_mha(init_params(d_model, num_heads, seed=seed), num_kv_heads)
    x = np.random.default_rng(seed).standard_normal((1, max_len, d_model), dtype=np.float32)
    cache = KVCache(max_len)
    calls = []  # (first new position, new tokens, cache length after the call)
    for start, stop in [(0, prompt_len), *((t, t + 1) for t in range(prompt_len, max_len))]:
        decode_step(x[:, start:stop], params, cache)
        calls.append((start, stop - start, cache.length))
    fig, ax = _canvas(2 * max_len + 17, sum(new + 1.2 for _, new, _ in calls) + 4.5)
    _text(ax, 7, 2.2, f"K, V cache: {max_len} positions,\nreserved once", fontsize=9, va="bottom")
    _text(ax, max_len + 11.5, 2.2, "keys each new query\nmay attend", fontsize=9, va="bottom")
    y, positions = 2.5, np.arange(max_len)
    for c, (start, new, length) in enumerate(calls):
        state = (positions < start) * 1 + ((positions >= start) & (positions < length)) * 2
        _grid(ax, state[None, :], 7, y, f"cache-{c}", **_listed("white", COLOURS["K"], "#ef6c00"))
        label = f"prefill, {new} tokens" if c == 0 else f"step: token {start}"
        _text(ax, 6.6, y + 0.5, label, ha="right", va="center", fontsize=8)
        _text(ax, 7.4 + max_len, y + 0.5, f"length {length}", va="center", fontsize=8)
        mask = causal_mask(new, length).astype(int)
        _grid(ax, mask, max_len + 11.5, y, f"mask-{c}", **_listed(BLOCKED, ALLOWED))
        for i in range(new):
            _text(
                ax,
                max_len + 11.2,
                y + i + 0.5,
                f"q{start + i}",
                ha="right",
                va="center",
                fontsize=7,
            )
        y += new + 1.2
    _text(
        ax,
        7,
        y + 0.3,
        "dark: appended by this call; light: cached before; white: free",
        fontsize=8,
        color="0.3",
        va="top",
    )
    return fig


def online_softmax_tiles(
    n_q: int = 256, n_k: int = 512, max_tile_elements: int = 64 * 128, *, causal: bool = True
) -> Any:
    """The score matrix as the lean path of ``mha.multi_head_attention`` tiles it.

    The tile shape is the package's own rule (``mha.lean.tile_shape``) for tiles
    of at most ``max_tile_elements`` scores. Each row of tiles reads the key blocks left to
    right (numbered), carrying its running maximum ``m``, sum ``ℓ`` and output ``o``; only
    one tile of scores exists at a time per worker. Grey: masked by
    ``mha.causal_mask(n_q, n_k)`` (still computed, then set to ``-inf``).
    """
    n_q, n_k = _validate.positive_int("n_q", n_q), _validate.positive_int("n_k", n_k)
    max_tile_elements = _validate.positive_int("max_tile_elements", max_tile_elements)
    block_q, block_k = tile_shape(n_q, n_k, max_tile_elements)
    order = np.broadcast_to(np.arange(n_k) // block_k, (n_q, n_k)).astype(float)
    if causal:
        order = np.where(causal_mask(n_q, n_k), order, np.nan)
    import matplotlib as mpl

    blocks, state = -(-n_k // block_k), max(n_k // 5, 40)
    width, top = n_k + state + 30, 40
    fig, ax = _canvas(width, n_q + top + 5)
    cmap = mpl.colormaps["Blues"].resampled(blocks + 2).with_extremes(bad=BLOCKED)
    _grid(ax, order, 0, top, "tiles", cmap=cmap, vmin=-2, vmax=blocks - 0.5)
    for start in [*range(0, n_q, block_q), n_q]:
        ax.plot([0, n_k], [top + start] * 2, color="0.25", lw=0.8, ls="-")
    for start in [*range(0, n_k, block_k), n_k]:
        ax.plot([start] * 2, [top, top + n_q], color="0.25", lw=0.8, ls="-")
    for row in range(0, n_q, block_q):
        rows = min(block_q, n_q - row)
        middle = top + row + rows / 2
        for b in range(blocks):
            centre = (b * block_k + min((b + 1) * block_k, n_k)) / 2
            _text(ax, centre, middle, str(b + 1), ha="center", va="center", fontsize=8)
        _arrow(ax, (n_k + 2, middle), (n_k + 18, middle))
        bbox = {"boxstyle": "round,pad=0.3", "fc": COLOURS["A"], "ec": "0.4"}
        _text(
            ax,
            n_k + 20,
            middle,
            f"m, ℓ: ({rows}, 1)\no: ({rows}, d_v)",
            va="center",
            fontsize=8,
            bbox=bbox,
        )
    title = f"scores ({n_q} queries × {n_k} keys) in tiles of {block_q} queries × {block_k} keys"
    _text(ax, 0, 12, title, fontsize=9, gid="tiles-title")
    note = "each row of tiles reads key blocks 1, 2, ... and carries m, ℓ, o"
    _text(ax, 0, 30, note + ("; grey: masked by causal_mask" if causal else ""), fontsize=8)
    return fig


def heads_across_devices(params: MHAParams, num_devices: int, x: Array) -> Any:
    """Heads split over devices, as tensor parallelism does; one all-reduce sums the parts.

    Device d holds its heads' columns of ``W^Q``, ``W^K``, ``W^V`` and the matching rows of
    ``W^O`` (top strip: the device of each column), and computes a partial output from the
    whole ``x``: ``mha.multi_head_attention(x, x, x, shard)``. Every shape drawn is that of
    the real slices and partial outputs.

    Shapes
    ------
    x : (..., n, d_model)
    """
    params, x = to_host(params), to_host(x)
    devices, h = _validate.positive_int("num_devices", num_devices), params.num_heads
    if h % devices:
        raise ValueError(f"num_devices={devices} must divide num_heads={h}")
    per_device, d_k, d_v = h // devices, params.d_k, params.d_v
    columns = min(devices, 2)  # boxes two to a row: wide enough for their text at 10 pt
    rows = -(-devices // columns)
    width, row_height = 9.4 * columns + 0.6, 3.4
    bottom = 3.2 + rows * row_height  # below the boxes
    fig, ax = _canvas(width, bottom + 1.8)
    _box(ax, width / 2, 0.5, f"x {x.shape}: the whole input, on every device", COLOURS["X"])
    owner = np.repeat(np.arange(devices), per_device * d_k)[None, :]  # device of each column
    scale = (width - 1.0) / owner.size  # strip units per column
    ax.imshow(
        owner,
        extent=(0.5, width - 0.5, 2.1, 1.6),
        aspect="auto",
        gid="owner",
        **_listed(*(_head_colour(d) for d in range(devices))),
    )
    for head in range(1, h):
        ax.plot([0.5 + head * d_k * scale] * 2, [1.6, 2.1], color="white", lw=0.8, ls="-")
    _text(
        ax,
        0.5,
        1.5,
        f"the {h * d_k} columns of $W^Q$, $W^K$, $W^V$ and rows of $W^O$, "
        f"{h} heads: device of each",
    )
    segment = (width - 1.0) / devices
    for device in range(devices):  # the strip's devices named, not only coloured
        _text(ax, 0.5 + (device + 0.5) * segment, 2.55, f"device {device}", ha="center")
    for device in range(devices):
        heads = range(device * per_device, (device + 1) * per_device)
        cols_k = slice(heads[0] * d_k, (heads[-1] + 1) * d_k)
        cols_v = slice(heads[0] * d_v, (heads[-1] + 1) * d_v)
        shard = MHAParams(
            params.w_q[:, cols_k],
            params.w_k[:, cols_k],
            params.w_v[:, cols_v],
            params.w_o[cols_v, :],
            num_heads=per_device,
        )
        partial, _ = multi_head_attention(x, x, x, shard)
        row, column = divmod(device, columns)
        centre, colour = 0.5 + 9.4 * column + 4.7, _head_colour(device)
        text = (
            f"device {device}: heads {heads[0]}..{heads[-1]}\n"
            f"$W^Q$, $W^K$ columns {cols_k.start}..{cols_k.stop - 1}: {shard.w_q.shape}\n"
            f"$W^V$ columns {cols_v.start}..{cols_v.stop - 1}: {shard.w_v.shape}\n"
            f"$W^O$ rows {cols_v.start}..{cols_v.stop - 1}: {shard.w_o.shape}\n"
            f"partial output $P_{device}$: {partial.shape}"
        )
        _box(
            ax,
            centre,
            3.2 + (row + 0.5) * row_height,
            text,
            (*colour[:3], 0.25),
            f"device-{device}",
        )
    _arrow(ax, (width / 2, bottom), (width / 2, bottom + 0.8))
    total = f"all-reduce: $P_0 + \\dots + P_{{{devices - 1}}}$ = output {partial.shape}"
    _box(ax, width / 2, bottom + 1.3, total + "   (+ $b_O$ once)", COLOURS["A"], "all-reduce")
    return fig


#: The sub-layers of a ``mha.block.TransformerBlock``, by attribute, and their names drawn.
BLOCK_PARTS = {"norm1": "LayerNorm 1", "attention": "attention", "norm2": "LayerNorm 2",
               "feed_forward": "FFN"}  # fmt: skip


def block_steps(block: Any, x: Any) -> list[tuple[str, tuple[str, ...]]]:
    """The data flow of one ``block(x)``, read from the call itself.

    Forward hooks record each sub-layer of :data:`BLOCK_PARTS` as the block calls it, with
    its input and output. Each step is ``(name, inputs)``: a sub-layer with the one value it
    read, or ``"+"`` (a residual addition) with the two values it added, found as the pair
    of earlier values whose sum the next reader received; ``"x"`` is the block's input and
    the last step is ``("output", (value,))``. Values are named by the step that made them.
    torch is not imported: ``block`` is a ``mha.block.TransformerBlock`` and ``x`` a tensor.
    """
    calls: list[tuple[str, Any, Any]] = []
    hooks = []
    for attribute in BLOCK_PARTS:
        module = getattr(block, attribute, None)
        if module is None:
            raise ValueError(f"block must be a TransformerBlock, it has no {attribute!r}")

        def record(module, inputs, output, attribute=attribute):
            out = output[0] if isinstance(output, tuple) else output
            calls.append((attribute, inputs[0].detach(), out.detach()))

        hooks.append(module.register_forward_hook(record))
    try:
        final = block(x).detach()
    finally:
        for hook in hooks:
            hook.remove()
    values: dict[str, Any] = {"x": x.detach()}
    steps: list[tuple[str, tuple[str, ...]]] = []

    def same(a: Any, b: Any) -> bool:
        return a.shape == b.shape and (a - b).abs().max().item() <= 1e-6 * (
            1 + b.abs().max().item()
        )

    def source(tensor: Any) -> str:
        for name, value in reversed(list(values.items())):
            if same(tensor, value):
                return name
        names = list(values)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                if same(tensor, values[a] + values[b]):
                    name = f"+{sum(step == '+' for step, _ in steps) + 1}"
                    steps.append(("+", (a, b)))
                    values[name] = values[a] + values[b]
                    return name
        raise ValueError("a sub-layer read a value that is neither an earlier one nor a sum")

    for attribute, read, made in calls:
        steps.append((attribute, (source(read),)))
        values[attribute] = made
    steps.append(("output", (source(final),)))
    return steps


def pre_and_post_ln(x: Any, d_ff: int = 8, num_heads: int = 2) -> Any:
    """A pre-LN and a post-LN block side by side, drawn from :func:`block_steps`.

    Both are ``mha.block.TransformerBlock`` of ``x``'s width (``norm_first`` True and False),
    called on ``x``; each box is a step in the order the block takes it, top to bottom, and
    each arrow a value passed on: straight down within the column, the residual (skip)
    connections curving round on the left into the addition that receives them. Where the
    LayerNorms sit is what the two columns differ in.

    Shapes
    ------
    x : (..., n, d_model), a floating-point torch tensor
    """
    from mha.block import TransformerBlock

    d_model = x.shape[-1]
    columns = {}
    for norm_first, title in ((True, "pre-LN (GPT-2)"), (False, "post-LN (2017)")):
        block = TransformerBlock(d_model, num_heads, d_ff, norm_first=norm_first).to(x.dtype)
        columns[title] = block_steps(block, x)
    rows = max(len(steps) for steps in columns.values()) + 1
    fig, ax = _canvas(10, 1.3 * rows + 1.2, inches=3.6)
    for c, (title, steps) in enumerate(columns.items()):
        centre = 3.0 + 5 * c
        _text(ax, centre - 0.4, 0.5, title, fontsize=8, ha="center", va="center",
              weight="bold")  # fmt: skip
        where = {"x": 0}  # the row of each value

        def top(row: int) -> float:
            return 1.5 + 1.3 * row

        _box(ax, centre, top(0), "x", COLOURS["X"], gid=f"{c}-x")
        for row, (step, inputs) in enumerate(steps, start=1):
            name = {"+": "+", "output": "output"}.get(step, BLOCK_PARTS.get(step, step))
            colour = {"attention": COLOURS["A"], "feed_forward": COLOURS["V"],
                      "+": "white"}.get(step, COLOURS["K"] if "norm" in step else COLOURS["X"])  # fmt: skip
            _box(ax, centre, top(row), name, colour, gid=f"{c}-{row}-{step}", size=7.5)
            for value in inputs:
                if where[value] == row - 1:  # the step just above: straight down
                    ax.annotate("", xy=(centre, top(row) - 0.35),
                                xytext=(centre, top(row - 1) + 0.35),
                                arrowprops={"arrowstyle": "-|>", "color": "0.3"})  # fmt: skip
                else:  # a residual connection, round on the left
                    ax.annotate("", xy=(centre - 0.35, top(row)),
                                xytext=(centre - 0.5, top(where[value])),
                                arrowprops={"arrowstyle": "-|>", "color": "firebrick",
                                            "connectionstyle": "arc3,rad=0.5"},
                                gid=f"{c}-skip-{value}")  # fmt: skip
            key = {"+": f"+{sum(s == '+' for s, _ in steps[:row])}"}.get(step, step)
            where[key] = row
    return fig


def induction_mechanism(tokens: Array, query: int) -> Any:
    """How a previous-token head and an induction head predict a repeated token, on one
    sequence of ``mha.induction.repeated_sequences``.

    Top row: the tokens. Middle row: what the previous-token head of layer 1 writes at each
    position j, the token before it, ``x[j-1]``. The query at ``query`` (framed) looks, in
    layer 2, for the position j whose written ``x[j-1]`` equals its own token, found here by
    content (the latest earlier occurrence of ``x[query]``, plus one), and copies ``x[j]``:
    the bottom box, the prediction for position ``query + 1``, beside the token that is
    there. For a query in the repeat, j is ``query - m + 1``, the key that
    ``mha.induction.induction_score`` reads.

    Shapes
    ------
    tokens : (n,), integers
    """
    tokens = np.asarray(to_host(tokens))
    if tokens.ndim != 1 or tokens.shape[0] < 3:
        raise ValueError(f"tokens must have shape (n,) with n >= 3, got {tokens.shape}")
    n = tokens.shape[0]
    if not 1 <= query < n - 1:
        raise ValueError(f"query must be in 1 .. {n - 2} (it has a next token), got {query}")
    earlier = np.flatnonzero(tokens[:query] == tokens[query])
    if earlier.size == 0:
        raise ValueError(
            f"token {int(tokens[query])} at query {query} does not occur before it: there "
            "is nothing to copy"
        )
    key = int(earlier[-1]) + 1  # the position after the earlier copy
    previous = np.concatenate([[np.nan], tokens[:-1].astype(float)])  # layer 1's writes
    fig, ax = _canvas(n + 1, 10.6, inches=3.6)
    rows = {"tokens": (1.6, tokens.astype(float), "tokens x[j]", COLOURS["X"]),
            "previous": (4.6, previous, "layer 1, previous-token head: writes x[j-1] at j",
                         COLOURS["K"])}  # fmt: skip
    for gid, (y, row, title, colour) in rows.items():
        _grid(ax, row[None], 0.5, y, gid, **_listed(colour), alpha=0.9)
        _text(ax, 0.5, y - (0.7 if gid == "tokens" else 0.2), title, fontsize=7, va="bottom")
        for j, value in enumerate(row):
            if not np.isnan(value):
                _text(ax, 1 + j, y + 0.5, str(int(value)), fontsize=8, ha="center",
                      va="center")  # fmt: skip
    for j in range(n):
        _text(ax, 1 + j, 1.5, f"{j}", fontsize=7, ha="center", va="bottom", color="0.4")
    for j in range(1, n):  # what layer 1 moves: x[j-1] into position j
        ax.annotate("", xy=(1 + j, 4.6), xytext=(j, 2.6),
                    arrowprops={"arrowstyle": "-|>", "color": "0.75", "lw": 0.6})  # fmt: skip
    _frame(ax, 0.5 + query, 1.6, 1, 1, "firebrick", 1.6)
    _frame(ax, 0.5 + key, 4.6, 1, 1, "firebrick", 1.6)
    ax.annotate("", xy=(1 + key, 5.6), xytext=(1 + query, 2.6), gid="arrow-induction",
                arrowprops={"arrowstyle": "-|>", "color": "firebrick",
                            "connectionstyle": "arc3,rad=-0.35"})  # fmt: skip
    _text(ax, 0.5, 7.0, f"layer 2, induction head: query {query} (x = {int(tokens[query])}) "
          f"finds\nx[j-1] = {int(tokens[query])} at j = {key}, and copies x[{key}]",
          fontsize=7, va="center", color="firebrick")  # fmt: skip
    ax.annotate("", xy=(1 + query, 8.6), xytext=(1 + key, 2.6), gid="arrow-copy",
                arrowprops={"arrowstyle": "-|>", "color": "C0",
                            "connectionstyle": "arc3,rad=0.25"})  # fmt: skip
    prediction = int(tokens[key])
    _box(ax, 1 + query, 9.1, f"predicts {prediction}", COLOURS["A"], gid="prediction", size=7.5)
    _text(ax, 1 + query, 9.7, f"(the next token, x[{query + 1}], is {int(tokens[query + 1])})",
          fontsize=7, ha="center", va="top")  # fmt: skip
    return fig
