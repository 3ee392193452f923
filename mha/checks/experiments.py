"""Experiment exercises: change one thing in an experiment of the chapter, run it, and answer a
question about what your run shows.

The notebook's experiment cell starts with the setting the reader changes (``SHIFT = 0  # try
1 or 2``); the answer is the pair ``(setting, answer)``, e.g. ``shifted_causal_mask = (SHIFT,
2)``, and its check cell follows the experiment.

**Graded on the setting.** The check recomputes the quantity the question asks about from the
reader's setting (``experiment(setting)``: the experiment's computation, with its seed) and
compares the answer with it, within the spread that rounding on another CPU can give (a wrong
answer is not told the value: the run shows it). So the
check verifies the answer against the reader's own run without reading anything else of the
notebook, and a grader does the same in its own process. The chapter's own setting fails ("change
it first"); a known wrong reading of the run (the value the unchanged setting gives, another
quantity of the same printout) is named as a mistake, with a hint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mha.checks.core import FAILED, NOT_ATTEMPTED, PASSED, Case, Outcome, Verdict
from mha.checks.forms import Form, NotThatForm, is_stub
from mha.checks.kinds import ValueExercise

GRADED_ON_THE_SETTING = (
    "graded on the quantity recomputed from the reader's setting: the answer must agree with "
    "what the experiment gives for that setting, which must differ from the chapter's"
)


#: What a failed experiment answer is named when its form is wrong (not the pair, a setting
#: out of range, the chapter's own setting, an answer of another form).
FORM_DIAGNOSES = ("not_a_pair", "setting_not_allowed", "setting_unchanged", "not_that_form")


@dataclass(frozen=True)
class Reading:
    """A wrong reading of the run: ``value(setting)`` is what a reader who makes this mistake
    answers for that setting."""

    id: str
    title: str
    hint: str
    value: Callable[[Any], Any]


@dataclass(frozen=True)
class ExperimentExercise(ValueExercise):
    """The answer is ``(setting, answer)``: the value the reader gave the notebook's variable
    ``setting`` (any of ``settings`` but the chapter's ``default``), and the answer to the
    question, ``quantity`` (words), of the given ``form``.

    experiment : ``experiment(setting) -> value``, the quantity the experiment gives for a setting
        (cached by the chapter module)
    explanation : ``explanation(setting, value) -> str``, why the run gives that
    mistakes : known wrong readings of the run
    """

    setting: str
    default: Any
    settings: Form
    quantity: str
    form: Form
    experiment: Callable[[Any], Any]
    explanation: Callable[[Any, Any], str]
    mistakes: tuple[Reading, ...]
    other_references: tuple[str, ...] = ()
    grading: str = GRADED_ON_THE_SETTING
    chapter: int | None = None
    name: str | None = None

    @property
    def diagnoses(self) -> tuple[str, ...]:
        """The ids a failed answer may be named with: its form's, then the table's readings."""
        return (*FORM_DIAGNOSES, *(reading.id for reading in self.mistakes))

    def judge(self, cases: Sequence[Case], outcomes: Sequence[Outcome]) -> Verdict:
        outcome = outcomes[0]
        asked = f"({self.setting}, your answer)"
        if outcome.error is not None:
            return Verdict(FAILED, f"raised {outcome.error[0]}: {outcome.error[1][:200]}")
        if is_stub(outcome.value):
            return Verdict(
                NOT_ATTEMPTED,
                f"not attempted yet: change {self.setting}, run the experiment, and write what "
                "your run shows in place of ...",
            )
        value = outcome.value
        if not isinstance(value, tuple | list) or len(value) != 2:
            return Verdict(
                FAILED, f"expected a pair {asked}", "not_a_pair",
                f"assign the pair {asked}, e.g. ({self.setting}, 3)",
            )  # fmt: skip
        try:
            setting = self.settings.read(value[0])
        except NotThatForm as problem:
            return Verdict(FAILED, f"{self.setting}: {problem}", "setting_not_allowed",
                           f"give {self.setting} one of the values the experiment cell suggests")  # fmt: skip
        if self.settings.close(setting, self.settings.read(self.default)):
            return Verdict(
                FAILED,
                f"{self.setting} = {self.settings.show(setting)} is the chapter's own setting",
                "setting_unchanged",
                f"change {self.setting} in the experiment cell, run it again, and answer for "
                "your run",
            )
        try:
            answer = self.form.read(value[1])
        except NotThatForm as problem:
            return Verdict(FAILED, f"your answer: {problem}", "not_that_form",
                           f"the question asks for {self.quantity}")  # fmt: skip
        measured = self.form.read(self.experiment(setting))
        run = f"with {self.setting} = {self.settings.show(setting)}"
        why = self.explanation(setting, measured)
        if self.form.close(answer, measured):
            return Verdict(
                PASSED, f"{self.form.show(answer)} is right: {run}, {self.quantity} is "
                f"{self.form.show(measured)}. {why}",
            )  # fmt: skip
        said = f"{self.form.show(answer)} is not what the experiment gives {run}"
        wrong = [
            (m, self.form.read(m.value(setting)))
            for m in self.mistakes
            if self.form.close(answer, self.form.read(m.value(setting)))
        ]
        if wrong:
            mistake, _ = min(wrong, key=lambda pair: self.form.distance(answer, pair[1]))
            return Verdict(FAILED, f"{said}. This looks like {mistake.title}.", mistake.id,
                           mistake.hint)  # fmt: skip
        return Verdict(
            FAILED, f"{said}.", hint=f"run the experiment cell with {self.setting} = "
            f"{self.settings.show(setting)} and read {self.quantity} from what it prints",
        )  # fmt: skip
