# writer D's answers, then writer H's (each file verbatim)
ANSWERS = [
 # -------------------------------------------------------------------- repeat_kv_heads
 {"exercise": "repeat_kv_heads", "kind": "correct",
  "idea": "insert a group axis after the kv-heads axis, broadcast it to h/g, then merge the two axes",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    *lead, g, n, d = k.shape
    expanded = np.broadcast_to(k[..., :, None, :, :], (*lead, g, num_heads // g, n, d))
    return expanded.reshape(*lead, num_heads, n, d)
'''},
 {"exercise": "repeat_kv_heads", "kind": "robustness",
  "idea": "a Python loop over the query heads picking key/value head i // (h/g), stacked along axis -3",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    per_group = num_heads // g
    chosen = []
    for i in range(num_heads):
        chosen.append(np.array(k[..., i // per_group, :, :], copy=True))
    return np.stack(chosen, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Uses np.tile, which repeats the whole sequence of key/value heads (0, 1, 0, 1) instead of each head in a row (0, 0, 1, 1).",
  "teacher_says": "Query head i reads key/value head i // (h/g), a contiguous group: that is np.repeat, not np.tile.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Repeats along axis 1, assuming a (B, g, n, d) input; with no batch axis or with more than one, axis 1 is not the heads axis.",
  "teacher_says": "The shape is (..., g, n, d): index the heads axis from the end, axis=-3.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[1], axis=1)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Repeats each key/value head g times instead of h/g times, confusing the number of groups with the group size.",
  "teacher_says": "Each of the g key/value heads serves h/g query heads, so the repeat count is num_heads // g.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, g, axis=-3)
'''},
 # ------------------------------------------------------------ grouped_query_attention
 {"exercise": "grouped_query_attention", "kind": "correct",
  "idea": "expand the key/value heads with np.repeat, then ordinary per-head attention with mha's sdpa",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)                              # (..., h, n_q, d_k)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)  # (..., h, n_k, d_k)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)  # (..., h, n_k, d_v)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "robustness",
  "idea": "one query head at a time in a Python loop, each with its own slice of the mask, stacked at the end",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k, d_v = params.d_k, params.d_v
    n_q, n_k = q.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    if mask is not None:
        mask = np.broadcast_to(mask, (*lead, h, n_q, n_k))
    outs, weights = [], []
    for i in range(h):
        j = i // (h // g)
        qi = q @ params.w_q[:, i * d_k:(i + 1) * d_k]
        kj = k @ params.w_k[:, j * d_k:(j + 1) * d_k]
        vj = v @ params.w_v[:, j * d_v:(j + 1) * d_v]
        mi = None if mask is None else mask[..., i, :, :]
        o, w = mha.scaled_dot_product_attention(qi, kj, vj, mi)
        outs.append(o)
        weights.append(w)
    concat = np.concatenate(outs, axis=-1)
    return concat @ params.w_o, np.stack(weights, axis=-3)
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Maps query head i to key/value head i % g (interleaved) instead of i // (h/g).",
  "teacher_says": "Key/value head j serves the contiguous query heads j*h/g .. (j+1)*h/g - 1: use i // (h/g), i.e. np.repeat, not the modulo.",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = mha.split_heads(k @ params.w_k, g)
    vh = mha.split_heads(v @ params.w_v, g)
    index = np.arange(h) % g
    heads, weights = mha.scaled_dot_product_attention(
        qh, kh[..., index, :, :], vh[..., index, :, :], mask
    )
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Splits the keys and values into num_heads heads like the queries, although w_k and w_v only have g*d_k columns.",
  "teacher_says": "Keys and values have g = num_kv_heads heads of d_k each; split them into g, then share each across its h/g query heads.",
  "code": '''
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = mha.split_heads(k @ params.w_k, h)
    vh = mha.split_heads(v @ params.w_v, h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Groups the query heads as (g, h/g) without copying K and V, but passes the mask unchanged; a (B, 1, 1, n_k) or (B, h, n_q, n_k) mask then lines up with the wrong axes of the 5-D scores.",
  "teacher_says": "Once the heads axis is split into (g, h/g), the mask's heads axis must be split the same way (or the mask given an extra singleton axis).",
  "code": '''
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]
    vh = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    *lead, _, n_q, d_k = qh.shape
    q_grouped = qh.reshape(*lead, g, h // g, n_q, d_k)
    heads, weights = mha.scaled_dot_product_attention(q_grouped, kh, vh, mask)
    heads = heads.reshape(*lead, h, n_q, heads.shape[-1])
    weights = weights.reshape(*lead, h, n_q, weights.shape[-1])
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 # ------------------------------------------------------------------- decode_one_token
 {"exercise": "decode_one_token", "kind": "correct",
  "idea": "project the new token, append with np.concatenate (cast to x_t's dtype), group the query heads as (g, h/g) and attend with a hand-written softmax",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    dt = x_t.dtype
    q = mha.split_heads(x_t @ params.w_q, h)                   # (..., h, 1, d_k)
    k_new = mha.split_heads(x_t @ params.w_k, g)               # (..., g, 1, d_k)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    keys = np.concatenate([np.asarray(cache_k, dtype=dt), k_new], axis=-2)
    values = np.concatenate([np.asarray(cache_v, dtype=dt), v_new], axis=-2)
    *lead, _, _, d_k = q.shape
    qg = q.reshape(*lead, g, h // g, 1, d_k)
    scores = qg @ np.swapaxes(keys, -1, -2)[..., :, None, :, :] / np.sqrt(d_k).astype(dt)
    scores = scores - scores.max(-1, keepdims=True)
    p = np.exp(scores)
    p = p / p.sum(-1, keepdims=True)
    heads = (p @ values[..., :, None, :, :]).reshape(*lead, h, 1, values.shape[-1])
    out = (mha.merge_heads(heads) @ params.w_o).astype(dt)
    return out, keys, values
'''},
 {"exercise": "decode_one_token", "kind": "robustness",
  "idea": "everything in float64 with a Python loop over the query heads, every result cast back to x_t's dtype at the end",
  "code": '''
import numpy as np

def decode_one_token(x_t, params, cache_k, cache_v):
    dt = x_t.dtype
    h, g = params.num_heads, params.num_kv_heads
    d_k, d_v = params.d_k, params.d_v
    x = x_t.astype(np.float64)
    wq, wk, wv, wo = (np.asarray(w, dtype=np.float64) for w in (params.w_q, params.w_k, params.w_v, params.w_o))
    k_new = np.stack([x @ wk[:, j * d_k:(j + 1) * d_k] for j in range(g)], axis=-3)
    v_new = np.stack([x @ wv[:, j * d_v:(j + 1) * d_v] for j in range(g)], axis=-3)
    keys = np.concatenate([np.asarray(cache_k, dtype=np.float64), k_new], axis=-2)
    values = np.concatenate([np.asarray(cache_v, dtype=np.float64), v_new], axis=-2)
    heads = []
    for i in range(h):
        j = i // (h // g)
        qi = x @ wq[:, i * d_k:(i + 1) * d_k]                    # (..., 1, d_k)
        s = qi @ np.swapaxes(keys[..., j, :, :], -1, -2) / np.sqrt(d_k)
        s = np.exp(s - s.max(-1, keepdims=True))
        heads.append((s / s.sum(-1, keepdims=True)) @ values[..., j, :, :])
    out = np.concatenate(heads, axis=-1) @ wo
    return out.astype(dt), keys.astype(dt), values.astype(dt)
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Applies a top-left causal mask np.tril(np.ones((1, t + 1))) to the single new query, so it only sees the first cached key.",
  "teacher_says": "The new query is the last position: every cached key is in its past, so no mask is needed (a causal mask must be aligned bottom-right).",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    keys = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2).astype(x_t.dtype)
    values = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2).astype(x_t.dtype)
    mask = np.tril(np.ones((1, keys.shape[-2]), dtype=bool))
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3), mask
    )
    return mha.merge_heads(heads) @ params.w_o, keys, values
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Attends over the old cache first and appends the new key and value only afterwards, so the new token never sees itself (and at t = 0 it sees nothing).",
  "teacher_says": "Append the new token's key and value before attending: the query at position t attends keys 0..t, its own included.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    dt = x_t.dtype
    q = mha.split_heads(x_t @ params.w_q, h)
    old_k, old_v = np.asarray(cache_k, dtype=dt), np.asarray(cache_v, dtype=dt)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(old_k, h // g, axis=-3), np.repeat(old_v, h // g, axis=-3)
    )
    out = mha.merge_heads(heads) @ params.w_o
    keys = np.concatenate([old_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    values = np.concatenate([old_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    return out, keys, values
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Puts the new token's key and value at the front of the cache ([new; old]); the output is unchanged but the returned caches are in the wrong token order.",
  "teacher_says": "The cache is in token order: append the new key and value at the end of the token axis, np.concatenate([cache, new], axis=-2).",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    dt = x_t.dtype
    q = mha.split_heads(x_t @ params.w_q, h)
    keys = np.concatenate([mha.split_heads(x_t @ params.w_k, g), np.asarray(cache_k, dtype=dt)], axis=-2)
    values = np.concatenate([mha.split_heads(x_t @ params.w_v, g), np.asarray(cache_v, dtype=dt)], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, keys, values
'''},
 # ----------------------------------------------------------------- gqa_kv_cache_bytes
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
  "idea": "numbers per token per layer (K and V over the 8 kv heads), times tokens, sequences, layers, bytes",
  "code": '''
per_token_per_layer = 2 * 8 * 128          # a key and a value for each of the 8 kv heads
gqa_kv_cache_bytes = per_token_per_layer * 4096 * 8 * 32 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
  "idea": "the product taken with np.prod, so the value is a NumPy int64 rather than a Python int",
  "code": '''
import numpy as np

gqa_kv_cache_bytes = np.prod([2, 32, 8, 4096, 8, 128, 2], dtype=np.int64)
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Counts the 32 query heads instead of the 8 key/value heads.",
  "teacher_says": "The cache only stores keys and values, and with GQA there are only 8 key/value heads per layer.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Forgets the factor 2 for keys and values, counting only the keys.",
  "teacher_says": "The cache holds a key vector and a value vector per token and kv head: multiply by 2.",
  "code": '''
layers, batch, tokens, kv_heads, d_k, bytes_per_number = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = layers * batch * tokens * kv_heads * d_k * bytes_per_number
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Multiplies by 16 for bfloat16 (its bits) instead of 2 bytes per number.",
  "teacher_says": "bfloat16 is 16 bits = 2 bytes; the question asks for bytes.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 16
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
 # ------------------------------------------------------------------ repeat_kv_heads
 {"exercise": "repeat_kv_heads", "kind": "correct",
  "idea": "insert a group axis after the kv-heads axis, broadcast it to h/g, and reshape it away (a copy, in the right order)",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    k = np.asarray(k)
    *lead, g, n, d = k.shape
    r = num_heads // g
    expanded = np.broadcast_to(k[..., :, None, :, :], (*lead, g, r, n, d))
    return expanded.reshape(*lead, g * r, n, d)
'''},
 {"exercise": "repeat_kv_heads", "kind": "robustness",
  "idea": "a Python list of head slices, each kv head appended h/g times, stacked at the end",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    per_group = num_heads // g
    heads = []
    for i in range(num_heads):
        heads.append(np.array(k[..., i // per_group, :, :], copy=True))
    return np.stack(heads, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Uses np.tile along the heads axis, which gives the order 0, 1, 0, 1 (head i reads kv head i mod g) instead of 0, 0, 1, 1.",
  "teacher_says": "Query head i reads kv head floor(i/(h/g)): repeat each kv head in place (np.repeat), do not tile the whole sequence.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Half-remembers transformers' repeat_kv(hidden_states, n_rep), whose second argument is the number of repeats, and repeats each kv head num_heads times instead of num_heads // g.",
  "teacher_says": "num_heads is h, the total number of query heads; each kv head must be repeated h/g times so the result has h heads.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Copies transformers' 4-D recipe, k[:, :, None] with (batch, kv_heads, n, d) in mind, so any input without exactly one leading axis is expanded along the wrong axis.",
  "teacher_says": "The heads axis is -3 whatever the number of leading axes: index from the end, not k[:, :, None].",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[1]
    n_rep = num_heads // g
    shape = list(k.shape)
    expanded = np.broadcast_to(k[:, :, None], (shape[0], g, n_rep, *shape[2:]))
    return expanded.reshape(shape[0], g * n_rep, *shape[2:])
'''},
 # ------------------------------------------------------------------ grouped_query_attention
 {"exercise": "grouped_query_attention", "kind": "correct",
  "idea": "expand the kv heads to h with an index array floor(i/(h/g)), then an explicit masked softmax with einsum; rows with no allowed key give zeros",
  "code": '''
import math
import numpy as np

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g

    def heads(x, w, count, d):
        y = x @ w
        y = y.reshape(*y.shape[:-1], count, d)
        return np.moveaxis(y, -2, -3)               # (..., count, n, d)

    qh = heads(q, params.w_q, h, d_k)
    kh = heads(k, params.w_k, g, d_k)
    vh = heads(v, params.w_v, g, d_v)
    owner = np.arange(h) // (h // g)
    kh, vh = kh[..., owner, :, :], vh[..., owner, :, :]
    scores = np.einsum("...qd,...kd->...qk", qh, kh) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = e.sum(-1, keepdims=True)
    weights = e / np.where(total == 0, 1, total)
    out_heads = weights @ vh                         # (..., h, n_q, d_v)
    concat = np.moveaxis(out_heads, -3, -2)
    concat = concat.reshape(*concat.shape[:-2], h * d_v)
    return concat @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "robustness",
  "idea": "one query head at a time in a Python loop, each through mha.scaled_dot_product_attention with its slice of the broadcast mask; results stacked",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = mha.split_heads(k @ params.w_k, g)
    vh = mha.split_heads(v @ params.w_v, g)
    n_q, n_k = qh.shape[-2], kh.shape[-2]
    if mask is not None:
        lead = np.broadcast_shapes(qh.shape[:-3], kh.shape[:-3])
        full_mask = np.broadcast_to(mask, (*lead, h, n_q, n_k))
    outs, weights = [], []
    for i in range(h):
        j = i // (h // g)
        m_i = None if mask is None else full_mask[..., i, :, :]
        o, w = mha.scaled_dot_product_attention(qh[..., i, :, :], kh[..., j, :, :], vh[..., j, :, :], m_i)
        outs.append(o)
        weights.append(w)
    out = np.concatenate(outs, axis=-1) @ params.w_o
    return out, np.stack(weights, axis=-3)
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Expands the key/value heads to h with np.tile instead of np.repeat, which pairs query head i with kv head i mod g.",
  "teacher_says": "Contiguous groups: heads 0..h/g-1 read kv head 0, so each kv head must be repeated in place (0, 0, 1, 1), not tiled (0, 1, 0, 1).",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)            # (..., h, n_q, d_k)
    kh = mha.split_heads(k @ params.w_k, g)            # (..., g, n_k, d_k)
    vh = mha.split_heads(v @ params.w_v, g)
    reps = (1,) * (kh.ndim - 3) + (h // g, 1, 1)
    kh, vh = np.tile(kh, reps), np.tile(vh, reps)      # kv heads 0, 1, ..., g-1, 0, 1, ...
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Returns one weight matrix per key/value head (the group's query heads averaged) instead of one per query head.",
  "teacher_says": "The weights are per query head, shape (..., h, n_q, n_k): the heads of a group attend differently even though they share keys.",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    qh = mha.split_heads(q @ params.w_q, h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = mha.merge_heads(heads) @ params.w_o
    per_group = weights.reshape(*weights.shape[:-3], g, h // g, *weights.shape[-2:]).mean(-3)
    return out, per_group
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Adds the mask to the scores like transformers' float attention mask (scores + mask) instead of hiding the False keys; with a bool mask this just adds 1 to allowed scores.",
  "teacher_says": "The book's mask is bool, True = may attend: hide the other keys with np.where(mask, scores, -inf), do not add it.",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(qh.shape[-1])
    if mask is not None:
        scores = scores + np.asarray(mask, dtype=scores.dtype)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Scales the scores by the square root of the whole key width, sqrt(g * d_k) (the width of x @ w_k), instead of one head's d_k.",
  "teacher_says": "The scale is 1/sqrt(d_k) of one head (params.d_k), not of the concatenated key projection.",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    k_proj = k @ params.w_k
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k_proj, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(k_proj.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights
'''},
 # ------------------------------------------------------------------ decode_one_token
 {"exercise": "decode_one_token", "kind": "correct",
  "idea": "project the one token, append with np.concatenate on axis -2, and attend with the query heads grouped as (g, h/g) by broadcasting",
  "code": '''
import numpy as np

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g
    lead = x_t.shape[:-2]
    q = (x_t @ params.w_q).reshape(*lead, g, h // g, d_k)        # one token: (..., g, h/g, d_k)
    k_new = (x_t @ params.w_k).reshape(*lead, g, 1, d_k)
    v_new = (x_t @ params.w_v).reshape(*lead, g, 1, d_v)
    cache_k = np.concatenate([cache_k, k_new.astype(x_t.dtype)], axis=-2)   # (..., g, t+1, d_k)
    cache_v = np.concatenate([cache_v, v_new.astype(x_t.dtype)], axis=-2)
    scores = q @ np.swapaxes(cache_k, -1, -2) / np.sqrt(d_k)      # (..., g, h/g, t+1)
    scores = scores - scores.max(-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(-1, keepdims=True)
    heads = w @ cache_v                                           # (..., g, h/g, d_v)
    out = heads.reshape(*lead, 1, h * d_v) @ params.w_o
    return out.astype(x_t.dtype), cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "robustness",
  "idea": "works in float64 with a Python loop over the query heads and casts back at the end; the caches are rebuilt with np.append",
  "code": '''
import numpy as np

def decode_one_token(x_t, params, cache_k, cache_v):
    dtype = x_t.dtype
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g
    x = x_t.astype(np.float64)
    q = x @ params.w_q.astype(np.float64)
    k_new = x @ params.w_k.astype(np.float64)
    v_new = x @ params.w_v.astype(np.float64)
    k_new = np.moveaxis(k_new.reshape(*x.shape[:-2], 1, g, d_k), -2, -3)
    v_new = np.moveaxis(v_new.reshape(*x.shape[:-2], 1, g, d_v), -2, -3)
    K = np.append(cache_k.astype(np.float64), k_new, axis=-2)
    V = np.append(cache_v.astype(np.float64), v_new, axis=-2)
    pieces = []
    for i in range(h):
        j = i // (h // g)
        qi = q[..., i * d_k:(i + 1) * d_k]                         # (..., 1, d_k)
        s = qi @ np.swapaxes(K[..., j, :, :], -1, -2) / np.sqrt(d_k)
        s = np.exp(s - s.max(-1, keepdims=True))
        s = s / s.sum(-1, keepdims=True)
        pieces.append(s @ V[..., j, :, :])
    out = np.concatenate(pieces, axis=-1) @ params.w_o.astype(np.float64)
    return out.astype(dtype), K.astype(dtype), V.astype(dtype)
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Attends over the old cache first and appends the new key and value afterwards, so the newest token never sees itself (and at t = 0 there is nothing to attend).",
  "teacher_says": "Append first: the new query is the last position and attends all t + 1 keys, its own included.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, keys, values)
    out = mha.merge_heads(heads) @ params.w_o
    return out, np.concatenate([cache_k, k_new], -2), np.concatenate([cache_v, v_new], -2)
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Adds a causal mask built top-left, np.tril(np.ones((1, t + 1))), so the one new query may only see the first key instead of all of them.",
  "teacher_says": "The new query is the last position: either no mask at all or one aligned bottom-right (mha.causal_mask(1, t + 1)).",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    n_k = cache_k.shape[-2]
    mask = np.tril(np.ones((1, n_k), dtype=bool))
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3), mask)
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Concatenates the new key and value at axis=2, remembering transformers' (batch, heads, seq, dim) cache; with other numbers of leading axes that is not the token axis.",
  "teacher_says": "The caches have x_t's leading axes, any number of them: append along the token axis counted from the end, -2.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=2)
    q = mha.split_heads(x_t @ params.w_q, h)
    q = q.reshape(*q.shape[:-3], g, h // g, *q.shape[-2:])
    heads, _ = mha.scaled_dot_product_attention(q, cache_k[..., None, :, :], cache_v[..., None, :, :])
    heads = heads.reshape(*heads.shape[:-4], h, *heads.shape[-2:])
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Puts the new key and value at the front of the cache ([new, old]); the output is the same (attention does not care about order) but the returned caches are in the wrong order.",
  "teacher_says": "A cache is in token order: the newest token goes at the end, where the next step and any position scheme expect it.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    cache_k = np.concatenate([mha.split_heads(x_t @ params.w_k, g), cache_k], axis=-2)
    cache_v = np.concatenate([mha.split_heads(x_t @ params.w_v, g), cache_v], axis=-2)
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3))
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 # ------------------------------------------------------------------ gqa_kv_cache_bytes
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
  "idea": "K and V x layers x sequences x tokens x kv heads x d_k x bytes",
  "code": '''
layers, batch, tokens, kv_heads, d_k, bytes_per_number = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = 2 * layers * batch * tokens * kv_heads * d_k * bytes_per_number
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
  "idea": "computed as 4 GiB in floating point: the right value, but a float, not an int",
  "code": '''
gqa_kv_cache_bytes = 4.0 * 2 ** 30
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Counts the 32 query heads instead of the 8 key/value heads, i.e. the cache of plain multi-head attention.",
  "teacher_says": "The cache stores keys and values, one per key/value head: with GQA that is g = 8, not h = 32.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Forgets the factor 2 for keys and values, counting only the keys.",
  "teacher_says": "Each token stores a key vector and a value vector: multiply by 2.",
  "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Gives the answer in GiB (4) instead of bytes.",
  "teacher_says": "The question asks for bytes: 4 GiB is 4 * 2**30 bytes.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2 // 2**30
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
