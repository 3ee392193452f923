"""Chapter 3's exercises: splitting and merging heads, the shape after the split."""

from __future__ import annotations

import numpy as np

import mha
from mha.checks.core import F32, F64, Case, _normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, ShapeExercise, WrongValue

# --- ch03: split and merge heads ----------------------------------------------------------


def _split_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case(
            f"x of shape {shape}, {np.dtype(dtype)}, num_heads={h}", (_normal(rng, shape, dtype), h)
        )
        for shape, h, dtype in [
            ((5, 6), 2, F64),
            ((2, 5, 12), 3, F32),
            ((2, 3, 5, 8), 4, F64),
            ((3, 8), 1, F64),
        ]
    ]


def _split_no_transpose(x, num_heads):
    *batch, n, features = x.shape
    return np.reshape(x, (*batch, num_heads, n, features // num_heads))


def _split_keep_order(x, num_heads):
    *batch, n, features = x.shape
    return np.reshape(x, (*batch, n, num_heads, features // num_heads))


def _split_interleaved(x, num_heads):
    *batch, n, features = x.shape
    x = np.reshape(x, (*batch, n, features // num_heads, num_heads))  # (..., n, d, h)
    return np.moveaxis(x, (-3, -2, -1), (-2, -1, -3))  # (..., h, n, d)


_SPLIT_MISTAKES = (
    Mistake(
        "reshape_without_transpose",
        "a reshape straight to (..., h, n, d) without a transpose, which mixes tokens",
        "reshape to (..., n, h, d) first, then swap the n and h axes",
        _split_no_transpose,
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
        _split_interleaved,
    ),
)


def _merge_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case(f"x of shape {shape}, {np.dtype(dtype)}", (_normal(rng, shape, dtype),))
        for shape, dtype in [
            ((2, 5, 3), F64),
            ((2, 3, 4, 2), F32),
            ((1, 4, 6), F64),
            ((2, 2, 3, 5, 4), F64),
        ]
    ]


def _merge_no_transpose(x):
    *batch, h, n, d = x.shape
    return np.reshape(x, (*batch, n, h * d))


def _merge_interleaved(x):
    *batch, h, n, d = x.shape
    return np.reshape(np.moveaxis(x, -3, -1), (*batch, n, h * d))  # (..., n, d, h) -> flat


_MERGE_MISTAKES = (
    Mistake(
        "reshape_without_transpose",
        "a reshape straight to (..., n, h*d) without a transpose, which mixes tokens",
        "swap the h and n axes first (np.swapaxes(x, -3, -2)), then reshape to (..., n, h*d)",
        _merge_no_transpose,
    ),
    Mistake(
        "heads_interleaved",
        "heads in the wrong order: features interleaved (d, h) instead of head after head",
        "Concat puts head 0's d features first, then head 1's: the order must be (..., n, h, d)",
        _merge_interleaved,
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
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "split_heads": FunctionExercise(
        3, mha.split_heads, _split_cases, _SPLIT_MISTAKES,
        references=("mha.split_heads", "mha.numpy_mha.split_heads", "mha.numpy_mha._split_heads"),
    ),
    "merge_heads": FunctionExercise(
        3, mha.merge_heads, _merge_cases, _MERGE_MISTAKES,
        references=("mha.merge_heads", "mha.numpy_mha.merge_heads", "mha.numpy_mha._merge_heads"),
    ),
    "split_heads_shape": ShapeExercise(
        3,
        (2, 12, 10, 64),
        (
            WrongValue((2, 10, 12, 64), "heads_after_sequence", "that is the shape before the transpose: the heads axis goes before the sequence axis"),
            WrongValue((12, 2, 10, 64), "heads_before_batch", "batch dimensions stay in front: (batch, h, n, d)"),
            WrongValue((2, 12, 10, 768), "d_not_divided", "each head gets d = 768 / 12 features"),
        ),
    ),
}  # fmt: skip
