ANSWERS = [
 # ------------------------------------------------------------------ online_softmax_attention
 {"exercise": "online_softmax_attention", "kind": "correct",
  "idea": "running maximum started at the lowest finite float instead of -inf, so no NaN guard is needed; np.divide(where=) for rows with no key",
  "code": '''
import math

import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    dtype = np.result_type(q, k, v)
    n_q, n_k = q.shape[-2], k.shape[-2]
    scale = 1.0 / math.sqrt(q.shape[-1])
    lowest = -np.finfo(dtype).max  # finite: lowest - lowest = 0, never NaN
    m = np.full(q.shape[:-1] + (1,), lowest, dtype=dtype)
    ell = np.zeros(q.shape[:-1] + (1,), dtype=dtype)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=dtype)
    last_allowed = np.arange(n_q)[:, None] + (n_k - n_q)  # (n_q, 1)
    for start in range(0, n_k, block_size):
        stop = min(start + block_size, n_k)
        s = (q @ np.swapaxes(k[..., start:stop, :], -1, -2)) * scale  # (..., n_q, block)
        if causal:
            s = np.where(np.arange(start, stop)[None, :] <= last_allowed, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        alpha = np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = ell * alpha + p.sum(axis=-1, keepdims=True)
        o = o * alpha + p @ v[..., start:stop, :]
        m = m_new
    out = np.zeros_like(o)
    np.divide(o, ell, out=out, where=ell > 0)
    return out
'''},
 {"exercise": "online_softmax_attention", "kind": "correct",
  "idea": "FlashAttention-style 2-D tiling: an outer loop over query tiles, an inner loop over key tiles that stops at the last key a causal tile may see",
  "code": '''
import math

import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dtype = np.result_type(q, k, v)
    offset = n_k - n_q
    q_scaled = q / math.sqrt(q.shape[-1])
    out = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=dtype)
    for q0 in range(0, n_q, block_size):
        q1 = min(q0 + block_size, n_q)
        qt = q_scaled[..., q0:q1, :]
        m = np.full(qt.shape[:-1] + (1,), -np.inf, dtype=dtype)
        ell = np.zeros_like(m)
        acc = np.zeros(qt.shape[:-1] + (v.shape[-1],), dtype=dtype)
        key_end = min(n_k, q1 + offset) if causal else n_k  # keys after this are hidden
        for k0 in range(0, max(key_end, 0), block_size):
            k1 = min(k0 + block_size, n_k)
            s = qt @ np.swapaxes(k[..., k0:k1, :], -1, -2)
            if causal:
                allowed = np.arange(k0, k1)[None, :] <= (np.arange(q0, q1) + offset)[:, None]
                s = np.where(allowed, s, -np.inf)
            m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
            shift = np.where(np.isfinite(m_new), m_new, 0.0).astype(dtype)
            alpha = np.exp(m - shift)
            p = np.exp(s - shift)
            ell = ell * alpha + p.sum(axis=-1, keepdims=True)
            acc = acc * alpha + p @ v[..., k0:k1, :]
            m = m_new
        safe = np.where(ell > 0, ell, 1)
        out[..., q0:q1, :] = np.where(ell > 0, acc / safe, 0)
    return out
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "rescales the running sum when the maximum grows but forgets to rescale the running output",
  "teacher_says": "Both l and o are sums relative to the old maximum: multiply o by exp(m - m') too, otherwise blocks read before the maximum grew are over-weighted.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        ell = ell * np.exp(m - shift) + p.sum(axis=-1, keepdims=True)
        o = o + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1), 0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "builds each block's causal mask aligned top-left (key j <= query i), ignoring the offset n_k - n_q of the bottom-right alignment",
  "teacher_says": "Query i is at position i + n_k - n_q: it may attend keys 0 .. i + n_k - n_q. With fewer queries than keys (a decoding step) your mask hides keys it may see.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= np.arange(n_q)[:, None], s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        alpha = np.exp(m - shift)
        ell = ell * alpha + p.sum(axis=-1, keepdims=True)
        o = o * alpha + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1), 0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "sets the masked scores to 0 instead of -inf, so hidden keys still get a weight exp(0 - m)",
  "teacher_says": "A score of 0 is an ordinary score. Hidden keys must get -inf, so that exp gives them exactly 0 weight.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, s, 0.0)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        p = np.exp(s - m_new)
        alpha = np.exp(m - m_new)
        ell = ell * alpha + p.sum(axis=-1, keepdims=True)
        o = o * alpha + p @ v[..., keys, :]
        m = m_new
    return (o / ell).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "uses a strict inequality in the causal mask (key < query position), so each query no longer sees its own key",
  "teacher_says": "Causal means 'not in the future': query i may attend keys 0 .. i + n_k - n_q INCLUDED, so use <=.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys < np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        alpha = np.exp(m - shift)
        ell = ell * alpha + p.sum(axis=-1, keepdims=True)
        o = o * alpha + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1), 0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "loops over n_k // block_size blocks, so the last keys are never read when block_size does not divide n_k",
  "teacher_says": "range(0, n_k, block_size) visits every block including a shorter last one; n_k // block_size drops the remainder.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)
    for b in range(n_k // block_size):
        keys = np.arange(b * block_size, (b + 1) * block_size)
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        alpha = np.exp(m - shift)
        ell = ell * alpha + p.sum(axis=-1, keepdims=True)
        o = o * alpha + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1), 0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "computes the whole (n_q, n_k) score matrix and the whole causal mask up front and only then runs the online softmax over its column blocks, so the memory the exercise is about is spent anyway",
  "teacher_says": "The point is that no (n_q, n_k) array ever exists: compute each block's scores q @ k_block^T and each block's part of the mask inside the loop.",
  "code": '''
import numpy as np

import mha


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]).astype(q.dtype)  # (..., n_q, n_k)
    if causal:
        scores = np.where(mha.causal_mask(n_q, n_k), scores, -np.inf)
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        s = scores[..., start:start + block_size]
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        alpha = np.exp(m - shift)
        ell = ell * alpha + p.sum(axis=-1, keepdims=True)
        o = o * alpha + p @ v[..., start:start + block_size, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1), 0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness",
  "idea": "right blocked loop, accumulators created with NumPy's default dtype",
  "mistake": "returns float64 for float32 inputs (np.zeros and np.full without dtype are float64)",
  "teacher_says": "Create the running max, sum and output with dtype=q.dtype (or cast the result back) so that float32 stays float32.",
  "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros(q.shape[:-1] + (1,))
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        alpha = np.exp(m - shift)
        ell = ell * alpha + p.sum(axis=-1, keepdims=True)
        o = o * alpha + p @ v[..., keys, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1), 0)
'''},
 # ------------------------------------------------------------------ head_parallel_all_reduce_bytes
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
  "idea": "the partial output's shape written out and np.prod taken, converted to int",
  "code": '''
import numpy as np

partial_output_shape = (8, 2048, 4096)  # (B, n, d_model): W^O's rows give the full width
head_parallel_all_reduce_bytes = int(np.prod(partial_output_shape)) * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
  "idea": "as a power of two: 2^3 * 2^11 * 2^12 * 2^1",
  "code": '''
head_parallel_all_reduce_bytes = 1 << (3 + 11 + 12 + 1)  # B=2^3, n=2^11, d_model=2^12, 2 bytes
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "divides by the number of devices, as if each device's partial output were only its heads' share of the width",
  "teacher_says": "A device's heads, multiplied by its rows of W^O, give a full-width (B, n, d_model) array: the partial output is not split, it is summed.",
  "code": '''
B, n, d_model, D = 8, 2048, 4096, 4
head_parallel_all_reduce_bytes = B * n * (d_model // D) * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "answers with the ring all-reduce traffic 2 (D - 1)/D * S instead of the size S of the array each device contributes",
  "teacher_says": "The question is about the partial output itself (B * n * d_model numbers, 2 bytes each), not about how many bytes a ring algorithm sends.",
  "code": '''
S = 8 * 2048 * 4096 * 2
D = 4
head_parallel_all_reduce_bytes = 2 * (D - 1) * S // D
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "uses 4 bytes per number although the layer runs in bfloat16",
  "teacher_says": "bfloat16 is 2 bytes per number.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "forgets the batch of 8 sequences",
  "teacher_says": "The partial output covers every sequence of the batch: (B, n, d_model), with B = 8.",
  "code": '''
n_tokens, d_model, bytes_per_number = 2048, 4096, 2
head_parallel_all_reduce_bytes = n_tokens * d_model * bytes_per_number
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "adds up the partial outputs of all four devices instead of the one array a single device contributes",
  "teacher_says": "The question asks what EACH device contributes: one (B, n, d_model) array, not D of them.",
  "code": '''
devices = 4
head_parallel_all_reduce_bytes = devices * 8 * 2048 * 4096 * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "counts the device's slice of W^O (its h d_v / D rows by d_model) instead of its partial output",
  "teacher_says": "Weights are never exchanged in tensor parallelism; what is summed is the activations, the (B, n, d_model) partial output.",
  "code": '''
d_model, h, D = 4096, 32, 4
d_v = d_model // h
rows_per_device = h * d_v // D
head_parallel_all_reduce_bytes = rows_per_device * d_model * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
  "idea": "right value computed in MiB and converted back with a float factor",
  "mistake": "assigns a float (134217728.0) instead of an int",
  "teacher_says": "Keep the arithmetic in integers so that the answer is an int.",
  "code": '''
mib = 8 * 2048 * 4096 * 2 / 2 ** 20  # 128 MiB
head_parallel_all_reduce_bytes = mib * 2 ** 20
'''},
]
