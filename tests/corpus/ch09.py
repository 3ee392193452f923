"""Chapter 9: the diversity penalty, MoH gates."""

import numpy as np
import torch

from corpus import correct, wrong

# --- diversity_penalty --------------------------------------------------------------------


def _cosine(weights):
    h = weights.shape[-3]
    v = np.moveaxis(weights, -3, 0).reshape(h, -1)
    v = v / np.linalg.norm(v, axis=1, keepdims=True)
    return v @ v.T


@correct("diversity_penalty")
def penalty_off_diagonal(weights):
    sim = _cosine(weights)
    h = len(sim)
    return float(sim[~np.eye(h, dtype=bool)].mean())


@correct("diversity_penalty")
def penalty_minus_trace(weights):
    sim = _cosine(weights)
    h = len(sim)
    return (sim.sum() - np.trace(sim)) / (h * (h - 1))


@wrong("diversity_penalty", "diagonal_included")
def penalty_mean_of_all(weights):
    return _cosine(weights).mean()


@wrong("diversity_penalty", "not_normalised")
def penalty_dot_products(weights):
    h = weights.shape[-3]
    v = np.moveaxis(weights, -3, 0).reshape(h, -1)
    sim = v @ v.T
    return float(sim[~np.eye(h, dtype=bool)].mean())


@wrong("diversity_penalty", "sum_not_mean")
def penalty_sum(weights):
    sim = _cosine(weights)
    return float(np.triu(sim, 1).sum() + np.tril(sim, -1).sum())


@wrong("diversity_penalty", "heads_axis_not_moved")
def penalty_plain_reshape(weights):
    h = weights.shape[-3]
    v = weights.reshape(h, -1)
    v = v / np.linalg.norm(v, axis=1, keepdims=True)
    sim = v @ v.T
    return float(sim[~np.eye(h, dtype=bool)].mean())


# --- moh_gates ----------------------------------------------------------------------------


def _probs(scores, axis=-1):
    e = np.exp(scores - scores.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@correct("moh_gates")
def gates_put_along_axis(scores, top_k):
    h = scores.shape[-1]
    top = np.argsort(scores, axis=-1)[..., -top_k:]
    keep = np.zeros_like(scores, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return h * _probs(scores) * keep


@correct("moh_gates")
def gates_with_torch_topk(scores, top_k):
    s = torch.from_numpy(scores)
    probs = torch.softmax(s, dim=-1)
    idx = probs.topk(top_k, dim=-1).indices
    keep = torch.zeros_like(probs).scatter_(-1, idx, 1.0)
    return (s.shape[-1] * probs * keep).numpy()


@wrong("moh_gates", "renormalised")
def gates_softmax_of_the_chosen(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    chosen = np.where(scores >= kth, scores, -np.inf)
    return h * _probs(chosen)


@wrong("moh_gates", "no_factor_h")
def gates_plain_probabilities(scores, top_k):
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return _probs(scores) * (scores >= kth)


@wrong("moh_gates", "smallest_k")
def gates_argsort_front(scores, top_k):
    h = scores.shape[-1]
    chosen = np.argsort(scores, axis=-1)[..., :top_k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, chosen, True, axis=-1)
    return h * _probs(scores) * keep


@wrong("moh_gates", "hard_gates")
def gates_zero_one(scores, top_k):
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return (scores >= kth).astype(scores.dtype)


@wrong("moh_gates", "softmax_over_tokens")
def gates_softmax_wrong_axis(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return h * _probs(scores, axis=-2) * (scores >= kth)
