"""Prediction exercises: write down what an experiment will show, then run it.

The notebook places the exercise just before an experiment: the reader assigns a prediction
(``predicted_... = 0.5``), runs the experiment, and the check cell after it compares the two.
The check measures the same quantity itself (``experiment()``, the experiment's computation with
its seed), so that it needs nothing from the notebook and a grader computes it in its own
process.

**Graded when made.** A prediction earns its point as soon as it is a value of the form asked
for (a number in range, one of the words offered, ...): guessing is the point, and a grader
cannot know whether it was written before the run. The feedback is the lesson: the prediction,
the measured value, whether they agree, and why the experiment gives what it gives; a
prediction near a known *misconception* (the weight of equal scores where one key takes all)
gets that misconception's explanation, and its id as the result's ``diagnosis``. An answer of
another form fails with what was expected; ``...`` is "not attempted".
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mha.checks.core import FAILED, NOT_ATTEMPTED, PASSED, Case, Outcome, Verdict
from mha.checks.forms import Form, NotThatForm, is_stub
from mha.checks.kinds import ValueExercise


def measured_in_a_fresh_process(script: str, what: str, timeout: float) -> float:
    """The number a Python ``script`` prints last, run in a fresh interpreter (a measurement
    that this process's state, or other threads, would disturb); ``what`` names it in the error."""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout
    )
    if done.returncode:
        raise RuntimeError(f"{what} could not be measured: {done.stderr[-500:]}")
    return float(done.stdout.split()[-1])


GRADED_WHEN_MADE = (
    "a prediction earns its point when it is made (a value of the form asked for); the feedback "
    "compares it with what the experiment measures"
)


@dataclass(frozen=True)
class Misconception:
    """A prediction readers make for a known wrong reason: ``value`` (close to it, in the
    exercise's form, counts; or a function of no arguments that computes it, called when
    needed) and the ``explanation`` of why the experiment shows otherwise."""

    id: str
    value: Any
    explanation: str

    def prediction(self, form: Form) -> Any:
        return form.read(self.value() if callable(self.value) else self.value)


@dataclass(frozen=True)
class PredictionExercise(ValueExercise):
    """The answer is a prediction of ``quantity`` (words: "the mean largest weight at
    d_k = 1024 without the scaling"), of the given ``form``.

    experiment : ``experiment() -> value``, what the experiment measures (cached by the chapter
        module: the grader calls it once per run)
    explanation : ``explanation(measured) -> str``, why the experiment measures that, shown
        with every verdict
    misconceptions : predictions made for known wrong reasons, each with its explanation
    """

    quantity: str
    form: Form
    experiment: Callable[[], Any]
    explanation: Callable[[Any], str]
    misconceptions: tuple[Misconception, ...]
    other_references: tuple[str, ...] = ()
    grading: str = GRADED_WHEN_MADE
    chapter: int | None = None
    name: str | None = None

    def measured(self) -> Any:
        """What the experiment measures, in the exercise's form."""
        return self.form.read(self.experiment())

    def judge(self, cases: Sequence[Case], outcomes: Sequence[Outcome]) -> Verdict:
        outcome = outcomes[0]
        if outcome.error is not None:
            return Verdict(FAILED, f"raised {outcome.error[0]}: {outcome.error[1][:200]}")
        if is_stub(outcome.value):
            return Verdict(
                NOT_ATTEMPTED, "not attempted yet: write your prediction in place of ..."
            )
        try:
            prediction = self.form.read(outcome.value)
        except NotThatForm as problem:
            return Verdict(
                FAILED, f"{problem}", "not_a_prediction",
                f"the prediction is {self.quantity}: assign it as a plain value, before the run",
            )  # fmt: skip
        measured = self.measured()
        why = self.explanation(measured)
        said = (
            f"You predicted {self.form.show(prediction)} for {self.quantity}; the experiment "
            f"measures {self.form.show(measured)}"
        )
        if self.form.close(prediction, measured):
            return Verdict(PASSED, f"{said}: right. {why}")
        near = [
            (self.form.distance(prediction, m.prediction(self.form)), m)
            for m in self.misconceptions
            if self.form.close(prediction, m.prediction(self.form))
        ]
        if near:
            _, nearest = min(near, key=lambda pair: pair[0])
            return Verdict(PASSED, f"{said}. {nearest.explanation} {why}", nearest.id)
        return Verdict(PASSED, f"{said}. {why}")
