"""Chapter 9's exercises: the diversity penalty, Mixture-of-Head's top-k gates, how similar
untrained heads are (a prediction), the redundancy of random maps (an experiment)."""

from __future__ import annotations

import functools

import numpy as np

from mha.checks.core import Case
from mha.checks.experiments import ExperimentExercise, Reading
from mha.checks.forms import Number
from mha.checks.inputs import F32, F64, normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake
from mha.checks.predictions import Misconception, PredictionExercise, measured_in_a_fresh_process

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


def _per_slice_penalty(weights, *, rows: bool):
    """The penalty of each example's maps (``rows``: of each query row) on its own, averaged."""
    h = weights.shape[-3]
    maps = np.moveaxis(weights, -3, -2) if rows else weights  # (..., n, h, n) or (..., h, n, n)
    vectors = maps.reshape(-1, h, maps.shape[-1] if rows else maps.shape[-2] * maps.shape[-1])
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    return _off_diagonal_mean((unit @ np.swapaxes(unit, -1, -2)).mean(axis=0))


_PENALTY_MISTAKES = (
    Mistake(
        "per_query_row",
        "the similarity of each query's rows, averaged, instead of one cosine of each head's "
        "whole map",
        "flatten each head's maps into one vector (np.moveaxis(weights, -3, 0).reshape(h, -1)) "
        "and take the cosine of those vectors",
        lambda w: _per_slice_penalty(w, rows=True),
    ),
    Mistake(
        "per_example",
        "one similarity per example, averaged, instead of one cosine of each head's maps over "
        "the whole batch",
        "flatten each head's maps of every example into one vector "
        "(np.moveaxis(weights, -3, 0).reshape(h, -1)) and take the cosine of those",
        lambda w: _per_slice_penalty(w, rows=False),
    ),
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


def _gates_variant(
    *, renormalise=False, factor=True, largest=True, hard=False, axis=-1, top_k_axis=-1
):
    """Top-k gates with one thing changed; the defaults give the right answer."""

    def moh_gates(scores, top_k):
        h = scores.shape[-1]
        e = np.exp(scores - scores.max(axis=axis, keepdims=True))
        probs = e / e.sum(axis=axis, keepdims=True)  # (..., n, h)
        order = np.argsort(-scores if largest else scores, axis=top_k_axis)
        keep = np.zeros(scores.shape, dtype=bool)
        chosen = np.take(order, np.arange(min(top_k, scores.shape[top_k_axis])), axis=top_k_axis)
        np.put_along_axis(keep, chosen, True, axis=top_k_axis)
        if hard:
            return keep.astype(scores.dtype)
        if renormalise:
            chosen = np.where(keep, probs, 0)
            probs = chosen / chosen.sum(axis=-1, keepdims=True)
        return (h if factor else 1) * probs * keep

    return moh_gates


def _above_the_next_score(scores, top_k):
    """Gates for every head at or above the (k+1)-th largest score (raising, as indexing
    does, when top_k = h leaves no such score)."""
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    threshold = np.sort(scores, axis=-1)[..., -top_k - 1, None]
    return np.where(scores >= threshold, h * e / e.sum(axis=-1, keepdims=True), 0.0)


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
        "keeps_k_plus_1",
        "one head more than top_k kept (compared with the (k+1)-th largest score?)",
        "the k-th largest score is the last one kept: np.sort(scores)[..., -top_k] is the "
        "threshold, or take the last top_k indices of np.argsort",
        _above_the_next_score,
        relations=("input:top_k+1",),
    ),
    Mistake(
        "top_k_over_tokens",
        "the top k chosen along the tokens axis (-2) instead of among the heads",
        "each token picks its own k heads: rank the scores along the last (heads) axis",
        _gates_variant(top_k_axis=-2),
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


# --- ch09: how similar untrained heads are (a prediction) -------------------------------

TOY = {"num_heads": 8, "d_model": 32, "vocab_size": 10, "seq_len": 12}  # the chapter's model
TOY_SEEDS = (0, 1, 2, 3, 4)


_UNTRAINED_SCRIPT = f"""
from mha import toy
tokens, _ = toy.held_out(1000, {TOY["seq_len"]}, {TOY["vocab_size"]}, seed=1)
models = toy.build_seeds({list(TOY_SEEDS)}, **{TOY!r})
print(toy.redundancies(models, tokens)[:, 0].mean())
"""


@functools.cache
def untrained_redundancy() -> float:
    """What the chapter's baselines cell measures before training: the redundancy of the maps
    of the five untrained models (the seeds' initial weights) on its 1000 held-out sequences
    (seed 1), the mean over the models. Computed in a fresh Python process: torch's freed
    memory, left mapped in this one, would hide the allocations that a check measuring
    memory (chapter 13's) counts in a process forked from it."""
    return measured_in_a_fresh_process(_UNTRAINED_SCRIPT, "the untrained models", timeout=300)


def _why_untrained(redundancy: float) -> str:
    return (
        "Untrained heads are random, but not flat: the embeddings have entries of size 1 in "
        f"d_model = {TOY['d_model']} dimensions, so a row's random scores spread by more than "
        "a unit and each head's map is already fairly sharp (its largest weight is about 0.4, "
        f"where a uniform row has 1/{TOY['seq_len']}), each on random keys of its own. Two "
        "such maps have a small cosine, above 0 because weights are never negative and some "
        "favourite keys coincide. That is the baseline a trained model's redundancy is read "
        "against: training raises it (several heads learn the same two patterns), the "
        "penalty pushes it below the baseline."
    )


# --- ch09: the redundancy of random maps (an experiment) -------------------------------

RANDOM_MAPS = (100, 8, 12, 12)  # (sequences, h, n, n) of the experiment's random scores


@functools.cache
def random_maps(score_std: float):
    """The experiment's maps, computed as its cell computes them: the softmax (torch, float64)
    of standard-normal scores (seed 0) times ``score_std``, (sequences, h, n, n)."""
    import torch  # as in the cell (the website's Python has no torch: no "Run here")

    scores = score_std * np.random.default_rng(0).standard_normal(RANDOM_MAPS)
    return torch.softmax(torch.from_numpy(scores), dim=-1)


def random_maps_redundancy(score_std: float) -> float:
    """The redundancy (the diversity penalty) of the experiment's random maps."""
    from mha import analysis

    return float(analysis.redundancy(analysis.head_similarity(random_maps(score_std))))


def _random_maps_entropy(score_std: float) -> float:
    maps = random_maps(score_std)
    return float(-(maps * maps.clamp_min(1e-300).log()).sum(-1).mean())


def _random_maps_largest(score_std: float) -> float:
    return float(random_maps(score_std).max(dim=-1).values.mean())


def _why_random_maps(score_std: float, redundancy: float) -> str:
    n = RANDOM_MAPS[-1]
    if score_std < 1:
        shape = (
            "Scores this close together give nearly uniform maps, and two nearly uniform maps "
            "point the same way whatever the keys: redundancy near 1 with nothing learnt."
        )
    else:
        shape = (
            "Scores this spread give sharp maps, each row on a random key of its own, and two "
            f"such maps overlap on about 1 row in {n}: redundancy falls towards 1/{n} with "
            "nothing learnt."
        )
    return (
        f"{shape} The measure reads sharpness as well as shared work, so a lower redundancy "
        "from a penalty that also sharpens the heads is partly sharpness: compare with random "
        "maps as sharp (or untrained models), not with 0."
    )


_RANDOM_MAPS_READINGS = (
    Reading(
        "chapter_setting",
        "the redundancy at the chapter's SCORE_STD = 1, not at yours",
        "run the experiment cell again after changing SCORE_STD, then read its printout",
        lambda std: random_maps_redundancy(1.0),
    ),
    Reading(
        "entropy_read",
        "the maps' mean entropy (the first number printed), not their redundancy",
        "the question asks for the redundancy, the last number of the printout",
        _random_maps_entropy,
    ),
    Reading(
        "largest_weight_read",
        "the mean largest weight of a row, not the redundancy",
        "the question asks for the redundancy, the last number of the printout",
        _random_maps_largest,
    ),
)


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
    "predict_untrained_redundancy": PredictionExercise(
        "the redundancy of the untrained models' attention maps (the mean over the 5 seeds)",
        Number(0, 1, within=0.1),
        untrained_redundancy,
        _why_untrained,
        (
            Misconception("unrelated", 0.0, "0 would need maps that never put weight on the same key; weights are never negative, so two maps that share any favourite key have a positive cosine."),
            Misconception("uniform", 1.0, "1 is what identical maps give, and nearly uniform maps come close to it; but untrained scores are not small here, so the maps are not uniform."),
            Misconception("as_trained", 0.5, "About 0.5 is what the trained baselines reach, after several heads have learnt the same two patterns; before training nothing is shared."),
        ),
    ),
    "random_maps_experiment": ExperimentExercise(
        "SCORE_STD", 1.0, Number(0, 20, within=1e-9),
        "the redundancy of the random heads' maps", Number(0, 3, within=0.01),
        random_maps_redundancy, _why_random_maps, _RANDOM_MAPS_READINGS,
    ),
}  # fmt: skip
