"""mha.efficient: grouped-query attention and the KV cache, against known answers."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import mha
from mha.efficient import GQAParams, KVCache, decode_step, grouped_query_attention

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


def _params(d_model=24, h=6, g=2, seed=0, dtype=np.float64) -> GQAParams:
    return GQAParams.from_mha(mha.init_params(d_model, h, seed=seed, dtype=dtype), g)


def _on(backend, params: GQAParams) -> GQAParams:
    return GQAParams(*(backend.asarray(w) for w in (params.w_q, params.w_k, params.w_v, params.w_o)),
                     params.num_heads, params.num_kv_heads)  # fmt: skip


def test_with_as_many_kv_heads_as_query_heads_it_is_multi_head_attention(rng, array_backend):
    b = array_backend
    params = mha.init_params(24, 6, seed=3, dtype=np.float64)
    q, kv = rng.standard_normal((2, 5, 24)), rng.standard_normal((2, 7, 24))
    mask = mha.padding_mask([7, 4], 7)  # (B, 1, 1, n_k)
    q_b, kv_b, mask_b = b.asarray(q), b.asarray(kv), b.asarray(mask)
    gqa = _on(b, GQAParams.from_mha(params, 6))
    out, weights = grouped_query_attention(q_b, kv_b, kv_b, gqa, mask_b)
    ref_out, ref_weights = mha.multi_head_attention(q, kv, kv, params, mask)
    np.testing.assert_allclose(b.to_numpy(out), ref_out, atol=1e-12)
    np.testing.assert_allclose(b.to_numpy(weights), ref_weights, atol=1e-12)


def test_one_kv_head_is_multi_query_attention_written_out_head_by_head(rng):
    params = _params(h=4, g=1, seed=5)
    x = rng.standard_normal((3, 6, 24))
    k, v = x @ params.w_k, x @ params.w_v  # (B, n, d_k): the one shared key/value head
    heads = []
    for i in range(4):
        q_i = x @ params.w_q[:, i * 6 : (i + 1) * 6]
        scores = q_i @ k.swapaxes(-1, -2) / np.sqrt(6)
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        heads.append(weights / weights.sum(-1, keepdims=True) @ v)
    expected = np.concatenate(heads, axis=-1) @ params.w_o
    out, _ = grouped_query_attention(x, x, x, params)
    np.testing.assert_allclose(out, expected, atol=1e-12)


def test_query_head_i_reads_kv_head_i_over_group_size(rng):
    """Each K/V head serves a contiguous block of query heads (repeat, not tile)."""
    params = _params(h=6, g=2)
    x = rng.standard_normal((2, 5, 24))
    _, weights = grouped_query_attention(x, x, x, params)
    q_heads = mha.split_heads(x @ params.w_q, 6)
    k_heads = mha.split_heads(x @ params.w_k, 2)
    for i in range(6):
        _, expected = mha.scaled_dot_product_attention(q_heads[:, i], k_heads[:, i // 3], x)
        np.testing.assert_allclose(weights[:, i], expected, atol=1e-12)


def test_agrees_with_torch_sdpa_enable_gqa(rng):
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    params = _params(h=8, g=2, d_model=32)
    x = rng.standard_normal((2, 9, 32))
    heads = [
        torch.from_numpy(mha.split_heads(x @ w, n))
        for w, n in ((params.w_q, 8), (params.w_k, 2), (params.w_v, 2))
    ]
    theirs = F.scaled_dot_product_attention(*heads, is_causal=True, enable_gqa=True)
    expected = mha.merge_heads(theirs.numpy()) @ params.w_o
    out, _ = grouped_query_attention(x, x, x, params, mha.causal_mask(9))
    np.testing.assert_allclose(out, expected, atol=1e-12)


def test_a_per_head_mask_reaches_the_right_query_head(rng):
    params = _params(h=4, g=2)
    x = rng.standard_normal((5, 24))
    mask = np.ones((4, 5, 5), dtype=bool)
    mask[2, :, 1] = False  # only query head 2 may not attend key 1
    _, weights = grouped_query_attention(x, x, x, params, mask)
    assert (weights[2, :, 1] == 0).all()
    assert (np.delete(weights, 2, axis=0)[:, :, 1] > 0).all()


def test_from_mha_averages_the_key_and_value_heads_of_each_group():
    mha_params = mha.init_params(8, 4, seed=1, dtype=np.float64)
    params = GQAParams.from_mha(mha_params, 2)
    assert params.w_k.shape == (8, 4) and params.w_v.shape == (8, 4)
    first_group = (mha_params.w_k[:, 0:2] + mha_params.w_k[:, 2:4]) / 2
    np.testing.assert_allclose(params.w_k[:, 0:2], first_group)
    np.testing.assert_array_equal(params.w_q, mha_params.w_q)
    assert params.num_parameters() == 2 * 8 * 8 + 2 * 8 * 4


@pytest.mark.parametrize(("dtype", "atol"), [(np.float64, 1e-12), (np.float32, 1e-6)])
@pytest.mark.parametrize("num_kv_heads", [1, 2, 6])
def test_decoding_with_the_cache_equals_full_causal_attention(
    rng, array_backend, dtype, atol, num_kv_heads
):
    b = array_backend
    params = _params(h=6, g=num_kv_heads, dtype=dtype)
    x = rng.standard_normal((2, 10, 24)).astype(dtype)
    expected, _ = grouped_query_attention(x, x, x, params, mha.causal_mask(10))
    cache, on_b, x_b = KVCache(max_len=10), _on(b, params), b.asarray(x)
    outs = [decode_step(x_b[:, :4, :], on_b, cache)]  # prefill a 4-token prompt
    outs += [decode_step(x_b[:, i : i + 1, :], on_b, cache) for i in range(4, 10)]
    out = np.concatenate([b.to_numpy(o) for o in outs], axis=1)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, expected, atol=atol, rtol=0)
    assert cache.length == 10
    assert cache.nbytes == 2 * 2 * num_kv_heads * 10 * 4 * np.dtype(dtype).itemsize


def test_the_cache_returns_what_was_appended(rng):
    cache = KVCache(max_len=5)
    assert cache.nbytes == 0
    k1, v1 = rng.standard_normal((1, 2, 3, 4)), rng.standard_normal((1, 2, 3, 6))
    k2, v2 = rng.standard_normal((1, 2, 1, 4)), rng.standard_normal((1, 2, 1, 6))
    cache.append(k1, v1)
    keys, values = cache.append(k2, v2)
    np.testing.assert_array_equal(keys, np.concatenate([k1, k2], axis=-2))
    np.testing.assert_array_equal(values, np.concatenate([v1, v2], axis=-2))


# --- bad arguments --------------------------------------------------------------------------


def test_bad_params_raise_naming_the_argument():
    p = mha.init_params(8, 4, seed=0)
    with pytest.raises(ValueError, match="num_kv_heads=3 must divide num_heads=4"):
        GQAParams(p.w_q, p.w_k, p.w_v, p.w_o, 4, 3)
    with pytest.raises(ValueError, match="num_kv_heads must be a positive integer, got 0"):
        GQAParams(p.w_q, p.w_k, p.w_v, p.w_o, 4, 0)
    with pytest.raises(ValueError, match="w_k has d_k=1 per key head but w_q has d_k=2"):
        GQAParams(p.w_q, p.w_k[:, :2], p.w_v[:, :4], p.w_o, 4, 2)
    with pytest.raises(ValueError, match=r"w_o has 8 rows but must have h\*d_v=4"):
        GQAParams(p.w_q, p.w_k[:, :4], p.w_v[:, :2], p.w_o, 4, 2)
    with pytest.raises(TypeError, match="w_v has dtype float64 but w_q has dtype float32"):
        GQAParams(p.w_q, p.w_k[:, :4], p.w_v[:, :4].astype(np.float64), p.w_o, 4, 2)
    with pytest.raises(ValueError, match=r"num_kv_heads=3 must divide params.num_heads=4"):
        GQAParams.from_mha(p, 3)
    with pytest.raises(TypeError, match=r"params must be an mha.MHAParams, got GQAParams"):
        GQAParams.from_mha(GQAParams.from_mha(p, 2), 2)


def test_bad_attention_calls_raise_naming_the_argument(rng):
    params = _params(h=4, g=2, dtype=np.float32)
    x = rng.standard_normal((2, 5, 24)).astype(np.float32)
    with pytest.raises(
        TypeError, match=r"params must be an mha.efficient.GQAParams \(e.g. .*\), got MHAParams"
    ):
        grouped_query_attention(x, x, x, mha.init_params(24, 4))
    with pytest.raises(ValueError, match=r"k has 12 features but params.w_k expects 24"):
        grouped_query_attention(x, x[..., :12], x, params)
    with pytest.raises(TypeError, match="params has dtype float32 but q has dtype float64"):
        x64 = x.astype(np.float64)
        grouped_query_attention(x64, x64, x64, params)
    with pytest.raises(ValueError, match="v has n_k=4 rows but k has n_k=5"):
        grouped_query_attention(x, x, x[:, :4], params)
    with pytest.raises(ValueError, match=r"mask has shape \(3, 5, 5\)"):
        grouped_query_attention(x, x, x, params, np.ones((3, 5, 5), dtype=bool))


def test_bad_cache_calls_raise_naming_the_argument(rng):
    params = _params(h=4, g=2)
    x = rng.standard_normal((1, 3, 24))
    with pytest.raises(ValueError, match="max_len must be a positive integer, got 0"):
        KVCache(0)
    with pytest.raises(TypeError, match=r"cache must be an mha.efficient.KVCache, got dict"):
        decode_step(x, params, {})
    with pytest.raises(ValueError, match=r"x has 12 features but params.w_q expects 24"):
        decode_step(x[..., :12], params, KVCache(4))
    cache = KVCache(4)
    decode_step(x, params, cache)
    with pytest.raises(ValueError, match="k adds 3 positions to the 3 cached, more than max_len=4"):
        decode_step(x, params, cache)
    with pytest.raises(
        ValueError, match=r"k has shape \(2, 2, 1, 6\) and dtype float64 but the cache holds"
    ):
        decode_step(np.concatenate([x, x])[:, :1], params, cache)
    with pytest.raises(ValueError, match="they must agree in all but the last dimension"):
        KVCache(4).append(np.zeros((2, 3, 4)), np.zeros((2, 2, 4)))
    with pytest.raises(ValueError, match="k must have at least 3 dimensions"):
        KVCache(4).append(np.zeros((3, 4)), np.zeros((3, 4)))


def test_params_are_frozen_and_replace_checks_again():
    p = _params(h=4, g=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.num_kv_heads = 4
    with pytest.raises(ValueError, match="num_kv_heads=3 must divide num_heads=4"):
        dataclasses.replace(p, num_kv_heads=3)
    with pytest.raises(TypeError, match="w_o has dtype float32 but w_q has dtype float64"):
        dataclasses.replace(p, w_o=p.w_o.astype(np.float32))
