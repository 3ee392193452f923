"""What every check shares: results, test inputs (cases), running an answer on one case (the
step a grader runs in the student's kernel), wire-safe values, and the time limit.

A check is three steps (see the docstring of :mod:`mha.checks`):

1. ``exercise.trials(rng) -> list[Case]``: every input the answer will be called on;
2. :func:`run_answer` ``(exercise, answer, case) -> Outcome``: one call, recorded as plain data;
3. ``exercise.judge(cases, outcomes) -> Verdict``: the comparison with the reference and the
   diagnosis, in the trusted process.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import os
import pickle
import select
import signal
import sys
import threading
import time
import tracemalloc
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

import mha
from mha.efficient import GQAParams

PASSED, FAILED, NOT_ATTEMPTED = "passed", "failed", "not attempted"
DEFAULT_TIME_LIMIT = 10.0
MEASUREMENTS = ("peak_bytes", "second_call")  # what run_answer can measure during a call


# --- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check: what happened, in words, and the recognised mistake.

    ``note`` is advice on a passing answer (e.g. a float32 input gave a float64 result).
    """

    name: str
    status: str
    feedback: str
    diagnosis: str | None = None
    hint: str | None = None
    seed: int | None = None
    note: str | None = None

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
        if self.note:
            lines.append(f"Note: {self.note}")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colours = {PASSED: "#1e7e34", FAILED: "#c0392b", NOT_ATTEMPTED: "#b9770e"}
        backgrounds = {PASSED: "#e8f5e9", FAILED: "#fdecea", NOT_ATTEMPTED: "#fff4e0"}
        hint = f"<br><b>Hint:</b> {html.escape(self.hint)}" if self.hint else ""
        note = f"<br><b>Note:</b> {html.escape(self.note)}" if self.note else ""
        return (
            f'<div style="border-left:6px solid {colours[self.status]};'
            f"background:{backgrounds[self.status]};color:#222;padding:6px 10px;"
            f'margin:4px 0;font-family:sans-serif">'
            f"<b>{html.escape(self.name)}: {html.escape(self.status)}</b><br>"
            f"{html.escape(self.feedback)}{hint}{note}</div>"
        )


@dataclass(frozen=True)
class Verdict:
    """What ``exercise.judge`` decides: a :class:`CheckResult` without the name and seed."""

    status: str
    feedback: str
    diagnosis: str | None = None
    hint: str | None = None
    note: str | None = None

    def result(self, name: str, seed: int | None = None) -> CheckResult:
        return CheckResult(
            name, self.status, self.feedback, self.diagnosis, self.hint, seed, self.note
        )


class TimeUp(BaseException):
    """Raised by the alarm inside the answer (a BaseException, so `except Exception` lets it by)."""


# --- test inputs --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One test input: positional arguments for the answer and a description for messages.

    ``args`` hold only wire-safe values (see :func:`is_wire_safe`). A *probe* is a case made
    from another one (``probe_of``: that case's description) with one thing changed
    (``probe``, e.g. ``"masked_values"``), so that the judge can compare the answer's two
    results; it is also an ordinary case, on which the answer must be right.
    """

    description: str
    args: tuple
    probe_of: str | None = None
    probe: str = ""


# --- wire-safe values ---------------------------------------------------------------------

PARAM_TYPES = (mha.MHAParams, GQAParams)
_SCALARS = (bool, int, float, str, type(None))
_MAX_ITEMS = 100_000  # leaves of a returned list/tuple kept before it counts as Foreign


@dataclass(frozen=True)
class Foreign:
    """A returned value (or part of one) that is not wire-safe: its type and a short repr."""

    type_name: str
    text: str


def is_wire_safe(x: Any) -> bool:
    """True for what may cross the boundary between a grader and a student's kernel.

    Arguments (``Case.args``): NumPy arrays of a numeric or bool dtype; Python ``int``,
    ``float``, ``bool``, ``str`` and ``None``; tuples and lists of these; ``mha.MHAParams``
    and ``mha.efficient.GQAParams`` (containers of arrays). Outcomes may also hold
    :class:`Foreign` markers and 0-d arrays in place of NumPy scalars.
    """
    if isinstance(x, _SCALARS) or type(x) is Foreign:
        return True
    if type(x) is np.ndarray:
        return x.dtype.kind in "biufc"
    if type(x) in (tuple, list):
        return all(is_wire_safe(item) for item in x)
    if type(x) in PARAM_TYPES:
        return all(
            is_wire_safe(getattr(x, f.name)) for f in dataclasses.fields(x) if f.name != "num_heads"
        )
    return False


def copy_argument(x: Any) -> Any:
    """A fresh copy of a wire-safe argument (arrays copied, containers rebuilt)."""
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, tuple | list):
        return type(x)(copy_argument(item) for item in x)
    if isinstance(x, PARAM_TYPES):
        return dataclasses.replace(
            x,
            **{
                f.name: copy_argument(getattr(x, f.name))
                for f in dataclasses.fields(x)
                if isinstance(getattr(x, f.name), np.ndarray)
            },
        )
    return x


def _arrays_of(label: str, x: Any) -> list[tuple[str, np.ndarray]]:
    """(label, array) for every array in an argument, e.g. ("params.w_q", ...)."""
    if isinstance(x, np.ndarray):
        return [(label, x)]
    if isinstance(x, tuple | list):
        return [pair for i, item in enumerate(x) for pair in _arrays_of(f"{label}[{i}]", item)]
    if isinstance(x, PARAM_TYPES):
        return [
            (f"{label}.{f.name}", getattr(x, f.name))
            for f in dataclasses.fields(x)
            if isinstance(getattr(x, f.name), np.ndarray)
        ]
    return []


def real_number(value: Any) -> float | None:
    """``value`` as a float where it is a real number (an int, a float or a 0-d integer or float
    array; a bool is not), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        return float(value)
    return None


def short(value: Any, limit: int = 60) -> str:
    """``value`` (a string, or its repr) cut to ``limit`` characters; a repr that raises is named."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = repr(value)
        except Exception as error:  # an answer's object may break its own repr
            text = f"<{type(value).__name__} whose repr raised {type(error).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _type_name(x: Any) -> str:
    kind = type(x)
    module = kind.__module__
    return (
        kind.__qualname__ if module == "builtins" else f"{module.split('.')[0]}.{kind.__qualname__}"
    )


def to_wire(value: Any, *, tensors: bool = False, _budget: list | None = None) -> Any:
    """``value`` as wire-safe data: arrays copied to plain ``np.ndarray``, NumPy scalars as
    0-d arrays, tuples/lists rebuilt, parameter containers rebuilt from arrays; anything else
    becomes a :class:`Foreign`.

    ``tensors``: the answer works in torch, so its arrays must be torch tensors: they become
    arrays (a bfloat16 tensor, which NumPy cannot hold, stays a :class:`Foreign` naming its
    dtype), and a NumPy array in their place becomes a :class:`Foreign`."""
    budget = [_MAX_ITEMS] if _budget is None else _budget
    budget[0] -= 1
    if budget[0] < 0:
        return Foreign(_type_name(value), "too large to record")
    kind = type(value)
    if isinstance(value, _SCALARS) and kind in _SCALARS:
        return value
    if issubclass(kind, np.generic):
        value = np.asarray(value)
        kind = np.ndarray
    if issubclass(kind, np.ndarray):
        if value.dtype.kind not in "biufc":
            return Foreign(f"numpy.ndarray of dtype {value.dtype}", short(value))
        if tensors and value.ndim > 0:
            return Foreign("numpy.ndarray", f"array of shape {value.shape}, {value.dtype}")
        return np.array(value, copy=True, subok=False)
    if issubclass(kind, tuple | list):
        container = tuple if issubclass(kind, tuple) else list
        return container(to_wire(item, tensors=tensors, _budget=budget) for item in value)
    if kind in PARAM_TYPES:
        try:
            return dataclasses.replace(
                value,
                **{
                    f.name: to_wire(getattr(value, f.name), _budget=budget)
                    for f in dataclasses.fields(value)
                    if f.name not in ("num_heads", "num_kv_heads")
                },
            )
        except (TypeError, ValueError) as error:
            return Foreign(_type_name(value), f"with arrays that are not NumPy arrays: {error}")
    if kind.__module__.split(".")[0] == "torch" and hasattr(value, "detach"):
        described = f"tensor of shape {tuple(value.shape)}, {value.dtype}"
        if not tensors or str(value.dtype) == "torch.bfloat16":
            return Foreign("torch.Tensor", described)
        return to_wire(value.detach().cpu().resolve_conj().numpy(), _budget=budget)
    return Foreign(_type_name(value), short(value))


# --- running an answer on one case --------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one call of the answer did, as plain data (the only thing a kernel sends back).

    value : what it returned, wire-safe (:func:`to_wire`); None if it raised
    error : (exception type name, message) if it raised
    mutated : the argument it changed in place (``"q"``, ``"params.w_q"``), if any
    measurements : what the exercise asks to measure during the call, e.g. ``peak_bytes``
        (the peak resident memory of the call, measured outside the answer: by ``check`` in a
        fresh child process sampled from this one, by the grader from the sandbox's control
        group)
    not_callable : for a function exercise whose answer is not a function, its type and a
        short repr (nothing was called)

    A stub answer (``...`` or ``None``) gives ``Outcome()``: it "returned None".
    """

    value: Any = None
    error: tuple[str, str] | None = None
    mutated: str | None = None
    measurements: Mapping[str, float] = field(default_factory=dict)
    not_callable: str | None = None


def _private_bytes(pid: int | str = "self") -> int:
    """Resident memory that is not shared with files (anonymous pages: what a process
    allocates), from /proc/PID/statm."""
    with open(f"/proc/{pid}/statm") as f:
        fields = f.read().split()
    return (int(fields[1]) - int(fields[2])) * os.sysconf("SC_PAGE_SIZE")


def _peak_traced(call: Callable[[], Outcome]) -> Outcome:
    """``call()`` with the peak of the memory Python traced meanwhile (where no child process
    can measure it: not Linux)."""
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    baseline = tracemalloc.get_traced_memory()[0]
    try:
        outcome = call()
        peak = tracemalloc.get_traced_memory()[1] - baseline
    finally:
        if not was_tracing:
            tracemalloc.stop()
    return dataclasses.replace(outcome, measurements={"peak_bytes": float(peak)})


def _high_water_private_bytes(pid: int) -> int:
    """A floor under the most private memory the process has held: the kernel's high-water
    mark of its resident memory (``VmHWM``, kept whether or not anyone was looking) less the
    file-backed and shared pages resident now, which are at least those resident at the peak."""
    sizes = {"VmHWM": 0, "RssFile": 0, "RssShmem": 0}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in sizes:
                sizes[name] = int(value.split()[0]) * 1024
    return sizes["VmHWM"] - sizes["RssFile"] - sizes["RssShmem"]


def _peak_in_child(call: Callable[[], Outcome]) -> Outcome:
    """``call()`` in a fresh child process, with the peak of the child's private resident
    memory above what it had when it started (on Linux; elsewhere :func:`_peak_traced`). Two
    floors under that peak, the larger kept: this process samples the child's private memory
    from /proc every 0.2 ms while it runs, and, once the child has reported and before it
    leaves, reads the kernel's high-water mark (:func:`_high_water_private_bytes`), which
    holds even when a busy machine let no sample run during the call. Files the child maps
    (libraries it runs) are not counted: a child maps them afresh, whatever the answer holds."""
    if not (sys.platform.startswith("linux") and hasattr(os, "fork")):
        return _peak_traced(call)
    read, write = os.pipe()
    go_read, go_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run the call, report, leave without running any clean-up
        os.close(read)
        os.close(go_write)
        try:
            os.read(go_read, 1)  # the parent has read where the child starts
            data = pickle.dumps(call())
        except BaseException as error:  # the answer's failure, reported like call_answer's
            data = pickle.dumps(Outcome(error=(type(error).__name__, short(str(error), 500))))
        try:
            with os.fdopen(write, "wb") as channel:
                channel.write(data)
            os.read(go_read, 1)  # the parent has read the high-water mark
        finally:
            os._exit(0)
    os.close(write)
    os.close(go_read)
    chunks = []
    try:
        baseline = peak = _private_bytes(pid)
        os.write(go_write, b"x")
        while True:
            ready, _, _ = select.select([read], [], [], 0.0002)
            with contextlib.suppress(OSError, ValueError, IndexError):  # gone meanwhile
                peak = max(peak, _private_bytes(pid))
            if ready:
                chunk = os.read(read, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        with contextlib.suppress(OSError, ValueError, IndexError):
            peak = max(peak, _high_water_private_bytes(pid))
        os.close(go_write)
        go_write = None
        os.waitpid(pid, 0)
    except BaseException:  # the time limit: the child goes too
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        raise
    finally:
        os.close(read)
        if go_write is not None:
            os.close(go_write)
    if not chunks:
        return Outcome(error=("SystemExit", "the answer ended its process"))
    outcome = pickle.loads(b"".join(chunks))  # from this process's own child
    return dataclasses.replace(outcome, measurements={"peak_bytes": float(peak - baseline)})


def call_answer(
    fn: Any,
    args: tuple,
    *,
    names: Sequence[str] = (),
    prepare: Callable[[tuple], tuple] | None = None,
    tensors: bool = False,
    measure: Sequence[str] = (),
) -> Outcome:
    """Call ``fn`` on fresh copies of ``args`` and record what happened (see :class:`Outcome`).

    ``prepare`` turns the copies into the answer's arguments (e.g. NumPy arrays into torch
    tensors); ``names`` label the arguments in the ``mutated`` field. With ``measure=
    ("peak_bytes",)`` the call runs in a fresh child process whose peak memory this process
    reads from the kernel; with ``measure=("second_call",)`` the answer is called once more on
    other numbers of the same shapes, and ``second_call`` is 1 when that changed the results
    of the first call (views of a buffer each call refills), else 0. The grader's sandbox
    makes the second call too, and measures the peak from outside.
    """
    unknown = set(measure) - set(MEASUREMENTS)
    if unknown:
        raise ValueError(f"cannot measure {sorted(unknown)}; run_answer measures {MEASUREMENTS}")
    if fn is None or fn is Ellipsis:
        return Outcome()
    if not callable(fn):
        return Outcome(not_callable=f"{_type_name(fn)} {short(fn)}")
    copies = tuple(copy_argument(a) for a in args)
    labels = [names[i] if i < len(names) else f"argument {i}" for i in range(len(copies))]
    before = [
        (name, a.copy())
        for label, arg in zip(labels, copies, strict=True)
        for name, a in _arrays_of(label, arg)
    ]

    def call() -> Outcome:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                call_args = prepare(copies) if prepare is not None else copies
                value = fn(*call_args)
            except (TimeUp, KeyboardInterrupt):
                raise
            except BaseException as error:  # the answer's own failure (SystemExit included)
                return Outcome(error=(type(error).__name__, short(str(error), 500)))
            wired = to_wire(value, tensors=tensors)
        after = dict(
            pair
            for label, arg in zip(labels, copies, strict=True)
            for pair in _arrays_of(label, arg)
        )
        mutated = next(
            (
                name if name in after else f"{name} (taken out of its list: pop, del or remove)"
                for name, old in before
                if name not in after or not np.array_equal(old, after[name], equal_nan=True)
            ),
            None,
        )
        measurements = {}
        if "second_call" in measure:
            measurements["second_call"] = float(
                _overwritten_by_next_call(fn, value, wired, args, prepare, tensors)
            )
        return Outcome(value=wired, mutated=mutated, measurements=measurements)

    return _peak_in_child(call) if "peak_bytes" in measure else call()


def _overwritten_by_next_call(
    fn: Callable, value: Any, wired: Any, args: tuple, prepare: Callable | None, tensors: bool
) -> bool:
    """Whether the results ``value`` of a call change when ``fn`` is called again on other
    numbers of the same shapes (the results are views of a buffer that each call refills)."""
    other = tuple(_negated(copy_argument(a)) for a in args)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(*(prepare(other) if prepare is not None else other))
        except (TimeUp, KeyboardInterrupt):
            raise
        except BaseException:  # the second call's own failure says nothing of the first's
            return False
        again = to_wire(value, tensors=tensors)
    return not _same_wire(wired, again)


def _negated(x: Any) -> Any:
    """A float array negated (in place: ``x`` is a fresh copy), containers element-wise."""
    if isinstance(x, np.ndarray) and x.dtype.kind == "f":
        np.negative(x, out=x)
        return x
    if isinstance(x, tuple | list):
        return type(x)(_negated(item) for item in x)
    if isinstance(x, PARAM_TYPES):
        for f in dataclasses.fields(x):
            _negated(getattr(x, f.name))
    return x


def _same_wire(a: Any, b: Any) -> bool:
    """Two wire-safe values equal exactly (NaN equal to NaN)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
            and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
        )  # fmt: skip
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        return len(a) == len(b) and all(_same_wire(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, PARAM_TYPES):
        return type(a) is type(b) and all(
            _same_wire(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    return type(a) is type(b) and (a == b or a != a)


_ALARM_REPEAT = 0.05  # seconds between alarms once time is up (an answer may catch one)


def within_time_limit(work: Callable[[], Any], seconds: float) -> Any:
    """Run ``work()``; raise ``TimeUp`` after ``seconds`` (see the docstring of ``mha.checks``).

    The elapsed time decides, not the alarm: work that returns after ``seconds`` (an answer
    that caught the alarm and went on) raises ``TimeUp`` too. On the main thread the alarm
    keeps firing every few hundredths of a second once time is up, so that an answer that
    catches one still stops at the next."""
    if sys.platform == "emscripten":  # Pyodide: no alarm, no thread; the page stops a slow check
        return work()
    start = time.monotonic()
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        armed = [True]

        def on_alarm(signum: int, frame: Any) -> None:
            if armed[0]:
                raise TimeUp

        previous = signal.signal(signal.SIGALRM, on_alarm)
        outer_delay, outer_interval = signal.setitimer(signal.ITIMER_REAL, seconds, _ALARM_REPEAT)
        try:
            value = work()
        finally:
            armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if outer_delay:  # someone else's alarm was pending: put it back
                remaining = max(outer_delay - (time.monotonic() - start), 1e-3)
                signal.setitimer(signal.ITIMER_REAL, remaining, outer_interval)
    else:
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
            raise TimeUp
        if "error" in box:
            raise box["error"]
        value = box["value"]
    if time.monotonic() - start > seconds:
        raise TimeUp
    return value
