"""Chapter 1: softmax, scaled dot-product attention, the temperature, the two numbers."""

import math

import numpy as np

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


@wrong("softmax", "global_max_shift")
def softmax_shift_once(x, axis=-1):
    e = np.exp(x - np.max(x))  # shift by the largest entry so nothing overflows
    return e / e.sum(axis=axis, keepdims=True)


# --- scaled dot-product attention ---------------------------------------------------------


def _softmax(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@correct("scaled_dot_product_attention", drift=True)
def attention_like_the_book(q, k, v, mask=None):
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])  # (..., n_q, n_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = _softmax(scores)
    return weights @ v, weights


@correct("scaled_dot_product_attention")
def attention_einsum_additive_mask(q, k, v, mask=None):
    scores = np.einsum("...qd,...kd->...qk", q, k) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + np.where(mask, 0.0, -1e9).astype(q.dtype)
    weights = _softmax(scores)
    return np.einsum("...qk,...kd->...qd", weights, v), weights


@correct("scaled_dot_product_attention")
def attention_masked_fill(q, k, v, mask=None):
    d_k = k.shape[-1]
    scores = np.matmul(q, np.swapaxes(k, -2, -1)) / d_k**0.5
    if mask is not None:
        scores = scores.copy()
        scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
    p_attn = _softmax(scores)
    return np.matmul(p_attn, v), p_attn


@correct("scaled_dot_product_attention")
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


@correct("scaled_dot_product_attention")
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


@correct("temperature_of")
def temperature_two_entries(scores, weights):
    s, w = scores.reshape(-1, scores.shape[-1]), weights.reshape(-1, weights.shape[-1])
    return (s[0, 0] - s[0, 1]) / (np.log(w[0, 0]) - np.log(w[0, 1]))


@correct("temperature_of")
def temperature_every_row(scores, weights):
    ds = scores - scores[..., :1]
    dlog = np.log(weights) - np.log(weights[..., :1])
    return float(np.mean(ds[..., 1:] / dlog[..., 1:]))


@correct("temperature_of")
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


@wrong("score_std", "after_scaling")
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
