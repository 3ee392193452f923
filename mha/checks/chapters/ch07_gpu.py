"""Chapter 7's exercises: the memory of the attention weights, the arithmetic of a layer, the
longest sequence whose scores fit, and the key block that fits a memory budget."""

from __future__ import annotations

import math

import numpy as np

from mha.checks.core import Case
from mha.checks.forms import Number
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import equals_one_of
from mha.checks.relations import Term

# --- ch07: floating-point operations of one layer -----------------------------------------


def _flops_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch, n, d_model in [(1, 128, 64), (2, 1000, 512), (4, 8192, 1024), (8, 16, 256)]:
        batch, n = batch + int(rng.integers(0, 3)), n + int(rng.integers(0, 100))
        cases.append(Case(f"batch={batch}, n={n}, d_model={d_model}", (batch, n, d_model)))
    return cases


def _reference_attention_flops(batch, n, d_model):
    projections = 4 * 2 * batch * n * d_model * d_model  # W^Q, W^K, W^V, W^O
    attention = 2 * 2 * batch * n * n * d_model  # Q K^T and P V, over all heads together
    return projections + attention


_FLOPS_TERMS = (
    Term("projections", "the four projections", 8, ("batch", "n", "d_model", "d_model")),
    Term("attention", "Q K^T and P V", 4, ("batch", "n", "n", "d_model")),
)

_FLOPS_MISTAKES = (
    Mistake(
        "multiply_adds",
        "multiply-adds counted as one operation (half the FLOPs)",
        "a multiply-add is two floating-point operations: an (m, k) x (k, n) product costs 2 m k n",
        lambda b, n, d: _reference_attention_flops(b, n, d) // 2,
    ),
    Mistake(
        "no_projections",
        "only the attention (Q K^T and P V), without the four projections",
        "the four (d_model, d_model) projections cost 2 * n * d_model^2 each per sequence",
        lambda b, n, d: 4 * b * n * n * d,
    ),
    Mistake(
        "no_w_o",
        "three projections instead of four (W^O forgotten)",
        "W^O is a (d_model, d_model) product too: four projections in all",
        lambda b, n, d: 6 * b * n * d * d + 4 * b * n * n * d,
    ),
    Mistake(
        "no_weighted_sum",
        "Q K^T counted but not P V",
        "the weighted sum of the values, P V, costs as much as Q K^T: 2 n^2 d_model each",
        lambda b, n, d: 8 * b * n * d * d + 2 * b * n * n * d,
    ),
    Mistake(
        "softmax_counted",
        "operations counted that the exercise leaves out (the softmax or the scaling: a few per score)",
        "count only the four projections and the two products Q K^T and P V",
        relations=("extra_term:*batch*n^2", "extra_term:*batch*n^2*h"),
    ),
)


# --- ch07: the longest sequence whose weights fit ------------------------------------------


def _longest_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for gib, batch, heads, itemsize in [
        (16, 1, 8, 4),
        (80, 2, 32, 2),
        (40, 4, 16, 2),
        (24, 1, 12, 4),
    ]:
        memory = int(gib * 2**30 * rng.uniform(0.6, 1.0))
        cases.append(Case(f"{memory} bytes, batch={batch}, heads={heads}, {itemsize} bytes per number",
                          (memory, batch, heads, itemsize)))  # fmt: skip
    # the square root exactly an integer, and just above one by a little and by more than a half
    # (so that rounding up, to the nearest and down all differ), and 10^16 - 1 bytes, where a
    # float square root rounds up to 10^8
    n = int(rng.integers(2000, 9000))
    for text, memory, batch, heads, itemsize in [
        ("exactly n * n numbers", 2 * 8 * 2 * n * n, 2, 8, 2),
        ("a little more than n * n numbers", 4 * (n * n + n // 3), 1, 4, 1),
        ("nearly (n + 1)^2 numbers", 2 * 4 * (n * n + 3 * n // 2), 2, 4, 1),
        ("10^16 - 1 bytes", 10**16 - 1, 1, 1, 1),
        ("less than one number per head: not even n = 1 fits", 2 * 8 * 4 - 1, 2, 8, 4),
    ]:
        cases.append(Case(f"{memory} bytes ({text}), batch={batch}, heads={heads}, {itemsize} bytes per number",
                          (memory, batch, heads, itemsize)))  # fmt: skip
    return cases


def _exact_longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    """The longest sequence before rounding down: sqrt(memory / (batch * heads * bytes))."""
    return math.sqrt(memory_bytes / (batch * heads * bytes_per_number))


def _reference_longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    """The largest n with batch * heads * n * n * bytes_per_number <= memory_bytes."""
    return math.isqrt(memory_bytes // (batch * heads * bytes_per_number))


_LONGEST_MISTAKES = (
    Mistake(
        "at_least_one",
        "1 returned where not even n = 1 fits (a lower bound of 1, as a block size needs)",
        "a sequence that does not fit has length 0: no max(1, ...) here",
        lambda m, b, h, s: max(1, _reference_longest_sequence(m, b, h, s)),
    ),
    Mistake(
        "no_square_root",
        "n from memory / (batch * heads * bytes), as if the weights grew like n, not n^2",
        "each head holds an (n, n) matrix: solve batch * heads * n^2 * bytes <= memory, a square root",
        lambda m, b, h, s: m // (b * h * s),
    ),
    Mistake(
        "rounded_up",
        "the square root rounded up, which no longer fits",
        "round down: the largest n that fits, math.isqrt",
        lambda m, b, h, s: math.isqrt(m // (b * h * s)) + 1,
        relations=("rounding:ceil",),
    ),
    Mistake(
        "rounded_to_nearest",
        "the square root rounded to the nearest integer, which may not fit",
        "round down: the largest n that fits, math.isqrt",
        relations=("rounding:round",),
    ),
    Mistake(
        "float_sqrt",
        "a float square root, which rounds up just below a perfect square of a large number",
        "math.isqrt(memory // (batch * heads * bytes)) works in integers and always rounds down; "
        "math.sqrt of 10^16 - 1 is 10^8 in floating point",
        lambda m, b, h, s: int(math.sqrt(m / (b * h * s))),
    ),
    Mistake(
        "one_sequence",
        "the batch forgotten: one sequence's weights",
        "every sequence of the batch has its own (heads, n, n) weights: divide by batch too",
        relations=("input:batch=1",),
    ),
    Mistake(
        "numbers_not_bytes",
        "numbers counted instead of bytes",
        "divide the memory by the bytes per number too",
        lambda m, b, h, s: math.isqrt(m // (b * h)),
        equals_one_of(
            {"a float square root": lambda m, b, h, s: int(math.sqrt(m / (b * h)))},
            "your result counts numbers, not bytes ({name})",
        ),
    ),
    Mistake(
        "one_head",
        "the heads forgotten: one (n, n) matrix per sequence",
        "every head has its own (n, n) weights: divide by batch * heads",
        lambda m, b, h, s: math.isqrt(m // (b * s)),
    ),
)


# --- ch07: the block of keys that fits a budget -------------------------------------------


def _block_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch, heads, n_q, n_k, budget, itemsize in [
        (1, 8, 1024, 4096, 2**23, 4), (2, 4, 512, 300, 2**26, 4), (1, 16, 4096, 8192, 2**20, 2),
        (4, 8, 2048, 2048, 2**10, 4), (1, 2, 100, 1000, 3 * 2**16, 8), (3, 4, 700, 5000, 2**22, 2),
    ]:  # fmt: skip
        n_q, n_k = n_q + int(rng.integers(0, 50)), n_k + int(rng.integers(0, 50))
        args = (batch, heads, n_q, n_k, budget, itemsize)
        cases.append(Case(f"batch={batch}, heads={heads}, n_q={n_q}, n_k={n_k}, budget={budget} bytes, "
                          f"{itemsize} bytes per number", args))  # fmt: skip
    return cases


def _reference_key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    """Keys per block so that one (batch, heads, n_q, block) block of scores fits the budget;
    at least 1, at most n_k."""
    column = batch * heads * n_q * bytes_per_number  # bytes of one key's column of scores
    return max(1, min(n_k, budget_bytes // column))


_BLOCK_MISTAKES = (
    Mistake(
        "not_capped",
        "a block larger than n_k when the whole score matrix fits",
        "a block cannot hold more keys than there are: min(n_k, ...)",
        lambda b, h, nq, nk, m, s: max(1, m // (b * h * nq * s)),
    ),
    Mistake(
        "zero_block",
        "a block of 0 keys when even one column does not fit",
        "the loop needs at least one key per block: max(1, ...)",
        lambda b, h, nq, nk, m, s: min(nk, m // (b * h * nq * s)),
    ),
    Mistake(
        "rounded_up",
        "the division rounded up, so the block exceeds the budget",
        "round down (//): the largest block that fits",
        lambda b, h, nq, nk, m, s: max(1, min(nk, -(-m // (b * h * nq * s)))),
    ),
    Mistake(
        "rounded_to_nearest",
        "the division rounded to the nearest whole number, so the block exceeds the budget "
        "whenever the fraction is one half or more",
        "round down (//): the largest block that fits",
        lambda b, h, nq, nk, m, s: max(1, min(nk, round(m / (b * h * nq * s)))),
    ),
    Mistake(
        "numbers_not_bytes",
        "numbers counted instead of bytes",
        "each score takes bytes_per_number bytes: divide by it too",
        lambda b, h, nq, nk, m, s: max(1, min(nk, m // (b * h * nq))),
    ),
    Mistake(
        "one_head",
        "the heads forgotten: one score column per sequence",
        "every head has its own scores: a key's column holds batch * heads * n_q numbers",
        lambda b, h, nq, nk, m, s: max(1, min(nk, m // (b * nq * s))),
    ),
)


# --- ch07: the memory of one layer's scores (a prediction) -------------------------------

SCORES_N, SCORES_HEADS, FLOAT32_BYTES = 16384, 8, 4  # the memory table's row, B = 1


def scores_gigabytes(n: int = SCORES_N, heads: int = SCORES_HEADS) -> float:
    """GB (10^9 bytes) of one layer's (h, n, n) float32 scores, B = 1: the memory table's
    row for ``n``."""
    return heads * n * n * FLOAT32_BYTES / 1e9


def _why_gigabytes(gigabytes: float) -> str:
    return (
        f"The scores hold h * n^2 = {SCORES_HEADS} * {SCORES_N}^2 numbers of 4 bytes: "
        f"{gigabytes:.1f} GB, and the weights as many again. Doubling n quadruples it: at n = "
        f"{2 * SCORES_N} it is {scores_gigabytes(2 * SCORES_N):.0f} GB, more than most GPUs hold."
    )


_GIGABYTES_MISCONCEPTIONS = (
    Misconception(
        "one_head",
        scores_gigabytes(heads=1),
        "That is one head's (n, n) scores; each of the 8 heads has its own.",
    ),
    Misconception(
        "float64",
        2 * scores_gigabytes(),
        "That counts 8 bytes a number (float64); float32 takes 4.",
    ),
    Misconception(
        "linear_in_n",
        SCORES_HEADS * SCORES_N * FLOAT32_BYTES / 1e9,
        "That is n numbers per head; the scores hold one per query and key: n^2.",
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "predict_scores_gigabytes": PredictionExercise(
        f"the GB (10^9 bytes) of one layer's float32 scores at n = {SCORES_N:,}, h = {SCORES_HEADS}, B = 1",
        Number(0, 1e9, factor=1.3, zero=1e-12), scores_gigabytes, _why_gigabytes, _GIGABYTES_MISCONCEPTIONS,
    ),
    "attention_weights_bytes": NumberExercise(
        4 * 16 * 8192 * 8192 * 2,
        (
            WrongValue(4 * 16 * 8192 * 8192 * 4, "float32", "float16 takes 2 bytes per number, not 4", same_as=("doubled:bytes",)),
            WrongValue(4 * 8192 * 8192 * 2, "one_head", "every one of the 16 heads has its own (n, n) weights", same_as=("missing:heads",)),
            WrongValue(16 * 8192 * 8192 * 2, "one_sequence", "each of the 4 sequences in the batch has its own weights", same_as=("missing:batch",)),
            WrongValue(4 * 16 * 8192 * 2, "linear_in_n", "each head holds n x n weights: every query has one per key", same_as=("missing:n",)),
        ),
        terms=(Term("weights", "the weights", 1, ("batch", "heads", "n", "n", "bytes")),),
        values=(("batch", 4), ("heads", 16), ("n", 8192), ("bytes", 2)),
        integer=True,
    ),
    "attention_flops": FunctionExercise(
        _reference_attention_flops, _flops_cases, _FLOPS_MISTAKES,
        other_references=("mha.bench.timing.flops",),
        terms=_FLOPS_TERMS,
    ),
    "longest_sequence": FunctionExercise(
        _reference_longest_sequence, _longest_cases, _LONGEST_MISTAKES,
        exact=_exact_longest_sequence,
    ),
    "key_block_size": FunctionExercise(
        _reference_key_block_size, _block_cases, _BLOCK_MISTAKES,
        ),
}  # fmt: skip
