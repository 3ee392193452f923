"""The PyTorch variant: multi-head attention as an ``nn.Module``.

Parameters are stored in the paper's layout (``x @ W``, ``w_q`` is ``(d_model, h*d_k)``),
not ``nn.Linear``'s ``(out, in)``; :meth:`MultiHeadAttention.from_torch` and
:meth:`MultiHeadAttention.to_torch` convert to and from ``torch.nn.MultiheadAttention``.
Masks are boolean with True = may attend, as in ``F.scaled_dot_product_attention`` and the
rest of this package (``nn.MultiheadAttention`` uses the opposite polarity).

Two paths compute the same thing: a readable one (projections, split, softmax(QK^T/sqrt(d_k))V,
merge, W^O) that can return the weights, and a fast one through
``F.scaled_dot_product_attention`` (fused kernels, no (h, n_q, n_k) weights kept) used when
``need_weights=False``.

``forward`` is two public steps that other code builds on: :meth:`~MultiHeadAttention.head_outputs`
(every head's output) and :meth:`~MultiHeadAttention.combine_heads` (gates, concat, ``W^O``).
:meth:`~MultiHeadAttention.gate_heads` states the package's one convention for head gates.
"""

from __future__ import annotations

import math
import re

import array_api_compat
import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from mha import _compute, _validate
from mha.efficient import GQAParams
from mha.params import MHAParams, check_nn_compatible, paper_layout, torch_layout
from mha.positions import RoPE

MIN_TORCH = (2, 5)
"""The oldest PyTorch the book runs on: ``F.scaled_dot_product_attention`` takes
``enable_gqa`` (chapter 12) and gives fully masked rows zeros, not NaN (chapters 5 and 6)."""


def check_torch_version(version: str) -> None:
    """Raise ImportError, naming both versions, when ``version`` is older than :data:`MIN_TORCH`."""
    match = re.match(r"(\d+)\.(\d+)", str(version))
    if match is None or tuple(int(part) for part in match.groups()) < MIN_TORCH:
        need = ".".join(str(part) for part in MIN_TORCH)
        raise ImportError(
            f"mha needs PyTorch {need} or later (scaled_dot_product_attention with enable_gqa, "
            f"and zeros for fully masked rows), but torch {version} is installed; upgrade with "
            f"pip install -U 'torch>={need}'"
        )


check_torch_version(torch.__version__)

_IMPLS = ("auto", "readable", "fused")

#: Arguments of ``nn.MultiheadAttention.forward`` (and ``F.multi_head_attention_forward``)
#: that this module does not take, and what to pass instead.
NN_OPTIONS = {
    "key_padding_mask": "pass mask= with True = may attend: ~key_padding_mask[:, None, None, :] "
    "(or mha.padding_mask(lengths, n) as a tensor)",
    "attn_mask": "pass mask= with True = may attend (~attn_mask for nn's boolean attn_mask); "
    "a float attn_mask is bias=",
    "average_attn_weights": "the weights come per head, (..., h, n_q, n_k); average them "
    "yourself with weights.mean(dim=-3)",
    "static_k": "static (already projected) keys and values are not supported; pass the "
    "keys' and values' inputs as k and v",
    "static_v": "static (already projected) keys and values are not supported; pass the "
    "keys' and values' inputs as k and v",
}


def _softmax(scores: Tensor) -> Tensor:
    """Softmax over the last axis in float32 or wider; fully masked (all -inf) rows give zeros."""
    z = scores.float() if scores.dtype in (torch.float16, torch.bfloat16) else scores
    row_max = z.amax(dim=-1, keepdim=True)
    row_max = torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))
    e = torch.exp(z - row_max)
    total = e.sum(dim=-1, keepdim=True)
    return (e / torch.where(total == 0, torch.ones_like(total), total)).to(scores.dtype)


def _split_heads(x: Tensor, num_heads: int) -> Tensor:
    *batch, n, features = x.shape
    return x.view(*batch, n, num_heads, features // num_heads).transpose(-3, -2)  # (..., h, n, d)


def _merge_heads(x: Tensor) -> Tensor:
    *batch, h, n, d = x.shape
    return x.transpose(-3, -2).reshape(*batch, n, h * d)  # (..., n, h*d)


def _attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None,
    bias: Tensor | None = None,
    dropout: float = 0.0,
) -> tuple[Tensor, Tensor]:
    """softmax(q k^T / sqrt(d_k) + bias) v, written out; returns (out, weights).

    The mask wins over the bias (masked scores are -inf whatever the bias); ``dropout``
    zeroes weights after the softmax (training), as ``nn.MultiheadAttention`` does.

    Shapes
    ------
    q : (..., n_q, d_k);  k : (..., n_k, d_k);  v : (..., n_k, d_v)
    mask, bias : broadcastable to (..., n_q, n_k)
    out : (..., n_q, d_v);  weights : (..., n_q, n_k)
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., n_q, n_k)
    if bias is not None:
        scores = scores + bias.to(scores.dtype)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = _softmax(scores)
    if dropout:
        weights = F.dropout(weights, dropout)
    return weights @ v, weights


def _fused_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None,
    is_causal: bool = False,
    bias: Tensor | None = None,
    dropout: float = 0.0,
) -> Tensor:
    """``F.scaled_dot_product_attention``, with zeros for the queries that see no key.

    A bias goes in as SDPA's float ``attn_mask``, with ``-inf`` where ``mask`` hides a key.
    Fewer key/value heads than query heads (GQA) use SDPA's ``enable_gqa``.

    On a fully masked query row SDPA gave NaN before torch 2.5 (pytorch/pytorch#103963)
    and gives zeros since (pytorch/pytorch#131060); whatever the kernel does, the masked
    fill below gives zeros, as the readable path does.

    Shapes
    ------
    q : (..., h, n_q, d_k);  k : (..., g, n_k, d_k);  v : (..., g, n_k, d_v)
    mask, bias : broadcastable to (..., h, n_q, n_k);  returns : (..., h, n_q, d_v)
    """
    attn_mask = mask
    if bias is not None:
        bias = bias.to(q.dtype)
        attn_mask = bias if mask is None else torch.where(mask, bias, float("-inf"))
    grouped = k.shape[-3] != q.shape[-3]
    out = F.scaled_dot_product_attention(
        q, k, v, attn_mask=attn_mask, dropout_p=dropout, is_causal=is_causal, enable_gqa=grouped
    )
    if attn_mask is not None:  # a fully masked query row: zeros, never NaN
        if attn_mask.dtype == torch.bool:
            empty = ~attn_mask.any(dim=-1, keepdim=True)
        else:
            empty = torch.isneginf(attn_mask).all(dim=-1, keepdim=True)
        out = out.masked_fill(empty, 0.0)
    return out


def _causal(n_q: int, n_k: int, device: torch.device) -> Tensor:
    """Bottom-right aligned causal mask, as :func:`mha.causal_mask`."""
    rows = torch.arange(n_q, device=device)[:, None]
    return torch.arange(n_k, device=device)[None, :] <= rows + (n_k - n_q)


def _numpy_dtype(dtype: torch.dtype) -> torch.dtype:
    """The dtype a tensor is moved to NumPy in: NumPy has no bfloat16, which float32 holds exactly."""
    return torch.float32 if dtype == torch.bfloat16 else dtype


class MultiHeadAttention(nn.Module):
    """Multi-head attention, ``MultiHead(Q, K, V) = Concat(head_1..head_h) W^O``.

    Parameters
    ----------
    d_model : int
        Model size (features of the queries and of the output).
    num_heads : int
        h. Must divide ``d_model`` unless ``d_k`` and ``d_v`` are given.
    d_k, d_v : int, optional
        Per-head query/key and value sizes (default ``d_model // num_heads``).
    qdim, kdim, vdim : int, optional
        Features of the queries, keys and values when they differ from ``d_model`` (the
        output's width): cross-attention, or a layer from d_in to d_out features.
    num_kv_heads : int, optional
        g key/value heads shared by groups of h/g query heads (grouped-query attention, as
        :mod:`mha.efficient`); h by default (multi-head attention), 1 is multi-query.
    bias : bool
        Learn biases for the four projections (set one to None to drop it, as Qwen2 has no
        ``b_o``).
    dropout : float
        Attention dropout on the weights, in training only (``module.train()``), as
        ``nn.MultiheadAttention(dropout=p)``; seeded by ``torch.manual_seed``.

    Shapes
    ------
    w_q : (qdim, h*d_k);  w_k : (kdim, g*d_k);  w_v : (vdim, g*d_v);  w_o : (h*d_v, d_model)
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        *,
        d_k: int | None = None,
        d_v: int | None = None,
        qdim: int | None = None,
        kdim: int | None = None,
        vdim: int | None = None,
        num_kv_heads: int | None = None,
        bias: bool = False,
        dropout: float = 0.0,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        d_model, h, self.d_k, self.d_v = _validate.head_sizes(d_model, num_heads, d_k, d_v)
        self.num_heads = h
        self.d_model = d_model
        self.qdim = d_model if qdim is None else _validate.positive_int("qdim", qdim)
        self.kdim = d_model if kdim is None else _validate.positive_int("kdim", kdim)
        self.vdim = d_model if vdim is None else _validate.positive_int("vdim", vdim)
        g = h if num_kv_heads is None else _validate.positive_int("num_kv_heads", num_kv_heads)
        if h % g:
            raise ValueError(f"num_kv_heads={g} must divide num_heads={h}")
        self.num_kv_heads = g
        self.dropout = _validate.probability("dropout", dropout)
        factory = {"device": device, "dtype": dtype}
        self.w_q = nn.Parameter(torch.empty(self.qdim, h * self.d_k, **factory))
        self.w_k = nn.Parameter(torch.empty(self.kdim, g * self.d_k, **factory))
        self.w_v = nn.Parameter(torch.empty(self.vdim, g * self.d_v, **factory))
        self.w_o = nn.Parameter(torch.empty(h * self.d_v, d_model, **factory))
        sizes = {"b_q": h * self.d_k, "b_k": g * self.d_k, "b_v": g * self.d_v, "b_o": d_model}
        for name, size in sizes.items():
            self.register_parameter(
                name, nn.Parameter(torch.zeros(size, **factory)) if bias else None
            )
        for w in (self.w_q, self.w_k, self.w_v, self.w_o):
            nn.init.xavier_uniform_(w)

    def extra_repr(self) -> str:
        return (
            f"d_model={self.d_model}, num_heads={self.num_heads}, d_k={self.d_k}, d_v={self.d_v}, "
            f"qdim={self.qdim}, kdim={self.kdim}, vdim={self.vdim}, "
            f"num_kv_heads={self.num_kv_heads}, bias={self.b_q is not None}, dropout={self.dropout}"
        )

    # --- forward: the per-head outputs, then their gated combination ----------------------

    def forward(
        self,
        q: Tensor,
        k: Tensor | None = None,
        v: Tensor | None = None,
        mask: Tensor | None = None,
        *,
        need_weights: bool = True,
        is_causal: bool = False,
        head_gate: Tensor | None = None,
        impl: str = "auto",
        rope: RoPE | None = None,
        bias: Tensor | None = None,
        **nn_options: object,
    ) -> tuple[Tensor, Tensor | None]:
        """Attend from ``q`` to ``k``/``v`` (self-attention when ``k`` and ``v`` are omitted).

        :meth:`head_outputs`, then :meth:`combine_heads`. The arguments of
        ``nn.MultiheadAttention`` this module does not take (``key_padding_mask``,
        ``attn_mask``, ``average_attn_weights``, ``static_k``, ``static_v``) raise a
        ``TypeError`` that says what to pass instead (:data:`NN_OPTIONS`).

        Parameters
        ----------
        q, k, v : Tensor
            Batch first. ``k`` defaults to ``q``, ``v`` to ``k``.
        mask : bool Tensor, optional
            True = may attend; broadcastable to ``(..., h, n_q, n_k)``.
        need_weights : bool
            Return the attention weights. ``False`` takes the fused SDPA path and returns
            ``(out, None)``.
        is_causal : bool
            Add the causal mask (bottom-right aligned when ``n_q != n_k``, as
            :func:`mha.causal_mask`), combined with ``mask``.
        head_gate : Tensor, optional
            One gate per head and example, multiplied into each head's output before
            ``W^O``: 1 keeps a head, 0 prunes it (see :meth:`gate_heads`). Its gradient is
            the head-importance score of Michel et al. (2019).
        impl : {"auto", "readable", "fused"}
            Force a path (for teaching and tests); "auto" picks "fused" when
            ``need_weights=False``.
        rope : mha.positions.RoPE, optional
            Rotate every head's queries and keys to their positions (Llama's rotary
            embeddings) after the projections.
        bias : float Tensor or positional bias, optional
            Added to the scaled scores before the mask and the softmax (ALiBi, T5's relative
            bias, a float mask): a tensor broadcastable to ``(..., h, n_q, n_k)`` (its
            gradient flows, for a learned bias), or a positional bias such as
            ``mha.positions.ALiBi(h)``. The mask wins: masked keys get ``-inf``.

        Returns
        -------
        out : Tensor
        weights : Tensor or None
            After dropout in training (the weights that multiplied the values).

        Shapes
        ------
        q : (..., n_q, qdim);  k : (..., n_k, kdim);  v : (..., n_k, vdim)
        mask, bias : broadcastable to (..., h, n_q, n_k);  head_gate : broadcastable to (..., h)
        out : (..., n_q, d_model);  weights : (..., h, n_q, n_k)
        """
        for name in nn_options:
            if name in NN_OPTIONS:
                raise TypeError(
                    f"{name} is an nn.MultiheadAttention argument that "
                    f"mha.torch_mha.MultiHeadAttention does not take: {NN_OPTIONS[name]}"
                )
            raise TypeError(f"forward() got an unexpected keyword argument {name!r}")
        heads, weights = self.head_outputs(
            q, k, v, mask, need_weights=need_weights, is_causal=is_causal, impl=impl,
            rope=rope, bias=bias,
        )  # (..., h, n_q, d_v)  # fmt: skip
        return self.combine_heads(heads, head_gate=head_gate), weights

    def head_outputs(
        self,
        q: Tensor,
        k: Tensor | None = None,
        v: Tensor | None = None,
        mask: Tensor | None = None,
        *,
        need_weights: bool = True,
        is_causal: bool = False,
        impl: str = "auto",
        rope: RoPE | None = None,
        bias: Tensor | None = None,
    ) -> tuple[Tensor, Tensor | None]:
        """Every head's output, before gates and ``W^O``: ``head_i = Attention(Q W_i^Q, ...)``.

        The first half of :meth:`forward`, with the same arguments (but no gates);
        :meth:`combine_heads` is the second half. Analyses and variants that change how the
        heads are combined (:mod:`mha.analysis`, :mod:`mha.moh`) start from here.

        Returns
        -------
        heads : Tensor
        weights : Tensor or None
            The attention weights when ``need_weights``, else None.

        Shapes
        ------
        q : (..., n_q, qdim);  k : (..., n_k, kdim);  v : (..., n_k, vdim)
        heads : (..., h, n_q, d_v);  weights : (..., h, n_q, n_k)
        """
        k = q if k is None else k
        v = k if v is None else v
        mask = self._check_inputs(q, k, v, mask, bias)
        _validate.rope(rope, self.d_k)
        if impl not in _IMPLS:
            raise ValueError(f"impl must be one of {_IMPLS}, got {impl!r}")
        if need_weights and impl == "fused":
            raise ValueError("impl='fused' cannot return weights; pass need_weights=False")
        n_q, n_k = q.shape[-2], k.shape[-2]
        # SDPA's own is_causal aligns top-left, which equals ours only when n_q == n_k
        sdpa_causal = is_causal and mask is None and bias is None and n_q == n_k
        if is_causal:
            causal = _causal(n_q, n_k, q.device)
            mask = causal if mask is None else mask & causal
        q_heads, k_heads, v_heads = self._project_heads(q, k, v)
        if rope is not None:
            q_heads, k_heads = rope.rotate_heads(q_heads, k_heads)
        if callable(bias):  # a positional bias, for these positions: (h, n_q, n_k)
            xp = array_api_compat.array_namespace(q_heads)
            bias = _compute.bias_scores(xp, bias, n_q, n_k, dtype=q_heads.dtype, like=q_heads)
        dropout = self.dropout if self.training else 0.0
        if impl == "readable" or (impl == "auto" and need_weights):
            groups = self.num_heads // self.num_kv_heads  # query heads per key/value head
            k_heads, v_heads = (x.repeat_interleave(groups, dim=-3) for x in (k_heads, v_heads))
            heads, weights = _attention(q_heads, k_heads, v_heads, mask, bias, dropout)
        else:
            fused_mask = None if sdpa_causal else mask
            heads = _fused_attention(
                q_heads, k_heads, v_heads, fused_mask, sdpa_causal, bias, dropout
            )
            weights = None
        return heads, (weights if need_weights else None)

    def gate_heads(
        self, heads: Tensor, *, head_gate: Tensor | None = None, token_gates: Tensor | None = None
    ) -> Tensor:
        """Each head's output times its gate. **The package's one gate convention:**

        - ``head_gate``: one gate per head, for every token of an example; its last axis is
          the heads axis and the axes before it are the examples' (batch) axes: ``(h,)``
          for all examples alike, ``(B, h)`` for one row per example. Pruning and head
          importance use it.
        - ``token_gates``: one gate per head *and query token*, shape ``(..., n_q, h)``
          (the layout of Mixture-of-Head routing, :meth:`mha.moh.MixtureOfHeadAttention.route`).

        Which one a tensor is comes from the argument's name, never from its shape. The
        leading axes of either must broadcast to the heads' batch axes without growing them;
        anything else raises ``ValueError``. Both may be given; they multiply.

        Shapes
        ------
        heads : (..., h, n_q, d_v);  head_gate : broadcastable to (..., h)
        token_gates : broadcastable to (..., n_q, h);  returns : (..., h, n_q, d_v)
        """
        self._check_heads(heads)
        batch, n_q = tuple(heads.shape[:-3]), heads.shape[-2]
        if head_gate is not None:
            self._check_gate("head_gate", head_gate, batch, (), "(..., h)")
            heads = heads * head_gate[..., None, None]  # (..., h, 1, 1)
        if token_gates is not None:
            self._check_gate("token_gates", token_gates, batch, (n_q,), "(..., n_q, h)")
            heads = heads * token_gates.transpose(-2, -1)[..., None]  # (..., h, n_q, 1)
        return heads

    def combine_heads(
        self, heads: Tensor, *, head_gate: Tensor | None = None, token_gates: Tensor | None = None
    ) -> Tensor:
        """``Concat(g_1 head_1, ..., g_h head_h) W^O + b_o``: the output from the heads.

        The second half of :meth:`forward`; the gates as :meth:`gate_heads` (none: all 1).

        Shapes
        ------
        heads : (..., h, n_q, d_v)  ->  (..., n_q, d_model)
        """
        gated = self.gate_heads(heads, head_gate=head_gate, token_gates=token_gates)
        out = _merge_heads(gated) @ self.w_o  # (..., n_q, d_model)
        return out if self.b_o is None else out + self.b_o

    # --- argument checks -----------------------------------------------------------------

    def _check_inputs(self, q, k, v, mask, bias=None) -> Tensor | None:
        for name, x in (("q", q), ("k", k), ("v", v)):
            _validate.tensor(name, x, 2, "(..., n, features)")
            if x.dtype != self.w_q.dtype:
                raise TypeError(
                    f"{name} has dtype {x.dtype} but the module's weights have {self.w_q.dtype}"
                )
        for name, x, size, what in (
            ("q", q, self.qdim, "qdim"),
            ("k", k, self.kdim, "kdim"),
            ("v", v, self.vdim, "vdim"),
        ):
            if x.shape[-1] != size:
                raise ValueError(
                    f"{name} has {x.shape[-1]} features but the module expects {what}={size}"
                )
        _validate.one_value_per_key(k, v)
        batch = _validate.batch_shape(
            q=tuple(q.shape[:-2]), k=tuple(k.shape[:-2]), v=tuple(v.shape[:-2])
        )
        scores = (*batch, self.num_heads, q.shape[-2], k.shape[-2])
        if mask is not None:
            if not isinstance(mask, Tensor):
                raise TypeError(
                    f"mask must be a torch.Tensor of dtype bool, got {type(mask).__name__}"
                )
            _validate.attention_mask(mask, scores, torch, "(..., h, n_q, n_k)")
        if bias is not None and not callable(bias):
            _validate.tensor("bias", bias, 0, "(..., h, n_q, n_k)")
        xp = array_api_compat.array_namespace(q)  # torch's array-API namespace, for isdtype
        _validate.attention_bias(bias, scores, xp, "(..., h, n_q, n_k)", self.num_heads)
        return mask

    def _check_heads(self, heads: object) -> None:
        _validate.tensor("heads", heads, 3, "(..., h, n_q, d_v)")
        if heads.shape[-3] != self.num_heads or heads.shape[-1] != self.d_v:
            raise ValueError(
                f"heads must be (..., h={self.num_heads}, n_q, d_v={self.d_v}), "
                f"got shape {tuple(heads.shape)}"
            )

    def _check_gate(self, name, gate, batch, per_token, hint) -> None:
        """``gate`` is ``(*batch', *per_token', h)`` with ``batch'`` broadcasting to ``batch``."""
        _validate.tensor(name, gate, 1 + len(per_token), hint)
        if gate.shape[-1] != self.num_heads:
            raise ValueError(
                f"{name}'s last dimension must be num_heads={self.num_heads}, "
                f"got shape {tuple(gate.shape)}"
            )
        inner = tuple(gate.shape[-1 - len(per_token) : -1])
        if not _validate.broadcasts(inner, per_token) or not _validate.broadcasts(
            tuple(gate.shape[: -1 - len(per_token)]), batch
        ):
            raise ValueError(
                f"{name} has shape {tuple(gate.shape)}, which does not broadcast to "
                f"{(*batch, *per_token, self.num_heads)} {hint} (each dimension 1 or equal, "
                "no more leading dimensions than the heads' batch dimensions "
                f"{batch}); a gate per example is head_gate (..., h), one per token is "
                "token_gates (..., n_q, h)"
            )

    def _project_heads(self, q: Tensor, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """The per-head queries, keys and values: ``split_heads(x @ W + b)``.

        Shapes
        ------
        returns : (..., h, n_q, d_k), (..., g, n_k, d_k), (..., g, n_k, d_v)
        """
        h, g = self.num_heads, self.num_kv_heads

        def project(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
            return x @ w if b is None else x @ w + b

        # three products, not one with torch.cat([w_q, w_k, w_v]): as fast, and no copy of
        # the weights on every call
        q_heads = _split_heads(project(q, self.w_q, self.b_q), h)  # (..., h, n_q, d_k)
        k_heads = _split_heads(project(k, self.w_k, self.b_k), g)  # (..., g, n_k, d_k)
        v_heads = _split_heads(project(v, self.w_v, self.b_v), g)  # (..., g, n_k, d_v)
        return q_heads, k_heads, v_heads

    # --- conversions ---------------------------------------------------------------------

    @classmethod
    def from_params(
        cls,
        params: MHAParams | GQAParams,
        *,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> MultiHeadAttention:
        """A module holding copies of ``params`` (NumPy arrays, paper layout).

        ``dtype`` defaults to the arrays' (pass ``torch.bfloat16``, which NumPy lacks, to
        come back from :meth:`to_params` of a bfloat16 module). A
        :class:`mha.efficient.GQAParams` gives a module with its ``num_kv_heads``.
        """
        if not isinstance(params, MHAParams | GQAParams):
            raise TypeError(
                "params must be an mha.MHAParams or mha.efficient.GQAParams, "
                f"got {type(params).__name__}"
            )
        arrays = {name: getattr(params, name) for name in params.array_names()}
        tensors = {
            name: None if a is None else torch.as_tensor(np.asarray(a), device=device)
            for name, a in arrays.items()
        }
        module = cls(
            params.d_model,
            params.num_heads,
            d_k=params.d_k,
            d_v=params.d_v,
            qdim=params.qdim,
            kdim=params.kdim,
            vdim=params.vdim,
            num_kv_heads=getattr(params, "num_kv_heads", params.num_heads),
            bias=params.has_bias,
            device=device,
            dtype=tensors["w_q"].dtype if dtype is None else dtype,
        )
        module.load_paper_layout(tensors)
        return module

    def load_paper_layout(self, tensors: dict[str, Tensor | None]) -> None:
        """Copy tensors in paper layout (``w_q`` is ``(qdim, h*d_k)``) into the parameters.

        ``tensors`` maps parameter names (``w_q`` .. ``w_o``, ``b_q`` .. ``b_o``) to tensors
        of any dtype and device (copied and cast); a bias that is None is removed from the
        module, so a layer can keep exactly the biases it was given.
        """
        with torch.no_grad():
            for name, t in tensors.items():
                target = getattr(self, name)
                if t is None and target is not None:  # some biases but not all
                    setattr(self, name, None)
                elif t is not None:
                    target.copy_(t)

    def to_params(self) -> MHAParams | GQAParams:
        """The weights as NumPy arrays (copies), paper layout.

        An :class:`mha.MHAParams`, or an :class:`mha.efficient.GQAParams` when the module
        has fewer key/value heads than query heads. NumPy has no bfloat16: a bfloat16
        module's weights come back as float32, which holds them exactly.
        """
        arrays = {
            name: None
            if getattr(self, name) is None
            else getattr(self, name).detach().cpu().to(_numpy_dtype(self.w_q.dtype)).numpy().copy()
            for name in MHAParams.array_names()
        }
        if self.num_kv_heads != self.num_heads:
            return GQAParams(num_heads=self.num_heads, num_kv_heads=self.num_kv_heads, **arrays)
        return MHAParams(num_heads=self.num_heads, **arrays)

    @classmethod
    def from_torch(cls, module: nn.MultiheadAttention) -> MultiHeadAttention:
        """Copy the weights of a ``torch.nn.MultiheadAttention`` (transposed to paper layout).

        In the module's dtype (bfloat16 and float16 too) and on its device, without going
        through NumPy; its ``dropout`` is kept. ``add_bias_kv`` and ``add_zero_attn``, which
        this package does not model, raise ``ValueError``.
        """
        if not isinstance(module, nn.MultiheadAttention):
            raise TypeError(
                f"module must be a torch.nn.MultiheadAttention, got {type(module).__name__}"
            )
        if module.bias_k is not None:
            raise ValueError(
                "module has add_bias_kv=True (a learned key and value appended to every "
                "sequence), which this package does not model; use add_bias_kv=False"
            )
        if module.add_zero_attn:
            raise ValueError(
                "module has add_zero_attn=True (a zero key and value appended to every "
                "sequence), which this package does not model; use add_zero_attn=False"
            )
        arrays = paper_layout({name: t.detach() for name, t in module.state_dict().items()})
        weight = module.out_proj.weight
        layer = cls(
            module.embed_dim,
            module.num_heads,
            kdim=module.kdim,
            vdim=module.vdim,
            bias=arrays["b_q"] is not None,
            dropout=module.dropout,
            device=weight.device,
            dtype=weight.dtype,
        )
        layer.load_paper_layout(arrays)
        return layer

    def to_torch(self) -> nn.MultiheadAttention:
        """An equivalent ``torch.nn.MultiheadAttention(batch_first=True)``, dropout included.

        In this module's dtype and device. Remember its boolean masks mean the opposite
        (True = may *not* attend): pass ``attn_mask=~mask``. ``ValueError`` when
        ``nn.MultiheadAttention`` cannot hold the layer (other head sizes, queries of
        another width, some biases only, grouped key/value heads).
        """
        check_nn_compatible(self)
        if self.num_kv_heads != self.num_heads:
            raise ValueError(
                f"the layer has num_kv_heads={self.num_kv_heads} key/value heads for "
                f"{self.num_heads} query heads; nn.MultiheadAttention has one per query head"
            )
        module = nn.MultiheadAttention(
            self.d_model,
            self.num_heads,
            dropout=self.dropout,
            bias=self.b_q is not None,
            kdim=self.kdim,
            vdim=self.vdim,
            batch_first=True,
            device=self.w_q.device,
            dtype=self.w_q.dtype,
        )
        arrays = {name: getattr(self, name) for name in MHAParams.array_names()}
        state = torch_layout({n: None if t is None else t.detach() for n, t in arrays.items()})
        module.load_state_dict(state)
        return module
