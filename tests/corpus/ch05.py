"""Chapter 5: the causal mask, the padding mask, a decoder's two masks."""

import numpy as np

import mha
from corpus import correct, predicted, wrong

# --- causal_mask --------------------------------------------------------------------------


@correct("causal_mask")
def causal_mask_tril_offset(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)


@correct("causal_mask")
def causal_mask_loops(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    mask = np.zeros((n_q, n_k), dtype=bool)
    for i in range(n_q):
        for j in range(n_k):
            if j <= i + (n_k - n_q):
                mask[i, j] = True
    return mask


@wrong("causal_mask", None)  # right when n_q <= n_k; when n_q > n_k it returns too few rows
def causal_mask_from_the_end(n_q, n_k=None):
    n_k = n_k or n_q
    full = np.arange(n_k)[None, :] <= np.arange(n_k)[:, None]  # (n_k, n_k) lower triangle
    return full[n_k - n_q :]  # the last n_q rows


@wrong("causal_mask", "inverted")
def causal_mask_future_is_true(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)  # True = masked


@wrong("causal_mask", "excludes_diagonal")
def causal_mask_strict(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    rows = np.arange(n_q)[:, None] + n_k - n_q
    return np.arange(n_k)[None, :] < rows


@wrong("causal_mask", "upper_triangular")
def causal_mask_triu(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool))


@wrong("causal_mask", "top_left_aligned")
def causal_mask_plain_tril(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))


@wrong("causal_mask", "ignores_n_k")
def causal_mask_square(n_q, n_k=None):
    return np.tril(np.ones((n_q, n_q), dtype=bool))


@wrong("causal_mask", "float_mask")
def causal_mask_ones(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k)), k=n_k - n_q)


@wrong("causal_mask", "additive_mask")
def causal_mask_additive(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    allowed = np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)
    return np.where(allowed, 0.0, -np.inf)


@wrong("causal_mask", "allows_future")
def causal_mask_one_ahead(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)


# --- padding_mask -------------------------------------------------------------------------


@correct("padding_mask")
def padding_mask_compare(lengths, n_k):
    lengths = np.asarray(lengths)
    return (np.arange(n_k) < lengths[:, None])[:, None, None, :]


@correct("padding_mask")
def padding_mask_fill(lengths, n_k):
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, ..., :length] = True
    return mask


@correct("padding_mask")
def padding_mask_list_comprehension(lengths, n_k):
    rows = [[j < length for j in range(n_k)] for length in lengths]
    return np.array(rows, dtype=bool).reshape(len(rows), 1, 1, n_k)


@wrong("padding_mask", "inverted")
def padding_mask_pads_true(lengths, n_k):
    return (np.arange(n_k) >= np.asarray(lengths)[:, None])[:, None, None, :]


@wrong("padding_mask", "left_padding")
def padding_mask_pads_in_front(lengths, n_k):
    first_real = n_k - np.asarray(lengths)[:, None]
    return (np.arange(n_k) >= first_real)[:, None, None, :]


@wrong("padding_mask", "off_by_one_includes_pad")
def padding_mask_less_equal(lengths, n_k):
    return (np.arange(n_k) <= np.asarray(lengths)[:, None])[:, None, None, :]


@wrong("padding_mask", "off_by_one_drops_last")
def padding_mask_fill_one_short(lengths, n_k):
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, 0, : max(length - 1, 0)] = True
    return mask


@wrong("padding_mask", "on_queries")
def padding_mask_rows(lengths, n_k):
    real = np.arange(n_k) < np.asarray(lengths)[:, None]
    return real[:, None, :, None]


@wrong("padding_mask", "missing_singleton_axes")
def padding_mask_flat(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]


@wrong("padding_mask", "float_mask")
def padding_mask_of_ones(lengths, n_k):
    mask = np.zeros((len(lengths), 1, 1, n_k))
    for b, length in enumerate(lengths):
        mask[b, 0, 0, :length] = 1
    return mask


@wrong("padding_mask", "additive_mask")
def padding_mask_minus_infinity(lengths, n_k):
    real = (np.arange(n_k) < np.asarray(lengths)[:, None])[:, None, None, :]
    return np.where(real, 0.0, float("-inf"))


# --- masked_softmax: a query with no key ---------------------------------------------------


@correct("masked_softmax")
def masked_softmax_zero_the_empty_rows(scores, mask):
    mask = np.broadcast_to(mask, scores.shape)
    masked = np.where(mask, scores, -np.inf)
    has_key = mask.any(axis=-1, keepdims=True)
    shift = np.where(has_key, masked.max(axis=-1, keepdims=True), 0)
    e = np.exp(masked - shift)
    return np.where(has_key, e / np.maximum(e.sum(axis=-1, keepdims=True), 1e-300), 0)


# correct until masked scores far above the allowed ones were tested (round 3's inputs):
# exp overflows on them, and inf * 0 is NaN
# held-out round 3's class (ch05:19, not its code): normalised over the queries
@wrong("masked_softmax", "over_queries")
def masked_softmax_down_the_columns(scores, mask):
    masked = np.where(mask, scores, -np.inf)
    peak = masked.max(axis=-2, keepdims=True)
    e = np.exp(masked - np.where(np.isfinite(peak), peak, 0.0))
    total = e.sum(axis=-2, keepdims=True)
    return (e / np.where(total > 0, total, 1.0)).astype(scores.dtype)


@wrong("masked_softmax", "exp_of_masked")
def masked_softmax_exp_times_mask(scores, mask):
    shift = np.where(mask, scores, scores.min()).max(axis=-1, keepdims=True)
    e = np.exp(scores - shift) * mask  # forbidden keys: 0
    total = e.sum(axis=-1, keepdims=True)
    total[total == 0] = 1
    return (e / total).astype(scores.dtype)


@correct("masked_softmax")
def masked_softmax_nan_to_zero(scores, mask):
    masked = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(masked - masked.max(axis=-1, keepdims=True))
        weights = e / e.sum(axis=-1, keepdims=True)
    return np.nan_to_num(weights, nan=0.0)


# held-out round 3's class (ch05:18, not its code): the maximum of every key subtracted
@wrong("masked_softmax", "peak_of_every_key")
def masked_softmax_shifted_by_every_key(scores, mask):
    shifted = scores - np.max(scores, axis=-1, keepdims=True)  # masked keys included
    e = np.where(mask, np.exp(shifted), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    return (e / np.where(total > 0, total, 1.0)).astype(scores.dtype)


@wrong("masked_softmax", "all_for_any")
def masked_softmax_rows_with_every_key(scores, mask):
    m = np.broadcast_to(mask, scores.shape)
    full = np.all(m, axis=-1, keepdims=True)
    x = np.where(m, scores, -np.inf)
    x = x - np.where(full, x.max(-1, keepdims=True), 0)
    e = np.where(full, np.exp(x), 0)
    return e / np.maximum(e.sum(-1, keepdims=True), 1e-30)


@wrong("masked_softmax", "nan_rows")
def masked_softmax_stable_but_nan(scores, mask):
    masked = np.where(mask, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# two mistakes: no guard for a row with no key (NaN there, which the feedback's first
# sentence shows) and the maximum of every key, named since masked scores far above the
# allowed ones are tested
@wrong("masked_softmax", "peak_of_every_key")
def masked_softmax_shift_by_all_scores(scores, mask):
    e = np.exp(np.where(mask, scores, -np.inf) - scores.max(axis=-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@wrong("masked_softmax", "uniform_rows")
def masked_softmax_minus_1e9(scores, mask):
    masked = np.where(mask, scores, -1e9)  # the usual masked_fill value
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@wrong("masked_softmax", "masked_after_softmax")
def masked_softmax_multiply_weights(scores, mask):
    weights = mha.softmax(scores)
    return weights * mask


@wrong("masked_softmax", "zero_fill")
def masked_softmax_zero_scores(scores, mask):
    masked = scores * mask  # forbidden scores become 0
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@wrong("masked_softmax", "inverted")
def masked_softmax_true_is_blocked(scores, mask):
    masked = np.where(mask, -np.inf, scores)  # True read as 'blocked'
    peak = masked.max(axis=-1, keepdims=True)
    e = np.exp(masked - np.where(np.isfinite(peak), peak, 0))
    total = e.sum(axis=-1, keepdims=True)
    return e / np.where(total > 0, total, 1)


# --- predict_unflipped_queries: predictions as readers make them -------------------------


@predicted("predict_unflipped_queries", None)
def predicted_the_last_query():
    return 1


@predicted("predict_unflipped_queries", "none")
def predicted_no_harm():
    return 0


@predicted("predict_unflipped_queries", "all")
def predicted_every_query():
    return 5


@predicted("predict_unflipped_queries", "all_but_one")
def predicted_all_but_the_first():
    return 4.0


# --- decoder_masks ------------------------------------------------------------------------


@correct("decoder_masks")
def decoder_masks_with_mha(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = mha.padding_mask(source_lengths, n_source)
    return self_mask, np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))


@correct("decoder_masks")
def decoder_masks_loops(target_lengths, source_lengths, n_target, n_source):
    batch = len(target_lengths)
    self_mask = np.zeros((batch, 1, n_target, n_target), dtype=bool)
    cross_mask = np.zeros((batch, 1, n_target, n_source), dtype=bool)
    for b in range(batch):
        for i in range(n_target):
            for j in range(n_target):
                self_mask[b, 0, i, j] = j <= i and j < target_lengths[b]
            for j in range(n_source):
                cross_mask[b, 0, i, j] = j < source_lengths[b]
    return self_mask, cross_mask


@wrong("decoder_masks", "cross_causal")
def decoder_masks_both_causal(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask


@wrong("decoder_masks", "cross_hides_target_pads")
def decoder_masks_pad_queries_see_nothing(target_lengths, source_lengths, n_target, n_source):
    query_is_real = (np.arange(n_target) < np.asarray(target_lengths)[:, None])[:, None, :, None]
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    return self_mask & query_is_real, mha.padding_mask(source_lengths, n_source) & query_is_real


@wrong("decoder_masks", "cross_target_lengths")
def decoder_masks_one_lengths(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross = mha.padding_mask(target_lengths, n_source)
    return self_mask, np.broadcast_to(cross, (len(target_lengths), 1, n_target, n_source))


@wrong("decoder_masks", "self_no_padding")
def decoder_masks_causal_only(target_lengths, source_lengths, n_target, n_source):
    batch = len(source_lengths)
    self_mask = np.broadcast_to(mha.causal_mask(n_target), (batch, 1, n_target, n_target))
    cross = mha.padding_mask(source_lengths, n_source)
    return self_mask, np.broadcast_to(cross, (batch, 1, n_target, n_source))


@wrong("decoder_masks", "self_not_causal")
def decoder_masks_padding_only(target_lengths, source_lengths, n_target, n_source):
    batch = len(target_lengths)
    pad = mha.padding_mask(target_lengths, n_target)
    self_mask = np.broadcast_to(pad, (batch, 1, n_target, n_target))
    cross = mha.padding_mask(source_lengths, n_source)
    return self_mask, np.broadcast_to(cross, (batch, 1, n_target, n_source))


@wrong("decoder_masks", "padding_on_queries")
def decoder_masks_pad_rows(target_lengths, source_lengths, n_target, n_source):
    real = np.arange(n_target) < np.asarray(target_lengths)[:, None]  # (B, n_t)
    self_mask = mha.causal_mask(n_target) & real[:, None, :, None]
    cross = mha.padding_mask(source_lengths, n_source)
    return self_mask, np.broadcast_to(cross, (len(real), 1, n_target, n_source))


@wrong("decoder_masks", "or_instead_of_and")
def decoder_masks_or(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) | mha.padding_mask(target_lengths, n_target)
    cross = mha.padding_mask(source_lengths, n_source)
    return self_mask, np.broadcast_to(cross, (cross.shape[0], 1, n_target, n_source))


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch05:0: broadcast comparison cols <= rows + n_k - n_q
@correct("causal_mask")
def causal_mask_broadcast_comparison_cols_rows_n_k(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    rows = np.arange(n_q)[:, None]
    cols = np.arange(n_k)[None, :]
    return cols <= rows + (n_k - n_q)


# blind round 1, ch05:1: np.tril with the diagonal offset k = n_k - n_q
@correct("causal_mask")
def causal_mask_np_tril_with_the_diagonal_offset(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)


# blind round 1, ch05:2: nested Python loops over positions, then a bool array
@correct("causal_mask")
def causal_mask_nested_python_loops_over_positions_then(n_q, n_k=None):
    if n_k is None:
        n_k = n_q
    rows = [[j <= i + n_k - n_q for j in range(n_k)] for i in range(n_q)]
    return np.array(rows, dtype=bool).reshape(n_q, n_k)


# blind round 1, ch05:3: aligns the triangle top-left (np.tril with k=0): same for n_q == n_k, wrong otherwise
@wrong("causal_mask", "top_left_aligned")
def causal_mask_aligns_the_triangle_top_left_np(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool))


# blind round 1, ch05:4: strict inequality: a query may not attend itself (diagonal excluded)
@wrong("causal_mask", "excludes_diagonal")
def causal_mask_strict_inequality_a_query_may_not(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.arange(n_k)[None, :] < np.arange(n_q)[:, None] + (n_k - n_q)


# blind round 1, ch05:5: polarity flipped: True above the diagonal (the future), as nn.MultiheadAttention wants
@wrong("causal_mask", "inverted")
def causal_mask_polarity_flipped_true_above_the_diagonal(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.triu(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q + 1)


# blind round 1, ch05:6: offset with the wrong sign: k = n_q - n_k
@wrong("causal_mask", "offset_sign")
def causal_mask_offset_with_the_wrong_sign_k(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_q - n_k)


# blind round 1, ch05:7: does not handle the default n_k=None: causal_mask(5) raises TypeError
@wrong("causal_mask", "raised_when:n_k_omitted")
def causal_mask_does_not_handle_the_default_n(n_q, n_k=None):
    return np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q)


# blind round 1, ch05:8: returns the transposed shape (n_k, n_q)
@wrong("causal_mask", "axes")
def causal_mask_returns_the_transposed_shape_n_k(n_q, n_k=None):
    n_k = n_q if n_k is None else n_k
    return np.arange(n_q)[None, :] + (n_k - n_q) >= np.arange(n_k)[:, None]


# blind round 1, ch05:9: broadcast comparison (B, n_k), then [:, None, None, :]
@correct("padding_mask")
def padding_mask_broadcast_comparison_b_n_k_then(lengths, n_k):
    lengths = np.asarray(lengths)
    return (np.arange(n_k)[None, :] < lengths[:, None])[:, None, None, :]


# blind round 1, ch05:10: np.less.outer and a reshape to (B, 1, 1, n_k)
@correct("padding_mask")
def padding_mask_np_less_outer_and_a_reshape(lengths, n_k):
    lengths = np.asarray(lengths).reshape(-1)
    return np.less.outer(np.arange(n_k), lengths).T.reshape(len(lengths), 1, 1, n_k)


# blind round 1, ch05:11: a loop over the sequences filling a zero mask
@correct("padding_mask")
def padding_mask_a_loop_over_the_sequences_filling(lengths, n_k):
    lengths = list(lengths)
    mask = np.zeros((len(lengths), 1, 1, n_k), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, 0, 0, : int(length)] = True
    return mask


# blind round 1, ch05:12: returns shape (B, n_k): forgot the heads and queries axes
@wrong("padding_mask", "missing_singleton_axes")
def padding_mask_returns_shape_b_n_k_forgot(lengths, n_k):
    return np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]


# blind round 1, ch05:13: off by one: j <= length lets each sequence attend its first pad
@wrong("padding_mask", "off_by_one_includes_pad")
def padding_mask_off_by_one_j_length_lets(lengths, n_k):
    return (np.arange(n_k)[None, :] <= np.asarray(lengths)[:, None])[:, None, None, :]


# blind round 1, ch05:14: masks queries instead of keys: shape (B, 1, n_k, 1)
@wrong("padding_mask", "on_queries")
def padding_mask_masks_queries_instead_of_keys_shape(lengths, n_k):
    return (np.arange(n_k)[None, :] < np.asarray(lengths)[:, None])[:, None, :, None]


# blind round 1, ch05:15: polarity flipped: True at the pads
@wrong("padding_mask", "inverted")
def padding_mask_polarity_flipped_true_at_the_pads(lengths, n_k):
    return (np.arange(n_k)[None, :] >= np.asarray(lengths)[:, None])[:, None, None, :]


# blind round 1, ch05:16: indexes `lengths` as an array without converting: a Python list raises TypeError
@wrong("padding_mask", "raised_when:lengths_list")
def padding_mask_indexes_lengths_as_an_array_without(lengths, n_k):
    return (np.arange(n_k)[None, :] < lengths[:, None])[:, None, None, :]


# blind round 1, ch05:17: puts the singleton axes first: (1, 1, B, n_k)
@wrong("padding_mask", "axes")
def padding_mask_puts_the_singleton_axes_first_1(lengths, n_k):
    return (np.arange(n_k)[None, :] < np.asarray(lengths)[:, None])[None, None, :, :]


# blind round 1, ch05:18: returns an int array (astype(int))
@wrong("padding_mask", "float_mask")
def padding_mask_right_pattern_as_0_1_integers(lengths, n_k):
    m = np.arange(n_k)[None, :] < np.asarray(lengths)[:, None]
    return m.astype(int)[:, None, None, :]


# blind round 1, ch05:19: mha's causal and padding masks, & for self-attention, np.broadcast_to for cross
@correct("decoder_masks")
def decoder_masks_mha_s_causal_and_padding_masks(
    target_lengths, source_lengths, n_target, n_source
):
    target_pad = mha.padding_mask(target_lengths, n_target)  # (B, 1, 1, n_t)
    self_mask = mha.causal_mask(n_target) & target_pad  # (B, 1, n_t, n_t)
    source_pad = mha.padding_mask(source_lengths, n_source)  # (B, 1, 1, n_s)
    cross_mask = np.broadcast_to(source_pad, (source_pad.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask


# blind round 1, ch05:20: from scratch with index comparisons, all four axes built explicitly (and copied)
@correct("decoder_masks")
def decoder_masks_from_scratch_with_index_comparisons_all(
    target_lengths, source_lengths, n_target, n_source
):
    t_len = np.asarray(target_lengths)[:, None, None, None]
    s_len = np.asarray(source_lengths)[:, None, None, None]
    i = np.arange(n_target)[None, None, :, None]  # queries
    j_t = np.arange(n_target)[None, None, None, :]  # target keys
    j_s = np.arange(n_source)[None, None, None, :]  # source keys
    self_mask = (j_t <= i) & (j_t < t_len)
    cross_mask = (j_s < s_len) & (i >= 0)
    return self_mask, cross_mask


# blind round 1, ch05:21: loops over the batch filling two zero masks
@correct("decoder_masks")
def decoder_masks_loops_over_the_batch_filling_two(
    target_lengths, source_lengths, n_target, n_source
):
    target_lengths, source_lengths = list(target_lengths), list(source_lengths)
    B = len(target_lengths)
    self_mask = np.zeros((B, 1, n_target, n_target), dtype=bool)
    cross_mask = np.zeros((B, 1, n_target, n_source), dtype=bool)
    for b in range(B):
        for i in range(n_target):
            for j in range(n_target):
                self_mask[b, 0, i, j] = j <= i and j < target_lengths[b]
            cross_mask[b, 0, i, : int(source_lengths[b])] = True
    return self_mask, cross_mask


# blind round 1, ch05:22: makes the cross-attention causal too (bottom-right causal & source padding)
@wrong("decoder_masks", "cross_causal")
def decoder_masks_makes_the_cross_attention_causal_too(
    target_lengths, source_lengths, n_target, n_source
):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.causal_mask(n_target, n_source) & mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask


# blind round 1, ch05:23: swaps the lengths: the self-attention uses the source lengths and the cross-attention the target lengths
@wrong("decoder_masks", "lengths_swapped")
def decoder_masks_swaps_the_lengths_the_self_attention(
    target_lengths, source_lengths, n_target, n_source
):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(source_lengths, n_target)
    pad = mha.padding_mask(target_lengths, n_source)
    cross_mask = np.broadcast_to(pad, (pad.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask


# blind round 1, ch05:24: cross mask left at shape (B, 1, 1, n_s): broadcastable, but not the asked (B, 1, n_t, n_s)
@wrong("decoder_masks", "not_broadcast")
def decoder_masks_cross_mask_left_at_shape_b(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    cross_mask = mha.padding_mask(source_lengths, n_source)
    return self_mask, cross_mask


# blind round 1, ch05:25: self-attention mask only causal: the target's pads are not hidden
@wrong("decoder_masks", "self_no_padding")
def decoder_masks_self_attention_mask_only_causal_the(
    target_lengths, source_lengths, n_target, n_source
):
    B = len(target_lengths)
    self_mask = np.broadcast_to(mha.causal_mask(n_target), (B, 1, n_target, n_target))
    pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(pad, (B, 1, n_target, n_source))
    return self_mask, cross_mask


# blind round 1, ch05:26: hides the target pads as queries (rows) instead of keys (columns) in the self-attention
@wrong("decoder_masks", "padding_on_queries")
def decoder_masks_hides_the_target_pads_as_queries(
    target_lengths, source_lengths, n_target, n_source
):
    target_pad = mha.padding_mask(target_lengths, n_target).swapaxes(-1, -2)  # (B, 1, n_t, 1)
    self_mask = mha.causal_mask(n_target) & target_pad
    pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(pad, (pad.shape[0], 1, n_target, n_source))
    return self_mask, cross_mask


# blind round 1, ch05:27: also hides the target's pad queries in the cross-attention: their rows are all False
@wrong("decoder_masks", "cross_hides_target_pads")
def decoder_masks_also_hides_the_target_s_pad(target_lengths, source_lengths, n_target, n_source):
    target_pad = mha.padding_mask(target_lengths, n_target)
    self_mask = mha.causal_mask(n_target) & target_pad
    cross_mask = mha.padding_mask(source_lengths, n_source) & target_pad.swapaxes(-1, -2)
    return self_mask, cross_mask


# blind round 1, ch05:28: returns (cross_mask, self_mask) in the wrong order
@wrong("decoder_masks", "outputs_swapped")
def decoder_masks_returns_cross_mask_self_mask_in(
    target_lengths, source_lengths, n_target, n_source
):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(pad, (pad.shape[0], 1, n_target, n_source))
    return cross_mask, self_mask


# blind round 1, ch05:29: returns a dict instead of the tuple (self_mask, cross_mask)
@wrong("decoder_masks", None)
def decoder_masks_right_masks_but_returned_as_a(target_lengths, source_lengths, n_target, n_source):
    self_mask = mha.causal_mask(n_target) & mha.padding_mask(target_lengths, n_target)
    pad = mha.padding_mask(source_lengths, n_source)
    cross_mask = np.broadcast_to(pad, (pad.shape[0], 1, n_target, n_source))
    return {"self": self_mask, "cross": cross_mask}


# blind round 1, ch05:30: (B, h, n_q, n_k) written out
@correct("cross_attention_weights_shape")
def cross_attention_weights_shape_b_h_n_q_n_k():
    cross_attention_weights_shape = (2, 4, 7, 11)
    return cross_attention_weights_shape


# blind round 1, ch05:31: measured: run mha.multi_head_attention on random inputs of those sizes
@correct("cross_attention_weights_shape")
def cross_attention_weights_shape_measured_run_mha_multi_head_attention():
    _rng_cross_attention_weights_shape_measured_run_mha_multi_head_attention = (
        np.random.default_rng(0)
    )
    _dec_cross_attention_weights_shape_measured_run_mha_multi_head_attention = (
        _rng_cross_attention_weights_shape_measured_run_mha_multi_head_attention.normal(
            size=(2, 7, 16)
        )
    )
    _enc_cross_attention_weights_shape_measured_run_mha_multi_head_attention = (
        _rng_cross_attention_weights_shape_measured_run_mha_multi_head_attention.normal(
            size=(2, 11, 16)
        )
    )
    _, _w = mha.multi_head_attention(
        _dec_cross_attention_weights_shape_measured_run_mha_multi_head_attention,
        _enc_cross_attention_weights_shape_measured_run_mha_multi_head_attention,
        _enc_cross_attention_weights_shape_measured_run_mha_multi_head_attention,
        mha.init_params(16, 4, dtype=np.float64),
    )
    cross_attention_weights_shape = tuple(int(s) for s in _w.shape)
    return cross_attention_weights_shape


# blind round 1, ch05:32: named sizes in the order (B, h, n_q, n_k)
@correct("cross_attention_weights_shape")
def cross_attention_weights_shape_named_sizes_in_the_order_b():
    _batch, _heads, _decoder_tokens, _encoder_tokens = 2, 4, 7, 11
    cross_attention_weights_shape = (_batch, _heads, _decoder_tokens, _encoder_tokens)
    return cross_attention_weights_shape


# blind round 1, ch05:33: swaps queries and keys: (B, h, n_k, n_q)
@wrong("cross_attention_weights_shape", "keys_by_queries")
def cross_attention_weights_shape_swaps_queries_and_keys_b_h():
    cross_attention_weights_shape = (2, 4, 11, 7)
    return cross_attention_weights_shape


# blind round 1, ch05:34: drops the heads axis (averaged weights, as nn.MultiheadAttention returns by default)
@wrong("cross_attention_weights_shape", "no_heads_axis")
def cross_attention_weights_shape_drops_the_heads_axis_averaged_weights():
    cross_attention_weights_shape = (2, 7, 11)
    return cross_attention_weights_shape


# blind round 1, ch05:35: assumes square weights as in self-attention, (B, h, n_q, n_q)
@wrong("cross_attention_weights_shape", "square")
def cross_attention_weights_shape_assumes_square_weights_as_in_self():
    cross_attention_weights_shape = (2, 4, 7, 7)
    return cross_attention_weights_shape


@wrong("cross_attention_weights_shape", "missing_axis:2")
def cross_attention_weights_shape_one_query():
    return (2, 4, 11)


# blind round 1, ch05:36: heads before the batch: (h, B, n_q, n_k)
@wrong("cross_attention_weights_shape", "axes")
def cross_attention_weights_shape_heads_before_the_batch_h_b():
    cross_attention_weights_shape = (4, 2, 7, 11)
    return cross_attention_weights_shape


# blind round 1, ch05:37: heads after the queries: (B, n_q, h, n_k)
@wrong("cross_attention_weights_shape", "axes")
def cross_attention_weights_shape_heads_after_the_queries_b_n():
    cross_attention_weights_shape = (2, 7, 4, 11)
    return cross_attention_weights_shape


# blind round 1, ch05:38: np.array([2, 4, 7, 11]) is not a tuple of ints
@wrong("cross_attention_weights_shape", None)
def cross_attention_weights_shape_the_right_numbers_as_a_numpy():
    cross_attention_weights_shape = np.array([2, 4, 7, 11])
    return cross_attention_weights_shape


# recurring in the held-out rounds (development data): the keys axis from the lengths
@wrong("padding_mask", "n_k_from_lengths")
def padding_mask_as_long_as_the_longest(lengths, n_k):
    lengths = np.array(lengths)
    longest = int(lengths.max())
    return (np.arange(longest) < lengths.reshape(-1, 1)).reshape(len(lengths), 1, 1, longest)
