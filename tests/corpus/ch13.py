"""Chapter 13: online-softmax attention."""

import math

import numpy as np

import mha
from corpus import correct, predicted, wrong

# --- online_softmax_attention -------------------------------------------------------------


@correct("online_softmax_attention")
def online_like_flash(q, k, v, block_size, causal=False):
    scale = 1.0 / math.sqrt(q.shape[-1])
    n_q, n_k = q.shape[-2], k.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)
    for j in range(0, n_k, block_size):
        s = (q @ np.swapaxes(k[..., j : j + block_size, :], -1, -2)) * scale
        if causal:
            cols = np.arange(j, min(j + block_size, n_k))
            rows = np.arange(n_q)[:, None] + (n_k - n_q)
            s = np.where(cols[None, :] <= rows, s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        m_safe = np.where(m_new == -np.inf, 0.0, m_new)
        alpha = np.exp(m - m_safe)
        p = np.exp(s - m_safe)
        ell = alpha * ell + p.sum(-1, keepdims=True)
        o = alpha * o + p @ v[..., j : j + block_size, :]
        m = m_new
    return np.divide(o, ell, out=np.zeros_like(o), where=ell > 0)


@correct("online_softmax_attention")
def online_normalised_as_it_goes(q, k, v, block_size, causal=False):
    q = q / math.sqrt(q.shape[-1])
    offset = k.shape[-2] - q.shape[-2]
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    out = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)  # the average so far
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        if causal:
            query = np.arange(q.shape[-2]).reshape(-1, 1)
            key = np.arange(start, start + s.shape[-1]).reshape(1, -1)
            s = np.where(key - offset <= query, s, -np.inf)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        if not np.isfinite(m_new).all():  # rows that saw no key yet: keep them at zero
            m_new = np.where(np.isfinite(m_new), m_new, 0.0)
            m = np.where(np.isfinite(m), m, 0.0)
        p = np.exp(s - m_new)
        ell_new = ell * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        total = out * ell * np.exp(m - m_new) + p @ v[..., start : start + block_size, :]
        out = np.where(ell_new > 0, total / np.where(ell_new > 0, ell_new, 1.0), 0.0)
        m, ell = m_new, ell_new
    return out.astype(q.dtype)


@correct("online_softmax_attention", drift=True)
def online_one_key_at_a_time(q, k, v, block_size, causal=False):
    q = q / np.sqrt(q.shape[-1])  # ignores block_size: one key per step
    n_q, n_k = q.shape[-2], k.shape[-2]
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    sees = np.arange(n_q)[:, None] + n_k - n_q  # the last key each query may attend
    for j in range(n_k):
        s = (q * k[..., j : j + 1, :]).sum(axis=-1, keepdims=True)
        if causal:
            s = np.where(j <= sees, s, -np.inf)
        m_new = np.maximum(m, s)
        safe = np.where(np.isinf(m_new), 0.0, m_new)
        c, p = np.exp(m - safe), np.exp(s - safe)
        ell = ell * c + p
        o = o * c + p * v[..., j : j + 1, :]
        m = m_new
    return np.where(ell > 0, o / np.where(ell > 0, ell, 1.0), 0.0)


@wrong("online_softmax_attention", "causal_ignored")
def online_the_chapters_loop_with_causal_accepted(q, k, v, block_size, causal=False):
    q = q / math.sqrt(q.shape[-1])
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        ell = ell * np.exp(m - m_new) + np.exp(s - m_new).sum(-1, keepdims=True)
        acc = acc * np.exp(m - m_new) + np.exp(s - m_new) @ v[..., start : start + block_size, :]
        m = m_new
    return acc / ell


def _causal_online(q, k, v, block_size, causal, allowed, guard=True, fixed_max=False):
    q = q / math.sqrt(q.shape[-1])
    n_q, n_k = q.shape[-2], k.shape[-2]
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        if causal:
            i = np.arange(n_q)[:, None]
            j = np.arange(start, start + s.shape[-1])[None, :]
            s = np.where(allowed(i, j, n_q, n_k), s, -np.inf)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        if fixed_max and start > 0:  # the first block's maximum, kept for good
            m_new = np.where(np.isfinite(m), m, m_new)
        base = np.where(np.isfinite(m_new), m_new, 0.0) if guard else m_new
        factor = np.exp(m - base)
        p = np.exp(s - base)
        ell = ell * factor + p.sum(-1, keepdims=True)
        acc = acc * factor + p @ v[..., start : start + block_size, :]
        m = m_new
    if not guard:
        return acc / ell
    return np.where(ell > 0, acc / np.where(ell > 0, ell, 1.0), 0.0).astype(q.dtype)


@wrong("online_softmax_attention", "causal_top_left")
def online_causal_like_np_tril(q, k, v, block_size, causal=False):
    return _causal_online(q, k, v, block_size, causal, lambda i, j, n_q, n_k: j <= i)


@wrong("online_softmax_attention", "causal_diagonal_excluded")
def online_causal_strictly_before(q, k, v, block_size, causal=False):
    return _causal_online(q, k, v, block_size, causal, lambda i, j, n_q, n_k: j < i + n_k - n_q)


@wrong("online_softmax_attention", "masked_rows_nan")
def online_causal_without_a_guard(q, k, v, block_size, causal=False):
    return _causal_online(
        q, k, v, block_size, causal, lambda i, j, n_q, n_k: j <= i + n_k - n_q, guard=False
    )


def _online(
    q, k, v, block_size, *, fix_out=True, fix_sum=True, inverted=False, scale=True, drop_last=False
):
    q = q / math.sqrt(q.shape[-1]) if scale else q
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    n_k = k.shape[-2]
    stop = n_k - block_size + 1 if drop_last else n_k
    for start in range(0, stop, block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        factor = np.exp(m_new - m) if inverted else np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = (ell * factor if fix_sum else ell) + p.sum(-1, keepdims=True)
        acc = (acc * factor if fix_out else acc) + p @ v[..., start : start + block_size, :]
        m = m_new
    return acc / ell


@wrong("online_softmax_attention", "no_rescale_output")
def online_forgot_to_rescale_o(q, k, v, block_size):
    return _online(q, k, v, block_size, fix_out=False)


@wrong("online_softmax_attention", "no_rescale_sum")
def online_forgot_to_rescale_ell(q, k, v, block_size):
    return _online(q, k, v, block_size, fix_sum=False)


@wrong("online_softmax_attention", "rescale_inverted")
def online_factor_upside_down(q, k, v, block_size):
    return _online(q, k, v, block_size, inverted=True)


@wrong("online_softmax_attention", "no_scaling")
def online_unscaled(q, k, v, block_size):
    return _online(q, k, v, block_size, scale=False)


@wrong("online_softmax_attention", "last_block_dropped")
def online_whole_blocks_only(q, k, v, block_size):
    return _online(q, k, v, block_size, drop_last=True)


@wrong("online_softmax_attention", "holds_full_scores")
def online_after_the_fact(q, k, v, block_size, causal=False):
    n_q, n_k = q.shape[-2], k.shape[-2]
    scores = (
        q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    )  # computed once, then read in blocks
    if causal:
        scores = np.where(mha.causal_mask(n_q, n_k), scores, -np.inf)
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, n_k, block_size):
        s = scores[..., start : start + block_size]
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        base = np.where(np.isfinite(m_new), m_new, 0.0)
        p = np.exp(s - base)
        ell = ell * np.exp(m - base) + p.sum(-1, keepdims=True)
        acc = acc * np.exp(m - base) + p @ v[..., start : start + block_size, :]
        m = m_new
    return np.where(ell > 0, acc / np.where(ell > 0, ell, 1.0), 0.0)


@wrong("online_softmax_attention", "fixed_maximum")
def online_first_block_maximum_kept(q, k, v, block_size, causal=False):
    return _causal_online(
        q, k, v, block_size, causal, lambda i, j, n_q, n_k: j <= i + n_k - n_q, fixed_max=True
    )


@wrong("online_softmax_attention", "precision:float16")
def online_right_but_in_float16(q, k, v, block_size, causal=False):
    return online_like_flash(q, k, v, block_size, causal).astype(np.float16)


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch11:30: never rescales the running output o by exp(m - m'): right only when the largest score is in the first block
@wrong("online_softmax_attention", "no_rescale_output")
def online_softmax_attention_never_rescales_the_running_output_o(q, k, v, block_size):
    q = q / np.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        p = np.exp(s - m_new)
        ell = ell * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        o = o + p @ v[..., start : start + block_size, :]
        m = m_new
    return o / ell


# blind round 1, ch11:31: never rescales the running sum l
@wrong("online_softmax_attention", "no_rescale_sum")
def online_softmax_attention_never_rescales_the_running_sum_l(q, k, v, block_size):
    q = q / np.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        p = np.exp(s - m_new)
        ell = ell + p.sum(axis=-1, keepdims=True)
        o = o * np.exp(m - m_new) + p @ v[..., start : start + block_size, :]
        m = m_new
    return o / ell


# blind round 1, ch11:33: forgets the 1/sqrt(d_k) scale
@wrong("online_softmax_attention", "no_scaling")
def online_softmax_attention_forgets_the_1_sqrt_d_k(q, k, v, block_size):
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        c = np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = ell * c + p.sum(axis=-1, keepdims=True)
        o = o * c + p @ v[..., start : start + block_size, :]
        m = m_new
    return o / ell


# blind round 1, ch11:35: softmax inside each block, then the blocks' outputs averaged with equal weight
@wrong("online_softmax_attention", "blocks_averaged")
def online_softmax_attention_softmax_inside_each_block_then_the(q, k, v, block_size):
    q = q / np.sqrt(q.shape[-1])
    outs = []
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        outs.append(p @ v[..., start : start + block_size, :])
    return sum(outs) / len(outs)


# blind round 1, ch11:36: off by one in the loop bound: range(0, n_k - block_size, block_size) skips the last block (and every key when block_size >= n_k)
@wrong("online_softmax_attention", "last_block_dropped")
def online_softmax_attention_off_by_one_in_the_loop(q, k, v, block_size):
    q = q / np.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, k.shape[-2] - block_size, block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        c = np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = ell * c + p.sum(axis=-1, keepdims=True)
        o = o * c + p @ v[..., start : start + block_size, :]
        m = m_new
    with np.errstate(invalid="ignore"):
        return o / ell


# blind round 1, ch11:39: raises its own error for a legal input (a last block shorter than the others)
@wrong("online_softmax_attention", None)
def online_softmax_attention_validates_its_arguments_with_its_own(q, k, v, block_size):
    if k.shape[-2] % block_size:
        raise ValueError("block_size must divide the number of keys")
    q = q / np.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        c = np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = ell * c + p.sum(axis=-1, keepdims=True)
        o = o * c + p @ v[..., start : start + block_size, :]
        m = m_new
    return o / ell


# blind round 1, ch11:48: the partial output has the layer output's full shape: B * n * d_model * 2 bytes
@correct("head_parallel_all_reduce_bytes")
def head_parallel_all_reduce_bytes_the_partial_output_has_the_layer():
    head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2
    return head_parallel_all_reduce_bytes


# blind round 1, ch11:49: an (8 heads * d_k) x d_model slice of W^O still produces d_model columns; counted with math.prod and the dtype's size
@correct("head_parallel_all_reduce_bytes")
def head_parallel_all_reduce_bytes_an_8_heads_d_k_x():
    _batch, _tokens, _d_model, _bytes_per_number = 8, 2048, 4096, 2
    head_parallel_all_reduce_bytes = math.prod((_batch, _tokens, _d_model)) * _bytes_per_number
    return head_parallel_all_reduce_bytes


# blind round 1, ch11:50: NumPy's itemsize of a 2-byte float times the (B, n, d_model) element count
@correct("head_parallel_all_reduce_bytes")
def head_parallel_all_reduce_bytes_numpy_s_itemsize_of_a_2():
    head_parallel_all_reduce_bytes = int(np.dtype(np.float16).itemsize) * 8 * 2048 * 4096
    return head_parallel_all_reduce_bytes


# blind round 1, ch11:51: divides by the 4 devices, as if each held a quarter of the output
@wrong("head_parallel_all_reduce_bytes", "split_output")
def head_parallel_all_reduce_bytes_divides_by_the_4_devices_as():
    head_parallel_all_reduce_bytes = 8 * 2048 * 4096 * 2 // 4
    return head_parallel_all_reduce_bytes


# blind round 1, ch11:52: gives what a ring all-reduce sends, 2 (D-1)/D S, instead of the array's size
@wrong("head_parallel_all_reduce_bytes", "ring_traffic")
def head_parallel_all_reduce_bytes_gives_what_a_ring_all_reduce():
    head_parallel_all_reduce_bytes = 2 * 3 * (8 * 2048 * 4096 * 2) // 4
    return head_parallel_all_reduce_bytes


# blind round 1, ch11:53: counts numbers, not bytes
@wrong("head_parallel_all_reduce_bytes", "numbers_not_bytes")
def head_parallel_all_reduce_bytes_counts_numbers_not_bytes():
    head_parallel_all_reduce_bytes = 8 * 2048 * 4096
    return head_parallel_all_reduce_bytes


# blind round 1, ch11:54: sums over the 4 devices: the bytes of all partial outputs together
@wrong("head_parallel_all_reduce_bytes", "all_devices")
def head_parallel_all_reduce_bytes_sums_over_the_4_devices_the():
    head_parallel_all_reduce_bytes = 4 * 8 * 2048 * 4096 * 2
    return head_parallel_all_reduce_bytes


# blind round 1, ch11:55: sizes the device's heads before W^O: (B, n, 8 heads * d_k = 1024)
@wrong("head_parallel_all_reduce_bytes", "split_output")
def head_parallel_all_reduce_bytes_sizes_the_device_s_heads_before():
    head_parallel_all_reduce_bytes = 8 * 2048 * (8 * 4096 // 32) * 2
    return head_parallel_all_reduce_bytes


# --- predict_full_attention_peak: predictions as readers make them ------------------------


@predicted("predict_full_attention_peak", None)
def predicted_three_matrices():
    return 50


@predicted("predict_full_attention_peak", "one_matrix")
def predicted_the_scores_alone():
    return 16


@predicted("predict_full_attention_peak", "scores_and_weights")
def predicted_scores_and_weights():
    return 32


@predicted("predict_full_attention_peak", "output_only")
def predicted_the_output():
    return 0.5
