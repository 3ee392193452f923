"""Chapter 5's exercises: the causal and padding masks, the shape of cross-attention weights."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, ShapeExercise, WrongValue

# --- ch05: masks --------------------------------------------------------------------------


def _causal_cases(rng: np.random.Generator) -> list[Case]:
    n = int(rng.integers(3, 8))
    n_q, n_k = sorted(int(x) for x in rng.choice(np.arange(2, 10), size=2, replace=False))
    sizes = [(n,), (n + 1, n + 1), (n_q, n_k), (1, n_k + 1), (n_k, n_q)]
    return [Case(f"causal_mask({', '.join(map(str, s))})", s) for s in sizes]


def _causal_variant(relation: Callable[[np.ndarray, np.ndarray], np.ndarray], *, align=True):
    def causal_mask(n_q, n_k=None):
        n_k = n_q if n_k is None else n_k
        rows = np.arange(n_q)[:, None] + (n_k - n_q if align else 0)
        return relation(np.arange(n_k)[None, :], rows)

    return causal_mask


_CAUSAL_MISTAKES = (
    Mistake(
        "inverted",
        "an inverted mask (True on the future keys)",
        "True means 'may attend': key j is allowed when it is not in the future",
        _causal_variant(lambda cols, rows: cols > rows),
    ),
    Mistake(
        "excludes_diagonal",
        "a mask that hides the diagonal (a token may not attend itself)",
        "use <=, not <: each token may attend its own position",
        _causal_variant(lambda cols, rows: cols < rows),
    ),
    Mistake(
        "upper_triangular",
        "the upper triangle (np.triu) instead of the lower one",
        "query i may attend keys 0..i: the lower triangle, np.tril",
        _causal_variant(lambda cols, rows: cols >= rows),
    ),
    Mistake(
        "top_left_aligned",
        "a mask aligned top-left (np.tril(ones((n_q, n_k)))) when n_q != n_k",
        "the queries are the last n_q positions: query i sits at position i + n_k - n_q",
        _causal_variant(lambda cols, rows: cols <= rows, align=False),
    ),
    Mistake(
        "ignores_n_k",
        "a square (n_q, n_q) mask that ignores n_k",
        "the mask has one column per key: shape (n_q, n_k), with n_k defaulting to n_q",
        lambda n_q, n_k=None: np.tril(np.ones((n_q, n_q), dtype=bool)),
    ),
)


def _padding_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for form in ("list", "int64", "int32", "one"):
        n_k = int(rng.integers(3, 9))
        size = 1 if form == "one" else int(rng.integers(2, 5))
        lengths = rng.integers(0, n_k + 1, size=size)
        lengths[rng.integers(size)] = n_k  # one sequence without padding
        if form in ("list", "one"):
            lengths = [int(n) for n in lengths]
            text = f"padding_mask({lengths}, {n_k})"
        else:
            lengths = lengths.astype(np.int32 if form == "int32" else np.int64)
            text = f"padding_mask(np.array({lengths.tolist()}, dtype={lengths.dtype}), {n_k})"
        cases.append(Case(text, (lengths, n_k)))
    return cases


def _padding_variant(relation: Callable, layout: str = "keys") -> Callable:
    def padding_mask(lengths, n_k):
        lengths = np.asarray(lengths)[:, None]
        mask = relation(np.arange(n_k)[None, :], lengths)  # (B, n_k)
        if layout == "keys":
            return mask[:, None, None, :]
        return mask[:, None, :, None] if layout == "queries" else mask

    return padding_mask


_PADDING_MISTAKES = (
    Mistake(
        "inverted",
        "an inverted mask (True on the padding)",
        "True means 'may attend': the real keys j < lengths[b] are True",
        _padding_variant(lambda j, length: j >= length),
    ),
    Mistake(
        "off_by_one_includes_pad",
        "off by one: key j = lengths[b] (the first pad) is allowed",
        "positions 0..length-1 are real: use j < length, not j <= length",
        _padding_variant(lambda j, length: j <= length),
    ),
    Mistake(
        "off_by_one_drops_last",
        "off by one: the last real key (j = lengths[b] - 1) is hidden",
        "positions 0..length-1 are real: use j < length",
        _padding_variant(lambda j, length: j < length - 1),
    ),
    Mistake(
        "on_queries",
        "the padding applied to the queries axis, (B, 1, n_k, 1), instead of the keys",
        "padding hides keys: the mask varies along the last axis, shape (B, 1, 1, n_k)",
        _padding_variant(lambda j, length: j < length, layout="queries"),
    ),
    Mistake(
        "missing_singleton_axes",
        "a (B, n_k) mask without the heads and queries axes",
        "reshape to (B, 1, 1, n_k) so it broadcasts over (B, h, n_q, n_k); a (B, n_k) mask "
        "would line B up with n_q",
        _padding_variant(lambda j, length: j < length, layout="flat"),
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "causal_mask": FunctionExercise(
        5, mha.causal_mask, _causal_cases, _CAUSAL_MISTAKES,
        references=("mha.causal_mask", "mha.masks.causal_mask", "mha.torch_mha._causal",
                    "torch.nn.Transformer.generate_square_subsequent_mask"),
    ),
    "padding_mask": FunctionExercise(
        5, mha.padding_mask, _padding_cases, _PADDING_MISTAKES,
        references=("mha.padding_mask", "mha.masks.padding_mask"),
    ),
    "cross_attention_weights_shape": ShapeExercise(
        5,
        (2, 4, 7, 11),
        (
            WrongValue((2, 4, 11, 7), "keys_by_queries", "rows are queries, columns are keys: (..., h, n_q, n_k)"),
            WrongValue((2, 7, 11), "no_heads_axis", "mha.multi_head_attention returns one weight matrix per head: (..., h, n_q, n_k)"),
            WrongValue((2, 4, 7, 7), "square", "cross-attention has n_q = 7 queries but n_k = 11 keys"),
            WrongValue((2, 4, 11, 11), "square", "cross-attention has n_q = 7 queries but n_k = 11 keys"),
        ),
    ),
}  # fmt: skip
