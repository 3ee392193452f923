_ON = '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, d = q.shape[-2], q.shape[-1]
    n_k = k.shape[-2]
    dtype = np.result_type(q, k, v)
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    m = np.full(batch + (n_q, 1), -np.inf, dtype=dtype)
    l = np.zeros(batch + (n_q, 1), dtype=dtype)
    acc = np.zeros(batch + (n_q, v.shape[-1]), dtype=dtype)
    qi = np.arange(n_q)[:, None] + (n_k - n_q)
    scale = 1.0 / math.sqrt(d)
    for j0 in range(0, n_k, block_size):
        j1 = min(j0 + block_size, n_k)
        s = (q @ np.swapaxes(k[..., j0:j1, :], -1, -2)) * scale
        if causal:
            allowed = np.arange(j0, j1)[None, :] <= qi
            s = np.where(allowed, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        safe = np.where(np.isfinite(m_new), m_new, 0)
        p = np.exp(s - safe)
        corr = np.exp(np.where(np.isfinite(m), m - safe, -np.inf))
        l = l * corr + p.sum(-1, keepdims=True)
        acc = acc * corr + p @ v[..., j0:j1, :]
        m = m_new
    out = np.divide(acc, l, out=np.zeros_like(acc), where=l > 0)
    return out.astype(dtype)
'''
ANSWERS = [
    {"exercise": "online_softmax_attention", "kind": "correct", "idea": "running max, denominator and accumulator per key block", "code": _ON},
    {"exercise": "online_softmax_attention", "kind": "correct", "idea": "log-sum-exp running state, float64 internally, skips blocks past the causal limit",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    dt = np.result_type(q, k, v)
    q64, k64, v64 = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    n_q, n_k = q.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    lse = np.full(lead + (n_q, 1), -np.inf)
    out = np.zeros(lead + (n_q, v.shape[-1]))
    limit = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        if causal and start > limit.max():
            break
        stop = min(start + block_size, n_k)
        s = q64 @ np.swapaxes(k64[..., start:stop, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            s = np.where(np.arange(start, stop)[None, :] <= limit, s, -np.inf)
        with np.errstate(divide="ignore", invalid="ignore"):
            blk = np.logaddexp.reduce(s, axis=-1, keepdims=True)
            new = np.logaddexp(lse, blk)
            w_old = np.where(np.isfinite(new), np.exp(lse - new), 0.0)
            p = np.where(np.isfinite(new), np.exp(s - new), 0.0)
        out = out * w_old + p @ v64[..., start:stop, :]
        lse = new
    return out.astype(dt)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "accumulator not rescaled when the running max grows",
     "teacher_says": "when the max changes, multiply the old denominator and the old accumulator by exp(m_old - m_new)",
     "code": _ON.replace("acc = acc * corr + p @ v[..., j0:j1, :]", "acc = acc + p @ v[..., j0:j1, :]")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "causal mask aligned top-left (j <= i)",
     "teacher_says": "align bottom-right: query i may attend keys up to i + n_k - n_q",
     "code": _ON.replace("qi = np.arange(n_q)[:, None] + (n_k - n_q)", "qi = np.arange(n_q)[:, None]")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "strict < in the causal comparison: a query does not see its own key",
     "teacher_says": "key i + n_k - n_q itself is allowed: use <=",
     "code": _ON.replace("<= qi", "< qi")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "block index off by one: range(j0, j1) mask built with j0+1 (global key index shifted)",
     "teacher_says": "the block's key indices are j0 .. j1-1 in the whole sequence",
     "code": _ON.replace("np.arange(j0, j1)[None, :] <= qi", "np.arange(j0 + 1, j1 + 1)[None, :] <= qi")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "last partial block dropped (range stops at n_k - block_size)",
     "teacher_says": "when block_size does not divide n_k the last keys are in a shorter block: do not skip it",
     "code": _ON.replace("for j0 in range(0, n_k, block_size):", "for j0 in range(0, n_k - n_k % block_size, block_size):")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "fully masked queries (n_q > n_k) give NaN",
     "teacher_says": "a query with no allowed key must get zeros; guard the -inf max and the 0 denominator",
     "code": _ON.replace("out = np.divide(acc, l, out=np.zeros_like(acc), where=l > 0)", "out = acc / l").replace("safe = np.where(np.isfinite(m_new), m_new, 0)", "safe = m_new")},
    {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "builds the whole (n_q, n_k) causal mask up front (memory)",
     "code": _ON.replace("    for j0 in range(0, n_k, block_size):", "    full_mask = np.arange(n_k)[None, :] <= qi\n    full_mask = full_mask.astype(np.float64)\n    for j0 in range(0, n_k, block_size):").replace("allowed = np.arange(j0, j1)[None, :] <= qi", "allowed = full_mask[:, j0:j1] > 0")},
    {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "ignores block_size: full scores at once (correct values, huge memory)",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        s = np.where(np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
    m = s.max(-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m)
    z = e.sum(-1, keepdims=True)
    return (np.divide(e, z, out=np.zeros_like(e), where=z > 0) @ v).astype(np.result_type(q, k, v))
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct", "idea": "B * n * d_model * 2", "code": "\nhead_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2\n"},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct", "idea": "2**27", "code": "\nhead_parallel_all_reduce_bytes = 2 ** 27\n"},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "divides by the 4 devices (thinks each device holds a quarter of the output)", "teacher_says": "each partial output is a full (B, n, d_model) array; the devices' parts are summed, not concatenated", "code": "\nhead_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4\n"},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "uses the 8 heads' width (8 * 128 = 1024) instead of d_model", "teacher_says": "after W^O the partial output has d_model = 4096 features", "code": "\nhead_parallel_all_reduce_bytes = 8 * 2048 * 1024 * 2\n"},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "4 bytes per number (float32)", "teacher_says": "bfloat16 takes 2 bytes", "code": "\nhead_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4\n"},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "ring all-reduce traffic 2(D-1)/D times the array", "teacher_says": "the question asks for the array's size, not what the ring sends", "code": "\nhead_parallel_all_reduce_bytes = int(2 * 3 / 4 * 8 * 2048 * 4096 * 2)\n"},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness", "idea": "float from a MiB computation", "code": "\nhead_parallel_all_reduce_bytes = 128 * 1024 ** 2 * 1.0\n"},
]
