"""Chapter 1's exercises: softmax, scaled dot-product attention, the scores' standard deviation,
a saturated softmax, and the temperature of a softmax."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.experiments import ExperimentExercise, Reading
from mha.checks.forms import Number
from mha.checks.inputs import F32, F64, normal, random_mask, swap_last
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import (
    changes_under,
    equals_one_of,
    inverted_mask,
    leaks_through_mask,
    normalised_over_another_axis,
    not_probabilities,
    raised_on_masks,
    scaled_by,
    wrong_only_under,
    zeroed_after_softmax,
)
from mha.checks.variants import sdpa_variant, softmax_over, stable_softmax

# --- ch01: softmax ------------------------------------------------------------------------


def _softmax_cases(rng: np.random.Generator) -> list[Case]:
    a, b, c = (int(n) for n in rng.integers(3, 7, size=3))
    cases = [
        Case(f"x of shape {shape}, {np.dtype(dtype)}", (normal(rng, shape, dtype, 2.0),))
        for shape, dtype in [((a, a), F64), ((b + 3,), F64), ((a, c), F32), ((2, b, c), F64)]
    ]
    cases.append(Case(f"x of shape ({c}, {a}, {b}) with axis=0", (normal(rng, (c, a, b), F64), 0)))
    cases.append(Case(f"x of shape (2, {b}, {c}) with axis=1", (normal(rng, (2, b, c), F64), 1)))
    big = normal(rng, (3, a), F64, 20.0) + 1000.0
    cases.append(Case("large x (around 1000, where exp overflows)", (big,)))
    spread = normal(rng, (3, b), F64) + np.array([[800.0], [0.0], [-800.0]])
    cases.append(
        Case(
            "rows around 800, 0 and -800 (a shift by the whole array's maximum underflows)",
            (spread,),
        )
    )
    wide = normal(rng, (2, b), F64) + np.linspace(-358.0, 358.0, b)
    cases.append(
        Case("rows spanning -358 to 358 (a shift by the row's minimum overflows)", (wide,))
    )
    return cases  # fmt: skip


def _unstable_softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def _softmax_without_keepdims(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis)


def _max_without_keepdims(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis, keepdims=True)


def _softmax_global_shift(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e, axis=axis, keepdims=True)


def _denominator_unshifted(x, axis=-1):
    numerator = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return numerator / np.sum(np.exp(x), axis=axis, keepdims=True)


def _sums_to_one_over_everything(evidence) -> str | None:
    """A result whose entries add up to 1 over the whole array, on every multi-row input."""
    telling = False
    for _, got, _ in evidence.triples():
        if not np.isclose(got.sum(), 1.0, atol=1e-6):
            return None
        telling = telling or got.size > got.shape[-1]
    return (
        "all the entries of your result add up to 1, not each slice along the axis"
        if telling
        else None
    )


def _one_step_on_the_last_axis(step: str):
    """A softmax whose maximum (``step="max"``) or whose sum (``"sum"``) ignores ``axis``."""

    def softmax(x, axis=-1):
        e = np.exp(x - np.max(x, axis=-1 if step == "max" else axis, keepdims=True))
        return e / np.sum(e, axis=-1 if step == "sum" else axis, keepdims=True)

    return softmax


_SOFTMAX_MISTAKES = (
    Mistake(
        "unstable_softmax",
        "exp(x) / sum(exp(x)) without subtracting the maximum, which overflows",
        "subtract the maximum along the axis first: exp(x - max) / sum(exp(x - max)) is "
        "the same mathematically and never overflows",
        _unstable_softmax,
    ),
    Mistake(
        "wrong_axis",
        "a softmax over axis 0 instead of the axis argument",
        "pass axis=axis (with keepdims=True) to both np.max and np.sum",
        softmax_over(lambda x, axis: 0),
    ),
    Mistake(
        "ignores_axis",
        "a softmax that always uses the last axis and ignores the axis argument",
        "use the axis parameter in np.max and np.sum instead of -1",
        softmax_over(lambda x, axis: -1),
    ),
    Mistake(
        "max_ignores_axis",
        "the maximum taken along the last axis whatever the axis argument (the sum uses it)",
        "both steps run along the same axis: pass axis=axis to np.max too",
        _one_step_on_the_last_axis("max"),
    ),
    Mistake(
        "sum_ignores_axis",
        "the sum taken along the last axis whatever the axis argument (the maximum uses it)",
        "both steps run along the same axis: pass axis=axis to np.sum too",
        _one_step_on_the_last_axis("sum"),
    ),
    Mistake(
        "whole_array",
        "a softmax over the whole array instead of along one axis",
        "np.sum(e) without axis adds up every entry; pass axis=axis, keepdims=True",
        softmax_over(lambda x, axis: None),
        _sums_to_one_over_everything,
    ),
    Mistake(
        "missing_keepdims",
        "max and sum without keepdims=True, so they broadcast along the wrong axis",
        "np.max(x, axis=axis, keepdims=True) keeps the reduced axis (size 1) so it "
        "broadcasts back along the right axis",
        _softmax_without_keepdims,
        equals_one_of(
            {"max": _max_without_keepdims},
            "your result is the softmax with the maximum taken without keepdims",
        ),
    ),
    Mistake(
        "global_max_shift",
        "the whole array's maximum subtracted instead of each slice's, so slices far below it "
        "underflow to 0/0",
        "subtract the maximum along the axis: np.max(x, axis=axis, keepdims=True)",
        _softmax_global_shift,
    ),
    Mistake(
        "denominator_unshifted",
        "the numerator shifted by the maximum but the denominator summing the unshifted "
        "exponentials, so each slice is off by the factor exp(-max) (and overflows like exp(x))",
        "shift once and use the same shifted exponentials in both places: "
        "e = np.exp(x - max); e / e.sum(axis=axis, keepdims=True)",
        _denominator_unshifted,
    ),
)


# --- ch01: scaled dot-product attention ---------------------------------------------------


def _padding_style_mask(rng: np.random.Generator, batch: int, n_k: int) -> np.ndarray:
    """(batch, 1, n_k): key j of sequence b is real when j < length_b; every sequence has at
    least one real key and one pad."""
    lengths = rng.integers(1, n_k, size=batch)
    return (np.arange(n_k) < lengths[:, None])[:, None, :]


def _with_masked_values_changed(rng, case: Case, text: str) -> Case:
    """A probe: the same case with new values for the keys its mask hides from every query."""
    q, k, v, mask = case.args
    hidden = ~np.broadcast_to(mask, (*q.shape[:-1], k.shape[-2])).any(axis=-2)  # (..., n_k)
    v = v + np.where(hidden[..., None], normal(rng, v.shape, v.dtype, 10.0), 0).astype(v.dtype)
    return Case(text, (q, k, v, mask), probe_of=case.description, probe="masked_values")


def _sdpa_sizes(rng: np.random.Generator) -> tuple[int, int, int, int]:
    """n_q, n_k, d_k, d_v all different, so that every wrong scale gives another number."""
    n_q, n_k, d_k, d_v = (int(n) for n in rng.choice(np.arange(2, 10), size=4, replace=False))
    return n_q, n_k, d_k, d_v


def _sdpa_cases(rng: np.random.Generator) -> list[Case]:
    def qkv(batch, n_q, n_k, d_k, d_v, dtype):
        return (
            normal(rng, (*batch, n_q, d_k), dtype),
            normal(rng, (*batch, n_k, d_k), dtype),
            normal(rng, (*batch, n_k, d_v), dtype),
        )

    n_q, n_k, d_k, d_v = _sdpa_sizes(rng)
    m = int(rng.integers(2, 6))
    # Entries of q and k at least 20 with d_k = 4: every score exceeds 20 * 20 * 4 / 2 = 800.
    large = (
        20.0 + np.abs(normal(rng, (3, 4), F64, 10.0)),
        20.0 + np.abs(normal(rng, (n_k, 4), F64, 10.0)),
        normal(rng, (n_k, d_v), F64),
    )
    padded = Case(
        f"batch (3,), n_q={n_q}, n_k={n_k}, float32, with a (3, 1, {n_k}) padding mask",
        (*qkv((3,), n_q, n_k, d_k, d_v, F32), _padding_style_mask(rng, 3, n_k)),
    )
    blind = random_mask(rng, (n_q, n_k))
    blind[int(rng.integers(n_q))] = False  # a query that may attend no key
    fully_masked = Case(
        f"batch (2,), n_q={n_q}, n_k={n_k}, with a mask that leaves one query no key",
        (*qkv((2,), n_q, n_k, d_k, d_v, F64), blind),
    )
    return [
        Case(f"q ({n_q}, {d_k}), k ({n_k}, {d_k}), v ({n_k}, {d_v}), float64", qkv((), n_q, n_k, d_k, d_v, F64)),
        Case(f"batch (2,), n_q = n_k = {m}, d_k = {d_k}, float32", qkv((2,), m, m, d_k, d_k, F32)),
        Case(f"batch (2, 3), n_q={n_q}, n_k={n_k}, d_k={2 * d_k}, d_v={d_v}", qkv((2, 3), n_q, n_k, 2 * d_k, d_v, F64)),
        Case(
            f"batch (2,), n_q={n_q}, n_k={n_k}, with a ({n_q}, {n_k}) boolean mask",
            (*qkv((2,), n_q, n_k, d_k, d_v, F64), random_mask(rng, (n_q, n_k))),
        ),
        padded,
        _with_masked_values_changed(rng, padded, "the same padding-mask input with other values behind the mask"),
        fully_masked,
        Case("large q and k (every score above 800, where exp overflows)", large),
    ]  # fmt: skip


def _sdpa_quantities(args: tuple) -> dict[str, int]:
    q, k, v = args[:3]
    return {"d_k": q.shape[-1], "d_v": v.shape[-1], "n_q": q.shape[-2], "n_k": k.shape[-2]}


def _softmax_last_two(s: np.ndarray) -> np.ndarray:
    return softmax_over(lambda x, axis: (-2, -1))(s)


def _sdpa_scale(divisor: Callable[[int, int, int], float]):
    """The scale property: the answer's weights are softmax(q k^T / divisor(d_k, d_v, n_k))."""
    return scaled_by(
        lambda a: divisor(a[0].shape[-1], a[2].shape[-1], a[1].shape[-2]),
        lambda a: math.sqrt(a[0].shape[-1]),
        lambda a: a[0] @ swap_last(a[1]),
        mask_at=3,
    )


def _k_transposed_with_T(q, k, v, mask=None):
    scores = q @ k.T / math.sqrt(q.shape[-1])  # .T reverses the batch axes too
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = stable_softmax(scores)
    return weights @ v, weights


def _k_not_transposed(q, k, v, mask=None):
    scores = q @ k / math.sqrt(q.shape[-1])  # raises unless n_k == d_k
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = stable_softmax(scores)
    return weights @ v, weights


_SDPA_MISTAKES = (
    Mistake(
        "no_scaling",
        "softmax(Q K^T) V without dividing the scores by sqrt(d_k)",
        "divide the scores by math.sqrt(d_k), where d_k = q.shape[-1]",
        sdpa_variant(divisor=lambda d_k, d_v, n_k: 1.0),
        _sdpa_scale(lambda d_k, d_v, n_k: 1.0),
    ),
    Mistake(
        "scale_by_d_k",
        "scores divided by d_k instead of sqrt(d_k)",
        "the dot product of d_k unit-variance terms has standard deviation sqrt(d_k): "
        "divide by math.sqrt(d_k)",
        sdpa_variant(divisor=lambda d_k, d_v, n_k: d_k),
        _sdpa_scale(lambda d_k, d_v, n_k: d_k),
    ),
    Mistake(
        "scale_by_d_v",
        "scores divided by sqrt(d_v) (v's size) instead of sqrt(d_k)",
        "d_k is the size of queries and keys: q.shape[-1], not v.shape[-1]",
        sdpa_variant(divisor=lambda d_k, d_v, n_k: math.sqrt(d_v)),
        _sdpa_scale(lambda d_k, d_v, n_k: math.sqrt(d_v)),
    ),
    Mistake(
        "scale_by_n_k",
        "scores divided by sqrt(n_k), the number of keys, instead of sqrt(d_k)",
        "d_k is the last axis of q and k (the size of one query), not the number of keys",
        sdpa_variant(divisor=lambda d_k, d_v, n_k: math.sqrt(n_k)),
        _sdpa_scale(lambda d_k, d_v, n_k: math.sqrt(n_k)),
    ),
    Mistake(
        "k_not_transposed",
        "q @ k instead of q @ k^T, which fails (or, when n_k = d_k, computes something else)",
        "the scores compare queries with keys: q @ np.swapaxes(k, -1, -2)",
        _k_not_transposed,
    ),
    Mistake(
        "transpose_with_T",
        "k.T, which reverses every axis: right without batch axes, wrong (or a shape error) with them",
        "np.swapaxes(k, -1, -2) swaps only the last two axes; .T reverses the batch axes too",
        _k_transposed_with_T,
    ),
    Mistake(
        "softmax_wrong_axis",
        "the softmax taken over the queries axis (-2) instead of the keys axis (-1)",
        "each query's weights over the keys must sum to 1: softmax(scores, axis=-1); with "
        "batch axes in front, axis 0 is not the queries",
        sdpa_variant(normalise=lambda s: stable_softmax(s, axis=-2)),
        normalised_over_another_axis(mask_at=3),
    ),
    Mistake(
        "softmax_whole_matrix",
        "one softmax over the whole (n_q, n_k) score matrix instead of one per row",
        "normalise each row separately: softmax(scores, axis=-1)",
        sdpa_variant(normalise=_softmax_last_two),
    ),
    Mistake(
        "unstable_softmax",
        "a softmax without subtracting the maximum, which overflows on large scores",
        "subtract the row maximum before exp (or use your stable softmax)",
        sdpa_variant(normalise=_unstable_softmax),
    ),
    Mistake(
        "scores_returned",
        "the scores returned in place of the weights",
        "return the softmax of the scores (the weights, rows summing to 1), not the scores",
        sdpa_variant(returns_scores=True),
        not_probabilities(mask_at=3),
    ),
    Mistake(
        "mask_after_softmax",
        "the mask applied after the softmax (rows no longer sum to 1)",
        "mask the scores before the softmax: np.where(mask, scores, -np.inf)",
        sdpa_variant(mask_mode="after"),
        zeroed_after_softmax(mask_at=3),
    ),
    Mistake(
        "mask_ignored",
        "the mask argument ignored",
        "when mask is not None, set the scores where mask is False to -inf before the softmax",
        sdpa_variant(mask_mode="ignored"),
    ),
    Mistake(
        "mask_inverted",
        "the mask with inverted polarity (True taken as 'hide')",
        "in this book True means 'may attend': np.where(mask, scores, -np.inf)",
        sdpa_variant(mask_mode="inverted"),
        inverted_mask(mask_at=3),
    ),
    Mistake(
        "mask_multiplied",
        "the scores multiplied by the mask, which sets hidden scores to 0 (exp(0) = 1 still "
        "counts)",
        "hidden scores must be -inf so that exp gives 0: np.where(mask, scores, -np.inf)",
        sdpa_variant(mask_mode="multiplied"),
    ),
    Mistake(
        "mask_not_broadcast",
        "boolean indexing with the mask (scores[~mask] = ...), which needs the scores' exact shape",
        "a mask only broadcasts in arithmetic and np.where: np.where(mask, scores, -np.inf)",
        detect=raised_on_masks(3, "IndexError", "boolean index"),
    ),
    Mistake(
        "mask_leak",
        "a mask that does not stop hidden keys: their values still reach the output",
        "a hidden key must get weight exactly 0: give its score -inf before the softmax, "
        "np.where(mask, scores, -np.inf); a boolean mask is not an additive one",
        detect=leaks_through_mask("out"),
    ),
)


# --- ch01: the temperature of a softmax ---------------------------------------------------


def _temperature_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for shape in [
        (1, int(rng.integers(3, 7))),
        (int(rng.integers(2, 5)), 5),
        (2, 3, int(rng.integers(4, 8))),
    ]:
        temperature = float(np.round(rng.uniform(0.3, 3.0), 2))
        scores = normal(rng, shape, F64, 1.5)
        weights = mha.softmax(scores / temperature)
        cases.append(Case(f"scores {shape} at temperature {temperature}", (scores, weights)))
    base = cases[1]
    scores, temperature = base.args[0].copy(), float(base.description.rsplit(" ", 1)[1])
    hidden = rng.integers(scores.shape[-1], size=len(scores))
    hidden[0] = rng.integers(2)  # among the first two of row 0, where a shortcut looks
    scores[np.arange(len(scores)), hidden] = -1e4
    cases.append(Case("the second input with one score per row at -10000 (its weight underflows to 0)",
                      (scores, mha.softmax(scores / temperature)), probe_of=base.description,
                      probe="underflow"))  # fmt: skip
    shifted = base.args[0] + float(rng.uniform(2, 5))  # same weights: a softmax ignores shifts
    cases.append(Case("the second input with every score shifted by the same amount", (shifted, base.args[1]),
                      probe_of=base.description, probe="shifted_scores"))  # fmt: skip
    return cases


def _temperature_fit(scores, weights, *, centre_scores: bool = True) -> float:
    """A least-squares fit of T over the weights that are not 0 (a weight that underflowed
    says nothing about T), each row's log-weights (and scores) centred over those entries."""
    kept = weights > 0
    count = np.maximum(kept.sum(axis=-1, keepdims=True), 1)

    def centred(a):  # each row minus its mean over the kept entries, 0 elsewhere
        a = np.where(kept, a, 0.0)
        return np.where(kept, a - a.sum(axis=-1, keepdims=True) / count, 0.0)

    s = centred(scores) if centre_scores else np.where(kept, scores, 0.0)
    log_w = centred(np.log(np.where(kept, weights, 1.0)))
    return float(np.sum(s * s) / np.sum(s * log_w))  # the softmax's normaliser cancels


def _reference_temperature_of(scores, weights):
    """T such that weights = softmax(scores / T)."""
    return _temperature_fit(scores, weights)


def _across_rows(scores, weights):
    """T from differences between rows (row 0 against the others), where normalisers differ."""
    s = scores.reshape(-1, scores.shape[-1])
    log_w = np.log(weights).reshape(s.shape)
    ds, dl = (s - s[:1])[1:], (log_w - log_w[:1])[1:]
    return float(np.sum(ds * ds) / np.sum(ds * dl))


_TEMPERATURE_MISTAKES = (
    Mistake(
        "inverse",
        "1/T, the factor that multiplies the scores, instead of T, which divides them",
        "softmax(scores / T): log-weights change by (score difference) / T; solve for T",
        lambda s, w: 1.0 / _reference_temperature_of(s, w),
    ),
    Mistake(
        "log_base",
        "a logarithm other than the natural one (log10 or log2: T off by a constant factor)",
        "the softmax uses exp, so undo it with np.log, the natural logarithm",
        lambda s, w: _reference_temperature_of(s, w) * math.log(10),
        relations=("times:ln10", "times:ln2", "times:1/ln10", "times:1/ln2"),
    ),
    Mistake(
        "sign",
        "a difference taken one way for the scores and the other way for the log-weights",
        "T = (s_i - s_j) / (log w_i - log w_j): same order in both differences (T > 0)",
        lambda s, w: -_reference_temperature_of(s, w),
    ),
    Mistake(
        "scores_not_centred",
        "the log-weights centred in each row but the scores not: the fit's sum of s^2 keeps "
        "each row's mean score, which says nothing about T",
        "centre both: subtract each row's mean (over the kept entries) from the scores as well "
        "as from the log-weights",
        lambda s, w: _temperature_fit(s, w, centre_scores=False),
    ),
    Mistake(
        "ignores_normaliser",
        "T from one entry, score / log(weight), which forgets the softmax's denominator",
        "log w_j = s_j / T - log(sum_l exp(s_l / T)): compare two entries of a row so that "
        "the second term cancels",
        lambda s, w: float(s.reshape(-1)[0] / np.log(w.reshape(-1)[0])),
        changes_under(
            "shifted_scores",
            "your T changed when every score was shifted by the same amount, which leaves the "
            "weights as they are",
        ),
    ),
    Mistake(
        "across_rows",
        "differences taken between rows instead of within a row (each row has its own "
        "normaliser, which then does not cancel)",
        "compare entries of one row: log w_i - log w_j = (s_i - s_j) / T inside a row",
        _across_rows,
    ),
    Mistake(
        "sqrt_of_size",
        "T taken as the square root of the last axis's size, without looking at the weights",
        "T is whatever temperature made these weights: fit it from the scores and the log-weights",
        lambda s, w: math.sqrt(s.shape[-1]),
    ),
    Mistake(
        "log_of_zero",
        "the keys whose weight underflowed to 0 kept in the fit (their logarithm is -inf; "
        "their scores shift any mean they enter)",
        "a weight that is exactly 0 carries no information about T: leave those keys out of "
        "every step of the fit, the logarithms and the means of the scores alike (np.log of 0 "
        "is -inf)",
        detect=wrong_only_under(
            "underflow", "your T is right on an input and wrong once some of its weights are 0"
        ),
    ),
)


# --- ch01: the softmax without the scaling (a prediction, an experiment) ------------------

HEAD_SIZE, NUM_KEYS, ROWS = 1024, 32, 300  # the experiments of the section on sqrt(d_k)


@functools.cache
def largest_weight(power: float, d_k: int = HEAD_SIZE) -> float:
    """The mean largest weight in a row: ``ROWS`` random queries, each against ``NUM_KEYS``
    random keys, standard-normal float32 entries of width ``d_k`` (seed ``d_k``), the scores
    divided by ``d_k ** power`` (0: no scaling; 0.5: the book's)."""
    rng = np.random.default_rng(d_k)
    q = rng.standard_normal((ROWS, 1, d_k), dtype=np.float32)
    k = rng.standard_normal((ROWS, NUM_KEYS, d_k), dtype=np.float32)
    scores = (q @ swap_last(k))[:, 0, :].astype(np.float64) / d_k**power  # (rows, n_k)
    return float(mha.softmax(scores).max(axis=-1).mean())


def _why_power(power: float, weight: float) -> str:
    spread = f"the scores' standard deviation is sqrt(d_k) / d_k^{power:g} = {HEAD_SIZE ** (0.5 - power):.3g}"
    if power < 0.5:
        return f"Too little scaling: {spread}, so one key takes most of the weight and the gradient fades."
    if power > 0.5:
        return (
            f"Too much scaling: {spread}, so the scores are nearly equal and every key gets close "
            f"to 1/{NUM_KEYS}: the head can barely prefer one key."
        )
    return f"{spread}: unit scores whatever the head size."


def _why_unscaled(weight: float) -> str:
    return (
        f"Unscaled, the scores q . k spread with standard deviation sqrt({HEAD_SIZE}) = 32, so "
        f"the largest of {NUM_KEYS} of them is usually ten or more above the next, and e^10 is "
        "already 22000: one key takes nearly all the weight before any training (with the "
        f"scaling the same rows give {largest_weight(0.5):.2f})."
    )


_EXPERIMENT_MISTAKES = (
    Reading(
        "scaled_curve",
        "the value of the scaled curve (POWER = 0.5), not of your POWER",
        "the experiment prints one row per d_k for your POWER: read the last one",
        lambda power: largest_weight(0.5),
    ),
    Reading(
        "unscaled_curve",
        "the value without any scaling (POWER = 0)",
        "answer for the POWER you set, after running the cell with it",
        lambda power: largest_weight(0.0),
    ),
    Reading(
        "smallest_head",
        "the value at d_k = 1, where every POWER gives the same scores",
        "the question asks about d_k = 1024, the last row",
        lambda power: largest_weight(power, 1),
    ),
)


# --- the registry -------------------------------------------------------------------------

SOFTMAX_REFERENCES = (
    "mha._compute.softmax", "torch.softmax", "torch.nn.functional.softmax", "torch.Tensor.softmax",
    "scipy.special.softmax",
)  # fmt: skip
SDPA_REFERENCES = (
    "mha._compute.attention", "mha.lean.tiles.attention",
    "torch.nn.functional.scaled_dot_product_attention",
)  # fmt: skip

EXERCISES: dict[str, Exercise] = {
    "softmax": FunctionExercise(mha.softmax, _softmax_cases, _SOFTMAX_MISTAKES, other_references=SOFTMAX_REFERENCES),
    "scaled_dot_product_attention": FunctionExercise(
        mha.scaled_dot_product_attention, _sdpa_cases, _SDPA_MISTAKES, ("out", "weights"),
        other_references=SDPA_REFERENCES, quantities=_sdpa_quantities,
        axes={"out": ("queries", "features"), "weights": ("queries", "keys")},
    ),
    "score_std": NumberExercise(
        16.0,
        (
            WrongValue(256, "variance", "256 is the variance d_k; the standard deviation is its square root", same_as=("function:square",)),
            WrongValue(1, "std_one", "1 is the std of one product q_i k_i of standard normals, and of "
                       "the score after dividing by sqrt(d_k); the question asks for the sum of "
                       "d_k such products, before any scaling"),
            WrongValue(0, "mean", "0 is the mean; the question asks for the standard deviation"),
        ),
        rel_tol=0.03,
    ),
    "saturated_weight": NumberExercise(
        1 / (1 + math.exp(16)),
        (
            WrongValue(1 / (1 + math.exp(-16)), "larger_weight", "that is the weight of the key with the higher score; the question asks for the other one", same_as=("function:complement", "function:exp")),
            WrongValue(1 / (1 + math.e), "scaled", "that is with the scaling (scores 1 apart); without it the scores are 16 apart"),
            WrongValue(0.5, "equal", "the weights are equal only when the scores are; here they differ by 16"),
            WrongValue(0.0, "zero", "exp never gives exactly 0: the weight is tiny but positive (about 1e-7)"),
            WrongValue(1 / (1 + math.exp(256)), "variance_difference", "256 is the variance of the scores; one standard deviation is sqrt(256) = 16"),
        ),
        rel_tol=0.02,
    ),
    "temperature_of": FunctionExercise(
        _reference_temperature_of, _temperature_cases, _TEMPERATURE_MISTAKES,
        edges=("underflow",),
    ),
    "predict_unscaled_weight": PredictionExercise(
        f"the mean largest weight at d_k = {HEAD_SIZE} without the scaling ({NUM_KEYS} keys)",
        Number(0, 1, within=0.1),
        lambda: largest_weight(0.0),
        _why_unscaled,
        (
            Misconception("uniform", 1 / NUM_KEYS, f"1/{NUM_KEYS} is what equal scores give; unscaled, they are far from equal."),
            Misconception("half", 0.5, "0.5 is two keys sharing the weight; one key usually wins by far more than that."),
            Misconception("as_if_scaled", lambda: largest_weight(0.5), "That is what the scaled scores give: without the scaling they are 32 times larger."),
        ),
    ),
    "scale_experiment": ExperimentExercise(
        "POWER", 0.5, Number(0, 1.5, within=1e-9),
        f"the mean largest weight at d_k = {HEAD_SIZE}", Number(0, 1, within=0.02),
        largest_weight, _why_power, _EXPERIMENT_MISTAKES,
    ),
}  # fmt: skip
