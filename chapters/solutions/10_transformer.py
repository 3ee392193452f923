"""Solutions to the exercises of chapter 10, MHA inside the Transformer."""

import numpy as np


def sinusoidal(n, d_model):
    """(n, d): PE[p, 2i] = sin(p / 10000^(2i/d)); PE[p, 2i+1], the same with cos."""
    p = np.arange(n)[:, None]  # (n, 1): positions from 0
    two_i = np.arange(0, d_model, 2)[None, :]  # (1, d_model/2): 2i for pair i
    angles = p / 10000.0 ** (two_i / d_model)  # (n, d_model/2)
    pe = np.empty((n, d_model))
    pe[:, 0::2] = np.sin(angles)  # even columns
    pe[:, 1::2] = np.cos(angles)  # odd columns
    return pe


def apply_rope(x, positions=None):
    """Rotate pairs (i, i + d/2) of x (..., n, d) by p * 10000^(-2i/d), in x's dtype."""
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)  # (d/2,)
    angles = p[:, None] * theta  # (n, d/2)
    cos = np.concatenate(
        [np.cos(angles)] * 2, axis=-1
    )  # (n, d): angle i at i and i + d/2
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    rotated = np.concatenate(
        [-x2, x1], axis=-1
    )  # rotate_half: a quarter turn of each pair
    return (x * cos + rotated * sin).astype(x.dtype)  # cos, sin are float64: cast back


def pre_ln_block(x, attention, norm1, feed_forward, norm2, mask=None):
    """x + MHA(LN1(x)), then + FFN(LN2(.)): each sub-layer reads a normalised copy."""
    x = x + attention(norm1(x), mask=mask)[0]  # the module returns (out, weights)
    return x + feed_forward(norm2(x))


def induction_score(weights, period):
    """Mean weight of queries i = period .. n-1 on key i - period + 1."""
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)


def predict_mean_replaced_accuracy():
    """A prediction: the accuracy with the head that reads x_0 replaced by its mean."""
    # The other head still brings x_1, but x_1 alone says nothing about the answer,
    # (x_0 - x_1) mod 5: for each x_1 the five answers are equally likely. The model can
    # only guess, and a guess among five answers is right a fifth of the time. (Half the
    # heads does not give half the accuracy: the answer needs both tokens at once.)
    return 0.2


def mask_order_experiment():
    """MASK = "causal": the largest difference from the shuffled output."""
    # A causal mask is tied to the positions: after the shuffle a token sees other
    # keys (those now before it), so its output changes, and the shuffled tokens no
    # longer give the shuffled output. The mask alone tells the model something about
    # the order, with no position code at all. ("strict" gives about 2.04: its first
    # query sees no key.)
    return ("causal", 0.883)
