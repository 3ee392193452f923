"""Chapter 9's exercises: the diversity penalty, Mixture-of-Head's top-k gates."""

from __future__ import annotations

import numpy as np

from mha.checks.core import Case
from mha.checks.inputs import F32, F64, normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake

# --- ch09: the diversity penalty ----------------------------------------------------------


def _penalty_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    shapes = [((), 3, 4), ((2,), 4, 3), ((2, 2), 2, 5), ((3,), 5, 4), ((), 4, 5), ((2, 1, 2), 3, 3)]
    for batch, h, n in shapes:
        n = n + int(rng.integers(0, 2))
        scores = normal(rng, (*batch, h, n, n), F64, 2.0)
        weights = np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)
        cases.append(Case(f"weights of shape {weights.shape}", (weights,)))
    return cases


def _similarity(per_head, *, move_heads=True, normalise=True):
    h = per_head.shape[-3]
    vectors = (np.moveaxis(per_head, -3, 0) if move_heads else per_head).reshape(h, -1)
    if normalise:
        vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    return vectors @ vectors.T  # (h, h)


def _off_diagonal_mean(similarity):
    h = similarity.shape[0]
    return float(similarity[~np.eye(h, dtype=bool)].mean())


def _reference_diversity_penalty(weights):
    """The redundancy of the maps: the mean cosine similarity of distinct heads."""
    return _off_diagonal_mean(_similarity(weights))


_PENALTY_MISTAKES = (
    Mistake(
        "diagonal_included",
        "the mean over all h * h entries, the diagonal (each head with itself, 1) included",
        "average over the distinct pairs only: the h * (h - 1) entries off the diagonal",
        lambda w: float(_similarity(w).mean()),
    ),
    Mistake(
        "not_normalised",
        "dot products of the maps instead of cosine similarities",
        "divide each head's vector by its norm first, so that a similarity lies in [0, 1]",
        lambda w: _off_diagonal_mean(_similarity(w, normalise=False)),
    ),
    Mistake(
        "sum_not_mean",
        "the sum over the pairs instead of the mean",
        "take the mean of the off-diagonal entries, so that the penalty does not grow with h",
        lambda w: float(_similarity(w)[~np.eye(w.shape[-3], dtype=bool)].sum()),
    ),
    Mistake(
        "divided_by_h_squared",
        "the off-diagonal similarities summed and divided by h^2 (all entries) instead of "
        "h (h - 1) (the distinct pairs)",
        "there are h (h - 1) ordered pairs of distinct heads: divide by that, or take the mean "
        "of the off-diagonal entries",
        lambda w: float(_similarity(w)[~np.eye(w.shape[-3], dtype=bool)].sum() / w.shape[-3] ** 2),
    ),
    Mistake(
        "heads_axis_not_moved",
        "reshape to (h, -1) without first moving the heads axis to the front",
        "with batch axes in front, weights.reshape(h, -1) mixes heads and batch elements: "
        "np.moveaxis(weights, -3, 0) first",
        lambda w: _off_diagonal_mean(_similarity(w, move_heads=False)),
    ),
)


# --- ch09: Mixture-of-Head's gates --------------------------------------------------------


def _gates_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch, n, h, k in [
        ((), 3, 4, 2),
        ((2,), 4, 8, 2),
        ((2,), 3, 6, 1),
        ((2, 2), 2, 4, 4),
        ((3,), 5, 5, 3),
    ]:
        n = n + int(rng.integers(0, 2))
        scores = normal(rng, (*batch, n, h), F64, 1.5)
        cases.append(Case(f"scores of shape {scores.shape} (h={h}), top_k={k}", (scores, k)))
    cases.append(
        Case("scores of shape (2, 3, 4), float32, top_k=2", (normal(rng, (2, 3, 4), F32), 2))
    )
    large = normal(rng, (3, 5), F64, 3.0) + 1000.0  # exp overflows: subtract the maximum
    cases.append(Case("scores of shape (3, 5) near 1000 (h=5), top_k=2", (large, 2)))
    return cases  # fmt: skip


def _gates_variant(*, renormalise=False, factor=True, largest=True, hard=False, axis=-1):
    """Top-k gates with one thing changed; the defaults give the right answer."""

    def moh_gates(scores, top_k):
        h = scores.shape[-1]
        e = np.exp(scores - scores.max(axis=axis, keepdims=True))
        probs = e / e.sum(axis=axis, keepdims=True)  # (..., n, h)
        order = np.argsort(-scores if largest else scores, axis=-1)
        keep = np.zeros(scores.shape, dtype=bool)
        np.put_along_axis(keep, order[..., :top_k], True, axis=-1)
        if hard:
            return keep.astype(scores.dtype)
        if renormalise:
            chosen = np.where(keep, probs, 0)
            probs = chosen / chosen.sum(axis=-1, keepdims=True)
        return (h if factor else 1) * probs * keep

    return moh_gates


_GATES_MISTAKES = (
    Mistake(
        "renormalised",
        "the softmax renormalised over the chosen heads",
        "the router's softmax runs over all h heads and is not renormalised over the top k "
        "(so the router also learns from the heads it did not pick)",
        _gates_variant(renormalise=True),
    ),
    Mistake(
        "no_factor_h",
        "the softmax probabilities without the factor h",
        "multiply by h, so that with top_k = h and equal scores every gate is exactly 1",
        _gates_variant(factor=False),
    ),
    Mistake(
        "smallest_k",
        "the k lowest-scoring heads kept instead of the k highest",
        "np.argsort sorts in increasing order: take the last k indices, or sort -scores",
        _gates_variant(largest=False),
    ),
    Mistake(
        "keeps_k_minus_1",
        "one head fewer than top_k kept (a strict > against the k-th largest score?)",
        "the k-th largest score itself is kept: compare with >=, or take the last top_k "
        "indices of np.argsort",
        relations=("input:top_k-1",),
    ),
    Mistake(
        "hard_gates",
        "gates of 1 for the chosen heads instead of their weights",
        "each chosen head is weighted by h * softmax(scores), not by 1",
        _gates_variant(hard=True),
    ),
    Mistake(
        "softmax_over_tokens",
        "the softmax over the tokens axis instead of the heads",
        "each token distributes its weight over the h heads: softmax over the last axis",
        _gates_variant(axis=-2),
    ),
)

_reference_moh_gates = _gates_variant()


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "diversity_penalty": FunctionExercise(
        _reference_diversity_penalty, _penalty_cases, _PENALTY_MISTAKES,
        other_references=("mha.analysis.redundancy",
                    "mha.analysis.head_similarity"),
    ),
    "moh_gates": FunctionExercise(
        _reference_moh_gates, _gates_cases, _GATES_MISTAKES,
        quantities=lambda args: {"h": args[0].shape[-1], "top_k": args[1]},
        other_references=("mha.moh.MixtureOfHeadAttention.route",),
    ),
}  # fmt: skip
