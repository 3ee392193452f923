"""Solutions to the exercises of chapter 2, linear projections."""

import numpy as np


def head_weight(w, i, num_heads):
    """Head i's block of a fused projection ``w`` (d_model, h*d): its columns."""
    d = w.shape[1] // num_heads
    return w[:, i * d : (i + 1) * d]  # (d_model, d)


def projection_parameter_count():
    """Weights in W^Q, W^K and W^V (no biases) for d_model = 512 and h = 8."""
    d_model, h = 512, 8
    d_k = d_model // h
    # Each of the three is (d_model, h * d_k) = (512, 512), whatever h is.
    return 3 * d_model * (h * d_k)


def fuse_heads(w_heads):
    """h matrices (d_in, d) side by side: the fused (d_in, h*d).

    Head i is in columns i*d:(i+1)*d.
    """
    return np.concatenate(w_heads, axis=1)


def split_in_proj(in_proj_weight):
    """PyTorch's (3*d_model, d_model) in_proj_weight as the paper's (w_q, w_k, w_v)."""
    d_model = in_proj_weight.shape[1]
    # PyTorch stacks W_q, W_k, W_v vertically, each in nn.Linear's (out, in) layout,
    # so that it computes x @ W.T: take the three row blocks and transpose each.
    w_q, w_k, w_v = (
        in_proj_weight[i * d_model : (i + 1) * d_model].T for i in range(3)
    )
    return w_q, w_k, w_v  # each (d_model, d_model), paper layout: x @ w


def predict_projection_parameters():
    """A prediction: W^Q, W^K and W^V together at d_model = 64 with h = 16 heads."""
    # d_k = 64 / 16 = 4, so each fused matrix is (d_model, h * d_k) = (64, 64): the same
    # 3 * 64**2 as with one head. More heads are narrower heads, not more weights.
    return 3 * 64 * 64
