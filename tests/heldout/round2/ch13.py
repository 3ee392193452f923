_ONLINE = '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, d_k = q.shape[-2], q.shape[-1]
    n_k = k.shape[-2]
    dtype = np.result_type(q, k, v)
    scale = 1.0 / math.sqrt(d_k)
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    run_max = np.full(batch + (n_q, 1), -np.inf)
    run_sum = np.zeros(batch + (n_q, 1))
    acc = np.zeros(batch + (n_q, v.shape[-1]))
    q_pos = np.arange(n_q)[:, None] + (n_k - n_q)
    for start in range(0, n_k, block_size):
        stop = min(start + block_size, n_k)
        s = (q @ np.swapaxes(k[..., start:stop, :], -1, -2)) * scale
        if causal:
            allowed = np.arange(start, stop)[None, :] <= q_pos
            s = np.where(allowed, s, -np.inf)
        new_max = np.maximum(run_max, s.max(axis=-1, keepdims=True))
        safe = np.where(np.isfinite(new_max), new_max, 0.0)
        correction = np.exp(run_max - safe)
        p = np.exp(s - safe)
        run_sum = run_sum * correction + p.sum(axis=-1, keepdims=True)
        acc = acc * correction + p @ v[..., start:stop, :]
        run_max = new_max
    out = np.where(run_sum > 0, acc / np.where(run_sum > 0, run_sum, 1.0), 0.0)
    return out.astype(dtype)
'''

ANSWERS = [
    # ---------------- online_softmax_attention ----------------
    {"exercise": "online_softmax_attention", "kind": "correct", "idea": "running max / sum / output per query, block mask from arange, safe max for rows with no key yet",
     "code": _ONLINE},
    {"exercise": "online_softmax_attention", "kind": "correct", "idea": "same recurrence written with log-sum-exp state (running lse) and a skip of blocks that are entirely in the future",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    out_dtype = np.result_type(q, k, v)
    q64 = np.asarray(q, dtype=np.float64) / np.sqrt(q.shape[-1])
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    lse = np.full(lead + (n_q, 1), -np.inf)
    out = np.zeros(lead + (n_q, v.shape[-1]))
    last_allowed = np.arange(n_q)[:, None] + n_k - n_q   # (n_q, 1)
    for start in range(0, n_k, block_size):
        stop = min(n_k, start + block_size)
        if causal and start > last_allowed.max():
            break
        s = q64 @ np.swapaxes(np.asarray(k[..., start:stop, :], np.float64), -1, -2)
        if causal:
            s = np.where(np.arange(start, stop)[None, :] <= last_allowed, s, -np.inf)
        m = s.max(-1, keepdims=True)
        m_safe = np.where(np.isfinite(m), m, 0.0)
        e = np.exp(s - m_safe)
        block_sum = e.sum(-1, keepdims=True)
        with np.errstate(divide="ignore"):
            block_lse = np.where(block_sum > 0, m_safe + np.log(np.where(block_sum > 0, block_sum, 1.0)), -np.inf)
        new_lse = np.logaddexp(lse, block_lse)
        new_safe = np.where(np.isfinite(new_lse), new_lse, 0.0)
        block_out = np.where(block_sum > 0, (e @ np.asarray(v[..., start:stop, :], np.float64)) / np.where(block_sum > 0, block_sum, 1.0), 0.0)
        out = out * np.exp(np.where(np.isfinite(lse), lse - new_safe, -np.inf)) + block_out * np.exp(np.where(np.isfinite(block_lse), block_lse - new_safe, -np.inf))
        lse = new_lse
    return out.astype(out_dtype)
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "the causal mask is aligned top-left (key j allowed when j <= i)",
     "teacher_says": "query i sits at position i + n_k - n_q: compare the key index with i + n_k - n_q, as mha.causal_mask does",
     "code": _ONLINE.replace("q_pos = np.arange(n_q)[:, None] + (n_k - n_q)", "q_pos = np.arange(n_q)[:, None]")},
    {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "subtracts new_max directly (no finite stand-in): NaN intermediates and RuntimeWarnings for queries that may attend no key, the final guard hides them",
     "mistake": "exp(-inf - (-inf)) makes the running sum and output NaN for rows with no allowed key; the final np.where(run_sum > 0, ...) turns them into zeros, with 'invalid value' RuntimeWarnings on the way",
     "teacher_says": "subtract np.where(np.isfinite(new_max), new_max, 0.0): NaN in the running state is a bug waiting to happen (it only comes out right because a causal row that sees any key sees key 0 in the first block)",
     "code": _ONLINE.replace("safe = np.where(np.isfinite(new_max), new_max, 0.0)", "safe = new_max")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "forgets to rescale the running output by exp(m - m') when the maximum grows",
     "teacher_says": "the running output was accumulated with the old maximum: multiply it by the same correction as the running sum",
     "code": _ONLINE.replace("acc = acc * correction + p @ v[..., start:stop, :]", "acc = acc + p @ v[..., start:stop, :]")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "the loop stops before the last partial block (range(0, n_k - block_size + 1, block_size))",
     "teacher_says": "when block_size does not divide n_k the last keys are never read: loop over range(0, n_k, block_size) and clip the stop",
     "code": _ONLINE.replace("for start in range(0, n_k, block_size):", "for start in range(0, n_k - block_size + 1, block_size):")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "builds the whole (n_q, n_k) causal mask up front as an additive float64 bias (0 / -inf) and slices it per block: correct values, but an (n_q, n_k) float64 array exists",
     "teacher_says": "the full mask is an (n_q, n_k) array, exactly what must never exist; build each block's part from arange",
     "code": _ONLINE.replace("    for start in range(0, n_k, block_size):", "    full_bias = np.where(np.arange(n_k)[None, :] <= q_pos, 0.0, -np.inf) if causal else None\n    for start in range(0, n_k, block_size):").replace("allowed = np.arange(start, stop)[None, :] <= q_pos\n            s = np.where(allowed, s, -np.inf)", "s = s + full_bias[:, start:stop]")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "no 1/sqrt(d_k) scaling",
     "teacher_says": "the scores are QK^T / sqrt(d_k)",
     "code": _ONLINE.replace("scale = 1.0 / math.sqrt(d_k)", "scale = 1.0")},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "divides by the running sum without a guard: a query with no key (n_q > n_k) gets 0/0 = NaN",
     "teacher_says": "a query that may attend no key ends with a running sum of 0: give it a zero output",
     "code": _ONLINE.replace("out = np.where(run_sum > 0, acc / np.where(run_sum > 0, run_sum, 1.0), 0.0)", "out = acc / run_sum")},
    {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "materialises the whole score matrix and calls softmax (no blocks at all)",
     "mistake": "ignores block_size and computes the full (n_q, n_k) scores: right values, the memory limit is exceeded",
     "teacher_says": "the point of the exercise is never to hold the (n_q, n_k) scores; read the keys block by block",
     "code": '''
import numpy as np
import mha

def online_softmax_attention(q, k, v, block_size, causal=False):
    mask = mha.causal_mask(q.shape[-2], k.shape[-2]) if causal else None
    return mha.scaled_dot_product_attention(q, k, v, mask)[0]
'''},
    {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "accumulates in float16 to save memory",
     "mistake": "running sum and output in float16: large errors and overflow",
     "teacher_says": "keep the running statistics in float32 or float64; float16 sums lose precision and exp overflows above 11",
     "code": _ONLINE.replace("run_sum = np.zeros(batch + (n_q, 1))", "run_sum = np.zeros(batch + (n_q, 1), dtype=np.float16)").replace("acc = np.zeros(batch + (n_q, v.shape[-1]))", "acc = np.zeros(batch + (n_q, v.shape[-1]), dtype=np.float16)").replace("run_sum = run_sum * correction + p.sum(axis=-1, keepdims=True)", "run_sum = (run_sum * correction + p.sum(axis=-1, keepdims=True)).astype(np.float16)").replace("acc = acc * correction + p @ v[..., start:stop, :]", "acc = (acc * correction + p @ v[..., start:stop, :]).astype(np.float16)").replace("return out.astype(dtype)", "return out.astype(np.float16)")},
    # ---------------- head_parallel_all_reduce_bytes ----------------
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct", "idea": "B * n * d_model * 2: the partial output has the layer output's full shape",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct", "idea": "from the shapes: (8 heads' concat, 8*128 wide) @ (1024, 4096) rows of W^O -> (B, n, 4096)",
     "code": '''
_B, _n, _d_model, _h, _D, _bytes = 8, 2048, 4096, 32, 4, 2
_partial_shape = (_B, _n, (_h // _D) * (_d_model // _h))   # the device's heads, concatenated
_partial_shape = _partial_shape[:2] + (_d_model,)          # times its rows of W^O
head_parallel_all_reduce_bytes = _partial_shape[0] * _partial_shape[1] * _partial_shape[2] * _bytes
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "divides by the 4 devices (thinks each device owns a quarter of the output features)",
     "teacher_says": "each device's heads times its rows of W^O give an array of the full output shape (B, n, d_model)",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "multiplies by the number of devices (the sum of all partial outputs)",
     "teacher_says": "the question is what *each* device contributes",
     "code": '''
head_parallel_all_reduce_bytes = 4 * 8 * 2048 * 4096 * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "4 bytes per number",
     "teacher_says": "bfloat16 is 2 bytes",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "forgets the batch",
     "teacher_says": "the array covers all 8 sequences",
     "code": '''
head_parallel_all_reduce_bytes = 2048 * 4096 * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "the ring all-reduce traffic 2 (D - 1) / D times the array",
     "teacher_says": "the question is about the array, not what the algorithm sends",
     "code": '''
head_parallel_all_reduce_bytes = 2 * 3 * (8 * 2048 * 4096 * 2) // 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness", "idea": "a string with units",
     "mistake": "assigns '128 MiB'",
     "teacher_says": "assign the int number of bytes",
     "code": '''
head_parallel_all_reduce_bytes = "128 MiB"
'''},
]
