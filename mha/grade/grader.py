"""Grading one submission: its exercises, the secret inputs, the sandboxed run, and the
verdicts, which are computed here, in the grader's process, from what the answers returned."""

from __future__ import annotations

import hashlib
import random
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mha.checks import EXERCISES, CheckResult, Outcome
from mha.checks.kinds import stub_verdict
from mha.grade import wire
from mha.grade.sandbox import Limits, Sandbox, SandboxError
from mha.grade.submissions import Submission, printable

MAX_REASON = 2000  # characters of one exercise's reason in the table
MAX_ERROR = 4000  # characters of a notebook's error column
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
    scores: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    results: dict[str, CheckResult] = field(default_factory=dict)  # for the feedback file
    sources: dict[str, str] = field(default_factory=dict)  # answers that used the reference
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


def grade(submission: Submission, sandbox: Sandbox, options: Options) -> Row:
    """Grade one submission; never raises because of the notebook."""
    start = time.monotonic()
    chapter, names = exercises_for(submission, options)
    row = Row(submission.name, submission.sha256, chapter, names)
    row.scores = dict.fromkeys(names, 0)
    problems = list(submission.notes)
    if submission.error or not names:
        reason = submission.error or "no check cell of a known exercise: its chapter is unknown"
        row.error = "; ".join([reason, *problems])
        row.reasons = dict.fromkeys(names, "not graded: " + reason)
        return row
    row.seed = _seed(submission, options)
    cases = {name: EXERCISES[name].trials(np.random.default_rng(row.seed)) for name in names}
    seconds = float(options.limits.check_seconds)
    job = {
        "cells": [[index, source] for index, source in submission.cells],
        "exercises": [
            {
                "name": name,
                "expression": submission.calls.get(name, name),
                "seconds": seconds,
                "references": list(EXERCISES[name].references),
                "cases": cases[name],
            }
            for name in names
        ],
        "limits": options.limits.to_job(len(names)),
        "sandboxed": sandbox.isolate,
        "fonts": sandbox.fonts_inside,
    }
    try:
        result = wire.unpack(sandbox.run(wire.pack(job), options.limits.wall_seconds(len(names))))
        problems += [str(p) for p in result["problems"]]
        if result["changed"]:
            shown = ", ".join(str(c) for c in result["changed"][:5])
            problems.append(
                f"the notebook changed the grading code in its kernel ({shown}); "
                "it was put back before grading"
            )
        answers = result["exercises"] if isinstance(result["exercises"], dict) else {}
    except (SandboxError, wire.WireError, KeyError, TypeError) as error:
        problems.append(f"not graded: {error}")
        answers = {}
    except Exception as error:  # a bug or a broken machine: this notebook only
        traceback.print_exc()
        problems.append(f"not graded: the grader failed ({type(error).__name__}: {error})")
        answers = {}
    for name in names:
        expression = submission.calls.get(name, name)
        judged = _judge(name, cases[name], answers.get(name), expression, seconds, row.seed)
        score, reason, checked, source = judged
        row.scores[name], row.reasons[name] = score, printable(reason)[:MAX_REASON]
        if checked is not None:
            row.results[name] = checked
        if source:
            row.sources[name] = source
    row.error = printable("; ".join(problems))[:MAX_ERROR]
    row.seconds = round(time.monotonic() - start, 1)
    return row


def _judge(name: str, cases: list, answer: Any, expression: str, seconds: float, seed: int):
    """(score, reason, CheckResult or None, source shown with a reference hit)."""
    if not isinstance(answer, dict):
        return 0, "not graded: the notebook's run ended before this exercise", None, None
    if "lost" in answer:
        return 0, f"not graded: {answer['lost']}", None, None
    try:
        outcomes, hits, tampered = answer["outcomes"], answer["hits"], answer["tampered"]
        timeout, error, source = answer["timeout"], answer["answer_error"], answer["source"]
        if not (isinstance(outcomes, list) and all(type(o) is Outcome for o in outcomes)):
            raise TypeError("outcomes")
        hits = [(str(what), str(where)) for what, where in hits]
        tampered = [str(t) for t in tampered]
    except (KeyError, TypeError, ValueError):
        return 0, "not graded: the kernel sent malformed results", None, None
    if hits:
        what, where = hits[0]
        reason = f"uses the reference implementation ({what}" + (
            f", called at {where})" if where else ")"
        )
        return 0, reason, None, source
    if tampered:
        reason = f"the answer changed the grading code while it ran ({', '.join(tampered[:3])})"
        return 0, reason, None, source
    if error is not None:
        return 0, f"no answer: evaluating {expression!r} raised {error}", None, None
    if timeout is not None:
        return 0, f"did not finish within {seconds:g} s (while running {timeout})", None, None
    stub = len(outcomes) == 1 and (outcomes[0].not_callable or stub_verdict(outcomes[0]))
    if len(outcomes) != len(cases) and not stub:
        reason = f"the kernel sent results for {len(outcomes)} of {len(cases)} test inputs"
        return 0, f"not graded: {reason}", None, None
    try:
        with _JUDGING:  # the checks are not written for threads (tracemalloc, warnings)
            verdict = EXERCISES[name].judge(cases[: len(outcomes)], outcomes)
    except Exception as error:  # a bug in a check must not stop the class
        return 0, f"not graded: the check failed ({type(error).__name__}: {error})", None, None
    result = verdict.result(name, seed)
    if result.passed:
        return 1, "", result, None
    reason = f"{result.status}: {result.feedback}"
    if result.hint:
        reason += f" | Hint: {result.hint}"
    return 0, reason, result, None
