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
This one computes all heads and zeroes the unused ones (readable, not fast): it is plain
multi-head attention's :meth:`~mha.torch_mha.MultiHeadAttention.head_outputs`, combined by
:meth:`~mha.torch_mha.MultiHeadAttention.combine_heads` with the routing weights as
per-token gates (``token_gates``). Not modelled here: the paper's always-on shared heads
and its load-balancing loss.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from mha import _validate
from mha.torch_mha import MultiHeadAttention


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
        _validate.tensor("q", q, 2, "(..., n_q, d_model)")
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
        head_gate: Tensor | None = None,
        **options,
    ) -> tuple[Tensor, Tensor | None]:
        """``sum_i g_{t,i} head_i W_i^O`` with the routing weights ``g`` of :meth:`route`.

        Arguments as :meth:`mha.torch_mha.MultiHeadAttention.forward` (``need_weights``,
        ``is_causal`` and ``impl`` go to :meth:`head_outputs`); the router reads the queries
        ``q``. ``head_gate`` multiplies the routing weights, so pruning works as in plain
        attention.

        Shapes
        ------
        q : (..., n_q, d_model);  head_gate : broadcastable to (..., h)
        out : (..., n_q, d_model);  weights : (..., h, n_q, n_k)
        """
        heads, weights = self.head_outputs(q, k, v, mask, **options)  # (..., h, n_q, d_v)
        gates = self.route(q)  # (..., n_q, h)
        return self.combine_heads(heads, head_gate=head_gate, token_gates=gates), weights
