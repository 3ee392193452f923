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
    """softmax(Q K^T / sqrt(d_k)) V, with an optional bool mask (True = may attend)."""
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(d_k)  # (..., n_q, n_k)
    if mask is None:
        weights = softmax(scores, axis=-1)
    else:
        scores = np.where(mask, scores, -np.inf)  # hidden keys get exp(-inf) = 0
        allowed = np.broadcast_to(mask, scores.shape).any(axis=-1, keepdims=True)
        # a query that may attend no key gets zero weights (its row would be 0/0 = NaN)
        weights = np.where(
            allowed, softmax(np.where(allowed, scores, 0.0), axis=-1), 0.0
        )
    return weights @ v, weights  # (..., n_q, d_v), (..., n_q, n_k)


def score_std():
    """The std of q . k for i.i.d. standard-normal q, k with d_k = 256."""
    # q . k is a sum of d_k independent products, each with mean 0 and variance 1,
    # so its variance is d_k and its standard deviation sqrt(d_k).
    d_k = 256
    return math.sqrt(d_k)


def saturated_weight():
    """Unscaled, the softmax weight of the lower of two scores 16 apart."""
    # At d_k = 256 the raw scores have standard deviation sqrt(256) = 16, so two keys
    # one standard deviation apart get scores s and s - 16; the softmax depends on the
    # difference: exp(s - 16) / (exp(s) + exp(s - 16)) = 1 / (1 + exp(16)).
    return 1 / (1 + math.exp(16))


def predict_unscaled_weight():
    """A prediction: the mean largest weight at d_k = 1024, unscaled, 32 keys."""
    # The raw scores spread with standard deviation sqrt(1024) = 32. The largest of 32
    # such scores is usually ten or more above the second, and e^10 is about 22000: the
    # softmax gives nearly all the weight to one key.
    # (With the scaling it stays near 0.16.)
    return 0.95


def scale_experiment():
    """POWER = 1 (the scores divided by d_k): the mean largest weight at d_k = 1024."""
    # Divided by d_k, the scores' standard deviation is sqrt(d_k) / d_k = 1/32: the 32
    # scores are nearly equal, every weight is close to 1/32, and the largest only a
    # little above it. The head can hardly prefer a key, and the softmax passes on
    # little gradient to learn one. (POWER = 0, no scaling, gives about 0.96: one key
    # takes almost everything.)
    return (1.0, 0.033)


def temperature_of(scores, weights):
    """T with weights = softmax(scores / T), all rows at the same temperature."""
    # log w_j = s_j / T - log(sum_l exp(s_l / T)): the second term is the same for a
    # whole row, so differences within a row cancel it, and log-weights differ by (score
    # differences) / T. Centring each row does that for every entry at once; a
    # least-squares fit gives T. A weight that underflowed to 0 has log -inf and says
    # nothing about T: leave it out.
    kept = weights > 0
    count = kept.sum(axis=-1, keepdims=True)
    s = np.where(kept, scores, 0.0)
    s = np.where(kept, s - s.sum(axis=-1, keepdims=True) / count, 0.0)
    log_w = np.where(kept, np.log(np.where(kept, weights, 1.0)), 0.0)
    log_w = np.where(kept, log_w - log_w.sum(axis=-1, keepdims=True) / count, 0.0)
    return float(np.sum(s * s) / np.sum(s * log_w))
