"""Solutions to the exercises of chapter 4, concat and the output projection."""

import math

import numpy as np

import mha


def multi_head_attention(q, k, v, params, mask=None):
    """MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W^O, all heads at once."""
    h = params.num_heads

    def project(x, w, b):
        return x @ w if b is None else x @ w + b

    def split(x):  # (..., n, h*d) -> (..., h, n, d)
        *batch, n, features = x.shape
        return np.swapaxes(np.reshape(x, (*batch, n, h, features // h)), -3, -2)

    q_heads = split(project(q, params.w_q, params.b_q))  # (..., h, n_q, d_k)
    k_heads = split(project(k, params.w_k, params.b_k))  # (..., h, n_k, d_k)
    v_heads = split(project(v, params.w_v, params.b_v))  # (..., h, n_k, d_v)
    d_k = q_heads.shape[-1]
    scores = (
        q_heads @ np.swapaxes(k_heads, -1, -2) / math.sqrt(d_k)
    )  # (..., h, n_q, n_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    allowed = np.isfinite(scores).any(
        axis=-1, keepdims=True
    )  # False: a query with no key
    scores = np.where(allowed, scores, 0.0)
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = np.where(
        allowed, e / np.sum(e, axis=-1, keepdims=True), 0.0
    )  # zeros, not NaN
    heads = weights @ v_heads  # (..., h, n_q, d_v)
    *batch, _, n_q, d_v = heads.shape
    concat = np.reshape(
        np.swapaxes(heads, -3, -2), (*batch, n_q, h * d_v)
    )  # (..., n_q, h*d_v)
    return project(concat, params.w_o, params.b_o), weights


def mha_parameter_count():
    """Parameters of one MHA layer, d_model = 512, h = 8, with biases."""
    d_model = 512
    # W^Q, W^K, W^V and W^O are each (512, 512) whatever h is; each has a bias of 512.
    return 4 * d_model * d_model + 4 * d_model


def head_contributions(heads, w_o):
    """Each head's term head_i W_i^O of the output.

    (..., h, n_q, d_v) -> (..., h, n_q, d_model).
    """
    h, d_v = heads.shape[-3], heads.shape[-1]
    w_o_blocks = w_o.reshape(
        h, d_v, w_o.shape[1]
    )  # (h, d_v, d_model): block i = rows i*d_v:(i+1)*d_v
    return (
        heads @ w_o_blocks
    )  # matmul pairs head i with block i; their sum over h is the output


def attention_layer(q, k, v, params, lengths=None):
    """The given layer, fixed: cross-attention with biases.

    lengths[b] real keys in sequence b.
    """
    h = params.num_heads
    q_heads = mha.split_heads(q @ params.w_q + params.b_q, h)  # (B, h, n_q, d_k)
    k_heads = mha.split_heads(k @ params.w_k + params.b_k, h)  # (B, h, n_k, d_k)
    v_heads = mha.split_heads(v @ params.w_v + params.b_v, h)  # (B, h, n_k, d_v)
    mask = None
    if lengths is not None:  # fixed: the pads are keys, so the mask runs over the keys
        real = np.arange(k.shape[-2]) < np.asarray(lengths)[:, None]  # (B, n_k)
        mask = real[:, None, None, :]  # (B, 1, 1, n_k)
    heads, weights = mha.scaled_dot_product_attention(q_heads, k_heads, v_heads, mask)
    concat = mha.merge_heads(heads)  # fixed: transpose back before the reshape
    return concat @ params.w_o + params.b_o, weights  # fixed: paper layout, no .T


def ov_matrices(params):
    """W_i^V W_i^O for every head: (h, d_model, d_model).

    What head i writes from what it reads.
    """
    h, d_v, d_model = params.num_heads, params.d_v, params.d_model
    # Head i owns columns i*d_v:(i+1)*d_v of W^V and the same rows of W^O; the reshapes
    # give every block at once, and matmul pairs block i of W^V with block i of W^O.
    w_v = np.swapaxes(params.w_v.reshape(d_model, h, d_v), 0, 1)  # (h, d_model, d_v)
    w_o = params.w_o.reshape(h, d_v, d_model)  # (h, d_v, d_model)
    return w_v @ w_o  # (h, d_model, d_model), each of rank at most d_v


def predict_head_write_rank():
    """A prediction: the rank of W_i^V W_i^O, d_model = 32, h = 4, d_v = 8."""
    # A (32, 8) matrix times an (8, 32) one: rank at most 8, and random weights reach
    # it. Each head writes into its own 8-dimensional subspace of the output.
    return 8
