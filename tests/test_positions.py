"""mha.positions: hand-computed values, an independent formulation, the relative-offset property,
dtype and array type kept (NumPy, torch, a strict array-API namespace), clear errors."""

import math
import subprocess
import sys

import array_api_strict as xs
import numpy as np
import pytest
import torch

from mha.positions import apply_rope, rotate_half, sinusoidal

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
