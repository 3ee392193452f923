_H = '''
import math
import numpy as np
def _split(x, h):
    *b, n, f = x.shape
    return np.swapaxes(x.reshape(*b, n, h, f // h), -3, -2)
def _merge(x):
    *b, h, n, d = x.shape
    return np.swapaxes(x, -3, -2).reshape(*b, n, h * d)
def _softmax_masked(s, mask=None):
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(-1, keepdims=True); m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m); z = e.sum(-1, keepdims=True)
    return e / np.where(z > 0, z, 1)
'''
ANSWERS = [
 {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "np.repeat on axis -3", "code": '''
import numpy as np
def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "correct", "idea": "broadcast_to an inserted axis, then reshape", "code": '''
import numpy as np
def repeat_kv_heads(k, num_heads):
    *b, g, n, d = k.shape
    r = num_heads // g
    return np.broadcast_to(k[..., :, None, :, :], (*b, g, r, n, d)).reshape(*b, num_heads, n, d)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "np.tile order (0,1,0,1)", "teacher_says": "query head i reads kv head floor(i/(h/g)): repeat each head, do not tile the sequence", "code": '''
import numpy as np
def repeat_kv_heads(k, num_heads):
    r = num_heads // k.shape[-3]
    reps = [1] * k.ndim; reps[-3] = r
    return np.tile(k, reps)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeats along the tokens axis (-2)", "teacher_says": "the heads axis is -3", "code": '''
import numpy as np
def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=-2).reshape(*k.shape[:-3], num_heads, k.shape[-2], k.shape[-1])
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "repeat count num_heads instead of num_heads // g", "teacher_says": "repeat each kv head h/g times, not h times", "code": '''
import numpy as np
def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)[..., :num_heads, :, :]
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong", "mistake": "axis 1 by habit (only right for one batch axis)", "teacher_says": "use axis -3: with other numbers of leading axes axis 1 is not the heads", "code": '''
import numpy as np
def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=1)
'''},
 {"exercise": "repeat_kv_heads", "kind": "robustness", "idea": "returns a torch tensor (repeat_interleave)", "mistake": "torch", "teacher_says": "return a NumPy array", "code": '''
import torch
def repeat_kv_heads(k, num_heads):
    t = torch.as_tensor(k)
    return t.repeat_interleave(num_heads // t.shape[-3], dim=-3)
'''},
 {"exercise": "grouped_query_attention", "kind": "correct", "idea": "repeat kv heads then ordinary attention", "code": _H + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = _split(q @ params.w_q, h)
    kh = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    w = _softmax_masked(qh @ np.swapaxes(kh, -1, -2) / math.sqrt(qh.shape[-1]), mask)
    return _merge(w @ vh) @ params.w_o, w
'''},
 {"exercise": "grouped_query_attention", "kind": "correct", "idea": "group query heads (g, h/g), broadcast, no copy", "code": _H + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    qh = _split(q @ params.w_q, h)
    *b, _, n_q, d_k = qh.shape
    qg = qh.reshape(*b, g, r, n_q, d_k)
    kh = _split(k @ params.w_k, g)[..., :, None, :, :]
    vh = _split(v @ params.w_v, g)[..., :, None, :, :]
    s = (qg @ np.swapaxes(kh, -1, -2) / math.sqrt(d_k))
    n_k = s.shape[-1]
    s = s.reshape(*s.shape[:-4], h, n_q, n_k)
    w = _softmax_masked(s, mask)
    o = (w.reshape(*w.shape[:-3], g, r, n_q, n_k) @ vh)
    o = o.reshape(*o.shape[:-4], h, n_q, o.shape[-1])
    return _merge(o) @ params.w_o, w
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "tile instead of repeat for the kv heads", "teacher_says": "query head i uses kv head floor(i / (h/g)): np.repeat, not np.tile", "code": _H + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = _split(q @ params.w_q, h)
    kk = _split(k @ params.w_k, g); vv = _split(v @ params.w_v, g)
    reps = [1] * kk.ndim; reps[-3] = h // g
    kh = np.tile(kk, reps); vh = np.tile(vv, reps)
    w = _softmax_masked(qh @ np.swapaxes(kh, -1, -2) / math.sqrt(qh.shape[-1]), mask)
    return _merge(w @ vh) @ params.w_o, w
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "splits keys into h heads (as if MHA): wrong per-head width", "teacher_says": "keys and values have g heads, not h", "code": _H + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = _split(q @ params.w_q, h)
    kk = k @ params.w_k; vv = v @ params.w_v
    kk = np.concatenate([kk] * (h // g), -1); vv = np.concatenate([vv] * (h // g), -1)
    kh = _split(kk, h); vh = _split(vv, h)
    w = _softmax_masked(qh @ np.swapaxes(kh, -1, -2) / math.sqrt(qh.shape[-1]), mask)
    return _merge(w @ vh) @ params.w_o, w
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "weights returned per kv head (averaged over the group)", "teacher_says": "return one weight matrix per query head, shape (..., h, n_q, n_k)", "code": _H + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = _split(q @ params.w_q, h)
    kh = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    w = _softmax_masked(qh @ np.swapaxes(kh, -1, -2) / math.sqrt(qh.shape[-1]), mask)
    wg = w.reshape(*w.shape[:-3], g, h // g, *w.shape[-2:]).mean(-3)
    return _merge(w @ vh) @ params.w_o, wg
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "scale by sqrt(d_model / g)", "teacher_says": "the scale is sqrt(d_k), the per-head size", "code": _H + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = _split(q @ params.w_q, h)
    kh = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    w = _softmax_masked(qh @ np.swapaxes(kh, -1, -2) / math.sqrt(params.w_o.shape[1] / g), mask)
    return _merge(w @ vh) @ params.w_o, w
'''},
 {"exercise": "grouped_query_attention", "kind": "robustness", "idea": "NaN for fully masked rows", "mistake": "no guard", "teacher_says": "a fully masked query gets zeros, not NaN", "code": _H + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = _split(q @ params.w_q, h)
    kh = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    s = qh @ np.swapaxes(kh, -1, -2) / math.sqrt(qh.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(-1, keepdims=True)); w = e / e.sum(-1, keepdims=True)
    return _merge(w @ vh) @ params.w_o, w
'''},
 {"exercise": "decode_one_token", "kind": "correct", "idea": "project x_t, append, attend all", "code": _H + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([cache_k, _split(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, _split(x_t @ params.w_v, g)], axis=-2)
    kh = np.repeat(ck, h // g, axis=-3); vh = np.repeat(cv, h // g, axis=-3)
    w = _softmax_masked(q @ np.swapaxes(kh, -1, -2) / math.sqrt(q.shape[-1]))
    return _merge(w @ vh) @ params.w_o, ck, cv
'''},
 {"exercise": "decode_one_token", "kind": "correct", "idea": "einsum over grouped query heads", "code": '''
import numpy as np
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    *b, one, dm = x_t.shape
    q = (x_t @ params.w_q).reshape(*b, g, r, -1)          # (..., g, r, d_k)
    kn = (x_t @ params.w_k).reshape(*b, 1, g, -1)
    vn = (x_t @ params.w_v).reshape(*b, 1, g, -1)
    ck = np.concatenate([cache_k, np.swapaxes(kn, -3, -2)], axis=-2)
    cv = np.concatenate([cache_v, np.swapaxes(vn, -3, -2)], axis=-2)
    s = np.einsum("...grd,...gtd->...grt", q, ck) / np.sqrt(q.shape[-1])
    s = s - s.max(-1, keepdims=True)
    p = np.exp(s); p /= p.sum(-1, keepdims=True)
    o = np.einsum("...grt,...gtd->...grd", p, cv)          # (..., g, r, d_v)
    out = o.reshape(*b, 1, -1) @ params.w_o
    return out, ck, cv
'''},
 {"exercise": "decode_one_token", "kind": "wrong", "mistake": "new key prepended at the front of the cache", "teacher_says": "append the new token's key and value at the end of the token axis", "code": _H + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([_split(x_t @ params.w_k, g), cache_k], axis=-2)
    cv = np.concatenate([_split(x_t @ params.w_v, g), cache_v], axis=-2)
    kh = np.repeat(ck, h // g, axis=-3); vh = np.repeat(cv, h // g, axis=-3)
    w = _softmax_masked(q @ np.swapaxes(kh, -1, -2) / math.sqrt(q.shape[-1]))
    return _merge(w @ vh) @ params.w_o, ck, cv
'''},
 {"exercise": "decode_one_token", "kind": "wrong", "mistake": "attends only the cached keys (forgets its own)", "teacher_says": "the new query attends all t+1 keys, its own included", "code": _H + '''
import math
import numpy as np
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    def split(x, n):
        *b, t, f = x.shape
        return np.swapaxes(x.reshape(*b, t, n, f // n), -3, -2)
    q = split(x_t @ params.w_q, h)
    kh = np.repeat(cache_k, h // g, axis=-3); vh = np.repeat(cache_v, h // g, axis=-3)
    s = q @ np.swapaxes(kh, -1, -2) / math.sqrt(q.shape[-1])
    e = np.exp(s - s.max(-1, keepdims=True, initial=-np.inf)); w = e / e.sum(-1, keepdims=True)
    o = w @ vh
    *b, hh, t, d = o.shape
    out = np.swapaxes(o, -3, -2).reshape(*b, t, hh * d) @ params.w_o
    ck = np.concatenate([cache_k, split(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, split(x_t @ params.w_v, g)], axis=-2)
    return out, ck, cv
'''},
 {"exercise": "decode_one_token", "kind": "wrong", "mistake": "applies a top-left causal mask of shape (1, t+1): only key 0 visible", "teacher_says": "the newest token is the last position: nothing is masked (bottom-right alignment)", "code": _H + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([cache_k, _split(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, _split(x_t @ params.w_v, g)], axis=-2)
    kh = np.repeat(ck, h // g, axis=-3); vh = np.repeat(cv, h // g, axis=-3)
    mask = np.tril(np.ones((1, ck.shape[-2]), dtype=bool))
    w = _softmax_masked(q @ np.swapaxes(kh, -1, -2) / math.sqrt(q.shape[-1]), mask)
    return _merge(w @ vh) @ params.w_o, ck, cv
'''},
 {"exercise": "decode_one_token", "kind": "wrong", "mistake": "caches the repeated (h-head) keys instead of the g kv heads", "teacher_says": "the cache keeps g key/value heads; repeat only for the attention", "code": _H + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([cache_k, _split(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, _split(x_t @ params.w_v, g)], axis=-2)
    kh = np.repeat(ck, h // g, axis=-3); vh = np.repeat(cv, h // g, axis=-3)
    w = _softmax_masked(q @ np.swapaxes(kh, -1, -2) / math.sqrt(q.shape[-1]))
    return _merge(w @ vh) @ params.w_o, kh, vh
'''},
 {"exercise": "decode_one_token", "kind": "robustness", "idea": "appends into the caller's cache list via np.append on a view and returns the input caches", "mistake": "returns old caches unchanged", "teacher_says": "return the caches with the new token appended", "code": _H + '''
def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = _split(x_t @ params.w_q, h)
    ck = np.concatenate([cache_k, _split(x_t @ params.w_k, g)], axis=-2)
    cv = np.concatenate([cache_v, _split(x_t @ params.w_v, g)], axis=-2)
    kh = np.repeat(ck, h // g, axis=-3); vh = np.repeat(cv, h // g, axis=-3)
    w = _softmax_masked(q @ np.swapaxes(kh, -1, -2) / math.sqrt(q.shape[-1]))
    return _merge(w @ vh) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct", "idea": "2 L B n g d_k bytes", "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct", "idea": "named factors", "code": '''
layers, batch, tokens, kv_heads, d_k, nbytes = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = int(layers * batch * tokens * kv_heads * (d_k + d_k) * nbytes)
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "32 query heads (MHA cache)", "teacher_says": "the cache holds the 8 key/value heads, not the 32 query heads", "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "forgot the factor 2 for keys and values", "teacher_says": "the cache stores keys and values: two vectors", "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "forgot the layers", "teacher_says": "every layer has its own cache", "code": '''
gqa_kv_cache_bytes = 2 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong", "mistake": "answer in GiB", "teacher_says": "assign bytes", "code": '''
gqa_kv_cache_bytes = 4
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "robustness", "idea": "float from a division", "mistake": "float", "teacher_says": "assign an int", "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2 / 4
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong", "mistake": "d_k computed as w_k.shape[1] // num_heads (k has only g heads)",
  "teacher_says": "w_k has g * d_k columns: d_k = w_k.shape[1] // num_kv_heads (or params.d_k)",
  "code": _H + '''
def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_k.shape[1] // h
    qh = _split(q @ params.w_q, h)
    kh = np.repeat(_split(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(_split(v @ params.w_v, g), h // g, axis=-3)
    w = _softmax_masked(qh @ np.swapaxes(kh, -1, -2) / math.sqrt(d_k), mask)
    return _merge(w @ vh) @ params.w_o, w
'''},
]
