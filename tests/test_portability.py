"""The NumPy variant is array-API code: it runs unchanged on a strict array-API namespace.

``array_api_strict`` allows only what the standard allows (no NumPy extras, no implicit
conversions), so passing here is the CPU-side evidence that the same code runs on CuPy.
"""

import numpy as np
import pytest

import mha

xp = pytest.importorskip("array_api_strict")


def strict(a):
    return xp.asarray(a)


def test_every_public_function_runs_on_strict_arrays_and_agrees_with_numpy(rng):
    params = mha.init_params(16, 4, d_k=3, d_v=5, bias=True, dtype=np.float64, seed=2)
    params.b_v = rng.standard_normal(params.b_v.shape)
    q, kv = rng.standard_normal((2, 4, 16)), rng.standard_normal((2, 6, 16))
    mask_np = mha.combine_masks(mha.causal_mask(4, 6), mha.padding_mask([5, 6], 6))
    mask = mha.combine_masks(mha.causal_mask(4, 6, xp=xp), mha.padding_mask([5, 6], 6, xp=xp))
    assert isinstance(mask, type(strict(0.0)))
    np.testing.assert_array_equal(np.asarray(mask), mask_np)

    s_params = params.map(strict)
    for fn in (mha.multi_head_attention, mha.multi_head_attention_loop):
        out, weights = fn(strict(q), strict(kv), strict(kv), s_params, mask)
        assert isinstance(out, type(strict(0.0)))
        ref_out, ref_weights = fn(q, kv, kv, params, mask_np)
        np.testing.assert_allclose(np.asarray(out), ref_out, atol=1e-12)
        np.testing.assert_allclose(np.asarray(weights), ref_weights, atol=1e-12)

    x = rng.standard_normal((2, 5, 12))
    np.testing.assert_allclose(np.asarray(mha.softmax(strict(x), axis=1)), mha.softmax(x, axis=1))
    heads = mha.split_heads(strict(x), 3)
    np.testing.assert_array_equal(np.asarray(heads), mha.split_heads(x, 3))
    np.testing.assert_array_equal(np.asarray(mha.merge_heads(heads)), x)
    np.testing.assert_array_equal(np.asarray(mha.flip_polarity(mask)), ~mask_np)
    np.testing.assert_array_equal(np.asarray(mha.to_additive(mask)), mha.to_additive(mask_np))


def test_mixing_strict_and_numpy_arrays_is_refused(rng):
    q = rng.standard_normal((3, 4))
    with pytest.raises(TypeError, match="k comes from array_api_strict but q comes from numpy"):
        mha.scaled_dot_product_attention(q, strict(q), q)
