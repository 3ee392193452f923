"""Chapter 3's exercises: splitting and merging heads, finding the bugs in per-head attention,
the shape after the split."""

from __future__ import annotations

import math

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.forms import WholeList
from mha.checks.inputs import F32, F64, normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, ShapeExercise, WrongValue
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import equals_one_of, keeps_flat_order
from mha.checks.variants import (
    bug_mistakes,
    merge_interleaved,
    merge_no_transpose,
    split_interleaved,
    split_no_transpose,
)

# --- ch03: split and merge heads ----------------------------------------------------------


def _split_cases(rng: np.random.Generator) -> list[Case]:
    n, m = (int(x) for x in rng.integers(2, 7, size=2))
    d = int(rng.integers(5, 8))  # never a case's h: h used as the head size changes the shape
    return [
        Case(
            f"x of shape {shape}, {np.dtype(dtype)}, num_heads={h}", (normal(rng, shape, dtype), h)
        )
        for shape, h, dtype in [
            ((n + 1, 2 * d), 2, F64),
            ((2, m, 3 * d), 3, F32),
            ((2, 3, n, 4 * d), 4, F64),
            ((m, 8), 1, F64),
        ]
    ]


def _split_keep_order(x, num_heads):
    *batch, n, features = x.shape
    return np.reshape(x, (*batch, n, num_heads, features // num_heads))


_SPLIT_MISTAKES = (
    Mistake(
        "reshape_without_transpose",
        "a reshape straight to (..., h, n, d) without a transpose, which mixes tokens",
        "reshape to (..., n, h, d) first, then swap the n and h axes",
        split_no_transpose,
        keeps_flat_order(),
    ),
    Mistake(
        "heads_axis_not_moved",
        "a reshape to (..., n, h, d) without moving the heads axis before the sequence axis",
        "finish with np.swapaxes(x, -3, -2) to get (..., h, n, d)",
        _split_keep_order,
    ),
    Mistake(
        "heads_interleaved",
        "heads in the wrong order: feature j went to head j % h instead of head j // d",
        "head i owns the contiguous features i*d:(i+1)*d: reshape to (..., n, h, d), not (..., n, d, h)",
        split_interleaved,
    ),
)


def _merge_cases(rng: np.random.Generator) -> list[Case]:
    h, n, d = (int(x) for x in rng.integers(2, 6, size=3))
    return [
        Case(f"x of shape {shape}, {np.dtype(dtype)}", (normal(rng, shape, dtype),))
        for shape, dtype in [
            ((h, n + 1, d), F64),
            ((2, h + 1, n, 2), F32),
            ((1, n, d + 1), F64),
            ((2, 2, h, n, d), F64),
        ]
    ]


_MERGE_MISTAKES = (
    Mistake(
        "reshape_without_transpose",
        "a reshape straight to (..., n, h*d) without a transpose, which mixes tokens",
        "swap the h and n axes first (np.swapaxes(x, -3, -2)), then reshape to (..., n, h*d)",
        merge_no_transpose,
        keeps_flat_order(),
    ),
    Mistake(
        "heads_interleaved",
        "heads in the wrong order: features interleaved (d, h) instead of head after head",
        "Concat puts head 0's d features first, then head 1's: the order must be (..., n, h, d)",
        merge_interleaved,
    ),
    Mistake(
        "concat_on_sequence_axis",
        "heads concatenated along the sequence axis, giving (..., h*n, d)",
        "Concat joins the heads' features: the result is (..., n, h*d)",
        lambda x: np.reshape(x, (*x.shape[:-3], x.shape[-3] * x.shape[-2], x.shape[-1])),
    ),
    Mistake(
        "heads_summed",
        "heads added up instead of concatenated",
        "Concat keeps every head's d features side by side: (..., n, h*d)",
        lambda x: np.sum(x, axis=-3),
        equals_one_of(
            {"repeated": lambda x: np.concatenate([np.sum(x, axis=-3)] * x.shape[-3], axis=-1)},
            "every head's block of your result is the sum of the heads",
        ),
    ),
    Mistake(
        "heads_averaged",
        "heads averaged instead of concatenated",
        "Concat keeps every head's d features side by side: (..., n, h*d); nothing is averaged",
        lambda x: np.mean(x, axis=-3),
    ),
    Mistake(
        "last_two_axes_swapped",
        "the last two axes (n, d) swapped instead of the heads and sequence axes, then reshaped",
        "swap the h and n axes, np.swapaxes(x, -3, -2), to get (..., n, h, d) before the reshape",
        lambda x: np.swapaxes(x, -1, -2).reshape(*x.shape[:-3], x.shape[-2], -1),
    ),
    Mistake(
        "heads_reversed",
        "the heads concatenated in reverse order",
        "head 0's features come first, then head 1's, ...",
        relations=("input:reversed(x,-3)",),
    ),
)


# --- ch03: find the bugs in per-head attention --------------------------------------------

_ATTEND_BUGS = {
    "q_not_transposed": "the queries split by a reshape without the transpose",
    "scale_by_d_model": "the scores divided by sqrt(d_model) instead of sqrt(d_k)",
    "softmax_wrong_axis": "the softmax over the queries axis (-2) instead of the keys axis (-1)",
}


def _attend_heads_variant(bugs: frozenset[str] = frozenset(), scale: str | None = None):
    """Per-head self-attention with some of the given code's bugs left in; none is the answer.
    ``scale`` overrides the divisor ("d_k" for a fix that forgot the square root)."""

    def attend_heads(x, params):
        h = params.num_heads
        *batch, n, d_model = x.shape
        if "q_not_transposed" in bugs:
            q = np.reshape(x @ params.w_q, (*batch, h, n, -1))
        else:
            q = mha.split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
        k = mha.split_heads(x @ params.w_k, h)
        v = mha.split_heads(x @ params.w_v, h)
        d_k = q.shape[-1]
        divisor = {"d_k": d_k, "d_model // h": math.sqrt(d_model // h), None: math.sqrt(d_k)}[scale]
        if "scale_by_d_model" in bugs:
            divisor = math.sqrt(d_model)
        scores = q @ np.swapaxes(k, -1, -2) / divisor  # (..., h, n, n)
        weights = mha.softmax(scores, axis=-2 if "softmax_wrong_axis" in bugs else -1)
        return weights @ v, weights

    return attend_heads


def _attend_heads_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch, n, h, d_k, d_model, dtype in [
        ((), 4, 2, 3, 6, F64),
        ((2,), 5, 3, 2, 6, F64),
        ((2,), 3, 4, 2, 8, F32),
        ((2, 2), 4, 2, 4, 8, F64),
        ((2,), 4, 2, 3, 8, F64),  # h * d_k != d_model
    ]:
        n = n + int(rng.integers(0, 3))
        params = mha.init_params(d_model, h, d_k=d_k, dtype=dtype, seed=int(rng.integers(2**31)))
        params = params.map(lambda a: a * 2.0)  # sharper weights: the bugs show more
        x = normal(rng, (*batch, n, d_model), dtype)
        cases.append(
            Case(f"x of shape {x.shape}, {np.dtype(dtype)}, h={h}, d_k={d_k}", (x, params))
        )
    return cases  # fmt: skip


_reference_attend_heads = _attend_heads_variant()

_ATTEND_HEADS_MISTAKES = (
    *bug_mistakes(_ATTEND_BUGS, _attend_heads_variant),
    Mistake(
        "scale_by_d_k",
        "the scale fixed to d_k instead of sqrt(d_k)",
        "divide by math.sqrt(d_k), the standard deviation of a d_k-term dot product",
        _attend_heads_variant(scale="d_k"),
    ),
    Mistake(
        "d_k_from_d_model",
        "d_k taken as d_model // h, which is not the layer's d_k when h * d_k != d_model",
        "the heads' size is what the projection gives: q.shape[-1] after the split",
        _attend_heads_variant(scale="d_model // h"),
    ),
    Mistake(
        "merged_heads",
        "the heads merged back to (..., n, h*d_v) where the per-head outputs are asked",
        "return weights @ v itself, shape (..., h, n, d_v): the merge comes later, in the layer",
        lambda x, params: (
            mha.merge_heads(_reference_attend_heads(x, params)[0]),
            _reference_attend_heads(x, params)[1],
        ),
    ),
)


# --- ch03: a reshape without the transpose (a prediction) ---------------------------------

UNSPLIT_TOKENS, UNSPLIT_HEADS, UNSPLIT_D_K = 6, 4, 6  # the section's crafted layer


def unsplit_rows() -> list[int]:
    """The section's experiment: every feature labelled with its token's index, cut into heads
    by a reshape without the transpose; the token of each of head 0's rows."""
    n, h, d_k = UNSPLIT_TOKENS, UNSPLIT_HEADS, UNSPLIT_D_K
    token_ids = np.repeat(np.arange(n)[:, None], h * d_k, axis=1)  # (n, h*d_k)
    return token_ids.reshape(h, n, d_k)[0, :, 0].tolist()


def _why_unsplit(rows: list[int]) -> str:
    n, h, d_k = UNSPLIT_TOKENS, UNSPLIT_HEADS, UNSPLIT_D_K
    return (
        f"A reshape reads the ({n}, {h * d_k}) array in row-major order, so head 0 gets its first "
        f"{n} x {d_k} = {n * d_k} numbers: all {h * d_k} features of token 0 (four rows) and "
        f"{n * d_k - h * d_k} of token 1's (two rows). The transpose of split_heads is what gives "
        "head 0 the first d_k features of every token."
    )


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "split_heads": FunctionExercise(
        mha.split_heads, _split_cases, _SPLIT_MISTAKES,
        other_references=("mha._compute.split_heads",),
    ),
    "merge_heads": FunctionExercise(
        mha.merge_heads, _merge_cases, _MERGE_MISTAKES,
        other_references=("mha._compute.merge_heads",),
    ),
    "attend_heads": FunctionExercise(
        _reference_attend_heads, _attend_heads_cases, _ATTEND_HEADS_MISTAKES, ("heads", "weights"),
        given=_attend_heads_variant(frozenset(_ATTEND_BUGS)),
    ),
    "split_heads_shape": ShapeExercise(
        (2, 12, 10, 64),
        (
            WrongValue((2, 10, 12, 64), "heads_after_sequence", "that is the shape before the transpose: the heads axis goes before the sequence axis"),
            WrongValue((12, 2, 10, 64), "heads_before_batch", "batch dimensions stay in front: (batch, h, n, d)"),
            WrongValue((2, 12, 10, 768), "d_not_divided", "each head gets d = 768 / 12 features"),
            WrongValue((24, 10, 64), "heads_in_batch", "split_heads keeps the batch axis and adds a heads axis: (batch, h, n, d); folding the heads into the batch, (batch * h, n, d), is a layout some libraries use inside"),
        ),
    ),
    "predict_unsplit_rows": PredictionExercise(
        "the token of each of head 0's six rows after the reshape without the transpose",
        WholeList(UNSPLIT_TOKENS), unsplit_rows, _why_unsplit,
        (
            Misconception("as_if_transposed", list(range(UNSPLIT_TOKENS)),
                          "That is what split_heads gives, with its transpose; a reshape alone keeps the numbers in their order."),
            Misconception("one_token", [0] * UNSPLIT_TOKENS,
                          "Head 0 gets 36 numbers, more than token 0's 24 features."),
            Misconception("two_rows_per_token", [0, 0, 1, 1, 2, 2],
                          "A token has h d_k = 24 features: four rows of d_k = 6, not two."),
        ),
    ),
}  # fmt: skip
