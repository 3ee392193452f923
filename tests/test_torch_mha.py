"""The torch module: its two paths agree, masks and is_causal behave, conversions round-trip,
and its hooks (head_outputs, gate_heads, combine_heads) keep the one gate convention."""

import dataclasses

import numpy as np
import pytest
import torch

import mha
from mha.torch_mha import MultiHeadAttention

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


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


# --- bfloat16 and float16 ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_16_bit_modules_convert_exactly_and_agree_with_nn_multihead_attention(rng, dtype):
    """bfloat16 broke every conversion, which went through NumPy (issue 25)."""
    torch.manual_seed(0)
    theirs = torch.nn.MultiheadAttention(16, 4, batch_first=True, dtype=dtype).eval()
    with torch.no_grad():
        theirs.in_proj_bias.normal_()
    ours = MultiHeadAttention.from_torch(theirs)
    assert ours.w_q.dtype == dtype
    back = ours.to_torch()
    for name, value in theirs.state_dict().items():
        assert torch.equal(back.state_dict()[name], value), name
    params = ours.to_params()  # NumPy: float32 for bfloat16 (it holds every bfloat16 exactly)
    assert params.w_q.dtype == (np.float32 if dtype == torch.bfloat16 else np.float16)
    again = MultiHeadAttention.from_params(params, dtype=dtype)
    for name in MHA_NAMES:
        assert torch.equal(getattr(again, name), getattr(ours, name)), name
    x = torch.from_numpy(rng.standard_normal((2, 7, 16)))
    mask = torch.from_numpy(mha.causal_mask(7))
    reference = MultiHeadAttention.from_torch(theirs.double())  # the same weights in float64
    with torch.no_grad():
        exact, _ = reference(x, mask=mask)
        expected, _ = theirs.to(dtype)(x.to(dtype), x.to(dtype), x.to(dtype), attn_mask=~mask)
        readable, _ = ours(x.to(dtype), mask=mask)
        fused, _ = ours(x.to(dtype), mask=mask, need_weights=False)
    unit = {torch.bfloat16: 2.0**-8, torch.float16: 2.0**-11}[dtype]  # the dtype's unit roundoff
    tolerance = 32 * unit * exact.abs().max().item()  # a few roundings of unit-scale sums of 16
    for name, out in (
        ("nn.MultiheadAttention", expected),
        ("readable", readable),
        ("fused", fused),
    ):
        assert out.dtype == dtype
        torch.testing.assert_close(out.double(), exact, rtol=0, atol=tolerance, msg=name)


MHA_NAMES = ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")


# --- what nn.MultiheadAttention has and this module does not ----------------------------------


@pytest.mark.parametrize(
    ("option", "words"),
    [
        ("key_padding_mask", r"pass mask= with True = may attend: ~key_padding_mask\[:, None, None, :\]"),
        ("attn_mask", "a float attn_mask is bias="),
        ("average_attn_weights", "weights.mean"),
        ("static_k", "static"),
        ("static_v", "static"),
    ],
)  # fmt: skip
def test_forward_names_the_nn_multihead_attention_arguments_it_does_not_take(option, words):
    module = MultiHeadAttention(8, 2)
    x = torch.zeros(1, 3, 8)
    with pytest.raises(TypeError, match=f"{option} is an nn.MultiheadAttention argument.*{words}"):
        module(x, **{option: None})
    with pytest.raises(TypeError, match="unexpected keyword argument 'maks'"):
        module(x, maks=None)


@pytest.mark.parametrize("option", ["add_bias_kv", "add_zero_attn"])
def test_from_torch_names_the_options_it_does_not_model(option):
    with pytest.raises(ValueError, match=f"module has {option}=True"):
        MultiHeadAttention.from_torch(torch.nn.MultiheadAttention(8, 2, **{option: True}))


def test_nested_tensors_are_refused_by_name():
    nested = torch.nested.nested_tensor([torch.zeros(3, 8), torch.zeros(5, 8)], layout=torch.jagged)
    with pytest.raises(TypeError, match=r"q is a nested tensor.*to_padded_tensor"):
        MultiHeadAttention(8, 2)(nested)


# --- dropout ----------------------------------------------------------------------------------


def test_dropout_is_kept_by_the_conversions_and_off_in_eval(rng):
    torch.manual_seed(1)
    theirs = torch.nn.MultiheadAttention(16, 4, dropout=0.3, batch_first=True, dtype=torch.float64)
    ours = MultiHeadAttention.from_torch(theirs)
    assert ours.dropout == 0.3 and ours.to_torch().dropout == 0.3
    ours.eval(), theirs.eval()
    x = torch.from_numpy(rng.standard_normal((2, 6, 16)))
    with torch.no_grad():
        expected, _ = theirs(x, x, x)
        for need_weights in (True, False):
            out, _ = ours(x, need_weights=need_weights)
            torch.testing.assert_close(out, expected, rtol=1e-12, atol=1e-12)


def test_dropout_in_training_equals_nn_multihead_attention_in_expectation(rng):
    p, draws = 0.4, 3000
    torch.manual_seed(2)
    theirs = torch.nn.MultiheadAttention(8, 2, dropout=p, batch_first=True, dtype=torch.float64)
    ours = MultiHeadAttention.from_torch(theirs)
    x = torch.from_numpy(rng.standard_normal((1, 5, 8))).expand(draws, 5, 8)  # one draw a row
    with torch.no_grad():
        exact, _ = ours.eval()(x[:1])
        ours.train(), theirs.train()
        samples = {
            "nn.MultiheadAttention": theirs(x, x, x)[0],
            "readable": ours(x)[0],
            "fused": ours(x, need_weights=False)[0],
        }
        _, weights = ours(x)
    for name, out in samples.items():
        assert not torch.allclose(out[0], exact[0])  # dropout did something
        spread = out.std(dim=0) / draws**0.5
        error = (out.mean(dim=0) - exact[0]).abs()
        assert (error < 5 * spread + 1e-12).all(), name
    zeros = (weights == 0).double().mean().item()
    assert abs(zeros - p) < 5 * (p * (1 - p) / weights.numel()) ** 0.5
    torch.manual_seed(3)
    first = ours(x[:2])[0]
    torch.manual_seed(3)
    torch.testing.assert_close(ours(x[:2])[0], first, rtol=0, atol=0)  # seeded


# --- grouped key/value heads, queries of another width, rope, bias ----------------------------


def test_grouped_key_value_heads_match_the_numpy_gqa_on_both_paths(rng):
    from mha.efficient import GQAParams, grouped_query_attention

    torch.manual_seed(4)
    module = MultiHeadAttention(24, 6, num_kv_heads=2, bias=True, dtype=torch.float64)
    with torch.no_grad():
        for b in (module.b_q, module.b_k, module.b_v, module.b_o):
            b.normal_()
    params = module.to_params()
    assert isinstance(params, GQAParams) and params.w_k.shape == (24, 8)
    x = rng.standard_normal((2, 7, 24))
    expected, expected_weights = grouped_query_attention(x, x, x, params, mha.causal_mask(7))
    out, weights = module(torch.from_numpy(x), is_causal=True)
    fused, _ = module(torch.from_numpy(x), is_causal=True, need_weights=False)
    np.testing.assert_allclose(out.detach().numpy(), expected, atol=1e-12)
    np.testing.assert_allclose(weights.detach().numpy(), expected_weights, atol=1e-12)
    np.testing.assert_allclose(fused.detach().numpy(), expected, atol=1e-12)
    back = MultiHeadAttention.from_params(params)
    assert back.num_kv_heads == 2 and torch.equal(back.w_k, module.w_k)
    with pytest.raises(ValueError, match="num_kv_heads=2 key/value heads for 6 query heads"):
        module.to_torch()


def test_queries_of_another_width(rng):
    module = MultiHeadAttention(6, 2, qdim=10, kdim=10, vdim=10, dtype=torch.float64)
    params = module.to_params()
    assert params.qdim == 10 and params.d_model == 6
    x = rng.standard_normal((2, 5, 10))
    expected, _ = mha.multi_head_attention(x, x, x, params)
    out, _ = module(torch.from_numpy(x))
    np.testing.assert_allclose(out.detach().numpy(), expected, atol=1e-12)
    assert "qdim=10" in repr(module)
    with pytest.raises(ValueError, match="qdim=10 query features but d_model=6"):
        module.to_torch()
    with pytest.raises(ValueError, match="q has 6 features but the module expects qdim=10"):
        module(torch.zeros(1, 3, 6, dtype=torch.float64))


def test_rope_and_a_learned_bias_on_both_paths(rng):
    from mha.positions import ALiBi, RoPE

    torch.manual_seed(5)
    module = MultiHeadAttention(16, 4, bias=True, dtype=torch.float64)  # d_k = 4: even
    x = torch.from_numpy(rng.standard_normal((2, 6, 16)))
    rope = RoPE(base=40.0)
    table = torch.from_numpy(rng.standard_normal((4, 6, 6))).requires_grad_()  # (h, n, n)
    params = module.to_params()
    expected, _ = mha.multi_head_attention(
        x.numpy(), x.numpy(), x.numpy(), params, mha.causal_mask(6), rope=rope,
        bias=table.detach().numpy(),
    )  # fmt: skip
    grads = []
    for need_weights in (True, False):
        out, _ = module(x, is_causal=True, rope=rope, bias=table, need_weights=need_weights)
        np.testing.assert_allclose(out.detach().numpy(), expected, atol=1e-12)
        grads.append(torch.autograd.grad(out.pow(2).sum(), table)[0])
    torch.testing.assert_close(grads[0], grads[1], rtol=1e-10, atol=1e-12)
    assert (grads[0][:, 0, 1:] == 0).all()  # causal: a masked score gets no gradient
    for need_weights in (True, False):
        with torch.no_grad():
            out, _ = module(x, is_causal=True, bias=ALiBi(4), need_weights=need_weights)
        alibi, _ = mha.multi_head_attention(
            x.numpy(), x.numpy(), x.numpy(), params, mha.causal_mask(6), bias=ALiBi(4)
        )
        np.testing.assert_allclose(out.numpy(), alibi, atol=1e-12)


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"bias": np.zeros((6, 6))}, TypeError, "bias must be a torch.Tensor"),
        ({"bias": torch.zeros(3, 6, 6, dtype=torch.float64)}, ValueError, r"bias has shape \(3, 6, 6\)"),
        ({"bias": torch.zeros(6, 6, dtype=torch.int64)}, TypeError, "bias must be a floating-point"),
        ({"rope": "rope"}, TypeError, "rope must be an mha.positions.RoPE"),
    ],
)  # fmt: skip
def test_bad_options_are_named(module, options, error, words):
    with pytest.raises(error, match=words):
        module(torch.zeros(2, 6, 16, dtype=torch.float64), **options)


def test_bad_constructor_options_are_named():
    with pytest.raises(ValueError, match=r"dropout must be a probability in \[0, 1\), got 1.5"):
        MultiHeadAttention(8, 2, dropout=1.5)
    with pytest.raises(ValueError, match="num_kv_heads=3 must divide num_heads=4"):
        MultiHeadAttention(8, 4, num_kv_heads=3)
