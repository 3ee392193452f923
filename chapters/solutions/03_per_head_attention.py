"""Solutions to the exercises of chapter 3, per-head attention."""

import math

import numpy as np

import mha


def split_heads(x, num_heads):
    """(..., n, h*d) -> (..., h, n, d): head i gets features i*d:(i+1)*d."""
    *batch, n, features = x.shape
    x = np.reshape(x, (*batch, n, num_heads, features // num_heads))  # (..., n, h, d)
    return np.swapaxes(x, -3, -2)  # (..., h, n, d)


def merge_heads(x):
    """(..., h, n, d) -> (..., n, h*d): Concat(head_1, ..., head_h).

    The inverse of split_heads.
    """
    *batch, h, n, d = x.shape
    x = np.swapaxes(x, -3, -2)  # (..., n, h, d)
    return np.reshape(x, (*batch, n, h * d))


def split_heads_shape():
    """The shape of split_heads(x, 12) for x of shape (2, 10, 768)."""
    batch, n, d_model, h = 2, 10, 768, 12
    # The feature axis splits into h heads of d_model / h features;
    # heads go before tokens.
    return (batch, h, n, d_model // h)


def attend_heads(x, params):
    """Self-attention of every head at once.

    Returns (heads (..., h, n, d_v), weights (..., h, n, n)).
    """
    h = params.num_heads
    q = mha.split_heads(x @ params.w_q, h)  # fixed: a reshape alone mixed the tokens
    k = mha.split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = mha.split_heads(x @ params.w_v, h)  # (..., h, n, d_v)
    d_k = q.shape[-1]
    scores = (
        q @ k.swapaxes(-1, -2) / math.sqrt(d_k)
    )  # fixed: sqrt(d_k), not sqrt(d_model)
    weights = mha.softmax(scores, axis=-1)  # fixed: over the keys, not the queries
    return weights @ v, weights


def predict_unsplit_rows():
    """A prediction: head 0's rows' tokens after reshape(h, n, d_k), no transpose."""
    # token_ids is (6, 24) in row-major order; the reshape cuts that sequence of 144
    # labels into 4 * 6 rows of 6. Head 0 gets the first 36: token 0's 24 features (rows
    # 0-3) and the first 12 of token 1's (rows 4-5).
    return [0, 0, 0, 0, 1, 1]
