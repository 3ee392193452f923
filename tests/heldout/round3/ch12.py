_RKV = '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=-3)
'''
_GQA = '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, w = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, w
'''
_DEC = '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)        # (..., h, 1, d_k)
    k_new = mha.split_heads(x_t @ params.w_k, g)    # (..., g, 1, d_k)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    ck = np.concatenate([cache_k, k_new], axis=-2)
    cv = np.concatenate([cache_v, v_new], axis=-2)
    K = np.repeat(ck, h // g, axis=-3)
    V = np.repeat(cv, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, K, V)
    return mha.merge_heads(heads) @ params.w_o, ck, cv
'''
ANSWERS = [
    {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "np.repeat along the heads axis", "code": _RKV},
    {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "index with i // (h/g)",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    idx = np.arange(num_heads) // (num_heads // g)
    return np.take(k, idx, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "np.tile: heads cycle 0,1,..,g-1,0,1.. instead of grouping",
     "teacher_says": "query head i uses kv head i // (h/g): consecutive query heads share a kv head; tile interleaves them",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeats along axis 1 by habit (wrong with no batch axis or several)",
     "teacher_says": "the kv heads are on axis -3 for any number of leading axes",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[1], axis=1)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeat count num_heads instead of num_heads // g",
     "teacher_says": "each kv head is repeated h/g times, giving h heads in total",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "index i % g instead of i // (h/g)",
     "teacher_says": "head i uses kv head floor(i / (h/g)), not i mod g",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return k[..., np.arange(num_heads) % g, :, :]
'''},
    {"exercise": "repeat_kv_heads", "kind": "robustness", "idea": "returns a Python list of h arrays instead of one array",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return [k[..., i // (num_heads // g), :, :] for i in range(num_heads)]
'''},
    {"exercise": "grouped_query_attention", "kind": "correct", "idea": "repeat kv heads then ordinary attention", "code": _GQA},
    {"exercise": "grouped_query_attention", "kind": "correct", "idea": "group axis reshape: queries (g, h/g), broadcast kv",
     "code": '''
import numpy as np

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    *lead, nq, _ = q.shape
    nk = k.shape[-2]
    Q = (q @ params.w_q).reshape(*lead, nq, g, r, -1)
    Q = np.moveaxis(Q, -4, -2)  # (..., g, r, nq, d)
    K = np.moveaxis((k @ params.w_k).reshape(*lead, nk, g, -1), -3, -2)[..., None, :, :]  # (..., g, 1, nk, d)
    V = np.moveaxis((v @ params.w_v).reshape(*lead, nk, g, -1), -3, -2)[..., None, :, :]
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    s = s.reshape(*s.shape[:-4], h, nq, nk)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m)
    z = e.sum(-1, keepdims=True)
    w = np.divide(e, z, out=np.zeros_like(e), where=z > 0)
    o = w.reshape(*w.shape[:-3], g, r, nq, nk) @ V  # (..., g, r, nq, dv)
    o = o.reshape(*o.shape[:-4], h, nq, -1)
    o = np.moveaxis(o, -3, -2).reshape(*o.shape[:-3], nq, -1)
    return o @ params.w_o, w
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "kv heads tiled (i % g) instead of grouped",
     "teacher_says": "query head i shares kv head i // (h/g); tiling pairs the wrong heads",
     "code": _GQA.replace("np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)", "np.concatenate([mha.split_heads(k @ params.w_k, g)] * (h // g), axis=-3)").replace("np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)", "np.concatenate([mha.split_heads(v @ params.w_v, g)] * (h // g), axis=-3)")},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "returns one weight matrix per kv head (averaged over the group)",
     "teacher_says": "the weights hold one (n_q, n_k) matrix per query head: shape (..., h, n_q, n_k)",
     "code": _GQA.replace("return mha.merge_heads(heads) @ params.w_o, w", "ws = w.reshape(*w.shape[:-3], g, h // g, *w.shape[-2:]).mean(-3)\n    return mha.merge_heads(heads) @ params.w_o, ws")},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "scales by sqrt(d_model / g)",
     "teacher_says": "scale by sqrt(d_k), one head's size",
     "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    s = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(q.shape[-1] / g)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = mha.softmax(s)
    return mha.merge_heads(w @ vh) @ params.w_o, w
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "keys split into h heads (as if g = h), reading W_k columns wrongly",
     "teacher_says": "W^K has g*d_k columns: split the keys into g heads, then share them",
     "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = mha.split_heads(np.repeat(k @ params.w_k, h // g, axis=-1), h)
    vh = mha.split_heads(np.repeat(v @ params.w_v, h // g, axis=-1), h)
    heads, w = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, w
'''},
    {"exercise": "grouped_query_attention", "kind": "robustness", "idea": "ignores mask silently",
     "code": _GQA.replace("mha.scaled_dot_product_attention(qh, kh, vh, mask)", "mha.scaled_dot_product_attention(qh, kh, vh)")},
    {"exercise": "decode_one_token", "kind": "correct", "idea": "project new token, append, attend all (no mask needed for the last row)", "code": _DEC},
    {"exercise": "decode_one_token", "kind": "correct", "idea": "loop over query heads with own softmax in float64",
     "code": '''
import numpy as np

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    Q = x_t @ params.w_q
    d_k = Q.shape[-1] // h
    Kn = x_t @ params.w_k
    Vn = x_t @ params.w_v
    d_v = Vn.shape[-1] // g
    kn = np.stack([Kn[..., j*d_k:(j+1)*d_k] for j in range(g)], axis=-3)
    vn = np.stack([Vn[..., j*d_v:(j+1)*d_v] for j in range(g)], axis=-3)
    ck = np.concatenate([cache_k, kn.astype(cache_k.dtype)], axis=-2)
    cv = np.concatenate([cache_v, vn.astype(cache_v.dtype)], axis=-2)
    outs = []
    for i in range(h):
        j = i // (h // g)
        qi = Q[..., i*d_k:(i+1)*d_k]  # (..., 1, d_k)
        s = qi @ np.swapaxes(ck[..., j, :, :], -1, -2) / np.sqrt(d_k)
        e = np.exp(s - s.max(-1, keepdims=True))
        outs.append((e / e.sum(-1, keepdims=True)) @ cv[..., j, :, :])
    return np.concatenate(outs, -1) @ params.w_o, ck, cv
'''},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "attends only the cache (new token's key appended after attention)",
     "teacher_says": "the new token attends itself too: append its key and value before attending",
     "code": _DEC.replace("K = np.repeat(ck, h // g, axis=-3)\n    V = np.repeat(cv, h // g, axis=-3)", "K = np.repeat(cache_k, h // g, axis=-3)\n    V = np.repeat(cache_v, h // g, axis=-3)")},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "new key prepended to the cache (order wrong)",
     "teacher_says": "append the new key and value at the end of the time axis",
     "code": _DEC.replace("np.concatenate([cache_k, k_new], axis=-2)", "np.concatenate([k_new, cache_k], axis=-2)").replace("np.concatenate([cache_v, v_new], axis=-2)", "np.concatenate([v_new, cache_v], axis=-2)")},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "causal_mask(1, t+1) misaligned: uses top-left causal mask so the new query sees only key 0",
     "teacher_says": "for one new query the causal mask aligned bottom-right allows all t+1 keys; top-left alignment allows only the first",
     "code": _DEC.replace("heads, _ = mha.scaled_dot_product_attention(q, K, V)", "mask = np.tril(np.ones((1, K.shape[-2]), dtype=bool))\n    heads, _ = mha.scaled_dot_product_attention(q, K, V, mask)")},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "cache stores the repeated (h-head) keys instead of the g kv heads",
     "teacher_says": "the cache keeps g key/value heads, shape (..., g, t+1, d_k); repeat only for the attention",
     "code": _DEC.replace("return mha.merge_heads(heads) @ params.w_o, ck, cv", "return mha.merge_heads(heads) @ params.w_o, K, V")},
    {"exercise": "decode_one_token", "kind": "robustness", "idea": "overwrites the last slot of the caller's cache arrays in place (argument modified)",
     "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    ck = np.concatenate([cache_k, k_new], axis=-2)
    cv = np.concatenate([cache_v, v_new], axis=-2)
    if cache_k.shape[-2] > 0:
        cache_k[..., -1:, :] = k_new   # "refresh" the last slot: overwrites the caller's array
        cache_v[..., -1:, :] = v_new
    heads, _ = mha.scaled_dot_product_attention(q, np.repeat(ck, h // g, -3), np.repeat(cv, h // g, -3))
    return mha.merge_heads(heads) @ params.w_o, ck, cv
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct", "idea": "2 * layers * g * d * B * n * bytes", "code": "\ngqa_kv_cache_bytes = 2 * 32 * 8 * 128 * 8 * 4096 * 2\n"},
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct", "idea": "as a power of two", "code": "\ngqa_kv_cache_bytes = 1 << 32\n"},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "32 query heads used (MHA cache)", "teacher_says": "GQA caches only the 8 key/value heads", "code": "\ngqa_kv_cache_bytes = 2 * 32 * 32 * 128 * 8 * 4096 * 2\n"},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "keys only (forgot the values)", "teacher_says": "the cache holds keys and values: factor 2", "code": "\ngqa_kv_cache_bytes = 32 * 8 * 128 * 8 * 4096 * 2\n"},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "one layer only", "teacher_says": "each of the 32 layers has its own cache", "code": "\ngqa_kv_cache_bytes = 2 * 8 * 128 * 8 * 4096 * 2\n"},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "answer in GiB", "teacher_says": "assign bytes, an int", "code": "\ngqa_kv_cache_bytes = 4\n"},
]
