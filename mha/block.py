"""The Transformer block around multi-head attention (PyTorch): residuals, LayerNorm, an MLP.

One encoder block, as in "Attention Is All You Need" (post-LN) or with the normalisation moved
in front of each sub-layer (pre-LN, as in GPT-2 and most models since)::

    post-LN:  x = LN1(x + MHA(x));          x = LN2(x + FFN(x))
    pre-LN:   x = x + MHA(LN1(x));          x = x + FFN(LN2(x))

with ``FFN(x) = act(x W1 + b1) W2 + b2``. The attention is this package's
:class:`mha.torch_mha.MultiHeadAttention` (masks: True = may attend). There is no dropout:
the block is written to be read and compared. :meth:`TransformerBlock.from_torch` and
:meth:`TransformerBlock.to_torch` move the weights to and from
``torch.nn.TransformerEncoderLayer(batch_first=True)``, whose masks mean the opposite
(True = may *not* attend).

Not imported by ``import mha``: ``from mha.block import TransformerBlock``.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from mha import _validate
from mha.torch_mha import MultiHeadAttention

_ACTIVATIONS = {"relu": nn.ReLU, "gelu": nn.GELU}


class TransformerBlock(nn.Module):
    """Multi-head self-attention and a feed-forward network, each with a residual and a LayerNorm.

    Parameters
    ----------
    d_model : int
        Width of the residual stream.
    num_heads : int
        h; must divide ``d_model``.
    d_ff : int
        Hidden width of the feed-forward network (``4 * d_model`` in most models).
    norm_first : bool
        True: pre-LN (normalise the input of each sub-layer); False: post-LN (normalise after
        each residual addition, as the original Transformer).
    activation : {"relu", "gelu"}
        The feed-forward network's non-linearity.
    eps : float
        LayerNorm's epsilon.

    Attributes
    ----------
    attention : MultiHeadAttention
        With biases, as ``nn.TransformerEncoderLayer``'s.
    norm1, norm2 : nn.LayerNorm
        Before (pre-LN) or after (post-LN) the attention and the feed-forward network.
    feed_forward : nn.Sequential
        ``Linear(d_model, d_ff)``, the activation, ``Linear(d_ff, d_model)``.
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        d_ff: int,
        *,
        norm_first: bool = True,
        activation: str = "relu",
        eps: float = 1e-5,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        d_ff = _validate.positive_int("d_ff", d_ff)
        if activation not in _ACTIVATIONS:
            raise ValueError(f"activation must be one of {tuple(_ACTIVATIONS)}, got {activation!r}")
        if not isinstance(norm_first, bool):
            raise TypeError(f"norm_first must be a bool, got {type(norm_first).__name__}")
        factory = {"device": device, "dtype": dtype}
        self.norm_first = norm_first
        self.activation = activation
        self.attention = MultiHeadAttention(d_model, num_heads, bias=True, **factory)
        self.norm1 = nn.LayerNorm(d_model, eps=eps, **factory)
        self.norm2 = nn.LayerNorm(d_model, eps=eps, **factory)
        self.feed_forward = nn.Sequential(
            nn.Linear(d_model, d_ff, **factory),
            _ACTIVATIONS[activation](),
            nn.Linear(d_ff, d_model, **factory),
        )

    def extra_repr(self) -> str:
        return f"norm_first={self.norm_first}, activation={self.activation!r}"

    def _attend(self, x: Tensor, mask: Tensor | None, is_causal: bool) -> Tensor:
        out, _ = self.attention(x, mask=mask, need_weights=False, is_causal=is_causal)
        return out

    def forward(self, x: Tensor, mask: Tensor | None = None, *, is_causal: bool = False) -> Tensor:
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

        Shapes
        ------
        x : (..., n, d_model)  ->  (..., n, d_model)
        """
        if self.norm_first:
            x = x + self._attend(self.norm1(x), mask, is_causal)
            return x + self.feed_forward(self.norm2(x))
        x = self.norm1(x + self._attend(x, mask, is_causal))
        return self.norm2(x + self.feed_forward(x))

    # --- conversions ---------------------------------------------------------------------

    @classmethod
    def from_torch(cls, layer: nn.TransformerEncoderLayer) -> TransformerBlock:
        """Copy the weights of a ``torch.nn.TransformerEncoderLayer`` (any dropout is left out)."""
        if not isinstance(layer, nn.TransformerEncoderLayer):
            raise TypeError(
                f"layer must be a torch.nn.TransformerEncoderLayer, got {type(layer).__name__}"
            )
        activation = {1: "relu", 2: "gelu"}.get(getattr(layer, "activation_relu_or_gelu", 0))
        if activation is None or getattr(layer.activation, "approximate", "none") != "none":
            raise ValueError(f"layer's activation {layer.activation!r} is not relu or gelu")
        if layer.linear1.bias is None or layer.self_attn.in_proj_bias is None:
            raise ValueError("layer has no biases (bias=False), which this block does not model")
        weight = layer.linear1.weight
        block = cls(
            layer.self_attn.embed_dim,
            layer.self_attn.num_heads,
            layer.linear1.out_features,
            norm_first=layer.norm_first,
            activation=activation,
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

        Its masks mean the opposite of this block's: pass ``src_key_padding_mask`` as
        ``~real`` (True = padding) and ``src_mask`` as ``~mask``.
        """
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
            device=first.weight.device,
            dtype=first.weight.dtype,
        )
        layer.self_attn = self.attention.to_torch()
        for name in ("norm1", "norm2"):
            getattr(layer, name).load_state_dict(getattr(self, name).state_dict())
        layer.linear1.load_state_dict(first.state_dict())
        layer.linear2.load_state_dict(self.feed_forward[2].state_dict())
        return layer
