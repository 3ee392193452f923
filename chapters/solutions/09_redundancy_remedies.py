"""Solutions to the exercises of chapter 9, remedies for redundant heads."""

import numpy as np


def diversity_penalty(weights):
    """Redundancy of (..., h, n, n) maps: mean cosine similarity of distinct heads."""
    h = weights.shape[-3]
    maps = np.moveaxis(weights, -3, 0).reshape(
        h, -1
    )  # one row per head, batch included
    unit = maps / np.maximum(np.linalg.norm(maps, axis=1, keepdims=True), 1e-12)
    similarity = (
        unit @ unit.T
    )  # (h, h): chapter 8's head similarity, ones on the diagonal
    return float(similarity[~np.eye(h, dtype=bool)].mean())  # off the diagonal only


def moh_gates(scores, top_k):
    """MoH gates: h * softmax(scores) on each token's top_k heads, 0 elsewhere."""
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = e / e.sum(axis=-1, keepdims=True)  # over all h heads, not renormalised
    kth_largest = np.sort(scores, axis=-1)[..., -top_k, None]  # (..., n, 1)
    return h * probs * (scores >= kth_largest)
