"""What every check shares: the result, test inputs, running an answer, comparing results with
the reference's, and the time limit."""

from __future__ import annotations

import html
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


# --- test inputs --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One test input: positional arguments for the answer and a description for messages."""

    description: str
    args: tuple


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
    """Run ``work()``; raise ``_TimeUp`` after ``seconds`` (see the docstring of ``mha.checks``)."""
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
