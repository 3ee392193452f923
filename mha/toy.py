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
outputs; :func:`js_redundancies` by chapter 11's measure), :func:`head_importances` and
:func:`pruning_curve` (how much each head matters); and :func:`learning_curves`, the accuracy
of the models :func:`train_seeds` trains, measured along the way (:func:`learning_curve_sweep`
for several settings at once, which keeps every core busy to the end). They return NumPy arrays,
the numbers the prose quotes.
"""

from __future__ import annotations

import functools
import itertools
import math
import multiprocessing
import numbers
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from mha import _validate, analysis, atlas
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
    after_step: Callable[[int], None] | None = None,
) -> list[float]:
    """Train with Adam on fresh random batches; returns the task loss of every step.

    With ``diversity_weight > 0`` the loss gets the penalty
    ``diversity_weight * redundancy(head_similarity(weights))``: the mean cosine similarity
    between the heads' attention maps, which pushes heads to look at different places.
    ``after_step(t)``, where given, is called after step ``t`` (1 to ``steps``), the model in
    eval mode (how :func:`learning_curves` measures accuracy along the way).

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
        if after_step is not None:
            model.eval()
            after_step(len(history))
            model.train()
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


def _train_measured(
    model: ToyModel, seed: int, training: dict, curve: tuple | None
) -> np.ndarray | None:
    """Train ``model``; with ``curve = (tokens, targets, checkpoints)``, its accuracy on
    ``tokens`` after each number of steps in ``checkpoints`` (0: before training), (C, 2)."""
    if curve is None:
        train(model, seed=seed, **training)
        return None
    tokens, targets, checkpoints = curve
    accuracies = [evaluate(model, tokens, targets)] if checkpoints[0] == 0 else []

    def after_step(step: int) -> None:
        if step in checkpoints:
            accuracies.append(evaluate(model, tokens, targets))

    train(model, seed=seed, after_step=after_step, **training)
    return np.stack(accuracies)


def _train_one(
    seed: int, architecture: dict, training: dict, curve: tuple | None
) -> tuple[dict[str, Tensor], np.ndarray | None]:
    """Build and train the model of one seed: its state_dict and its accuracy along the way
    (:func:`_train_measured`; run in a worker process)."""
    model = build_model(seed, **architecture)
    return model.state_dict(), _train_measured(model, seed, training, curve)


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
    return _train_runs([(architecture, training, None)], seeds, device, workers)[0][0]


def _train_runs(
    runs: list[tuple[dict, dict, tuple | None]],
    seeds: list[int],
    device: torch.device | str,
    workers: int | None,
) -> list[tuple[list[ToyModel], list[np.ndarray | None]]]:
    """Per ``(architecture, training, curve)`` run, its seeds' models, built and trained, and
    with ``curve`` their accuracy along the way (:func:`_train_measured`). On the CPU every
    run's seeds go to one pool of ``workers`` processes (default: one per core), the longest
    trainings first, so that no core waits for the last seed of one run while another's are
    queued."""
    built = [build_seeds(seeds, **architecture, device=device) for architecture, _, _ in runs]
    if workers is None:
        workers = min(len(seeds) * len(runs), os.cpu_count() or 1)
    workers = _validate.positive_int("workers", workers)
    if workers == 1 or torch.device(device).type != "cpu":
        return [
            (models, [_train_measured(m, seed, training, curve)
                      for seed, m in zip(seeds, models, strict=True)])
            for models, (_, training, curve) in zip(built, runs, strict=True)
        ]  # fmt: skip
    pool = _process_pool(workers)
    order = sorted(
        itertools.product(range(len(runs)), range(len(seeds))),
        key=lambda job: -runs[job[0]][1]["steps"],
    )
    on_cpu = [  # the workers measure on the CPU
        (a, t, None if c is None else (c[0].cpu(), c[1].cpu(), c[2])) for a, t, c in runs
    ]
    jobs = {(r, s): pool.submit(_train_one, seeds[s], *on_cpu[r]) for r, s in order}
    results = []
    for r, models in enumerate(built):
        measured = []
        for s, model in enumerate(models):
            state, accuracies = jobs[r, s].result()
            model.load_state_dict(state)
            model.eval()
            measured.append(accuracies)
        results.append((models, measured))
    return results


def _checkpoints(checkpoints: Sequence[int]) -> tuple[int, ...]:
    """Validated step counts at which a learning curve is measured."""
    if any(isinstance(c, bool) or not isinstance(c, numbers.Integral) for c in checkpoints):
        raise TypeError(f"checkpoints must be step counts (integers), got {checkpoints!r}")
    checkpoints = tuple(int(c) for c in checkpoints)
    if not checkpoints or checkpoints[0] < 0 or checkpoints[-1] < 1:
        raise ValueError(
            f"checkpoints must be >= 0 and end at a step >= 1, got {list(checkpoints)}"
        )
    if any(b <= a for a, b in itertools.pairwise(checkpoints)):
        raise ValueError(f"checkpoints must increase, got {list(checkpoints)}")
    return checkpoints


def learning_curves(
    seeds: Sequence[int],
    tokens: Tensor,
    targets: Tensor,
    *,
    checkpoints: Sequence[int],
    num_heads: int,
    d_model: int,
    vocab_size: int,
    seq_len: int,
    top_k: int | None = None,
    batch_size: int = 64,
    lr: float = 1e-2,
    diversity_weight: float = 0.0,
    device: torch.device | str = "cpu",
    workers: int | None = None,
) -> tuple[list[ToyModel], np.ndarray]:
    """The models :func:`train_seeds` trains for ``max(checkpoints)`` steps, and the accuracy
    of each on ``tokens`` (:func:`evaluate`) after each number of steps in ``checkpoints``
    (increasing; 0 is before training). :func:`learning_curve_sweep` trains several settings
    at once.

    The models are those of ``train_seeds(seeds, ..., steps=max(checkpoints))``: measuring
    along the way changes neither their weights nor their batches.

    Shapes
    ------
    seeds : S ints;  tokens : (B, n);  targets : (B, n, 2);  checkpoints : C ints
    ->  S models, accuracies (S, C, 2) (local, global)
    """
    setting = {"num_heads": num_heads, "top_k": top_k, "checkpoints": checkpoints}
    shared = {"d_model": d_model, "vocab_size": vocab_size, "seq_len": seq_len,
              "batch_size": batch_size, "lr": lr, "diversity_weight": diversity_weight}  # fmt: skip
    return learning_curve_sweep(
        {"only": setting}, seeds, tokens, targets, device=device, workers=workers, **shared
    )["only"]


def learning_curve_sweep(
    settings: dict,
    seeds: Sequence[int],
    tokens: Tensor,
    targets: Tensor,
    *,
    d_model: int,
    vocab_size: int,
    seq_len: int,
    batch_size: int = 64,
    lr: float = 1e-2,
    diversity_weight: float = 0.0,
    device: torch.device | str = "cpu",
    workers: int | None = None,
) -> dict:
    """:func:`learning_curves` for several settings, trained together: ``settings`` maps a
    label to ``{"num_heads": h, "checkpoints": [...]}`` (and optionally ``"top_k"``); the
    result maps each label to what ``learning_curves(seeds, ..., **setting)`` returns, the
    same models and numbers. On the CPU every setting's seeds share one pool of worker
    processes, the longest trainings first, which keeps both cores busy to the end.

    Shapes
    ------
    settings : L labels;  seeds : S ints  ->  per label: S models, accuracies (S, C, 2)
    """
    seeds = [int(seed) for seed in seeds]
    if not isinstance(settings, dict) or not settings:
        raise TypeError(f"settings must be a non-empty dict of label -> setting, got {settings!r}")
    runs = []
    for label, setting in settings.items():
        unknown = set(setting) - {"num_heads", "top_k", "checkpoints"}
        if unknown or "num_heads" not in setting or "checkpoints" not in setting:
            raise ValueError(
                f"settings[{label!r}] must give num_heads and checkpoints (and optionally "
                f"top_k), got keys {sorted(setting)}"
            )
        checkpoints = _checkpoints(setting["checkpoints"])
        architecture = {"num_heads": setting["num_heads"], "d_model": d_model,
                        "vocab_size": vocab_size, "seq_len": seq_len,
                        "top_k": setting.get("top_k")}  # fmt: skip
        training = {"steps": checkpoints[-1], "batch_size": batch_size, "lr": lr,
                    "diversity_weight": diversity_weight}  # fmt: skip
        runs.append((architecture, training, (tokens, targets, checkpoints)))
    trained = _train_runs(runs, seeds, device, workers)
    return {
        label: (models, np.stack(measured))
        for label, (models, measured) in zip(settings, trained, strict=True)
    }


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


def js_redundancies(models: Sequence[ToyModel], tokens: Tensor) -> np.ndarray:
    """The redundancy of each model's attention maps by Jensen-Shannon divergence.

    The mean, over distinct pairs of heads, of ``1 - JS / ln 2`` (:func:`mha.atlas.js_divergence`,
    averaged over every query of ``tokens``): chapter 11's measure, by which two *different*
    broad maps are not alike (the cosine of :func:`redundancies` rates them close to 1).

    Shapes
    ------
    models : M models;  tokens : (B, n)  ->  (M,)
    """
    result = []
    for model in models:
        with torch.no_grad():
            _, weights = model(tokens)  # (B, h, n, n)
        similarity = 1 - atlas.js_divergence(weights.cpu().numpy()) / math.log(2)
        result.append(analysis.redundancy(torch.from_numpy(similarity)).item())
    return np.array(result)


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
