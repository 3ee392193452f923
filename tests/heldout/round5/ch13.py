ANSWERS = [
 # ------------------------------------------------------------------ online_softmax_attention
 {"exercise": "online_softmax_attention", "kind": "correct",
  "idea": "keeps a running log-sum-exp and an output that is normalised after every block (np.logaddexp), instead of a running max and an unnormalised sum",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    scale = 1.0 / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    lse = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)       # log of the running sum
    out = np.zeros((*batch, n_q, v.shape[-1]), dtype=q.dtype)     # already normalised
    last_key = np.arange(n_q)[:, None] + (n_k - n_q)               # bottom-right causal limit
    with np.errstate(divide="ignore"):
        for start in range(0, n_k, block_size):
            stop = min(start + block_size, n_k)
            s = (q @ np.swapaxes(k[..., start:stop, :], -1, -2)) * scale  # (..., n_q, block)
            if causal:
                s = np.where(np.arange(start, stop) <= last_key, s, -np.inf)
            block_max = s.max(axis=-1, keepdims=True)
            base = np.where(np.isfinite(block_max), block_max, 0.0)
            block_lse = np.log(np.exp(s - base).sum(axis=-1, keepdims=True)) + base
            new_lse = np.logaddexp(lse, block_lse)
            shift = np.where(np.isfinite(new_lse), new_lse, 0.0)
            out = out * np.exp(lse - shift) + np.exp(s - shift) @ v[..., start:stop, :]
            lse = new_lse
    return out.astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "correct",
  "idea": "running max and sum updated in place, blocks from np.array_split of the key indices, the mask multiplied into the exponentials, and a division by inf for rows that saw no key",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    q = q * np.asarray(1.0 / math.sqrt(q.shape[-1]), dtype=q.dtype)
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    row_max = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)
    row_sum = np.zeros((*batch, n_q, 1), dtype=q.dtype)
    acc = np.zeros((*batch, n_q, d_v), dtype=q.dtype)
    query_at = np.arange(n_q) + (n_k - n_q)                        # each query's position
    for idx in np.array_split(np.arange(n_k), math.ceil(n_k / block_size)):
        scores = q @ np.swapaxes(k[..., idx, :], -1, -2)            # (..., n_q, len(idx))
        allowed = np.greater_equal.outer(query_at, idx) if causal else np.ones((1, len(idx)), bool)
        scores = np.where(allowed, scores, -np.inf)
        new_max = np.maximum(row_max, scores.max(axis=-1, keepdims=True))
        shift = np.where(new_max == -np.inf, 0.0, new_max)
        weights = np.exp(scores - shift)
        weights *= allowed
        carry = np.exp(row_max - shift)
        row_sum *= carry                      # in place: re-base the old sums
        row_sum += weights.sum(axis=-1, keepdims=True)
        acc *= carry
        acc += weights @ v[..., idx, :]
        row_max = new_max
    acc /= np.where(row_sum > 0, row_sum, np.inf)  # rows that saw no key stay 0
    return acc.astype(q.dtype, copy=False)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Rescales the running sum when the maximum grows but forgets to rescale the running output.",
  "teacher_says": "Both running quantities are sums relative to the current maximum: when it grows, multiply the output accumulator by e^(m - m') too, not only the sum.",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*batch, n_q, v.shape[-1]), dtype=q.dtype)
    query_pos = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., start:start + block_size, :], -1, -2)
        if causal:
            s = np.where(keys <= query_pos, s, -np.inf)
        new_m = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - shift)
        l = l * np.exp(m - shift) + p.sum(axis=-1, keepdims=True)
        acc = acc + p @ v[..., start:start + block_size, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Rescales the running output but not the running sum, so the denominator mixes exponentials relative to different maxima.",
  "teacher_says": "The running sum must be re-based too: l' = l * e^(m - m') + sum of the block's exponentials.",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*batch, n_q, v.shape[-1]), dtype=q.dtype)
    query_pos = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., start:start + block_size, :], -1, -2)
        if causal:
            s = np.where(keys <= query_pos, s, -np.inf)
        new_m = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        l = l + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:start + block_size, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Aligns the causal mask top-left (key j <= i) instead of bottom-right (j <= i + n_k - n_q): wrong whenever there are fewer queries than keys, as in decoding with a cache.",
  "teacher_says": "With n_q != n_k the queries are the LAST n_q positions: query i may attend keys 0 .. i + n_k - n_q, as mha.causal_mask aligns it.",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*batch, n_q, v.shape[-1]), dtype=q.dtype)
    query_pos = np.arange(n_q)[:, None]
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., start:start + block_size, :], -1, -2)
        if causal:
            s = np.where(keys <= query_pos, s, -np.inf)
        new_m = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        l = l * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:start + block_size, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Uses a strict comparison in the causal mask, so each query cannot attend its own position (and the first query of a square input sees nothing).",
  "teacher_says": "Causal attention includes the diagonal: key j is allowed when j <= i + n_k - n_q, not j < ...",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*batch, n_q, v.shape[-1]), dtype=q.dtype)
    query_pos = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., start:start + block_size, :], -1, -2)
        if causal:
            s = np.where(keys < query_pos, s, -np.inf)
        new_m = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        l = l * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:start + block_size, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Forgets the 1/sqrt(d_k) scale of the scores.",
  "teacher_says": "The exercise computes softmax(Q K^T / sqrt(d_k)) V: divide q (or the scores) by sqrt(d_k).",
  "code": '''
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*batch, n_q, v.shape[-1]), dtype=q.dtype)
    query_pos = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., start:start + block_size, :], -1, -2)
        if causal:
            s = np.where(keys <= query_pos, s, -np.inf)
        new_m = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        l = l * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:start + block_size, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Builds each block's mask from the key indices WITHIN the block (0 .. block-1) instead of their absolute positions start .. start+block-1.",
  "teacher_says": "Key j of block starting at `start` is key start + j of the sequence: compare np.arange(start, stop), not np.arange(block), with the query's position.",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*batch, n_q, v.shape[-1]), dtype=q.dtype)
    query_pos = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        k_block = k[..., start:start + block_size, :]
        keys = np.arange(k_block.shape[-2])
        s = q @ np.swapaxes(k_block, -1, -2)
        if causal:
            s = np.where(keys <= query_pos, s, -np.inf)
        new_m = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        l = l * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:start + block_size, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "wrong",
  "mistake": "Builds the whole (n_q, n_k) causal mask once with np.tril(np.ones(...)) and slices it per block: the values are right, but a float64 array of n_q*n_k numbers is created, which the exercise forbids and its memory check catches.",
  "teacher_says": "The point is never to hold anything of shape (n_q, n_k): build each block's part of the mask from the key indices of that block only.",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf, dtype=q.dtype)
    l = np.zeros_like(m)
    acc = np.zeros((*batch, n_q, v.shape[-1]), dtype=q.dtype)
    full_mask = np.tril(np.ones((n_q, n_k)), k=n_k - n_q).astype(bool) if causal else None
    for start in range(0, n_k, block_size):
        s = q @ np.swapaxes(k[..., start:start + block_size, :], -1, -2)
        if causal:
            s = np.where(full_mask[:, start:start + block_size], s, -np.inf)
        new_m = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        l = l * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:start + block_size, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0).astype(q.dtype)
'''},
 {"exercise": "online_softmax_attention", "kind": "robustness",
  "idea": "runs the whole loop in float64 for safety and returns the float64 result",
  "mistake": "Right values, but float32 inputs give a float64 result (the statement says float32 should stay float32).",
  "teacher_says": "Return the inputs' dtype: cast the result back with .astype(q.dtype), or compute in q's dtype throughout.",
  "code": '''
import math
import numpy as np

def online_softmax_attention(q, k, v, block_size, causal=False):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    n_q, n_k = q.shape[-2], k.shape[-2]
    q = q / math.sqrt(q.shape[-1])
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    m = np.full((*batch, n_q, 1), -np.inf)
    l = np.zeros_like(m)
    acc = np.zeros((*batch, n_q, v.shape[-1]))
    query_pos = np.arange(n_q)[:, None] + n_k - n_q
    for start in range(0, n_k, block_size):
        keys = np.arange(start, min(start + block_size, n_k))
        s = q @ np.swapaxes(k[..., start:start + block_size, :], -1, -2)
        if causal:
            s = np.where(keys <= query_pos, s, -np.inf)
        new_m = np.maximum(m, s.max(axis=-1, keepdims=True))
        shift = np.where(np.isfinite(new_m), new_m, 0.0)
        p = np.exp(s - shift)
        rescale = np.exp(m - shift)
        l = l * rescale + p.sum(axis=-1, keepdims=True)
        acc = acc * rescale + p @ v[..., start:start + block_size, :]
        m = new_m
    return np.where(l > 0, acc / np.where(l > 0, l, 1.0), 0.0)
'''},
 # ------------------------------------------------------------------ head_parallel_all_reduce_bytes
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
  "idea": "math.prod of the full output shape times the bytes per number",
  "code": '''
import math

batch, tokens, d_model, bytes_per_number = 8, 2048, 4096, 2
head_parallel_all_reduce_bytes = math.prod((batch, tokens, d_model)) * bytes_per_number
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "correct",
  "idea": "reason in powers of two (2^3 * 2^11 * 2^12 * 2^1) and shift",
  "code": '''
head_parallel_all_reduce_bytes = 1 << (3 + 11 + 12 + 1)  # 8 * 2048 * 4096 * 2 bytes
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Divides by the 4 devices, thinking each device only contributes its quarter of the output.",
  "teacher_says": "A device's heads times its rows of W^O give an array of the FULL output shape (B, n, d_model); the all-reduce adds four such arrays.",
  "code": '''
D = 4
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // D
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Answers with the bytes a ring all-reduce sends, 2(D-1)/D times the array, instead of the array's own size.",
  "teacher_says": "The question is about the partial output array each device contributes, not about the traffic of a particular all-reduce algorithm.",
  "code": '''
D = 4
size = 8 * 2048 * 4096 * 2
head_parallel_all_reduce_bytes = 2 * (D - 1) * size // D
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number (float32) although the layer runs in bfloat16.",
  "teacher_says": "bfloat16 takes 2 bytes per number.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 4
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Forgets the batch of 8 sequences.",
  "teacher_says": "The partial output has shape (B, n, d_model): include the batch of 8.",
  "code": '''
tokens, d_model = 2048, 4096
head_parallel_all_reduce_bytes = tokens * d_model * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Adds up the partial outputs of all four devices instead of one device's.",
  "teacher_says": "The question asks what EACH device contributes: one array of B*n*d_model numbers, not four.",
  "code": '''
head_parallel_all_reduce_bytes = 4 * 8 * 2048 * 4096 * 2
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "wrong",
  "mistake": "Counts the numbers in the array but not their bytes.",
  "teacher_says": "Multiply the count by the 2 bytes of each bfloat16 number.",
  "code": '''
head_parallel_all_reduce_bytes = 8 * 2048 * 4096
'''},
 {"exercise": "head_parallel_all_reduce_bytes", "kind": "robustness",
  "idea": "np.prod over the shape and the bytes",
  "mistake": "Right value, but a NumPy int64 rather than a Python int.",
  "teacher_says": "Wrap NumPy results in int(...) when a plain int is asked for (or use math.prod).",
  "code": '''
import numpy as np

head_parallel_all_reduce_bytes = np.prod(np.array([8, 2048, 4096, 2], dtype=np.int64))
'''},
]
