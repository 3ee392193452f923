"""Chapter 10's checks: the solutions pass, each known mistake is named, other correct styles
pass. (tests/test_checks.py counts WRONG_ANSWERS here among the tested mistakes.)"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import mha
from mha.checks import EXERCISES, FAILED, NOT_ATTEMPTED, PASSED, check

SOLUTIONS = Path(__file__).resolve().parent.parent / "chapters" / "solutions"
SEEDS = [0, 12345]
CHAPTER_10 = [name for name, exercise in EXERCISES.items() if exercise.chapter == 10]


def _solutions():
    path = SOLUTIONS / "10_real_transformer.py"
    spec = importlib.util.spec_from_file_location("solutions_10", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOLUTION = _solutions()


# --- student-style answers, written without the check module's variants ---------------------


def _bert(transpose=True, mask_rule="right", biases=True, output=True):
    def bert_self_attention(x, attention_mask, state, num_heads):
        t = (lambda w: w.T) if transpose else (lambda w: w)
        weights = {k: state[f"{k}.weight"] for k in ("self.query", "self.key", "self.value")}
        biases_of = {k: state[f"{k}.bias"] if biases else None for k in weights}
        w_o = t(state["output.dense.weight"]) if output else np.eye(x.shape[-1], dtype=x.dtype)
        b_o = state["output.dense.bias"] if biases and output else None
        params = mha.MHAParams(
            *(t(w) for w in weights.values()), w_o, num_heads, *biases_of.values(), b_o
        )
        mask = {
            "right": attention_mask.astype(bool)[:, None, None, :],
            "inverted": (attention_mask == 0)[:, None, None, :],
            "none": None,
        }[mask_rule]
        return mha.multi_head_attention(x, x, x, params, mask)

    return bert_self_attention


def bert_by_einsum(x, attention_mask, state, num_heads):
    """Written out with einsum and nn.Linear's x @ W.T: a correct answer in another idiom."""
    B, n, d = x.shape
    d_k = d // num_heads

    def linear(name, y):
        return y @ state[f"{name}.weight"].T + state[f"{name}.bias"]

    def heads(y):
        return y.reshape(B, n, num_heads, d_k).transpose(0, 2, 1, 3)

    q, k, v = (heads(linear(name, x)) for name in ("self.query", "self.key", "self.value"))
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d_k)
    scores = np.where(attention_mask[:, None, None, :] == 1, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights = weights / weights.sum(-1, keepdims=True)
    out = (weights @ v).transpose(0, 2, 1, 3).reshape(B, n, d)
    return linear("output.dense", out), weights


def padding_inverted(attention_mask):
    return (attention_mask == 0)[:, None, None, :]


def padding_on_queries(attention_mask):
    return attention_mask.astype(bool)[:, None, :, None]


def padding_flat(attention_mask):
    return attention_mask > 0


def padding_by_lengths(attention_mask):
    n = attention_mask.shape[1]
    lengths = [int(row.sum()) for row in attention_mask]
    return np.arange(n)[None, None, None, :] < np.array(lengths)[:, None, None, None]


def _js(log=np.log, kind="js", guard=True, half=0.5, average_first=False):
    def head_js_divergence(weights):
        h = weights.shape[-3]
        per_head = [np.moveaxis(weights, -3, 0)[a].reshape(-1, weights.shape[-1]) for a in range(h)]
        if average_first:
            per_head = [rows.mean(0, keepdims=True) for rows in per_head]
        out = np.zeros((h, h), dtype=weights.dtype)
        with np.errstate(all="ignore"):
            for a in range(h):
                for b in range(h):
                    p, q = per_head[a], per_head[b]
                    if kind == "kl":
                        out[a, b] = np.nansum(p * log(p / q), axis=-1).mean()
                        continue
                    m = 0.5 * (p + q)
                    if guard:
                        kl_pm = np.sum(np.where(p > 0, p * log(p / m), 0.0), axis=-1)
                        kl_qm = np.sum(np.where(q > 0, q * log(q / m), 0.0), axis=-1)
                    else:
                        kl_pm, kl_qm = np.sum(p * log(p / m), -1), np.sum(q * log(q / m), -1)
                    out[a, b] = np.mean(half * (kl_pm + kl_qm))
        return out

    return head_js_divergence


def _ablation(rule="right"):
    def head_ablation_scores(evaluate, num_layers, num_heads):
        ones = np.ones((num_layers, num_heads))
        base = evaluate(ones)
        result = np.empty((num_layers, num_heads))
        running = ones.copy()
        for index in np.ndindex(num_layers, num_heads):
            if rule == "cumulative":
                running[index] = 0
                gate = running
            elif rule == "keep_one":
                gate = np.zeros_like(ones)
                gate[index] = 1
            else:
                gate = ones.copy()
                gate[index] = 0
            drop = base - evaluate(gate)
            result[index] = -drop if rule == "negated" else drop
        return result

    return head_ablation_scores


WRONG_ANSWERS = [
    ("bert_self_attention", "weights_not_transposed", _bert(transpose=False)),
    ("bert_self_attention", "mask_inverted", _bert(mask_rule="inverted")),
    ("bert_self_attention", "mask_ignored", _bert(mask_rule="none")),
    ("bert_self_attention", "biases_forgotten", _bert(biases=False)),
    ("bert_self_attention", "no_output_projection", _bert(output=False)),
    ("padding_mask_from_attention_mask", "inverted", padding_inverted),
    ("padding_mask_from_attention_mask", "queries_axis", padding_on_queries),
    ("padding_mask_from_attention_mask", "no_singleton_axes", padding_flat),
    ("padding_mask_from_attention_mask", "lengths_assume_right_padding", padding_by_lengths),
    ("head_js_divergence", "kl_not_js", _js(kind="kl")),
    ("head_js_divergence", "bits_not_nats", _js(log=np.log2)),
    ("head_js_divergence", "averaged_before_js", _js(average_first=True)),
    ("head_js_divergence", "zero_log_zero_nan", _js(guard=False)),
    ("head_js_divergence", "sum_not_mean", _js(half=1.0)),
    ("head_ablation_scores", "sign_flipped", _ablation("negated")),
    ("head_ablation_scores", "gate_not_reset", _ablation("cumulative")),
    ("head_ablation_scores", "only_head_kept", _ablation("keep_one")),
]

OTHER_CORRECT_STYLES = [
    ("bert_self_attention", bert_by_einsum),
    ("bert_self_attention", _bert()),
    ("padding_mask_from_attention_mask", lambda m: m.astype(bool)[:, np.newaxis, np.newaxis]),
    ("head_js_divergence", _js()),
    ("head_ablation_scores", _ablation()),
]


# --- tests ---------------------------------------------------------------------------------


def test_chapter_10_has_at_least_four_exercises_each_with_three_mistakes():
    assert len(CHAPTER_10) >= 4
    assert all(len(EXERCISES[name].mistakes) >= 3 for name in CHAPTER_10)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", CHAPTER_10)
def test_the_solution_passes(name, seed):
    result = check(name, getattr(SOLUTION, name), seed=seed)
    assert result.status == PASSED, str(result)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "mistake", "answer"), WRONG_ANSWERS, ids=[f"{n}-{m}" for n, m, _ in WRONG_ANSWERS]
)
def test_a_known_mistake_is_named(name, mistake, answer, seed):
    result = check(name, answer, seed=seed)
    assert result.status == FAILED
    assert result.diagnosis == mistake, str(result)
    assert result.hint and "looks like" in result.feedback


def test_every_mistake_of_chapter_10_has_a_wrong_answer_here():
    registered = {(name, m.id) for name in CHAPTER_10 for m in EXERCISES[name].mistakes}
    assert registered == {(n, m) for n, m, _ in WRONG_ANSWERS}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "answer"), OTHER_CORRECT_STYLES, ids=[n for n, _ in OTHER_CORRECT_STYLES]
)
def test_correct_answers_in_other_styles_pass(name, answer, seed):
    result = check(name, answer, seed=seed)
    assert result.status == PASSED, str(result)


@pytest.mark.parametrize("name", CHAPTER_10)
def test_an_untouched_stub_is_not_attempted(name):
    def stub(*args):
        raise NotImplementedError

    assert check(name, stub).status == NOT_ATTEMPTED


def test_the_bert_state_cannot_be_changed_by_the_answer():
    def transposes_in_place(x, attention_mask, state, num_heads):
        state["self.query.weight"] = state["self.query.weight"].T
        return SOLUTION.bert_self_attention(x, attention_mask, state, num_heads)

    result = check("bert_self_attention", transposes_in_place, seed=0)
    assert result.status == FAILED and "raised TypeError" in result.feedback


def test_an_integer_padding_mask_is_a_dtype_failure_with_a_hint():
    result = check("padding_mask_from_attention_mask", lambda m: m[:, None, None, :], seed=0)
    assert result.status == FAILED and "expected bool" in result.feedback and result.hint
