"""The building blocks of attention, written once for any array-API library (NumPy, CuPy, ...).

:func:`softmax`, :func:`scaled_dot_product_attention`, :func:`split_heads` and
:func:`merge_heads` are the package's public blocks (re-exported as ``mha.softmax`` and so
on); :func:`project` is the linear projection ``x W + b``; :func:`bias_scores` and
:func:`drop` are the additive bias and the attention dropout that the attention functions
share. Each of them takes its array
namespace ``xp`` from its inputs and checks its arguments; :func:`compute_dtype` and
:func:`matrix_transpose` are helpers that take ``xp``. :mod:`mha.numpy_mha` builds
multi-head attention from these blocks, :mod:`mha.lean` its tiled path, and
:mod:`mha.efficient` grouped-query attention.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import array_api_compat

from mha import _validate

Array = Any


def compute_dtype(xp: ModuleType, dtype: Any) -> Any:
    """The dtype a softmax of ``dtype`` runs in: float16 (and bfloat16) go to float32."""
    low_precision = [getattr(xp, name) for name in ("float16", "bfloat16") if hasattr(xp, name)]
    return xp.float32 if any(dtype == low for low in low_precision) else dtype


def matrix_transpose(xp: ModuleType, x: Array) -> Array:
    """Swap the last two axes."""
    axes = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    return xp.permute_dims(x, axes)


def softmax(x: Array, axis: int = -1) -> Array:
    """Numerically stable softmax along ``axis``.

    ``softmax(x)_i = exp(x_i - max(x)) / sum_j exp(x_j - max(x))``. Subtracting the maximum
    changes nothing mathematically and keeps ``exp`` from overflowing. A slice that is all
    ``-inf`` (a fully masked row) gives zeros, not NaN.

    Parameters
    ----------
    x : array
        Floating-point array (NumPy, CuPy or any array-API library).
    axis : int
        The axis that sums to 1.

    Returns
    -------
    array
        Same shape and dtype as ``x``; float16 inputs are computed in float32.

    Shapes
    ------
    x : (...)  ->  (...)
    """
    xp = _validate.array_namespace(x=x)
    _validate.floating("x", x, xp)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"axis must be an int, got {type(axis).__name__}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(
            f"axis must be in [{-x.ndim}, {x.ndim}) for x of shape {x.shape}, got {axis}"
        )
    z = xp.astype(x, compute_dtype(xp, x.dtype), copy=False)
    row_max = xp.max(z, axis=axis, keepdims=True)
    row_max = xp.where(xp.isfinite(row_max), row_max, xp.zeros_like(row_max))  # all -inf rows
    e = xp.exp(z - row_max)
    total = xp.sum(e, axis=axis, keepdims=True)
    total = xp.where(total == 0, xp.ones_like(total), total)  # fully masked rows -> zeros
    return xp.astype(e / total, x.dtype, copy=False)


def scaled_dot_product_attention(
    q: Array,
    k: Array,
    v: Array,
    mask: Array | None = None,
    *,
    bias: Array | None = None,
    dropout: float = 0.0,
    rng: Any = None,
) -> tuple[Array, Array]:
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k) + bias) V.

    Parameters
    ----------
    q, k, v : array
        Queries, keys and values, one floating dtype. Leading (batch) dimensions broadcast
        like ``matmul``.
    mask : bool array, optional
        True where query i may attend key j; broadcastable to ``(..., n_q, n_k)``.
        A query with no allowed key gets zero weights and a zero output.
    bias : float array or positional bias, optional
        Added to the scaled scores before the mask and the softmax (ALiBi, T5's relative
        bias, a float mask): an array broadcastable to ``(..., n_q, n_k)`` like the mask, or
        a positional bias such as :class:`mha.positions.ALiBi`, called for the positions
        (see :func:`bias_scores`). **Mask and bias combine** as
        ``where(mask, scores + bias, -inf)``: the mask wins, and a ``-inf`` in the bias hides
        a key as the mask does; a row with no finite score gives zeros.
    dropout : float
        Attention dropout (training only: pass 0, the default, to evaluate): each weight is
        zeroed with probability ``dropout`` and the others divided by ``1 - dropout``,
        after the softmax, as ``nn.MultiheadAttention(dropout=p)`` does.
    rng : random generator
        Needed when ``dropout > 0``: ``numpy.random.default_rng(seed)`` (or CuPy's), so that
        a run can be repeated.

    Returns
    -------
    out : array
        The weighted sum of values.
    weights : array
        The attention weights (after dropout, when there is dropout: the ones that
        multiplied the values); without dropout each unmasked row sums to 1.

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    mask, bias : broadcastable to (..., n_q, n_k)
    out : (..., n_q, d_v);  weights : (..., n_q, n_k)
    """
    array_bias = None if callable(bias) else bias
    xp = _validate.array_namespace(q=q, k=k, v=v, mask=mask, bias=array_bias)
    for name, x in (("q", q), ("k", k), ("v", v)):
        _validate.floating(name, x, xp)
        _validate.min_ndim(name, x, 2, "(..., n, d)")
    _validate.same_dtype(xp, q=q, k=k, v=v)
    if k.shape[-1] != q.shape[-1]:
        raise ValueError(
            f"k has d_k={k.shape[-1]} but q has d_k={q.shape[-1]}; "
            "queries and keys must share d_k for the dot product"
        )
    if v.shape[-2] != k.shape[-2]:
        raise ValueError(
            f"v has n_k={v.shape[-2]} rows but k has n_k={k.shape[-2]}; each key needs one value"
        )
    batch = _validate.batch_shape(q=q.shape[:-2], k=k.shape[:-2], v=v.shape[:-2])
    scores_shape = (*batch, q.shape[-2], k.shape[-2])
    if mask is not None:
        _validate.mask_shape(mask, scores_shape, xp)
    _validate.attention_bias(bias, scores_shape, xp)
    dropout = _validate.dropout(dropout, rng)
    compute = compute_dtype(xp, q.dtype)
    q_c, k_c = xp.astype(q, compute, copy=False), xp.astype(k, compute, copy=False)
    scores = (q_c @ matrix_transpose(xp, k_c)) * (1.0 / math.sqrt(q.shape[-1]))  # (..., n_q, n_k)
    if bias is not None:
        added = bias_scores(xp, bias, q.shape[-2], k.shape[-2], dtype=compute, like=q)
        if callable(bias):  # the positional bias's shape is known only now
            _validate.attention_bias(added, scores_shape, xp)
        scores = scores + added
    if mask is not None:
        scores = xp.where(mask, scores, xp.asarray(-math.inf, dtype=compute))
    weights = xp.astype(softmax(scores, axis=-1), q.dtype, copy=False)  # (..., n_q, n_k)
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


def split_heads(x: Array, num_heads: int) -> Array:
    """Split the feature axis into heads and move the heads axis before the sequence axis.

    Head i owns features ``i*d : (i+1)*d``. A plain reshape to ``(..., h, n, d)`` would be
    wrong: the transpose is what keeps each token's features together.

    Shapes
    ------
    x : (..., n, h*d)  ->  (..., h, n, d)
    """
    xp = _validate.array_namespace(x=x)
    _validate.min_ndim("x", x, 2, "(..., n, h*d)")
    num_heads = _validate.positive_int("num_heads", num_heads)
    if x.shape[-1] % num_heads:
        raise ValueError(f"num_heads={num_heads} does not divide x's last dimension {x.shape[-1]}")
    *batch, n, features = x.shape
    x = xp.reshape(x, (*batch, n, num_heads, features // num_heads))  # (..., n, h, d)
    return xp.permute_dims(x, (*range(len(batch)), x.ndim - 2, x.ndim - 3, x.ndim - 1))


def merge_heads(x: Array) -> Array:
    """Concat(head_1, ..., head_h): the inverse of :func:`split_heads`.

    Shapes
    ------
    x : (..., h, n, d)  ->  (..., n, h*d)
    """
    xp = _validate.array_namespace(x=x)
    _validate.min_ndim("x", x, 3, "(..., h, n, d)")
    *batch, h, n, d = x.shape
    x = xp.permute_dims(x, (*range(len(batch)), x.ndim - 2, x.ndim - 3, x.ndim - 1))
    return xp.reshape(x, (*batch, n, h * d))  # (..., n, h*d)


def project(x: Array, w: Array, b: Array | None = None) -> Array:
    """The linear projection ``x @ w + b``, as one 2-D matrix product over all leading axes.

    One product, not one per batch entry (which is what NumPy's ``matmul`` runs for a 3-D
    ``x``): the same numbers, several times faster for small batches of short sequences.

    Shapes
    ------
    x : (..., n, f_in);  w : (f_in, f_out);  b : (f_out,) or None  ->  (..., n, f_out)
    """
    xp = _validate.array_namespace(x=x, w=w, b=b)
    _validate.min_ndim("x", x, 1, "(..., f_in)")
    if w.ndim != 2 or w.shape[0] != x.shape[-1]:
        raise ValueError(
            f"w must be (f_in, f_out) = ({x.shape[-1]}, ...) for x with {x.shape[-1]} "
            f"features, got shape {tuple(w.shape)}"
        )
    if b is not None and tuple(b.shape) != (w.shape[1],):
        raise ValueError(f"b must have shape ({w.shape[1]},), got {tuple(b.shape)}")
    y = xp.reshape(xp.reshape(x, (-1, x.shape[-1])) @ w, (*x.shape[:-1], w.shape[1]))
    return y if b is None else y + b
