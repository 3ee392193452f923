ANSWERS = [
 # ------------------------------------------------------------------ repeat_kv_heads
 {"exercise": "repeat_kv_heads", "kind": "correct",
  "idea": "fancy indexing with the mapping i // (h/g) on the heads axis",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    kv_of_head = np.arange(num_heads) // (num_heads // g)  # (h,): 0,0,..,1,1,..
    return k[..., kv_of_head, :, :]
'''},
 {"exercise": "repeat_kv_heads", "kind": "correct",
  "idea": "insert a group axis, broadcast it to h/g, and merge it into the heads axis with a reshape",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    *lead, g, n, d = k.shape
    per_group = num_heads // g
    expanded = np.broadcast_to(k[..., :, None, :, :], (*lead, g, per_group, n, d))
    return expanded.reshape(*lead, num_heads, n, d)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Uses np.tile, which repeats the whole sequence of key/value heads (0, 1, 0, 1) instead of each head in a row (0, 0, 1, 1).",
  "teacher_says": "Query head i reads key/value head floor(i/(h/g)): contiguous groups. np.repeat gives 0,0,1,1; np.tile gives 0,1,0,1, which is the i mod g mistake.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Repeats along axis -2 (the tokens) instead of -3 (the heads).",
  "teacher_says": "The heads axis is the third from the end, (..., g, n, d): repeat along axis=-3.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=-2)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Repeats each key/value head num_heads times instead of num_heads / g times, giving g*h heads.",
  "teacher_says": "Each key/value head serves h/g query heads: repeat it h // g times so that the result has exactly h heads.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Uses the number of key/value heads g as the repeat count instead of h/g.",
  "teacher_says": "The repeat count is the group size h // g, not g; the two only coincide when h = g^2.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, g, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Hard-codes axis=1, which is the heads axis only for 4-D (B, g, n, d) inputs; for (g, n, d) it repeats the tokens, for (B, L, g, n, d) the wrong axis again.",
  "teacher_says": "Count axes from the end, (..., g, n, d): the heads are axis -3 whatever the number of leading axes.",
  "code": '''
import numpy as np

def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=1)
'''},
 {"exercise": "repeat_kv_heads", "kind": "robustness",
  "idea": "torch.repeat_interleave on a tensor view of the array",
  "mistake": "Right values in the right order, but it returns a torch.Tensor for NumPy input.",
  "teacher_says": "Stay in NumPy (np.repeat), or convert back with .numpy(): the caller expects an array.",
  "code": '''
import numpy as np
import torch

def repeat_kv_heads(k, num_heads):
    t = torch.from_numpy(np.ascontiguousarray(k))
    return torch.repeat_interleave(t, num_heads // k.shape[-3], dim=-3)
'''},
 # ------------------------------------------------------------------ grouped_query_attention
 {"exercise": "grouped_query_attention", "kind": "correct",
  "idea": "a loop over the h query heads, each taking the columns of its key/value head j = i // (h/g)",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g
    if mask is not None:  # one (n_q, n_k) mask per query head
        scores_shape = (*q.shape[:-2], h, q.shape[-2], k.shape[-2])
        mask = np.broadcast_to(mask, np.broadcast_shapes(np.shape(mask), scores_shape))
    heads, weights = [], []
    for i in range(h):
        j = i // (h // g)
        q_i = q @ params.w_q[:, i * d_k:(i + 1) * d_k]
        k_j = k @ params.w_k[:, j * d_k:(j + 1) * d_k]
        v_j = v @ params.w_v[:, j * d_v:(j + 1) * d_v]
        m_i = None if mask is None else mask[..., i, :, :]
        out_i, w_i = mha.scaled_dot_product_attention(q_i, k_j, v_j, m_i)
        heads.append(out_i)
        weights.append(w_i)
    concat = np.concatenate(heads, axis=-1)
    return concat @ params.w_o, np.stack(weights, axis=-3)
'''},
 {"exercise": "grouped_query_attention", "kind": "correct",
  "idea": "no copy of K and V: einsum over a (g, h/g) grouping of the query heads, masked stable softmax with mha.softmax",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    q_h = mha.split_heads(q @ params.w_q, h)               # (..., h, n_q, d_k)
    k_h = mha.split_heads(k @ params.w_k, g)               # (..., g, n_k, d_k)
    v_h = mha.split_heads(v @ params.w_v, g)               # (..., g, n_k, d_v)
    lead, n_q, d_k = q_h.shape[:-3], q_h.shape[-2], q_h.shape[-1]
    q_g = q_h.reshape(*lead, g, r, n_q, d_k)
    scores = np.einsum("...grqd,...gkd->...grqk", q_g, k_h) / np.sqrt(d_k).astype(q.dtype)
    scores = scores.reshape(*lead, h, n_q, scores.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)                 # zeros for fully masked rows
    w_g = weights.reshape(*lead, g, r, n_q, weights.shape[-1])
    heads = np.einsum("...grqk,...gkd->...grqd", w_g, v_h).reshape(*lead, h, n_q, v_h.shape[-1])
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Pairs query head i with key/value head i mod g (tiling) instead of floor(i / (h/g)).",
  "teacher_says": "Key/value head j serves the CONTIGUOUS query heads j*h/g .. (j+1)*h/g - 1: expand with np.repeat (0,0,1,1), not np.tile (0,1,0,1).",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = mha.split_heads(k @ params.w_k, g)
    v_h = mha.split_heads(v @ params.w_v, g)
    reps = [1] * k_h.ndim
    reps[-3] = h // g
    k_h, v_h = np.tile(k_h, reps), np.tile(v_h, reps)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Writes the softmax by hand and forgets to divide the scores by sqrt(d_k).",
  "teacher_says": "Scaled dot-product attention divides the scores by sqrt(d_k) before the softmax.",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = q_h @ np.swapaxes(k_h, -1, -2)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ v_h) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Scales the scores by sqrt(d_model) instead of sqrt(d_k), the width of one head.",
  "teacher_says": "The dot products are over d_k features (one head), so the scale is 1/sqrt(d_k) = 1/sqrt(params.d_k), not 1/sqrt(d_model).",
  "code": '''
import math
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_model = params.w_q.shape[0]
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = q_h @ np.swapaxes(k_h, -1, -2) / math.sqrt(d_model)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ v_h) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Applies the mask with the opposite polarity: hides the keys marked True.",
  "teacher_says": "True means may attend: keep the scores where the mask is True, np.where(mask, scores, -inf).",
  "code": '''
import math
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = q_h @ np.swapaxes(k_h, -1, -2) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ v_h) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Takes the softmax over the queries (axis -2) instead of over the keys.",
  "teacher_says": "Each query's weights over the keys sum to 1: the softmax runs along the last axis, the keys.",
  "code": '''
import math
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = q_h @ np.swapaxes(k_h, -1, -2) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-2)
    return mha.merge_heads(weights @ v_h) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Forgets the output projection W^O: returns the concatenated heads.",
  "teacher_says": "The layer ends with Concat(head_0, ..., head_{h-1}) W^O: multiply the merged heads by params.w_o.",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads), weights
'''},
 {"exercise": "grouped_query_attention", "kind": "robustness",
  "idea": "only handles batched (B, n, d_model) inputs and says so with its own exception",
  "mistake": "Correct on 3-D inputs, but raises its own ValueError for an unbatched (n, d_model) sequence or extra leading axes, which the reference accepts.",
  "teacher_says": "Write the shapes with ... (split_heads, swapaxes(-1, -2), axis=-3) so that any number of leading axes works, instead of refusing them.",
  "code": '''
import numpy as np
import mha

def grouped_query_attention(q, k, v, params, mask=None):
    if q.ndim != 3:
        raise ValueError(f"expected q of shape (B, n, d_model), got {q.shape}")
    B, n_q, _ = q.shape
    n_k = k.shape[1]
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    q_h = (q @ params.w_q).reshape(B, n_q, h, d_k).transpose(0, 2, 1, 3)
    k_h = (k @ params.w_k).reshape(B, n_k, g, d_k).transpose(0, 2, 1, 3)
    v_h = (v @ params.w_v).reshape(B, n_k, g, -1).transpose(0, 2, 1, 3)
    k_h, v_h = np.repeat(k_h, h // g, axis=1), np.repeat(v_h, h // g, axis=1)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return heads.transpose(0, 2, 1, 3).reshape(B, n_q, -1) @ params.w_o, weights
'''},
 # ------------------------------------------------------------------ decode_one_token
 {"exercise": "decode_one_token", "kind": "correct",
  "idea": "np.append for the caches, then a per-head loop with a hand-written softmax",
  "code": '''
import numpy as np

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g
    lead = x_t.shape[:-2]
    q = (x_t @ params.w_q).reshape(*lead, 1, h, d_k)
    k_new = np.swapaxes((x_t @ params.w_k).reshape(*lead, 1, g, d_k), -2, -3)  # (..., g, 1, d_k)
    v_new = np.swapaxes((x_t @ params.w_v).reshape(*lead, 1, g, d_v), -2, -3)
    keys = np.append(cache_k, k_new, axis=-2)     # a new array; the arguments stay as they were
    values = np.append(cache_v, v_new, axis=-2)
    heads = []
    for i in range(h):
        j = i // (h // g)
        s = q[..., 0, i, :][..., None, :] @ np.swapaxes(keys[..., j, :, :], -1, -2) / np.sqrt(d_k)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        heads.append((e / e.sum(axis=-1, keepdims=True)) @ values[..., j, :, :])  # (..., 1, d_v)
    out = np.concatenate(heads, axis=-1) @ params.w_o
    return out.astype(x_t.dtype), keys, values
'''},
 {"exercise": "decode_one_token", "kind": "correct",
  "idea": "expand the key/value heads with np.repeat and reuse mha.scaled_dot_product_attention with no mask",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)                       # (..., h, 1, d_k)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    keys = np.repeat(cache_k, h // g, axis=-3)                     # (..., h, t+1, d_k)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, keys, values)   # the newest query sees all
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Prepends the new key and value at the front of the caches instead of appending them at the end.",
  "teacher_says": "The cache is in token order: the newest token goes at the END of the token axis, np.concatenate([cache, new], axis=-2). (The output does not notice, but every later step and any position code would.)",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([mha.split_heads(x_t @ params.w_k, g), cache_k], axis=-2)
    cache_v = np.concatenate([mha.split_heads(x_t @ params.w_v, g), cache_v], axis=-2)
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, keys, values)
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Attends over the OLD caches and appends the new key and value only afterwards, so the new token never sees itself (and with t = 0 it sees nothing).",
  "teacher_says": "Under a causal mask a query attends its own key too: append the new key and value first, then attend all t + 1 of them.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, keys, values)
    out = mha.merge_heads(heads) @ params.w_o
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    return out, new_k, new_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Applies a top-left causal mask np.tril(np.ones((1, t+1))), which lets the single new query see only the first key.",
  "teacher_says": "The new query is the LAST position: nothing is masked for it (or use the bottom-right mha.causal_mask(1, t + 1), which is all True). np.tril aligns top-left.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    n_k = cache_k.shape[-2]
    causal = np.tril(np.ones((1, n_k), dtype=bool))
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, keys, values, causal)
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Pairs query head i with key/value head i mod g (np.tile) instead of the contiguous group floor(i / (h/g)).",
  "teacher_says": "Each key/value head serves a contiguous block of h/g query heads: np.repeat along the heads axis, not np.tile.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    reps = [1] * cache_k.ndim
    reps[-3] = h // g
    heads, _ = mha.scaled_dot_product_attention(q, np.tile(cache_k, reps), np.tile(cache_v, reps))
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Copy-paste slip: projects the new value with W^K instead of W^V.",
  "teacher_says": "The value comes from x_t @ params.w_v; you used params.w_k twice.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, keys, values)
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Computes the scores by hand without the 1/sqrt(d_k) scale.",
  "teacher_says": "Decoding must give the same result as full attention: divide the scores by sqrt(d_k) before the softmax.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    weights = mha.softmax(q @ np.swapaxes(keys, -1, -2), axis=-1)
    return mha.merge_heads(weights @ values) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "robustness",
  "idea": "does all the arithmetic in float64 'to avoid drift over long generations'",
  "mistake": "Right values, but float32 inputs give float64 outputs and float64 caches.",
  "teacher_says": "Keep the inputs' dtype: a float32 model's cache should stay float32 (it is half the memory); do not cast to float64.",
  "code": '''
import numpy as np
import mha

def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    w_q, w_k, w_v, w_o = (np.asarray(w, dtype=np.float64) for w in (params.w_q, params.w_k, params.w_v, params.w_o))
    x = np.asarray(x_t, dtype=np.float64)
    q = mha.split_heads(x @ w_q, h)
    cache_k = np.concatenate([np.asarray(cache_k, dtype=np.float64), mha.split_heads(x @ w_k, g)], axis=-2)
    cache_v = np.concatenate([np.asarray(cache_v, dtype=np.float64), mha.split_heads(x @ w_v, g)], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3))
    return mha.merge_heads(heads) @ w_o, cache_k, cache_v
'''},
 # ------------------------------------------------------------------ gqa_kv_cache_bytes
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
  "idea": "math.prod over every factor, named",
  "code": '''
import math

layers, batch, tokens, kv_heads, d_k, bytes_per_number = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = math.prod([2, layers, batch, tokens, kv_heads, d_k, bytes_per_number])
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
  "idea": "build it up: bytes per token and layer, then per layer, then all layers",
  "code": '''
per_token_per_layer = (128 + 128) * 8 * 2     # one key and one value per key/value head, bf16
per_layer = per_token_per_layer * 8 * 4096     # every token of every sequence
gqa_kv_cache_bytes = per_layer * 32            # 4 GiB
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Counts the 32 query heads instead of the 8 key/value heads.",
  "teacher_says": "With grouped-query attention only the g = 8 key/value heads are cached; the query heads are never stored.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Forgets the factor 2 for keys AND values: counts the keys only.",
  "teacher_says": "The cache holds one key vector and one value vector per head and token: multiply by 2.",
  "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Forgets the batch of 8 sequences.",
  "teacher_says": "Every sequence in the batch has its own cache: multiply by the batch size 8.",
  "code": '''
layers, tokens, kv_heads, d_k = 32, 4096, 8, 128
gqa_kv_cache_bytes = 2 * layers * tokens * kv_heads * d_k * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Uses 4 bytes per number although the cache is in bfloat16.",
  "teacher_says": "bfloat16 takes 2 bytes per number.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 4
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Gives the answer in GiB (4.0) instead of bytes.",
  "teacher_says": "The question asks for bytes as an int: do not divide by 2**30.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2 / 2 ** 30
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Forgets the 32 layers: gives the cache of a single layer.",
  "teacher_says": "Every layer keeps its own keys and values: multiply by the 32 layers.",
  "code": '''
gqa_kv_cache_bytes = 2 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
  "idea": "recognises the result as 2**32 and writes it with math.pow",
  "mistake": "Right value, but math.pow returns the float 4294967296.0, not an int.",
  "teacher_says": "Use 2 ** 32 (an int) rather than math.pow, which always returns a float.",
  "code": '''
import math

gqa_kv_cache_bytes = math.pow(2, 32)
'''},
]
