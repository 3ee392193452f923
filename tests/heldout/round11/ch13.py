# writer D's answers, then writer H's (each file verbatim)
"""Student answers for chapter 13 (The online softmax and heads across devices), writer D."""

ANSWERS = [
    # ----------------------------------------------------------- online_softmax_attention
    {"exercise": "online_softmax_attention", "kind": "correct",
     "idea": "running (max, sum, acc) per query; each block's mask from the query's last allowed key; a finite shift and a guarded division",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    dtype = np.result_type(q, k, v)
    n_q, n_k = q.shape[-2], k.shape[-2]
    scale = np.asarray(1.0 / np.sqrt(q.shape[-1]), dtype=dtype)
    q = q * scale
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=dtype)
    total = np.zeros((*lead, n_q, 1), dtype=dtype)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=dtype)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)  # (n_q, 1): last key each query sees
    for lo in range(0, n_k, block_size):
        hi = min(lo + block_size, n_k)
        s = q @ np.swapaxes(k[..., lo:hi, :], -1, -2)  # (..., n_q, block)
        if causal:
            allowed = np.arange(lo, hi)[None, :] <= last_key  # (n_q, block)
            s = np.where(allowed, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0).astype(dtype)
        old = np.exp(m - shift)  # 0 while nothing was seen (exp(-inf))
        p = np.exp(s - shift)
        total = total * old + p.sum(axis=-1, keepdims=True)
        acc = acc * old + p @ v[..., lo:hi, :]
        m = m_new
    seen = total > 0
    return np.where(seen, acc / np.where(seen, total, 1), 0).astype(dtype, copy=False)
'''},
    {"exercise": "online_softmax_attention", "kind": "robustness",
     "idea": "one query row at a time in a Python loop, in float64 whatever the input dtype (returns float64 for float32 inputs)",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    q = np.broadcast_to(q, lead + q.shape[-2:])
    k = np.broadcast_to(k, lead + k.shape[-2:])
    v = np.broadcast_to(v, lead + v.shape[-2:])
    n_q, n_k, d_k = q.shape[-2], k.shape[-2], q.shape[-1]
    out = np.zeros(lead + (n_q, v.shape[-1]))
    for i in range(n_q):
        last = i + n_k - n_q if causal else n_k - 1
        m = np.full(lead, -np.inf)
        ell = np.zeros(lead)
        o = np.zeros(lead + (v.shape[-1],))
        for lo in range(0, min(last + 1, n_k), block_size):
            hi = min(lo + block_size, last + 1)
            s = np.einsum("...d,...jd->...j", q[..., i, :], k[..., lo:hi, :]) / np.sqrt(d_k)
            m_new = np.maximum(m, s.max(axis=-1))
            rescale = np.exp(m - m_new)
            p = np.exp(s - m_new[..., None])
            ell = ell * rescale + p.sum(axis=-1)
            o = o * rescale[..., None] + np.einsum("...j,...jd->...d", p, v[..., lo:hi, :])
            m = m_new
        if last >= 0:
            out[..., i, :] = o / ell[..., None]
    return out
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Writes the block's mask with < instead of <=: each query loses its own (diagonal) key, and with n_q = n_k the first query sees no key at all.",
     "teacher_says": "Query i may attend keys 0 .. i + n_k - n_q inclusive: the comparison is keys <= i + n_k - n_q.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    running_max = np.full((*lead, n_q, 1), -np.inf, dtype=q.dtype)
    running_sum = np.zeros_like(running_max)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            scores = np.where(keys < rows + n_k - n_q, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isfinite(new_max), new_max, 0.0)
        rescale = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        running_max = new_max
    ok = running_sum > 0
    return np.where(ok, acc / np.where(ok, running_sum, 1.0), 0.0).astype(q.dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Shifts by the running maximum even while it is still -inf, so a query that may attend no key (n_q > n_k) gets exp(-inf + inf) = NaN instead of a zero output.",
     "teacher_says": "Subtract np.where(np.isfinite(new_max), new_max, 0) and divide only where the sum is above 0, so empty rows give zeros.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    running_max = np.full((*lead, n_q, 1), -np.inf, dtype=q.dtype)
    running_sum = np.zeros_like(running_max)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            scores = np.where(keys <= rows + n_k - n_q, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        with np.errstate(invalid="ignore"):
            rescale = np.exp(running_max - new_max)
            p = np.exp(scores - new_max)
        running_sum = running_sum * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        running_max = new_max
    with np.errstate(invalid="ignore", divide="ignore"):
        return acc / running_sum
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Re-bases the running output by exp(m - m') but forgets to re-base the running sum: right only when the largest score of each row is in its first block.",
     "teacher_says": "Both sums are relative to the old maximum: multiply the running sum by exp(m - m') too.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    running_max = np.full((*lead, n_q, 1), -np.inf, dtype=q.dtype)
    running_sum = np.zeros_like(running_max)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            scores = np.where(keys <= rows + n_k - n_q, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isfinite(new_max), new_max, 0.0)
        rescale = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        running_max = new_max
    ok = running_sum > 0
    return np.where(ok, acc / np.where(ok, running_sum, 1.0), 0.0).astype(q.dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Aligns the causal mask top-left (key j <= query i), forgetting the n_k - n_q offset: right for n_q = n_k, but later queries of a chunk are hidden keys they may see.",
     "teacher_says": "The new queries are the last positions: query i may see keys up to i + n_k - n_q, as mha.causal_mask aligns it.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    running_max = np.full((*lead, n_q, 1), -np.inf, dtype=q.dtype)
    running_sum = np.zeros_like(running_max)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            scores = np.where(keys <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        safe_max = np.where(np.isfinite(new_max), new_max, 0.0)
        rescale = np.exp(running_max - safe_max)
        p = np.exp(scores - safe_max)
        running_sum = running_sum * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        running_max = new_max
    ok = running_sum > 0
    return np.where(ok, acc / np.where(ok, running_sum, 1.0), 0.0).astype(q.dtype)
'''},
    # --------------------------------------------------- head_parallel_all_reduce_bytes
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
     "idea": "the partial output has the layer output's full shape (B, n, d_model); times 2 bytes",
     "code": '''
batch, tokens, d_model, bytes_per_number = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = batch * tokens * d_model * bytes_per_number
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
     "idea": "the right number, but as a float (from a product of floats), where an int is asked",
     "code": '''
head_parallel_all_reduce_bytes = 8.0 * 2048 * 4096 * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Divides by the 4 devices, thinking each device's partial output holds only its share of the features.",
     "teacher_says": "A device's heads times its rows of W^O give a full (B, n, d_model) array: only the sum of the D partials is the output, none is a slice of it.",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Answers with what a ring all-reduce sends per rank, 2 (D-1)/D S, instead of the size S of the contributed array.",
     "teacher_says": "The question is about the array each device contributes, S = B n d_model numbers, not the traffic of an algorithm.",
     "code": '''
S = 8 * 2048 * 4096 * 2
D = 4
head_parallel_all_reduce_bytes = 2 * (D - 1) * S // D
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Forgets the batch: counts one sequence of 2048 tokens instead of 8.",
     "teacher_says": "The partial output covers the whole batch, (B, n, d_model) with B = 8.",
     "code": '''
head_parallel_all_reduce_bytes = 2048 * 4096 * 2
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
    # ------------------------------------------------------------------ online_softmax_attention
    {"exercise": "online_softmax_attention", "kind": "correct",
     "idea": "running (max, sum, acc) with a finite shift, the block mask from key positions vs. each query's last allowed key, zero rows at the end",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dtype = np.result_type(q, k, v)
    scale = 1.0 / np.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf, dtype=dtype)
    ell = np.zeros((*batch, n_q, 1), dtype=dtype)
    acc = np.zeros((*batch, n_q, v.shape[-1]), dtype=dtype)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)  # (n_q, 1): query i's last visible key
    for lo in range(0, n_k, block_size):
        hi = min(lo + block_size, n_k)
        s = (q @ np.swapaxes(k[..., lo:hi, :], -1, -2)) * scale  # (..., n_q, blk)
        if causal:
            s = np.where(np.arange(lo, hi)[None, :] <= last_key, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        factor = np.exp(m - shift)
        ell = ell * factor + p.sum(axis=-1, keepdims=True)
        acc = acc * factor + p @ v[..., lo:hi, :]
        m = m_new
    safe = np.where(ell > 0, ell, 1.0)
    return np.where(ell > 0, acc / safe, 0.0).astype(dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "robustness",
     "idea": "the same online softmax but every running quantity in float64, so float32 inputs give a float64 result (the statement lets it pass with a note)",
     "code": '''
import math
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    run_max = np.full((*batch, n_q, 1), -np.inf)
    run_sum = np.zeros((*batch, n_q, 1))
    out = np.zeros((*batch, n_q, v.shape[-1]))
    rows = np.arange(n_q).reshape(n_q, 1)
    start = 0
    while start < n_k:
        stop = min(start + block_size, n_k)
        scores = q @ np.swapaxes(k[..., start:stop, :], -1, -2)
        if causal:
            cols = np.arange(start, stop).reshape(1, -1)
            scores = np.where(cols <= rows + n_k - n_q, scores, -np.inf)
        new_max = np.maximum(run_max, np.max(scores, axis=-1, keepdims=True))
        base = np.where(new_max == -np.inf, 0.0, new_max)
        weights = np.exp(scores - base)
        keep = np.exp(run_max - base)
        run_sum = keep * run_sum + weights.sum(-1, keepdims=True)
        out = keep * out + weights @ v[..., start:stop, :]
        run_max = new_max
        start = stop
    result = np.zeros_like(out)
    np.divide(out, run_sum, out=result, where=run_sum > 0)
    return result
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Builds the block's causal mask top-left, key j <= query i, forgetting the offset n_k - n_q; right only when n_q == n_k.",
     "teacher_says": "The queries are the last n_q positions: query i may see keys up to i + n_k - n_q (bottom-right, as mha.causal_mask aligns it).",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys[None, :] <= rows, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        r = np.exp(m - shift)
        ell = ell * r + p.sum(-1, keepdims=True)
        acc = acc * r + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, acc / np.where(ell > 0, ell, 1), 0).astype(q.dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Masks a hidden key by setting its score to 0 instead of -inf, so the hidden (future) keys still get weight e^(0 - m).",
     "teacher_says": "A masked score must be -inf so that its exponential is exactly 0; 0 is an ordinary score.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys[None, :] <= rows, s, 0.0)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        p = np.exp(s - m_new)
        r = np.exp(m - m_new)
        ell = ell * r + p.sum(-1, keepdims=True)
        acc = acc * r + p @ v[..., keys, :]
        m = m_new
    return (acc / ell).astype(q.dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Shifts by the running maximum even while it is still -inf, so a query that may attend no key (n_q > n_k) computes exp(-inf - (-inf)) and returns NaN instead of zeros.",
     "teacher_says": "While a row has seen no allowed key, shift by 0 instead of -inf, and give rows whose sum stays 0 a zero output.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None] + n_k - n_q
    with np.errstate(invalid="ignore", divide="ignore"):
        for start in range(0, n_k, block_size):
            keys = np.arange(start, min(start + block_size, n_k))
            s = q @ np.swapaxes(k[..., keys, :], -1, -2)
            if causal:
                s = np.where(keys[None, :] <= rows, s, -np.inf)
            m_new = np.maximum(m, s.max(-1, keepdims=True))
            p = np.exp(s - m_new)
            r = np.exp(m - m_new)
            ell = ell * r + p.sum(-1, keepdims=True)
            acc = acc * r + p @ v[..., keys, :]
            m = m_new
        return (acc / ell).astype(q.dtype)
'''},
    # ------------------------------------------------------------------ head_parallel_all_reduce_bytes
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
     "idea": "the partial output has the layer output's full shape (B, n, d_model); count its numbers times 2 bytes",
     "code": '''
batch, tokens, d_model, bytes_per_number = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = batch * tokens * d_model * bytes_per_number
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
     "idea": "the right count, but as a NumPy int64 from the size of an empty array of that shape",
     "code": '''
import numpy as np

head_parallel_all_reduce_bytes = np.int64(np.empty((8, 2048, 4096), dtype=np.float16).nbytes)
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Divides by the number of devices, as if each device's partial output held only its 8 heads' share of the features.",
     "teacher_says": "A device's heads times its rows of W^O give an array of the full output shape (B, n, d_model): no division by D.",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Answers with what a ring all-reduce sends, 2 (D-1)/D S, instead of the size S of the array each device contributes.",
     "teacher_says": "The question is about the array itself, B n d_model numbers times 2 bytes; the ring's traffic is another question.",
     "code": '''
size = 8 * 2048 * 4096 * 2
head_parallel_all_reduce_bytes = 2 * (4 - 1) * size // 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Counts the numbers in the partial output but forgets to multiply by the 2 bytes of bfloat16.",
     "teacher_says": "Bytes = numbers times bytes per number: bfloat16 takes 2.",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
