# writer D's answers, then writer H's (each file verbatim)
ANSWERS = [
 # ----------------------------------------------------------- online_softmax_attention
 {"exercise": "online_softmax_attention", "kind": "correct",
  "idea": "running max / sum / accumulator per query, a per-block bottom-right mask from the key indices, -inf handled with a 'safe max' and zeros for rows that saw no key",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    dt = np.result_type(q, k, v)
    n_q, n_k = q.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    qs = q * dt.type(1.0 / np.sqrt(q.shape[-1]))
    m = np.full((*lead, n_q, 1), -np.inf, dtype=dt)
    l = np.zeros((*lead, n_q, 1), dtype=dt)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=dt)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)       # query i sees keys <= i + n_k - n_q
    for lo in range(0, n_k, block_size):
        hi = min(lo + block_size, n_k)
        s = qs @ np.swapaxes(k[..., lo:hi, :], -1, -2)       # (..., n_q, block)
        if causal:
            allowed = np.arange(lo, hi)[None, :] <= last_key  # (n_q, block)
            s = np.where(allowed, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        safe = np.where(np.isneginf(m_new), 0.0, m_new).astype(dt)
        p = np.exp(s - safe)
        alpha = np.exp(m - safe)
        l = alpha * l + p.sum(-1, keepdims=True)
        acc = alpha * acc + p @ v[..., lo:hi, :]
        m = m_new
    seen = l > 0
    return np.where(seen, acc / np.where(seen, l, 1), 0).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness",
  "idea": "the same online softmax done entirely in float64 (the result stays float64 for float32 inputs), looping over queries one block of keys at a time with explicit index lists",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    n_q, n_k, d_k = q.shape[-2], k.shape[-2], q.shape[-1]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    run_max = np.full((*lead, n_q, 1), -np.inf)
    run_sum = np.zeros((*lead, n_q, 1))
    run_out = np.zeros((*lead, n_q, v.shape[-1]))
    offset = n_k - n_q
    start = 0
    while start < n_k:
        stop = min(start + block_size, n_k)
        key_ids = np.arange(start, stop)
        scores = (q @ np.swapaxes(k[..., start:stop, :], -1, -2)) / np.sqrt(d_k)
        if causal:
            ok = key_ids[None, :] <= (np.arange(n_q)[:, None] + offset)
            scores = np.where(ok, scores, -np.inf)
        block_max = scores.max(axis=-1, keepdims=True)
        new_max = np.maximum(run_max, block_max)
        shift = np.where(np.isfinite(new_max), new_max, 0.0)
        weights = np.exp(scores - shift)
        rescale = np.exp(run_max - shift)
        run_sum = run_sum * rescale + weights.sum(axis=-1, keepdims=True)
        run_out = run_out * rescale + weights @ v[..., start:stop, :]
        run_max = new_max
        start = stop
    result = np.zeros_like(run_out)
    positive = (run_sum > 0)[..., 0]
    result[positive] = run_out[positive] / run_sum[positive]
    return result
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Aligns the causal mask top-left (key j allowed when j <= i), which is only right when n_q == n_k.",
  "teacher_says": "With n_q != n_k the queries are the last n_q positions: query i may attend keys up to i + n_k - n_q (bottom-right, like mha.causal_mask).",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=q.dtype)
    rows = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        cols = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., cols, :], -1, -2)
        if causal:
            s = np.where(cols[None, :] <= rows, s, -np.inf)
        new_m = np.maximum(m, s.max(-1, keepdims=True))
        base = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - base)
        r = np.exp(m - base)
        l = l * r + p.sum(-1, keepdims=True)
        acc = acc * r + p @ v[..., cols, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Adds the causal mask to blocked_attention but keeps subtracting new_max directly; for a query that has seen no allowed key yet, exp(-inf - (-inf)) is NaN, which never goes away.",
  "teacher_says": "While a row's running maximum is -inf, subtract 0 instead (np.where(np.isfinite(new_max), new_max, 0)) and give rows with a zero sum a zero output.",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / q.shape[-1] ** 0.5
    running_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    running_sum = np.zeros_like(running_max)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ k[..., keys, :].swapaxes(-1, -2)
        if causal:
            allowed = keys <= np.arange(n_q)[:, None] + n_k - n_q
            scores = np.where(allowed, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        rescale = np.exp(running_max - new_max)
        p = np.exp(scores - new_max)
        running_sum = running_sum * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        running_max = new_max
    return acc / running_sum
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Rescales the running sum when the maximum grows but forgets to rescale the running output, so earlier blocks keep their old, too-large scale.",
  "teacher_says": "The accumulator holds sums of exp(s - old max) * v just like the running sum: multiply it by exp(m - m') too.",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        shift = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - shift)
        l = l * np.exp(m - shift) + p.sum(-1, keepdims=True)
        acc = acc + p @ v[..., keys, :]
        m = m_new
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 # --------------------------------------------------- head_parallel_all_reduce_bytes
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
  "idea": "the partial output has the full (B, n, d_model) shape whatever D is: count its numbers, times 2 bytes",
  "code": '''
batch, tokens, d_model, bytes_per_number = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = batch * tokens * d_model * bytes_per_number
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
  "idea": "the right count, but as a float (2**27 written as 1.34217728e8) rather than an int",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2.0
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Divides by the D = 4 devices, thinking each device's partial output covers only its share of d_model.",
  "teacher_says": "A device's heads times its rows of W^O give an array of the full output shape (B, n, d_model); only the sum over devices is the output.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Counts the numbers in the partial output and forgets to multiply by the 2 bytes of bfloat16.",
  "teacher_says": "The question asks for bytes: each bfloat16 number takes 2.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Answers with what a ring all-reduce sends per device, 2 (D - 1) / D times the array, instead of the size of the partial output itself.",
  "teacher_says": "The question is about the array each device contributes, not the traffic of a particular all-reduce algorithm.",
  "code": '''
D = 4
head_parallel_all_reduce_bytes = 2 * (D - 1) * (8 * 2048 * 4096 * 2) // D
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
 # ------------------------------------------------------------------ online_softmax_attention
 {"exercise": "online_softmax_attention", "kind": "correct",
  "idea": "scale folded into q, running max/sum/acc per query row, per-block bottom-right mask from index arithmetic, safe max and a final where for empty rows",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    dtype = np.result_type(q, k, v)
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q * np.asarray(1.0 / np.sqrt(q.shape[-1]), dtype=dtype)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    m = np.full((*lead, n_q, 1), -np.inf, dtype=dtype)
    ell = np.zeros((*lead, n_q, 1), dtype=dtype)
    acc = np.zeros((*lead, n_q, v.shape[-1]), dtype=dtype)
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)          # (n_q, 1): query i sees keys <= this
    for lo in range(0, n_k, block_size):
        hi = min(lo + block_size, n_k)
        s = q @ np.swapaxes(k[..., lo:hi, :], -1, -2)          # (..., n_q, block)
        if causal:
            allowed = np.arange(lo, hi)[None, :] <= last_key   # (n_q, block)
            s = np.where(allowed, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        base = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - base)
        alpha = np.exp(m - base)
        ell = ell * alpha + p.sum(-1, keepdims=True)
        acc = acc * alpha + p @ v[..., lo:hi, :]
        m = m_new
    safe = np.where(ell > 0, ell, 1.0)
    return np.where(ell > 0, acc / safe, 0.0).astype(dtype, copy=False)
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness",
  "idea": "the same online softmax, but every array promoted to float64 (a float32 input comes back float64)",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    n_q, n_k = q.shape[-2], k.shape[-2]
    scale = 1.0 / np.sqrt(q.shape[-1])
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    running_max = np.full((*lead, n_q, 1), -np.inf)
    running_sum = np.zeros((*lead, n_q, 1))
    acc = np.zeros((*lead, n_q, v.shape[-1]))
    rows = np.arange(n_q)[:, None]
    start = 0
    while start < n_k:
        stop = min(start + block_size, n_k)
        scores = (q @ np.swapaxes(k[..., start:stop, :], -1, -2)) * scale
        if causal:
            cols = np.arange(start, stop)[None, :]
            scores = np.where(cols - (n_k - n_q) <= rows, scores, -np.inf)
        new_max = np.maximum(running_max, np.max(scores, axis=-1, keepdims=True))
        shift = np.where(new_max == -np.inf, 0.0, new_max)
        rescale = np.exp(running_max - shift)
        p = np.exp(scores - shift)
        running_sum = running_sum * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:stop, :]
        running_max = new_max
        start = stop
    out = np.zeros_like(acc)
    np.divide(acc, running_sum, out=out, where=running_sum > 0)
    return out
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Builds each block's causal mask top-left (key j <= query i), forgetting the n_k - n_q offset of the bottom-right alignment.",
  "teacher_says": "The queries are the last n_q positions: query i may see keys up to i + n_k - n_q, as mha.causal_mask(n_q, n_k) aligns it.",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    o = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= np.arange(n_q)[:, None], s, -np.inf)
        new_m = np.maximum(m, s.max(-1, keepdims=True))
        safe = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - safe)
        scale = np.exp(m - safe)
        l = l * scale + p.sum(-1, keepdims=True)
        o = o * scale + p @ v[..., keys, :]
        m = new_m
    return np.where(l > 0, o / np.where(l > 0, l, 1), 0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Subtracts the running maximum directly, as blocked_attention does, without a guard for rows whose maximum is still -inf: exp(-inf - (-inf)) is nan, and a query with no allowed key ends as nan (0/0) instead of zeros.",
  "teacher_says": "When n_q > n_k some queries see no key: subtract 0 where the maximum is -inf and give rows with a zero sum a zero output.",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    running_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    running_sum = np.zeros_like(running_max)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        scores = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            scores = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, scores, -np.inf)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        rescale = np.exp(running_max - new_max)
        p = np.exp(scores - new_max)
        running_sum = running_sum * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., keys, :]
        running_max = new_max
    return acc / running_sum
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Builds the whole additive causal mask once, as transformers does (a float (n_q, n_k) array of 0 and -inf), and slices a block from it each time: right values, but the full-size array is exactly what the exercise forbids.",
  "teacher_says": "Build only each block's (n_q, block) part of the mask from the indices; a full (n_q, n_k) float mask costs as much memory as the scores.",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    bias = np.zeros((n_q, n_k), dtype=q.dtype)
    if causal:
        allowed = np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + n_k - n_q
        bias = np.where(allowed, 0.0, -np.inf).astype(q.dtype)
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    o = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        sl = slice(start, start + block_size)
        s = q @ np.swapaxes(k[..., sl, :], -1, -2) + bias[:, sl]
        new_m = np.maximum(m, s.max(-1, keepdims=True))
        safe = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - safe)
        r = np.exp(m - safe)
        l = l * r + p.sum(-1, keepdims=True)
        o = o * r + p @ v[..., sl, :]
        m = new_m
    return np.where(l > 0, o / np.where(l > 0, l, 1), 0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Re-bases the running sum when the maximum grows but forgets to re-base the running output the same way (acc = acc + p @ v).",
  "teacher_says": "Both running quantities are relative to the maximum: multiply the output accumulator by exp(m - m') too, or earlier blocks keep their old, too large, scale.",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    o = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., keys, :], -1, -2)
        if causal:
            s = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
        new_m = np.maximum(m, s.max(-1, keepdims=True))
        safe = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - safe)
        l = l * np.exp(m - safe) + p.sum(-1, keepdims=True)
        o = o + p @ v[..., keys, :]
        m = new_m
    return np.where(l > 0, o / np.where(l > 0, l, 1), 0).astype(q.dtype)
'''},
 # ------------------------------------------------------------------ head_parallel_all_reduce_bytes
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
  "idea": "a partial output has the layer output's full shape (B, n, d_model): count, times 2 bytes",
  "code": '''
import math
head_parallel_all_reduce_bytes = math.prod((8, 2048, 4096)) * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
  "idea": "right value given as a float from 128 MiB",
  "code": '''
head_parallel_all_reduce_bytes = 128.0 * 1024 * 1024
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Divides by the 4 devices, thinking each device's partial output holds only its quarter of the features.",
  "teacher_says": "A device's heads times its rows of W^O give a full (B, n, d_model) array; it is the sum over devices that is split, not the shape.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Counts the numbers in the partial output and forgets to multiply by the 2 bytes of bfloat16.",
  "teacher_says": "The question asks for bytes: each bfloat16 number takes 2.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Answers with what a ring all-reduce sends per device, 2 (D - 1) / D times the array, instead of the size of the array itself.",
  "teacher_says": "The question is about the partial output array each device contributes, not the traffic of a particular all-reduce algorithm.",
  "code": '''
D = 4
head_parallel_all_reduce_bytes = 2 * (D - 1) * (8 * 2048 * 4096 * 2) // D
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
