"""toy.build_model, toy.build_seeds and toy.train_seeds: one model per seed, the same in any
process; and the measurements the chapters make on the models."""

import numpy as np
import pytest
import torch

from mha import analysis, atlas, toy
from mha.moh import MixtureOfHeadAttention
from mha.torch_mha import MultiHeadAttention

ARCH = {"num_heads": 4, "d_model": 16, "vocab_size": 6, "seq_len": 5}


def _state(model):
    return {name: t.detach().clone() for name, t in model.state_dict().items()}


def _equal(a, b):
    return all(torch.equal(a[name], b[name]) for name in a)


def test_build_model_draws_its_weights_from_the_seed():
    assert _equal(_state(toy.build_model(3, **ARCH)), _state(toy.build_model(3, **ARCH)))
    assert not _equal(_state(toy.build_model(3, **ARCH)), _state(toy.build_model(4, **ARCH)))
    assert type(toy.build_model(0, **ARCH).attention) is MultiHeadAttention
    moh = toy.build_model(0, **ARCH, top_k=2).attention
    assert isinstance(moh, MixtureOfHeadAttention) and moh.top_k == 2


def test_train_seeds_trains_each_seed_as_train_does():
    models = toy.train_seeds([0, 1], **ARCH, steps=5, batch_size=8, workers=1)
    for seed, model in zip([0, 1], models, strict=True):
        expected = toy.build_model(seed, **ARCH)
        toy.train(expected, steps=5, batch_size=8, seed=seed)
        assert _equal(_state(model), _state(expected))
    assert not _equal(_state(models[0]), _state(toy.build_model(0, **ARCH)))  # it trained


@pytest.mark.slow
def test_worker_processes_give_the_same_models():
    kwargs = {**ARCH, "steps": 5, "batch_size": 8, "top_k": 2, "diversity_weight": 0.5}
    here = toy.train_seeds([0, 1, 2], **kwargs, workers=1)
    in_workers = toy.train_seeds([0, 1, 2], **kwargs, workers=2)
    for a, b in zip(here, in_workers, strict=True):
        assert _equal(_state(a), _state(b))
        assert not b.training  # returned in eval mode, as train() leaves a model


def test_build_seeds_gives_the_models_train_seeds_starts_from():
    untrained = toy.build_seeds([0, 1], **ARCH, top_k=2)
    for seed, model in zip([0, 1], untrained, strict=True):
        assert _equal(_state(model), _state(toy.build_model(seed, **ARCH, top_k=2)))
    with pytest.raises(ValueError, match="at least one seed"):
        toy.build_seeds([], **ARCH)


# --- measurements ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def model():
    return toy.train_seeds([0], **ARCH, steps=20, batch_size=16, workers=1)[0]


@pytest.fixture(scope="module")
def sequences():
    return toy.held_out(64, ARCH["seq_len"], ARCH["vocab_size"], seed=5)


def test_held_out_sequences_come_from_their_own_seed(sequences):
    tokens, targets = sequences
    again = toy.make_batch(
        64, ARCH["seq_len"], ARCH["vocab_size"], torch.Generator().manual_seed(5)
    )
    assert torch.equal(tokens, again[0]) and torch.equal(targets, again[1])


def test_evaluate_is_the_accuracy_of_the_gated_model(model, sequences):
    tokens, targets = sequences
    gate = torch.tensor([1.0, 0.0, 1.0, 1.0])
    with torch.no_grad():
        expected = toy.accuracy(model(tokens, head_gate=gate)[0], targets).numpy()
    np.testing.assert_array_equal(toy.evaluate(model, tokens, targets, gate), expected)
    assert toy.evaluate(model, tokens, targets).shape == (2,)


def test_head_statistics_read_the_attention_maps(model, sequences):
    tokens, _ = sequences
    with torch.no_grad():
        _, w = model(tokens)  # (B, h, n, n)
    stats = toy.head_statistics(model, tokens)
    np.testing.assert_allclose(stats.distance, analysis.mean_attention_distance(w).numpy())
    np.testing.assert_allclose(stats.entropy, analysis.attention_entropy(w).numpy())
    n = ARCH["seq_len"]
    previous = np.mean([w[:, :, i, i - 1].numpy() for i in range(1, n)], axis=(0, 1))
    mirror = np.mean([w[:, :, i, n - 1 - i].numpy() for i in range(n)], axis=(0, 1))
    np.testing.assert_allclose(stats.on_previous, previous, rtol=1e-6)
    np.testing.assert_allclose(stats.on_mirror, mirror, rtol=1e-6)


def test_head_kind_by_where_most_weight_goes():
    assert toy.head_kind(0.9, 0.05) == "local"
    assert toy.head_kind(0.1, 0.8) == "global"
    assert toy.head_kind(0.5, 0.5) == "mixed"
    assert toy.head_kind(0.5, 0.1, threshold=0.4) == "local"


@pytest.mark.parametrize("top_k", [None, 2])
def test_similarities_and_redundancies_of_maps_and_outputs(top_k, sequences):
    tokens, _ = sequences
    built = toy.build_model(0, **ARCH, top_k=top_k)
    maps, outputs = toy.head_similarities(built, tokens)
    embedded = built.embed(tokens)
    with torch.no_grad():
        out, w = built.attention(embedded)
        gates = built.attention.route(embedded) if top_k else None
        parts = analysis.head_contributions(built.attention, embedded, token_gates=gates)
    torch.testing.assert_close(parts.sum(-3), out, atol=1e-5, rtol=1e-5)  # what the layer adds
    torch.testing.assert_close(maps, analysis.head_similarity(w))
    torch.testing.assert_close(outputs, analysis.head_similarity(parts))
    both = toy.redundancies([built, built], tokens)
    assert both.shape == (2, 2)
    np.testing.assert_allclose(both[0], [analysis.redundancy(maps), analysis.redundancy(outputs)])


def test_head_importances_and_pruning_curve_on_the_model(model, sequences):
    tokens, targets = sequences
    ablation, gradient = toy.head_importances(model, tokens, targets)
    assert ablation.shape == gradient.shape == (4,) and (gradient >= 0).all()
    full = toy.evaluate(model, tokens, targets).mean()
    without_1 = toy.evaluate(model, tokens, targets, torch.tensor([1.0, 0.0, 1.0, 1.0])).mean()
    assert ablation[1] == pytest.approx(full - without_1)
    curve = toy.pruning_curve(model, tokens, targets, [3, 0, 1, 2])
    assert curve.shape == (5,)
    assert curve[0] == pytest.approx(full)
    assert curve[-1] == pytest.approx(toy.evaluate(model, tokens, targets, torch.zeros(4)).mean())


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"seeds": []}, ValueError, "at least one seed"),
        ({"seeds": [0], "workers": 0}, ValueError, "workers"),
    ],
)
def test_train_seeds_rejects_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        toy.train_seeds(**kwargs, **ARCH, steps=1)


# --- learning curves ------------------------------------------------------------------------


def test_learning_curves_measure_the_models_train_seeds_trains_along_the_way(sequences):
    tokens, targets = sequences
    models, curves = toy.learning_curves(
        [0, 1], tokens, targets, checkpoints=[0, 2, 5], **ARCH, batch_size=8, workers=1
    )
    assert curves.shape == (2, 3, 2)
    trained = toy.train_seeds([0, 1], **ARCH, steps=5, batch_size=8, workers=1)
    for seed, model, curve, expected in zip([0, 1], models, curves, trained, strict=True):
        assert _equal(_state(model), _state(expected))  # measuring changed nothing
        assert not model.training
        untrained = toy.build_model(seed, **ARCH)
        assert np.array_equal(curve[0], toy.evaluate(untrained, tokens, targets))
        after_two = toy.build_model(seed, **ARCH)
        toy.train(after_two, steps=2, batch_size=8, seed=seed)
        assert np.array_equal(curve[1], toy.evaluate(after_two, tokens, targets))
        assert np.array_equal(curve[2], toy.evaluate(model, tokens, targets))


@pytest.mark.slow
def test_learning_curves_in_worker_processes_are_the_same(sequences):
    tokens, targets = sequences
    kwargs = {**ARCH, "checkpoints": [1, 3], "batch_size": 8, "top_k": 2}
    _, here = toy.learning_curves([0, 1], tokens, targets, **kwargs, workers=1)
    _, in_workers = toy.learning_curves([0, 1], tokens, targets, **kwargs, workers=2)
    assert np.array_equal(here, in_workers)


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_a_sweep_gives_what_each_setting_alone_gives(sequences, workers):
    tokens, targets = sequences
    shared = {k: v for k, v in ARCH.items() if k != "num_heads"}
    settings = {
        "two heads, longer": {"num_heads": 2, "checkpoints": [0, 2, 6]},
        "top-1": {"num_heads": 4, "top_k": 1, "checkpoints": [3]},
    }
    sweep = toy.learning_curve_sweep(
        settings, [0, 1], tokens, targets, **shared, batch_size=8, workers=workers
    )
    assert list(sweep) == list(settings)
    for label, setting in settings.items():
        models, curves = toy.learning_curves(
            [0, 1], tokens, targets, **shared, **setting, batch_size=8, workers=1
        )
        swept_models, swept_curves = sweep[label]
        assert np.array_equal(curves, swept_curves), label
        for model, swept in zip(models, swept_models, strict=True):
            assert _equal(_state(model), _state(swept)), label


@pytest.mark.parametrize(
    ("settings", "error", "match"),
    [
        ({}, TypeError, "non-empty dict"),
        ([{"num_heads": 2, "checkpoints": [1]}], TypeError, "non-empty dict"),
        ({"a": {"checkpoints": [1]}}, ValueError, r"settings\['a'\] must give num_heads"),
        ({"a": {"num_heads": 2, "checkpoints": [1], "lr": 1}}, ValueError, "got keys"),
        ({"a": {"num_heads": 2, "checkpoints": [2, 1]}}, ValueError, "increase"),
    ],
)
def test_a_sweep_rejects_bad_settings(settings, error, match, sequences):
    shared = {k: v for k, v in ARCH.items() if k != "num_heads"}
    with pytest.raises(error, match=match):
        toy.learning_curve_sweep(settings, [0], *sequences, **shared)


def test_train_calls_after_step_with_the_steps_done():
    seen = []
    model = toy.build_model(0, **ARCH)
    toy.train(model, steps=3, batch_size=4, after_step=lambda t: seen.append((t, model.training)))
    assert seen == [(1, False), (2, False), (3, False)]  # measured in eval mode


@pytest.mark.parametrize(
    ("checkpoints", "error", "match"),
    [
        ([], ValueError, "end at a step >= 1"),
        ([0], ValueError, "end at a step >= 1"),
        ([-1, 2], ValueError, ">= 0"),
        ([3, 2], ValueError, "increase"),
        ([1.5], TypeError, "integers"),
        ([True], TypeError, "integers"),
    ],
)
def test_learning_curves_reject_bad_checkpoints(checkpoints, error, match, sequences):
    with pytest.raises(error, match=match):
        toy.learning_curves([0], *sequences, checkpoints=checkpoints, **ARCH)


def test_js_redundancies_is_one_minus_the_mean_js_divergence_over_ln_2(model, sequences):
    tokens, _ = sequences
    with torch.no_grad():
        _, weights = model(tokens)
    js = atlas.js_divergence(weights.numpy())  # (h, h)
    off_diagonal = ~np.eye(js.shape[0], dtype=bool)
    expected = 1 - js[off_diagonal].mean() / np.log(2)
    assert toy.js_redundancies([model], tokens) == pytest.approx([expected], rel=1e-6)
    # heads that all look alike: a model whose heads share one set of weights (no biases)
    copies = toy.build_model(0, **ARCH)
    with torch.no_grad():
        for w in (copies.attention.w_q, copies.attention.w_k):  # (d_model, h * d_k)
            w.copy_(w[:, :4].repeat(1, 4))
    assert toy.js_redundancies([copies], tokens)[0] == pytest.approx(1.0, abs=1e-6)
