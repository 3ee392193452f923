"""Chapter 3: splitting and merging heads, the find-the-bugs exercise."""

import math

import numpy as np

import mha
from corpus import correct, predicted, wrong

# --- split_heads --------------------------------------------------------------------------


@correct("split_heads")
def split_heads_reshape_transpose(x, num_heads):
    *batch, n, d_model = x.shape
    x = x.reshape(*batch, n, num_heads, d_model // num_heads)
    return np.swapaxes(x, -2, -3)


@correct("split_heads")
def split_heads_slices(x, num_heads):
    d = x.shape[-1] // num_heads
    return np.stack([x[..., i * d : (i + 1) * d] for i in range(num_heads)], axis=-3)


@correct("split_heads")
def split_heads_array_split(x, num_heads):
    return np.stack(np.split(x, num_heads, axis=-1), axis=-3)


@wrong("split_heads", "reshape_without_transpose")
def split_heads_reshape(x, num_heads):
    *batch, n, d_model = x.shape
    return x.reshape(*batch, num_heads, n, d_model // num_heads)


@wrong("split_heads", "reshape_without_transpose")
def split_heads_2d_only(x, num_heads):
    return x.reshape(num_heads, x.shape[-2], -1)


@wrong("split_heads", "heads_axis_not_moved")
def split_heads_no_swap(x, num_heads):
    return x.reshape(*x.shape[:-1], num_heads, -1)


@wrong("split_heads", "heads_interleaved")
def split_heads_strided(x, num_heads):
    return np.stack([x[..., i::num_heads] for i in range(num_heads)], axis=-3)


@wrong("split_heads", "heads_interleaved")
def split_heads_d_then_h(x, num_heads):
    *batch, n, d_model = x.shape
    x = x.reshape(*batch, n, d_model // num_heads, num_heads)
    return np.moveaxis(x, -1, -3)


# --- merge_heads --------------------------------------------------------------------------


@correct("merge_heads")
def merge_heads_swap_reshape(x):
    *batch, h, n, d = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, n, h * d)


@correct("merge_heads")
def merge_heads_concatenate(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-1)


@wrong("merge_heads", "reshape_without_transpose")
def merge_heads_reshape(x):
    *batch, h, n, d = x.shape
    return x.reshape(*batch, n, h * d)


@wrong("merge_heads", "heads_interleaved")
def merge_heads_stack_last(x):
    *batch, h, n, d = x.shape
    return np.stack([x[..., i, :, :] for i in range(h)], axis=-1).reshape(*batch, n, h * d)


@wrong("merge_heads", "concat_on_sequence_axis")
def merge_heads_concatenate_tokens(x):
    return np.concatenate([x[..., i, :, :] for i in range(x.shape[-3])], axis=-2)


@wrong("merge_heads", "heads_summed")
def merge_heads_sum(x):
    return x.sum(axis=-3)


@wrong("merge_heads", "heads_averaged")
def merge_heads_mean(x):
    return np.mean(x, axis=-3)


# --- find the bugs: attend_heads ----------------------------------------------------------


def _attend(x, params, *, split_q, divisor, axis):
    h = params.num_heads
    *batch, n, d_model = x.shape
    if split_q:
        q = mha.split_heads(x @ params.w_q, h)
    else:
        q = (x @ params.w_q).reshape(*batch, h, n, -1)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / divisor(q, d_model)
    weights = mha.softmax(scores, axis=axis)
    return weights @ v, weights


@correct("attend_heads")
def attend_heads_fixed(x, params):
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)
    k = mha.split_heads(x @ params.w_k, h)
    v = mha.split_heads(x @ params.w_v, h)
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights


@correct("attend_heads")
def attend_heads_rewritten_as_a_loop(x, params):
    h, d_k, d_v = params.num_heads, params.d_k, params.d_v
    heads, weights = [], []
    for i in range(h):
        q = x @ params.w_q[:, i * d_k : (i + 1) * d_k]
        k = x @ params.w_k[:, i * d_k : (i + 1) * d_k]
        v = x @ params.w_v[:, i * d_v : (i + 1) * d_v]
        out, w = mha.scaled_dot_product_attention(q, k, v)
        heads.append(out)
        weights.append(w)
    return np.stack(heads, axis=-3), np.stack(weights, axis=-3)


@wrong("attend_heads", "q_not_transposed+scale_by_d_model")
def attend_heads_fixed_the_axis(x, params):
    return _attend(x, params, split_q=False, divisor=lambda q, d: d**0.5, axis=-1)


@wrong("attend_heads", "scale_by_d_model")
def attend_heads_fixed_q_and_axis(x, params):
    return _attend(x, params, split_q=True, divisor=lambda q, d: d**0.5, axis=-1)


@wrong("attend_heads", "softmax_wrong_axis")
def attend_heads_fixed_q_and_scale(x, params):
    return _attend(x, params, split_q=True, divisor=lambda q, d: math.sqrt(q.shape[-1]), axis=-2)


@wrong("attend_heads", "q_not_transposed")
def attend_heads_missed_the_reshape(x, params):
    return _attend(x, params, split_q=False, divisor=lambda q, d: math.sqrt(q.shape[-1]), axis=-1)


@wrong("attend_heads", "q_not_transposed+softmax_wrong_axis")
def attend_heads_fixed_the_scale(x, params):
    return _attend(x, params, split_q=False, divisor=lambda q, d: math.sqrt(q.shape[-1]), axis=-2)


@wrong("attend_heads", "scale_by_d_k")
def attend_heads_no_square_root(x, params):
    return _attend(x, params, split_q=True, divisor=lambda q, d: q.shape[-1], axis=-1)


# --- predict_unsplit_rows -----------------------------------------------------------------------


@predicted("predict_unsplit_rows", None)
def predicted_row_major_order():
    return [0, 0, 0, 0, 1, 1]


@predicted("predict_unsplit_rows", "as_if_transposed")
def predicted_no_harm_done():
    return [0, 1, 2, 3, 4, 5]


@predicted("predict_unsplit_rows", "one_token")
def predicted_head_zero_is_token_zero():
    return (0, 0, 0, 0, 0, 0)


@predicted("predict_unsplit_rows", "two_rows_per_token")
def predicted_two_rows_each():
    return [0, 0, 1, 1, 2, 2]
