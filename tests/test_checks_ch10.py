"""Chapter 10's checks, what is particular to them (the solutions, the corpus of answers in
tests/corpus/ch10.py and the wire-safe trials are tested for every exercise by
tests/test_checks.py): the pre-LN block's reference is what ``TransformerBlock`` computes, and
the modules the check hands to an answer are the parts of such a block."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import mha
from mha.block import TransformerBlock
from mha.checks import EXERCISES

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

EXERCISE = EXERCISES["pre_ln_block"]


def test_the_pre_ln_reference_is_what_transformer_block_computes():
    torch.manual_seed(0)
    block = TransformerBlock(8, 2, 16, norm_first=True, dtype=torch.float64)
    x = torch.randn(2, 5, 8, dtype=torch.float64)
    mask = torch.from_numpy(mha.padding_mask([5, 3], 5))
    parts = (block.attention, block.norm1, block.feed_forward, block.norm2)
    torch.testing.assert_close(EXERCISE.reference(x, *parts, mask), block(x, mask))


def test_the_parts_handed_to_an_answer_make_a_transformer_block():
    for case in EXERCISE.trials(np.random.default_rng(7)):
        x, attention, norm1, feed_forward, norm2, *mask = EXERCISE.prepare(case.args)
        block = TransformerBlock(x.shape[-1], attention.num_heads, feed_forward[0].out_features,
                                 norm_first=True, dtype=x.dtype)  # fmt: skip
        parts = {
            "attention": attention,
            "norm1": norm1,
            "feed_forward": feed_forward,
            "norm2": norm2,
        }
        for name, module in parts.items():
            setattr(block, name, module)
        with torch.no_grad():
            expected = block(x, *mask)
        assert expected.shape == x.shape and expected.dtype == x.dtype
        outcome = EXERCISE.run(EXERCISE.reference, case)
        np.testing.assert_allclose(outcome.value, expected.numpy(), rtol=1e-5, atol=1e-6)
        assert torch.equal(norm1.weight, torch.from_numpy(case.args[2][0]))
        assert feed_forward[0].weight.shape == case.args[3][0].shape  # nn.Linear's (out, in)
