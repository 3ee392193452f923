"""Chapter 13's exercises: online-softmax attention (its result and its memory), the partial
output a device contributes to an all-reduce, the peak memory of attention over whole rows (a
prediction)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

import mha
from mha.checks.core import Case
from mha.checks.forms import Number
from mha.checks.inputs import F32, F64, normal, swap_last
from mha.checks.kinds import Exercise, FunctionExercise, Mistake, NumberExercise, WrongValue
from mha.checks.predictions import Misconception, PredictionExercise, measured_in_a_fresh_process
from mha.checks.properties import equals_one_of
from mha.checks.relations import Term
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
    for batch, nq, nk, block in [
        ((2,), n_q, n_q + n_k, 3), ((), n_k, n_k, 2), ((2,), n_q + n_k, n_k, 4),
    ]:  # fmt: skip  # the queries last (a decoder's later tokens), as many, more than the keys
        q, k = normal(rng, (*batch, nq, d), F64), normal(rng, (*batch, nk, d), F64)
        v = normal(rng, (*batch, nk, d + 1), F64)
        text = f"q {q.shape}, k {k.shape}, v {v.shape}, block_size={block}, causal"
        cases.append(Case(text + (": the first queries may attend no key" if nq > nk else ""),
                          (q, k, v, block, True)))  # fmt: skip
    n = 1024 + int(rng.integers(0, 64))
    q, k, v = (normal(rng, (n, 16), F64) for _ in range(3))
    cases.append(Case(f"q, k, v of shape ({n}, 16), block_size=16, causal (memory measured)",
                      (q, k, v, 16, True)))  # fmt: skip
    return cases


def _online_variant(*, rescale_out: bool = True, rescale_sum: bool = True, inverted: bool = False,
                    scale: bool = True, drop_last: str = "", causal_mode: str = "bottom_right",
                    guard: bool = True):  # fmt: skip
    """The online softmax with one thing changed; the defaults give the right answer.

    causal_mode : the keys a query may attend when ``causal``: ``"bottom_right"`` (the book's,
        keys 0..i + n_k - n_q), ``"top_left"`` (keys 0..i), ``"strict"`` (the diagonal left
        out), ``"ignored"`` (every key)
    guard : a query that may attend no key gets zeros (else 0/0 = NaN); the chapter's loop
        has none, nor do the variants of its mistakes
    """

    def online_softmax_attention(q, k, v, block_size, causal=False):
        q = q / math.sqrt(q.shape[-1]) if scale else q
        n_q, n_k = q.shape[-2], k.shape[-2]
        last_key = np.arange(n_q)[:, None] + {"bottom_right": n_k - n_q, "top_left": 0,
                                               "strict": n_k - n_q - 1}.get(causal_mode, n_k)  # fmt: skip
        running_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)  # (..., n_q, 1)
        running_sum = np.zeros_like(running_max)
        acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)  # (..., n_q, d_v)
        stop = {"": n_k, "+1": n_k - block_size + 1, "strict": n_k - block_size}[drop_last]
        for start in range(0, stop, block_size):
            keys = slice(start, start + block_size)
            scores = q @ swap_last(k[..., keys, :])  # (..., n_q, block)
            if causal:
                allowed = np.arange(start, min(start + block_size, n_k)) <= last_key  # (n_q, block)
                scores = np.where(allowed, scores, -np.inf)
            new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
            base = np.where(np.isfinite(new_max), new_max, 0.0) if guard else new_max
            rescale = np.exp(base - running_max) if inverted else np.exp(running_max - base)
            p = np.exp(scores - base)
            running_sum = (running_sum * rescale if rescale_sum else running_sum) + p.sum(
                axis=-1, keepdims=True
            )
            acc = (acc * rescale if rescale_out else acc) + p @ v[..., keys, :]
            running_max = new_max
        if not guard:
            return acc / running_sum
        attended = running_sum > 0  # False: a query that may attend no key
        return np.where(attended, acc / np.where(attended, running_sum, 1.0), 0.0).astype(q.dtype)

    return online_softmax_attention


def _full_scores_attention(q, k, v, block_size, causal=False):
    """Right values, but the whole (n_q, n_k) score matrix held at once."""
    mask = mha.causal_mask(q.shape[-2], k.shape[-2]) if causal else None
    return mha.scaled_dot_product_attention(q, k, v, mask)[0]


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


def _blocks_averaged(q, k, v, block_size, causal=False):
    q = q / math.sqrt(q.shape[-1])
    outs = []
    for start in range(0, k.shape[-2], block_size):
        keys = slice(start, start + block_size)
        outs.append(stable_softmax(q @ swap_last(k[..., keys, :])) @ v[..., keys, :])
    return sum(outs) / len(outs)


_NEVER_REBASED = _online_variant(rescale_out=False, rescale_sum=False, guard=False)


def _also_guarded(detect: Callable | None = None, **changes: Any) -> Callable:
    """A mistake's detection (``detect``, if any), or the same mistake in a loop that guards a
    query with no key (zeros, not the chapter loop's NaN), which the unguarded variant misses."""
    guarded = equals_one_of(
        {"": _online_variant(**changes)},
        "your loop has this mistake (and gives a query that may attend no key zeros)",
    )
    return guarded if detect is None else (lambda evidence: detect(evidence) or guarded(evidence))


_ONLINE_MISTAKES = (
    Mistake(
        "no_rescale_output",
        "the running output (and perhaps the sum) not rescaled by exp(m - m') when the maximum grows",
        "when a block raises the maximum from m to m', multiply the running output (and the "
        "running sum) by exp(m - m') before adding the block",
        _online_variant(rescale_out=False, guard=False),
        _also_guarded(
            lambda evidence: (
                "the old sums are never re-based"
                if evidence.agrees_where_returned(_NEVER_REBASED)
                else None
            ),
            rescale_out=False,
        ),
    ),
    Mistake(
        "no_rescale_sum",
        "the running sum not rescaled by exp(m - m') when the maximum grows",
        "the running sum needs the same re-basing as the output: ell * exp(m - m') + sum(p)",
        _online_variant(rescale_sum=False, guard=False),
        _also_guarded(rescale_sum=False),
    ),
    Mistake(
        "rescale_inverted",
        "the old sums multiplied by exp(m' - m) instead of exp(m - m')",
        "re-basing from the old maximum m to the new m' >= m shrinks the old sums: exp(m - m') <= 1",
        _online_variant(inverted=True, guard=False),
        _also_guarded(inverted=True),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide q (or each block of scores) by math.sqrt(d_k)",
        _online_variant(scale=False, guard=False),
        _also_guarded(scale=False),
    ),
    Mistake(
        "last_block_dropped",
        "the last, shorter block of keys skipped when block_size does not divide n_k",
        "range(0, n_k, block_size) visits every key; the last slice may be shorter",
        _online_variant(drop_last="+1", guard=False),
        _also_guarded(
            equals_one_of(
                {
                    "range(0, n_k - block_size, block_size)": _online_variant(
                        drop_last="strict", guard=False
                    )
                },
                "your result leaves out the last block of keys ({name})",
            ),
            drop_last="+1",
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

_ONLINE_MISTAKES += (
    Mistake(
        "causal_ignored",
        "causal=True ignored: every query attends every key",
        "with causal=True, query i may attend keys 0..i + n_k - n_q: give the other scores of "
        "each block -inf before its maximum and its exp",
        _online_variant(causal_mode="ignored"),
    ),
    Mistake(
        "causal_top_left",
        "the causal mask aligned top-left (query i attends keys 0..i), which differs when n_q != n_k",
        "the book aligns the causal mask bottom-right: the last query is the last token and sees "
        "every key, so query i may attend keys 0..i + n_k - n_q",
        _online_variant(causal_mode="top_left"),
    ),
    Mistake(
        "causal_diagonal_excluded",
        "the causal mask without its diagonal: a query may not attend its own position",
        "a query may attend itself: key j is allowed when j <= i + n_k - n_q (<=, not <)",
        _online_variant(causal_mode="strict"),
    ),
    Mistake(
        "masked_rows_nan",
        "NaN for a query that may attend no key (its running maximum stays -inf, and "
        "exp(-inf - (-inf)) is NaN)",
        "while a query's running maximum is -inf, subtract 0 instead (np.where(np.isfinite(m), m, "
        "0)), and give it a zero output where its running sum stays 0",
        _online_variant(guard=False),
    ),
)

_HOLDS_FULL_SCORES = Mistake(
    "holds_full_scores",
    "as much memory as a whole (n_q, n_k) array kept at once: the scores, every block's result, "
    "or a mask (or its additive form) built for all the keys",
    "make everything of one block of keys from those keys alone: its scores, "
    "q @ k[..., start:stop, :].T, and its part of the mask; never a full (n_q, n_k) array",
    _full_scores_attention,
    _holds_full_scores,
)

_reference_online_softmax_attention = _online_variant()


# --- ch13: the peak memory of attention over whole rows (a prediction) ------------------

PEAK_TOKENS, PEAK_HEAD_SIZE = 2048, 64  # the largest n of the chapter's memory figure


_PEAK_SCRIPT = f"""
import numpy as np
import mha
from mha.bench.timing import peak_mib
rng = np.random.default_rng(0)
shape = ({PEAK_TOKENS}, {PEAK_HEAD_SIZE})
q, k, v = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))
peak_mib(mha.scaled_dot_product_attention, q[:8], k[:8], v[:8])  # warms the caches
print(peak_mib(mha.scaled_dot_product_attention, q, k, v)[1])  # the last line
"""


@functools.cache
def full_attention_peak_mib() -> float:
    """What the chapter's memory figure measures at its largest n: the peak MiB that
    ``mha.scaled_dot_product_attention`` allocates on one float32 head of n = 2048 queries and
    keys, measured in a fresh Python process: ``tracemalloc`` traces a whole process, and a
    grader judges several notebooks at once in threads of its own."""
    return measured_in_a_fresh_process(_PEAK_SCRIPT, "the peak memory", timeout=120)


def _one_matrix_mib() -> float:
    return 4 * PEAK_TOKENS**2 / 2**20


def _why_peak(peak: float) -> str:
    return (
        f"One (n, n) float32 array is {PEAK_TOKENS}^2 x 4 bytes = {_one_matrix_mib():g} MiB, "
        f"and the peak is {peak / _one_matrix_mib():.1f} of them: the scores stay alive through "
        "the softmax, and inside it each step makes a new (n, n) array from the one before "
        "(the shifted scores, their exponentials, the weights), so three exist at once: the "
        "scores, a step's input and its output. The online "
        "softmax holds only (n, block) arrays."
    )


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    "online_softmax_attention": FunctionExercise(
        _reference_online_softmax_attention, _online_cases, _ONLINE_MISTAKES,
        other_references=("mha.lean.tiles._online_softmax_attention", "mha.lean.tiles.attention",
                    "mha.functional.scaled_dot_product_attention", "mha._compute.attention",
                    "mha.numpy_mha.multi_head_attention", "torch.nn.functional.scaled_dot_product_attention"),
        measure=("peak_bytes",), requirements=(_HOLDS_FULL_SCORES,),
    ),
    "predict_full_attention_peak": PredictionExercise(
        f"the peak MiB of attention over whole rows, one float32 head, n = {PEAK_TOKENS}",
        Number(0, 1e6, factor=1.2),
        full_attention_peak_mib,
        _why_peak,
        (
            Misconception("one_matrix", _one_matrix_mib, "That is one (n, n) array, the scores alone; the softmax makes more of them before it frees any."),
            Misconception("scores_and_weights", lambda: 2 * _one_matrix_mib(), "That is the scores and the weights; between them the softmax's exponentials take a third array."),
            Misconception("output_only", 4 * PEAK_TOKENS * PEAK_HEAD_SIZE / 2**20, "That is the (n, d_v) output; the (n, n) scores come first, and they are 32 times as large."),
        ),
    ),
    "head_parallel_all_reduce_bytes": NumberExercise(
        8 * 2048 * 4096 * 2,
        (
            WrongValue(8 * 2048 * 4096 * 2 // 4, "split_output", "a partial output is a whole (B, n, d_model) array: the heads are split across devices, the output features are not"),
            WrongValue(8 * 2048 * 4096, "numbers_not_bytes", "that counts numbers; bfloat16 takes 2 bytes each", same_as=("missing:bytes",)),
            WrongValue(8 * 2048 * 4096 * 4, "float32", "bfloat16 takes 2 bytes per number, not 4", same_as=("doubled:bytes",)),
            WrongValue(4 * 8 * 2048 * 4096 * 2, "all_devices", "that is the 4 devices together; the question asks for one device's partial output", same_as=("extra:devices",)),
            WrongValue(2 * 3 * 8 * 2048 * 4096 * 2 // 4, "ring_traffic", "that is about what each device sends in a ring all-reduce, 2 (D-1)/D times the array; the question asks for the size of the partial output itself"),
        ),
        terms=(Term("partial", "the partial output", 1, ("batch", "n", "d_model", "bytes")),),
        values=(("batch", 8), ("n", 2048), ("d_model", 4096), ("bytes", 2), ("devices", 4)),
    ),
}  # fmt: skip
