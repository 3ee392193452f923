"""Figures the chapters share: the book's figure style, one attention map, a grid of
per-head maps, and matrices of how alike the heads are.

:func:`setup_figures` (called once in each chapter's setup cell) makes every figure that
follows fit the book's page: drawn as SVG with its text kept as text, at most
:data:`PAGE_WIDTH` inches wide (the width of the text column, so a figure is shown at the
size it is drawn), each line series told apart by its dash as well as its colour.
The drawing functions take NumPy (or CuPy) arrays, draw with matplotlib and return what they
drew on. matplotlib (a dependency of ``mha``) is imported inside the functions, so
``import mha`` stays light.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mha._validate import Array
from mha.gpu import to_host

#: The widest a figure is drawn, in inches: the book's text column is 660 CSS px wide in a
#: 1280 px window and a CSS inch is 96 px, so a figure this wide, with the 0.1 in margin
#: Jupyter gives it on each side (653 px), is shown at its own size, where 7 pt (the
#: smallest text, and a script of 10 pt text) is 9.3 CSS px.
PAGE_WIDTH = 6.6

#: The dashes of the line series of one axes, so that they differ by more than colour.
_DASHES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 3)), (0, (8, 2)))


def figure_style() -> dict[str, Any]:
    """The matplotlib settings of the book's figures (what :func:`setup_figures` applies).

    Text stays text in SVG output (``svg.fonttype``), so it is sharp at any zoom and its
    size can be read back; 10 pt text, so that even the sub- and superscripts of formulas
    (70%) stay above 9 CSS px; figures :data:`PAGE_WIDTH` wide by default;
    a property cycle whose series differ in colour and dash, so that a legend never relies
    on colour alone (a series given its own format string, such as ``"o-"``, or its own
    ``linestyle`` opts out: give each series its own marker or dash then).
    """
    import matplotlib as mpl
    from cycler import cycler

    colours = mpl.colormaps["tab10"].colors[: len(_DASHES)]
    cycle = cycler(color=colours, linestyle=_DASHES)
    return {
        "svg.fonttype": "none",
        "svg.hashsalt": "mha-book",  # the same figure gives the same file, build after build
        "figure.figsize": (PAGE_WIDTH, 3.6),
        "font.size": 10,  # 13.3 CSS px; a sub- or superscript is 7 pt, 9.3 px
        "axes.titlesize": 10.5,
        "figure.titlesize": 11,
        "axes.labelsize": 10,
        "xtick.labelsize": 10,  # a log axis labels its ticks 10^k: the exponent is a script
        "ytick.labelsize": 10,
        "legend.fontsize": 10,
        "axes.prop_cycle": cycle,
    }


def setup_figures() -> None:
    """Draw the figures that follow for the book's page (call once, in a chapter's setup cell).

    Applies :func:`figure_style` to matplotlib and, in a Jupyter kernel, shows figures as
    SVG. Outside Jupyter only the style changes.
    """
    import matplotlib as mpl

    mpl.rcParams.update(figure_style())
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: no inline figures to configure
        return
    if get_ipython() is not None:
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("svg")


def _as_host_matrices(name: str, x: Array, ndim: int, shape_hint: str) -> np.ndarray:
    """``x`` as a float NumPy array with exactly ``ndim`` dimensions (booleans become 0/1)."""
    host = to_host(x)
    if host.ndim != ndim:
        raise ValueError(f"{name} must have shape {shape_hint}, got shape {host.shape}")
    if not (np.issubdtype(host.dtype, np.number) or host.dtype == np.bool_):
        raise TypeError(f"{name} must hold numbers or booleans, got dtype {host.dtype}")
    return host.astype(np.float64)


def _check_labels(name: str, labels: Sequence[str] | None, size: int) -> None:
    if labels is not None and len(labels) != size:
        raise ValueError(f"{name} has {len(labels)} labels but the map has {size} positions")


def _label_positions(axis: Any, labels: Sequence[str] | None, size: int) -> None:
    """Every position named by its label; unlabelled positions numbered, as many as fit."""
    if labels is not None:
        axis.set_ticks(range(size), labels)
        return
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(nbins="auto", integer=True, min_n_ticks=1))


def attention_heatmap(
    weights: Array,
    *,
    ax: Any = None,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    title: str | None = None,
    colorbar: bool = True,
    vmin: float | None = 0.0,
    vmax: float | None = 1.0,
    cmap: str = "viridis",
) -> Any:
    """Draw one attention map: row i holds how much query i attends to each key.

    Parameters
    ----------
    weights : array
        Attention weights (or a boolean mask, drawn as 0/1), queries down, keys across.
    ax : matplotlib Axes, optional
        Where to draw; a new figure is made when omitted.
    query_labels, key_labels : sequence of str, optional
        Tick labels (e.g. the tokens); one per query / key.
    title : str, optional
        Axes title.
    colorbar : bool
        Add a colour bar beside the map.
    vmin, vmax : float or None
        Ends of the colour scale; 0 and 1 (weights are probabilities) by default, ``None``
        to take them from the data (e.g. for raw scores).
    cmap : str
        A matplotlib colour map name.

    Returns
    -------
    matplotlib Axes

    Shapes
    ------
    weights : (n_q, n_k)
    """
    import matplotlib.pyplot as plt

    w = _as_host_matrices("weights", weights, 2, "(n_q, n_k)")
    n_q, n_k = w.shape
    _check_labels("query_labels", query_labels, n_q)
    _check_labels("key_labels", key_labels, n_k)
    if ax is None:
        cell = min(0.45, (PAGE_WIDTH - 1.0) / n_k)  # inches per key: at most the page's width
        _, ax = plt.subplots(figsize=(1.0 + cell * n_k, 0.8 + cell * n_q), layout="constrained")
    image = ax.imshow(w, cmap=cmap, vmin=vmin, vmax=vmax, aspect="equal")
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    _label_positions(ax.xaxis, key_labels, n_k)
    _label_positions(ax.yaxis, query_labels, n_q)
    if key_labels is not None:
        ax.tick_params(axis="x", labelrotation=90)
    if title is not None:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
    return ax


def _cell_inches(ncols: int, n_k: int) -> float:
    """The size of one key's cell when ``ncols`` maps of ``n_k`` keys fill the page's width.

    Room is kept for the colour bar (0.6 in), the query labels of the first column (0.8 in)
    and a gap between maps (0.15 in): inner maps show no tick labels (they share them).
    """
    return (PAGE_WIDTH - 1.4 - 0.15 * (ncols - 1)) / (ncols * n_k)


def _grid_columns(h: int, n_k: int, labelled: bool) -> int:
    """The most maps per row (up to 4) whose cells stay big enough for their labels.

    A cell named by a token needs one line of tick text (0.145 in at 10 pt); numbered cells
    are labelled sparsely and may be smaller (0.08 in). The rows are then balanced: 4 heads
    in three columns would leave two empty places, so they take two rows of two.
    """
    smallest = 0.145 if labelled else 0.08
    ncols = next((c for c in range(min(h, 4), 1, -1) if _cell_inches(c, n_k) >= smallest), 1)
    return math.ceil(h / math.ceil(h / ncols))


def head_grid(
    weights: Array,
    *,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    titles: Sequence[str] | None = None,
    ncols: int | None = None,
    suptitle: str | None = None,
    vmin: float | None = 0.0,
    vmax: float | None = 1.0,
) -> Any:
    """Draw each head's attention map side by side, on one shared colour scale.

    Parameters
    ----------
    weights : array
        One map per head, e.g. ``mha.multi_head_attention(...)[1][b]`` for sequence b.
    query_labels, key_labels : sequence of str, optional
        Tick labels shared by every map.
    titles : sequence of str, optional
        One title per head; "head 1", "head 2", ... by default (numbered from 1, as in
        the paper's head_1 ... head_h).
    ncols : int, optional
        Maps per row; by default as many as fit the page's width (up to 4) with cells big
        enough for their labels.
    suptitle : str, optional
        Title of the whole figure.
    vmin, vmax : float or None
        Ends of the shared colour scale; ``None`` takes them from all heads' data.

    Returns
    -------
    matplotlib Figure

    Shapes
    ------
    weights : (h, n_q, n_k)
    """
    import matplotlib.pyplot as plt

    w = _as_host_matrices("weights", weights, 3, "(h, n_q, n_k)")
    h, n_q, n_k = w.shape
    if titles is not None and len(titles) != h:
        raise ValueError(f"titles has {len(titles)} entries but weights has h={h} heads")
    if ncols is not None and (isinstance(ncols, bool) or not isinstance(ncols, int) or ncols < 1):
        raise ValueError(f"ncols must be a positive int, got {ncols!r}")
    labelled = query_labels is not None or key_labels is not None
    ncols = _grid_columns(h, n_k, labelled) if ncols is None else ncols
    nrows = math.ceil(h / ncols)
    cell = min(0.35, max(_cell_inches(ncols, n_k), 0.05))  # an explicit ncols may crowd
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(
            1.4 + ncols * cell * n_k + 0.15 * (ncols - 1),  # as _cell_inches counts
            0.5 + nrows * (0.3 + cell * n_q) + (0.9 if labelled else 0.45),  # titles, keys
        ),
        squeeze=False,
        layout="constrained",
    )
    low = float(w.min()) if vmin is None else vmin
    top = float(w.max()) if vmax is None else vmax
    for i, ax in enumerate(axes.flat):
        if i >= h:
            ax.set_visible(False)
            continue
        attention_heatmap(
            w[i],
            ax=ax,
            query_labels=query_labels,
            key_labels=key_labels,
            title=titles[i] if titles is not None else f"head {i + 1}",
            colorbar=False,
            vmin=low,
            vmax=top,
        )
        ax.label_outer()  # tick labels and axis names on the outer maps only
    image = axes.flat[0].images[0]
    fig.colorbar(image, ax=axes, shrink=0.8)
    if suptitle is not None:
        fig.suptitle(suptitle)
    return fig


def similarity_maps(similarities: Sequence[Array], titles: Sequence[str]) -> Any:
    """Draw (h, h) similarity matrices of heads side by side, on the scale [-1, 1]: red for
    heads alike, blue for opposite (e.g. the maps and the outputs of
    :func:`mha.toy.head_similarities`).

    Returns
    -------
    matplotlib Figure

    Shapes
    ------
    similarities : each (h, h);  titles : one per matrix
    """
    import matplotlib.pyplot as plt

    matrices = [_as_host_matrices("similarities", s, 2, "(h, h)") for s in similarities]
    if not matrices or len(titles) != len(matrices):
        raise ValueError(
            f"titles must hold one title per matrix, got {len(titles)} titles for "
            f"{len(matrices)} matrices (at least one)"
        )
    width = min(PAGE_WIDTH, 3.3 * len(matrices))  # side by side within the page's width
    fig, axes = plt.subplots(
        1, len(matrices), figsize=(width, 3.0), squeeze=False, layout="constrained"
    )
    for ax, matrix, title in zip(axes.flat, matrices, titles, strict=True):
        attention_heatmap(matrix, ax=ax, vmin=-1, vmax=1, cmap="RdBu_r", title=title)
        ax.set(xlabel="head", ylabel="head")
    return fig
