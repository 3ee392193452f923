"""Mixture-of-Head attention: a router picks the top-k heads for each token.

After Jin et al. (2024), "MoH: Multi-Head Attention as Mixture-of-Head Attention". Plain
multi-head attention adds every head's contribution with weight 1::

    MultiHead(x)_t = sum_i head_i(x)_t W_i^O          (W_i^O: head i's rows of W^O)

Mixture-of-Head attention weights them with per-token routing scores ``g_t``::

    MoH(x)_t = sum_i g_{t,i} head_i(x)_t W_i^O,
    g_{t,i} = h * softmax(x_t W_r)_i  if i is among the top_k scores of token t, else 0.

The softmax runs over all h heads and is *not* renormalised over the chosen ones, so the
router also learns from the heads it did not pick. **Scaling:** the factor h is this book's
choice: with ``top_k = h`` and equal scores (``W_r = 0``, the initial router) every gate is
exactly 1, so Mixture-of-Head attention *is* plain multi-head attention; without it the
output would shrink h-fold and, on the book's toy task, training is slower and less reliable.
With ``top_k < h`` a token evaluates only k heads, so an implementation that skips the others
spends ``k/h`` of the per-query head work (query projection, score row, weighted sum of
values, slice of W^O); keys and values are still needed for every head some token picks.
This one computes all heads and zeroes the unused ones (readable, not fast). Not modelled
here: the paper's always-on shared heads and its load-balancing loss.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from mha import _validate
from mha.torch_mha import MultiHeadAttention, _causal, _check_tensor, _merge_heads


class MixtureOfHeadAttention(MultiHeadAttention):
    """Multi-head attention whose heads are weighted per token by a top-k router.

    Parameters
    ----------
    d_model, num_heads : int
        As :class:`mha.torch_mha.MultiHeadAttention` (and its keyword arguments).
    top_k : int
        Heads each token uses, 1 <= top_k <= num_heads.

    Shapes
    ------
    w_router : (d_model, h), zero at initialisation (equal routing); the other weights as :class:`mha.torch_mha.MultiHeadAttention`.
    """

    def __init__(self, d_model: int, num_heads: int, *, top_k: int, **kwargs) -> None:
        super().__init__(d_model, num_heads, **kwargs)
        top_k = _validate.positive_int("top_k", top_k)
        if top_k > self.num_heads:
            raise ValueError(f"top_k must be at most num_heads={self.num_heads}, got top_k={top_k}")
        self.top_k = top_k
        self.w_router = nn.Parameter(torch.zeros_like(self.w_q[:, : self.num_heads]))

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, top_k={self.top_k}"

    def route(self, q: Tensor) -> Tensor:
        """The routing weights ``g``: h times the softmax of the router's scores, zero outside
        each token's top-k.

        Shapes
        ------
        q : (..., n_q, d_model)  ->  (..., n_q, h), at most ``top_k`` non-zeros per token
        """
        _check_tensor("q", q, 2, "(..., n_q, d_model)")
        if q.shape[-1] != self.d_model:
            raise ValueError(
                f"q has {q.shape[-1]} features but the router expects d_model={self.d_model}"
            )
        probs = torch.softmax(q @ self.w_router, dim=-1)  # (..., n_q, h)
        chosen = probs.topk(self.top_k, dim=-1).indices
        keep = torch.zeros_like(probs, dtype=torch.bool).scatter_(-1, chosen, True)
        return self.num_heads * probs * keep

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
    ) -> tuple[Tensor, Tensor | None]:
        """``sum_i g_{t,i} head_i W_i^O`` with the routing weights of :meth:`route`.

        Arguments as :meth:`mha.torch_mha.MultiHeadAttention.forward` (the router reads the
        queries ``q``); ``head_gate`` multiplies the routing weights, so pruning works as in
        plain attention. Always the readable path.

        Shapes
        ------
        q : (..., n_q, d_model);  head_gate : broadcastable to (..., h)
        out : (..., n_q, d_model);  weights : (..., h, n_q, n_k)
        """
        k = q if k is None else k
        v = k if v is None else v
        mask = self._check_inputs(q, k, v, mask, head_gate)
        if is_causal:
            causal = _causal(q.shape[-2], k.shape[-2], q.device)
            mask = causal if mask is None else mask & causal
        heads, weights = self._attention_readable(q, k, v, mask)  # (..., h, n_q, d_v)
        gates = self.route(q)  # (..., n_q, h)
        if head_gate is not None:
            gates = gates * head_gate[..., None, :]
        heads = heads * gates.transpose(-2, -1)[..., None]  # (..., h, n_q, d_v)
        out = _merge_heads(heads) @ self.w_o  # (..., n_q, d_model)
        if self.b_o is not None:
            out = out + self.b_o
        return out, (weights if need_weights else None)
