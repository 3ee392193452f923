"""Solutions to the exercises of chapter 5, masks."""

import numpy as np


def causal_mask(n_q, n_k=None):
    """bool (n_q, n_k): query i may attend keys 0 .. i + n_k - n_q."""
    n_k = n_q if n_k is None else n_k
    query_position = np.arange(n_q)[:, None] + (
        n_k - n_q
    )  # (n_q, 1), aligned bottom-right
    key_position = np.arange(n_k)[None, :]  # (1, n_k)
    return key_position <= query_position


def padding_mask(lengths, n_k):
    """bool (B, 1, 1, n_k): key j of sequence b is real when j < lengths[b]."""
    lengths = np.asarray(lengths)
    real = np.arange(n_k)[None, :] < lengths[:, None]  # (B, n_k)
    return real[:, None, None, :]  # singleton heads and queries axes


def masked_softmax(scores, mask):
    """Softmax of scores (..., n_q, n_k) over the keys True in mask; no key: zeros."""
    forbidden = np.asarray(-np.inf, dtype=scores.dtype)
    masked = np.where(mask, scores, forbidden)  # forbidden keys: exp(-inf) = 0
    peak = masked.max(axis=-1, keepdims=True)  # -inf on a row without any key
    peak = np.where(np.isfinite(peak), peak, 0)  # so -inf - peak stays -inf, never NaN
    e = np.exp(masked - peak)
    total = e.sum(axis=-1, keepdims=True)  # 0 on a row without any key
    return e / np.where(total > 0, total, 1)  # that row stays all zeros


def predict_unflipped_queries():
    """A prediction: the queries the unflipped causal mask (n = 5) leaves no key."""
    # Read as True = blocked, row i of the lower triangle blocks keys 0..i: query i
    # keeps only the keys after it. Query 4, the last, has none after it: 1 query.
    return 1


def cross_attention_weights_shape():
    """Weights' shape, mha.multi_head_attention: B = 2, h = 4, 7 queries, 11 keys."""
    batch, h, n_q, n_k = 2, 4, 7, 11
    # one (n_q, n_k) matrix per head and example: a row per query, a column per key
    return (batch, h, n_q, n_k)


def decoder_masks(target_lengths, source_lengths, n_target, n_source):
    """A decoder's self_mask (B, 1, n_t, n_t) and cross_mask (B, 1, n_t, n_s)."""
    target_real = padding_mask(
        target_lengths, n_target
    )  # (B, 1, 1, n_t): real target keys
    source_real = padding_mask(
        source_lengths, n_source
    )  # (B, 1, 1, n_s): real source keys
    self_mask = (
        causal_mask(n_target) & target_real
    )  # no future, no pads: (B, 1, n_t, n_t)
    cross_mask = np.broadcast_to(source_real, (len(source_real), 1, n_target, n_source))
    return (
        self_mask,
        cross_mask.copy(),
    )  # every target query may read every real source token
