"""Chapter 1: softmax, scaled dot-product attention, the temperature, the two numbers."""

import math

import numpy as np
import torch

import mha
from corpus import correct, predicted, wrong

# --- softmax ------------------------------------------------------------------------------


@correct("softmax")
def softmax_d2l(X, axis=-1):
    X_exp = np.exp(X - X.max(axis=axis, keepdims=True))
    partition = X_exp.sum(axis=axis, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here


@correct("softmax")
def softmax_logsumexp(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    log_z = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - log_z)


@correct("softmax")
def softmax_move_axis_last(x, axis=-1):
    x = np.moveaxis(x, axis, -1)
    shifted = x - x.max(-1)[..., None]
    out = np.exp(shifted) / np.exp(shifted).sum(-1)[..., None]
    return np.moveaxis(out, -1, axis)


@correct("softmax")
def softmax_row_by_row(x, axis=-1):
    def one_row(row):
        e = [math.exp(v - max(row)) for v in row]
        return [v / sum(e) for v in e]

    return np.apply_along_axis(lambda r: np.array(one_row(r), dtype=x.dtype), axis, x)


@wrong("softmax", "wrong_axis")
def softmax_columns(X, axis=-1):
    X_exp = np.exp(X - X.max(0, keepdims=True))
    return X_exp / X_exp.sum(0, keepdims=True)


# held-out rounds 2 and 3's class (ch01:5, ch01:3, not their code): one step on the last axis
@wrong("softmax", "max_ignores_axis")
def softmax_guard_on_the_last_axis(x, axis=-1):
    shifted = x - x.max(-1, keepdims=True)
    return np.exp(shifted) / np.exp(shifted).sum(axis, keepdims=True)


@wrong("softmax", "sum_ignores_axis")
def softmax_total_on_the_last_axis(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@wrong("softmax", "ignores_axis")
def softmax_rows_only(x, axis=-1):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


@wrong("softmax", "whole_array")
def softmax_no_axis(x, axis=-1):
    e = np.exp(x - x.max())
    return e / e.sum()


@wrong("softmax", "missing_keepdims")
def softmax_forgot_keepdims(x, axis=-1):
    e = np.exp(x - x.max(axis=axis))
    return e / e.sum(axis=axis)


@wrong("softmax", "unstable_softmax")
def softmax_textbook(x, axis=-1):
    return np.exp(x) / np.sum(np.exp(x), axis=axis, keepdims=True)


@wrong("softmax", "unstable_softmax")
def softmax_expm(x, axis=-1):
    numerator = np.exp(x)
    denominator = numerator.sum(axis, keepdims=True)
    return numerator / denominator


@wrong("softmax", "denominator_unshifted")
def softmax_shift_on_top_only(x, axis=-1):
    top = np.exp(x - x.max(axis=axis, keepdims=True))
    return top / np.exp(x).sum(axis=axis, keepdims=True)


@wrong("softmax", "global_max_shift")
def softmax_shift_once(x, axis=-1):
    e = np.exp(x - np.max(x))  # shift by the largest entry so nothing overflows
    return e / e.sum(axis=axis, keepdims=True)


# --- scaled dot-product attention ---------------------------------------------------------


def _softmax(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@wrong("scaled_dot_product_attention", "masked_rows")
def attention_like_the_book(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])  # (..., n_q, n_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "masked_rows")
def attention_einsum_additive_mask(q, k, v, mask=None):
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -1e9).astype(q.dtype)
    weights = _softmax(scores)
    return np.einsum("...qk,...kd->...qd", weights, v), weights


@wrong("scaled_dot_product_attention", "masked_rows")
def attention_masked_fill(q, k, v, mask=None):
    d_k = k.shape[-1]
    scores = np.matmul(q, np.swapaxes(k, -2, -1)) / d_k**0.5
    if mask is not None:
        scores = scores.copy()
        scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
    p_attn = _softmax(scores)
    return np.matmul(p_attn, v), p_attn


@wrong("scaled_dot_product_attention", "masked_rows")
def attention_loop_over_batch(q, k, v, mask=None):
    *batch, n_q, d = q.shape
    n_k = k.shape[-2]
    allowed = (
        np.ones((*batch, n_q, n_k), bool)
        if mask is None
        else np.broadcast_to(mask, (*batch, n_q, n_k))
    )
    flat = [a.reshape(-1, *a.shape[-2:]) for a in (q, k, v, allowed)]
    outs, weights = [], []
    for qi, ki, vi, mi in zip(*flat, strict=True):
        s = np.where(mi, qi @ ki.T / math.sqrt(d), -np.inf)
        w = _softmax(s)
        outs.append(w @ vi)
        weights.append(w)
    return np.array(outs).reshape(*batch, n_q, -1), np.array(weights).reshape(*batch, n_q, n_k)


@wrong("scaled_dot_product_attention", "masked_rows")
def attention_mask_then_renormalise(q, k, v, mask=None):
    weights = _softmax(q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1]))
    if mask is not None:
        weights = weights * mask
        weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "no_scaling")
def attention_forgot_scale(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "scale_by_d_k")
def attention_divide_by_d(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / q.shape[-1]
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "scale_by_d_v")
def attention_scale_by_value_size(q, k, v, mask=None):
    d = v.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "scale_by_n_k")
def attention_scale_by_sequence_length(q, k, v, mask=None):
    seq_len = k.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(seq_len)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "softmax_wrong_axis")
def attention_softmax_axis_0(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=0, keepdims=True))
    weights = e / e.sum(axis=0, keepdims=True)  # rows of the (n_q, n_k) matrix...
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "softmax_wrong_axis")
def attention_softmax_over_queries(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    weights = e / e.sum(axis=-2, keepdims=True)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "softmax_whole_matrix")
def attention_one_softmax(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=(-2, -1), keepdims=True))
    weights = e / e.sum(axis=(-2, -1), keepdims=True)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "unstable_softmax")
def attention_plain_exp(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = np.exp(scores) / np.exp(scores).sum(-1, keepdims=True)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "scores_returned")
def attention_returns_scores(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return _softmax(scores) @ v, scores


@wrong("scaled_dot_product_attention", "mask_after_softmax")
def attention_zero_weights_after(q, k, v, mask=None):
    weights = _softmax(q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1]))
    if mask is not None:
        weights = np.where(mask, weights, 0.0)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "mask_ignored")
def attention_no_mask(q, k, v, mask=None):
    weights = _softmax(q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1]))
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "mask_inverted")
def attention_mask_true_hides(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -1e9, scores)  # mask out the masked positions
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "mask_multiplied")
def attention_mask_times_scores(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores * mask
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "mask_leak")
def attention_bool_mask_added(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask  # the additive mask of the paper
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "mask_not_broadcast")
def attention_boolean_indexing(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores[~mask] = -np.inf
    weights = _softmax(scores)
    return weights @ v, weights


@wrong("scaled_dot_product_attention", "k_not_transposed")
def attention_forgot_transpose(q, k, v, mask=None):
    scores = q @ k / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax(scores)
    return weights @ v, weights


# --- the temperature ----------------------------------------------------------------------


@wrong("temperature_of", "log_of_zero")
def temperature_two_entries(scores, weights):
    s, w = scores.reshape(-1, scores.shape[-1]), weights.reshape(-1, weights.shape[-1])
    return (s[0, 0] - s[0, 1]) / (np.log(w[0, 0]) - np.log(w[0, 1]))


@wrong("temperature_of", "log_of_zero")
def temperature_every_row(scores, weights):
    ds = scores - scores[..., :1]
    dlog = np.log(weights) - np.log(weights[..., :1])
    return float(np.mean(ds[..., 1:] / dlog[..., 1:]))


@wrong("temperature_of", "log_of_zero")
def temperature_largest_and_smallest(scores, weights):
    row_s, row_w = (
        scores.reshape(-1, scores.shape[-1])[0],
        weights.reshape(-1, weights.shape[-1])[0],
    )
    hi, lo = row_s.argmax(), row_s.argmin()
    return (row_s[hi] - row_s[lo]) / math.log(row_w[hi] / row_w[lo])


@wrong("temperature_of", "inverse")
def temperature_upside_down(scores, weights):
    ds = scores[..., 1] - scores[..., 0]
    dlog = np.log(weights[..., 1]) - np.log(weights[..., 0])
    return float(np.mean(dlog / ds))


@wrong("temperature_of", "log_base")
def temperature_log10(scores, weights):
    s, w = scores.reshape(-1, scores.shape[-1]), weights.reshape(-1, weights.shape[-1])
    return (s[0, 0] - s[0, 1]) / (np.log10(w[0, 0]) - np.log10(w[0, 1]))


@wrong("temperature_of", "sign")
def temperature_negative(scores, weights):
    s, w = scores.reshape(-1, scores.shape[-1]), weights.reshape(-1, weights.shape[-1])
    return (s[0, 1] - s[0, 0]) / (np.log(w[0, 0]) - np.log(w[0, 1]))


@wrong("temperature_of", "scores_not_centred")
def temperature_log_weights_centred_only(scores, weights):
    m = weights > 0
    lw = np.log(weights, where=m, out=np.zeros_like(weights))
    lw = (lw - lw.sum(-1, keepdims=True) / m.sum(-1, keepdims=True)) * m
    kept_scores = scores * m
    return float((kept_scores**2).sum() / (kept_scores * lw).sum())


@wrong("temperature_of", "ignores_normaliser")
def temperature_one_entry(scores, weights):
    # weights = exp(scores / T)  =>  T = scores / log(weights)
    return float(np.mean(scores / np.log(weights)))


# --- the two numbers ----------------------------------------------------------------------


@correct("score_std")
def score_std():
    return math.sqrt(256)


@correct("score_std")
def score_std_by_experiment():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 20_000, 256))
    return float(np.std(np.sum(q * k, axis=-1)))


@wrong("score_std", "variance")
def score_std_variance():
    return 256


@wrong("score_std", "std_one")
def score_std_scaled():
    return 256 / math.sqrt(256) / math.sqrt(256)


@correct("saturated_weight")
def saturated_weight():
    return 1 / (1 + math.exp(16))


@correct("saturated_weight")
def saturated_weight_by_softmax():
    scores = np.array([16.0, 0.0])
    e = np.exp(scores - scores.max())
    return (e / e.sum())[1]


@wrong("saturated_weight", "larger_weight")
def saturated_weight_of_the_winner():
    return math.exp(16) / (math.exp(16) + 1)


@wrong("saturated_weight", "scaled")
def saturated_weight_scaled():
    return 1 / (1 + math.exp(16 / math.sqrt(256)))


# --- predict_unscaled_weight: predictions as readers make them --------------------------------


@predicted("predict_unscaled_weight", None)
def predicted_nearly_one():
    return 0.9


@predicted("predict_unscaled_weight", "uniform")
def predicted_equal_weights():
    return 1 / 32


@predicted("predict_unscaled_weight", "half")
def predicted_two_keys_share():
    return 0.5


@predicted("predict_unscaled_weight", "as_if_scaled")
def predicted_as_with_the_scaling():
    return 0.2


# --- scale_experiment: (POWER, the mean largest weight at d_k = 1024) -------------------------


@correct("scale_experiment")
def scale_experiment_divided_by_d_k():
    return (1, 0.033)


@correct("scale_experiment")
def scale_experiment_unscaled():
    return (0.0, 0.96)


@correct("scale_experiment")
def scale_experiment_quarter_power():
    return [0.25, 0.74]


@wrong("scale_experiment", "scaled_curve")
def scale_experiment_read_the_book_s_row():
    return (1.0, 0.16)


@wrong("scale_experiment", "unscaled_curve")
def scale_experiment_read_the_figure():
    return (0.75, 0.96)


@wrong("scale_experiment", "smallest_head")
def scale_experiment_read_the_first_row():
    return (1.0, 0.14)


@wrong("scale_experiment", "setting_unchanged")
def scale_experiment_not_changed():
    return (0.5, 0.16)


@wrong("scale_experiment", "not_a_pair")
def scale_experiment_only_the_weight():
    return 0.033


@wrong("scale_experiment", "setting_not_allowed")
def scale_experiment_power_out_of_range():
    return (2, 0.03)


@wrong("scale_experiment", "not_that_form")
def scale_experiment_weight_as_words():
    return (1, "about 1/32")


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch01:0: move the axis to the end, subtract the row max, exp, divide, move it back
@correct("softmax")
def softmax_move_the_axis_to_the_end(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    shifted = moved - moved.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    out = e / e.sum(axis=-1, keepdims=True)
    return np.moveaxis(out, -1, axis)


# blind round 1, ch01:1: log-sum-exp form: exp(x - (m + log sum exp(x - m))), computed in float64 and cast back
@correct("softmax")
def softmax_log_sum_exp_form_exp_x(x, axis=-1):
    x = np.asarray(x)
    out_dtype = x.dtype if np.issubdtype(x.dtype, np.floating) else np.float64
    z = x.astype(np.float64)
    m = np.max(z, axis=axis, keepdims=True)
    log_norm = m + np.log(np.sum(np.exp(z - m), axis=axis, keepdims=True))
    return np.exp(z - log_norm).astype(out_dtype)


# blind round 1, ch01:2: explicit Python loop over every 1-D slice along the axis, with math.exp
@correct("softmax")
def softmax_explicit_python_loop_over_every_1(x, axis=-1):
    x = np.asarray(x)
    moved = np.moveaxis(x, axis, -1)
    out = np.empty_like(
        moved, dtype=moved.dtype if np.issubdtype(moved.dtype, np.floating) else float
    )
    for idx in np.ndindex(*moved.shape[:-1]):
        row = moved[idx]
        top = max(float(v) for v in row)
        exps = [math.exp(float(v) - top) for v in row]
        total = sum(exps)
        out[idx] = [e / total for e in exps]
    return np.moveaxis(out, -1, axis)


# blind round 1, ch01:3: naive softmax: no maximum subtracted, so exp overflows for scores like 1000 and gives nan
@wrong("softmax", "unstable_softmax")
def softmax_naive_softmax_no_maximum_subtracted_so(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


# blind round 1, ch01:4: subtracts the global maximum of the whole array instead of each slice's maximum: a row whose scores are far below the global max underflows to 0/0 = nan
@wrong("softmax", "global_max_shift")
def softmax_subtracts_the_global_maximum_of_the(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / e.sum(axis=axis, keepdims=True)


# blind round 1, ch01:5: max taken without keepdims, so it broadcasts along the wrong axis (subtracts row j's max from column j); only runs when the shapes happen to broadcast, e.g. square arrays
@wrong("softmax", "missing_keepdims")
def softmax_max_taken_without_keepdims_so_it(x, axis=-1):
    shifted = x - x.max(axis=axis)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


# blind round 1, ch01:6: ignores the axis argument: always normalises over the last axis
@wrong("softmax", "ignores_axis")
def softmax_ignores_the_axis_argument_always_normalises(x, axis=-1):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# blind round 1, ch01:7: normalises by the sum over the whole array, not along the axis: the whole array sums to 1 instead of each slice
@wrong("softmax", "whole_array")
def softmax_normalises_by_the_sum_over_the(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e)


# blind round 1, ch01:8: returns the log-softmax (x - logsumexp): forgot the final exp
@wrong("softmax", "function:log")
def softmax_returns_the_log_softmax_x_logsumexp(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


# blind round 1, ch01:9: x -= ... and np.exp(x, out=x) modify the argument in place
@wrong("softmax", None)
def softmax_right_values_but_subtracts_the_maximum(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= np.sum(x, axis=axis, keepdims=True)
    return x


# blind round 1, ch01:10: returns e.tolist(): a list, not an array of the same shape
@wrong("softmax", None)
def softmax_right_values_returned_as_a_nested(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).tolist()


# blind round 1, ch01:11: einsum for both products, np.where for the mask, a stable softmax that gives zero weights to fully masked rows
@correct("scaled_dot_product_attention")
def scaled_dot_product_attention_einsum_for_both_products_np_where(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0).astype(scores.dtype)
    out = np.einsum("...qk,...kd->...qd", weights, v)
    return out, weights


# blind round 1, ch01:12: matmul with np.swapaxes and the package's mha.softmax (which handles all -inf rows)
@correct("scaled_dot_product_attention")
def scaled_dot_product_attention_matmul_with_np_swapaxes_and_the(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]).astype(q.dtype)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf).astype(scores.dtype)
    weights = mha.softmax(scores, axis=-1)
    return weights @ v, weights


# blind round 1, ch01:13: broadcast the batch axes explicitly and loop over every (query matrix, key matrix) pair with 2-D products
@correct("scaled_dot_product_attention")
def scaled_dot_product_attention_broadcast_the_batch_axes_explicitly_and(q, k, v, mask=None):
    n_q, d_k = q.shape[-2:]
    n_k, d_v = v.shape[-2:]
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        batch = np.broadcast_shapes(batch, mask.shape[:-2])
        mask = np.broadcast_to(mask, batch + (n_q, n_k))
    qb = np.broadcast_to(q, batch + (n_q, d_k))
    kb = np.broadcast_to(k, batch + (n_k, d_k))
    vb = np.broadcast_to(v, batch + (n_k, d_v))
    dtype = np.result_type(q, k, v)
    out = np.zeros(batch + (n_q, d_v), dtype=dtype)
    weights = np.zeros(batch + (n_q, n_k), dtype=dtype)
    for idx in np.ndindex(*batch):
        s = qb[idx] @ kb[idx].T / np.sqrt(d_k)
        allowed = np.ones_like(s, dtype=bool) if mask is None else mask[idx]
        for i in range(n_q):
            if not allowed[i].any():
                continue
            row = s[i][allowed[i]]
            e = np.exp(row - row.max())
            w = np.zeros(n_k, dtype=dtype)
            w[allowed[i]] = e / e.sum()
            weights[idx][i] = w
        out[idx] = weights[idx] @ vb[idx]
    return out, weights


# blind round 1, ch01:14: softmax over axis -2 (the queries) instead of the keys
def _softmax_scaled_dot_product_attention_softmax_over_axis_2_the_queries(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@wrong("scaled_dot_product_attention", "softmax_wrong_axis")
def scaled_dot_product_attention_softmax_over_axis_2_the_queries(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax_scaled_dot_product_attention_softmax_over_axis_2_the_queries(scores, axis=-2)
    return weights @ v, weights


# blind round 1, ch01:15: divides the scores by d_k instead of sqrt(d_k)
def _softmax_scaled_dot_product_attention_divides_the_scores_by_d_k(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@wrong("scaled_dot_product_attention", "scale_by_d_k")
def scaled_dot_product_attention_divides_the_scores_by_d_k(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / q.shape[-1]
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax_scaled_dot_product_attention_divides_the_scores_by_d_k(scores)
    return weights @ v, weights


# blind round 1, ch01:16: scales by sqrt of the value width d_v (v.shape[-1]) instead of d_k; only differs when d_v != d_k
def _softmax_scaled_dot_product_attention_scales_by_sqrt_of_the_value(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@wrong("scaled_dot_product_attention", "scale_by_d_v")
def scaled_dot_product_attention_scales_by_sqrt_of_the_value(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(v.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax_scaled_dot_product_attention_scales_by_sqrt_of_the_value(scores)
    return weights @ v, weights


# blind round 1, ch01:17: transposes k with .T, which reverses all axes: fine for 2-D inputs, wrong (or a shape error) with batch axes
def _softmax_scaled_dot_product_attention_transposes_k_with_t_which_reverses(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@wrong("scaled_dot_product_attention", "transpose_with_T")
def scaled_dot_product_attention_transposes_k_with_t_which_reverses(q, k, v, mask=None):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax_scaled_dot_product_attention_transposes_k_with_t_which_reverses(scores)
    return weights @ v, weights


# blind round 1, ch01:18: applies the mask after the softmax (weights * mask): masked weights are 0 but the rows no longer sum to 1
def _softmax_scaled_dot_product_attention_applies_the_mask_after_the_softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@wrong("scaled_dot_product_attention", "mask_after_softmax")
def scaled_dot_product_attention_applies_the_mask_after_the_softmax(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = _softmax_scaled_dot_product_attention_applies_the_mask_after_the_softmax(scores)
    if mask is not None:
        weights = weights * mask
    return weights @ v, weights


# blind round 1, ch01:19: mask polarity inverted: puts -inf where the mask is True (allowed)
def _softmax_scaled_dot_product_attention_mask_polarity_inverted_puts_inf_where(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@wrong("scaled_dot_product_attention", "mask_inverted")
def scaled_dot_product_attention_mask_polarity_inverted_puts_inf_where(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    weights = _softmax_scaled_dot_product_attention_mask_polarity_inverted_puts_inf_where(scores)
    return weights @ v, weights


# blind round 1, ch01:20: a query whose keys are all masked gets nan weights and a nan output (-inf - (-inf)); the book's convention is zero weights and a zero output
@wrong("scaled_dot_product_attention", "masked_rows")
def scaled_dot_product_attention_a_query_whose_keys_are_all(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights


# blind round 1, ch01:21: masks with a large negative number added to the scores (-1e9) instead of -inf: a fully masked row becomes uniform instead of zeros (and in float16 -1e9 is -inf anyway)
@wrong("scaled_dot_product_attention", "masked_rows")
def scaled_dot_product_attention_masks_with_a_large_negative_number(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -1e9)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights


# blind round 1, ch01:22: returns (weights, out) in the wrong order
@wrong("scaled_dot_product_attention", "outputs_swapped")
def scaled_dot_product_attention_returns_weights_out_in_the_wrong(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = mha.softmax(scores)
    return weights, weights @ v


# blind round 1, ch01:24: returns torch.Tensor objects (float64 on the way through) where arrays are expected
@wrong("scaled_dot_product_attention", None)
def scaled_dot_product_attention_goes_through_torch_and_returns_torch(q, k, v, mask=None):
    qt, kt, vt = (torch.as_tensor(a) for a in (q, k, v))
    scores = qt @ kt.transpose(-1, -2) / qt.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~torch.as_tensor(mask), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ vt, weights


# blind round 1, ch01:25: least squares through the origin on differences from each row's largest weight, skipping weights that underflowed to 0
@correct("temperature_of")
def temperature_of_least_squares_through_the_origin_on(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    ref = np.argmax(w, axis=-1)[..., None]
    ds = s - np.take_along_axis(s, ref, axis=-1)
    with np.errstate(divide="ignore"):
        lw = np.log(w)
    dl = lw - np.take_along_axis(lw, ref, axis=-1)
    ok = np.isfinite(dl) & (w > 1e-300)
    inv_t = np.sum(ds[ok] * dl[ok]) / np.sum(ds[ok] ** 2)
    return float(1.0 / inv_t)


# blind round 1, ch01:26: centre the scores and the log-weights per row (the normaliser cancels) and regress; float64 throughout
@correct("temperature_of")
def temperature_of_centre_the_scores_and_the_log(scores, weights):
    s = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1])
    w = np.asarray(weights, dtype=np.float64).reshape(s.shape)
    num, den = 0.0, 0.0
    for srow, wrow in zip(s, w):
        keep = wrow > 0
        if keep.sum() < 2:
            continue
        a = srow[keep] - srow[keep].mean()
        b = np.log(wrow[keep]) - np.log(wrow[keep]).mean()
        num += float(a @ a)
        den += float(a @ b)
    return num / den


# blind round 1, ch01:27: per row, the two entries with the largest and smallest non-zero weight give one estimate with math.log; the median over rows
@correct("temperature_of")
def temperature_of_per_row_the_two_entries_with(scores, weights):
    s = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1])
    w = np.asarray(weights, dtype=np.float64).reshape(s.shape)
    estimates = []
    for srow, wrow in zip(s, w):
        ok = np.flatnonzero(wrow > 0)
        hi = ok[np.argmax(wrow[ok])]
        lo = ok[np.argmin(wrow[ok])]
        if srow[hi] == srow[lo]:
            continue
        estimates.append((srow[hi] - srow[lo]) / (math.log(wrow[hi]) - math.log(wrow[lo])))
    return float(np.median(estimates))


# blind round 1, ch01:28: returns 1/T (the slope of log w against s) instead of T
@wrong("temperature_of", "inverse")
def temperature_of_returns_1_t_the_slope_of(scores, weights):
    s = np.asarray(scores, dtype=float)
    lw = np.log(np.asarray(weights, dtype=float))
    a = s - s.mean(axis=-1, keepdims=True)
    b = lw - lw.mean(axis=-1, keepdims=True)
    return float(np.sum(a * b) / np.sum(a * a))


# blind round 1, ch01:29: ignores the normaliser: takes log w = s / T for a single entry, T = s / log w
@wrong("temperature_of", "ignores_normaliser")
def temperature_of_ignores_the_normaliser_takes_log_w(scores, weights):
    s = np.asarray(scores, dtype=float).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    return float(s[0] / np.log(w[0]))


# blind round 1, ch01:30: uses log10 instead of the natural logarithm: T comes out ln(10) = 2.30 times too large
@wrong("temperature_of", "log_base")
def temperature_of_uses_log10_instead_of_the_natural(scores, weights):
    s = np.asarray(scores, dtype=float)
    lw = np.log10(np.asarray(weights, dtype=float))
    a = s - s.mean(axis=-1, keepdims=True)
    b = lw - lw.mean(axis=-1, keepdims=True)
    return float(np.sum(a * a) / np.sum(a * b))


# blind round 1, ch01:31: takes differences between rows (axis 0) instead of within a row: each row has its own normaliser, so it does not cancel
@wrong("temperature_of", "across_rows")
def temperature_of_takes_differences_between_rows_axis_0(scores, weights):
    s = np.asarray(scores, dtype=float).reshape(-1, np.shape(scores)[-1])
    lw = np.log(np.asarray(weights, dtype=float)).reshape(s.shape)
    ds = s - s[:1]
    dl = lw - lw[:1]
    ds, dl = ds[1:], dl[1:]
    return float(np.sum(ds * ds) / np.sum(ds * dl))


# blind round 1, ch01:32: assumes the temperature is sqrt(d) of the last axis, sqrt(n), without looking at the weights
@wrong("temperature_of", "sqrt_of_size")
def temperature_of_assumes_the_temperature_is_sqrt_d(scores, weights):
    return math.sqrt(np.shape(scores)[-1])


# blind round 1, ch01:33: no guard for weights that underflowed to 0: log(0) = -inf poisons the estimate (T becomes 0 or nan when T is small or scores are spread)
@wrong("temperature_of", "log_of_zero")
def temperature_of_no_guard_for_weights_that_underflowed(scores, weights):
    s = np.asarray(scores, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        lw = np.log(np.asarray(weights, dtype=np.float64))
        a = s - s.mean(axis=-1, keepdims=True)
        b = lw - lw.mean(axis=-1, keepdims=True)
        return float(np.sum(a * a) / np.sum(a * b))


# blind round 1, ch01:34: returns an array of per-row estimates, not a number
@wrong("temperature_of", None)
def temperature_of_one_temperature_per_row_returned_as(scores, weights):
    s = np.asarray(scores, dtype=float)
    lw = np.log(np.asarray(weights, dtype=float))
    a = s - s.mean(axis=-1, keepdims=True)
    b = lw - lw.mean(axis=-1, keepdims=True)
    return np.sum(a * a, axis=-1) / np.sum(a * b, axis=-1)


# blind round 1, ch01:35: divide numerator and denominator by e^s: 1 / (1 + e^16)
@correct("saturated_weight")
def saturated_weight_divide_numerator_and_denominator_by_e():
    saturated_weight = 1 / (1 + math.exp(16))
    return saturated_weight


# blind round 1, ch01:36: the package's softmax on the two scores (16, 0), the lower one's weight as a float
@correct("saturated_weight")
def saturated_weight_the_package_s_softmax_on_the():
    saturated_weight = float(mha.softmax(np.array([16.0, 0.0]))[1])
    return saturated_weight


# blind round 1, ch01:37: e^-16 / (1 + e^-16) with numpy
@correct("saturated_weight")
def saturated_weight_e_16_1_e_16_with():
    saturated_weight = float(np.exp(-16.0) / (1.0 + np.exp(-16.0)))
    return saturated_weight


# blind round 1, ch01:38: gives the weight of the key with the higher score
@wrong("saturated_weight", "larger_weight")
def saturated_weight_gives_the_weight_of_the_key():
    saturated_weight = 1 / (1 + math.exp(-16))
    return saturated_weight


# blind round 1, ch01:39: applies the 1/sqrt(d_k) scaling the question removes: difference 16/16 = 1
@wrong("saturated_weight", "scaled")
def saturated_weight_applies_the_1_sqrt_d_k():
    saturated_weight = 1 / (1 + math.exp(16 / math.sqrt(256)))
    return saturated_weight


# blind round 1, ch01:40: answers as a percentage (x100)
@wrong("saturated_weight", "times:100")
def saturated_weight_answers_as_a_percentage_x100():
    saturated_weight = 100 / (1 + math.exp(16))
    return saturated_weight


# blind round 1, ch01:41: gives the log of the weight, -16 - log(1 + e^-16)
@wrong("saturated_weight", "function:log")
def saturated_weight_gives_the_log_of_the_weight():
    saturated_weight = -16 - math.log(1 + math.exp(-16))
    return saturated_weight


# blind round 1, ch01:42: uses the variance 256 as the score difference instead of the standard deviation 16
@wrong("saturated_weight", "variance_difference")
def saturated_weight_uses_the_variance_256_as_the():
    saturated_weight = 1 / (1 + math.exp(256))
    return saturated_weight


# blind round 1, ch01:43: assigns the string '1/(1+e^16)'
@wrong("saturated_weight", None)
def saturated_weight_the_formula_typed_as_a_string():
    saturated_weight = "1/(1+e^16)"
    return saturated_weight


# blind round 1, ch01:44: variance d_k = 256, standard deviation its square root
@correct("score_std")
def score_std_variance_d_k_256_standard_deviation():
    score_std = math.sqrt(256)
    return score_std


# blind round 1, ch01:45: the number itself, as an int
@correct("score_std")
def score_std_the_number_itself_as_an_int():
    score_std = 16
    return score_std


# blind round 1, ch01:46: square root with the ** operator (a float)
@correct("score_std")
def score_std_square_root_with_the_operator_a():
    score_std = 256**0.5
    return score_std


# blind round 1, ch01:47: gives the variance (256) instead of the standard deviation
@wrong("score_std", "variance")
def score_std_gives_the_variance_256_instead_of():
    score_std = 256
    return score_std


# blind round 1, ch01:48: answers for the scaled score q.k/sqrt(d_k), which has std 1
@wrong("score_std", "std_one")
def score_std_answers_for_the_scaled_score_q():
    score_std = 1.0
    return score_std


# blind round 1, ch01:49: inverted: 1/sqrt(d_k)
@wrong("score_std", "function:reciprocal")
def score_std_inverted_1_sqrt_d_k():
    score_std = 1 / 16
    return score_std


# blind round 1, ch01:50: takes the fourth root, sqrt of the std-per-term reasoning applied twice
@wrong("score_std", "function:sqrt")
def score_std_takes_the_fourth_root_sqrt_of():
    score_std = 256**0.25
    return score_std


# blind round 1, ch01:51: estimates the std by simulation with only 200 pairs (seed 1 gives 14.98): an approximation about 6 percent off, not the exact value
@wrong("score_std", "approximate")
def score_std_estimates_the_std_by_simulation_with():
    _rng_score_std_estimates_the_std_by_simulation_with = np.random.default_rng(1)
    _q_score_std_estimates_the_std_by_simulation_with = (
        _rng_score_std_estimates_the_std_by_simulation_with.standard_normal((200, 256))
    )
    _k_score_std_estimates_the_std_by_simulation_with = (
        _rng_score_std_estimates_the_std_by_simulation_with.standard_normal((200, 256))
    )
    score_std = float(
        np.einsum(
            "pc,pc->p",
            _q_score_std_estimates_the_std_by_simulation_with,
            _k_score_std_estimates_the_std_by_simulation_with,
        ).std()
    )
    return score_std
