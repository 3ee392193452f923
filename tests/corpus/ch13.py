"""Chapter 13: online-softmax attention."""

import math

import numpy as np

from corpus import correct, wrong

# --- online_softmax_attention -------------------------------------------------------------


@correct("online_softmax_attention")
def online_like_flash(q, k, v, block_size):
    scale = 1.0 / math.sqrt(q.shape[-1])
    m = np.full(q.shape[:-1] + (1,), -np.inf, dtype=q.dtype)  # noqa: RUF005
    ell = np.zeros_like(m)
    o = np.zeros(q.shape[:-1] + (v.shape[-1],), dtype=q.dtype)  # noqa: RUF005
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
