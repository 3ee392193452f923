"""The options that take the 2017 layer to today's: ``bias=``, ``rope=``, ``dropout=``, queries of
another width, in the NumPy code (batched, the per-head loop, the lean tiles, GQA and the KV
cache). The oracles: PyTorch's ``F.scaled_dot_product_attention`` (float ``attn_mask``,
``enable_gqa``) and the package's own readable path, which tests/test_hf_oracles.py holds to
Hugging Face's Llama, Qwen2, T5 and BLOOM modules.
"""

from __future__ import annotations

import dataclasses
import math
import tracemalloc

import array_api_compat
import numpy as np
import pytest
import torch
import torch.nn.functional as F

import mha
from mha.efficient import GQAParams, KVCache, decode_step, grouped_query_attention
from mha.lean import threads, tiles
from mha.positions import ALiBi, RoPE

XP = array_api_compat.array_namespace(np.zeros(1))


def _sdpa(q, k, v, attn_mask=None, **options):
    """PyTorch's SDPA on NumPy arrays."""
    t = [torch.from_numpy(np.ascontiguousarray(a)) for a in (q, k, v)]
    mask = None if attn_mask is None else torch.from_numpy(np.ascontiguousarray(attn_mask))
    return F.scaled_dot_product_attention(*t, attn_mask=mask, **options).numpy()


# --- bias= ----------------------------------------------------------------------------------


def test_a_bias_is_torchs_float_attn_mask_and_the_mask_wins(rng):
    q, k, v = rng.standard_normal((2, 3, 6, 8)), rng.standard_normal((2, 3, 9, 8)), rng.standard_normal((2, 3, 9, 5))  # fmt: skip
    bias = rng.standard_normal((3, 6, 9)) * 2  # per head
    out, weights = mha.scaled_dot_product_attention(q, k, v, bias=bias)
    np.testing.assert_allclose(out, _sdpa(q, k, v, bias), atol=1e-12)
    mask = rng.random((6, 9)) < 0.7
    mask[:, 0] = True  # no row empty, so that torch's -inf rows do not come in
    out, weights = mha.scaled_dot_product_attention(q, k, v, mask, bias=bias)
    np.testing.assert_allclose(out, _sdpa(q, k, v, np.where(mask, bias, -np.inf)), atol=1e-12)
    assert (weights[..., ~mask] == 0).all()


def test_a_float_mask_as_bias_equals_the_boolean_mask_and_empty_rows_give_zeros(rng):
    q, k, v = rng.standard_normal((3, 5, 4)), rng.standard_normal((3, 7, 4)), rng.standard_normal((3, 7, 2))  # fmt: skip
    mask = mha.combine_masks(mha.causal_mask(5, 7), mha.padding_mask([7, 3, 0], 7)[:, 0])
    by_mask, _ = mha.scaled_dot_product_attention(q, k, v, mask)
    by_bias, _ = mha.scaled_dot_product_attention(q, k, v, bias=mha.to_additive(mask, np.float64))
    np.testing.assert_allclose(by_bias, by_mask, atol=1e-15)
    assert np.isfinite(by_bias).all() and (by_bias[2] == 0).all()  # sequence 2 has no key


def _per_head_bias(rng, h, n_q, n_k):
    return rng.standard_normal((h, n_q, n_k))


@pytest.mark.parametrize("kind", ["array", "alibi", "rope", "rope+alibi"])
def test_rope_and_bias_on_the_batched_loop_and_lean_paths_agree(rng, array_backend, kind):
    b = array_backend
    params = mha.init_params(24, 4, bias=True, seed=1, dtype=np.float64)
    params = dataclasses.replace(params, b_q=rng.standard_normal(24), b_k=rng.standard_normal(24))
    x = rng.standard_normal((2, 70, 24))
    mask = mha.combine_masks(mha.causal_mask(70), mha.padding_mask([70, 50], 70))
    options = {
        "array": {"bias": _per_head_bias(rng, 4, 70, 70)},
        "alibi": {"bias": ALiBi(4)},
        "rope": {"rope": RoPE(base=50.0)},
        "rope+alibi": {"rope": RoPE(base=50.0), "bias": ALiBi(4)},
    }[kind]
    expected, weights = mha.multi_head_attention(x, x, x, params, mask, **options)
    plain, _ = mha.multi_head_attention(x, x, x, params, mask)
    assert np.abs(expected - plain).max() > 1e-2  # the option changed something
    on_b = {
        name: b.asarray(value) if isinstance(value, np.ndarray) else value
        for name, value in options.items()
    }
    x_b, mask_b, params_b = b.asarray(x), b.asarray(mask), b.asarray(params)
    loop, loop_weights = mha.multi_head_attention_loop(x_b, x_b, x_b, params_b, mask_b, **on_b)
    np.testing.assert_allclose(b.to_numpy(loop), expected, atol=1e-12)
    np.testing.assert_allclose(b.to_numpy(loop_weights), weights, atol=1e-12)
    for budget in (1, 2**14, 2**40):  # 64 x 64 tiles, blocks of rows, one tile
        lean, _ = mha.multi_head_attention(
            x_b, x_b, x_b, params_b, mask_b, need_weights=False, memory_budget=budget, **on_b
        )
        np.testing.assert_allclose(b.to_numpy(lean), expected, atol=1e-12, err_msg=f"{budget}")


@pytest.mark.parametrize("elements", [1, 6400, 10**6], ids=["64x64", "keys-in-blocks", "one-tile"])
@pytest.mark.parametrize("bias_kind", ["full", "per-query-row", "alibi"])
def test_the_tiles_add_each_tile_of_the_bias(rng, elements, bias_kind):
    h, n_q, n_k = 3, 130, 150
    q, k, v = (rng.standard_normal((2, h, n, d)) for n, d in ((n_q, 8), (n_k, 8), (n_k, 5)))
    bias = {
        "full": rng.standard_normal((2, h, n_q, n_k)) * 3,
        "per-query-row": rng.standard_normal((n_q, 1)) * 3,  # broadcasts over the keys
        "alibi": ALiBi(h),
    }[bias_kind]
    mask = rng.random((n_q, n_k)) < 0.8
    mask[1::7] = False  # empty rows: zeros
    expected, _ = mha.scaled_dot_product_attention(q, k, v, mask, bias=bias)
    out = tiles.attention(XP, q, k, v, mask, elements * 8 * threads.cpu_count(), bias)
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
    generic = tiles.attention(array_api_compat.array_namespace(q.astype(np.float16)),
                              q.astype(np.float32), k.astype(np.float32), v.astype(np.float32),
                              mask, 1, bias)  # fmt: skip
    np.testing.assert_allclose(generic, expected, rtol=1e-4, atol=1e-4)


def test_alibi_in_the_tiles_never_holds_the_whole_bias(rng):
    """ALiBi at n = 2048, h = 4: its (h, n, n) float32 bias would take 64 MiB."""
    n, h = 2048, 4
    params = mha.init_params(64, h, seed=0)
    x = rng.standard_normal((1, n, 64)).astype(np.float32)
    full_bias_bytes = h * n * n * 4
    budget = 2**20
    tracemalloc.start()
    out, _ = mha.multi_head_attention(
        x, x, x, params, bias=ALiBi(h), need_weights=False, memory_budget=budget
    )
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert np.isfinite(out).all()
    assert peak < full_bias_bytes / 8
    assert (
        peak < 4 * budget + 12 * x.nbytes
    )  # tiles, their bias and temporaries, q/k/v-sized arrays


def test_a_bias_switches_off_the_shift_free_shortcut(rng):
    """The shortcut bounds |q k| only; an ALiBi bias of -1000 would underflow every 2**score."""
    q = np.full((1, 64, 8), 0.1)
    k, v = np.full((1, 64, 8), 0.1), rng.standard_normal((1, 64, 4))
    bias = np.full((64, 64), -1000.0)
    expected, _ = mha.scaled_dot_product_attention(q, k, v, bias=bias)
    out = tiles.attention(XP, q, k, v, None, 10**9, bias)
    np.testing.assert_allclose(out, expected, atol=1e-12)
    assert np.isfinite(out).all()


def test_gqa_and_decode_step_take_rope_and_bias_and_match_torch_sdpa(rng):
    params = GQAParams.from_mha(mha.init_params(32, 8, bias=True, seed=2, dtype=np.float64), 2)
    params = dataclasses.replace(params, b_k=rng.standard_normal(8), b_o=rng.standard_normal(32))
    x = rng.standard_normal((2, 11, 32))
    rope = RoPE(base=30.0)
    bias = rng.standard_normal((2, 8, 11, 11))
    expected, _ = grouped_query_attention(
        x, x, x, params, mha.causal_mask(11), rope=rope, bias=bias
    )
    q = mha.split_heads(x @ params.w_q + params.b_q, 8)
    k = mha.split_heads(x @ params.w_k + params.b_k, 2)
    v = mha.split_heads(x @ params.w_v + params.b_v, 2)
    q, k = mha.positions.apply_rope(q, base=30.0), mha.positions.apply_rope(k, base=30.0)
    float_mask = np.where(mha.causal_mask(11), bias, -np.inf)
    heads = _sdpa(q, k, v, float_mask, enable_gqa=True)
    np.testing.assert_allclose(
        expected, mha.merge_heads(heads) @ params.w_o + params.b_o, atol=1e-12
    )
    for bias_now in (bias, ALiBi(8)):
        full, _ = grouped_query_attention(
            x, x, x, params, mha.causal_mask(11), rope=rope, bias=bias_now
        )
        cache = KVCache(11)
        steps = [
            decode_step(
                x[:, :5],
                params,
                cache,
                rope=rope,
                bias=bias_now if callable(bias_now) else bias_now[..., :5, :5],
            )
        ]
        for i in range(5, 11):  # one token at a time: its row of the bias, against every key
            step_bias = bias_now if callable(bias_now) else bias_now[..., i : i + 1, : i + 1]
            steps.append(decode_step(x[:, i : i + 1], params, cache, rope=rope, bias=step_bias))
        np.testing.assert_allclose(np.concatenate(steps, axis=1), full, atol=1e-12)  # fmt: skip


def test_gqa_params_keep_biases_and_from_mha_pools_them():
    params = mha.init_params(8, 4, bias=True, seed=0, dtype=np.float64)
    params = dataclasses.replace(params, b_k=np.arange(8.0), b_v=np.arange(8.0, 16.0))
    gqa = GQAParams.from_mha(params, 2)  # d_k = 2: groups of two heads' two biases
    np.testing.assert_array_equal(gqa.b_k, [1.0, 2.0, 5.0, 6.0])  # means of heads (0,1), (2,3)
    np.testing.assert_array_equal(gqa.b_q, params.b_q)
    assert gqa.has_bias and gqa.num_parameters() == params.num_parameters() - 2 * 8 * 4 - 2 * 4
    with pytest.raises(ValueError, match=r"b_k must have shape \(4,\), got \(8,\)"):
        dataclasses.replace(gqa, b_k=np.zeros(8))


# --- queries of another width ---------------------------------------------------------------


def test_queries_may_be_wider_or_narrower_than_the_output(rng):
    """LLMs-from-scratch's MultiHeadAttention(d_in, d_out): d_in features in, d_out out."""
    params = mha.init_params(6, 2, qdim=10, kdim=10, vdim=10, seed=3, dtype=np.float64)
    assert (params.qdim, params.d_model) == (10, 6) and params.w_q.shape == (10, 6)
    x = rng.standard_normal((2, 5, 10))
    out, _ = mha.multi_head_attention(x, x, x, params, mha.causal_mask(5))
    assert out.shape == (2, 5, 6)
    q, k, v = (mha.split_heads(x @ w, 2) for w in (params.w_q, params.w_k, params.w_v))
    expected = mha.merge_heads(_sdpa(q, k, v, is_causal=True)) @ params.w_o
    np.testing.assert_allclose(out, expected, atol=1e-12)
    loop, _ = mha.multi_head_attention_loop(x, x, x, params, mha.causal_mask(5))
    np.testing.assert_allclose(loop, expected, atol=1e-12)
    with pytest.raises(ValueError, match="qdim=10 query features but d_model=6"):
        mha.to_torch_state_dict(params)


# --- dropout= -------------------------------------------------------------------------------


def test_dropout_zeroes_weights_scales_the_rest_and_repeats_with_the_seed(rng):
    params = mha.init_params(16, 4, seed=4, dtype=np.float64)
    x = rng.standard_normal((3, 40, 16))
    kept, weights = mha.multi_head_attention(x, x, x, params)
    dropped, dropped_weights = mha.multi_head_attention(
        x, x, x, params, dropout=0.25, rng=np.random.default_rng(7)
    )
    again, _ = mha.multi_head_attention(x, x, x, params, dropout=0.25, rng=np.random.default_rng(7))
    np.testing.assert_array_equal(dropped, again)  # seeded
    zero = dropped_weights == 0
    assert abs(zero.mean() - 0.25) < 4 * math.sqrt(0.25 * 0.75 / zero.size)  # 4 sigma
    np.testing.assert_allclose(dropped_weights[~zero], weights[~zero] / 0.75, rtol=1e-14)
    # the output is what the dropped weights give: nothing else is dropped
    v = mha.split_heads(x @ params.w_v, 4)
    expected = mha.merge_heads(dropped_weights @ v) @ params.w_o
    np.testing.assert_allclose(dropped, expected, atol=1e-12)
    assert not np.allclose(dropped, kept)


def test_dropout_is_the_layer_without_it_in_expectation(rng):
    params = mha.init_params(8, 2, seed=5, dtype=np.float64)
    x = rng.standard_normal((1, 6, 8))
    expected, _ = mha.multi_head_attention(x, x, x, params)
    generator = np.random.default_rng(11)
    draws = np.stack([
        mha.multi_head_attention(x, x, x, params, dropout=0.5, rng=generator)[0] for _ in range(4000)
    ])  # fmt: skip
    spread = draws.std(axis=0) / math.sqrt(len(draws))
    assert (np.abs(draws.mean(axis=0) - expected) < 5 * spread + 1e-12).all()


def test_dropout_holds_the_scores_even_when_they_exceed_the_budget(rng, monkeypatch):
    calls = []
    monkeypatch.setattr(tiles, "attention", lambda *args: calls.append(args))
    params = mha.init_params(16, 2, seed=0)
    x = rng.standard_normal((1, 64, 16)).astype(np.float32)
    out, _ = mha.multi_head_attention(
        x,
        x,
        x,
        params,
        need_weights=False,
        memory_budget=1,
        dropout=0.1,
        rng=np.random.default_rng(0),
    )
    assert calls == [] and out.shape == (1, 64, 16)


# --- bad arguments --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"bias": np.zeros((5, 5), dtype=np.int32)}, TypeError, "bias must be a floating-point array"),
        ({"bias": np.zeros((3, 5, 5))}, ValueError, r"bias has shape \(3, 5, 5\), which does not broadcast"),
        ({"bias": ALiBi(3)}, ValueError, "positional bias for num_heads=3 but the layer has num_heads=2"),
        ({"bias": torch.zeros(5, 5)}, TypeError, "bias is a torch.Tensor"),
        ({"rope": 10000.0}, TypeError, r"rope must be an mha.positions.RoPE \(e.g. RoPE\(base=10000.0\)\)"),
        ({"dropout": 1.0}, ValueError, r"dropout must be a probability in \[0, 1\), got 1.0"),
        ({"dropout": 0.1}, TypeError, "dropout=0.1 needs rng, a random generator"),
    ],
)  # fmt: skip
def test_bad_options_are_named(rng, options, error, words):
    params = mha.init_params(8, 2, seed=0, dtype=np.float64)
    x = rng.standard_normal((1, 5, 8))
    with pytest.raises(error, match=words):
        mha.multi_head_attention(x, x, x, params, **options)


def test_rope_needs_an_even_d_k_and_decode_step_takes_positions_from_the_cache(rng):
    x = rng.standard_normal((1, 5, 6))
    with pytest.raises(ValueError, match="odd d_k=3"):
        mha.multi_head_attention(x, x, x, mha.init_params(6, 2, dtype=np.float64), rope=RoPE())
    params = GQAParams.from_mha(mha.init_params(8, 2, seed=0, dtype=np.float64), 1)
    with pytest.raises(ValueError, match=r"rope\.positions must be None in decode_step"):
        decode_step(
            x[..., :1, :].repeat(8, -1)[..., :8], params, KVCache(4), rope=RoPE(positions=[3])
        )
    with pytest.raises(ValueError, match=r"bias has shape \(1, 2\)"):
        decode_step(rng.standard_normal((1, 1, 8)), params, KVCache(4), bias=np.zeros((1, 2)))


# --- the layout's rule: checked once, one namespace lookup a call ---------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"bias": "array"},
        {"bias": "alibi"},
        {"bias": "alibi", "need_weights": False, "memory_budget": 1},  # the lean tiles
        {"dropout": 0.1},
    ],
    ids=["bias", "alibi", "alibi-lean", "dropout"],
)
def test_bias_and_dropout_find_their_library_once_a_call(monkeypatch, rng, options):
    """A bias or dropout adds no array-namespace lookup to a call: its checks are at the
    public boundary (mha._validate) and its computation beside the attention (mha._compute)."""
    from mha import _validate

    calls = []
    lookup = _validate.array_namespace

    def counted(**arrays):
        calls.append(sorted(arrays))
        return lookup(**arrays)

    x = rng.standard_normal((2, 6, 8)).astype(np.float32)
    params = mha.init_params(8, 2)
    gqa = GQAParams.from_mha(params, 1)
    layers = {mha.multi_head_attention_loop: params, grouped_query_attention: gqa}
    bias_of = {"array": rng.standard_normal((2, 6, 6)).astype(np.float32), "alibi": ALiBi(2)}
    options = dict(options)
    if "bias" in options:
        options["bias"] = bias_of[options["bias"]]
    if "dropout" in options:
        options["rng"] = np.random.default_rng(0)
    monkeypatch.setattr(_validate, "array_namespace", counted)
    mha.multi_head_attention(x, x, x, params, **options)
    assert len(calls) == 1, calls
    if "bias" in options:
        for attend in layers:
            calls.clear()
            attend(x, x, x, layers[attend], bias=options["bias"])
            assert len(calls) == 1, (attend.__name__, calls)
