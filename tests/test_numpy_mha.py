"""Properties of the attention functions that hold whatever the weights, on every backend.

The ``backend`` fixture (tests/conftest.py) runs each test on NumPy, array_api_strict, the
torch variant and (on a GPU) CuPy; ``array_backend`` on the NumPy code's libraries only.
"""

import dataclasses

import numpy as np
import pytest

import mha

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


@pytest.mark.parametrize("batch", [(), (3,), (2, 3)])
@pytest.mark.parametrize("num_heads", [1, 2, 8])
def test_per_head_loop_equals_batched(rng, array_backend, batch, num_heads):
    b = array_backend
    params = mha.init_params(16, num_heads, d_k=3, d_v=5, bias=True, dtype=np.float64, seed=3)
    biases = {
        n: rng.standard_normal(getattr(params, n).shape) for n in ("b_q", "b_k", "b_v", "b_o")
    }
    params = b.asarray(dataclasses.replace(params, **biases))
    q = b.asarray(rng.standard_normal((*batch, 4, 16)))
    kv = b.asarray(rng.standard_normal((*batch, 6, 16)))
    mask = b.asarray(rng.random((num_heads, 4, 6)) < 0.5)  # a different mask per head
    looped, looped_w = mha.multi_head_attention_loop(q, kv, kv, params, mask)
    batched, batched_w = mha.multi_head_attention(q, kv, kv, params, mask)
    np.testing.assert_allclose(b.to_numpy(looped), b.to_numpy(batched), atol=1e-12)
    np.testing.assert_allclose(b.to_numpy(looped_w), b.to_numpy(batched_w), atol=1e-12)


@pytest.mark.parametrize(("dtype", "atol"), [(np.float64, 1e-12), (np.float32, 2e-5)])
def test_multi_head_attention_on_every_backend_equals_numpys(rng, backend, dtype, atol):
    params = mha.init_params(32, 4, d_k=6, d_v=5, bias=True, dtype=dtype, seed=7)
    params = dataclasses.replace(params, b_q=rng.standard_normal(24).astype(dtype))
    q = rng.standard_normal((2, 6, 32)).astype(dtype)
    kv = rng.standard_normal((2, 9, 32)).astype(dtype)  # cross-attention, n_q != n_k
    mask = mha.combine_masks(mha.causal_mask(6, 9), mha.padding_mask([9, 5], 9))
    expected, expected_w = mha.multi_head_attention(q, kv, kv, params, mask)
    q_b, kv_b, mask_b = (backend.asarray(a) for a in (q, kv, mask))
    out, weights = backend.multi_head_attention(q_b, kv_b, kv_b, params, mask_b)
    np.testing.assert_allclose(backend.to_numpy(out), expected, atol=atol)
    np.testing.assert_allclose(backend.to_numpy(weights), expected_w, atol=atol)


def test_split_then_merge_is_identity_and_split_is_not_a_plain_reshape(rng, backend):
    x = rng.standard_normal((2, 5, 12))
    heads = backend.to_numpy(backend.split_heads(backend.asarray(x), 3))
    assert heads.shape == (2, 3, 5, 4)
    merged = backend.merge_heads(backend.asarray(heads))
    np.testing.assert_array_equal(backend.to_numpy(merged), x)
    np.testing.assert_array_equal(heads[:, 1], x[:, :, 4:8])  # head 1 owns features 4:8
    assert not np.array_equal(heads, x.reshape(2, 3, 5, 4))


def test_softmax_rows_sum_to_one_and_stay_finite_for_huge_logits(rng, backend):
    for dtype in (np.float32, np.float64):
        x = (rng.standard_normal((4, 7)) * 1e4).astype(dtype)
        x[0] = 1e4
        x[1] = -1e4
        p = backend.to_numpy(backend.softmax(backend.asarray(x)))
        assert p.dtype == dtype
        assert np.isfinite(p).all()
        np.testing.assert_allclose(p.sum(axis=-1), 1, rtol=1e-6)
        np.testing.assert_allclose(p[0], 1 / 7, rtol=1e-6)


def test_softmax_along_another_axis(rng, backend):
    x = rng.standard_normal((3, 4))
    p = backend.to_numpy(backend.softmax(backend.asarray(x), axis=0))
    e = np.exp(x)
    np.testing.assert_allclose(p, e / e.sum(axis=0), atol=1e-15)


@pytest.mark.parametrize("need_weights", [True, False])
def test_fully_masked_rows_give_zeros_not_nan(rng, backend, need_weights):
    b = backend
    q = rng.standard_normal((2, 3, 4))
    mask = np.ones((2, 3, 5), dtype=bool)
    mask[0, 1] = False
    out, weights = b.scaled_dot_product_attention(
        *(
            b.asarray(a)
            for a in (q, rng.standard_normal((2, 5, 4)), rng.standard_normal((2, 5, 6)))
        ),
        b.asarray(mask),
    )
    out, weights = b.to_numpy(out), b.to_numpy(weights)
    assert np.isfinite(out).all()
    np.testing.assert_array_equal(weights[0, 1], 0)
    np.testing.assert_array_equal(out[0, 1], 0)
    np.testing.assert_allclose(weights[1].sum(-1), 1)

    params = mha.init_params(8, 2, bias=True)
    params = dataclasses.replace(params, b_o=rng.standard_normal(8).astype(np.float32))
    x = b.asarray(rng.standard_normal((2, 4, 8)).astype(np.float32))
    padding = b.asarray(mha.padding_mask([0, 4], 4))  # sequence 0: no key at all
    out, weights = b.multi_head_attention(x, x, x, params, padding, need_weights=need_weights)
    out = b.to_numpy(out)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out[0], np.broadcast_to(params.b_o, (4, 8)), atol=1e-6)
    if need_weights:
        np.testing.assert_array_equal(b.to_numpy(weights)[0], 0)


def test_dtype_follows_the_inputs(rng, backend):
    for np_dtype in backend.float_dtypes:
        params = mha.init_params(8, 2, dtype=np_dtype)
        x = backend.asarray(rng.standard_normal((2, 4, 8)).astype(np_dtype))
        out, weights = backend.multi_head_attention(x, x, x, params)
        out, weights = backend.to_numpy(out), backend.to_numpy(weights)
        assert out.dtype == np_dtype and weights.dtype == np_dtype
        if np_dtype == np.float16:  # the softmax runs in float32: weights still sum to 1 closely
            np.testing.assert_allclose(weights.astype(np.float32).sum(-1), 1, atol=2e-3)


def test_weights_are_an_explicit_softmax(rng, backend):
    """The SDPA formula written out independently: softmax(q k^T / sqrt(d_k))."""
    q, k, v = (
        rng.standard_normal((3, 5, 4)),
        rng.standard_normal((3, 6, 4)),
        rng.standard_normal((3, 6, 2)),
    )
    scores = np.einsum("bqd,bkd->bqk", q, k) / 2.0
    expected = np.exp(scores) / np.exp(scores).sum(-1, keepdims=True)
    out, weights = backend.scaled_dot_product_attention(*(backend.asarray(a) for a in (q, k, v)))
    np.testing.assert_allclose(backend.to_numpy(weights), expected, atol=1e-12)
    expected_out = np.einsum("bqk,bkd->bqd", expected, v)
    np.testing.assert_allclose(backend.to_numpy(out), expected_out, atol=1e-12)


def test_need_weights_false_returns_none_and_the_same_output(rng, backend):
    params = mha.init_params(8, 2)
    x = backend.asarray(rng.standard_normal((2, 4, 8)).astype(np.float32))
    out, weights = backend.multi_head_attention(x, x, x, params, need_weights=False)
    assert weights is None
    expected = backend.to_numpy(backend.multi_head_attention(x, x, x, params)[0])
    np.testing.assert_allclose(backend.to_numpy(out), expected, atol=1e-6)


def test_masks_built_in_each_library_equal_numpys(backend):
    causal = mha.causal_mask(3, 5, xp=backend.xp)
    np.testing.assert_array_equal(backend.to_numpy(causal), mha.causal_mask(3, 5))
    padding = mha.padding_mask([2, 0, 4], 4, xp=backend.xp)
    np.testing.assert_array_equal(backend.to_numpy(padding), mha.padding_mask([2, 0, 4], 4))


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


def test_params_are_frozen_and_replace_checks_again():
    params = mha.init_params(8, 2, bias=True, seed=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        params.b_o = np.zeros(8, np.float32)
    changed = dataclasses.replace(params, b_o=np.ones(8, np.float32))
    np.testing.assert_array_equal(changed.b_o, 1)
    np.testing.assert_array_equal(params.b_o, 0)  # the original is unchanged
    with pytest.raises(TypeError, match="b_o has dtype float64 but w_q has dtype float32"):
        dataclasses.replace(params, b_o=np.ones(8))  # float64 into float32 params
    with pytest.raises(ValueError, match="w_k has 6 columns but w_q has 8"):
        dataclasses.replace(params, w_k=params.w_k[:, :6])  # a narrowed w_k
    with pytest.raises(ValueError, match=r"b_q must have shape \(8,\), got \(6,\)"):
        dataclasses.replace(params, b_q=params.b_q[:6])
    with pytest.raises(ValueError, match="num_heads=3 does not divide the 8 columns of w_q"):
        dataclasses.replace(params, num_heads=3)
    assert params.map(np.copy).w_q is not params.w_q  # map builds new, checked params


@pytest.mark.parametrize("need_weights, budget", [(True, None), (False, None), (False, 1)])
def test_a_call_checks_its_arguments_and_finds_their_library_once(
    monkeypatch, need_weights, budget
):
    """Validation happens at the public boundary: one array-namespace lookup per call, not one
    per step (the projections, the heads, the softmax each looked it up again: 11 a call)."""
    from mha import _validate
    from mha.efficient import GQAParams, grouped_query_attention

    calls = []
    lookup = _validate.array_namespace

    def counted(**arrays):
        calls.append(sorted(arrays))
        return lookup(**arrays)

    x = np.random.default_rng(0).standard_normal((2, 6, 8)).astype(np.float32)
    params = mha.init_params(8, 2)
    gqa = GQAParams.from_mha(params, 1)
    monkeypatch.setattr(_validate, "array_namespace", counted)
    mha.multi_head_attention(x, x, x, params, need_weights=need_weights, memory_budget=budget)
    assert len(calls) == 1, calls
    calls.clear()
    grouped_query_attention(x, x, x, gqa)
    assert len(calls) == 1, calls
