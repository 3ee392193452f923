"""A tiny task and a one-layer attention model to watch heads specialise (chapters 8 and 9).

The task asks, at every position i of a random token sequence ``x_0 .. x_{n-1}``, for two
answers at once:

- **local**: the previous token ``x_{i-1}`` (none at position 0, which is not scored);
- **global**: the token at the mirrored position ``x_{n-1-i}`` (the sequence reversed),
  on average about n/2 positions away.

One head cannot do both (it would mix the two tokens it needs), so the model has to give
the two jobs to different heads. The model is as small as it gets: token and position
embeddings, one multi-head attention layer with a residual connection, and a linear readout
with two softmax outputs per position. On a CPU it trains in seconds.

The data are seeded (:func:`make_batch` takes a generator; :func:`train` a ``seed``). The
initial weights come from torch's global generator, as for any ``nn.Module``:
:func:`build_model` calls ``torch.manual_seed`` before building, so a run repeats exactly.
:func:`train_seeds` trains one model per seed, the seeds spread over the CPU's cores;
:func:`build_seeds` gives the same models untrained.

The measurements the chapters make on trained models, with :mod:`mha.analysis`, on sequences
of their own (:func:`held_out`): :func:`evaluate` (accuracy, with heads gated off),
:func:`head_statistics` and :func:`head_kind` (where each head looks),
:func:`head_similarities` and :func:`redundancies` (how alike the heads are, as maps and as
outputs), :func:`head_importances` and :func:`pruning_curve` (how much each head matters).
They return NumPy arrays, the numbers the prose quotes.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import numbers
import os
import signal
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from mha import _validate, analysis
from mha.moh import MixtureOfHeadAttention
from mha.torch_mha import MultiHeadAttention

IGNORE = -100
"""Target value of answers that are not scored (the local answer at position 0)."""

TASKS = ("local", "global")
"""The two answers per position, in the order of the targets' last axis."""


def make_batch(
    batch_size: int, seq_len: int, vocab_size: int, generator: torch.Generator
) -> tuple[Tensor, Tensor]:
    """Random sequences and their two targets (previous token, reversed sequence).

    Returns
    -------
    tokens : Tensor
        Uniform random tokens in ``[0, vocab_size)``, int64.
    targets : Tensor
        ``targets[..., i, 0] = tokens[..., i-1]`` (:data:`IGNORE` at i = 0) and
        ``targets[..., i, 1] = tokens[..., n-1-i]``.

    Shapes
    ------
    tokens : (batch_size, seq_len);  targets : (batch_size, seq_len, 2)
    """
    batch_size = _validate.positive_int("batch_size", batch_size)
    seq_len = _validate.positive_int("seq_len", seq_len)
    vocab_size = _validate.positive_int("vocab_size", vocab_size)
    tokens = torch.randint(vocab_size, (batch_size, seq_len), generator=generator)
    previous = torch.cat([torch.full_like(tokens[:, :1], IGNORE), tokens[:, :-1]], dim=1)
    return tokens, torch.stack([previous, tokens.flip(1)], dim=-1)


class ToyModel(nn.Module):
    """Embeddings, one attention layer with a residual, a linear readout of both answers.

    ``logits = readout(e + Attention(e))`` with ``e = token_embedding(x) + position_embedding``.

    Parameters
    ----------
    attention : MultiHeadAttention
        The layer under study (a :class:`mha.moh.MixtureOfHeadAttention` works too); its
        ``d_model`` sets the model size.
    vocab_size, seq_len : int
        The task's vocabulary and sequence length.
    """

    def __init__(self, attention: MultiHeadAttention, vocab_size: int, seq_len: int) -> None:
        super().__init__()
        if not isinstance(attention, MultiHeadAttention):
            raise TypeError(
                f"attention must be an mha.torch_mha.MultiHeadAttention, got {type(attention).__name__}"
            )
        self.vocab_size = _validate.positive_int("vocab_size", vocab_size)
        self.seq_len = _validate.positive_int("seq_len", seq_len)
        d_model = attention.d_model
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Parameter(torch.randn(seq_len, d_model))
        self.attention = attention
        self.readout = nn.Linear(d_model, len(TASKS) * vocab_size)

    def embed(self, tokens: Tensor) -> Tensor:
        """Token plus position embeddings: the attention layer's input.

        Shapes
        ------
        tokens : (B, n) int with n <= seq_len  ->  (B, n, d_model)
        """
        if not isinstance(tokens, Tensor):
            raise TypeError(f"tokens must be a torch.Tensor, got {type(tokens).__name__}")
        if tokens.dtype != torch.int64 or tokens.dim() != 2 or tokens.shape[1] > self.seq_len:
            raise ValueError(
                f"tokens must be an int64 tensor (B, n) with n <= seq_len={self.seq_len}, "
                f"got dtype {tokens.dtype} and shape {tuple(tokens.shape)}"
            )
        low, high = (int(tokens.min()), int(tokens.max())) if tokens.numel() else (0, 0)
        if low < 0 or high >= self.vocab_size:
            raise ValueError(
                f"tokens must lie in [0, vocab_size={self.vocab_size}), got values from "
                f"{low} to {high}"
            )
        return self.token_embedding(tokens) + self.position_embedding[: tokens.shape[1]]

    def forward(self, tokens: Tensor, head_gate: Tensor | None = None) -> tuple[Tensor, Tensor]:
        """Logits of both answers at every position, and the attention weights.

        Shapes
        ------
        tokens : (B, n);  head_gate : broadcastable to (B, h)
        logits : (B, n, 2, vocab_size);  weights : (B, h, n, n)
        """
        x = self.embed(tokens)  # (B, n, d_model)
        attended, weights = self.attention(x, head_gate=head_gate)
        logits = self.readout(x + attended)  # (B, n, 2 * vocab_size)
        return logits.unflatten(-1, (len(TASKS), self.vocab_size)), weights


def per_example_loss(logits: Tensor, targets: Tensor) -> Tensor:
    """Cross-entropy of each sequence, averaged over its scored answers.

    Shapes
    ------
    logits : (B, n, 2, V);  targets : (B, n, 2)  ->  (B,)
    """
    losses = F.cross_entropy(
        logits.flatten(0, -2), targets.flatten(), ignore_index=IGNORE, reduction="none"
    ).view(targets.shape)  # (B, n, 2)
    scored = targets != IGNORE
    return (losses * scored).sum((1, 2)) / scored.sum((1, 2))


def accuracy(logits: Tensor, targets: Tensor) -> Tensor:
    """Fraction of correct answers for each task (local, global), over all scored positions.

    Shapes
    ------
    logits : (B, n, 2, V);  targets : (B, n, 2)  ->  (2,)
    """
    scored = targets != IGNORE
    correct = (logits.argmax(-1) == targets) & scored
    return correct.sum((0, 1)) / scored.sum((0, 1))


def train(
    model: ToyModel,
    *,
    steps: int,
    batch_size: int = 64,
    lr: float = 1e-2,
    seed: int = 0,
    diversity_weight: float = 0.0,
) -> list[float]:
    """Train with Adam on fresh random batches; returns the task loss of every step.

    With ``diversity_weight > 0`` the loss gets the penalty
    ``diversity_weight * redundancy(head_similarity(weights))``: the mean cosine similarity
    between the heads' attention maps, which pushes heads to look at different places.

    Shapes
    ------
    returns : list of ``steps`` floats
    """
    steps = _validate.positive_int("steps", steps)
    diversity_weight = _finite_number("diversity_weight", diversity_weight, ">= 0")
    if diversity_weight < 0:
        raise ValueError(f"diversity_weight must be >= 0, got {diversity_weight}")
    lr = _finite_number("lr", lr, "> 0")
    if lr <= 0:
        raise ValueError(f"lr must be > 0, got {lr}")
    device = model.readout.weight.device
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    history = []
    model.train()
    for _ in range(steps):
        tokens, targets = make_batch(batch_size, model.seq_len, model.vocab_size, generator)
        logits, weights = model(tokens.to(device))
        loss = per_example_loss(logits, targets.to(device)).mean()
        history.append(loss.item())
        if diversity_weight:
            loss = loss + diversity_weight * analysis.redundancy(analysis.head_similarity(weights))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    return history


def _finite_number(name: str, value: object, expected: str) -> float:
    """``value`` as a finite float; ``TypeError``/``ValueError`` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number {expected}, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number {expected}, got {value}")
    return float(value)


def build_model(
    seed: int,
    *,
    num_heads: int,
    d_model: int,
    vocab_size: int,
    seq_len: int,
    top_k: int | None = None,
    device: torch.device | str | None = None,
) -> ToyModel:
    """An untrained ToyModel whose weights are drawn after ``torch.manual_seed(seed)``.

    Plain multi-head attention when ``top_k`` is None, else Mixture-of-Head attention
    (:class:`mha.moh.MixtureOfHeadAttention`) that keeps ``top_k`` heads per token.
    """
    torch.manual_seed(seed)
    if top_k is None:
        attention = MultiHeadAttention(d_model, num_heads)
    else:
        attention = MixtureOfHeadAttention(d_model, num_heads, top_k=top_k)
    return ToyModel(attention, vocab_size, seq_len).to(device)


def build_seeds(
    seeds: Sequence[int],
    *,
    num_heads: int,
    d_model: int,
    vocab_size: int,
    seq_len: int,
    top_k: int | None = None,
    device: torch.device | str | None = None,
) -> list[ToyModel]:
    """The models :func:`train_seeds` trains, as they are before training: one per seed.

    Shapes
    ------
    seeds : S ints  ->  S untrained models, in the order of the seeds
    """
    seeds = [int(seed) for seed in seeds]
    if not seeds:
        raise ValueError("seeds must hold at least one seed, got none")
    architecture = {"num_heads": num_heads, "d_model": d_model, "vocab_size": vocab_size,
                    "seq_len": seq_len, "top_k": top_k, "device": device}  # fmt: skip
    return [build_model(seed, **architecture) for seed in seeds]


def _train_one(seed: int, architecture: dict, training: dict) -> dict[str, Tensor]:
    """Build and train the model of one seed; its state_dict (run in a worker process)."""
    model = build_model(seed, **architecture)
    train(model, seed=seed, **training)
    return model.state_dict()


@functools.cache
def _process_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes, started once and kept (starting one imports torch, about a second).

    "spawn" starts clean interpreters: forking a process whose threads are running (BLAS,
    OpenMP, a Jupyter kernel) can leave the child waiting forever on a lock.
    """
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
    )


def _start_worker() -> None:
    """One thread per worker; Ctrl-C (or a Jupyter interrupt) is for the parent, not them."""
    torch.set_num_threads(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def train_seeds(
    seeds: Sequence[int],
    *,
    num_heads: int,
    d_model: int,
    vocab_size: int,
    seq_len: int,
    top_k: int | None = None,
    steps: int,
    batch_size: int = 64,
    lr: float = 1e-2,
    diversity_weight: float = 0.0,
    device: torch.device | str = "cpu",
    workers: int | None = None,
) -> list[ToyModel]:
    """One trained model per seed: ``train(build_model(seed, ...), seed=seed, ...)`` for each.

    The model of a seed is the same whichever process trains it: its weights and its batches
    come from its seed. On the CPU the seeds are spread over ``workers`` processes (default:
    one per core, at most one per seed); ``workers=1``, or a GPU, trains them here, one after
    another.

    Shapes
    ------
    seeds : S ints  ->  S models, in the order of the seeds
    """
    seeds = [int(seed) for seed in seeds]
    architecture = {
        "num_heads": num_heads,
        "d_model": d_model,
        "vocab_size": vocab_size,
        "seq_len": seq_len,
        "top_k": top_k,
    }
    training = {
        "steps": steps,
        "batch_size": batch_size,
        "lr": lr,
        "diversity_weight": diversity_weight,
    }
    models = build_seeds(seeds, **architecture, device=device)
    if workers is None:
        workers = min(len(seeds), os.cpu_count() or 1)
    workers = _validate.positive_int("workers", workers)
    if workers == 1 or torch.device(device).type != "cpu":
        for seed, model in zip(seeds, models, strict=True):
            train(model, seed=seed, **training)
        return models
    pool = _process_pool(workers)
    jobs = [pool.submit(_train_one, seed, architecture, training) for seed in seeds]
    for model, job in zip(models, jobs, strict=True):
        model.load_state_dict(job.result())
        model.eval()
    return models


# --- measuring trained models -----------------------------------------------------------------


def held_out(
    count: int, seq_len: int, vocab_size: int, seed: int, device: torch.device | str | None = None
) -> tuple[Tensor, Tensor]:
    """``count`` fresh sequences and their targets from a generator of their own ``seed``.

    Shapes
    ------
    returns : tokens (count, seq_len), targets (count, seq_len, 2), on ``device``
    """
    tokens, targets = make_batch(count, seq_len, vocab_size, torch.Generator().manual_seed(seed))
    return tokens.to(device), targets.to(device)


def evaluate(
    model: ToyModel, tokens: Tensor, targets: Tensor, head_gate: Tensor | None = None
) -> np.ndarray:
    """Accuracy of the (local, global) answers on ``tokens``, heads gated by ``head_gate``.

    Shapes
    ------
    tokens : (B, n);  targets : (B, n, 2);  head_gate : broadcastable to (B, h)  ->  (2,)
    """
    with torch.no_grad():
        logits, _ = model(tokens, head_gate=head_gate)
    return accuracy(logits, targets).cpu().numpy()


class HeadStatistics(NamedTuple):
    """Where each head of a model looks, averaged over sequences and queries; each (h,)."""

    distance: np.ndarray
    """:func:`mha.analysis.mean_attention_distance`, in positions"""
    entropy: np.ndarray
    """:func:`mha.analysis.attention_entropy`, in nats"""
    on_previous: np.ndarray
    """the weight on the previous token, ``w[i, i-1]`` (the local answer's key)"""
    on_mirror: np.ndarray
    """the weight on the mirrored token, ``w[i, n-1-i]`` (the global answer's key)"""


def head_statistics(model: ToyModel, tokens: Tensor) -> HeadStatistics:
    """Distance, entropy, and the weight on each answer's key, of every head of ``model``.

    Shapes
    ------
    tokens : (B, n)  ->  four arrays of shape (h,)
    """
    with torch.no_grad():
        _, w = model(tokens)  # (B, h, n, n)
    n = w.shape[-1]
    positions = torch.arange(n, device=w.device)
    return HeadStatistics(
        analysis.mean_attention_distance(w).cpu().numpy(),
        analysis.attention_entropy(w).cpu().numpy(),
        w[:, :, positions[1:], positions[1:] - 1].mean((0, 2)).cpu().numpy(),
        w[:, :, positions, n - 1 - positions].mean((0, 2)).cpu().numpy(),
    )


def head_kind(on_previous: float, on_mirror: float, threshold: float = 0.7) -> str:
    """``"local"`` for a head with more than ``threshold`` of its weight on the previous
    token, ``"global"`` for one with that much on the mirrored token, else ``"mixed"``."""
    if on_previous > threshold:
        return "local"
    return "global" if on_mirror > threshold else "mixed"


def head_similarities(model: ToyModel, tokens: Tensor) -> tuple[Tensor, Tensor]:
    """:func:`mha.analysis.head_similarity` of the heads' attention maps and of their
    contributions to the output (with a Mixture-of-Head layer's routing), on the CPU.

    Shapes
    ------
    tokens : (B, n)  ->  maps (h, h), outputs (h, h)
    """
    with torch.no_grad():
        embedded = model.embed(tokens)
        _, maps = model.attention(embedded)
        routed = isinstance(model.attention, MixtureOfHeadAttention)
        gates = model.attention.route(embedded) if routed else None
        parts = analysis.head_contributions(model.attention, embedded, token_gates=gates)
    return analysis.head_similarity(maps).cpu(), analysis.head_similarity(parts).cpu()


def redundancies(models: Sequence[ToyModel], tokens: Tensor) -> np.ndarray:
    """The :func:`mha.analysis.redundancy` of each model's maps and of its outputs.

    Shapes
    ------
    models : M models  ->  (M, 2): (maps, outputs) per model
    """
    return np.array(
        [[analysis.redundancy(s).item() for s in head_similarities(m, tokens)] for m in models]
    )


def head_importances(
    model: ToyModel, tokens: Tensor, targets: Tensor
) -> tuple[np.ndarray, np.ndarray]:
    """Each head's importance on ``tokens``: by ablation (the mean accuracy lost when it alone
    is removed, :func:`mha.analysis.ablation_importance`) and by the gradient of its gate
    (:func:`mha.analysis.gradient_importance` of the per-sequence loss).

    Shapes
    ------
    tokens : (B, n);  targets : (B, n, 2)  ->  ablation (h,), gradient (h,)
    """
    all_heads = torch.ones(model.attention.num_heads, device=tokens.device)

    def mean_accuracy(head_gate: Tensor) -> float:
        return float(evaluate(model, tokens, targets, head_gate).mean())

    def loss_per_sequence(head_gate: Tensor) -> Tensor:  # head_gate: (B, h)
        logits, _ = model(tokens, head_gate=head_gate)
        return per_example_loss(logits, targets)

    ablation = analysis.ablation_importance(mean_accuracy, all_heads)
    gradient = analysis.gradient_importance(loss_per_sequence, all_heads, len(tokens))
    return ablation.numpy(), gradient.cpu().numpy()


def pruning_curve(
    model: ToyModel, tokens: Tensor, targets: Tensor, order: Sequence[int]
) -> np.ndarray:
    """Mean accuracy on ``tokens`` as heads are removed in ``order``
    (:func:`mha.analysis.pruning_curve`): entry m with the first m heads of ``order`` gone.

    Shapes
    ------
    order : (m,) distinct heads  ->  (m + 1,)
    """
    all_heads = torch.ones(model.attention.num_heads, device=tokens.device)

    def mean_accuracy(head_gate: Tensor) -> float:
        return float(evaluate(model, tokens, targets, head_gate).mean())

    return analysis.pruning_curve(mean_accuracy, all_heads, order).numpy()
