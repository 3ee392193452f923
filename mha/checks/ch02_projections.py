"""Chapter 2's exercises: one head's block of a projection matrix, the projections' parameter count."""

from __future__ import annotations

import numpy as np

from mha.checks.core import F64, Case, _normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue

# --- ch02: head weights -------------------------------------------------------------------


def _head_weight_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for (rows, cols), h, i in [((8, 8), 2, 1), ((6, 12), 3, 2), ((10, 4), 4, 3), ((5, 15), 5, 0)]:
        w = _normal(rng, (rows, cols), F64)
        cases.append(Case(f"w of shape {(rows, cols)}, num_heads={h}, i={i}", (w, i, h)))
    return cases


def _reference_head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d : (i + 1) * d]


_HEAD_WEIGHT_MISTAKES = (
    Mistake(
        "rows_not_columns",
        "head i's rows of W instead of its columns",
        "with x @ W, head i's outputs are columns i*d:(i+1)*d: w[:, i*d:(i+1)*d]",
        lambda w, i, h: w[i * (w.shape[1] // h) : (i + 1) * (w.shape[1] // h), :],
    ),
    Mistake(
        "d_from_rows",
        "d computed from W's rows (d_model) instead of its columns (h*d)",
        "d = w.shape[1] // num_heads: the columns hold the h heads",
        lambda w, i, h: w[:, i * (w.shape[0] // h) : (i + 1) * (w.shape[0] // h)],
    ),
    Mistake(
        "interleaved_columns",
        "every h-th column (w[:, i::h]) instead of one contiguous block",
        "head i owns the contiguous block w[:, i*d:(i+1)*d]",
        lambda w, i, h: w[:, i::h],
    ),
    Mistake(
        "one_based",
        "heads counted from 1 (the block of head i-1)",
        "heads are numbered from 0 in code: head i starts at column i*d",
        lambda w, i, h: w[:, (i - 1) * (w.shape[1] // h) : i * (w.shape[1] // h)],
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "head_weight": FunctionExercise(
        2, _reference_head_weight, _head_weight_cases, _HEAD_WEIGHT_MISTAKES,
        references=("mha.checks.ch02_projections._reference_head_weight",),
    ),
    "projection_parameter_count": NumberExercise(
        2,
        3 * 512 * 512,
        (
            WrongValue(512 * 512, "one_matrix", "that is one matrix; W^Q, W^K and W^V make three"),
            WrongValue(3 * 512 * 64, "one_head", "that is one head; the h heads together have h*d_k = 512 columns"),
            WrongValue(4 * 512 * 512, "with_w_o", "W^O is not an input projection; count W^Q, W^K, W^V"),
            WrongValue(3 * 512 * 512 + 3 * 512, "with_biases", "the question asks for the weights without biases"),
        ),
    ),
}  # fmt: skip
