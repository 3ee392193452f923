"""Multi-head attention in NumPy, written once for any array-API library (NumPy, CuPy, ...).

Built from the computations of :mod:`mha.functional` (:mod:`mha._compute`): the arguments
are checked once and the array namespace comes from the inputs once, so the same code runs
on NumPy arrays on the CPU and on CuPy arrays on the GPU. Conventions: batch first, ``x @ W`` (paper layout), boolean masks with
True = may attend. With ``need_weights=False`` and large scores,
:func:`multi_head_attention` hands over to the lean, tiled path of :mod:`mha.lean`.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import array_api_compat

from mha import _compute, _validate, lean
from mha._validate import Array
from mha.params import MHAParams
from mha.positions import RoPE

#: Defaults of ``multi_head_attention(..., memory_budget=)``, in bytes. On the CPU the tiled
#: path is already the faster one above a few MiB of scores (cache-sized tiles, every core);
#: on a GPU each tile costs kernel launches, so tiles are worth it only to save memory.
DEFAULT_MEMORY_BUDGET = {"cpu": 8 * 2**20, "gpu": 2**30}

__all__ = ["DEFAULT_MEMORY_BUDGET", "multi_head_attention", "multi_head_attention_loop"]


def _check_mha_args(q, k, v, params, mask, rope, bias, memory_budget=None) -> ModuleType:
    """Check a layer's arguments (once, for the whole call); return their array namespace."""
    if not isinstance(params, MHAParams):
        raise TypeError(
            f"params must be an mha.MHAParams (see mha.init_params), got {type(params).__name__}"
        )
    xp = _validate.attention_inputs(q, k, v, params, mask, bias)
    _validate.rope(rope, params.d_k)
    if memory_budget is not None:
        _validate.positive_int("memory_budget", memory_budget)
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
    rope: RoPE | None = None,
    bias: Array | None = None,
    dropout: float = 0.0,
    rng: Any = None,
) -> tuple[Array, Array | None]:
    """MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W^O, all heads at once.

    ``head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V)``. The h per-head projections are one
    matrix product with the fused ``(qdim, h*d_k)`` weight, then :func:`mha.split_heads`.

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
        core (see :mod:`mha.lean`). Below it, this function holds the scores and a
        few temporaries of their size.
        With ``need_weights=True`` all the weights are returned, whatever the budget.
    rope : mha.positions.RoPE, optional
        Rotate every head's queries and keys to their positions (rotary embeddings, as in
        Llama) after the projections; ``d_k`` must be even.
    bias : float array or positional bias, optional
        Added to every head's scaled scores before the mask and the softmax, as in
        :func:`mha.scaled_dot_product_attention`: an array broadcastable to
        ``(..., h, n_q, n_k)``, or a positional bias such as
        ``mha.positions.ALiBi(num_heads)``, which the tiled path computes tile by tile
        (never all of it at once).
    dropout : float
        Attention dropout on the weights, for training (see
        :func:`mha.scaled_dot_product_attention`); 0 by default. With ``dropout > 0`` the
        scores are held whole, whatever the budget.
    rng : random generator
        Needed when ``dropout > 0``: ``numpy.random.default_rng(seed)``.

    Returns
    -------
    out : array
    weights : array or None

    Shapes
    ------
    q : (..., n_q, qdim);  k : (..., n_k, kdim);  v : (..., n_k, vdim)
    mask, bias : (..., h, n_q, n_k) or anything that broadcasts to it
    out : (..., n_q, d_model);  weights : (..., h, n_q, n_k)
    """
    xp = _check_mha_args(q, k, v, params, mask, rope, bias, memory_budget)
    dropout = _validate.dropout(dropout, rng)
    h = params.num_heads
    if not need_weights and not dropout:
        budget = _budget(xp, memory_budget)
        if _scores_bytes(xp, q, k, v, h) > budget:
            out = lean.multi_head_attention(xp, q, k, v, params, mask, budget, rope, bias)
            return out, None
    q = _compute.project_heads(xp, q, params.w_q, params.b_q, h)  # (..., h, n_q, d_k)
    k = _compute.project_heads(xp, k, params.w_k, params.b_k, h)  # (..., h, n_k, d_k)
    v = _compute.project_heads(xp, v, params.w_v, params.b_v, h)  # (..., h, n_k, d_v)
    if rope is not None:
        q, k = rope.rotate_heads(q, k)
    heads, weights = _compute.attention(xp, q, k, v, mask, bias, dropout, rng)  # (..., h, n_q, d_v)
    concat = _compute.merge_heads(xp, heads)  # (..., n_q, h*d_v)
    out = _compute.project(xp, concat, params.w_o, params.b_o)  # (..., n_q, d_model)
    return out, (weights if need_weights else None)


def _budget(xp: ModuleType, memory_budget: int | None) -> int:
    """``memory_budget``, or :data:`DEFAULT_MEMORY_BUDGET` for ``xp``'s library: "cpu" for
    NumPy, "gpu" for any other."""
    if memory_budget is not None:
        return memory_budget
    return DEFAULT_MEMORY_BUDGET["cpu" if array_api_compat.is_numpy_namespace(xp) else "gpu"]


def _scores_bytes(xp: ModuleType, q: Array, k: Array, v: Array, num_heads: int) -> int:
    """Bytes of the ``(..., h, n_q, n_k)`` scores, in the softmax's dtype (float32 for float16)."""
    itemsize = 4 if _compute.compute_dtype(xp, q.dtype) == xp.float32 else 8
    batch = _validate.batch_shape(q=q.shape[:-2], k=k.shape[:-2], v=v.shape[:-2])
    return itemsize * math.prod((*batch, num_heads, q.shape[-2], k.shape[-2]))


def multi_head_attention_loop(
    q: Array,
    k: Array,
    v: Array,
    params: MHAParams,
    mask: Array | None = None,
    *,
    rope: RoPE | None = None,
    bias: Array | None = None,
) -> tuple[Array, Array]:
    """The same as :func:`multi_head_attention`, one head at a time, as the paper writes it.

    Head i uses the column slices ``W_i^Q = w_q[:, i*d_k:(i+1)*d_k]`` (likewise K and V),
    computes ``head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V)``, and the heads are concatenated
    in order before ``W^O``. Slower than the batched form and meant for reading. ``rope``
    rotates each head's queries and keys; head i gets its own slice of the mask and of
    ``bias`` (a positional bias is asked for head i only).

    Shapes
    ------
    As :func:`multi_head_attention`; weights : (..., h, n_q, n_k).
    """
    xp = _check_mha_args(q, k, v, params, mask, rope, bias)
    d_k, d_v = params.d_k, params.d_v

    def head_projection(x: Array, w: Array, b: Array | None, cols: slice) -> Array:
        return _compute.project(xp, x, w[:, cols], None if b is None else b[cols])

    heads, weights = [], []
    for i in range(params.num_heads):
        qk_cols, v_cols = slice(i * d_k, (i + 1) * d_k), slice(i * d_v, (i + 1) * d_v)
        q_i = head_projection(q, params.w_q, params.b_q, qk_cols)  # (..., n_q, d_k)
        k_i = head_projection(k, params.w_k, params.b_k, qk_cols)  # (..., n_k, d_k)
        v_i = head_projection(v, params.w_v, params.b_v, v_cols)  # (..., n_k, d_v)
        if rope is not None:
            q_i, k_i = rope.rotate_heads(q_i[..., None, :, :], k_i[..., None, :, :])
            q_i, k_i = q_i[..., 0, :, :], k_i[..., 0, :, :]  # (..., n_q, d_k), (..., n_k, d_k)
        mask_i = mask
        if mask is not None and mask.ndim >= 3:  # pick head i's slice of the heads axis
            mask_i = mask[..., i if mask.shape[-3] > 1 else 0, :, :]
        bias_i = None
        if bias is not None:
            n_q, n_k = q_i.shape[-2], k_i.shape[-2]
            compute = _compute.compute_dtype(xp, q_i.dtype)
            bias_i = _compute.bias_scores(xp, bias, n_q, n_k, dtype=compute, like=q_i, head=i)
        head_i, weights_i = _compute.attention(xp, q_i, k_i, v_i, mask_i, bias_i)  # (..., n_q, d_v)
        heads.append(head_i)
        weights.append(weights_i)
    concat = xp.concat(heads, axis=-1)  # (..., n_q, h*d_v)
    return _compute.project(xp, concat, params.w_o, params.b_o), xp.stack(weights, axis=-3)
