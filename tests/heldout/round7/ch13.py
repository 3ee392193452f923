ANSWERS = [
    # ------------------------------------------------------------------ online_softmax_attention
    {"exercise": "online_softmax_attention", "kind": "correct",
     "idea": "running max / sum / output with a finite shift (0 while a row has seen no allowed key) and a guarded final division",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dtype = np.result_type(q.dtype, k.dtype, v.dtype)
    q = q / np.sqrt(q.shape[-1]).astype(dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=dtype)
    ell = np.zeros((*lead, n_q, 1), dtype=dtype)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=dtype)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)  # (n_q, 1): the last key each query sees
    for start in range(0, n_k, block_size):
        stop = min(start + block_size, n_k)
        s = q @ np.swapaxes(k[..., start:stop, :], -1, -2)  # (..., n_q, block)
        if causal:
            s = np.where(np.arange(start, stop) <= last_key, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        ell = ell * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:stop, :]
        m = m_new
    out = np.divide(acc, ell, out=np.zeros_like(acc), where=ell > 0)
    return out.astype(dtype, copy=False)
'''},
    {"exercise": "online_softmax_attention", "kind": "correct",
     "idea": "keeps a running log-sum-exp (np.logaddexp) instead of a max and a sum; the output is kept normalised at every block",
     "code": '''
import math

import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k, d_k = q.shape[-2], k.shape[-2], q.shape[-1]
    dtype = q.dtype
    scale = 1.0 / math.sqrt(d_k)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    lse = np.full((*lead, n_q, 1), -np.inf, dtype=dtype)  # log of the running sum of exp(scores)
    out = np.zeros((*lead, n_q, v.shape[-1]), dtype=dtype)  # normalised so far
    query_pos = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = (q @ np.swapaxes(k[..., keys, :], -1, -2)) * dtype.type(scale)
        if causal:
            s = np.where(keys[None, :] <= query_pos, s, -np.inf)
        block_max = s.max(axis=-1, keepdims=True)
        safe_max = np.where(np.isfinite(block_max), block_max, 0.0)
        e = np.exp(s - safe_max)
        with np.errstate(divide="ignore"):
            block_lse = np.log(e.sum(axis=-1, keepdims=True)) + safe_max  # -inf if nothing allowed
        new_lse = np.logaddexp(lse, block_lse)
        seen = np.isfinite(new_lse)
        ref = np.where(seen, new_lse, 0.0)
        old_share = np.where(seen, np.exp(lse - ref), 0.0)  # weight of what was seen before
        out = out * old_share + (e * np.exp(safe_max - ref)) @ v[..., keys, :] * seen
        lse = new_lse
    return out.astype(dtype, copy=False)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "re-bases the running sum by exp(m - m') but forgets to re-base the running output",
     "teacher_says": "Both running quantities are sums relative to the old maximum: multiply the output accumulator by exp(m - m') too, not only the sum.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1])
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        ell = ell * np.exp(m - shift) + p.sum(axis=-1, keepdims=True)
        acc = acc + p @ v[..., keys, :]
        m = m_new
    return np.divide(acc, ell, out=np.zeros_like(acc), where=ell > 0)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "re-bases the running output but not the running sum",
     "teacher_says": "The running sum l must be re-based by exp(m - m') like the output, or the final division uses sums relative to different maxima.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1])
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        ell = ell + p.sum(axis=-1, keepdims=True)
        acc = acc * np.exp(m - shift) + p @ v[..., keys, :]
        m = m_new
    return np.divide(acc, ell, out=np.zeros_like(acc), where=ell > 0)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "aligns the causal mask top-left (key j <= query i), which is wrong whenever n_q != n_k",
     "teacher_says": "The causal mask is aligned bottom-right, as mha.causal_mask does: query i may attend keys up to i + n_k - n_q.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1])
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        ell = ell * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        m = m_new
    return np.divide(acc, ell, out=np.zeros_like(acc), where=ell > 0)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "uses a strict inequality in the causal mask, so each query cannot attend its own position",
     "teacher_says": "A causal query sees itself: keys <= i + n_k - n_q, not <.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1])
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys < rows + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        ell = ell * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        m = m_new
    return np.divide(acc, ell, out=np.zeros_like(acc), where=ell > 0)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "forgets the 1/sqrt(d_k) scaling of the scores",
     "teacher_says": "The scores are QK^T / sqrt(d_k): scale q (or each block of scores) before the softmax.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        ell = ell * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        m = m_new
    return np.divide(acc, ell, out=np.zeros_like(acc), where=ell > 0)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong",
     "mistake": "normalises each block with its own softmax and averages the block outputs, instead of weighting the blocks by their share of the total sum",
     "teacher_says": "Blocks do not count equally: a block's share of the softmax is its sum relative to the total. Carry the running sum and re-base it, then divide once at the end.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1])
    total = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    count = np.zeros((*q.shape[:-1], 1), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= rows + n_k - n_q, s, -np.inf)
        mx = s.max(axis=-1, keepdims=True)
        seen = np.isfinite(mx)
        p = np.exp(s - np.where(seen, mx, 0.0))
        z = p.sum(axis=-1, keepdims=True)
        block_out = np.divide(p, z, out=np.zeros_like(p), where=z > 0) @ v[..., keys, :]
        total = total + block_out
        count = count + seen
    return np.divide(total, count, out=np.zeros_like(total), where=count > 0)
'''},
    {"exercise": "online_softmax_attention", "kind": "robustness",
     "idea": "right values from a plain softmax over whole rows with the full bottom-right causal mask",
     "mistake": "builds the whole (..., n_q, n_k) score matrix and mask, so its peak memory grows as n^2 (the point of the exercise is never to hold it)",
     "teacher_says": "The values are right, but the exercise forbids any (n_q, n_k) array: read the keys block by block and keep running max, sum and output.",
     "code": '''
import numpy as np


def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        allowed = np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + n_k - n_q
        s = np.where(allowed, s, -np.inf)
    mx = s.max(axis=-1, keepdims=True)
    e = np.exp(s - np.where(np.isfinite(mx), mx, 0.0))
    z = e.sum(axis=-1, keepdims=True)
    w = np.divide(e, z, out=np.zeros_like(e), where=z > 0)
    return (w @ v).astype(q.dtype)
'''},
    # ------------------------------------------------------------------ head_parallel_all_reduce_bytes
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
     "idea": "the partial output has the layer output's full shape (B, n, d_model): count it, times 2 bytes",
     "code": '''
batch, n_tokens, d_model, bytes_bf16 = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = batch * n_tokens * d_model * bytes_bf16
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
     "idea": "math.prod of the shape and torch's bit width of bfloat16 divided by 8",
     "code": '''
import math

import torch

bytes_per_number = torch.finfo(torch.bfloat16).bits // 8
head_parallel_all_reduce_bytes = math.prod((8, 2048, 4096)) * bytes_per_number
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "divides by the 4 devices, thinking each device contributes a quarter of the output",
     "teacher_says": "A device's heads times its rows of W^O give a full (B, n, d_model) array: every device contributes the whole shape, the all-reduce sums them.",
     "code": '''
D = 4
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // D
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "counts the device's concatenated heads (h*d_v/D = 1024 columns) before W^O instead of the partial output after it",
     "teacher_says": "The partial output is after the device's rows of W^O, which map its 1024 columns back to d_model = 4096.",
     "code": '''
d_model, heads, devices = 4096, 32, 4
d_v = d_model // heads
head_parallel_all_reduce_bytes = 8 * 2048 * (heads // devices) * d_v * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "answers with what a ring all-reduce sends per device, 2 (D-1)/D times the array, instead of the array's size",
     "teacher_says": "The question is about the array each device contributes, not the traffic of a ring algorithm.",
     "code": '''
S = 8 * 2048 * 4096 * 2
D = 4
head_parallel_all_reduce_bytes = 2 * (D - 1) * S // D
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "multiplies by the number of devices (the total of all contributions), not one device's partial output",
     "teacher_says": "Each device contributes ONE (B, n, d_model) array; do not multiply by D.",
     "code": '''
head_parallel_all_reduce_bytes = 4 * 8 * 2048 * 4096 * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "uses 4 bytes per number (float32) instead of bfloat16's 2",
     "teacher_says": "bfloat16 is 16 bits: 2 bytes per number.",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
     "mistake": "forgets the batch of 8 sequences",
     "teacher_says": "The partial output covers every sequence of the batch: (B, n, d_model), with B = 8.",
     "code": '''
head_parallel_all_reduce_bytes = 2048 * 4096 * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
     "idea": "the right size, computed as MiB times a float",
     "mistake": "assigns a float (128 * 2**20 written with a float factor) instead of an int",
     "teacher_says": "Assign an int: keep the arithmetic in integers.",
     "code": '''
head_parallel_all_reduce_bytes = 128.0 * 2**20
'''},
]
