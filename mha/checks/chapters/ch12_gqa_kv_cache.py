"""Chapter 12's exercises: repeating key/value heads, grouped-query attention, one decoding
step with a KV cache, the KV cache's size, what the cache saves (a prediction), how many
sequences a cache budget holds at another number of key/value heads (an experiment)."""

from __future__ import annotations

import functools
import math

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.experiments import ExperimentExercise, Reading
from mha.checks.forms import Number, Whole
from mha.checks.inputs import F32, F64, normal, random_mask, swap_last
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue
from mha.checks.predictions import Misconception, PredictionExercise
from mha.checks.properties import equals_one_of, overwritten_by_next_call
from mha.checks.relations import Alternative, Term
from mha.checks.variants import stable_softmax
from mha.efficient import GQAParams

# --- ch12: efficient attention ------------------------------------------------------------


def _repeat_kv_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case("k (2, 2, 5, 4) with num_heads=6", (normal(rng, (2, 2, 5, 4), F64), 6)),
        Case("k (3, 4, 6) (no batch axes) with num_heads=9", (normal(rng, (3, 4, 6), F64), 9)),
        Case("k (2, 3, 4) (no batch axes) with num_heads=6", (normal(rng, (2, 3, 4), F64), 6)),
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
        "sequence_axis",
        "the heads repeated along the sequence axis, then reshaped to (..., h, n, d)",
        "np.repeat(k, h // g, axis=-3) repeats the heads; along axis -2 it repeats tokens, and a "
        "reshape does not put them back",
        lambda k, num_heads: np.repeat(k, num_heads // k.shape[-3], axis=-2).reshape(
            *k.shape[:-3], num_heads, *k.shape[-2:]
        ),
    ),
    Mistake(
        "repeated_h_times",
        "each key/value head repeated h times (g*h heads in all)",
        "each key/value head serves h/g query heads: repeat it num_heads // g times",
        lambda k, num_heads: np.repeat(k, num_heads, axis=-3),
    ),
)


# --- ch12: grouped-query attention ------------------------------------------------------


def _gqa_params(rng, d_model: int, h: int, g: int, dtype, d_k: int | None = None) -> GQAParams:
    d_k = d_model // h if d_k is None else d_k
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
        ((2,), n_q, n_k, 24, 6, 2, F64, True), ((), n_q, n_k, 16, 4, 2, F64, "blind"),
    ]:  # fmt: skip
        q = normal(rng, (*batch, nq, d_model), dtype)
        kv = normal(rng, (*batch, nk, d_model), dtype)
        params = _gqa_params(rng, d_model, h, g, dtype)
        text = f"q {q.shape}, k = v {kv.shape}, h={h}, g={g}, {np.dtype(dtype)}"
        if masked == "blind":  # a query that may attend no key
            mask = random_mask(rng, (nq, nk))
            mask[int(rng.integers(nq))] = False
            cases.append(
                Case(f"{text}, with a mask that leaves one query no key", (q, kv, kv, params, mask))
            )
        elif masked:
            mask = mha.causal_mask(nq, nk) if nq == nk else random_mask(rng, (nq, nk))
            cases.append(Case(f"{text}, with a ({nq}, {nk}) mask", (q, kv, kv, params, mask)))
        else:
            cases.append(Case(text, (q, kv, kv, params)))
    q, kv = normal(rng, (3, n_q, 16), F64), normal(rng, (3, n_k, 16), F64)
    lengths = rng.integers(1, n_k + 1, size=3)
    padding = (np.arange(n_k) < lengths[:, None])[:, None, None, :]  # (3, 1, 1, n_k)
    cases.append(Case(f"q {q.shape}, k = v {kv.shape}, h=4, g=2, float64, with a (3, 1, 1, {n_k}) "
                      "padding mask", (q, kv, kv, _gqa_params(rng, 16, 4, 2, F64), padding)))  # fmt: skip
    q, kv = normal(rng, (2, n_q, 12), F64), normal(rng, (2, n_k, 12), F64)
    params = _gqa_params(rng, 12, 4, 2, F64, d_k=5)  # d_k is not d_model / h
    cases.append(Case(f"q {q.shape}, k = v {kv.shape}, h=4, g=2, d_k=5 (h*d_k != d_model), float64",
                      (q, kv, kv, params)))  # fmt: skip
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
        d = {
            "d_k": math.sqrt(params.d_k),
            "none": 1.0,
            "d_model": math.sqrt(params.d_model),
            "d_model/g": math.sqrt(params.d_model / g),
            "d_model/h": math.sqrt(params.d_model // h),
        }[divisor]
        scores = q_heads @ swap_last(k_heads) / d  # (..., h, n_q, n_k)
        if mask is not None and mask_used:
            scores = np.where(mask, scores, -np.inf)
        weights = stable_softmax(scores)
        concat = mha.merge_heads(weights @ v_heads)  # (..., n_q, h*d_v)
        return (concat @ params.w_o if output else concat), weights

    return grouped_query_attention


_reference_grouped_query_attention = mha.efficient.grouped_query_attention


def _kv_split_into_h_heads(q, k, v, params, mask=None):
    h = params.num_heads
    heads, weights = mha.scaled_dot_product_attention(
        *(mha.split_heads(x @ w, h) for x, w in ((q, params.w_q), (k, params.w_k), (v, params.w_v))), mask
    )  # fmt: skip
    return mha.merge_heads(heads) @ params.w_o, weights


def _weights_per_kv_head(q, k, v, params, mask=None):
    out, weights = _reference_grouped_query_attention(q, k, v, params, mask)
    h, g = params.num_heads, params.num_kv_heads
    return out, weights.reshape(*weights.shape[:-3], g, h // g, *weights.shape[-2:]).mean(axis=-3)


def _merged_in_tiled_order(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
    *batch, _, n_q, d_k = q_h.shape
    k_h = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]  # (..., g, 1, n_k, d_k)
    v_h = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    grouped = q_h.reshape(*batch, g, h // g, n_q, d_k)
    heads, weights = mha.scaled_dot_product_attention(grouped, k_h, v_h, mask)
    heads = np.swapaxes(heads, -4, -3).reshape(*batch, h, n_q, -1)  # (h/g, g) order
    return mha.merge_heads(heads) @ params.w_o, weights.reshape(*batch, h, *weights.shape[-2:])


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
        "scale_by_d_model_over_g",
        "scores divided by sqrt(d_model / g) instead of sqrt(d_k)",
        "the scale is the head size, d_k = w_q.shape[1] / h, the same for queries and keys; g "
        "only says how many key/value heads there are, not how wide they are",
        _gqa_variant(divisor="d_model/g"),
    ),
    Mistake(
        "d_k_from_d_model",
        "scores divided by sqrt(d_model / h), which is d_k only when h * d_k = d_model",
        "read the head size from the weights: d_k = params.d_k (w_q.shape[1] / h)",
        _gqa_variant(divisor="d_model/h"),
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
    Mistake(
        "kv_split_into_h_heads",
        "the keys and values split into h heads, as in multi-head attention, instead of g",
        "w_k and w_v have g * d_k columns: split k and v into num_kv_heads heads, then let each "
        "serve h/g query heads",
        _kv_split_into_h_heads,
    ),
    Mistake(
        "weights_per_kv_head",
        "one weight matrix per key/value head (each group's mean) instead of one per query head",
        "the weights are (..., h, n_q, n_k): every query head has its own, even when it shares "
        "keys with others",
        _weights_per_kv_head,
    ),
    Mistake(
        "merged_in_tiled_order",
        "the heads grouped as (g, h/g) for the attention but merged back in (h/g, g) order",
        "undo the grouping in the order you made it: (..., g, h/g, n_q, d) reshaped to (..., h, n_q, d)",
        _merged_in_tiled_order,
        equals_one_of(
            {
                "the mask left out too": lambda q, k, v, params, mask=None: _merged_in_tiled_order(
                    q, k, v, params
                )
            },
            "your result is the heads merged in (h/g, g) order ({name})",
        ),
    ),
)


# --- ch12: what the cache saves (a prediction) ------------------------------------------

LARGE = {"d_model": 8192, "num_heads": 64, "num_kv_heads": 8, "d_k": 128}  # Llama 2 70B
LARGE_LAYERS, DECODED = 80, 8192  # its layers; the tokens the chapter's figure decodes


def _step_flops(t: int, *, cached: bool) -> int:
    """FLOPs of one layer of the ``LARGE`` shape producing token t's output, the chapter's
    count: the four projections of each token it projects, and one query attending t keys
    per query it computes."""
    d, h, g, d_k = LARGE["d_model"], LARGE["num_heads"], LARGE["num_kv_heads"], LARGE["d_k"]
    per_token = 2 * d * (h + 2 * g) * d_k + 2 * h * d_k * d
    attend = 4 * h * d_k * t
    return per_token + attend if cached else t * (per_token + attend)


@functools.cache
def cache_saving() -> float:
    """The FLOPs of decoding ``DECODED`` tokens without the cache over those with it."""
    steps = range(1, DECODED + 1)
    without = sum(_step_flops(t, cached=False) for t in steps)
    return without / sum(_step_flops(t, cached=True) for t in steps)


def _why_saving(ratio: float) -> str:
    return (
        f"Without the cache, step t redoes the work of t tokens, so the total is about n^2/2 "
        f"token-steps against n: a factor of about n/2 = {DECODED // 2:,}, a little more "
        f"because the attention part grows as n^3/3 against n^2 ({ratio:,.0f} over n = "
        f"{DECODED:,} tokens). 'One power of n' is a factor of n/2, not n."
    )


# --- ch12: sequences that fit in a cache budget, at another g (an experiment) ------------

CACHE_BUDGET_GIB, CACHE_TOKENS = 40, 4096  # the experiment's budget and sequence length


def sequences_that_fit(num_kv_heads: int, bytes_per_number: int = 2, tensors: int = 2) -> int:
    """How many sequences of ``CACHE_TOKENS`` tokens the KV cache of the chapter's large model
    (``LARGE_LAYERS`` layers, d_k = 128) holds in ``CACHE_BUDGET_GIB`` GiB, bfloat16."""
    per_sequence = (
        tensors * LARGE_LAYERS * CACHE_TOKENS * num_kv_heads * LARGE["d_k"] * bytes_per_number
    )
    return CACHE_BUDGET_GIB * 2**30 // per_sequence


def _why_fit(num_kv_heads: int, count: int) -> str:
    gib = 2 * LARGE_LAYERS * CACHE_TOKENS * num_kv_heads * LARGE["d_k"] * 2 / 2**30
    return (
        f"One sequence's cache is 2 x {LARGE_LAYERS} layers x {CACHE_TOKENS} tokens x "
        f"{num_kv_heads} key/value heads x {LARGE['d_k']} x 2 bytes = {gib:g} GiB, so "
        f"{CACHE_BUDGET_GIB} GiB holds {count} of them: the count grows as 1/g, which is why "
        "servers use GQA (at g = 64, multi-head attention, only 4 fit)."
    )


_FIT_READINGS = (
    Reading(
        "chapter_setting",
        "the count at the chapter's KV_HEADS = 8, not at yours",
        "run the experiment cell again after changing KV_HEADS, then read its printout",
        lambda g: sequences_that_fit(8),
    ),
    Reading(
        "gib_read",
        "the GiB of one sequence's cache, not the number of sequences",
        "the question asks how many sequences fit: the last number of the printout",
        lambda g: round(2 * LARGE_LAYERS * CACHE_TOKENS * g * LARGE["d_k"] * 2 / 2**30, 3),
    ),
    Reading(
        "keys_only",
        "a count for the keys alone (twice too many sequences)",
        "the cache holds a key and a value per token and head: run the cell as it is",
        lambda g: sequences_that_fit(g, tensors=1),
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
                    scale: bool = True, top_left: bool = False, cached_heads: str = "g"):  # fmt: skip
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
        if cached_heads == "h":  # the caches hold the keys and values repeated to h heads
            keys, values = (np.repeat(x, h // g, axis=-3) for x in (keys, values))
        return mha.merge_heads(heads) @ params.w_o, keys, values

    return decode_one_token


_reference_decode_one_token = _decode_variant()


def _decode_cache_flattened(x_t, params, cache_k, cache_v):
    """np.append without an axis: flat caches, reshaped back for the attention (scrambled when
    there are several key/value heads)."""
    h, g = params.num_heads, params.num_kv_heads
    k_t, v_t = (mha.split_heads(x_t @ w, g) for w in (params.w_k, params.w_v))
    flat_k, flat_v = np.append(cache_k, k_t), np.append(cache_v, v_t)
    keys = flat_k.reshape(*k_t.shape[:-2], -1, k_t.shape[-1])  # (..., g, t+1, d_k), out of order
    values = flat_v.reshape(*v_t.shape[:-2], -1, v_t.shape[-1])
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, flat_k, flat_v


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
    Mistake(
        "cache_repeated",
        "the caches returned with the keys and values repeated to h heads instead of the g "
        "key/value heads",
        "the cache is what grouped-query attention saves: keep g heads in it, and repeat them "
        "to h heads only for the attention of this step",
        _decode_variant(cached_heads="h"),
    ),
    Mistake(
        "cache_not_grown",
        "the caches returned as they were given, without the new token's key and value",
        "return np.concatenate([cache_k, k_new], axis=-2) (and the same for the values): the next "
        "step needs them",
        relations=("returns_argument:cache_*",),
    ),
    Mistake(
        "cache_flattened",
        "np.append without an axis, which flattens the cache into one long vector",
        "np.append(a, b) flattens both; np.concatenate([cache_k, k_new], axis=-2) appends along the tokens",
        _decode_cache_flattened,
    ),
)


_SHARED_BUFFER = Mistake(
    "shared_buffer",
    "results that are views of one buffer, which the next call overwrites",
    "return new arrays (np.concatenate makes one): a cache the caller keeps must not change "
    "when you are called again",
    detect=overwritten_by_next_call(),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "repeat_kv_heads": FunctionExercise(
        _reference_repeat_kv_heads, _repeat_kv_cases, _REPEAT_KV_MISTAKES,
        ),
    "gqa_kv_cache_bytes": NumberExercise(
        2 * 32 * 8 * 4096 * 8 * 128 * 2,
        (
            WrongValue(32 * 8 * 4096 * 8 * 128 * 2, "keys_only", "the cache holds the keys *and* the values: a factor 2", same_as=("missing:keys_and_values",)),
            WrongValue(2 * 32 * 8 * 4096 * 32 * 128 * 2, "query_heads", "the cache holds the g = 8 key/value heads, not the 32 query heads", same_as=("kv_heads:query_heads",)),
            WrongValue(2 * 8 * 4096 * 8 * 128 * 2, "one_layer", "every layer has its own cache: multiply by the 32 layers", same_as=("missing:layers",)),
            WrongValue(2 * 32 * 4096 * 8 * 128 * 2, "one_sequence", "each of the 8 sequences in the batch has its own cache", same_as=("missing:batch",)),
        ),
        terms=(Term("cache", "the cache", 1, ("keys_and_values", "layers", "batch", "tokens", "kv_heads", "d_k", "bytes")),),
        values=(("keys_and_values", 2), ("layers", 32), ("batch", 8), ("tokens", 4096), ("kv_heads", 8),
                ("d_k", 128), ("bytes", 2), ("query_heads", 32)),
        alternatives=(Alternative("bytes", "float32", 4, "4 bytes per number (float32)"),
                      Alternative("kv_heads", "query_heads", 32, "the 32 query heads")),
        integer=True,
    ),
    "grouped_query_attention": FunctionExercise(
        _reference_grouped_query_attention, _gqa_cases, _GQA_MISTAKES, ("out", "weights"),
        other_references=("mha.efficient.grouped_query_attention", "mha.efficient._grouped_attention",
                    "mha.efficient.decode_step", "torch.nn.functional.scaled_dot_product_attention"),
    ),
    "decode_one_token": FunctionExercise(
        _reference_decode_one_token, _decode_cases, _DECODE_MISTAKES, ("out", "cache_k", "cache_v"),
        measure=("second_call",), requirements=(_SHARED_BUFFER,),
        other_references=("mha.efficient.decode_step",
                    "mha.efficient.grouped_query_attention", "mha.efficient._grouped_attention",
                    "mha.efficient.KVCache.append", "mha.efficient.KVCache._append"),
    ),
    "predict_cache_saving": PredictionExercise(
        f"how many times fewer FLOPs one layer of the large model needs with the cache, over {DECODED:,} tokens",
        Number(1, 1e12, factor=1.5),
        cache_saving,
        _why_saving,
        (
            Misconception("factor_n", DECODED, f"A factor of n = {DECODED:,} counts every step without the cache as n tokens; step t reruns only the t tokens so far, n^2/2 in all."),
            Misconception("constant_factor", 2, "The saving is not a constant: without the cache, each step's work grows with t, so the total grows one power of n faster."),
            Misconception("per_step", 1, "At step 1 both cost the same, but every later step without the cache redoes all the earlier tokens."),
        ),
    ),
    "kv_heads_experiment": ExperimentExercise(
        "KV_HEADS", 8, Whole(1, 64),
        f"the number of {CACHE_TOKENS}-token sequences whose cache fits in {CACHE_BUDGET_GIB} GiB", Number(0, 1e6, within=0.5),
        sequences_that_fit, _why_fit, _FIT_READINGS,
    ),
}  # fmt: skip
