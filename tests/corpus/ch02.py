"""Chapter 2: one head's weight block, fusing heads, PyTorch's in_proj_weight."""

import numpy as np

from corpus import correct, predicted, wrong

# --- head_weight --------------------------------------------------------------------------


@correct("head_weight")
def head_weight_split(w, i, num_heads):
    return np.split(w, num_heads, axis=1)[i]


@correct("head_weight")
def head_weight_reshape(w, i, num_heads):
    return w.reshape(w.shape[0], num_heads, -1)[:, i, :]


@wrong("head_weight", "rows_not_columns")
def head_weight_rows(w, i, num_heads):
    d_k = w.shape[1] // num_heads
    return w[i * d_k : (i + 1) * d_k]


@wrong("head_weight", "interleaved_columns")
def head_weight_reshape_other_way(w, i, num_heads):
    return w.reshape(w.shape[0], -1, num_heads)[:, :, i]


@wrong("head_weight", "one_based")
def head_weight_counting_from_one(w, i, num_heads):
    d = w.shape[1] // num_heads
    start = (i - 1) * d  # head 1 is the first block
    return w[:, start : start + d]


@wrong("head_weight", "d_from_rows")
def head_weight_d_model_over_h(w, i, num_heads):
    d_model = w.shape[0]
    d_k = d_model // num_heads
    return w[:, i * d_k : (i + 1) * d_k]


# --- fuse_heads ---------------------------------------------------------------------------


@correct("fuse_heads")
def fuse_heads_hstack(w_heads):
    return np.hstack(w_heads)


@correct("fuse_heads")
def fuse_heads_stack_then_reshape(w_heads):
    stacked = np.stack(w_heads, axis=1)  # (d_in, h, d)
    return stacked.reshape(stacked.shape[0], -1)


@correct("fuse_heads")
def fuse_heads_fill_columns(w_heads):
    d_in, d = w_heads[0].shape
    fused = np.zeros((d_in, len(w_heads) * d), dtype=w_heads[0].dtype)
    for i, w in enumerate(w_heads):
        fused[:, i * d : (i + 1) * d] = w
    return fused


@wrong("fuse_heads", "stacked_rows")
def fuse_heads_vstack(w_heads):
    return np.vstack(w_heads)


@wrong("fuse_heads", "interleaved")
def fuse_heads_stack_last(w_heads):
    return np.stack(w_heads, axis=-1).reshape(len(w_heads[0]), -1)


@wrong("fuse_heads", "transposed")
def fuse_heads_torch_layout(w_heads):
    return np.concatenate([w.T for w in w_heads], axis=0)


@wrong("fuse_heads", "reversed")
def fuse_heads_prepend(w_heads):
    fused = w_heads[0]
    for w in w_heads[1:]:
        fused = np.concatenate([w, fused], axis=1)
    return fused


# --- split_in_proj ------------------------------------------------------------------------


@correct("split_in_proj")
def split_in_proj_chunks(in_proj_weight):
    w_q, w_k, w_v = np.split(in_proj_weight, 3)
    return w_q.T, w_k.T, w_v.T


@correct("split_in_proj")
def split_in_proj_reshape(in_proj_weight):
    d = in_proj_weight.shape[1]
    blocks = in_proj_weight.reshape(3, d, d).transpose(0, 2, 1)
    return blocks[0], blocks[1], blocks[2]


@correct("split_in_proj")
def split_in_proj_transpose_first(in_proj_weight):
    d = in_proj_weight.shape[1]
    t = in_proj_weight.T  # (d, 3d): the paper's three matrices side by side
    return t[:, :d], t[:, d : 2 * d], t[:, 2 * d :]


@wrong("split_in_proj", "no_transpose")
def split_in_proj_keep_layout(in_proj_weight):
    d = in_proj_weight.shape[1]
    return in_proj_weight[:d], in_proj_weight[d : 2 * d], in_proj_weight[2 * d :]


@wrong("split_in_proj", "order")
def split_in_proj_kqv(in_proj_weight):
    w_k, w_q, w_v = np.split(in_proj_weight, 3)
    return w_q.T, w_k.T, w_v.T


@wrong("split_in_proj", "split_columns")
def split_in_proj_side_by_side(in_proj_weight):
    return tuple(np.split(in_proj_weight, 3, axis=1))


@wrong("split_in_proj", "reshape_not_split")
def split_in_proj_reshape_rows(in_proj_weight):
    d = in_proj_weight.shape[1]
    w = in_proj_weight.reshape(d, 3, d)
    return w[:, 0], w[:, 1], w[:, 2]


# --- predict_projection_parameters ------------------------------------------------------------


@predicted("predict_projection_parameters", None)
def predicted_the_same_as_one_head():
    return 12288


@predicted("predict_projection_parameters", "full_matrices_per_head")
def predicted_sixteen_times_more():
    return 16 * 3 * 64**2


@predicted("predict_projection_parameters", "one_head")
def predicted_one_narrow_head():
    return 3 * 64 * 4


@predicted("predict_projection_parameters", "with_w_o")
def predicted_with_the_output_projection():
    return 4 * 64 * 64
