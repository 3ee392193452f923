"""Masks: polarity True = may attend, bottom-right causal alignment, padding on keys."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import mha

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


@pytest.mark.parametrize(("n_q", "n_k"), [(4, 4), (2, 5), (5, 3), (1, 6)])
def test_causal_mask_is_bottom_right_lower_triangle(n_q, n_k):
    mask = mha.causal_mask(n_q, n_k)
    assert mask.dtype == bool and mask.shape == (n_q, n_k)
    for i in range(n_q):
        for j in range(n_k):
            assert mask[i, j] == (j <= i + n_k - n_q)
    np.testing.assert_array_equal(mask, np.tril(np.ones((n_q, n_k), dtype=bool), k=n_k - n_q))


def test_causal_mask_with_one_query_sees_every_cached_key():
    assert mha.causal_mask(1, 7).all()


def test_square_causal_mask_matches_torch_is_causal(rng):
    q, k, v = (torch.from_numpy(rng.standard_normal((2, 5, 4))) for _ in range(3))
    expected = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    out, _ = mha.scaled_dot_product_attention(q.numpy(), k.numpy(), v.numpy(), mha.causal_mask(5))
    np.testing.assert_allclose(out, expected.numpy(), atol=1e-12)


def test_padding_mask_hides_keys_past_each_length():
    mask = mha.padding_mask([2, 0, 4], 4)
    assert mask.shape == (3, 1, 1, 4) and mask.dtype == bool
    np.testing.assert_array_equal(
        mask[:, 0, 0], [[True, True, False, False], [False] * 4, [True] * 4]
    )


def test_padded_keys_get_no_weight_and_do_not_change_the_output(rng):
    params = mha.init_params(8, 2, dtype=np.float64)
    x = rng.standard_normal((1, 5, 8))
    garbage = x.copy()
    garbage[:, 3:] = 1e3  # what sits in the padded positions must not matter
    mask = mha.padding_mask([3], 5)
    out, weights = mha.multi_head_attention(x, x, x, params, mask)
    out_g, _ = mha.multi_head_attention(x, garbage, garbage, params, mask)
    np.testing.assert_array_equal(weights[..., 3:], 0)
    np.testing.assert_allclose(out, out_g, atol=1e-12)
    short, _ = mha.multi_head_attention(x, x[:, :3], x[:, :3], params)
    np.testing.assert_allclose(out, short, atol=1e-12)


def test_combine_masks_is_logical_and_and_skips_none():
    causal, padding = mha.causal_mask(3), mha.padding_mask([2, 3], 3)
    both = mha.combine_masks(causal, None, padding)
    assert both.shape == (2, 1, 3, 3)
    np.testing.assert_array_equal(both, causal & padding)
    assert mha.combine_masks(None, None) is None


def test_flip_polarity_and_additive_form(rng):
    mask = rng.random((3, 4)) < 0.5
    mask[:, 0] = True
    np.testing.assert_array_equal(mha.flip_polarity(mha.flip_polarity(mask)), mask)
    np.testing.assert_array_equal(mha.flip_polarity(mask), ~mask)
    additive = mha.to_additive(mask)
    assert additive.dtype == np.float32
    np.testing.assert_array_equal(additive == 0, mask)
    assert np.isneginf(additive[~mask]).all()
    scores = rng.standard_normal((3, 4))
    kept = np.where(mask, np.exp(scores), 0)
    np.testing.assert_allclose(
        mha.softmax(scores + additive), kept / kept.sum(-1, keepdims=True), atol=1e-6
    )


def test_nn_multihead_attention_polarity_is_the_opposite(rng):
    """Passing our mask unflipped to nn.MultiheadAttention attends exactly the wrong keys."""
    params = mha.init_params(8, 2, dtype=np.float64)
    from mha.torch_mha import MultiHeadAttention

    module = MultiHeadAttention.from_params(params).to_torch()
    x = rng.standard_normal((1, 4, 8))
    mask = mha.causal_mask(4)
    ours, _ = mha.multi_head_attention(x, x, x, params, mask)
    t = torch.from_numpy(x)
    right, _ = module(t, t, t, attn_mask=torch.from_numpy(mha.flip_polarity(mask)))
    np.testing.assert_allclose(right.detach().numpy(), ours, atol=1e-12)
    wrong, _ = module(t, t, t, attn_mask=torch.from_numpy(mask) & ~torch.eye(4, dtype=torch.bool))
    assert not np.allclose(wrong.detach().numpy(), ours)
