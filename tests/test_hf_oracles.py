"""Hugging Face's modules as oracles, on tiny random configs built in code (nothing downloaded).

Each test builds a module of ``transformers`` from a config, copies its weights into the
package's layer and compares outputs (and gradients, for the decoder layers):

- Llama's and Qwen2's decoder layers against :class:`mha.block.TransformerBlock` with
  ``norm="rms", ffn="swiglu", rope=..., num_kv_heads=...`` (:meth:`~mha.block.TransformerBlock.from_llama`),
  Llama 3's RoPE scaling included;
- Llama's and Qwen2's attention (GQA, rotary embeddings, Qwen2's q/k/v biases) against
  :func:`mha.efficient.grouped_query_attention`, :func:`mha.efficient.decode_step` with a
  KV cache, and the torch module;
- GPT-2's attention against :func:`mha.multi_head_attention` (biases, causal);
- T5's relative position bias and BLOOM's ALiBi against the ``bias=`` argument.

Where Hugging Face computes in float32 whatever the module's dtype (its RMSNorm casts to
float32, its rotary angles are float32, BLOOM's softmax is float32), float64 comparisons
allow what float32 rounding of unit-scale intermediates can give: 1e-5 of the output's scale
(u32 = 6e-8, and the random weights are O(1)); elsewhere they agree to float64 rounding.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import mha
from mha.block import TransformerBlock
from mha.efficient import GQAParams, KVCache, decode_step, grouped_query_attention
from mha.positions import ALiBi, Llama3Scaling, alibi_slopes, frequencies
from mha.torch_mha import MultiHeadAttention

transformers = pytest.importorskip("transformers")
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS  # noqa: E402
from transformers.models.bloom import modeling_bloom  # noqa: E402
from transformers.models.gpt2.modeling_gpt2 import GPT2Attention  # noqa: E402
from transformers.models.llama import modeling_llama  # noqa: E402
from transformers.models.qwen2 import modeling_qwen2  # noqa: E402
from transformers.models.t5.modeling_t5 import T5Attention  # noqa: E402

HIDDEN, HEADS, KV_HEADS, FFN, N = 32, 4, 2, 48, 9
LLAMA3 = {
    "rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0,
    "high_freq_factor": 4.0, "original_max_position_embeddings": 16,
}  # fmt: skip
FAMILIES = {
    "llama": (transformers.LlamaConfig, modeling_llama, "Llama", {}),
    "llama-biases": (
        transformers.LlamaConfig, modeling_llama, "Llama", {"attention_bias": True, "mlp_bias": True}
    ),
    "llama3-scaled-rope": (transformers.LlamaConfig, modeling_llama, "Llama", {"rope_parameters": LLAMA3}),
    "qwen2": (transformers.Qwen2Config, modeling_qwen2, "Qwen2", {}),
}  # fmt: skip


def _config(family: str, **changes):
    config_class, _, _, extra = FAMILIES[family]
    settings = {
        "hidden_size": HIDDEN, "intermediate_size": FFN, "num_attention_heads": HEADS,
        "num_key_value_heads": KV_HEADS, "max_position_embeddings": 64,
        "attn_implementation": "eager", **extra, **changes,
    }  # fmt: skip
    return config_class(**settings)


def _perturbed(module: torch.nn.Module, seed: int) -> torch.nn.Module:
    """``module`` in float64, every parameter (norm weights, biases) moved off its init."""
    torch.manual_seed(seed)
    module = module.double().eval()
    with torch.no_grad():
        for p in module.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return module


def _rotary(family: str, config, x: torch.Tensor, positions: torch.Tensor):
    """Hugging Face's own (cos, sin) for ``positions``: the rotary embedding oracle."""
    _, module, prefix, _ = FAMILIES[family]
    return getattr(module, f"{prefix}RotaryEmbedding")(config)(x, positions)


def _additive(mask: np.ndarray) -> torch.Tensor:
    """A boolean mask (True = may attend) as Hugging Face's float mask: 0 or -inf."""
    return torch.from_numpy(mha.to_additive(mask, np.float64))


def _assert_close(got: torch.Tensor, expected: torch.Tensor, relative: float) -> None:
    scale = expected.abs().max().item()
    torch.testing.assert_close(got, expected, rtol=0, atol=relative * scale)


# --- decoder layers -------------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
def test_decoder_layers_equal_the_modern_block_forward_and_gradients(rng, family):
    config = _config(family)
    _, module, prefix, _ = FAMILIES[family]
    layer = _perturbed(getattr(module, f"{prefix}DecoderLayer")(config, layer_idx=0), seed=1)
    block = TransformerBlock.from_llama(layer)
    assert block.norm == "rms" and block.ffn == "swiglu"
    assert block.attention.num_kv_heads == KV_HEADS
    if family == "qwen2":  # q, k, v biases, none on the output projection
        assert block.attention.b_q is not None and block.attention.b_o is None
    if family == "llama3-scaled-rope":
        assert block.rope.scaling == Llama3Scaling(original_max_position=16)
    x = torch.from_numpy(rng.standard_normal((2, N, HIDDEN))).requires_grad_()
    x_theirs = x.detach().clone().requires_grad_()
    positions = torch.arange(N)[None].expand(2, N)
    real = mha.padding_mask([N, 6], N)  # (B, 1, 1, n): the second sequence is padded
    mask = mha.combine_masks(mha.causal_mask(N), real)
    theirs = layer(
        x_theirs,
        attention_mask=_additive(mask),
        position_embeddings=_rotary(family, config, x_theirs, positions),
    )
    ours = block(x, torch.from_numpy(real), is_causal=True)
    _assert_close(ours[:, :6], theirs[:, :6], 1e-5)  # padded queries: garbage on both sides
    _assert_close(ours[0], theirs[0], 1e-5)
    weights = torch.from_numpy(rng.standard_normal(ours.shape))
    weights[1, 6:] = 0  # the loss ignores the padded queries
    (ours * weights).sum().backward()
    (theirs * weights).sum().backward()
    _assert_close(x.grad, x_theirs.grad, 1e-5)
    attention, mlp = layer.self_attn, layer.mlp
    pairs = [
        (block.norm1.weight, layer.input_layernorm.weight),
        (block.norm2.weight, layer.post_attention_layernorm.weight),
        (block.feed_forward.gate.weight, mlp.gate_proj.weight),
        (block.feed_forward.up.weight, mlp.up_proj.weight),
        (block.feed_forward.down.weight, mlp.down_proj.weight),
    ]
    for name in "qkvo":
        linear = getattr(attention, f"{name}_proj")
        pairs.append((getattr(block.attention, f"w_{name}").grad.T, linear.weight.grad))
        if linear.bias is not None:
            pairs.append((getattr(block.attention, f"b_{name}"), linear.bias))
    for ours_p, theirs_p in pairs:
        ours_grad = ours_p if ours_p.grad is None else ours_p.grad
        theirs_grad = theirs_p if theirs_p.grad is None else theirs_p.grad
        _assert_close(ours_grad, theirs_grad, 1e-5)


def test_llama3_scaling_gives_hugging_faces_frequencies():
    for original in (16, 48, 8192):
        parameters = {**LLAMA3, "original_max_position_embeddings": original}
        config = _config(
            "llama", rope_parameters=parameters, head_dim=64, max_position_embeddings=2 * original
        )
        theirs, _ = ROPE_INIT_FUNCTIONS["llama3"](config)  # in float32: a few roundings of u32
        scaling = Llama3Scaling(original_max_position=original)
        ours = frequencies(64, base=500000.0, scaling=scaling)
        np.testing.assert_allclose(ours, theirs.double().numpy(), rtol=1e-6, atol=0)
        # the three regimes: short wavelengths kept, long ones divided by 8, a blend between
        plain = frequencies(64, base=500000.0)
        wavelength = 2 * math.pi / plain
        kept, divided = wavelength < original / 4, wavelength > original
        np.testing.assert_array_equal(ours[kept], plain[kept])
        np.testing.assert_allclose(ours[divided], plain[divided] / 8, rtol=1e-15)
        between = ~kept & ~divided
        assert ((ours[between] < plain[between]) & (ours[between] > plain[between] / 8)).all()


# --- attention layers -----------------------------------------------------------------------


def _gqa_params_of(attention) -> GQAParams:
    """A Hugging Face Llama/Qwen2 attention's weights as GQAParams (paper layout, float64)."""
    linears = {name: getattr(attention, f"{name}_proj") for name in "qkvo"}
    weights = {f"w_{n}": lin.weight.detach().numpy().T.copy() for n, lin in linears.items()}
    biases = {
        f"b_{n}": None if lin.bias is None else lin.bias.detach().numpy().copy()
        for n, lin in linears.items()
    }
    return GQAParams(num_heads=HEADS, num_kv_heads=KV_HEADS, **weights, **biases)


@pytest.mark.parametrize("family", ["llama", "qwen2", "llama3-scaled-rope"])
def test_attention_equals_gqa_with_rope_decoding_with_a_cache_and_the_torch_module(rng, family):
    config = _config(family)
    _, module, prefix, _ = FAMILIES[family]
    attention = _perturbed(getattr(module, f"{prefix}Attention")(config, layer_idx=0), seed=2)
    params = _gqa_params_of(attention)
    rope = TransformerBlock.from_llama(
        _perturbed(getattr(module, f"{prefix}DecoderLayer")(config, layer_idx=0), seed=2)
    ).rope
    x = torch.from_numpy(rng.standard_normal((2, N, HIDDEN)))
    positions = torch.arange(N)[None].expand(2, N)
    with torch.no_grad():
        theirs, _ = attention(
            x,
            position_embeddings=_rotary(family, config, x, positions),
            attention_mask=_additive(mha.causal_mask(N)),
        )
    ours, _ = grouped_query_attention(x.numpy(), x.numpy(), x.numpy(), params, mha.causal_mask(N), rope=rope)  # fmt: skip
    _assert_close(torch.from_numpy(ours), theirs, 1e-5)  # their angles are float32
    cache = KVCache(N)
    steps = [decode_step(x.numpy()[:, :4], params, cache, rope=rope)]  # a 4-token prompt
    steps += [decode_step(x.numpy()[:, i : i + 1], params, cache, rope=rope) for i in range(4, N)]
    np.testing.assert_allclose(np.concatenate(steps, axis=1), ours, rtol=0, atol=1e-13)
    layer = MultiHeadAttention.from_params(params)
    for need_weights in (True, False):
        with torch.no_grad():
            out, _ = layer(x, is_causal=True, rope=rope, need_weights=need_weights)
        np.testing.assert_allclose(out.numpy(), ours, rtol=0, atol=1e-13)


def test_gpt2_attention_is_multi_head_attention_with_biases_and_a_causal_mask(rng):
    config = transformers.GPT2Config(n_embd=16, n_head=4, attn_implementation="eager")
    attention = _perturbed(GPT2Attention(config, layer_idx=0), seed=3)
    w, b = attention.c_attn.weight.detach().numpy(), attention.c_attn.bias.detach().numpy()
    params = mha.MHAParams(  # GPT-2's Conv1D is already x @ W
        w[:, :16], w[:, 16:32], w[:, 32:], attention.c_proj.weight.detach().numpy(), 4,
        b[:16], b[16:32], b[32:], attention.c_proj.bias.detach().numpy(),
    )  # fmt: skip
    x = rng.standard_normal((2, 7, 16))
    with torch.no_grad():
        theirs, _ = attention(torch.from_numpy(x), attention_mask=_additive(mha.causal_mask(7)))
    ours, _ = mha.multi_head_attention(x, x, x, params, mha.causal_mask(7))
    np.testing.assert_allclose(ours, theirs.numpy(), rtol=0, atol=1e-13)


# --- biases inside attention ----------------------------------------------------------------


@pytest.mark.parametrize("is_decoder", [False, True], ids=["bidirectional", "causal-buckets"])
def test_t5_relative_bias_is_an_additive_bias(rng, is_decoder):
    config = transformers.T5Config(
        d_model=16, d_kv=4, num_heads=4, relative_attention_num_buckets=8,
        relative_attention_max_distance=12, dropout_rate=0.0, is_decoder=is_decoder,
        attn_implementation="eager",
    )  # fmt: skip
    attention = _perturbed(T5Attention(config, has_relative_attention_bias=True, layer_idx=0), 4)
    n = 15  # beyond max_distance: the last bucket repeats
    x = torch.from_numpy(rng.standard_normal((2, n, 16)))
    with torch.no_grad():
        theirs, position_bias, _ = attention(x)
    # T5 does not scale q k^T: fold sqrt(d_k) into W^Q so that our 1/sqrt(d_k) cancels it
    params = mha.MHAParams(
        attention.q.weight.detach().numpy().T * math.sqrt(4),
        attention.k.weight.detach().numpy().T.copy(),
        attention.v.weight.detach().numpy().T.copy(),
        attention.o.weight.detach().numpy().T.copy(),
        4,
    )
    bias = position_bias.numpy()  # (1, h, n, n)
    ours, _ = mha.multi_head_attention(x.numpy(), x.numpy(), x.numpy(), params, bias=bias)
    np.testing.assert_allclose(ours, theirs.numpy(), rtol=0, atol=1e-13)
    lean, _ = mha.multi_head_attention(
        x.numpy(), x.numpy(), x.numpy(), params, bias=bias, need_weights=False, memory_budget=1
    )
    np.testing.assert_allclose(lean, theirs.numpy(), rtol=0, atol=1e-13)
    # a learned bias: its gradient through the torch module equals T5's, on both paths
    layer = MultiHeadAttention.from_params(params)
    table = attention.relative_attention_bias.weight
    for need_weights in (True, False):
        attention.zero_grad()
        ours_t, _ = layer(x, bias=attention.compute_bias(n, n), need_weights=need_weights)
        ours_grad = torch.autograd.grad(ours_t.pow(2).sum(), table)[0]
        theirs_grad = torch.autograd.grad(attention(x)[0].pow(2).sum(), table)[0]
        torch.testing.assert_close(ours_grad, theirs_grad, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("num_heads", [1, 3, 6, 8, 12, 20])
def test_alibi_slopes_are_blooms(num_heads):
    theirs = modeling_bloom._get_alibi_slopes(num_heads, torch.device("cpu"))
    # theirs: a float32 base raised to powers up to h, so up to h * u32 off (u32 = 6e-8)
    np.testing.assert_allclose(
        alibi_slopes(num_heads), theirs.double().numpy(), rtol=num_heads * 2.0**-23
    )


def _bloom_params(attention, h: int, d: int) -> mha.MHAParams:
    """BLOOM's fused query_key_value, whose output features run (head, q/k/v, d), split."""
    w = attention.query_key_value.weight.detach().numpy().reshape(h, 3, d, -1)
    b = attention.query_key_value.bias.detach().numpy().reshape(h, 3, d)
    weights = [w[:, i].reshape(h * d, -1).T.copy() for i in range(3)]
    biases = [b[:, i].reshape(h * d).copy() for i in range(3)]
    dense = attention.dense
    return mha.MHAParams(
        *weights, dense.weight.detach().numpy().T.copy(), h, *biases,
        dense.bias.detach().numpy().copy(),
    )  # fmt: skip


@pytest.mark.parametrize("num_heads", [4, 6])
def test_alibi_is_blooms_attention_on_every_path(rng, num_heads):
    d, n = 4, 40
    config = transformers.BloomConfig(
        hidden_size=num_heads * d, n_head=num_heads, attention_dropout=0.0, hidden_dropout=0.0
    )
    attention = _perturbed(modeling_bloom.BloomAttention(config, layer_idx=0), seed=5)
    params = _bloom_params(attention, num_heads, d)
    x = torch.from_numpy(rng.standard_normal((2, n, num_heads * d)))
    alibi = modeling_bloom.build_alibi_tensor(torch.ones(2, n), num_heads, torch.float64)
    with torch.no_grad():
        theirs, _ = attention(
            x, torch.zeros_like(x), alibi, _additive(mha.causal_mask(n))[None, None]
        )
    xs = x.numpy()
    causal = mha.causal_mask(n)
    bias = ALiBi(num_heads)
    expected = theirs.numpy()
    got = {
        "batched": mha.multi_head_attention(xs, xs, xs, params, causal, bias=bias)[0],
        "loop": mha.multi_head_attention_loop(xs, xs, xs, params, causal, bias=bias)[0],
        "lean tiles": mha.multi_head_attention(
            xs, xs, xs, params, causal, bias=bias, need_weights=False, memory_budget=1
        )[0],
    }
    layer = MultiHeadAttention.from_params(params)
    for need_weights in (True, False):
        with torch.no_grad():
            out, _ = layer(x, is_causal=True, bias=bias, need_weights=need_weights)
        got[f"torch need_weights={need_weights}"] = out.numpy()
    scale = np.abs(expected).max()
    for path, out in got.items():  # BLOOM's softmax runs in float32 whatever the dtype
        np.testing.assert_allclose(out, expected, rtol=0, atol=1e-5 * scale, err_msg=path)
        np.testing.assert_allclose(out, got["batched"], rtol=0, atol=1e-12, err_msg=path)
