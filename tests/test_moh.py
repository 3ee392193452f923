"""mha.moh.MixtureOfHeadAttention: its documented scaling, top-k routing, and argument checks."""

import math

import numpy as np
import pytest
import torch

from mha import analysis
from mha.moh import MixtureOfHeadAttention
from mha.torch_mha import MultiHeadAttention

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

D_MODEL, H = 12, 4


def pair(top_k, *, bias=False):
    """A Mixture-of-Head layer and a plain layer with the same attention weights."""
    torch.manual_seed(0)
    moh = MixtureOfHeadAttention(D_MODEL, H, top_k=top_k, bias=bias).double()
    plain = MultiHeadAttention(D_MODEL, H, bias=bias).double()
    plain.load_state_dict({k: v for k, v in moh.state_dict().items() if k != "w_router"})
    return moh, plain


@pytest.mark.parametrize("bias", [False, True])
def test_all_heads_with_equal_routing_is_plain_mha(bias):
    moh, plain = pair(top_k=H, bias=bias)
    assert moh.w_router.abs().max() == 0  # equal routing at initialisation
    x = torch.randn(2, 5, D_MODEL, dtype=torch.float64)
    mask = torch.rand(5, 5) > 0.3
    out, weights = moh(x, mask=mask, is_causal=True)
    expected_out, expected_weights = plain(x, mask=mask, is_causal=True)
    torch.testing.assert_close(out, expected_out)
    torch.testing.assert_close(weights, expected_weights)
    # cross-attention too
    memory = torch.randn(2, 7, D_MODEL, dtype=torch.float64)
    torch.testing.assert_close(moh(x, memory)[0], plain(x, memory)[0])


def test_route_keeps_top_k_softmax_scores_times_h():
    moh, _ = pair(top_k=2)
    with torch.no_grad():
        moh.w_router.normal_()
    x = torch.randn(3, 6, D_MODEL, dtype=torch.float64)
    gates = moh.route(x)
    assert gates.shape == (3, 6, H)
    assert ((gates > 0).sum(-1) == 2).all()
    probs = torch.softmax(x @ moh.w_router, dim=-1)
    chosen = gates > 0
    torch.testing.assert_close(gates[chosen], H * probs[chosen])
    # every chosen head scores at least as high as every head left out
    lowest_chosen = probs.masked_fill(~chosen, float("inf")).amin(-1)
    highest_left = probs.masked_fill(chosen, float("-inf")).amax(-1)
    assert (lowest_chosen >= highest_left).all()


def test_output_is_the_gated_sum_of_head_contributions():
    moh, _ = pair(top_k=2, bias=True)
    with torch.no_grad():
        moh.w_router.normal_()
        moh.b_o.normal_()
    x = torch.randn(2, 5, D_MODEL, dtype=torch.float64)
    gates = moh.route(x)
    parts = analysis.head_contributions(moh, x, token_gates=gates)
    torch.testing.assert_close(parts.sum(-3) + moh.b_o, moh(x)[0])


@pytest.mark.parametrize("top_k", [1, 2, 3])
def test_top_k_routing_equals_a_per_token_oracle(top_k):
    """Each token's output written out on its own, in NumPy: its top-k heads, weighted."""
    moh, _ = pair(top_k=top_k, bias=True)
    with torch.no_grad():
        moh.w_router.normal_()
        moh.b_o.normal_()
        moh.b_q.normal_()
    x = torch.randn(2, 5, D_MODEL, dtype=torch.float64)
    mask = torch.rand(5, 5) > 0.3
    mask[:, 0] = True
    out, _ = moh(x, mask=mask)

    w = {name: getattr(moh, name).detach().numpy() for name in ("w_q", "w_k", "w_v", "w_o")}
    b = {name: getattr(moh, name).detach().numpy() for name in ("b_q", "b_k", "b_v", "b_o")}
    router, d, m = moh.w_router.detach().numpy(), moh.d_k, mask.numpy()
    expected = np.zeros((2, 5, D_MODEL))
    for batch in range(2):
        xb = x[batch].numpy()
        for t in range(5):
            logits = xb[t] @ router
            probs = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
            chosen = sorted(range(H), key=lambda i: -probs[i])[:top_k]
            total = b["b_o"].copy()
            for i in chosen:
                cols = slice(i * d, (i + 1) * d)
                q_t = xb[t] @ w["w_q"][:, cols] + b["b_q"][cols]
                keys = xb @ w["w_k"][:, cols] + b["b_k"][cols]
                values = xb @ w["w_v"][:, cols] + b["b_v"][cols]
                scores = np.where(m[t], keys @ q_t / math.sqrt(d), -np.inf)
                attn = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
                total += H * probs[i] * (attn @ values) @ w["w_o"][cols]
            expected[batch, t] = total
    np.testing.assert_allclose(out.detach().numpy(), expected, atol=1e-10)


def test_the_parents_keywords_work_and_both_paths_agree():
    moh, _ = pair(top_k=2)
    with torch.no_grad():
        moh.w_router.normal_()
    x = torch.randn(2, 5, D_MODEL, dtype=torch.float64)
    readable, weights = moh(x, is_causal=True, impl="readable")
    fused, none = moh(x, is_causal=True, need_weights=False, impl="fused")
    assert none is None and weights.shape == (2, H, 5, 5)
    torch.testing.assert_close(fused, readable)
    with pytest.raises(ValueError, match="impl='fused' cannot return weights"):
        moh(x, impl="fused")


def test_a_head_no_token_picks_does_not_matter():
    moh, _ = pair(top_k=1)
    with torch.no_grad():
        moh.w_router[0, 1] = 5.0  # head 1 wins wherever feature 0 is positive...
    x = torch.randn(2, 5, D_MODEL, dtype=torch.float64)
    x[..., 0] = x[..., 0].abs() + 1.0  # ...which is everywhere
    before = moh(x)[0]
    with torch.no_grad():
        moh.w_v[:, 2 * moh.d_v : 3 * moh.d_v] = 100.0  # head 2 is never chosen
    torch.testing.assert_close(moh(x)[0], before)


def test_head_gate_prunes_routed_heads():
    moh, plain = pair(top_k=H)
    x = torch.randn(2, 5, D_MODEL, dtype=torch.float64)
    gate = torch.tensor([1.0, 0.0, 1.0, 0.0], dtype=torch.float64)
    torch.testing.assert_close(moh(x, head_gate=gate)[0], plain(x, head_gate=gate)[0])


def test_need_weights_false_returns_none():
    moh, _ = pair(top_k=2)
    out, weights = moh(torch.randn(1, 3, D_MODEL, dtype=torch.float64), need_weights=False)
    assert weights is None and out.shape == (1, 3, D_MODEL)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"top_k": 0}, ValueError, "top_k"),
        ({"top_k": H + 1}, ValueError, "top_k must be at most num_heads=4"),
        ({"top_k": 1.5}, TypeError, "top_k"),
    ],
)
def test_bad_top_k(kwargs, error, words):
    with pytest.raises(error, match=words):
        MixtureOfHeadAttention(D_MODEL, H, **kwargs)


def test_bad_inputs_are_named():
    moh, _ = pair(top_k=2)
    with pytest.raises(ValueError, match="head_gate"):
        moh(torch.randn(1, 3, D_MODEL, dtype=torch.float64), head_gate=torch.ones(3))
    with pytest.raises(ValueError, match="q has 5 features"):
        moh(torch.randn(1, 3, 5, dtype=torch.float64))
    with pytest.raises(ValueError, match="router expects d_model=12"):
        moh.route(torch.randn(1, 3, 5, dtype=torch.float64))
    with pytest.raises(TypeError, match="q must be a torch"):
        moh.route([[1.0] * D_MODEL])
