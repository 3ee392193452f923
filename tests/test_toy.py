"""mha.toy: the task's targets, the loss and accuracy on known answers, the model, training."""

import math

import pytest
import torch

from mha import toy
from mha.analysis import head_similarity, redundancy
from mha.moh import MixtureOfHeadAttention
from mha.torch_mha import MultiHeadAttention

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

VOCAB, SEQ_LEN = 5, 6


def test_targets_are_the_previous_token_and_the_reversed_sequence():
    tokens, targets = toy.make_batch(3, SEQ_LEN, VOCAB, torch.Generator().manual_seed(0))
    assert tokens.shape == (3, SEQ_LEN) and targets.shape == (3, SEQ_LEN, 2)
    assert tokens.dtype == torch.int64 and tokens.min() >= 0 and tokens.max() < VOCAB
    for b in range(3):
        row = tokens[b].tolist()
        assert targets[b, :, 0].tolist() == [toy.IGNORE, *row[:-1]]
        assert targets[b, :, 1].tolist() == row[::-1]
    again, _ = toy.make_batch(3, SEQ_LEN, VOCAB, torch.Generator().manual_seed(0))
    assert torch.equal(tokens, again)


def one_hot_logits(answers, confidence):
    """Logits (B, n, 2, V) that put `confidence` on the given answers (IGNORE -> class 0)."""
    return confidence * torch.nn.functional.one_hot(answers.clamp_min(0), VOCAB).float()


def test_loss_and_accuracy_on_known_answers():
    _, targets = toy.make_batch(4, SEQ_LEN, VOCAB, torch.Generator().manual_seed(1))
    perfect = one_hot_logits(targets, 50.0)
    assert toy.per_example_loss(perfect, targets).max() < 1e-6
    torch.testing.assert_close(toy.accuracy(perfect, targets), torch.ones(2))
    uniform = torch.zeros(4, SEQ_LEN, 2, VOCAB)
    torch.testing.assert_close(
        toy.per_example_loss(uniform, targets), torch.full((4,), math.log(VOCAB))
    )
    # right on the global answer, wrong on the local one: position 0's local answer is not scored
    wrong_local = targets.clone()
    wrong_local[..., 0] = (targets[..., 0] + 1) % VOCAB
    logits = one_hot_logits(torch.where(targets == toy.IGNORE, toy.IGNORE, wrong_local), 50.0)
    torch.testing.assert_close(toy.accuracy(logits, targets), torch.tensor([0.0, 1.0]))


@pytest.mark.parametrize("top_k", [None, 2])
def test_model_shapes_and_a_closed_gate(top_k):
    torch.manual_seed(0)
    attention = (
        MultiHeadAttention(8, 4) if top_k is None else MixtureOfHeadAttention(8, 4, top_k=top_k)
    )
    model = toy.ToyModel(attention, VOCAB, SEQ_LEN)
    tokens, _ = toy.make_batch(2, SEQ_LEN, VOCAB, torch.Generator().manual_seed(0))
    logits, weights = model(tokens)
    assert logits.shape == (2, SEQ_LEN, 2, VOCAB) and weights.shape == (2, 4, SEQ_LEN, SEQ_LEN)
    # every head gated off: only the embeddings reach the readout
    closed, _ = model(tokens, head_gate=torch.zeros(4))
    expected = model.readout(model.embed(tokens)).unflatten(-1, (2, VOCAB))
    torch.testing.assert_close(closed, expected)


def test_training_is_reproducible_and_learns():
    def run():
        torch.manual_seed(0)
        model = toy.ToyModel(MultiHeadAttention(16, 2), VOCAB, SEQ_LEN)
        return toy.train(model, steps=60, batch_size=32, seed=3), model

    history, model = run()
    assert history == run()[0]
    assert sum(history[-5:]) < 0.5 * sum(history[:5])
    tokens, targets = toy.make_batch(200, SEQ_LEN, VOCAB, torch.Generator().manual_seed(9))
    with torch.no_grad():
        assert toy.accuracy(model(tokens)[0], targets).min() > 1.5 / VOCAB  # well above chance


def test_the_diversity_penalty_makes_the_heads_less_alike():
    """The penalty is the heads' redundancy: training with it must lower that redundancy,
    from the same start and the same batches (any other change of training would not)."""

    def run(weight):
        torch.manual_seed(0)
        model = toy.ToyModel(MultiHeadAttention(16, 2), VOCAB, SEQ_LEN)
        history = toy.train(model, steps=10, batch_size=16, diversity_weight=weight)
        tokens, _ = toy.make_batch(64, SEQ_LEN, VOCAB, torch.Generator().manual_seed(9))
        with torch.no_grad():
            _, weights = model(tokens)
        return history, float(redundancy(head_similarity(weights)))

    (plain, alike), (penalised, apart) = run(0.0), run(5.0)
    assert plain[0] == penalised[0]  # the same model and batch before the first step
    assert apart < alike / 3  # measured: 0.02 against 0.3 (seeds 0-3)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: toy.make_batch(0, 4, 3, torch.Generator()), ValueError, "batch_size"),
        (lambda: toy.ToyModel(torch.nn.Linear(2, 2), VOCAB, SEQ_LEN), TypeError, "attention"),
        (
            lambda: toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN).embed(torch.zeros(1, 3)),
            ValueError,
            "tokens",
        ),
        (
            lambda: toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN).embed(
                torch.zeros(1, SEQ_LEN + 1, dtype=torch.int64)
            ),
            ValueError,
            "seq_len=6",
        ),
        (
            lambda: toy.train(toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN), steps=0),
            ValueError,
            "steps",
        ),
        (
            lambda: toy.train(
                toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN), steps=1, diversity_weight=-1
            ),
            ValueError,
            "diversity_weight",
        ),
        (
            lambda: toy.train(
                toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN),
                steps=1,
                diversity_weight=float("nan"),
            ),
            ValueError,
            "diversity_weight must be a finite number",
        ),
        (
            lambda: toy.train(
                toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN), steps=1, lr=0.0
            ),
            ValueError,
            "lr must be > 0",
        ),
        (
            lambda: toy.train(
                toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN), steps=1, lr=float("inf")
            ),
            ValueError,
            "lr must be a finite number",
        ),
        (
            lambda: toy.train(
                toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN), steps=1, lr="1e-2"
            ),
            TypeError,
            "lr must be a number",
        ),
        (
            lambda: toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN)(
                torch.tensor([[0, 1, VOCAB]])
            ),
            ValueError,
            r"tokens must lie in \[0, vocab_size=5\), got values from 0 to 5",
        ),
        (
            lambda: toy.ToyModel(MultiHeadAttention(8, 2), VOCAB, SEQ_LEN)(torch.tensor([[-1, 1]])),
            ValueError,
            "tokens must lie in",
        ),
    ],
)
def test_bad_arguments_are_named(call, error, words):
    with pytest.raises(error, match=words):
        call()
