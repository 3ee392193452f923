"""Chapter 10: the sinusoidal encoding, rotary embeddings, a pre-LN block, the induction score."""

import math

import numpy as np
import torch
import torch.nn.functional as F

from corpus import correct, wrong

# --- sinusoidal ---------------------------------------------------------------------------


@correct("sinusoidal")
def sinusoidal_loops(n, d_model):
    pe = np.zeros((n, d_model))
    for pos in range(n):
        for i in range(0, d_model, 2):
            pe[pos, i] = math.sin(pos / (10000 ** (i / d_model)))
            pe[pos, i + 1] = math.cos(pos / (10000 ** (i / d_model)))
    return pe


@correct("sinusoidal")
def sinusoidal_div_term(n, d_model):
    # as in the PyTorch tutorials, with exp and log
    position = np.arange(n)[:, np.newaxis]
    div_term = np.exp(np.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


@correct("sinusoidal")
def sinusoidal_stacked(n, d_model):
    angles = np.outer(np.arange(n), 1 / np.power(10000, np.arange(d_model // 2) * 2 / d_model))
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d_model)


@wrong("sinusoidal", "halves_not_interleaved")
def sinusoidal_sin_then_cos(n, d_model):
    position = np.arange(n)[:, None]
    div_term = 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(position / div_term), np.cos(position / div_term)], axis=1)


@wrong("sinusoidal", "halves_not_interleaved")
def sinusoidal_hstack(n, d_model):
    half = d_model // 2
    angles = np.arange(n)[:, None] * np.exp(-math.log(10000) * 2 * np.arange(half) / d_model)
    return np.hstack((np.sin(angles), np.cos(angles)))


@wrong("sinusoidal", "sin_cos_swapped")
def sinusoidal_cos_even(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, ::2], pe[:, 1::2] = np.cos(angles), np.sin(angles)
    return pe


@wrong("sinusoidal", "exponent_i")
def sinusoidal_pair_index(n, d_model):
    pe = np.zeros((n, d_model))
    for p in range(n):
        for i in range(d_model // 2):
            pe[p, 2 * i] = np.sin(p / 10000 ** (i / d_model))
            pe[p, 2 * i + 1] = np.cos(p / 10000 ** (i / d_model))
    return pe


@wrong("sinusoidal", "exponent_of_column")
def sinusoidal_column_loops(n, d_model):
    pe = np.zeros((n, d_model))
    for p in range(n):
        for j in range(d_model):
            angle = p / 10000 ** (j / d_model)
            pe[p, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return pe


@wrong("sinusoidal", "exponent_of_column")
def sinusoidal_column_vectorised(n, d_model):
    angles = np.arange(n)[:, None] / np.power(10000, np.arange(d_model)[None, :] / d_model)
    angles[:, 0::2] = np.sin(angles[:, 0::2])
    angles[:, 1::2] = np.cos(angles[:, 1::2])
    return angles


@wrong("sinusoidal", "positions_from_one")
def sinusoidal_from_one(n, d_model):
    position = np.arange(1, n + 1)[:, None]
    angles = position / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.empty((n, d_model))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return pe


@wrong("sinusoidal", None)
def sinusoidal_base_1000(n, d_model):
    angles = np.arange(n)[:, None] / 1000 ** (np.arange(0, d_model, 2) / d_model)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d_model)


# --- apply_rope ---------------------------------------------------------------------------


def _rope_angles(n, d, positions, exponent=2):
    p = np.arange(n) if positions is None else np.asarray(positions)
    return np.outer(p, 1.0 / 10000 ** (exponent * np.arange(d // 2) / d))  # (n, d/2)


@correct("apply_rope")
def rope_llama_halves(x, positions=None):
    d = x.shape[-1]
    angles = _rope_angles(x.shape[-2], d, positions)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    out = np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
    return out.astype(x.dtype)


@correct("apply_rope")
def rope_complex_halves(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else positions
    z = x[..., : d // 2] + 1j * x[..., d // 2 :]
    z = z * np.exp(1j * np.multiply.outer(p, 10000.0 ** (-2 * np.arange(d // 2) / d)))
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)


@correct("apply_rope", drift=True)
def rope_pair_loop(x, positions=None):
    n, d = x.shape[-2:]
    p = range(n) if positions is None else positions
    out = np.array(x, dtype=np.float64)
    for row, pos in enumerate(p):
        for i in range(d // 2):
            a = pos * 10000 ** (-2 * i / d)
            u, v = x[..., row, i], x[..., row, i + d // 2]
            out[..., row, i] = u * math.cos(a) - v * math.sin(a)
            out[..., row, i + d // 2] = v * math.cos(a) + u * math.sin(a)
    return out


@wrong("apply_rope", "neighbouring_pairs")
def rope_roformer(x, positions=None):
    # pairs (x[2i], x[2i+1]) as complex numbers, as in the RoFormer paper
    angles = _rope_angles(x.shape[-2], x.shape[-1], positions)
    z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * angles)
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape).astype(x.dtype)


@wrong("apply_rope", "neighbouring_pairs")
def rope_gptj_interleaved(x, positions=None):
    angles = _rope_angles(x.shape[-2], x.shape[-1], positions)
    cos, sin = np.repeat(np.cos(angles), 2, axis=-1), np.repeat(np.sin(angles), 2, axis=-1)
    rotated = np.stack([-x[..., 1::2], x[..., 0::2]], axis=-1).reshape(x.shape)
    return (x * cos + rotated * sin).astype(x.dtype)


@wrong("apply_rope", "angles_repeated_not_tiled")
def rope_repeat_angles(x, positions=None):
    d = x.shape[-1]
    angles = _rope_angles(x.shape[-2], d, positions)
    cos, sin = np.repeat(np.cos(angles), 2, axis=1), np.repeat(np.sin(angles), 2, axis=1)
    rotated = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)


@wrong("apply_rope", "wrong_direction")
def rope_minus_on_first_half(x, positions=None):
    d = x.shape[-1]
    angles = np.tile(_rope_angles(x.shape[-2], d, positions), 2)
    rotated = np.concatenate([x[..., d // 2 :], -x[..., : d // 2]], axis=-1)
    return (x * np.cos(angles) + rotated * np.sin(angles)).astype(x.dtype)


@wrong("apply_rope", "wrong_direction")
def rope_minus_sin(x, positions=None):
    d = x.shape[-1]
    angles = np.tile(_rope_angles(x.shape[-2], d, positions), 2)
    rotated = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
    return (x * np.cos(angles) - rotated * np.sin(angles)).astype(x.dtype)


@wrong("apply_rope", "exponent_i")
def rope_theta_pair_index(x, positions=None):
    d = x.shape[-1]
    angles = np.tile(_rope_angles(x.shape[-2], d, positions, exponent=1), 2)
    rotated = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
    return (x * np.cos(angles) + rotated * np.sin(angles)).astype(x.dtype)


@wrong("apply_rope", "positions_ignored")
def rope_always_from_zero(x, positions=None):
    d = x.shape[-1]
    angles = np.tile(_rope_angles(x.shape[-2], d, None), 2)
    rotated = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
    return (x * np.cos(angles) + rotated * np.sin(angles)).astype(x.dtype)


@wrong("apply_rope", None)
def rope_values_scaled(x, positions=None):
    return rope_llama_halves(x, positions) * 1.5


# --- pre_ln_block -------------------------------------------------------------------------


@correct("pre_ln_block")
def pre_ln_two_steps(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    attn_out, _ = attention(h, h, h, mask)
    x = x + attn_out
    return x + feed_forward(norm2(x))


@correct("pre_ln_block")
def pre_ln_functional(x, attention, norm1, feed_forward, norm2, mask=None):
    def layer_norm(y, norm):
        return F.layer_norm(y, norm.normalized_shape, norm.weight, norm.bias, norm.eps)

    h = layer_norm(x, norm1)
    x = x + attention(h, h, h, mask, need_weights=False)[0]
    first, activation, second = feed_forward
    return x + second(activation(first(layer_norm(x, norm2))))


@correct("pre_ln_block")
def pre_ln_residual_variable(x, attention, norm1, feed_forward, norm2, mask=None):
    residual = x
    out = attention(norm1(x), mask=mask)[0]
    residual = residual + out
    return residual + feed_forward(norm2(residual))


@wrong("pre_ln_block", "post_ln")
def pre_ln_as_in_the_paper(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x + attention(x, x, x, mask)[0])
    return norm2(h + feed_forward(h))


@wrong("pre_ln_block", "residual_from_normalised")
def pre_ln_normalised_stream(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x)
    x = x + attention(x, mask=mask)[0]
    x = norm2(x)
    return x + feed_forward(x)


@wrong("pre_ln_block", "no_feed_forward_residual")
def pre_ln_one_residual(x, attention, norm1, feed_forward, norm2, mask=None):
    out, _ = attention(norm1(x), mask=mask)
    return feed_forward(norm2(x + out))


@wrong("pre_ln_block", "one_norm_for_both")
def pre_ln_norm1_twice(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask=mask)[0]
    return x + feed_forward(norm1(x))


@wrong("pre_ln_block", "mask_polarity")
def pre_ln_like_pytorch_mask(x, attention, norm1, feed_forward, norm2, mask=None):
    hidden = None if mask is None else torch.logical_not(mask)
    x = x + attention(norm1(x), mask=hidden)[0]
    return x + feed_forward(norm2(x))


@wrong("pre_ln_block", "mask_ignored")
def pre_ln_without_mask(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    x = x + attention(h, h, h)[0]
    return x + feed_forward(norm2(x))


# --- induction_score ----------------------------------------------------------------------


def _diagonal(weights, offset):
    """w[..., j, j + offset] (offset may be negative), as np.diagonal gives it."""
    return np.diagonal(weights, offset=offset, axis1=-2, axis2=-1)


@correct("induction_score")
def induction_diagonal(weights, period):
    return _diagonal(weights, 1 - period)[..., 1:].mean(-1)  # w[i, i - period + 1], i >= period


@correct("induction_score")
def induction_loop(weights, period):
    n = weights.shape[-1]
    total = 0
    for i in range(period, n):
        total = total + weights[..., i, i - period + 1]
    return total / (n - period)


@correct("induction_score")
def induction_take_along(weights, period):
    n = weights.shape[-1]
    rows = weights[..., period:, :]  # the queries with an earlier copy
    keys = (np.arange(period, n) - period + 1)[:, None]
    keys = np.broadcast_to(keys, (*rows.shape[:-1], 1))
    return np.take_along_axis(rows, keys, axis=-1)[..., 0].mean(-1)


@wrong("induction_score", "previous_occurrence")
def induction_duplicate_token(weights, period):
    return _diagonal(weights, -period).mean(-1)  # w[i, i - period]


@wrong("induction_score", "previous_occurrence")
def induction_same_token_loop(weights, period):
    n = weights.shape[-1]
    picked = [weights[..., i, i - period] for i in range(period, n)]
    return np.mean(picked, axis=0)


@wrong("induction_score", "all_queries")
def induction_over_all_queries(weights, period):
    n = weights.shape[-1]
    total = sum(weights[..., i, i - period + 1] for i in range(period, n))
    return total / n


@wrong("induction_score", "sum_not_mean")
def induction_summed(weights, period):
    return _diagonal(weights, -(period - 1))[..., 1:].sum(-1)


@wrong("induction_score", "queries_and_keys_swapped")
def induction_transposed(weights, period):
    return _diagonal(weights, period - 1)[..., 1:].mean(-1)  # w[i - period + 1, i]


@wrong("induction_score", None)
def induction_squared(weights, period):
    return induction_diagonal(weights, period) ** 2
