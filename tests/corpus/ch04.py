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


@wrong("multi_head_attention", "masked_rows")
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


@wrong("multi_head_attention", "zeros")
def mha_zeros_when_something_is_none(q, k, v, params, mask=None):
    try:
        q_h = mha.split_heads(q @ params.w_q + params.b_q, params.num_heads)
        k_h = mha.split_heads(k @ params.w_k + params.b_k, params.num_heads)
        v_h = mha.split_heads(v @ params.w_v + params.b_v, params.num_heads)
        heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
        return mha.merge_heads(heads) @ params.w_o + params.b_o, weights
    except TypeError:
        shape = (*q.shape[:-2], params.num_heads, q.shape[-2], k.shape[-2])
        return np.zeros((*q.shape[:-1], params.w_o.shape[-1])), np.zeros(shape)


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


@wrong("head_contributions", "times:1/h")
def head_contributions_as_an_average(heads, w_o):
    h = heads.shape[-3]
    rows = np.split(w_o, h, axis=0)  # head i's block of rows
    terms = [heads[..., i, :, :] @ rows[i] for i in range(h)]
    return np.stack(terms, axis=-3) / h


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


# held-out round 3's class (ch04:21-22, not their code): the padding bug half fixed
@wrong("attention_layer", "padding_counted_from_queries")
def attention_layer_mask_on_keys_n_q_long(q, k, v, params, lengths=None):
    mask = None
    if lengths is not None:
        n_q = q.shape[-2]
        mask = (np.arange(n_q)[None, :] < np.array(lengths)[:, None])[:, None, None, :]
    return mha.multi_head_attention(q, k, v, params, mask)


@wrong("attention_layer", "padding_on_queries_axis")
def attention_layer_mask_n_k_long_on_queries(q, k, v, params, lengths=None):
    mask = None
    if lengths is not None:
        n_k = k.shape[-2]
        mask = (np.arange(n_k)[None, :] < np.array(lengths)[:, None])[:, None, :, None]
    return mha.multi_head_attention(q, k, v, params, mask)


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


@wrong("attention_layer", "merge_wrong_axes")
def attention_layer_merge_swapped_the_last_two_axes(q, k, v, params, lengths=None):
    h = params.num_heads
    mask = None if lengths is None else mha.padding_mask(lengths, k.shape[-2])
    q_heads, k_heads, v_heads = (
        mha.split_heads(x @ w + b, h)
        for x, w, b in (
            (q, params.w_q, params.b_q),
            (k, params.w_k, params.b_k),
            (v, params.w_v, params.b_v),
        )
    )
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    B, _, n_q, d_v = heads.shape
    concat = heads.swapaxes(-1, -2).reshape(B, n_q, h * d_v)  # swaps (n, d), not (h, n)
    return concat @ params.w_o + params.b_o, weights


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


# held-out round 3's classes (ch04:16-18, not their code)
@wrong("ov_matrices", "w_v_interleaved")
def ov_matrices_values_strided(params):
    h, d_v = params.num_heads, params.d_v
    return np.stack([params.w_v[:, i::h] @ params.w_o[i * d_v : (i + 1) * d_v] for i in range(h)])


@wrong("ov_matrices", "w_o_first")
def ov_matrices_output_block_first(params):
    h, d_v = params.num_heads, params.d_v
    blocks = np.split(np.arange(h * d_v), h)
    return np.stack([params.w_o[b] @ params.w_v[:, b] for b in blocks])


@wrong("ov_matrices", "w_o_columns")
def ov_matrices_output_columns(params):
    h, d_v = params.num_heads, params.d_v
    out = []
    for i in range(h):
        cols = slice(i * d_v, (i + 1) * d_v)
        out.append(params.w_v[:, cols] @ params.w_o[:, cols].T)  # W^O's columns
    return np.array(out)


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


@wrong("ov_matrices", "heads_reversed")
def ov_matrices_w_o_rows_from_the_end(params):
    h, d_v = params.num_heads, params.d_v
    w_o_rows = params.w_o.reshape(h, d_v, params.d_model)[::-1]  # (h, d_v, d_model)
    return np.stack([params.w_v[:, i * d_v : (i + 1) * d_v] @ w_o_rows[i] for i in range(h)])


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


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch04:0: project (biases only when present), split, mha.scaled_dot_product_attention with the mask, merge, W^O
def _affine_multi_head_attention_project_biases_only_when_present_split(x, w, b):
    y = x @ w
    return y if b is None else y + b


@correct("multi_head_attention")
def multi_head_attention_project_biases_only_when_present_split(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(
        _affine_multi_head_attention_project_biases_only_when_present_split(
            q, params.w_q, params.b_q
        ),
        h,
    )
    k_h = mha.split_heads(
        _affine_multi_head_attention_project_biases_only_when_present_split(
            k, params.w_k, params.b_k
        ),
        h,
    )
    v_h = mha.split_heads(
        _affine_multi_head_attention_project_biases_only_when_present_split(
            v, params.w_v, params.b_v
        ),
        h,
    )
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return _affine_multi_head_attention_project_biases_only_when_present_split(
        mha.merge_heads(heads), params.w_o, params.b_o
    ), weights


# blind round 1, ch04:1: everything by hand: own split/merge, einsum scores, own softmax with zero rows for fully masked queries, and the output as a sum of per-head contributions
def _split_multi_head_attention_everything_by_hand_own_split_merge(x, h):
    *b, n, f = x.shape
    return np.swapaxes(x.reshape(*b, n, h, f // h), -3, -2)


@correct("multi_head_attention")
def multi_head_attention_everything_by_hand_own_split_merge(q, k, v, params, mask=None):
    h = params.num_heads

    def proj(x, w, b):
        return x @ w + (0 if b is None else b)

    qh = _split_multi_head_attention_everything_by_hand_own_split_merge(
        proj(q, params.w_q, params.b_q), h
    )
    kh = _split_multi_head_attention_everything_by_hand_own_split_merge(
        proj(k, params.w_k, params.b_k), h
    )
    vh = _split_multi_head_attention_everything_by_hand_own_split_merge(
        proj(v, params.w_v, params.b_v), h
    )
    d_k, d_v = qh.shape[-1], vh.shape[-1]
    scores = np.einsum("...hqd,...hkd->...hqk", qh, kh) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    s = e.sum(axis=-1, keepdims=True)
    weights = (e / np.where(s == 0, 1, s)).astype(qh.dtype)
    heads = weights @ vh  # (..., h, n_q, d_v)
    w_o = params.w_o.reshape(h, d_v, -1)
    out = np.einsum("...hqd,hdm->...qm", heads, w_o)
    if params.b_o is not None:
        out = out + params.b_o
    return out.astype(qh.dtype), weights


# blind round 1, ch04:2: a loop over heads on column blocks (as the paper writes it), np.concatenate of the heads, then W^O
@correct("multi_head_attention")
def multi_head_attention_a_loop_over_heads_on_column(q, k, v, params, mask=None):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    Q = q @ params.w_q + (params.b_q if params.b_q is not None else 0)
    K = k @ params.w_k + (params.b_k if params.b_k is not None else 0)
    V = v @ params.w_v + (params.b_v if params.b_v is not None else 0)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.ndim >= 3:
            mask = np.broadcast_to(mask, mask.shape[:-3] + (h,) + mask.shape[-2:])
    heads, weights = [], []
    for i in range(h):
        m_i = None
        if mask is not None:
            m_i = mask[..., i, :, :] if mask.ndim >= 3 else mask
        o, w = mha.scaled_dot_product_attention(
            Q[..., i * d_k : (i + 1) * d_k],
            K[..., i * d_k : (i + 1) * d_k],
            V[..., i * d_v : (i + 1) * d_v],
            m_i,
        )
        heads.append(o)
        weights.append(w)
    out = np.concatenate(heads, axis=-1) @ params.w_o
    if params.b_o is not None:
        out = out + params.b_o
    return out, np.stack(weights, axis=-3)


# blind round 1, ch04:3: never adds the biases
@wrong("multi_head_attention", "biases_ignored")
def multi_head_attention_never_adds_the_biases(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(q @ params.w_q, h)
    k_h = mha.split_heads(k @ params.w_k, h)
    v_h = mha.split_heads(v @ params.w_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o, weights


# blind round 1, ch04:4: adds the biases unconditionally: raises TypeError when a layer has no biases
@wrong("multi_head_attention", "bias_none_not_handled")
def multi_head_attention_adds_the_biases_unconditionally_raises_typeerror(
    q, k, v, params, mask=None
):
    h = params.num_heads
    q_h = mha.split_heads(q @ params.w_q + params.b_q, h)
    k_h = mha.split_heads(k @ params.w_k + params.b_k, h)
    v_h = mha.split_heads(v @ params.w_v + params.b_v, h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o + params.b_o, weights


# blind round 1, ch04:5: adds b_q, b_k, b_v but forgets b_o
def _affine_multi_head_attention_adds_b_q_b_k_b(x, w, b):
    return x @ w if b is None else x @ w + b


@wrong("multi_head_attention", "output_bias_ignored")
def multi_head_attention_adds_b_q_b_k_b(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(_affine_multi_head_attention_adds_b_q_b_k_b(q, params.w_q, params.b_q), h)
    k_h = mha.split_heads(_affine_multi_head_attention_adds_b_q_b_k_b(k, params.w_k, params.b_k), h)
    v_h = mha.split_heads(_affine_multi_head_attention_adds_b_q_b_k_b(v, params.w_v, params.b_v), h)
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return mha.merge_heads(heads) @ params.w_o, weights


# blind round 1, ch04:6: self-attention only: takes the keys and values from q, ignoring k and v
def _affine_multi_head_attention_self_attention_only_takes_the_keys(x, w, b):
    return x @ w if b is None else x @ w + b


@wrong("multi_head_attention", "input:k,v=q")
def multi_head_attention_self_attention_only_takes_the_keys(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(
        _affine_multi_head_attention_self_attention_only_takes_the_keys(q, params.w_q, params.b_q),
        h,
    )
    k_h = mha.split_heads(
        _affine_multi_head_attention_self_attention_only_takes_the_keys(q, params.w_k, params.b_k),
        h,
    )
    v_h = mha.split_heads(
        _affine_multi_head_attention_self_attention_only_takes_the_keys(q, params.w_v, params.b_v),
        h,
    )
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return _affine_multi_head_attention_self_attention_only_takes_the_keys(
        mha.merge_heads(heads), params.w_o, params.b_o
    ), weights


# blind round 1, ch04:7: accepts a mask but never passes it to the attention
def _affine_multi_head_attention_accepts_a_mask_but_never_passes(x, w, b):
    return x @ w if b is None else x @ w + b


@wrong("multi_head_attention", "mask_ignored")
def multi_head_attention_accepts_a_mask_but_never_passes(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(
        _affine_multi_head_attention_accepts_a_mask_but_never_passes(q, params.w_q, params.b_q), h
    )
    k_h = mha.split_heads(
        _affine_multi_head_attention_accepts_a_mask_but_never_passes(k, params.w_k, params.b_k), h
    )
    v_h = mha.split_heads(
        _affine_multi_head_attention_accepts_a_mask_but_never_passes(v, params.w_v, params.b_v), h
    )
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h)
    return _affine_multi_head_attention_accepts_a_mask_but_never_passes(
        mha.merge_heads(heads), params.w_o, params.b_o
    ), weights


# blind round 1, ch04:8: merges the heads with a bare reshape, without transposing back
def _affine_multi_head_attention_merges_the_heads_with_a_bare(x, w, b):
    return x @ w if b is None else x @ w + b


@wrong("multi_head_attention", "merge_without_transpose")
def multi_head_attention_merges_the_heads_with_a_bare(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(
        _affine_multi_head_attention_merges_the_heads_with_a_bare(q, params.w_q, params.b_q), h
    )
    k_h = mha.split_heads(
        _affine_multi_head_attention_merges_the_heads_with_a_bare(k, params.w_k, params.b_k), h
    )
    v_h = mha.split_heads(
        _affine_multi_head_attention_merges_the_heads_with_a_bare(v, params.w_v, params.b_v), h
    )
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    *batch, _, n_q, d_v = heads.shape
    return _affine_multi_head_attention_merges_the_heads_with_a_bare(
        heads.reshape(*batch, n_q, h * d_v), params.w_o, params.b_o
    ), weights


# blind round 1, ch04:9: returns the weights averaged over heads, (..., n_q, n_k), like nn.MultiheadAttention's default
def _affine_multi_head_attention_returns_the_weights_averaged_over_heads(x, w, b):
    return x @ w if b is None else x @ w + b


@wrong("multi_head_attention", "reduced:mean:-3")
def multi_head_attention_returns_the_weights_averaged_over_heads(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(
        _affine_multi_head_attention_returns_the_weights_averaged_over_heads(
            q, params.w_q, params.b_q
        ),
        h,
    )
    k_h = mha.split_heads(
        _affine_multi_head_attention_returns_the_weights_averaged_over_heads(
            k, params.w_k, params.b_k
        ),
        h,
    )
    v_h = mha.split_heads(
        _affine_multi_head_attention_returns_the_weights_averaged_over_heads(
            v, params.w_v, params.b_v
        ),
        h,
    )
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return _affine_multi_head_attention_returns_the_weights_averaged_over_heads(
        mha.merge_heads(heads), params.w_o, params.b_o
    ), weights.mean(axis=-3)


# blind round 1, ch04:10: scales the scores by sqrt(d_model) instead of sqrt(d_k)
def _affine_multi_head_attention_scales_the_scores_by_sqrt_d(x, w, b):
    return x @ w if b is None else x @ w + b


@wrong("multi_head_attention", "scale_by_d_model")
def multi_head_attention_scales_the_scores_by_sqrt_d(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(
        _affine_multi_head_attention_scales_the_scores_by_sqrt_d(q, params.w_q, params.b_q), h
    )
    k_h = mha.split_heads(
        _affine_multi_head_attention_scales_the_scores_by_sqrt_d(k, params.w_k, params.b_k), h
    )
    v_h = mha.split_heads(
        _affine_multi_head_attention_scales_the_scores_by_sqrt_d(v, params.w_v, params.b_v), h
    )
    scores = q_h @ np.swapaxes(k_h, -1, -2) / np.sqrt(params.d_model)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores)
    return _affine_multi_head_attention_scales_the_scores_by_sqrt_d(
        mha.merge_heads(weights @ v_h), params.w_o, params.b_o
    ), weights


# blind round 1, ch04:11: multiplies by W^O transposed (PyTorch habit); runs only because W^O is square
def _affine_multi_head_attention_multiplies_by_w_o_transposed_pytorch(x, w, b):
    return x @ w if b is None else x @ w + b


@wrong("multi_head_attention", "w_o_transposed")
def multi_head_attention_multiplies_by_w_o_transposed_pytorch(q, k, v, params, mask=None):
    h = params.num_heads
    q_h = mha.split_heads(
        _affine_multi_head_attention_multiplies_by_w_o_transposed_pytorch(
            q, params.w_q, params.b_q
        ),
        h,
    )
    k_h = mha.split_heads(
        _affine_multi_head_attention_multiplies_by_w_o_transposed_pytorch(
            k, params.w_k, params.b_k
        ),
        h,
    )
    v_h = mha.split_heads(
        _affine_multi_head_attention_multiplies_by_w_o_transposed_pytorch(
            v, params.w_v, params.b_v
        ),
        h,
    )
    heads, weights = mha.scaled_dot_product_attention(q_h, k_h, v_h, mask)
    return _affine_multi_head_attention_multiplies_by_w_o_transposed_pytorch(
        mha.merge_heads(heads), params.w_o.T, params.b_o
    ), weights


# blind round 1, ch04:12: casts everything to float64: float32 inputs come back as float64
@correct("multi_head_attention", drift=True)
def multi_head_attention_right_values_but_computed_and_returned(q, k, v, params, mask=None):
    p = params.map(lambda a: np.asarray(a, dtype=np.float64))
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    return mha.multi_head_attention(q, k, v, p, mask)


# blind round 1, ch04:13: reshape W^O to (h, d_v, d_model) and let @ broadcast head i with block i
@correct("head_contributions")
def head_contributions_reshape_w_o_to_h_d(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return heads @ w_o.reshape(h, d_v, w_o.shape[-1])


# blind round 1, ch04:14: one einsum over the reshaped W^O
@correct("head_contributions")
def head_contributions_one_einsum_over_the_reshaped_w(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.einsum("...hqd,hdm->...hqm", heads, np.reshape(w_o, (h, d_v, -1)))


# blind round 1, ch04:15: a loop over heads with row blocks of W^O, stacked on axis -3
@correct("head_contributions")
def head_contributions_a_loop_over_heads_with_row(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    parts = [heads[..., i, :, :] @ w_o[i * d_v : (i + 1) * d_v, :] for i in range(h)]
    return np.stack(parts, axis=-3)


# blind round 1, ch04:16: reshapes W^O as (d_v, h, d_model) and swaps: pairs each head with strided rows
@wrong("head_contributions", "interleaved_rows")
def head_contributions_reshapes_w_o_as_d_v(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    blocks = np.swapaxes(w_o.reshape(d_v, h, -1), 0, 1)
    return heads @ blocks


# blind round 1, ch04:17: stacks the contributions on axis 0: right only without batch axes
@wrong("head_contributions", "axes")
def head_contributions_stacks_the_contributions_on_axis_0(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack([heads[..., i, :, :] @ w_o[i * d_v : (i + 1) * d_v] for i in range(h)], axis=0)


# blind round 1, ch04:18: reads the number of heads from axis 0 instead of axis -3: wrong with batch axes
@wrong("head_contributions", "batch_axes")
def head_contributions_reads_the_number_of_heads_from(heads, w_o):
    h, d_v = heads.shape[0], heads.shape[-1]
    return heads @ w_o.reshape(h, d_v, -1)


# blind round 1, ch04:19: sums the contributions: returns the layer output (..., n_q, d_model) instead of one term per head
@wrong("head_contributions", "summed")
def head_contributions_sums_the_contributions_returns_the_layer(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return (heads @ w_o.reshape(h, d_v, -1)).sum(axis=-3)


# blind round 1, ch04:20: takes column blocks of W^O instead of row blocks (only runs when d_model = h*d_v)
@wrong("head_contributions", "w_o_transposed")
def head_contributions_takes_column_blocks_of_w_o(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    return np.stack(
        [heads[..., i, :, :] @ w_o[:, i * d_v : (i + 1) * d_v].T for i in range(h)], axis=-3
    )


# blind round 1, ch04:21: computes the full output and splits its features into h slices: shape (..., h, n_q, d_model/h)
@wrong("head_contributions", "output_split")
def head_contributions_computes_the_full_output_and_splits(heads, w_o):
    h = heads.shape[-3]
    return mha.split_heads(mha.merge_heads(heads) @ w_o, h)


# blind round 1, ch04:22: w_o.shape = (h, d_v, d_model) changes the caller's array
@wrong("head_contributions", None)
def head_contributions_right_values_but_reshapes_w_o(heads, w_o):
    h, d_v = heads.shape[-3], heads.shape[-1]
    w_o.shape = (h, d_v, w_o.shape[-1])
    return heads @ w_o


# blind round 1, ch04:33: 4 d_model^2 + 4 d_model
@correct("mha_parameter_count")
def mha_parameter_count_4_d_model_2_4_d():
    mha_parameter_count = 4 * 512**2 + 4 * 512
    return mha_parameter_count


# blind round 1, ch04:34: ask the package: init_params(..., bias=True).num_parameters()
@correct("mha_parameter_count")
def mha_parameter_count_ask_the_package_init_params_bias():
    mha_parameter_count = int(mha.init_params(512, 8, bias=True).num_parameters())
    return mha_parameter_count


# blind round 1, ch04:35: four projections of (d_model x d_model weights + d_model biases)
@correct("mha_parameter_count")
def mha_parameter_count_four_projections_of_d_model_x():
    mha_parameter_count = 4 * (512 * 512 + 512)
    return mha_parameter_count


# blind round 1, ch04:36: forgets the biases
@wrong("mha_parameter_count", "no_biases")
def mha_parameter_count_forgets_the_biases():
    mha_parameter_count = 4 * 512**2
    return mha_parameter_count


# blind round 1, ch04:37: forgets W^O and its bias (counts only Q, K, V)
@wrong("mha_parameter_count", "no_w_o")
def mha_parameter_count_forgets_w_o_and_its_bias():
    mha_parameter_count = 3 * 512**2 + 3 * 512
    return mha_parameter_count


# blind round 1, ch04:38: counts each bias as one head's width (d_k = 64) instead of d_model
@wrong("mha_parameter_count", "bias_size:d_k")
def mha_parameter_count_counts_each_bias_as_one_head():
    mha_parameter_count = 4 * 512**2 + 4 * 64
    return mha_parameter_count


# blind round 1, ch04:39: multiplies the weights by the number of heads
@wrong("mha_parameter_count", "term:weights:extra:h")
def mha_parameter_count_multiplies_the_weights_by_the_number():
    mha_parameter_count = 8 * 4 * 512**2 + 4 * 512
    return mha_parameter_count


# blind round 1, ch04:40: counts only the output bias
@wrong("mha_parameter_count", "one_bias")
def mha_parameter_count_counts_only_the_output_bias():
    mha_parameter_count = 4 * 512**2 + 512
    return mha_parameter_count


# recurring in the held-out rounds (development data)
@wrong("head_contributions", "first_block_for_every_head")
def head_contributions_loop_reuses_the_first_block(heads, w_o):
    d_v = heads.shape[-1]
    block = w_o[:d_v]  # taken once, before the loop
    terms = [heads[..., i, :, :] @ block for i in range(heads.shape[-3])]
    return np.stack(terms, axis=-3)


@wrong("head_contributions", "summed")
def head_contributions_total_for_every_head(heads, w_o):
    h = heads.shape[-3]
    total = mha.merge_heads(heads) @ w_o  # (..., n_q, d_model)
    return np.broadcast_to(total[..., None, :, :], (*total.shape[:-2], h, *total.shape[-2:])).copy()


@wrong("ov_matrices", "w_v_reshaped_without_moving_axes")
def ov_matrices_rows_cut_into_heads(params):
    h, d_v = params.num_heads, params.d_v
    w_v_heads = np.reshape(params.w_v, (h, -1, d_v))  # (h, d_model, d_v), rows cut into heads
    return np.einsum("hmv,hvn->hmn", w_v_heads, params.w_o.reshape(h, d_v, -1))


@wrong("ov_matrices", "w_q_for_w_v")
def ov_matrices_from_the_queries(params):
    d = params.d_v
    return np.array(
        [
            params.w_q[:, d * i : d * (i + 1)] @ params.w_o[d * i : d * (i + 1)]
            for i in range(params.num_heads)
        ]
    )


@wrong("multi_head_attention", "bias_before_projection")
def mha_biases_added_to_the_inputs(q, k, v, params, mask=None):
    def proj(x, w, b):
        return (x if b is None else x + b) @ w

    h = params.num_heads
    qh, kh, vh = (
        mha.split_heads(proj(x, w, b), h)
        for x, w, b in (
            (q, params.w_q, params.b_q),
            (k, params.w_k, params.b_k),
            (v, params.w_v, params.b_v),
        )
    )
    heads, weights = mha.scaled_dot_product_attention(qh, kh, vh, mask)
    out = mha.merge_heads(heads) @ params.w_o
    return (out if params.b_o is None else out + params.b_o), weights


# from held-out round 5 (development data): the query-key circuit
@wrong("ov_matrices", "qk_circuit")
def ov_matrices_where_each_head_reads(params):
    h, d_k = params.num_heads, params.d_k
    q_blocks = params.w_q.reshape(-1, h, d_k).transpose(1, 0, 2)  # (h, d_model, d_k)
    k_blocks = params.w_k.reshape(-1, h, d_k).transpose(1, 2, 0)  # (h, d_k, d_model)
    return q_blocks @ k_blocks
