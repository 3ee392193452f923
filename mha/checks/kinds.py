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

from mha.checks import edits, relations
from mha.checks.compare import outcome_problem, same_outcome, same_value
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
    relations : patterns (``fnmatch``) of the ids of the relations this mistake explains
        (see :mod:`mha.checks.relations`): when one is found, this mistake is named
    """

    id: str
    title: str
    hint: str
    implementation: Callable | None = None
    detect: Callable[[Evidence], str | None] | None = None
    relations: tuple[str, ...] = ()


@dataclass(frozen=True)
class WrongValue:
    """A recognised wrong value for a number or shape exercise."""

    value: Any
    id: str
    hint: str
    # the relations' ids that say the same as this value (a count's factor missing): those
    # it coincides with otherwise are told with it, as one number cannot tell them apart
    same_as: tuple[str, ...] = ()


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
    """ "Not attempted" for a stub's outcome: the bare ``raise NotImplementedError`` of the
    handed-out stub (an exception with a message is the answer's own), or a function that
    returned None."""
    if outcome.error is not None and outcome.error == ("NotImplementedError", ""):
        return Verdict(NOT_ATTEMPTED, "not attempted yet (the stub raises NotImplementedError)")
    if outcome.error is None and outcome.value is None and outcome.not_callable is None:
        return Verdict(
            NOT_ATTEMPTED,
            "not attempted yet: the answer is a stub (or the function returned None: a missing "
            "`return`?)",
        )
    return None


def _nan_as_zero(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return type(value)(_nan_as_zero(v) for v in value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return np.nan_to_num(value, nan=0.0)
    return value


def _has_zero_row(value: Any) -> bool:
    if isinstance(value, tuple | list):
        return any(_has_zero_row(v) for v in value)
    return (
        isinstance(value, np.ndarray) and value.ndim > 0 and value.dtype.kind == "f"
        and bool(np.any(np.all(value == 0, axis=-1)))
    )  # fmt: skip


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
            cache.append(self.exercise.run(fn, self.cases[len(cache)], measured=False))
        return cache[i]

    def variant(self, fn: Callable) -> list[Outcome]:
        """``fn``'s outcomes on every case."""
        return [self.outcome(fn, i) for i in range(len(self.cases))]

    def agrees_where_returned(self, fn: Callable) -> bool:
        """``fn`` gives the answer's result wherever the answer returned one, and at least one
        of those results is wrong (cases where the answer raised, and cases with a query that
        may attend no key, are not compared)."""
        returned = [i for i, got in enumerate(self.got) if got.error is None and not self.blind(i)]
        wrong = [i for i in returned if not same_outcome(self.got[i], self.want[i])]
        return bool(wrong) and all(self.same_as(i, self.outcome(fn, i)) for i in returned)

    def agrees_where_variant_returned(self, fn: Callable) -> bool:
        """``fn`` raised on some cases (its mistake needs shapes those cases lack) and gives
        the answer's result on every other case, one of them wrong: an answer
        that makes the mistake wherever the shapes allow it (cases with a query that may
        attend no key are not compared)."""
        compared = [i for i in range(len(self.cases)) if not self.blind(i)]
        ran = [i for i in compared if self.outcome(fn, i).error is None]
        if not ran or len(ran) == len(compared):
            return False
        wrong = [i for i in ran if not same_outcome(self.got[i], self.want[i])]
        return bool(wrong) and all(self.same_as(i, self.outcome(fn, i)) for i in ran)

    def explained_by(self, fn: Callable) -> bool:
        """``fn`` gives the answer's outcome on every case, and the answer is wrong on one of
        them. Cases with a query that may attend no key are left out: an answer may make a
        variant's mistake and another one on such a row (NaN, uniform weights)."""
        compared = [i for i in range(len(self.cases)) if not self.blind(i)]
        wrong = [i for i in compared if not same_outcome(self.got[i], self.want[i])]
        return bool(wrong) and all(self.same_as(i, self.outcome(fn, i)) for i in compared)

    def same_as(self, i: int, outcome: Outcome) -> bool:
        """The answer's outcome on case ``i`` equals ``outcome``, NaN taken as 0 in a case
        with a mask (where a row with no allowed key gives NaN in an answer, 0 in a variant)."""
        got = self.got[i]
        if same_outcome(got, outcome):
            return True
        if got.error is not None or outcome.error is not None or not self._masked(i):
            return False
        return same_value(_nan_as_zero(got.value), _nan_as_zero(outcome.value))

    def blind(self, i: int) -> bool:
        """Case ``i`` tests an edge that an answer may get wrong besides a variant's mistake: a
        probe of one of the exercise's ``edges``, or a mask with a query that may attend no key
        (the reference gives a row of zeros)."""
        if self.cases[i].probe and self.cases[i].probe in self.exercise.edges:
            return True
        return self._masked(i) and _has_zero_row(self.want[i].value)

    def without_edges(self) -> Evidence:
        """The same evidence without the cases that test an edge (see :meth:`blind`), for the
        relations that must hold on every other case; itself when there is none."""
        kept = [i for i in range(len(self.cases)) if not self.blind(i)]
        if len(kept) == len(self.cases):
            return self
        return Evidence(
            self.exercise, *([xs[i] for i in kept] for xs in (self.cases, self.got, self.want))
        )

    def _masked(self, i: int) -> bool:
        return any(isinstance(a, np.ndarray) and a.dtype == np.bool_ for a in self.cases[i].args)

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
    name : the exercise's name in the registry (``"softmax"``); set by the registry
    prepare : turns the copied arguments into the answer's (e.g. NumPy into torch)
    measure : what :func:`mha.checks.run_answer` measures during each call (``"peak_bytes"``,
        ``"second_call"``: see :func:`mha.checks.core.call_answer`)
    requirements : mistakes detected by property even when every value is right (e.g. the
        answer holds an (n_q, n_k) array); each one found fails the check
    given : for a find-the-bug exercise, the code as handed out: an answer that still equals
        it on every case is "not attempted"
    quantities : ``quantities(args) -> dict[str, number]``, named sizes of an input beyond its
        integer arguments and parameter containers (for naming factors, e.g. ``{"n_k": ...}``)
    axes : names of the last axes of each output (``{"weights": ("heads", "queries", "keys")}``)
    terms : a count written as a sum of :class:`mha.checks.relations.Term` (products of
        quantities), so that a missing, doubled or halved term or a missing factor is named
    exact : for an integer result rounded down, the quantity before rounding, called like the
        reference (so that rounding up or to the nearest integer is named)
    edges : the probe kinds of cases that test an edge (weights that underflowed to 0, ...):
        stored variants are compared on the other cases, since an answer may make a variant's
        mistake and miss the edge too
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
    quantities: Callable[[tuple], dict[str, float]] | None = None
    axes: dict[str, tuple[str, ...]] | None = None
    terms: tuple[relations.Term, ...] = ()
    exact: Callable[..., float] | None = None
    edges: tuple[str, ...] = ()
    chapter: int | None = None
    name: str | None = None

    @property
    def references(self) -> tuple[str, ...]:
        """The dotted names of the callables an answer must not call (the grader watches
        them): :func:`reference_names` of :attr:`reference`, then :attr:`other_references`."""
        return tuple(dict.fromkeys((*reference_names(self.reference), *self.other_references)))

    def trials(self, rng: np.random.Generator) -> list[Case]:
        return self.cases(rng)

    def argument_names(self) -> tuple[str, ...]:
        """The reference's parameter names, which label the arguments in messages."""
        return tuple(inspect.signature(self.reference).parameters)

    def run(self, answer: Any, case: Case, *, measured: bool = True) -> Outcome:
        """``answer``'s outcome on ``case``; ``measured=False`` leaves out :attr:`measure` (the
        reference's and the stored variants' calls: only an answer's measurements are judged,
        and a measured call forks, which a grader's judging thread must not)."""
        return call_answer(
            answer, case.args, names=self.argument_names(), prepare=self.prepare,
            tensors=self.tensors, measure=self.measure if measured else (),
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
        expected = [self.run(self.reference, case, measured=False) for case in cases]
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
        case; else a relation to the reference that reproduces the answer on every case (see
        :mod:`mha.checks.relations`); else a variant that equals it wherever it returned a
        value (and it raised elsewhere); else the properties found, in the table's order
        (requirements last), then the relations that hold in part; where neither a property
        nor a partial relation that says why is found, first the edit of the book's solution
        that reproduces the answer (:mod:`mha.checks.edits`)."""
        variants = [m for m in self.mistakes if m.implementation is not None]
        for mistake in variants:
            if self._matches(evidence, mistake.implementation):
                return [(mistake, None)]
        exact = relations.exact_findings(evidence.without_edges())
        if exact is not None:
            return [self._named(exact)]
        if any(got.error is not None for got in evidence.got):
            for mistake in variants:
                if evidence.agrees_where_returned(mistake.implementation):
                    seen = (
                        "where your function did not raise, it gives the results of a known mistake"
                    )
                    return [(mistake, seen)]
        for mistake in variants:
            if evidence.agrees_where_variant_returned(mistake.implementation):
                seen = (
                    "wherever the shapes allow this mistake, your function gives its results "
                    "(on the other inputs it computes something else)"
                )
                return [(mistake, seen)]
        found = []
        for mistake in (*self.mistakes, *self.requirements):
            seen = _seen(mistake, evidence)
            if seen:
                found.append((mistake, seen))
        partial = relations.partial_findings(evidence)
        if not found and not any(relations.names_a_cause(f.id) for f in partial):
            edit = edits.exact_edit(evidence)
            if edit is not None:
                return [self._named(edit)]
        return found + [self._named(f) for f in partial]

    def _named(self, finding: relations.Finding) -> tuple[Mistake, str]:
        """The table's mistake that explains a relation, or the relation as a mistake."""
        for mistake in (*self.mistakes, *self.requirements):
            if relations.matches(mistake.relations, finding.id):
                return mistake, finding.seen
        return Mistake(finding.id, finding.title, finding.hint), finding.seen

    def _matches(self, evidence: Evidence, variant: Callable) -> bool:
        """The variant explains the answer (see :meth:`Evidence.explained_by`)."""
        return evidence.explained_by(variant)


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
class ValueExercise:
    """What the exercises answered by a value share (numbers, shapes, predictions,
    experiments): one trial without inputs, no reference."""

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
class NumberExercise(ValueExercise):
    """The answer is a number; ``rel_tol=0`` asks for the exact value (counts).

    A count may also give its formula as data, so that a wrong count is named by what
    changed (see :func:`mha.checks.relations.count_variants`): ``terms`` (a sum of products
    of named quantities, which must give ``expected``), ``values`` (the quantities, and
    others a reader might multiply in) and ``alternatives`` (values a reader may put in
    place of a factor). ``integer``: the answer must be an int (a float with the right value
    fails); by default, whenever the exact value (``rel_tol=0``) is an integer: a count, which
    every exercise asks as an int, like a function exercise's count."""

    expected: float
    wrong_values: tuple[WrongValue, ...]
    rel_tol: float = 0.0
    other_references: tuple[str, ...] = ()
    chapter: int | None = None
    name: str | None = None
    terms: tuple[relations.Term, ...] = ()
    values: tuple[tuple[str, float], ...] = ()
    alternatives: tuple[relations.Alternative, ...] = ()
    integer: bool | None = None

    @property
    def asks_int(self) -> bool:
        """Whether the answer must be an int (see ``integer``)."""
        if self.integer is not None:
            return self.integer
        return self.rel_tol == 0 and float(self.expected).is_integer()

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
        item = value.item() if isinstance(value, np.ndarray) else value
        shown = short(item)
        if math.isclose(number, self.expected, rel_tol=self.rel_tol):
            if self.asks_int and not isinstance(item, int):
                return Verdict(
                    FAILED,
                    f"{shown} has the right value but is a {type(item).__name__}; the question "
                    "asks for an int",
                    "integer_as_float",
                    "write the count without a decimal point or e-notation (or convert with int(...))",
                )
            return Verdict(PASSED, f"{shown} is right")
        for wrong in self.wrong_values:
            if math.isclose(number, wrong.value, rel_tol=max(self.rel_tol, 1e-9)):
                alike = [
                    f for f in relations.causes_of_number(number, self)
                    if f.id not in (wrong.id, *wrong.same_as)
                ]  # fmt: skip
                own = relations.Finding(wrong.id, wrong.hint, wrong.hint, wrong.hint)
                told = relations.told_together([own, *alike])
                return Verdict(FAILED, f"{shown} is not right: {told.seen}", told.id, told.hint)
        finding = relations.number_finding(number, self)
        if finding is not None:
            return Verdict(
                FAILED, f"{shown} is not right: {finding.seen}", finding.id, finding.hint
            )
        return Verdict(FAILED, f"{shown} is not right")


@dataclass(frozen=True)
class ShapeExercise(ValueExercise):
    """The answer is a shape: a tuple (or list, or ``torch.Size``) of ints."""

    expected: tuple[int, ...]
    wrong_values: tuple[WrongValue, ...]
    other_references: tuple[str, ...] = ()
    chapter: int | None = None
    name: str | None = None

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
                return Verdict(FAILED, f"{shape} is not right: {wrong.hint}", wrong.id, wrong.hint)
        if sorted(shape) == sorted(self.expected):
            return Verdict(
                FAILED,
                f"{shape} is not right: it holds the right sizes in another order; this looks like "
                "axes in the wrong order",
                "axes",
                "batch axes first, then heads, then queries, then keys (or features): "
                "(batch, h, n_q, n_k)",
            )
        for axis in range(len(self.expected)):
            if shape == self.expected[:axis] + self.expected[axis + 1 :]:
                size = self.expected[axis]
                return Verdict(
                    FAILED,
                    f"{shape} is not right: it is the right shape without axis {axis} (of size "
                    f"{size}{', the batch' if axis == 0 else ''})",
                    f"missing_axis:{axis}",
                    "every axis stays: write the shape axis by axis, the batch first",
                )
        return Verdict(FAILED, f"{shape} is not right")


Exercise = FunctionExercise | NumberExercise | ShapeExercise
