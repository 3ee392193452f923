"""The computations of :mod:`mha.functional`, on arguments that are already checked.

A public function checks its arguments once and resolves their array namespace ``xp`` once
(:mod:`mha._validate`), then computes with these functions, which take ``xp`` first and check
nothing: :func:`mha.multi_head_attention` is one check and one namespace, not one per step
(projections, heads, softmax). Written once for any array-API library (NumPy, CuPy, ...).
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import array_api_compat

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
    xp: ModuleType,
    q: Array,
    k: Array,
    v: Array,
    mask: Array | None,
    bias: Array | None = None,
    dropout: float = 0.0,
    rng: Any = None,
) -> tuple[Array, Array]:
    """``softmax(q k^T / sqrt(d_k) + bias) v`` and the weights; ``mask`` is True where a query
    may attend and wins over ``bias`` (``where(mask, scores + bias, -inf)``); with
    ``dropout > 0`` the weights are dropped (:func:`drop`) before they multiply ``v``.

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    mask, bias : broadcastable to (..., n_q, n_k)  (bias: an array or a positional bias)
    out : (..., n_q, d_v);  weights : (..., n_q, n_k)
    """
    compute = compute_dtype(xp, q.dtype)
    q_c, k_c = xp.astype(q, compute, copy=False), xp.astype(k, compute, copy=False)
    scores = (q_c @ matrix_transpose(xp, k_c)) * (1.0 / math.sqrt(q.shape[-1]))  # (..., n_q, n_k)
    if bias is not None:
        scores = scores + bias_scores(xp, bias, q.shape[-2], k.shape[-2], dtype=compute, like=q)
    if mask is not None:
        scores = xp.where(mask, scores, xp.asarray(-math.inf, dtype=compute))
    weights = xp.astype(softmax(xp, scores, -1), q.dtype, copy=False)  # (..., n_q, n_k)
    if dropout:
        weights = drop(xp, weights, dropout, rng)
    return weights @ v, weights  # (..., n_q, d_v), (..., n_q, n_k)


def bias_scores(
    xp: ModuleType,
    bias: Array,
    n_q: int,
    n_k: int,
    *,
    dtype: Any,
    like: Array,
    rows: slice = slice(None),
    cols: slice = slice(None),
    head: int | None = None,
) -> Array:
    """The part of ``bias`` that the scores of queries ``rows`` and keys ``cols`` get, in ``dtype``.

    An array is sliced (its broadcast axes of size 1 stay as they are). A positional bias is
    called as ``bias(q_positions, k_positions, head)``, with the queries at the positions of
    the last ``n_q`` of the ``n_k`` keys (bottom-right, as :func:`mha.causal_mask`), so that
    only the requested block exists. ``head`` picks one head of either (the heads axis is
    the third from the end).

    Shapes
    ------
    bias : broadcastable to (..., h, n_q, n_k)  ->  broadcastable to (..., [h,] rows, cols)
    """
    if callable(bias):
        device = array_api_compat.device(like)
        q_positions = xp.arange(n_k - n_q, n_k, dtype=dtype, device=device)[rows]
        k_positions = xp.arange(n_k, dtype=dtype, device=device)[cols]
        return xp.astype(bias(q_positions, k_positions, head), dtype, copy=False)
    if head is not None and bias.ndim >= 3:
        bias = bias[..., head if bias.shape[-3] > 1 else 0, :, :]
    block = bias[..., rows if bias.shape[-2] > 1 else slice(None), :]
    block = block[..., cols if bias.shape[-1] > 1 else slice(None)]
    return xp.astype(block, dtype, copy=False)


def drop(xp: ModuleType, weights: Array, p: float, rng: Any) -> Array:
    """Dropout: each weight zeroed with probability ``p``, the others divided by ``1 - p``.

    ``rng.random(shape)`` draws the uniform numbers (a NumPy or CuPy generator); the result's
    expectation is ``weights``.

    Shapes
    ------
    weights : (...)  ->  (...)
    """
    keep = xp.asarray(
        rng.random(tuple(weights.shape)) >= p, device=array_api_compat.device(weights)
    )
    scale = xp.asarray(1.0 / (1.0 - p), dtype=weights.dtype)
    return xp.where(keep, weights * scale, xp.zeros_like(weights))


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


def project_heads(xp: ModuleType, x: Array, w: Array, b: Array | None, num_heads: int) -> Array:
    """``split_heads(x @ w + b)``: a projection's output, one slice of features per head.

    Shapes
    ------
    x : (..., n, f_in);  w : (f_in, h*d);  b : (h*d,) or None  ->  (..., h, n, d)
    """
    return split_heads(xp, project(xp, x, w, b), num_heads)
