"""Multi-head attention in NumPy, written once for any array-API library (NumPy, CuPy, ...).

Every public function resolves its array namespace ``xp`` from its inputs, so the same code
runs on NumPy arrays on the CPU and on CuPy arrays on the GPU. Conventions: batch first,
``x @ W`` (paper layout), boolean masks with True = may attend.
"""

from __future__ import annotations

import functools
import math
import os
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import Any

import array_api_compat
import numpy as np

from mha import _validate
from mha.params import MHAParams

Array = Any


# --- building blocks (internal: arguments already validated) ------------------------------


def _compute_dtype(xp: ModuleType, dtype: Any) -> Any:
    """float16 (and bfloat16) inputs get their softmax computed in float32."""
    low_precision = [getattr(xp, name) for name in ("float16", "bfloat16") if hasattr(xp, name)]
    return xp.float32 if any(dtype == low for low in low_precision) else dtype


def _softmax(xp: ModuleType, x: Array, axis: int) -> Array:
    compute = _compute_dtype(xp, x.dtype)
    z = xp.astype(x, compute, copy=False)
    row_max = xp.max(z, axis=axis, keepdims=True)
    row_max = xp.where(xp.isfinite(row_max), row_max, xp.zeros_like(row_max))  # all -inf rows
    e = xp.exp(z - row_max)
    total = xp.sum(e, axis=axis, keepdims=True)
    total = xp.where(total == 0, xp.ones_like(total), total)  # fully masked rows -> zeros
    return xp.astype(e / total, x.dtype, copy=False)


def _matrix_transpose(xp: ModuleType, x: Array) -> Array:
    axes = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    return xp.permute_dims(x, axes)


def _attention(xp: ModuleType, q: Array, k: Array, v: Array, mask: Array | None):
    scale = 1.0 / math.sqrt(q.shape[-1])
    compute = _compute_dtype(xp, q.dtype)
    q_c, k_c = xp.astype(q, compute, copy=False), xp.astype(k, compute, copy=False)
    scores = q_c @ _matrix_transpose(xp, k_c)  # (..., n_q, n_k)
    scores = scores * scale
    if mask is not None:
        scores = xp.where(mask, scores, xp.asarray(-math.inf, dtype=compute))
    weights = xp.astype(_softmax(xp, scores, -1), q.dtype, copy=False)
    return weights @ v, weights  # (..., n_q, d_v), (..., n_q, n_k)


# --- the lean, fast path (need_weights=False) ----------------------------------------------
# The same result as ``_attention(...)[0]``, computed tile by tile so that the full
# (..., n_q, n_k) scores never exist at once. On NumPy the tiles run on every core.

#: Defaults of ``multi_head_attention(..., memory_budget=)``, in bytes. On the CPU the tiled
#: path is already the faster one above a few MiB of scores (cache-sized tiles, every core);
#: on a GPU each tile costs kernel launches, so tiles are worth it only to save memory.
DEFAULT_MEMORY_BUDGET = {"cpu": 8 * 2**20, "gpu": 2**30}
_TILE_ELEMENTS = 2**20  # one NumPy worker's score tile (4 MiB in float32): cache-sized
_MIN_TILE_SIDE = 64  # tiles are at least 64 x 64, however small the budget
_SHIFT_FREE_BOUND = 60.0  # |score| <= 60 (base 2): 2**score lies in [2**-60, 2**60], no overflow


def _tile_shape(n_q: int, n_k: int, max_elements: int) -> tuple[int, int]:
    """(query rows, key columns) of a score tile with at most ``max_elements`` entries.

    Whole rows of keys when at least 64 rows fit (then each row is one ordinary softmax);
    otherwise 64 rows and blocks of keys, combined by the online softmax. Never smaller
    than 64 x 64 (or the whole problem).
    """
    rows = max_elements // n_k
    if rows >= min(n_q, _MIN_TILE_SIDE):
        return min(n_q, rows), n_k
    rows = min(n_q, _MIN_TILE_SIDE)
    return rows, max(min(n_k, _MIN_TILE_SIDE), max_elements // rows)


def _exp2(xp: ModuleType, x: Array) -> Array:
    """2 ** x (the array-API standard has no ``exp2``; NumPy and CuPy do)."""
    return xp.exp2(x) if hasattr(xp, "exp2") else xp.exp(x * math.log(2.0))


def _online_softmax_attention(
    xp: ModuleType,
    q: Array,
    k: Array,
    v: Array,
    blocked: Array | None,
    block_k: int,
    shift_free: bool = False,
) -> Array:
    """softmax(q k^T) v, one block of keys at a time, in base 2.

    ``q`` comes scaled by ``log2(e) / sqrt(d_k)``, so that ``2 ** scores`` replaces
    ``exp(q k^T / sqrt(d_k))``: the same softmax, and NumPy's ``exp2`` is faster than its
    ``exp``. The online softmax keeps, per query, the running maximum ``m`` of the scores
    seen so far, the running sum ``l`` of ``2 ** (score - m)`` and the running output
    ``acc``. When a block raises the maximum to ``m'``, the old ``l`` and ``acc`` are
    multiplied by ``2 ** (m - m')``; at the end ``acc / l`` is the softmax-weighted sum of
    all the values. With ``block_k >= n_k`` it is the ordinary softmax.

    The maximum is subtracted only so that ``2 ** score`` cannot overflow. ``shift_free``
    says the caller has proved every ``|score| <= _SHIFT_FREE_BOUND``: then the powers and
    their sums stay normal float32 numbers as they are, and the maximum is skipped.

    The scores are computed transposed, one *column* per query (``k q^T``): with
    d_k = 64 BLAS runs that product about 1.5x faster than ``q k^T``. ``blocked`` is True
    where a query may *not* attend a key. On NumPy the scores are masked and exponentiated
    in place.

    Shapes
    ------
    q : (..., bq, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    blocked : broadcastable to (..., bq, n_k);  returns : (..., bq, d_v)
    """
    in_place = array_api_compat.is_numpy_namespace(xp)
    n_k = k.shape[-2]
    q_t = _matrix_transpose(xp, q)  # (..., d_k, bq)
    col_max = total = acc = None  # col_max, total : (..., 1, bq)
    ones = xp.ones(min(block_k, n_k), dtype=q.dtype)
    for start in range(0, n_k, block_k):
        keys = slice(start, min(start + block_k, n_k))
        scores = k[..., keys, :] @ q_t  # (..., bk, bq)
        if blocked is not None:
            blocked_keys = blocked[..., keys] if blocked.shape[-1] > 1 else blocked
            blocked_keys = _matrix_transpose(xp, blocked_keys)  # (..., bk, bq)
            if in_place:
                np.copyto(scores, -np.inf, where=blocked_keys)
            else:
                scores = xp.where(blocked_keys, xp.asarray(-math.inf, dtype=q.dtype), scores)
        rescale = None
        if shift_free:
            shifted = scores
        else:
            block_max = xp.max(scores, axis=-2, keepdims=True)
            new_max = block_max if col_max is None else xp.maximum(col_max, block_max)
            shift = xp.where(xp.isfinite(new_max), new_max, xp.zeros_like(new_max))  # masked
            shifted = np.subtract(scores, shift, out=scores) if in_place else scores - shift
            if col_max is not None:
                rescale = _exp2(xp, col_max - shift)  # re-base earlier blocks to the new max
            col_max = new_max
        p = np.exp2(shifted, out=shifted) if in_place else _exp2(xp, shifted)
        block_total = xp.expand_dims(ones[: p.shape[-2]] @ p, axis=-2)  # column sums, by BLAS
        block_out = _matrix_transpose(xp, p) @ v[..., keys, :]  # (..., bq, d_v)
        if total is None:
            total, acc = block_total, block_out
        elif rescale is None:
            total, acc = total + block_total, acc + block_out
        else:
            total = total * rescale + block_total
            acc = acc * _matrix_transpose(xp, rescale) + block_out
    total = xp.where(total == 0, xp.ones_like(total), total)  # fully masked rows -> zeros
    return acc / _matrix_transpose(xp, total)


@functools.cache
def _cpu_count() -> int:
    """The CPU cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _threads_apply(xp: ModuleType, dtype: Any) -> bool:
    """Whether NumPy work of this dtype runs on the thread pool: NumPy, float32/64, 2+ cores."""
    return (
        array_api_compat.is_numpy_namespace(xp)
        and _compute_dtype(xp, dtype) == dtype
        and _cpu_count() > 1
    )


@functools.cache
def _thread_pool() -> tuple[ThreadPoolExecutor, Any]:
    """A pool with one thread per core, and a controller of BLAS's own threads."""
    from threadpoolctl import ThreadpoolController

    return ThreadPoolExecutor(_cpu_count(), thread_name_prefix="mha"), ThreadpoolController()


if hasattr(os, "register_at_fork"):  # a forked child has none of the pool's threads: new pool
    os.register_at_fork(after_in_child=_thread_pool.cache_clear)


def _matmul_threads(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` with the rows of ``a`` split over the thread pool, BLAS single-threaded.

    Next to the lean path's tiles this keeps BLAS's own threads asleep: after a
    multi-threaded product they spin for ~0.1 s and would compete with the pool's workers.
    """
    out = np.empty((a.shape[0], b.shape[1]), dtype=np.result_type(a, b))
    step = -(-a.shape[0] // _cpu_count())  # rows per worker, rounded up
    executor, blas = _thread_pool()
    with blas.limit(limits=1, user_api="blas"):
        chunks = [slice(start, start + step) for start in range(0, a.shape[0], step)]
        for future in [executor.submit(np.matmul, a[c], b, out=out[c]) for c in chunks]:
            future.result()
    return out


def _attention_threads(
    xp: ModuleType,
    q: Array,
    k: Array,
    v: Array,
    blocked: Array | None,
    max_elements: int,
    shift_free: bool,
) -> Array:
    """NumPy only: tiles (one batch index, a block of query rows) run on a thread pool.

    NumPy releases the GIL inside matrix products and element-wise operations, so the
    workers run at once. Each calls BLAS single-threaded (set with ``threadpoolctl`` for the
    duration of the call), so that the cores are not oversubscribed and the element-wise
    softmax, single-threaded in NumPy, runs next to the products instead of after them.

    Shapes
    ------
    q : (..., n_q, d_k), already scaled;  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    blocked : (..., n_q or 1, n_k or 1);  returns : (..., n_q, d_v)
    """
    extra = () if blocked is None else blocked.shape[:-2]
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2], extra)
    q, k, v = (np.broadcast_to(x, (*batch, *x.shape[-2:])) for x in (q, k, v))  # views
    if blocked is not None:
        blocked = np.broadcast_to(blocked, (*batch, *blocked.shape[-2:]))
    n_q, n_k = q.shape[-2], k.shape[-2]
    workers = _cpu_count()
    block_q, block_k = _tile_shape(n_q, n_k, min(_TILE_ELEMENTS, max_elements // workers))
    out = np.empty((*batch, n_q, v.shape[-1]), dtype=q.dtype)

    def attend(index: tuple[int, ...], rows: slice) -> None:
        blocked_tile = None
        if blocked is not None:
            blocked_tile = blocked[index][rows] if blocked.shape[-2] > 1 else blocked[index]
        out[index][rows] = _online_softmax_attention(
            xp, q[index][rows], k[index], v[index], blocked_tile, block_k, shift_free
        )

    tiles = [
        (index, slice(start, min(start + block_q, n_q)))
        for index in np.ndindex(*batch)
        for start in range(0, n_q, block_q)
    ]
    if workers == 1 or len(tiles) == 1:
        for tile in tiles:
            attend(*tile)
    else:
        executor, blas = _thread_pool()
        with blas.limit(limits=1, user_api="blas"):
            for future in [executor.submit(attend, *tile) for tile in tiles]:
                future.result()
    return out


def _scores_are_small(xp: ModuleType, q: Array, k: Array, v: Array) -> bool:
    """True when no score ``q_i . k_j`` can exceed ``_SHIFT_FREE_BOUND`` in absolute value.

    By Cauchy-Schwarz ``|q_i . k_j| <= |q_i| |k_j|``, so the largest query norm times the
    largest key norm bounds every score. The values are bounded too, so that the running
    output ``sum_j 2**score * v_j`` stays finite (at most ``n_k * 2**60 * max|v|``).
    """
    q_norm = xp.sqrt(xp.max(xp.vecdot(q, q)))
    k_norm = xp.sqrt(xp.max(xp.vecdot(k, k)))
    v_max = xp.max(xp.abs(v))
    bound = _SHIFT_FREE_BOUND
    return float(q_norm * k_norm) <= bound and float(v_max) * k.shape[-2] <= 2.0**bound


def _attention_blocked(
    xp: ModuleType, q: Array, k: Array, v: Array, mask: Array | None, memory_budget: int
) -> Array:
    """``_attention(xp, q, k, v, mask)[0]`` in score tiles that together fit ``memory_budget``.

    The scale 1/sqrt(d_k), and log2(e) for the base-2 softmax of
    :func:`_online_softmax_attention`, are folded into the queries (an (n_q, d_k) product,
    not (n_q, n_k)). NumPy float32/float64 arrays go to :func:`_attention_threads`; other
    libraries (CuPy, ...) and dtypes take one block of query rows at a time, all batch
    entries at once, with tiles sized for the scores and two temporaries of their size.

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    mask : broadcastable to (..., n_q, n_k);  returns : (..., n_q, d_v)
    """
    dtype, compute = q.dtype, _compute_dtype(xp, q.dtype)
    itemsize = 4 if compute == xp.float32 else 8
    blocked = None
    if mask is not None:
        mask = xp.reshape(mask, (1,) * (2 - mask.ndim) + tuple(mask.shape))  # at least 2-D
        blocked = xp.logical_not(mask)
    q = xp.astype(q, compute, copy=False) * (math.log2(math.e) / math.sqrt(q.shape[-1]))
    k, v = xp.astype(k, compute, copy=False), xp.astype(v, compute, copy=False)
    shift_free = _scores_are_small(xp, q, k, v)
    if array_api_compat.is_numpy_namespace(xp) and compute == dtype:
        return _attention_threads(xp, q, k, v, blocked, memory_budget // itemsize, shift_free)
    batch = _validate.batch_shape(q=q.shape[:-2], k=k.shape[:-2], v=v.shape[:-2])
    n_q, n_k = q.shape[-2], k.shape[-2]
    per_entry = memory_budget // (3 * itemsize * math.prod(batch))  # scores and 2 temporaries
    block_q, block_k = _tile_shape(n_q, n_k, per_entry)
    outs = []
    for start in range(0, n_q, block_q):
        rows = slice(start, min(start + block_q, n_q))
        blocked_rows = None
        if blocked is not None:
            blocked_rows = blocked[..., rows, :] if blocked.shape[-2] > 1 else blocked
        outs.append(
            _online_softmax_attention(xp, q[..., rows, :], k, v, blocked_rows, block_k, shift_free)
        )
    out = outs[0] if len(outs) == 1 else xp.concat(outs, axis=-2)
    return xp.astype(out, dtype, copy=False)


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

    ``threaded`` (NumPy only) splits the rows over the thread pool, as the lean path's tiles.
    """
    *batch, n, features = x.shape
    rows = xp.reshape(x, (-1, features))
    y = _matmul_threads(rows, w) if threaded else rows @ w
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
    xp = _validate.array_namespace(q=q, k=k, v=v, mask=mask, params=params.w_q)
    for name, x in (("q", q), ("k", k), ("v", v)):
        _validate.floating(name, x, xp)
        _validate.min_ndim(name, x, 2, "(..., n, features)")
    _validate.same_dtype(xp, q=q, k=k, v=v, params=params.w_q)
    for name, x, w, w_name in (
        ("q", q, params.w_q, "w_q"),
        ("k", k, params.w_k, "w_k"),
        ("v", v, params.w_v, "w_v"),
    ):
        if x.shape[-1] != w.shape[0]:
            raise ValueError(
                f"{name} has {x.shape[-1]} features but params.{w_name} expects "
                f"{w.shape[0]} (shape {tuple(w.shape)})"
            )
    if v.shape[-2] != k.shape[-2]:
        raise ValueError(
            f"v has n_k={v.shape[-2]} rows but k has n_k={k.shape[-2]}; each key needs one value"
        )
    batch = _validate.batch_shape(q=q.shape[:-2], k=k.shape[:-2], v=v.shape[:-2])
    if mask is not None:
        expected = (*batch, params.num_heads, q.shape[-2], k.shape[-2])
        _validate.mask_shape(mask, expected, xp)
    return xp


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
        core. Below it, the plain path holds the scores and a few temporaries of their size.
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
    itemsize = 4 if _compute_dtype(xp, q.dtype) == xp.float32 else 8
    scores_bytes = itemsize * math.prod((*batch, h, q.shape[-2], k.shape[-2]))
    lean = not need_weights and scores_bytes > memory_budget
    # NumPy's lean path: the projections on the same thread pool as the tiles
    threaded = lean and _threads_apply(xp, q.dtype)
    q_heads = _split_heads(xp, _project(xp, q, params.w_q, params.b_q, threaded), h)
    k_heads = _split_heads(xp, _project(xp, k, params.w_k, params.b_k, threaded), h)
    v_heads = _split_heads(xp, _project(xp, v, params.w_v, params.b_v, threaded), h)
    if lean:
        heads, weights = (
            _attention_blocked(xp, q_heads, k_heads, v_heads, mask, memory_budget),
            None,
        )
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
