"""Answers written after the property diagnoses existed, to see how they do on mistakes they
were not tuned on (other spellings of known mistakes, across chapters)."""

import math

import numpy as np

import mha
from corpus import wrong


def _softmax(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@wrong("softmax", "whole_array")
def softmax_shift_per_row_sum_everything(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum()


@wrong("scaled_dot_product_attention", "softmax_wrong_axis")
def attention_einsum_axis_0(q, k, v, mask=None):
    s = np.einsum("...id,...jd->...ij", q, k) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = s + np.where(mask, 0, -1e9)
    p = np.exp(s - s.max(0)) / np.exp(s - s.max(0)).sum(0)
    return np.einsum("...ij,...jd->...id", p, v), p


@wrong("scaled_dot_product_attention", "scale_by_n_k")
def attention_np_sqrt_of_keys(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-2])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    p = _softmax(s)
    return p @ v, p


@wrong("scaled_dot_product_attention", "mask_inverted")
def attention_where_not_mask(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(~mask, s, -np.inf)
    p = _softmax(s)
    return p @ v, p


@wrong("temperature_of", "log_base")
def temperature_log2(scores, weights):
    s, w = scores.reshape(-1, scores.shape[-1]), weights.reshape(-1, weights.shape[-1])
    return (s[0, 0] - s[0, 1]) / (np.log2(w[0, 0]) - np.log2(w[0, 1]))


@wrong("multi_head_attention", "w_o_transposed")
def mha_output_einsum_transposed(q, k, v, params, mask=None):
    h = params.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    qh, kh, vh = (mha.split_heads(lin(x, w, b), h) for x, w, b in
                  ((q, params.w_q, params.b_q), (k, params.w_k, params.b_k), (v, params.w_v, params.b_v)))  # fmt: skip
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = np.einsum("...i,ji->...j", mha.merge_heads(heads), params.w_o)
    return (out if params.b_o is None else out + params.b_o), weights


@wrong("multi_head_attention", "split_without_transpose")
def mha_keys_split_by_reshape(q, k, v, params, mask=None):
    h = params.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    qh = mha.split_heads(lin(q, params.w_q, params.b_q), h)
    kk = lin(k, params.w_k, params.b_k)
    kh = kk.reshape(*kk.shape[:-2], h, kk.shape[-2], -1)  # keys: reshape only
    vh = mha.split_heads(lin(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = lin(mha.merge_heads(heads), params.w_o, params.b_o)
    return out, weights


@wrong("multi_head_attention", "scale_by_d_model")
def mha_np_sqrt_of_q_width(q, k, v, params, mask=None):
    h = params.num_heads

    def lin(x, w, b):
        return x @ w if b is None else x @ w + b

    qh, kh, vh = (mha.split_heads(lin(x, w, b), h) for x, w, b in
                  ((q, params.w_q, params.b_q), (k, params.w_k, params.b_k), (v, params.w_v, params.b_v)))  # fmt: skip
    s = qh @ kh.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    p = _softmax(s)
    return lin(mha.merge_heads(p @ vh), params.w_o, params.b_o), p


@wrong("causal_mask", "float_mask")
def causal_mask_ints(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=int), k=n_k - n_q)


@wrong("causal_mask", "top_left_aligned")
def causal_mask_triu_indices(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    mask = np.ones((n_q, n_k), dtype=bool)
    mask[np.triu_indices(n_q, 1, n_k)] = False
    return mask


@wrong("causal_mask", "excludes_diagonal")
def causal_mask_not_triu(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return ~np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)


@wrong("padding_mask", "float_mask")
def padding_mask_ones_and_zeros(lengths, n_k):
    rows = [[1] * int(n) + [0] * (n_k - int(n)) for n in lengths]
    return np.array(rows)[:, None, None, :]


@wrong("decoder_masks", "cross_causal")
def decoder_masks_tril_everywhere(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    tril = np.tril(np.ones((n_target, n_source), dtype=bool))
    return self_mask, tril & mha.padding_mask(source_lengths, n_source)


@wrong("head_similarity", "not_normalised")
def similarity_einsum_dots(per_head):
    x = np.moveaxis(per_head, -3, 0).reshape(per_head.shape[-3], -1)
    return np.einsum("if,jf->ij", x, x)


@wrong("online_softmax_attention", "no_rescale_output")
def online_factor_after_update(q, k, v, block_size):
    q = q / math.sqrt(q.shape[-1])
    m = np.full((*q.shape[:-1], 1), -np.inf)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]))
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m = np.maximum(m, s.max(-1, keepdims=True))
        factor = np.exp(m - m)  # the old maximum is already gone
        p = np.exp(s - m)
        ell = ell * factor + p.sum(-1, keepdims=True)
        acc = acc * factor + p @ v[..., start : start + block_size, :]
    return (acc / ell).astype(q.dtype)


@wrong("grouped_query_attention", "tiled_groups")
def gqa_groups_reshaped_the_other_way(q, k, v, params, mask=None):
    h, g = params.num_heads, params.num_kv_heads
    qh = mha.split_heads(q @ params.w_q, h)
    *batch, _, n_q, d = qh.shape
    kh = mha.split_heads(k @ params.w_k, g)[..., :, None, :, :]
    vh = mha.split_heads(v @ params.w_v, g)[..., :, None, :, :]
    grouped = np.swapaxes(qh.reshape(*batch, h // g, g, n_q, d), -4, -3)  # (g, h/g)?
    heads, weights = mha.scaled_dot_product_attention(grouped, kh, vh, mask)
    heads = np.swapaxes(heads, -4, -3).reshape(*batch, h, n_q, d)
    weights = np.swapaxes(weights, -4, -3).reshape(*batch, h, n_q, -1)
    return mha.merge_heads(heads) @ params.w_o, weights


@wrong("attention_backward", "softmax_jacobian_diagonal")
def backward_einsum_forgot_coupling(q, k, v, grad_out):
    s = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(q.shape[-1])
    p = _softmax(s)
    d_p = np.einsum("...qd,...kd->...qk", grad_out, v)
    d_s = d_p * p / math.sqrt(q.shape[-1])
    return (
        np.einsum("...qk,...kd->...qd", d_s, k),
        np.einsum("...qk,...qd->...kd", d_s, q),
        np.einsum("...qk,...qd->...kd", p, grad_out),
    )


@wrong("moh_gates", "renormalised")
def gates_normalised_over_the_top_k(scores, top_k):
    h = scores.shape[-1]
    p = _softmax(scores)
    keep = scores >= np.sort(scores, axis=-1)[..., -top_k, None]
    chosen = p * keep
    return h * chosen / chosen.sum(-1, keepdims=True)


@wrong("gate_importance", "abs_after_mean")
def importance_loops_mean_first(contributions, grad_out):
    batch, h = contributions.shape[:2]
    total = np.zeros(h)
    for b in range(batch):
        total += (contributions[b] * grad_out[b]).sum(axis=(1, 2))
    return np.abs(total / batch)


@wrong("decode_one_token", "does_not_see_itself")
def decode_cache_updated_last(x_t, params, cache_k, cache_v):
    h, g = params.num_heads, params.num_kv_heads
    q = mha.split_heads(x_t @ params.w_q, h)
    heads, _ = mha.scaled_dot_product_attention(
        q, np.repeat(cache_k, h // g, axis=-3), np.repeat(cache_v, h // g, axis=-3)
    )
    out = mha.merge_heads(heads) @ params.w_o
    new_k = np.concatenate([cache_k, mha.split_heads(x_t @ params.w_k, g)], axis=-2)
    new_v = np.concatenate([cache_v, mha.split_heads(x_t @ params.w_v, g)], axis=-2)
    return out, new_k, new_v
