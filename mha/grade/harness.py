"""The grader's code inside the student's kernel: it runs each answer on the grader's inputs and
watches for the reference implementation while the answers run. Nothing here decides a grade:
what the answers did goes back to the grader as plain data (:mod:`mha.grade.wire`).

The runner (:mod:`mha.grade.runner`) calls :func:`install` in a first cell, before any cell of
the notebook runs. It

- puts a *trampoline* into every reference the exercises name (``exercise.references``): a
  Python function keeps its identity but its code is replaced by a call that records a *hit*
  and then runs the original code, so every name bound to it (``softmax = mha.softmax``,
  ``EXERCISES[...].reference``, ``from mha.numpy_mha import softmax``) is covered; a class
  gets it in ``__init__``, ``forward`` and ``__call__``; a function written in C (``torch.softmax``)
  is replaced in its module or class by a recording wrapper. References in modules that are not
  imported yet (torch) get theirs as soon as the module is imported (an import hook);
- takes a snapshot of the grading code (the modules of ``mha.checks`` and ``mha.grade``, their
  classes and functions' code, the exercises, the builtins);
- registers the comm target ``mha-grade``.

After the notebook's cells, the runner opens that comm. The harness first restores the
snapshot (reporting what the notebook changed) and *arms* the watch; only then does the runner
send the inputs. For each exercise it evaluates the answer (the expression of its check cell,
or the exercise's name) and calls :func:`mha.checks.run_answer` on every case under the
exercise's time limit. While an answer runs, a hit on one of that exercise's references, a call
into the checks' own chapter modules (where the references and their variants live), or a new
process counts against it; so does undoing a trampoline or the watch itself.

This is defence in depth, not proof: the notebook's code runs in the same process, so code
written to defeat the harness (reaching the original functions through the garbage collector,
forging the comm messages from a thread, replacing C-level state) can still go unseen. What it
cannot do is change anyone else's grade, or the verdict of what its answer returned.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import importlib.abc
import inspect
import os
import sys
import threading
import types
from typing import Any

from mha.checks import EXERCISES, FunctionExercise, run_answer, variants
from mha.checks.core import TimeUp, within_time_limit
from mha.checks.kinds import stub_verdict
from mha.grade import wire

COMM_TARGET = "mha-grade"
SOURCE_LIMIT = 3000  # characters of an answer's source sent back with a hit
_MISSING = object()
_MARKER = "__mha_grade_call__"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_PROCESS_STARTERS = ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system", "execv", "execve")


@dataclasses.dataclass(frozen=True)
class Hit:
    """Something seen while grading: ``references`` (for a reference's call) or None (for
    anything that counts against the answer running, whatever its references)."""

    what: str
    exercise: str | None
    where: str
    references: frozenset[str] | None = None


def _where(depth: int) -> str:
    """Where the call was made, unless in this package (then the answer is the reference)."""
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return ""
    if frame.f_code.co_filename.startswith(_PACKAGE):
        return ""
    return f"{frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_qualname}"[:300]


def _trampoline(code: types.CodeType, call: Any) -> types.CodeType:
    """Code with the same free variables as ``code`` that runs ``call(args, kwargs)``."""
    free = code.co_freevars
    lines = ["def _outer():", *(f"    {name} = None" for name in free)]
    lines.append("    def _trampoline(*args, **kwargs):")
    if free:  # keep the closure's cells: a function's closure must fit its code
        lines.append("        " + ", ".join(free) + ",")
    lines += [f"        _call = {_MARKER!r}", "        return _call(args, kwargs)"]
    lines.append("    return _trampoline")
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(lines), "<mha-grade trampoline>", "exec"), namespace)
    made = namespace["_outer"]().__code__
    consts = tuple(call if isinstance(c, str) and c == _MARKER else c for c in made.co_consts)
    return made.replace(  # named and placed as the original (tracebacks, inspect.getsource)
        co_consts=consts,
        co_name=code.co_name,
        co_qualname=code.co_qualname,
        co_filename=code.co_filename,
        co_firstlineno=code.co_firstlineno,
    )


def _lookup(name: str) -> tuple[Any, Any]:
    """(object, owner) for a dotted name, from modules already imported; never imports."""
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        module = sys.modules.get(".".join(parts[:i]))
        if module is not None:
            break
    else:
        return _MISSING, None
    owner, value = None, module
    for attribute in parts[i:]:
        owner, value = value, getattr(value, attribute, _MISSING)
        if value is _MISSING:
            return _MISSING, None
    return value, owner


class _ImportWatch(importlib.abc.MetaPathFinder):
    """Resolves references as soon as a module they live in has been imported."""

    def __init__(self, guard: Guard, modules: set[str]) -> None:
        self.guard, self.modules, self.local = guard, modules, threading.local()

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.modules or getattr(self.local, "busy", False):
            return None
        self.local.busy = True
        try:
            spec = next(
                (
                    found
                    for finder in sys.meta_path
                    if finder is not self and hasattr(finder, "find_spec")
                    for found in [finder.find_spec(fullname, path, target)]
                    if found is not None
                ),
                None,
            )
        except Exception:  # leave this import to the import system
            return None
        finally:
            self.local.busy = False
        loader = getattr(spec, "loader", None)
        if loader is not None and hasattr(loader, "exec_module"):
            execute, guard = loader.exec_module, self.guard

            def exec_module(module):
                execute(module)
                guard.resolve()

            loader.exec_module = exec_module
        return spec


class Guard:
    """The trampolines, the hits, and the snapshot of the grading code."""

    def __init__(self, references: set[str]) -> None:
        self.unresolved = set(references)  # dotted names not found yet (not imported yet)
        self.grading = False  # armed: from the end of the notebook's cells to the end
        self.current: str | None = None  # the exercise whose answer runs now
        self.hits: list[Hit] = []
        self.aliases: dict[int, set[str]] = {}  # id(function) -> reference names
        self.swapped: dict[int, tuple[types.FunctionType, types.CodeType]] = {}
        self.wrapped: list[tuple[Any, str, Any, Any]] = []  # (owner, attribute, wrapper, original)
        self.local = threading.local()  # .trusted: the harness's own calls (prepare)
        self.chapter_files = {  # where the references and their wrong variants live
            os.path.realpath(sys.modules[ex.cases.__module__].__file__)
            for ex in EXERCISES.values()
            if isinstance(ex, FunctionExercise)
        } | {os.path.realpath(variants.__file__)}
        self.starters = {id(getattr(os, n)): f"os.{n}" for n in _PROCESS_STARTERS if hasattr(os, n)}
        try:
            import _posixsubprocess

            self.starters[id(_posixsubprocess.fork_exec)] = "subprocess"
        except ImportError:  # not POSIX
            pass
        self.kept: list[Any] = []  # C functions kept alive, so their ids stay unique
        self.originals: dict[int, types.FunctionType] = {}  # id(function) -> its original
        modules = {
            ".".join(n.split(".")[:i]) for n in self.unresolved for i in range(1, n.count(".") + 1)
        }
        sys.meta_path.insert(0, _ImportWatch(self, modules))
        self.resolve()

    # --- the trampolines -------------------------------------------------------------------

    def resolve(self) -> None:
        for name in sorted(self.unresolved):
            value, owner = _lookup(name)
            if value is not _MISSING:
                self.unresolved.discard(name)
                self._patch(name, value, owner)

    def _patch(self, name: str, value: Any, owner: Any) -> None:
        value = getattr(value, "__func__", value)  # a bound or class method: its function
        if isinstance(value, types.FunctionType):
            self._swap(name, value)
        elif isinstance(value, type):
            for method in ("__init__", "forward", "__call__"):
                if isinstance(value.__dict__.get(method), types.FunctionType):
                    self._swap(name, value.__dict__[method])
        elif callable(value) and owner is not None:
            self._wrap(name, value, owner)

    def _swap(self, name: str, function: types.FunctionType) -> None:
        key = id(function)
        self.aliases.setdefault(key, set()).add(name)
        if key in self.swapped:
            return
        original = types.FunctionType(
            function.__code__,
            function.__globals__,
            function.__name__,
            function.__defaults__,
            function.__closure__,
        )
        original.__kwdefaults__ = function.__kwdefaults__
        original.__qualname__ = function.__qualname__
        with contextlib.suppress(TypeError, ValueError):  # no signature to keep
            function.__signature__ = inspect.signature(function)
        guard = self

        def call(args, kwargs):
            guard.hit(key, 2)
            return original(*args, **kwargs)

        function.__code__ = _trampoline(function.__code__, call)
        self.swapped[key] = (function, function.__code__)
        self.originals[key] = original

    def _wrap(self, name: str, function: Any, owner: Any) -> None:
        key = id(function)
        self.aliases.setdefault(key, set()).add(name)
        attribute, guard = name.rsplit(".", 1)[1], self

        def wrapper(*args, **kwargs):
            guard.hit(key, 1)
            return function(*args, **kwargs)

        for field in ("__name__", "__qualname__", "__doc__", "__module__"):
            with_value = getattr(function, field, None)
            if isinstance(with_value, str):
                setattr(wrapper, field, with_value)
        try:
            setattr(owner, attribute, wrapper)
        except (AttributeError, TypeError):  # a C type: its attributes cannot be replaced
            return
        self.wrapped.append((owner, attribute, wrapper, function))
        self.kept.append(function)

    def hit(self, key: int, depth: int) -> None:
        """A call of the reference ``key`` (an id in ``aliases``), made ``depth`` frames up."""
        if self.grading and not getattr(self.local, "trusted", False):
            names = frozenset(self.aliases[key])
            self.hits.append(Hit(", ".join(sorted(names)), self.current, _where(depth + 2), names))

    def saw(self, what: str, depth: int = 1) -> None:
        """Something that counts against the answer running now, whatever its references."""
        if self.grading and not getattr(self.local, "trusted", False):
            self.hits.append(Hit(what, self.current, _where(depth + 2)))

    def undone(self) -> list[str]:
        """The trampolines and wrappers the notebook removed; each is put back."""
        undone = []
        for function, code in self.swapped.values():
            if function.__code__ is not code:
                function.__code__ = code
                undone.append(f"{function.__module__}.{function.__qualname__}")
        for owner, attribute, wrapper, _ in self.wrapped:
            if getattr(owner, attribute, None) is not wrapper:
                setattr(owner, attribute, wrapper)
                undone.append(f"{getattr(owner, '__name__', owner)}.{attribute}")
        return undone

    # --- watching one answer ----------------------------------------------------------------

    def profile(self, frame, event, arg) -> None:
        """sys.setprofile hook while an answer runs: the checks' chapter code, new processes."""
        if getattr(self.local, "trusted", False):
            return
        if event == "call" and frame.f_code.co_filename in self.chapter_files:
            self.saw(f"the checks' own code ({frame.f_code.co_qualname})", 2)  # its caller
        elif event == "c_call" and id(arg) in self.starters:
            self.saw(f"a new process ({self.starters[id(arg)]})", 1)

    def trusted(self, function: Any) -> Any:
        """``function`` run as the harness's own step (an exercise's ``prepare``)."""
        guard = self

        def run(*args, **kwargs):
            guard.local.trusted = True
            try:
                return function(*args, **kwargs)
            finally:
                guard.local.trusted = False

        return run


class _Snapshot:
    """The grading code as it was before the notebook ran, to compare and restore."""

    def __init__(self) -> None:
        names = [
            n for n in sys.modules if n.split(".")[:2] in (["mha", "checks"], ["mha", "grade"])
        ]
        self.modules = [(sys.modules[n], dict(vars(sys.modules[n]))) for n in sorted(names)]
        self.classes, self.functions = [], []
        for module, saved in self.modules:
            for value in saved.values():
                if getattr(value, "__module__", None) != module.__name__:
                    continue
                if isinstance(value, type):
                    self.classes.append((value, dict(vars(value))))
                    members = vars(value).values()
                else:
                    members = [value]
                for f in members:
                    if isinstance(f, types.FunctionType):
                        self.functions.append((f, f.__code__, f.__defaults__, f.__kwdefaults__))
        self.builtins = {  # Python's own (IPython swaps a few of its own in and out)
            k: v for k, v in vars(builtins).items() if getattr(v, "__module__", None) == "builtins"
        }
        self.exercises = dict(EXERCISES)
        self.exercise_fields = {name: dict(vars(ex)) for name, ex in EXERCISES.items()}

    def restore(self) -> list[str]:
        """Put everything back; the names of what had changed."""
        changed = []
        for module, saved in self.modules:
            current = vars(module)
            for key in set(current) - set(saved) - {"__warningregistry__"}:
                changed.append(f"{module.__name__}.{key}")
                del current[key]
            for key, value in saved.items():
                if current.get(key, _MISSING) is not value:
                    changed.append(f"{module.__name__}.{key}")
                    current[key] = value
        for cls, saved in self.classes:
            for key in set(vars(cls)) - set(saved):
                changed.append(f"{cls.__qualname__}.{key}")
                delattr(cls, key)
            for key, value in saved.items():
                if vars(cls).get(key, _MISSING) is not value:
                    changed.append(f"{cls.__qualname__}.{key}")
                    setattr(cls, key, value)
        for f, code, defaults, kwdefaults in self.functions:
            if (f.__code__, f.__defaults__, f.__kwdefaults__) != (code, defaults, kwdefaults):
                changed.append(f"{f.__module__}.{f.__qualname__}")
                f.__code__, f.__defaults__, f.__kwdefaults__ = code, defaults, kwdefaults
        for key, value in self.builtins.items():
            if vars(builtins).get(key, _MISSING) is not value:
                changed.append(f"builtins.{key}")
                setattr(builtins, key, value)
        if dict(EXERCISES) != self.exercises:
            changed.append("mha.checks.EXERCISES")
            EXERCISES.clear()
            EXERCISES.update(self.exercises)
        for name, fields in self.exercise_fields.items():
            exercise = EXERCISES[name]
            if vars(exercise) != fields:
                changed.append(f"mha.checks.EXERCISES[{name!r}]")
                vars(exercise).clear()
                vars(exercise).update(fields)
        return sorted(set(changed))


class Harness:
    """Runs the answers when the runner asks (see the module docstring)."""

    def __init__(self, shell: Any, guard: Guard) -> None:
        self.shell, self.guard, self.comm, self.started = shell, guard, None, False
        self.snapshot = _Snapshot()

    def open(self, comm: Any, msg: Any) -> None:
        self.comm = comm
        comm.on_msg(self.receive)
        changed = self.snapshot.restore() + self.guard.undone()
        self.guard.resolve()
        self.guard.grading = True
        comm.send({"type": "armed", "changed": changed[:50]})

    def receive(self, msg: Any) -> None:
        if self.started:
            return
        self.started = True
        try:
            job = wire.unpack(bytes(msg["buffers"][0]))
            for spec in job["exercises"]:
                result = wire.pack(self.run_exercise(spec))
                self.comm.send({"type": "result", "exercise": spec["name"]}, buffers=[result])
        except BaseException as error:  # report, never raise into the kernel
            self.comm.send({"type": "error", "message": _describe(error)})

    def run_exercise(self, spec: dict) -> dict:
        """Evaluate the answer and run it on every case, all within the time limit."""
        name, guard = spec["name"], self.guard
        exercise = EXERCISES[name]
        if isinstance(exercise, FunctionExercise) and exercise.prepare is not None:
            exercise = dataclasses.replace(exercise, prepare=guard.trusted(exercise.prepare))
        outcomes: list = []
        result: dict[str, Any] = {"outcomes": outcomes, "timeout": None, "answer_error": None}
        progress = {"step": "evaluating the answer", "answer": _MISSING}

        def work() -> None:
            try:
                answer = self.watched(eval, spec["expression"], self.shell.user_ns)
            except TimeUp:
                raise
            except BaseException as error:
                result["answer_error"] = _describe(error)
                return
            progress["answer"] = answer
            for case in spec["cases"]:
                progress["step"] = case.description
                outcome = self.watched(run_answer, exercise, answer, case)
                outcomes.append(outcome)
                if len(outcomes) == 1 and (outcome.not_callable or stub_verdict(outcome)):
                    return  # "not a function" or "not attempted": nothing more to run (as check)

        first = len(guard.hits)
        guard.current = name
        try:
            within_time_limit(work, spec["seconds"])
        except TimeUp:
            result["timeout"] = progress["step"]
        except BaseException as error:  # e.g. an exception whose str() raises
            result["answer_error"] = f"running it failed: {_describe(error)}"
        guard.current = None
        tampered = self.snapshot.restore() + guard.undone()
        references = set(spec["references"])
        hits = [
            h
            for h in guard.hits[first:]
            if h.exercise == name and (h.references is None or h.references & references)
        ]
        result["hits"] = [[h.what, h.where] for h in hits[:20]]
        result["tampered"] = tampered[:20]
        answer = progress["answer"]
        result["source"] = None
        if (hits or tampered) and answer is not _MISSING:
            result["source"] = _source(guard.originals.get(id(answer), answer))
        return result

    def watched(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` with the profile hook on this thread and the threads it starts."""
        hook = self.guard.profile
        threading.setprofile(hook)
        sys.setprofile(hook)
        try:
            return function(*args)
        finally:
            if sys.getprofile() != hook:
                self.guard.saw("the grader's watch turned off (sys.setprofile)")
            sys.setprofile(None)
            threading.setprofile(None)


def _describe(error: BaseException) -> str:
    try:
        return f"{type(error).__name__}: {error}"[:300]
    except Exception:  # an exception whose str() raises
        return type(error).__name__


def _source(answer: Any) -> str | None:
    try:
        return inspect.getsource(answer)[:SOURCE_LIMIT]
    except Exception:  # not defined in a file or a cell, or an object that breaks inspect
        return None


def install(exercises: list[str]) -> None:
    """Before the notebook's first cell: trampolines, snapshot, comm target (see above)."""
    from IPython import get_ipython

    shell = get_ipython()
    guard = Guard({ref for name in exercises for ref in EXERCISES[name].references})
    harness = Harness(shell, guard)
    shell.kernel.comm_manager.register_target(COMM_TARGET, harness.open)
