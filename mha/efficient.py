"""Efficient attention: grouped-query attention (GQA, MQA) and a KV cache for decoding.

Grouped-query attention keeps h query heads but only g key/value heads (``num_kv_heads``);
query head i reads key/value head ``i // (h // g)``, so each K/V head serves a contiguous
group of h/g query heads. g = h is multi-head attention, g = 1 is multi-query attention.
Written once for any array-API library, like :mod:`mha.numpy_mha`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import array_api_compat

from mha import _compute, _validate
from mha._validate import Array
from mha.masks import causal_mask
from mha.params import LayerWeights, MHAParams
from mha.positions import RoPE


@dataclass(frozen=True, eq=False)
class GQAParams(LayerWeights):
    """Weights of a grouped-query attention layer, paper layout (``x @ W``), optional biases.

    Key/value head j owns columns ``j*d_k:(j+1)*d_k`` of ``w_k`` (likewise ``w_v``) and
    serves query heads ``j*h/g .. (j+1)*h/g - 1``. Frozen and checked when built, like
    :class:`mha.MHAParams`: change a field with ``dataclasses.replace``, which checks again.
    Biases are optional one by one (Qwen2 has ``b_q``, ``b_k``, ``b_v`` and no ``b_o``).

    Shapes
    ------
    w_q : (qdim, h*d_k);  w_k : (kdim, g*d_k);  w_v : (vdim, g*d_v);  w_o : (h*d_v, d_model)
    b_q : (h*d_k,);  b_k : (g*d_k,);  b_v : (g*d_v,);  b_o : (d_model,)   (each optional)
    with h = num_heads and g = num_kv_heads, which divides h; qdim is d_model unless the
    queries come with another width.
    """

    w_q: Array
    w_k: Array
    w_v: Array
    w_o: Array
    num_heads: int
    num_kv_heads: int
    b_q: Array | None = None
    b_k: Array | None = None
    b_v: Array | None = None
    b_o: Array | None = None

    def __post_init__(self) -> None:
        h = _validate.positive_int("num_heads", self.num_heads)
        g = _validate.positive_int("num_kv_heads", self.num_kv_heads)
        object.__setattr__(self, "num_heads", h)
        object.__setattr__(self, "num_kv_heads", g)
        if h % g:
            raise ValueError(f"num_kv_heads={g} must divide num_heads={h}")
        arrays = {name: getattr(self, name) for name in self.array_names()}
        xp = _validate.array_namespace(**arrays)
        for name, w in arrays.items():
            if w is None:
                continue
            _validate.floating(name, w, xp)
            if name.startswith("w") and w.ndim != 2:
                raise ValueError(f"{name} must be 2-D, got shape {tuple(w.shape)}")
        _validate.same_dtype(xp, **arrays)
        for name, heads in (("w_q", h), ("w_k", g), ("w_v", g)):
            if arrays[name].shape[1] % heads:
                raise ValueError(
                    f"{name} has {arrays[name].shape[1]} columns, not a multiple of its "
                    f"{heads} heads"
                )
        if self.w_k.shape[1] // g != self.d_k:
            raise ValueError(
                f"w_k has d_k={self.w_k.shape[1] // g} per key head but w_q has "
                f"d_k={self.d_k} per query head; they must match for the dot product"
            )
        if self.w_o.shape[0] != h * self.d_v:
            raise ValueError(f"w_o has {self.w_o.shape[0]} rows but must have h*d_v={h * self.d_v}")
        for name, w in (("b_q", "w_q"), ("b_k", "w_k"), ("b_v", "w_v")):
            b, cols = arrays[name], arrays[w].shape[1]
            if b is not None and tuple(b.shape) != (cols,):
                raise ValueError(f"{name} must have shape ({cols},), got {tuple(b.shape)}")
        if self.b_o is not None and tuple(self.b_o.shape) != (self.d_model,):
            raise ValueError(f"b_o must have shape ({self.d_model},), got {tuple(self.b_o.shape)}")

    @property
    def d_v(self) -> int:
        return self.w_v.shape[1] // self.num_kv_heads

    @classmethod
    def from_mha(cls, params: MHAParams, num_kv_heads: int) -> GQAParams:
        """Group a multi-head layer's key and value heads by averaging their projections.

        The key (and value) projection of group j is the mean of the projections of query
        heads ``j*h/g .. (j+1)*h/g - 1`` (their biases too): the conversion of a multi-head
        checkpoint that the GQA paper (Ainslie et al., 2023) fine-tunes from. With
        ``num_kv_heads == h`` the weights are unchanged, so the layer computes exactly
        multi-head attention.

        Shapes
        ------
        params.w_k : (kdim, h*d_k)  ->  w_k : (kdim, g*d_k);  likewise w_v, b_k, b_v
        """
        if not isinstance(params, MHAParams):
            raise TypeError(f"params must be an mha.MHAParams, got {type(params).__name__}")
        h = params.num_heads
        g = _validate.positive_int("num_kv_heads", num_kv_heads)
        if h % g:
            raise ValueError(f"num_kv_heads={g} must divide params.num_heads={h}")
        xp = _validate.array_namespace(params=params.w_k)

        def pooled(w: Array | None, d: int) -> Array | None:
            if w is None:
                return None
            rows = w.shape[:-1]  # (in,) for a weight, () for a bias
            grouped = xp.reshape(w, (*rows, g, h // g, d))  # (..., g, h/g, d)
            return xp.reshape(xp.mean(grouped, axis=-2), (*rows, g * d))

        return cls(
            params.w_q, pooled(params.w_k, params.d_k), pooled(params.w_v, params.d_v),
            params.w_o, h, g, b_q=params.b_q, b_k=pooled(params.b_k, params.d_k),
            b_v=pooled(params.b_v, params.d_v), b_o=params.b_o,
        )  # fmt: skip


def _grouped_attention(
    xp: ModuleType,
    q_heads: Array,
    k_heads: Array,
    v_heads: Array,
    mask: Array | None,
    bias: Array | None = None,
):
    """Attention where query head i reads key/value head i // (h/g), without copying K or V.

    The h query heads are reshaped to (g, h/g) and the g key/value heads get a singleton
    axis, so matmul broadcasting shares each K/V head across its group; the mask and the
    bias (a positional bias made into an array first) split their heads axis the same way.

    Shapes
    ------
    q_heads : (..., h, n_q, d_k);  k_heads : (..., g, n_k, d_k);  v_heads : (..., g, n_k, d_v)
    mask, bias : broadcastable to (..., h, n_q, n_k)
    returns : heads (..., h, n_q, d_v), weights (..., h, n_q, n_k)
    """
    *q_batch, h, n_q, d_k = q_heads.shape
    g, n_k = k_heads.shape[-3], k_heads.shape[-2]
    q_grouped = xp.reshape(q_heads, (*q_batch, g, h // g, n_q, d_k))
    k_grouped, v_grouped = (xp.expand_dims(x, axis=-3) for x in (k_heads, v_heads))

    def grouped(per_head: Array | None) -> Array | None:  # split (or add) the heads axis
        if per_head is None or per_head.ndim < 3:
            return per_head
        *batch, heads, rows, cols = per_head.shape
        groups = (g, h // g) if heads == h else (1, 1)
        return xp.reshape(per_head, (*batch, *groups, rows, cols))

    if bias is not None:
        compute = _compute.compute_dtype(xp, q_heads.dtype)
        bias = _compute.bias_scores(xp, bias, n_q, n_k, dtype=compute, like=q_heads)
    out, weights = _compute.attention(
        xp, q_grouped, k_grouped, v_grouped, grouped(mask), grouped(bias)
    )
    *batch, _, _, _, d_v = out.shape
    return (
        xp.reshape(out, (*batch, h, n_q, d_v)),
        xp.reshape(weights, (*batch, h, n_q, weights.shape[-1])),
    )


def _check_params(params: Any) -> None:
    if not isinstance(params, GQAParams):
        raise TypeError(
            "params must be an mha.efficient.GQAParams (e.g. GQAParams.from_mha(mha_params, "
            f"num_kv_heads)), got {type(params).__name__}"
        )


def grouped_query_attention(
    q: Array,
    k: Array,
    v: Array,
    params: GQAParams,
    mask: Array | None = None,
    *,
    rope: RoPE | None = None,
    bias: Array | None = None,
) -> tuple[Array, Array]:
    """GQA(Q, K, V) = Concat(head_1, ..., head_h) W^O with g shared key/value heads.

    ``head_i = Attention(Q W_i^Q, K W_{j(i)}^K, V W_{j(i)}^V)`` with ``j(i) = i // (h/g)``.
    ``num_kv_heads == num_heads`` is :func:`mha.multi_head_attention`; ``num_kv_heads == 1``
    is multi-query attention.

    Parameters
    ----------
    q, k, v : array
        Query, key and value sequences (self-attention passes one ``x`` three times).
    params : GQAParams
    mask : bool array, optional
        True = may attend; broadcastable to ``(..., h, n_q, n_k)``.
    rope : mha.positions.RoPE, optional
        Rotate the query heads and the key heads to their positions (Llama, Qwen2).
    bias : float array or positional bias, optional
        Added to every query head's scaled scores, as in :func:`mha.multi_head_attention`.

    Returns
    -------
    out : array
    weights : array
        One (n_q, n_k) matrix per *query* head.

    Shapes
    ------
    q : (..., n_q, d_model);  k : (..., n_k, kdim);  v : (..., n_k, vdim)
    out : (..., n_q, d_model);  weights : (..., h, n_q, n_k)
    """
    _check_params(params)
    xp = _validate.attention_inputs(q, k, v, params, mask, bias)
    _validate.rope(rope, params.d_k)
    h, g = params.num_heads, params.num_kv_heads
    q_heads = _compute.project_heads(xp, q, params.w_q, params.b_q, h)  # (..., h, n_q, d_k)
    k_heads = _compute.project_heads(xp, k, params.w_k, params.b_k, g)  # (..., g, n_k, d_k)
    v_heads = _compute.project_heads(xp, v, params.w_v, params.b_v, g)  # (..., g, n_k, d_v)
    if rope is not None:
        q_heads, k_heads = rope.rotate_heads(q_heads, k_heads)
    heads, weights = _grouped_attention(xp, q_heads, k_heads, v_heads, mask, bias)
    return _compute.project(xp, _compute.merge_heads(xp, heads), params.w_o, params.b_o), weights


class KVCache:
    """The keys and values of the tokens decoded so far, in buffers of ``max_len`` positions.

    :meth:`append` writes the new tokens' keys and values after the ones already there
    (no copy of the old ones) and returns everything cached so far. The buffers are made on
    the first append, with that call's batch shape, heads, sizes, dtype and library.

    Shapes
    ------
    keys : (..., g, max_len, d_k);  values : (..., g, max_len, d_v);  g = key/value heads
    """

    def __init__(self, max_len: int) -> None:
        self.max_len = _validate.positive_int("max_len", max_len)
        self.length = 0
        self.keys: Array | None = None
        self.values: Array | None = None

    @property
    def nbytes(self) -> int:
        """Bytes the two buffers reserve (0 before the first append)."""
        if self.keys is None:
            return 0
        xp = array_api_compat.array_namespace(self.keys)
        itemsize = xp.finfo(self.keys.dtype).bits // 8
        return sum(math.prod(x.shape) * itemsize for x in (self.keys, self.values))

    def append(self, k: Array, v: Array) -> tuple[Array, Array]:
        """Store the keys and values of ``n_new`` tokens; return all of them so far.

        Shapes
        ------
        k : (..., g, n_new, d_k);  v : (..., g, n_new, d_v)
        returns : (..., g, length, d_k), (..., g, length, d_v), views of the buffers
        """
        xp = _validate.array_namespace(k=k, v=v)
        for name, x in (("k", k), ("v", v)):
            _validate.floating(name, x, xp)
            _validate.min_ndim(name, x, 3, "(..., g, n_new, d)")
        _validate.same_dtype(xp, k=k, v=v)
        return self._append(xp, k, v)

    def _append(self, xp: ModuleType, k: Array, v: Array) -> tuple[Array, Array]:
        """:meth:`append` for arrays of ``xp`` that are floating, at least 3-D and of one dtype."""
        if k.shape[:-1] != v.shape[:-1]:
            raise ValueError(
                f"k has shape {tuple(k.shape)} and v has shape {tuple(v.shape)}; they must "
                "agree in all but the last dimension (..., g, n_new)"
            )
        if self.keys is None:
            *lead, _, _ = k.shape
            device = array_api_compat.device(k)
            self.keys = xp.zeros((*lead, self.max_len, k.shape[-1]), dtype=k.dtype, device=device)
            self.values = xp.zeros((*lead, self.max_len, v.shape[-1]), dtype=v.dtype, device=device)
        for name, x, buffer in (("k", k, self.keys), ("v", v, self.values)):
            cached = (*buffer.shape[:-2], buffer.shape[-1])
            if (*x.shape[:-2], x.shape[-1]) != cached or x.dtype != buffer.dtype:
                raise ValueError(
                    f"{name} has shape {tuple(x.shape)} and dtype {x.dtype} but the cache "
                    f"holds (..., g, n, d) = {cached[:-1]} + (n, {cached[-1]}) of {buffer.dtype}"
                )
        start, stop = self.length, self.length + k.shape[-2]
        if stop > self.max_len:
            raise ValueError(
                f"k adds {k.shape[-2]} positions to the {start} cached, more than "
                f"max_len={self.max_len}"
            )
        self.keys[..., start:stop, :] = k
        self.values[..., start:stop, :] = v
        self.length = stop
        return self.keys[..., :stop, :], self.values[..., :stop, :]


def decode_step(
    x: Array,
    params: GQAParams,
    cache: KVCache,
    *,
    rope: RoPE | None = None,
    bias: Array | None = None,
) -> Array:
    """Causal self-attention for ``n_new`` new tokens, reusing the cached keys and values.

    Projects only the new tokens, appends their keys and values to ``cache``, and lets each
    new query attend every cached key up to its own position (``causal_mask(n_new, length)``,
    aligned bottom-right). Called on a prompt (prefill) and then on one token at a time, the
    outputs equal those of :func:`grouped_query_attention` on the whole sequence with
    ``causal_mask(n)`` (and the same ``rope`` and ``bias``).

    Parameters
    ----------
    x : array
        The new tokens.
    params : GQAParams
    cache : KVCache
        The keys and values so far; the new ones are appended.
    rope : mha.positions.RoPE, optional
        The new tokens sit at positions ``cache.length .. cache.length + n_new - 1`` (the
        cache's length before the call): their queries and keys are rotated there, and the
        cache keeps the rotated keys, so that old keys are never rotated again. Its
        ``positions`` must be None (they come from the cache).
    bias : float array or positional bias, optional
        Added to the scores of the new queries against every cached key: an array
        broadcastable to ``(..., h, n_new, length)``, or a positional bias such as
        :class:`mha.positions.ALiBi`, which gets the same positions.

    Shapes
    ------
    x : (..., n_new, qdim)  ->  (..., n_new, d_model)
    """
    _check_params(params)
    if not isinstance(cache, KVCache):
        raise TypeError(f"cache must be an mha.efficient.KVCache, got {type(cache).__name__}")
    xp = _validate.array_namespace(x=x, params=params.w_q)
    _validate.floating("x", x, xp)
    _validate.min_ndim("x", x, 2, "(..., n, features)")
    _validate.features("x", x, params.w_q, "w_q")
    _validate.same_dtype(xp, x=x, params=params.w_q)
    _validate.rope(rope, params.d_k)
    if rope is not None and rope.positions is not None:
        raise ValueError(
            "rope.positions must be None in decode_step: the new tokens' positions come "
            f"from the cache (it holds {cache.length})"
        )
    n_new, length = x.shape[-2], cache.length + x.shape[-2]
    scores = (*x.shape[:-2], params.num_heads, n_new, length)
    _validate.attention_bias(bias, scores, xp, "(..., h, n_new, length)", params.num_heads)
    h, g = params.num_heads, params.num_kv_heads
    q_heads = _compute.project_heads(xp, x, params.w_q, params.b_q, h)  # (..., h, n_new, d_k)
    k_new = _compute.project_heads(xp, x, params.w_k, params.b_k, g)  # (..., g, n_new, d_k)
    if rope is not None:
        q_heads, k_new = rope.rotate_heads(q_heads, k_new, start=cache.length)
    v_new = _compute.project_heads(xp, x, params.w_v, params.b_v, g)  # (..., g, n_new, d_v)
    keys, values = cache._append(xp, k_new, v_new)
    mask = causal_mask(n_new, keys.shape[-2], xp=xp)  # (n_new, length)
    heads, _ = _grouped_attention(xp, q_heads, keys, values, mask, bias)
    return _compute.project(xp, _compute.merge_heads(xp, heads), params.w_o, params.b_o)
