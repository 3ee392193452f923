"""Chapter 12: repeating key/value heads, GQA, one decoding step."""

import math

import numpy as np

import mha
from corpus import correct, wrong

# --- repeat_kv_heads ----------------------------------------------------------------------


@correct("repeat_kv_heads")
def repeat_kv_index(k, num_heads):
    group = num_heads // k.shape[-3]
    return k[..., np.arange(num_heads) // group, :, :]


@correct("repeat_kv_heads")
def repeat_kv_broadcast(k, num_heads):
    *batch, g, n, d = k.shape
    expanded = np.broadcast_to(k[..., None, :, :], (*batch, g, num_heads // g, n, d))
    return expanded.reshape(*batch, num_heads, n, d)


@wrong("repeat_kv_heads", "tiled")
def repeat_kv_tile(k, num_heads):
    reps = [1] * k.ndim
    reps[-3] = num_heads // k.shape[-3]
    return np.tile(k, reps)


@wrong("repeat_kv_heads", "sequence_axis")
def repeat_kv_tokens(k, num_heads):
    return k.repeat(num_heads // k.shape[-3], axis=-2)


@wrong("repeat_kv_heads", "repeated_h_times")
def repeat_kv_h_each(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)


# --- grouped_query_attention --------------------------------------------------------------


def _gqa(q, k, v, params, mask, *, repeat=np.repeat, scale=None, w_o=True, use_mask=True):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = repeat(mha.split_heads(k @ params.w_k, g), h // g)
    vh = repeat(mha.split_heads(v @ params.w_v, g), h // g)
    scores = qh @ kh.swapaxes(-1, -2) / (math.sqrt(params.d_k) if scale is None else scale(params))
    if mask is not None and use_mask:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores)
    out = mha.merge_heads(weights @ vh)
    return (out @ params.w_o if w_o else out), weights


def _repeat(x, times):
    return np.repeat(x, times, axis=-3)


@correct("grouped_query_attention")
def gqa_repeat_kv(q, k, v, params, mask=None):
    return _gqa(q, k, v, params, mask, repeat=_repeat)


@correct("grouped_query_attention")
def gqa_grouped_queries(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d)
    *batch, _, n_q, d = qh.shape
    kh = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]  # (..., g, 1, n_k, d)
    vh = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    qg = qh.reshape(*batch, g, h // g, n_q, d)
    if mask is not None and mask.ndim >= 3 and mask.shape[-3] == h:
        mask = mask.reshape(*mask.shape[:-3], g, h // g, *mask.shape[-2:])
    heads, weights = mha.scaled_dot_product_attention(qg, kh, vh, mask)
    heads = heads.reshape(*batch, h, n_q, -1)
    return mha.merge_heads(heads) @ params.w_o, weights.reshape(*batch, h, n_q, -1)


@correct("grouped_query_attention")
def gqa_head_by_head(q, k, v, params, mask=None):
    h, g, d = params.num_heads, params.num_kv_heads, params.d_k
    heads, weights = [], []
    for i in range(h):
        j = i // (h // g)
        out_i, w_i = mha.scaled_dot_product_attention(
            q @ params.w_q[:, i * d : (i + 1) * d],
            k @ params.w_k[:, j * d : (j + 1) * d],
            v @ params.w_v[:, j * d : (j + 1) * d],
            mask,
        )
        heads.append(out_i)
        weights.append(w_i)
    return np.concatenate(heads, axis=-1) @ params.w_o, np.stack(weights, axis=-3)


@wrong("grouped_query_attention", "tiled_groups")
def gqa_tiled(q, k, v, params, mask=None):
    def tile(x, times):
        return np.concatenate([x] * times, axis=-3)

    return _gqa(q, k, v, params, mask, repeat=tile)


@wrong("grouped_query_attention", "no_scaling")
def gqa_unscaled(q, k, v, params, mask=None):
    return _gqa(q, k, v, params, mask, repeat=_repeat, scale=lambda p: 1.0)


@wrong("grouped_query_attention", "scale_by_d_model")
def gqa_scale_d_model(q, k, v, params, mask=None):
    return _gqa(q, k, v, params, mask, repeat=_repeat, scale=lambda p: math.sqrt(p.d_model))


@wrong("grouped_query_attention", "no_output_projection")
def gqa_no_w_o(q, k, v, params, mask=None):
    return _gqa(q, k, v, params, mask, repeat=_repeat, w_o=False)


@wrong("grouped_query_attention", "mask_ignored")
def gqa_no_mask(q, k, v, params, mask=None):
    return _gqa(q, k, v, params, mask, repeat=_repeat, use_mask=False)


# --- decode_one_token ---------------------------------------------------------------------


def _decode(
    x_t,
    params,
    cache_k,
    cache_v,
    *,
    sees_itself=True,
    front=False,
    tile=False,
    scale=True,
    tril=False,
):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_new, v_new = mha.split_heads(x_t @ params.w_k, g), mha.split_heads(x_t @ params.w_v, g)
    order = (lambda old, new: [new, old]) if front else (lambda old, new: [old, new])
    keys = np.concatenate(order(cache_k, k_new), axis=-2)
    values = np.concatenate(order(cache_v, v_new), axis=-2)
    read_k, read_v = (keys, values) if sees_itself else (cache_k, cache_v)
    if tile:
        read_k, read_v = (np.concatenate([x] * (h // g), axis=-3) for x in (read_k, read_v))
    else:
        read_k, read_v = (np.repeat(x, h // g, axis=-3) for x in (read_k, read_v))
    scores = q @ read_k.swapaxes(-1, -2) / (math.sqrt(params.d_k) if scale else 1.0)
    if tril:
        scores = np.where(np.tril(np.ones(scores.shape[-2:], dtype=bool)), scores, -np.inf)
    out = mha.merge_heads(mha.softmax(scores) @ read_v) @ params.w_o
    return out, keys, values


@correct("decode_one_token")
def decode_append_then_attend(x_t, params, cache_k, cache_v):
    return _decode(x_t, params, cache_k, cache_v)


@correct("decode_one_token")
def decode_with_a_causal_mask(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    cache_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    cache_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    q = mha.split_heads(x_t @ params.w_q, h)
    mask = mha.causal_mask(1, cache_k.shape[-2])  # bottom-right: the last query sees everything
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3), mask
    )
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v


@wrong("decode_one_token", "does_not_see_itself")
def decode_attend_then_append(x_t, params, cache_k, cache_v):
    return _decode(x_t, params, cache_k, cache_v, sees_itself=False)


@wrong("decode_one_token", "prepended")
def decode_new_token_first(x_t, params, cache_k, cache_v):
    return _decode(x_t, params, cache_k, cache_v, front=True)


@wrong("decode_one_token", "top_left_mask")
def decode_with_tril(x_t, params, cache_k, cache_v):
    return _decode(x_t, params, cache_k, cache_v, tril=True)


@wrong("decode_one_token", "tiled_groups")
def decode_tiled(x_t, params, cache_k, cache_v):
    return _decode(x_t, params, cache_k, cache_v, tile=True)


@wrong("decode_one_token", "no_scaling")
def decode_unscaled(x_t, params, cache_k, cache_v):
    return _decode(x_t, params, cache_k, cache_v, scale=False)
