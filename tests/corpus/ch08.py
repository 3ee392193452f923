"""Chapter 8: head similarity, pruning a head, gate importance."""

import dataclasses
import math

import numpy as np
import torch

import mha
from corpus import correct, predicted, wrong

# --- head_similarity ----------------------------------------------------------------------


@correct("head_similarity")
def similarity_loop(per_head):
    heads = [np.moveaxis(per_head, -3, 0)[i].ravel() for i in range(per_head.shape[-3])]
    units = [a / max(np.linalg.norm(a), 1e-12) for a in heads]
    return np.array([[a @ b for b in units] for a in units])


@correct("head_similarity")
def similarity_like_analysis(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    return unit @ unit.T


@wrong("head_similarity", "not_normalised")
def similarity_gram(per_head):
    vectors = np.moveaxis(per_head, -3, 0).reshape(per_head.shape[-3], -1)
    return vectors @ vectors.T


@wrong("head_similarity", "heads_axis_not_moved")
def similarity_plain_reshape(per_head):
    vectors = per_head.reshape(per_head.shape[-3], -1)
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return unit @ unit.T


@wrong("head_similarity", "zero_head_nan")
def similarity_unguarded(per_head):
    h = per_head.shape[-3]
    vectors = np.moveaxis(per_head, -3, 0).reshape(h, -1)
    norms = np.sqrt((vectors**2).sum(axis=1))
    return (vectors @ vectors.T) / np.outer(norms, norms)


# --- attention_without_head ---------------------------------------------------------------


def _replace(params, **changes):
    arrays = {
        n: getattr(params, n) for n in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
    }
    return mha.MHAParams(num_heads=params.num_heads, **(arrays | changes))


def _zeroed(a, index):
    a = a.copy()
    a[index] = 0.0
    return a


@correct("attention_without_head")
def without_head_rows_of_w_o(x, params, head):
    rows = slice(head * params.d_v, (head + 1) * params.d_v)
    return mha.multi_head_attention(x, x, x, _replace(params, w_o=_zeroed(params.w_o, rows)))[0]


@correct("attention_without_head")
def without_head_values_and_bias(x, params, head):
    cols = slice(head * params.d_v, (head + 1) * params.d_v)
    changes = {"w_v": _zeroed(params.w_v, (slice(None), cols))}
    if params.b_v is not None:
        changes["b_v"] = _zeroed(params.b_v, cols)
    return mha.multi_head_attention(x, x, x, _replace(params, **changes))[0]


@correct("attention_without_head")
def without_head_by_subtraction(x, params, head):
    out, _ = mha.multi_head_attention(x, x, x, _replace(params, b_o=None))
    rows = slice(head * params.d_v, (head + 1) * params.d_v)
    only_head = _replace(params, w_o=params.w_o - _zeroed(params.w_o, rows), b_o=None)
    out = out - mha.multi_head_attention(x, x, x, only_head)[0]
    return out if params.b_o is None else out + params.b_o


@wrong("attention_without_head", "queries_zeroed")
def without_head_queries(x, params, head):
    qk = slice(head * params.d_k, (head + 1) * params.d_k)
    changes = {"w_q": _zeroed(params.w_q, (slice(None), qk))}
    if params.b_q is not None:
        changes["b_q"] = _zeroed(params.b_q, qk)
    return mha.multi_head_attention(x, x, x, _replace(params, **changes))[0]


@wrong("attention_without_head", "columns_of_w_o")
def without_head_columns(x, params, head):
    cols = (slice(None), slice(head * params.d_v, (head + 1) * params.d_v))
    return mha.multi_head_attention(x, x, x, _replace(params, w_o=_zeroed(params.w_o, cols)))[0]


@wrong("attention_without_head", "value_bias_left")
def without_head_values_only(x, params, head):
    cols = (slice(None), slice(head * params.d_v, (head + 1) * params.d_v))
    return mha.multi_head_attention(x, x, x, _replace(params, w_v=_zeroed(params.w_v, cols)))[0]


@wrong("attention_without_head", "d_k_rows")
def without_head_d_k_rows(x, params, head):
    rows = slice(head * params.d_k, (head + 1) * params.d_k)
    return mha.multi_head_attention(x, x, x, _replace(params, w_o=_zeroed(params.w_o, rows)))[0]


# --- gate_importance ----------------------------------------------------------------------


@correct("gate_importance")
def importance_einsum(contributions, grad_out):
    grads = np.einsum("band,bnd->ba", contributions, grad_out)
    return np.mean(np.abs(grads), axis=0)


@correct("gate_importance")
def importance_with_autograd(contributions, grad_out):
    parts = torch.from_numpy(contributions)
    gate = torch.ones(parts.shape[:2], dtype=parts.dtype, requires_grad=True)  # (B, h)
    out = (gate[:, :, None, None] * parts).sum(1)  # (B, n, d_model)
    (out * torch.from_numpy(grad_out)).sum().backward()
    return gate.grad.abs().mean(0).numpy()


@correct("gate_importance")
def importance_loops(contributions, grad_out):
    batch, h = contributions.shape[:2]
    importance = np.zeros(h, dtype=contributions.dtype)
    for a in range(h):
        for b in range(batch):
            importance[a] += abs(np.sum(contributions[b, a] * grad_out[b])) / batch
    return importance


@wrong("gate_importance", "abs_after_mean")
def importance_mean_first(contributions, grad_out):
    return np.abs(np.einsum("band,bnd->ba", contributions, grad_out).mean(0))


@wrong("gate_importance", "no_abs")
def importance_signed(contributions, grad_out):
    return np.einsum("band,bnd->ba", contributions, grad_out).mean(0)


@wrong("gate_importance", "sum_over_examples")
def importance_total(contributions, grad_out):
    return np.abs(np.einsum("band,bnd->ba", contributions, grad_out)).sum(0)


@wrong("gate_importance", "normalised:all")
def importance_as_shares(contributions, grad_out):
    per_example = np.abs(np.einsum("band,bnd->ba", contributions, grad_out))
    return per_example.sum(0) / per_example.sum()


@wrong("gate_importance", "abs_per_entry")
def importance_abs_everything(contributions, grad_out):
    return np.abs(contributions * grad_out[:, None]).sum(axis=(2, 3)).mean(axis=0)


@wrong("gate_importance", "abs_per_position")
def importance_per_token(contributions, grad_out):
    per_token = (contributions * grad_out[:, None]).sum(-1)  # (B, h, n)
    return np.abs(per_token).sum(-1).mean(0)


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch08:0: heads to the front, flatten, divide by the norms (never by 0), one matrix product
@correct("head_similarity")
def head_similarity_heads_to_the_front_flatten_divide(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, 0)
    h = x.shape[0]
    flat = x.reshape(h, -1)
    norm = np.linalg.norm(flat, axis=1, keepdims=True)
    unit = flat / np.maximum(norm, 1e-12)
    return unit @ unit.T


# blind round 1, ch08:1: double loop over pairs of heads with math.sqrt; 0 whenever either head is all zeros
@correct("head_similarity")
def head_similarity_double_loop_over_pairs_of_heads(per_head):
    x = np.asarray(per_head, dtype=np.float64)
    h = x.shape[-3]
    vecs = [x[..., i, :, :].ravel() for i in range(h)]
    norms = [math.sqrt(float(v @ v)) for v in vecs]
    sim = np.zeros((h, h))
    for a in range(h):
        for b in range(h):
            if norms[a] > 0 and norms[b] > 0:
                sim[a, b] = float(vecs[a] @ vecs[b]) / (norms[a] * norms[b])
    return sim.astype(np.result_type(per_head, np.float32))


# blind round 1, ch08:2: einsum over every axis but the heads for the Gram matrix, then divide by the outer product of the norms where it is not 0
@correct("head_similarity")
def head_similarity_einsum_over_every_axis_but_the(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, -1)  # (..., n, f, h)
    x = x.reshape(-1, x.shape[-1])  # (everything else, h)
    gram = np.einsum("ia,ib->ab", x, x)
    norms = np.sqrt(np.diag(gram))
    denom = np.outer(norms, norms)
    return np.where(denom > 0, gram / np.where(denom > 0, denom, 1), 0)


# blind round 1, ch08:3: no guard for a zero head: 0/0 = nan in its row and column
@wrong("head_similarity", "zero_head_nan")
def head_similarity_no_guard_for_a_zero_head(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = flat / np.linalg.norm(flat, axis=1, keepdims=True)
    return unit @ unit.T


# blind round 1, ch08:4: takes the heads from axis 0 instead of -3: wrong whenever there is a batch axis
@wrong("head_similarity", "batch_axes")
def head_similarity_takes_the_heads_from_axis_0(per_head):
    x = np.asarray(per_head)
    flat = x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    return unit @ unit.T


# blind round 1, ch08:5: no normalisation: returns raw dot products (the Gram matrix)
@wrong("head_similarity", "not_normalised")
def head_similarity_no_normalisation_returns_raw_dot_products(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    return flat @ flat.T


# blind round 1, ch08:6: np.corrcoef: Pearson correlation subtracts each head's mean, which cosine similarity does not
@wrong("head_similarity", "pearson")
def head_similarity_np_corrcoef_pearson_correlation_subtracts_each(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.nan_to_num(np.corrcoef(flat))


# blind round 1, ch08:7: computes a cosine matrix per batch element and averages them, instead of flattening each head over all leading axes
@wrong("head_similarity", "averaged_per_example")
def head_similarity_computes_a_cosine_matrix_per_batch(per_head):
    x = np.asarray(per_head)
    h = x.shape[-3]
    x = x.reshape(-1, h, x.shape[-2] * x.shape[-1])  # (examples, h, n*f)
    unit = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)
    return (unit @ unit.swapaxes(-1, -2)).mean(axis=0)


# blind round 1, ch08:8: forces the diagonal to 1: a zero head gets self-similarity 1 instead of 0
@wrong("head_similarity", "diagonal_forced")
def head_similarity_forces_the_diagonal_to_1_a(per_head):
    x = np.moveaxis(np.asarray(per_head), -3, 0)
    flat = x.reshape(x.shape[0], -1)
    unit = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-12)
    sim = unit @ unit.T
    np.fill_diagonal(sim, 1.0)
    return sim


# blind round 1, ch08:9: einsum for dL/dg per example and head, abs, mean over examples
@correct("gate_importance")
def gate_importance_einsum_for_dl_dg_per_example(contributions, grad_out):
    per_example = np.einsum("bhnd,bnd->bh", contributions, grad_out)
    return np.abs(per_example).mean(axis=0)


# blind round 1, ch08:10: broadcast grad_out over the heads axis, sum positions and features, then |.| and mean
@correct("gate_importance")
def gate_importance_broadcast_grad_out_over_the_heads(contributions, grad_out):
    grads = (np.asarray(contributions) * np.asarray(grad_out)[:, None]).sum(axis=(-2, -1))  # (B, h)
    return np.mean(np.abs(grads), axis=0)


# blind round 1, ch08:11: explicit loops over examples and heads with np.vdot
@correct("gate_importance")
def gate_importance_explicit_loops_over_examples_and_heads(contributions, grad_out):
    B, h = contributions.shape[:2]
    total = np.zeros(h, dtype=np.float64)
    for b in range(B):
        for a in range(h):
            total[a] += abs(np.vdot(grad_out[b], contributions[b, a]))
    return (total / B).astype(np.result_type(contributions, grad_out))


# blind round 1, ch08:12: absolute value after the mean over examples (|E[dL/dg]| instead of E|dL/dg|)
@wrong("gate_importance", "abs_after_mean")
def gate_importance_absolute_value_after_the_mean_over(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out).mean(axis=0))


# blind round 1, ch08:13: no absolute value at all
@wrong("gate_importance", "no_abs")
def gate_importance_no_absolute_value_at_all(contributions, grad_out):
    return np.einsum("bhnd,bnd->bh", contributions, grad_out).mean(axis=0)


# blind round 1, ch08:14: takes the absolute value of every product before summing (sum |g c| instead of |sum g c|)
@wrong("gate_importance", "abs_per_entry")
def gate_importance_takes_the_absolute_value_of_every(contributions, grad_out):
    return np.abs(contributions * grad_out[:, None]).sum(axis=(2, 3)).mean(axis=0)


# blind round 1, ch08:15: sums over the examples instead of averaging
@wrong("gate_importance", "sum_over_examples")
def gate_importance_sums_over_the_examples_instead_of(contributions, grad_out):
    return np.abs(np.einsum("bhnd,bnd->bh", contributions, grad_out)).sum(axis=0)


# blind round 1, ch08:16: averages over positions and features too, instead of summing them
@wrong("gate_importance", "times:1/(n*d_model)")
def gate_importance_averages_over_positions_and_features_too(contributions, grad_out):
    grads = (contributions * grad_out[:, None]).mean(axis=(2, 3))
    return np.abs(grads).mean(axis=0)


# blind round 1, ch08:17: ignores the gradient: uses the size of each head's contribution (its norm) as the importance
@wrong("gate_importance", "contribution_norm")
def gate_importance_ignores_the_gradient_uses_the_size(contributions, grad_out):
    return np.linalg.norm(contributions.reshape(*contributions.shape[:2], -1), axis=-1).mean(axis=0)


# blind round 1, ch08:38: zero the head's rows of a copy of W^O, dataclasses.replace, call mha.multi_head_attention
@correct("attention_without_head")
def attention_without_head_zero_the_head_s_rows_of(x, params, head):
    w_o = params.w_o.copy()
    d_v = params.d_v
    w_o[head * d_v : (head + 1) * d_v] = 0
    pruned = dataclasses.replace(params, w_o=w_o)
    out, _ = mha.multi_head_attention(x, x, x, pruned)
    return out


# blind round 1, ch08:39: the full output minus that head's contribution head_i W_i^O (computed with the package's split heads)
@correct("attention_without_head")
def attention_without_head_the_full_output_minus_that_head(x, params, head):
    h, d_v = params.num_heads, params.d_v
    out, _ = mha.multi_head_attention(x, x, x, params)
    q = x @ params.w_q + (0 if params.b_q is None else params.b_q)
    k = x @ params.w_k + (0 if params.b_k is None else params.b_k)
    v = x @ params.w_v + (0 if params.b_v is None else params.b_v)
    heads, _ = mha.scaled_dot_product_attention(
        mha.split_heads(q, h), mha.split_heads(k, h), mha.split_heads(v, h)
    )
    contribution = heads[..., head, :, :] @ params.w_o[head * d_v : (head + 1) * d_v]
    return out - contribution


# blind round 1, ch08:40: multiply W^O by a 0/1 row mask (a new array) and build new MHAParams by hand
@correct("attention_without_head")
def attention_without_head_multiply_w_o_by_a_0(x, params, head):
    d_v = params.d_v
    keep = np.ones(params.w_o.shape[0], dtype=params.w_o.dtype)
    keep[head * d_v : (head + 1) * d_v] = 0
    new = mha.MHAParams(
        params.w_q,
        params.w_k,
        params.w_v,
        params.w_o * keep[:, None],
        params.num_heads,
        b_q=params.b_q,
        b_k=params.b_k,
        b_v=params.b_v,
        b_o=params.b_o,
    )
    return mha.multi_head_attention(x, x, x, new)[0]


# blind round 1, ch08:41: zeros the head's columns of W^O instead of its rows
@wrong("attention_without_head", "columns_of_w_o")
def attention_without_head_zeros_the_head_s_columns_of(x, params, head):
    w_o = params.w_o.copy()
    d_v = params.d_v
    w_o[:, head * d_v : (head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]


# blind round 1, ch08:42: zeros the head's queries (W^Q columns): the head still adds the average of its values
@wrong("attention_without_head", "queries_zeroed")
def attention_without_head_zeros_the_head_s_queries_w(x, params, head):
    w_q = params.w_q.copy()
    d_k = params.d_k
    w_q[:, head * d_k : (head + 1) * d_k] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_q=w_q))[0]


# blind round 1, ch08:43: uses d_k for the rows of W^O: wrong block when d_v != d_k
@wrong("attention_without_head", "d_k_rows")
def attention_without_head_uses_d_k_for_the_rows(x, params, head):
    w_o = params.w_o.copy()
    d = params.d_k
    w_o[head * d : (head + 1) * d] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]


# blind round 1, ch08:44: counts heads from 1: removes head - 1
@wrong("attention_without_head", "input:head-1")
def attention_without_head_counts_heads_from_1_removes_head(x, params, head):
    w_o = params.w_o.copy()
    d_v = params.d_v
    w_o[(head - 1) * d_v : head * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))[0]


# blind round 1, ch08:45: zeros the head's value columns but keeps b_v: with biases the head still adds b_v W_i^O
@wrong("attention_without_head", "value_bias_left")
def attention_without_head_zeros_the_head_s_value_columns(x, params, head):
    w_v = params.w_v.copy()
    d_v = params.d_v
    w_v[:, head * d_v : (head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_v=w_v))[0]


# blind round 1, ch08:46: also drops the output bias b_o
@wrong("attention_without_head", "input:params.b_o=None")
def attention_without_head_also_drops_the_output_bias_b(x, params, head):
    w_o = params.w_o.copy()
    d_v = params.d_v
    w_o[head * d_v : (head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o, b_o=None))[0]


# blind round 1, ch08:47: modifies params.w_o in place
@wrong("attention_without_head", None)
def attention_without_head_zeros_the_rows_of_params_w(x, params, head):
    d_v = params.d_v
    params.w_o[head * d_v : (head + 1) * d_v] = 0
    return mha.multi_head_attention(x, x, x, params)[0]


# blind round 1, ch08:48: returns a tuple
@wrong("attention_without_head", None)
def attention_without_head_right_computation_but_returns_the_out(x, params, head):
    w_o = params.w_o.copy()
    w_o[head * params.d_v : (head + 1) * params.d_v] = 0
    return mha.multi_head_attention(x, x, x, dataclasses.replace(params, w_o=w_o))


# --- predict_broad_maps_similarity: predictions as readers make them ---------------------


@predicted("predict_broad_maps_similarity", None)
def predicted_nearly_alike():
    return 0.95


@predicted("predict_broad_maps_similarity", "opposite")
def predicted_opposite_signs():
    return -1


@predicted("predict_broad_maps_similarity", "orthogonal")
def predicted_unrelated():
    return 0


@predicted("predict_broad_maps_similarity", "half")
def predicted_halfway():
    return 0.5


# --- tilt_experiment: (TILT, the similarity of the two tilted maps) ----------------------


@correct("tilt_experiment")
def tilt_experiment_half():
    return (0.5, 0.031)


@correct("tilt_experiment")
def tilt_experiment_steep():
    return (2, 0.0)


@correct("tilt_experiment")
def tilt_experiment_gentler():
    return [0.2, 0.442]


@wrong("tilt_experiment", "chapter_tilt")
def tilt_experiment_read_the_chapter_s_matrix():
    return (0.5, 0.943)


@wrong("tilt_experiment", "uniform_vs_tilted")
def tilt_experiment_read_row_zero():
    return (0.5, 0.582)


@wrong("tilt_experiment", "diagonal")
def tilt_experiment_read_the_diagonal():
    return (1, 1.0)


@wrong("tilt_experiment", "setting_unchanged")
def tilt_experiment_not_changed():
    return (0.05, 0.943)


@wrong("tilt_experiment", "not_a_pair")
def tilt_experiment_only_the_similarity():
    return 0.031


@wrong("tilt_experiment", "setting_not_allowed")
def tilt_experiment_negative_tilt():
    return (-0.5, 0.03)


@wrong("tilt_experiment", "not_that_form")
def tilt_experiment_ratio_not_similarity():
    return (0.5, 245)
