"""Chapter 11's checks, what is particular to them (the solutions, the corpus of answers in
tests/corpus/ch11.py and the wire-safe trials are tested for every exercise by
tests/test_checks.py): the BERT state an answer gets cannot be changed, and the ``evaluate``
it gets is the function its wire-safe terms describe."""

from __future__ import annotations

import numpy as np
import pytest

from mha.checks import EXERCISES, FAILED, check, run_answer

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix


def test_the_bert_state_cannot_be_changed_by_the_answer():
    def transposes_in_place(x, attention_mask, state, num_heads):
        state["self.query.weight"] = state["self.query.weight"].T
        return None

    def writes_into_an_array(x, attention_mask, state, num_heads):
        state["self.query.weight"][...] = 0
        return None

    for answer in (transposes_in_place, writes_into_an_array):
        result = check("bert_self_attention", answer, seed=0)
        assert result.status == FAILED and "raised" in result.feedback, str(result)


def test_the_bert_state_is_a_mapping_of_bert_names():
    exercise = EXERCISES["bert_self_attention"]
    case = exercise.trials(np.random.default_rng(0))[0]
    seen = run_answer(exercise, lambda x, mask, state, h: sorted(state), case).value
    assert seen == sorted(
        f"{layer}.{kind}"
        for layer in ("self.query", "self.key", "self.value", "output.dense")
        for kind in ("weight", "bias")
    )


def test_evaluate_rewards_kept_heads_and_heads_interact():
    exercise = EXERCISES["head_ablation_scores"]
    for case in exercise.trials(np.random.default_rng(3)):
        evaluate, layers, heads = exercise.prepare(case.args)
        ones = np.ones((layers, heads))
        assert evaluate(ones) == pytest.approx(case.args[0][0])  # the full model's score
        assert evaluate(ones) > 1  # not 1, so that a relative drop differs from the drop
        first, last, both = ones.copy(), ones.copy(), ones.copy()
        first.flat[0] = last.flat[-1] = both.flat[0] = both.flat[-1] = 0
        drop = {name: evaluate(ones) - evaluate(g) for name, g in
                (("first", first), ("last", last), ("both", both))}  # fmt: skip
        assert 0 <= drop["first"] <= drop["both"] and 0 <= drop["last"] <= drop["both"]
        assert drop["both"] != pytest.approx(drop["first"] + drop["last"])  # not additive
