"""Multi-head attention in NumPy, written once for any array-API library (NumPy, CuPy, ...).

Every public function resolves its array namespace ``xp`` from its inputs, so the same code
runs on NumPy arrays on the CPU and on CuPy arrays on the GPU. Conventions: batch first,
``x @ W`` (paper layout), boolean masks with True = may attend. The lean, tiled path that
:func:`multi_head_attention` takes with ``need_weights=False`` and large scores lives in
:mod:`mha.lean_attention`.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import array_api_compat

from mha import _validate, lean_attention
from mha._blocks import compute_dtype, matrix_transpose
from mha.lean_attention import DEFAULT_MEMORY_BUDGET
from mha.params import MHAParams

Array = Any


# --- building blocks (internal: arguments already validated) ------------------------------


def _softmax(xp: ModuleType, x: Array, axis: int) -> Array:
    compute = compute_dtype(xp, x.dtype)
    z = xp.astype(x, compute, copy=False)
    row_max = xp.max(z, axis=axis, keepdims=True)
    row_max = xp.where(xp.isfinite(row_max), row_max, xp.zeros_like(row_max))  # all -inf rows
    e = xp.exp(z - row_max)
    total = xp.sum(e, axis=axis, keepdims=True)
    total = xp.where(total == 0, xp.ones_like(total), total)  # fully masked rows -> zeros
    return xp.astype(e / total, x.dtype, copy=False)


def _attention(xp: ModuleType, q: Array, k: Array, v: Array, mask: Array | None):
    scale = 1.0 / math.sqrt(q.shape[-1])
    compute = compute_dtype(xp, q.dtype)
    q_c, k_c = xp.astype(q, compute, copy=False), xp.astype(k, compute, copy=False)
    scores = q_c @ matrix_transpose(xp, k_c)  # (..., n_q, n_k)
    scores = scores * scale
    if mask is not None:
        scores = xp.where(mask, scores, xp.asarray(-math.inf, dtype=compute))
    weights = xp.astype(_softmax(xp, scores, -1), q.dtype, copy=False)
    return weights @ v, weights  # (..., n_q, d_v), (..., n_q, n_k)


def _split_heads(xp: ModuleType, x: Array, num_heads: int) -> Array:
    *batch, n, features = x.shape
    x = xp.reshape(x, (*batch, n, num_heads, features // num_heads))  # (..., n, h, d)
    return xp.permute_dims(x, (*range(len(batch)), x.ndim - 2, x.ndim - 3, x.ndim - 1))


def _merge_heads(xp: ModuleType, x: Array) -> Array:
    *batch, h, n, d = x.shape
    x = xp.permute_dims(x, (*range(len(batch)), x.ndim - 2, x.ndim - 3, x.ndim - 1))
    return xp.reshape(x, (*batch, n, h * d))  # (..., n, h*d)


def _project(xp: ModuleType, x: Array, w: Array, b: Array | None, threaded: bool = False) -> Array:
    """``x @ w (+ b)`` as one 2-D product: NumPy would run one product per batch entry.

    ``threaded`` (NumPy only) splits the rows over the lean path's thread pool.
    """
    *batch, n, features = x.shape
    rows = xp.reshape(x, (-1, features))
    y = lean_attention.matmul_threads(rows, w) if threaded else rows @ w
    y = xp.reshape(y, (*batch, n, w.shape[1]))
    return y if b is None else y + b


# --- public functions ---------------------------------------------------------------------


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
    return _softmax(xp, x, axis)


def scaled_dot_product_attention(
    q: Array, k: Array, v: Array, mask: Array | None = None
) -> tuple[Array, Array]:
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V.

    Parameters
    ----------
    q, k, v : array
        Queries, keys and values, one floating dtype. Leading (batch) dimensions broadcast
        like ``matmul``.
    mask : bool array, optional
        True where query i may attend key j; broadcastable to ``(..., n_q, n_k)``.
        A query with no allowed key gets zero weights and a zero output.

    Returns
    -------
    out : array
        The weighted sum of values.
    weights : array
        The attention weights; each unmasked row sums to 1.

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v);  mask : (..., n_q, n_k)
    out : (..., n_q, d_v);  weights : (..., n_q, n_k)
    """
    xp = _validate.array_namespace(q=q, k=k, v=v, mask=mask)
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
    if mask is not None:
        _validate.mask_shape(mask, (*batch, q.shape[-2], k.shape[-2]), xp)
    return _attention(xp, q, k, v, mask)


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
    return _split_heads(xp, x, num_heads)


def merge_heads(x: Array) -> Array:
    """Concat(head_1, ..., head_h): the inverse of :func:`split_heads`.

    Shapes
    ------
    x : (..., h, n, d)  ->  (..., n, h*d)
    """
    xp = _validate.array_namespace(x=x)
    _validate.min_ndim("x", x, 3, "(..., h, n, d)")
    return _merge_heads(xp, x)


def _check_mha_args(q, k, v, params, mask) -> ModuleType:
    if not isinstance(params, MHAParams):
        raise TypeError(
            f"params must be an mha.MHAParams (see mha.init_params), got {type(params).__name__}"
        )
    return _validate.attention_inputs(q, k, v, params, mask)


def multi_head_attention(
    q: Array,
    k: Array,
    v: Array,
    params: MHAParams,
    mask: Array | None = None,
    *,
    need_weights: bool = True,
    memory_budget: int | None = None,
) -> tuple[Array, Array | None]:
    """MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W^O, all heads at once.

    ``head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V)``. The h per-head projections are one
    matrix product with the fused ``(d_model, h*d_k)`` weight, then :func:`split_heads`.

    Parameters
    ----------
    q, k, v : array
        Query, key and value sequences. Self-attention passes the same ``x`` three times;
        cross-attention takes ``k`` and ``v`` from another sequence (``n_k`` may differ).
    params : MHAParams
        Weights in paper layout (``x @ W``), e.g. from :func:`mha.init_params`.
    mask : bool array, optional
        True = may attend; broadcastable to ``(..., h, n_q, n_k)``.
    need_weights : bool
        Return the per-head attention weights; ``False`` returns ``(out, None)``.
    memory_budget : int, optional
        Bytes the attention scores may take at once when ``need_weights=False``; by default
        :data:`DEFAULT_MEMORY_BUDGET`: 8 MiB for NumPy, 1 GiB for other libraries (GPUs).
        When the ``(..., h, n_q, n_k)`` scores would exceed it, they are computed in tiles of
        queries and keys that together fit it, combined by an online softmax: the same
        result, never all of the scores at once, and on NumPy the tiles run on every CPU
        core (see :mod:`mha.lean_attention`). Below it, the plain path holds the scores and a
        few temporaries of their size.
        With ``need_weights=True`` all the weights are returned, whatever the budget.

    Returns
    -------
    out : array
    weights : array or None

    Shapes
    ------
    q : (..., n_q, d_model);  k : (..., n_k, kdim);  v : (..., n_k, vdim)
    mask : (..., h, n_q, n_k) or anything that broadcasts to it
    out : (..., n_q, d_model);  weights : (..., h, n_q, n_k)
    """
    xp = _check_mha_args(q, k, v, params, mask)
    if memory_budget is None:
        on_cpu = array_api_compat.is_numpy_namespace(xp)
        memory_budget = DEFAULT_MEMORY_BUDGET["cpu" if on_cpu else "gpu"]
    memory_budget = _validate.positive_int("memory_budget", memory_budget)
    h = params.num_heads
    batch = _validate.batch_shape(q=q.shape[:-2], k=k.shape[:-2], v=v.shape[:-2])
    itemsize = 4 if compute_dtype(xp, q.dtype) == xp.float32 else 8
    scores_bytes = itemsize * math.prod((*batch, h, q.shape[-2], k.shape[-2]))
    lean = not need_weights and scores_bytes > memory_budget
    # NumPy's lean path: the projections on the same thread pool as the tiles
    threaded = lean and lean_attention.threads_apply(xp, q.dtype)
    q_heads = _split_heads(xp, _project(xp, q, params.w_q, params.b_q, threaded), h)
    k_heads = _split_heads(xp, _project(xp, k, params.w_k, params.b_k, threaded), h)
    v_heads = _split_heads(xp, _project(xp, v, params.w_v, params.b_v, threaded), h)
    if lean:
        heads = lean_attention.attention(xp, q_heads, k_heads, v_heads, mask, memory_budget)
        weights = None
    else:
        heads, weights = _attention(xp, q_heads, k_heads, v_heads, mask)  # (..., h, n_q, d_v)
    concat = _merge_heads(xp, heads)  # (..., n_q, h*d_v)
    out = _project(xp, concat, params.w_o, params.b_o, threaded)  # (..., n_q, d_model)
    return out, (weights if need_weights else None)


def multi_head_attention_loop(
    q: Array, k: Array, v: Array, params: MHAParams, mask: Array | None = None
) -> tuple[Array, Array]:
    """The same as :func:`multi_head_attention`, one head at a time, as the paper writes it.

    Head i uses the column slices ``W_i^Q = w_q[:, i*d_k:(i+1)*d_k]`` (likewise K and V),
    computes ``head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V)``, and the heads are concatenated
    in order before ``W^O``. Slower than the batched form and meant for reading.

    Shapes
    ------
    As :func:`multi_head_attention`; weights : (..., h, n_q, n_k).
    """
    xp = _check_mha_args(q, k, v, params, mask)
    d_k, d_v = params.d_k, params.d_v
    heads, weights = [], []
    for i in range(params.num_heads):
        qk_cols, v_cols = slice(i * d_k, (i + 1) * d_k), slice(i * d_v, (i + 1) * d_v)
        q_i = _project(
            xp, q, params.w_q[:, qk_cols], None if params.b_q is None else params.b_q[qk_cols]
        )
        k_i = _project(
            xp, k, params.w_k[:, qk_cols], None if params.b_k is None else params.b_k[qk_cols]
        )
        v_i = _project(
            xp, v, params.w_v[:, v_cols], None if params.b_v is None else params.b_v[v_cols]
        )
        mask_i = mask
        if mask is not None and mask.ndim >= 3:  # pick head i's slice of the heads axis
            mask_i = mask[..., i if mask.shape[-3] > 1 else 0, :, :]
        head_i, weights_i = _attention(xp, q_i, k_i, v_i, mask_i)  # (..., n_q, d_v)
        heads.append(head_i)
        weights.append(weights_i)
    concat = xp.concat(heads, axis=-1)  # (..., n_q, h*d_v)
    return _project(xp, concat, params.w_o, params.b_o), xp.stack(weights, axis=-3)
