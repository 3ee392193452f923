"""Chapter 1's exercises: softmax, scaled dot-product attention, the scores' standard deviation."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import mha
from mha.checks.core import F32, F64, Case, _normal, _random_mask, _swap_last
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue

# --- ch01: softmax ------------------------------------------------------------------------


def _softmax_cases(rng: np.random.Generator) -> list[Case]:
    cases = [
        Case(f"x of shape {shape}, {np.dtype(dtype)}", (_normal(rng, shape, dtype, 2.0),))
        for shape, dtype in [((4, 4), F64), ((6,), F64), ((3, 5), F32), ((2, 4, 6), F64)]
    ]
    cases.append(Case("x of shape (4, 3, 5) with axis=0", (_normal(rng, (4, 3, 5), F64), 0)))
    big = _normal(rng, (3, 5), F64, 20.0) + 1000.0
    cases.append(Case("large x (around 1000, where exp overflows)", (big,)))
    return cases


def _unstable_softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def _softmax_over(axes_of: Callable[[np.ndarray, int], Any]) -> Callable:
    def softmax(x, axis=-1):
        axes = axes_of(x, axis)
        e = np.exp(x - np.max(x, axis=axes, keepdims=True))
        return e / np.sum(e, axis=axes, keepdims=True)

    return softmax


# A softmax as a reader writes it: a slice that is all -inf (a fully masked column, when the
# softmax runs over the wrong axis) gives NaN, where mha.softmax gives zeros.
_stable_softmax = _softmax_over(lambda x, axis: axis)


def _softmax_without_keepdims(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis)


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
        _softmax_over(lambda x, axis: 0),
    ),
    Mistake(
        "ignores_axis",
        "a softmax that always uses the last axis and ignores the axis argument",
        "use the axis parameter in np.max and np.sum instead of -1",
        _softmax_over(lambda x, axis: -1),
    ),
    Mistake(
        "whole_array",
        "a softmax over the whole array instead of along one axis",
        "np.sum(e) without axis adds up every entry; pass axis=axis, keepdims=True",
        _softmax_over(lambda x, axis: None),
    ),
    Mistake(
        "missing_keepdims",
        "max and sum without keepdims=True, so they broadcast along the wrong axis",
        "np.max(x, axis=axis, keepdims=True) keeps the reduced axis (size 1) so it "
        "broadcasts back along the right axis",
        _softmax_without_keepdims,
    ),
)


# --- ch01: scaled dot-product attention ---------------------------------------------------


def _sdpa_cases(rng: np.random.Generator) -> list[Case]:
    def qkv(batch, n_q, n_k, d_k, d_v, dtype):
        return (
            _normal(rng, (*batch, n_q, d_k), dtype),
            _normal(rng, (*batch, n_k, d_k), dtype),
            _normal(rng, (*batch, n_k, d_v), dtype),
        )

    # Entries of q and k at least 20 with d_k = 4: every score exceeds 20 * 20 * 4 / 2 = 800.
    large = (
        20.0 + np.abs(_normal(rng, (3, 4), F64, 10.0)),
        20.0 + np.abs(_normal(rng, (4, 4), F64, 10.0)),
        _normal(rng, (4, 2), F64),
    )
    return [
        Case("q (3, 4), k (5, 4), v (5, 6), float64", qkv((), 3, 5, 4, 6, F64)),
        Case("batch (2,), n_q = n_k = 4, d_k = 8, float32", qkv((2,), 4, 4, 8, 8, F32)),
        Case("batch (2, 3), n_q=2, n_k=5, d_k=16, d_v=3", qkv((2, 3), 2, 5, 16, 3, F64)),
        Case(
            "batch (2,), n_q=4, n_k=6, with a (4, 6) boolean mask",
            (*qkv((2,), 4, 6, 4, 4, F64), _random_mask(rng, (4, 6))),
        ),
        Case(
            "batch (3,), n_q=3, n_k=5, float32, with a (3, 1, 5) padding-style mask",
            (*qkv((3,), 3, 5, 8, 2, F32), _random_mask(rng, (3, 1, 5))),
        ),
        Case("large q and k (every score above 800, where exp overflows)", large),
    ]


def _sdpa_variant(
    *,
    divisor: Callable[[int, int], float] = lambda d_k, d_v: math.sqrt(d_k),
    normalise: Callable[[np.ndarray], np.ndarray] = lambda s: _stable_softmax(s, axis=-1),
    mask_mode: str = "before",
) -> Callable:
    """Attention with one thing changed; the defaults give the right answer."""

    def attention(q, k, v, mask=None):
        scores = q @ _swap_last(k) / divisor(q.shape[-1], v.shape[-1])  # (..., n_q, n_k)
        if mask is not None and mask_mode == "before":
            scores = np.where(mask, scores, -np.inf)
        elif mask is not None and mask_mode == "inverted":
            scores = np.where(mask, -np.inf, scores)
        elif mask is not None and mask_mode == "multiplied":
            scores = scores * mask
        weights = normalise(scores)
        if mask is not None and mask_mode == "after":
            weights = weights * mask
        return weights @ v, weights

    return attention


def _softmax_last_two(s: np.ndarray) -> np.ndarray:
    return _softmax_over(lambda x, axis: (-2, -1))(s)


_SDPA_MISTAKES = (
    Mistake(
        "no_scaling",
        "softmax(Q K^T) V without dividing the scores by sqrt(d_k)",
        "divide the scores by math.sqrt(d_k), where d_k = q.shape[-1]",
        _sdpa_variant(divisor=lambda d_k, d_v: 1.0),
    ),
    Mistake(
        "scale_by_d_k",
        "scores divided by d_k instead of sqrt(d_k)",
        "the dot product of d_k unit-variance terms has standard deviation sqrt(d_k): "
        "divide by math.sqrt(d_k)",
        _sdpa_variant(divisor=lambda d_k, d_v: d_k),
    ),
    Mistake(
        "scale_by_d_v",
        "scores divided by sqrt(d_v) (v's size) instead of sqrt(d_k)",
        "d_k is the size of queries and keys: q.shape[-1], not v.shape[-1]",
        _sdpa_variant(divisor=lambda d_k, d_v: math.sqrt(d_v)),
    ),
    Mistake(
        "softmax_wrong_axis",
        "the softmax taken over the queries axis (-2) instead of the keys axis (-1)",
        "each query's weights over the keys must sum to 1: softmax(scores, axis=-1)",
        _sdpa_variant(normalise=lambda s: _stable_softmax(s, axis=-2)),
    ),
    Mistake(
        "softmax_whole_matrix",
        "one softmax over the whole (n_q, n_k) score matrix instead of one per row",
        "normalise each row separately: softmax(scores, axis=-1)",
        _sdpa_variant(normalise=_softmax_last_two),
    ),
    Mistake(
        "unstable_softmax",
        "a softmax without subtracting the maximum, which overflows on large scores",
        "subtract the row maximum before exp (or use your stable softmax)",
        _sdpa_variant(normalise=_unstable_softmax),
    ),
    Mistake(
        "mask_after_softmax",
        "the mask applied after the softmax (rows no longer sum to 1)",
        "mask the scores before the softmax: np.where(mask, scores, -np.inf)",
        _sdpa_variant(mask_mode="after"),
    ),
    Mistake(
        "mask_ignored",
        "the mask argument ignored",
        "when mask is not None, set the scores where mask is False to -inf before the softmax",
        _sdpa_variant(mask_mode="ignored"),
    ),
    Mistake(
        "mask_inverted",
        "the mask with inverted polarity (True taken as 'hide')",
        "in this book True means 'may attend': np.where(mask, scores, -np.inf)",
        _sdpa_variant(mask_mode="inverted"),
    ),
    Mistake(
        "mask_multiplied",
        "the scores multiplied by the mask, which sets hidden scores to 0 (exp(0) = 1 still "
        "counts)",
        "hidden scores must be -inf so that exp gives 0: np.where(mask, scores, -np.inf)",
        _sdpa_variant(mask_mode="multiplied"),
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "softmax": FunctionExercise(
        1, mha.softmax, _softmax_cases, _SOFTMAX_MISTAKES,
        references=("mha.softmax", "mha.numpy_mha.softmax", "mha.numpy_mha._softmax", "torch.softmax",
                    "torch.nn.functional.softmax", "torch.Tensor.softmax", "scipy.special.softmax"),
    ),
    "scaled_dot_product_attention": FunctionExercise(
        1, mha.scaled_dot_product_attention, _sdpa_cases, _SDPA_MISTAKES, ("out", "weights"),
        references=("mha.scaled_dot_product_attention", "mha.numpy_mha.scaled_dot_product_attention",
                    "mha.numpy_mha._attention", "mha.lean_attention.attention",
                    "torch.nn.functional.scaled_dot_product_attention"),
    ),
    "score_std": NumberExercise(
        1,
        16.0,
        (
            WrongValue(256, "variance", "256 is the variance d_k; the standard deviation is its square root"),
            WrongValue(1, "after_scaling", "1 is the std *after* dividing by sqrt(d_k); the question asks before"),
            WrongValue(0, "mean", "0 is the mean; the question asks for the standard deviation"),
        ),
        rel_tol=0.03,
    ),
}  # fmt: skip
