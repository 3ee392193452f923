"""mha.induction: the scores on hand-built attention maps, the task, the loss, the model, a short
training run that learns to copy."""

import math

import numpy as np
import pytest
import torch

from mha import induction
from mha.positions import sinusoidal

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


def _one_key_per_query(n, key_of):
    """(n, n) weights: query i puts all its weight on key key_of(i) (itself where that is < 0)."""
    w = np.zeros((n, n))
    for i in range(n):
        j = key_of(i)
        w[i, j if j >= 0 else i] = 1.0
    return w


def _uniform_causal(n):
    return np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]


# --- the scores ----------------------------------------------------------------------------------


def test_previous_token_score_by_hand():
    n = 6
    assert induction.previous_token_score(_one_key_per_query(n, lambda i: i - 1)) == 1.0
    assert induction.previous_token_score(np.eye(n)) == 0.0  # attends to itself
    # evenly over the past: query i gives 1/(i+1) to key i-1; the mean over i = 1..5
    expected = sum(1 / (i + 1) for i in range(1, n)) / (n - 1)
    np.testing.assert_allclose(induction.previous_token_score(_uniform_causal(n)), expected)


def test_induction_score_by_hand():
    # n = 4, period 2: queries 2 and 3 are scored, on keys 1 and 2
    w = np.zeros((4, 4))
    w[2, 1], w[3, 2] = 0.5, 0.25
    w[1, 0] = w[0, 0] = 1.0  # unscored queries do not count
    assert induction.induction_score(w, 2) == (0.5 + 0.25) / 2
    n, m = 10, 4
    perfect = _one_key_per_query(n, lambda i: i - m + 1 if i >= m else -1)
    assert induction.induction_score(perfect, m) == 1.0
    assert induction.induction_score(perfect, m + 1) == 0.0  # another period: other keys
    duplicate_token = _one_key_per_query(n, lambda i: i - m)  # the earlier copy itself
    assert induction.induction_score(duplicate_token, m) == 0.0
    assert induction.induction_score(_one_key_per_query(n, lambda i: i - 1), m) == 0.0
    expected = sum(1 / (i + 1) for i in range(m, n)) / (n - m)
    np.testing.assert_allclose(induction.induction_score(_uniform_causal(n), m), expected)


def test_scores_keep_batch_axes_dtype_and_library():
    rng = np.random.default_rng(0)
    w = rng.random((2, 3, 8, 8)).astype(np.float32)
    w /= w.sum(-1, keepdims=True)
    for score in (induction.previous_token_score(w), induction.induction_score(w, 3)):
        assert score.shape == (2, 3) and score.dtype == np.float32
    np.testing.assert_allclose(
        induction.induction_score(w, 3)[1, 2], induction.induction_score(w[1, 2], 3)
    )
    t = torch.from_numpy(w)
    for name, args in (("previous_token_score", ()), ("induction_score", (3,))):
        got = getattr(induction, name)(t, *args)
        assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
        np.testing.assert_allclose(got.numpy(), getattr(induction, name)(w, *args), rtol=1e-6)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: induction.induction_score(np.zeros((3, 4)), 1), ValueError, "as many queries as keys"),
        (lambda: induction.induction_score(np.zeros((4, 4)), 4), ValueError, "period must be smaller than the sequence length n=4"),
        (lambda: induction.induction_score(np.zeros((4, 4)), 0), ValueError, "period must be a positive"),
        (lambda: induction.previous_token_score(np.zeros(4)), ValueError, "at least 2 dimensions"),
        (lambda: induction.previous_token_score(np.zeros((1, 1))), ValueError, "n >= 2"),
        (lambda: induction.previous_token_score([[1.0]]), TypeError, "weights must be an array"),
        (lambda: induction.previous_token_score(np.zeros((3, 3), dtype=int)), TypeError, "floating"),
        (lambda: induction.repeated_sequences(2, 0, 5, torch.Generator()), ValueError, "half"),
        (lambda: induction.AttentionOnlyTransformer(10, 8, 2)(torch.zeros(2, 3)), ValueError, "int64"),
        (
            lambda: induction.AttentionOnlyTransformer(10, 8, 2)(
                torch.zeros(1, 3, dtype=torch.int64), torch.ones(2, 3)
            ),
            ValueError,
            r"head_gates must have shape \(num_layers, h\) = \(2, 2\)",
        ),
        (lambda: induction.train(induction.AttentionOnlyTransformer(5, 8, 2), steps=1, halves=(4, 2)), ValueError, "halves"),
    ],
)  # fmt: skip
def test_bad_arguments_are_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- the task, the loss, the model ---------------------------------------------------------------


def test_repeated_sequences_repeat_and_are_seeded():
    tokens = induction.repeated_sequences(4, 5, 7, torch.Generator().manual_seed(0))
    assert tokens.shape == (4, 10) and tokens.dtype == torch.int64
    assert torch.equal(tokens[:, 5:], tokens[:, :5])
    assert tokens.min() >= 0 and tokens.max() < 7
    again = induction.repeated_sequences(4, 5, 7, torch.Generator().manual_seed(0))
    assert torch.equal(tokens, again)


def test_next_token_loss_on_known_logits():
    tokens = torch.tensor([[1, 2, 0, 1], [3, 3, 3, 3]])
    uniform = torch.zeros(2, 4, 5)
    torch.testing.assert_close(
        induction.next_token_loss(uniform, tokens), torch.full((2, 3), math.log(5))
    )
    sure = 30.0 * torch.nn.functional.one_hot(tokens.roll(-1, dims=1), 5).float()  # next token
    assert induction.next_token_loss(sure, tokens).max() < 1e-6
    wrong = 30.0 * torch.nn.functional.one_hot(tokens, 5).float()  # the current token instead
    losses = induction.next_token_loss(wrong, tokens)
    assert losses[1].max() < 1e-6 and losses[0].min() > 29  # right only where it repeats


def test_model_shapes_weights_and_closed_gates():
    torch.manual_seed(0)
    model = induction.AttentionOnlyTransformer(11, 16, 4, num_layers=3)
    tokens = induction.repeated_sequences(2, 4, 11, torch.Generator().manual_seed(1))
    logits, weights = model(tokens, need_weights=True)
    assert logits.shape == (2, 8, 11) and len(weights) == 3
    assert all(w.shape == (2, 4, 8, 8) for w in weights)
    assert torch.all(weights[0].triu(1) == 0)  # causal
    assert model(tokens)[1] is None
    # every head removed: only the direct path embed -> unembed is left
    closed, _ = model(tokens, torch.zeros(3, 4))
    torch.testing.assert_close(closed, model.unembed(model.embed(tokens)))
    # the positions are the sinusoidal encoding, added to the token embeddings
    position_part = (
        model.embed(torch.zeros(1, 3, dtype=torch.int64))[0] - model.token_embedding.weight[0]
    )
    torch.testing.assert_close(position_part, torch.from_numpy(sinusoidal(3, 16)).float())


@pytest.fixture
def one_thread():
    """torch on one thread: as fast for this tiny model, and no spinning threads on a shared CPU."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.slow
def test_short_training_is_reproducible_and_learns_to_copy(one_thread):
    def run():
        torch.manual_seed(0)
        model = induction.AttentionOnlyTransformer(32, 32, 2)
        return model, induction.train(model, steps=400, batch_size=32, seed=0)

    model, history = run()
    assert history == run()[1]
    tokens = induction.repeated_sequences(200, 12, 32, torch.Generator().manual_seed(1))
    with torch.no_grad():
        loss = induction.next_token_loss(model(tokens)[0], tokens).mean(0)  # (n-1,)
    first, repeat = loss[:11].mean().item(), loss[12:].mean().item()
    assert first > 0.9 * math.log(32)  # random tokens: nothing to predict
    assert repeat < 0.5 * math.log(32)  # the second half is copied from the first
