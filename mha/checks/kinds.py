"""The exercise kinds: a function checked against a reference and a table of known mistakes, a
number, a shape. Each has ``trials(rng)`` (the inputs) and ``judge(cases, outcomes)`` (the
verdict); :func:`mha.checks.run_answer` is the step in between."""

from __future__ import annotations

import inspect
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mha.checks.compare import outcome_problem, same_outcome
from mha.checks.core import (
    FAILED,
    NOT_ATTEMPTED,
    PASSED,
    Case,
    Foreign,
    Outcome,
    Verdict,
    call_answer,
    short,
)


@dataclass(frozen=True)
class Mistake:
    """A recognised mistake, found by a stored variant, a property, or both.

    implementation : a deliberately wrong variant of the reference, called like it; the
        mistake is recognised when the variant's results equal the answer's on every case
        (raising where the answer raised)
    detect : ``detect(evidence) -> str | None``, a property of the answer's results (see
        :class:`Evidence`): a sentence that says what was seen, or None
    """

    id: str
    title: str
    hint: str
    implementation: Callable | None = None
    detect: Callable[[Evidence], str | None] | None = None


@dataclass(frozen=True)
class WrongValue:
    """A recognised wrong value for a number or shape exercise."""

    value: Any
    id: str
    hint: str


def reference_names(reference: Callable) -> tuple[str, ...]:
    """The dotted names an answer can call ``reference`` by: where it is defined
    (``mha.functional.softmax``), and each package above that hands it on (``mha.softmax``).

    Taken from the object itself, so that a name can never be left behind when the code
    moves; where a name is imported, the object's module has been imported too. A function
    made by another function is named by the module-level name it is bound to.
    """
    module, qualname = reference.__module__, reference.__qualname__
    if "<locals>" in qualname:  # made by a function (a variant with the defaults): its binding
        bound = [n for n, value in vars(sys.modules[module]).items() if value is reference]
        qualname = bound[0] if bound else qualname
    names = [f"{module}.{qualname}"]
    parts = module.split(".")
    for depth in range(len(parts) - 1, 0, -1):
        package = sys.modules.get(".".join(parts[:depth]))
        if "." not in qualname and getattr(package, qualname, None) is reference:
            names.append(f"{package.__name__}.{qualname}")
    return tuple(names)


def stub_verdict(outcome: Outcome) -> Verdict | None:
    if outcome.error is not None and outcome.error[0] == "NotImplementedError":
        return Verdict(NOT_ATTEMPTED, "not attempted yet (the stub raises NotImplementedError)")
    if outcome.error is None and outcome.value is None and outcome.not_callable is None:
        return Verdict(
            NOT_ATTEMPTED,
            "not attempted yet: the answer is a stub (or the function returned None: a missing "
            "`return`?)",
        )
    return None


def _seen(mistake: Mistake, evidence: Evidence) -> str | None:
    """What the mistake's property saw, or None (also when the results are too odd to read)."""
    if mistake.detect is None:
        return None
    try:
        return mistake.detect(evidence)
    except Exception:  # e.g. an answer's array of an unexpected shape: the property saw nothing
        return None


class Evidence:
    """What a property diagnosis may look at: the cases, the answer's outcomes, the
    reference's outcomes, and the outcomes of any other function on the same cases."""

    def __init__(self, exercise: FunctionExercise, cases, got, want) -> None:
        self.exercise, self.cases, self.got, self.want = (
            exercise,
            list(cases),
            list(got),
            list(want),
        )
        self._variants: dict[Callable, list[Outcome]] = {}  # keyed by the function itself
        self._memo: dict[Any, Any] = {}

    def memo(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per key (for what several properties share)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def outcome(self, fn: Callable, i: int) -> Outcome:
        """``fn``'s outcome on case ``i`` (each computed once)."""
        cache = self._variants.setdefault(fn, [])
        while len(cache) <= i:
            cache.append(self.exercise.run(fn, self.cases[len(cache)]))
        return cache[i]

    def variant(self, fn: Callable) -> list[Outcome]:
        """``fn``'s outcomes on every case."""
        return [self.outcome(fn, i) for i in range(len(self.cases))]

    def agrees_where_returned(self, fn: Callable) -> bool:
        """``fn`` gives the answer's result wherever the answer returned one, and at least one
        of those results is wrong (cases where the answer raised are not compared)."""
        returned = [i for i, got in enumerate(self.got) if got.error is None]
        wrong = [i for i in returned if not same_outcome(self.got[i], self.want[i])]
        return bool(wrong) and all(same_outcome(self.got[i], self.outcome(fn, i)) for i in returned)

    def output(self, outcome: Outcome, name: str | None = None) -> np.ndarray | None:
        """The named output (or the whole result) as a float64/bool array, or None."""
        value = outcome.value
        if outcome.error is not None or value is None:
            return None
        if name is not None:
            names = self.exercise.output_names or ()
            if not isinstance(value, tuple | list) or len(value) != len(names):
                return None
            value = value[names.index(name)]
        if isinstance(value, np.ndarray) and value.dtype.kind == "c":
            return None
        if isinstance(value, np.ndarray) and value.dtype != np.bool_:
            return value.astype(np.float64)
        if isinstance(value, bool | int | float | np.ndarray):
            return np.asarray(value)
        return None

    def triples(self, name: str | None = None):
        """(case, answer's output, reference's output) where both are arrays of one shape."""
        for case, got, want in zip(self.cases, self.got, self.want, strict=True):
            g, w = self.output(got, name), self.output(want, name)
            if g is not None and w is not None and g.shape == w.shape:
                yield case, g, w

    def probes(self, kind: str):
        """(base index, probe index) for each probe of this kind whose base is present."""
        index = {case.description: i for i, case in enumerate(self.cases)}
        for i, case in enumerate(self.cases):
            if case.probe == kind and case.probe_of in index:
                yield index[case.probe_of], i


@dataclass(frozen=True)
class FunctionExercise:
    """The answer is a function called like ``reference``; ``output_names`` names tuple items.

    cases : ``cases(rng) -> list[Case]``, the inputs (also :meth:`trials`)
    mistakes : the recognised mistakes, most specific first
    tensors : the answer's results may be torch tensors (compared as NumPy arrays)
    other_references : dotted names of other callables that count as the reference, each
        where it is defined (``torch.softmax``, ``mha.lean.tiles.attention``); with the
        names of ``reference`` itself they make :attr:`references`
    chapter : the chapter, from the number in the name of the module that registers the
        exercise (``chapters/ch04_output.py``: 4); set by the registry
    prepare : turns the copied arguments into the answer's (e.g. NumPy into torch)
    measure : what :func:`mha.checks.run_answer` measures during each call (``"peak_bytes"``)
    requirements : mistakes detected by property even when every value is right (e.g. the
        answer holds an (n_q, n_k) array); each one found fails the check
    given : for a find-the-bug exercise, the code as handed out: an answer that still equals
        it on every case is "not attempted"
    """

    reference: Callable
    cases: Callable[[np.random.Generator], list[Case]]
    mistakes: tuple[Mistake, ...]
    output_names: tuple[str, ...] | None = None
    tensors: bool = False
    other_references: tuple[str, ...] = ()
    prepare: Callable[[tuple], tuple] | None = None
    measure: tuple[str, ...] = ()
    requirements: tuple[Mistake, ...] = ()
    given: Callable | None = None
    chapter: int | None = None

    @property
    def references(self) -> tuple[str, ...]:
        """The dotted names of the callables an answer must not call (the grader watches
        them): :func:`reference_names` of :attr:`reference`, then :attr:`other_references`."""
        return tuple(dict.fromkeys((*reference_names(self.reference), *self.other_references)))

    def trials(self, rng: np.random.Generator) -> list[Case]:
        return self.cases(rng)

    def run(self, answer: Any, case: Case) -> Outcome:
        names = tuple(inspect.signature(self.reference).parameters)
        return call_answer(
            answer, case.args, names=names, prepare=self.prepare, tensors=self.tensors,
            measure=self.measure,
        )  # fmt: skip

    def judge(self, cases: Sequence[Case], outcomes: Sequence[Outcome]) -> Verdict:
        if len(cases) != len(outcomes) or not cases:
            raise ValueError(
                f"judge needs one outcome per case, got {len(outcomes)} for {len(cases)}"
            )
        first = outcomes[0]
        if first.not_callable is not None:
            return Verdict(
                FAILED,
                f"expected a function, got {first.not_callable}",
                hint="pass the function itself, without calling it: check(name, my_function)",
            )
        stub = stub_verdict(first)
        if stub is not None:
            return stub
        expected = [self.run(self.reference, case) for case in cases]
        failures, notes = [], []
        for case, got, want in zip(cases, outcomes, expected, strict=True):
            problem, note = outcome_problem(got, want, self.output_names)
            if problem is not None:
                failures.append((case, problem))
            elif note:
                notes.append(note)
        note = notes[0] if notes else None
        evidence = Evidence(self, cases, outcomes, expected)
        if not failures:
            for requirement in self.requirements:
                seen = _seen(requirement, evidence)
                if seen:
                    return Verdict(
                        FAILED,
                        f"the values are right, but {seen}. This looks like: {requirement.title}.",
                        requirement.id, requirement.hint, note,
                    )  # fmt: skip
            return Verdict(PASSED, f"passed on all {len(cases)} test inputs", note=note)
        case, problem = failures[0]
        feedback = (
            f"on {case.description}: {problem.message} "
            f"(wrong on {len(failures)} of {len(cases)} test inputs)"
        )
        if self.given is not None and self._matches(evidence, self.given):
            return Verdict(NOT_ATTEMPTED, "not attempted yet: this is still the code as given")
        found = self._diagnose(evidence)
        if not found:
            return Verdict(FAILED, feedback, hint=problem.hint)
        (mistake, seen), *others = found
        also = [m.title for m, _ in others if m.id != mistake.id][:2]
        said = f"{seen[0].upper()}{seen[1:]}: this looks like" if seen else "This looks like"
        text = f"{feedback}. {said} {mistake.title}."
        if also:
            text += f" (Perhaps also: {'; '.join(also)}.)"
        return Verdict(FAILED, text, mistake.id, mistake.hint)

    def _diagnose(self, evidence: Evidence) -> list[tuple[Mistake, str | None]]:
        """Recognised mistakes, most specific first: a variant that equals the answer on every
        case; else one that equals it wherever it returned a value (and it raised elsewhere);
        else the properties found, in the table's order (requirements last)."""
        variants = [m for m in self.mistakes if m.implementation is not None]
        for mistake in variants:
            if self._matches(evidence, mistake.implementation):
                return [(mistake, None)]
        if any(got.error is not None for got in evidence.got):
            for mistake in variants:
                if evidence.agrees_where_returned(mistake.implementation):
                    seen = (
                        "where your function did not raise, it gives the results of a known mistake"
                    )
                    return [(mistake, seen)]
        found = []
        for mistake in (*self.mistakes, *self.requirements):
            seen = _seen(mistake, evidence)
            if seen:
                found.append((mistake, seen))
        return found

    def _matches(self, evidence: Evidence, variant: Callable) -> bool:
        """The variant's outcomes equal the answer's on every case."""
        return all(
            same_outcome(got, evidence.outcome(variant, i)) for i, got in enumerate(evidence.got)
        )


def _value_of(outcome: Outcome) -> tuple[Any, Verdict | None]:
    """The value of a number/shape answer, or the verdict when there is none."""
    stub = stub_verdict(outcome)
    if stub is not None:
        return None, stub
    if outcome.error is not None:
        return None, Verdict(FAILED, f"raised {outcome.error[0]}: {short(outcome.error[1], 200)}")
    return outcome.value, None


def _shown(value: Any) -> str:
    if isinstance(value, Foreign):
        return f"{value.type_name} {value.text}"
    return f"{type(value).__name__} {short(value)}"


@dataclass(frozen=True)
class _ValueExercise:
    """What number and shape exercises share: one trial without inputs, no reference."""

    @property
    def references(self) -> tuple[str, ...]:
        """The callables an answer must not call: ``other_references``."""
        return tuple(dict.fromkeys(self.other_references))

    def trials(self, rng: np.random.Generator) -> list[Case]:
        """One case without arguments: the answer is a value (or a function of no arguments
        that returns it), so there is nothing to draw from the seed."""
        return [Case("your answer", ())]

    def run(self, answer: Any, case: Case) -> Outcome:
        if answer is None or answer is Ellipsis:
            return Outcome()
        if callable(answer) and not isinstance(answer, type):
            outcome = call_answer(answer, ())
            returned_stub = isinstance(outcome.value, Foreign) and outcome.value.text == "Ellipsis"
            return Outcome() if returned_stub else outcome
        return call_answer(lambda: answer, ())


@dataclass(frozen=True)
class NumberExercise(_ValueExercise):
    """The answer is a number; ``rel_tol=0`` asks for the exact value (counts)."""

    expected: float
    wrong_values: tuple[WrongValue, ...]
    rel_tol: float = 0.0
    other_references: tuple[str, ...] = ()
    chapter: int | None = None

    def judge(self, cases: Sequence[Case], outcomes: Sequence[Outcome]) -> Verdict:
        value, verdict = _value_of(outcomes[0])
        if verdict is not None:
            return verdict
        is_number = isinstance(value, int | float) or (
            isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf"
        )
        if isinstance(value, bool) or not is_number:
            return Verdict(FAILED, f"expected a number, got {_shown(value)}")
        number = float(value)
        shown = short(value.item() if isinstance(value, np.ndarray) else value)
        if math.isclose(number, self.expected, rel_tol=self.rel_tol):
            return Verdict(PASSED, f"{shown} is right")
        for wrong in self.wrong_values:
            if math.isclose(number, wrong.value, rel_tol=max(self.rel_tol, 1e-9)):
                return Verdict(FAILED, f"{shown} is not right", wrong.id, wrong.hint)
        return Verdict(FAILED, f"{shown} is not right")


@dataclass(frozen=True)
class ShapeExercise(_ValueExercise):
    """The answer is a shape: a tuple (or list, or ``torch.Size``) of ints."""

    expected: tuple[int, ...]
    wrong_values: tuple[WrongValue, ...]
    other_references: tuple[str, ...] = ()
    chapter: int | None = None

    def judge(self, cases: Sequence[Case], outcomes: Sequence[Outcome]) -> Verdict:
        value, verdict = _value_of(outcomes[0])
        if verdict is not None:
            return verdict

        def is_int(n: Any) -> bool:
            if isinstance(n, np.ndarray):
                return n.ndim == 0 and n.dtype.kind in "iu"
            return isinstance(n, int) and not isinstance(n, bool)

        if not isinstance(value, tuple | list) or not all(is_int(n) for n in value):
            return Verdict(FAILED, f"expected a shape (a tuple of ints), got {_shown(value)}")
        shape = tuple(int(n) for n in value)
        if shape == self.expected:
            return Verdict(PASSED, f"{shape} is right")
        for wrong in self.wrong_values:
            if shape == tuple(wrong.value):
                return Verdict(FAILED, f"{shape} is not right", wrong.id, wrong.hint)
        return Verdict(FAILED, f"{shape} is not right")


Exercise = FunctionExercise | NumberExercise | ShapeExercise
