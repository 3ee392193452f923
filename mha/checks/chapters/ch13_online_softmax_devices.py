"""Chapter 13's exercises: online-softmax attention (its result and its memory), the partial
output a device contributes to an all-reduce."""

from __future__ import annotations

import math

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.inputs import F32, F64, normal, swap_last
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue
from mha.checks.properties import equals_one_of
from mha.checks.variants import stable_softmax

# --- ch13: online-softmax attention -------------------------------------------------------

_MEMORY_CHECKED_ABOVE = (
    2**20
)  # bytes of one (..., n_q, n_k) array: below this, memory is not judged
_MEMORY_FRACTION = 4  # the answer may hold at most 1/4 of one (..., n_q, n_k) array


def _online_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    n_q, n_k, d = (int(x) for x in rng.choice(np.arange(3, 12), size=3, replace=False))
    for batch, nq, nk, block, scale, dtype in [
        ((), n_q, 3 * n_k + 1, 4, 1.0, F64), ((2,), n_q, n_k, 1, 1.0, F64), ((2, 2), n_q, n_k, n_k + 3, 1.0, F64),
        ((2,), n_k, 4 * n_q, n_q, 1.0, F32), ((), n_q, 5 * n_k, 3, 8.0, F64),
    ]:  # fmt: skip
        q = normal(rng, (*batch, nq, d), dtype, scale)
        k = normal(rng, (*batch, nk, d), dtype, scale)
        v = normal(rng, (*batch, nk, d + 1), dtype)
        text = f"q {q.shape}, k {k.shape}, v {v.shape}, block_size={block}" + (
            ", large scores" if scale > 1 else ""
        )
        cases.append(Case(text, (q, k, v, block)))
    # scores near 0 in the first block and near 3200 in the later ones: a maximum that is not
    # kept up to date overflows exp (above 709 in float64)
    q = 40.0 + np.abs(normal(rng, (n_q, 4), F64))
    k = np.concatenate(
        [normal(rng, (3, 4), F64, 0.1), 40.0 + np.abs(normal(rng, (2 * n_k, 4), F64))]
    )
    cases.append(Case(f"q {q.shape}, k {k.shape}, block_size=3: the later blocks' scores about 3000 above "
                      "the first's", (q, k, normal(rng, (k.shape[0], 3), F64), 3)))  # fmt: skip
    n = 1024 + int(rng.integers(0, 64))
    q, k, v = (normal(rng, (n, 16), F64) for _ in range(3))
    cases.append(
        Case(f"q, k, v of shape ({n}, 16), block_size=16 (memory measured)", (q, k, v, 16))
    )
    return cases


def _online_variant(*, rescale_out: bool = True, rescale_sum: bool = True, inverted: bool = False,
                    scale: bool = True, drop_last: str = ""):  # fmt: skip
    """The online softmax with one thing changed; the defaults give the right answer."""

    def online_softmax_attention(q, k, v, block_size):
        q = q / math.sqrt(q.shape[-1]) if scale else q
        n_k = k.shape[-2]
        running_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)  # (..., n_q, 1)
        running_sum = np.zeros_like(running_max)
        acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)  # (..., n_q, d_v)
        stop = {"": n_k, "+1": n_k - block_size + 1, "strict": n_k - block_size}[drop_last]
        for start in range(0, stop, block_size):
            keys = slice(start, start + block_size)
            scores = q @ swap_last(k[..., keys, :])  # (..., n_q, block)
            new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
            rescale = np.exp(new_max - running_max) if inverted else np.exp(running_max - new_max)
            p = np.exp(scores - new_max)
            running_sum = (running_sum * rescale if rescale_sum else running_sum) + p.sum(
                axis=-1, keepdims=True
            )
            acc = (acc * rescale if rescale_out else acc) + p @ v[..., keys, :]
            running_max = new_max
        return acc / running_sum

    return online_softmax_attention


def _full_scores_attention(q, k, v, block_size):
    """Right values, but the whole (n_q, n_k) score matrix held at once."""
    return mha.scaled_dot_product_attention(q, k, v)[0]


def _holds_full_scores(evidence) -> str | None:
    """The answer's peak memory, on the large case, against one (..., n_q, n_k) array."""
    for case, got in zip(evidence.cases, evidence.got, strict=True):
        q, k = case.args[0], case.args[1]
        full = q.size // q.shape[-1] * k.shape[-2] * q.itemsize  # bytes of (..., n_q, n_k)
        peak = got.measurements.get("peak_bytes")
        if full >= _MEMORY_CHECKED_ABOVE and peak is not None and peak > full / _MEMORY_FRACTION:
            return (
                f"on {case.description} your function's memory peaked at {peak / 2**20:.1f} MiB, "
                f"while one ({q.shape[-2]}, {k.shape[-2]}) array of scores takes {full / 2**20:.1f} MiB"
            )
    return None


def _blocks_averaged(q, k, v, block_size):
    q = q / math.sqrt(q.shape[-1])
    outs = []
    for start in range(0, k.shape[-2], block_size):
        keys = slice(start, start + block_size)
        outs.append(stable_softmax(q @ swap_last(k[..., keys, :])) @ v[..., keys, :])
    return sum(outs) / len(outs)


_NEVER_REBASED = _online_variant(rescale_out=False, rescale_sum=False)

_ONLINE_MISTAKES = (
    Mistake(
        "no_rescale_output",
        "the running output (and perhaps the sum) not rescaled by exp(m - m') when the maximum grows",
        "when a block raises the maximum from m to m', multiply the running output (and the "
        "running sum) by exp(m - m') before adding the block",
        _online_variant(rescale_out=False),
        lambda evidence: (
            "the old sums are never re-based"
            if evidence.agrees_where_returned(_NEVER_REBASED)
            else None
        ),
    ),
    Mistake(
        "no_rescale_sum",
        "the running sum not rescaled by exp(m - m') when the maximum grows",
        "the running sum needs the same re-basing as the output: ell * exp(m - m') + sum(p)",
        _online_variant(rescale_sum=False),
    ),
    Mistake(
        "rescale_inverted",
        "the old sums multiplied by exp(m' - m) instead of exp(m - m')",
        "re-basing from the old maximum m to the new m' >= m shrinks the old sums: exp(m - m') <= 1",
        _online_variant(inverted=True),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide q (or each block of scores) by math.sqrt(d_k)",
        _online_variant(scale=False),
    ),
    Mistake(
        "last_block_dropped",
        "the last, shorter block of keys skipped when block_size does not divide n_k",
        "range(0, n_k, block_size) visits every key; the last slice may be shorter",
        _online_variant(drop_last="+1"),
        equals_one_of(
            {"range(0, n_k - block_size, block_size)": _online_variant(drop_last="strict")},
            "your result leaves out the last block of keys ({name})",
        ),
    ),
    Mistake(
        "fixed_maximum",
        "the first block's maximum kept for good instead of a running maximum, so exp overflows "
        "when a later block's scores are far larger",
        "keep a running maximum m: when a block raises it to m', rescale the running sums by "
        "exp(m - m') and subtract m' from the block's scores",
        relations=("overflow",),
    ),
    Mistake(
        "blocks_averaged",
        "a softmax inside each block and the blocks' outputs averaged with equal weight",
        "the blocks do not count equally: carry the running maximum and sum across blocks "
        "(the online softmax), so each key gets its weight over all n_k keys",
        _blocks_averaged,
    ),
)

_HOLDS_FULL_SCORES = Mistake(
    "holds_full_scores",
    "as much memory as the whole (n_q, n_k) score matrix (the scores, or every block's result, "
    "kept at once)",
    "compute the scores of one block of keys at a time, q @ k[..., start:stop, :].T, and never "
    "the full q @ k.T",
    _full_scores_attention,
    _holds_full_scores,
)

_reference_online_softmax_attention = _online_variant()


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "online_softmax_attention": FunctionExercise(
        _reference_online_softmax_attention, _online_cases, _ONLINE_MISTAKES,
        other_references=("mha.lean.tiles._online_softmax_attention", "mha.lean.tiles.attention",
                    "mha.functional.scaled_dot_product_attention", "mha._compute.attention",
                    "mha.numpy_mha.multi_head_attention", "torch.nn.functional.scaled_dot_product_attention"),
        measure=("peak_bytes",), requirements=(_HOLDS_FULL_SCORES,),
    ),
    "head_parallel_all_reduce_bytes": NumberExercise(
        8 * 2048 * 4096 * 2,
        (
            WrongValue(8 * 2048 * 4096 * 2 // 4, "split_output", "a partial output is a whole (B, n, d_model) array: the heads are split across devices, the output features are not"),
            WrongValue(8 * 2048 * 4096, "numbers_not_bytes", "that counts numbers; bfloat16 takes 2 bytes each"),
            WrongValue(8 * 2048 * 4096 * 4, "float32", "bfloat16 takes 2 bytes per number, not 4"),
            WrongValue(4 * 8 * 2048 * 4096 * 2, "all_devices", "that is the 4 devices together; the question asks for one device's partial output"),
            WrongValue(2 * 3 * 8 * 2048 * 4096 * 2 // 4, "ring_traffic", "that is about what each device sends in a ring all-reduce, 2 (D-1)/D times the array; the question asks for the size of the partial output itself"),
        ),
    ),
}  # fmt: skip
