"""Exercise checks that say *what* is wrong: ``check(name, answer)``.

In a notebook::

    from mha.checks import check

    def softmax(x, axis=-1):
        ...                      # the reader's answer

    check("softmax", softmax)    # shows a green box, or what failed and a hint

``check`` returns a :class:`CheckResult` with ``.passed``, ``.status`` ("passed", "failed"
or "not attempted"), ``.feedback``, ``.diagnosis`` (the id of a recognised mistake, or
``None``), ``.hint`` and ``.note`` (advice on a passing answer). It never raises because of
the answer or the name: an unknown exercise name fails with a message that lists the known
ones (only a bad ``time_limit`` raises ``ValueError``).

What a check does
-----------------
A *function* exercise (the reader writes a function; when it is one of the package's
functions, with the same name and signature) runs the answer on fresh random inputs drawn from
the seed (several shapes and sizes, dtypes, with and without masks), and compares each result
with the reference's: return type and tuple arity, then shape, then NaN/inf, then values, then
dtype, so the message says which one was wrong. It judges the mathematics: any idiom passes,
and a float32 input that gives a float64 result with the right values passes with a *note*
(other dtype changes fail; float16 and bfloat16 results are named as low precision, a float
where a count is asked as such). Modifying an input fails. When the answer is wrong, the check
names the mistake it looks like, most specific first:

1. a *stored variant* (a deliberately wrong version of the reference) that equals the answer
   on every input, raising the same error (type and message) where it raised;
2. a *relation* between the answer's results and the reference's that reproduces the answer on
   every input (:mod:`mha.checks.relations`: a meaningful factor, the logarithm or the
   reciprocal of the right result, the axes in another order, a reduction over an axis, a
   shift by one, an order reversed, a division by the sum, the reference on changed inputs
   such as ``head - 1``, an inverted mask, a transposed weight or a missing bias, a term or
   factor of a count, rounding up, ...; a count that two changes explain alike names neither): any
   exercise gets these without a table, and a table's mistake names the relations it explains;
3. a variant that equals the answer wherever the answer returned a value, or wherever the
   variant itself returned one (an answer that makes the mistake where the shapes allow it);
4. *properties* of the answer's results (weights whose columns sum to 1, an output that changes
   when a masked key's value changes, ...), in the table's order, then the relations that hold
   in part (wrong only on the fully masked query rows, only with batch axes, an error on the
   inputs without biases, zeros where it is wrong, an overflow on the largest inputs, the
   right numbers in other places, ...); where no property holds and no partial relation says
   why (only where: which output, which indices), first an *edit of the book's solution*
   (:mod:`mha.checks.edits`): the one-step change of the solution's code that gives the
   answer's results on every input, named by its line and what changed there (never for an
   answer that only raises, nor for a count).

Inputs that test an edge (a query that may attend no key, weights that underflowed to 0) are
left out when variants and exact relations are compared, so that an answer that makes a known
mistake and also misses the edge is still named.

A *value* exercise (a number or a shape) compares the answer with the expected value and
recognises known wrong values (the variance instead of the standard deviation, ...); a count
may give its formula as data (``terms``, ``values``, ``alternatives``), so that a missing,
doubled, extra or replaced factor is named.

Stubs: an answer that is ``...`` or ``None``, that raises the stub's bare
``NotImplementedError`` (an exception with a message is the answer's own and is shown), or a
function that returns ``None``, is "not attempted" (so a notebook with untouched stubs still
runs top to bottom). A value exercise may also be answered with a function of no arguments
that returns the value.

The three steps, for a grader
-----------------------------
``check`` is three steps that a grader can run apart, the middle one in a sandboxed kernel
and the other two in its own process::

    exercise = EXERCISES[name]
    cases = exercise.trials(np.random.default_rng(seed))      # 1. every input (trusted)
    outcomes = [run_answer(exercise, answer, c) for c in cases]  # 2. the answer's calls
    verdict = exercise.judge(cases, outcomes)                 # 3. compare, diagnose (trusted)
    result = verdict.result(name, seed)                       # a CheckResult

1. ``trials(rng) -> list[Case]`` gives every input the answer is called on, probes for the
   property diagnoses included; they depend on the seed, sizes too. A :class:`Case` is a
   ``description`` (unique within the list), ``args`` (positional arguments) and, for a
   probe, ``probe_of`` (the description of the case it varies) and ``probe`` (what it
   changes). ``args`` hold only *wire-safe* values (:func:`is_wire_safe`): NumPy arrays of a
   numeric or bool dtype; Python ``int``, ``float``, ``bool``, ``str``, ``None``; tuples and
   lists of these; ``mha.MHAParams`` and ``mha.efficient.GQAParams``. A number or shape
   exercise has one case without arguments.
2. :func:`run_answer` ``(exercise, answer, case) -> Outcome`` calls the answer on fresh copies
   of the arguments, converted as the exercise needs by its ``prepare`` (NumPy to torch
   tensors and modules in chapters 6 and 10; in chapter 11, (name, array) pairs to a read-only
   state dict and the numbers that define ``evaluate`` to the function), and records an
   :class:`Outcome`: ``value`` (converted back to wire-safe data:
   arrays, Python numbers, tuples/lists, parameter containers; anything else becomes a
   :class:`Foreign` with its type name and a short repr), ``error`` ((type name, message)),
   ``mutated`` (the argument changed in place), ``measurements`` (e.g. ``peak_bytes`` for
   an exercise that limits memory) and ``not_callable``. It decides nothing.
3. ``judge(cases, outcomes) -> Verdict`` runs the reference, the stored variants and the
   properties in the trusted process and writes the feedback; it is pure (same inputs, same
   verdict). ``outcomes`` must be one per case; a judge also accepts a subset of the trials
   (probes without their base case are ignored).

Every exercise also has ``references``: the dotted names of the callables that count as its
reference (the names of its ``reference`` itself, taken from the object, then its
``other_references``) (``"mha.softmax"``, ``"torch.softmax"``, ...), which an answer must not call; a
grader enforces that, ``check`` does not.

Time limit
----------
Each check runs the answer under a time limit (``time_limit`` seconds, 10 by default, for all
its calls together; the comparison and the diagnosis that follow are the checks' own work and
do not count, so a slow diagnosis never reads as a slow answer). On the main thread
of a POSIX process (a Jupyter kernel, a script) it uses ``SIGALRM``: when time is up, an
exception is raised inside the answer, which stops an infinite Python loop; a single long C call
(one huge ``matmul``) finishes first. Elsewhere (Windows, or ``check`` called from another
thread) the check runs in a daemon thread and stops *waiting* when time is up; a thread cannot
be killed, so a looping answer keeps running in the background until the kernel restarts.
In Pyodide (the website's "Run here"), which has neither, the check itself has no limit: the
page stops the Python that runs it when time is up.
The elapsed time decides, not the alarm: once time is up the alarm fires again every few
hundredths of a second, the check stops between inputs, and an answer that caught the alarm
(a bare ``except:``) and finished late still fails.

Adding an exercise
------------------
Each chapter has its module in ``chapters/`` (``ch01_attention.py``, ...,
``ch13_online_softmax_devices.py``) holding its exercises' inputs, reference variants,
mistake tables and its piece of the registry, a dict ``EXERCISES``; :data:`EXERCISES` here merges every ``chNN_topic`` module's
pieces in chapter order (a name registered twice is an error), and an exercise's chapter is
the number in its module's name: a new chapter is a new file, a renumbered one a renamed
file. ``core.py`` holds the results, cases, outcomes, :func:`run_answer`'s machinery and the
time limit; ``compare.py`` the comparisons; ``kinds.py`` the exercise kinds;
``properties.py`` the property diagnoses that several exercises share; ``relations.py`` the
diagnoses from the relation between an answer and the reference; ``edits.py`` those from the
edits of the book's solution; ``inputs.py`` the test
inputs and ``variants.py`` the wrong variants that several chapters draw on.

- **A function exercise**: a case function ``cases(rng) -> list[Case]`` (draw sizes and values
  from ``rng``; add probes where a property needs them), a table of :class:`Mistake` (most
  specific first; each with an ``implementation``, a wrongly written variant of the reference,
  and/or a ``detect(evidence) -> str | None`` property that returns a sentence saying what was
  seen, see :class:`mha.checks.kinds.Evidence`), then the entry
  ``FunctionExercise(reference, cases, mistakes, output_names)``, with keywords as
  needed: ``other_references`` (other callables an answer must not call, by the dotted name
  of where each is defined), ``tensors``/``prepare`` (torch
  answers), ``measure``/``requirements`` (a property every answer must have, such as a memory
  limit, checked even when the values are right), and the data that makes relations speak:
  ``quantities`` (named sizes, for naming factors), ``axes`` (the outputs' axis names),
  ``terms`` and ``exact`` (for counts), ``edges`` (probe kinds of inputs that test an edge).
  A mistake may bind relations with ``relations=("input:head-1", ...)``.
- **A number or a shape**: ``NumberExercise(expected, wrong_values)`` or
  ``ShapeExercise(...)`` with a tuple of :class:`WrongValue`; a count also ``terms``,
  ``values``, ``alternatives`` and ``integer=True``.
- **In the notebook**, in the chapter's Exercises section: a markdown cell with
  ``:::{exercise} Title ★★`` (one to three stars at the end of the title: the difficulty, which
  lives only there) and a ``:label: ex-...``, then a ``:::{admonition} Hint`` block with
  ``:class: dropdown``; a code cell with the stub; a code cell ``check("name", answer)``; a
  markdown cell with the ``:::{solution} ex-...`` toggle (``:class: dropdown``) that
  ``literalinclude``s ``chapters/solutions/NN_topic.py`` with ``:pyobject: name``.
- **Around it**: the solution in ``chapters/solutions/NN_topic.py``; the exercise in the
  README's table (chapter, name, difficulty: a test compares it with the notebooks); for a
  function exercise at least three mistakes, and answers written as readers write them in
  ``tests/corpus/`` (correct ones, and wrong ones labelled with the mistake they must be named
  as); ``tests/test_checks.py`` then runs them all, and reports the rate on the newest
  held-out round of ``tests/heldout/`` (answers written blind after the diagnosis was frozen,
  never added to the tables or the corpus).
"""

from __future__ import annotations

import dataclasses
import difflib
import random
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np

from mha.checks import chapters
from mha.checks.core import (
    DEFAULT_TIME_LIMIT,
    FAILED,
    NOT_ATTEMPTED,
    PASSED,
    Case,
    CheckResult,
    Foreign,
    Outcome,
    TimeUp,
    Verdict,
    is_wire_safe,
    within_time_limit,
)
from mha.checks.kinds import (
    Evidence,
    Exercise,
    FunctionExercise,
    Mistake,
    NumberExercise,
    ShapeExercise,
    WrongValue,
    stub_verdict,
)

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "EXERCISES",
    "FAILED",
    "NOT_ATTEMPTED",
    "PASSED",
    "Case",
    "CheckResult",
    "Evidence",
    "Foreign",
    "FunctionExercise",
    "Mistake",
    "NumberExercise",
    "Outcome",
    "ShapeExercise",
    "Verdict",
    "WrongValue",
    "check",
    "is_wire_safe",
    "run_answer",
]

# --- the registry -------------------------------------------------------------------------


def _merged(modules: Sequence[ModuleType]) -> dict[str, Exercise]:
    """The modules' ``EXERCISES`` in one dict, in their order, each exercise with the chapter
    its module's name carries (``ch04_output``: 4); a name registered twice raises."""
    exercises: dict[str, Exercise] = {}
    registered_in: dict[str, str] = {}
    for module in modules:
        chapter = chapters.chapter_of(module.__name__)
        for name, exercise in module.EXERCISES.items():
            if name in exercises:
                raise ValueError(
                    f"exercise {name!r} is registered twice: in {registered_in[name]} and in "
                    f"{module.__name__}"
                )
            exercises[name] = dataclasses.replace(exercise, chapter=chapter, name=name)
            registered_in[name] = module.__name__
    return exercises


EXERCISES: dict[str, Exercise] = _merged(chapters.modules())


# --- the public entry points --------------------------------------------------------------


def run_answer(exercise: Exercise, answer: Any, case: Case) -> Outcome:
    """Step 2 of a check: call ``answer`` on fresh copies of ``case.args`` and record what it
    did as plain data (see :class:`Outcome`). Decides nothing; never raises because of the
    answer (only the check's own time limit passes through)."""
    return exercise.run(answer, case)


def _unknown_name(name: Any) -> CheckResult:
    close = difflib.get_close_matches(str(name), list(EXERCISES), n=1)
    suggestion = f"did you mean {close[0]!r}? " if close else ""
    return CheckResult(
        str(name),
        FAILED,
        f"unknown exercise {name!r}; {suggestion}known exercises: {', '.join(EXERCISES)}",
        "unknown_exercise",
        "the first argument of check is the exercise's name, as in its check cell",
    )


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
    if not (isinstance(time_limit, int | float) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if not isinstance(name, str) or name not in EXERCISES:
        return _unknown_name(name)
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    exercise = EXERCISES[name]
    if answer is None or answer is Ellipsis:
        return CheckResult(name, NOT_ATTEMPTED, "not attempted yet", seed=seed)
    progress = {"case": "the first test input"}
    deadline = time.monotonic() + time_limit

    def work() -> tuple[list, list]:
        cases = exercise.trials(np.random.default_rng(seed))
        outcomes = []
        for case in cases:
            if time.monotonic() > deadline:  # the answer caught the alarm: stop here
                raise TimeUp
            progress["case"] = case.description
            outcomes.append(run_answer(exercise, answer, case))
            if len(outcomes) == 1 and (stub_verdict(outcomes[0]) or outcomes[0].not_callable):
                return cases[:1], outcomes  # nothing more to run
        return cases, outcomes

    try:  # the limit is the answer's: the verdict below (the diagnosis search) is the checks'
        cases, outcomes = within_time_limit(work, time_limit)
    except TimeUp:
        return CheckResult(
            name,
            FAILED,
            f"did not finish within {time_limit:g} s (while running {progress['case']})",
            "time_limit",
            "look for a loop that never ends, or work that grows much faster than the input",
            seed,
        )
    return exercise.judge(cases, outcomes).result(name, seed)
