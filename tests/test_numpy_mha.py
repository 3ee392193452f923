"""Properties of the NumPy variant that hold whatever the weights."""

import numpy as np
import pytest

import mha


@pytest.mark.parametrize("batch", [(), (3,), (2, 3)])
@pytest.mark.parametrize("num_heads", [1, 2, 8])
def test_per_head_loop_equals_batched(rng, batch, num_heads):
    params = mha.init_params(16, num_heads, d_k=3, d_v=5, bias=True, dtype=np.float64, seed=3)
    for name in ("b_q", "b_k", "b_v", "b_o"):
        setattr(params, name, rng.standard_normal(getattr(params, name).shape))
    q = rng.standard_normal((*batch, 4, 16))
    kv = rng.standard_normal((*batch, 6, 16))
    mask = rng.random((num_heads, 4, 6)) < 0.5  # a different mask per head
    looped, looped_w = mha.multi_head_attention_loop(q, kv, kv, params, mask)
    batched, batched_w = mha.multi_head_attention(q, kv, kv, params, mask)
    np.testing.assert_allclose(looped, batched, atol=1e-12)
    np.testing.assert_allclose(looped_w, batched_w, atol=1e-12)


def test_split_then_merge_is_identity_and_split_is_not_a_plain_reshape(rng):
    x = rng.standard_normal((2, 5, 12))
    heads = mha.split_heads(x, 3)
    assert heads.shape == (2, 3, 5, 4)
    np.testing.assert_array_equal(mha.merge_heads(heads), x)
    np.testing.assert_array_equal(heads[:, 1], x[:, :, 4:8])  # head 1 owns features 4:8
    assert not np.array_equal(heads, x.reshape(2, 3, 5, 4))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_rows_sum_to_one_and_stay_finite_for_huge_logits(rng, dtype):
    x = (rng.standard_normal((4, 7)) * 1e4).astype(dtype)
    x[0] = 1e4
    x[1] = -1e4
    p = mha.softmax(x)
    assert p.dtype == dtype
    assert np.isfinite(p).all()
    np.testing.assert_allclose(p.sum(axis=-1), 1, rtol=1e-6)
    np.testing.assert_allclose(p[0], 1 / 7, rtol=1e-6)


def test_softmax_along_another_axis(rng):
    x = rng.standard_normal((3, 4))
    np.testing.assert_allclose(mha.softmax(x, axis=0), mha.softmax(x.T).T, atol=1e-15)
    e = np.exp(x)
    np.testing.assert_allclose(mha.softmax(x, axis=0), e / e.sum(axis=0), atol=1e-15)


def test_fully_masked_rows_give_zeros_not_nan(rng):
    q = rng.standard_normal((2, 3, 4))
    mask = np.ones((2, 3, 5), dtype=bool)
    mask[0, 1] = False
    out, weights = mha.scaled_dot_product_attention(
        q, rng.standard_normal((2, 5, 4)), rng.standard_normal((2, 5, 6)), mask
    )
    assert np.isfinite(out).all()
    np.testing.assert_array_equal(weights[0, 1], 0)
    np.testing.assert_array_equal(out[0, 1], 0)
    np.testing.assert_allclose(weights[1].sum(-1), 1)

    params = mha.init_params(8, 2)
    x = rng.standard_normal((2, 4, 8)).astype(np.float32)
    out, weights = mha.multi_head_attention(x, x, x, params, mha.padding_mask([0, 4], 4))
    assert np.isfinite(out).all()
    np.testing.assert_array_equal(weights[0], 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_dtype_follows_the_inputs(rng, dtype):
    params = mha.init_params(8, 2, dtype=dtype)
    x = rng.standard_normal((2, 4, 8)).astype(dtype)
    out, weights = mha.multi_head_attention(x, x, x, params)
    assert out.dtype == dtype and weights.dtype == dtype
    if dtype == np.float16:  # the softmax runs in float32: weights still sum to 1 closely
        np.testing.assert_allclose(weights.astype(np.float32).sum(-1), 1, atol=2e-3)


def test_weights_are_an_explicit_softmax(rng):
    """The SDPA formula written out independently: softmax(q k^T / sqrt(d_k))."""
    q, k, v = (
        rng.standard_normal((3, 5, 4)),
        rng.standard_normal((3, 6, 4)),
        rng.standard_normal((3, 6, 2)),
    )
    scores = np.einsum("bqd,bkd->bqk", q, k) / 2.0
    expected = np.exp(scores) / np.exp(scores).sum(-1, keepdims=True)
    out, weights = mha.scaled_dot_product_attention(q, k, v)
    np.testing.assert_allclose(weights, expected, atol=1e-12)
    np.testing.assert_allclose(out, np.einsum("bqk,bkd->bqd", expected, v), atol=1e-12)


def test_need_weights_false_returns_none_and_the_same_output(rng):
    params = mha.init_params(8, 2)
    x = rng.standard_normal((2, 4, 8)).astype(np.float32)
    out, weights = mha.multi_head_attention(x, x, x, params, need_weights=False)
    assert weights is None
    np.testing.assert_allclose(out, mha.multi_head_attention(x, x, x, params)[0], atol=1e-6)


def test_init_params_is_seeded_glorot_and_sized(rng):
    a, b = mha.init_params(64, 4, seed=1), mha.init_params(64, 4, seed=1)
    np.testing.assert_array_equal(a.w_q, b.w_q)
    assert not np.array_equal(a.w_q, mha.init_params(64, 4, seed=2).w_q)
    limit = np.sqrt(6 / (64 + 64))
    assert np.abs(a.w_q).max() <= limit and np.abs(a.w_q).max() > 0.9 * limit
    p = mha.init_params(64, 4, d_k=8, d_v=24, bias=True)
    assert (p.w_q.shape, p.w_k.shape, p.w_v.shape, p.w_o.shape) == (
        (64, 32),
        (64, 32),
        (64, 96),
        (96, 64),
    )
    assert (p.d_k, p.d_v, p.d_model) == (8, 24, 64)
    assert p.num_parameters() == 64 * 32 * 2 + 64 * 96 + 96 * 64 + 32 * 2 + 96 + 64


def test_state_dict_round_trip(rng):
    params = mha.init_params(8, 2, bias=True, seed=4)
    state = mha.to_torch_state_dict(params)
    np.testing.assert_array_equal(state["in_proj_weight"][8:16], params.w_k.T)
    back = mha.from_torch_state_dict(state, 2)
    for name in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"):
        np.testing.assert_array_equal(getattr(back, name), getattr(params, name))
