"""mha.combining (chapter 10's two-head task) and mha.analysis.heads_per_feature: the task's
answers, the model's decomposition into head writes, the replacements, the count of heads per
feature on hand-built contributions."""

import numpy as np
import pytest
import torch

from mha import combining
from mha.analysis import heads_per_feature

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


def _model(feed_forward=True):
    torch.manual_seed(0)
    return combining.HeadsThenFFN(5, 6, 8, 2, 16, feed_forward=feed_forward).double()


def _tokens(batch=40, seed=0):
    return combining.difference_task(batch, 6, 5, torch.Generator().manual_seed(seed))


def test_difference_task_answers():
    tokens, answers = _tokens(200)
    assert tokens.shape == (200, 6) and tokens.dtype == torch.int64
    assert int(tokens.min()) >= 0 and int(tokens.max()) < 5
    expected = [(int(a) - int(b)) % 5 for a, b in tokens[:, :2].tolist()]
    assert answers.tolist() == expected
    again, _ = _tokens(200)
    assert torch.equal(tokens, again)  # seeded


def test_difference_task_rejects_short_sequences():
    with pytest.raises(ValueError, match="n must be at least 3"):
        combining.difference_task(4, 2, 5, torch.Generator())


@pytest.mark.parametrize("feed_forward", [True, False])
def test_logits_are_the_finish_of_the_heads_sum(feed_forward):
    model = _model(feed_forward)
    tokens, _ = _tokens()
    with torch.no_grad():
        x = model.embed(tokens)
        out, _ = model.attention(x)
        stream = (x + out)[:, -1]  # the block by hand, at the last position
        if feed_forward:
            stream = stream + model.feed_forward(stream)
        by_hand = model.readout(stream)
        embedded, writes = model.head_writes(tokens)
        bias = 0.0 if model.attention.b_o is None else model.attention.b_o
        assert writes.shape == (40, 2, 8)
        torch.testing.assert_close(model(tokens), by_hand)
        torch.testing.assert_close(model.finish(embedded + writes.sum(1) + bias), by_hand)


def test_last_query_weights_are_the_last_row():
    model = _model()
    tokens, _ = _tokens()
    with torch.no_grad():
        _, weights = model.attention(model.embed(tokens))
        looks = model.last_query_weights(tokens)
    assert looks.shape == (40, 2, 6)
    torch.testing.assert_close(looks, weights[:, :, -1])


def test_accuracy_replacements():
    model = _model()
    tokens, answers = _tokens(300)
    with torch.no_grad():
        predicted = model(tokens).argmax(-1)
    assert combining.accuracy(model, tokens, answers) == pytest.approx(
        (predicted == answers).double().mean().item()
    )
    assert combining.accuracy(model, tokens, predicted) == 1.0
    # a batch of one sequence: its mean is itself, so the mean replaces nothing
    one, one_answer = tokens[:1], predicted[:1]
    assert combining.accuracy(model, one, one_answer, 0, "mean") == 1.0
    bias = 0.0 if model.attention.b_o is None else model.attention.b_o
    with torch.no_grad():
        embedded, writes = model.head_writes(tokens)
        writes[:, 1] = 0.0
        removed = model.finish(embedded + writes.sum(1) + bias)
    assert combining.accuracy(model, tokens, removed.argmax(-1), 1, "zero") == 1.0
    with torch.no_grad():
        direct = model.readout(model.embed(tokens)[:, -1] + model.attention(
            model.embed(tokens))[0][:, -1])  # fmt: skip
    assert combining.accuracy(model, tokens, direct.argmax(-1), feed_forward=False) == 1.0


def test_accuracy_rejects_bad_arguments():
    model = _model()
    tokens, answers = _tokens()
    with pytest.raises(ValueError, match="replace must be one of"):
        combining.accuracy(model, tokens, answers, 0, "median")
    with pytest.raises(ValueError, match="head must be None or in"):
        combining.accuracy(model, tokens, answers, 2)
    with pytest.raises(ValueError, match="n = 6 positions"):
        model(tokens[:, :5])
    with pytest.raises(ValueError, match="int64 tensor"):
        model(tokens.float())


def test_a_short_training_run_learns_part_of_the_task():
    torch.manual_seed(0)
    model = combining.HeadsThenFFN(5, 6, 16, 2, 64)
    history = combining.train(model, steps=60, batch_size=64, seed=0)
    assert len(history) == 60 and history[-1] < history[0]


# --- heads_per_feature ---------------------------------------------------------------------


def test_heads_per_feature_by_hand():
    rng = np.random.default_rng(0)
    h, n, d = 3, 50, 6
    # the plain concatenation: each feature varied by one head only
    alone = np.zeros((h, n, d))
    for j in range(d):
        alone[j % h, :, j] = rng.standard_normal(n)
    np.testing.assert_allclose(heads_per_feature(torch.from_numpy(alone)).numpy(), 1.0)
    # every head varies every feature by the same amount: h heads
    same = np.repeat(rng.standard_normal((1, n, d)), h, axis=0)
    np.testing.assert_allclose(heads_per_feature(torch.from_numpy(same)).numpy(), h)
    # variances 1 and 4 (a head with twice the spread): (1 + 4)^2 / (1 + 16) = 25 / 17
    base = rng.standard_normal((n, d))
    two = torch.from_numpy(np.stack([base, 2 * base]))
    np.testing.assert_allclose(heads_per_feature(two).numpy(), 25 / 17)
    # a constant added to a head changes nothing: only what varies counts
    shifted = two.clone()
    shifted[0] += 5.0
    torch.testing.assert_close(heads_per_feature(shifted), heads_per_feature(two))
    # leading axes are tokens too: (B, h, n, d) counts over B and n
    batched = torch.from_numpy(np.stack([alone[:, :25], alone[:, 25:]]))
    np.testing.assert_allclose(heads_per_feature(batched).numpy(), 1.0)


def test_heads_per_feature_rejects_bad_input():
    with pytest.raises(TypeError, match="contributions must be a torch"):
        heads_per_feature(np.zeros((2, 3, 4)))
    with pytest.raises(ValueError, match="at least two tokens"):
        heads_per_feature(torch.ones(2, 1, 4))
    with pytest.raises(ValueError, match="does not vary"):
        heads_per_feature(torch.ones(2, 5, 4))
