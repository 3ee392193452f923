ANSWERS = [
 # ------------------------------------------------------------------ repeat_kv_heads
 {"exercise": "repeat_kv_heads", "kind": "correct",
  "idea": "fancy indexing with the index array i // (h/g) on the heads axis",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    which = np.arange(num_heads) // (num_heads // g)  # key/value head of each query head
    return k[..., which, :, :]
'''},
 {"exercise": "repeat_kv_heads", "kind": "correct",
  "idea": "insert a group axis, np.broadcast_to (g, h/g), then reshape (which copies)",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    *lead, g, n, d = k.shape
    expanded = np.broadcast_to(k[..., :, None, :, :], (*lead, g, num_heads // g, n, d))
    return expanded.reshape(*lead, num_heads, n, d)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "tiles the key/value heads (0, 1, 0, 1, ...) instead of repeating each one (0, 0, 1, 1, ...)",
  "teacher_says": "Query head i reads key/value head i // (h/g): consecutive query heads share a key/value head. That is np.repeat, not np.tile.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "repeats along axis 1, assuming a (B, g, n, d) input, which is the wrong axis whenever there is no batch axis or more than one",
  "teacher_says": "The heads axis is the third from the end whatever the leading axes: use axis=-3.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[1]
    return np.repeat(k, num_heads // g, axis=1)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "repeats each key/value head num_heads times instead of num_heads / g times, giving g*h heads",
  "teacher_says": "Each of the g key/value heads serves h/g query heads: repeat it h // g times so that the result has h heads.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "divides the wrong way round (g // h instead of h // g), which is 0 for GQA and returns an array with no heads",
  "teacher_says": "The group size is num_heads // num_kv_heads (h/g >= 1), not g // h.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    group = k.shape[-3] // num_heads
    return np.repeat(k, group, axis=-3)
'''},
 {"exercise": "repeat_kv_heads", "kind": "wrong",
  "mistake": "repeats along the tokens axis (-2) instead of the heads axis (-3)",
  "teacher_says": "Shapes are (..., heads, n, d): heads are axis -3, tokens -2. Repeating tokens duplicates positions, not heads.",
  "code": '''
import numpy as np


def repeat_kv_heads(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=-2)
'''},
 {"exercise": "repeat_kv_heads", "kind": "robustness",
  "idea": "torch.repeat_interleave, the idiom of Hugging Face's repeat_kv",
  "mistake": "returns a torch tensor for a NumPy input",
  "teacher_says": "Stay in NumPy (np.repeat(k, h // g, axis=-3)) so that callers get an ndarray back.",
  "code": '''
import torch


def repeat_kv_heads(k, num_heads):
    k = torch.as_tensor(k)
    return torch.repeat_interleave(k, num_heads // k.shape[-3], dim=-3)
'''},
 # ------------------------------------------------------------------ grouped_query_attention
 {"exercise": "grouped_query_attention", "kind": "correct",
  "idea": "a loop over the query heads, each attending its key/value head i // (h/g) with its slice of the mask",
  "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = mha.split_heads(k @ params.w_k, g)
    v_heads = mha.split_heads(v @ params.w_v, g)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim < 3:
            mask = mask[None]  # a heads axis of size 1
    outs, weights = [], []
    for i in range(h):
        j = i // (h // g)
        m = None if mask is None else mask[..., i if mask.shape[-3] > 1 else 0, :, :]
        o, w = mha.scaled_dot_product_attention(q_heads[..., i, :, :], k_heads[..., j, :, :],
                                                v_heads[..., j, :, :], m)
        outs.append(o)
        weights.append(w)
    heads = np.stack(outs, axis=-3)
    return mha.merge_heads(heads) @ params.w_o, np.stack(weights, axis=-3)
'''},
 {"exercise": "grouped_query_attention", "kind": "correct",
  "idea": "einsum over (groups, heads in group) without copying K and V, masked softmax with mha.softmax",
  "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    qh = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
    kh = mha.split_heads(k @ params.w_k, g)  # (..., g, n_k, d_k)
    vh = mha.split_heads(v @ params.w_v, g)
    lead, n_q, d_k = qh.shape[:-3], qh.shape[-2], qh.shape[-1]
    n_k = kh.shape[-2]
    qg = qh.reshape(*lead, g, r, n_q, d_k)
    scores = np.einsum("...gqd,...gkd->...gqk", qg, kh[..., :, None, :, :]) / d_k ** 0.5
    if mask is not None:
        full = np.broadcast_to(mask, (*scores.shape[:-4], h, n_q, n_k))
        scores = np.where(full.reshape(*full.shape[:-3], g, r, n_q, n_k), scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)  # a fully masked row gives zeros
    heads = weights @ vh[..., :, None, :, :]  # (..., g, r, n_q, d_v)
    heads = heads.reshape(*heads.shape[:-4], h, n_q, heads.shape[-1])
    out = mha.merge_heads(heads) @ params.w_o
    return out, weights.reshape(*weights.shape[:-4], h, n_q, n_k)
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "pairs query head i with key/value head i % g (tiling) instead of i // (h/g)",
  "teacher_says": "Key/value head j serves the CONTIGUOUS query heads j*h/g .. (j+1)*h/g - 1; repeat each key/value head (np.repeat), do not tile them.",
  "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.concatenate([mha.split_heads(k @ params.w_k, g)] * (h // g), axis=-3)
    v_heads = np.concatenate([mha.split_heads(v @ params.w_v, g)] * (h // g), axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    return mha.merge_heads(heads) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "scales the scores by sqrt(d_model) instead of sqrt(d_k) in a hand-written attention",
  "teacher_says": "Each head's dot products have d_k terms: divide by sqrt(d_k) = sqrt(params.d_k), not by the model width.",
  "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    d_model = q.shape[-1]
    scores = qh @ np.swapaxes(kh, -1, -2) / np.sqrt(d_model)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights.astype(qh.dtype)
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "returns one weight matrix per key/value head (averaging each group's weights) instead of one per query head",
  "teacher_says": "The weights hold one (n_q, n_k) matrix per QUERY head: shape (..., h, n_q, n_k). The heads of a group share keys but not weights.",
  "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    # one map per key/value head: the heads of a group share their keys
    lead, n_q, n_k = weights.shape[:-3], weights.shape[-2], weights.shape[-1]
    per_group = weights.reshape(*lead, g, h // g, n_q, n_k).mean(axis=-3)
    return mha.merge_heads(heads) @ params.w_o, per_group
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "inverts the mask: fills the scores with -inf where the mask is True",
  "teacher_says": "The book's masks are True = may attend; keep the scores where the mask is True (np.where(mask, scores, -inf)).",
  "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = qh @ kh.swapaxes(-1, -2) / np.sqrt(params.d_k).astype(qh.dtype)
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    weights = mha.softmax(scores)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "wrong",
  "mistake": "forgets the output projection W^O: returns the concatenated heads",
  "teacher_says": "After Concat(head_0, ..., head_{h-1}) comes W^O, as in multi-head attention: multiply by params.w_o.",
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
  "mistake": "concatenates the heads with a plain reshape (..., h, n, d) -> (..., n, h*d) without moving the heads axis back next to the features",
  "teacher_says": "A reshape alone interleaves tokens and heads. Swap the heads and tokens axes first (or use mha.merge_heads), then reshape.",
  "code": '''
import numpy as np

import mha


def grouped_query_attention(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_heads = mha.split_heads(q @ params.w_q, h)
    k_heads = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_heads = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    n_q = heads.shape[-2]
    concat = heads.reshape(*heads.shape[:-3], n_q, -1)
    return concat @ params.w_o, weights
'''},
 {"exercise": "grouped_query_attention", "kind": "robustness",
  "idea": "the whole layer computed in PyTorch on tensors made from the NumPy inputs",
  "mistake": "returns torch tensors (out, weights) instead of NumPy arrays for NumPy inputs",
  "teacher_says": "Return arrays of the inputs' library: stay in NumPy, or convert back with .numpy().",
  "code": '''
import math

import torch


def grouped_query_attention(q, k, v, params, mask=None):
    t = torch.as_tensor
    h, g = params.num_heads, params.num_kv_heads

    def heads(x, w, count):
        y = t(x) @ t(w)
        return y.unflatten(-1, (count, -1)).transpose(-3, -2)

    qh = heads(q, params.w_q, h)
    kh = heads(k, params.w_k, g).repeat_interleave(h // g, dim=-3)
    vh = heads(v, params.w_v, g).repeat_interleave(h // g, dim=-3)
    scores = qh @ kh.transpose(-1, -2) / math.sqrt(qh.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~t(mask), float("-inf"))
    weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    out = (weights @ vh).transpose(-3, -2).flatten(-2) @ t(params.w_o)
    return out, weights
'''},
 # ------------------------------------------------------------------ decode_one_token
 {"exercise": "decode_one_token", "kind": "correct",
  "idea": "new caches preallocated with np.empty and filled by slicing; attention per query head in a loop",
  "code": '''
import math

import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    dtype = x_t.dtype
    q = mha.split_heads(x_t @ params.w_q, h)  # (..., h, 1, d_k)
    k_new = mha.split_heads(x_t @ params.w_k, g)  # (..., g, 1, d_k)
    v_new = mha.split_heads(x_t @ params.w_v, g)
    t = cache_k.shape[-2]
    keys = np.empty(k_new.shape[:-2] + (t + 1, k_new.shape[-1]), dtype=dtype)
    values = np.empty(v_new.shape[:-2] + (t + 1, v_new.shape[-1]), dtype=dtype)
    keys[..., :t, :], keys[..., t:, :] = cache_k, k_new
    values[..., :t, :], values[..., t:, :] = cache_v, v_new
    scale = 1.0 / math.sqrt(q.shape[-1])
    heads = []
    for i in range(h):
        j = i // (h // g)
        s = (q[..., i, :, :] @ np.swapaxes(keys[..., j, :, :], -1, -2)) * scale  # (..., 1, t+1)
        w = np.exp(s - s.max(axis=-1, keepdims=True))
        w = w / w.sum(axis=-1, keepdims=True)
        heads.append(w @ values[..., j, :, :])
    out = mha.merge_heads(np.stack(heads, axis=-3)) @ params.w_o
    return out.astype(dtype), keys, values
'''},
 {"exercise": "decode_one_token", "kind": "correct",
  "idea": "np.concatenate for the caches, then the package's grouped_query_attention-free path via repeat and scaled_dot_product_attention",
  "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k_t = mha.split_heads(x_t @ params.w_k, g)
    v_t = mha.split_heads(x_t @ params.w_v, g)
    new_k = np.concatenate([cache_k.astype(x_t.dtype), k_t], axis=-2)
    new_v = np.concatenate([cache_v.astype(x_t.dtype), v_t], axis=-2)
    q_t = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q_t, np.repeat(new_k, h // g, axis=-3), np.repeat(new_v, h // g, axis=-3)
    )  # the newest query may see every key: no mask
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "prepends the new key and value to the cache instead of appending them, so the cache is in the wrong order (the output happens to be right)",
  "teacher_says": "The cache is in token order: the newest token goes at the END of the token axis, np.concatenate([cache, new], axis=-2).",
  "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k_t = mha.split_heads(x_t @ params.w_k, g)
    v_t = mha.split_heads(x_t @ params.w_v, g)
    cache_k = np.concatenate([k_t, cache_k], axis=-2)
    cache_v = np.concatenate([v_t, cache_v], axis=-2)
    q_t = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q_t, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3))
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "attends over the old cache only and appends the new key and value afterwards, so the new token never sees itself (and gets nothing at t = 0)",
  "teacher_says": "Under a causal mask a token attends to itself too: append its key and value first, then attend over all t + 1 keys.",
  "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q_t = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q_t, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3))
    out = mha.merge_heads(heads) @ params.w_o
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    return out.astype(x_t.dtype), new_k.astype(x_t.dtype), new_v.astype(x_t.dtype)
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "applies a top-left causal mask np.tril(np.ones((1, t + 1))), which lets the new query see only the first key",
  "teacher_says": "The new query is the LAST position: it may see every key. A causal mask for it must align bottom-right (mha.causal_mask(1, t + 1)), or you need no mask at all.",
  "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    q = mha.split_heads(x_t @ params.w_q, h)
    causal = np.tril(np.ones((1, k.shape[-2]), dtype=bool))
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(k, h // g, axis=-3), np.repeat(v, h // g, axis=-3), causal)
    return mha.merge_heads(heads) @ params.w_o, k, v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "writes the attention by hand and forgets to divide the scores by sqrt(d_k)",
  "teacher_says": "Scaled dot-product attention divides the scores by sqrt(d_k) before the softmax; the cached path must compute exactly what full attention does.",
  "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    q = mha.split_heads(x_t @ params.w_q, h)
    lead = q.shape[:-3]
    qg = q.reshape(*lead, g, h // g, 1, q.shape[-1])
    scores = np.einsum("...grqd,...gkd->...grqk", qg, k)
    weights = mha.softmax(scores, axis=-1)
    heads = np.einsum("...grqk,...gkd->...grqd", weights, v).reshape(*lead, h, 1, v.shape[-1])
    return mha.merge_heads(heads) @ params.w_o, k, v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "groups the query heads as (h/g, g) instead of (g, h/g), which pairs query head i with key/value head i % g",
  "teacher_says": "Query head i reads key/value head i // (h/g): reshape the h query heads to (g, h/g), groups first.",
  "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    q = mha.split_heads(x_t @ params.w_q, h)
    lead, d_k = q.shape[:-3], q.shape[-1]
    q_groups = np.swapaxes(q.reshape(*lead, h // g, g, 1, d_k), -3, -4)  # (..., g, h/g, 1, d_k)
    heads, _ = mha.scaled_dot_product_attention(q_groups, k[..., None, :, :], v[..., None, :, :])
    heads = np.swapaxes(heads, -3, -4).reshape(*lead, h, 1, v.shape[-1])
    return mha.merge_heads(heads) @ params.w_o, k, v
'''},
 {"exercise": "decode_one_token", "kind": "wrong",
  "mistake": "computes the output with the updated keys but returns the caches it was given, without the new token",
  "teacher_says": "Return the NEW caches (with the token's key and value appended); the next step needs them.",
  "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    keys = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    values = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(keys, h // g, axis=-3), np.repeat(values, h // g, axis=-3))
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v
'''},
 {"exercise": "decode_one_token", "kind": "robustness",
  "idea": "right step, but the caches are rebuilt from a float64 np.zeros buffer",
  "mistake": "returns float64 caches (and output) for float32 inputs instead of x_t's dtype",
  "teacher_says": "Allocate new arrays with dtype=x_t.dtype (or cast at the end): the caches must keep the model's dtype.",
  "code": '''
import numpy as np

import mha


def decode_one_token(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    t = cache_k.shape[-2]
    k_t = mha.split_heads(x_t @ params.w_k, g)
    v_t = mha.split_heads(x_t @ params.w_v, g)
    new_k = np.zeros(k_t.shape[:-2] + (t + 1, k_t.shape[-1]))
    new_v = np.zeros(v_t.shape[:-2] + (t + 1, v_t.shape[-1]))
    new_k[..., :t, :], new_k[..., t, :] = cache_k, k_t[..., 0, :]
    new_v[..., :t, :], new_v[..., t, :] = cache_v, v_t[..., 0, :]
    q_t = mha.split_heads(x_t @ params.w_q, h).astype(np.float64)
    heads, _ = mha.scaled_dot_product_attention(
        q_t, np.repeat(new_k, h // g, axis=-3), np.repeat(new_v, h // g, axis=-3))
    return mha.merge_heads(heads) @ params.w_o.astype(np.float64), new_k, new_v
'''},
 # ------------------------------------------------------------------ gqa_kv_cache_bytes
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
  "idea": "bytes per token of one layer first (keys and values of 8 heads), then times tokens, sequences and layers",
  "code": '''
per_token_per_layer = 2 * 8 * 128 * 2  # (key + value) x 8 kv heads x d_k x 2 bytes
gqa_kv_cache_bytes = per_token_per_layer * 4096 * 8 * 32
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "correct",
  "idea": "math.prod of the factors, from the number of query heads and the group size",
  "code": '''
import math

query_heads, group_size = 32, 4  # 32 query heads share 8 key/value heads
kv_heads = query_heads // group_size
gqa_kv_cache_bytes = math.prod([2, 32, 8, 4096, kv_heads, 128, 2])
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "counts the 32 query heads instead of the 8 key/value heads",
  "teacher_says": "The cache stores keys and values, and with GQA there are only g = 8 key/value heads; query heads are never cached.",
  "code": '''
layers, batch, tokens, heads, d_k, bytes_per_number = 32, 8, 4096, 32, 128, 2
gqa_kv_cache_bytes = 2 * layers * batch * tokens * heads * d_k * bytes_per_number
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "forgets the factor 2 for keys AND values",
  "teacher_says": "Each token stores a key vector and a value vector per key/value head: multiply by 2.",
  "code": '''
gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "forgets the batch of 8 sequences",
  "teacher_says": "Every sequence of the batch has its own cache: multiply by the batch size, 8.",
  "code": '''
layers, tokens, kv_heads, d_k = 32, 4096, 8, 128
gqa_kv_cache_bytes = 2 * layers * tokens * kv_heads * d_k * 2
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "counts one layer only",
  "teacher_says": "Every one of the 32 layers has its own keys and values: multiply by the number of layers.",
  "code": '''
batch, n, g, d_k, b = 8, 4096, 8, 128, 2
gqa_kv_cache_bytes = 2 * batch * n * g * d_k * b
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "gives the size in GiB instead of bytes",
  "teacher_says": "The question asks for bytes, an int: do not divide by 2**30.",
  "code": '''
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2 / 2 ** 30  # 4 GiB
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "wrong",
  "mistake": "multiplies by 16 (the bits of a bfloat16) instead of 2 bytes",
  "teacher_says": "bfloat16 has 16 bits = 2 bytes per number; the count is in bytes.",
  "code": '''
bfloat16 = 16
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * bfloat16
'''},
 {"exercise": "gqa_kv_cache_bytes", "kind": "robustness",
  "idea": "right value with a float bytes-per-number",
  "mistake": "assigns a float (4294967296.0) instead of an int",
  "teacher_says": "Keep every factor an integer (2, not 2.0) so that the answer is an int.",
  "code": '''
bytes_per_bfloat16 = 2.0
gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * bytes_per_bfloat16
'''},
]
