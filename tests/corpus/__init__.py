"""Answers to the exercises, written the way readers write them: in the styles of the popular
tutorials and of the book's own "by hand" cells, with loops, einsum, ``np.sqrt`` or
``math.sqrt``, torch where a chapter uses torch. Not copies of the mistake tables.

Each answer is registered with a decorator: ``@correct(exercise)`` (it must pass;
``drift=True`` when its result drifts from float32 to float64, so that it must pass *with*
the note), ``@wrong(exercise, mistake)`` (it must fail, and the check should name ``mistake``;
``mistake=None``: a mistake the checks do not know, which must fail without being misnamed).
A prediction (see :mod:`mha.checks.predictions`) earns its point whatever it predicts, so its
answers are registered apart, with ``@predicted(exercise, misconception)``: the check must name
that misconception (``None``: a prediction close to what the experiment measures).

One module per chapter; ``tests/test_checks.py`` runs them all (the predictions:
``tests/test_predictions_and_experiments.py``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    exercise: str
    fn: Any
    correct: bool
    mistake: str | None = None
    drift: bool = False

    @property
    def id(self) -> str:
        verdict = "correct" if self.correct else f"wrong-{self.mistake}"
        return f"{self.exercise}-{verdict}-{getattr(self.fn, '__name__', 'value')}"


ANSWERS: list[Answer] = []


def correct(exercise: str, *, drift: bool = False) -> Callable:
    def register(fn):
        ANSWERS.append(Answer(exercise, fn, True, drift=drift))
        return fn

    return register


def wrong(exercise: str, mistake: str | None) -> Callable:
    def register(fn):
        ANSWERS.append(Answer(exercise, fn, False, mistake))
        return fn

    return register


PREDICTIONS: list[Answer] = []


def predicted(exercise: str, misconception: str | None) -> Callable:
    def register(fn):
        PREDICTIONS.append(Answer(exercise, fn, True, misconception))
        return fn

    return register


def load() -> list[Answer]:
    """Every answer of every chapter module (imported once)."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return ANSWERS
