"""Chapter 4: the whole layer, each head's contribution, the find-the-bugs layer."""

import math

import numpy as np

import mha
from corpus import correct, predicted, wrong

# --- multi_head_attention -----------------------------------------------------------------


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _linear(x, w, b):
    return x @ w if b is None else x @ w + b


def _layer(q, k, v, params, mask, *, split=mha.split_heads, merge=mha.merge_heads, scale=None,
           w_v="w_v", w_o=True, bias=True, use_mask=True, w_o_layout=lambda w: w):  # fmt: skip
    """A reader's layer, each step written one way; the keywords change one step."""
    h = params.num_heads
    lin = _linear if bias else (lambda x, w, b: x @ w)
    qh = split(lin(q, params.w_q, params.b_q), h)
    kh = split(lin(k, params.w_k, params.b_k), h)
    vh = split(lin(v, getattr(params, w_v), params.b_v), h)
    d_k = qh.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", qh, kh) / (
        math.sqrt(d_k) if scale is None else scale(params)
    )
    if mask is not None and use_mask:
        scores = np.where(mask, scores, -1e30)
    weights = _softmax(scores)
    concat = merge(weights @ vh)
    if not w_o:
        return concat, weights
    return lin(concat, w_o_layout(params.w_o), params.b_o), weights


@correct("multi_head_attention")
def mha_per_head_loop(q, k, v, params, mask=None):
    d_k, d_v, h = params.d_k, params.d_v, params.num_heads
    heads, weights = [], []
    for i in range(h):
        qk, vv = slice(i * d_k, (i + 1) * d_k), slice(i * d_v, (i + 1) * d_v)
        q_i = q @ params.w_q[:, qk] + (0 if params.b_q is None else params.b_q[qk])
        k_i = k @ params.w_k[:, qk] + (0 if params.b_k is None else params.b_k[qk])
        v_i = v @ params.w_v[:, vv] + (0 if params.b_v is None else params.b_v[vv])
        m = None
        if mask is not None:
            m = mask if mask.ndim < 3 else mask[..., 0 if mask.shape[-3] == 1 else i, :, :]
        out_i, w_i = mha.scaled_dot_product_attention(q_i, k_i, v_i, m)
        heads.append(out_i)
        weights.append(w_i)
    out = np.concatenate(heads, axis=-1) @ params.w_o
    return (out if params.b_o is None else out + params.b_o), np.stack(weights, axis=-3)


@correct("multi_head_attention", drift=True)
def mha_einsum_np_sqrt(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(_linear(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(_linear(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(_linear(v, params.w_v, params.b_v), h)
    scores = np.einsum("...hqd,...hkd->...hqk", qh, kh) / np.sqrt(params.d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax(scores)
    out = mha.merge_heads(np.einsum("...hqk,...hkd->...hqd", weights, vh))
    return _linear(out, params.w_o, params.b_o), weights


@correct("multi_head_attention")
def mha_sum_of_head_contributions(q, k, v, params, mask=None):
    h, d_v = params.num_heads, params.d_v
    qh = mha.split_heads(_linear(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(_linear(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(_linear(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = sum(heads[..., i, :, :] @ params.w_o[i * d_v : (i + 1) * d_v] for i in range(h))
    return (out if params.b_o is None else out + params.b_o), weights


@wrong("multi_head_attention", "no_output_projection")
def mha_no_w_o(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, w_o=False)


@wrong("multi_head_attention", "w_k_for_values")
def mha_values_with_w_k(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, w_v="w_k")


def _split_reshape(x, h):
    *batch, n, f = x.shape
    return x.reshape(*batch, h, n, f // h)


def _merge_reshape(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)


@wrong("multi_head_attention", "reshape_without_transpose")
def mha_reshapes_only(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, split=_split_reshape, merge=_merge_reshape)


@wrong("multi_head_attention", "split_without_transpose")
def mha_split_by_reshape(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, split=_split_reshape)


@wrong("multi_head_attention", "merge_without_transpose")
def mha_merge_by_reshape(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, merge=_merge_reshape)


@wrong("multi_head_attention", "heads_interleaved")
def mha_strided_heads(q, k, v, params, mask=None):
    def split(x, h):
        return np.stack([x[..., i::h] for i in range(h)], axis=-3)

    def merge(x):
        h = x.shape[-3]
        return np.stack([x[..., i, :, :] for i in range(h)], axis=-1).reshape(
            *x.shape[:-3], x.shape[-2], -1
        )

    return _layer(q, k, v, params, mask, split=split, merge=merge)


@wrong("multi_head_attention", "no_scaling")
def mha_unscaled(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, scale=lambda p: 1.0)


@wrong("multi_head_attention", "scale_by_d_model")
def mha_scaled_by_d_model(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, scale=lambda p: math.sqrt(p.d_model))


@wrong("multi_head_attention", "scale_by_d_k")
def mha_scaled_by_d_k(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, scale=lambda p: p.d_k)


@wrong("multi_head_attention", "softmax_wrong_axis")
def mha_softmax_over_queries(q, k, v, params, mask=None):
    h = params.num_heads
    qh, kh, vh = (mha.split_heads(_linear(x, w, b), h) for x, w, b in
                  ((q, params.w_q, params.b_q), (k, params.w_k, params.b_k), (v, params.w_v, params.b_v)))  # fmt: skip
    scores = qh @ kh.swapaxes(-1, -2) / math.sqrt(params.d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-2)
    return _linear(mha.merge_heads(weights @ vh), params.w_o, params.b_o), weights


@wrong("multi_head_attention", "biases_ignored")
def mha_without_biases(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, bias=False)


@wrong("multi_head_attention", "output_bias_ignored")
def mha_forgot_b_o(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(_linear(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(_linear(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(_linear(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return mha.merge_heads(heads) @ params.w_o, weights


@wrong("multi_head_attention", "w_o_transposed")
def mha_w_o_as_linear(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, w_o_layout=lambda w: w.T)


@wrong("multi_head_attention", "weights_transposed")
def mha_every_weight_transposed(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(_linear(q, params.w_q.T, params.b_q), h)
    kh = mha.split_heads(_linear(k, params.w_k.T, params.b_k), h)
    vh = mha.split_heads(_linear(v, params.w_v.T, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return _linear(mha.merge_heads(heads), params.w_o.T, params.b_o), weights


@wrong("multi_head_attention", "mask_after_softmax")
def mha_masks_the_weights(q, k, v, params, mask=None):
    h = params.num_heads
    qh, kh, vh = (mha.split_heads(_linear(x, w, b), h) for x, w, b in
                  ((q, params.w_q, params.b_q), (k, params.w_k, params.b_k), (v, params.w_v, params.b_v)))  # fmt: skip
    weights = mha.softmax(qh @ kh.swapaxes(-1, -2) / math.sqrt(params.d_k))
    if mask is not None:
        weights = weights * mask
    return _linear(mha.merge_heads(weights @ vh), params.w_o, params.b_o), weights


@wrong("multi_head_attention", "mask_ignored")
def mha_forgot_the_mask(q, k, v, params, mask=None):
    return _layer(q, k, v, params, mask, use_mask=False)


@wrong("multi_head_attention", "bias_none_not_handled")
def mha_like_mha_by_hand(q, k, v, params, mask=None):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    scores = q_heads @ k_heads.swapaxes(-1, -2) / math.sqrt(q_heads.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores, axis=-1)
    return mha.merge_heads(weights @ v_heads) @ params.w_o + params.b_o, weights


# --- head_contributions -------------------------------------------------------------------


@correct("head_contributions")
def contributions_loop(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    parts = [heads[..., i, :, :] @ w_o[i * d_v : (i + 1) * d_v, :] for i in range(h)]
    return np.stack(parts, axis=-3)


@correct("head_contributions")
def contributions_einsum(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.einsum("...hnd,hdm->...hnm", heads, w_o.reshape(h, d_v, -1))


@wrong("head_contributions", "interleaved_rows")
def contributions_reshape_d_first(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(d_v, h, -1).transpose(1, 0, 2)
    return heads @ blocks


@wrong("head_contributions", "w_o_transposed")
def contributions_of_the_transpose(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    w = w_o.T
    return np.stack([heads[..., i, :, :] @ w[i * d_v : (i + 1) * d_v] for i in range(h)], axis=-3)


@wrong("head_contributions", "summed")
def contributions_total(heads, w_o):
    return mha.merge_heads(heads) @ w_o


@wrong("head_contributions", "heads_reversed")
def contributions_reversed(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = w_o.reshape(h, d_v, -1)[::-1]
    return heads @ blocks


# --- find the bugs: attention_layer (cross-attention, the keys padded) --------------------


def _fixed(q, k, v, params, lengths, *, mask_on_keys, transpose_back, w_o_layout):
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)
    mask = None
    if lengths is not None and mask_on_keys:
        mask = mha.padding_mask(lengths, k.shape[-2])  # (B, 1, 1, n_k)
    elif lengths is not None:
        real = np.arange(q.shape[-2]) < np.asarray(lengths)[:, None]
        mask = real[:, None, :, None]  # as given: over the queries
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    if transpose_back:
        heads = heads.swapaxes(-3, -2)
    concat = heads.reshape(B, n_q, h * d_v)
    return concat @ w_o_layout(params.w_o) + params.b_o, weights


@correct("attention_layer")
def attention_layer_fixed(q, k, v, params, lengths=None):
    return _fixed(
        q, k, v, params, lengths, mask_on_keys=True, transpose_back=True, w_o_layout=lambda w: w
    )


@correct("attention_layer")
def attention_layer_rebuilt_mask_by_hand(q, k, v, params, lengths=None):
    h = params.num_heads
    mask = None
    if lengths is not None:
        mask = np.zeros((len(lengths), 1, 1, k.shape[1]), dtype=bool)
        for b, length in enumerate(lengths):
            mask[b, 0, 0, :length] = True
    out, weights = mha.multi_head_attention(q, k, v, params, mask)
    return out, weights


@wrong("attention_layer", "padding_on_queries")
def attention_layer_kept_the_query_mask(q, k, v, params, lengths=None):
    return _fixed(
        q, k, v, params, lengths, mask_on_keys=False, transpose_back=True, w_o_layout=lambda w: w
    )


@wrong("attention_layer", "w_o_transposed")
def attention_layer_kept_the_transpose(q, k, v, params, lengths=None):
    return _fixed(
        q, k, v, params, lengths, mask_on_keys=True, transpose_back=True, w_o_layout=lambda w: w.T
    )


@wrong("attention_layer", "padding_on_queries+merge_without_transpose")
def attention_layer_fixed_w_o_only(q, k, v, params, lengths=None):
    return _fixed(
        q, k, v, params, lengths, mask_on_keys=False, transpose_back=False, w_o_layout=lambda w: w
    )


@wrong("attention_layer", "merge_without_transpose")
def attention_layer_reshape_kept(q, k, v, params, lengths=None):
    return _fixed(
        q, k, v, params, lengths, mask_on_keys=True, transpose_back=False, w_o_layout=lambda w: w
    )


@wrong("attention_layer", "lengths_ignored")
def attention_layer_mask_dropped(q, k, v, params, lengths=None):
    return _fixed(
        q, k, v, params, None, mask_on_keys=True, transpose_back=True, w_o_layout=lambda w: w
    )


# --- ov_matrices: W_i^V W_i^O ------------------------------------------------------------


@correct("ov_matrices")
def ov_matrices_loop(params):
    d_v = params.d_v
    return np.stack([
        params.w_v[:, i * d_v : (i + 1) * d_v] @ params.w_o[i * d_v : (i + 1) * d_v]
        for i in range(params.num_heads)
    ])  # fmt: skip


@correct("ov_matrices")
def ov_matrices_einsum(params):
    h, d_v = params.num_heads, params.d_v
    w_v = params.w_v.reshape(params.d_model, h, d_v)
    w_o = params.w_o.reshape(h, d_v, params.d_model)
    return np.einsum("dhv,hve->hde", w_v, w_o)


@wrong("ov_matrices", "not_per_head")
def ov_matrices_whole(params):
    return np.array([params.w_v @ params.w_o for _ in range(params.num_heads)])


@wrong("ov_matrices", "interleaved")
def ov_matrices_strided(params):
    h = params.num_heads
    return np.stack([params.w_v[:, i::h] @ params.w_o[i::h] for i in range(h)])


@wrong("ov_matrices", "transposed")
def ov_matrices_o_first(params):
    d_v = params.d_v
    blocks = [
        params.w_o[i * d_v : (i + 1) * d_v].T @ params.w_v[:, i * d_v : (i + 1) * d_v].T
        for i in range(params.num_heads)
    ]
    return np.stack(blocks)


@wrong("ov_matrices", "d_k_blocks")
def ov_matrices_by_d_k(params):
    d = params.d_k
    return np.stack([
        params.w_v[:, i * d : (i + 1) * d] @ params.w_o[i * d : (i + 1) * d]
        for i in range(params.num_heads)
    ])  # fmt: skip


# --- predict_head_write_rank --------------------------------------------------------------


@predicted("predict_head_write_rank", None)
def predicted_rank_d_v():
    return 8


@predicted("predict_head_write_rank", "full_rank")
def predicted_rank_of_a_square_matrix():
    return 32


@predicted("predict_head_write_rank", "heads")
def predicted_rank_of_the_heads():
    return 4


@predicted("predict_head_write_rank", "one_direction")
def predicted_one_direction():
    return 1


@wrong("multi_head_attention", "bias_dropped")
def mha_value_bias_forgotten(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(_linear(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(_linear(k, params.w_k, params.b_k), h)
    vh = mha.split_heads(v @ params.w_v, h)  # the values' bias is missing
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return _linear(mha.merge_heads(heads), params.w_o, params.b_o), weights


@wrong("multi_head_attention", "projection_transposed")
def mha_keys_in_torch_layout(q, k, v, params, mask=None):
    h = params.num_heads
    qh = mha.split_heads(_linear(q, params.w_q, params.b_q), h)
    kh = mha.split_heads(_linear(k, params.w_k.T, params.b_k), h)
    vh = mha.split_heads(_linear(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    return _linear(mha.merge_heads(heads), params.w_o, params.b_o), weights


@wrong("multi_head_attention", "mask_leak")
def mha_mask_added(q, k, v, params, mask=None):
    h = params.num_heads
    qh, kh, vh = (mha.split_heads(_linear(x, w, b), h) for x, w, b in
                  ((q, params.w_q, params.b_q), (k, params.w_k, params.b_k), (v, params.w_v, params.b_v)))  # fmt: skip
    scores = qh @ kh.swapaxes(-1, -2) / math.sqrt(params.d_k)
    if mask is not None:
        scores = np.where(mask, scores, -1.0)  # push the hidden keys down
    weights = mha.softmax(scores)
    return _linear(mha.merge_heads(weights @ vh), params.w_o, params.b_o), weights
