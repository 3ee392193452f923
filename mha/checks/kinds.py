"""The exercise kinds: a function checked against a reference and a table of known mistakes, a
number, a shape."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mha.checks.core import (
    Case,
    _array_problem,
    _call,
    _Called,
    _describe_error,
    _Outcome,
    _raise_if_stub,
    _same_outcome,
    _short,
    _tensors_as_numpy,
    _value_answer,
)


@dataclass(frozen=True)
class Mistake:
    """A recognised mistake: a deliberately wrong variant of the reference."""

    id: str
    title: str
    hint: str
    implementation: Callable


@dataclass(frozen=True)
class WrongValue:
    """A recognised wrong value for a number or shape exercise."""

    value: Any
    id: str
    hint: str


@dataclass(frozen=True)
class FunctionExercise:
    """The answer is a function called like ``reference``; ``output_names`` names tuple items."""

    chapter: int
    reference: Callable
    cases: Callable[[np.random.Generator], list[Case]]
    mistakes: tuple[Mistake, ...]
    output_names: tuple[str, ...] | None = None
    tensors: bool = False  # the answer returns torch tensors; compared as NumPy arrays

    def run(self, answer: Any, rng: np.random.Generator, progress: dict) -> str:
        if not callable(answer):
            raise _Outcome(
                f"expected a function, got {type(answer).__name__} {_short(answer)}",
                hint="pass the function itself, without calling it: check(name, my_function)",
            )
        cases = self.cases(rng)
        names = tuple(inspect.signature(self.reference).parameters)
        outcomes = []
        for index, case in enumerate(cases):
            progress["case"] = case.description
            outcome = self._call(answer, case, names)
            if index == 0:
                _raise_if_stub(outcome)
            outcomes.append(outcome)
        expected = [self._call(self.reference, case) for case in cases]
        failures = []
        for case, got, want in zip(cases, outcomes, expected, strict=True):
            problem = self._problem(got, want)
            if problem is not None:
                failures.append((case, problem))
        if not failures:
            return f"passed on all {len(cases)} test inputs"
        case, (aspect, message, hint) = failures[0]
        feedback = f"on {case.description}: {message} (wrong on {len(failures)} of {len(cases)} test inputs)"
        if aspect != "dtype":
            for mistake in self.mistakes:
                if all(
                    _same_outcome(got, self._call(mistake.implementation, c))
                    for c, got in zip(cases, outcomes, strict=True)
                ):
                    raise _Outcome(
                        f"{feedback}. This looks like: {mistake.title}.",
                        diagnosis=mistake.id,
                        hint=mistake.hint,
                    )
        raise _Outcome(feedback, hint=hint)

    def _call(self, fn: Callable, case: Case, names: Sequence[str] = ()) -> _Called:
        called = _call(fn, case, names)
        if self.tensors and called.error is None:
            called.value = _tensors_as_numpy(called.value)
        return called

    def _problem(self, got: _Called, want: _Called) -> tuple[str, str, str | None] | None:
        """(aspect, message, hint) for the first thing wrong with ``got``, or None."""
        if want.error is not None:
            raise RuntimeError(f"the reference failed on its own test input: {want.error!r}")
        if got.error is not None:
            return "raised", *_describe_error(got.error)
        if got.mutated:
            return (
                "mutated",
                f"the function changed its argument {got.mutated} in place",
                "work on new arrays (x = x - m, not x -= m); the caller's arrays must not change",
            )
        names = self.output_names
        if names is None:
            return _array_problem("the result", got.value, want.value)
        if not isinstance(got.value, tuple | list) or len(got.value) != len(names):
            return (
                "type",
                f"expected a tuple ({', '.join(names)}), got {type(got.value).__name__} "
                f"{_short(got.value)}",
                f"end with `return {', '.join(names)}`",
            )
        for name, g, w in zip(names, got.value, want.value, strict=True):
            problem = _array_problem(name, g, w)
            if problem is not None:
                return problem
        return None


@dataclass(frozen=True)
class NumberExercise:
    """The answer is a number; ``rel_tol=0`` asks for the exact value (counts)."""

    chapter: int
    expected: float
    wrong_values: tuple[WrongValue, ...]
    rel_tol: float = 0.0

    def run(self, answer: Any, rng: np.random.Generator, progress: dict) -> str:
        value = _value_answer(answer, progress)
        is_number = isinstance(value, int | float | np.number) or (
            isinstance(value, np.ndarray) and value.ndim == 0
        )
        if isinstance(value, bool | np.bool_) or not is_number:
            raise _Outcome(f"expected a number, got {type(value).__name__} {_short(value)}")
        number = float(value)
        if math.isclose(number, self.expected, rel_tol=self.rel_tol):
            return f"{_short(value)} is right"
        for wrong in self.wrong_values:
            if math.isclose(number, wrong.value, rel_tol=max(self.rel_tol, 1e-9)):
                raise _Outcome(f"{_short(value)} is not right", diagnosis=wrong.id, hint=wrong.hint)
        raise _Outcome(f"{_short(value)} is not right")


@dataclass(frozen=True)
class ShapeExercise:
    """The answer is a shape: a tuple (or list, or ``torch.Size``) of ints."""

    chapter: int
    expected: tuple[int, ...]
    wrong_values: tuple[WrongValue, ...]

    def run(self, answer: Any, rng: np.random.Generator, progress: dict) -> str:
        value = _value_answer(answer, progress)
        if not isinstance(value, tuple | list) or not all(
            isinstance(n, int | np.integer) and not isinstance(n, bool) for n in value
        ):
            raise _Outcome(
                f"expected a shape (a tuple of ints), got {type(value).__name__} {_short(value)}"
            )
        shape = tuple(int(n) for n in value)
        if shape == self.expected:
            return f"{shape} is right"
        for wrong in self.wrong_values:
            if shape == tuple(wrong.value):
                raise _Outcome(f"{shape} is not right", diagnosis=wrong.id, hint=wrong.hint)
        raise _Outcome(f"{shape} is not right")


Exercise = FunctionExercise | NumberExercise | ShapeExercise
