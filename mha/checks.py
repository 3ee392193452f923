"""Exercise checks that say *what* is wrong: ``check(name, answer)``.

In a notebook::

    from mha.checks import check

    def softmax(x, axis=-1):
        ...                      # the reader's answer

    check("softmax", softmax)    # shows a green box, or what failed and a hint

``check`` returns a :class:`CheckResult` with ``.passed``, ``.status`` ("passed", "failed"
or "not attempted"), ``.feedback``, ``.diagnosis`` (the id of a recognised mistake, or
``None``) and ``.hint``. It never raises because of the answer; only an unknown exercise name
raises ``ValueError``.

What a check does
-----------------
A *function* exercise (the reader writes one of the package's functions, same name and
signature) runs the answer on fresh random inputs of several shapes and dtypes, with and
without masks, and compares each result with the package's own function (the reference):
return type and tuple arity, then shape, then NaN/inf, then values, then dtype, so the message
says which one was wrong. It also checks that the answer did not modify its inputs. When the
answer disagrees, the check runs a table of *known mistakes* (small, deliberately wrong
variants of the reference: no scaling, softmax over the wrong axis, mask applied after the
softmax, ...) on the same inputs; a mistake whose results agree with the answer's on every
input (raising where the answer raised) is named in the feedback with a hint.

A *value* exercise (a number or a shape) compares the answer with the expected value and
recognises known wrong values (the variance instead of the standard deviation, ...).

Stubs: an answer that is ``...`` or ``None``, that raises ``NotImplementedError``, or a
function that returns ``None``, is "not attempted" (so a notebook with untouched stubs still
runs top to bottom). A value exercise may also be answered with a function of no arguments
that returns the value.

Time limit
----------
Each check runs under a time limit (``time_limit`` seconds, 10 by default). On the main thread
of a POSIX process (a Jupyter kernel, a script) it uses ``SIGALRM``: when time is up, an
exception is raised inside the answer, which stops an infinite Python loop; a single long C call
(one huge ``matmul``) finishes first. Elsewhere (Windows, or ``check`` called from another
thread) the check runs in a daemon thread and stops *waiting* when time is up; a thread cannot
be killed, so a looping answer keeps running in the background until the kernel restarts.
An answer that catches ``BaseException`` (a bare ``except:``) can defeat the alarm.

Adding an exercise
------------------
Add one entry to :data:`EXERCISES`. For a function exercise, write one function that returns
the test inputs (a list of :class:`Case`) and a tuple of :class:`Mistake` (each a wrongly
written variant of the reference, with a title and a hint), then register
``FunctionExercise(chapter, reference, cases, mistakes, output_names)``. For a number or a
shape, register ``NumberExercise`` or ``ShapeExercise`` with the expected value and a tuple of
:class:`WrongValue`. ``tests/test_checks.py`` then expects a solution in
``chapters/solutions/NN_topic.py`` and one wrong answer per mistake id.
"""

from __future__ import annotations

import html
import inspect
import math
import random
import signal
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

import mha

PASSED, FAILED, NOT_ATTEMPTED = "passed", "failed", "not attempted"
DEFAULT_TIME_LIMIT = 10.0


# --- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check: what happened, in words, and the recognised mistake."""

    name: str
    status: str
    feedback: str
    diagnosis: str | None = None
    hint: str | None = None
    seed: int | None = None

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    def to_dict(self) -> dict[str, Any]:
        """Plain types only (for JSON), ``passed`` included."""
        return {**asdict(self), "passed": self.passed}

    def __str__(self) -> str:
        label = {PASSED: "PASS", FAILED: "FAIL", NOT_ATTEMPTED: "TODO"}[self.status]
        lines = [f"[{label}] {self.name}: {self.feedback}"]
        if self.hint:
            lines.append(f"Hint: {self.hint}")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colours = {PASSED: "#1e7e34", FAILED: "#c0392b", NOT_ATTEMPTED: "#b9770e"}
        backgrounds = {PASSED: "#e8f5e9", FAILED: "#fdecea", NOT_ATTEMPTED: "#fff4e0"}
        hint = f"<br><b>Hint:</b> {html.escape(self.hint)}" if self.hint else ""
        return (
            f'<div style="border-left:6px solid {colours[self.status]};'
            f"background:{backgrounds[self.status]};color:#222;padding:6px 10px;"
            f'margin:4px 0;font-family:sans-serif">'
            f"<b>{html.escape(self.name)}: {html.escape(self.status)}</b><br>"
            f"{html.escape(self.feedback)}{hint}</div>"
        )


class _Outcome(Exception):
    """Raised inside a check to end it with a status other than passed."""

    def __init__(
        self, feedback: str, *, diagnosis: str | None = None, hint: str | None = None
    ) -> None:
        super().__init__(feedback)
        self.feedback, self.diagnosis, self.hint = feedback, diagnosis, hint
        self.status = FAILED


class _NotAttempted(_Outcome):
    def __init__(self, feedback: str) -> None:
        super().__init__(feedback)
        self.status = NOT_ATTEMPTED


class _TimeUp(BaseException):
    """Raised by the alarm inside the answer (a BaseException, so `except Exception` lets it by)."""


# --- exercise kinds -----------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One test input: positional arguments for the answer and a description for messages."""

    description: str
    args: tuple


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


# --- running answers ----------------------------------------------------------------------


@dataclass
class _Called:
    """What one call returned or raised, and which argument it modified (if any)."""

    value: Any = None
    error: BaseException | None = None
    mutated: str | None = None


def _copy(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, mha.MHAParams):
        return x.map(np.copy)
    return list(x) if isinstance(x, list) else x


def _arrays_of(name: str, x: Any) -> list[tuple[str, np.ndarray]]:
    if isinstance(x, np.ndarray):
        return [(name, x)]
    if isinstance(x, mha.MHAParams):
        fields = ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
        return [(f"{name}.{f}", getattr(x, f)) for f in fields if getattr(x, f) is not None]
    return []


def _call(fn: Callable, case: Case, names: Sequence[str] = ()) -> _Called:
    """Call ``fn`` on fresh copies of the case's arguments; record result, error, mutation.

    ``names`` are the parameter names, used to say which argument was modified.
    """
    args = tuple(_copy(a) for a in case.args)
    labels = [names[i] if i < len(names) else f"#{i}" for i in range(len(args))]
    before = [
        (n, a.copy())
        for label, arg in zip(labels, args, strict=True)
        for n, a in _arrays_of(label, arg)
    ]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = fn(*args)
        except (_TimeUp, KeyboardInterrupt):
            raise
        except BaseException as error:  # the answer's own failure (SystemExit included)
            return _Called(error=error)
    after = dict(
        n_a for label, arg in zip(labels, args, strict=True) for n_a in _arrays_of(label, arg)
    )
    for name, old in before:
        if not np.array_equal(old, after[name], equal_nan=True):
            return _Called(value=value, mutated=name)
    return _Called(value=value)


def _tensors_as_numpy(value: Any) -> Any:
    """torch tensors (alone or in a tuple or list) as NumPy arrays; anything else unchanged."""
    if isinstance(value, tuple | list):
        return type(value)(_tensors_as_numpy(v) for v in value)
    if type(value).__module__.startswith("torch") and hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    return value


def _raise_if_stub(outcome: _Called) -> None:
    if isinstance(outcome.error, NotImplementedError):
        raise _NotAttempted("not attempted yet (the stub raises NotImplementedError)")
    if outcome.error is None and outcome.value is None:
        raise _NotAttempted(
            "not attempted yet: the function returned None (a stub, or a missing `return`)"
        )


def _value_answer(answer: Any, progress: dict) -> Any:
    """The value of a number/shape answer; a function of no arguments is called."""
    if answer is None or answer is Ellipsis:
        raise _NotAttempted("not attempted yet")
    if callable(answer) and not isinstance(answer, type):
        progress["case"] = "calling your function"
        called = _call(answer, Case("calling your function", ()))
        _raise_if_stub(called)
        if called.error is not None:
            message, hint = _describe_error(called.error)
            raise _Outcome(message, hint=hint)
        if called.value is Ellipsis:
            raise _NotAttempted("not attempted yet (the function returns ...)")
        return called.value
    return answer


def _describe_error(error: BaseException) -> tuple[str, str | None]:
    message = f"raised {type(error).__name__}: {_short(str(error), 200)}"
    if isinstance(error, NotImplementedError):
        return message, "part of the function is still a stub"
    text = str(error)
    if "broadcast" in text or "matmul" in text or "shapes" in text:
        return message, (
            "a shape mismatch: print the shapes of your arrays; reductions need keepdims=True "
            "to broadcast back, and q @ k needs k's last two axes swapped"
        )
    return message, None


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _array_problem(name: str, got: Any, want: np.ndarray) -> tuple[str, str, str | None] | None:
    if type(got).__module__.startswith("torch"):
        return (
            "type",
            f"{name} is a torch.Tensor",
            "this exercise works on NumPy arrays; use np functions",
        )
    if not isinstance(got, np.ndarray | np.generic):
        return (
            "type",
            f"{name} should be a NumPy array, got {type(got).__name__} {_short(got)}",
            None,
        )
    got = np.asarray(got)
    if got.shape != want.shape:
        return "shape", f"{name} has shape {got.shape}, expected {want.shape}", None
    if want.dtype == np.bool_:
        if got.dtype != np.bool_:
            return (
                "dtype",
                f"{name} has dtype {got.dtype}, expected bool",
                "build the mask from a comparison (e.g. cols <= rows), or convert with .astype(bool)",
            )
        if not np.array_equal(got, want):
            return "values", f"{name} has True/False in the wrong places", None
        return None
    if not np.issubdtype(got.dtype, np.number):
        return "dtype", f"{name} has dtype {got.dtype}, expected {want.dtype}", None
    finite = np.isfinite(want)
    if not np.all(np.isfinite(got)[finite]):
        return "nonfinite", f"{name} contains NaN or inf where the right answer is finite", None
    if not _close(got, want):
        worst = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64))))
        return (
            "values",
            f"{name} has the right shape but wrong values (off by up to {worst:.3g})",
            None,
        )
    if got.dtype != want.dtype:
        hint = None
        if want.dtype == np.float32 and got.dtype == np.float64:
            hint = (
                "a NumPy float64 scalar promotes float32 arrays (e.g. x / np.sqrt(d)); "
                "use math.sqrt(d) or a Python float, or cast back with .astype(x.dtype)"
            )
        return "dtype", f"{name} has dtype {got.dtype}, expected {want.dtype} like the inputs", hint
    return None


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal up to the rounding of the less precise of the two dtypes (NaN equals NaN)."""
    loose = any(x.dtype in (np.float32, np.float16) for x in (a, b))
    rtol, atol = (1e-4, 1e-5) if loose else (1e-6, 1e-9)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    return bool(np.allclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True))


def _same_outcome(a: _Called, b: _Called) -> bool:
    """Both raised, or both returned the same structure and (up to tolerance) values."""
    if (a.error is None) != (b.error is None):
        return False
    if a.error is not None:
        return True
    return _same_value(a.value, b.value)


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, tuple | list) or isinstance(b, tuple | list):
        return (
            isinstance(a, tuple | list)
            and isinstance(b, tuple | list)
            and len(a) == len(b)
            and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
        )
    if not isinstance(a, np.ndarray | np.generic) or not isinstance(b, np.ndarray | np.generic):
        return False
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype == np.bool_ or b.dtype == np.bool_:
        return a.dtype == b.dtype and np.array_equal(a, b)
    try:
        return _close(a, b)
    except (TypeError, ValueError):
        return False


def _within_time_limit(work: Callable[[], str], seconds: float) -> str:
    """Run ``work()``; raise ``_TimeUp`` after ``seconds`` (see the module docstring)."""
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():

        def on_alarm(signum: int, frame: Any) -> None:
            raise _TimeUp

        previous = signal.signal(signal.SIGALRM, on_alarm)
        outer_delay, outer_interval = signal.setitimer(signal.ITIMER_REAL, seconds)
        start = time.monotonic()
        try:
            return work()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if outer_delay:  # someone else's alarm was pending: put it back
                remaining = max(outer_delay - (time.monotonic() - start), 1e-3)
                signal.setitimer(signal.ITIMER_REAL, remaining, outer_interval)

    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as error:
            box["error"] = error

    worker = threading.Thread(target=target, daemon=True, name="mha-check")
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise _TimeUp
    if "error" in box:
        raise box["error"]
    return box["value"]


# --- the public entry point ---------------------------------------------------------------


def check(
    name: str, answer: Any, *, seed: int | None = None, time_limit: float = DEFAULT_TIME_LIMIT
) -> CheckResult:
    """Check the reader's answer to exercise ``name`` and say what is wrong, if anything.

    Parameters
    ----------
    name : str
        The exercise, e.g. ``"scaled_dot_product_attention"`` (see :data:`EXERCISES`).
    answer : function, number or shape
        The reader's answer; ``...`` or ``None`` means "not attempted yet".
    seed : int, optional
        Seed of the random test inputs; fresh by default (the result records it, so
        ``check(name, answer, seed=result.seed)`` repeats a run exactly).
    time_limit : float
        Seconds the whole check may take; a slower answer fails with a message.

    Returns
    -------
    CheckResult
        Shown as a coloured box in a notebook and as text in a terminal.
    """
    if name not in EXERCISES:
        raise ValueError(f"unknown exercise {name!r}; known exercises: {', '.join(EXERCISES)}")
    if not (isinstance(time_limit, int | float) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    exercise = EXERCISES[name]
    if answer is None or answer is Ellipsis:
        return CheckResult(name, NOT_ATTEMPTED, "not attempted yet", seed=seed)
    progress = {"case": "the first test input"}
    try:
        feedback = _within_time_limit(
            lambda: exercise.run(answer, np.random.default_rng(seed), progress), time_limit
        )
    except _Outcome as outcome:
        return CheckResult(
            name, outcome.status, outcome.feedback, outcome.diagnosis, outcome.hint, seed
        )
    except _TimeUp:
        return CheckResult(
            name,
            FAILED,
            f"did not finish within {time_limit:g} s (while running {progress['case']})",
            "time_limit",
            "look for a loop that never ends, or work that grows much faster than the input",
            seed,
        )
    return CheckResult(name, PASSED, feedback, seed=seed)


# --- shared inputs ------------------------------------------------------------------------

F32, F64 = np.float32, np.float64


def _normal(rng: np.random.Generator, shape: Sequence[int], dtype: Any, scale: float = 1.0):
    return (rng.standard_normal(tuple(shape)) * scale).astype(dtype)


def _random_mask(rng: np.random.Generator, shape: Sequence[int]) -> np.ndarray:
    """Random boolean mask; each row keeps at least one True and one False (so an inverted
    mask never masks a whole row and mask mistakes stay distinguishable)."""
    mask = rng.random(tuple(shape)) < 0.6
    n_k = shape[-1]
    mask[..., rng.integers(n_k)] = True
    columns = np.arange(n_k)
    first_true = np.argmax(mask, axis=-1)[..., None]
    mask[(columns != first_true) & np.all(mask, axis=-1, keepdims=True)] = False
    return mask


def _swap_last(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


# --- ch01: softmax ------------------------------------------------------------------------


def _softmax_cases(rng: np.random.Generator) -> list[Case]:
    cases = [
        Case(f"x of shape {shape}, {np.dtype(dtype)}", (_normal(rng, shape, dtype, 2.0),))
        for shape, dtype in [((4, 4), F64), ((6,), F64), ((3, 5), F32), ((2, 4, 6), F64)]
    ]
    cases.append(Case("x of shape (4, 3, 5) with axis=0", (_normal(rng, (4, 3, 5), F64), 0)))
    big = _normal(rng, (3, 5), F64, 20.0) + 1000.0
    cases.append(Case("large x (around 1000, where exp overflows)", (big,)))
    return cases


def _unstable_softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def _softmax_over(axes_of: Callable[[np.ndarray, int], Any]) -> Callable:
    def softmax(x, axis=-1):
        axes = axes_of(x, axis)
        e = np.exp(x - np.max(x, axis=axes, keepdims=True))
        return e / np.sum(e, axis=axes, keepdims=True)

    return softmax


# A softmax as a reader writes it: a slice that is all -inf (a fully masked column, when the
# softmax runs over the wrong axis) gives NaN, where mha.softmax gives zeros.
_stable_softmax = _softmax_over(lambda x, axis: axis)


def _softmax_without_keepdims(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis)


_SOFTMAX_MISTAKES = (
    Mistake(
        "unstable_softmax",
        "exp(x) / sum(exp(x)) without subtracting the maximum, which overflows",
        "subtract the maximum along the axis first: exp(x - max) / sum(exp(x - max)) is "
        "the same mathematically and never overflows",
        _unstable_softmax,
    ),
    Mistake(
        "wrong_axis",
        "a softmax over axis 0 instead of the axis argument",
        "pass axis=axis (with keepdims=True) to both np.max and np.sum",
        _softmax_over(lambda x, axis: 0),
    ),
    Mistake(
        "ignores_axis",
        "a softmax that always uses the last axis and ignores the axis argument",
        "use the axis parameter in np.max and np.sum instead of -1",
        _softmax_over(lambda x, axis: -1),
    ),
    Mistake(
        "whole_array",
        "a softmax over the whole array instead of along one axis",
        "np.sum(e) without axis adds up every entry; pass axis=axis, keepdims=True",
        _softmax_over(lambda x, axis: None),
    ),
    Mistake(
        "missing_keepdims",
        "max and sum without keepdims=True, so they broadcast along the wrong axis",
        "np.max(x, axis=axis, keepdims=True) keeps the reduced axis (size 1) so it "
        "broadcasts back along the right axis",
        _softmax_without_keepdims,
    ),
)


# --- ch01: scaled dot-product attention ---------------------------------------------------


def _sdpa_cases(rng: np.random.Generator) -> list[Case]:
    def qkv(batch, n_q, n_k, d_k, d_v, dtype):
        return (
            _normal(rng, (*batch, n_q, d_k), dtype),
            _normal(rng, (*batch, n_k, d_k), dtype),
            _normal(rng, (*batch, n_k, d_v), dtype),
        )

    # Entries of q and k at least 20 with d_k = 4: every score exceeds 20 * 20 * 4 / 2 = 800.
    large = (
        20.0 + np.abs(_normal(rng, (3, 4), F64, 10.0)),
        20.0 + np.abs(_normal(rng, (4, 4), F64, 10.0)),
        _normal(rng, (4, 2), F64),
    )
    return [
        Case("q (3, 4), k (5, 4), v (5, 6), float64", qkv((), 3, 5, 4, 6, F64)),
        Case("batch (2,), n_q = n_k = 4, d_k = 8, float32", qkv((2,), 4, 4, 8, 8, F32)),
        Case("batch (2, 3), n_q=2, n_k=5, d_k=16, d_v=3", qkv((2, 3), 2, 5, 16, 3, F64)),
        Case(
            "batch (2,), n_q=4, n_k=6, with a (4, 6) boolean mask",
            (*qkv((2,), 4, 6, 4, 4, F64), _random_mask(rng, (4, 6))),
        ),
        Case(
            "batch (3,), n_q=3, n_k=5, float32, with a (3, 1, 5) padding-style mask",
            (*qkv((3,), 3, 5, 8, 2, F32), _random_mask(rng, (3, 1, 5))),
        ),
        Case("large q and k (every score above 800, where exp overflows)", large),
    ]


def _sdpa_variant(
    *,
    divisor: Callable[[int, int], float] = lambda d_k, d_v: math.sqrt(d_k),
    normalise: Callable[[np.ndarray], np.ndarray] = lambda s: _stable_softmax(s, axis=-1),
    mask_mode: str = "before",
) -> Callable:
    """Attention with one thing changed; the defaults give the right answer."""

    def attention(q, k, v, mask=None):
        scores = q @ _swap_last(k) / divisor(q.shape[-1], v.shape[-1])  # (..., n_q, n_k)
        if mask is not None and mask_mode == "before":
            scores = np.where(mask, scores, -np.inf)
        elif mask is not None and mask_mode == "inverted":
            scores = np.where(mask, -np.inf, scores)
        elif mask is not None and mask_mode == "multiplied":
            scores = scores * mask
        weights = normalise(scores)
        if mask is not None and mask_mode == "after":
            weights = weights * mask
        return weights @ v, weights

    return attention


def _softmax_last_two(s: np.ndarray) -> np.ndarray:
    return _softmax_over(lambda x, axis: (-2, -1))(s)


_SDPA_MISTAKES = (
    Mistake(
        "no_scaling",
        "softmax(Q K^T) V without dividing the scores by sqrt(d_k)",
        "divide the scores by math.sqrt(d_k), where d_k = q.shape[-1]",
        _sdpa_variant(divisor=lambda d_k, d_v: 1.0),
    ),
    Mistake(
        "scale_by_d_k",
        "scores divided by d_k instead of sqrt(d_k)",
        "the dot product of d_k unit-variance terms has standard deviation sqrt(d_k): "
        "divide by math.sqrt(d_k)",
        _sdpa_variant(divisor=lambda d_k, d_v: d_k),
    ),
    Mistake(
        "scale_by_d_v",
        "scores divided by sqrt(d_v) (v's size) instead of sqrt(d_k)",
        "d_k is the size of queries and keys: q.shape[-1], not v.shape[-1]",
        _sdpa_variant(divisor=lambda d_k, d_v: math.sqrt(d_v)),
    ),
    Mistake(
        "softmax_wrong_axis",
        "the softmax taken over the queries axis (-2) instead of the keys axis (-1)",
        "each query's weights over the keys must sum to 1: softmax(scores, axis=-1)",
        _sdpa_variant(normalise=lambda s: _stable_softmax(s, axis=-2)),
    ),
    Mistake(
        "softmax_whole_matrix",
        "one softmax over the whole (n_q, n_k) score matrix instead of one per row",
        "normalise each row separately: softmax(scores, axis=-1)",
        _sdpa_variant(normalise=_softmax_last_two),
    ),
    Mistake(
        "unstable_softmax",
        "a softmax without subtracting the maximum, which overflows on large scores",
        "subtract the row maximum before exp (or use your stable softmax)",
        _sdpa_variant(normalise=_unstable_softmax),
    ),
    Mistake(
        "mask_after_softmax",
        "the mask applied after the softmax (rows no longer sum to 1)",
        "mask the scores before the softmax: np.where(mask, scores, -np.inf)",
        _sdpa_variant(mask_mode="after"),
    ),
    Mistake(
        "mask_ignored",
        "the mask argument ignored",
        "when mask is not None, set the scores where mask is False to -inf before the softmax",
        _sdpa_variant(mask_mode="ignored"),
    ),
    Mistake(
        "mask_inverted",
        "the mask with inverted polarity (True taken as 'hide')",
        "in this book True means 'may attend': np.where(mask, scores, -np.inf)",
        _sdpa_variant(mask_mode="inverted"),
    ),
    Mistake(
        "mask_multiplied",
        "the scores multiplied by the mask, which sets hidden scores to 0 (exp(0) = 1 still "
        "counts)",
        "hidden scores must be -inf so that exp gives 0: np.where(mask, scores, -np.inf)",
        _sdpa_variant(mask_mode="multiplied"),
    ),
)


# --- ch02: head weights -------------------------------------------------------------------


def _head_weight_cases(rng: np.random.Generator) -> list[Case]:
    cases = []
    for (rows, cols), h, i in [((8, 8), 2, 1), ((6, 12), 3, 2), ((10, 4), 4, 3), ((5, 15), 5, 0)]:
        w = _normal(rng, (rows, cols), F64)
        cases.append(Case(f"w of shape {(rows, cols)}, num_heads={h}, i={i}", (w, i, h)))
    return cases


def _reference_head_weight(w, i, num_heads):
    d = w.shape[1] // num_heads
    return w[:, i * d : (i + 1) * d]


_HEAD_WEIGHT_MISTAKES = (
    Mistake(
        "rows_not_columns",
        "head i's rows of W instead of its columns",
        "with x @ W, head i's outputs are columns i*d:(i+1)*d: w[:, i*d:(i+1)*d]",
        lambda w, i, h: w[i * (w.shape[1] // h) : (i + 1) * (w.shape[1] // h), :],
    ),
    Mistake(
        "d_from_rows",
        "d computed from W's rows (d_model) instead of its columns (h*d)",
        "d = w.shape[1] // num_heads: the columns hold the h heads",
        lambda w, i, h: w[:, i * (w.shape[0] // h) : (i + 1) * (w.shape[0] // h)],
    ),
    Mistake(
        "interleaved_columns",
        "every h-th column (w[:, i::h]) instead of one contiguous block",
        "head i owns the contiguous block w[:, i*d:(i+1)*d]",
        lambda w, i, h: w[:, i::h],
    ),
    Mistake(
        "one_based",
        "heads counted from 1 (the block of head i-1)",
        "heads are numbered from 0 in code: head i starts at column i*d",
        lambda w, i, h: w[:, (i - 1) * (w.shape[1] // h) : i * (w.shape[1] // h)],
    ),
)


# --- ch03: split and merge heads ----------------------------------------------------------


def _split_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case(
            f"x of shape {shape}, {np.dtype(dtype)}, num_heads={h}", (_normal(rng, shape, dtype), h)
        )
        for shape, h, dtype in [
            ((5, 6), 2, F64),
            ((2, 5, 12), 3, F32),
            ((2, 3, 5, 8), 4, F64),
            ((3, 8), 1, F64),
        ]
    ]


def _split_no_transpose(x, num_heads):
    *batch, n, features = x.shape
    return np.reshape(x, (*batch, num_heads, n, features // num_heads))


def _split_keep_order(x, num_heads):
    *batch, n, features = x.shape
    return np.reshape(x, (*batch, n, num_heads, features // num_heads))


def _split_interleaved(x, num_heads):
    *batch, n, features = x.shape
    x = np.reshape(x, (*batch, n, features // num_heads, num_heads))  # (..., n, d, h)
    return np.moveaxis(x, (-3, -2, -1), (-2, -1, -3))  # (..., h, n, d)


_SPLIT_MISTAKES = (
    Mistake(
        "reshape_without_transpose",
        "a reshape straight to (..., h, n, d) without a transpose, which mixes tokens",
        "reshape to (..., n, h, d) first, then swap the n and h axes",
        _split_no_transpose,
    ),
    Mistake(
        "heads_axis_not_moved",
        "a reshape to (..., n, h, d) without moving the heads axis before the sequence axis",
        "finish with np.swapaxes(x, -3, -2) to get (..., h, n, d)",
        _split_keep_order,
    ),
    Mistake(
        "heads_interleaved",
        "heads in the wrong order: feature j went to head j % h instead of head j // d",
        "head i owns the contiguous features i*d:(i+1)*d: reshape to (..., n, h, d), not (..., n, d, h)",
        _split_interleaved,
    ),
)


def _merge_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case(f"x of shape {shape}, {np.dtype(dtype)}", (_normal(rng, shape, dtype),))
        for shape, dtype in [
            ((2, 5, 3), F64),
            ((2, 3, 4, 2), F32),
            ((1, 4, 6), F64),
            ((2, 2, 3, 5, 4), F64),
        ]
    ]


def _merge_no_transpose(x):
    *batch, h, n, d = x.shape
    return np.reshape(x, (*batch, n, h * d))


def _merge_interleaved(x):
    *batch, h, n, d = x.shape
    return np.reshape(np.moveaxis(x, -3, -1), (*batch, n, h * d))  # (..., n, d, h) -> flat


_MERGE_MISTAKES = (
    Mistake(
        "reshape_without_transpose",
        "a reshape straight to (..., n, h*d) without a transpose, which mixes tokens",
        "swap the h and n axes first (np.swapaxes(x, -3, -2)), then reshape to (..., n, h*d)",
        _merge_no_transpose,
    ),
    Mistake(
        "heads_interleaved",
        "heads in the wrong order: features interleaved (d, h) instead of head after head",
        "Concat puts head 0's d features first, then head 1's: the order must be (..., n, h, d)",
        _merge_interleaved,
    ),
    Mistake(
        "concat_on_sequence_axis",
        "heads concatenated along the sequence axis, giving (..., h*n, d)",
        "Concat joins the heads' features: the result is (..., n, h*d)",
        lambda x: np.reshape(x, (*x.shape[:-3], x.shape[-3] * x.shape[-2], x.shape[-1])),
    ),
    Mistake(
        "heads_summed",
        "heads added up instead of concatenated",
        "Concat keeps every head's d features side by side: (..., n, h*d)",
        lambda x: np.sum(x, axis=-3),
    ),
)


# --- ch04: multi-head attention -----------------------------------------------------------


def _random_params(rng, d_model: int, h: int, dtype: Any, bias: bool) -> mha.MHAParams:
    scale = 1.0 / math.sqrt(d_model)
    weights = [_normal(rng, (d_model, d_model), dtype, scale) for _ in range(4)]
    biases = [_normal(rng, (d_model,), dtype, 0.5) if bias else None for _ in range(4)]
    return mha.MHAParams(*weights, h, *biases)


def _mha_cases(rng: np.random.Generator) -> list[Case]:
    def case(text, batch, n_q, n_k, d_model, h, dtype, bias=False, mask=None):
        q = _normal(rng, (*batch, n_q, d_model), dtype)
        kv = _normal(rng, (*batch, n_k, d_model), dtype)
        v = _normal(rng, (*batch, n_k, d_model), dtype)
        params = _random_params(rng, d_model, h, dtype, bias)
        args = (q, kv, v, params) if mask is None else (q, kv, v, params, mask)
        return Case(text, args)

    return [
        case("d_model=8, h=2, n_q = n_k = 4, float64", (), 4, 4, 8, 2, F64),
        case(
            "batch (2,), d_model=8, h=2, n = 5, with mha.causal_mask(5)",
            (2,), 5, 5, 8, 2, F64, mask=mha.causal_mask(5),
        ),
        case("batch (2,), d_model=12, h=3, n_q=3, n_k=5, float32", (2,), 3, 5, 12, 3, F32),
        case("batch (2, 2), d_model=6, h=1, with biases", (2, 2), 3, 4, 6, 1, F64, bias=True),
        case("batch (2,), d_model=8, h=4, with biases", (2,), 5, 3, 8, 4, F64, bias=True),
        case(
            "batch (2,), d_model=8, h=2, n_q=4, n_k=6, with a (4, 6) mask",
            (2,), 4, 6, 8, 2, F64, mask=_random_mask(rng, (4, 6)),
        ),
        case(
            "batch (3,), d_model=12, h=3, with a (3, 1, 1, 5) padding-style mask",
            (3,), 2, 5, 12, 3, F32, mask=_random_mask(rng, (3, 1, 1, 5)),
        ),
    ]  # fmt: skip


def _mha_variant(
    *,
    split: Callable = mha.split_heads,
    merge: Callable = mha.merge_heads,
    divisor: Callable[[mha.MHAParams], float] = lambda p: math.sqrt(p.d_k),
    value_weight: str = "w_v",
    output_projection: bool = True,
    biases: bool = True,
    mask_mode: str = "before",
) -> Callable:
    """Multi-head attention with one thing changed; the defaults give the right answer."""

    def attention(q, k, v, params, mask=None):
        def project(x, w, b):
            return x @ w + b if biases and b is not None else x @ w

        h = params.num_heads
        q_heads = split(project(q, params.w_q, params.b_q), h)  # (..., h, n_q, d_k)
        k_heads = split(project(k, params.w_k, params.b_k), h)  # (..., h, n_k, d_k)
        v_heads = split(project(v, getattr(params, value_weight), params.b_v), h)
        scores = q_heads @ _swap_last(k_heads) / divisor(params)  # (..., h, n_q, n_k)
        if mask is not None and mask_mode == "before":
            scores = np.where(mask, scores, -np.inf)
        weights = mha.softmax(scores, axis=-1)
        concat = merge(weights @ v_heads)  # (..., n_q, h*d_v)
        return (project(concat, params.w_o, params.b_o) if output_projection else concat), weights

    return attention


_MHA_MISTAKES = (
    Mistake(
        "no_output_projection",
        "Concat(heads) returned without the output projection W^O",
        "multiply the concatenated heads by params.w_o (and add params.b_o if it is not None)",
        _mha_variant(output_projection=False),
    ),
    Mistake(
        "w_k_for_values",
        "the values projected with W^K instead of W^V",
        "V_i = V W_i^V: use params.w_v (and params.b_v) for the values",
        _mha_variant(value_weight="w_k"),
    ),
    Mistake(
        "reshape_without_transpose",
        "heads split (and merged) by a reshape without a transpose, which mixes tokens",
        "split with reshape to (..., n, h, d) and a swap of the n and h axes (mha.split_heads)",
        _mha_variant(split=_split_no_transpose, merge=_merge_no_transpose),
    ),
    Mistake(
        "heads_interleaved",
        "heads in the wrong order: feature j went to head j % h instead of head j // d",
        "head i owns the contiguous columns i*d_k:(i+1)*d_k of each projection",
        _mha_variant(split=_split_interleaved, merge=_merge_interleaved),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide each head's scores by math.sqrt(d_k), with d_k = d_model / h",
        _mha_variant(divisor=lambda p: 1.0),
    ),
    Mistake(
        "scale_by_d_model",
        "scores divided by sqrt(d_model) instead of sqrt(d_k)",
        "each head works in d_k = d_model / h dimensions: divide by math.sqrt(d_k)",
        _mha_variant(divisor=lambda p: math.sqrt(p.d_model)),
    ),
    Mistake(
        "scale_by_d_k",
        "scores divided by d_k instead of sqrt(d_k)",
        "divide by math.sqrt(d_k), the standard deviation of a d_k-term dot product",
        _mha_variant(divisor=lambda p: p.d_k),
    ),
    Mistake(
        "biases_ignored",
        "the biases b_q, b_k, b_v, b_o ignored",
        "when params.b_q (etc.) is not None, add it after the matching product",
        _mha_variant(biases=False),
    ),
    Mistake(
        "mask_ignored",
        "the mask argument ignored",
        "pass the mask on to the attention of every head (it broadcasts over the heads axis)",
        _mha_variant(mask_mode="ignored"),
    ),
)


# --- ch05: masks --------------------------------------------------------------------------


def _causal_cases(rng: np.random.Generator) -> list[Case]:
    sizes = [(4,), (5, 5), (3, 5), (1, 6), (5, 3)]
    return [Case(f"causal_mask({', '.join(map(str, s))})", tuple(int(n) for n in s)) for s in sizes]


def _causal_variant(relation: Callable[[np.ndarray, np.ndarray], np.ndarray], *, align=True):
    def causal_mask(n_q, n_k=None):
        n_k = n_q if n_k is None else n_k
        rows = np.arange(n_q)[:, None] + (n_k - n_q if align else 0)
        return relation(np.arange(n_k)[None, :], rows)

    return causal_mask


_CAUSAL_MISTAKES = (
    Mistake(
        "inverted",
        "an inverted mask (True on the future keys)",
        "True means 'may attend': key j is allowed when it is not in the future",
        _causal_variant(lambda cols, rows: cols > rows),
    ),
    Mistake(
        "excludes_diagonal",
        "a mask that hides the diagonal (a token may not attend itself)",
        "use <=, not <: each token may attend its own position",
        _causal_variant(lambda cols, rows: cols < rows),
    ),
    Mistake(
        "upper_triangular",
        "the upper triangle (np.triu) instead of the lower one",
        "query i may attend keys 0..i: the lower triangle, np.tril",
        _causal_variant(lambda cols, rows: cols >= rows),
    ),
    Mistake(
        "top_left_aligned",
        "a mask aligned top-left (np.tril(ones((n_q, n_k)))) when n_q != n_k",
        "the queries are the last n_q positions: query i sits at position i + n_k - n_q",
        _causal_variant(lambda cols, rows: cols <= rows, align=False),
    ),
    Mistake(
        "ignores_n_k",
        "a square (n_q, n_q) mask that ignores n_k",
        "the mask has one column per key: shape (n_q, n_k), with n_k defaulting to n_q",
        lambda n_q, n_k=None: np.tril(np.ones((n_q, n_q), dtype=bool)),
    ),
)


def _padding_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case("padding_mask([3, 5, 1], 5)", ([3, 5, 1], 5)),
        Case("padding_mask(np.array([0, 2]), 4)", (np.array([0, 2]), 4)),
        Case("padding_mask([4], 4)", ([4], 4)),
        Case("padding_mask(np.array([2, 6, 3], dtype=np.int32), 7)", (np.array([2, 6, 3], dtype=np.int32), 7)),
    ]  # fmt: skip


def _padding_variant(relation: Callable, layout: str = "keys") -> Callable:
    def padding_mask(lengths, n_k):
        lengths = np.asarray(lengths)[:, None]
        mask = relation(np.arange(n_k)[None, :], lengths)  # (B, n_k)
        if layout == "keys":
            return mask[:, None, None, :]
        return mask[:, None, :, None] if layout == "queries" else mask

    return padding_mask


_PADDING_MISTAKES = (
    Mistake(
        "inverted",
        "an inverted mask (True on the padding)",
        "True means 'may attend': the real keys j < lengths[b] are True",
        _padding_variant(lambda j, length: j >= length),
    ),
    Mistake(
        "off_by_one_includes_pad",
        "off by one: key j = lengths[b] (the first pad) is allowed",
        "positions 0..length-1 are real: use j < length, not j <= length",
        _padding_variant(lambda j, length: j <= length),
    ),
    Mistake(
        "off_by_one_drops_last",
        "off by one: the last real key (j = lengths[b] - 1) is hidden",
        "positions 0..length-1 are real: use j < length",
        _padding_variant(lambda j, length: j < length - 1),
    ),
    Mistake(
        "on_queries",
        "the padding applied to the queries axis, (B, 1, n_k, 1), instead of the keys",
        "padding hides keys: the mask varies along the last axis, shape (B, 1, 1, n_k)",
        _padding_variant(lambda j, length: j < length, layout="queries"),
    ),
    Mistake(
        "missing_singleton_axes",
        "a (B, n_k) mask without the heads and queries axes",
        "reshape to (B, 1, 1, n_k) so it broadcasts over (B, h, n_q, n_k); a (B, n_k) mask "
        "would line B up with n_q",
        _padding_variant(lambda j, length: j < length, layout="flat"),
    ),
)


# --- ch06: the PyTorch variant ------------------------------------------------------------


def _module_forward_cases(rng: np.random.Generator) -> list[Case]:
    import torch

    from mha.torch_mha import MultiHeadAttention

    def case(text, batch, n_q, n_k, d_model, h, dtype, bias=False, mask=None, d_k=None):
        d_k = d_k or d_model // h
        params = mha.init_params(d_model, h, d_k=d_k, d_v=d_k + 1, bias=bias, dtype=dtype)
        params = params.map(lambda a: _normal(rng, a.shape, dtype, 0.5))  # biases non-zero
        module = MultiHeadAttention.from_params(params)
        q, k, v = (
            torch.from_numpy(_normal(rng, (*batch, n, d_model), dtype)) for n in (n_q, n_k, n_k)
        )
        args = (module, q, k, v) if mask is None else (module, q, k, v, torch.from_numpy(mask))
        return Case(text, args)

    return [
        case("d_model=8, h=2, n_q = n_k = 4, float64", (), 4, 4, 8, 2, F64),
        case("batch (2,), d_model=12, h=3, n_q=3, n_k=5, with biases", (2,), 3, 5, 12, 3, F64, bias=True),
        case(
            "batch (2,), d_model=8, h=2, n = 5, with mha.causal_mask(5)",
            (2,), 5, 5, 8, 2, F64, mask=mha.causal_mask(5),
        ),
        case(
            "batch (3,), d_model=12, h=3, with a (3, 1, 1, 5) padding-style mask, float32",
            (3,), 2, 5, 12, 3, F32, mask=_random_mask(rng, (3, 1, 1, 5)),
        ),
        case("batch (2,), d_model=8, h=2, d_k=3, d_v=4 (not d_model / h)", (2,), 4, 6, 8, 2, F64, d_k=3),
    ]  # fmt: skip


def _reference_module_forward(module, q, k, v, mask=None):
    """``MultiHeadAttention.forward`` returning the weights: what the exercise asks for."""
    return module(q, k, v, mask, need_weights=True)


def _module_forward_variant(
    *,
    layout: str = "paper",
    divide: bool = True,
    polarity: str = "may_attend",
    transpose: bool = True,
    output_projection: bool = True,
) -> Callable:
    """The module's forward pass with one thing changed; the defaults give the right answer."""

    def forward(module, q, k, v, mask=None):
        import torch

        def project(x, w, b):
            y = x @ (w.T if layout == "linear" else w)
            return y if b is None else y + b

        def split(x):  # (..., n, h*d) -> (..., h, n, d)
            *batch, n, features = x.shape
            d = features // module.num_heads
            if transpose:
                return x.reshape(*batch, n, module.num_heads, d).transpose(-3, -2)
            return x.reshape(*batch, module.num_heads, n, d)

        q_heads = split(project(q, module.w_q, module.b_q))
        k_heads = split(project(k, module.w_k, module.b_k))
        v_heads = split(project(v, module.w_v, module.b_v))
        scores = q_heads @ k_heads.transpose(-2, -1)
        if divide:
            scores = scores / math.sqrt(module.d_k)
        if mask is not None:
            hidden = ~mask if polarity == "may_attend" else mask
            scores = scores.masked_fill(hidden, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        heads = weights @ v_heads  # (..., h, n_q, d_v)
        *batch, h, n_q, d_v = heads.shape
        if transpose:
            concat = heads.transpose(-3, -2).reshape(*batch, n_q, h * d_v)
        else:
            concat = heads.reshape(*batch, n_q, h * d_v)
        if not output_projection:
            return concat, weights
        return project(concat, module.w_o, module.b_o), weights

    return forward


_MODULE_FORWARD_MISTAKES = (
    Mistake(
        "linear_layout",
        "the weights used as nn.Linear stores them, x @ W.T, instead of the paper's x @ W",
        "this module keeps the paper's layout: w_q is (d_model, h*d_k), so compute q @ module.w_q",
        _module_forward_variant(layout="linear"),
    ),
    Mistake(
        "no_scaling",
        "scores not divided by sqrt(d_k)",
        "divide the scores by math.sqrt(module.d_k)",
        _module_forward_variant(divide=False),
    ),
    Mistake(
        "mask_polarity",
        "the mask read as nn.MultiheadAttention reads it (True = may not attend)",
        "in this book True means may attend: fill the scores with -inf where the mask is False (~mask)",
        _module_forward_variant(polarity="hidden"),
    ),
    Mistake(
        "reshape_without_transpose",
        "heads split (and merged) by a reshape without a transpose, which mixes tokens",
        "reshape to (..., n, h, d) and swap the n and h axes (.transpose(-3, -2)), and back",
        _module_forward_variant(transpose=False),
    ),
    Mistake(
        "no_output_projection",
        "Concat(heads) returned without the output projection W^O",
        "finish with concat @ module.w_o (plus module.b_o when it is not None)",
        _module_forward_variant(output_projection=False),
    ),
)


# --- ch09: efficient attention ------------------------------------------------------------


def _repeat_kv_cases(rng: np.random.Generator) -> list[Case]:
    return [
        Case("k (2, 2, 5, 4) with num_heads=6", (_normal(rng, (2, 2, 5, 4), F64), 6)),
        Case("k (3, 4, 6) (no batch axes) with num_heads=9", (_normal(rng, (3, 4, 6), F64), 9)),
        Case("k (2, 3, 4, 3, 5), float32, with num_heads=8", (_normal(rng, (2, 3, 4, 3, 5), F32), 8)),
        Case("k (2, 1, 5, 4) (multi-query) with num_heads=4", (_normal(rng, (2, 1, 5, 4), F64), 4)),
        Case("k (1, 4, 3, 2) with num_heads=4 (as many as g)", (_normal(rng, (1, 4, 3, 2), F64), 4)),
    ]  # fmt: skip


def _reference_repeat_kv_heads(k, num_heads):
    """(..., g, n, d) -> (..., h, n, d): head i is key/value head i // (h/g)."""
    return np.repeat(k, num_heads // k.shape[-3], axis=-3)


_REPEAT_KV_MISTAKES = (
    Mistake(
        "tiled",
        "the key/value heads tiled (head i gets key/value head i % g) instead of repeated",
        "query head i belongs to group i // (h/g): repeat each key/value head h/g times in a "
        "row, not the whole set of g heads h/g times over",
        lambda k, num_heads: np.concatenate([k] * (num_heads // k.shape[-3]), axis=-3),
    ),
    Mistake(
        "sequence_axis",
        "the heads repeated along the sequence axis",
        "in (..., g, n, d) the heads axis is -3; the sequence axis (-2) must keep its n tokens",
        lambda k, num_heads: np.repeat(k, num_heads // k.shape[-3], axis=-2),
    ),
    Mistake(
        "repeated_h_times",
        "each key/value head repeated h times (g*h heads in all)",
        "each key/value head serves h/g query heads: repeat it num_heads // g times",
        lambda k, num_heads: np.repeat(k, num_heads, axis=-3),
    ),
)


# --- ch08: heads in practice --------------------------------------------------------------


def _head_similarity_cases(rng: np.random.Generator) -> list[Case]:
    pruned = _normal(rng, (2, 4, 3, 5), F64)
    pruned[:, 2] = 0.0  # head 2 removed
    maps = rng.random((3, 4, 6, 6))
    return [
        Case("per_head of shape (3, 4, 5): 3 heads, no batch axes", (_normal(rng, (3, 4, 5), F64),)),
        Case("per_head of shape (2, 4, 3, 6): batch 2, 4 heads", (_normal(rng, (2, 4, 3, 6), F64),)),
        Case("attention-like maps (3, 4, 6, 6) with rows summing to 1", (maps / maps.sum(-1, keepdims=True),)),
        Case("per_head (2, 4, 3, 5) whose head 2 is all zeros (pruned)", (pruned,)),
        Case("per_head of shape (2, 3, 2, 4, 5), float32", (_normal(rng, (2, 3, 2, 4, 5), F32),)),
    ]  # fmt: skip


def _reference_head_similarity(per_head):
    """(..., h, n, f) -> (h, h) cosine similarities: mha.analysis.head_similarity, for NumPy."""
    import torch

    from mha.analysis import head_similarity

    return head_similarity(torch.from_numpy(np.asarray(per_head))).numpy()


def _head_similarity_variant(
    *, move_heads: bool = True, normalise: bool = True, guard: bool = True
):
    """Head similarity with one thing changed; the defaults give the right answer."""

    def head_similarity(per_head):
        h = per_head.shape[-3]
        vectors = (np.moveaxis(per_head, -3, 0) if move_heads else per_head).reshape(h, -1)
        if normalise:
            norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                vectors = vectors / (np.maximum(norms, 1e-12) if guard else norms)
        return vectors @ vectors.T

    return head_similarity


_HEAD_SIMILARITY_MISTAKES = (
    Mistake(
        "not_normalised",
        "dot products without dividing by the heads' norms",
        "cosine similarity divides each dot product by the two vectors' lengths, so that "
        "identical patterns score 1 whatever their scale",
        _head_similarity_variant(normalise=False),
    ),
    Mistake(
        "heads_axis_not_moved",
        "reshape to (h, -1) without first moving the heads axis to the front",
        "with batch axes in front, per_head.reshape(h, -1) mixes heads and batch elements: "
        "np.moveaxis(per_head, -3, 0) first",
        _head_similarity_variant(move_heads=False),
    ),
    Mistake(
        "zero_head_nan",
        "division by a zero norm for an all-zero (pruned) head, giving NaN",
        "a pruned head has norm 0: divide by np.maximum(norm, 1e-12) so its similarities are 0",
        _head_similarity_variant(guard=False),
    ),
)


def _attention_without_head_cases(rng: np.random.Generator) -> list[Case]:
    def case(text, batch, n, d_model, h, head, dtype, *, bias=False, d_k=None, d_v=None):
        params = mha.init_params(d_model, h, d_k=d_k, d_v=d_v, bias=bias, dtype=dtype,
                                 seed=int(rng.integers(1000)))  # fmt: skip
        for name in ("b_q", "b_k", "b_v", "b_o") if bias else ():
            setattr(params, name, _normal(rng, getattr(params, name).shape, dtype, 0.5))
        return Case(text, (_normal(rng, (*batch, n, d_model), dtype), params, head))

    return [
        case("d_model=8, h=2, head=0, n=4", (), 4, 8, 2, 0, F64),
        case("batch (2,), d_model=12, h=3, head=2 (the last), float32", (2,), 5, 12, 3, 2, F32),
        case("batch (2,), d_model=8, h=4, head=1, with biases", (2,), 3, 8, 4, 1, F64, bias=True),
        case("d_model=8, h=2, head=1, d_k=3, d_v=2", (), 4, 8, 2, 1, F64, d_k=3, d_v=2),
        case("batch (2, 2), d_model=6, h=3, head=1, with biases", (2, 2), 3, 6, 3, 1, F64, bias=True),
    ]  # fmt: skip


def _attention_without_head_variant(change: str | None = None):
    """Self-attention with one head removed, in one of several ways; None is the right one."""

    def attention_without_head(x, params, head):
        arrays = {name: getattr(params, name) for name in mha.MHAParams._array_names()}
        arrays = {name: None if a is None else a.copy() for name, a in arrays.items()}
        d_k, d_v = params.d_k, params.d_v
        qk, v_cols = slice(head * d_k, (head + 1) * d_k), slice(head * d_v, (head + 1) * d_v)
        if change is None:
            arrays["w_o"][v_cols] = 0.0  # head i's rows of W^O
        elif change == "queries_zeroed":
            arrays["w_q"][:, qk] = 0.0
            if arrays["b_q"] is not None:
                arrays["b_q"][qk] = 0.0
        elif change == "columns_of_w_o":
            arrays["w_o"][:, v_cols] = 0.0
        elif change == "value_bias_left":
            arrays["w_v"][:, v_cols] = 0.0
        elif change == "d_k_rows":
            arrays["w_o"][qk] = 0.0
        pruned = mha.MHAParams(num_heads=params.num_heads, **arrays)
        return mha.multi_head_attention(x, x, x, pruned)[0]

    return attention_without_head


_ATTENTION_WITHOUT_HEAD_MISTAKES = (
    Mistake(
        "queries_zeroed",
        "the head's query columns of W^Q zeroed: its scores are all 0, its attention uniform",
        "a head with zero queries still attends (evenly) and adds the mean of its values; "
        "remove its *output*: zero its rows of W^O",
        _attention_without_head_variant("queries_zeroed"),
    ),
    Mistake(
        "columns_of_w_o",
        "columns of W^O zeroed instead of rows",
        "W^O is (h*d_v, d_model): head i's output meets rows i*d_v:(i+1)*d_v; its columns are "
        "output features",
        _attention_without_head_variant("columns_of_w_o"),
    ),
    Mistake(
        "value_bias_left",
        "the head's value columns of W^V zeroed, but not its value bias b_v",
        "with a value bias, a head whose W^V columns are 0 still outputs b_v; zero its rows "
        "of W^O instead (or its b_v slice too)",
        _attention_without_head_variant("value_bias_left"),
    ),
    Mistake(
        "d_k_rows",
        "rows of W^O sliced with d_k instead of d_v",
        "W^O's rows come in blocks of d_v (the value size), which can differ from d_k",
        _attention_without_head_variant("d_k_rows"),
    ),
)


# --- the registry -------------------------------------------------------------------------

EXERCISES: dict[str, FunctionExercise | NumberExercise | ShapeExercise] = {
    "softmax": FunctionExercise(1, mha.softmax, _softmax_cases, _SOFTMAX_MISTAKES),
    "scaled_dot_product_attention": FunctionExercise(
        1, mha.scaled_dot_product_attention, _sdpa_cases, _SDPA_MISTAKES, ("out", "weights")
    ),
    "score_std": NumberExercise(
        1,
        16.0,
        (
            WrongValue(256, "variance", "256 is the variance d_k; the standard deviation is its square root"),
            WrongValue(1, "after_scaling", "1 is the std *after* dividing by sqrt(d_k); the question asks before"),
            WrongValue(0, "mean", "0 is the mean; the question asks for the standard deviation"),
        ),
        rel_tol=0.03,
    ),
    "head_weight": FunctionExercise(2, _reference_head_weight, _head_weight_cases, _HEAD_WEIGHT_MISTAKES),
    "projection_parameter_count": NumberExercise(
        2,
        3 * 512 * 512,
        (
            WrongValue(512 * 512, "one_matrix", "that is one matrix; W^Q, W^K and W^V make three"),
            WrongValue(3 * 512 * 64, "one_head", "that is one head; the h heads together have h*d_k = 512 columns"),
            WrongValue(4 * 512 * 512, "with_w_o", "W^O is not an input projection; count W^Q, W^K, W^V"),
            WrongValue(3 * 512 * 512 + 3 * 512, "with_biases", "the question asks for the weights without biases"),
        ),
    ),
    "split_heads": FunctionExercise(3, mha.split_heads, _split_cases, _SPLIT_MISTAKES),
    "merge_heads": FunctionExercise(3, mha.merge_heads, _merge_cases, _MERGE_MISTAKES),
    "split_heads_shape": ShapeExercise(
        3,
        (2, 12, 10, 64),
        (
            WrongValue((2, 10, 12, 64), "heads_after_sequence", "that is the shape before the transpose: the heads axis goes before the sequence axis"),
            WrongValue((12, 2, 10, 64), "heads_before_batch", "batch dimensions stay in front: (batch, h, n, d)"),
            WrongValue((2, 12, 10, 768), "d_not_divided", "each head gets d = 768 / 12 features"),
        ),
    ),
    "multi_head_attention": FunctionExercise(
        4, mha.multi_head_attention, _mha_cases, _MHA_MISTAKES, ("out", "weights")
    ),
    "mha_parameter_count": NumberExercise(
        4,
        4 * 512 * 512 + 4 * 512,
        (
            WrongValue(4 * 512 * 512, "no_biases", "the question counts all four biases too"),
            WrongValue(3 * 512 * 512 + 3 * 512, "no_w_o", "W^O (and b_o) are parameters too"),
            WrongValue(4 * 512 * 512 + 512, "one_bias", "each of the four projections has its own bias"),
        ),
    ),
    "causal_mask": FunctionExercise(5, mha.causal_mask, _causal_cases, _CAUSAL_MISTAKES),
    "padding_mask": FunctionExercise(5, mha.padding_mask, _padding_cases, _PADDING_MISTAKES),
    "cross_attention_weights_shape": ShapeExercise(
        5,
        (2, 4, 7, 11),
        (
            WrongValue((2, 4, 11, 7), "keys_by_queries", "rows are queries, columns are keys: (..., h, n_q, n_k)"),
            WrongValue((2, 7, 11), "no_heads_axis", "mha.multi_head_attention returns one weight matrix per head: (..., h, n_q, n_k)"),
            WrongValue((2, 4, 7, 7), "square", "cross-attention has n_q = 7 queries but n_k = 11 keys"),
            WrongValue((2, 4, 11, 11), "square", "cross-attention has n_q = 7 queries but n_k = 11 keys"),
        ),
    ),
    "module_forward": FunctionExercise(
        6, _reference_module_forward, _module_forward_cases, _MODULE_FORWARD_MISTAKES, ("out", "weights"), tensors=True
    ),
    "attention_weights_bytes": NumberExercise(
        7,
        4 * 16 * 8192 * 8192 * 2,
        (
            WrongValue(4 * 16 * 8192 * 8192 * 4, "float32", "float16 takes 2 bytes per number, not 4"),
            WrongValue(4 * 8192 * 8192 * 2, "one_head", "every one of the 16 heads has its own (n, n) weights"),
            WrongValue(16 * 8192 * 8192 * 2, "one_sequence", "each of the 4 sequences in the batch has its own weights"),
            WrongValue(4 * 16 * 8192 * 2, "linear_in_n", "each head holds n x n weights: every query has one per key"),
        ),
    ),
    "head_similarity": FunctionExercise(8, _reference_head_similarity, _head_similarity_cases, _HEAD_SIMILARITY_MISTAKES),
    "attention_without_head": FunctionExercise(
        8, _attention_without_head_variant(), _attention_without_head_cases, _ATTENTION_WITHOUT_HEAD_MISTAKES
    ),
    "repeat_kv_heads": FunctionExercise(9, _reference_repeat_kv_heads, _repeat_kv_cases, _REPEAT_KV_MISTAKES),
    "gqa_kv_cache_bytes": NumberExercise(
        9,
        2 * 32 * 8 * 4096 * 8 * 128 * 2,
        (
            WrongValue(32 * 8 * 4096 * 8 * 128 * 2, "keys_only", "the cache holds the keys *and* the values: a factor 2"),
            WrongValue(2 * 32 * 8 * 4096 * 32 * 128 * 2, "query_heads", "the cache holds the g = 8 key/value heads, not the 32 query heads"),
            WrongValue(2 * 8 * 4096 * 8 * 128 * 2, "one_layer", "every layer has its own cache: multiply by the 32 layers"),
            WrongValue(2 * 32 * 4096 * 8 * 128 * 2, "one_sequence", "each of the 8 sequences in the batch has its own cache"),
        ),
    ),
    "head_parallel_all_reduce_bytes": NumberExercise(
        9,
        8 * 2048 * 4096 * 2,
        (
            WrongValue(8 * 2048 * 4096 * 2 // 4, "split_output", "a partial output is a whole (B, n, d_model) array: the heads are split across devices, the output features are not"),
            WrongValue(8 * 2048 * 4096, "numbers_not_bytes", "that counts numbers; bfloat16 takes 2 bytes each"),
            WrongValue(8 * 2048 * 4096 * 4, "float32", "bfloat16 takes 2 bytes per number, not 4"),
            WrongValue(4 * 8 * 2048 * 4096 * 2, "all_devices", "that is the 4 devices together; the question asks for one device's partial output"),
        ),
    ),
}  # fmt: skip
