"""Grader process: grading one submission, exercise by exercise.

For each exercise of the notebook's chapter the grader

1. finds the answer (the expression of its last ``check(...)`` call, else the exercise's name)
   and the statements it needs before that call (:func:`mha.grade.slicing.answer_slice`);
2. reads those statements for what the view cannot remove (a third-party reference such as
   ``torch.nn.functional.scaled_dot_product_attention`` in a PyTorch exercise): such an answer
   scores 0, "uses the reference implementation", best effort;
3. starts a fresh sandbox with the exercise's view (:mod:`mha.grade.sandbox`), sends the
   statements, and then each test input drawn from the secret seed, one at a time, by its own
   clock; for an exercise that limits memory it measures each call's peak from outside;
4. judges what came back with ``exercise.judge``, here.

A sandbox that dies, hangs or misbehaves costs only its exercise.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import inspect
import random
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mha.checks import EXERCISES, CheckResult, FunctionExercise, Outcome
from mha.checks.kinds import stub_verdict
from mha.grade import slicing
from mha.grade.sandbox import Limits, Lost, Sandbox
from mha.grade.submissions import Submission, printable
from mha.grade.view import ViewBuilder

MAX_REASON = 2000  # characters of one exercise's reason in the table
MAX_ERROR = 4000  # characters of a notebook's error column
NOT_AVAILABLE = "NotAvailableWhileGraded"
CHARGE_SLACK = 256 * 1024  # the kernel charges memory to a group in batches (per CPU)
LONG_TOKEN = 12  # a reference's name this long is looked for anywhere in the answer's code
_JUDGING = threading.Lock()


@dataclass(frozen=True)
class Options:
    """What every notebook of a run shares."""

    limits: Limits = field(default_factory=Limits)
    exercises: tuple[str, ...] | None = None  # --exercises: these, for every notebook
    chapter: int | None = None  # --chapter: this chapter's exercises, for every notebook
    seed: int | None = None  # --seed: reproducible inputs; secret and fresh by default


@dataclass
class Row:
    """One submission's line of the table, and its feedback."""

    submission: str
    sha256: str
    chapter: int | None
    exercises: list[str]
    key: str = ""  # unique per submitted path (its bytes' hash): names the feedback file
    scores: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    results: dict[str, CheckResult] = field(default_factory=dict)  # for the feedback file
    sources: dict[str, str] = field(default_factory=dict)  # answers shown with the feedback
    defined: dict[str, int] = field(default_factory=dict)  # exercise -> cell that defined it
    code: dict[str, str] = field(default_factory=dict)  # exercise -> its answer's code
    notes: dict[str, str] = field(default_factory=dict)  # exercise -> what to know
    error: str = ""
    seconds: float = 0.0
    seed: int | None = None

    @property
    def total(self) -> int:
        return sum(self.scores.values())

    @property
    def out_of(self) -> int:
        return len(self.exercises)


def chapter_exercises(chapter: int) -> list[str]:
    return [name for name, ex in EXERCISES.items() if ex.chapter == chapter]


def exercises_for(submission: Submission, options: Options) -> tuple[int | None, list[str]]:
    """The chapter a notebook is graded as, and its exercises (in the registry's order)."""
    if options.exercises is not None:
        chapters = {EXERCISES[name].chapter for name in options.exercises}
        return (chapters.pop() if len(chapters) == 1 else None), list(options.exercises)
    chapter = options.chapter if options.chapter is not None else submission.chapter
    return chapter, ([] if chapter is None else chapter_exercises(chapter))


def _seed(submission: Submission, options: Options) -> int:
    if options.seed is None:
        return random.SystemRandom().randrange(2**32)
    text = f"{options.seed}:{submission.name}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big")


def _dotted(function: Any) -> str | None:
    if function is None:
        return None
    return f"{function.__module__}.{function.__qualname__}"


def third_party_packages(name: str) -> tuple[str, ...]:
    """The distributions an exercise's answer may use besides NumPy (and what the notebook's
    cells display with): PyTorch for the exercises answered with tensors."""
    exercise = EXERCISES[name]
    return ("torch",) if isinstance(exercise, FunctionExercise) and exercise.tensors else ()


class Views:
    """The exercises' views of the package and hidden packages, built once per run."""

    def __init__(self, sandbox: Sandbox, folder: Path) -> None:
        self.sandbox, self.folder = sandbox, folder
        self.builder = ViewBuilder(Path(sandbox.package_dir))
        self.built: dict[str, tuple[str, list[str], dict[str, str]]] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> tuple[str, list[str], dict[str, str]]:
        """(view folder, paths to hide, {module prefix: why hidden}) for an exercise."""
        with self._lock:
            if name not in self.built:
                exercise = EXERCISES[name]
                view = self.builder.build(
                    name, exercise.references, _dotted(getattr(exercise, "prepare", None)),
                    self.folder / name,
                )  # fmt: skip
                from mha.grade.sandbox import VISIBLE

                site = self.sandbox.site
                hidden = site.hidden([*VISIBLE, *third_party_packages(name)])
                why = f"not available while {name!r} is graded: the exercise is answered without it"
                modules = dict.fromkeys(site.import_names(hidden), why)
                grading = f"not available while {name!r} is graded: grading happens outside"
                modules.update(
                    dict.fromkeys(("mha.grade.grader", "mha.grade.cli", "mha.grade.table"), grading)
                )
                self.built[name] = (str(view), hidden, modules)
            return self.built[name]


def static_hits(name: str, statements: list[slicing.Statement]) -> list[str]:
    """Third-party references visible to the answer (e.g. ``torch.nn.functional.
    scaled_dot_product_attention`` in a PyTorch exercise) that its code names, found by
    reading it: what the view cannot remove. A name is found through the code's imports
    (``F.scaled_dot_product_attention``), or, when it is long, as any attribute, imported name
    or string that contains it (``torch._C._nn.scaled_dot_product_attention``,
    ``getattr(F, "scaled_dot_product_attention")``). Best effort."""
    visible = {top for top in third_party_packages(name)}
    references = [r for r in EXERCISES[name].references if r.split(".")[0] in visible]
    if not references:
        return []
    long_tokens = {
        r.rsplit(".", 1)[-1]: r for r in references if len(r.rsplit(".", 1)[-1]) >= LONG_TOKEN
    }
    found = []
    for statement in statements:
        try:
            tree = ast.parse(statement.source)
        except SyntaxError:
            continue
        aliases: dict[str, str] = {}
        words = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    aliases[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                    words.append(f"{node.module}.{alias.name}")
            elif isinstance(node, ast.Attribute):
                words.append(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                words.append(node.value)
        for word in words:
            found += [f"{r} (cell {statement.cell})" for t, r in long_tokens.items() if t in word]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                chain, base = [node.attr], node.value
                while isinstance(base, ast.Attribute):
                    chain.append(base.attr)
                    base = base.value
                if isinstance(base, ast.Name) and base.id in aliases:
                    dotted = ".".join([aliases[base.id], *reversed(chain)])
                    if dotted in references:
                        found.append(f"{dotted} (cell {statement.cell})")
    return sorted(set(found))


def grade(submission: Submission, sandbox: Sandbox, options: Options, views: Views) -> Row:
    """Grade one submission; never raises because of the notebook."""
    start = time.monotonic()
    chapter, names = exercises_for(submission, options)
    row = Row(submission.name, submission.sha256, chapter, names, key=submission.key)
    row.scores = dict.fromkeys(names, 0)
    problems = list(submission.notes)
    if submission.error or not names:
        reason = submission.error or "no check cell of a known exercise: its chapter is unknown"
        row.error = "; ".join([reason, *problems])
        row.reasons = dict.fromkeys(names, "not graded: " + reason)
        return row
    row.seed = _seed(submission, options)
    raised: dict[str, str] = {}
    for name in names:
        try:
            _grade_exercise(row, name, submission, sandbox, options, views, raised)
        except Exception as error:  # a bug or a broken machine: this exercise only
            traceback.print_exc()
            row.reasons[name] = f"not graded: the grader failed ({type(error).__name__}: {error})"
    problems += [f"cell {cell} raised {error}" for cell, error in raised.items()]
    row.error = printable("; ".join(problems))[:MAX_ERROR]
    row.seconds = round(time.monotonic() - start, 1)
    return row


@dataclass
class _Run:
    errors: list = field(default_factory=list)  # [cell, error, caused by the view]
    answer_error: str | None = None
    outcomes: list[Outcome] = field(default_factory=list)
    timeout: str | None = None  # the test input that ran out of time
    slow_cell: str | None = None  # the step of the slice that ran out of time
    lost: str | None = None


def _run_answer(
    job: dict, cases: list, exercise, sandbox: Sandbox, views_entry, limits: Limits
) -> _Run:
    """Start the sandbox, run the slice, call the answer on each case (see the module
    docstring); what happened, as data."""
    view, hidden, modules = views_entry
    run = _Run()
    process = sandbox.start(view, hidden)
    step = "starting Python"
    try:
        job = {**job, "hidden": modules, "fonts": sandbox.fonts_inside}
        process.send(job)
        end = time.monotonic() + limits.start_seconds + limits.notebook_seconds
        cell_end = time.monotonic() + limits.start_seconds + limits.cell_seconds
        while True:
            try:
                message = process.receive(min(end, cell_end))
            except TimeoutError:
                run.slow_cell = step
                return run
            if not isinstance(message, dict) or message.get("type") not in ("cell", "ready"):
                error = message.get("error") if isinstance(message, dict) else None
                run.lost = f"the answer's process failed ({str(error)[:300]})"
                return run
            if message["type"] == "ready":
                break
            step = f"cell {message.get('cell')}"
            cell_end = time.monotonic() + limits.cell_seconds
        run.errors = [e for e in message.get("errors", []) if isinstance(e, list) and len(e) == 3][
            :100
        ]
        answer_error = message.get("answer_error")
        run.answer_error = None if answer_error is None else str(answer_error)[:500]
        if run.answer_error is not None:
            return run
        deadline = time.monotonic() + limits.check_seconds
        measured = "peak_bytes" in getattr(exercise, "measure", ())
        for case in cases:
            step = case.description
            baseline = process.reset_peak() if measured else 0
            process.send({"type": "case", "case": case})
            try:
                message = process.receive(deadline)
            except TimeoutError:
                run.timeout = step
                return run
            outcome = message.get("outcome") if isinstance(message, dict) else None
            if isinstance(message, dict) and message.get("type") == "failed":
                run.lost = f"the answer's process failed ({str(message.get('error'))[:300]})"
                return run
            if type(outcome) is not Outcome:
                run.lost = "the answer's process sent something that is not an outcome"
                return run
            measurements = {  # the peak from outside; the second call from the answer's process
                k: v for k, v in outcome.measurements.items() if k == "second_call"
            }
            if measured:
                measurements["peak_bytes"] = float(max(0, process.peak() - baseline))
            run.outcomes.append(dataclasses.replace(outcome, measurements=measurements))
            first = run.outcomes[0]
            if len(run.outcomes) == 1 and (first.not_callable or stub_verdict(first) is not None):
                break
    except Lost as error:
        run.lost = str(error)
    finally:
        process.stop()
    return run


def _array_bytes(value: Any) -> int:
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, tuple | list):
        return sum(_array_bytes(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sum(_array_bytes(getattr(value, f.name)) for f in dataclasses.fields(value))
    return 0


def _grade_exercise(row: Row, name: str, submission: Submission, sandbox: Sandbox, options: Options,
                    views: Views, raised: dict[str, str]) -> None:  # fmt: skip
    exercise = EXERCISES[name]
    limits = options.limits
    statements = submission.statements
    expression, before = submission.calls.get(name, (name, len(statements)))
    try:
        chosen = [statements[i] for i in slicing.answer_slice(statements, expression, before)]
    except ValueError as error:
        row.reasons[name] = printable(f"no answer: {error}")[:MAX_REASON]
        return
    defined = slicing.defining_cell(statements, expression, before)
    if defined is not None:
        row.defined[name] = defined
    row.code[name] = "\n".join(s.source.strip("\n") for s in chosen if not s.binds <= _imports(s))
    hits = static_hits(name, chosen)
    if hits:
        row.reasons[name] = printable(f"uses the reference implementation ({', '.join(hits[:3])})")
        row.sources[name] = row.code[name]
        return
    cases = exercise.trials(np.random.default_rng(row.seed))
    names = (
        tuple(inspect.signature(exercise.reference).parameters)
        if isinstance(exercise, FunctionExercise)
        else ()
    )
    job = {
        "exercise": name,
        "statements": [[s.cell, s.source, sorted(s.binds), sorted(s.uses)] for s in chosen],
        "expression": expression,
        "kind": "function" if isinstance(exercise, FunctionExercise) else "value",
        "names": list(names),
        "prepare": _dotted(getattr(exercise, "prepare", None)),
        "tensors": bool(getattr(exercise, "tensors", False)),
        "measure": [m for m in getattr(exercise, "measure", ()) if m == "second_call"],
    }
    run = _run_answer(job, cases, exercise, sandbox, views.get(name), limits)
    notes = []
    root = _root_name(expression)
    for cell, error, view in run.errors:
        if not view:  # a failure because of the view is expected (the chapter's own checks)
            raised.setdefault(str(cell), str(error)[:300])
        statement = next((s for s in chosen if s.cell == cell), None)
        if not view and statement is not None and root in statement.binds and defined != cell:
            notes.append(
                f"graded the {root} defined in cell {defined}; cell {cell}, which would have "
                f"redefined it, raised {error}"
            )
    if notes:
        row.notes[name] = printable("; ".join(notes))[:MAX_REASON]
    reason, result = _verdict(name, cases, run, expression, limits, row.seed)
    row.reasons[name] = printable(reason)[:MAX_REASON]
    if "not available while" in reason:  # shown to the student and the instructor
        row.sources[name] = row.code[name]
    if result is not None:
        row.results[name] = result
        row.scores[name] = int(result.passed)


def _imports(statement: slicing.Statement) -> frozenset[str]:
    try:
        node = ast.parse(statement.source).body[0]
    except (SyntaxError, IndexError):
        return frozenset()
    return statement.binds if isinstance(node, ast.Import | ast.ImportFrom) else frozenset()


def _root_name(expression: str) -> str | None:
    try:
        node = ast.parse(expression, mode="eval").body
    except SyntaxError:
        return None
    return node.id if isinstance(node, ast.Name) else None


def _verdict(name: str, cases: list, run: _Run, expression: str, limits: Limits, seed: int):
    """(reason, CheckResult or None)."""
    if run.lost is not None:
        return f"not graded: {run.lost}", None
    if run.slow_cell is not None:
        return (
            f"not graded: {run.slow_cell} did not finish in time, so its sandbox was stopped",
            None,
        )
    if run.answer_error is not None:
        if NOT_AVAILABLE in run.answer_error:
            return f"no answer: {run.answer_error.split(': ', 1)[-1]}", None
        return f"no answer: evaluating {expression!r} raised {run.answer_error}", None
    if run.timeout is not None:
        return (
            f"did not finish within {limits.check_seconds:g} s (while running {run.timeout})",
            None,
        )
    missing = [
        o.error[1] for o in run.outcomes if o.error is not None and o.error[0] == NOT_AVAILABLE
    ]
    if missing:
        return f"the answer uses what is not available while it is graded: {missing[0]}", None
    outcomes = run.outcomes
    stub = len(outcomes) == 1 and (
        outcomes[0].not_callable or stub_verdict(outcomes[0]) is not None
    )
    if len(outcomes) != len(cases) and not stub:
        return f"not graded: results for {len(outcomes)} of {len(cases)} test inputs", None
    try:
        with _JUDGING:  # the checks are not written for threads (warnings)
            verdict = EXERCISES[name].judge(cases[: len(outcomes)], outcomes)
    except Exception as error:  # a bug in a check must not stop the class
        return f"not graded: the check failed ({type(error).__name__}: {error})", None
    result = verdict.result(name, seed)
    if result.passed:
        return "", result
    reason = f"{result.status}: {result.feedback}"
    if result.hint:
        reason += f" | Hint: {result.hint}"
    return reason, result
