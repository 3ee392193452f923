"""Chapter 13: online-softmax attention."""

import math

import numpy as np

from corpus import correct, wrong

# --- online_softmax_attention -------------------------------------------------------------


@correct("online_softmax_attention")
def online_like_flash(q, k, v, block_size):
    scale = 1.0 / math.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)
    for j in range(0, k.shape[-2], block_size):
        s = (q @ np.swapaxes(k[..., j : j + block_size, :], -1, -2)) * scale
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        alpha = np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = alpha * ell + p.sum(-1, keepdims=True)
        o = alpha * o + p @ v[..., j : j + block_size, :]
        m = m_new
    return o / ell


@correct("online_softmax_attention")
def online_normalised_as_it_goes(q, k, v, block_size):
    q = q / math.sqrt(q.shape[-1])
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    out = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)  # the average so far
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        p = np.exp(s - m_new)
        ell_new = ell * np.exp(m - m_new) + p.sum(axis=-1, keepdims=True)
        out = (out * ell * np.exp(m - m_new) + p @ v[..., start : start + block_size, :]) / ell_new
        m, ell = m_new, ell_new
    return out


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
def online_after_the_fact(q, k, v, block_size):
    scores = (
        q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    )  # computed once, then read in blocks
    m = np.full((*q.shape[:-1], 1), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    acc = np.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype)
    for start in range(0, k.shape[-2], block_size):
        s = scores[..., start : start + block_size]
        m_new = np.maximum(m, s.max(-1, keepdims=True))
        p = np.exp(s - m_new)
        ell = ell * np.exp(m - m_new) + p.sum(-1, keepdims=True)
        acc = acc * np.exp(m - m_new) + p @ v[..., start : start + block_size, :]
        m = m_new
    return acc / ell


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch11:27: the chapter's blocked loop: running max, running sum and output, re-based by exp(m - m')
@correct("online_softmax_attention")
def online_softmax_attention_the_chapter_s_blocked_loop_running(q, k, v, block_size):
    q = q / np.sqrt(q.shape[-1]).astype(q.dtype)
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=np.result_type(q, v))
    for start in range(0, k.shape[-2], block_size):
        kb = k[..., start : start + block_size, :]
        vb = v[..., start : start + block_size, :]
        s = q @ np.swapaxes(kb, -1, -2)
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        scale = np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = ell * scale + p.sum(axis=-1, keepdims=True)
        o = o * scale + p @ vb
        m = m_new
    return o / ell


# blind round 1, ch11:28: running log-sum-exp instead of (m, l): o is kept normalised and re-weighted with exp(lse_old - lse_new) and exp(s - lse_new)
@correct("online_softmax_attention")
def online_softmax_attention_running_log_sum_exp_instead_of(q, k, v, block_size):
    scale = 1.0 / np.sqrt(q.shape[-1])
    lse = None
    out = None
    for start in range(0, k.shape[-2], block_size):
        s = (q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)) * scale
        mb = s.max(axis=-1, keepdims=True)
        lse_b = mb + np.log(np.exp(s - mb).sum(axis=-1, keepdims=True))
        ob = np.exp(s - lse_b) @ v[..., start : start + block_size, :]
        if lse is None:
            lse, out = lse_b, ob
        else:
            new = np.logaddexp(lse, lse_b)
            out = out * np.exp(lse - new) + ob * np.exp(lse_b - new)
            lse = new
    return out.astype(np.result_type(q, v))


# blind round 1, ch11:29: tiles the queries as well as the keys (two loops), each tile with its own running max and sum
@correct("online_softmax_attention")
def online_softmax_attention_tiles_the_queries_as_well_as(q, k, v, block_size):
    n_q, n_k = q.shape[-2], k.shape[-2]
    out = np.empty(
        np.broadcast_shapes(q.shape[:-2], v.shape[:-2]) + (n_q, v.shape[-1]),
        dtype=np.result_type(q, v),
    )
    q_tile = max(1, block_size)
    for qs in range(0, n_q, q_tile):
        qb = q[..., qs : qs + q_tile, :] / np.sqrt(q.shape[-1])
        m = np.full(qb.shape[:-1] + (1,), -np.inf)
        ell = np.zeros_like(m)
        acc = 0.0
        for ks in range(0, n_k, block_size):
            s = qb @ np.swapaxes(k[..., ks : ks + block_size, :], -1, -2)
            m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
            c = np.exp(m - m_new)
            p = np.exp(s - m_new)
            ell = ell * c + p.sum(axis=-1, keepdims=True)
            acc = acc * c + p @ v[..., ks : ks + block_size, :]
            m = m_new
        out[..., qs : qs + q_tile, :] = acc / ell
    return out


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


# blind round 1, ch11:32: computes the whole (n_q, n_k) score matrix first and then walks over its blocks: right values, but the memory the exercise forbids
@wrong("online_softmax_attention", "holds_full_scores")
def online_softmax_attention_computes_the_whole_n_q_n(q, k, v, block_size):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])  # (..., n_q, n_k): all of it
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, k.shape[-2], block_size):
        s = scores[..., start : start + block_size]
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        c = np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = ell * c + p.sum(axis=-1, keepdims=True)
        o = o * c + p @ v[..., start : start + block_size, :]
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


# blind round 1, ch11:34: keeps the first block's maximum for good: exp(s - m0) overflows when a later block's scores exceed it by more than about 88 (float32) or 709 (float64)
@wrong("online_softmax_attention", "fixed_maximum")
def online_softmax_attention_keeps_the_first_block_s_maximum(q, k, v, block_size):
    q = q / np.sqrt(q.shape[-1])
    m = None
    ell = 0.0
    o = 0.0
    for start in range(0, k.shape[-2], block_size):
        s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
        if m is None:
            m = s.max(axis=-1, keepdims=True)
        with np.errstate(over="ignore", invalid="ignore"):
            p = np.exp(s - m)
            ell = ell + p.sum(axis=-1, keepdims=True)
            o = o + p @ v[..., start : start + block_size, :]
    with np.errstate(invalid="ignore"):
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


# blind round 1, ch11:37: casts the output to float16
@wrong("online_softmax_attention", "precision:float16")
def online_softmax_attention_right_loop_but_returns_float16_to(q, k, v, block_size):
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
    return (o / ell).astype(np.float16)


# blind round 1, ch11:38: ignores block_size and loops over single keys
@correct("online_softmax_attention", drift=True)
def online_softmax_attention_walks_the_keys_one_at_a(q, k, v, block_size):
    q = q / np.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf)
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for j in range(k.shape[-2]):
        s = (q * k[..., j : j + 1, :]).sum(axis=-1, keepdims=True)
        m_new = np.maximum(m, s)
        c = np.exp(m - m_new)
        p = np.exp(s - m_new)
        ell = ell * c + p
        o = o * c + p * v[..., j : j + 1, :]
        m = m_new
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
