"""Solutions to the exercises of chapter 3, per-head attention."""

import numpy as np


def split_heads(x, num_heads):
    """(..., n, h*d) -> (..., h, n, d): head i gets features i*d:(i+1)*d of every token."""
    *batch, n, features = x.shape
    x = np.reshape(x, (*batch, n, num_heads, features // num_heads))  # (..., n, h, d)
    return np.swapaxes(x, -3, -2)  # (..., h, n, d)


def merge_heads(x):
    """(..., h, n, d) -> (..., n, h*d): Concat(head_1, ..., head_h), the inverse of split_heads."""
    *batch, h, n, d = x.shape
    x = np.swapaxes(x, -3, -2)  # (..., n, h, d)
    return np.reshape(x, (*batch, n, h * d))


def split_heads_shape():
    """The shape of split_heads(x, 12) for x of shape (2, 10, 768)."""
    batch, n, d_model, h = 2, 10, 768, 12
    # The feature axis splits into h heads of d_model / h features; heads go before tokens.
    return (batch, h, n, d_model // h)
