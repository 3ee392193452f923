"""The computations of :mod:`mha.functional`, on arguments that are already checked.

A public function checks its arguments once and resolves their array namespace ``xp`` once
(:mod:`mha._validate`), then computes with these functions, which take ``xp`` first and check
nothing: :func:`mha.multi_head_attention` is one check and one namespace, not one per step
(projections, heads, softmax). Written once for any array-API library (NumPy, CuPy, ...).
"""

from __future__ import annotations

import math
from types import ModuleType

from mha._validate import Array


def compute_dtype(xp: ModuleType, dtype: object) -> object:
    """The dtype a softmax of ``dtype`` runs in: float16 (and bfloat16) go to float32."""
    low_precision = [getattr(xp, name) for name in ("float16", "bfloat16") if hasattr(xp, name)]
    return xp.float32 if any(dtype == low for low in low_precision) else dtype


def matrix_transpose(xp: ModuleType, x: Array) -> Array:
    """Swap the last two axes."""
    axes = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    return xp.permute_dims(x, axes)


def softmax(xp: ModuleType, x: Array, axis: int) -> Array:
    """``exp(x - max) / sum(exp(x - max))`` along ``axis``; an all ``-inf`` slice gives zeros.

    Shapes
    ------
    x : (...)  ->  (...), the dtype of ``x`` (float16 computed in float32)
    """
    z = xp.astype(x, compute_dtype(xp, x.dtype), copy=False)
    row_max = xp.max(z, axis=axis, keepdims=True)
    row_max = xp.where(xp.isfinite(row_max), row_max, xp.zeros_like(row_max))  # all -inf rows
    e = xp.exp(z - row_max)
    total = xp.sum(e, axis=axis, keepdims=True)
    total = xp.where(total == 0, xp.ones_like(total), total)  # fully masked rows -> zeros
    return xp.astype(e / total, x.dtype, copy=False)


def attention(
    xp: ModuleType, q: Array, k: Array, v: Array, mask: Array | None
) -> tuple[Array, Array]:
    """``softmax(q k^T / sqrt(d_k)) v`` and the weights; ``mask`` is True where a query may attend.

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v);  mask : (..., n_q, n_k)
    out : (..., n_q, d_v);  weights : (..., n_q, n_k)
    """
    compute = compute_dtype(xp, q.dtype)
    q_c, k_c = xp.astype(q, compute, copy=False), xp.astype(k, compute, copy=False)
    scores = (q_c @ matrix_transpose(xp, k_c)) * (1.0 / math.sqrt(q.shape[-1]))  # (..., n_q, n_k)
    if mask is not None:
        scores = xp.where(mask, scores, xp.asarray(-math.inf, dtype=compute))
    weights = xp.astype(softmax(xp, scores, -1), q.dtype, copy=False)  # (..., n_q, n_k)
    return weights @ v, weights  # (..., n_q, d_v), (..., n_q, n_k)


def split_heads(xp: ModuleType, x: Array, num_heads: int) -> Array:
    """``(..., n, h*d) -> (..., h, n, d)``: head i owns features ``i*d : (i+1)*d``."""
    *batch, n, features = x.shape
    x = xp.reshape(x, (*batch, n, num_heads, features // num_heads))  # (..., n, h, d)
    return xp.permute_dims(x, (*range(len(batch)), x.ndim - 2, x.ndim - 3, x.ndim - 1))


def merge_heads(xp: ModuleType, x: Array) -> Array:
    """``(..., h, n, d) -> (..., n, h*d)``: Concat(head_1, ..., head_h)."""
    *batch, h, n, d = x.shape
    x = xp.permute_dims(x, (*range(len(batch)), x.ndim - 2, x.ndim - 3, x.ndim - 1))
    return xp.reshape(x, (*batch, n, h * d))  # (..., n, h*d)


def project(xp: ModuleType, x: Array, w: Array, b: Array | None) -> Array:
    """``x @ w + b`` as one 2-D product over all leading axes.

    Shapes
    ------
    x : (..., n, f_in);  w : (f_in, f_out);  b : (f_out,) or None  ->  (..., n, f_out)
    """
    y = xp.reshape(xp.reshape(x, (-1, x.shape[-1])) @ w, (*x.shape[:-1], w.shape[1]))
    return y if b is None else y + b
