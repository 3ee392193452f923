"""Figures the chapters share: one attention map, a grid of per-head maps, and matrices of
how alike the heads are.

Each function takes NumPy (or CuPy) arrays, draws with matplotlib and returns what it drew
on. matplotlib (a dependency of ``mha``) is imported inside the functions, so ``import mha``
stays light.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mha._validate import Array
from mha.gpu import to_host


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
        _, ax = plt.subplots(figsize=(1.0 + 0.45 * n_k, 0.8 + 0.45 * n_q), layout="constrained")
    image = ax.imshow(w, cmap=cmap, vmin=vmin, vmax=vmax, aspect="equal")
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    ax.set_xticks(range(n_k), key_labels if key_labels is not None else range(n_k))
    ax.set_yticks(range(n_q), query_labels if query_labels is not None else range(n_q))
    if key_labels is not None:
        ax.tick_params(axis="x", labelrotation=90)
    if title is not None:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
    return ax


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
        Maps per row; all heads in one row (up to 4) by default.
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
    ncols = min(h, 4) if ncols is None else ncols
    nrows = math.ceil(h / ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(0.6 + ncols * (0.8 + 0.35 * n_k), 0.6 + nrows * (0.9 + 0.35 * n_q)),
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
        if i % ncols:
            ax.set_ylabel("")
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
    fig, axes = plt.subplots(
        1, len(matrices), figsize=(4 * len(matrices), 3.6), squeeze=False, layout="constrained"
    )
    for ax, matrix, title in zip(axes.flat, matrices, titles, strict=True):
        attention_heatmap(matrix, ax=ax, vmin=-1, vmax=1, cmap="RdBu_r", title=title)
        ax.set(xlabel="head", ylabel="head")
    return fig
