# writer D's answers, then writer H's (each file verbatim)
"""Writer D, chapter 12 (GQA and the KV cache): 1 correct + 3 wrong per exercise."""

ANSWERS = [
    # ------------------------------------------------------------------ repeat_kv_heads
    {"exercise": "repeat_kv_heads", "kind": "correct",
     "idea": "insert a group axis after the heads, broadcast it to h/g, then merge (g, h/g) into h",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    k = np.asarray(k)
    *lead, g, n, d = k.shape
    group = num_heads // g
    widened = np.broadcast_to(k[..., :, None, :, :], (*lead, g, group, n, d))
    return widened.reshape(*lead, num_heads, n, d)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Uses np.tile along the heads axis, which gives the order 0, 1, 0, 1 (head i reads i mod g) instead of 0, 0, 1, 1.",
     "teacher_says": "Query head i reads key/value head i // (h/g): each head must be repeated in place (np.repeat), not the whole sequence tiled.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Repeats along axis 0, which is the heads axis only for an unbatched (g, n, d) input; with batch axes it repeats the batch instead.",
     "teacher_says": "Count the heads axis from the end (-3) so that any number of leading batch axes works.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=0)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Repeats each key/value head num_heads times instead of num_heads // g times, giving h*g heads.",
     "teacher_says": "Each key/value head serves a group of h/g query heads, so it is repeated h/g times to make h heads in all.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
    # ------------------------------------------------------------- grouped_query_attention
    {"exercise": "grouped_query_attention", "kind": "correct",
     "idea": "one explicit loop over query heads, each with key/value head i // (h/g) and its slice of the broadcast mask",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
    k_heads = mha.split_heads(k @ params.w_k, g)  # (..., g, n_k, d_k)
    v_heads = mha.split_heads(v @ params.w_v, g)  # (..., g, n_k, d_v)
    n_q, n_k = q_heads.shape[-2], k_heads.shape[-2]
    if mask is not None:
        batch = np.broadcast_shapes(q_heads.shape[:-3], k_heads.shape[:-3])
        mask = np.broadcast_to(mask, (*batch, h, n_q, n_k))
    outs, maps = [], []
    for i in range(h):
        j = i * g // h
        head_mask = None if mask is None else mask[..., i, :, :]
        o, w = mha.scaled_dot_product_attention(
            q_heads[..., i, :, :], k_heads[..., j, :, :], v_heads[..., j, :, :], head_mask
        )
        outs.append(o)
        maps.append(w)
    heads = np.stack(outs, axis=-3)  # (..., h, n_q, d_v)
    weights = np.stack(maps, axis=-3)  # (..., h, n_q, n_k)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Maps query head i to key/value head i % g (round robin) instead of i // (h/g).",
     "teacher_says": "Key/value head j serves the contiguous query heads j*h/g .. (j+1)*h/g - 1: the index is i // (h/g), not i mod g.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = mha.split_heads(k @ params.w_k, g)
    vh = mha.split_heads(v @ params.w_v, g)
    idx = np.arange(h) % g
    heads, weights = mha.scaled_dot_product_attention(
        qh, kh[..., idx, :, :], vh[..., idx, :, :], mask
    )
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Scales the scores by the square root of all the query columns, h*d_k (w_q.shape[1]), instead of the per-head d_k.",
     "teacher_says": "Each head's dot product runs over d_k numbers, so divide by sqrt(params.d_k), not by the fused width h*d_k.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(params.w_q.shape[1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Merges the heads with a plain reshape of (..., h, n, d_v) to (..., n, h*d_v) without first swapping the heads and tokens axes, scrambling heads and positions.",
     "teacher_says": "Concatenating heads needs the token axis before the heads axis: swapaxes(-3, -2) before the reshape (or use mha.merge_heads).",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    *lead, _, n_q, d_v = heads.shape
    concat = heads.reshape(*lead, n_q, h * d_v)
    return concat @ params.w_o, weights
'''},
    # ------------------------------------------------------------------ decode_one_token
    {"exercise": "decode_one_token", "kind": "correct",
     "idea": "grouped einsum over (g, h/g) query heads against the appended cache, softmax written out",
     "code": '''
import numpy as np


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g, d_k = params.num_heads, params.num_kv_heads, params.d_k
    lead = x_t.shape[:-2]
    q = (x_t @ params.w_q).reshape(*lead, g, h // g, d_k)  # the single token's query heads
    k_new = np.swapaxes((x_t @ params.w_k).reshape(*lead, 1, g, d_k), -2, -3)
    v_new = np.swapaxes((x_t @ params.w_v).reshape(*lead, 1, g, -1), -2, -3)
    keys = np.concatenate([cache_k, k_new.astype(x_t.dtype)], axis=-2)  # (..., g, t+1, d_k)
    values = np.concatenate([cache_v, v_new.astype(x_t.dtype)], axis=-2)
    scores = np.einsum("...grd,...gtd->...grt", q, keys) / np.sqrt(d_k)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p = p / p.sum(axis=-1, keepdims=True)
    heads = np.einsum("...grt,...gtd->...grd", p, values)  # (..., g, h/g, d_v)
    out = heads.reshape(*lead, 1, -1) @ params.w_o
    return out.astype(x_t.dtype), keys, values
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Puts the new token's key and value at the front of the caches instead of appending them; the output is unchanged but the caches are in the wrong order.",
     "teacher_says": "The cache is in token order: the newest token goes last, np.concatenate([cache, new], axis=-2).",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    cache_k = np.concatenate([k_new, cache_k], axis=-2)
    cache_v = np.concatenate([v_new, cache_v], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Applies a causal mask aligned top-left, np.tril(np.ones((1, t+1))), so the new token attends only the first cached token instead of all t+1.",
     "teacher_says": "The new query is the last position: with the causal mask aligned bottom-right (mha.causal_mask(1, t+1)) it may see every key, so no mask is needed.",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    keys = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    values = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    t1 = keys.shape[-2]
    causal = np.tril(np.ones((1, t1), dtype=bool))
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3), causal
    )
    return mha.merge_heads(heads) @ params.w_o, keys, values
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Preallocates the grown caches with np.empty without a dtype, so a float32 model gets float64 caches (and mha then refuses the float32 query against float64 keys, or the results come back float64).",
     "teacher_says": "Give every new array x_t's dtype (np.empty(..., dtype=x_t.dtype), or np.concatenate), or a float32 model silently doubles its cache.",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    t = cache_k.shape[-2]
    keys = np.empty((*cache_k.shape[:-2], t + 1, cache_k.shape[-1]))
    values = np.empty((*cache_v.shape[:-2], t + 1, v_new.shape[-1]))
    keys[..., :t, :], keys[..., t:, :] = cache_k, k_new
    values[..., :t, :], values[..., t:, :] = cache_v, v_new
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, keys, values
'''},
    # ------------------------------------------------------------------ gqa_kv_cache_bytes
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
     "idea": "layers x batch x tokens x (keys and values) x kv heads x d_k x bytes",
     "code": '''
layers, batch, tokens = 32, 8, 4096
kv_heads, d_k, bytes_per_number = 8, 128, 2
gqa_kv_cache_bytes = layers * batch * tokens * 2 * kv_heads * d_k * bytes_per_number
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Counts the 32 query heads instead of the 8 key/value heads, i.e. the cache of plain multi-head attention.",
     "teacher_says": "Only the key/value heads are cached; with GQA that is g = 8, not h = 32.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Counts only the keys and forgets that the values are cached too.",
     "teacher_says": "The cache holds a key vector and a value vector per token, head and layer: multiply by 2.",
     "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Uses 4 bytes per number (float32) instead of bfloat16's 2.",
     "teacher_says": "bfloat16 is 16 bits, 2 bytes per number: the statement gives the cache's dtype.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 4
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
 # ------------------------------------------------------------------ repeat_kv_heads
 {"exercise": "repeat_kv_heads", "kind": "correct",
  "idea": "insert a group axis after the key/value heads, np.broadcast_to it to h/g, then reshape (g, h/g) into h",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    k = np.asarray(k)
    *lead, g, n, d = k.shape
    per_group = num_heads // g
    expanded = np.broadcast_to(k[..., :, None, :, :], (*lead, g, per_group, n, d))
    return expanded.reshape(*lead, num_heads, n, d)
'''},
 {"exercise": "repeat_kv_heads", "kind": "robustness",
  "idea": "a Python list of h slices, one per query head (head i takes k[..., i // (h/g), :, :]), stacked with np.stack on axis -3",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    group = num_heads // g
    heads = []
    for i in range(num_heads):
        heads.append(np.array(k[..., i // group, :, :], copy=True))
    return np.stack(heads, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Uses np.tile on the heads axis, which repeats the whole sequence of key/value heads (0, 1, 0, 1) instead of each head in a row (0, 0, 1, 1).",
  "teacher_says": "Query head i reads key/value head i // (h/g): that is np.repeat along axis -3, not np.tile.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Repeats each key/value head num_heads times instead of num_heads // g times, so the result has g * h heads (right only for g = 1).",
  "teacher_says": "Each key/value head serves h/g query heads: repeat it h // g times to end with h heads.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Repeats along axis=1, thinking of a (B, g, n, d) array; for any other number of leading axes (none, or two) it repeats the wrong axis.",
  "teacher_says": "The statement allows any leading axes: count the heads axis from the end, axis=-3.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=1)
'''},
 # ------------------------------------------------------------ grouped_query_attention
 {"exercise": "grouped_query_attention", "kind": "correct",
  "idea": "project with einsum-free matmuls, expand the g key/value heads to h with np.repeat, then one mha.scaled_dot_product_attention and W^O",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads

    def heads(x, w, b, count):
        y = x @ w
        if b is not None:
            y = y + b
        return mha.split_heads(y, count)

    qh = heads(q, params.w_q, params.b_q, h)
    kh = np.repeat(heads(k, params.w_k, params.b_k, g), h // g, axis=-3)
    vh = np.repeat(heads(v, params.w_v, params.b_v, g), h // g, axis=-3)
    out_heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = mha.merge_heads(out_heads) @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "robustness",
  "idea": "a Python loop over the h query heads, slicing the projection columns of each head and its key/value head and the mask broadcast to (..., h, n_q, n_k); concatenates the heads at the end",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k, d_v = params.d_k, params.d_v
    Q, K, V = q @ params.w_q, k @ params.w_k, v @ params.w_v
    n_q, n_k = q.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    if mask is not None:
        full_mask = np.broadcast_to(mask, (*lead, h, n_q, n_k))
    outs, ws = [], []
    for i in range(h):
        j = i // (h // g)
        qi = Q[..., i * d_k:(i + 1) * d_k]
        kj = K[..., j * d_k:(j + 1) * d_k]
        vj = V[..., j * d_v:(j + 1) * d_v]
        mi = None if mask is None else full_mask[..., i, :, :]
        o, w = mha.scaled_dot_product_attention(qi, kj, vj, mi)
        outs.append(o)
        ws.append(np.broadcast_to(w, (*lead, n_q, n_k)))
    out = np.concatenate(outs, axis=-1) @ params.w_o
    return out, np.stack(ws, axis=-3)
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Groups the query heads as (h/g, g) instead of (g, h/g), so query head i reads key/value head i % g (the interleaved grouping).",
  "teacher_says": "Key/value head j serves the contiguous query heads j*h/g .. (j+1)*h/g - 1: reshape the query heads to (g, h/g).",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
    kh = mha.split_heads(k @ params.w_k, g)
    vh = mha.split_heads(v @ params.w_v, g)
    *lead, _, n_q, d_k = qh.shape
    q_grouped = qh.reshape(*lead, h // g, g, n_q, d_k)  # head i -> kv head i % g
    n_k = kh.shape[-2]
    m = None
    if mask is not None:
        m = np.broadcast_to(mask, (*lead, h, n_q, n_k)).reshape(*lead, h // g, g, n_q, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_grouped, kh[..., None, :, :, :], vh[..., None, :, :, :], m)
    heads = heads.reshape(*lead, h, n_q, heads.shape[-1])
    weights = weights.reshape(*lead, h, n_q, weights.shape[-1])
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Writes the softmax by hand and scales the scores by sqrt(d_model) (the width of q as passed in) instead of sqrt(d_k) of one head.",
  "teacher_says": "The scale is sqrt(d_k), the size of one head's query (params.d_k), not the model width.",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = e.sum(-1, keepdims=True)
    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Accepts the mask argument but never passes it on to the attention, so a causal or padding mask is silently ignored.",
  "teacher_says": "Hand the mask to scaled_dot_product_attention; after expanding the key/value heads it broadcasts to (..., h, n_q, n_k) as it is.",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 # ------------------------------------------------------------------- decode_one_token
 {"exercise": "decode_one_token", "kind": "correct",
  "idea": "project only x_t, np.concatenate onto the caches, then group the query heads as (g, h/g, 1, d_k) against kv heads with a singleton axis; no mask",
  "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q_t = mha.split_heads(x_t @ params.w_q, h)  # (..., h, 1, d_k)
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    *lead, _, one, d_k = q_t.shape
    grouped = q_t.reshape(*lead, g, h // g, one, d_k)
    heads, _ = mha.scaled_dot_product_attention(
        grouped, np.expand_dims(new_k, -3), np.expand_dims(new_v, -3)
    )
    heads = heads.reshape(*lead, h, one, heads.shape[-1])
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v
'''},
 {"exercise": "decode_one_token", "kind": "robustness",
  "idea": "pre-allocates the grown caches with np.empty and copies old and new into them, then loops over the h query heads with a hand-written softmax",
  "code": '''
import numpy as np


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    d_k, d_v = params.d_k, params.d_v
    t = cache_k.shape[-2]
    lead = x_t.shape[:-2]
    K_new = np.empty((*lead, g, t + 1, d_k), dtype=x_t.dtype)
    V_new = np.empty((*lead, g, t + 1, d_v), dtype=x_t.dtype)
    K_new[..., :t, :] = cache_k
    V_new[..., :t, :] = cache_v
    k_t = (x_t @ params.w_k)[..., 0, :]  # (..., g*d_k)
    v_t = (x_t @ params.w_v)[..., 0, :]
    q_t = (x_t @ params.w_q)[..., 0, :]  # (..., h*d_k)
    for j in range(g):
        K_new[..., j, t, :] = k_t[..., j * d_k:(j + 1) * d_k]
        V_new[..., j, t, :] = v_t[..., j * d_v:(j + 1) * d_v]
    heads = []
    for i in range(h):
        j = i // (h // g)
        qi = q_t[..., i * d_k:(i + 1) * d_k]  # (..., d_k)
        scores = np.einsum("...d,...td->...t", qi, K_new[..., j, :, :]) / np.sqrt(d_k).astype(x_t.dtype)
        scores = scores - scores.max(axis=-1, keepdims=True)
        w = np.exp(scores)
        w = w / w.sum(axis=-1, keepdims=True)
        heads.append(np.einsum("...t,...td->...d", w, V_new[..., j, :, :]))
    concat = np.concatenate(heads, axis=-1)[..., None, :]  # (..., 1, h*d_v)
    return (concat @ params.w_o).astype(x_t.dtype), K_new, V_new
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Attends only the cached keys and values and appends the new token's key and value afterwards, so the newest query never sees itself (and with t = 0 it has no key at all).",
  "teacher_says": "Under a causal mask a token attends itself: append its key and value first, then attend all t + 1 of them.",
  "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q_t = mha.split_heads(x_t @ params.w_q, h)
    k_rep = np.repeat(cache_k, h // g, axis=-3)
    v_rep = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q_t, k_rep, v_rep)
    out = mha.merge_heads(heads) @ params.w_o
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    return out, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Adds a causal mask built with np.tril(np.ones((1, t + 1))), aligned top-left: the single new query may then attend only key 0 instead of all t + 1 keys.",
  "teacher_says": "The new query is the last position; it needs no mask at all (or mha.causal_mask(1, t + 1), aligned bottom-right).",
  "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k_all = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    v_all = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    q_t = mha.split_heads(x_t @ params.w_q, h)
    n_k = k_all.shape[-2]
    causal = np.tril(np.ones((1, n_k), dtype=bool))
    heads, _ = mha.scaled_dot_product_attention(
        q_t, np.repeat(k_all, h // g, axis=-3), np.repeat(v_all, h // g, axis=-3), causal
    )
    return mha.merge_heads(heads) @ params.w_o, k_all, v_all
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Concatenates the new key and value on axis -3 (the heads axis) instead of -2 (the tokens), which only lines up when t = 1 and then yields 2g heads of one token.",
  "teacher_says": "The cache grows along its token axis, -2; the heads axis -3 stays g.",
  "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k_all = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-3)
    v_all = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-3)
    q_t = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q_t, np.repeat(k_all, h // k_all.shape[-3], axis=-3),
        np.repeat(v_all, h // v_all.shape[-3], axis=-3),
    )
    return mha.merge_heads(heads) @ params.w_o, k_all, v_all
'''},
 # ---------------------------------------------------------------- gqa_kv_cache_bytes
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
  "idea": "named factors multiplied with math.prod",
  "code": '''
import math

layers, batch, tokens, kv_heads, d_head, nbytes = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = math.prod([2, layers, batch, tokens, kv_heads, d_head, nbytes])
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
  "idea": "computed in GiB as a float (4.0) and converted back with int(... * 2**30): an int in the end, by a detour",
  "code": '''
gib = 2 * 32 * 8 * 4096 * 8 * 128 * 2 / 2**30
gqa_kv_cache_bytes = int(round(gib * 2**30))
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Counts the 32 query heads instead of the 8 key/value heads, i.e. the cache of plain multi-head attention.",
  "teacher_says": "Only the key/value heads have keys and values to cache: with GQA that is g = 8, not h = 32.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Leaves out the factor 2 for keys and values: counts only the keys.",
  "teacher_says": "The cache stores a key vector and a value vector per token and head: multiply by 2.",
  "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Stops at the count of numbers and forgets the 2 bytes per bfloat16 number.",
  "teacher_says": "The question asks for bytes: multiply the number count by 2 bytes per bfloat16.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
