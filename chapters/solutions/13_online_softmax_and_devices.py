"""Solutions to chapter 13's exercises: the online softmax and heads across devices."""

import math

import numpy as np


def head_parallel_all_reduce_bytes():
    """Bytes one device sends to the all-reduce: its partial output, (B, n, d_model)."""
    batch, n, d_model, bytes_per_number = 8, 2048, 4096, 2
    # a device's heads times its rows of W^O: a full-width partial output; D, h cancel
    return batch * n * d_model * bytes_per_number


def online_softmax_attention(q, k, v, block_size, causal=False):
    """softmax(q k^T / sqrt(d_k)) v, block_size keys at a time (never all scores);
    with causal=True, query i may attend keys 0..i + n_k - n_q (bottom-right)."""
    q = q / math.sqrt(q.shape[-1])
    n_q, n_k = q.shape[-2], k.shape[-2]
    last_key = np.arange(n_q)[:, None] + n_k - n_q  # (n_q, 1): the last key it sees
    running_max = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)  # (..., n_q, 1)
    running_sum = np.zeros_like(running_max)  # (..., n_q, 1)
    out = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)  # (..., n_q, d_v)
    for start in range(0, n_k, block_size):
        block = slice(start, start + block_size)
        scores = q @ np.swapaxes(k[..., block, :], -1, -2)  # (..., n_q, block)
        if causal:
            keys = np.arange(start, min(start + block_size, n_k))  # (block,)
            scores = np.where(keys <= last_key, scores, -np.inf)  # (n_q, block)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        base = np.where(np.isfinite(new_max), new_max, 0.0)  # 0 until a key is seen
        rebase = np.exp(running_max - base)  # <= 1: the old sums, on the new max
        p = np.exp(scores - base)
        running_sum = running_sum * rebase + p.sum(axis=-1, keepdims=True)
        out = out * rebase + p @ v[..., block, :]
        running_max = new_max
    attended = running_sum > 0  # False: a query that may attend no key gets zeros
    return np.where(attended, out / np.where(attended, running_sum, 1.0), 0.0)


def predict_full_attention_peak():
    """A prediction: the peak MiB of attention over whole rows, float32, n = 2048."""
    # One (2048, 2048) float32 array is 16 MiB. The scores stay alive through the
    # softmax, and each of its steps makes a new (n, n) array from the one before (the
    # shifted scores, their exponentials, the weights): three at once at the peak, the
    # scores, a step's input and its output, about 48 MiB, three times "the scores".
    return 48
