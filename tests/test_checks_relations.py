"""mha.checks' diagnosis from the relation between an answer and the reference, fair errors,
a time limit that is measured, and results of the wrong kind or precision."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
import torch

import mha
from mha.checks import (
    EXERCISES,
    FAILED,
    NOT_ATTEMPTED,
    Case,
    FunctionExercise,
    Mistake,
    check,
    relations,
)
from mha.checks.kinds import NumberExercise
from mha.checks.relations import Alternative, Term

# --- a new exercise gets the relations without a table -------------------------------------


def _cases(rng):
    return [
        Case(f"x of shape {shape}, n={n}", (rng.standard_normal(shape), n))
        for shape, n in [((3, 4), 2), ((2, 3, 5), 3), ((4, 2), 5), ((2, 2, 3), 4)]
    ]


def _reference(x, n):
    return np.cumsum(x, axis=-1) + n


TOY = FunctionExercise(_reference, _cases, mistakes=())


@pytest.mark.parametrize(
    ("answer", "diagnosis"),
    [
        (lambda x, n: _reference(x, n) * 100, "times:100"),
        (lambda x, n: _reference(x, n) / n, "times:1/n"),
        (lambda x, n: _reference(x, n - 1), "input:n-1"),
        (lambda x, n: _reference(x, 1), "input:n=1"),
        (
            lambda x, n: np.log(np.abs(_reference(x, n))) * 0 + np.exp(_reference(x, n)),
            "function:exp",
        ),
        (lambda x, n: np.swapaxes(_reference(x, n), -1, -2), "axes"),
        (lambda x, n: _reference(x, n)[..., :-1], "off_by_one:one too few:end:-1"),
        (lambda x, n: _reference(x, n).mean(axis=-1), "reduced:mean:-1"),
        (lambda x, n: x, "returns_argument:x"),
        (lambda x, n: _reference(np.flip(x, -1), n), "input:reversed(x,-1)"),
    ],
)
def test_a_new_exercise_names_relations_without_a_table(answer, diagnosis):
    cases = TOY.trials(np.random.default_rng(0))
    outcomes = [TOY.run(answer, c) for c in cases]
    verdict = TOY.judge(cases, outcomes)
    assert verdict.status == FAILED and verdict.diagnosis == diagnosis, verdict.feedback
    assert verdict.hint and "looks like" in verdict.feedback
    assert relations.is_relation_id(diagnosis)


def test_an_unrelated_wrong_answer_gets_no_relation():
    cases = TOY.trials(np.random.default_rng(0))
    verdict = TOY.judge(cases, [TOY.run(lambda x, n: np.sin(x) + n, c) for c in cases])
    assert verdict.status == FAILED and verdict.diagnosis is None


def test_a_table_mistake_names_the_relation_it_explains():
    named = FunctionExercise(
        _reference, _cases,
        (Mistake("percent", "a percentage", "divide by 100", relations=("times:100",)),),
    )  # fmt: skip
    cases = named.trials(np.random.default_rng(1))
    verdict = named.judge(cases, [named.run(lambda x, n: 100 * _reference(x, n), c) for c in cases])
    assert verdict.diagnosis == "percent" and verdict.hint == "divide by 100"


def test_a_count_names_what_changed_in_its_formula():
    count = NumberExercise(
        4 * 16 * 8 * 8 * 2, (),
        terms=(Term("w", "the weights", 1, ("batch", "heads", "n", "n", "bytes")),),
        values=(("batch", 4), ("heads", 16), ("n", 8), ("bytes", 2), ("layers", 3)),
        alternatives=(Alternative("bytes", "float32", 4, "4 bytes per number"),),
    )  # fmt: skip
    for value, diagnosis in [
        (16 * 8 * 8 * 2, "missing:batch"), (4 * 16 * 8 * 2, "missing:n"),
        (4 * 16 * 8 * 8 * 4, "bytes:float32"), (3 * 4 * 16 * 8 * 8 * 2, "extra:layers"),
        (4 * 16 * 8 * 8 * 2 / 1e9, "times:1e-9"), (math.sqrt(4 * 16 * 8 * 8 * 2), "function:sqrt"),
    ]:  # fmt: skip
        verdict = count.judge(count.trials(None), [count.run(value, Case("c", ()))])
        assert verdict.diagnosis == diagnosis, (value, verdict.feedback)
    assert count.judge([], [count.run(4 * 16 * 8 * 8 * 2, Case("c", ()))]).status == "passed"


def test_every_count_with_terms_adds_up_to_its_expected_value():
    for name, exercise in EXERCISES.items():
        if isinstance(exercise, NumberExercise) and exercise.terms:
            total = relations.count(exercise.terms, dict(exercise.values))
            assert total == pytest.approx(exercise.expected), name
        if isinstance(exercise, FunctionExercise) and exercise.terms:
            for case in exercise.trials(np.random.default_rng(0)):
                q = relations.quantities(exercise, case.args)
                assert relations.count(exercise.terms, q) == exercise.reference(*case.args), name


# --- the inputs that expose -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "answer", "diagnosis"),
    [
        ("scaled_dot_product_attention", "nan_rows", "masked_rows"),
        ("scaled_dot_product_attention", "uniform_rows", "masked_rows"),
        ("online_softmax_attention", "first_maximum", "fixed_maximum"),
        ("longest_sequence", "round", "rounded_to_nearest"),
        ("longest_sequence", "float_sqrt", "float_sqrt"),
    ],
)
def test_the_inputs_expose_what_used_to_pass(name, answer, diagnosis):
    def nan_rows(q, k, v, mask=None):
        s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
        if mask is not None:
            s = np.where(mask, s, -np.inf)
        e = np.exp(s - s.max(-1, keepdims=True))
        w = e / e.sum(-1, keepdims=True)
        return w @ v, w

    def uniform_rows(q, k, v, mask=None):
        s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
        if mask is not None:
            s = s + np.where(mask, 0.0, -1e9)
        e = np.exp(s - s.max(-1, keepdims=True))
        w = e / e.sum(-1, keepdims=True)
        return w @ v, w

    def first_maximum(q, k, v, block_size, causal=False):
        q = q / math.sqrt(q.shape[-1])
        n_q, n_k = q.shape[-2], k.shape[-2]
        m, total, acc = None, 0.0, 0.0
        for start in range(0, k.shape[-2], block_size):
            s = q @ np.swapaxes(k[..., start : start + block_size, :], -1, -2)
            if causal:
                keys = np.arange(start, start + s.shape[-1])
                s = np.where(keys <= np.arange(n_q)[:, None] + n_k - n_q, s, -np.inf)
            if m is None:  # the first block's maximum, kept (0 for a query with no key)
                m = s.max(-1, keepdims=True)
                m = np.where(np.isfinite(m), m, 0.0)
            p = np.exp(s - m)
            total, acc = (
                total + p.sum(-1, keepdims=True),
                acc + p @ v[..., start : start + block_size, :],
            )
        return np.where(total > 0, acc / np.where(total > 0, total, 1.0), 0.0)

    def round_(memory_bytes, batch, heads, bytes_per_number):
        return round(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))

    def float_sqrt(memory_bytes, batch, heads, bytes_per_number):
        return int(math.sqrt(memory_bytes / (batch * heads * bytes_per_number)))

    answers = {"nan_rows": nan_rows, "uniform_rows": uniform_rows, "first_maximum": first_maximum,
               "round": round_, "float_sqrt": float_sqrt}  # fmt: skip
    for seed in range(6):
        result = check(name, answers[answer], seed=seed)
        assert result.status == FAILED and result.diagnosis == diagnosis, str(result)


# --- fair errors --------------------------------------------------------------------------


def test_only_the_stubs_bare_not_implemented_error_is_not_attempted():
    def stub(mask):
        raise NotImplementedError  # your code here

    def own_error(mask):
        return (1 - mask)[:, 0, 0, :]  # torch raises NotImplementedError with a message

    assert check("torch_key_padding_mask", stub).status == NOT_ATTEMPTED
    result = check("torch_key_padding_mask", own_error, seed=0)
    assert result.status == FAILED and result.diagnosis == "arithmetic_on_bool"
    assert "invert a mask" in result.feedback  # torch's own message is shown


def test_a_variant_that_raises_matches_only_the_same_error():
    def no_detach(torch_mha):  # RuntimeError, where the split-by-columns variant raises others
        return mha.MHAParams(torch_mha.in_proj_weight.numpy(), None, None, None, 1)

    result = check("params_from_torch", no_detach, seed=0)
    assert result.diagnosis == "numpy_requires_grad", str(result)
    assert "detach" in result.feedback


def test_an_answer_that_swallows_the_alarm_still_fails_on_time():
    def stubborn(x, axis=-1):
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            try:  # noqa: SIM105 (what the answer does)
                time.sleep(0.01)
            except BaseException:
                pass
        return mha.softmax(x, axis)

    start = time.monotonic()
    result = check("softmax", stubborn, time_limit=0.5)
    assert result.status == FAILED and result.diagnosis == "time_limit", str(result)
    assert time.monotonic() - start < 10


def test_the_time_limit_is_the_answers_and_not_the_diagnosis(monkeypatch):
    judge = FunctionExercise.judge

    def slow_judge(self, cases, outcomes):  # the checks' own work, slower than the limit
        time.sleep(0.8)
        return judge(self, cases, outcomes)

    monkeypatch.setattr(FunctionExercise, "judge", slow_judge)
    result = check("softmax", lambda x, axis=-1: np.exp(x), time_limit=0.5)
    assert result.status == FAILED and result.diagnosis != "time_limit", str(result)


# --- results of the wrong kind or precision ---------------------------------------------


def test_low_precision_is_named_as_precision():
    def half(x, axis=-1):
        return mha.softmax(x, axis).astype(np.float16)

    def through_half(x, axis=-1):
        return mha.softmax(x, axis).astype(np.float16).astype(x.dtype)

    assert "float16" in check("softmax", half, seed=0).feedback
    result = check("softmax", through_half, seed=0)
    assert result.diagnosis == "precision:float16", str(result)

    def bfloat(module, q, k, v, mask=None):
        out, weights = module(q, k, v, mask, need_weights=True)
        return out.to(torch.bfloat16), weights

    assert "bfloat16" in check("module_forward", bfloat, seed=0).feedback


def test_a_torch_exercise_asks_for_tensors():
    result = check("torch_key_padding_mask", lambda mask: np.logical_not(mask[:, 0, 0, :].numpy()))
    assert result.status == FAILED and "expected a torch tensor" in result.feedback


def test_a_count_as_a_float_fails_with_the_reason():
    result = check("attention_flops", lambda b, n, d: 8.0 * b * n * d * d + 4 * b * n * n * d)
    assert result.status == FAILED and "float where a count" in result.feedback
    assert check("attention_weights_bytes", 8589934592.0).diagnosis == "integer_as_float"


def test_a_result_of_another_structure_fails_without_raising():
    for wrong in (5, (1, 2), np.zeros(3)):  # parameters are asked
        result = check("params_from_torch", lambda torch_mha, wrong=wrong: wrong)
        assert result.status == FAILED and "MHAParams" in result.feedback, str(result)


def test_relation_ids_join_outputs_with_plus_and_keep_an_inputs_plus():
    assert relations.is_relation_id("times:2+axes")
    assert relations.is_relation_id("input:top_k+1")
    assert relations.is_relation_id("input:top_k+1+outputs_swapped")
    assert not relations.is_relation_id("scaled_twice")
    assert not relations.is_relation_id("1+times:2")


def test_an_answer_that_only_raises_is_never_named_by_an_input_change():
    def gate_importance(contributions, grad_out):
        return np.abs(contributions * grad_out).mean(axis=(0, 2, 3))  # grad_out lacks the heads

    for seed in range(3):
        result = check("gate_importance", gate_importance, seed=seed)
        assert result.status == FAILED and "raised ValueError" in result.feedback, str(result)
        assert not (result.diagnosis or "").startswith("input:"), str(result)


def test_a_transposed_weight_is_named_where_it_fits_and_fails_in_shape_elsewhere():
    def ov_matrices(params):  # W^V's rows cut where its columns belong
        d_v = params.w_o.shape[0] // params.num_heads
        return np.stack([
            params.w_v[i * d_v : (i + 1) * d_v].T @ params.w_o[i * d_v : (i + 1) * d_v]
            for i in range(params.num_heads)
        ])  # fmt: skip

    for seed in range(3):
        result = check("ov_matrices", ov_matrices, seed=seed)
        assert result.diagnosis == "input:params.w_v.T", str(result)


def test_a_tables_wrong_value_is_told_with_the_other_slips_it_equals():
    keys_only = check("gqa_kv_cache_bytes", 32 * 8 * 4096 * 8 * 128 * 2)  # also: no bytes
    assert keys_only.diagnosis == "keys_only", str(keys_only)
    assert "keys *and* the values" in keys_only.feedback and "factor bytes" in keys_only.feedback
    assert "one number cannot tell which" in keys_only.feedback
    one_layer = check("gqa_kv_cache_bytes", 2 * 8 * 4096 * 8 * 128 * 2)  # its own cause only
    assert one_layer.diagnosis == "one_layer" and "cannot tell" not in one_layer.feedback


def test_a_wrong_values_same_as_names_relations_it_equals():
    for name, exercise in EXERCISES.items():
        if isinstance(exercise, NumberExercise):
            for wrong in exercise.wrong_values:
                causes = {f.id for f in relations.causes_of_number(float(wrong.value), exercise)}
                assert set(wrong.same_as) <= causes, (name, wrong.id, wrong.same_as, causes)


def test_a_number_two_slips_explain_alike_is_told_with_both():
    eight_times = 2 * 32 * 8 * 4096 * 8 * 128 * 2 * 8  # 16 bits a number, or the batch twice
    result = check("gqa_kv_cache_bytes", eight_times)
    assert result.status == FAILED
    assert "bits where bytes" in result.feedback and "batch counted twice" in result.feedback
    assert "one number cannot tell which" in result.feedback
    half = check("mha_parameter_count", (4 * 512 * 512 + 4 * 512) // 2)  # no cause: a factor
    assert "half" in half.feedback and "or" not in half.feedback.split(":", 1)[1]
