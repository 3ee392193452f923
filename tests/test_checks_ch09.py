"""Chapter 9's checks (mha/checks/ch09_transformer.py): the solutions pass, correct answers in
other styles pass, each known mistake, written as a reader would write it, is named, and stubs
are "not attempted". (tests/test_checks.py checks that every registered mistake of this chapter
appears in WRONG_ANSWERS below.)"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import mha
from mha.block import TransformerBlock
from mha.checks import EXERCISES, FAILED, NOT_ATTEMPTED, ch09_transformer, check
from mha.positions import sinusoidal as package_sinusoidal

SEEDS = [0, 12345]
NAMES = list(ch09_transformer.EXERCISES)

_spec = importlib.util.spec_from_file_location(
    "solutions_09", Path(__file__).resolve().parent.parent / "chapters/solutions/09_transformer.py"
)
solutions = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(solutions)


def test_the_chapter_registers_four_exercises_with_three_mistakes_or_more():
    assert NAMES == ["sinusoidal", "apply_rope", "pre_ln_block", "induction_score"]
    assert all(EXERCISES[name].chapter == 9 for name in NAMES)
    assert all(len(EXERCISES[name].mistakes) >= 3 for name in NAMES)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", NAMES)
def test_the_solution_passes(name, seed):
    result = check(name, getattr(solutions, name), seed=seed)
    assert result.passed, str(result)


def test_the_references_are_the_package():
    """The pre-LN reference is the composition TransformerBlock(norm_first=True) computes."""
    torch.manual_seed(0)
    block = TransformerBlock(8, 2, 16, norm_first=True, dtype=torch.float64)
    x = torch.randn(2, 5, 8, dtype=torch.float64)
    mask = torch.from_numpy(mha.padding_mask([5, 3], 5))
    parts = (block.attention, block.norm1, block.feed_forward, block.norm2)
    torch.testing.assert_close(EXERCISES["pre_ln_block"].reference(x, *parts, mask), block(x, mask))


# --- wrong answers, written as a reader would ----------------------------------------------------


def _angles(n, d, first=0, exponent=lambda i, d: 2 * i / d):
    p = np.arange(first, first + n)[:, None]
    return p / 10000.0 ** exponent(np.arange(d // 2)[None, :], d)


def sinusoidal_blocks(n, d_model):
    angles = _angles(n, d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)


def sinusoidal_swapped(n, d_model):
    pe = np.zeros((n, d_model))
    pe[:, ::2], pe[:, 1::2] = np.cos(_angles(n, d_model)), np.sin(_angles(n, d_model))
    return pe


def sinusoidal_columns(n, d_model):
    pe = np.zeros((n, d_model))
    for p in range(n):
        for j in range(d_model):
            angle = p / 10000 ** (j / d_model)
            pe[p, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return pe


def sinusoidal_with(**angle_options):
    def sinusoidal(n, d_model):
        angles = _angles(n, d_model, **angle_options)
        return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n, d_model)

    return sinusoidal


def rope_student(*, layout="half", minus_first=True, exponent=2, positions_used=True):
    def apply_rope(x, positions=None):
        n, d = x.shape[-2], x.shape[-1]
        pos = np.arange(n) if positions is None or not positions_used else np.array(positions)
        angles = np.outer(pos, 1.0 / 10000 ** (exponent * np.arange(d // 2) / d))  # (n, d/2)
        if layout == "neighbours":  # as complex numbers x[2i] + 1j x[2i+1]
            z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * angles)
            return np.stack([z.real, z.imag], axis=-1).reshape(x.shape).astype(x.dtype)
        half = d // 2
        if layout == "repeat":
            cos, sin = np.repeat(np.cos(angles), 2, axis=1), np.repeat(np.sin(angles), 2, axis=1)
        else:
            cos, sin = np.tile(np.cos(angles), 2), np.tile(np.sin(angles), 2)
        x1, x2 = x[..., :half], x[..., half:]
        rotated = np.concatenate([-x2, x1] if minus_first else [x2, -x1], axis=-1)
        return (x * cos + rotated * sin).astype(x.dtype)

    return apply_rope


def pre_ln_post(x, attention, norm1, feed_forward, norm2, mask=None):
    h = norm1(x + attention(x, x, x, mask)[0])
    return norm2(h + feed_forward(h))


def pre_ln_normalised_residual(x, attention, norm1, feed_forward, norm2, mask=None):
    x = norm1(x)
    x = x + attention(x, mask=mask)[0]
    x = norm2(x)
    return x + feed_forward(x)


def pre_ln_no_second_residual(x, attention, norm1, feed_forward, norm2, mask=None):
    out, _ = attention(norm1(x), mask=mask)
    return feed_forward(norm2(x + out))


def pre_ln_norm1_twice(x, attention, norm1, feed_forward, norm2, mask=None):
    x = x + attention(norm1(x), mask=mask)[0]
    return x + feed_forward(norm1(x))


def pre_ln_inverted_mask(x, attention, norm1, feed_forward, norm2, mask=None):
    hidden = None if mask is None else torch.logical_not(mask)
    x = x + attention(norm1(x), mask=hidden)[0]
    return x + feed_forward(norm2(x))


def _diagonal(weights, offset):
    """w[..., j, j + offset] (offset may be negative), as np.diagonal gives it."""
    return np.diagonal(weights, offset=offset, axis1=-2, axis2=-1)


def induction_duplicate_token(weights, period):
    return _diagonal(weights, -period).mean(-1)  # w[i, i - period], i = period .. n-1


def induction_over_all_queries(weights, period):
    n = weights.shape[-1]
    total = sum(weights[..., i, i - period + 1] for i in range(period, n))
    return total / n


def induction_summed(weights, period):
    return _diagonal(weights, -(period - 1))[..., 1:].sum(-1)  # i = period .. n-1


def induction_transposed(weights, period):
    return _diagonal(weights, period - 1)[..., 1:].mean(-1)  # w[i - period + 1, i]


WRONG_ANSWERS = [
    ("sinusoidal", "halves_not_interleaved", sinusoidal_blocks),
    ("sinusoidal", "sin_cos_swapped", sinusoidal_swapped),
    ("sinusoidal", "exponent_i", sinusoidal_with(exponent=lambda i, d: i / d)),
    ("sinusoidal", "exponent_of_column", sinusoidal_columns),
    ("sinusoidal", "positions_from_one", sinusoidal_with(first=1)),
    ("apply_rope", "neighbouring_pairs", rope_student(layout="neighbours")),
    ("apply_rope", "angles_repeated_not_tiled", rope_student(layout="repeat")),
    ("apply_rope", "wrong_direction", rope_student(minus_first=False)),
    ("apply_rope", "exponent_i", rope_student(exponent=1)),
    ("apply_rope", "positions_ignored", rope_student(positions_used=False)),
    ("pre_ln_block", "post_ln", pre_ln_post),
    ("pre_ln_block", "residual_from_normalised", pre_ln_normalised_residual),
    ("pre_ln_block", "no_feed_forward_residual", pre_ln_no_second_residual),
    ("pre_ln_block", "one_norm_for_both", pre_ln_norm1_twice),
    ("pre_ln_block", "mask_polarity", pre_ln_inverted_mask),
    ("induction_score", "previous_occurrence", induction_duplicate_token),
    ("induction_score", "all_queries", induction_over_all_queries),
    ("induction_score", "sum_not_mean", induction_summed),
    ("induction_score", "queries_and_keys_swapped", induction_transposed),
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "mistake", "answer"), WRONG_ANSWERS, ids=[f"{n}-{m}" for n, m, _ in WRONG_ANSWERS]
)
def test_a_known_mistake_fails_with_its_diagnosis(name, mistake, answer, seed):
    result = check(name, answer, seed=seed)
    assert result.status == FAILED
    assert result.diagnosis == mistake, str(result)
    assert result.hint and "looks like" in result.feedback


def test_every_mistake_of_the_chapter_has_a_wrong_answer_here():
    registered = {(name, m.id) for name in NAMES for m in EXERCISES[name].mistakes}
    assert registered == {(n, m) for n, m, _ in WRONG_ANSWERS}


# --- correct answers in other styles, stubs, unknown mistakes ----------------------------------


def sinusoidal_loops(n, d_model):
    return np.array(
        [
            [
                (math.sin if j % 2 == 0 else math.cos)(p / 10000 ** ((j - j % 2) / d_model))
                for j in range(d_model)
            ]
            for p in range(n)
        ]
    )


def rope_complex(x, positions=None):
    n, d = x.shape[-2:]
    p = np.arange(n) if positions is None else positions
    z = x[..., : d // 2] + 1j * x[..., d // 2 :]
    z = z * np.exp(1j * np.multiply.outer(p, 10000.0 ** (-2 * np.arange(d // 2) / d)))
    return np.concatenate([z.real, z.imag], axis=-1).astype(x.dtype)


def pre_ln_functional(x, attention, norm1, feed_forward, norm2, mask=None):
    def layer_norm(y, norm):
        return F.layer_norm(y, norm.normalized_shape, norm.weight, norm.bias, norm.eps)

    h = layer_norm(x, norm1)
    x = x + attention(h, h, h, mask, need_weights=False)[0]
    first, activation, second = feed_forward
    return x + second(activation(first(layer_norm(x, norm2))))


ALTERNATIVES = [
    ("sinusoidal", sinusoidal_loops),
    ("sinusoidal", package_sinusoidal),
    ("apply_rope", rope_complex),
    ("pre_ln_block", pre_ln_functional),
    ("induction_score", lambda w, period: _diagonal(w, 1 - period)[..., 1:].mean(-1)),
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "answer"), ALTERNATIVES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(ALTERNATIVES)]
)
def test_correct_answers_in_other_styles_pass(name, answer, seed):
    result = check(name, answer, seed=seed)
    assert result.passed, str(result)


@pytest.mark.parametrize("name", NAMES)
def test_untouched_stubs_are_not_attempted(name):
    def stub(*args, **kwargs):
        raise NotImplementedError

    assert check(name, stub).status == NOT_ATTEMPTED


def test_float64_rope_of_float32_input_is_a_dtype_failure():
    def promotes(x, positions=None):
        return rope_complex(x, positions).astype(np.float64)

    result = check("apply_rope", promotes, seed=0)
    assert result.status == FAILED and "dtype float64, expected float32" in result.feedback


@pytest.mark.parametrize(
    ("name", "answer"),
    [
        ("sinusoidal", lambda n, d_model: 2 * solutions.sinusoidal(n, d_model)),
        ("apply_rope", lambda x, positions=None: rope_complex(x, positions) * 1.5),
        ("induction_score", lambda w, period: solutions.induction_score(w, period) ** 2),
    ],
)
def test_an_unknown_mistake_fails_without_a_diagnosis(name, answer):
    result = check(name, answer, seed=0)
    assert result.status == FAILED and result.diagnosis is None
