# writer D's answers, then writer H's (each file verbatim)
"""Student answers for chapter 13 (The online softmax and heads across devices), writer D."""

ANSWERS = [
# ------------------------------------------------------------ online_softmax_attention
 {"exercise": "online_softmax_attention", "kind": "correct",
  "idea": "running max / sum / accumulator over key blocks; each block's causal mask from "
          "two aranges; a zero shift while the max is -inf; rows with sum 0 give zeros",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    dtype = q.dtype
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q * dtype.type(1.0 / np.sqrt(q.shape[-1]))
    lead = q.shape[:-1]
    best = np.full((*lead, 1), -np.inf, dtype=dtype)
    total = np.zeros((*lead, 1), dtype=dtype)
    acc = np.zeros((*lead, v.shape[-1]), dtype=dtype)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)  # (n_q, 1): last key each query sees
    for lo in range(0, n_k, block_size):
        hi = min(lo + block_size, n_k)
        s = q @ np.swapaxes(k[..., lo:hi, :], -1, -2)  # (..., n_q, block)
        if causal:
            allowed = np.arange(lo, hi)[None, :] <= last_key  # (n_q, block)
            s = np.where(allowed, s, -np.inf)
        new_best = np.maximum(best, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_best), new_best, 0).astype(dtype)
        scale = np.exp(best - shift)
        p = np.exp(s - shift)
        total = total * scale + p.sum(axis=-1, keepdims=True)
        acc = acc * scale + p @ v[..., lo:hi, :]
        best = new_best
    seen = total > 0
    return np.where(seen, acc / np.where(seen, total, 1), 0).astype(dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness",
  "idea": "the online softmax one query row at a time in a Python loop (batch axes "
          "flattened), scalar running max and sum in float64, cast back at the end: right "
          "values, little memory, very slow",
  "code": '''
import math
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, d_k = q.shape[-2], q.shape[-1]
    n_k, d_v = k.shape[-2], v.shape[-1]
    lead = q.shape[:-2]
    qs = q.reshape(-1, n_q, d_k).astype(np.float64)
    ks = k.reshape(-1, n_k, d_k).astype(np.float64)
    vs = v.reshape(-1, n_k, d_v).astype(np.float64)
    out = np.zeros((qs.shape[0], n_q, d_v))
    for b in range(qs.shape[0]):
        for i in range(n_q):
            stop = n_k if not causal else i + n_k - n_q + 1
            m, ell, o = -math.inf, 0.0, np.zeros(d_v)
            for lo in range(0, max(stop, 0), block_size):
                hi = min(lo + block_size, stop)
                s = ks[b, lo:hi] @ qs[b, i] / math.sqrt(d_k)
                m_new = max(m, float(s.max()))
                factor = math.exp(m - m_new) if m > -math.inf else 0.0
                p = np.exp(s - m_new)
                ell = ell * factor + float(p.sum())
                o = o * factor + p @ vs[b, lo:hi]
                m = m_new
            if ell > 0:
                out[b, i] = o / ell
    return out.reshape(*lead, n_q, d_v).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Rescales the running sum by exp(m - m') but forgets to rescale the accumulated "
             "output, so the result is wrong whenever a later block raises the maximum.",
  "teacher_says": "Both l and o are sums relative to the old maximum: re-base both by "
                  "exp(m - m') when the maximum grows.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        ell = ell * np.exp(m - shift) + p.sum(-1, keepdims=True)
        o = o + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Aligns the causal mask top-left (key j allowed when j <= i), forgetting the "
             "n_k - n_q offset; right only when n_q == n_k.",
  "teacher_says": "The queries are the last n_q positions: query i may attend keys up to "
                  "i + n_k - n_q, as mha.causal_mask aligns it bottom-right.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        factor = np.exp(m - shift)
        p = np.exp(s - shift)
        ell = ell * factor + p.sum(-1, keepdims=True)
        o = o * factor + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Adds the causal mask to blocked_attention but keeps subtracting the raw running "
             "maximum and dividing by the sum unguarded: a query with no allowed key "
             "(n_q > n_k) computes -inf - (-inf) and returns NaN.",
  "teacher_says": "While a row's maximum is still -inf, shift by 0 instead, and give rows "
                  "whose sum stays 0 a zero output.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        for start in range(0, n_k, block_size):
            keys = np.arange(start, min(start + block_size, n_k))
            s = q @ np.swapaxes(k[..., keys, :], -1, -2)
            if causal:
                s = np.where(keys <= rows + n_k - n_q, s, -np.inf)
            m_new = np.maximum(m, s.max(-1, keepdims=True))
            factor = np.exp(m - m_new)
            p = np.exp(s - m_new)
            ell = ell * factor + p.sum(-1, keepdims=True)
            o = o * factor + p @ v[..., keys, :]
            m = m_new
        return (o / ell).astype(q.dtype)
'''},
# ------------------------------------------------------ head_parallel_all_reduce_bytes
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
  "idea": "each device's partial output has the full (B, n, d_model) shape: B*n*d_model*2",
  "code": '''
batch, tokens, d_model, bytes_per_number = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = batch * tokens * d_model * bytes_per_number
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
  "idea": "the right count, but as a NumPy int64 from np.prod instead of a Python int",
  "code": '''
import numpy as np

head_parallel_all_reduce_bytes = np.prod([8, 2048, 4096, 2], dtype=np.int64)
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Thinks a device only contributes its own 8 heads' share of the output, "
             "B*n*d_model/D, dividing by the 4 devices.",
  "teacher_says": "A device's heads times its rows of W^O give a full-width (B, n, d_model) "
                  "partial output; only the sum of the D partials is the layer's output.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Answers with what a ring all-reduce sends, 2 (D-1)/D times the array, instead "
             "of the size of the array itself.",
  "teacher_says": "The question asks for the partial output each device contributes, S = "
                  "B n d_model x 2 bytes; the ring traffic is a different quantity.",
  "code": '''
D = 4
S = 8 * 2048 * 4096 * 2
head_parallel_all_reduce_bytes = 2 * (D - 1) * S // D
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Counts 4 bytes per number (float32) instead of bfloat16's 2.",
  "teacher_says": "The layer runs in bfloat16: 2 bytes per number.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
]

_WRITER_D = ANSWERS

"""Student answers for chapter 13 (The online softmax and heads across devices), writer h."""

ANSWERS = [
    # ------------------------------------------------------------ online_softmax_attention
    {"exercise": "online_softmax_attention", "kind": "correct",
     "idea": "running max / sum / output per query row; the block's mask from the key positions "
             "against each query's last allowed key; the shift is 0 while a row's max is -inf, and "
             "rows that saw no key end as zeros",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    dtype = np.result_type(q, k, v)
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q * np.asarray(1.0 / np.sqrt(q.shape[-1]), dtype=dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    row_max = np.full((*lead, n_q, 1), -np.inf, dtype=dtype)
    row_sum = np.zeros((*lead, n_q, 1), dtype=dtype)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=dtype)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)  # (n_q, 1): last key each query may see
    for start in range(0, n_k, block_size):
        stop = min(start + block_size, n_k)
        scores = q @ np.swapaxes(k[..., start:stop, :], -1, -2)  # (..., n_q, block)
        if causal:
            allowed = np.arange(start, stop)[None, :] <= last_key  # (n_q, block)
            scores = np.where(allowed, scores, -np.inf)
        new_max = np.maximum(row_max, scores.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_max), new_max, 0.0)
        rescale = np.exp(row_max - shift)
        p = np.exp(scores - shift)
        row_sum = row_sum * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:stop, :]
        row_max = new_max
    safe = np.where(row_sum > 0, row_sum, 1.0)
    return np.where(row_sum > 0, acc / safe, 0.0).astype(dtype, copy=False)
'''},
    {"exercise": "online_softmax_attention", "kind": "robustness",
     "idea": "the same loop in float64 whatever the input dtype (a float64 result for float32 "
             "inputs), and one Python iteration per key block AND per query row",
     "code": '''
import math
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    q = np.broadcast_to(q, (*lead, *q.shape[-2:]))
    k = np.broadcast_to(k, (*lead, *k.shape[-2:]))
    v = np.broadcast_to(v, (*lead, *v.shape[-2:]))
    n_q, n_k, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    out = np.zeros((*lead, n_q, d_v))
    scale = 1.0 / math.sqrt(q.shape[-1])
    for i in range(n_q):
        limit = i + n_k - n_q if causal else n_k - 1  # last key query i may see
        m = np.full(lead, -np.inf)
        ell = np.zeros(lead)
        o = np.zeros((*lead, d_v))
        for start in range(0, min(limit + 1, n_k), block_size):
            stop = min(start + block_size, limit + 1, n_k)
            s = np.einsum("...d,...jd->...j", q[..., i, :], k[..., start:stop, :]) * scale
            m_new = np.maximum(m, s.max(axis=-1))
            factor = np.exp(m - m_new)
            e = np.exp(s - m_new[..., None])
            ell = ell * factor + e.sum(axis=-1)
            o = o * factor[..., None] + np.einsum("...j,...jd->...d", e, v[..., start:stop, :])
            m = m_new
        if limit >= 0:
            out[..., i, :] = o / ell[..., None]
    return out
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Re-bases the running sum by exp(m - m') but forgets to re-base the running output: "
                "right only when the largest score is in the first block.",
     "teacher_says": "The output accumulator is a sum relative to the old maximum too: multiply it by "
                     "the same factor exp(m - m') as the running sum.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=q.dtype)
    ell = np.zeros((*lead, n_q, 1), dtype=q.dtype)
    o = np.zeros((*lead, n_q, v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        ell = ell * np.exp(m - shift) + p.sum(-1, keepdims=True)
        o = o + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1.0), 0.0).astype(q.dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Aligns the causal mask top-left (key j allowed when j <= i), forgetting the offset "
                "n_k - n_q: wrong whenever there are more keys than queries (a chunk after a cache), "
                "and rows with i < n_q - n_k are not zeroed.",
     "teacher_says": "The queries are the LAST n_q positions: query i may see keys up to "
                     "i + n_k - n_q, as mha.causal_mask aligns it bottom-right.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=q.dtype)
    ell = np.zeros((*lead, n_q, 1), dtype=q.dtype)
    o = np.zeros((*lead, n_q, v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        factor = np.exp(m - shift)
        p = np.exp(s - shift)
        ell = ell * factor + p.sum(-1, keepdims=True)
        o = o * factor + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1.0), 0.0).astype(q.dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "Off by one in the block mask: keys < i + n_k - n_q (strict), so every query loses its "
                "own position (the diagonal) and the first query of a square input sees nothing.",
     "teacher_says": "A query may attend itself: the allowed keys are 0 .. i + n_k - n_q INCLUSIVE, so "
                     "the comparison is <=.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=q.dtype)
    ell = np.zeros((*lead, n_q, 1), dtype=q.dtype)
    o = np.zeros((*lead, n_q, v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys < rows + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        factor = np.exp(m - shift)
        p = np.exp(s - shift)
        ell = ell * factor + p.sum(-1, keepdims=True)
        o = o * factor + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1.0), 0.0).astype(q.dtype)
'''},

    # ------------------------------------------------------ head_parallel_all_reduce_bytes
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
     "idea": "the partial output has the layer output's full shape (B, n, d_model): count, times 2 "
             "bytes",
     "code": '''
batch, tokens, d_model, bytes_per_number = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = batch * tokens * d_model * bytes_per_number
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
     "idea": "the product of the output shape times the itemsize of float16 (2 bytes, as bfloat16), "
             "delivered as a numpy.int64 instead of a Python int",
     "code": '''
import numpy as np

_shape = (8, 2048, 4096)  # (B, n, d_model): a device's heads times its rows of W^O
head_parallel_all_reduce_bytes = np.int64(np.prod(_shape)) * np.int64(np.dtype(np.float16).itemsize)
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Thinks each device contributes only its share of the output, 1/D of d_model: divides "
                "by the 4 devices.",
     "teacher_says": "A device's heads times its ROWS of W^O give a full (B, n, d_model) array, a "
                     "partial sum of the whole output, not a slice of it.",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * (4096 // 4) * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Answers with what the ring all-reduce sends per device, 2 (D - 1) / D times the array, "
                "instead of the size of the array contributed.",
     "teacher_says": "The question asks for the partial output each device contributes, B n d_model "
                     "numbers, not the traffic of one particular all-reduce algorithm.",
     "code": '''
S = 8 * 2048 * 4096 * 2
head_parallel_all_reduce_bytes = 2 * (4 - 1) * S // 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "Counts 4 bytes per number, as in float32, although the layer runs in bfloat16.",
     "teacher_says": "bfloat16 takes 2 bytes per number: check the dtype before multiplying.",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
