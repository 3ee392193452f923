"""Chapter 10: the sinusoidal encoding, rotary embeddings, a pre-LN block, the induction score."""

import math

import numpy as np
import torch
import torch.nn.functional as F

from corpus import correct, predicted, wrong

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


@wrong("apply_rope", "constant:1.5")
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


# held-out round 3's class (ch10:18, not its code): the slip in one sub-layer only
@wrong("pre_ln_block", "residual_from_normalised_in_attention")
def pre_ln_attention_residual_normalised(x, attention, norm1, feed_forward, norm2, mask=None):
    normed = norm1(x)
    stream = normed + attention(normed, mask=mask)[0]
    return stream + feed_forward(norm2(stream))


@wrong("pre_ln_block", "residual_from_normalised_in_feed_forward")
def pre_ln_feed_forward_residual_normalised(x, attention, norm1, feed_forward, norm2, mask=None):
    stream = x + attention(norm1(x), mask=mask)[0]
    normed = norm2(stream)
    return normed + feed_forward(normed)


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


@wrong("induction_score", "function:square")
def induction_squared(weights, period):
    return induction_diagonal(weights, period) ** 2


# --- written blind (issue 22, round 1): from the notebooks only, without the checks' tables ---


# blind round 1, ch09:0: outer product of positions and inverse frequencies, sines in the even columns, cosines in the odd
@correct("sinusoidal")
def sinusoidal_outer_product_of_positions_and_inverse(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model), dtype=np.float64)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


# blind round 1, ch09:1: double loop with math.sin / math.cos, theta_i = exp(-2i ln(10000) / d_model)
@correct("sinusoidal")
def sinusoidal_double_loop_with_math_sin_math(n, d_model):
    pe = np.empty((n, d_model), dtype=np.float64)
    for p in range(n):
        for i in range(d_model // 2):
            theta = math.exp(-2 * i * math.log(10000.0) / d_model)
            pe[p, 2 * i] = math.sin(p * theta)
            pe[p, 2 * i + 1] = math.cos(p * theta)
    return pe


# blind round 1, ch09:2: stack sin and cos on a new last axis and reshape: (n, d/2, 2) -> (n, d) interleaves them
@correct("sinusoidal")
def sinusoidal_stack_sin_and_cos_on_a(n, d_model):
    theta = np.power(10000.0, -np.arange(d_model // 2) * 2.0 / d_model)
    angles = np.outer(np.arange(n, dtype=np.float64), theta)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d_model)


# blind round 1, ch09:3: sin and cos swapped: cosines in the even columns
@wrong("sinusoidal", "sin_cos_swapped")
def sinusoidal_sin_and_cos_swapped_cosines_in(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    return pe


# blind round 1, ch09:4: concatenates all sines then all cosines instead of interleaving them
@wrong("sinusoidal", "halves_not_interleaved")
def sinusoidal_concatenates_all_sines_then_all_cosines(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)


# blind round 1, ch09:5: exponent i/d_model with the pair index i (forgot the factor 2)
@wrong("sinusoidal", "exponent_i")
def sinusoidal_exponent_i_d_model_with_the(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(d_model // 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


# blind round 1, ch09:6: gives each column its own frequency 10000^(-j/d_model): the odd column's cosine uses a slightly different frequency from its sine
@wrong("sinusoidal", "exponent_of_column")
def sinusoidal_gives_each_column_its_own_frequency(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(d_model) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles[:, 0::2])
    pe[:, 1::2] = np.cos(angles[:, 1::2])
    return pe


# blind round 1, ch09:7: positions start at 1 instead of 0
@wrong("sinusoidal", "positions_from_one")
def sinusoidal_positions_start_at_1_instead_of(n, d_model):
    angles = np.arange(1, n + 1)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


# blind round 1, ch09:8: multiplies by 10000^(2i/d) instead of dividing: the clocks speed up instead of slowing down
@wrong("sinusoidal", "exponent_sign")
def sinusoidal_multiplies_by_10000_2i_d_instead(n, d_model):
    angles = np.arange(n)[:, None] * 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


# blind round 1, ch09:9: returns float32 where float64 is asked
@wrong("sinusoidal", None)
def sinusoidal_right_values_stored_in_a_float32(n, d_model):
    angles = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


# blind round 1, ch09:10: the hint: cos/sin tables concatenated twice, x * cos + rotate_half(x) * sin, cast back
@correct("apply_rope")
def apply_rope_the_hint_cos_sin_tables_concatenated(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2], x.shape[-1]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)  # (d/2,)
    angles = p[..., None] * theta  # (n, d/2)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    half = d // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)


# blind round 1, ch09:11: rotate the two halves explicitly as 2-D rotations
@correct("apply_rope")
def apply_rope_rotate_the_two_halves_explicitly_as(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    half = d // 2
    pos = (
        np.arange(n, dtype=np.float64)
        if positions is None
        else np.asarray(positions, dtype=np.float64)
    )
    i = np.arange(half, dtype=np.float64)
    ang = pos[:, None] * np.power(10000.0, -2.0 * i / d)
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., :half], x[..., half:]
    out = np.empty(x.shape, dtype=x.dtype)
    out[..., :half] = x1 * c - x2 * s
    out[..., half:] = x2 * c + x1 * s
    return out


# blind round 1, ch09:12: complex numbers: (x_i + i x_{i+d/2}) * exp(i p theta_i), real and imaginary parts back into the two halves
@correct("apply_rope")
def apply_rope_complex_numbers_x_i_i_x(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = np.exp(-np.log(10000.0) * np.arange(half) * 2 / d)
    z = (x[..., :half] + 1j * x[..., half:]) * np.exp(1j * np.multiply.outer(p, theta))
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)


# blind round 1, ch09:13: pairs neighbouring features (2i, 2i+1), the RoFormer/GPT-J layout, not rotate-half
@wrong("apply_rope", "neighbouring_pairs")
def apply_rope_pairs_neighbouring_features_2i_2i_1(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * np.outer(p, theta))
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape).astype(x.dtype)


# blind round 1, ch09:14: rotate_half with the sign on the wrong half, (x2, -x1): rotates by -p*theta
@wrong("apply_rope", "wrong_direction")
def apply_rope_rotate_half_with_the_sign_on(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    half = d // 2
    rotated = np.concatenate([x[..., half:], -x[..., :half]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)


# blind round 1, ch09:15: builds the cos/sin tables with np.repeat (c0, c0, c1, c1, ...) instead of repeating the whole row: the angles do not match the rotate-half pairs
@wrong("apply_rope", "angles_repeated_not_tiled")
def apply_rope_builds_the_cos_sin_tables_with(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.repeat(np.cos(angles), 2, axis=-1)
    sin = np.repeat(np.sin(angles), 2, axis=-1)
    half = d // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)


# blind round 1, ch09:16: ignores the positions argument: always rotates by 0 .. n-1
@wrong("apply_rope", "positions_ignored")
def apply_rope_ignores_the_positions_argument_always_rotates(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    angles = np.arange(n)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    half = d // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)


# blind round 1, ch09:17: theta_i = 10000^(-i/d) (pair index without the 2)
@wrong("apply_rope", "exponent_i")
def apply_rope_theta_i_10000_i_d_pair(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(d // 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    half = d // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return (x * cos + rotated * sin).astype(x.dtype)


# blind round 1, ch09:18: rotates only the first half of the features (forgot the second half's update)
@wrong("apply_rope", "first_half_only")
def apply_rope_rotates_only_the_first_half_of(x, positions=None):
    x = np.asarray(x)
    n, d = x.shape[-2:]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    ang = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = x.copy()
    out[..., :half] = x[..., :half] * np.cos(ang) - x[..., half:] * np.sin(ang)
    return out


# blind round 1, ch09:19: forgot .astype(x.dtype)
@correct("apply_rope", drift=True)
def apply_rope_right_rotation_but_the_float64_angles(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else np.asarray(positions)
    angles = p[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    half = d // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin


# blind round 1, ch09:20: x = x + attention(norm1(x), mask=mask)[0]; x = x + feed_forward(norm2(x))
@correct("pre_ln_block")
def pre_ln_block_x_x_attention_norm1_x_mask(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask=mask)[0]
    return x + feed_forward(norm2(x))


# blind round 1, ch09:21: explicit q, k, v and the mask passed by position after them
@correct("pre_ln_block")
def pre_ln_block_explicit_q_k_v_and_the(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x)
    attended, _ = attention(h, h, h, mask)
    y = x + attended
    return y + feed_forward(norm2(y))


# blind round 1, ch09:22: need_weights=False (the fused path, same output) and torch.add
@correct("pre_ln_block")
def pre_ln_block_need_weights_false_the_fused_path(
    x, attention, norm1, feed_forward, norm2, mask=None
):
    attn_out, _ = attention(norm1(x), mask=mask, need_weights=False)
    y = torch.add(x, attn_out)
    return torch.add(y, feed_forward(norm2(y)))


# blind round 1, ch09:23: post-LN: normalises after each residual addition
@wrong("pre_ln_block", "post_ln")
def pre_ln_block_post_ln_normalises_after_each_residual(
    x, attention, norm1, feed_forward, norm2, mask=None
):
    x = norm1(x + attention(x, mask=mask)[0])
    return norm2(x + feed_forward(x))


# blind round 1, ch09:24: the residual adds the normalised input instead of x
@wrong("pre_ln_block", "residual_from_normalised")
def pre_ln_block_the_residual_adds_the_normalised_input(
    x, attention, norm1, feed_forward, norm2, mask=None
):
    h = norm1(x)
    x = h + attention(h, mask=mask)[0]
    h = norm2(x)
    return h + feed_forward(h)


# blind round 1, ch09:25: forgets the second residual connection
@wrong("pre_ln_block", "no_feed_forward_residual")
def pre_ln_block_forgets_the_second_residual_connection(
    x, attention, norm1, feed_forward, norm2, mask=None
):
    x = x + attention(norm1(x), mask=mask)[0]
    return feed_forward(norm2(x))


# blind round 1, ch09:26: uses norm1 before both sub-layers (norm2 never used); indistinguishable while both norms still have their initial weights 1 and biases 0
@wrong("pre_ln_block", "one_norm_for_both")
def pre_ln_block_uses_norm1_before_both_sub_layers(
    x, attention, norm1, feed_forward, norm2, mask=None
):
    x = x + attention(norm1(x), mask=mask)[0]
    return x + feed_forward(norm1(x))


# blind round 1, ch09:27: passes the mask as the second positional argument, which the attention reads as the keys
@wrong("pre_ln_block", "mask_positional")
def pre_ln_block_passes_the_mask_as_the_second(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask)[0]
    return x + feed_forward(norm2(x))


# blind round 1, ch09:28: parallel block: both sub-layers read the same input, x + attn(norm1(x)) + ff(norm2(x))
@wrong("pre_ln_block", "parallel_block")
def pre_ln_block_parallel_block_both_sub_layers_read(
    x, attention, norm1, feed_forward, norm2, mask=None
):
    return x + attention(norm1(x), mask=mask)[0] + feed_forward(norm2(x))


# blind round 1, ch09:29: adds the attention's whole (out, weights) tuple: forgot [0], raises
@wrong("pre_ln_block", "tuple_added")
def pre_ln_block_adds_the_attention_s_whole_out(
    x, attention, norm1, feed_forward, norm2, mask=None
):
    x = x + attention(norm1(x), mask=mask)
    return x + feed_forward(norm2(x))


# blind round 1, ch09:30: x += ... modifies the caller's tensor (and fails under autograd for a leaf that requires grad)
@wrong("pre_ln_block", None)
def pre_ln_block_right_block_but_updates_x_in(x, attention, norm1, feed_forward, norm2, mask=None):
    x += attention(norm1(x), mask=mask)[0]
    x += feed_forward(norm2(x))
    return x


# blind round 1, ch09:31: fancy indexing with queries m..n-1 and keys queries - m + 1, then the mean
@correct("induction_score")
def induction_score_fancy_indexing_with_queries_m_n(weights, period):
    n = weights.shape[-1]
    queries = np.arange(period, n)
    keys = queries - period + 1
    return weights[..., queries, keys].mean(axis=-1)


# blind round 1, ch09:32: the target keys lie on the diagonal with offset -(m-1): np.diagonal, dropping its first entry (query m-1)
@correct("induction_score")
def induction_score_the_target_keys_lie_on_the(weights, period):
    diag = np.diagonal(weights, offset=-(period - 1), axis1=-2, axis2=-1)  # queries m-1 .. n-1
    return diag[..., 1:].mean(axis=-1)


# blind round 1, ch09:33: a plain loop summing one weight per query
@correct("induction_score")
def induction_score_a_plain_loop_summing_one_weight(weights, period):
    w = np.asarray(weights)
    n = w.shape[-1]
    total = np.zeros(w.shape[:-2], dtype=np.float64)
    for i in range(period, n):
        total = total + w[..., i, i - period + 1]
    return (total / (n - period)).astype(w.dtype)


# blind round 1, ch09:34: scores the earlier copy itself (key i - m) instead of the token after it
@wrong("induction_score", "previous_occurrence")
def induction_score_scores_the_earlier_copy_itself_key(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q, q - period].mean(axis=-1)


# blind round 1, ch09:35: starts at query m - 1 (off by one: one query too many, whose target is key 0)
@wrong("induction_score", "one_query_too_many")
def induction_score_starts_at_query_m_1_off(weights, period):
    n = weights.shape[-1]
    q = np.arange(period - 1, n)
    return weights[..., q, q - period + 1].mean(axis=-1)


# blind round 1, ch09:36: averages over every query 0..n-1 (negative key indices wrap around)
@wrong("induction_score", "all_queries_wrapped")
def induction_score_averages_over_every_query_0_n(weights, period):
    n = weights.shape[-1]
    q = np.arange(n)
    return weights[..., q, q - period + 1].mean(axis=-1)


# blind round 1, ch09:37: indexes [keys, queries]: reads the transposed weight (key row, query column)
@wrong("induction_score", "queries_and_keys_swapped")
def induction_score_indexes_keys_queries_reads_the_transposed(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q - period + 1, q].mean(axis=-1)


# blind round 1, ch09:38: averages over the leading axes too: returns one number instead of shape (...)
@wrong("induction_score", "reduced:mean:all")
def induction_score_averages_over_the_leading_axes_too(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return float(weights[..., q, q - period + 1].mean())


# blind round 1, ch09:39: sums over the queries instead of averaging
@wrong("induction_score", "sum_not_mean")
def induction_score_sums_over_the_queries_instead_of(weights, period):
    n = weights.shape[-1]
    q = np.arange(period, n)
    return weights[..., q, q - period + 1].sum(axis=-1)


# --- predict_mean_replaced_accuracy: predictions as readers make them -------------------------


@predicted("predict_mean_replaced_accuracy", None)
def predicted_chance():
    return 0.2


@predicted("predict_mean_replaced_accuracy", None)
def predicted_a_little_above_chance():
    return 0.25


@predicted("predict_mean_replaced_accuracy", "half_the_heads")
def predicted_half_the_heads_half_the_answers():
    return 0.5


@predicted("predict_mean_replaced_accuracy", "mean_keeps_it")
def predicted_the_mean_keeps_what_matters():
    return 0.95


@predicted("predict_mean_replaced_accuracy", "nothing_left")
def predicted_nothing_right():
    return 0.0


# --- mask_order_experiment: (MASK, the largest difference from the shuffled output) -----------


@correct("mask_order_experiment")
def mask_order_causal():
    return ("causal", 0.883)


@correct("mask_order_experiment")
def mask_order_strict():
    return ["strict", 2.04]


@correct("mask_order_experiment")
def mask_order_causal_with_case_and_spaces():
    return (" Causal", 0.88)


@wrong("mask_order_experiment", "without_mask")
def mask_order_read_the_chapter_s_first_number():
    return ("causal", 0.0)


@wrong("mask_order_experiment", "with_positions")
def mask_order_read_the_chapter_s_positions_number():
    return ("strict", 0.63)


@wrong("mask_order_experiment", "other_mask")
def mask_order_answered_for_the_other_mask():
    return ("causal", 2.04)


@wrong("mask_order_experiment", "setting_unchanged")
def mask_order_not_changed():
    return ("none", 0.0)


@wrong("mask_order_experiment", "not_a_pair")
def mask_order_only_the_difference():
    return 0.883


@wrong("mask_order_experiment", "setting_not_allowed")
def mask_order_a_mask_the_cell_does_not_offer():
    return ("padding", 0.5)


@wrong("mask_order_experiment", "not_that_form")
def mask_order_answer_in_words():
    return ("causal", "it changes")


# recurring in the held-out rounds (development data)
@wrong("induction_score", "block_of_weights")
def induction_score_two_indexings(weights, period):
    n = weights.shape[-1]
    rows = weights[..., period:, :]  # the queries i >= period
    return rows[..., 1 : n - period + 1].mean(axis=(-1, -2))


@wrong("apply_rope", "exponent_over_half_d")
def apply_rope_half_d_in_the_exponent(x, positions=None):
    n, d = x.shape[-2:]
    half = d // 2
    p = np.arange(n) if positions is None else np.asarray(positions)
    theta = 1.0 / 10000.0 ** (np.arange(0, d, 2) / half)
    a = np.outer(p, theta)
    x1, x2 = x[..., :half], x[..., half:]
    out = np.concatenate(
        [x1 * np.cos(a) - x2 * np.sin(a), x2 * np.cos(a) + x1 * np.sin(a)], axis=-1
    )
    return out.astype(x.dtype)
