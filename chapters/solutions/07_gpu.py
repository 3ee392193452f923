"""Solutions to the exercises of chapter 7, attention on the GPU."""

import math


def attention_weights_bytes():
    """Bytes of one layer's attention weights: B=4, h=16, n=8192, float16."""
    batch, heads, n, bytes_per_number = 4, 16, 8192, 2
    # One (n, n) matrix of weights per sequence and head: n queries times n keys.
    return batch * heads * n * n * bytes_per_number


def attention_flops(batch, n, d_model):
    """Floating-point operations of one self-attention layer's forward pass."""
    # (m, k) x (k, p): m*p dot products of k multiply-adds, 2*m*k*p operations
    projections = 4 * 2 * batch * n * d_model * d_model  # W^Q, W^K, W^V and W^O
    scores = (
        2 * batch * n * n * d_model
    )  # Q K^T, all heads together (h * d_k = d_model)
    weighted_sum = 2 * batch * n * n * d_model  # P V
    return projections + scores + weighted_sum


def longest_sequence(memory_bytes, batch, heads, bytes_per_number):
    """The largest n whose (batch, heads, n, n) weights fit in memory_bytes."""
    # batch * heads * n**2 * bytes_per_number <= memory_bytes; round the root down.
    return math.isqrt(memory_bytes // (batch * heads * bytes_per_number))


def key_block_size(batch, heads, n_q, n_k, budget_bytes, bytes_per_number):
    """Keys per block so that (batch, heads, n_q, block) scores fit the budget."""
    one_key = batch * heads * n_q * bytes_per_number  # bytes of one key's scores
    return max(
        1, min(n_k, budget_bytes // one_key)
    )  # at least 1 key, at most all of them


def predict_scores_gigabytes():
    """A prediction: GB of one layer's float32 scores, n = 16384, h = 8, B = 1."""
    # h * n^2 numbers of 4 bytes: 8 * 16384^2 * 4 = 2^33 bytes, about 8.6 GB (8 GiB).
    return 8 * 16384**2 * 4 / 1e9
