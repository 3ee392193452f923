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


def predict_untrained_redundancy():
    """A prediction: the redundancy of the untrained models' maps, before training."""
    # The embeddings and the untrained projections have entries of size about 1, so
    # a row's random scores spread by more than a unit: each untrained head is already
    # fairly sharp, on random keys of its own. Two such maps overlap only where their
    # favourites coincide: a small cosine, above 0 because weights are never negative.
    # (Trained: about 0.5.)
    return 0.3


def random_maps_experiment():
    """SCORE_STD = 10: the redundancy of 8 heads of random, sharp maps."""
    # Scores spread by 10 give nearly one-hot rows on random keys; two heads' rows pick
    # the same key about 1 time in 12, so the redundancy falls to about 0.1 with nothing
    # learnt. (SCORE_STD = 0.1 gives nearly uniform maps, and a redundancy of 0.99.) A
    # low redundancy from sharp heads is partly sharpness: read it against random maps
    # as sharp.
    return (10.0, 0.099)
