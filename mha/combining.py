"""Heads combined after W^O: a task that no head can answer alone (chapter 10).

The task: sequences of ``n`` random tokens from ``0 .. K-1``; the answer, read at the last
position, is the difference of the first two tokens modulo K, ``(x_0 - x_1) mod K``. Each of
the two tokens alone says nothing about it: for every value of ``x_0`` all K answers are
equally likely. So a model has to bring both tokens to the last position and combine them.

The model is one block: token and learned position embeddings, multi-head self-attention
with a residual connection, a feed-forward network (ReLU) with a residual connection, and a
linear readout at the last position. Two heads find one token each; W^O adds what they
write into one vector, the residual stream; the FFN, a non-linearity, turns the sum into the
difference. With ``feed_forward=False`` the readout follows W^O directly, and then
``W^O W_U`` is one linear map: nothing after the heads can combine them beyond adding.

:meth:`HeadsThenFFN.head_writes` returns each head's contribution ``head_a W^O_a`` at the
last position (:func:`mha.analysis.head_contributions`), :meth:`HeadsThenFFN.finish` the
logits from a stream; :func:`accuracy` measures the model with one head's contribution
removed (``"zero"``) or replaced by its mean over the batch (``"mean"``). Everything is seeded.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from mha import _validate
from mha._training import adam_steps
from mha.analysis import head_contributions
from mha.torch_mha import MultiHeadAttention

REPLACEMENTS = ("zero", "mean")


def difference_task(
    batch_size: int, n: int, num_values: int, generator: torch.Generator
) -> tuple[Tensor, Tensor]:
    """Random tokens and the answer ``(x_0 - x_1) mod num_values`` of each sequence.

    Shapes
    ------
    returns : tokens (batch_size, n) int64 in [0, num_values), answers (batch_size,) int64
    """
    batch_size = _validate.positive_int("batch_size", batch_size)
    n = _validate.positive_int("n", n)
    num_values = _validate.positive_int("num_values", num_values)
    if n < 3:
        raise ValueError(f"n must be at least 3 (two tokens and a query), got {n}")
    tokens = torch.randint(num_values, (batch_size, n), generator=generator)
    return tokens, (tokens[:, 0] - tokens[:, 1]) % num_values


class HeadsThenFFN(nn.Module):
    """Embeddings, one multi-head attention layer, a feed-forward network, a readout.

    ``x = E[tokens] + P``; ``s = x + MHA(x)``; ``s = s + FFN(s)`` (``FFN(s) = max(0, s W_1 +
    b_1) W_2 + b_2``, left out with ``feed_forward=False``); the logits are ``s W_U + b_U``
    at the last position. No LayerNorm, so the FFN's ReLU is the only non-linearity after
    W^O.

    Parameters
    ----------
    num_values, n, d_model, num_heads, d_ff : int
        Sizes: the vocabulary (and the number of answers), the sequence length, the stream's
        width, the heads, the FFN's hidden width.
    feed_forward : bool
        False: the readout follows the attention directly.
    """

    def __init__(
        self, num_values: int, n: int, d_model: int, num_heads: int, d_ff: int,
        *, feed_forward: bool = True,
    ) -> None:  # fmt: skip
        super().__init__()
        self.num_values = _validate.positive_int("num_values", num_values)
        self.n = _validate.positive_int("n", n)
        d_ff = _validate.positive_int("d_ff", d_ff)
        self.token_embedding = nn.Embedding(num_values, d_model)
        self.position_embedding = nn.Embedding(n, d_model)
        self.attention = MultiHeadAttention(d_model, num_heads)
        self.feed_forward = (
            nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
            if feed_forward
            else None
        )
        self.readout = nn.Linear(d_model, num_values)

    @property
    def num_heads(self) -> int:
        return self.attention.num_heads

    def embed(self, tokens: Tensor) -> Tensor:
        """Token plus position embeddings.

        Shapes
        ------
        tokens : (B, n) int64  ->  (B, n, d_model)
        """
        _validate.token_ids(tokens)
        if tokens.shape[1] != self.n:
            raise ValueError(f"tokens must have n = {self.n} positions, got {tokens.shape[1]}")
        positions = torch.arange(self.n, device=tokens.device)
        return self.token_embedding(tokens) + self.position_embedding(positions)

    def head_writes(self, tokens: Tensor) -> tuple[Tensor, Tensor]:
        """The embedding at the last position and what each head adds to it there.

        ``embedded + writes.sum(1) + attention.b_o`` is the stream after the attention.

        Shapes
        ------
        tokens : (B, n) int64  ->  embedded (B, d_model), writes (B, h, d_model)
        """
        x = self.embed(tokens)  # (B, n, d_model)
        writes = head_contributions(self.attention, x)  # (B, h, n, d_model)
        return x[:, -1], writes[:, :, -1]

    def last_query_weights(self, tokens: Tensor) -> Tensor:
        """Each head's attention weights from the last position: where it looks.

        Shapes
        ------
        tokens : (B, n)  ->  (B, h, n)
        """
        _, weights = self.attention(self.embed(tokens), need_weights=True)  # (B, h, n, n)
        return weights[:, :, -1]

    def finish(self, stream: Tensor) -> Tensor:
        """The logits from the stream after the attention (the FFN, then the readout).

        Shapes
        ------
        stream : (B, d_model)  ->  (B, num_values)
        """
        if self.feed_forward is not None:
            stream = stream + self.feed_forward(stream)
        return self.readout(stream)

    def forward(self, tokens: Tensor) -> Tensor:
        """The logits at the last position.

        Shapes
        ------
        tokens : (B, n)  ->  (B, num_values)
        """
        embedded, writes = self.head_writes(tokens)
        return self.finish(embedded + writes.sum(1) + _output_bias(self))


def train(
    model: HeadsThenFFN, *, steps: int, batch_size: int = 128, lr: float = 1e-2, seed: int = 0
) -> list[float]:
    """Adam on fresh sequences of the difference task; returns the loss of every step.

    Shapes
    ------
    returns : list of ``steps`` floats
    """
    steps = _validate.positive_int("steps", steps)
    generator = torch.Generator().manual_seed(seed)

    def batch_loss() -> Tensor:
        tokens, answers = difference_task(batch_size, model.n, model.num_values, generator)
        return F.cross_entropy(model(tokens), answers)

    return adam_steps(model, steps, lr, batch_loss)


def accuracy(
    model: HeadsThenFFN, tokens: Tensor, answers: Tensor, head: int | None = None,
    replace: str = "zero", *, feed_forward: bool = True,
) -> float:  # fmt: skip
    """The share of right answers, with head ``head``'s contribution replaced.

    ``replace="zero"`` removes it (an ablation); ``"mean"`` puts in its place its mean over
    the batch, which keeps what the head writes on average (a constant the FFN may rely on)
    and removes only what it says about each sequence. ``feed_forward=False`` skips the
    trained model's FFN: the readout reads W^O's sum directly.
    """
    if replace not in REPLACEMENTS:
        raise ValueError(f"replace must be one of {REPLACEMENTS}, got {replace!r}")
    if head is not None and not 0 <= head < model.num_heads:
        raise ValueError(f"head must be None or in [0, {model.num_heads}), got {head}")
    with torch.no_grad():
        embedded, writes = model.head_writes(tokens)  # (B, d), (B, h, d)
        if head is not None:
            writes = writes.clone()
            writes[:, head] = 0.0 if replace == "zero" else writes[:, head].mean(0)
        stream = embedded + writes.sum(1) + _output_bias(model)
        logits = model.finish(stream) if feed_forward else model.readout(stream)
    return (logits.argmax(-1) == answers).double().mean().item()


def _output_bias(model: HeadsThenFFN) -> Tensor | float:
    return 0.0 if model.attention.b_o is None else model.attention.b_o
