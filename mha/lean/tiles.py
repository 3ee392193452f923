"""The lean path's tiles: the output of :func:`mha.multi_head_attention` without the weights.

:func:`mha.multi_head_attention` hands over to :func:`multi_head_attention` here when the
caller does not want the attention weights (``need_weights=False``) and the
``(..., h, n_q, n_k)`` scores would take more than ``memory_budget`` bytes. The result is the same as the readable path's (to rounding:
``tests/test_fast_paths.py`` compares the two for every tiling), but the scores of
:func:`mha.scaled_dot_product_attention` are computed tile by tile (:func:`attention`), so
that they never exist all at once:

- a tile is a block of query rows against whole rows of keys when that fits, else against
  blocks of keys combined by an online softmax (:func:`_online_softmax_attention`); on NumPy
  a tile leaves out the keys after the last one any of its rows may attend
  (:func:`_key_ends`: under a causal mask, about half the products), writes ``-inf`` only over
  the keys some of its rows may not attend (the block around a causal mask's diagonal), and
  the tiles with the most keys run first;
- ``memory_budget`` bounds the bytes of all the tiles alive at once (a tile is never smaller
  than 64 x 64, however small the budget; on NumPy a worker's tile is at most
  :func:`mha.lean.kernels.tile_elements`, sized by the CPU's cache). Its default,
  :data:`mha.numpy_mha.DEFAULT_MEMORY_BUDGET`, is small on the CPU (where cache-sized tiles are faster than
  the whole scores) and large on a GPU (where each tile costs kernel launches);
- on NumPy (float32/float64, two or more cores) the tiles, and the layer's projections, run
  on the thread pool of :mod:`mha.lean.threads`, BLAS single-threaded; other libraries (CuPy,
  ...) and dtypes take one block of query rows at a time.

The exponential (``exp`` or ``exp2``, whichever is faster on this CPU) is
:func:`mha.lean.kernels.exponential`'s choice. Each step of a tile is a function of its own,
timed by :func:`mha.lean.phases.timed` (which only runs it unless a profile is recording):
``python -m mha.bench --profile`` prints where the time goes, against the floor that the
products and the exponentials set.

The functions here expect arguments that :func:`mha.multi_head_attention` has checked.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import array_api_compat
import numpy as np

from mha import _compute, _validate
from mha._compute import compute_dtype, matrix_transpose
from mha._validate import Array
from mha.lean import kernels, threads
from mha.lean.phases import timed
from mha.params import MHAParams
from mha.positions import RoPE

_MIN_TILE_SIDE = 64  # tiles are at least 64 x 64, however small the budget
_MAX_TILE_ROWS = 256  # 1024 x 1024 tiles were ~4% slower than 256 x 1024 (python -m mha.bench)
_SHIFT_FREE_BOUND = 60.0 * math.log(2.0)  # |score| <= 41.6: e**score in [2**-60, 2**60]


def tile_shape(n_q: int, n_k: int, max_elements: int) -> tuple[int, int]:
    """(query rows, key columns) of a score tile with at most ``max_elements`` entries.

    Whole rows of keys when at least 64 rows fit (then each row is one ordinary softmax),
    for at most 256 queries; otherwise 64 rows and blocks of keys, combined by the online
    softmax. Never smaller than 64 x 64 (or the whole problem).
    """
    rows = max_elements // n_k
    if rows >= min(n_q, _MIN_TILE_SIDE):
        return min(n_q, rows, _MAX_TILE_ROWS), n_k
    rows = min(n_q, _MIN_TILE_SIDE)
    return rows, max(min(n_k, _MIN_TILE_SIDE), max_elements // rows)


def worker_tile_shape(n_q: int, n_k: int, max_elements: int, workers: int) -> tuple[int, int]:
    """(query rows, key columns) of the tile each of ``workers`` NumPy threads takes when all
    the tiles alive at once may hold ``max_elements`` numbers: :func:`tile_shape` of the
    smaller of that share and :func:`mha.lean.kernels.tile_elements`."""
    return tile_shape(n_q, n_k, min(kernels.tile_elements(), max_elements // workers))


@timed("QK^T products")
def _scores(k_block: Array, q_t: Array) -> Array:
    return k_block @ q_t  # (..., bk, d_k) @ (..., d_k, bq) -> (..., bk, bq)


@timed("bias")
def _biased(xp: ModuleType, scores: Array, bias_block: Array, in_place: bool) -> Array:
    """The scores plus a block's bias, in the exponential's base: (..., bq or 1, bk or 1)."""
    bias_t = matrix_transpose(xp, bias_block)  # (..., bk, bq)
    return np.add(scores, bias_t, out=scores) if in_place else scores + bias_t


@timed("mask")
def _masked(xp: ModuleType, scores: Array, blocked_keys: Array, in_place: bool) -> Array:
    """``-inf`` where a query may not attend a key; ``blocked_keys`` is (..., bq or 1, bk or 1)."""
    blocked_keys = matrix_transpose(xp, blocked_keys)  # (..., bk, bq)
    if in_place:
        if blocked_keys.shape[-2] > 1:  # only the keys some query of the tile may not attend
            others = tuple(a for a in range(blocked_keys.ndim) if a != blocked_keys.ndim - 2)
            hidden = np.flatnonzero(np.any(blocked_keys, axis=others))
            if hidden.size == 0:
                return scores
            keys = slice(hidden[0], hidden[-1] + 1)  # under a causal mask: the diagonal's
            np.copyto(scores[..., keys, :], -np.inf, where=blocked_keys[..., keys, :])
        else:
            np.copyto(scores, -np.inf, where=blocked_keys)
        return scores
    return xp.where(blocked_keys, xp.asarray(-math.inf, dtype=scores.dtype), scores)


@timed("softmax bookkeeping")
def _shifted(xp: ModuleType, scores: Array, col_max: Array | None, in_place: bool):
    """The scores minus the running maximum, the new maximum, and the factor that re-bases
    the earlier blocks' sums to it (None for the first block)."""
    block_max = xp.max(scores, axis=-2, keepdims=True)  # (..., 1, bq)
    new_max = block_max if col_max is None else xp.maximum(col_max, block_max)
    shift = xp.where(xp.isfinite(new_max), new_max, xp.zeros_like(new_max))  # masked columns
    shifted = np.subtract(scores, shift, out=scores) if in_place else scores - shift
    if col_max is None:
        return shifted, new_max, None
    power = kernels.exponential(xp, shifted.dtype)
    return shifted, new_max, power(xp, col_max - shift)  # base ** (m - m')


@timed("exp")
def _powers(xp: ModuleType, shifted: Array, in_place: bool) -> Array:
    power = kernels.exponential(xp, shifted.dtype)
    return power(xp, shifted, out=shifted if in_place else None)


@timed("softmax bookkeeping")
def _column_sums(xp: ModuleType, ones: Array, p: Array) -> Array:
    return xp.expand_dims(ones[: p.shape[-2]] @ p, axis=-2)  # (..., 1, bq), by BLAS


@timed("PV products")
def _weighted_values(xp: ModuleType, p: Array, v_block: Array) -> Array:
    return matrix_transpose(xp, p) @ v_block  # (..., bq, bk) @ (..., bk, d_v) -> (..., bq, d_v)


@timed("softmax bookkeeping")
def _accumulated(xp: ModuleType, total, acc, rescale, block_total: Array, block_out: Array):
    """The running sum and output after one more block of keys."""
    if total is None:
        return block_total, block_out
    if rescale is None:
        return total + block_total, acc + block_out
    return total * rescale + block_total, acc * matrix_transpose(xp, rescale) + block_out


@timed("softmax bookkeeping")
def _normalised(xp: ModuleType, total: Array, acc: Array) -> Array:
    total = xp.where(total == 0, xp.ones_like(total), total)  # fully masked rows -> zeros
    return acc / matrix_transpose(xp, total)


def _online_softmax_attention(
    xp: ModuleType,
    q: Array,
    k: Array,
    v: Array,
    blocked: Array | None,
    block_k: int,
    shift_free: bool = False,
    bias: Callable[[slice], Array] | None = None,
) -> Array:
    """softmax(q k^T + bias) v, one block of keys at a time, in the chosen exponential's base.

    The exponential is :func:`mha.lean.kernels.exponential`'s (``exp`` or ``exp2``, the
    faster on this CPU), and ``q`` comes scaled by its ``scale / sqrt(d_k)`` (``log2(e) /
    sqrt(d_k)`` for ``exp2``), so that ``base ** scores`` is ``exp(q k^T / sqrt(d_k))``:
    the same softmax whichever route computes it. The online softmax keeps, per query, the
    running maximum ``m`` of the scores seen so far, the running sum ``l`` of
    ``base ** (score - m)`` and the running output ``acc``. When a block raises the maximum
    to ``m'``, the old ``l`` and ``acc`` are multiplied by ``base ** (m - m')``; at the end
    ``acc / l`` is the softmax-weighted sum of all the values. With ``block_k >= n_k`` it is
    the ordinary softmax.

    The maximum is subtracted only so that ``base ** score`` cannot overflow. ``shift_free``
    says the caller has proved every score, in natural units, at most ``_SHIFT_FREE_BOUND``
    in size: then the powers and their sums stay normal float32 numbers as they are, and the
    maximum is skipped.

    The scores are computed transposed, one *column* per query (``k q^T``): with
    d_k = 64 BLAS runs that product about 1.5x faster than ``q k^T``. ``blocked`` is True
    where a query may *not* attend a key. ``bias(keys)`` gives the additive bias of a block
    of keys, already in the exponential's base (times its ``scale``), broadcastable to
    ``(..., bq, bk)``: it
    is added before the mask. On NumPy the scores are biased, masked and exponentiated in
    place.

    Shapes
    ------
    q : (..., bq, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    blocked : broadcastable to (..., bq, n_k);  returns : (..., bq, d_v)
    """
    in_place = array_api_compat.is_numpy_namespace(xp)
    n_k = k.shape[-2]
    q_t = matrix_transpose(xp, q)  # (..., d_k, bq)
    col_max = total = acc = rescale = None  # col_max, total, rescale : (..., 1, bq)
    ones = xp.ones(min(block_k, n_k), dtype=q.dtype)
    for start in range(0, n_k, block_k):
        keys = slice(start, min(start + block_k, n_k))
        scores = _scores(k[..., keys, :], q_t)  # (..., bk, bq)
        if bias is not None:
            scores = _biased(xp, scores, bias(keys), in_place)
        if blocked is not None:
            blocked_keys = blocked[..., keys] if blocked.shape[-1] > 1 else blocked
            scores = _masked(xp, scores, blocked_keys, in_place)
        if not shift_free:
            scores, col_max, rescale = _shifted(xp, scores, col_max, in_place)
        p = _powers(xp, scores, in_place)  # base ** (score - max)
        block_total, block_out = _column_sums(xp, ones, p), _weighted_values(xp, p, v[..., keys, :])
        total, acc = _accumulated(xp, total, acc, rescale, block_total, block_out)
    return _normalised(xp, total, acc)


@timed("copies")
def _scaled(q_rows: np.ndarray, q_scale: float) -> np.ndarray:
    return q_rows * q_scale


@timed("copies")
def _copy(into: np.ndarray, tile: np.ndarray) -> None:
    into[...] = tile


def _attention_threads(
    xp: ModuleType,
    q: Array,
    k: Array,
    v: Array,
    blocked: Array | None,
    max_elements: int,
    q_scale: float,
    shift_free: bool,
    bias: Array | None = None,
) -> Array:
    """NumPy only: tiles (one batch index, a block of query rows) run on :mod:`mha.lean.threads`.

    Each thread calls BLAS single-threaded, so that the element-wise softmax,
    single-threaded in NumPy, runs next to the products instead of after them. Each tile
    multiplies its own queries by ``q_scale``. The result's heads axis (the last batch
    axis) is second to last in memory, so that :func:`mha.functional.merge_heads` of it is a
    reshape, not a copy. A bias array is sliced per tile; a positional bias is asked for the
    tile's head (the last batch axis) and positions only.

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    blocked : (..., n_q or 1, n_k or 1);  bias : at least 2-D, or positional
    returns : (..., n_q, d_v)
    """
    extra = () if blocked is None else blocked.shape[:-2]
    key_ends = None if blocked is None else _key_ends(blocked)  # (..., n_q or 1), or None
    if bias is not None and not callable(bias):
        extra = np.broadcast_shapes(extra, bias.shape[:-2])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2], extra)
    q, k, v = (np.broadcast_to(x, (*batch, *x.shape[-2:])) for x in (q, k, v))  # views
    if blocked is not None:
        blocked = np.broadcast_to(blocked, (*batch, *blocked.shape[-2:]))
    if key_ends is not None:
        key_ends = np.broadcast_to(key_ends, (*batch, key_ends.shape[-1]))
    if bias is not None and not callable(bias):
        bias = np.broadcast_to(bias, (*batch, *bias.shape[-2:]))
    n_q, n_k, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    block_q, block_k = worker_tile_shape(n_q, n_k, max_elements, threads.width())
    if batch:  # (..., n_q, h, d_v) in memory, seen as (..., h, n_q, d_v)
        out = np.moveaxis(np.empty((*batch[:-1], n_q, batch[-1], d_v), q.dtype), -2, -3)
    else:
        out = np.empty((n_q, d_v), q.dtype)

    def tile_keys(index: tuple[int, ...], rows: slice) -> slice:
        """The tile's keys: up to the last one any of its rows may attend."""
        if key_ends is None:
            return slice(0, n_k)
        ends = key_ends[index][rows] if key_ends.shape[-1] > 1 else key_ends[index]
        return slice(0, max(1, int(ends.max())))

    def attend(index: tuple[int, ...], rows: slice) -> None:
        keys = tile_keys(index, rows)
        blocked_tile = None
        if blocked is not None:
            blocked_tile = blocked[index][rows] if blocked.shape[-2] > 1 else blocked[index]
            blocked_tile = blocked_tile[..., keys] if blocked_tile.shape[-1] > 1 else blocked_tile
        bias_tile = None
        if bias is not None:
            tile_bias = bias if callable(bias) else bias[index]
            head = index[-1] if callable(bias) else None
            bias_tile = _bias_blocks(xp, tile_bias, n_q, n_k, q.dtype, q, rows, head)
        q_tile = _scaled(q[index][rows], q_scale)  # (bq, d_k), contiguous
        k_tile, v_tile = k[index][keys], v[index][keys]  # (n_k or fewer, d_k), (..., d_v)
        tile = _online_softmax_attention(
            xp, q_tile, k_tile, v_tile, blocked_tile, block_k, shift_free, bias_tile
        )
        _copy(out[index][rows], tile)

    tiles = [
        (index, slice(start, min(start + block_q, n_q)))
        for index in np.ndindex(*batch)
        for start in range(0, n_q, block_q)
    ]
    tiles.sort(key=lambda tile: -tile_keys(*tile).stop)  # the longest first: no thread waits
    threads.run(attend, tiles)
    return out


@timed("mask")
def _key_ends(blocked: np.ndarray) -> np.ndarray | None:
    """Per query row, one past the last key it may attend (0 for a row that may attend none),
    or None when the mask is the same for every key. Keys past a tile's largest end are
    masked for all of its rows: the tile leaves them out (half the products of a causal mask).

    Shapes
    ------
    blocked : (..., n_q or 1, n_k or 1)  ->  (..., n_q or 1)
    """
    if blocked.shape[-1] == 1:
        return None
    allowed = np.logical_not(blocked)
    ends = blocked.shape[-1] - np.argmax(allowed[..., ::-1], axis=-1)  # first allowed from the end
    return np.where(np.any(allowed, axis=-1), ends, 0)


@timed("score bound")
def _scores_are_small(xp: ModuleType, q: Array, k: Array, v: Array, q_scale: float = 1.0) -> bool:
    """True when no score ``q_scale * q_i . k_j`` can exceed ``_SHIFT_FREE_BOUND`` in size.

    The scores are in natural units (``e ** score`` is the softmax's power, at most
    ``2**60``). By Cauchy-Schwarz ``|q_i . k_j| <= |q_i| |k_j|``, so the largest query norm
    times the largest key norm bounds every score. The values are bounded too, so that the
    running output ``sum_j e**score * v_j`` stays finite (at most ``n_k * 2**60 * max|v|``).
    The test is computed where the arrays live and read once: one synchronisation of a GPU.
    """
    q_norm = xp.sqrt(xp.max(xp.vecdot(q, q)))
    k_norm = xp.sqrt(xp.max(xp.vecdot(k, k)))
    v_max = xp.maximum(xp.max(v), -xp.min(v))  # max |v|, without a temporary like v
    bound = _SHIFT_FREE_BOUND
    small = xp.logical_and(
        q_norm * k_norm * q_scale <= bound, v_max * k.shape[-2] <= math.exp(bound)
    )  # a 0-d bool array, NaN compares False
    return bool(small)


def _bias_blocks(
    xp: ModuleType,
    bias: Array,
    n_q: int,
    n_k: int,
    dtype: Any,
    like: Array,
    rows: slice,
    head: int | None,
) -> Callable[[slice], Array]:
    """The bias of query ``rows`` as a function of a block of keys, in the base of the lean
    path's exponential (times its ``scale``: log2(e) for ``exp2``)."""
    scale = kernels.exponential(xp, dtype).scale

    def block(keys: slice) -> Array:
        scores = _compute.bias_scores(
            xp, bias, n_q, n_k, dtype=dtype, like=like, rows=rows, cols=keys, head=head
        )
        return scores if scale == 1.0 else scores * scale

    return block


def attention(
    xp: ModuleType,
    q: Array,
    k: Array,
    v: Array,
    mask: Array | None,
    memory_budget: int,
    bias: Array | None = None,
) -> Array:
    """``mha.scaled_dot_product_attention(q, k, v, mask, bias=bias)[0]`` in tiles of ``memory_budget``.

    The scale 1/sqrt(d_k), times the chosen exponential's ``scale`` (``log2(e)`` for the
    base-2 softmax of ``exp2``, see :func:`_online_softmax_attention`), is folded into the
    queries (an (n_q, d_k) product, not (n_q, n_k)). NumPy float32/float64 arrays go to :func:`_attention_threads`, which
    scales each tile's queries; other libraries (CuPy, ...) and dtypes take one block of
    query rows at a time, all batch entries at once, with tiles sized for the scores and two
    temporaries of their size. A bias (an array, or a positional bias such as
    :class:`mha.positions.ALiBi`, which takes its heads from the third axis from the end)
    is computed for each tile's queries and block of keys only, and turns off the
    shift-free shortcut (it bounds ``q k^T``, not the bias).

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    mask, bias : broadcastable to (..., n_q, n_k);  returns : (..., n_q, d_v)
    """
    dtype, compute = q.dtype, compute_dtype(xp, q.dtype)
    itemsize = 4 if compute == xp.float32 else 8
    blocked = None
    if mask is not None:
        mask = xp.reshape(mask, (1,) * (2 - mask.ndim) + tuple(mask.shape))  # at least 2-D
        blocked = xp.logical_not(mask)
    if bias is not None and not callable(bias):
        bias = xp.reshape(bias, (1,) * (2 - bias.ndim) + tuple(bias.shape))  # at least 2-D
    natural = 1.0 / math.sqrt(q.shape[-1])
    scale = natural * kernels.exponential(xp, compute).scale
    q, k, v = (xp.astype(x, compute, copy=False) for x in (q, k, v))
    shift_free = bias is None and _scores_are_small(xp, q, k, v, q_scale=natural)
    if array_api_compat.is_numpy_namespace(xp) and compute == dtype:
        max_elements = memory_budget // itemsize
        return _attention_threads(xp, q, k, v, blocked, max_elements, scale, shift_free, bias)
    q = q * scale
    batch = _validate.batch_shape(q=q.shape[:-2], k=k.shape[:-2], v=v.shape[:-2])
    n_q, n_k = q.shape[-2], k.shape[-2]
    per_entry = memory_budget // (3 * itemsize * math.prod(batch))  # scores and 2 temporaries
    block_q, block_k = tile_shape(n_q, n_k, per_entry)
    outs = []
    for start in range(0, n_q, block_q):
        rows = slice(start, min(start + block_q, n_q))
        blocked_rows = None
        if blocked is not None:
            blocked_rows = blocked[..., rows, :] if blocked.shape[-2] > 1 else blocked
        bias_rows = None
        if bias is not None:
            bias_rows = _bias_blocks(xp, bias, n_q, n_k, compute, q, rows, None)
        outs.append(
            _online_softmax_attention(
                xp, q[..., rows, :], k, v, blocked_rows, block_k, shift_free, bias_rows
            )
        )
    out = outs[0] if len(outs) == 1 else xp.concat(outs, axis=-2)
    return xp.astype(out, dtype, copy=False)


def _project_on_threads(x: Array, w: Array, b: Array | None) -> Array:
    """:func:`mha.functional.project` with the rows split over :mod:`mha.lean.threads`."""
    y = threads.matmul(x, w)
    return y if b is None else y + b


def multi_head_attention(
    xp: ModuleType,
    q: Array,
    k: Array,
    v: Array,
    params: MHAParams,
    mask: Array | None,
    memory_budget: int,
    rope: RoPE | None = None,
    bias: Array | None = None,
) -> Array:
    """The output of :func:`mha.multi_head_attention`, the scores in tiles of ``memory_budget``.

    The readable path's steps, with the attention of :func:`attention`. On NumPy
    (float32/float64, two or more cores) the four projections run on the same thread pool as
    the tiles, so that BLAS's own threads never compete with the tiles' threads, and the
    output is written over the projected queries when it has their shape (one array fewer
    whose memory the system has to map and zero: ~2% at n = 1024, measured). ``rope``
    rotates the heads' queries and keys before the tiles; ``bias`` goes into the tiles.

    Shapes
    ------
    q : (..., n_q, qdim);  k : (..., n_k, kdim);  v : (..., n_k, vdim)
    mask, bias : broadcastable to (..., h, n_q, n_k);  returns : (..., n_q, d_model)
    """
    numpy_threads = (
        array_api_compat.is_numpy_namespace(xp)
        and compute_dtype(xp, q.dtype) == q.dtype
        and threads.width() > 1
    )
    proj = _project_on_threads if numpy_threads else functools.partial(_compute.project, xp)
    h = params.num_heads
    q_proj = proj(q, params.w_q, params.b_q)  # (..., n_q, h*d_k)
    q_heads = _compute.split_heads(xp, q_proj, h)  # (..., h, n_q, d_k)
    k_heads = _compute.split_heads(xp, proj(k, params.w_k, params.b_k), h)  # (..., h, n_k, d_k)
    v_heads = _compute.split_heads(xp, proj(v, params.w_v, params.b_v), h)  # (..., h, n_k, d_v)
    if rope is not None:
        q_heads, k_heads = rope.rotate_heads(q_heads, k_heads)
    heads = attention(
        xp, q_heads, k_heads, v_heads, mask, memory_budget, bias
    )  # (..., h, n_q, d_v)
    concat = _compute.merge_heads(xp, heads)  # (..., n_q, h*d_v)
    if numpy_threads and q_proj.shape == (*concat.shape[:-1], params.w_o.shape[1]):
        # the output over the projected queries, which are used up: memory already in use
        out = threads.matmul(concat, params.w_o, out=q_proj)
        return out if params.b_o is None else np.add(out, params.b_o, out=out)
    return proj(concat, params.w_o, params.b_o)  # (..., n_q, d_model)
