"""Chapter 11's exercises: BERT's weights and masks in the book's conventions, Jensen-Shannon
divergence between heads, importance by ablation; a prediction (the divergence between a sink
head and a previous-token head). The checks run on small random inputs; none
needs the model. Two answers take what a wire cannot carry, made by ``prepare`` from wire-safe
inputs: BERT's state dict (from (name, array) pairs) and the ``evaluate`` function (from the
numbers that define it)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from types import MappingProxyType

import numpy as np

import mha
from mha.atlas import js_divergence
from mha.checks.core import Case
from mha.checks.forms import Number
from mha.checks.inputs import F32, F64, normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import equals_one_of
from mha.pretrained import from_bert_state_dict

# --- BERT's self-attention with mha ---------------------------------------------------------


def _bert_state(rng: np.random.Generator, d_model: int, dtype) -> tuple:
    """A BERT attention state dict as wire-safe (name, array) pairs, in (out, in) layout."""
    state = []
    for name in ("self.query", "self.key", "self.value", "output.dense"):
        state.append((f"{name}.weight", normal(rng, (d_model, d_model), dtype, d_model**-0.5)))
        state.append((f"{name}.bias", normal(rng, (d_model,), dtype, 0.3)))
    return tuple(state)


def _read_only_state(args: tuple) -> tuple:
    """The answer's arguments: the (name, array) pairs become a read-only mapping of read-only
    arrays, as the exercise promises ("do not change them")."""
    x, attention_mask, pairs, num_heads = args
    for _, array in pairs:
        array.flags.writeable = False
    return x, attention_mask, MappingProxyType(dict(pairs)), num_heads


def _attention_mask(lengths, n: int, *, left: bool = False):
    mask = np.zeros((len(lengths), n), dtype=np.int64)
    for b, length in enumerate(lengths):
        if left:
            mask[b, n - length :] = 1
        else:
            mask[b, :length] = 1
    return mask


def _bert_cases(rng: np.random.Generator) -> list[Case]:
    def case(text, lengths, n, d_model, h, dtype, *, left=False):
        x = normal(rng, (len(lengths), n, d_model), dtype)
        mask = _attention_mask(lengths, n, left=left)
        return Case(text, (x, mask, _bert_state(rng, d_model, dtype), h))

    n = int(rng.integers(5, 9))
    short = int(rng.integers(2, n))
    return [
        case(f"B=2, n={n} (one sentence padded to {short} real tokens), d_model=8, h=2", [n, short], n, 8, 2, F64),
        case("B=3, n=6, d_model=12, h=3, float32", [6, 2, int(rng.integers(3, 6))], 6, 12, 3, F32),
        case("B=2, n=4, d_model=8, h=4, padded on the left", [2, 4], 4, 8, 4, F64, left=True),
        case("B=1, n=5 with two padding tokens, d_model=6, h=1", [3], 5, 6, 1, F64),
    ]  # fmt: skip


def _reference_bert_self_attention(x, attention_mask, state, num_heads):
    params = from_bert_state_dict(state, num_heads)
    mask = (np.asarray(attention_mask) == 1)[:, None, None, :]  # (B, 1, 1, n)
    return mha.multi_head_attention(x, x, x, params, mask)


def _bert_variant(change: str):
    """BERT's self-attention with one thing changed."""

    def bert_self_attention(x, attention_mask, state, num_heads):
        params = from_bert_state_dict(state, num_heads)
        if change == "weights_not_transposed":
            params = params.map(lambda a: a.T if a.ndim == 2 else a)
        elif change == "biases_forgotten":
            params = mha.MHAParams(params.w_q, params.w_k, params.w_v, params.w_o, num_heads)
        elif change == "no_output_projection":
            eye = np.eye(params.d_model, dtype=params.w_o.dtype)
            params = mha.MHAParams(params.w_q, params.w_k, params.w_v, eye, num_heads,
                                   params.b_q, params.b_k, params.b_v)  # fmt: skip
        elif change == "output_not_transposed":
            params = dataclasses.replace(params, w_o=params.w_o.T)
        real = np.asarray(attention_mask) == (0 if change == "mask_inverted" else 1)
        if change == "mask_from_lengths":  # as many real tokens, but always at the start
            real = np.arange(real.shape[-1]) < real.sum(axis=-1, keepdims=True)
        mask = real[:, None, :, None] if change == "mask_on_queries" else real[:, None, None, :]
        return mha.multi_head_attention(x, x, x, params, None if change == "mask_ignored" else mask)

    return bert_self_attention


_BERT_MISTAKES = (
    Mistake(
        "weights_not_transposed",
        "BERT's weights used as stored, in nn.Linear's (out, in) layout",
        "nn.Linear computes x @ W.T: transpose each weight for the paper's x @ W layout "
        "(square matrices give no shape error, only wrong numbers)",
        _bert_variant("weights_not_transposed"),
    ),
    Mistake(
        "mask_inverted",
        "the padding mask with the wrong polarity (True on the padding)",
        "attention_mask is 1 for real tokens, and the book's masks are True = may attend: "
        "use attention_mask == 1",
        _bert_variant("mask_inverted"),
    ),
    Mistake(
        "mask_from_lengths",
        "a mask built from each sentence's length, which puts the padding at the end",
        "the tokenizer may pad on either side: take the mask itself, attention_mask == 1, "
        "not the count of its ones",
        _bert_variant("mask_from_lengths"),
    ),
    Mistake(
        "mask_ignored",
        "no mask: the real tokens attend to the padding too",
        "pass mask=(attention_mask == 1)[:, None, None, :] to mha.multi_head_attention",
        _bert_variant("mask_ignored"),
    ),
    Mistake(
        "output_not_transposed",
        "output.dense.weight used as stored, without the transpose (the other three are transposed)",
        "output.dense is an nn.Linear too: W^O is the transpose of its weight",
        _bert_variant("output_not_transposed"),
    ),
    Mistake(
        "mask_on_queries",
        "the padding mask on the queries axis, (B, 1, n, 1): it hides the padded queries, not the padded keys",
        "padding hides keys: (attention_mask == 1)[:, None, None, :], the keys on the last axis",
        _bert_variant("mask_on_queries"),
    ),
    Mistake(
        "biases_forgotten",
        "the four biases left out",
        "BERT's projections have biases: pass b_q, b_k, b_v and b_o to mha.MHAParams",
        _bert_variant("biases_forgotten"),
    ),
    Mistake(
        "no_output_projection",
        "the concatenated heads returned without output.dense (W^O)",
        "the attention's output is Concat(heads) W^O + b^O: output.dense is W^O",
        _bert_variant("no_output_projection"),
    ),
)


# --- the padding mask from a tokenizer's attention_mask ---------------------------------------


def _padding_cases(rng: np.random.Generator) -> list[Case]:
    def lengths(batch, n):
        drawn = rng.integers(1, n + 1, size=batch)
        drawn[rng.integers(batch)] = n  # the longest sentence sets n
        return drawn.tolist()

    n1, n2 = int(rng.integers(4, 9)), int(rng.integers(3, 8))
    return [
        Case(f"attention_mask (3, {n1}), padded on the right", (_attention_mask(lengths(3, n1), n1),)),
        Case(f"attention_mask (2, {n2}), padded on the left", (_attention_mask(lengths(2, n2), n2, left=True),)),
        Case("attention_mask (1, 4) without padding, int32",
             (_attention_mask([4], 4).astype(np.int32),)),
        Case("attention_mask (4, 3), left padding, float (1.0 / 0.0)",
             (_attention_mask(lengths(4, 3), 3, left=True).astype(np.float32),)),
    ]  # fmt: skip


def _reference_padding_mask_from_attention_mask(attention_mask):
    return (np.asarray(attention_mask) == 1)[:, None, None, :]  # (B, 1, 1, n)


def _padding_variant(change: str):
    """The book's padding mask from attention_mask, with one thing changed."""

    def padding_mask_from_attention_mask(attention_mask):
        if change.startswith("lengths_assume_right_padding"):
            lengths = np.asarray(attention_mask).sum(-1)  # a float mask gives float lengths
            if change.endswith("as ints"):
                lengths = lengths.astype(np.int64)
            return mha.padding_mask(lengths, attention_mask.shape[-1])
        if change == "argmin_length":  # the first 0 (0 when there is none): wrong both ways
            am = np.asarray(attention_mask)
            return (np.arange(am.shape[1]) < am.argmin(axis=1)[:, None])[:, None, None, :]
        real = np.asarray(attention_mask) == (0 if change == "inverted" else 1)
        if change == "no_singleton_axes":
            return real
        return real[:, None, :, None] if change == "queries_axis" else real[:, None, None, :]

    return padding_mask_from_attention_mask


_PADDING_MISTAKES = (
    Mistake(
        "inverted",
        "True on the padding (nn.MultiheadAttention's key_padding_mask polarity)",
        "the book's masks are True = may attend, and attention_mask is 1 for real tokens: "
        "attention_mask == 1",
        _padding_variant("inverted"),
    ),
    Mistake(
        "queries_axis",
        "the padding put on the queries axis, shape (B, 1, n, 1)",
        "padding hides keys: the last axis is the keys, so insert the two axes before it, "
        "[:, None, None, :]",
        _padding_variant("queries_axis"),
    ),
    Mistake(
        "no_singleton_axes",
        "shape (B, n) without the heads and queries axes",
        "a (B, n) mask broadcasts against (B, h, n_q, n_k) from the right, so its B would "
        "meet n_q: insert the axes, [:, None, None, :]",
        _padding_variant("no_singleton_axes"),
    ),
    Mistake(
        "lengths_assume_right_padding",
        "lengths counted from attention_mask, which assumes the padding is on the right",
        "a tokenizer may pad on the left; compare each entry with 1 instead of counting",
        _padding_variant("lengths_assume_right_padding"),
        equals_one_of(
            {"as ints": _padding_variant("lengths_assume_right_padding as ints")},
            "your mask is the one that counts the ones as a length",
        ),
        relations=("reversed:-1",),
    ),
    Mistake(
        "argmin_length",
        "the length taken as the position of the first 0 (argmin), which is 0 for a sentence "
        "without padding and wrong for left padding",
        "compare each entry with 1 instead of computing lengths: (attention_mask == 1)[:, None, None, :]",
        _padding_variant("argmin_length"),
    ),
)


# --- Jensen-Shannon divergence between heads -------------------------------------------------


def _attention_like(rng: np.random.Generator, shape, dtype, *, zeros: bool) -> np.ndarray:
    scores = rng.standard_normal(shape) * 1.5
    if zeros:  # a causal pattern: exact zeros above the diagonal
        n_q, n_k = shape[-2:]
        scores = np.where(np.tril(np.ones((n_q, n_k), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return (weights / weights.sum(-1, keepdims=True)).astype(dtype)


def _js_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case("weights (3, 4, 5): 3 heads, no batch axes", (_attention_like(rng, (3, 4, 5), F64, zeros=False),)),
        Case("weights (2, 4, 5, 5), causal (zeros above the diagonal)", (_attention_like(rng, (2, 4, 5, 5), F64, zeros=True),)),
        Case("weights (2, 2, 3, 6, 6), float32, causal", (_attention_like(rng, (2, 2, 3, 6, 6), F32, zeros=True),)),
        Case("weights (1, 2, 3, 4): one sequence", (_attention_like(rng, (1, 2, 3, 4), F64, zeros=False),)),
    ]  # fmt: skip


def _reference_head_js_divergence(weights):
    """(..., h, n_q, n_k) -> (h, h): mha.atlas.js_divergence over every query, dtype kept."""
    h, n_q, n_k = weights.shape[-3:]
    per_batch = np.moveaxis(weights.reshape(-1, h, n_q, n_k), 0, 1)  # (h, batch, n_q, n_k)
    flat = per_batch.reshape(1, h, -1, n_k)  # one "sequence" of every query
    return js_divergence(flat).astype(weights.dtype)


def _js_variant(change: str):
    """Divergence between heads computed wrongly in one way."""

    def head_js_divergence(weights):
        h, n_k = weights.shape[-3], weights.shape[-1]
        heads_first = weights if change == "heads_axis_not_moved" else np.moveaxis(weights, -3, 0)
        rows = heads_first.reshape(h, -1, n_k).astype(np.float64)  # (h, Q, n_k)
        if change == "averaged_before_js":
            rows = rows.mean(1, keepdims=True)
        log = np.log2 if change == "bits_not_nats" else np.log
        result = np.empty((h, h))
        with np.errstate(all="ignore"):
            for a in range(h):
                for b in range(h):
                    p, q = rows[a], rows[b]
                    if change == "kl_not_js":
                        terms = np.where(p > 0, p * log(p / q), 0.0)
                        result[a, b] = terms.sum(-1).mean()
                        continue
                    if change == "symmetric_kl":
                        kl_pq = np.where(p > 0, p * log(p / q), 0.0).sum(-1)
                        kl_qp = np.where(q > 0, q * log(q / p), 0.0).sum(-1)
                        result[a, b] = (0.5 * (kl_pq + kl_qp)).mean()
                        continue
                    m = (p + q) / 2
                    if change == "zero_log_zero_nan":
                        kl_p, kl_q = p * log(p / m), q * log(q / m)
                    else:
                        kl_p = np.where(p > 0, p * log(p / m), 0.0)
                        kl_q = np.where(q > 0, q * log(q / m), 0.0)
                    half = 1.0 if change == "sum_not_mean" else 0.5
                    per_query = half * (kl_p.sum(-1) + kl_q.sum(-1))
                    if change == "distance":  # scipy's jensenshannon: the square root, per query
                        per_query = np.sqrt(np.maximum(per_query, 0.0))
                    result[a, b] = per_query.mean()
        return result.astype(weights.dtype)

    return head_js_divergence


_JS_MISTAKES = (
    Mistake(
        "kl_not_js",
        "the Kullback-Leibler divergence KL(p || q) instead of Jensen-Shannon",
        "KL is not symmetric and is infinite where q = 0 < p; JS compares both with their "
        "mixture m = (p + q) / 2",
        _js_variant("kl_not_js"),
    ),
    Mistake(
        "symmetric_kl",
        "the symmetrised Kullback-Leibler divergence (KL(p || q) + KL(q || p)) / 2 instead of "
        "Jensen-Shannon",
        "compare p and q with their mixture m = (p + q) / 2, which is never 0 where p or q is not: "
        "(KL(p || m) + KL(q || m)) / 2",
        _js_variant("symmetric_kl"),
    ),
    Mistake(
        "js_distance",
        "the Jensen-Shannon distance (its square root, as scipy.spatial.distance.jensenshannon "
        "returns it) instead of the divergence",
        "scipy's jensenshannon gives the square root of the divergence: square it, or compute "
        "(KL(p || m) + KL(q || m)) / 2 yourself",
        _js_variant("distance"),
    ),
    Mistake(
        "bits_not_nats",
        "logarithms in base 2 (bits) instead of natural logarithms (nats)",
        "the exercise asks for nats: np.log, not np.log2 (in nats, JS is at most ln 2)",
        _js_variant("bits_not_nats"),
    ),
    Mistake(
        "averaged_before_js",
        "the queries' rows averaged first, then one divergence per pair of heads",
        "compare the heads query by query (each row is a distribution), then average the "
        "divergences",
        _js_variant("averaged_before_js"),
    ),
    Mistake(
        "zero_log_zero_nan",
        "0 * log(0) computed as NaN",
        "where p = 0 the term p log(p / m) is 0: np.where(p > 0, p * np.log(p / m), 0.0)",
        _js_variant("zero_log_zero_nan"),
    ),
    Mistake(
        "sum_not_mean",
        "KL(p || m) + KL(q || m) without the factor 1/2",
        "JS is the *mean* of the two divergences: (KL(p || m) + KL(q || m)) / 2",
        _js_variant("sum_not_mean"),
    ),
    Mistake(
        "heads_axis_not_moved",
        "the weights reshaped to (h, -1, n_k) without moving the heads axis first",
        "with leading axes (B, h, ...), a bare reshape mixes sequences and heads: "
        "np.moveaxis(weights, -3, 0) first, then reshape(h, -1, n_k)",
        _js_variant("heads_axis_not_moved"),
    ),
)


# --- importance by ablation --------------------------------------------------------------------


def _score_terms(rng: np.random.Generator, layers: int, heads: int) -> tuple:
    """What defines a made-up evaluate(gate) (see :func:`_score_function`): the full model's
    score (not 1, so that a relative drop differs from the drop), each head's own weight and a
    positive semi-definite matrix of interactions between heads."""
    full = float(np.round(rng.uniform(2.0, 5.0), 3))
    weights = rng.random(layers * heads)
    pairs = rng.standard_normal((layers * heads, layers * heads)) * 0.2
    return full, weights, pairs @ pairs.T


def _score_function(terms: tuple):
    """evaluate(gate) = full - w . off - off . P off with off = 1 - gate: higher with more
    heads kept, heads interacting (so removing heads one by one is not removing them
    together)."""
    full, weights, pairs = terms

    def evaluate(gate):
        off = 1.0 - np.asarray(gate, dtype=np.float64).reshape(-1)
        return float(full - weights @ off - off @ pairs @ off)

    return evaluate


def _with_evaluate(args: tuple) -> tuple:
    """The answer's arguments: the wire-safe terms become the evaluate function."""
    terms, num_layers, num_heads = args
    return _score_function(terms), num_layers, num_heads


def _ablation_cases(rng: np.random.Generator) -> list[Case]:
    sizes = [(2, 3), (int(rng.integers(3, 5)), 4), (1, int(rng.integers(4, 7))), (4, 2)]
    return [
        Case(f"num_layers={layers}, num_heads={heads}", (_score_terms(rng, layers, heads), layers, heads))
        for layers, heads in sizes
    ]  # fmt: skip


def _reference_head_ablation_scores(evaluate, num_layers, num_heads):
    full = evaluate(np.ones((num_layers, num_heads)))
    scores = np.zeros((num_layers, num_heads))
    for layer in range(num_layers):
        for head in range(num_heads):
            gate = np.ones((num_layers, num_heads))
            gate[layer, head] = 0.0
            scores[layer, head] = full - evaluate(gate)
    return scores


def _ablation_variant(change: str):
    """Importance by ablation with one thing changed."""

    def head_ablation_scores(evaluate, num_layers, num_heads):
        base = evaluate(np.ones((num_layers, num_heads)))
        scores = np.zeros((num_layers, num_heads))
        gate = np.ones((num_layers, num_heads))
        for layer in range(num_layers):
            for head in range(num_heads):
                if change == "gate_transposed":  # (num_heads, num_layers), indexed [head, layer]
                    gate = np.ones((num_heads, num_layers))
                    gate[head, layer] = 0.0
                elif change == "only_head_kept":
                    gate = np.zeros((num_layers, num_heads))
                    gate[layer, head] = 1.0
                elif change != "gate_not_reset":
                    gate = np.ones((num_layers, num_heads))
                    gate[layer, head] = 0.0
                else:
                    gate[layer, head] = 0.0
                score = evaluate(gate)
                scores[layer, head] = {
                    "sign_flipped": score - base, "score_not_drop": score,
                    "relative_drop": (base - score) / base,
                }.get(change, base - score)  # fmt: skip
        return scores

    return head_ablation_scores


_ABLATION_MISTAKES = (
    Mistake(
        "sign_flipped",
        "the score with the head removed minus the full score (importance negated)",
        "importance is what is lost: evaluate(all heads) - evaluate(without the head)",
        _ablation_variant("sign_flipped"),
    ),
    Mistake(
        "gate_not_reset",
        "the gate not reset between heads, so the heads are removed cumulatively",
        "that is a pruning curve; for each head start again from a gate of ones",
        _ablation_variant("gate_not_reset"),
    ),
    Mistake(
        "only_head_kept",
        "every head removed except the one being scored",
        "ablation removes one head and keeps the rest: a gate of ones with a single 0",
        _ablation_variant("only_head_kept"),
    ),
    Mistake(
        "gate_transposed",
        "the gate built as (num_heads, num_layers), so that evaluate removes another head",
        "evaluate takes a gate of shape (num_layers, num_heads): np.ones((num_layers, num_heads)), "
        "then gate[layer, head] = 0",
        _ablation_variant("gate_transposed"),
    ),
    Mistake(
        "relative_drop",
        "the drop divided by the full score (a relative drop)",
        "the exercise asks for how much the score drops: base - evaluate(gate), not divided by base",
        _ablation_variant("relative_drop"),
    ),
    Mistake(
        "score_not_drop",
        "the score without each head, not how much it drops",
        "importance is the drop: evaluate(all heads) - evaluate(without the head)",
        _ablation_variant("score_not_drop"),
    ),
)


# --- the registry -------------------------------------------------------------------------

# --- how many heads write to each feature -------------------------------------------------


def _heads_per_feature_cases(rng: np.random.Generator) -> list[Case]:
    def writes(shape, dtype, scales=None, offsets=None):
        x = normal(rng, shape, F64)  # (..., h, n, d)
        h = shape[-3]
        if scales is not None:
            x = x * np.asarray(scales, dtype=float).reshape(h, 1, 1)
        if offsets is not None:
            x = x + np.asarray(offsets, dtype=float).reshape(h, 1, 1)
        return x.astype(dtype)

    return [
        Case("contributions (3, 20, 6): 3 heads, 20 tokens, no batch axis", (writes((3, 20, 6), F64),)),
        Case("contributions (2, 4, 10, 8): a batch of 2, heads of spread 1, 2, 0.5, 3, float32",
             (writes((2, 4, 10, 8), F32, scales=[1, 2, 0.5, 3]),)),
        Case("contributions (3, 15, 5): head 0 adds a large constant (it varies as the others)",
             (writes((3, 15, 5), F64, offsets=[20, 0, 0]),)),
        Case("contributions (2, 1, 30, 4): one head", (writes((2, 1, 30, 4), F64),)),
    ]  # fmt: skip


def _reference_heads_per_feature(contributions):
    """The count in NumPy (mha.analysis.heads_per_feature takes torch tensors), float64."""
    return _heads_per_feature_variant()(contributions)


def _heads_per_feature_variant(change: str = "") -> Callable:
    """The count with one thing changed; ``""`` gives the right answer."""

    def heads_per_feature(contributions):
        x = np.asarray(contributions, dtype=np.float64)
        h, d = x.shape[-3], x.shape[-1]
        if change in ("per_example", "per_example_ratio"):  # (examples, h, d)
            spread = x.var(axis=-2).reshape(-1, h, d)
            if change == "per_example":
                return _participation(spread.mean(0))
            return np.mean([_participation(s) for s in spread], axis=0)
        heads_first = x if change == "heads_axis_not_moved" else np.moveaxis(x, -3, 0)
        flat = heads_first.reshape(h, -1, d)  # (h, tokens, d)
        if change == "second_moment":
            spread = (flat**2).mean(1)
        elif change == "standard_deviation":
            spread = flat.std(1)
        else:
            spread = flat.var(1)  # (h, d)
        if change == "share_of_largest":
            return spread.sum(0) / spread.max(0)
        return _participation(spread)

    return heads_per_feature


def _participation(spread: np.ndarray) -> np.ndarray:
    """(h, d) variances -> (d,): the participation ratio over the heads."""
    return spread.sum(0) ** 2 / (spread**2).sum(0)


_HEADS_PER_FEATURE_MISTAKES = (
    Mistake(
        "per_example",
        "each example's variances (over its own tokens only) averaged, instead of one variance "
        "over every token of every example",
        "the tokens are all positions of all examples: move the heads axis to the front and "
        "reshape to (h, tokens, d) before taking the variance",
        _heads_per_feature_variant("per_example"),
        equals_one_of(
            {"ratio": _heads_per_feature_variant("per_example_ratio")},
            "your result is each example's participation ratio, averaged",
        ),
    ),
    Mistake(
        "second_moment",
        "the mean square of each contribution instead of its variance: a constant counts",
        "a head that adds the same vector to every token says nothing about any of them: take "
        "the variance over the tokens, not the mean square",
        _heads_per_feature_variant("second_moment"),
    ),
    Mistake(
        "standard_deviation",
        "the participation ratio of standard deviations instead of variances",
        "s_a is the variance of head a's contribution (.var), not its standard deviation",
        _heads_per_feature_variant("standard_deviation"),
    ),
    Mistake(
        "share_of_largest",
        "the sum of the variances divided by the largest, not (sum)^2 / sum of squares",
        "the participation ratio is (sum_a s_a)^2 / sum_a s_a^2",
        _heads_per_feature_variant("share_of_largest"),
    ),
    Mistake(
        "heads_axis_not_moved",
        "the leading (batch) axis taken for the heads: reshape without moving the heads first",
        "move the heads axis to the front, np.moveaxis(x, -3, 0), then reshape to (h, -1, d)",
        _heads_per_feature_variant("heads_axis_not_moved"),
    ),
)


# --- a prediction: a sink head against a previous-token head ----------------------------------

SINK_N = 10  # [CLS], eight word pieces, [SEP]


def sink_and_previous_heads() -> tuple[np.ndarray, np.ndarray]:
    """Two hand-built heads on one sentence of ``SINK_N`` tokens, ``(1, 2, n, n)``: a sink
    (every query on [CLS], key 0) and a previous-token head (query i on key i - 1, [CLS] on
    itself); and the word queries, ``(1, n)``, all but [CLS] and [SEP]."""
    sink = np.zeros((SINK_N, SINK_N))
    sink[:, 0] = 1.0
    previous = np.eye(SINK_N, k=-1)
    previous[0, 0] = 1.0
    words = np.ones((1, SINK_N), dtype=bool)
    words[0, [0, -1]] = False
    return np.stack([sink, previous])[None], words


def sink_previous_divergence() -> float:
    """The Jensen-Shannon divergence (nats) between the two heads, over the word queries."""
    weights, words = sink_and_previous_heads()
    return float(js_divergence(weights, words)[0, 1])


def _why_sink_previous(measured: float) -> str:
    return (
        f"Where two one-hot rows point at different keys, JS is its largest value, ln 2 = "
        f"{np.log(2):.3f}; where they point at the same key, 0. The first word's previous "
        f"token is [CLS] itself, so there the two heads agree: one of the {SINK_N - 2} word "
        f"queries gives 0, and the mean is {SINK_N - 3}/{SINK_N - 2} of ln 2."
    )


EXERCISES: dict[str, Exercise] = {
    "bert_self_attention": FunctionExercise(
        _reference_bert_self_attention, _bert_cases, _BERT_MISTAKES, ("out", "weights"),
        prepare=_read_only_state,
        other_references=("mha.pretrained.from_bert_state_dict", "mha.pretrained.attention_params",
                    "mha.pretrained.attention_module"),
    ),
    "padding_mask_from_attention_mask": FunctionExercise(
        _reference_padding_mask_from_attention_mask, _padding_cases, _PADDING_MISTAKES,
        ),
    "head_js_divergence": FunctionExercise(
        _reference_head_js_divergence, _js_cases, _JS_MISTAKES,
        quantities=lambda args: {"h": args[0].shape[-3], "n_q": args[0].shape[-2], "n_k": args[0].shape[-1],
                                 "query_rows": math.prod(args[0].shape[:-3]) * args[0].shape[-2]},
        other_references=("mha.atlas.js_divergence",),
    ),
    "heads_per_feature": FunctionExercise(
        _reference_heads_per_feature, _heads_per_feature_cases, _HEADS_PER_FEATURE_MISTAKES,
        other_references=("mha.analysis.heads_per_feature",),
    ),
    "predict_sink_previous_divergence": PredictionExercise(
        "the Jensen-Shannon divergence (nats) between a sink head and a previous-token head, "
        f"over the {SINK_N - 2} word queries of a sentence of {SINK_N} tokens",
        Number(0, 10, within=0.03), sink_previous_divergence, _why_sink_previous,
        (
            Misconception("always_apart", float(np.log(2)), "ln 2 is for heads that never look at the same key; here they do once: the first word's previous token is [CLS]."),
            Misconception("in_bits", 1.0, "1 is the largest divergence in bits (log base 2); the chapter measures in nats, where it is ln 2 = 0.693."),
            Misconception("half", 0.5, "JS does not grow with how far apart the two keys are: any two different one-hot rows give the same ln 2."),
        ),
    ),
    "head_ablation_scores": FunctionExercise(
        _reference_head_ablation_scores, _ablation_cases, _ABLATION_MISTAKES,
        prepare=_with_evaluate,
        other_references=("mha.analysis.ablation_importance",),
    ),
}  # fmt: skip
