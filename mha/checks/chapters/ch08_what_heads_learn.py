"""Chapter 8's exercises: how similar the heads are (and how similar two broad maps look: a
prediction and an experiment), attention with one head removed, the gate-gradient importance
of heads."""

from __future__ import annotations

import functools

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.experiments import ExperimentExercise, Reading
from mha.checks.forms import Number
from mha.checks.inputs import F32, F64, normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import equals_one_of

# --- ch08: head similarity --------------------------------------------------------------


def _head_similarity_cases(rng: np.random.Generator) -> list[Case]:
    pruned = normal(rng, (2, 4, 3, 5), F64)
    pruned[:, 2] = 0.0  # head 2 removed
    maps = rng.random((3, 4, 6, 6))
    return [
        Case("per_head of shape (3, 4, 5): 3 heads, no batch axes", (normal(rng, (3, 4, 5), F64),)),
        Case("per_head of shape (4, 2, 3): 4 heads, no batch axes", (normal(rng, (4, 2, 3), F64),)),
        Case("per_head of shape (2, 4, 3, 6): batch 2, 4 heads", (normal(rng, (2, 4, 3, 6), F64),)),
        Case("attention-like maps (3, 4, 6, 6) with rows summing to 1", (maps / maps.sum(-1, keepdims=True),)),
        Case("per_head (2, 4, 3, 5) whose head 2 is all zeros (pruned)", (pruned,)),
        Case("per_head of shape (2, 3, 2, 4, 5), float32", (normal(rng, (2, 3, 2, 4, 5), F32),)),
    ]  # fmt: skip


def _reference_head_similarity(per_head):
    """(..., h, n, f) -> (h, h) cosine similarities, in NumPy, so that the check runs where
    torch does not (the website's "Run here"); equal to mha.analysis.head_similarity
    (tests/test_run_here.py)."""
    return _head_similarity_variant()(per_head)


def _head_similarity_variant(
    *, move_heads: bool = True, normalise: bool = True, guard: bool = True
):
    """Head similarity with one thing changed; the defaults give the right answer."""

    def head_similarity(per_head):
        h = per_head.shape[-3]
        vectors = (np.moveaxis(per_head, -3, 0) if move_heads else per_head).reshape(h, -1)
        if normalise:
            norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                vectors = vectors / (np.maximum(norms, 1e-12) if guard else norms)
        return vectors @ vectors.T

    return head_similarity


def _per_example_average(per_head):
    h = per_head.shape[-3]
    x = per_head.reshape(-1, h, per_head.shape[-2] * per_head.shape[-1])  # (examples, h, n*f)
    unit = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)
    return (unit @ np.swapaxes(unit, -1, -2)).mean(axis=0)


def _with_unit_diagonal(similarity):
    similarity = similarity.copy()
    np.fill_diagonal(similarity, 1.0)
    return similarity


_HEAD_SIMILARITY_MISTAKES = (
    Mistake(
        "not_normalised",
        "dot products without dividing by the heads' norms",
        "cosine similarity divides each dot product by the two vectors' lengths, so that "
        "identical patterns score 1 whatever their scale",
        _head_similarity_variant(normalise=False),
    ),
    Mistake(
        "heads_axis_not_moved",
        "reshape to (h, -1) without first moving the heads axis to the front",
        "with batch axes in front, per_head.reshape(h, -1) mixes heads and batch elements: "
        "np.moveaxis(per_head, -3, 0) first",
        _head_similarity_variant(move_heads=False),
    ),
    Mistake(
        "pearson",
        "Pearson correlation (np.corrcoef), which subtracts each head's mean first",
        "cosine similarity divides the dot products by the norms without centring the vectors",
        lambda per_head: np.nan_to_num(
            np.corrcoef(np.moveaxis(per_head, -3, 0).reshape(per_head.shape[-3], -1))
        ),
    ),
    Mistake(
        "averaged_per_example",
        "a cosine matrix per example (batch entry), averaged, instead of one over each head's "
        "blocks flattened over all leading axes",
        "flatten every block of a head into one vector first (np.moveaxis(per_head, -3, 0)."
        "reshape(h, -1)), then take the cosine similarities once",
        _per_example_average,
    ),
    Mistake(
        "diagonal_forced",
        "the diagonal set to 1, which a pruned (all-zero) head should not get",
        "a head that is all zeros has similarity 0 with every head, itself included: leave the "
        "diagonal as the dot products give it",
        lambda per_head: _with_unit_diagonal(_reference_head_similarity(per_head)),
    ),
    Mistake(
        "zero_head_nan",
        "division by a zero norm for an all-zero (pruned) head, giving NaN",
        "a pruned head has norm 0: divide by np.maximum(norm, 1e-12) so its similarities are 0",
        _head_similarity_variant(guard=False),
    ),
)


def _attention_without_head_cases(rng: np.random.Generator) -> list[Case]:
    def case(text, batch, n, d_model, h, head, dtype, *, bias=False, d_k=None, d_v=None):
        params = mha.init_params(d_model, h, d_k=d_k, d_v=d_v, bias=bias, dtype=dtype,
                                 seed=int(rng.integers(1000)))  # fmt: skip
        if bias:  # non-zero biases
            params = params.map(lambda a: a if a.ndim == 2 else normal(rng, a.shape, dtype, 0.5))
        return Case(text, (normal(rng, (*batch, n, d_model), dtype), params, head))

    return [
        case("d_model=8, h=2, head=0, n=4", (), 4, 8, 2, 0, F64),
        case("batch (2,), d_model=12, h=3, head=2 (the last), float32", (2,), 5, 12, 3, 2, F32),
        case("batch (2,), d_model=8, h=4, head=1, with biases", (2,), 3, 8, 4, 1, F64, bias=True),
        case("d_model=8, h=2, head=1, d_k=3, d_v=2", (), 4, 8, 2, 1, F64, d_k=3, d_v=2),
        case("batch (2, 2), d_model=6, h=3, head=1, with biases", (2, 2), 3, 6, 3, 1, F64, bias=True),
    ]  # fmt: skip


def _attention_without_head_variant(change: str | None = None):
    """Self-attention with one head removed, in one of several ways; None is the right one."""

    def attention_without_head(x, params, head):
        arrays = {name: getattr(params, name) for name in mha.MHAParams.array_names()}
        arrays = {name: None if a is None else a.copy() for name, a in arrays.items()}
        d_k, d_v = params.d_k, params.d_v
        qk, v_cols = slice(head * d_k, (head + 1) * d_k), slice(head * d_v, (head + 1) * d_v)
        if change is None:
            arrays["w_o"][v_cols] = 0.0  # head i's rows of W^O
        elif change == "queries_zeroed":
            arrays["w_q"][:, qk] = 0.0
            if arrays["b_q"] is not None:
                arrays["b_q"][qk] = 0.0
        elif change == "w_q_columns_zeroed":
            arrays["w_q"][:, qk] = 0.0
        elif change == "columns_of_w_o":
            arrays["w_o"][:, v_cols] = 0.0
        elif change == "value_bias_left":
            arrays["w_v"][:, v_cols] = 0.0
        elif change == "d_k_rows":
            arrays["w_o"][qk] = 0.0
        pruned = mha.MHAParams(num_heads=params.num_heads, **arrays)
        return mha.multi_head_attention(x, x, x, pruned)[0]

    return attention_without_head


_reference_attention_without_head = _attention_without_head_variant()

_ATTENTION_WITHOUT_HEAD_MISTAKES = (
    Mistake(
        "queries_zeroed",
        "the head's query columns of W^Q zeroed: its scores are all 0, its attention uniform",
        "a head with zero queries still attends (evenly) and adds the mean of its values; "
        "remove its *output*: zero its rows of W^O",
        _attention_without_head_variant("queries_zeroed"),
        equals_one_of(
            {"W^Q only": _attention_without_head_variant("w_q_columns_zeroed")},
            "your result is the layer with the head's columns of W^Q zeroed",
        ),
    ),
    Mistake(
        "columns_of_w_o",
        "columns of W^O zeroed instead of rows",
        "W^O is (h*d_v, d_model): head i's output meets rows i*d_v:(i+1)*d_v; its columns are "
        "output features",
        _attention_without_head_variant("columns_of_w_o"),
    ),
    Mistake(
        "value_bias_left",
        "the head's value columns of W^V zeroed, but not its value bias b_v",
        "with a value bias, a head whose W^V columns are 0 still outputs b_v; zero its rows "
        "of W^O instead (or its b_v slice too)",
        _attention_without_head_variant("value_bias_left"),
    ),
    Mistake(
        "d_k_rows",
        "rows of W^O sliced with d_k instead of d_v",
        "W^O's rows come in blocks of d_v (the value size), which can differ from d_k",
        _attention_without_head_variant("d_k_rows"),
    ),
)


# --- ch08: gate-gradient importance ------------------------------------------------------


def _importance_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch, h, n, d_model, dtype in [
        (4, 2, 3, 4, F64),
        (6, 3, 4, 5, F64),
        (5, 4, 2, 6, F32),
        (8, 3, 5, 4, F64),
    ]:
        batch, n = batch + int(rng.integers(0, 3)), n + int(rng.integers(0, 2))
        contributions = normal(rng, (batch, h, n, d_model), dtype)
        grad_out = normal(rng, (batch, n, d_model), dtype)
        cases.append(Case(f"contributions {contributions.shape}, grad_out {grad_out.shape}, {np.dtype(dtype)}",
                          (contributions, grad_out)))  # fmt: skip
    return cases


def _gate_gradients(contributions, grad_out):
    """dL(x)/dg_a for every example x and head a: <grad_out, head a's contribution>."""
    return np.einsum("bnd,band->ba", grad_out, contributions)  # (B, h)


def _reference_gate_importance(contributions, grad_out):
    return np.abs(_gate_gradients(contributions, grad_out)).mean(axis=0)  # (h,)


_IMPORTANCE_MISTAKES = (
    Mistake(
        "abs_after_mean",
        "the absolute value of the mean gradient, so that examples cancel out",
        "take |dL(x)/dg_a| for each example first, then average over the examples",
        lambda c, g: np.abs(_gate_gradients(c, g).mean(axis=0)),
    ),
    Mistake(
        "no_abs",
        "the mean gradient without the absolute value",
        "importance is the mean of |dL(x)/dg_a|: a head whose removal raises or lowers the loss "
        "matters either way",
        lambda c, g: _gate_gradients(c, g).mean(axis=0),
    ),
    Mistake(
        "sum_over_examples",
        "the sum over examples instead of the mean",
        "average over the examples (axis 0), so that the batch size does not matter",
        lambda c, g: np.abs(_gate_gradients(c, g)).sum(axis=0),
    ),
    Mistake(
        "abs_per_entry",
        "absolute values taken entry by entry before the sum",
        "dL/dg_a is one number per example, the full sum over positions and features of "
        "grad_out * contribution; take its absolute value afterwards",
        lambda c, g: np.abs(g[:, None] * c).sum(axis=(-2, -1)).mean(axis=0),
    ),
    Mistake(
        "contribution_norm",
        "the size (norm) of each head's contribution, without the gradient",
        "importance is how much the loss changes with the gate: E|<grad_out, contribution>|, "
        "so the gradient matters",
        lambda c, g: np.linalg.norm(c.reshape(*c.shape[:2], -1), axis=-1).mean(axis=0),
    ),
    Mistake(
        "abs_per_position",
        "absolute values taken per position before summing over the positions",
        "the gate scales the head at every position at once: sum over positions and features, "
        "then take the absolute value",
        lambda c, g: np.abs(np.einsum("bnd,band->ban", g, c)).sum(axis=-1).mean(axis=0),
    ),
)


# --- ch08: the similarity of two opposite broad maps (a prediction, an experiment) -------

MAP_KEYS = 12  # the toy's sequence length
CHAPTER_TILT = 0.05  # the tilt of the chapter's "What goes wrong" maps


def _tilted(tilt: float) -> np.ndarray:
    """One row of a map whose weight falls along the keys: softmax(-tilt * j), j = 0..n-1."""
    weights = np.exp(-tilt * np.arange(MAP_KEYS))
    return weights / weights.sum()


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / np.sqrt((a @ a) * (b @ b)))


@functools.cache
def opposite_maps_similarity(tilt: float = CHAPTER_TILT) -> float:
    """The cosine similarity of two maps (every query's row alike) that prefer opposite ends
    of the keys, ``softmax(-tilt * j)`` and its mirror image: what
    ``mha.analysis.head_similarity`` gives them (their flattened maps are their rows repeated,
    so the cosine is the rows')."""
    left = _tilted(tilt)
    return _cosine(left, left[::-1])


def _uniform_similarity(tilt: float) -> float:
    """The entry beside it in the printed matrix: the uniform map against the left-tilted one."""
    return _cosine(np.full(MAP_KEYS, 1 / MAP_KEYS), _tilted(tilt))


def _why_broad(similarity: float) -> str:
    ratio = _tilted(CHAPTER_TILT)[0] / _tilted(CHAPTER_TILT)[-1]
    return (
        f"Attention weights are never negative, so no two maps have a negative cosine, and two "
        f"broad maps share most of their weight: with the first key weighted only {ratio:.2f} "
        f"times the last, the two maps are close to uniform and their cosine is {similarity:.2f}, "
        "although they prefer opposite ends. A high similarity of broad maps says little: "
        "compare maps of similar entropy, or the heads' outputs."
    )


def _why_tilt(tilt: float, similarity: float) -> str:
    ratio = _tilted(tilt)[0] / _tilted(tilt)[-1]
    if tilt < CHAPTER_TILT:
        return (
            f"A gentler tilt (the first key {ratio:.3g} times the last) makes both maps closer to "
            "uniform, and the cosine closer to 1."
        )
    return (
        f"With the first key weighted {ratio:.3g} times the last, each map puts its weight near "
        "its own end and the two overlap less: the cosine falls towards 0, which is as "
        "dissimilar as non-negative maps can be. Broad maps look alike; only peaked maps can "
        "look different."
    )


_BROAD_MISCONCEPTIONS = (
    Misconception(
        "opposite",
        -1.0,
        "A cosine of -1 needs entries of opposite signs, and two maps of weights have none.",
    ),
    Misconception(
        "orthogonal",
        0.0,
        "0 would need maps that never weight the same key; these two weight every key.",
    ),
    Misconception(
        "half",
        0.5,
        "With so gentle a tilt the two maps are nearly uniform, and nearly equal.",
    ),
)

_TILT_READINGS = (
    Reading(
        "chapter_tilt",
        f"the similarity at the chapter's tilt ({CHAPTER_TILT}), not at your TILT",
        "run the experiment cell after changing TILT, and read the similarity it prints",
        lambda tilt: opposite_maps_similarity(CHAPTER_TILT),
    ),
    Reading(
        "uniform_vs_tilted",
        "the similarity of the uniform map with one tilted map (row 0 of the matrix)",
        "the question asks for the two tilted maps, which prefer opposite ends: entry (1, 2)",
        _uniform_similarity,
    ),
    Reading(
        "diagonal",
        "a diagonal entry of the matrix (every map is identical to itself)",
        "the question asks for the two tilted maps, which prefer opposite ends: entry (1, 2)",
        lambda tilt: 1.0,
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "head_similarity": FunctionExercise(
        _reference_head_similarity, _head_similarity_cases, _HEAD_SIMILARITY_MISTAKES,
        other_references=("mha.analysis.head_similarity",),
    ),
    "predict_broad_maps_similarity": PredictionExercise(
        f"the cosine similarity of the two maps that prefer opposite ends (tilt {CHAPTER_TILT})",
        Number(-1, 1, within=0.1), opposite_maps_similarity, _why_broad, _BROAD_MISCONCEPTIONS,
    ),
    "attention_without_head": FunctionExercise(
        _reference_attention_without_head, _attention_without_head_cases, _ATTENTION_WITHOUT_HEAD_MISTAKES,
        ),
    "gate_importance": FunctionExercise(
        _reference_gate_importance, _importance_cases, _IMPORTANCE_MISTAKES,
        quantities=lambda args: dict(zip(("B", "h", "n", "d_model"), args[0].shape, strict=True)),
        other_references=("mha.analysis.gradient_importance",),
    ),
    "tilt_experiment": ExperimentExercise(
        "TILT", CHAPTER_TILT, Number(0, 5, within=1e-9),
        "the similarity of the two tilted maps", Number(0, 1, within=0.01, zero=1e-3),
        opposite_maps_similarity, _why_tilt, _TILT_READINGS,
    ),
}  # fmt: skip
