ANSWERS = [
    # ------------------------------------------------------------------ repeat_kv_heads
    {"exercise": "repeat_kv_heads", "kind": "correct",
     "idea": "fancy indexing of the heads axis with i * g // h (the same as floor(i / (h/g)))",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    source = np.arange(num_heads) * g // num_heads  # kv head read by query head i
    return k[..., source, :, :]
'''},
    {"exercise": "repeat_kv_heads", "kind": "correct",
     "idea": "np.broadcast_to a new group axis after the kv-heads axis, then reshape (g, h/g) into h",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    *lead, g, n, d = k.shape
    r = num_heads // g
    expanded = np.broadcast_to(k[..., :, None, :, :], (*lead, g, r, n, d))
    return expanded.reshape(*lead, num_heads, n, d)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "tiles the key/value heads (0, 1, 0, 1, ...) instead of repeating each one (0, 0, 1, 1, ...)",
     "teacher_says": "Query head i reads kv head floor(i / (h/g)), contiguous groups: np.repeat along axis -3, not np.tile.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "repeats along the token axis (-2) instead of the heads axis (-3)",
     "teacher_says": "The heads axis is -3 in (..., g, n, d); repeating axis -2 duplicates tokens and leaves g heads.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads // k.shape[-3], axis=-2)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "repeats each kv head num_heads times instead of num_heads / g times, giving h*g heads",
     "teacher_says": "Each of the g kv heads serves h/g query heads: repeat it h // g times, so that g * (h/g) = h.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "only inserts a singleton group axis (as for broadcasting) and returns (..., g, 1, n, d) instead of h heads",
     "teacher_says": "Broadcasting needs the queries grouped too; this function must return (..., h, n, d) with real copies: np.repeat(k, h // g, axis=-3).",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.expand_dims(k, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "repeats along axis 0 (assumes the heads come first), which duplicates the batch instead",
     "teacher_says": "The heads are the third axis from the end, whatever the batch axes: use axis=-3.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=0)
'''},
    {"exercise": "repeat_kv_heads", "kind": "wrong",
     "mistake": "indexes the kv heads with i % g (round robin), the tiled order",
     "teacher_says": "Head i reads kv head i // (h/g), not i % g: contiguous groups, as in the chapter's figure.",
     "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.take(k, np.arange(num_heads) % g, axis=-3)
'''},
    {"exercise": "repeat_kv_heads", "kind": "robustness",
     "idea": "torch.repeat_interleave on the NumPy input",
     "mistake": "returns a torch tensor instead of a NumPy array",
     "teacher_says": "Stay in NumPy (np.repeat(k, h // g, axis=-3)); a torch tensor breaks the NumPy functions that use the result.",
     "code": '''
import torch


def repeat_kv_heads(k, num_heads):
    t = torch.as_tensor(k)
    return t.repeat_interleave(num_heads // t.shape[-3], dim=-3)
'''},
    # ------------------------------------------------------------------ grouped_query_attention
    {"exercise": "grouped_query_attention", "kind": "correct",
     "idea": "expand the kv heads with np.repeat and reuse mha.scaled_dot_product_attention",
     "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "correct",
     "idea": "no copies: queries grouped as (g, h/g), einsum scores, mask broadcast to (..., h, n_q, n_k) then grouped, hand-written safe softmax",
     "code": '''
import numpy as np


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    *lead, n_q, _ = q.shape
    n_k = k.shape[-2]
    d_k = params.w_q.shape[1] // h
    qh = (q @ params.w_q).reshape(*lead, n_q, g, r, d_k)
    kh = (k @ params.w_k).reshape(*k.shape[:-2], n_k, g, d_k)
    vh = (v @ params.w_v).reshape(*v.shape[:-2], n_k, g, -1)
    scores = np.einsum("...qgrd,...kgd->...grqk", qh, kh) / np.sqrt(d_k).astype(q.dtype)
    if mask is not None:
        full = np.broadcast_to(mask, (*scores.shape[:-4], h, n_q, n_k))
        allowed = full.reshape(*scores.shape[:-4], g, r, n_q, n_k)
        scores = np.where(allowed, scores, -np.inf)
    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0)
    e = np.exp(scores - row_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0).astype(q.dtype)
    heads = np.einsum("...grqk,...kgd->...qgrd", weights, vh)  # (..., n_q, g, r, d_v)
    out = heads.reshape(*heads.shape[:-3], -1) @ params.w_o
    return out, weights.reshape(*weights.shape[:-4], h, n_q, n_k)
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "pairs query head i with key/value head i % g (tiled grouping) instead of i // (h/g)",
     "teacher_says": "Key/value head j serves the CONTIGUOUS query heads j*h/g .. (j+1)*h/g - 1: repeat each kv head (np.repeat), do not tile.",
     "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    reps = [1] * (q_heads.ndim - 3) + [h // g, 1, 1]
    k_heads = np.tile(mha.split_heads(k @ params.w_k, g), reps)
    v_heads = np.tile(mha.split_heads(v @ params.w_v, g), reps)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "scales the scores by 1/d_k instead of 1/sqrt(d_k)",
     "teacher_says": "Scaled dot-product attention divides the scores by sqrt(d_k), not by d_k.",
     "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    d_k = params.d_k
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = qh @ np.swapaxes(kh, -1, -2) / d_k
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "accepts the mask argument but never uses it",
     "teacher_says": "Pass the mask to the attention (True = may attend); with a causal or padding mask the output changes.",
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
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "returns the weights in the grouped layout (..., g, h/g, n_q, n_k) instead of one matrix per query head",
     "teacher_says": "Reshape the weights back to (..., h, n_q, n_k), like the heads, before returning them.",
     "code": '''
import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    *lead, _, n_q, d_k = q_heads.shape
    q_grouped = q_heads.reshape(*lead, g, h // g, n_q, d_k)
    k_heads = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]
    v_heads = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    if mask is not None and mask.ndim >= 3:
        if mask.shape[-3] == h:
            mask = mask.reshape(*mask.shape[:-3], g, h // g, *mask.shape[-2:])
        else:
            mask = mask[..., None, :, :]
    heads, weights = mha.scaled_dot_product_attention(q_grouped, k_heads, v_heads, mask)
    heads = heads.reshape(*lead, h, n_q, heads.shape[-1])
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "inverts the mask polarity (treats True as 'hidden', as PyTorch's attn_mask for padding)",
     "teacher_says": "In this book True = may attend: pass the mask as it is, without ~.",
     "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    allowed = None if mask is None else ~mask
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, allowed)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
    {"exercise": "grouped_query_attention", "kind": "wrong",
     "mistake": "forgets the output projection W^O and returns the concatenated heads",
     "teacher_says": "After concatenating the heads, multiply by params.w_o: the layer's output is Concat(head_i) W^O.",
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
    {"exercise": "grouped_query_attention", "kind": "robustness",
     "idea": "right computation, in float64 'to be safe'",
     "mistake": "casts the inputs and weights to float64, so float32 inputs give float64 outputs and weights",
     "teacher_says": "Keep the inputs' dtype: do not upcast, or cast the results back to q.dtype.",
     "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    w_q, w_k, w_v, w_o = (np.asarray(w, dtype=np.float64) for w in (params.w_q, params.w_k, params.w_v, params.w_o))
    q64, k64, v64 = (np.asarray(t, dtype=np.float64) for t in (q, k, v))
    q_heads = mha.split_heads(q64 @ w_q, h)
    k_heads = np.repeat(mha.split_heads(k64 @ w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v64 @ w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ w_o, weights
'''},
    # ------------------------------------------------------------------ decode_one_token
    {"exercise": "decode_one_token", "kind": "correct",
     "idea": "project the token, np.concatenate onto the caches, expand kv heads with np.repeat and call mha.scaled_dot_product_attention without a mask",
     "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)  # (..., h, 1, d_k)
    k_new = mha.split_heads(x_t @ params.w_k, g)  # (..., g, 1, d_k)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    cache_k = np.concatenate([cache_k.astype(x_t.dtype), k_new], axis=-2)
    cache_v = np.concatenate([cache_v.astype(x_t.dtype), v_new], axis=-2)
    k_all = np.repeat(cache_k, h // g, axis=-3)
    v_all = np.repeat(cache_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, k_all, v_all)
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "correct",
     "idea": "grouped einsum for the single query row, a softmax by hand, caches grown by writing into fresh np.empty buffers",
     "code": '''
import numpy as np


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    d_k = params.w_q.shape[1] // h
    lead = x_t.shape[:-2]
    t = cache_k.shape[-2]
    new_k = (x_t @ params.w_k).reshape(*lead, g, 1, d_k)  # one token: reshape is enough
    new_v = (x_t @ params.w_v).reshape(*lead, g, 1, -1)
    k_all = np.empty((*lead, g, t + 1, d_k), dtype=x_t.dtype)
    v_all = np.empty((*lead, g, t + 1, new_v.shape[-1]), dtype=x_t.dtype)
    k_all[..., :t, :], k_all[..., t:, :] = cache_k, new_k
    v_all[..., :t, :], v_all[..., t:, :] = cache_v, new_v
    q = (x_t @ params.w_q).reshape(*lead, g, r, d_k)  # (..., g, r, d_k)
    scores = np.einsum("...grd,...gtd->...grt", q, k_all) / np.sqrt(d_k)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p = p / p.sum(axis=-1, keepdims=True)
    heads = np.einsum("...grt,...gtd->...grd", p, v_all)  # (..., g, r, d_v)
    out = heads.reshape(*lead, 1, -1) @ params.w_o
    return out.astype(x_t.dtype), k_all, v_all
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "masks the new query with a top-left causal mask np.tril(ones((1, t+1))), so it sees only the first cached key",
     "teacher_says": "The new token is the LAST position: it may attend every cached key and itself. No mask (or mha.causal_mask(1, t+1), aligned bottom-right).",
     "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    n_k = cache_k.shape[-2]
    mask = np.tril(np.ones((1, n_k), dtype=bool))
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3), mask
    )
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "prepends the new key and value to the caches instead of appending them (the output is unchanged, the returned caches are out of order)",
     "teacher_says": "The cache is in token order: append the new token at the END of the token axis, np.concatenate([cache, new], axis=-2).",
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
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "attends only the old cache and appends the new key/value afterwards, so the new token never sees itself",
     "teacher_says": "Append first, then attend: the new query attends all t + 1 keys, its own included.",
     "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3)
    )
    out = mha.merge_heads(heads) @ params.w_o
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    return out, cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "returns only the new token's key and value as the 'caches' instead of the grown caches",
     "teacher_says": "Return the caches with the new key and value appended (t + 1 tokens), not the new entries alone.",
     "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    k_all = np.concatenate([cache_k, k_new], axis=-2)
    v_all = np.concatenate([cache_v, v_new], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(k_all, h // g, axis=-3), np.repeat(v_all, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, k_new, v_new
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "forgets to divide the scores by sqrt(d_k) in a hand-written attention",
     "teacher_says": "The scores are q k^T / sqrt(d_k); without the scaling the softmax is too sharp.",
     "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    k_all = np.repeat(cache_k, h // g, axis=-3)
    v_all = np.repeat(cache_v, h // g, axis=-3)
    weights = mha.softmax(q @ np.swapaxes(k_all, -1, -2), axis=-1)
    return mha.merge_heads(weights @ v_all) @ params.w_o, cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "wrong",
     "mistake": "expands the kv heads with np.tile (query head i reads kv head i % g)",
     "teacher_says": "Query head i reads kv head i // (h/g): use np.repeat along the heads axis, not np.tile.",
     "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    reps = (1,) * (cache_k.ndim - 3) + (h // g, 1, 1)
    heads, _ = mha.scaled_dot_product_attention(q, np.tile(cache_k, reps), np.tile(cache_v, reps))
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
    {"exercise": "decode_one_token", "kind": "robustness",
     "idea": "right values, caches grown in freshly allocated np.zeros buffers",
     "mistake": "np.zeros defaults to float64, so float32 inputs get float64 caches back",
     "teacher_says": "Give the new buffers x_t's dtype (np.zeros(..., dtype=x_t.dtype)), or use np.concatenate, which keeps it.",
     "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    t = cache_k.shape[-2]
    k_new = mha.split_heads(x_t @ params.w_k, g)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    k_all = np.zeros((*k_new.shape[:-2], t + 1, k_new.shape[-1]))
    v_all = np.zeros((*v_new.shape[:-2], t + 1, v_new.shape[-1]))
    k_all[..., :t, :], k_all[..., t, :] = cache_k, k_new[..., 0, :]
    v_all[..., :t, :], v_all[..., t, :] = cache_v, v_new[..., 0, :]
    q = mha.split_heads(x_t @ params.w_q, h).astype(np.float64)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(k_all, h // g, axis=-3), np.repeat(v_all, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o.astype(np.float64), k_all, v_all
'''},
    # ------------------------------------------------------------------ gqa_kv_cache_bytes
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
     "idea": "bytes of one token in one layer, then times layers and tokens",
     "code": '''
layers, kv_heads, d_k, bytes_bf16 = 32, 8, 128, 2
batch, tokens = 8, 4096
per_token_per_layer = 2 * kv_heads * d_k * bytes_bf16  # one key and one value vector per kv head
gqa_kv_cache_bytes = per_token_per_layer * layers * batch * tokens
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
     "idea": "math.prod of the cache tensor's shape (2, L, B, n, g, d_k) times the bytes, kept an int",
     "code": '''
import math

cache_shape = (2, 32, 8, 4096, 8, 128)  # keys/values, layers, batch, tokens, kv heads, d_k
gqa_kv_cache_bytes = int(math.prod(cache_shape) * 2)
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "counts all 32 query heads instead of the 8 key/value heads",
     "teacher_says": "With GQA the cache stores only the g = 8 key/value heads; the 32 query heads are never cached.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "caches only the keys (forgets the factor 2 for keys AND values)",
     "teacher_says": "The cache stores one key vector and one value vector per head: multiply by 2.",
     "code": '''
layers, batch, n, g, d_k, b = 32, 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = layers * batch * n * g * d_k * b
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "forgets the batch of 8 sequences",
     "teacher_says": "Every sequence of the batch has its own cache: multiply by B = 8.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "uses 4 bytes per number (float32) instead of bfloat16's 2",
     "teacher_says": "bfloat16 takes 2 bytes per number.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 4
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "forgets the 32 layers (counts one layer's cache)",
     "teacher_says": "Every layer keeps its own keys and values: multiply by L = 32.",
     "code": '''
gqa_kv_cache_bytes = 2 * 8 * 4096 * 8 * 128 * 2
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
     "mistake": "answers in GiB (divides by 2**30) instead of bytes",
     "teacher_says": "The question asks for bytes as an int, not GiB.",
     "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2 // 2**30
'''},
    {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
     "idea": "the right amount written as GiB times a float",
     "mistake": "assigns a float (4.0 * 2**30) instead of an int",
     "teacher_says": "Assign an int: multiply integers only.",
     "code": '''
gqa_kv_cache_bytes = 4.0 * 2**30
'''},
]
