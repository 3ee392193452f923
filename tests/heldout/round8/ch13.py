# writer D's answers, then writer H's (each file verbatim)
"""Writer D, chapter 13 (online softmax and devices): 1 correct + 3 wrong per exercise."""

ANSWERS = [
    # ------------------------------------------------------------ online_softmax_attention
    {"exercise": "online_softmax_attention", "kind": "correct",
     "idea": "running log-sum-exp style state kept as (max, sum, acc); -inf max replaced by 0 for rebasing; masked blocks by an index comparison",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    dtype = np.result_type(q, k, v)
    n_q, n_k = q.shape[-2], k.shape[-2]
    scale = 1.0 / np.sqrt(q.shape[-1])
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=dtype)
    s = np.zeros((*lead, n_q, 1), dtype=dtype)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=dtype)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)  # (n_q, 1): the last key query i sees
    for lo in range(0, n_k, block_size):
        hi = min(lo + block_size, n_k)
        scores = (q @ np.swapaxes(k[..., lo:hi, :], -1, -2)) * dtype.type(scale)
        if causal:
            allowed = np.arange(lo, hi)[None, :] <= last_key  # (n_q, block)
            scores = np.where(allowed, scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=-1, keepdims=True))
        base = np.where(np.isfinite(m_new), m_new, 0.0).astype(dtype)
        p = np.exp(scores - base)
        correction = np.exp(m - base)
        s = s * correction + p.sum(axis=-1, keepdims=True)
        acc = acc * correction + p @ v[..., lo:hi, :]
        m = m_new
    safe = np.where(s > 0, s, 1.0).astype(dtype)
    return np.where(s > 0, acc / safe, 0.0).astype(dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Aligns the causal mask top-left (key j allowed when j <= i), which is only right when n_q == n_k.",
     "teacher_says": "Queries are the last n_q of the n_k positions: query i may see keys up to i + n_k - n_q, as mha.causal_mask aligns it bottom-right.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    n_q, n_k = q.shape[-2], k.shape[-2]
    run_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    run_sum = np.zeros_like(run_max)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        cols = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., cols, :], -1, -2)
        if causal:
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(run_max, scores.max(-1, keepdims=True))
        safe = np.where(np.isfinite(new_max), new_max, 0.0)
        p = np.exp(scores - safe)
        rescale = np.exp(run_max - safe)
        run_sum = run_sum * rescale + p.sum(-1, keepdims=True)
        acc = acc * rescale + p @ v[..., cols, :]
        run_max = new_max
    out = np.zeros_like(acc)
    np.divide(acc, run_sum, out=out, where=run_sum > 0)
    return out
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Subtracts the new running maximum directly, without guarding the -inf case, so a query that may attend no key (n_q > n_k, causal) gets exp(-inf - (-inf)) = NaN and a NaN output.",
     "teacher_says": "While a row's maximum is still -inf, rebase by 0 instead (np.where(np.isfinite(new_max), new_max, 0)) and give rows with a zero sum a zero output.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    n_q, n_k = q.shape[-2], k.shape[-2]
    run_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    run_sum = np.zeros_like(run_max)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        cols = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., cols, :], -1, -2)
        if causal:
            scores = np.where(cols <= rows, scores, -np.inf)
        new_max = np.maximum(run_max, scores.max(-1, keepdims=True))
        p = np.exp(scores - new_max)
        rescale = np.exp(run_max - new_max)
        run_sum = run_sum * rescale + p.sum(-1, keepdims=True)
        acc = acc * rescale + p @ v[..., cols, :]
        run_max = new_max
    return acc / run_sum
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Updates the running maximum before computing the rescale factor, so the factor is always exp(0) = 1 and the earlier blocks are never rebased when the maximum grows.",
     "teacher_says": "Compute exp(old_max - new_max) from the old maximum first, and only then overwrite the running maximum.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    n_q, n_k = q.shape[-2], k.shape[-2]
    run_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    run_sum = np.zeros_like(run_max)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        cols = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., cols, :], -1, -2)
        if causal:
            scores = np.where(cols <= rows, scores, -np.inf)
        run_max = np.maximum(run_max, scores.max(-1, keepdims=True))
        safe = np.where(np.isfinite(run_max), run_max, 0.0)
        p = np.exp(scores - safe)
        rescale = np.exp(run_max - safe)
        run_sum = run_sum * rescale + p.sum(-1, keepdims=True)
        acc = acc * rescale + p @ v[..., cols, :]
    out = np.zeros_like(acc)
    np.divide(acc, run_sum, out=out, where=run_sum > 0)
    return out
'''},
    # ------------------------------------------------------ head_parallel_all_reduce_bytes
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
     "idea": "each device's partial output has the full (B, n, d_model) shape",
     "code": '''
batch, tokens, d_model, bytes_per_number = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = batch * tokens * d_model * bytes_per_number
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Divides by the 4 devices, thinking each device's partial output holds only its share (d_model / D columns) of the output.",
     "teacher_says": "A device's heads times its rows of W^O give a full (B, n, d_model) array: every device contributes the whole shape, summed by the all-reduce.",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * (4096 // 4) * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Counts the numbers in the partial output but forgets to multiply by 2 bytes per bfloat16 number.",
     "teacher_says": "The question asks for bytes: multiply the count of numbers by 2 for bfloat16.",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Multiplies by the 4 devices, giving the total of all partial outputs instead of what each device contributes.",
     "teacher_says": "The question is per device: one partial output of B * n * d_model numbers, not the sum over the D devices.",
     "code": '''
head_parallel_all_reduce_bytes = 4 * 8 * 2048 * 4096 * 2
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
 # ---------------------------------------------------------- online_softmax_attention
 {"exercise": "online_softmax_attention", "kind": "correct",
  "idea": "running max / sum / accumulator; the shift is np.where(finite, max, 0), per-block causal mask from np.arange; final division with np.divide(where=sum > 0)",
  "code": '''
import math
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    dtype = np.result_type(q, k, v)
    q = q * (1.0 / math.sqrt(q.shape[-1]))
    n_q, n_k = q.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=dtype)
    ell = np.zeros((*lead, n_q, 1), dtype=dtype)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=dtype)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)  # query i may see keys <= this
    for start in range(0, n_k, block_size):
        stop = min(start + block_size, n_k)
        s = q @ np.swapaxes(k[..., start:stop, :], -1, -2)  # (..., n_q, block)
        if causal:
            allowed = np.arange(start, stop)[None, :] <= last_key
            s = np.where(allowed, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0).astype(dtype)
        p = np.exp(s - shift)
        carry = np.exp(m - shift)
        ell = ell * carry + p.sum(axis=-1, keepdims=True)
        acc = acc * carry + p @ v[..., start:stop, :]
        m = m_new
    out = np.zeros_like(acc)
    np.divide(acc, ell, out=out, where=ell > 0)
    return out
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness",
  "idea": "the same online softmax computed entirely in float64 (inputs upcast), so a float32 input gets a float64 result with the right values",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = np.asarray(q, dtype=np.float64) / np.sqrt(q.shape[-1])
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    n_q, n_k = q.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    run_max = np.full((*lead, n_q, 1), -np.inf)
    run_sum = np.zeros((*lead, n_q, 1))
    acc = np.zeros((*lead, n_q, v.shape[-1]))
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            scores = np.where(keys[None, :] <= rows + n_k - n_q, scores, -np.inf)
        new_max = np.maximum(run_max, scores.max(-1, keepdims=True))
        safe = np.where(np.isfinite(new_max), new_max, 0.0)
        scale = np.exp(run_max - safe)
        p = np.exp(scores - safe)
        run_sum = run_sum * scale + p.sum(-1, keepdims=True)
        acc = acc * scale + p @ v[..., keys, :]
        run_max = new_max
    safe_sum = np.where(run_sum > 0, run_sum, 1.0)
    return np.where(run_sum > 0, acc / safe_sum, 0.0)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Re-bases the running sum by exp(m - m') but forgets to re-base the accumulated output, so the result is right only when the largest score of each row is in its first block.",
  "teacher_says": "Both running sums, ell and the output o, were taken relative to the old maximum: multiply both by exp(m - m') when it grows.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    n_q, n_k = q.shape[-2], k.shape[-2]
    run_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    run_sum = np.zeros_like(run_max)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            scores = np.where(keys[None, :] <= rows + n_k - n_q, scores, -np.inf)
        new_max = np.maximum(run_max, scores.max(-1, keepdims=True))
        safe = np.where(np.isfinite(new_max), new_max, 0.0)
        p = np.exp(scores - safe)
        run_sum = run_sum * np.exp(run_max - safe) + p.sum(-1, keepdims=True)
        acc = acc + p @ v[..., keys, :]
        run_max = new_max
    out = np.zeros_like(acc)
    np.divide(acc, run_sum, out=out, where=run_sum > 0)
    return out
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Builds each block's causal mask top-left, keys <= i, forgetting the offset n_k - n_q; right when n_q == n_k, but with more keys than queries (a cache) it hides keys the queries may see.",
  "teacher_says": "Align the causal mask bottom-right as mha.causal_mask does: query i may see keys up to i + n_k - n_q.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    n_q, n_k = q.shape[-2], k.shape[-2]
    run_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    run_sum = np.zeros_like(run_max)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            scores = np.where(keys[None, :] <= rows, scores, -np.inf)
        new_max = np.maximum(run_max, scores.max(-1, keepdims=True))
        safe = np.where(np.isfinite(new_max), new_max, 0.0)
        rescale = np.exp(run_max - safe)
        p = np.exp(scores - safe)
        run_sum = run_sum * rescale + p.sum(-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        run_max = new_max
    out = np.zeros_like(acc)
    np.divide(acc, run_sum, out=out, where=run_sum > 0)
    return out
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Shifts by the running maximum even while it is still -inf, so a query that may attend no key (n_q > n_k) gets exp(-inf - (-inf)) = NaN instead of a zero output.",
  "teacher_says": "While a row has seen no allowed key, shift by 0 instead of -inf, and give rows whose sum stays 0 a zero output.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    n_q, n_k = q.shape[-2], k.shape[-2]
    run_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    run_sum = np.zeros_like(run_max)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    with np.errstate(invalid="ignore"):
        for start in range(0, n_k, block_size):
            keys = np.arange(start, min(start + block_size, n_k))
            scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
            if causal:
                scores = np.where(keys[None, :] <= rows + n_k - n_q, scores, -np.inf)
            new_max = np.maximum(run_max, scores.max(-1, keepdims=True))
            rescale = np.exp(run_max - new_max)
            p = np.exp(scores - new_max)
            run_sum = run_sum * rescale + p.sum(-1, keepdims=True)
            acc = acc * rescale + p @ v[..., keys, :]
            run_max = new_max
        return acc / run_sum
'''},
 # ------------------------------------------------------ head_parallel_all_reduce_bytes
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
  "idea": "the partial output has the full output's shape (B, n, d_model); numbers times 2 bytes",
  "code": '''
B, n, d_model, bytes_per_number = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = B * n * d_model * bytes_per_number
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
  "idea": "measured from an actual NumPy float16 array of the partial output's shape (allocates 128 MiB to read .nbytes)",
  "code": '''
import numpy as np

partial_output = np.zeros((8, 2048, 4096), dtype=np.float16)  # 2 bytes per number, like bfloat16
head_parallel_all_reduce_bytes = int(partial_output.nbytes)
del partial_output
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Divides by the D = 4 devices, thinking each device holds only a quarter of the output's features.",
  "teacher_says": "A device's heads times its rows of W^O give the full (B, n, d_model) output, a partial sum of every feature: nothing is divided by D.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Answers with what a ring all-reduce sends per device, 2 (D - 1) / D times the array, instead of the array itself.",
  "teacher_says": "The question asks for the size of the partial output each device contributes, not the traffic of a particular all-reduce algorithm.",
  "code": '''
D = 4
head_parallel_all_reduce_bytes = 2 * (D - 1) * (8 * 2048 * 4096 * 2) // D
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number (float32) instead of the 2 bytes of bfloat16.",
  "teacher_says": "bfloat16 is 16 bits, 2 bytes per number.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
