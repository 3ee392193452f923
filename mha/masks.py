"""Attention masks: boolean, True = may attend (the ``F.scaled_dot_product_attention`` rule).

``torch.nn.MultiheadAttention`` uses the opposite polarity for boolean masks (True = may
*not* attend): :func:`flip_polarity` converts. :func:`to_additive` gives the float form
(0 where allowed, -inf where not) that is added to the scores before the softmax.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np

from mha import _validate
from mha._validate import Array


def causal_mask(n_q: int, n_k: int | None = None, *, xp: ModuleType | None = None) -> Array:
    """Query i may attend key j only if j is not in its future.

    With ``n_q == n_k`` this is the lower triangle, diagonal included. With ``n_q != n_k``
    the mask aligns **bottom-right**: the queries are the *last* ``n_q`` positions of the
    ``n_k``-long sequence, so query i sits at position ``i + n_k - n_q`` and may attend keys
    ``0 .. i + n_k - n_q``. That is what decoding with a KV cache needs (one new query
    attends every cached key). When ``n_q > n_k`` the first ``n_q - n_k`` queries have no
    allowed key: their rows are all False, and attention gives them zeros.

    Parameters
    ----------
    n_q, n_k : int
        Query and key counts; ``n_k`` defaults to ``n_q``.
    xp : array namespace, optional
        Where to build the mask (``numpy`` by default; ``cupy`` for the GPU).

    Shapes
    ------
    returns : (n_q, n_k), bool
    """
    n_q = _validate.positive_int("n_q", n_q)
    n_k = n_q if n_k is None else _validate.positive_int("n_k", n_k)
    xp = np if xp is None else xp
    rows = xp.reshape(xp.arange(n_q), (n_q, 1))
    cols = xp.reshape(xp.arange(n_k), (1, n_k))
    return cols <= rows + (n_k - n_q)


def padding_mask(lengths: Any, n_k: int, *, xp: ModuleType | None = None) -> Array:
    """Key j of sequence b is real (may be attended) iff ``j < lengths[b]``.

    Padding hides *keys*, not queries: a padded query still computes something, which the
    loss or the next layer ignores; a padded key must never receive attention. The result has
    singleton heads and query axes so it broadcasts over ``(B, h, n_q, n_k)``.

    Parameters
    ----------
    lengths : sequence of int or 1-D integer array
        Real length of each of the B sequences, ``0 <= lengths[b] <= n_k``.
    n_k : int
        Padded length (number of keys).
    xp : array namespace, optional
        Where to build the mask (``numpy`` by default).

    Shapes
    ------
    lengths : (B,)  ->  returns : (B, 1, 1, n_k), bool
    """
    n_k = _validate.positive_int("n_k", n_k)
    xp = np if xp is None else xp
    host = np.asarray(lengths.get() if hasattr(lengths, "get") else lengths)
    if host.ndim != 1:
        raise ValueError(f"lengths must be 1-D (one length per sequence), got shape {host.shape}")
    if host.size and not np.issubdtype(host.dtype, np.integer):
        raise TypeError(f"lengths must hold integers, got dtype {host.dtype}")
    bad = (host < 0) | (host > n_k)
    if bad.any():
        b = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"lengths[{b}]={int(host[b])} is out of range: expected 0 <= length <= n_k={n_k}"
        )
    lengths_col = xp.reshape(xp.asarray(host.astype(np.int64)), (host.size, 1, 1, 1))
    return xp.reshape(xp.arange(n_k), (1, 1, 1, n_k)) < lengths_col


def combine_masks(*masks: Array | None) -> Array | None:
    """Logical AND of boolean masks (a key must be allowed by every mask); ``None`` is skipped.

    Returns ``None`` when every argument is ``None``. Shapes broadcast against each other,
    e.g. a causal ``(n, n)`` mask with a padding ``(B, 1, 1, n)`` mask gives ``(B, 1, n, n)``.
    """
    present = [(f"masks[{i}]", m) for i, m in enumerate(masks) if m is not None]
    if not present:
        return None
    xp = _validate.array_namespace(**dict(present))
    for name, m in present:
        _validate.boolean(name, m, xp)
    result = present[0][1]
    for name, m in present[1:]:
        try:
            result = xp.logical_and(result, m)
        except ValueError:
            raise ValueError(
                f"{name} has shape {tuple(m.shape)}, which does not broadcast with the "
                f"masks before it (shape {tuple(result.shape)})"
            ) from None
    return result


def flip_polarity(mask: Array) -> Array:
    """Convert between True = may attend (this package, SDPA) and True = may not attend.

    ``torch.nn.MultiheadAttention``'s boolean ``attn_mask`` and ``key_padding_mask`` mark the
    positions that are *not* allowed. The conversion is its own inverse. For
    ``key_padding_mask`` (shape ``(B, n_k)``), flip a padding mask and drop its singleton
    axes: ``flip_polarity(padding_mask(lengths, n))[:, 0, 0, :]``.
    """
    xp = _validate.array_namespace(mask=mask)
    _validate.boolean("mask", mask, xp)
    return xp.logical_not(mask)


def to_additive(mask: Array, dtype: Any = None) -> Array:
    """A float mask to add to the scores: 0 where allowed, ``-inf`` where not.

    ``softmax(scores + to_additive(mask))`` equals the masked softmax, except that a fully
    masked row becomes NaN with this form (``-inf - (-inf)``); the package's attention
    functions use the boolean mask and give zeros instead.
    """
    xp = _validate.array_namespace(mask=mask)
    _validate.boolean("mask", mask, xp)
    dtype = xp.float32 if dtype is None else dtype
    zero = xp.asarray(0.0, dtype=dtype)
    return xp.where(mask, zero, xp.asarray(-math.inf, dtype=dtype))
