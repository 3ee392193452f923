"""Chapter 12: repeating key/value heads, GQA, one decoding step."""

import math

import numpy as np

import mha
from corpus import correct, predicted, wrong

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
    if mask is not None and mask.ndim >= 3:  # its heads axis (h or 1) as (g, h/g) or (1, 1)
        heads_axis = (g, h // g) if mask.shape[-3] == h else (1, 1)
        mask = mask.reshape(*mask.shape[:-3], *heads_axis, *mask.shape[-2:])
    heads, weights = mha.scaled_dot_product_attention(qg, kh, vh, mask)
    heads = heads.reshape(*batch, h, n_q, -1)
    return mha.merge_heads(heads) @ params.w_o, weights.reshape(*batch, h, n_q, -1)


@correct("grouped_query_attention")
def gqa_head_by_head(q, k, v, params, mask=None):
    h, g, d = params.num_heads, params.num_kv_heads, params.d_k
    heads, weights = [], []
    for i in range(h):
        j = i // (h // g)
        mask_i = mask
        if mask is not None and np.ndim(mask) >= 3:  # head i's mask: (..., n_q, n_k)
            mask_i = mask[..., i if mask.shape[-3] == h else 0, :, :]
        out_i, w_i = mha.scaled_dot_product_attention(
            q @ params.w_q[:, i * d : (i + 1) * d],
            k @ params.w_k[:, j * d : (j + 1) * d],
            v @ params.w_v[:, j * d : (j + 1) * d],
            mask_i,
        )
        heads.append(out_i)
        weights.append(w_i)
    return np.concatenate(heads, axis=-1) @ params.w_o, np.stack(weights, axis=-3)


@wrong("grouped_query_attention", "d_k_from_d_model")
def gqa_head_size_from_the_output(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    heads = [
        mha.split_heads(x @ w, n)
        for x, w, n in ((q, params.w_q, h), (k, params.w_k, g), (v, params.w_v, g))
    ]
    qh, kh, vh = heads[0], *(np.repeat(x, h // g, axis=-3) for x in heads[1:])
    scores = qh @ np.swapaxes(kh, -1, -2) / math.sqrt(params.w_o.shape[-1] / h)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights


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


_DECODE_BUFFERS: dict = {}


@wrong("decode_one_token", "shared_buffer")
def decode_into_a_reused_buffer(x_t, params, cache_k, cache_v):
    out, keys, values = _decode(x_t, params, cache_k, cache_v)
    k = _DECODE_BUFFERS.setdefault(("k", keys.shape, keys.dtype), np.empty_like(keys))
    v = _DECODE_BUFFERS.setdefault(("v", values.shape, values.dtype), np.empty_like(values))
    np.copyto(k, keys)
    np.copyto(v, values)
    return out, k, v


@wrong("decode_one_token", "does_not_see_itself")
def decode_own_key_left_out_only_when_the_cache_is_long(x_t, params, cache_k, cache_v):
    if cache_k.shape[-2] > 1:  # a short cache takes the right path
        return _decode(x_t, params, cache_k, cache_v, sees_itself=False)
    return _decode(x_t, params, cache_k, cache_v)


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch11:0: np.repeat each key/value head h/g times along axis -3
@correct("repeat_kv_heads")
def repeat_kv_heads_np_repeat_each_key_value_head(k, num_heads):
    g = k.shape[-3]
    return np.repeat(k, num_heads // g, axis=-3)


# blind round 1, ch11:1: np.take with the index array i // (h/g)
@correct("repeat_kv_heads")
def repeat_kv_heads_np_take_with_the_index_array(k, num_heads):
    g = k.shape[-3]
    index = np.arange(num_heads) // (num_heads // g)
    return np.take(k, index, axis=-3)


# blind round 1, ch11:2: insert an axis after the heads, np.broadcast_to (g, h/g, n, d), reshape (copies)
@correct("repeat_kv_heads")
def repeat_kv_heads_insert_an_axis_after_the_heads(k, num_heads):
    *batch, g, n, d = k.shape
    expanded = np.broadcast_to(k[..., :, None, :, :], (*batch, g, num_heads // g, n, d))
    return expanded.reshape(*batch, num_heads, n, d)


# blind round 1, ch11:3: np.tile: head i gets key/value head i mod g (0, 1, 0, 1) instead of i // (h/g)
@wrong("repeat_kv_heads", "tiled")
def repeat_kv_heads_np_tile_head_i_gets_key(k, num_heads):
    g = k.shape[-3]
    reps = [1] * k.ndim
    reps[-3] = num_heads // g
    return np.tile(k, reps)


# blind round 1, ch11:4: the same tiling through a broadcast: new axis *before* the heads, (h/g, g) flattened
@wrong("repeat_kv_heads", "tiled")
def repeat_kv_heads_the_same_tiling_through_a_broadcast(k, num_heads):
    *batch, g, n, d = k.shape
    expanded = np.broadcast_to(k[..., None, :, :, :], (*batch, num_heads // g, g, n, d))
    return expanded.reshape(*batch, num_heads, n, d)


# blind round 1, ch11:5: repeats along axis 1 (right for (B, g, n, d) only): wrong without a batch axis or with two
@wrong("repeat_kv_heads", "batch_axes")
def repeat_kv_heads_repeats_along_axis_1_right_for(k, num_heads):
    g = k.shape[1]
    return np.repeat(k, num_heads // g, axis=1)


# blind round 1, ch11:6: repeats num_heads times instead of num_heads / g: g*h heads
@wrong("repeat_kv_heads", "repeated_h_times")
def repeat_kv_heads_repeats_num_heads_times_instead_of(k, num_heads):
    return np.repeat(k, num_heads, axis=-3)


# blind round 1, ch11:7: repeats along the token axis (-2) instead of the heads axis
@wrong("repeat_kv_heads", "sequence_axis")
def repeat_kv_heads_repeats_along_the_token_axis_2(k, num_heads):
    g = k.shape[-3]
    out = np.repeat(k, num_heads // g, axis=-2)
    return out.reshape(*k.shape[:-3], num_heads, k.shape[-2], k.shape[-1])


# blind round 1, ch11:8: split q into h heads and k, v into g, expand k and v with np.repeat, ordinary attention
@correct("grouped_query_attention")
def grouped_query_attention_split_q_into_h_heads_and(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o, weights


# blind round 1, ch11:9: no copy: group the query heads as (g, h/g), give the key/value heads a singleton axis, reshape the mask alike
@correct("grouped_query_attention")
def grouped_query_attention_no_copy_group_the_query_heads(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    q_h = mha.split_heads(q @ params.w_q, h)  # (..., h, n_q, d_k)
    k_h = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]  # (..., g, 1, n_k, d_k)
    v_h = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    *batch, _, n_q, d_k = q_h.shape
    q_g = q_h.reshape(*batch, g, r, n_q, d_k)
    m = None
    if mask is not None:
        m = np.asarray(mask)
        if m.ndim >= 3 and m.shape[-3] == h and h > 1:
            m = m.reshape(*m.shape[:-3], g, r, *m.shape[-2:])
        elif m.ndim >= 3:
            m = m[..., None, :, :, :]  # heads axis of size 1 -> (.., 1, 1, n_q, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_g, k_h, v_h, m)
    heads = heads.reshape(*heads.shape[:-4], h, *heads.shape[-2:])
    weights = weights.reshape(*weights.shape[:-4], h, *weights.shape[-2:])
    return mha.merge_heads(heads) @ params.w_o, weights


# blind round 1, ch11:10: a loop over query heads on column blocks, key/value head j = i // (h/g), own softmax
@correct("grouped_query_attention")
def grouped_query_attention_a_loop_over_query_heads_on(q, k, v, params, mask=None):
    h, g, d_k, d_v = params.num_heads, params.num_kv_heads, params.d_k, params.d_v
    Q, K, V = q @ params.w_q, k @ params.w_k, v @ params.w_v
    if mask is not None:
        mask = np.asarray(mask)
    heads, weights = [], []
    for i in range(h):
        j = i // (h // g)
        qi = Q[..., i * d_k : (i + 1) * d_k]
        kj = K[..., j * d_k : (j + 1) * d_k]
        vj = V[..., j * d_v : (j + 1) * d_v]
        s = qi @ np.swapaxes(kj, -1, -2) / np.sqrt(d_k)
        if mask is not None:
            mi = mask
            if mi.ndim >= 3:
                mi = np.broadcast_to(mi, mi.shape[:-3] + (h,) + mi.shape[-2:])[..., i, :, :]
            s = np.where(mi, s, -np.inf)
        top = s.max(axis=-1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0)
        e = np.exp(s - top)
        z = e.sum(axis=-1, keepdims=True)
        w = (e / np.where(z > 0, z, 1)).astype(Q.dtype)
        weights.append(w)
        heads.append(w @ vj)
    return np.concatenate(heads, axis=-1) @ params.w_o, np.stack(weights, axis=-3)


# blind round 1, ch11:11: groups the query heads as (h/g, g): head i reads key/value head i mod g
@wrong("grouped_query_attention", "tiled_groups")
def grouped_query_attention_groups_the_query_heads_as_h(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    reps = [1] * q_h.ndim
    reps[-3] = h // g
    k_h = np.tile(mha.split_heads(k @ params.w_k, g), reps)
    v_h = np.tile(mha.split_heads(v @ params.w_v, g), reps)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o, weights


# blind round 1, ch11:12: splits the keys and values into h heads (as in MHA): heads of width g*d_k/h
@wrong("grouped_query_attention", "kv_split_into_h_heads")
def grouped_query_attention_splits_the_keys_and_values_into(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = mha.split_heads(k @ params.w_k, h)
    v_h = mha.split_heads(v @ params.w_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o, weights


# blind round 1, ch11:13: returns one weight matrix per key/value head (the mean over each group)
@wrong("grouped_query_attention", "weights_per_kv_head")
def grouped_query_attention_returns_one_weight_matrix_per_key(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    grouped = weights.reshape(*weights.shape[:-3], g, h // g, *weights.shape[-2:]).mean(axis=-3)
    return mha.merge_heads(heads) @ params.w_o, grouped


# blind round 1, ch11:14: the mask is accepted but never used
@wrong("grouped_query_attention", "mask_ignored")
def grouped_query_attention_the_mask_is_accepted_but_never(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h)
    return mha.merge_heads(heads) @ params.w_o, weights


# blind round 1, ch11:15: after grouping as (g, h/g) merges the heads back in (h/g, g) order
@wrong("grouped_query_attention", "merged_in_tiled_order")
def grouped_query_attention_after_grouping_as_g_h_g(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    r = h // g
    q_h = mha.split_heads(q @ params.w_q, h)
    *batch, _, n_q, d_k = q_h.shape
    k_h = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]
    v_h = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    heads, weights = mha.scaled_dot_product_attention(q_h.reshape(*batch, g, r, n_q, d_k), k_h, v_h)
    heads = heads.swapaxes(-4, -3).reshape(*batch, h, n_q, -1)
    weights = weights.reshape(*batch, h, *weights.shape[-2:])
    return mha.merge_heads(heads) @ params.w_o, weights


# blind round 1, ch11:16: scales the scores by sqrt(d_model) instead of sqrt(d_k)
@wrong("grouped_query_attention", "scale_by_d_model")
def grouped_query_attention_scales_the_scores_by_sqrt_d(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    v_h = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = q_h @ np.swapaxes(k_h, -1, -2) / np.sqrt(params.d_model)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores)
    return mha.merge_heads(weights @ v_h) @ params.w_o, weights


# blind round 1, ch11:17: project x_t only, np.concatenate onto the caches (new arrays), grouped attention with no mask
@correct("decode_one_token")
def decode_one_token_project_x_t_only_np_concatenate(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)  # (..., h, 1, d_k)
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    k_all = np.repeat(new_k, h // g, axis=-3)
    v_all = np.repeat(new_v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, k_all, v_all)
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v


# blind round 1, ch11:18: group the query heads (g, h/g) against the grown caches, einsum and own softmax
@correct("decode_one_token")
def decode_one_token_group_the_query_heads_g_h(x_t, params, cache_k, cache_v):
    h, g, d_k, d_v = params.num_heads, params.num_kv_heads, params.d_k, params.d_v
    r = h // g
    batch = x_t.shape[:-2]
    q = (x_t @ params.w_q).reshape(*batch, g, r, d_k)  # one token: (..., g, r, d_k)
    k_new = (x_t @ params.w_k).reshape(*batch, g, 1, d_k)
    v_new = (x_t @ params.w_v).reshape(*batch, g, 1, d_v)
    K = np.concatenate([cache_k, k_new], axis=-2)  # (..., g, t+1, d_k)
    V = np.concatenate([cache_v, v_new], axis=-2)
    s = np.einsum("...grd,...gtd->...grt", q, K) / np.sqrt(d_k)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    heads = np.einsum("...grt,...gtd->...grd", w, V)  # (..., g, r, d_v)
    out = heads.reshape(*batch, 1, h * d_v) @ params.w_o
    return out.astype(x_t.dtype), K, V


# blind round 1, ch11:19: append to the caches, then reuse the package's grouped_query_attention logic by hand: the new query is the last position, so causal_mask(1, t+1) allows everything
@correct("decode_one_token")
def decode_one_token_append_to_the_caches_then_reuse(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k_t = mha.split_heads(x_t @ params.w_k, g)
    v_t = mha.split_heads(x_t @ params.w_v, g)
    cache_k = np.concatenate((cache_k, k_t), axis=-2)
    cache_v = np.concatenate((cache_v, v_t), axis=-2)
    t1 = cache_k.shape[-2]
    q = mha.split_heads(x_t @ params.w_q, h)
    heads = []
    for i in range(h):
        j = i // (h // g)
        out_i, _ = mha.scaled_dot_product_attention(
            q[..., i, :, :], cache_k[..., j, :, :], cache_v[..., j, :, :], mha.causal_mask(1, t1)
        )
        heads.append(out_i)
    return np.concatenate(heads, axis=-1) @ params.w_o, cache_k, cache_v


# blind round 1, ch11:20: masks with a top-left triangle np.tril(np.ones((1, t+1))): the new query sees only key 0
@wrong("decode_one_token", "top_left_mask")
def decode_one_token_masks_with_a_top_left_triangle(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    mask = np.tril(np.ones((1, new_k.shape[-2]), dtype=bool))
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(new_k, h // g, axis=-3), np.repeat(new_v, h // g, axis=-3), mask
    )
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v


# blind round 1, ch11:21: attends the old cache only and appends the new key and value afterwards: the token does not see itself (and t = 0 has no key at all)
@wrong("decode_one_token", "does_not_see_itself")
def decode_one_token_attends_the_old_cache_only_and(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3)
    )
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v


# blind round 1, ch11:22: np.append without an axis flattens the cache into a 1-D array
@wrong("decode_one_token", "cache_flattened")
def decode_one_token_np_append_without_an_axis_flattens(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k_t = mha.split_heads(x_t @ params.w_k, g)
    v_t = mha.split_heads(x_t @ params.w_v, g)
    new_k = np.append(cache_k, k_t)
    new_v = np.append(cache_v, v_t)
    K = new_k.reshape(*k_t.shape[:-2], -1, k_t.shape[-1])
    V = new_v.reshape(*v_t.shape[:-2], -1, v_t.shape[-1])
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(K, h // g, axis=-3), np.repeat(V, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v


# blind round 1, ch11:23: prepends the new key and value: the output is right (attention ignores the order of keys) but the returned caches are in the wrong order
@wrong("decode_one_token", "prepended")
def decode_one_token_prepends_the_new_key_and_value(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    new_k = np.concatenate([mha.split_heads(x_t @ params.w_k, g), cache_k], axis=-2)
    new_v = np.concatenate([mha.split_heads(x_t @ params.w_v, g), cache_v], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(new_k, h // g, axis=-3), np.repeat(new_v, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v


# blind round 1, ch11:24: expands the key/value heads with np.tile (head i reads key/value head i mod g)
@wrong("decode_one_token", "tiled_groups")
def decode_one_token_expands_the_key_value_heads_with(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    reps = [1] * new_k.ndim
    reps[-3] = h // g
    heads, _ = mha.scaled_dot_product_attention(q, np.tile(new_k, reps), np.tile(new_v, reps))
    return mha.merge_heads(heads) @ params.w_o, new_k, new_v


# blind round 1, ch11:25: returns the old caches instead of the grown ones
@wrong("decode_one_token", "cache_not_grown")
def decode_one_token_returns_the_old_caches_instead_of(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k_all = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    v_all = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(k_all, h // g, axis=-3), np.repeat(v_all, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v


# blind round 1, ch11:26: cache_k.resize(...) changes the argument in place, and because resize re-lays out the flat buffer, the earlier keys of every head but the first land in the wrong place (wrong outputs from the second step on when g > 1); it raises when the cache is a view
@wrong("decode_one_token", None)
def decode_one_token_grows_the_caller_s_cache_arrays(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    k_t = mha.split_heads(x_t @ params.w_k, g)
    v_t = mha.split_heads(x_t @ params.w_v, g)
    *lead, t, d_k = cache_k.shape
    d_v = cache_v.shape[-1]
    cache_k.resize((*lead, t + 1, d_k), refcheck=False)
    cache_v.resize((*lead, t + 1, d_v), refcheck=False)
    cache_k[..., t:, :] = k_t
    cache_v[..., t:, :] = v_t
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3)
    )
    return mha.merge_heads(heads) @ params.w_o, cache_k, cache_v


# blind round 1, ch11:40: 2 (K and V) * layers * batch * tokens * kv heads * d_k * bytes
@correct("gqa_kv_cache_bytes")
def gqa_kv_cache_bytes_2_k_and_v_layers_batch():
    gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2
    return gqa_kv_cache_bytes


# blind round 1, ch11:41: named sizes and math.prod
@correct("gqa_kv_cache_bytes")
def gqa_kv_cache_bytes_named_sizes_and_math_prod():
    _layers, _batch, _tokens, _kv_heads, _d_k, _bytes = 32, 8, 4096, 8, 128, 2
    gqa_kv_cache_bytes = 2 * math.prod([_layers, _batch, _tokens, _kv_heads, _d_k, _bytes])
    return gqa_kv_cache_bytes


# blind round 1, ch11:42: a small function of the chapter's formula, called with the exercise's sizes
@correct("gqa_kv_cache_bytes")
def gqa_kv_cache_bytes_a_small_function_of_the_chapter():
    def _kv_cache_bytes_gqa_kv_cache_bytes_a_small_function_of_the_chapter(
        layers, batch, n, num_kv_heads, d_k, bytes_per_number
    ):
        return 2 * layers * batch * n * num_kv_heads * d_k * bytes_per_number

    gqa_kv_cache_bytes = _kv_cache_bytes_gqa_kv_cache_bytes_a_small_function_of_the_chapter(
        32, 8, 4096, 8, 128, 2
    )
    return gqa_kv_cache_bytes


# blind round 1, ch11:43: counts the 32 query heads instead of the 8 key/value heads
@wrong("gqa_kv_cache_bytes", "query_heads")
def gqa_kv_cache_bytes_counts_the_32_query_heads_instead():
    gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 32 * 128 * 2
    return gqa_kv_cache_bytes


@wrong("gqa_kv_cache_bytes", "times:1000/1024")
def gqa_kv_cache_bytes_a_4k_context_as_4000():
    return 2 * 32 * 8 * 4000 * 8 * 128 * 2


# blind round 1, ch11:44: forgets the factor 2 for keys and values
@wrong("gqa_kv_cache_bytes", "keys_only")
def gqa_kv_cache_bytes_forgets_the_factor_2_for_keys():
    gqa_kv_cache_bytes = 32 * 8 * 4096 * 8 * 128 * 2
    return gqa_kv_cache_bytes


# blind round 1, ch11:45: 4 bytes per number instead of bfloat16's 2
@wrong("gqa_kv_cache_bytes", "bytes:float32")
def gqa_kv_cache_bytes_4_bytes_per_number_instead_of():
    gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 4
    return gqa_kv_cache_bytes


# blind round 1, ch11:46: forgets the 32 layers (one layer's cache)
@wrong("gqa_kv_cache_bytes", "one_layer")
def gqa_kv_cache_bytes_forgets_the_32_layers_one_layer():
    gqa_kv_cache_bytes = 2 * 8 * 4096 * 8 * 128 * 2
    return gqa_kv_cache_bytes


# blind round 1, ch11:47: gives the size in GiB (4.0) instead of bytes
@wrong("gqa_kv_cache_bytes", "times:2^-30")
def gqa_kv_cache_bytes_gives_the_size_in_gib_4():
    gqa_kv_cache_bytes = 2 * 32 * 8 * 4096 * 8 * 128 * 2 / 2**30
    return gqa_kv_cache_bytes


# --- predict_cache_saving: predictions as readers make them -------------------------------


@predicted("predict_cache_saving", None)
def predicted_half_of_n():
    return 4096


@predicted("predict_cache_saving", "factor_n")
def predicted_one_power_of_n():
    return 8192


@predicted("predict_cache_saving", "constant_factor")
def predicted_twice_as_fast():
    return 2


@predicted("predict_cache_saving", "per_step")
def predicted_no_saving():
    return 1


# --- kv_heads_experiment: (KV_HEADS, the sequences that fit in 40 GiB) --------------------


@correct("kv_heads_experiment")
def kv_heads_multi_query():
    return (1, 256)


@correct("kv_heads_experiment")
def kv_heads_multi_head():
    return (64, 4)


@correct("kv_heads_experiment")
def kv_heads_four_groups():
    return [4, 64.0]


@wrong("kv_heads_experiment", "chapter_setting")
def kv_heads_read_the_chapters_row():
    return (1, 32)


@wrong("kv_heads_experiment", "gib_read")
def kv_heads_read_the_gib():
    return (4, 0.625)


@wrong("kv_heads_experiment", "keys_only")
def kv_heads_counted_keys_only():
    return (2, 256)


@wrong("kv_heads_experiment", "setting_unchanged")
def kv_heads_not_changed():
    return (8, 32)


@wrong("kv_heads_experiment", "not_that_form")
def kv_heads_answer_in_words():
    return (1, "many")


@wrong("kv_heads_experiment", "not_a_pair")
def kv_heads_only_the_count():
    return 256


@wrong("kv_heads_experiment", "setting_not_allowed")
def kv_heads_more_than_the_query_heads():
    return (128, 2)


# recurring in the held-out rounds (development data)
@wrong("grouped_query_attention", "scale_by_d_model_over_g")
def gqa_scaled_by_the_group_width(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    kh = np.repeat(mha.split_heads(k @ params.w_k, g), h // g, axis=-3)
    vh = np.repeat(mha.split_heads(v @ params.w_v, g), h // g, axis=-3)
    scores = qh @ np.swapaxes(kh, -1, -2) * (g / q.shape[-1]) ** 0.5
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ vh) @ params.w_o, weights


@wrong("decode_one_token", "cache_repeated")
def decode_one_token_caches_every_query_head(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    k, v = np.repeat(k, h // g, axis=-3), np.repeat(v, h // g, axis=-3)
    heads, _ = mha.scaled_dot_product_attention(q, k, v)
    return mha.merge_heads(heads) @ params.w_o, k, v
