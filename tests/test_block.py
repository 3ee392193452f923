"""mha.block: agreement with torch.nn.TransformerEncoderLayer (both LayerNorm placements, with
masks), the weights round trip, known answers, bad arguments."""

import pytest
import torch
from torch import nn

import mha
from mha.block import TransformerBlock

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
        (
            lambda: TransformerBlock.from_torch(nn.TransformerEncoderLayer(8, 2, 16, bias=False)),
            ValueError,
            "no biases",
        ),
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
