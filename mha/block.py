"""The Transformer block around multi-head attention (PyTorch): residuals, a norm, a feed-forward.

One block, as in "Attention Is All You Need" (post-LN) or with the normalisation moved in
front of each sub-layer (pre-LN, as in GPT-2 and most models since)::

    post-LN:  x = N1(x + MHA(x));          x = N2(x + FFN(x))
    pre-LN:   x = x + MHA(N1(x));          x = x + FFN(N2(x))

The 2017 block (the defaults) has LayerNorm, ``FFN(x) = act(x W1 + b1) W2 + b2`` and biases
everywhere. Today's decoders of the Llama family change four things, each an option here:

- ``norm="rms"``: RMSNorm, ``x / sqrt(mean(x^2) + eps) * g`` (Zhang and Sennrich, 2019):
  no mean subtracted, no bias;
- ``ffn="swiglu"``: a gated feed-forward, ``(SiLU(x W_gate) * (x W_up)) W_down``
  (Shazeer, 2020), :class:`SwiGLU`;
- ``rope=RoPE(...)``: rotary positions inside every attention layer instead of a code added
  to the embeddings (:class:`mha.positions.RoPE`);
- ``num_kv_heads=g``: grouped-query attention (fewer key/value heads, a smaller KV cache);

and ``bias=False`` drops the biases of the linear layers. :meth:`TransformerBlock.from_llama`
copies a Hugging Face ``LlamaDecoderLayer`` (or Qwen2's, Mistral's: the same layout).

The attention is this package's :class:`mha.torch_mha.MultiHeadAttention` (masks: True =
may attend). There is no dropout: the block is written to be read and compared.
:meth:`TransformerBlock.from_torch` and :meth:`TransformerBlock.to_torch` move the 2017
block's weights to and from ``torch.nn.TransformerEncoderLayer(batch_first=True)``, whose
masks mean the opposite (True = may *not* attend).

Not imported by ``import mha``: ``from mha.block import TransformerBlock``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import torch
from torch import Tensor, nn

from mha import _validate
from mha.positions import Llama3Scaling, RoPE
from mha.torch_mha import MultiHeadAttention

_ACTIVATIONS = {"relu": nn.ReLU, "gelu": nn.GELU}
_NORMS = ("layer", "rms")
_FFNS = ("mlp", "swiglu")


class SwiGLU(nn.Module):
    """The gated feed-forward network of PaLM and Llama: ``(SiLU(x W_gate) * (x W_up)) W_down``.

    ``SiLU(z) = z * sigmoid(z)``. The gate decides, feature by feature, how much of the
    "up" projection passes; with ``d_ff`` hidden features it has three weight matrices
    where the 2017 network has two (Llama takes ``d_ff`` about 2/3 of ``4 d_model`` to keep
    the count).

    Shapes
    ------
    x : (..., d_model)  ->  (..., d_model);  gate, up : d_model -> d_ff;  down : d_ff -> d_model
    """

    def __init__(
        self,
        d_model: int,
        d_ff: int,
        *,
        bias: bool = False,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        factory = {"bias": bias, "device": device, "dtype": dtype}
        self.gate = nn.Linear(d_model, d_ff, **factory)
        self.up = nn.Linear(d_model, d_ff, **factory)
        self.down = nn.Linear(d_ff, d_model, **factory)

    def forward(self, x: Tensor) -> Tensor:
        return self.down(nn.functional.silu(self.gate(x)) * self.up(x))


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


class TransformerBlock(nn.Module):
    """Multi-head self-attention and a feed-forward network, each with a residual and a norm.

    Parameters
    ----------
    d_model : int
        Width of the residual stream.
    num_heads : int
        h; must divide ``d_model`` unless ``d_k`` is given.
    d_ff : int
        Hidden width of the feed-forward network (``4 * d_model`` in most 2017-style models).
    norm_first : bool
        True: pre-LN (normalise the input of each sub-layer); False: post-LN (normalise after
        each residual addition, as the original Transformer).
    activation : {"relu", "gelu"}
        The 2017 feed-forward network's non-linearity (``ffn="mlp"``).
    norm : {"layer", "rms"}
        LayerNorm (2017) or RMSNorm (Llama).
    ffn : {"mlp", "swiglu"}
        Two layers with ``activation`` between them (2017), or :class:`SwiGLU` (Llama).
    num_kv_heads : int, optional
        Key/value heads of the attention (grouped-query attention); h by default.
    rope : mha.positions.RoPE, optional
        Rotary position embeddings inside the attention; :meth:`forward` takes positions.
    bias : bool
        Biases in the attention, the feed-forward network and the LayerNorms (2017: True;
        Llama: False).
    d_k : int, optional
        Per-head width (``d_model // num_heads`` by default).
    eps : float
        The norms' epsilon.

    Attributes
    ----------
    attention : MultiHeadAttention
    norm1, norm2 : nn.LayerNorm or nn.RMSNorm
        Before (pre-LN) or after (post-LN) the attention and the feed-forward network.
    feed_forward : nn.Sequential or SwiGLU
        ``Linear(d_model, d_ff)``, the activation, ``Linear(d_ff, d_model)``; or SwiGLU.
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        d_ff: int,
        *,
        norm_first: bool = True,
        activation: str = "relu",
        norm: str = "layer",
        ffn: str = "mlp",
        num_kv_heads: int | None = None,
        rope: RoPE | None = None,
        bias: bool = True,
        d_k: int | None = None,
        eps: float = 1e-5,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        d_ff = _validate.positive_int("d_ff", d_ff)
        activation = _choice("activation", activation, tuple(_ACTIVATIONS))
        self.norm = _choice("norm", norm, _NORMS)
        self.ffn = _choice("ffn", ffn, _FFNS)
        if ffn == "swiglu" and activation != "relu":
            raise ValueError(
                f"activation={activation!r} is the 2017 feed-forward network's (ffn='mlp'); "
                "ffn='swiglu' gates with SiLU"
            )
        for name, flag in (("norm_first", norm_first), ("bias", bias)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
        factory = {"device": device, "dtype": dtype}
        self.norm_first = norm_first
        self.activation = activation
        self.attention = MultiHeadAttention(
            d_model, num_heads, d_k=d_k, d_v=d_k, num_kv_heads=num_kv_heads, bias=bias, **factory
        )
        _validate.rope(rope, self.attention.d_k)
        self.rope = rope
        for name in ("norm1", "norm2"):
            if norm == "rms":
                setattr(self, name, nn.RMSNorm(d_model, eps=eps, **factory))
            else:
                setattr(self, name, nn.LayerNorm(d_model, eps=eps, bias=bias, **factory))
        if ffn == "swiglu":
            self.feed_forward = SwiGLU(d_model, d_ff, bias=bias, **factory)
        else:
            self.feed_forward = nn.Sequential(
                nn.Linear(d_model, d_ff, bias=bias, **factory),
                _ACTIVATIONS[activation](),
                nn.Linear(d_ff, d_model, bias=bias, **factory),
            )

    def extra_repr(self) -> str:
        extras = f"norm={self.norm!r}, ffn={self.ffn!r}, rope={self.rope}"
        return f"norm_first={self.norm_first}, activation={self.activation!r}, {extras}"

    def _attend(self, x: Tensor, mask: Tensor | None, is_causal: bool, positions: Any) -> Tensor:
        rope = self.rope
        if positions is not None:
            if rope is None:
                raise ValueError(
                    "positions are the rotary embeddings' and this block has rope=None"
                )
            rope = dataclasses.replace(rope, positions=positions)
        out, _ = self.attention(x, mask=mask, need_weights=False, is_causal=is_causal, rope=rope)
        return out

    def forward(
        self,
        x: Tensor,
        mask: Tensor | None = None,
        *,
        is_causal: bool = False,
        positions: Tensor | None = None,
    ) -> Tensor:
        """One block of self-attention and feed-forward.

        Parameters
        ----------
        x : Tensor
            The residual stream, batch first.
        mask : bool Tensor, optional
            True = may attend; broadcastable to ``(..., h, n, n)`` (e.g. :func:`mha.padding_mask`
            as a tensor).
        is_causal : bool
            Add the causal mask.
        positions : Tensor, optional
            The tokens' positions for the rotary embeddings, ``(n,)`` or ``(B, n)``
            (``0 .. n-1`` by default); only with ``rope``.

        Shapes
        ------
        x : (..., n, d_model)  ->  (..., n, d_model)
        """
        if self.norm_first:
            x = x + self._attend(self.norm1(x), mask, is_causal, positions)
            return x + self.feed_forward(self.norm2(x))
        x = self.norm1(x + self._attend(x, mask, is_causal, positions))
        return self.norm2(x + self.feed_forward(x))

    # --- conversions ---------------------------------------------------------------------

    @classmethod
    def from_torch(cls, layer: nn.TransformerEncoderLayer) -> TransformerBlock:
        """Copy the weights of a ``torch.nn.TransformerEncoderLayer`` (any dropout is left out).

        In the layer's dtype (bfloat16 too) and on its device.
        """
        if not isinstance(layer, nn.TransformerEncoderLayer):
            raise TypeError(
                f"layer must be a torch.nn.TransformerEncoderLayer, got {type(layer).__name__}"
            )
        activation = {1: "relu", 2: "gelu"}.get(getattr(layer, "activation_relu_or_gelu", 0))
        if activation is None or getattr(layer.activation, "approximate", "none") != "none":
            raise ValueError(f"layer's activation {layer.activation!r} is not relu or gelu")
        weight = layer.linear1.weight
        block = cls(
            layer.self_attn.embed_dim,
            layer.self_attn.num_heads,
            layer.linear1.out_features,
            norm_first=layer.norm_first,
            activation=activation,
            bias=layer.linear1.bias is not None,
            eps=layer.norm1.eps,
            device=weight.device,
            dtype=weight.dtype,
        )
        block.attention = MultiHeadAttention.from_torch(layer.self_attn)
        for name in ("norm1", "norm2"):
            getattr(block, name).load_state_dict(getattr(layer, name).state_dict())
        block.feed_forward[0].load_state_dict(layer.linear1.state_dict())
        block.feed_forward[2].load_state_dict(layer.linear2.state_dict())
        return block

    def to_torch(self) -> nn.TransformerEncoderLayer:
        """An equivalent ``torch.nn.TransformerEncoderLayer(batch_first=True, dropout=0)``.

        Only for the 2017 block (LayerNorm, the two-layer feed-forward network, no rotary
        embeddings, one key/value head per query head); ``ValueError`` otherwise. Its masks
        mean the opposite of this block's: pass ``src_key_padding_mask`` as ``~real``
        (True = padding) and ``src_mask`` as ``~mask``.
        """
        for option, value, allowed in (
            ("norm", self.norm, "layer"),
            ("ffn", self.ffn, "mlp"),
            ("rope", self.rope, None),
            ("num_kv_heads", self.attention.num_kv_heads, self.attention.num_heads),
        ):
            if value != allowed:
                raise ValueError(
                    f"the block has {option}={value!r}; nn.TransformerEncoderLayer needs "
                    f"{option}={allowed!r}"
                )
        first = self.feed_forward[0]
        layer = nn.TransformerEncoderLayer(
            self.attention.d_model,
            self.attention.num_heads,
            first.out_features,
            dropout=0.0,
            activation=self.activation,
            layer_norm_eps=self.norm1.eps,
            batch_first=True,
            norm_first=self.norm_first,
            bias=first.bias is not None,
            device=first.weight.device,
            dtype=first.weight.dtype,
        )
        layer.self_attn = self.attention.to_torch()
        for name in ("norm1", "norm2"):
            getattr(layer, name).load_state_dict(getattr(self, name).state_dict())
        layer.linear1.load_state_dict(first.state_dict())
        layer.linear2.load_state_dict(self.feed_forward[2].state_dict())
        return layer

    @classmethod
    def from_llama(cls, layer: nn.Module) -> TransformerBlock:
        """Copy a Hugging Face decoder layer of the Llama family (Llama, Qwen2, Mistral).

        Those layers are pre-norm blocks with RMSNorm, a SwiGLU feed-forward network, rotary
        embeddings and grouped-query attention: ``TransformerBlock(norm="rms",
        ffn="swiglu", rope=..., num_kv_heads=...)``. The rotary base and Llama 3's scaling
        come from the layer's config (``rope_parameters``); the attention keeps exactly the
        biases the layer has (Qwen2: ``q``, ``k``, ``v``, none on ``o``). The layer is
        causal: call the block with ``is_causal=True``.
        """
        attn, mlp = getattr(layer, "self_attn", None), getattr(layer, "mlp", None)
        parts = ("q_proj", "k_proj", "v_proj", "o_proj", "config")
        if (
            attn is None
            or mlp is None
            or not all(hasattr(attn, p) for p in parts)
            or not all(hasattr(mlp, p) for p in ("gate_proj", "up_proj", "down_proj"))
            or not hasattr(layer, "input_layernorm")
        ):
            raise TypeError(
                "layer must be a Hugging Face decoder layer of the Llama family "
                "(self_attn.q_proj/k_proj/v_proj/o_proj, mlp.gate_proj/up_proj/down_proj, "
                f"input_layernorm), got {type(layer).__name__}"
            )
        config = attn.config
        if config.hidden_act != "silu":
            raise ValueError(f"layer's hidden_act is {config.hidden_act!r}; SwiGLU needs 'silu'")
        weight = attn.q_proj.weight
        factory = {"device": weight.device, "dtype": weight.dtype}
        block = cls(
            config.hidden_size,
            config.num_attention_heads,
            config.intermediate_size,
            norm="rms",
            ffn="swiglu",
            num_kv_heads=config.num_key_value_heads,
            rope=_rope_of(config),
            bias=mlp.gate_proj.bias is not None,
            d_k=attn.head_dim,
            eps=layer.input_layernorm.variance_epsilon,
            **factory,
        )
        linears = {"w_q": attn.q_proj, "w_k": attn.k_proj, "w_v": attn.v_proj, "w_o": attn.o_proj}
        attention = MultiHeadAttention(
            config.hidden_size, config.num_attention_heads, d_k=attn.head_dim,
            d_v=attn.head_dim, num_kv_heads=config.num_key_value_heads,
            bias=any(linear.bias is not None for linear in linears.values()), **factory,
        )  # fmt: skip
        tensors = {}
        for name, linear in linears.items():
            tensors[name] = linear.weight.detach().T
            tensors["b" + name[1:]] = None if linear.bias is None else linear.bias.detach()
        attention.load_paper_layout(tensors)
        block.attention = attention
        with torch.no_grad():
            block.norm1.weight.copy_(layer.input_layernorm.weight)
            block.norm2.weight.copy_(layer.post_attention_layernorm.weight)
        for ours, theirs in (("gate", "gate_proj"), ("up", "up_proj"), ("down", "down_proj")):
            getattr(block.feed_forward, ours).load_state_dict(getattr(mlp, theirs).state_dict())
        return block


def _rope_of(config: Any) -> RoPE:
    """The :class:`RoPE` of a Hugging Face config's ``rope_parameters``."""
    parameters = dict(getattr(config, "rope_parameters", None) or {})
    kind = parameters.get("rope_type", "default")
    base = parameters.get("rope_theta", getattr(config, "rope_theta", 10000.0))
    if kind == "default":
        return RoPE(base=base)
    if kind == "llama3":
        return RoPE(
            base=base,
            scaling=Llama3Scaling(
                factor=parameters["factor"],
                low_freq_factor=parameters["low_freq_factor"],
                high_freq_factor=parameters["high_freq_factor"],
                original_max_position=parameters["original_max_position_embeddings"],
            ),
        )
    raise ValueError(
        f"layer's config has rope_type={kind!r}; this package knows 'default' and 'llama3'"
    )
