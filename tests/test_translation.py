"""mha.translation: chapter 5's toy translation, its cross-attention model and its training."""

import pytest
import torch

from mha import translation
from mha.translation import N_SOURCE, N_TARGET, SWAP, SwapTranslator


def test_sentences_are_padded_and_translated_by_swapping_neighbours():
    words, lengths, target = translation.swap_sentences(50, torch.Generator().manual_seed(0))
    assert words.shape == (50, N_SOURCE) and target.shape == (50, N_TARGET)
    assert lengths.min() >= N_TARGET and lengths.max() <= N_SOURCE
    for i, j in enumerate(SWAP):
        assert torch.equal(target[:, i], words[:, j])


def test_the_model_attends_only_to_real_source_words_and_is_drawn_from_its_seed():
    model = SwapTranslator(8, 2, seed=3)
    words = torch.randint(12, (2, N_SOURCE), generator=torch.Generator().manual_seed(1))
    logits, weights = model(words, torch.tensor([7, 4]))
    assert logits.shape == (2, N_TARGET, 12) and weights.shape == (2, 2, N_TARGET, N_SOURCE)
    assert (weights[1, :, :, 4:] == 0).all()  # the pads of sentence 1
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 2, N_TARGET))
    again = SwapTranslator(8, 2, seed=3)
    assert all(
        torch.equal(a, b) for a, b in zip(model.parameters(), again.parameters(), strict=True)
    )


def test_training_learns_the_swap():
    model = SwapTranslator(16, 2)
    batches = torch.Generator().manual_seed(0)
    history = translation.train_translator(model, batches, steps=150)
    assert len(history) == 150 and sum(history[-10:]) < 0.5 * sum(history[:10])
    words, lengths, target = translation.swap_sentences(200, batches)
    with torch.no_grad():
        logits, _ = model(words, lengths)
    assert (logits.argmax(-1) == target).float().mean() > 0.5  # chance is 1/12


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: translation.swap_sentences(0, torch.Generator()), ValueError, "size"),
        (lambda: translation.train_translator("model", torch.Generator()), TypeError, "model"),
        (
            lambda: translation.train_translator(SwapTranslator(8, 2), torch.Generator(), steps=0),
            ValueError,
            "steps",
        ),
    ],
)
def test_bad_arguments_are_named(call, error, words):
    with pytest.raises(error, match=words):
        call()
