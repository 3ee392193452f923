"""toy.build_model and toy.train_seeds: one model per seed, the same in any process."""

import pytest
import torch

from mha import toy
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
