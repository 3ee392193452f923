"""Wrong variants of the references that several chapters' mistake tables share.

Each is a deliberately wrong (or, with its defaults, a right) version of a reference, called
like it: a softmax over other axes, attention with one thing changed, heads split or merged
without the transpose or interleaved, and the mistakes of a find-the-bug exercise whose fix
is not complete. A chapter's own variants stay in its module.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from mha.checks.inputs import swap_last
from mha.checks.kinds import Mistake

# --- softmax and attention ----------------------------------------------------------------


def softmax_over(axes_of: Callable[[np.ndarray, int], Any]) -> Callable:
    """A stable softmax over the axes that ``axes_of(x, axis)`` names (the right one: ``axis``)."""

    def softmax(x, axis=-1):
        axes = axes_of(x, axis)
        e = np.exp(x - np.max(x, axis=axes, keepdims=True))
        return e / np.sum(e, axis=axes, keepdims=True)

    return softmax


# A softmax as a reader writes it: a slice that is all -inf (a fully masked column, when the
# softmax runs over the wrong axis) gives NaN, where mha.softmax gives zeros.
stable_softmax = softmax_over(lambda x, axis: axis)


def sdpa_variant(
    *,
    divisor: Callable[[int, int, int], float] = lambda d_k, d_v, n_k: math.sqrt(d_k),
    normalise: Callable[[np.ndarray], np.ndarray] = lambda s: stable_softmax(s, axis=-1),
    mask_mode: str = "before",
    returns_scores: bool = False,
) -> Callable:
    """Attention with one thing changed; the defaults give the right answer."""

    def attention(q, k, v, mask=None):
        scores = q @ swap_last(k) / divisor(q.shape[-1], v.shape[-1], k.shape[-2])
        if mask is not None and mask_mode == "before":
            scores = np.where(mask, scores, -np.inf)
        elif mask is not None and mask_mode == "inverted":
            scores = np.where(mask, -np.inf, scores)
        elif mask is not None and mask_mode == "multiplied":
            scores = scores * mask
        weights = normalise(scores)
        if mask is not None and mask_mode == "after":
            weights = weights * mask
        if returns_scores:
            return weights @ v, scores
        return weights @ v, weights

    return attention


# --- splitting and merging heads ---------------------------------------------------------


def split_no_transpose(x, num_heads):
    """A plain reshape to (..., h, n, d): each head gets other tokens' features."""
    *batch, n, features = x.shape
    return np.reshape(x, (*batch, num_heads, n, features // num_heads))


def split_interleaved(x, num_heads):
    """Head i takes features i, i + h, i + 2h, ... instead of a block of d of them."""
    *batch, n, features = x.shape
    x = np.reshape(x, (*batch, n, features // num_heads, num_heads))  # (..., n, d, h)
    return np.moveaxis(x, (-3, -2, -1), (-2, -1, -3))  # (..., h, n, d)


def merge_no_transpose(x):
    """A plain reshape of (..., h, n, d) to (..., n, h*d): the inverse of the wrong split."""
    *batch, h, n, d = x.shape
    return np.reshape(x, (*batch, n, h * d))


def merge_interleaved(x):
    """The heads' features interleaved: the inverse of :func:`split_interleaved`."""
    *batch, h, n, d = x.shape
    return np.reshape(np.moveaxis(x, -3, -1), (*batch, n, h * d))  # (..., n, d, h) -> flat


# --- find-the-bug exercises --------------------------------------------------------------


def bug_mistakes(bugs: dict[str, str], variant) -> tuple[Mistake, ...]:
    """One mistake per set of bugs still in a find-the-bug answer, fewest first (not all)."""
    subsets = [
        frozenset(combo)
        for size in range(1, len(bugs))
        for combo in itertools.combinations(bugs, size)
    ]
    return tuple(
        Mistake(
            "+".join(sorted(subset, key=list(bugs).index)),
            "a fix that is not complete: still there, "
            + "; ".join(bugs[b] for b in bugs if b in subset),
            f"{len(bugs) - len(subset)} of the {len(bugs)} bugs are fixed; look again at "
            + " and ".join(bugs[b] for b in bugs if b in subset),
            variant(subset),
        )
        for subset in subsets
    )
