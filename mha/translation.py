"""A toy translation whose neighbouring words swap places, for cross-attention (chapter 5).

A source sentence has 4 to 7 words of a vocabulary of 12, padded to 7; its translation has 4
words, target word i being source word ``SWAP[i]``, ``SWAP = (1, 0, 3, 2)``, as a French noun
and its adjective swap in English. :class:`SwapTranslator` translates with one
cross-attention layer: the queries are 4 learned target positions, the keys and values the
source words' embeddings plus their positions' (pads hidden by :func:`mha.padding_mask`), and
a linear readout gives each target word. :func:`train_translator` trains it with Adam on
fresh batches of :func:`swap_sentences`; a few hundred steps take a second or two on a CPU.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

import mha
from mha import _validate
from mha.torch_mha import MultiHeadAttention

SWAP = (1, 0, 3, 2)
"""Target word i is source word ``SWAP[i]``."""

VOCAB_SIZE, N_SOURCE, N_TARGET = 12, 7, len(SWAP)


def swap_sentences(size: int, generator: torch.Generator) -> tuple[Tensor, Tensor, Tensor]:
    """Source sentences of 4 to 7 words (then padding), their lengths, their translations.

    Shapes
    ------
    returns : words (size, 7) int64, lengths (size,) in [4, 7], translation (size, 4)
    """
    size = _validate.positive_int("size", size)
    words = torch.randint(VOCAB_SIZE, (size, N_SOURCE), generator=generator)
    lengths = torch.randint(N_TARGET, N_SOURCE + 1, (size,), generator=generator)
    return words, lengths, words[:, list(SWAP)]


class SwapTranslator(nn.Module):
    """Cross-attention from learned target positions to a source sentence, then a readout.

    The weights are drawn after ``torch.manual_seed(seed)``, so a seed gives one model.
    """

    def __init__(self, d_model: int, num_heads: int, *, seed: int = 0) -> None:
        super().__init__()
        torch.manual_seed(seed)
        self.cross = MultiHeadAttention(d_model, num_heads)  # the layer under study
        self.source_words = nn.Embedding(VOCAB_SIZE, d_model)
        self.source_positions = nn.Parameter(torch.randn(N_SOURCE, d_model) / 4)
        self.target_positions = nn.Parameter(torch.randn(N_TARGET, d_model) / 4)  # the queries
        self.readout = nn.Linear(d_model, VOCAB_SIZE)

    def encode(self, words: Tensor) -> Tensor:
        """The keys and values: each source word's embedding plus its position's.

        Shapes
        ------
        words : (B, 7)  ->  (B, 7, d_model)
        """
        return self.source_words(words) + self.source_positions

    def forward(self, words: Tensor, lengths: Tensor) -> tuple[Tensor, Tensor]:
        """Logits of every target word, and the cross-attention weights.

        Shapes
        ------
        words : (B, 7);  lengths : (B,)  ->  logits (B, 4, 12), weights (B, h, 4, 7)
        """
        queries = self.target_positions.expand(len(words), -1, -1)  # (B, n_q, d_model)
        mask = torch.from_numpy(mha.padding_mask(lengths.numpy(), N_SOURCE))  # (B, 1, 1, n_k)
        keys = self.encode(words)
        out, weights = self.cross(queries, keys, keys, mask=mask)
        return self.readout(out), weights


def train_translator(
    model: SwapTranslator,
    generator: torch.Generator,
    *,
    steps: int = 300,
    batch_size: int = 64,
    lr: float = 1e-2,
) -> list[float]:
    """Train ``model`` with Adam on ``steps`` fresh batches drawn from ``generator``; returns the
    cross-entropy of every step. The generator goes on, so sentences drawn from it afterwards
    were not trained on."""
    if not isinstance(model, SwapTranslator):
        raise TypeError(f"model must be a SwapTranslator, got {type(model).__name__}")
    steps = _validate.positive_int("steps", steps)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    history = []
    for _ in range(steps):
        words, lengths, translation = swap_sentences(batch_size, generator)
        logits, _ = model(words, lengths)
        loss = F.cross_entropy(logits.flatten(0, 1), translation.flatten())
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        history.append(loss.item())
    return history
