ANSWERS = [
 {"exercise": "online_softmax_attention", "kind": "correct", "idea": "running max/sum/output with per-block causal mask", "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k, d_k = q.shape[-2], k.shape[-2], q.shape[-1]
    dt = np.result_type(q, k, v)
    scale = 1.0 / np.sqrt(d_k)
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=dt)
    l = np.zeros(q.shape[:-1] + (1,), dtype=dt)
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=dt)
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        stop = min(start + block_size, n_k)
        s = (q @ np.swapaxes(k[..., start:stop, :], -1, -2) * scale).astype(dt)
        if causal:
            s = np.where(np.arange(start, stop) <= rows, s, -np.inf)
        new_m = np.maximum(m, s.max(-1, keepdims=True))
        base = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - base)
        corr = np.exp(m - base)
        l = l * corr + p.sum(-1, keepdims=True)
        acc = acc * corr + p @ v[..., start:stop, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1), 0).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "correct", "idea": "skip blocks wholly in the future; float64 state, cast back", "code": '''
import math
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    dt = np.result_type(q, k, v)
    q64, k64, v64 = (np.asarray(a, np.float64) for a in (q, k, v))
    n_q, n_k = q.shape[-2], k.shape[-2]
    shift = n_k - n_q
    qi = np.arange(n_q)[:, None]
    mx = np.full(q.shape[:-1] + (1,), -np.inf)
    den = np.zeros(q.shape[:-1] + (1,))
    num = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for s0 in range(0, n_k, block_size):
        if causal and s0 > n_q - 1 + shift:
            break
        s1 = min(s0 + block_size, n_k)
        sc = np.einsum("...qd,...kd->...qk", q64, k64[..., s0:s1, :]) / math.sqrt(q.shape[-1])
        if causal:
            sc = np.where(np.arange(s0, s1)[None, :] <= qi + shift, sc, -np.inf)
        m2 = np.maximum(mx, sc.max(axis=-1, keepdims=True))
        safe = np.where(m2 == -np.inf, 0.0, m2)
        a = np.exp(mx - safe)
        e = np.exp(sc - safe)
        den = a * den + e.sum(-1, keepdims=True)
        num = a * num + np.einsum("...qk,...kd->...qd", e, v64[..., s0:s1, :])
        mx = m2
    out = np.zeros_like(num)
    np.divide(num, den, out=out, where=den > 0)
    return out.astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "causal mask top-left aligned (no n_k - n_q offset)", "teacher_says": "align the causal mask bottom-right: key j <= i + n_k - n_q", "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dt = np.result_type(q, k, v)
    m = np.full(q.shape[:-1] + (1,), -np.inf); l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    rows = np.arange(n_q)[:, None]
    for st in range(0, n_k, block_size):
        sp = min(st + block_size, n_k)
        s = q @ np.swapaxes(k[..., st:sp, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            s = np.where(np.arange(st, sp) <= rows, s, -np.inf)
        nm = np.maximum(m, s.max(-1, keepdims=True)); b = np.where(np.isfinite(nm), nm, 0)
        p = np.exp(s - b); c = np.exp(m - b)
        l = l * c + p.sum(-1, keepdims=True); acc = acc * c + p @ v[..., st:sp, :]; m = nm
    return np.where(l > 0, acc / np.where(l > 0, l, 1), 0).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "forgets to rescale the running output by exp(m - m')", "teacher_says": "when the maximum grows, rescale both the running sum and the running output", "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dt = np.result_type(q, k, v)
    m = np.full(q.shape[:-1] + (1,), -np.inf); l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for st in range(0, n_k, block_size):
        sp = min(st + block_size, n_k)
        s = q @ np.swapaxes(k[..., st:sp, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            s = np.where(np.arange(st, sp) <= rows, s, -np.inf)
        nm = np.maximum(m, s.max(-1, keepdims=True)); b = np.where(np.isfinite(nm), nm, 0)
        p = np.exp(s - b); c = np.exp(m - b)
        l = l * c + p.sum(-1, keepdims=True); acc = acc + p @ v[..., st:sp, :]; m = nm
    return np.where(l > 0, acc / np.where(l > 0, l, 1), 0).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "drops the last partial block (range stops at n_k - block_size)", "teacher_says": "when block_size does not divide n_k, the last keys are skipped", "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dt = np.result_type(q, k, v)
    m = np.full(q.shape[:-1] + (1,), -np.inf); l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for st in range(0, max(n_k - block_size + 1, 1), block_size):
        sp = min(st + block_size, n_k)
        s = q @ np.swapaxes(k[..., st:sp, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            s = np.where(np.arange(st, sp) <= rows, s, -np.inf)
        nm = np.maximum(m, s.max(-1, keepdims=True)); b = np.where(np.isfinite(nm), nm, 0)
        p = np.exp(s - b); c = np.exp(m - b)
        l = l * c + p.sum(-1, keepdims=True); acc = acc * c + p @ v[..., st:sp, :]; m = nm
    return np.where(l > 0, acc / np.where(l > 0, l, 1), 0).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "no scaling by sqrt(d_k)", "teacher_says": "the scores are QK^T / sqrt(d_k)", "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dt = np.result_type(q, k, v)
    m = np.full(q.shape[:-1] + (1,), -np.inf); l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for st in range(0, n_k, block_size):
        sp = min(st + block_size, n_k)
        s = q @ np.swapaxes(k[..., st:sp, :], -1, -2)
        if causal:
            s = np.where(np.arange(st, sp) <= rows, s, -np.inf)
        nm = np.maximum(m, s.max(-1, keepdims=True)); b = np.where(np.isfinite(nm), nm, 0)
        p = np.exp(s - b); c = np.exp(m - b)
        l = l * c + p.sum(-1, keepdims=True); acc = acc * c + p @ v[..., st:sp, :]; m = nm
    return np.where(l > 0, acc / np.where(l > 0, l, 1), 0).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "builds the full (n_q, n_k) causal mask once (memory peak)", "mistake": "full mask array", "teacher_says": "build each block's part of the mask; the full one breaks the memory budget", "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dt = np.result_type(q, k, v)
    full = (np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + n_k - n_q).astype(np.float64)
    m = np.full(q.shape[:-1] + (1,), -np.inf); l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for st in range(0, n_k, block_size):
        sp = min(st + block_size, n_k)
        s = q @ np.swapaxes(k[..., st:sp, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            s = np.where(full[:, st:sp] > 0, s, -np.inf)
        nm = np.maximum(m, s.max(-1, keepdims=True)); b = np.where(np.isfinite(nm), nm, 0)
        p = np.exp(s - b); c = np.exp(m - b)
        l = l * c + p.sum(-1, keepdims=True); acc = acc * c + p @ v[..., st:sp, :]; m = nm
    return np.where(l > 0, acc / np.where(l > 0, l, 1), 0).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "NaN rows when a query sees no key (no isfinite guard)", "mistake": "exp(-inf - -inf)", "teacher_says": "guard the running maximum while it is -inf; a query with no key gets zeros", "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dt = np.result_type(q, k, v)
    m = np.full(q.shape[:-1] + (1,), -np.inf); l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    rows = np.arange(n_q)[:, None] + n_k - n_q
    with np.errstate(invalid="ignore"):
        for st in range(0, n_k, block_size):
            sp = min(st + block_size, n_k)
            s = q @ np.swapaxes(k[..., st:sp, :], -1, -2) / np.sqrt(q.shape[-1])
            if causal:
                s = np.where(np.arange(st, sp) <= rows, s, -np.inf)
            nm = np.maximum(m, s.max(-1, keepdims=True))
            p = np.exp(s - nm); c = np.exp(m - nm)
            l = l * c + p.sum(-1, keepdims=True); acc = acc * c + p @ v[..., st:sp, :]; m = nm
        return (acc / l).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "computes full attention (no blocks) ignoring block_size", "mistake": "builds (n_q, n_k) scores", "teacher_says": "the point is never to hold the score matrix", "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        s = np.where(np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
    m = s.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-1, keepdims=True)
    return ((e / np.where(z > 0, z, 1)) @ v).astype(np.result_type(q, k, v))
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct", "idea": "B n d_model * 2", "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct", "idea": "power of two", "code": '''
head_parallel_all_reduce_bytes = 2 ** (3 + 11 + 12 + 1)
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "divides by D (thinks a device holds a quarter of the output)", "teacher_says": "each partial output has the full shape (B, n, d_model)", "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "counts the device's heads' scores (B, 8, n, n)", "teacher_says": "the all-reduce sums the partial outputs, not the attention weights", "code": '''
head_parallel_all_reduce_bytes = 8 * 8 * 2048 * 2048 * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "float32 bytes", "teacher_says": "bfloat16 is 2 bytes", "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "ring all-reduce traffic 2(D-1)/D times the array", "teacher_says": "the question asks for the array, not what the ring sends", "code": '''
head_parallel_all_reduce_bytes = 2 * 3 * 8 * 2048 * 4096 * 2 // 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness", "idea": "numpy int64 array scalar in a 1-element array", "mistake": "array", "teacher_says": "assign an int", "code": '''
import numpy as np
head_parallel_all_reduce_bytes = np.array([8 * 2048 * 4096 * 2])
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "strict causal mask (keys < i + n_k - n_q): a query does not see itself",
  "teacher_says": "query i may attend keys 0 .. i + n_k - n_q, its own position included: use <=",
  "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dt = np.result_type(q, k, v)
    m = np.full(q.shape[:-1] + (1,), -np.inf); l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for st in range(0, n_k, block_size):
        sp = min(st + block_size, n_k)
        s = q @ np.swapaxes(k[..., st:sp, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            s = np.where(np.arange(st, sp) < rows, s, -np.inf)
        nm = np.maximum(m, s.max(-1, keepdims=True)); b = np.where(np.isfinite(nm), nm, 0)
        p = np.exp(s - b); c = np.exp(m - b)
        l = l * c + p.sum(-1, keepdims=True); acc = acc * c + p @ v[..., st:sp, :]; m = nm
    return np.where(l > 0, acc / np.where(l > 0, l, 1), 0).astype(dt)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "running sum not rescaled when the maximum grows (only the output is)",
  "teacher_says": "re-base the running sum by exp(m - m') too, or the normaliser mixes scales",
  "code": '''
import numpy as np
def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    dt = np.result_type(q, k, v)
    m = np.full(q.shape[:-1] + (1,), -np.inf); l = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    rows = np.arange(n_q)[:, None] + n_k - n_q
    for st in range(0, n_k, block_size):
        sp = min(st + block_size, n_k)
        s = q @ np.swapaxes(k[..., st:sp, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            s = np.where(np.arange(st, sp) <= rows, s, -np.inf)
        nm = np.maximum(m, s.max(-1, keepdims=True)); b = np.where(np.isfinite(nm), nm, 0)
        p = np.exp(s - b); c = np.exp(m - b)
        l = l + p.sum(-1, keepdims=True); acc = acc * c + p @ v[..., st:sp, :]; m = nm
    return np.where(l > 0, acc / np.where(l > 0, l, 1), 0).astype(dt)
'''},
]
