"""Chapter 12's exercises: repeating key/value heads, grouped-query attention, one decoding
step with a KV cache, the KV cache's size."""

from __future__ import annotations

import math

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.inputs import F32, F64, normal, random_mask, swap_last
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue
from mha.checks.variants import stable_softmax
from mha.efficient import GQAParams

# --- ch12: efficient attention ------------------------------------------------------------


def _repeat_kv_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case("k (2, 2, 5, 4) with num_heads=6", (normal(rng, (2, 2, 5, 4), F64), 6)),
        Case("k (3, 4, 6) (no batch axes) with num_heads=9", (normal(rng, (3, 4, 6), F64), 9)),
        Case("k (2, 3, 4, 3, 5), float32, with num_heads=8", (normal(rng, (2, 3, 4, 3, 5), F32), 8)),
        Case("k (2, 1, 5, 4) (multi-query) with num_heads=4", (normal(rng, (2, 1, 5, 4), F64), 4)),
        Case("k (1, 4, 3, 2) with num_heads=4 (as many as g)", (normal(rng, (1, 4, 3, 2), F64), 4)),
    ]  # fmt: skip


def _reference_repeat_kv_heads(k, num_heads):
    """(..., g, n, d) -> (..., h, n, d): head i is key/value head i // (h/g)."""
    return np.repeat(k, num_heads // k.shape[-3], axis=-3)


_REPEAT_KV_MISTAKES = (
    Mistake(
        "tiled",
        "the key/value heads tiled (head i gets key/value head i % g) instead of repeated",
        "query head i belongs to group i // (h/g): repeat each key/value head h/g times in a "
        "row, not the whole set of g heads h/g times over",
        lambda k, num_heads: np.concatenate([k] * (num_heads // k.shape[-3]), axis=-3),
    ),
    Mistake(
        "sequence_axis",
        "the heads repeated along the sequence axis",
        "in (..., g, n, d) the heads axis is -3; the sequence axis (-2) must keep its n tokens",
        lambda k, num_heads: np.repeat(k, num_heads // k.shape[-3], axis=-2),
    ),
    Mistake(
        "repeated_h_times",
        "each key/value head repeated h times (g*h heads in all)",
        "each key/value head serves h/g query heads: repeat it num_heads // g times",
        lambda k, num_heads: np.repeat(k, num_heads, axis=-3),
    ),
)


# --- ch12: grouped-query attention ------------------------------------------------------


def _gqa_params(rng, d_model: int, h: int, g: int, dtype) -> GQAParams:
    d_k = d_model // h
    scale = 1.5 / math.sqrt(d_model)
    return GQAParams(
        normal(rng, (d_model, h * d_k), dtype, scale), normal(rng, (d_model, g * d_k), dtype, scale),
        normal(rng, (d_model, g * d_k), dtype, scale), normal(rng, (h * d_k, d_model), dtype, scale),
        h, g,
    )  # fmt: skip


def _gqa_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    n, n_q, n_k = (int(x) for x in rng.choice(np.arange(2, 8), size=3, replace=False))
    for batch, nq, nk, d_model, h, g, dtype, masked in [
        ((2,), n, n, 16, 4, 2, F64, False), ((), n_q, n_k, 12, 6, 3, F64, False),
        ((2,), n, n, 16, 8, 1, F32, True), ((2, 2), n_q, n_k, 12, 3, 3, F64, False),
        ((2,), n_q, n_k, 24, 6, 2, F64, True),
    ]:  # fmt: skip
        q = normal(rng, (*batch, nq, d_model), dtype)
        kv = normal(rng, (*batch, nk, d_model), dtype)
        params = _gqa_params(rng, d_model, h, g, dtype)
        text = f"q {q.shape}, k = v {kv.shape}, h={h}, g={g}, {np.dtype(dtype)}"
        if masked:
            mask = mha.causal_mask(nq, nk) if nq == nk else random_mask(rng, (nq, nk))
            cases.append(Case(f"{text}, with a ({nq}, {nk}) mask", (q, kv, kv, params, mask)))
        else:
            cases.append(Case(text, (q, kv, kv, params)))
    return cases


def _gqa_variant(
    *, grouping: str = "repeat", divisor: str = "d_k", output: bool = True, mask_used: bool = True
):
    """Grouped-query attention with one thing changed; the defaults give the right answer."""

    def grouped_query_attention(q, k, v, params, mask=None):
        h, g = params.num_heads, params.num_kv_heads
        q_heads = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
        k_heads = mha.split_heads(k @ params.w_k, g)  # (..., g, n_k, d_k)
        v_heads = mha.split_heads(v @ params.w_v, g)
        if grouping == "repeat":  # query head i reads key/value head i // (h/g)
            k_heads, v_heads = (np.repeat(x, h // g, axis=-3) for x in (k_heads, v_heads))
        else:  # tiled: query head i reads key/value head i % g
            k_heads, v_heads = (np.concatenate([x] * (h // g), axis=-3) for x in (k_heads, v_heads))
        d = {"d_k": math.sqrt(params.d_k), "none": 1.0, "d_model": math.sqrt(params.d_model)}[
            divisor
        ]
        scores = q_heads @ swap_last(k_heads) / d  # (..., h, n_q, n_k)
        if mask is not None and mask_used:
            scores = np.where(mask, scores, -np.inf)
        weights = stable_softmax(scores)
        concat = mha.merge_heads(weights @ v_heads)  # (..., n_q, h*d_v)
        return (concat @ params.w_o if output else concat), weights

    return grouped_query_attention


_reference_grouped_query_attention = mha.efficient.grouped_query_attention

_GQA_MISTAKES = (
    Mistake(
        "tiled_groups",
        "query head i paired with key/value head i % g instead of i // (h/g)",
        "key/value head j serves the contiguous query heads j*h/g .. (j+1)*h/g - 1: repeat each "
        "key/value head h/g times in a row (np.repeat), do not tile the set (np.tile)",
        _gqa_variant(grouping="tile"),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide each head's scores by math.sqrt(d_k)",
        _gqa_variant(divisor="none"),
    ),
    Mistake(
        "scale_by_d_model",
        "scores divided by sqrt(d_model) instead of sqrt(d_k)",
        "each head works in d_k = w_q.shape[1] / h dimensions",
        _gqa_variant(divisor="d_model"),
    ),
    Mistake(
        "no_output_projection",
        "Concat(heads) returned without W^O",
        "finish with concat @ params.w_o",
        _gqa_variant(output=False),
    ),
    Mistake(
        "mask_ignored",
        "the mask argument ignored",
        "set the scores where mask is False to -inf before the softmax (the mask broadcasts over "
        "the heads)",
        _gqa_variant(mask_used=False),
    ),
)


# --- ch12: one decoding step with a KV cache ------------------------------------------------


def _decode_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for batch, cached, d_model, h, g, dtype in [
        ((1,), 5, 16, 4, 2, F64), ((2,), 3, 12, 6, 3, F64), ((2,), 0, 16, 4, 1, F64),
        ((1,), 4, 24, 6, 6, F32), ((), 6, 16, 8, 2, F64),
    ]:  # fmt: skip
        cached = cached + int(rng.integers(0, 3)) if cached else 0
        params = _gqa_params(rng, d_model, h, g, dtype)
        d_k = params.d_k
        x_t = normal(rng, (*batch, 1, d_model), dtype)
        cache_k = normal(rng, (*batch, g, cached, d_k), dtype)
        cache_v = normal(rng, (*batch, g, cached, d_k), dtype)
        text = f"x_t {x_t.shape}, {cached} cached tokens, h={h}, g={g}, {np.dtype(dtype)}"
        cases.append(Case(text, (x_t, params, cache_k, cache_v)))
    return cases


def _decode_variant(*, append: str = "end", sees_itself: bool = True, grouping: str = "repeat",
                    scale: bool = True, top_left: bool = False):  # fmt: skip
    """One decoding step with one thing changed; the defaults give the right answer."""

    def decode_one_token(x_t, params, cache_k, cache_v):
        h, g = params.num_heads, params.num_kv_heads
        q = mha.split_heads(x_t @ params.w_q, h)  # (..., h, 1, d_k)
        k_new = mha.split_heads(x_t @ params.w_k, g)  # (..., g, 1, d_k)
        v_new = mha.split_heads(x_t @ params.w_v, g)
        if append == "end":
            keys, values = (
                np.concatenate([cache_k, k_new], axis=-2),
                np.concatenate([cache_v, v_new], axis=-2),
            )
        else:  # the new token put before the cached ones
            keys, values = (
                np.concatenate([k_new, cache_k], axis=-2),
                np.concatenate([v_new, cache_v], axis=-2),
            )
        read_k, read_v = (keys, values) if sees_itself else (cache_k, cache_v)
        if grouping == "repeat":
            read_k, read_v = (np.repeat(x, h // g, axis=-3) for x in (read_k, read_v))
        else:
            read_k, read_v = (np.concatenate([x] * (h // g), axis=-3) for x in (read_k, read_v))
        scores = (
            q @ swap_last(read_k) / (math.sqrt(params.d_k) if scale else 1.0)
        )  # (..., h, 1, t+1)
        if top_left:
            scores = np.where(np.tril(np.ones(scores.shape[-2:], dtype=bool)), scores, -np.inf)
        heads = stable_softmax(scores) @ read_v  # (..., h, 1, d_v)
        return mha.merge_heads(heads) @ params.w_o, keys, values

    return decode_one_token


_reference_decode_one_token = _decode_variant()

_DECODE_MISTAKES = (
    Mistake(
        "does_not_see_itself",
        "the new query attends only the cached keys, not the new token's own key",
        "append the new key and value to the cache first, then attend all t + 1 of them",
        _decode_variant(sees_itself=False),
    ),
    Mistake(
        "prepended",
        "the new key and value put at the front of the cache instead of the end",
        "the cache is in token order: np.concatenate([cache_k, k_new], axis=-2)",
        _decode_variant(append="front"),
    ),
    Mistake(
        "top_left_mask",
        "a causal mask aligned top-left (np.tril), which lets the new query see only the first key",
        "the new query is the last position: it may attend every cached key, so it needs no mask "
        "(or mha.causal_mask(1, t + 1), aligned bottom-right)",
        _decode_variant(top_left=True),
    ),
    Mistake(
        "tiled_groups",
        "query head i paired with key/value head i % g instead of i // (h/g)",
        "repeat each key/value head h/g times in a row (np.repeat), do not tile the set",
        _decode_variant(grouping="tile"),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide the scores by math.sqrt(d_k)",
        _decode_variant(scale=False),
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "repeat_kv_heads": FunctionExercise(
        _reference_repeat_kv_heads, _repeat_kv_cases, _REPEAT_KV_MISTAKES,
        ),
    "gqa_kv_cache_bytes": NumberExercise(
        2 * 32 * 8 * 4096 * 8 * 128 * 2,
        (
            WrongValue(32 * 8 * 4096 * 8 * 128 * 2, "keys_only", "the cache holds the keys *and* the values: a factor 2"),
            WrongValue(2 * 32 * 8 * 4096 * 32 * 128 * 2, "query_heads", "the cache holds the g = 8 key/value heads, not the 32 query heads"),
            WrongValue(2 * 8 * 4096 * 8 * 128 * 2, "one_layer", "every layer has its own cache: multiply by the 32 layers"),
            WrongValue(2 * 32 * 4096 * 8 * 128 * 2, "one_sequence", "each of the 8 sequences in the batch has its own cache"),
        ),
    ),
    "grouped_query_attention": FunctionExercise(
        _reference_grouped_query_attention, _gqa_cases, _GQA_MISTAKES, ("out", "weights"),
        other_references=("mha.efficient.grouped_query_attention", "mha.efficient._grouped_attention",
                    "mha.efficient.decode_step", "torch.nn.functional.scaled_dot_product_attention"),
    ),
    "decode_one_token": FunctionExercise(
        _reference_decode_one_token, _decode_cases, _DECODE_MISTAKES, ("out", "cache_k", "cache_v"),
        other_references=("mha.efficient.decode_step",
                    "mha.efficient.grouped_query_attention", "mha.efficient._grouped_attention",
                    "mha.efficient.KVCache.append", "mha.efficient.KVCache._append"),
    ),
}  # fmt: skip
