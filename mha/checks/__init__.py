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
Each chapter has its module (``ch01_attention.py``, ..., ``ch11_efficient.py``) holding its
exercises' test inputs, reference variants, mistake tables and its piece of the registry, a
dict ``EXERCISES``; :data:`EXERCISES` here merges those pieces in chapter order (a name
registered twice is an error). ``core.py`` holds what every check shares (the result, test
inputs, running an answer, comparisons, the time limit) and ``kinds.py`` the exercise kinds.

For a function exercise, add to the chapter's module a case function that returns the test
inputs (a list of :class:`Case`) and a mistake table, a tuple of :class:`Mistake` (each a
wrongly written variant of the reference, with a title and a hint), then one registry entry
``FunctionExercise(chapter, reference, cases, mistakes, output_names)``. For a number or a
shape, the entry is ``NumberExercise`` or ``ShapeExercise`` with the expected value and a
tuple of :class:`WrongValue`. A new chapter's module is added to ``_CHAPTERS`` below.
``tests/test_checks.py`` then expects a solution in ``chapters/solutions/NN_topic.py`` and one
wrong answer per mistake id.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np

from mha.checks import (
    ch01_attention,
    ch02_projections,
    ch03_heads,
    ch04_output,
    ch05_masks,
    ch06_pytorch,
    ch07_gpu,
    ch08_heads_in_practice,
    ch09_transformer,
    ch11_efficient,
)
from mha.checks.core import (
    DEFAULT_TIME_LIMIT,
    FAILED,
    NOT_ATTEMPTED,
    PASSED,
    Case,
    CheckResult,
    _Outcome,
    _TimeUp,
    _within_time_limit,
)
from mha.checks.kinds import (
    Exercise,
    FunctionExercise,
    Mistake,
    NumberExercise,
    ShapeExercise,
    WrongValue,
)

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "EXERCISES",
    "FAILED",
    "NOT_ATTEMPTED",
    "PASSED",
    "Case",
    "CheckResult",
    "FunctionExercise",
    "Mistake",
    "NumberExercise",
    "ShapeExercise",
    "WrongValue",
    "check",
]

# --- the registry -------------------------------------------------------------------------

_CHAPTERS = (
    ch01_attention,
    ch02_projections,
    ch03_heads,
    ch04_output,
    ch05_masks,
    ch06_pytorch,
    ch07_gpu,
    ch08_heads_in_practice,
    ch09_transformer,
    ch11_efficient,
)


def _merged(chapters: Sequence[ModuleType]) -> dict[str, Exercise]:
    """The chapters' ``EXERCISES`` in one dict, in chapter order; a name registered twice raises."""
    exercises: dict[str, Exercise] = {}
    registered_in: dict[str, str] = {}
    for module in chapters:
        for name, exercise in module.EXERCISES.items():
            if name in exercises:
                raise ValueError(
                    f"exercise {name!r} is registered twice: in {registered_in[name]} and in "
                    f"{module.__name__}"
                )
            exercises[name], registered_in[name] = exercise, module.__name__
    return exercises


EXERCISES: dict[str, Exercise] = _merged(_CHAPTERS)


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
