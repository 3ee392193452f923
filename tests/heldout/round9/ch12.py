# writer D's answers, then writer H's (each file verbatim)
"""Student answers for chapter 12 (Grouped-query attention and the KV cache), writer D."""

ANSWERS = [
# --------------------------------------------------------------------- repeat_kv_heads
 {"exercise": "repeat_kv_heads", "kind": "correct",
  "idea": "fancy-index the heads axis with arange(h) // (h // g): head i reads kv head "
          "floor(i / (h/g))",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    which = np.arange(num_heads) // (num_heads // g)  # (h,): 0, 0, ..., 1, 1, ...
    return np.take(k, which, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "robustness",
  "idea": "a Python loop over the h query heads appending a copy of the right kv head, then "
          "np.stack on axis -3: right values, h separate copies",
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
  "mistake": "Tiles the whole list of kv heads (head i reads i mod g, order 0, 1, 0, 1) "
             "instead of repeating each one in place (0, 0, 1, 1).",
  "teacher_says": "Key/value head j serves the *contiguous* query heads j*h/g .. (j+1)*h/g-1: "
                  "np.repeat, not np.tile.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Repeats along axis 0, which is the heads axis only when k has no batch axis; "
             "with (B, g, n, d) keys it repeats the batch instead.",
  "teacher_says": "Count the heads axis from the end (-3) so that it stays right for any "
                  "number of leading batch axes.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=0)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "Repeats each kv head num_heads times instead of num_heads // g times, so the "
             "result has g*h heads.",
  "teacher_says": "Each kv head is shared by a group of h/g query heads: that group size is "
                  "the repeat count, and the result must have exactly h heads.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
# ------------------------------------------------------------- grouped_query_attention
 {"exercise": "grouped_query_attention", "kind": "correct",
  "idea": "project, split q into h and k, v into g heads, expand kv heads by indexing, then "
          "one call of mha.scaled_dot_product_attention with the mask as given",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
    k_g = mha.split_heads(k @ params.w_k, g)  # (..., g, n_k, d_k)
    v_g = mha.split_heads(v @ params.w_v, g)  # (..., g, n_k, d_v)
    owner = np.arange(h) // (h // g)
    k_h = np.take(k_g, owner, axis=-3)
    v_h = np.take(v_g, owner, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "robustness",
  "idea": "one query head at a time in a Python loop, with that head's slice of the mask "
          "(broadcast to h heads first), and the output built as the sum of per-head "
          "products head_i @ W^O_i",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k, d_v = params.d_k, params.d_v
    q_proj, k_proj, v_proj = q @ params.w_q, k @ params.w_k, v @ params.w_v
    n_q, n_k = q.shape[-2], k.shape[-2]
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim < 3:
            mask = mask[None]
        lead = mask.shape[:-3]
        mask = np.broadcast_to(mask, (*lead, h, n_q, n_k))
    out, weights = 0, []
    for i in range(h):
        j = i // (h // g)
        q_i = q_proj[..., i * d_k:(i + 1) * d_k]
        k_j = k_proj[..., j * d_k:(j + 1) * d_k]
        v_j = v_proj[..., j * d_v:(j + 1) * d_v]
        m_i = None if mask is None else mask[..., i, :, :]
        head, w_i = mha.scaled_dot_product_attention(q_i, k_j, v_j, m_i)
        out = out + head @ params.w_o[i * d_v:(i + 1) * d_v]
        weights.append(w_i)
    return out, np.stack(weights, axis=-3)
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Gives query head i the kv head i % g (interleaved), the mapping the chapter's "
             "figure shows as the mistake, instead of i // (h/g).",
  "teacher_says": "Query heads 0 .. h/g-1 share kv head 0, the next h/g share kv head 1, and "
                  "so on: use i // (h // g).",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_g = mha.split_heads(k @ params.w_k, g)
    v_g = mha.split_heads(v @ params.w_v, g)
    owner = np.arange(h) % g
    heads, weights = mha.scaled_dot_product_attention(
        q_h, k_g[..., owner, :, :], v_g[..., owner, :, :], mask
    )
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Splits the key and value projections into num_heads heads, as in ordinary "
             "multi-head attention, instead of num_kv_heads: with g < h the head sizes no "
             "longer match and the attention raises.",
  "teacher_says": "W^K and W^V have g*d_k columns: split them into g = num_kv_heads heads and "
                  "share each across its group.",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = mha.split_heads(k @ params.w_k, h)
    v_h = mha.split_heads(v @ params.w_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "Writes the attention by hand and scales the scores by sqrt(d_model / h) "
             "instead of sqrt(d_k) read from the weights; the two differ when d_k is not "
             "d_model / h.",
  "teacher_says": "Scale by the key size actually used, params.d_k (w_q's columns / h), not "
                  "by a size you derive from d_model.",
  "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    d_head = params.w_o.shape[1] // h  # d_model / h
    scores = q_h @ np.swapaxes(k_h, -1, -2) / np.sqrt(d_head)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.where(total > 0, e / np.where(total > 0, total, 1), 0).astype(q_h.dtype)
    return mha.merge_heads(weights @ v_h) @ params.w_o, weights
'''},
# -------------------------------------------------------------------- decode_one_token
 {"exercise": "decode_one_token", "kind": "correct",
  "idea": "project only x_t, append with np.concatenate on the token axis, expand the kv "
          "heads with np.repeat and attend all t+1 keys without a mask",
  "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)  # (..., h, 1, d_k)
    k_new = mha.split_heads(x_t @ params.w_k, g)  # (..., g, 1, d_k)
    v_new = mha.split_heads(x_t @ params.w_v, g)  # (..., g, 1, d_v)
    keys = np.concatenate([cache_k, k_new.astype(cache_k.dtype)], axis=-2)
    values = np.concatenate([cache_v, v_new.astype(cache_v.dtype)], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3)
    )
    out = mha.merge_heads(heads) @ params.w_o  # (..., 1, d_model)
    return out, keys, values
'''},
 {"exercise": "decode_one_token", "kind": "robustness",
  "idea": "everything in float64 with an explicit loop over query heads and a hand-written "
          "softmax, caches grown with np.append (copies), results cast back to x_t's dtype",
  "code": '''
import numpy as np


def decode_one_token(x_t, params, cache_k, cache_v):
    dtype = x_t.dtype
    h, g = params.num_heads, params.num_kv_heads
    d_k, d_v = params.d_k, params.d_v
    x = x_t.astype(np.float64)
    q = x @ params.w_q.astype(np.float64)  # (..., 1, h*d_k)
    k = x @ params.w_k.astype(np.float64)  # (..., 1, g*d_k)
    v = x @ params.w_v.astype(np.float64)
    k_new = np.stack([k[..., j * d_k:(j + 1) * d_k] for j in range(g)], axis=-3)
    v_new = np.stack([v[..., j * d_v:(j + 1) * d_v] for j in range(g)], axis=-3)
    keys = np.append(cache_k.astype(np.float64), k_new, axis=-2)
    values = np.append(cache_v.astype(np.float64), v_new, axis=-2)
    heads = []
    for i in range(h):
        j = i // (h // g)
        q_i = q[..., i * d_k:(i + 1) * d_k]  # (..., 1, d_k)
        s = q_i @ np.swapaxes(keys[..., j, :, :], -1, -2) / np.sqrt(d_k)  # (..., 1, t+1)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        p = e / e.sum(axis=-1, keepdims=True)
        heads.append(p @ values[..., j, :, :])  # (..., 1, d_v)
    out = np.concatenate(heads, axis=-1) @ params.w_o.astype(np.float64)
    return out.astype(dtype), keys.astype(dtype), values.astype(dtype)
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Concatenates the new key and value in front of the cache instead of after it; "
             "the output is the same (no mask), but the caches are in the wrong order for "
             "every later step.",
  "teacher_says": "The newest token is the last position: append its key and value at the "
                  "end of the token axis, [cache, new].",
  "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    keys = np.concatenate([k_new, cache_k], axis=-2)
    values = np.concatenate([v_new, cache_v], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, keys, values
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Attends only the old cache and appends the new key and value afterwards, so "
             "the token never sees itself (and with t = 0 it has no key at all).",
  "teacher_says": "Under the causal mask the newest query attends keys 0 .. t, its own "
                  "included: append first, then attend.",
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
    keys = np.concatenate([cache_k, k_new], axis=-2)
    values = np.concatenate([cache_v, v_new], axis=-2)
    return out, keys, values
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "Keeps a causal mask for safety but builds it top-left, np.tril(ones((1, t+1))), "
             "so the one new query may attend only key 0.",
  "teacher_says": "A query that is the last of t+1 positions sits bottom-right: it may attend "
                  "every key (mha.causal_mask(1, t + 1) is all True), not just the first.",
  "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    keys = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    values = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    n_k = keys.shape[-2]
    mask = np.tril(np.ones((1, n_k), dtype=bool))
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3), mask
    )
    return mha.merge_heads(heads) @ params.w_o, keys, values
'''},
# ----------------------------------------------------------------- gqa_kv_cache_bytes
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
  "idea": "named factors: K and V x layers x batch x tokens x kv heads x d_k x bytes",
  "code": '''
layers, batch, tokens, kv_heads, d_k, nbytes = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = 2 * layers * batch * tokens * kv_heads * d_k * nbytes
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
  "idea": "the right number, 4 GiB, but as a float computed with 1024.0 ** 3",
  "code": '''
gqa_kv_cache_bytes = 4 * 1024.0 ** 3  # 4 GiB
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Counts the 32 query heads instead of the 8 key/value heads, i.e. the cache of "
             "plain multi-head attention (4x too large).",
  "teacher_says": "Only keys and values are cached, and GQA has g = 8 of those heads: the "
                  "query heads do not enter the cache.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Counts only the keys, forgetting that the cache stores a value vector too "
             "(half the right answer).",
  "teacher_says": "It is a K *and* V cache: one key and one value vector per token, layer and "
                  "kv head, hence the factor 2.",
  "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "Multiplies by 16 for bfloat16, the number of bits per number, instead of 2 "
             "bytes (8x too large).",
  "teacher_says": "bfloat16 is 16 bits = 2 bytes; the question asks for bytes.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 16
'''},
]

_WRITER_D = ANSWERS

"""Student answers for chapter 12 (Grouped-query attention and the KV cache), writer h."""

ANSWERS = [
    # ------------------------------------------------------------------ repeat_kv_heads
    {"exercise": "repeat_kv_heads", "kind": "correct",
     "idea": "insert an axis after the key/value heads, broadcast it to h/g, and fold it into the "
             "heads axis with a reshape",
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
     "idea": "one slice per query head in a Python list, stacked on axis -3: h separate copies",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    size = num_heads // g
    heads = [np.array(k[..., i // size, :, :], copy=True) for i in range(num_heads)]
    return np.stack(heads, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Uses np.tile on the last three axes: the key/value heads come out in the order "
                "0, 1, 0, 1 (head i reads i mod g) instead of 0, 0, 1, 1.",
     "teacher_says": "Contiguous groups need each key/value head repeated in place: np.repeat along "
                     "axis -3, not np.tile.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.tile(k, (num_heads // g, 1, 1))
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Hard-codes axis=1 in np.repeat, thinking of a (B, g, n, d) input: without a batch axis "
                "(or with two) it repeats the tokens or the wrong axis.",
     "teacher_says": "The heads axis is the third from the end whatever the leading axes are: use "
                     "axis=-3.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=1)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "Repeats each key/value head num_heads times instead of num_heads // g times, so the "
                "result has g * h heads.",
     "teacher_says": "Each key/value head serves h/g query heads: that is the repeat count, and the "
                     "result must have exactly h heads.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},

    # ------------------------------------------------------------------ grouped_query_attention
    {"exercise": "grouped_query_attention", "kind": "correct",
     "idea": "expand the key/value heads with np.repeat, then the plain multi-head path with "
             "mha.scaled_dot_product_attention; biases used if present",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads

    def proj(x, w, b):
        y = x @ w
        return y if b is None else y + b

    q_heads = mha.split_heads(proj(q, params.w_q, params.b_q), h)  # (..., h, n_q, d_k)
    k_heads = mha.split_heads(proj(k, params.w_k, params.b_k), g)  # (..., g, n_k, d_k)
    v_heads = mha.split_heads(proj(v, params.w_v, params.b_v), g)  # (..., g, n_k, d_v)
    k_heads = np.repeat(k_heads, h // g, axis=-3)
    v_heads = np.repeat(v_heads, h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return proj(mha.merge_heads(heads), params.w_o, params.b_o), weights
'''},
    {"exercise": "grouped_query_attention", "kind": "robustness",
     "idea": "one query head at a time in a Python loop, with its own float64 softmax (fully masked "
             "rows give zeros), cast back to the input dtype at the end",
     "code": '''
import numpy as np


def grouped_query_attention(q, k, v, params, mask=None):
    dtype = np.asarray(q).dtype
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g
    Q = np.asarray(q, dtype=np.float64) @ params.w_q.astype(np.float64)
    K = np.asarray(k, dtype=np.float64) @ params.w_k.astype(np.float64)
    V = np.asarray(v, dtype=np.float64) @ params.w_v.astype(np.float64)
    n_q, n_k = Q.shape[-2], K.shape[-2]
    lead = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2])
    if mask is not None:
        full_mask = np.broadcast_to(np.asarray(mask, dtype=bool), (*lead, h, n_q, n_k))
    heads, weights = [], []
    for i in range(h):
        j = i // (h // g)
        qi = Q[..., i * d_k:(i + 1) * d_k]
        kj = K[..., j * d_k:(j + 1) * d_k]
        vj = V[..., j * d_v:(j + 1) * d_v]
        scores = qi @ np.swapaxes(kj, -1, -2) / np.sqrt(d_k)
        scores = np.broadcast_to(scores, (*lead, n_q, n_k)).copy()
        if mask is not None:
            scores[~full_mask[..., i, :, :]] = -np.inf
        top = scores.max(axis=-1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        e = np.exp(scores - top)
        total = e.sum(axis=-1, keepdims=True)
        w = e / np.where(total == 0, 1.0, total)
        weights.append(w)
        heads.append(w @ vj)
    concat = np.concatenate(heads, axis=-1)  # (..., n_q, h*d_v)
    out = concat @ params.w_o.astype(np.float64)
    if params.b_o is not None:
        out = out + params.b_o
    return out.astype(dtype), np.stack(weights, axis=-3).astype(dtype)
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Expands the key/value heads by concatenating the whole list of g heads h/g times "
                "(tiling): query head i reads key/value head i mod g instead of i // (h/g).",
     "teacher_says": "Head i belongs to group floor(i / (h/g)): the groups are contiguous, so repeat "
                     "each key/value head in place rather than tiling the list.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = mha.split_heads(k @ params.w_k, g)
    v_heads = mha.split_heads(v @ params.w_v, g)
    k_heads = np.concatenate([k_heads] * (h // g), axis=-3)
    v_heads = np.concatenate([v_heads] * (h // g), axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Writes the attention by hand and scales the scores by the square root of the input's "
                "width q.shape[-1] (d_model) instead of d_k.",
     "teacher_says": "The scale belongs to the dot product of one head: sqrt(d_k) = sqrt(params.d_k), "
                     "not the square root of the model width.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = q_heads @ np.swapaxes(k_heads, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ v_heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "Concatenates the heads with a bare reshape of (..., h, n, d_v) to (..., n, h*d_v), "
                "without first moving the heads axis next to the features: tokens and heads get mixed.",
     "teacher_says": "Concat needs the heads axis moved after the tokens (swapaxes(-3, -2)) before the "
                     "reshape; mha.merge_heads does exactly that.",
     "code": '''
import numpy as np
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    *lead, _, n_q, d_v = heads.shape
    concat = heads.reshape(*lead, n_q, h * d_v)
    return concat @ params.w_o, weights
'''},

    # ------------------------------------------------------------------ decode_one_token
    {"exercise": "decode_one_token", "kind": "correct",
     "idea": "group the h query heads as (g, h/g) against the g cached heads with a singleton axis: "
             "broadcasting shares them, no copy; all results cast to x_t's dtype",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    dtype = x_t.dtype
    h, g = params.num_heads, params.num_kv_heads
    q_t = mha.split_heads(x_t @ params.w_q, h)  # (..., h, 1, d_k)
    k_t = mha.split_heads(x_t @ params.w_k, g)  # (..., g, 1, d_k)
    v_t = mha.split_heads(x_t @ params.w_v, g)  # (..., g, 1, d_v)
    keys = np.concatenate([cache_k, k_t], axis=-2).astype(dtype, copy=False)
    values = np.concatenate([cache_v, v_t], axis=-2).astype(dtype, copy=False)
    *lead, _, _, d_k = q_t.shape
    q_grouped = q_t.reshape(*lead, g, h // g, 1, d_k)
    heads, _ = mha.scaled_dot_product_attention(
        q_grouped, keys[..., :, None, :, :], values[..., :, None, :, :]
    )  # (..., g, h/g, 1, d_v)
    heads = heads.reshape(*lead, h, 1, heads.shape[-1])
    out = (mha.merge_heads(heads) @ params.w_o).astype(dtype, copy=False)
    return out, keys, values
'''},
    {"exercise": "decode_one_token", "kind": "robustness",
     "idea": "loops over the query heads with a hand-written softmax in float64 and rebuilds the "
             "caches with np.append, casting everything back to x_t's dtype",
     "code": '''
import numpy as np


def decode_one_token(x_t, params, cache_k, cache_v):
    dtype = x_t.dtype
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.w_q.shape[1] // h
    d_v = params.w_v.shape[1] // g
    x64 = x_t.astype(np.float64)
    q = x64 @ params.w_q.astype(np.float64)  # (..., 1, h*d_k)
    k_new = x64 @ params.w_k.astype(np.float64)  # (..., 1, g*d_k)
    v_new = x64 @ params.w_v.astype(np.float64)
    k_new = np.stack([k_new[..., j * d_k:(j + 1) * d_k] for j in range(g)], axis=-3)
    v_new = np.stack([v_new[..., j * d_v:(j + 1) * d_v] for j in range(g)], axis=-3)
    keys = np.append(np.asarray(cache_k, dtype=np.float64), k_new, axis=-2)
    values = np.append(np.asarray(cache_v, dtype=np.float64), v_new, axis=-2)
    pieces = []
    for i in range(h):
        j = i // (h // g)
        qi = q[..., i * d_k:(i + 1) * d_k]  # (..., 1, d_k)
        scores = qi @ np.swapaxes(keys[..., j, :, :], -1, -2) / np.sqrt(d_k)  # (..., 1, t+1)
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        pieces.append((e / e.sum(axis=-1, keepdims=True)) @ values[..., j, :, :])
    out = np.concatenate(pieces, axis=-1) @ params.w_o.astype(np.float64)
    return out.astype(dtype), keys.astype(dtype), values.astype(dtype)
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Puts the new key and value at the FRONT of the caches ([new, cache]): the output is "
                "unchanged (attention ignores order without positions) but the returned caches are in "
                "the wrong order, and every later step builds on them.",
     "teacher_says": "The newest token is the last position: append it at the end of the token axis, "
                     "np.concatenate([cache, new], axis=-2).",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q_t = mha.split_heads(x_t @ params.w_q, h)
    k_t = mha.split_heads(x_t @ params.w_k, g)
    v_t = mha.split_heads(x_t @ params.w_v, g)
    cache_k = np.concatenate([k_t, cache_k], axis=-2).astype(x_t.dtype)
    cache_v = np.concatenate([v_t, cache_v], axis=-2).astype(x_t.dtype)
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q_t, keys, values)
    out = mha.merge_heads(heads) @ params.w_o
    return out.astype(x_t.dtype), cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Adds a causal mask built with np.tril(np.ones((1, t + 1))): aligned top-left, it lets "
                "the new query see only the FIRST cached key instead of all of them.",
     "teacher_says": "The new query is the last position, so no key is in its future: either no mask "
                     "or the bottom-right mha.causal_mask(1, t + 1), which is all True.",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q_t = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    cache_k, cache_v = cache_k.astype(x_t.dtype), cache_v.astype(x_t.dtype)
    t_plus_1 = cache_k.shape[-2]
    causal = np.tril(np.ones((1, t_plus_1), dtype=bool))
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q_t, keys, values, causal)
    out = mha.merge_heads(heads) @ params.w_o
    return out.astype(x_t.dtype), cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "Copy-paste slip: the new value is projected with params.w_k instead of params.w_v, "
                "so the value cache holds keys (same shape when d_v = d_k, so nothing raises).",
     "teacher_says": "Keys and values have their own projections: the value of the new token is "
                     "x_t @ W^V.",
     "code": '''
import numpy as np
import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q_t = mha.split_heads(x_t @ params.w_q, h)
    k_t = mha.split_heads(x_t @ params.w_k, g)
    v_t = mha.split_heads(x_t @ params.w_k, g)
    cache_k = np.concatenate([cache_k, k_t], axis=-2).astype(x_t.dtype)
    cache_v = np.concatenate([cache_v, v_t], axis=-2).astype(x_t.dtype)
    keys = np.repeat(cache_k, h // g, axis=-3)
    values = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q_t, keys, values)
    out = mha.merge_heads(heads) @ params.w_o
    return out.astype(x_t.dtype), cache_k, cache_v
'''},

    # ------------------------------------------------------------------ gqa_kv_cache_bytes
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
     "idea": "named factors multiplied: K and V, layers, batch, tokens, key/value heads, d_k, bytes",
     "code": '''
layers, batch, tokens, kv_heads, d_k, bytes_per_number = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = 2 * layers * batch * tokens * kv_heads * d_k * bytes_per_number
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
     "idea": "the same product through np.prod: a numpy.int64, not a Python int",
     "code": '''
import numpy as np

gqa_kv_cache_bytes = np.prod(np.array([2, 32, 8, 4096, 8, 128, 2], dtype=np.int64))
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Counts the 32 query heads instead of the 8 key/value heads: the multi-head cache, four "
                "times too large.",
     "teacher_says": "The cache stores keys and values, and with GQA there are only g = 8 key/value "
                     "heads: that is the whole point of GQA.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Forgets the factor 2 for keys AND values: counts only the keys.",
     "teacher_says": "Each token stores one key vector and one value vector per key/value head: "
                     "multiply by 2.",
     "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "Leaves the batch out: computes the cache of one sequence, not of the 8 served.",
     "teacher_says": "The model serves 8 sequences at once and each has its own cache: multiply by the "
                     "batch size.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 4096 * 8 * 128 * 2
'''},
]

_WRITER_H = ANSWERS
ANSWERS = _WRITER_D + _WRITER_H
