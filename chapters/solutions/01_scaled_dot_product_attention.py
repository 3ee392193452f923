"""Solutions to the exercises of chapter 1, scaled dot-product attention."""

import math

import numpy as np


def softmax(x, axis=-1):
    """Numerically stable softmax along ``axis``."""
    shifted = x - np.max(
        x, axis=axis, keepdims=True
    )  # the largest entry becomes 0: no overflow
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


def saturated_weight():
    """Without scaling, the softmax weight of the lower of two scores that differ by 16."""
    # At d_k = 256 the raw scores have standard deviation sqrt(256) = 16, so two keys one
    # standard deviation apart get scores s and s - 16; the softmax depends on the difference:
    # exp(s - 16) / (exp(s) + exp(s - 16)) = 1 / (1 + exp(16)).
    return 1 / (1 + math.exp(16))


def temperature_of(scores, weights):
    """T with weights = softmax(scores / T), all rows at the same temperature."""
    # log w_j = s_j / T - log(sum_l exp(s_l / T)): the second term is the same for a whole row,
    # so differences within a row cancel it, and log-weights differ by (score differences) / T.
    # Centring each row does that for every entry at once; a least-squares fit gives T.
    s = scores - scores.mean(axis=-1, keepdims=True)
    log_w = np.log(weights)
    log_w = log_w - log_w.mean(axis=-1, keepdims=True)
    return float(np.sum(s * s) / np.sum(s * log_w))
