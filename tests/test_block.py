"""mha.block: agreement with torch.nn.TransformerEncoderLayer (both LayerNorm placements, with
masks), the weights round trip, known answers, bad arguments."""

import pytest
import torch
from torch import nn

import mha
from mha.block import SwiGLU, TransformerBlock
from mha.positions import RoPE

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

D_MODEL, HEADS, D_FF = 12, 3, 20


def _perturbed_torch_layer(norm_first, activation="relu", seed=0):
    """A float64 nn.TransformerEncoderLayer whose every weight (LayerNorms too) is random."""
    torch.manual_seed(seed)
    layer = nn.TransformerEncoderLayer(
        D_MODEL, HEADS, D_FF, dropout=0.0, activation=activation, batch_first=True,
        norm_first=norm_first, dtype=torch.float64,
    )  # fmt: skip
    with torch.no_grad():
        for p in layer.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return layer.eval()


@pytest.mark.parametrize("grad", [True, False], ids=["autograd", "no_grad"])
@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-LN", "post-LN"])
def test_agrees_with_transformer_encoder_layer(rng, norm_first, grad):
    layer = _perturbed_torch_layer(norm_first)
    block = TransformerBlock.from_torch(layer)
    assert block.norm_first is norm_first
    x = torch.from_numpy(rng.standard_normal((3, 7, D_MODEL)))
    real = torch.from_numpy(mha.padding_mask([7, 4, 2], 7))  # (B, 1, 1, n), True = real key
    causal = torch.from_numpy(mha.causal_mask(7))  # (n, n), True = may attend
    with torch.set_grad_enabled(grad):
        pairs = [
            (layer(x), block(x)),
            # nn's masks mean the opposite: True = padding / may not attend
            (layer(x, src_key_padding_mask=~real[:, 0, 0, :]), block(x, real)),
            (layer(x, src_mask=~causal), block(x, causal)),
            (layer(x, src_mask=~causal, is_causal=True), block(x, is_causal=True)),
        ]
    for expected, got in pairs:
        torch.testing.assert_close(got, expected, rtol=1e-12, atol=1e-12)
    assert not torch.allclose(pairs[0][1], pairs[1][1])  # the padding mask mattered


def test_gelu_and_the_round_trip_to_torch(rng):
    layer = _perturbed_torch_layer(norm_first=True, activation="gelu", seed=1)
    block = TransformerBlock.from_torch(layer)
    assert block.activation == "gelu"
    back = block.to_torch().eval()
    assert back.norm_first and back.self_attn.batch_first
    x = torch.from_numpy(rng.standard_normal((2, 5, D_MODEL)))
    with torch.no_grad():
        torch.testing.assert_close(block(x), layer(x), rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(back(x), layer(x), rtol=1e-12, atol=1e-12)
    for name, value in layer.state_dict().items():
        torch.testing.assert_close(back.state_dict()[name], value)


def _silenced(block):
    """The block with its attention and feed-forward outputs set to zero."""
    with torch.no_grad():
        for p in (block.attention.w_o, block.attention.b_o, *block.feed_forward[2].parameters()):
            p.zero_()
    return block


def test_silent_sublayers_leave_only_the_residual_path(rng):
    x = torch.from_numpy(rng.standard_normal((2, 4, D_MODEL)))
    torch.manual_seed(0)
    pre = _silenced(TransformerBlock(D_MODEL, HEADS, D_FF, norm_first=True, dtype=torch.float64))
    torch.testing.assert_close(pre(x), x, rtol=0, atol=0)  # pre-LN: the stream passes untouched
    post = _silenced(TransformerBlock(D_MODEL, HEADS, D_FF, norm_first=False, dtype=torch.float64))
    out = post(x)  # post-LN: normalised twice; each token has mean 0, variance 1
    torch.testing.assert_close(
        out.mean(-1), torch.zeros(2, 4, dtype=torch.float64), atol=1e-12, rtol=0
    )
    torch.testing.assert_close(out.var(-1, unbiased=False), torch.ones(2, 4, dtype=torch.float64), atol=1e-4, rtol=0)  # fmt: skip


def test_pre_ln_block_is_the_sum_written_out(rng):
    torch.manual_seed(2)
    block = TransformerBlock(D_MODEL, HEADS, D_FF, activation="gelu", dtype=torch.float64)
    x = torch.from_numpy(rng.standard_normal((2, 5, D_MODEL)))
    mask = torch.from_numpy(mha.padding_mask([5, 3], 5))
    h = x + block.attention(block.norm1(x), mask=mask)[0]
    ff = block.feed_forward
    expected = h + ff[2](nn.functional.gelu(ff[0](block.norm2(h))))
    torch.testing.assert_close(block(x, mask), expected, rtol=1e-12, atol=1e-12)


def test_without_biases_the_round_trip_to_torch_still_agrees(rng):
    torch.manual_seed(3)
    layer = nn.TransformerEncoderLayer(
        D_MODEL, HEADS, D_FF, dropout=0.0, bias=False, batch_first=True, dtype=torch.float64
    ).eval()
    block = TransformerBlock.from_torch(layer)
    assert block.attention.b_q is None and block.feed_forward[0].bias is None
    assert block.norm1.bias is None
    x = torch.from_numpy(rng.standard_normal((2, 5, D_MODEL)))
    with torch.no_grad():
        torch.testing.assert_close(block(x), layer(x), rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(block.to_torch().eval()(x), layer(x), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_16_bit_layers_convert_both_ways_without_numpy(rng, dtype):
    """bfloat16 broke every conversion through NumPy (issue 25); float16 must hold too."""
    torch.manual_seed(4)
    layer = nn.TransformerEncoderLayer(
        D_MODEL, HEADS, D_FF, dropout=0.0, batch_first=True, dtype=dtype
    ).eval()
    block = TransformerBlock.from_torch(layer)
    assert block.attention.w_q.dtype == dtype
    back = block.to_torch().eval()
    for name, value in layer.state_dict().items():
        torch.testing.assert_close(back.state_dict()[name], value, rtol=0, atol=0)
    x = torch.from_numpy(rng.standard_normal((2, 5, D_MODEL))).to(dtype)
    reference = TransformerBlock.from_torch(layer.double())  # the same weights, in float64
    with torch.no_grad():
        expected = reference(x.double())
        got = block(x).double()
    # 16-bit rounding of every intermediate (unit roundoff 2^-8 for bfloat16, 2^-11 for
    # float16), through two sub-layers of unit-scale activations
    unit = {torch.bfloat16: 2.0**-8, torch.float16: 2.0**-11}[dtype]
    torch.testing.assert_close(got, expected, rtol=0, atol=64 * unit * expected.abs().max().item())


def test_the_modern_options_build_the_named_parts():
    block = TransformerBlock(
        16, 4, 24, norm="rms", ffn="swiglu", num_kv_heads=2, rope=RoPE(base=500.0), bias=False
    )
    assert isinstance(block.norm1, nn.RMSNorm) and isinstance(block.feed_forward, SwiGLU)
    assert block.attention.num_kv_heads == 2 and block.attention.w_k.shape == (16, 8)
    assert block.attention.b_q is None and block.feed_forward.gate.bias is None
    assert "norm='rms'" in repr(block) and "ffn='swiglu'" in repr(block)


def test_the_modern_block_is_the_sum_written_out(rng):
    """Pre-norm RMSNorm, SwiGLU, RoPE and GQA, each step written with torch's own functions."""
    torch.manual_seed(5)
    rope = RoPE(base=50.0)
    block = TransformerBlock(
        16, 4, 24, norm="rms", ffn="swiglu", num_kv_heads=2, rope=rope, bias=False, eps=1e-6,
        dtype=torch.float64,
    )  # fmt: skip
    with torch.no_grad():
        for p in block.parameters():
            p.add_(0.2 * torch.randn_like(p))
    x = torch.from_numpy(rng.standard_normal((2, 7, 16)))
    positions = torch.tensor([[0, 1, 2, 3, 4, 5, 6], [0, 2, 4, 6, 8, 10, 12]])  # per sequence

    def rms(t, g):
        return t / torch.sqrt(t.pow(2).mean(-1, keepdim=True) + 1e-6) * g

    a = block.attention
    normed = rms(x, block.norm1.weight)
    q = (normed @ a.w_q).view(2, 7, 4, 4).transpose(1, 2)
    k = (normed @ a.w_k).view(2, 7, 2, 4).transpose(1, 2)
    v = (normed @ a.w_v).view(2, 7, 2, 4).transpose(1, 2)
    q = mha.positions.apply_rope(q, positions[:, None], base=50.0)
    k = mha.positions.apply_rope(k, positions[:, None], base=50.0)
    heads = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    h = x + heads.transpose(1, 2).reshape(2, 7, 16) @ a.w_o
    ff = block.feed_forward
    m = rms(h, block.norm2.weight)
    expected = h + ff.down(nn.functional.silu(ff.gate(m)) * ff.up(m))
    got = block(x, is_causal=True, positions=positions)
    torch.testing.assert_close(got, expected, rtol=1e-12, atol=1e-12)
    default = block(x, is_causal=True)  # positions 0..6 for both sequences
    torch.testing.assert_close(got[0], default[0], rtol=1e-12, atol=1e-12)
    assert not torch.allclose(got[1], default[1])  # a shift would not matter, a stretch does


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (
            lambda: TransformerBlock(8, 2, 16, activation="tanh"),
            ValueError,
            "activation must be one of",
        ),
        (lambda: TransformerBlock(8, 2, 0), ValueError, "d_ff"),
        (lambda: TransformerBlock(8, 3, 16), ValueError, "num_heads=3 does not divide d_model=8"),
        (
            lambda: TransformerBlock(8, 2, 16, norm_first="yes"),
            TypeError,
            "norm_first must be a bool",
        ),
        (
            lambda: TransformerBlock.from_torch(nn.Linear(2, 2)),
            TypeError,
            "TransformerEncoderLayer",
        ),
        (
            lambda: TransformerBlock.from_torch(
                nn.TransformerEncoderLayer(8, 2, 16, activation=nn.Tanh(), batch_first=True)
            ),
            ValueError,
            "not relu or gelu",
        ),
        (lambda: TransformerBlock(8, 2, 16, norm="batch"), ValueError, "norm must be one of"),
        (lambda: TransformerBlock(8, 2, 16, ffn="moe"), ValueError, "ffn must be one of"),
        (
            lambda: TransformerBlock(8, 2, 16, ffn="swiglu", activation="gelu"),
            ValueError,
            "ffn='swiglu' gates with SiLU",
        ),
        (lambda: TransformerBlock(8, 2, 16, bias=1), TypeError, "bias must be a bool"),
        (
            lambda: TransformerBlock(8, 2, 16, rope=10000.0),
            TypeError,
            "rope must be an mha.positions.RoPE",
        ),
        (lambda: TransformerBlock(6, 2, 16, rope=RoPE()), ValueError, "odd d_k=3"),
        (
            lambda: TransformerBlock(8, 4, 16, num_kv_heads=3),
            ValueError,
            "num_kv_heads=3 must divide num_heads=4",
        ),
        (
            lambda: TransformerBlock(8, 2, 16)(torch.zeros(1, 3, 8), positions=torch.arange(3)),
            ValueError,
            "rope=None",
        ),
        (lambda: TransformerBlock(8, 2, 16, norm="rms").to_torch(), ValueError, "norm='rms'"),
        (lambda: TransformerBlock(8, 2, 16, rope=RoPE()).to_torch(), ValueError, "needs rope=None"),
        (
            lambda: TransformerBlock(8, 2, 16, num_kv_heads=1).to_torch(),
            ValueError,
            "num_kv_heads=1",
        ),
        (lambda: TransformerBlock.from_llama(nn.Linear(2, 2)), TypeError, "Llama family"),
    ],
)
def test_bad_arguments_are_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_float32_by_default():
    block = TransformerBlock(8, 2, 16)
    assert block.feed_forward[0].weight.dtype == torch.float32
    out = block(torch.zeros(1, 3, 8))
    assert out.dtype == torch.float32 and out.shape == (1, 3, 8) and torch.isfinite(out).all()
