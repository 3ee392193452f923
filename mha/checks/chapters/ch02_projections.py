"""Chapter 2's exercises: one head's block of a projection, fusing the heads' matrices, PyTorch's
stacked ``in_proj_weight`` in the paper's layout, the projections' parameter count."""

from __future__ import annotations

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.forms import Whole
from mha.checks.inputs import F32, F64, normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import equals_one_of
from mha.checks.relations import Alternative, Term

# --- ch02: head weights -------------------------------------------------------------------


def _head_weight_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for h, rows, d in [(2, 8, 4), (3, 6, 4), (4, 10, 1), (5, 5, 3), (3, 9, 3)]:
        rows, d = rows + int(rng.integers(0, 3)), d + int(rng.integers(0, 2))
        i = int(rng.integers(h))
        w = normal(rng, (rows, h * d), F64)
        cases.append(Case(f"w of shape {(rows, h * d)}, num_heads={h}, i={i}", (w, i, h)))
    cases.append(
        Case(
            "w of shape (6, 6), num_heads=3, i=0 (the first head)",
            (normal(rng, (6, 6), F64), 0, 3),
        )
    )
    cases.append(
        Case(
            "w of shape (4, 8), num_heads=2, i=1 (the last head)", (normal(rng, (4, 8), F32), 1, 2)
        )
    )
    return cases  # fmt: skip


def _reference_head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d : (i + 1) * d]


_HEAD_WEIGHT_MISTAKES = (
    Mistake(
        "reshaped_without_moving_axes",
        "the whole matrix reshaped to (h, d_in, d) and block i taken: a reshape cuts the rows, "
        "not the columns, into heads",
        "a reshape keeps the numbers in their order: reshape to (d_in, h, d) and take [:, i], or "
        "slice the columns w[:, i*d:(i+1)*d]",
        lambda w, i, h: w.reshape(h, w.shape[0], w.shape[1] // h)[i],
    ),
    Mistake(
        "rows_not_columns",
        "head i's rows of W instead of its columns",
        "with x @ W, head i's outputs are columns i*d:(i+1)*d: w[:, i*d:(i+1)*d]",
        lambda w, i, h: w[i * (w.shape[1] // h) : (i + 1) * (w.shape[1] // h), :],
        equals_one_of(
            {
                "transposed": lambda w, i, h: (
                    w[i * (w.shape[1] // h) : (i + 1) * (w.shape[1] // h), :].T
                )
            },
            "your result is head i's block of rows, transposed to the block's shape",
        ),
        relations=("input:w.T+result.T",),
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
        relations=("input:i-1",),  # head 0 read as the last one, wrapping around
    ),
    Mistake(
        "slice_off_by_one",
        "a slice one column too long or too short",
        "w[:, a:b] takes columns a .. b-1: head i's block is w[:, i*d:(i+1)*d], d columns",
        relations=("off_by_one:*",),
    ),
)


# --- ch02: fuse the heads' matrices -------------------------------------------------------


def _fuse_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for h, d_in, d, dtype in [
        (2, 4, 3, F64),
        (3, 5, 2, F64),
        (4, 3, 3, F32),
        (1, 4, 2, F64),
        (3, 4, 4, F64),
    ]:
        d_in, d = d_in + int(rng.integers(0, 3)), d + int(rng.integers(0, 2))
        w_heads = [normal(rng, (d_in, d), dtype) for _ in range(h)]
        cases.append(Case(f"{h} matrices of shape {(d_in, d)}, {np.dtype(dtype)}", (w_heads,)))
    return cases  # fmt: skip


def _reference_fuse_heads(w_heads):
    return np.concatenate(w_heads, axis=1)  # (d_in, h*d): head i owns columns i*d:(i+1)*d


_FUSE_MISTAKES = (
    Mistake(
        "stacked_rows",
        "the matrices stacked vertically (one below the other) instead of side by side",
        "x @ W_i gives head i's outputs, so the heads sit side by side: np.concatenate(w_heads, axis=1)",
        lambda w_heads: np.concatenate(w_heads, axis=0),
    ),
    Mistake(
        "interleaved",
        "columns interleaved (column j of every head in turn) instead of one block per head",
        "head i must own the contiguous columns i*d:(i+1)*d: concatenate, do not stack on a last axis",
        lambda w_heads: np.stack(w_heads, axis=-1).reshape(w_heads[0].shape[0], -1),
    ),
    Mistake(
        "reversed",
        "the heads in reverse order",
        "head 0 comes first: columns 0:d",
        lambda w_heads: np.concatenate(w_heads[::-1], axis=1),
    ),
    Mistake(
        "stacked_then_reshaped",
        "the matrices stacked to (h, d_in, d) and reshaped to (d_in, h*d) without moving the "
        "heads axis, which scrambles rows and heads",
        "a reshape keeps the order of the numbers: stacking puts head 0's whole matrix first; "
        "np.concatenate(w_heads, axis=1) puts the heads side by side",
        lambda w_heads: np.stack(w_heads).reshape(w_heads[0].shape[0], -1),
    ),
    Mistake(
        "heads_summed",
        "the heads' matrices added up instead of placed side by side",
        "each head keeps its own d columns: np.concatenate(w_heads, axis=1) is (d_in, h*d); a sum "
        "mixes the heads into one (d_in, d) matrix",
        lambda w_heads: np.sum(w_heads, axis=0),
        equals_one_of(
            {"repeated": lambda w_heads: np.tile(np.sum(w_heads, axis=0), (1, len(w_heads)))},
            "every block of your result is the sum of the heads' matrices",
        ),
    ),
    Mistake(
        "transposed",
        "the fused matrix transposed, (h*d, d_in), as nn.Linear stores it",
        "the paper's layout multiplies from the right, x @ W: W is (d_in, h*d)",
        lambda w_heads: np.concatenate(w_heads, axis=1).T,
        equals_one_of(
            {"each head": lambda w_heads: np.concatenate([w.T for w in w_heads], axis=1)},
            "your result is each head's matrix transposed, then placed side by side",
        ),
    ),
)


# --- ch02: PyTorch's in_proj_weight in the paper's layout --------------------------------


def _in_proj_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for d_model, dtype in [
        (4, F64),
        (int(rng.integers(3, 7)), F64),
        (6, F32),
        (int(rng.integers(2, 5)), F64),
    ]:
        weight = normal(rng, (3 * d_model, d_model), dtype)
        cases.append(
            Case(f"in_proj_weight of shape {(3 * d_model, d_model)}, {np.dtype(dtype)}", (weight,))
        )
    return cases  # fmt: skip


def _reference_split_in_proj(in_proj_weight):
    d_model = in_proj_weight.shape[1]
    blocks = [in_proj_weight[i * d_model : (i + 1) * d_model] for i in range(3)]  # (out, in) each
    return tuple(block.T for block in blocks)  # paper layout (in, out): x @ w


_IN_PROJ_MISTAKES = (
    Mistake(
        "no_transpose",
        "the blocks kept in PyTorch's (out, in) layout, without the transpose",
        "nn.Linear computes x @ W.T: the paper's matrix is the transpose of each block",
        lambda w: tuple(w[i * w.shape[1] : (i + 1) * w.shape[1]] for i in range(3)),
    ),
    Mistake(
        "split_columns",
        "the weight cut into three blocks of columns, as if W_q, W_k, W_v sat side by side",
        "in_proj_weight stacks W_q, W_k, W_v vertically: take rows 0:d, d:2d, 2d:3d, then transpose each",
        lambda w: tuple(np.split(w, 3, axis=1)),
        equals_one_of(
            {
                "array_split": lambda w: tuple(b.T for b in np.array_split(w, 3, axis=1)),
                "array_split without the transpose": lambda w: tuple(np.array_split(w, 3, axis=1)),
            },
            "your blocks are columns of in_proj_weight ({name})",
        ),
    ),
    Mistake(
        "interleaved_rows",
        "every third row (w[0::3], w[1::3], w[2::3]) instead of three contiguous blocks of rows",
        "W_q is the first d_model rows of in_proj_weight, W_k the next d_model, W_v the last",
        lambda w: (w[0::3].T, w[1::3].T, w[2::3].T),
    ),
    Mistake(
        "transposed_then_reshaped",
        "the whole stack transposed, then reshaped to (3, d, d): the blocks get scrambled",
        "cut the rows into three blocks first (each (d, d), PyTorch's (out, in) layout), then "
        "transpose each block",
        lambda w: tuple(w.T.reshape(3, w.shape[1], w.shape[1])),
    ),
    Mistake(
        "order",
        "the three blocks in another order (PyTorch stacks queries, keys, values)",
        "in_proj_weight is [W_q; W_k; W_v] from top to bottom",
        lambda w: tuple(w[i * w.shape[1] : (i + 1) * w.shape[1]].T for i in (1, 0, 2)),
    ),
    Mistake(
        "reshape_not_split",
        "a reshape of the whole matrix to (d_model, 3, d_model) without splitting its rows",
        "reshape(3, d, d) splits the rows into the three blocks; transpose each block afterwards",
        lambda w: tuple(w.reshape(w.shape[1], 3, w.shape[1])[:, i] for i in range(3)),
    ),
)


# --- ch02: the projections' size as the heads grow (a prediction) -------------------------

COUNTED_D_MODEL, COUNTED_HEADS = 64, 16  # the section's experiment counts h = 1 .. 16 at d_model 64


def projection_parameters(d_model: int, num_heads: int) -> int:
    """What the section's experiment counts: the entries of W^Q, W^K and W^V of a layer."""
    params = mha.init_params(d_model, num_heads)
    return params.w_q.size + params.w_k.size + params.w_v.size


def _why_parameters(count: int) -> str:
    d, h = COUNTED_D_MODEL, COUNTED_HEADS
    return (
        f"With d_k = d_model / h = {d // h}, each of W^Q, W^K, W^V is (d_model, h d_k) = ({d}, {d}) "
        f"whatever h is, so 3 x {d}^2 = {count:,}: more heads are narrower heads, not more weights."
    )


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "head_weight": FunctionExercise(
        _reference_head_weight, _head_weight_cases, _HEAD_WEIGHT_MISTAKES,
        ),
    "fuse_heads": FunctionExercise(
        _reference_fuse_heads, _fuse_cases, _FUSE_MISTAKES,
        ),
    "split_in_proj": FunctionExercise(
        _reference_split_in_proj, _in_proj_cases, _IN_PROJ_MISTAKES, ("w_q", "w_k", "w_v"),
        other_references=("mha.params.from_torch_state_dict", "mha.torch_mha.MultiHeadAttention.from_torch"),
    ),
    "projection_parameter_count": NumberExercise(
        3 * 512 * 512,
        (
            WrongValue(512 * 512, "one_matrix", "that is one matrix; W^Q, W^K and W^V make three", same_as=("missing:matrices",)),
            WrongValue(3 * 512 * 64, "one_head", "that is one head; the h heads together have h*d_k = 512 columns"),
            WrongValue(4 * 512 * 512, "with_w_o", "W^O is not an input projection; count W^Q, W^K, W^V"),
            WrongValue(3 * 512 * 512 + 3 * 512, "with_biases", "the question asks for the weights without biases"),
        ),
        terms=(Term("weights", "the three matrices", 1, ("matrices", "d_model", "h*d_k")),),
        values=(("matrices", 3), ("d_model", 512), ("h*d_k", 512), ("h", 8)),
        alternatives=(
            Alternative("matrices", "two", 2, "two matrices (one of W^Q, W^K, W^V forgotten)"),
            Alternative("h*d_k", "d_model_per_head", 8 * 512, "d_model columns per head (h * d_model)"),
        ),
    ),
    "predict_projection_parameters": PredictionExercise(
        f"the parameters of W^Q, W^K and W^V at d_model = {COUNTED_D_MODEL} with h = {COUNTED_HEADS} heads",
        Whole(),
        lambda: projection_parameters(COUNTED_D_MODEL, COUNTED_HEADS),
        _why_parameters,
        (
            Misconception("full_matrices_per_head", 3 * COUNTED_HEADS * COUNTED_D_MODEL**2,
                          "That gives every head its own (64, 64) matrices; a head's block is only d_k = 4 columns wide."),
            Misconception("one_head", 3 * COUNTED_D_MODEL * (COUNTED_D_MODEL // COUNTED_HEADS),
                          "That is one head's share; the 16 heads together have h d_k = 64 columns."),
            Misconception("with_w_o", 4 * COUNTED_D_MODEL**2,
                          "That counts W^O too (chapter 4); the question is about the three input projections."),
        ),
    ),
}  # fmt: skip
