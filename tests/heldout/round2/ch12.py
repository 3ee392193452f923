_GQA = '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    qh = mha.split_heads(proj(q, params.w_q, getattr(params, "b_q", None)), h)
    kh = mha.split_heads(proj(k, params.w_k, getattr(params, "b_k", None)), g)
    vh = mha.split_heads(proj(v, params.w_v, getattr(params, "b_v", None)), g)
    kh = np.repeat(kh, h // g, axis=-3)
    vh = np.repeat(vh, h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = proj(mha.merge_heads(heads), params.w_o, getattr(params, "b_o", None))
    return out, weights
'''

_DEC = '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    q = mha.split_heads(proj(x_t, params.w_q, params.b_q), h)      # (..., h, 1, d_k)
    k = mha.split_heads(proj(x_t, params.w_k, params.b_k), g)      # (..., g, 1, d_k)
    v = mha.split_heads(proj(x_t, params.w_v, params.b_v), g)
    cache_k = np.concatenate([cache_k, k], axis=-2)
    cache_v = np.concatenate([cache_v, v], axis=-2)
    kk = np.repeat(cache_k, h // g, axis=-3)
    vv = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, kk, vv)
    out = proj(mha.merge_heads(heads), params.w_o, params.b_o)
    return out, cache_k, cache_v
'''

ANSWERS = [
    # ---------------- repeat_kv_heads ----------------
    {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "np.repeat on axis -3",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "fancy indexing with arange(h) // (h // g)",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    idx = np.arange(num_heads) // (num_heads // g)
    return k[..., idx, :, :]
'''},
    {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "insert an axis, broadcast_to (g, r), reshape to h",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    *batch, g, n, d = k.shape
    r = num_heads // g
    return np.broadcast_to(k[..., :, None, :, :], (*batch, g, r, n, d)).reshape(*batch, num_heads, n, d)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "np.tile-style order (0, 1, 0, 1) via np.concatenate of copies",
     "teacher_says": "query head i reads key/value head floor(i / (h/g)): each head repeated in place (0, 0, 1, 1), not the whole sequence repeated",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.concatenate([k] * (num_heads // k.shape[-3]), axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeats along axis 0 (the batch for batched input)",
     "teacher_says": "the heads axis is -3; axis 0 is the batch when there is one",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=0)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeats along the token axis (-2)",
     "teacher_says": "repeat the heads axis (-3), not the tokens",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=-2)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeats num_heads times instead of h / g times",
     "teacher_says": "each key/value head serves h / g query heads; repeating it h times gives g * h heads",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "index arange(h) % g (the tile order again, by modulo)",
     "teacher_says": "query head i reads key/value head i // (h/g), not i % g",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return k[..., np.arange(num_heads) % k.shape[-3], :, :]
'''},
    {"exercise": "repeat_kv_heads", "kind": "robustness", "idea": "returns a read-only broadcast view with an extra axis",
     "mistake": "returns shape (..., g, h/g, n, d) without the reshape",
     "teacher_says": "merge the two axes into h: reshape to (..., h, n, d)",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.broadcast_to(k[..., :, None, :, :], k.shape[:-3] + (g, num_heads // g) + k.shape[-2:])
'''},
    # ---------------- grouped_query_attention ----------------
    {"exercise": "grouped_query_attention", "kind": "correct", "idea": "split q into h and k, v into g heads, np.repeat, sdpa, merge, W^O",
     "code": _GQA},
    {"exercise": "grouped_query_attention", "kind": "correct", "idea": "no copy: group the query heads as (g, h/g) and broadcast the keys",
     "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    qh = mha.split_heads(q @ params.w_q, h)                       # (..., h, n_q, d_k)
    kh = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]   # (..., g, 1, n_k, d_k)
    vh = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    *batch, _, n_q, d_k = qh.shape
    qg = qh.reshape(*batch, g, r, n_q, d_k)
    m = None
    if mask is not None:
        m = np.asarray(mask)
        full = np.broadcast_to(m, np.broadcast_shapes(m.shape, (h, n_q, kh.shape[-2])))
        m = full.reshape(*full.shape[:-3], g, r, n_q, kh.shape[-2])
    heads, weights = mha.scaled_dot_product_attention(qg, kh, vh, m)
    heads = heads.reshape(*batch, h, n_q, -1)
    weights = weights.reshape(*weights.shape[:-4], h, n_q, -1)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "expands the key/value heads in tile order (0, 1, 0, 1)",
     "teacher_says": "query head i reads key/value head i // (h/g): use np.repeat, not np.tile",
     "code": _GQA.replace("kh = np.repeat(kh, h // g, axis=-3)\n    vh = np.repeat(vh, h // g, axis=-3)", "kh = np.concatenate([kh] * (h // g), axis=-3)\n    vh = np.concatenate([vh] * (h // g), axis=-3)")},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "scales by sqrt(d_model)",
     "teacher_says": "the scale is 1/sqrt(d_k) = 1/sqrt(params.d_k)",
     "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    s = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = mha.softmax(s, axis=-1)
    return mha.merge_heads(w @ vh) @ params.w_o, w
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "returns one weight matrix per key/value head (averages the query heads of each group)",
     "teacher_says": "the weights hold one (n_q, n_k) matrix per query head: shape (..., h, n_q, n_k)",
     "code": _GQA.replace("return out, weights", "return out, weights.reshape(*weights.shape[:-3], g, h // g, *weights.shape[-2:]).mean(axis=-3)")},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "splits the keys and values into h heads (as in MHA): the key width is g*d_k, so the heads are too narrow",
     "teacher_says": "k @ w_k has g * d_k features: split it into g heads of d_k",
     "code": _GQA.replace("kh = mha.split_heads(proj(k, params.w_k, getattr(params, \"b_k\", None)), g)", "kh = mha.split_heads(proj(k, params.w_k, getattr(params, \"b_k\", None)), h)").replace("vh = mha.split_heads(proj(v, params.w_v, getattr(params, \"b_v\", None)), g)", "vh = mha.split_heads(proj(v, params.w_v, getattr(params, \"b_v\", None)), h)").replace("kh = np.repeat(kh, h // g, axis=-3)\n    vh = np.repeat(vh, h // g, axis=-3)", "pass")},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "forgets W^O (returns the merged heads)",
     "teacher_says": "after merging the heads, project with W^O",
     "code": _GQA.replace('out = proj(mha.merge_heads(heads), params.w_o, getattr(params, "b_o", None))', "out = mha.merge_heads(heads)")},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "query head i reads key/value head i % g via tile-like fancy index",
     "teacher_says": "the groups are contiguous: head i reads kv head i // (h/g)",
     "code": _GQA.replace("kh = np.repeat(kh, h // g, axis=-3)\n    vh = np.repeat(vh, h // g, axis=-3)", "idx = np.arange(h) % g\n    kh = kh[..., idx, :, :]\n    vh = vh[..., idx, :, :]")},
    {"exercise": "grouped_query_attention", "kind": "robustness", "idea": "prints the shapes and the output on every call",
     "mistake": "debugging prints left in (prints the whole output array)",
     "teacher_says": "remove the prints: the function is called many times and its output floods the notebook",
     "code": _GQA.replace("    return out, weights", "    print('q', qh.shape, 'k', kh.shape, 'out', out)\n    return out, weights")},
    # ---------------- decode_one_token ----------------
    {"exercise": "decode_one_token", "kind": "correct", "idea": "project x_t, concatenate to the caches, repeat kv heads, attend all t+1 keys",
     "code": _DEC},
    {"exercise": "decode_one_token", "kind": "correct", "idea": "grouped form without copies, own softmax in float64, einsum",
     "code": '''
import numpy as np

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    d_k = params.w_q.shape[1] // h
    d_v = params.w_o.shape[0] // h
    def proj(x, w, b):
        return x @ w if b is None else x @ w + b
    q = proj(x_t, params.w_q, params.b_q)[..., 0, :]                      # (..., h*d_k)
    k = proj(x_t, params.w_k, params.b_k)                                  # (..., 1, g*d_k)
    v = proj(x_t, params.w_v, params.b_v)
    k = np.swapaxes(k.reshape(*k.shape[:-1], g, d_k), -3, -2)              # (..., g, 1, d_k)
    v = np.swapaxes(v.reshape(*v.shape[:-1], g, d_v), -3, -2)
    new_k = np.concatenate([cache_k, k.astype(cache_k.dtype)], axis=-2)
    new_v = np.concatenate([cache_v, v.astype(cache_v.dtype)], axis=-2)
    qg = q.reshape(*q.shape[:-1], g, r, d_k)
    s = np.einsum("...grd,...gtd->...grt", qg, new_k) / np.sqrt(d_k)
    s = s - s.max(-1, keepdims=True)
    p = np.exp(s.astype(np.float64))
    p = (p / p.sum(-1, keepdims=True)).astype(s.dtype)
    heads = np.einsum("...grt,...gtd->...grd", p, new_v)                    # (..., g, r, d_v)
    concat = heads.reshape(*heads.shape[:-3], 1, h * d_v)
    return proj(concat, params.w_o, params.b_o), new_k, new_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "attends only the cached keys (forgets the new token's own key)",
     "teacher_says": "the new query attends all t + 1 keys, its own included; append first, then attend",
     "code": _DEC.replace("kk = np.repeat(cache_k, h // g, axis=-3)\n    vv = np.repeat(cache_v, h // g, axis=-3)", "kk = np.repeat(cache_k[..., :-1, :], h // g, axis=-3)\n    vv = np.repeat(cache_v[..., :-1, :], h // g, axis=-3)")},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "prepends the new key and value (cache order reversed; the output is unchanged, the caches are wrong)",
     "teacher_says": "append at the end of the token axis: np.concatenate([cache, new], axis=-2)",
     "code": _DEC.replace("np.concatenate([cache_k, k], axis=-2)", "np.concatenate([k, cache_k], axis=-2)").replace("np.concatenate([cache_v, v], axis=-2)", "np.concatenate([v, cache_v], axis=-2)")},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "applies a top-left causal mask causal(1, t+1) by hand: the new query may only attend key 0",
     "teacher_says": "the new token is the last position: nothing is masked (bottom-right alignment)",
     "code": _DEC.replace("heads, _ = mha.scaled_dot_product_attention(q, kk, vv)", "mask = np.tril(np.ones((1, kk.shape[-2]), dtype=bool))\n    heads, _ = mha.scaled_dot_product_attention(q, kk, vv, mask)")},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "returns the old caches, not the appended ones",
     "teacher_says": "return the caches with the new token's key and value appended",
     "code": _DEC.replace("    cache_k = np.concatenate([cache_k, k], axis=-2)\n    cache_v = np.concatenate([cache_v, v], axis=-2)\n    kk = np.repeat(cache_k, h // g, axis=-3)\n    vv = np.repeat(cache_v, h // g, axis=-3)", "    kk = np.repeat(np.concatenate([cache_k, k], axis=-2), h // g, axis=-3)\n    vv = np.repeat(np.concatenate([cache_v, v], axis=-2), h // g, axis=-3)")},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "expands the kv heads in tile order",
     "teacher_says": "query head i reads kv head i // (h/g): np.repeat, not a concatenation of copies",
     "code": _DEC.replace("kk = np.repeat(cache_k, h // g, axis=-3)\n    vv = np.repeat(cache_v, h // g, axis=-3)", "kk = np.concatenate([cache_k] * (h // g), axis=-3)\n    vv = np.concatenate([cache_v] * (h // g), axis=-3)")},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "stores the keys in the cache after repeating them to h heads (cache of shape (..., h, t+1, d_k))",
     "teacher_says": "the cache holds g key/value heads; repeat only for the attention, keep the cache small",
     "code": _DEC.replace("    cache_k = np.concatenate([cache_k, k], axis=-2)\n    cache_v = np.concatenate([cache_v, v], axis=-2)\n    kk = np.repeat(cache_k, h // g, axis=-3)\n    vv = np.repeat(cache_v, h // g, axis=-3)", "    if cache_k.shape[-3] == g and g != h:\n        cache_k = np.repeat(cache_k, h // g, axis=-3)\n        cache_v = np.repeat(cache_v, h // g, axis=-3)\n    cache_k = np.concatenate([cache_k, np.repeat(k, h // g, axis=-3)], axis=-2)\n    cache_v = np.concatenate([cache_v, np.repeat(v, h // g, axis=-3)], axis=-2)\n    kk, vv = cache_k, cache_v")},
    {"exercise": "decode_one_token", "kind": "robustness", "idea": "writes into a preallocated cache passed in (modifies the arguments through np.resize / in-place)",
     "mistake": "writes the new key into the caller's cache array (last slot overwritten) instead of returning new arrays",
     "teacher_says": "do not change the arguments: build new caches with np.concatenate",
     "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k = mha.split_heads(x_t @ params.w_k, g)
    v = mha.split_heads(x_t @ params.w_v, g)
    if cache_k.shape[-2] > 0:
        cache_k[..., -1:, :] = k     # "reuse the buffer"
        cache_v[..., -1:, :] = v
        new_k, new_v = cache_k, cache_v
    else:
        new_k, new_v = k, v
    heads, _ = mha.scaled_dot_product_attention(q, np.repeat(new_k, h // g, axis=-3), np.repeat(new_v, h // g, axis=-3))
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v
'''},
    # ---------------- gqa_kv_cache_bytes ----------------
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct", "idea": "2 * L * B * n * g * d_k * bytes",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct", "idea": "per-token bytes times tokens, with named variables",
     "code": '''
layers, batch, tokens, kv_heads, d_head, nbytes = 32, 8, 4096, 8, 128, 2
per_token = layers * 2 * kv_heads * d_head * nbytes   # keys and values of every layer
gqa_kv_cache_bytes = per_token * batch * tokens
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "uses the 32 query heads (the MHA cache)",
     "teacher_says": "the cache stores key/value heads only: g = 8, not 32",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "counts only the keys (forgets the factor 2 for values)",
     "teacher_says": "one key vector and one value vector: multiply by 2",
     "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "one layer only",
     "teacher_says": "every one of the 32 layers keeps its own cache",
     "code": '''
gqa_kv_cache_bytes = 2 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "4 bytes per number",
     "teacher_says": "bfloat16 takes 2 bytes",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 4
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "divides by the group size h/g once more (thinks GQA shares across 4x fewer heads than g)",
     "teacher_says": "g = 8 already is the reduced number of heads; do not divide again by h/g",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * (8 // 4) * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "robustness", "idea": "a float in GiB-derived bytes (4.0 * 2**30)",
     "mistake": "assigns a float",
     "teacher_says": "assign an int",
     "code": '''
gqa_kv_cache_bytes = 4.0 * 2 ** 30
'''},
]
