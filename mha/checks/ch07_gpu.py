"""Chapter 7's exercise: the memory taken by the attention weights."""

from __future__ import annotations

from mha.checks.kinds import Exercise, NumberExercise, WrongValue

# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "attention_weights_bytes": NumberExercise(
        7,
        4 * 16 * 8192 * 8192 * 2,
        (
            WrongValue(4 * 16 * 8192 * 8192 * 4, "float32", "float16 takes 2 bytes per number, not 4"),
            WrongValue(4 * 8192 * 8192 * 2, "one_head", "every one of the 16 heads has its own (n, n) weights"),
            WrongValue(16 * 8192 * 8192 * 2, "one_sequence", "each of the 4 sequences in the batch has its own weights"),
            WrongValue(4 * 16 * 8192 * 2, "linear_in_n", "each head holds n x n weights: every query has one per key"),
        ),
    ),
}  # fmt: skip
