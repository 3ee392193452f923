"""In the sandbox: one exercise's answer, run from the statements it needs and called on the
grader's inputs, one at a time.

    python -m mha.grade.answer     (started by mha.grade.sandbox inside bubblewrap)

Nothing here is trusted. This process never ran the notebook: it runs only the statements the
grader's static slice chose (:mod:`mha.grade.slicing`), in notebook order, against the
exercise's view of the package (:mod:`mha.grade.view`), then evaluates the answer's expression
and waits. For each test input the grader sends, it calls the answer as ``check`` does
(:func:`mha.checks.core.call_answer`, or a value exercise's ``run``) and sends back the
:class:`~mha.checks.Outcome`. Whatever comes back is, by construction, what this process
computed for the input the grader had just sent; the grader validates it, times it by its own
clock, measures its memory from outside and judges it.

A statement that fails on something the view leaves out (a reference, a hidden package) binds
a placeholder in place of each name it would have bound, so the answer is never silently an
older definition; any other error stops the rest of that cell, as in the notebook. Both are
reported. The answer's own output goes nowhere: standard input, output and error are
``/dev/null`` once the channel (the original standard input and output) has been set aside.
"""

from __future__ import annotations

import builtins
import importlib
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from mha.grade import protocol
from mha.grade.unavailable import NotAvailableWhileGraded, Unavailable, hide

_MISSING = object()


def _describe(error: BaseException) -> str:
    try:
        return f"{type(error).__name__}: {error}"[:500]
    except Exception:  # an exception whose str() raises
        return type(error).__name__


def _caused_by_view(error: BaseException) -> bool:
    seen = 0
    while error is not None and seen < 20:
        if isinstance(error, NotAvailableWhileGraded):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def _namespace(statements: list) -> dict:
    """The notebook's namespace: an IPython shell's when a statement needs ``get_ipython``."""
    if any("get_ipython" in source for _, source, _, _ in statements):
        from IPython.core.interactiveshell import InteractiveShell

        return InteractiveShell.instance().user_ns
    return {"__name__": "__main__", "__builtins__": builtins}


def run_statements(statements: list, namespace: dict, send) -> list:
    """Run the slice; [(cell, error, caused by the view)] for each statement that raised. A
    failure is the view's when it raised :class:`NotAvailableWhileGraded`, or when the
    statement reads a name bound to a placeholder (passed to a function that checks types)."""
    errors, stopped = [], set()
    for cell, source, binds, uses in statements:
        if cell in stopped:
            continue
        send({"type": "cell", "cell": cell})
        before = {name: namespace.get(name, _MISSING) for name in binds}
        placeholders = any(isinstance(namespace.get(name), Unavailable) for name in uses)
        try:
            exec(compile(source, f"<cell {cell}>", "exec"), namespace)
        except BaseException as error:  # the notebook's own failure, whatever it is
            view = placeholders or _caused_by_view(error)
            errors.append([cell, _describe(error), view])
            if not view:
                stopped.add(cell)
                continue
            for name in binds:
                if namespace.get(name, _MISSING) is before[name]:
                    namespace[name] = Unavailable(
                        f"{name} (bound in cell {cell})",
                        f"not available: cell {cell} raised {_describe(error)}",
                    )
    return errors


def _prepare(dotted: str | None):
    if dotted is None:
        return None
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


class Answer:
    """Calls the answer as ``check`` does (see the module docstring)."""

    def __init__(self, job: dict, answer: Any) -> None:
        from mha.checks.core import call_answer
        from mha.checks.kinds import NumberExercise

        self.job, self.answer, self.call_answer = job, answer, call_answer
        self.prepare = _prepare(job["prepare"])
        self.value_exercise = NumberExercise(0, 0.0, ()) if job["kind"] == "value" else None

    def run(self, case) -> Any:
        if self.value_exercise is not None:
            return self.value_exercise.run(self.answer, case)
        return self.call_answer(
            self.answer,
            case.args,
            names=self.job["names"],
            prepare=self.prepare,
            tensors=self.job["tensors"],
            measure=self.job["measure"],
        )


def _fonts(folder: str | None) -> None:
    """Copy the grader's prepared matplotlib font cache (building it takes seconds)."""
    if folder and os.path.isdir(folder):
        cache = Path(os.environ.get("HOME", "/tmp"), ".cache", "matplotlib")
        cache.mkdir(parents=True, exist_ok=True)
        for entry in os.scandir(folder):
            if entry.is_file(follow_symlinks=False) and entry.name.startswith("fontlist"):
                shutil.copyfile(entry.path, cache / entry.name)


def main() -> int:
    channel_in = os.fdopen(os.dup(0), "rb")
    channel_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)

    def send(tree: Any) -> None:
        protocol.write_message(channel_out, tree)

    try:
        return serve(channel_in, send)
    except BaseException as error:  # the grader reads it as this exercise's failure
        send({"type": "failed", "error": _describe(error)})
        return 1


def serve(channel_in, send) -> int:
    job = protocol.read_message(channel_in)
    hide(job["hidden"])
    _fonts(job["fonts"])
    namespace = _namespace(job["statements"])
    errors = run_statements(job["statements"], namespace, send)
    answer, answer_error = None, None
    try:
        answer = eval(compile(job["expression"], "<answer>", "eval"), namespace)
    except BaseException as error:
        answer_error = _describe(error)
    send({"type": "ready", "errors": errors, "answer_error": answer_error})
    calling = Answer(job, answer)
    while True:
        request = protocol.read_message(channel_in)
        if request.get("type") != "case":
            return 0
        send({"type": "outcome", "outcome": calling.run(request["case"])})


if __name__ == "__main__":
    sys.exit(main())
