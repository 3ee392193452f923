_ATT = '''
import math
import numpy as np

def _sdpa(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        m = np.broadcast_to(mask, s.shape)
        s = np.where(m, s, -np.inf)
        ok = m.any(-1, keepdims=True)
        s = np.where(ok, s, 0.0)
    e = np.exp(s - s.max(-1, keepdims=True))
    w = e / e.sum(-1, keepdims=True)
    if mask is not None:
        w = np.where(ok, w, 0.0)
    return w @ v, w

def _split(x, h):
    *b, n, f = x.shape
    return np.swapaxes(x.reshape(*b, n, h, f // h), -3, -2)

def _merge(x):
    *b, h, n, d = x.shape
    return np.swapaxes(x, -3, -2).reshape(*b, n, h * d)
'''

ANSWERS = [
    # repeat_kv_heads
    {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "fancy indexing with i // (h/g)",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    idx = np.arange(num_heads) // (num_heads // g)
    return np.take(k, idx, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "broadcast_to a new group axis then reshape",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    *b, g, n, d = k.shape
    r = num_heads // g
    e = np.broadcast_to(k[..., :, None, :, :], (*b, g, r, n, d))
    return e.reshape(*b, num_heads, n, d)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "np.tile order (0,1,0,1) instead of repeat (0,0,1,1)",
     "teacher_says": "query head i uses kv head i // (h/g): neighbours share a kv head, so repeat, not tile",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeats num_heads times instead of h/g times",
     "teacher_says": "each kv head is repeated h/g times, giving h heads in all",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeats along axis 1 (assumes (B, g, n, d))",
     "teacher_says": "the heads axis is -3, whatever the number of leading axes",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[1], axis=1)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeats along the token axis -2",
     "teacher_says": "repeat the heads axis (-3), not the tokens",
     "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=-2)
'''},
    {"exercise": "repeat_kv_heads", "kind": "robustness", "idea": "returns a read-only broadcast view (no reshape copy) via as_strided",
     "mistake": "returns a list of arrays",
     "teacher_says": "return one array of shape (..., h, n, d)",
     "code": '''
def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return [k[..., i // (num_heads // g), :, :] for i in range(num_heads)]
'''},
    # grouped_query_attention
    {"exercise": "grouped_query_attention", "kind": "correct", "idea": "repeat kv heads then ordinary attention",
     "code": _ATT + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    Q = _split(q @ params.w_q, h)
    K = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    V = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    heads, w = _sdpa(Q, K, V, mask)
    return _merge(heads) @ params.w_o, w
'''},
    {"exercise": "grouped_query_attention", "kind": "correct", "idea": "group the query heads as (g, h/g), no copy; mask gets a group axis",
     "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    Q = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d)
    *b, _, n_q, d = Q.shape
    Qg = Q.reshape(*b, g, r, n_q, d)
    K = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]
    V = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    m = None
    if mask is not None:
        m = np.asarray(mask)
        m = np.broadcast_to(m, np.broadcast_shapes(m.shape, (h, n_q, K.shape[-2])))
        m = m.reshape(*m.shape[:-3], g, r, n_q, K.shape[-2])
    heads, w = mha.scaled_dot_product_attention(Qg, K, V, mask=m)
    heads = heads.reshape(*b, h, n_q, -1)
    w = w.reshape(*w.shape[:-4], h, n_q, -1)
    return mha.merge_heads(heads) @ params.w_o, w
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "tiles the kv heads (0,1,0,1)",
     "teacher_says": "query head i uses kv head i // (h/g): use np.repeat",
     "code": _ATT + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    Q = _split(q @ params.w_q, h)
    K, V = _split(k @ params.w_k, g), _split(v @ params.w_v, g)
    reps = [1] * K.ndim; reps[-3] = h // g
    heads, w = _sdpa(Q, np.tile(K, reps), np.tile(V, reps), mask)
    return _merge(heads) @ params.w_o, w
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "forgets the output projection W^O (returns the merged heads)",
     "teacher_says": "after merging the heads, multiply by W^O: the output has d_model features",
     "code": _ATT + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    Q = _split(q @ params.w_q, h)
    K = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    V = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    heads, w = _sdpa(Q, K, V, mask)
    return _merge(heads), w
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "returns the weights per kv head (averaged within groups)",
     "teacher_says": "the weights hold one matrix per query head: (..., h, n_q, n_k)",
     "code": _ATT + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    Q = _split(q @ params.w_q, h)
    K = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    V = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    heads, w = _sdpa(Q, K, V, mask)
    wg = w.reshape(*w.shape[:-3], g, h // g, *w.shape[-2:]).mean(axis=-3)
    return _merge(heads) @ params.w_o, wg
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "mask ignored",
     "teacher_says": "pass the mask to the attention",
     "code": _ATT + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    Q = _split(q @ params.w_q, h)
    K = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    V = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    heads, w = _sdpa(Q, K, V)
    return _merge(heads) @ params.w_o, w
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "scales by sqrt(d_model / g) (confuses head sizes)",
     "teacher_says": "d_k is params.d_k, the same for queries and keys",
     "code": _ATT + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    Q = _split(q @ params.w_q, h)
    K = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    V = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    f = math.sqrt(q.shape[-1] / g) / math.sqrt(Q.shape[-1])
    heads, w = _sdpa(Q / f, K, V, mask)
    return _merge(heads) @ params.w_o, w
'''},
    # decode_one_token
    {"exercise": "decode_one_token", "kind": "correct", "idea": "project x_t, concatenate to the caches, attend unmasked with repeated kv heads",
     "code": _ATT + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    k_new = _split(x_t @ params.w_k, g)
    v_new = _split(x_t @ params.w_v, g)
    ck = np.concatenate([cache_k, k_new], axis=-2)
    cv = np.concatenate([cache_v, v_new], axis=-2)
    heads, _ = _sdpa(q, np.repeat(ck, h // g, axis=-3), np.repeat(cv, h // g, axis=-3))
    return _merge(heads) @ params.w_o, ck, cv
'''},
    {"exercise": "decode_one_token", "kind": "correct", "idea": "use mha.efficient.grouped_query_attention on the full sequence of cached keys (einsum-free, grouped)",
     "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    q = mha.split_heads(x_t @ params.w_q, h)  # (..., h, 1, d)
    ck = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    *b, _, one, d = q.shape
    qg = q.reshape(*b, g, r, one, d)
    heads, _ = mha.scaled_dot_product_attention(qg, ck[..., :, None, :, :], cv[..., :, None, :, :])
    heads = heads.reshape(*b, h, one, -1)
    return mha.merge_heads(heads) @ params.w_o, ck, cv
'''},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "attends only the cache, not its own key",
     "teacher_says": "the new query attends all t+1 keys, its own included",
     "code": _ATT + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([cache_k, _split(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, _split(x_t @ params.w_v, g)], axis=-2)
    if cache_k.shape[-2] == 0:
        K, V = ck, cv
    else:
        K, V = cache_k, cache_v
    heads, _ = _sdpa(q, np.repeat(K, h // g, axis=-3), np.repeat(V, h // g, axis=-3))
    return _merge(heads) @ params.w_o, ck, cv
'''},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "prepends the new key (concatenate order reversed)",
     "teacher_says": "append at the end of the token axis: the cache's order is the tokens' order",
     "code": _ATT + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([_split(x_t @ params.w_k, g), cache_k], axis=-2)
    cv = np.concatenate([_split(x_t @ params.w_v, g), cache_v], axis=-2)
    heads, _ = _sdpa(q, np.repeat(ck, h // g, axis=-3), np.repeat(cv, h // g, axis=-3))
    return _merge(heads) @ params.w_o, ck, cv
'''},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "applies a top-left causal mask of shape (1, t+1): only key 0 allowed",
     "teacher_says": "the new token is the last position: nothing is masked (a top-left causal mask lets it see key 0 only)",
     "code": _ATT + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([cache_k, _split(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, _split(x_t @ params.w_v, g)], axis=-2)
    mask = np.tril(np.ones((1, ck.shape[-2]), dtype=bool))
    heads, _ = _sdpa(q, np.repeat(ck, h // g, axis=-3), np.repeat(cv, h // g, axis=-3), mask)
    return _merge(heads) @ params.w_o, ck, cv
'''},
    {"exercise": "decode_one_token", "kind": "wrong", "mistake": "computes the output right but returns the old caches (forgot to return the grown ones)",
     "teacher_says": "return the caches with the new token's key and value appended",
     "code": _ATT + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([cache_k, _split(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, _split(x_t @ params.w_v, g)], axis=-2)
    heads, _ = _sdpa(q, np.repeat(ck, h // g, axis=-3), np.repeat(cv, h // g, axis=-3))
    return _merge(heads) @ params.w_o, cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "robustness", "idea": "grows the cache by writing into a preallocated module-level buffer shared across calls",
     "mistake": "returns views of a global buffer: later calls overwrite earlier returned caches",
     "teacher_says": "return new arrays; a shared buffer makes earlier results change",
     "code": _ATT + '''
_BUF = {}

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    kn, vn = _split(x_t @ params.w_k, g), _split(x_t @ params.w_v, g)
    t = cache_k.shape[-2]
    shp_k = cache_k.shape[:-2] + (t + 1, cache_k.shape[-1])
    shp_v = cache_v.shape[:-2] + (t + 1, cache_v.shape[-1])
    bk = _BUF.setdefault(("k", shp_k), np.empty(shp_k, dtype=kn.dtype))
    bv = _BUF.setdefault(("v", shp_v), np.empty(shp_v, dtype=vn.dtype))
    bk[..., :t, :] = cache_k; bk[..., t:, :] = kn
    bv[..., :t, :] = cache_v; bv[..., t:, :] = vn
    heads, _ = _sdpa(q, np.repeat(bk, h // g, axis=-3), np.repeat(bv, h // g, axis=-3))
    return _merge(heads) @ params.w_o, bk, bv
'''},
    # gqa_kv_cache_bytes
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct", "idea": "2 (K and V) * layers * batch * tokens * kv heads * d * bytes",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct", "idea": "per token per layer bytes, via math.prod",
     "code": '''
import math
_per_token_layer = (128 + 128) * 8 * 2
gqa_kv_cache_bytes = int(math.prod([_per_token_layer, 32, 8, 4096]))
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "uses the 32 query heads",
     "teacher_says": "only the 8 key/value heads are cached",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "forgets the factor 2 for keys and values",
     "teacher_says": "the cache holds a key and a value vector",
     "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "forgets the layers",
     "teacher_says": "every one of the 32 layers has its own cache",
     "code": '''
gqa_kv_cache_bytes = 2 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "robustness", "idea": "answer in GiB",
     "mistake": "gives 4.0 (GiB) instead of bytes",
     "teacher_says": "bytes, as an int",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2 / 1024**3
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "uses d_model = 32*128 per token instead of the kv heads' 8*128",
     "teacher_says": "with GQA each token caches g * d_k = 8 * 128 numbers per K (and V), not d_model",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 4096 * 2
'''},
]
