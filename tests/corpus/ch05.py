"""Chapter 5: the causal mask, the padding mask, a decoder's two masks."""

import numpy as np

import mha
from corpus import correct, wrong

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
