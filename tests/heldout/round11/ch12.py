# writer D's answers, then writer H's (each file verbatim)
"""Student answers for chapter 12 (Grouped-query attention and the KV cache), writer D."""

ANSWERS = [
    # -------------------------------------------------------------------- repeat_kv_heads
    {"exercise": "repeat_kv_heads", "kind": "correct",
     "idea": "insert a group axis after the kv-heads axis, broadcast it to h/g and fold it back with reshape",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    k = np.asarray(k)
    *lead, g, n, d = k.shape
    per_group = num_heads // g
    spread = np.broadcast_to(k[..., :, None, :, :], (*lead, g, per_group, n, d))
    return spread.reshape(*lead, num_heads, n, d)  # head i <- kv head i // (h/g)
'''},
    {"exercise": "repeat_kv_heads", "kind": "robustness",
     "idea": "builds the h heads one by one in a Python list (each an explicit copy) and stacks them",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    heads = []
    for i in range(num_heads):
        j = i // (num_heads // g)
        heads.append(np.array(k[..., j, :, :], copy=True))
    return np.stack(heads, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Tiles the key/value heads (concatenates h/g copies of the whole block), so query head i gets key/value head i mod g instead of i // (h/g).",
     "teacher_says": "Each key/value head must be repeated in place (0, 0, 1, 1), not the whole sequence repeated (0, 1, 0, 1): use np.repeat, not a tile.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.concatenate([k] * (num_heads // g), axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Hard-codes axis=1 for the heads, thinking of (B, g, n, d); for any other number of leading axes it repeats the wrong axis.",
     "teacher_says": "The heads axis is -3 counted from the end; the number of leading axes is not fixed.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[1]
    return np.repeat(k, num_heads // g, axis=1)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Repeats each key/value head num_heads times instead of num_heads // g times, confusing the number of heads with the group size: g*h heads come out.",
     "teacher_says": "Each key/value head serves h/g query heads, so it is repeated h/g times, giving h heads in all.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
    # ------------------------------------------------------------ grouped_query_attention
    {"exercise": "grouped_query_attention", "kind": "correct",
     "idea": "expand the key/value heads with np.repeat, then plain scaled_dot_product_attention over h heads",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads

    def project(x, w, b):
        y = x @ w
        return y if b is None else y + b

    q_heads = mha.split_heads(project(q, params.w_q, params.b_q), h)  # (..., h, n_q, d_k)
    k_heads = mha.split_heads(project(k, params.w_k, params.b_k), g)  # (..., g, n_k, d_k)
    v_heads = mha.split_heads(project(v, params.w_v, params.b_v), g)  # (..., g, n_k, d_v)
    k_heads = np.repeat(k_heads, h // g, axis=-3)  # (..., h, n_k, d_k)
    v_heads = np.repeat(v_heads, h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    out = project(mha.merge_heads(heads), params.w_o, params.b_o)
    return out, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "robustness",
     "idea": "one query head at a time in a Python loop with column slices of the weights, each head's mask sliced out of a broadcast copy",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g, d_k, d_v = params.num_heads, params.num_kv_heads, params.d_k, params.d_v
    n_q, n_k = q.shape[-2], k.shape[-2]
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim < 3:
            mask = mask.reshape((1,) * (3 - mask.ndim) + mask.shape)
        mask = np.broadcast_to(mask, mask.shape[:-3] + (h, n_q, n_k))
    outs, weights = [], []
    for i in range(h):
        j = i // (h // g)
        q_i = q @ params.w_q[:, i * d_k:(i + 1) * d_k]
        k_j = k @ params.w_k[:, j * d_k:(j + 1) * d_k]
        v_j = v @ params.w_v[:, j * d_v:(j + 1) * d_v]
        m_i = None if mask is None else mask[..., i, :, :]
        head, w = mha.scaled_dot_product_attention(q_i, k_j, v_j, m_i)
        outs.append(head @ params.w_o[i * d_v:(i + 1) * d_v])
        weights.append(w)
    out = outs[0]
    for part in outs[1:]:
        out = out + part
    return out, np.stack(weights, axis=-3)
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Picks the key/value head of query head i as i % g (cycling through the key/value heads) instead of i // (h/g).",
     "teacher_says": "Key/value head j serves the contiguous query heads j*h/g .. (j+1)*h/g - 1: use i // (h/g).",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
    k_heads = mha.split_heads(k @ params.w_k, g)  # (..., g, n_k, d_k)
    v_heads = mha.split_heads(v @ params.w_v, g)
    kv_of_head = np.arange(h) % g  # which key/value head each query head reads
    k_heads, v_heads = k_heads[..., kv_of_head, :, :], v_heads[..., kv_of_head, :, :]
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Stops after concatenating the heads: the output projection W^O is never applied (no shape error when h*d_v = d_model).",
     "teacher_says": "The layer ends with Concat(heads) @ W^O, as in chapter 4; without it the output is the raw heads.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads), weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Accepts the mask argument but never passes it on to the attention, so every query attends every key.",
     "teacher_says": "The mask must reach the softmax: pass it to scaled_dot_product_attention.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    # ------------------------------------------------------------------- decode_one_token
    {"exercise": "decode_one_token", "kind": "correct",
     "idea": "einsum over a (g, h/g) grouping of the single query, with a hand-written stable softmax (no mask needed)",
     "code": '''
import numpy as np


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g, d_k, d_v = params.num_heads, params.num_kv_heads, params.d_k, params.d_v
    lead = x_t.shape[:-2]
    dtype = x_t.dtype
    row = x_t[..., 0, :]  # (..., d_model)
    q = (row @ params.w_q).reshape(*lead, g, h // g, d_k)
    k_new = (row @ params.w_k).reshape(*lead, g, 1, d_k)
    v_new = (row @ params.w_v).reshape(*lead, g, 1, d_v)
    keys = np.concatenate([cache_k, k_new], axis=-2).astype(dtype, copy=False)  # (..., g, t+1, d_k)
    values = np.concatenate([cache_v, v_new], axis=-2).astype(dtype, copy=False)
    scores = np.einsum("...grd,...gtd->...grt", q, keys) / np.sqrt(d_k).astype(dtype)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p /= p.sum(axis=-1, keepdims=True)
    heads = np.einsum("...grt,...gtd->...grd", p, values)  # (..., g, h/g, d_v)
    out = heads.reshape(*lead, 1, h * d_v) @ params.w_o
    return out.astype(dtype, copy=False), keys, values
'''},
    {"exercise": "decode_one_token", "kind": "robustness",
     "idea": "computes everything in float64 with the key/value heads copied to h (np.repeat) and casts back at the end",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    x64 = x_t.astype(np.float64)
    w_q, w_k, w_v, w_o = (w.astype(np.float64) for w in (params.w_q, params.w_k, params.w_v, params.w_o))
    q = mha.split_heads(x64 @ w_q, h)  # (..., h, 1, d_k)
    keys = np.concatenate([cache_k.astype(np.float64), mha.split_heads(x64 @ w_k, g)], axis=-2)
    values = np.concatenate([cache_v.astype(np.float64), mha.split_heads(x64 @ w_v, g)], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3)
    )
    out = mha.merge_heads(heads) @ w_o
    dtype = x_t.dtype
    return out.astype(dtype), keys.astype(dtype), values.astype(dtype)
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Attends the old cache first and appends the new key and value only afterwards, so the new token never attends itself (and with an empty cache there is nothing to attend).",
     "teacher_says": "Append the new key and value before attending: the newest query sees all t + 1 keys, its own included.",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3)
    )
    out = mha.merge_heads(heads) @ params.w_o
    return out, np.concatenate([cache_k, k_new], axis=-2), np.concatenate([cache_v, v_new], axis=-2)
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Adds a causal mask made with np.tril for the (1, t+1) scores: aligned top-left, it lets the new query see only the first key.",
     "teacher_says": "The new query is the last position, so it may attend every key; if you do mask, align it bottom-right (mha.causal_mask(1, t + 1)).",
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
     "mistake": "Puts the new key and value at the front of the cache, np.concatenate([new, cache]): the output is unchanged (attention ignores order) but the returned caches are in the wrong token order.",
     "teacher_says": "The cache is in token order: append the newest token at the end of the token axis, [cache, new].",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    keys = np.concatenate([mha.split_heads(x_t @ params.w_k, g), cache_k], axis=-2)
    values = np.concatenate([mha.split_heads(x_t @ params.w_v, g), cache_v], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, keys, values
'''},
    # ----------------------------------------------------------------- gqa_kv_cache_bytes
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
     "idea": "K and V x layers x sequences x tokens x kv heads x d_k x bytes, named factors",
     "code": '''
layers, batch, tokens, kv_heads, d_k, bytes_per_number = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = 2 * layers * batch * tokens * kv_heads * d_k * bytes_per_number
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
     "idea": "the right count as a NumPy int64 from np.prod instead of a Python int",
     "code": '''
import numpy as np

gqa_kv_cache_bytes = np.prod(np.array([2, 32, 8, 4096, 8, 128, 2], dtype=np.int64))
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Counts the 32 query heads instead of the 8 key/value heads: the cache of plain multi-head attention.",
     "teacher_says": "Only key/value heads are cached; with GQA there are 8 of them, not 32.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Forgets the factor 2 for keys *and* values, counting only the keys.",
     "teacher_says": "The cache stores a key vector and a value vector for each token: multiply by 2.",
     "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Multiplies by the 16 bits of a bfloat16 number instead of its 2 bytes: the answer is in bits, eight times too large.",
     "teacher_says": "bfloat16 is 16 bits = 2 bytes; the question asks for bytes, so the last factor is 2.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 16
'''},
]

_WRITER_D = ANSWERS

ANSWERS = [
    # ------------------------------------------------------------------ repeat_kv_heads
    {"exercise": "repeat_kv_heads", "kind": "correct",
     "idea": "insert a group axis after the kv-heads axis, broadcast it to h/g, and fold it back with a reshape",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    k = np.asarray(k)
    *lead, g, n, d = k.shape
    per_group = num_heads // g
    wide = np.broadcast_to(k[..., :, None, :, :], (*lead, g, per_group, n, d))
    return wide.reshape(*lead, num_heads, n, d)
'''},
    {"exercise": "repeat_kv_heads", "kind": "robustness",
     "idea": "a Python loop over the query heads picking key head i // (h/g), then np.stack on axis -3",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    heads = []
    for i in range(num_heads):
        j = i // (num_heads // g)
        heads.append(np.array(k[..., j, :, :], copy=True))
    return np.stack(heads, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Tiles the whole list of key/value heads (0, 1, 0, 1) instead of repeating each one (0, 0, 1, 1), so query head i reads key head i mod g.",
     "teacher_says": "Query head i reads key head floor(i / (h/g)): contiguous groups, which is np.repeat, not np.tile.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.concatenate([k] * (num_heads // g), axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Repeats along axis 1, assuming a (B, g, n, d) input; for keys without a batch axis (or with two), axis 1 is not the heads axis.",
     "teacher_says": "The heads axis is counted from the end, -3, whatever the number of leading axes.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[1]
    return np.repeat(k, num_heads // g, axis=1)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Repeats each key/value head num_heads times instead of num_heads // g times, giving g*h heads.",
     "teacher_says": "Each key/value head serves h/g query heads, so it is repeated h/g times, for h heads in all.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
    # ------------------------------------------------------------------ grouped_query_attention
    {"exercise": "grouped_query_attention", "kind": "correct",
     "idea": "own softmax with einsum over a (g, h/g) grouped query axis; no copy of K or V",
     "code": '''
import numpy as np


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g

    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b

    qp = proj(q, params.w_q, params.b_q)
    kp = proj(k, params.w_k, params.b_k)
    vp = proj(v, params.w_v, params.b_v)
    *lead, n_q, _ = qp.shape
    n_k = kp.shape[-2]
    d_k = qp.shape[-1] // h
    d_v = vp.shape[-1] // g
    qh = qp.reshape(*lead, n_q, g, r, d_k)
    kh = kp.reshape(*kp.shape[:-2], n_k, g, d_k)
    vh = vp.reshape(*vp.shape[:-2], n_k, g, d_v)
    scores = np.einsum("...qgrd,...kgd->...grqk", qh, kh) / np.sqrt(d_k)
    scores = scores.reshape(*scores.shape[:-4], h, n_q, n_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.where(total > 0, e / np.where(total > 0, total, 1), 0).astype(qp.dtype)
    wg = weights.reshape(*weights.shape[:-3], g, r, n_q, n_k)
    heads = np.einsum("...grqk,...kgd->...qgrd", wg, vh)
    concat = heads.reshape(*heads.shape[:-3], h * d_v)
    out = proj(concat, params.w_o, params.b_o)
    return out, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "robustness",
     "idea": "a Python loop over the h query heads, each calling mha.scaled_dot_product_attention with its key/value head and its slice of the broadcast mask",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qp, kp, vp = q @ params.w_q, k @ params.w_k, v @ params.w_v
    if params.b_q is not None:
        qp = qp + params.b_q
    if params.b_k is not None:
        kp = kp + params.b_k
    if params.b_v is not None:
        vp = vp + params.b_v
    q_heads = mha.split_heads(qp, h)
    k_heads = mha.split_heads(kp, g)
    v_heads = mha.split_heads(vp, g)
    n_q, n_k = q_heads.shape[-2], k_heads.shape[-2]
    if mask is not None:
        lead = np.broadcast_shapes(q_heads.shape[:-3], k_heads.shape[:-3], np.shape(mask)[:-3])
        mask = np.broadcast_to(mask, (*lead, h, n_q, n_k))
    outs, weights = [], []
    for i in range(h):
        j = i // (h // g)
        m_i = None if mask is None else mask[..., i, :, :]
        o_i, w_i = mha.scaled_dot_product_attention(
            q_heads[..., i, :, :], k_heads[..., j, :, :], v_heads[..., j, :, :], m_i
        )
        outs.append(o_i)
        weights.append(w_i)
    heads = np.stack(outs, axis=-3)
    out = mha.merge_heads(heads) @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(weights, axis=-3)
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Groups the query heads as (h/g, g) instead of (g, h/g), so query head i is paired with key/value head i mod g.",
     "teacher_says": "Key/value head j serves the contiguous query heads j*h/g .. (j+1)*h/g - 1: reshape the heads axis to (g, h/g).",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = mha.split_heads(k @ params.w_k, g)
    v_heads = mha.split_heads(v @ params.w_v, g)
    *lead, _, n_q, d_k = q_heads.shape
    grouped = np.swapaxes(q_heads.reshape(*lead, h // g, g, n_q, d_k), -4, -3)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim >= 3 and mask.shape[-3] == h:
            mask = np.swapaxes(mask.reshape(*mask.shape[:-3], h // g, g, *mask.shape[-2:]), -4, -3)
        elif mask.ndim >= 3:
            mask = mask[..., None, :, :]
    heads, weights = mha.scaled_dot_product_attention(
        grouped, k_heads[..., :, None, :, :], v_heads[..., :, None, :, :], mask
    )  # (..., g, h/g, n_q, d)
    heads = np.swapaxes(heads, -4, -3).reshape(*lead, h, n_q, heads.shape[-1])
    weights = np.swapaxes(weights, -4, -3).reshape(*lead, h, n_q, weights.shape[-1])
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Splits the keys and values into num_heads heads like the queries, although w_k and w_v have only g*d_k columns; the key heads come out g/h as wide as the query heads.",
     "teacher_says": "Keys and values have g = num_kv_heads heads: split them with g, not with h.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = mha.split_heads(k @ params.w_k, h)
    v_heads = mha.split_heads(v @ params.w_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Scales the scores by the square root of the key projection's width, w_k.shape[1] = g*d_k, instead of the per-head d_k.",
     "teacher_says": "d_k in sqrt(d_k) is the size of one head's query/key vector: params.d_k, not the width of W^K.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = q_heads @ np.swapaxes(k_heads, -1, -2) / np.sqrt(params.w_k.shape[1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    s = e.sum(-1, keepdims=True)
    weights = np.where(s > 0, e / np.where(s > 0, s, 1.0), 0.0)
    return mha.merge_heads(weights @ v_heads) @ params.w_o, weights
'''},
    # ------------------------------------------------------------------ decode_one_token
    {"exercise": "decode_one_token", "kind": "correct",
     "idea": "project only x_t, append with np.concatenate on the token axis, attend with einsum over a (g, h/g) grouping",
     "code": '''
import numpy as np


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g
    lead = x_t.shape[:-2]
    q = (x_t @ params.w_q).reshape(*lead, g, r, d_k)  # the one query, grouped
    k_new = (x_t @ params.w_k).reshape(*lead, 1, g, d_k)
    v_new = (x_t @ params.w_v).reshape(*lead, 1, g, d_v)
    k_new = np.swapaxes(k_new, -3, -2)  # (..., g, 1, d_k)
    v_new = np.swapaxes(v_new, -3, -2)
    keys = np.concatenate([cache_k.astype(x_t.dtype), k_new], axis=-2)  # (..., g, t+1, d_k)
    values = np.concatenate([cache_v.astype(x_t.dtype), v_new], axis=-2)
    s = np.einsum("...grd,...gkd->...grk", q, keys) / np.sqrt(d_k)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    heads = np.einsum("...grk,...gkd->...grd", p, values)  # (..., g, r, d_v)
    out = heads.reshape(*lead, 1, h * d_v) @ params.w_o
    return out.astype(x_t.dtype), keys, values
'''},
    {"exercise": "decode_one_token", "kind": "robustness",
     "idea": "caches grown with np.append and a Python loop over the query heads with a hand-written softmax in float64, cast back at the end",
     "code": '''
import math
import numpy as np


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g
    lead = x_t.shape[:-2]
    xs = x_t.astype(np.float64)
    q = xs @ params.w_q.astype(np.float64)
    k_new = np.moveaxis((xs @ params.w_k.astype(np.float64)).reshape(*lead, 1, g, d_k), -2, -3)
    v_new = np.moveaxis((xs @ params.w_v.astype(np.float64)).reshape(*lead, 1, g, d_v), -2, -3)
    keys = np.append(cache_k.astype(np.float64), k_new, axis=-2)
    values = np.append(cache_v.astype(np.float64), v_new, axis=-2)
    pieces = []
    for i in range(h):
        j = i // (h // g)
        qi = q[..., :, i * d_k:(i + 1) * d_k]  # (..., 1, d_k)
        s = qi @ np.swapaxes(keys[..., j, :, :], -1, -2) / math.sqrt(d_k)
        s = s - s.max(axis=-1, keepdims=True)
        w = np.exp(s)
        w = w / w.sum(axis=-1, keepdims=True)
        pieces.append(w @ values[..., j, :, :])
    out = np.concatenate(pieces, axis=-1) @ params.w_o.astype(np.float64)
    dt = x_t.dtype
    return out.astype(dt), keys.astype(dt), values.astype(dt)
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Appends the new key and value along axis -3 (the key/value heads axis) instead of the token axis -2.",
     "teacher_says": "The cache grows by one token per step: concatenate on the token axis, -2, of (..., g, t, d).",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    cache_k = np.concatenate([cache_k, k_new], axis=-3)
    cache_v = np.concatenate([cache_v, v_new], axis=-3)
    kk = np.repeat(cache_k, h // cache_k.shape[-3], axis=-3)
    vv = np.repeat(cache_v, h // cache_v.shape[-3], axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, kk, vv)
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Attends over the cached keys first and appends the new key and value only afterwards, so the new token never attends to itself (and with an empty cache it has no key at all).",
     "teacher_says": "Under the causal mask the newest query sees its own key too: append first, then attend all t + 1 keys.",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    lead = q.shape[:-3]
    kk = np.repeat(cache_k, h // g, axis=-3)
    vv = np.repeat(cache_v, h // g, axis=-3)
    if kk.shape[-2] == 0:
        heads = np.zeros((*lead, h, 1, vv.shape[-1]), dtype=x_t.dtype)
    else:
        heads, _ = mha.scaled_dot_product_attention(q, kk, vv)
    out = mha.merge_heads(heads) @ params.w_o
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    return out, new_k, new_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Puts the new key and value at the front of the cache instead of the end; the output is unchanged, but the cache is out of order for every later step.",
     "teacher_says": "The newest token is the last position: concatenate [cache, new], not [new, cache].",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([mha.split_heads(x_t @ params.w_k, g), cache_k], axis=-2)
    cache_v = np.concatenate([mha.split_heads(x_t @ params.w_v, g), cache_v], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
    # ------------------------------------------------------------------ gqa_kv_cache_bytes
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
     "idea": "named factors multiplied with math.prod",
     "code": '''
import math

layers, batch, tokens, kv_heads, d_head, bytes_per_number = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = math.prod([2, layers, batch, tokens, kv_heads, d_head, bytes_per_number])
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
     "idea": "the right count but as a NumPy int64 scalar rather than a Python int",
     "code": '''
import numpy as np

gqa_kv_cache_bytes = np.int64(2) * 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Counts the 32 query heads instead of the 8 key/value heads, the size of a multi-head cache.",
     "teacher_says": "The cache stores keys and values, one per key/value head: g = 8, not h = 32.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Forgets the factor 2 for keys AND values: counts only one vector per token, layer and head.",
     "teacher_says": "Each token stores a key vector and a value vector: multiply by 2.",
     "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Gives the answer in GiB (4) instead of bytes.",
     "teacher_says": "The question asks for bytes, an int: do not divide by 2**30.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2 // 2**30
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
