"""The torch module: its two paths agree, masks and is_causal behave, conversions round-trip."""

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
