ANSWERS = [
    # online_softmax_attention
    {"exercise": "online_softmax_attention", "kind": "correct", "idea": "running max m, sum l, output o over key blocks",
     "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    scale = 1.0 / math.sqrt(q.shape[-1])
    n_k = k.shape[-2]
    shape = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    m = np.full(shape + (q.shape[-2], 1), -np.inf)
    l = np.zeros(shape + (q.shape[-2], 1))
    o = np.zeros(shape + (q.shape[-2], v.shape[-1]))
    for start in range(0, n_k, block_size):
        kb = k[..., start:start + block_size, :]
        vb = v[..., start:start + block_size, :]
        s = q @ np.swapaxes(kb, -1, -2)  # (..., n_q, block)
        s *= scale
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        corr = np.exp(m - m_new)
        s -= m_new
        np.exp(s, out=s)  # s now holds the block's unnormalised weights
        l = l * corr + s.sum(-1, keepdims=True)
        o = o * corr + s @ vb
        m = m_new
    return (o / l).astype(np.result_type(q, k, v))
'''},
    {"exercise": "online_softmax_attention", "kind": "correct", "idea": "same with einsum and in-place updates on own buffers, float64 accumulators",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    q64 = np.asarray(q, dtype=np.float64) / np.sqrt(q.shape[-1])
    n_q, n_k = q.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full(lead + (n_q, 1), -np.inf)
    l = np.zeros(lead + (n_q, 1))
    o = np.zeros(lead + (n_q, v.shape[-1]))
    j = 0
    while j < n_k:
        s = np.einsum("...id,...jd->...ij", q64, k[..., j:j + block_size, :])
        mb = np.maximum(m, s.max(axis=-1, keepdims=True))
        a = np.exp(m - mb)
        s -= mb
        np.exp(s, out=s)
        l *= a
        l += s.sum(axis=-1, keepdims=True)
        o *= a
        o += np.einsum("...ij,...jd->...id", s, v[..., j:j + block_size, :])
        m = mb
        j += block_size
    o /= l
    return o.astype(np.result_type(q, k, v))
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "does not rescale the old sum and output when the max changes",
     "teacher_says": "when the running max grows, multiply l and o by exp(m_old - m_new)",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    s0 = 1 / np.sqrt(q.shape[-1])
    n_q, n_k = q.shape[-2], k.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    l = np.zeros(q.shape[:-1] + (1,))
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for j in range(0, n_k, block_size):
        s = q @ np.swapaxes(k[..., j:j + block_size, :], -1, -2) * s0
        m = np.maximum(m, s.max(-1, keepdims=True))
        p = np.exp(s - m)
        l = l + p.sum(-1, keepdims=True)
        o = o + p @ v[..., j:j + block_size, :]
    return o / l
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "range(0, n_k - block_size, block_size): drops the last (partial) block",
     "teacher_says": "the last block may be shorter; range(0, n_k, block_size) and a slice include it",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    c = 1 / np.sqrt(q.shape[-1])
    n_k = k.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    l = np.zeros(q.shape[:-1] + (1,))
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for j in range(0, max(n_k - block_size, 1), block_size):
        s = q @ np.swapaxes(k[..., j:j + block_size, :], -1, -2) * c
        mn = np.maximum(m, s.max(-1, keepdims=True))
        a = np.exp(m - mn); p = np.exp(s - mn)
        l = l * a + p.sum(-1, keepdims=True)
        o = o * a + p @ v[..., j:j + block_size, :]
        m = mn
    return o / l
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "forgets the 1/sqrt(d_k) scaling",
     "teacher_says": "the scores are QK^T / sqrt(d_k)",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    n_k = k.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    l = np.zeros(q.shape[:-1] + (1,))
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for j in range(0, n_k, block_size):
        s = q @ np.swapaxes(k[..., j:j + block_size, :], -1, -2)
        mn = np.maximum(m, s.max(-1, keepdims=True))
        a = np.exp(m - mn); p = np.exp(s - mn)
        l = l * a + p.sum(-1, keepdims=True)
        o = o * a + p @ v[..., j:j + block_size, :]
        m = mn
    return o / l
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "keeps the scores of every block in a list and concatenates them (the full score matrix exists)",
     "teacher_says": "the values are right but the (n_q, n_k) scores exist in memory: combine blocks as you go with the online softmax",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    c = 1 / np.sqrt(q.shape[-1])
    blocks = [q @ np.swapaxes(k[..., j:j + block_size, :], -1, -2) * c for j in range(0, k.shape[-2], block_size)]
    s = np.concatenate(blocks, axis=-1)
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ v
'''},
    {"exercise": "online_softmax_attention", "kind": "wrong", "mistake": "normalises each block separately and averages the block outputs",
     "teacher_says": "blocks must be weighted by their share of the total softmax sum, not averaged equally",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    c = 1 / np.sqrt(q.shape[-1])
    outs = []
    for j in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., j:j + block_size, :], -1, -2) * c
        e = np.exp(s - s.max(-1, keepdims=True))
        outs.append((e / e.sum(-1, keepdims=True)) @ v[..., j:j + block_size, :])
    return sum(outs) / len(outs)
'''},
    {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "returns (out, None) tuple like mha.multi_head_attention",
     "mistake": "returns a tuple instead of the output array",
     "teacher_says": "return only the output array",
     "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    c = 1 / np.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    l = np.zeros(q.shape[:-1] + (1,))
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for j in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., j:j + block_size, :], -1, -2) * c
        mn = np.maximum(m, s.max(-1, keepdims=True))
        a = np.exp(m - mn); p = np.exp(s - mn)
        l = l * a + p.sum(-1, keepdims=True)
        o = o * a + p @ v[..., j:j + block_size, :]
        m = mn
    return o / l, None
'''},
    {"exercise": "online_softmax_attention", "kind": "robustness", "idea": "one key at a time with Python loops over rows (ignores block_size; very slow)",
     "mistake": "pure-Python triple loop: correct but far too slow for n > 1000",
     "teacher_says": "vectorise over queries and read block_size keys at a time; a Python loop per key and query takes minutes",
     "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size):
    q = np.asarray(q); k = np.asarray(k); v = np.asarray(v)
    lead = q.shape[:-2]
    qf = q.reshape(-1, *q.shape[-2:]); kf = np.broadcast_to(k, lead + k.shape[-2:]).reshape(-1, *k.shape[-2:])
    vf = np.broadcast_to(v, lead + v.shape[-2:]).reshape(-1, *v.shape[-2:])
    out = np.zeros(qf.shape[:-1] + (vf.shape[-1],))
    c = 1 / math.sqrt(q.shape[-1])
    for b in range(qf.shape[0]):
        for i in range(qf.shape[1]):
            m, l = -math.inf, 0.0
            o = np.zeros(vf.shape[-1])
            for j in range(kf.shape[1]):
                s = float(qf[b, i] @ kf[b, j]) * c
                mn = max(m, s)
                a = math.exp(m - mn) if m > -math.inf else 0.0
                p = math.exp(s - mn)
                l = l * a + p
                o = o * a + p * vf[b, j]
                m = mn
            out[b, i] = o / l
    return out.reshape(lead + out.shape[-2:])
'''},
    # head_parallel_all_reduce_bytes
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct", "idea": "full output shape B*n*d_model times 2 bytes",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct", "idea": "via numpy itemsize of a bfloat16-sized dtype (float16 has the same size)",
     "code": '''
import numpy as np
head_parallel_all_reduce_bytes = int(np.prod([8, 2048, 4096]) * np.dtype(np.float16).itemsize)
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "divides by the 4 devices (thinks each contributes a quarter)",
     "teacher_says": "each device's partial output has the full (B, n, d_model) shape; the devices' parts are summed, not concatenated",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "uses the device's 8 heads of 128 features (its heads' outputs, before W^O)",
     "teacher_says": "the heads times their rows of W^O give an array of the full d_model width",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 8 * 128 * 2
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "counts the ring all-reduce traffic 2(D-1)/D times the array",
     "teacher_says": "the question asks for the size of the partial output array, not what the algorithm sends",
     "code": '''
head_parallel_all_reduce_bytes = int(2 * 3 / 4 * 8 * 2048 * 4096 * 2)
'''},
    {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong", "mistake": "float32 (4 bytes)",
     "teacher_says": "bfloat16 takes 2 bytes",
     "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
]
