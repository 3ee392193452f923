"""Chapter 11's exercises: repeating key/value heads (GQA), the KV cache's size, an all-reduce's size."""

from __future__ import annotations

import numpy as np

from mha.checks.core import F32, F64, Case, _normal
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue

# --- ch11: efficient attention ------------------------------------------------------------


def _repeat_kv_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case("k (2, 2, 5, 4) with num_heads=6", (_normal(rng, (2, 2, 5, 4), F64), 6)),
        Case("k (3, 4, 6) (no batch axes) with num_heads=9", (_normal(rng, (3, 4, 6), F64), 9)),
        Case("k (2, 3, 4, 3, 5), float32, with num_heads=8", (_normal(rng, (2, 3, 4, 3, 5), F32), 8)),
        Case("k (2, 1, 5, 4) (multi-query) with num_heads=4", (_normal(rng, (2, 1, 5, 4), F64), 4)),
        Case("k (1, 4, 3, 2) with num_heads=4 (as many as g)", (_normal(rng, (1, 4, 3, 2), F64), 4)),
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


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "repeat_kv_heads": FunctionExercise(
        11, _reference_repeat_kv_heads, _repeat_kv_cases, _REPEAT_KV_MISTAKES,
        references=("mha.checks.ch11_efficient._reference_repeat_kv_heads",),
    ),
    "gqa_kv_cache_bytes": NumberExercise(
        11,
        2 * 32 * 8 * 4096 * 8 * 128 * 2,
        (
            WrongValue(32 * 8 * 4096 * 8 * 128 * 2, "keys_only", "the cache holds the keys *and* the values: a factor 2"),
            WrongValue(2 * 32 * 8 * 4096 * 32 * 128 * 2, "query_heads", "the cache holds the g = 8 key/value heads, not the 32 query heads"),
            WrongValue(2 * 8 * 4096 * 8 * 128 * 2, "one_layer", "every layer has its own cache: multiply by the 32 layers"),
            WrongValue(2 * 32 * 4096 * 8 * 128 * 2, "one_sequence", "each of the 8 sequences in the batch has its own cache"),
        ),
    ),
    "head_parallel_all_reduce_bytes": NumberExercise(
        11,
        8 * 2048 * 4096 * 2,
        (
            WrongValue(8 * 2048 * 4096 * 2 // 4, "split_output", "a partial output is a whole (B, n, d_model) array: the heads are split across devices, the output features are not"),
            WrongValue(8 * 2048 * 4096, "numbers_not_bytes", "that counts numbers; bfloat16 takes 2 bytes each"),
            WrongValue(8 * 2048 * 4096 * 4, "float32", "bfloat16 takes 2 bytes per number, not 4"),
            WrongValue(4 * 8 * 2048 * 4096 * 2, "all_devices", "that is the 4 devices together; the question asks for one device's partial output"),
        ),
    ),
}  # fmt: skip
