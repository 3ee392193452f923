"""Solutions to the exercises of chapter 1, scaled dot-product attention."""

import math

import numpy as np


def softmax(x, axis=-1):
    """Numerically stable softmax along ``axis``."""
    shifted = x - np.max(x, axis=axis, keepdims=True)  # the largest entry becomes 0: no overflow
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(q, k, v, mask=None):
    """softmax(Q K^T / sqrt(d_k)) V, with an optional boolean mask (True = may attend)."""
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(d_k)  # (..., n_q, n_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)  # hidden keys get exp(-inf) = 0
    weights = softmax(scores, axis=-1)
    return weights @ v, weights  # (..., n_q, d_v), (..., n_q, n_k)


def score_std():
    """The standard deviation of q . k for i.i.d. standard-normal q, k with d_k = 256."""
    # q . k is a sum of d_k independent products, each with mean 0 and variance 1,
    # so its variance is d_k and its standard deviation sqrt(d_k).
    d_k = 256
    return math.sqrt(d_k)
