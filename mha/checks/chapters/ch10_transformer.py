"""Chapter 10's exercises: the sinusoidal encoding, rotary embeddings, a pre-LN block, the
induction score of a head; a prediction (a head of the two-head task replaced by its mean) and
an experiment (does a causal mask see the order of the tokens?)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.experiments import ExperimentExercise, Reading
from mha.checks.forms import Choice, Number
from mha.checks.inputs import F32, F64, normal, random_mask
from mha.checks.kinds import Exercise, FunctionExercise, Mistake
from mha.checks.predictions import Misconception, PredictionExercise
from mha.positions import apply_rope, sinusoidal

# --- the sinusoidal encoding -----------------------------------------------------------------


def _sinusoidal_cases(rng: np.random.Generator) -> list[Case]:
    n = int(rng.integers(5, 12))
    d_small, d_large = 2 * int(rng.integers(3, 6)), 2 * int(rng.integers(24, 49))
    return [
        Case(f"n={n}, d_model={d_small}", (n, d_small)),
        Case("n=1, d_model=6 (position 0 only)", (1, 6)),
        Case(f"n={n + 7}, d_model=4", (n + 7, 4)),
        Case(f"n={3 * n}, d_model={d_large}", (3 * n, d_large)),
    ]  # fmt: skip


def _sinusoidal_variant(
    *, interleaved: bool = True, sin_first: bool = True, exponent: str = "2i", first: int = 0
) -> Callable:
    """The encoding with one thing changed; the defaults give the right answer."""

    def sinusoidal(n, d_model):
        p = np.arange(first, first + n)[:, None]  # (n, 1)
        i = np.arange(d_model // 2)[None, :]  # (1, d_model/2), the pair
        power = {"2i": 2 * i, "i": i}.get(exponent, 2 * i)
        angles = p / 10000.0 ** (power / d_model)  # (n, d_model/2)
        if exponent == "sign":  # multiplied by 10000^(2i/d) instead of divided
            angles = p * 10000.0 ** (power / d_model)
        a, b = (np.sin(angles), np.cos(angles)) if sin_first else (np.cos(angles), np.sin(angles))
        if exponent == "column":  # column j uses 10000^(j/d): the cos columns one step off
            b = np.cos(p / 10000.0 ** ((2 * i + 1) / d_model))
        if not interleaved:
            return np.concatenate([a, b], axis=-1)
        return np.stack([a, b], axis=-1).reshape(n, d_model)

    return sinusoidal


_SINUSOIDAL_MISTAKES = (
    Mistake(
        "halves_not_interleaved",
        "all the sines first, then all the cosines, instead of alternating columns",
        "the paper interleaves: column 2i holds sin(p theta_i) and column 2i+1 cos(p theta_i); "
        "stack the two on a new last axis and reshape to (n, d_model)",
        _sinusoidal_variant(interleaved=False),
    ),
    Mistake(
        "sin_cos_swapped",
        "cos in the even columns and sin in the odd ones",
        "PE[p, 2i] = sin(...) and PE[p, 2i+1] = cos(...): row 0 is 0, 1, 0, 1, ...",
        _sinusoidal_variant(sin_first=False),
    ),
    Mistake(
        "exponent_i",
        "frequencies 10000^(-i/d_model) instead of 10000^(-2i/d_model)",
        "the exponent is 2i/d_model with i the pair's index (0 .. d_model/2 - 1), so the "
        "slowest pair turns by about 1/10000 per position",
        _sinusoidal_variant(exponent="i"),
    ),
    Mistake(
        "exponent_of_column",
        "the exponent taken from the column index j (j/d_model), so each cos column has its "
        "own frequency",
        "a sin column and the cos column after it share one frequency: for columns 2i and "
        "2i+1 use 10000^(2i/d_model)",
        _sinusoidal_variant(exponent="column"),
    ),
    Mistake(
        "exponent_sign",
        "positions multiplied by 10000^(2i/d_model) instead of divided: the frequencies grow",
        "the angle is p / 10000^(2i/d_model): the slowest pair turns by about 1/10000 per position",
        _sinusoidal_variant(exponent="sign"),
    ),
    Mistake(
        "positions_from_one",
        "positions counted from 1 instead of 0",
        "the first token is position 0: np.arange(n)",
        _sinusoidal_variant(first=1),
    ),
)


# --- rotary position embeddings --------------------------------------------------------------


def _apply_rope_cases(rng: np.random.Generator) -> list[Case]:
    start = int(rng.integers(3, 9))
    return [
        Case("x of shape (6, 8), positions None", (normal(rng, (6, 8), F64),)),
        Case(
            f"x (3, 5, 4) (3 heads), positions {start}..{start + 4} (after {start} cached tokens)",
            (normal(rng, (3, 5, 4), F64), np.arange(start, start + 5)),
        ),
        Case("x (2, 2, 4, 6), float32, positions None", (normal(rng, (2, 2, 4, 6), F32),)),
        Case("x (1, 16): one new token at position 37", (normal(rng, (1, 16), F64), np.array([37]))),
        Case(
            "x (4, 10) with positions in no particular order",
            (normal(rng, (4, 10), F64), rng.permutation(20)[:4]),
        ),
    ]  # fmt: skip


def _rope_variant(
    *, layout: str = "half", direction: int = 1, exponent: str = "2i", use_positions: bool = True
) -> Callable:
    """RoPE with one thing changed; the defaults give the right answer (rotate-half layout)."""

    def apply_rope(x, positions=None):
        n, d = x.shape[-2:]
        p = np.arange(n) if positions is None or not use_positions else np.asarray(positions)
        i = np.arange(d // 2)
        theta = (
            10000.0 ** {"2i": -2 * i / d, "i": -i / d, "over_half_d": -2 * i / (d // 2)}[exponent]
        )
        angles = p[:, None] * theta  # (n, d/2)
        cos, sin = np.cos(angles), direction * np.sin(angles)
        if layout == "first_half_only":  # the second half's update forgotten
            out = x.copy()
            out[..., : d // 2] = x[..., : d // 2] * np.cos(angles) - x[..., d // 2 :] * np.sin(
                angles
            )
            return out
        if layout == "neighbours":  # pairs (x[2i], x[2i+1]), as the RoFormer paper and GPT-J
            x1, x2 = x[..., 0::2], x[..., 1::2]
            out = np.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
            return out.reshape(x.shape).astype(x.dtype)
        double = (
            (lambda a: np.repeat(a, 2, axis=-1))
            if layout == "repeated"
            else (lambda a: np.concatenate([a, a], axis=-1))
        )
        rotated = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
        return (x * double(cos) + rotated * double(sin)).astype(x.dtype)

    return apply_rope


_APPLY_ROPE_MISTAKES = (
    Mistake(
        "neighbouring_pairs",
        "neighbouring features (x[2i], x[2i+1]) rotated together: the RoFormer/GPT-J layout, "
        "not rotate-half",
        "in the rotate-half layout feature i turns together with feature i + d/2: "
        "out = x * cos + rotate_half(x) * sin with rotate_half(x) = concat(-x2, x1)",
        _rope_variant(layout="neighbours"),
    ),
    Mistake(
        "angles_repeated_not_tiled",
        "the d/2 angles repeated element-wise (theta_0, theta_0, theta_1, ...) instead of "
        "tiled (theta_0 .. theta_{d/2-1}, theta_0 .. theta_{d/2-1})",
        "feature i and feature i + d/2 share angle i: np.concatenate([cos, cos], axis=-1), not "
        "np.repeat(cos, 2, axis=-1) (that goes with the neighbouring-pairs layout)",
        _rope_variant(layout="repeated"),
    ),
    Mistake(
        "wrong_direction",
        "each pair rotated by minus the angle",
        "a rotation by +a sends (x1, x2) to (x1 cos a - x2 sin a, x2 cos a + x1 sin a); "
        "rotate_half(x) is concat(-x2, x1), with the minus on the second half",
        _rope_variant(direction=-1),
    ),
    Mistake(
        "exponent_i",
        "frequencies 10000^(-i/d) instead of 10000^(-2i/d)",
        "theta_i = 10000^(-2i/d) for the pair i = 0 .. d/2 - 1",
        _rope_variant(exponent="i"),
    ),
    Mistake(
        "exponent_over_half_d",
        "frequencies 10000^(-2i/(d/2)) instead of 10000^(-2i/d)",
        "theta_i = 10000^(-2i/d): the exponent divides by d, the whole head size, though "
        "there are d/2 pairs",
        _rope_variant(exponent="over_half_d"),
    ),
    Mistake(
        "first_half_only",
        "only the first half of the features rotated (the second half left as it was)",
        "each pair (x_i, x_{i+d/2}) turns as a whole: the second half becomes x2 cos + x1 sin too",
        _rope_variant(layout="first_half_only"),
    ),
    Mistake(
        "positions_ignored",
        "the given positions ignored (always 0 .. n-1)",
        "use positions when they are given (a KV cache's new token sits at its true "
        "position); only None means np.arange(n)",
        _rope_variant(use_positions=False),
    ),
)


# --- a pre-LN Transformer block ----------------------------------------------------------------


def _pre_ln_block_cases(rng: np.random.Generator) -> list[Case]:
    """Wire-safe parts of a block (:func:`_block_parts` makes the modules): the attention as
    an MHAParams with biases, each LayerNorm as (weight, bias), the feed-forward network as
    (W1, b1, W2, b2) in nn.Linear's (out, in) layout. LayerNorms and biases away from 1 and 0."""

    def case(text, shape, h, dtype, mask=None):
        d_model, d_ff = shape[-1], 2 * shape[-1]
        attention = mha.init_params(d_model, h, bias=True, dtype=dtype)
        attention = attention.map(lambda a: normal(rng, a.shape, dtype, d_model**-0.5))

        def norm():
            return (1 + normal(rng, (d_model,), dtype, 0.3), normal(rng, (d_model,), dtype, 0.3))

        norm1, norm2 = norm(), norm()
        feed_forward = (
            normal(rng, (d_ff, d_model), dtype, d_model**-0.5),
            normal(rng, (d_ff,), dtype, 0.3),
            normal(rng, (d_model, d_ff), dtype, d_ff**-0.5),
            normal(rng, (d_model,), dtype, 0.3),
        )
        x = normal(rng, shape, dtype)
        args = (x, attention, norm1, feed_forward, norm2)
        return Case(text, args if mask is None else (*args, mask))

    n = int(rng.integers(4, 8))
    return [
        case(f"x (1, {n}, 8), h=2, no mask", (1, n, 8), 2, F64),
        case("x (2, 4, 12), h=3, padding mask (2, 1, 1, 4)", (2, 4, 12), 3, F64,
             mha.padding_mask([4, int(rng.integers(1, 4))], 4)),
        case(f"x ({n + 1}, 8) (no batch axis), h=4, causal mask", (n + 1, 8), 4, F64, mha.causal_mask(n + 1)),
        case("x (2, 5, 8), float32, h=2, random mask (2, 1, 5, 5)", (2, 5, 8), 2, F32,
             random_mask(rng, (2, 1, 5, 5))),
    ]  # fmt: skip


def _block_parts(args: tuple) -> tuple:
    """The answer's arguments: the block's parts as PyTorch modules, arrays as tensors (x and
    the mask share memory with the copies, so that a change in place is seen)."""
    import torch
    from torch import nn

    from mha.torch_mha import MultiHeadAttention

    x, attention, norm1, feed_forward, norm2, *mask = args
    dtype = torch.from_numpy(x).dtype

    def linear(weight, bias):
        layer = nn.Linear(weight.shape[1], weight.shape[0], dtype=dtype)
        with torch.no_grad():
            layer.weight.copy_(torch.from_numpy(weight))
            layer.bias.copy_(torch.from_numpy(bias))
        return layer

    def layer_norm(weight, bias):
        norm = nn.LayerNorm(weight.shape[0], dtype=dtype)
        with torch.no_grad():
            norm.weight.copy_(torch.from_numpy(weight))
            norm.bias.copy_(torch.from_numpy(bias))
        return norm

    w1, b1, w2, b2 = feed_forward
    parts = (
        MultiHeadAttention.from_params(attention),
        layer_norm(*norm1),
        nn.Sequential(linear(w1, b1), nn.ReLU(), linear(w2, b2)),
        layer_norm(*norm2),
    )
    return (torch.from_numpy(x), *parts, *(torch.from_numpy(m) for m in mask))


def _reference_pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    """What ``TransformerBlock(norm_first=True)`` computes, from its parts."""
    x = x + attention(norm1(x), mask=mask)[0]
    return x + feed_forward(norm2(x))


def _pre_ln_variant(change: str) -> Callable:
    """A pre-LN block's forward pass with one thing changed."""

    def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
        if change == "mask_polarity" and mask is not None:
            mask = ~mask
        if change == "mask_ignored":
            mask = None
        second_norm = norm1 if change == "one_norm_for_both" else norm2
        if change == "mask_positional":  # the mask passed where the attention expects the keys
            x = x + attention(norm1(x), mask)[0] if mask is not None else x + attention(norm1(x))[0]
            return x + feed_forward(norm2(x))
        if change == "tuple_added":
            x = x + attention(norm1(x), mask=mask)
            return x + feed_forward(norm2(x))
        if change == "parallel":
            return x + attention(norm1(x), mask=mask)[0] + feed_forward(norm2(x))
        if change == "post_ln":
            x = norm1(x + attention(x, mask=mask)[0])
            return norm2(x + feed_forward(x))
        if change.startswith("residual_from_normalised"):  # in both sub-layers, or one
            h = norm1(x)
            x = (x if change.endswith("in_feed_forward") else h) + attention(h, mask=mask)[0]
            h = norm2(x)
            return (x if change.endswith("in_attention") else h) + feed_forward(h)
        x = x + attention(norm1(x), mask=mask)[0]
        if change == "no_feed_forward_residual":
            return feed_forward(norm2(x))
        return x + feed_forward(second_norm(x))

    return pre_ln_block


_PRE_LN_BLOCK_MISTAKES = (
    Mistake(
        "post_ln",
        "the post-LN order: LayerNorm after each residual addition",
        "pre-LN normalises the *input* of each sub-layer and adds the result to the "
        "un-normalised stream: x = x + attention(norm1(x))",
        _pre_ln_variant("post_ln"),
    ),
    Mistake(
        "residual_from_normalised",
        "the residual taken from the normalised input (norm1(x) + attention(norm1(x)))",
        "the residual path must carry x itself past the sub-layer: x + attention(norm1(x))[0], "
        "so the stream is never normalised",
        _pre_ln_variant("residual_from_normalised"),
    ),
    Mistake(
        "residual_from_normalised_in_attention",
        "the attention sub-layer's residual taken from norm1(x) (the feed-forward one is right)",
        "the residual path must carry x itself past the attention: x + attention(norm1(x))[0]",
        _pre_ln_variant("residual_from_normalised_in_attention"),
    ),
    Mistake(
        "residual_from_normalised_in_feed_forward",
        "the feed-forward sub-layer's residual taken from norm2(x) (the attention one is right)",
        "the residual path must carry x itself past the feed-forward network: "
        "x + feed_forward(norm2(x))",
        _pre_ln_variant("residual_from_normalised_in_feed_forward"),
    ),
    Mistake(
        "no_feed_forward_residual",
        "the feed-forward network's output returned without adding it to the stream",
        "both sub-layers are residual: x = x + feed_forward(norm2(x))",
        _pre_ln_variant("no_feed_forward_residual"),
    ),
    Mistake(
        "one_norm_for_both",
        "norm1 used in front of the feed-forward network too",
        "each sub-layer has its own LayerNorm (its own gain and bias): norm2 before the "
        "feed-forward network",
        _pre_ln_variant("one_norm_for_both"),
    ),
    Mistake(
        "parallel_block",
        "both sub-layers reading the block's input (a parallel block) instead of one after the other",
        "the feed-forward network reads the stream after the attention's residual: "
        "x = x + attention(norm1(x)); then x + feed_forward(norm2(x))",
        _pre_ln_variant("parallel"),
    ),
    Mistake(
        "mask_positional",
        "the mask passed as the second positional argument, where the attention expects the keys",
        "the attention is called like forward(q, k=None, v=None, mask=None): pass mask=mask by name",
        _pre_ln_variant("mask_positional"),
        relations=("raised_when:mask_given",),
    ),
    Mistake(
        "tuple_added",
        "the attention's whole (out, weights) tuple added to the stream",
        "the attention returns (out, weights): add its first item, attention(...)[0]",
        _pre_ln_variant("tuple_added"),
    ),
    Mistake(
        "mask_polarity",
        "the mask inverted (read as nn.TransformerEncoderLayer's True = may not attend)",
        "this book's attention takes True = may attend: pass mask as it is",
        _pre_ln_variant("mask_polarity"),
    ),
    Mistake(
        "mask_ignored",
        "the mask not passed to the attention",
        "hand the mask on: attention(norm1(x), mask=mask); without it every token attends to "
        "the padding and to the future",
        _pre_ln_variant("mask_ignored"),
    ),
)


# --- the induction score -----------------------------------------------------------------------


def _induction_score_cases(rng: np.random.Generator) -> list[Case]:
    def weights(shape, dtype, causal):
        scores = normal(rng, shape, F64, 2.0)
        if causal:
            n = shape[-1]
            scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
        e = np.exp(scores - scores.max(-1, keepdims=True))
        return (e / e.sum(-1, keepdims=True)).astype(dtype)

    return [
        Case("weights (8, 8), causal, period 4", (weights((8, 8), F64, True), 4)),
        Case("weights (3, 10, 10) (3 heads), period 5", (weights((3, 10, 10), F64, False), 5)),
        Case("weights (2, 2, 12, 12), float32, causal, period 6",
             (weights((2, 2, 12, 12), F32, True), 6)),
        Case("weights (9, 9), period 3 (three copies)", (weights((9, 9), F64, False), 3)),
        Case("weights (4, 7, 7), causal, period 2", (weights((4, 7, 7), F64, True), 2)),
    ]  # fmt: skip


def _reference_induction_score(weights, period):
    """The induction score in NumPy, so that the check runs where torch does not (the
    website's "Run here"); equal to mha.induction.induction_score (tests/test_run_here.py)."""
    return _induction_score_variant()(weights, period)


def _induction_score_variant(
    *, key_offset: int = 1, reduce: str = "mean", swapped: bool = False, first: str = "period"
) -> Callable:
    """The induction score with one thing changed; the defaults give the right answer.
    ``first``: the first query ("period", "period - 1", or "0" with keys that wrap around)."""

    def induction_score(weights, period):
        n = weights.shape[-1]
        queries = np.arange({"period": period, "period - 1": period - 1, "0": 0}[first], n)
        keys = queries - period + key_offset
        picked = weights[..., keys, queries] if swapped else weights[..., queries, keys]
        if reduce == "sum":
            return picked.sum(-1)
        if reduce == "all_queries":
            return picked.sum(-1) / n
        return picked.mean(-1)

    return induction_score


_INDUCTION_SCORE_MISTAKES = (
    Mistake(
        "previous_occurrence",
        "the weight on the earlier copy of the current token (key i - period), not on the "
        "token after it",
        "an induction head at query i looks one step past the earlier copy, at key "
        "i - period + 1, whose token is the prediction for position i + 1",
        _induction_score_variant(key_offset=0),
    ),
    Mistake(
        "all_queries",
        "the sum divided by all n queries, the first period of them included",
        "the first period queries have no earlier copy: average over queries "
        "i = period .. n-1 only",
        _induction_score_variant(reduce="all_queries"),
    ),
    Mistake(
        "one_query_too_many",
        "the mean starting at query period - 1, one query too early (its target is key 0)",
        "the first query with an earlier copy is i = period: np.arange(period, n)",
        _induction_score_variant(first="period - 1"),
    ),
    Mistake(
        "all_queries_wrapped",
        "every query 0 .. n-1 averaged, the first ones reading keys that wrap around to the end",
        "queries before position period have no earlier copy (a negative index wraps around): "
        "average over i = period .. n-1 only",
        _induction_score_variant(first="0"),
    ),
    Mistake(
        "sum_not_mean",
        "the weights summed over the queries instead of averaged",
        "take the mean over queries i = period .. n-1, so a perfect induction head scores 1",
        _induction_score_variant(reduce="sum"),
    ),
    Mistake(
        "block_of_weights",
        "weights[..., queries, :][..., keys]: every query's weight on every target key, a "
        "block, averaged, instead of each query's weight on its own target",
        "index queries and keys together, weights[..., queries, keys], which pairs query i "
        "with key i - period + 1; two indexings in a row pick a whole block",
        lambda w, period: w[..., np.arange(period, w.shape[-1]), :][
            ..., np.arange(period, w.shape[-1]) - period + 1
        ].mean(axis=(-2, -1)),
    ),
    Mistake(
        "queries_and_keys_swapped",
        "weights[..., key, query] read instead of weights[..., query, key]",
        "rows are queries and columns keys: weights[..., i, i - period + 1]",
        _induction_score_variant(swapped=True),
    ),
)


# --- a prediction: one head of the two-head task replaced by its mean -------------------------

PAIR_VALUES, PAIR_LENGTH = 5, 6  # the section on W^O: (x_0 - x_1) mod 5, six tokens


@functools.cache
def mean_replaced_accuracy() -> float:
    """The accuracy of the chapter's two-head model (``mha.combining``, trained as the
    chapter trains it) with the head that reads x_0 replaced by its mean."""
    import torch

    from mha import combining

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the chapter trains it (and fast on a shared CPU)
    try:
        with torch.random.fork_rng():  # the reader's global generator is left as it was
            torch.manual_seed(0)
            model = combining.HeadsThenFFN(PAIR_VALUES, PAIR_LENGTH, 16, 2, 64)
            combining.train(model, steps=300, batch_size=64, seed=0)
        generator = torch.Generator().manual_seed(1)
        tokens, answers = combining.difference_task(2000, PAIR_LENGTH, PAIR_VALUES, generator)
        with torch.no_grad():
            on_x0 = model.last_query_weights(tokens).mean(0)[:, 0]  # (h,)
        return combining.accuracy(model, tokens, answers, int(on_x0.argmax()), "mean")
    finally:
        torch.set_num_threads(threads)


def _why_mean_replaced(accuracy: float) -> str:
    return (
        f"Chance is 1/{PAIR_VALUES} = {1 / PAIR_VALUES:.2f}: with the head that reads x_0 "
        "replaced by its mean, only x_1 reaches the FFN, and x_1 alone says nothing about "
        f"(x_0 - x_1) mod {PAIR_VALUES} (for every x_1 the {PAIR_VALUES} answers are equally "
        "likely). The other head is intact, but half of what the answer needs is not half of "
        "the answer: the FFN combines the two, and without one of them it can only guess."
    )


# --- an experiment: does a causal mask see the order? -----------------------------------------

ORDER_MASKS = ("none", "causal", "strict")
ORDER_N, ORDER_D_MODEL, ORDER_HEADS = 6, 16, 4  # the chapter's first experiment


def _order_mask(kind: str) -> np.ndarray | None:
    if kind == "none":
        return None
    below = -1 if kind == "strict" else 0  # strict: the keys before the query only
    return np.tril(np.ones((ORDER_N, ORDER_N), dtype=bool), below)


@functools.cache
def permutation_gap(kind: str, with_positions: bool = False) -> float:
    """The largest difference between the output for shuffled tokens and the shuffled
    output, under the mask ``kind`` (the chapter's six tokens, seed 0; ``with_positions``:
    the sinusoidal code added to the tokens at their new places, as the chapter does)."""
    params = mha.init_params(ORDER_D_MODEL, ORDER_HEADS, dtype=np.float64, seed=0)
    draws = np.random.default_rng(0)
    x = draws.standard_normal((ORDER_N, ORDER_D_MODEL))
    order = draws.permutation(ORDER_N)
    shuffled = x[order]
    if with_positions:
        code = sinusoidal(ORDER_N, ORDER_D_MODEL)
        x, shuffled = x + code, shuffled + code
    mask = _order_mask(kind)
    out, _ = mha.multi_head_attention(x, x, x, params, mask)
    out_shuffled, _ = mha.multi_head_attention(shuffled, shuffled, shuffled, params, mask)
    return float(np.abs(out_shuffled - out[order]).max())


def _why_order(kind: str, gap: float) -> str:
    if kind == "none":
        return "Without a mask, attention is permutation-equivariant: only rounding is left."
    return (
        "The mask is tied to the positions, not to the tokens: a token moved to another place "
        "sees other keys, so the shuffled tokens do not give the shuffled output. A causal "
        "mask alone tells the model something about order, without any position code (with "
        "the strict mask the first query sees no key at all, and its row of the output is "
        "zeros wherever it lands)."
    )


_ORDER_MISTAKES = (
    Reading(
        "without_mask",
        "the difference without a mask (rounding), the chapter's first number",
        "rerun the experiment cell with your MASK and read the difference it prints",
        lambda kind: permutation_gap("none"),
    ),
    Reading(
        "with_positions",
        "the difference with the sinusoidal code and no mask, the chapter's second number",
        "the experiment adds no position code: read the difference the experiment cell prints",
        lambda kind: permutation_gap("none", with_positions=True),
    ),
    Reading(
        "other_mask",
        "the difference under the other mask",
        "answer for the MASK you set, after running the cell with it",
        lambda kind: permutation_gap("strict" if kind == "causal" else "causal"),
    ),
)


# --- the registry -------------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "sinusoidal": FunctionExercise(
        sinusoidal, _sinusoidal_cases, _SINUSOIDAL_MISTAKES,
    ),
    "apply_rope": FunctionExercise(
        apply_rope, _apply_rope_cases, _APPLY_ROPE_MISTAKES,
    ),
    "pre_ln_block": FunctionExercise(
        _reference_pre_ln_block, _pre_ln_block_cases, _PRE_LN_BLOCK_MISTAKES,
        tensors=True, prepare=_block_parts,
        other_references=("mha.block.TransformerBlock",
                    "mha.block.TransformerBlock.forward", "torch.nn.TransformerEncoderLayer"),
    ),
    "induction_score": FunctionExercise(
        _reference_induction_score, _induction_score_cases, _INDUCTION_SCORE_MISTAKES,
        other_references=("mha.induction.induction_score",),
    ),
    "predict_mean_replaced_accuracy": PredictionExercise(
        "the accuracy with the head that reads x_0 replaced by its mean (chance: 0.2)",
        Number(0, 1, within=0.1), mean_replaced_accuracy, _why_mean_replaced,
        (
            Misconception("half_the_heads", 0.5, "Half the heads is not half the accuracy: the answer needs both tokens at once, so one alone gives no part of it."),
            Misconception("mean_keeps_it", 1.0, "The mean keeps only the constant part of what the head writes, the same for every sequence; what it says about each sequence's x_0 is gone."),
            Misconception("nothing_left", 0.0, "A model without the information does not get everything wrong: it guesses, and a guess among 5 answers is right a fifth of the time."),
        ),
    ),
    "mask_order_experiment": ExperimentExercise(
        "MASK", "none", Choice(ORDER_MASKS),
        "the largest difference between the output for the shuffled tokens and the shuffled "
        "output", Number(0, 100, within=0.01, zero=1e-9), permutation_gap, _why_order,
        _ORDER_MISTAKES,
    ),
}  # fmt: skip
