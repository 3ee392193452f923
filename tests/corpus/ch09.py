"""Chapter 9: the diversity penalty, MoH gates."""

import itertools
import math

import numpy as np
import torch

import mha
from corpus import correct, predicted, wrong

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


@wrong("diversity_penalty", "batch_axes")
def diversity_penalty_one_batch_axis_at_most(weights):
    heads = weights if weights.ndim == 3 else np.swapaxes(weights, 0, 1)
    flat = heads.reshape(heads.shape[0], -1)
    unit = flat / np.linalg.norm(flat, axis=1, keepdims=True)
    sim = unit @ unit.T
    h = sim.shape[0]
    return float(sim[~np.eye(h, dtype=bool)].mean())


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


@wrong("moh_gates", "overflow")
def moh_gates_exp_without_the_maximum(scores, top_k):
    probs = np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)
    top = np.argsort(scores, axis=-1)[..., -top_k:]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, top, True, axis=-1)
    return np.where(keep, scores.shape[-1] * probs, 0.0)


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


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch08:18: own head_similarity, then the mean over the off-diagonal entries
def _head_similarity_diversity_penalty_own_head_similarity_then_the_mean(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return unit @ unit.T


@correct("diversity_penalty")
def diversity_penalty_own_head_similarity_then_the_mean(weights):
    sim = _head_similarity_diversity_penalty_own_head_similarity_then_the_mean(weights)
    h = sim.shape[0]
    return float(sim[~np.eye(h, dtype=bool)].mean())


# blind round 1, ch08:19: (sum of all entries - trace) / (h (h - 1)), similarity by einsum
@correct("diversity_penalty")
def diversity_penalty_sum_of_all_entries_trace_h(weights):
    x = np.moveaxis(np.asarray(weights, dtype=np.float64), -3, 0)
    h = x.shape[0]
    flat = x.reshape(h, -1)
    norms = np.linalg.norm(flat, axis=1)
    safe = np.where(norms > 0, norms, 1.0)
    unit = flat / safe[:, None]
    sim = np.einsum("ai,bi->ab", unit, unit)
    return float((sim.sum() - np.trace(sim)) / (h * (h - 1)))


# blind round 1, ch08:20: loop over the pairs a < b (the matrix is symmetric, so their mean is the same)
@correct("diversity_penalty")
def diversity_penalty_loop_over_the_pairs_a_b(weights):
    w = np.asarray(weights, dtype=np.float64)
    h = w.shape[-3]
    vecs = [w[..., a, :, :].ravel() for a in range(h)]
    sims = []
    for a, b in itertools.combinations(range(h), 2):
        na, nb = np.linalg.norm(vecs[a]), np.linalg.norm(vecs[b])
        sims.append(0.0 if na == 0 or nb == 0 else float(vecs[a] @ vecs[b] / (na * nb)))
    return sum(sims) / len(sims)


# blind round 1, ch08:21: includes the diagonal (each head compared with itself) in the mean
@wrong("diversity_penalty", "diagonal_included")
def diversity_penalty_includes_the_diagonal_each_head_compared(weights):
    x = np.moveaxis(np.asarray(weights), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return float((unit @ unit.T).mean())


# blind round 1, ch08:22: removes the diagonal but still divides by h^2
@wrong("diversity_penalty", "divided_by_h_squared")
def diversity_penalty_removes_the_diagonal_but_still_divides(weights):
    x = np.moveaxis(np.asarray(weights), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    h = sim.shape[0]
    return float((sim.sum() - np.trace(sim)) / h**2)


# blind round 1, ch08:23: uses raw dot products instead of cosine similarities
@wrong("diversity_penalty", "not_normalised")
def diversity_penalty_uses_raw_dot_products_instead_of(weights):
    x = np.moveaxis(np.asarray(weights), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    sim = flat @ flat.T
    h = sim.shape[0]
    return float(sim[~np.eye(h, dtype=bool)].mean())


# blind round 1, ch08:24: sums the off-diagonal similarities instead of averaging them
@wrong("diversity_penalty", "sum_not_mean")
def diversity_penalty_sums_the_off_diagonal_similarities_instead(weights):
    x = np.moveaxis(np.asarray(weights), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return float(sim[~np.eye(sim.shape[0], dtype=bool)].sum())


# blind round 1, ch08:25: returns the diversity 1 - similarity instead of the penalty (the similarity)
@wrong("diversity_penalty", "function:complement")
def diversity_penalty_returns_the_diversity_1_similarity_instead(weights):
    x = np.moveaxis(np.asarray(weights), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return float(1.0 - sim[~np.eye(sim.shape[0], dtype=bool)].mean())


# blind round 1, ch08:26: flattens the heads from axis 0 (the batch when there is one)
@wrong("diversity_penalty", "batch_axes")
def diversity_penalty_flattens_the_heads_from_axis_0(weights):
    w = np.asarray(weights)
    flat = w.reshape(w.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return float(sim[~np.eye(sim.shape[0], dtype=bool)].mean())


# blind round 1, ch08:27: returns np.array([value]) instead of a number
@wrong("diversity_penalty", None)
def diversity_penalty_right_value_wrapped_in_a_1(weights):
    x = np.moveaxis(np.asarray(weights), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    return np.array([sim[~np.eye(sim.shape[0], dtype=bool)].mean()])


# blind round 1, ch08:28: h * softmax over all heads, kept where the score is >= the k-th largest of its row
@correct("moh_gates")
def moh_gates_h_softmax_over_all_heads_kept(scores, top_k):
    scores = np.asarray(scores)
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, h * p, 0.0).astype(p.dtype)


# blind round 1, ch08:29: argsort for the indices of the top k, np.put_along_axis into a zero array
@correct("moh_gates")
def moh_gates_argsort_for_the_indices_of_the(scores, top_k):
    scores = np.asarray(scores)
    h = scores.shape[-1]
    gates_all = h * mha.softmax(scores, axis=-1)
    top = np.argsort(scores, axis=-1)[..., h - top_k :]
    out = np.zeros_like(gates_all)
    np.put_along_axis(out, top, np.take_along_axis(gates_all, top, axis=-1), axis=-1)
    return out


# blind round 1, ch08:30: per token in a Python loop: math.exp softmax and sorted() for the top heads
@correct("moh_gates")
def moh_gates_per_token_in_a_python_loop(scores, top_k):
    scores = np.asarray(scores)
    h = scores.shape[-1]
    out = np.zeros(scores.shape, dtype=np.result_type(scores, np.float32))
    for idx in np.ndindex(*scores.shape[:-1]):
        row = [float(s) for s in scores[idx]]
        m = max(row)
        e = [math.exp(s - m) for s in row]
        z = sum(e)
        for a in sorted(range(h), key=lambda a: row[a], reverse=True)[:top_k]:
            out[idx + (a,)] = h * e[a] / z
    return out


# blind round 1, ch08:31: renormalises the softmax over the selected heads only
@wrong("moh_gates", "renormalised")
def moh_gates_renormalises_the_softmax_over_the_selected(scores, top_k):
    h = scores.shape[-1]
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    masked = np.where(scores >= kth, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return h * e / e.sum(axis=-1, keepdims=True)


# blind round 1, ch08:32: forgets the factor h
@wrong("moh_gates", "no_factor_h")
def moh_gates_forgets_the_factor_h(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, p, 0.0)


# blind round 1, ch08:33: argsort sorts increasingly: [:top_k] keeps the k lowest-scoring heads
@wrong("moh_gates", "smallest_k")
def moh_gates_argsort_sorts_increasingly_top_k_keeps(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    g = h * e / e.sum(axis=-1, keepdims=True)
    keep = np.argsort(scores, axis=-1)[..., :top_k]
    out = np.zeros_like(g)
    np.put_along_axis(out, keep, np.take_along_axis(g, keep, axis=-1), axis=-1)
    return out


# blind round 1, ch08:34: strict > against the k-th largest score: keeps only k - 1 heads
@wrong("moh_gates", "keeps_k_minus_1")
def moh_gates_strict_against_the_k_th_largest(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    g = h * e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores > kth, g, 0.0)


# held-out round 3's class (ch09:15, not its code): the top k among the tokens
@wrong("moh_gates", "top_k_over_tokens")
def moh_gates_ranked_down_the_tokens(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    gates = h * e / e.sum(axis=-1, keepdims=True)
    rank = np.argsort(np.argsort(-scores, axis=-2), axis=-2)  # 0 = the largest in its column
    return np.where(rank < top_k, gates, 0.0)


# held-out round 2's class (ch09:14, not its code): one head more than top_k kept
@wrong("moh_gates", "keeps_k_plus_1")
def moh_gates_keeps_one_head_too_many(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    chosen = np.argsort(scores, axis=-1)[..., -(top_k + 1) :]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, chosen, True, axis=-1)
    return np.where(keep, h * e / e.sum(axis=-1, keepdims=True), 0.0)


# blind round 1, ch08:35: softmax over the tokens (axis -2) instead of over the heads
@wrong("moh_gates", "softmax_over_tokens")
def moh_gates_softmax_over_the_tokens_axis_2(scores, top_k):
    h = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    g = h * e / e.sum(axis=-2, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, g, 0.0)


# blind round 1, ch08:36: scales by top_k instead of h
@wrong("moh_gates", "times:top_k/h")
def moh_gates_scales_by_top_k_instead_of(scores, top_k):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    g = top_k * e / e.sum(axis=-1, keepdims=True)
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return np.where(scores >= kth, g, 0.0)


# blind round 1, ch08:37: returns a 0/1 selection (forgot the softmax weights)
@wrong("moh_gates", "hard_gates")
def moh_gates_returns_a_0_1_selection_forgot(scores, top_k):
    kth = np.sort(scores, axis=-1)[..., -top_k, None]
    return (scores >= kth).astype(scores.dtype)


# --- predict_untrained_redundancy: predictions as readers make them -----------------------


@predicted("predict_untrained_redundancy", None)
def predicted_sharp_random_heads():
    return 0.25


@predicted("predict_untrained_redundancy", "unrelated")
def predicted_random_means_orthogonal():
    return 0.0


@predicted("predict_untrained_redundancy", "uniform")
def predicted_untrained_maps_are_uniform():
    return 0.95


@predicted("predict_untrained_redundancy", "as_trained")
def predicted_as_much_as_trained():
    return 0.55


# --- random_maps_experiment: (SCORE_STD, the redundancy of the random maps) ---------------


@correct("random_maps_experiment")
def random_maps_sharp():
    return (10, 0.099)


@correct("random_maps_experiment")
def random_maps_nearly_uniform():
    return (0.1, 0.991)


@correct("random_maps_experiment")
def random_maps_spread_by_three():
    return [3.0, 0.16]


@wrong("random_maps_experiment", "chapter_setting")
def random_maps_read_before_the_rerun():
    return (10, 0.496)


@wrong("random_maps_experiment", "entropy_read")
def random_maps_read_the_entropy():
    return (3, 1.024)


@wrong("random_maps_experiment", "largest_weight_read")
def random_maps_read_the_largest_weight():
    return (10, 0.886)


@wrong("random_maps_experiment", "setting_unchanged")
def random_maps_not_changed():
    return (1.0, 0.496)


@wrong("random_maps_experiment", "not_a_pair")
def random_maps_only_the_redundancy():
    return 0.099


@wrong("random_maps_experiment", "setting_not_allowed")
def random_maps_spread_out_of_range():
    return (100, 0.085)


@wrong("random_maps_experiment", "not_that_form")
def random_maps_redundancy_in_words():
    return (10, "low")


# recurring in the held-out rounds (development data)
@wrong("diversity_penalty", "per_query_row")
def diversity_penalty_row_by_row(weights):
    h = weights.shape[-3]
    rows = np.swapaxes(weights, -3, -2).reshape(-1, h, weights.shape[-1])  # (.., h, n_k)
    rows = rows / np.maximum(np.linalg.norm(rows, axis=-1, keepdims=True), 1e-12)
    cosines = np.einsum("rak,rbk->ab", rows, rows) / len(rows)
    return float((cosines.sum() - np.trace(cosines)) / (h * (h - 1)))


@wrong("diversity_penalty", "per_example")
def diversity_penalty_example_by_example(weights):
    h = weights.shape[-3]
    per_example = weights.reshape(-1, h, weights.shape[-2] * weights.shape[-1])
    scores = []
    for maps in per_example:
        unit = maps / np.maximum(np.linalg.norm(maps, axis=1, keepdims=True), 1e-12)
        c = unit @ unit.T
        scores.append(c[~np.eye(h, dtype=bool)].mean())
    return float(np.mean(scores))
