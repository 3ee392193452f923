"""Prediction and experiment exercises (:mod:`mha.checks.predictions`,
:mod:`mha.checks.experiments`): a prediction earns its point when made and its feedback names
the misconception it is near; an experiment is graded on the quantity recomputed from the
reader's setting; both survive answers of the wrong form, and their stubs are "not attempted"."""

from __future__ import annotations

import corpus
import pytest

from mha.checks import EXERCISES, FAILED, NOT_ATTEMPTED, PASSED, check
from mha.checks.experiments import ExperimentExercise
from mha.checks.forms import Choice, Number, Whole, WholeList
from mha.checks.predictions import PredictionExercise

corpus.load()
PREDICTIONS = corpus.PREDICTIONS
PREDICTION_NAMES = [n for n, e in EXERCISES.items() if isinstance(e, PredictionExercise)]
EXPERIMENT_NAMES = [n for n, e in EXERCISES.items() if isinstance(e, ExperimentExercise)]


def test_there_are_predictions_and_experiments_and_the_corpus_covers_them():
    assert PREDICTION_NAMES and EXPERIMENT_NAMES
    for name in PREDICTION_NAMES:
        named = {p.mistake for p in PREDICTIONS if p.exercise == name}
        misconceptions = {m.id for m in EXERCISES[name].misconceptions}
        assert None in named, f"{name}: no prediction close to what the experiment measures"
        assert misconceptions <= named, f"{name}: misconceptions without a corpus prediction"


@pytest.mark.parametrize("answer", PREDICTIONS, ids=[a.id for a in PREDICTIONS])
def test_a_prediction_earns_its_point_and_names_its_misconception(answer):
    result = check(answer.exercise, answer.fn())
    assert result.status == PASSED, str(result)
    assert result.diagnosis == answer.mistake, str(result)
    exercise = EXERCISES[answer.exercise]
    measured = exercise.form.show(exercise.measured())
    assert measured in result.feedback, "the feedback says what the experiment measures"


@pytest.mark.parametrize("name", PREDICTION_NAMES)
def test_a_prediction_of_another_form_fails_and_a_stub_is_not_attempted(name):
    form = EXERCISES[name].form
    wrong = "many" if not isinstance(form, Choice) else 3.5
    result = check(name, wrong)
    assert result.status == FAILED and result.diagnosis == "not_a_prediction", str(result)
    assert check(name, ...).status == NOT_ATTEMPTED
    assert check(name, lambda: ...).status == NOT_ATTEMPTED


@pytest.mark.parametrize("name", EXPERIMENT_NAMES)
def test_an_experiment_is_graded_on_the_quantity_of_the_readers_setting(name):
    exercise = EXERCISES[name]
    assert check(name, ...).status == NOT_ATTEMPTED
    assert check(name, (exercise.default, ...)).status == NOT_ATTEMPTED
    unchanged = (exercise.default, exercise.experiment(exercise.default))
    assert check(name, unchanged).diagnosis == "setting_unchanged"
    right = [(setting, exercise.experiment(setting)) for setting in _other_settings(exercise)]
    for setting, measured in right:
        assert check(name, (setting, measured)).status == PASSED, (setting, measured)
    # another setting's value is wrong for this one, unless the two agree
    (_, value_first), (second, value_second) = right[:2]
    if not exercise.form.close(exercise.form.read(value_first), exercise.form.read(value_second)):
        assert check(name, (second, value_first)).status == FAILED


def _other_settings(exercise: ExperimentExercise) -> list:
    settings = exercise.settings
    if isinstance(settings, Choice):
        return [o for o in settings.options if o != exercise.default]
    if isinstance(settings, Whole):
        return [s for s in range(settings.low, min(settings.high, settings.low + 4) + 1)
                if s != exercise.default][:3]  # fmt: skip
    if isinstance(settings, Number):
        return [s for s in (settings.low, (settings.low + settings.high) / 2, settings.high)
                if s != exercise.default]  # fmt: skip
    raise TypeError(f"settings must be a Choice, Whole or Number form, got {settings!r}")


def test_the_forms_read_what_they_ask_for_and_name_what_arrived():
    assert Number(0, 1).read(0.5) == 0.5
    with pytest.raises(ValueError, match="from 0 to 1, got 2"):
        Number(0, 1).read(2)
    assert Number(0, 1).read(1.0000000000000002) == 1.0  # a cosine past 1 by rounding
    assert Number(-1, 1).read(-1 - 2**-52) == -1.0
    with pytest.raises(ValueError, match=r"from 0 to 1, got 1\.001"):
        Number(0, 1).read(1.001)
    assert Whole(0, 10).read(4.0) == 4
    with pytest.raises(ValueError, match=r"whole number, got float 4\.5"):
        Whole(0, 10).read(4.5)
    assert Choice(("rows", "columns")).read(" Rows ") == "rows"
    with pytest.raises(ValueError, match="one of 'rows', 'columns'"):
        Choice(("rows", "columns")).read("diagonal")
    assert WholeList(3).read((1, 2, 3)) == [1, 2, 3]
    with pytest.raises(ValueError, match="list of 3 whole numbers"):
        WholeList(3).read([1, 2])
    assert Number(0, 10, factor=2.0).close(3, 5) and not Number(0, 10, factor=2.0).close(2, 5)
