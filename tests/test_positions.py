"""mha.positions: hand-computed values, an independent formulation, the relative-offset property,
dtype and array type kept (NumPy, torch, a strict array-API namespace), float64 angles at long
contexts, Llama 3's scaling and ALiBi by hand, clear errors (Hugging Face's own RoPE, scaling and
ALiBi are the oracles of tests/test_hf_oracles.py)."""

import math
import subprocess
import sys

import array_api_compat
import array_api_strict as xs
import numpy as np
import pytest
import torch

from mha.positions import (
    ALiBi,
    Llama3Scaling,
    RoPE,
    alibi_slopes,
    apply_rope,
    frequencies,
    rotate_half,
    sinusoidal,
)

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

# --- sinusoidal --------------------------------------------------------------------------------


def test_sinusoidal_by_hand():
    # d_model = 4: the two frequencies are 10000^0 = 1 and 10000^(-2/4) = 1/100
    expected = [
        [0.0, 1.0, 0.0, 1.0],
        [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)],
        [math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)],
    ]
    np.testing.assert_allclose(sinusoidal(3, 4), expected, rtol=0, atol=1e-15)
    # base 4, d_model = 2: one pair, frequency 1
    np.testing.assert_allclose(sinusoidal(2, 2, base=4), [[0, 1], [math.sin(1), math.cos(1)]])


def test_sinusoidal_matches_the_papers_formula_written_as_loops():
    n, d, base = 7, 10, 500.0
    expected = np.empty((n, d))
    for p in range(n):
        for i in range(d // 2):
            expected[p, 2 * i] = math.sin(p / base ** (2 * i / d))
            expected[p, 2 * i + 1] = math.cos(p / base ** (2 * i / d))
    np.testing.assert_allclose(sinusoidal(n, d, base=base), expected, rtol=1e-13, atol=1e-14)


def test_a_fixed_offset_is_a_rotation_of_each_sin_cos_pair():
    """PE[p + k] is PE[p] with pair i turned by k*theta_i: the same linear map for every p."""
    n, d, k = 12, 8, 3
    pe = sinusoidal(n, d).reshape(n, d // 2, 2)  # (n, pairs, (sin, cos))
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(k * theta), np.sin(k * theta)
    shifted = np.stack(
        [pe[..., 0] * c + pe[..., 1] * s, pe[..., 1] * c - pe[..., 0] * s], axis=-1
    )  # sin(a + b), cos(a + b)
    np.testing.assert_allclose(shifted[: n - k], pe[k:], atol=1e-12)


@pytest.mark.parametrize(
    ("like", "array_type", "dtype"),
    [
        (np.zeros(1, np.float32), np.ndarray, np.float32),
        (np.zeros(1, np.float64), np.ndarray, np.float64),
        (torch.zeros(1, dtype=torch.float32), torch.Tensor, torch.float32),
        (torch.zeros(1, dtype=torch.float64), torch.Tensor, torch.float64),
        (torch.zeros(1, dtype=torch.bfloat16), torch.Tensor, torch.bfloat16),
    ],
    ids=["np32", "np64", "torch32", "torch64", "torch-bf16"],
)
def test_sinusoidal_takes_the_library_and_dtype_of_like(like, array_type, dtype):
    pe = sinusoidal(5, 6, like=like)
    assert type(pe) is array_type and pe.dtype == dtype and tuple(pe.shape) == (5, 6)
    host = pe.float().numpy() if isinstance(pe, torch.Tensor) else pe
    tolerance = 1e-2 if dtype == torch.bfloat16 else 1e-6
    np.testing.assert_allclose(host, sinusoidal(5, 6), atol=tolerance)


def test_sinusoidal_defaults_to_numpy_float64_and_runs_on_strict_arrays():
    assert sinusoidal(2, 2).dtype == np.float64
    strict = sinusoidal(4, 6, like=xs.asarray([0.0], dtype=xs.float32))
    assert isinstance(strict, type(xs.asarray(0.0))) and strict.dtype == xs.float32
    np.testing.assert_allclose(np.asarray(strict), sinusoidal(4, 6), atol=1e-6)


# --- rotary position embeddings ----------------------------------------------------------------


def test_rope_by_hand():
    # d = 2: one pair (x0, x1) turned by p radians
    x = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 2.0]])  # positions 0, 1, 2
    expected = [[1, 0], [math.cos(1), math.sin(1)], [-2 * math.sin(2), 2 * math.cos(2)]]
    np.testing.assert_allclose(apply_rope(x), expected, atol=1e-15)
    # d = 4, rotate-half: pairs are (x0, x2) at 1 rad/position and (x1, x3) at 0.01 rad/position
    x = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
    out = apply_rope(x, positions=[1, 2])
    np.testing.assert_allclose(out[0], [math.cos(1), 0, math.sin(1), 0], atol=1e-15)
    np.testing.assert_allclose(out[1], [0, math.cos(0.02), 0, math.sin(0.02)], atol=1e-15)


def test_rotate_half_by_hand():
    np.testing.assert_array_equal(rotate_half(np.array([1.0, 2.0, 3.0, 4.0])), [-3, -4, 1, 2])


def _rope_as_complex_numbers(x, positions, base=10000.0):
    """Independent formulation: z_i = x_i + 1j x_{i + d/2}, multiplied by exp(1j p theta_i)."""
    d = x.shape[-1]
    z = x[..., : d // 2] + 1j * x[..., d // 2 :]
    theta = base ** (-2.0 * np.arange(d // 2) / d)
    z = z * np.exp(1j * np.asarray(positions, dtype=np.float64)[..., None] * theta)
    return np.concatenate([z.real, z.imag], axis=-1)


@pytest.mark.parametrize(
    ("shape", "positions"),
    [
        ((6, 8), None),
        ((2, 3, 5, 4), [3, 7, 0, 11, 2]),
        ((2, 1, 4, 6), np.array([[[0, 1, 2, 3]], [[10, 11, 12, 13]]])),  # per sequence
        ((3, 16), [0.5, 1.5, 100.0]),  # fractional positions are allowed
    ],
)
def test_rope_equals_the_complex_rotation_of_pairs(rng, shape, positions):
    x = rng.standard_normal(shape)
    expected_positions = np.arange(shape[-2]) if positions is None else positions
    np.testing.assert_allclose(
        apply_rope(x, positions), _rope_as_complex_numbers(x, expected_positions), atol=1e-12
    )
    np.testing.assert_allclose(
        apply_rope(x, positions, base=50.0),
        _rope_as_complex_numbers(x, expected_positions, base=50.0),
        atol=1e-12,
    )


def test_rope_dot_products_depend_only_on_the_offset(rng):
    q, k = rng.standard_normal((2, 16))
    scores = {}
    for m in range(0, 40, 3):
        for n in range(0, 40, 5):
            q_m = apply_rope(q[None], [m])[0]
            k_n = apply_rope(k[None], [n])[0]
            scores.setdefault(m - n, []).append(q_m @ k_n)
    for offset, values in scores.items():
        np.testing.assert_allclose(values, values[0], atol=1e-12, err_msg=f"offset {offset}")
    assert np.ptp([v[0] for v in scores.values()]) > 0.1  # yet the offset does matter
    # at offset 0 it is the plain dot product: rotations keep lengths and angles
    np.testing.assert_allclose(scores[0][0], q @ k, atol=1e-12)


def test_rope_positions_default_to_0_to_n_minus_1_and_a_cached_suffix_agrees(rng):
    x = rng.standard_normal((2, 9, 6))
    np.testing.assert_array_equal(apply_rope(x), apply_rope(x, np.arange(9)))
    # a KV cache rotates new tokens with their true positions: the same as rotating everything
    np.testing.assert_allclose(apply_rope(x[:, 6:], [6, 7, 8]), apply_rope(x)[:, 6:], atol=1e-15)
    np.testing.assert_array_equal(apply_rope(x[:, :1]), x[:, :1])  # position 0: no rotation


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rope_keeps_numpy_dtype(rng, dtype):
    x = rng.standard_normal((2, 5, 8)).astype(dtype)
    out = apply_rope(x, np.arange(5))
    assert type(out) is np.ndarray and out.dtype == dtype
    np.testing.assert_allclose(out, apply_rope(x.astype(np.float64)), atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_rope_keeps_torch_tensors_and_their_dtype_and_passes_gradients(rng, dtype):
    x64 = rng.standard_normal((2, 3, 5, 8))
    x = torch.tensor(x64, dtype=dtype, requires_grad=True)
    out = apply_rope(x, torch.arange(5))
    assert type(out) is torch.Tensor and out.dtype == dtype and out.shape == x.shape
    tolerance = {torch.float32: 1e-5, torch.float64: 1e-12, torch.bfloat16: 5e-2}[dtype]
    np.testing.assert_allclose(out.detach().double().numpy(), apply_rope(x64), atol=tolerance)
    out.pow(2).sum().backward()  # rotations keep the norm: d|out|^2/dx = 2x
    np.testing.assert_allclose(x.grad.double().numpy(), 2 * x.detach().double().numpy(), atol=0.1)
    assert apply_rope(x, [0, 1, 2, 3, 4]).dtype == dtype  # positions as a list


def test_rope_runs_on_strict_arrays(rng):
    x = rng.standard_normal((3, 4))
    out = apply_rope(xs.asarray(x), xs.asarray([2, 3, 5]))
    assert isinstance(out, type(xs.asarray(0.0)))
    np.testing.assert_allclose(np.asarray(out), apply_rope(x, [2, 3, 5]), atol=1e-15)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: apply_rope(np.zeros((4, 5))), ValueError, "must be even.*got 5"),
        (lambda: apply_rope(np.zeros(4)), ValueError, r"x must have at least 2 dimensions"),
        (lambda: apply_rope(np.zeros((4, 6)), [0, 1]), ValueError, r"positions must have shape \(n,\) = \(4,\)"),
        (lambda: apply_rope(np.zeros((2, 4, 6)), np.zeros((3, 4))), ValueError, r"broadcasts to x's \(2, 4\).*got shape \(3, 4\)"),
        (lambda: apply_rope(np.zeros((4, 6)), np.zeros((2, 4))), ValueError, "without growing"),
        (lambda: apply_rope(np.zeros((4, 6)), 3), ValueError, r"got shape \(\)"),
        (lambda: apply_rope(np.zeros((2, 6)), [True, False]), TypeError, "integers or floats"),
        (lambda: apply_rope(np.zeros((2, 6), dtype=np.int64)), TypeError, "x must be a floating"),
        (lambda: apply_rope([[1.0, 2.0]]), TypeError, "x must be an array"),
        (lambda: apply_rope(np.zeros((2, 6)), base=1), ValueError, "base must be a number greater than 1"),
        (lambda: sinusoidal(3, 5), ValueError, "d_model must be even"),
        (lambda: sinusoidal(0, 4), ValueError, "n must be a positive integer"),
        (lambda: sinusoidal(3, 4, like=np.zeros(2, dtype=np.int32)), TypeError, "like must be a floating"),
        (lambda: sinusoidal(3, 4, like=[0.0]), TypeError, "like must be an array"),
    ],
)  # fmt: skip
def test_bad_arguments_are_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_positions_import_no_heavy_library():
    code = (
        "import sys, mha.positions; mha.positions.apply_rope; "
        "print(sorted(m for m in ('torch', 'cupy', 'matplotlib') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]", result.stdout


# --- precision, RoPE as an attention option, Llama 3 scaling, ALiBi ----------------------------


def test_rope_angles_in_float64_keep_float32_rotations_exact_at_long_contexts(rng):
    """A float32 theta_i one ulp off, times position 40960, turns a pair visibly (issue 25).

    With the angles in float64 the float32 result is within a few roundings of float32 of
    the float64 rotation (cos and sin rounded, two products and a sum: at most 4 u |x| per
    feature, u = 2^-24, |x| <= sqrt(2) max|x| for a pair).
    """
    d, positions = 128, np.arange(40960 - 64, 40961)
    x = rng.standard_normal((positions.size, d))
    exact = _rope_as_complex_numbers(x, positions)
    got = apply_rope(x.astype(np.float32), positions)
    assert got.dtype == np.float32
    bound = 4 * 2.0**-24 * math.sqrt(2) * np.abs(x).max()
    assert np.abs(got - exact).max() <= bound
    # the same rotation with float32 angles, as the package computed it before: far worse
    theta32 = (10000.0 ** (-np.arange(0, d, 2, dtype=np.float32) / d)).astype(np.float32)
    angles32 = positions[:, None].astype(np.float32) * theta32
    cos32, sin32 = np.cos(angles32), np.sin(angles32)
    x32 = x.astype(np.float32)
    half = d // 2
    old = np.concatenate(
        [
            x32[:, :half] * cos32 - x32[:, half:] * sin32,
            x32[:, half:] * cos32 + x32[:, :half] * sin32,
        ],
        axis=-1,
    )
    assert np.abs(old - exact).max() > 100 * bound


def test_frequencies_are_float64_and_take_the_library(rng):
    theta = frequencies(8, base=10000.0)  # 10^4^(-2i/8) = 10^-i
    assert theta.dtype == np.float64
    np.testing.assert_allclose(theta, [1.0, 0.1, 0.01, 0.001], rtol=1e-15)
    on_torch = frequencies(8, base=100.0, xp=array_api_compat.array_namespace(torch.zeros(1)))
    assert isinstance(on_torch, torch.Tensor) and on_torch.dtype == torch.float64


def test_llama3_scaling_by_hand():
    """Wavelengths 2 pi / theta: below L/4 kept, above L divided by the factor, a blend between."""
    scaling = Llama3Scaling(factor=4.0, low_freq_factor=1.0, high_freq_factor=2.0,
                            original_max_position=100)  # fmt: skip
    xp = array_api_compat.array_namespace(np.zeros(1))
    wavelengths = np.array([10.0, 49.0, 75.0, 101.0, 1000.0])
    theta = 2 * math.pi / wavelengths
    # 75: s = (100/75 - 1) / (2 - 1) = 1/3, theta' = (2/3) theta / 4 + (1/3) theta
    expected = [theta[0], theta[1], theta[2] * (2 / 3 / 4 + 1 / 3), theta[3] / 4, theta[4] / 4]
    np.testing.assert_allclose(scaling.apply(xp, theta), expected, rtol=1e-15)
    scaled = apply_rope(np.ones((3, 8)), [0, 5, 9], scaling=scaling)
    plain = apply_rope(np.ones((3, 8)), [0, 5, 9])
    assert not np.allclose(scaled, plain)


def test_rope_rotate_heads_puts_queries_at_the_last_key_positions(rng):
    q, k = rng.standard_normal((2, 3, 2, 8)), rng.standard_normal((2, 3, 5, 8))  # (B, h, n, d)
    rope = RoPE(base=100.0)
    q_rot, k_rot = rope.rotate_heads(q, k)
    np.testing.assert_allclose(q_rot, apply_rope(q, [3, 4], base=100.0), atol=1e-15)
    np.testing.assert_allclose(k_rot, apply_rope(k, np.arange(5), base=100.0), atol=1e-15)
    q_rot, k_rot = rope.rotate_heads(q, k, start=7)  # after 7 cached tokens
    np.testing.assert_allclose(k_rot, apply_rope(k, np.arange(7, 12), base=100.0), atol=1e-15)
    np.testing.assert_allclose(q_rot, apply_rope(q, [10, 11], base=100.0), atol=1e-15)
    per_sequence = np.array([[0, 1, 2, 3, 4], [5, 7, 9, 11, 13]])  # (B, n_k)
    q_rot, k_rot = RoPE(base=100.0, positions=per_sequence).rotate_heads(q, k[:1])  # k broadcasts
    for b in range(2):
        np.testing.assert_allclose(
            k_rot[b], apply_rope(k[0], per_sequence[b], base=100.0), atol=1e-15
        )
        np.testing.assert_allclose(
            q_rot[b], apply_rope(q[b], per_sequence[b, 3:], base=100.0), atol=1e-15
        )


def test_alibi_by_hand():
    assert alibi_slopes(4) == (0.25, 0.0625, 2.0**-6, 2.0**-8)
    assert alibi_slopes(2) == (2.0**-4, 2.0**-8)
    assert alibi_slopes(6) == (0.25, 0.0625, 2.0**-6, 2.0**-8, 2.0**-1, 2.0**-3)  # 4, then odd of 8
    bias = ALiBi(2)(np.array([3.0, 4.0]), np.arange(5.0))  # queries at 3, 4; keys 0..4
    expected_head_0 = 2.0**-4 * (np.arange(5.0)[None, :] - np.array([[3.0], [4.0]]))
    np.testing.assert_array_equal(bias[0], expected_head_0)
    np.testing.assert_array_equal(ALiBi(2)(np.array([3.0, 4.0]), np.arange(5.0), 1), bias[1])
    assert bias.shape == (2, 2, 5)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: Llama3Scaling(factor=0), ValueError, "factor must be a positive number"),
        (lambda: Llama3Scaling(low_freq_factor=4.0, high_freq_factor=2.0), ValueError, "must be greater than low_freq_factor"),
        (lambda: Llama3Scaling(original_max_position=0), ValueError, "original_max_position must be a positive integer"),
        (lambda: RoPE(base=0.5), ValueError, "base must be a number greater than 1"),
        (lambda: RoPE(scaling={"factor": 8}), TypeError, "scaling must be an mha.positions.Llama3Scaling"),
        (lambda: apply_rope(np.zeros((2, 4)), scaling=2.0), TypeError, "scaling must be an mha.positions.Llama3Scaling"),
        (lambda: RoPE(positions=[0, 1]).rotate_heads(np.zeros((1, 3, 4)), np.zeros((1, 2, 4))), ValueError, "more queries than keys"),
        (lambda: RoPE(positions=[0, 1, 2]).rotate_heads(np.zeros((1, 2, 4)), np.zeros((1, 2, 4))), ValueError, r"positions must have shape \(n,\) = \(2,\)"),
        (lambda: ALiBi(0), ValueError, "num_heads must be a positive integer"),
        (lambda: frequencies(5), ValueError, "d must be even"),
    ],
)  # fmt: skip
def test_bad_options_are_named(call, error, words):
    with pytest.raises(error, match=words):
        call()
