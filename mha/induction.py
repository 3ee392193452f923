"""Heads that compose across layers: induction heads (Olsson et al., 2022), in a tiny model.

The task: sequences of random tokens whose second half repeats the first. The first half
cannot be predicted; the second half can, by *copying*: at a token seen before, predict the
token that followed it last time. A two-layer, attention-only model learns to do that with
two heads working together (chapter 10):

- a **previous-token head** in layer 1 writes, at every position j, what token came before
  (it attends from j to j-1);
- an **induction head** in layer 2 attends from position i to the position j whose previous
  token equals the current token ``x_i`` (the token after the earlier occurrence), and copies
  ``x_j``, the prediction. Its keys read what the first head wrote: K-composition.

:func:`previous_token_score` and :func:`induction_score` measure the two patterns on attention
weights (NumPy or torch); :class:`AttentionOnlyTransformer` and :func:`train` are the model and
its training loop (torch); everything is seeded.
"""

from __future__ import annotations

from typing import Any

import array_api_compat
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from mha import _validate
from mha._training import adam_steps
from mha._validate import Array
from mha.positions import sinusoidal
from mha.torch_mha import MultiHeadAttention

# --- what a head does: scores on attention weights (NumPy, CuPy or torch) ------------------


def _stripe_score(weights: Array, offset: int, first_query: int) -> Array:
    """Mean weight of queries ``i >= first_query`` on key ``i - offset`` (a diagonal stripe)."""
    xp = array_api_compat.array_namespace(weights)
    n = weights.shape[-1]
    device = array_api_compat.device(weights)
    rows = xp.reshape(xp.arange(n, device=device), (n, 1))  # query i
    cols = xp.reshape(xp.arange(n, device=device), (1, n))  # key j
    stripe = (cols == rows - offset) & (rows >= first_query)  # (n, n): one key per scored query
    zero = xp.zeros((), dtype=weights.dtype, device=device)
    return xp.sum(xp.where(stripe, weights, zero), axis=(-2, -1)) / (n - first_query)


def _check_weights(weights: Any) -> None:
    if not array_api_compat.is_array_api_obj(weights):
        raise TypeError(f"weights must be an array or a tensor, got {type(weights).__name__}")
    xp = array_api_compat.array_namespace(weights)
    _validate.floating("weights", weights, xp)
    _validate.min_ndim("weights", weights, 2, "(..., n, n)")
    if weights.shape[-1] != weights.shape[-2]:
        raise ValueError(
            "weights must be self-attention weights, (..., n, n) with as many queries as keys, "
            f"got shape {tuple(weights.shape)}"
        )


def previous_token_score(weights: Array) -> Array:
    """How much each query attends to the token just before it: mean of ``w[i, i-1]``, i >= 1.

    1 for a perfect previous-token head; about ``1/i`` at query i for a head that attends
    evenly to the past.

    Shapes
    ------
    weights : (..., n, n) with n >= 2  ->  (...)
    """
    _check_weights(weights)
    if weights.shape[-1] < 2:
        raise ValueError(f"weights must have n >= 2 positions, got shape {tuple(weights.shape)}")
    return _stripe_score(weights, 1, 1)


def induction_score(weights: Array, period: int) -> Array:
    """How much each query of a repeated sequence attends to the token after its earlier copy.

    On a sequence that repeats with period m (``x[i] = x[i - m]`` for i >= m), the induction
    target of query i >= m is key ``i - m + 1``: the token that followed the previous
    occurrence of ``x[i]``. The score is the mean weight on that key over the queries
    ``i = m .. n-1`` (the first m queries have no earlier copy and are not scored).

    Shapes
    ------
    weights : (..., n, n);  period : int, 1 <= period < n  ->  (...)
    """
    _check_weights(weights)
    period = _validate.positive_int("period", period)
    n = weights.shape[-1]
    if period >= n:
        raise ValueError(
            f"period must be smaller than the sequence length n={n} (some query needs an "
            f"earlier copy), got {period}"
        )
    return _stripe_score(weights, period - 1, period)


# --- the task --------------------------------------------------------------------------------


def repeated_sequences(
    batch_size: int, half: int, vocab_size: int, generator: torch.Generator
) -> Tensor:
    """Random tokens, then the same tokens again: ``x[i + half] = x[i]``.

    Shapes
    ------
    returns : (batch_size, 2 * half), int64 in [0, vocab_size)
    """
    batch_size = _validate.positive_int("batch_size", batch_size)
    half = _validate.positive_int("half", half)
    vocab_size = _validate.positive_int("vocab_size", vocab_size)
    first = torch.randint(vocab_size, (batch_size, half), generator=generator)
    return torch.cat([first, first], dim=1)


def next_token_loss(logits: Tensor, tokens: Tensor) -> Tensor:
    """Cross-entropy of predicting ``tokens[:, i+1]`` from the logits at position i.

    Shapes
    ------
    logits : (B, n, V);  tokens : (B, n)  ->  (B, n-1)
    """
    return F.cross_entropy(logits[:, :-1].transpose(1, 2), tokens[:, 1:], reduction="none")


# --- the model -------------------------------------------------------------------------------


class AttentionOnlyTransformer(nn.Module):
    """Token embeddings plus sinusoidal positions, causal attention layers, an unembedding.

    ``x_0 = E[tokens] + PE``; ``x_l = x_{l-1} + MHA_l(x_{l-1})`` with a causal mask;
    ``logits = x_L W_U``. No MLPs and no LayerNorm: every head reads the residual stream and
    adds its output to it, so what a layer-1 head writes is there for the layer-2 heads to read.

    Parameters
    ----------
    vocab_size, d_model, num_heads : int
        Sizes; ``num_heads`` heads in every layer.
    num_layers : int
        2 for induction heads.
    """

    def __init__(self, vocab_size: int, d_model: int, num_heads: int, num_layers: int = 2) -> None:
        super().__init__()
        self.vocab_size = _validate.positive_int("vocab_size", vocab_size)
        num_layers = _validate.positive_int("num_layers", num_layers)
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.layers = nn.ModuleList(
            MultiHeadAttention(d_model, num_heads) for _ in range(num_layers)
        )
        self.unembed = nn.Linear(d_model, vocab_size)

    @property
    def num_heads(self) -> int:
        return self.layers[0].num_heads

    def embed(self, tokens: Tensor) -> Tensor:
        """Token embeddings plus the sinusoidal position encoding.

        Shapes
        ------
        tokens : (B, n) int64  ->  (B, n, d_model)
        """
        _validate.token_ids(tokens)
        e = self.token_embedding(tokens)
        return e + sinusoidal(tokens.shape[1], e.shape[-1], like=e)

    def forward(
        self, tokens: Tensor, head_gates: Tensor | None = None, *, need_weights: bool = False
    ) -> tuple[Tensor, list[Tensor] | None]:
        """Next-token logits at every position; with ``need_weights``, each layer's weights.

        Parameters
        ----------
        head_gates : Tensor, optional
            ``head_gates[l, a]`` multiplies head a of layer l (0 removes it).

        Shapes
        ------
        tokens : (B, n);  head_gates : (num_layers, h)
        logits : (B, n, vocab_size);  weights : one (B, h, n, n) per layer
        """
        layers = len(self.layers)
        if head_gates is not None and tuple(head_gates.shape) != (layers, self.num_heads):
            raise ValueError(
                f"head_gates must have shape (num_layers, h) = ({layers}, {self.num_heads}), "
                f"got {tuple(head_gates.shape)}"
            )
        x = self.embed(tokens)  # (B, n, d_model)
        all_weights = []
        for index, layer in enumerate(self.layers):
            gate = None if head_gates is None else head_gates[index]
            out, weights = layer(x, need_weights=need_weights, is_causal=True, head_gate=gate)
            x = x + out  # the head outputs are added to the residual stream
            all_weights.append(weights)
        return self.unembed(x), (all_weights if need_weights else None)


def train(
    model: AttentionOnlyTransformer,
    *,
    steps: int,
    batch_size: int = 32,
    halves: tuple[int, int] = (8, 16),
    lr: float = 1e-2,
    seed: int = 0,
) -> list[float]:
    """Adam on fresh repeated sequences; returns the mean next-token loss of every step.

    Each step draws its half-length m uniformly from ``halves`` (inclusive), so the offset to
    the earlier copy changes from batch to batch: the model cannot learn "copy from m - 1
    positions back" from the positions alone and has to find the earlier copy by content.

    Shapes
    ------
    returns : list of ``steps`` floats
    """
    steps = _validate.positive_int("steps", steps)
    low, high = (_validate.positive_int("halves", m) for m in halves)
    if low > high:
        raise ValueError(f"halves must be (smallest, largest), got {halves}")
    device = model.unembed.weight.device
    generator = torch.Generator().manual_seed(seed)

    def batch_loss() -> Tensor:
        half = int(torch.randint(low, high + 1, (), generator=generator))
        tokens = repeated_sequences(batch_size, half, model.vocab_size, generator).to(device)
        logits, _ = model(tokens)
        return next_token_loss(logits, tokens).mean()

    return adam_steps(model, steps, lr, batch_loss)
