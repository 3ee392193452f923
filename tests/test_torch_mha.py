"""The torch module: its two paths agree, masks and is_causal behave, conversions round-trip,
and its hooks (head_outputs, gate_heads, combine_heads) keep the one gate convention."""

import dataclasses

import numpy as np
import pytest
import torch

import mha
from mha.torch_mha import MultiHeadAttention


@pytest.fixture
def module():
    torch.manual_seed(0)
    m = MultiHeadAttention(16, 4, d_k=3, d_v=5, bias=True, dtype=torch.float64)
    with torch.no_grad():
        for b in (m.b_q, m.b_k, m.b_v, m.b_o):
            b.normal_()
    return m


@pytest.mark.parametrize(("n_q", "n_k"), [(5, 5), (3, 7), (6, 4)])
@pytest.mark.parametrize("with_padding", [False, True])
def test_is_causal_is_bottom_right_on_both_paths(module, rng, n_q, n_k, with_padding):
    q = torch.from_numpy(rng.standard_normal((2, n_q, 16)))
    kv = torch.from_numpy(rng.standard_normal((2, n_k, 16)))
    padding = torch.from_numpy(mha.padding_mask([n_k - 1, n_k], n_k)) if with_padding else None
    readable, _ = module(q, kv, kv, padding, is_causal=True, impl="readable")
    fused, _ = module(q, kv, kv, padding, is_causal=True, need_weights=False)
    mask = mha.combine_masks(
        mha.causal_mask(n_q, n_k), None if padding is None else padding.numpy()
    )
    expected, _ = mha.multi_head_attention(
        q.numpy(), kv.numpy(), kv.numpy(), module.to_params(), mask
    )
    np.testing.assert_allclose(readable.detach().numpy(), expected, atol=1e-10)
    np.testing.assert_allclose(fused.detach().numpy(), expected, atol=1e-10)
    assert torch.isfinite(fused).all()  # n_q > n_k leaves early queries fully masked: zeros


def test_self_attention_defaults_and_both_paths(module, rng):
    x = torch.from_numpy(rng.standard_normal((3, 6, 16)))
    out, weights = module(x)
    assert weights.shape == (3, 4, 6, 6)
    fused, none = module(x, need_weights=False)
    assert none is None
    np.testing.assert_allclose(fused.detach().numpy(), out.detach().numpy(), atol=1e-12)
    separate, _ = module(x, x.clone(), x.clone(), need_weights=False)
    np.testing.assert_allclose(separate.detach().numpy(), out.detach().numpy(), atol=1e-12)


def test_head_gate_zero_removes_exactly_that_head(module, rng):
    x = torch.from_numpy(rng.standard_normal((2, 5, 16)))
    gate = torch.tensor([1.0, 0.0, 1.0, 1.0], dtype=torch.float64)
    gated, _ = module(x, head_gate=gate)
    params = module.to_params()
    d_v = params.d_v
    params.w_o[d_v : 2 * d_v] = 0  # head 1's rows of W^O: its contribution to the output
    expected, _ = mha.multi_head_attention(x.numpy(), x.numpy(), x.numpy(), params)
    np.testing.assert_allclose(gated.detach().numpy(), expected, atol=1e-12)


def test_params_round_trip_and_float32_default(rng):
    params = mha.init_params(8, 2, bias=True, seed=5)
    module = MultiHeadAttention.from_params(params)
    assert module.w_q.dtype == torch.float32
    back = module.to_params()
    for name in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"):
        np.testing.assert_array_equal(getattr(back, name), getattr(params, name))
    x = torch.from_numpy(rng.standard_normal((2, 3, 8)).astype(np.float32))
    out, _ = module(x)
    assert out.dtype == torch.float32


def test_to_torch_refuses_what_nn_multihead_attention_cannot_hold():
    module = MultiHeadAttention(8, 2, d_k=3)
    with pytest.raises(ValueError, match="d_k = d_v = d_model / h"):
        module.to_torch()
    with pytest.raises(TypeError, match=r"module must be a torch\.nn\.MultiheadAttention"):
        MultiHeadAttention.from_torch(torch.nn.Linear(2, 2))
    with pytest.raises(ValueError, match="add_bias_kv"):
        MultiHeadAttention.from_torch(torch.nn.MultiheadAttention(8, 2, add_bias_kv=True))


def test_fused_path_refuses_to_return_weights(module, rng):
    x = torch.from_numpy(rng.standard_normal((1, 2, 16)))
    with pytest.raises(ValueError, match="need_weights=False"):
        module(x, impl="fused")


def test_autograd_matches_finite_differences():
    torch.manual_seed(1)
    module = MultiHeadAttention(4, 2, bias=True, dtype=torch.float64)
    x = torch.randn(1, 3, 4, dtype=torch.float64, requires_grad=True)
    mask = torch.from_numpy(mha.causal_mask(3))
    assert torch.autograd.gradcheck(lambda t: module(t, mask=mask)[0], (x,))
    assert torch.autograd.gradcheck(lambda t: module(t, mask=mask, need_weights=False)[0], (x,))


def test_fused_path_gives_zeros_for_fully_masked_rows_whatever_the_kernel(module, rng, monkeypatch):
    """Before torch 2.5, SDPA gave NaN where a query sees no key; the module must not."""
    sdpa = torch.nn.functional.scaled_dot_product_attention

    def nan_where_no_key(q, k, v, attn_mask=None, is_causal=False, **options):
        out = sdpa(q, k, v, attn_mask=attn_mask, is_causal=is_causal, **options)
        if attn_mask is not None:
            out = out.masked_fill(~attn_mask.any(-1, keepdim=True), float("nan"))
        return out

    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", nan_where_no_key)
    x = torch.from_numpy(rng.standard_normal((2, 5, 16)))
    padding = torch.from_numpy(mha.padding_mask([0, 5], 5))  # sequence 0: no key at all
    causal_more_queries = torch.from_numpy(mha.causal_mask(5, 3))  # queries 0, 1: no key
    for mask, kv in ((padding, x), (causal_more_queries, x[:, :3])):
        fused, _ = module(x, kv, kv, mask, need_weights=False)
        readable, _ = module(x, kv, kv, mask, impl="readable")
        assert torch.isfinite(fused).all()
        torch.testing.assert_close(fused, readable)
    stand_in = nan_where_no_key(x[:, None], x[:, None], x[:, None], padding)
    assert torch.isnan(stand_in).any()  # the stand-in does give NaN


def test_forward_is_head_outputs_then_combine_heads(module, rng):
    x = torch.from_numpy(rng.standard_normal((2, 5, 16)))
    mask = torch.from_numpy(mha.causal_mask(5))
    heads, weights = module.head_outputs(x, mask=mask)
    assert heads.shape == (2, 4, 5, 5) and weights.shape == (2, 4, 5, 5)  # d_v = 5
    params = module.to_params()
    for i in range(4):  # head i on its own, in NumPy: Attention(x W_i^Q, x W_i^K, x W_i^V)
        qk, vc = slice(3 * i, 3 * i + 3), slice(5 * i, 5 * i + 5)
        q_i = x.numpy() @ params.w_q[:, qk] + params.b_q[qk]
        k_i = x.numpy() @ params.w_k[:, qk] + params.b_k[qk]
        v_i = x.numpy() @ params.w_v[:, vc] + params.b_v[vc]
        expected, _ = mha.scaled_dot_product_attention(q_i, k_i, v_i, mha.causal_mask(5))
        np.testing.assert_allclose(heads[:, i].detach().numpy(), expected, atol=1e-12)
    out, out_weights = module(x, mask=mask)
    torch.testing.assert_close(module.combine_heads(heads), out)
    torch.testing.assert_close(weights, out_weights)
    fused, none = module.head_outputs(x, mask=mask, need_weights=False)
    assert none is None
    torch.testing.assert_close(fused, heads)


def _gated_reference(params, x, gate):
    """NumPy MHA with head i's rows of W^O scaled by gate[i]: what a gate means."""
    d_v = params.d_v
    scaled = dataclasses.replace(params, w_o=params.w_o * np.repeat(gate, d_v)[:, None])
    return mha.multi_head_attention(x, x, x, scaled)[0]


def test_a_gate_per_example_is_never_read_per_token(module, rng):
    """B == n_q == h: a (B, h) head_gate gates examples, a (n_q, h) token_gates gates tokens."""
    x = rng.standard_normal((4, 4, 16))  # B = n_q = 4 = h
    gates = rng.random((4, 4))
    params = module.to_params()
    per_example = np.stack([_gated_reference(params, x[b], gates[b]) for b in range(4)])
    per_token = np.stack([_gated_reference(params, x, gates[t])[:, t] for t in range(4)], axis=1)
    assert not np.allclose(per_example, per_token)  # the two readings differ here
    x_t, g = torch.from_numpy(x), torch.from_numpy(gates)
    out, _ = module(x_t, head_gate=g)
    np.testing.assert_allclose(out.detach().numpy(), per_example, atol=1e-12)
    heads, _ = module.head_outputs(x_t)
    by_token = module.combine_heads(heads, token_gates=g)
    np.testing.assert_allclose(by_token.detach().numpy(), per_token, atol=1e-12)


@pytest.mark.parametrize(
    ("gates", "words"),
    [
        ({"head_gate": torch.ones(3, 4)}, r"head_gate has shape \(3, 4\)"),  # batch is 2
        ({"head_gate": torch.ones(5, 2, 4)}, r"head_gate has shape \(5, 2, 4\)"),  # grows it
        ({"head_gate": torch.ones(2, 3)}, "head_gate's last dimension must be num_heads=4"),
        ({"token_gates": torch.ones(4)}, "token_gates must have at least 2 dimensions"),
        ({"token_gates": torch.ones(2, 3, 4)}, r"token_gates has shape \(2, 3, 4\)"),  # n_q 5
        ({"token_gates": torch.ones(2, 1, 4, dtype=torch.int64)}, "floating-point"),
    ],
)
def test_gates_of_the_wrong_shape_are_named(module, rng, gates, words):
    x = torch.from_numpy(rng.standard_normal((2, 5, 16)))
    heads, _ = module.head_outputs(x)
    gates = {name: g.double() if g.is_floating_point() else g for name, g in gates.items()}
    with pytest.raises((ValueError, TypeError), match=words):
        module.combine_heads(heads, **gates)


def test_combine_heads_checks_the_heads(module):
    with pytest.raises(ValueError, match=r"heads must be \(..., h=4, n_q, d_v=5\)"):
        module.combine_heads(torch.ones(2, 3, 5, 5, dtype=torch.float64))
