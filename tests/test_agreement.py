"""The variants agree: NumPy vs the torch module vs torch.nn.MultiheadAttention vs F.sdpa.

float64 to 1e-10, float32 to 1e-5, over leading batch dims, h in {1, 2, 8}, d_k != d_v,
cross-attention with n_q != n_k, each mask kind and their combination, with and without biases.
"""

import dataclasses

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import mha
from mha.torch_mha import MultiHeadAttention

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

TOL = {np.float64: 1e-10, np.float32: 1e-5}
D_MODEL = 16


def random_params(rng, num_heads, dtype, *, bias, d_k=None, d_v=None):
    """init_params with random (non-zero) biases so that bias handling is exercised."""
    params = mha.init_params(D_MODEL, num_heads, d_k=d_k, d_v=d_v, bias=bias, dtype=dtype, seed=7)
    if not bias:
        return params
    return dataclasses.replace(params, **{
        name: rng.standard_normal(getattr(params, name).shape).astype(dtype)
        for name in ("b_q", "b_k", "b_v", "b_o")
    })  # fmt: skip


def make_mask(kind, batch, n_q, n_k, rng):
    """A mask of the given kind with no fully masked query row (nn.MultiheadAttention gives NaN there)."""
    causal = mha.causal_mask(n_q, n_k) if n_q <= n_k else None
    lengths = rng.integers(max(n_k - 2, 1), n_k + 1, size=batch[-1] if batch else 1)
    padding = mha.padding_mask(lengths, n_k) if batch else mha.padding_mask(lengths, n_k)[0]
    if kind == "none":
        return None
    if kind == "causal":
        return causal
    if kind == "padding":
        return padding
    if kind == "causal+padding":
        # keep every row alive: causal rows see key 0, padding keeps at least key 0
        return mha.combine_masks(causal, padding)
    if kind == "random":
        m = rng.random((*batch, 1, n_q, n_k)) < 0.7
        m[..., 0] = True
        return m
    raise ValueError(kind)


CASES = [
    # (batch, n_q, n_k, num_heads, bias)
    ((), 5, 5, 1, False),
    ((3,), 6, 6, 2, True),
    ((2,), 4, 9, 8, False),
    ((2, 3), 5, 7, 2, True),
    ((1,), 7, 7, 8, True),
]
MASKS = ["none", "causal", "padding", "causal+padding", "random"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("mask_kind", MASKS)
@pytest.mark.parametrize(("batch", "n_q", "n_k", "num_heads", "bias"), CASES)
def test_numpy_equals_torch_variant(rng, batch, n_q, n_k, num_heads, bias, mask_kind, dtype):
    params = random_params(rng, num_heads, dtype, bias=bias, d_k=3, d_v=5)  # d_k != d_v
    q = rng.standard_normal((*batch, n_q, D_MODEL)).astype(dtype)
    kv = rng.standard_normal((*batch, n_k, D_MODEL)).astype(dtype)
    mask = make_mask(mask_kind, batch, n_q, n_k, rng)
    out, weights = mha.multi_head_attention(q, kv, kv, params, mask)

    module = MultiHeadAttention.from_params(params)
    t_mask = None if mask is None else torch.from_numpy(mask)
    t_q, t_kv = torch.from_numpy(q), torch.from_numpy(kv)
    t_out, t_weights = module(t_q, t_kv, t_kv, t_mask)
    fused_out, _ = module(t_q, t_kv, t_kv, t_mask, need_weights=False)

    assert out.dtype == dtype and t_out.dtype == torch.from_numpy(q).dtype
    np.testing.assert_allclose(t_out.detach().numpy(), out, rtol=0, atol=TOL[dtype])
    np.testing.assert_allclose(t_weights.detach().numpy(), weights, rtol=0, atol=TOL[dtype])
    np.testing.assert_allclose(fused_out.detach().numpy(), out, rtol=0, atol=TOL[dtype])


def nn_mha_masks(mask, batch_size, num_heads, n_q, n_k):
    """Our True = may attend mask -> nn.MultiheadAttention's attn_mask (True = may not)."""
    if mask is None:
        return None
    flipped = torch.from_numpy(mha.flip_polarity(mask))
    if flipped.dim() == 2:
        return flipped
    full = flipped.expand(batch_size, num_heads, n_q, n_k)
    return full.reshape(batch_size * num_heads, n_q, n_k)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("mask_kind", MASKS)
@pytest.mark.parametrize("num_heads", [1, 2, 8])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize(("n_q", "n_k"), [(6, 6), (4, 9)])
def test_numpy_equals_nn_multihead_attention(rng, num_heads, bias, mask_kind, dtype, n_q, n_k):
    batch = (3,)
    params = random_params(rng, num_heads, dtype, bias=bias)
    q = rng.standard_normal((*batch, n_q, D_MODEL)).astype(dtype)
    kv = rng.standard_normal((*batch, n_k, D_MODEL)).astype(dtype)
    mask = make_mask(mask_kind, batch, n_q, n_k, rng)
    out, weights = mha.multi_head_attention(q, kv, kv, params, mask)

    reference = MultiHeadAttention.from_params(
        params
    ).to_torch()  # weights copied to torch's layout
    t_kv = torch.from_numpy(kv)
    ref_out, ref_weights = reference(
        torch.from_numpy(q),
        t_kv,
        t_kv,
        attn_mask=nn_mha_masks(mask, batch[0], num_heads, n_q, n_k),
        average_attn_weights=False,
    )
    np.testing.assert_allclose(ref_out.detach().numpy(), out, rtol=0, atol=TOL[dtype])
    np.testing.assert_allclose(ref_weights.detach().numpy(), weights, rtol=0, atol=TOL[dtype])

    # and back: weights copied from nn.MultiheadAttention give the same numbers
    back = MultiHeadAttention.from_torch(reference).to_params()
    back_out, _ = mha.multi_head_attention(q, kv, kv, back, mask)
    np.testing.assert_allclose(back_out, out, rtol=0, atol=TOL[dtype])


def test_kdim_vdim_round_trip_with_nn_multihead_attention(rng):
    reference = torch.nn.MultiheadAttention(8, 2, kdim=5, vdim=3, batch_first=True).double()
    q = torch.from_numpy(rng.standard_normal((2, 4, 8)))
    k = torch.from_numpy(rng.standard_normal((2, 6, 5)))
    v = torch.from_numpy(rng.standard_normal((2, 6, 3)))
    expected, _ = reference(q, k, v)
    module = MultiHeadAttention.from_torch(reference)
    out, _ = mha.multi_head_attention(q.numpy(), k.numpy(), v.numpy(), module.to_params())
    np.testing.assert_allclose(out, expected.detach().numpy(), rtol=0, atol=1e-10)
    again, _ = module.to_torch()(q, k, v)
    np.testing.assert_allclose(
        again.detach().numpy(), expected.detach().numpy(), rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("batch", [(), (2,), (2, 3)])
@pytest.mark.parametrize("with_mask", [False, True])
def test_sdpa_equals_torch_sdpa(rng, dtype, batch, with_mask):
    q = rng.standard_normal((*batch, 5, 4)).astype(dtype)
    k = rng.standard_normal((*batch, 7, 4)).astype(dtype)
    v = rng.standard_normal((*batch, 7, 6)).astype(dtype)
    mask = None
    if with_mask:
        mask = rng.random((*batch, 5, 7)) < 0.6
        mask[..., 0] = True
    out, weights = mha.scaled_dot_product_attention(q, k, v, mask)
    expected = F.scaled_dot_product_attention(
        torch.from_numpy(q),
        torch.from_numpy(k),
        torch.from_numpy(v),
        attn_mask=None if mask is None else torch.from_numpy(mask),
    )
    assert out.shape == (*batch, 5, 6) and weights.shape == (*batch, 5, 7)
    np.testing.assert_allclose(out, expected.numpy(), rtol=0, atol=TOL[dtype])


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("need_weights", [True, False])
def test_gradients_equal_nn_multihead_attention(rng, bias, need_weights):
    module = MultiHeadAttention(D_MODEL, 4, bias=bias, dtype=torch.float64)
    if bias:
        with torch.no_grad():
            for b in (module.b_q, module.b_k, module.b_v, module.b_o):
                b.normal_()
    reference = module.to_torch()
    x = torch.from_numpy(rng.standard_normal((2, 5, D_MODEL)))
    x_ours, x_ref = x.clone().requires_grad_(), x.clone().requires_grad_()
    mask = torch.from_numpy(mha.causal_mask(5))
    upstream = torch.from_numpy(rng.standard_normal((2, 5, D_MODEL)))

    out, _ = module(x_ours, mask=mask, need_weights=need_weights)
    (out * upstream).sum().backward()
    ref_out, _ = reference(x_ref, x_ref, x_ref, attn_mask=~mask, need_weights=False)
    (ref_out * upstream).sum().backward()

    np.testing.assert_allclose(x_ours.grad.numpy(), x_ref.grad.numpy(), atol=1e-10)
    w_in = reference.in_proj_weight.grad
    for ours, theirs in zip(
        (module.w_q, module.w_k, module.w_v), w_in.chunk(3, dim=0), strict=True
    ):
        np.testing.assert_allclose(ours.grad.numpy(), theirs.T.numpy(), atol=1e-10)
    np.testing.assert_allclose(
        module.w_o.grad.numpy(), reference.out_proj.weight.grad.T.numpy(), atol=1e-10
    )
    if bias:
        ours = torch.cat([module.b_q.grad, module.b_k.grad, module.b_v.grad])
        np.testing.assert_allclose(ours.numpy(), reference.in_proj_bias.grad.numpy(), atol=1e-10)
        np.testing.assert_allclose(
            module.b_o.grad.numpy(), reference.out_proj.bias.grad.numpy(), atol=1e-10
        )
