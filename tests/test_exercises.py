"""The exercises as the notebooks show them: every exercise has its difficulty (one to three
stars at the end of its title), its importance and time budget (the line under the title), a
hint that opens on demand, a check cell and a solution toggle; the README's table of exercises
says the same as the notebooks; no function a chapter's cells define, and no function of the
package, passes an exercise of two or three stars; prose refers to an
exercise by its label (``{numref}`ex-...```, numbered by the site across the book), never by a
typed number ("exercise 3"), which the site's numbering would contradict; and the book's own
"by hand" functions pass the checks of the exercises they mirror.

Covers whatever notebooks ``chapters/`` holds.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import math
import pkgutil
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import numpy as np
import pytest

import mha
from mha.checks import EXERCISES, FAILED, FunctionExercise, run_answer
from mha.grade import slicing

pytestmark = pytest.mark.numeric  # rerun as other CPUs compute: python3 dev.py matrix

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
EXERCISE = re.compile(r"^:::\{exercise\} (?P<title>.+?)(?: (?P<stars>★+))?$", re.M)
CHECK = re.compile(r'^check\("(?P<name>\w+)", (?P<answer>\w+)\)$')
TYPED_EXERCISE = re.compile(r"\b[Ee]xercises? *(?:no\.? *)?#?\d+")
EXERCISE_REF = re.compile(r"\{(?:num)?ref\}`(?:[^`<]*<)?(ex-[a-z0-9-]+)>?`")
IMPORTANCE = re.compile(
    r"^Importance (?P<importance>●[●○]{2}) · about (?P<minutes>\d+) minutes$", re.M
)
README_ROW = re.compile(
    r"^\| (?P<chapter>\d+) \| `(?P<name>\w+)` \| (?P<title>.+?) \| (?P<stars>★+) \| "
    r"(?P<importance>●[●○]{2}) \| (?P<minutes>\d+) \|$"
)


@dataclass(frozen=True)
class Shown:
    """One exercise as a notebook shows it."""

    chapter: int
    name: str
    title: str
    stars: str
    label: str
    hint: bool
    solution: bool
    importance: str  # ●●● (later chapters build on it) to ●○○ (optional)
    minutes: int  # the time budget


def _exercises(path: Path) -> list[Shown]:
    """The notebook's exercises in order: each directive with what follows it up to the next."""
    cells = nbformat.read(path, as_version=4).cells
    found, current = [], None
    for cell in cells:
        if cell.cell_type == "markdown":
            for block in re.split(r"(?=^:::\{)", cell.source, flags=re.M):
                match = EXERCISE.match(block)
                if match:
                    label = re.search(r"^:label: (\S+)", block, re.M)
                    budget = IMPORTANCE.search(block)
                    current = {
                        "title": match["title"], "stars": match["stars"] or "",
                        "label": label[1] if label else "", "hint": False, "solution": False, "name": None,
                        "importance": budget["importance"] if budget else "",
                        "minutes": int(budget["minutes"]) if budget else 0,
                    }  # fmt: skip
                    found.append(current)
                elif current and block.startswith(":::{admonition} Hint"):
                    current["hint"] = ":class: dropdown" in block.splitlines()[1]
                elif current and block.startswith(f":::{{solution}} {current['label']}"):
                    current["solution"] = (
                        ":class: dropdown" in block and "{literalinclude}" in block
                    )
        elif current is not None:
            match = CHECK.match(cell.source.strip())
            if match and current["name"] is None:
                current["name"] = match["name"]
    chapter = int(path.name[:2])
    return [Shown(chapter, **e) for e in found]


SHOWN = [exercise for path in NOTEBOOKS for exercise in _exercises(path)]


@pytest.mark.parametrize("exercise", SHOWN, ids=lambda e: f"{e.chapter:02d}-{e.label}")
def test_every_exercise_has_stars_a_hint_a_check_and_a_solution(exercise):
    assert 1 <= len(exercise.stars) <= 3, f"{exercise.title!r}: end the title with one to three ★"
    assert exercise.importance and 1 <= exercise.minutes <= 60, (
        f"{exercise.title!r}: under the title, 'Importance ●●○ · about 15 minutes'"
    )
    assert exercise.label.startswith("ex-"), f"{exercise.title!r} has no :label: ex-..."
    assert exercise.hint, f"{exercise.label}: no ':::{{admonition}} Hint' with ':class: dropdown'"
    assert exercise.name in EXERCISES, f'{exercise.label}: no check("name", answer) cell after it'
    assert EXERCISES[exercise.name].chapter == exercise.chapter
    assert exercise.solution, (
        f"{exercise.label}: no ':::{{solution}} {exercise.label}' dropdown toggle"
    )


def test_every_notebook_has_its_chapters_exercises_once():
    shown = [e.name for e in SHOWN]
    assert len(shown) == len(set(shown)), "an exercise is shown twice"
    chapters = {int(path.name[:2]) for path in NOTEBOOKS}
    registered = [name for name, e in EXERCISES.items() if e.chapter in chapters]
    assert sorted(shown) == sorted(registered)


def exercise_reference_problems(name: str, markdown: str, labels: set[str]) -> list[str]:
    """An exercise referred to by a typed number, or a reference to a label no exercise has."""
    problems = [f"{name}: {m[0]!r} typed; refer to it as {{numref}}`ex-...`"
                for m in TYPED_EXERCISE.finditer(markdown)]  # fmt: skip
    problems += [f"{name}: a reference to {label}, which no exercise has"
                 for label in EXERCISE_REF.findall(markdown) if label not in labels]  # fmt: skip
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_prose_refers_to_exercises_by_label(path):
    markdown = "\n".join(
        c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"
    )
    assert exercise_reference_problems(path.name, markdown, {e.label for e in SHOWN}) == []


def test_the_reference_rule_finds_typed_numbers_and_unknown_labels():
    labels = {"ex-softmax"}
    assert (
        exercise_reference_problems("a", "as {numref}`ex-softmax` asks; exercises below", labels)
        == []
    )
    for typed in ("as exercise 3 asks", "Exercise 12 asks", "in exercises 2 and 3", "exercise #4"):
        assert exercise_reference_problems("a", typed, labels), typed
    assert exercise_reference_problems("a", "see {numref}`ex-nothing`", labels)
    assert exercise_reference_problems("a", "see {ref}`the exercise <ex-nothing>`", labels)


def _readme_table() -> list[tuple[int, str, str, str, str, int]]:
    text = (ROOT / "README.md").read_text()
    return [
        (int(m["chapter"]), m["name"], m["title"], m["stars"], m["importance"], int(m["minutes"]))
        for m in map(README_ROW.match, text.splitlines())
        if m
    ]


def test_the_readme_lists_every_exercise_as_the_notebooks_show_it():
    shown = [(e.chapter, e.name, e.title, e.stars, e.importance, e.minutes) for e in SHOWN]
    assert _readme_table() == shown, (
        "the README's table of exercises (chapter, exercise, title, difficulty, importance, "
        "minutes) must list the notebooks' exercises in their order"
    )


def test_the_table_parser_reads_a_row_and_the_exercise_parser_its_stars():
    row = "| 1 | `softmax` | A stable softmax | ★ | ●●● | 10 |"
    assert README_ROW.match(row).groups() == ("1", "softmax", "A stable softmax", "★", "●●●", "10")
    line = "Importance ●○○ · about 5 minutes"
    assert IMPORTANCE.search(line).groups() == ("●○○", "5")
    assert EXERCISE.match(":::{exercise} Find the bugs ★★★")["stars"] == "★★★"
    assert EXERCISE.match(":::{exercise} No stars")["stars"] is None


# --- the book's own code passes its own checks ---------------------------------------------

# Each "by hand" function a chapter defines, the exercise it mirrors, the diagnosis its check
# must give (None: it passes), whether it drifts float32 to float64 (so it passes with the
# note), and the inputs it is written for (the others are left out).
BY_HAND = {
    "softmax_by_hand": ("softmax", None, False, None),
    "naive_softmax": ("softmax", "unstable_softmax", False, None),
    "attention_by_hand": ("scaled_dot_product_attention", None, True, None),  # takes no mask
    "split_heads_by_hand": ("split_heads", None, False, None),
    "merge_heads_by_hand": ("merge_heads", None, False, None),
    "mha_by_hand": ("multi_head_attention", None, True, None),
    "blocked_attention": ("online_softmax_attention", None, False, None),
    # chapter 10's other RoPE layout, shown as a mistake; it needs the positions
    "rope_neighbours": ("apply_rope", "neighbouring_pairs", False, None),
}


def _by_hand_functions() -> dict[str, object]:
    """Every function of the BY_HAND table, from the notebooks' code cells (only their defs run)."""
    found: dict[str, object] = {}
    for path in NOTEBOOKS:
        namespace = {"np": np, "math": math, "mha": mha}
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:  # a cell with IPython syntax (the setup cell)
                continue
            for node in tree.body:
                if not isinstance(node, ast.FunctionDef):
                    continue
                try:  # a def whose defaults need the notebook's variables is not one of ours
                    exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
                except NameError:
                    continue
                if node.name in BY_HAND:
                    found[node.name] = namespace[node.name]
    return found


BY_HAND_FUNCTIONS = _by_hand_functions()


def test_every_by_hand_function_of_the_table_is_in_a_chapter():
    assert set(BY_HAND) == set(BY_HAND_FUNCTIONS), "a by-hand function was renamed or removed"


@pytest.mark.parametrize("name", list(BY_HAND))
def test_the_books_own_code_passes_its_own_checks(name):
    exercise_name, diagnosis, drift, written_for = BY_HAND[name]
    exercise, fn = EXERCISES[exercise_name], BY_HAND_FUNCTIONS[name]
    signature = inspect.signature(fn)

    def accepts(args: tuple) -> bool:
        try:
            signature.bind(*args)
        except TypeError:
            return False
        return written_for is None or written_for(args)

    cases = [c for c in exercise.trials(np.random.default_rng(5)) if accepts(c.args)]
    assert len(cases) >= 3
    verdict = exercise.judge(cases, [run_answer(exercise, fn, c) for c in cases])
    if diagnosis is None:
        assert verdict.status == "passed", verdict.feedback
        assert bool(verdict.note) == drift, verdict.note
    else:
        assert verdict.status == FAILED and verdict.diagnosis == diagnosis, verdict.feedback
    assert isinstance(exercise, FunctionExercise)


# --- no shown cell passes an exercise of two or three stars --------------------------------

TRANSFER = 2  # stars from which an exercise must ask for more than a shown cell computes


def _shown_functions(path: Path) -> dict[str, object]:
    """Every function a notebook's code cells define, with what their bodies read from the
    notebook: each cell's imports, function and class definitions and assignments of plain
    constants run in order, nothing else (no training, no figure)."""
    namespace: dict[str, object] = {"__name__": "__main__"}
    found: dict[str, object] = {}
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(slicing.to_python(cell.source))
        for node in tree.body:
            constant = isinstance(node, ast.Assign) and all(
                isinstance(n, ast.Constant | ast.Tuple) for n in ast.walk(node.value)
                if not isinstance(n, ast.Load)
            )  # fmt: skip
            if not (isinstance(node, _DEFINITIONS) or constant):
                continue
            try:
                exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
            except Exception:  # a def whose defaults need what the notebook computes
                continue
            if isinstance(node, ast.FunctionDef):
                found[node.name] = namespace[node.name]
    return found


_DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)


def _package_functions(name: str) -> dict[str, object]:
    """The package's own functions that an exercise could be answered with: its references
    inside ``mha`` (not the checks' own), and any public function of ``mha`` of its name."""
    exercise = EXERCISES[name]
    dotted = [r for r in exercise.references if r.startswith("mha.") and ".checks." not in r]
    dotted += [
        f"{m.name}.{name}" for m in pkgutil.walk_packages(mha.__path__, "mha.")
        if not any(part.startswith("_") for part in m.name.split("."))
        and m.name.split(".")[1] not in ("checks", "grade", "bench")
    ]  # fmt: skip
    found = {}
    for path in dict.fromkeys(dotted):
        module, _, attribute = path.rpartition(".")
        while module:
            try:
                owner = importlib.import_module(module)
                break
            except ImportError:
                module, _, head = module.rpartition(".")
                attribute = f"{head}.{attribute}"
        else:
            continue
        target = owner
        for part in attribute.split("."):
            target = getattr(target, part, None)
        if callable(target) and not isinstance(target, type):
            found[path] = target
    return found


def passes(name: str, answer: object, seed: int = 11) -> bool:
    exercise = EXERCISES[name]
    cases = exercise.trials(np.random.default_rng(seed))
    outcomes = []
    for case in cases:
        outcome = run_answer(exercise, answer, case)
        if outcome.error is not None or outcome.not_callable:
            return False  # a shown function that raises passes nothing
        outcomes.append(outcome)
    return exercise.judge(cases, outcomes).status == "passed"


HARD = [
    e for e in SHOWN if len(e.stars) >= TRANSFER and isinstance(EXERCISES[e.name], FunctionExercise)
]


@pytest.mark.parametrize("exercise", HARD, ids=lambda e: f"{e.chapter:02d}-{e.name}")
def test_no_shown_cell_and_no_package_function_passes_an_exercise_of_two_or_three_stars(exercise):
    path = next(p for p in NOTEBOOKS if int(p.name[:2]) == exercise.chapter)
    candidates = {f"the cell's {n}": fn for n, fn in _shown_functions(path).items()}
    candidates |= _package_functions(exercise.name)
    passing = [label for label, fn in candidates.items() if passes(exercise.name, fn)]
    assert passing == [], (
        f"{exercise.name} ({exercise.stars}) is passed by {', '.join(passing)}: an exercise of "
        "two or three stars must ask for what the chapter did not show (or be one star)"
    )


def test_the_transfer_test_catches_a_shown_cell_and_the_package():
    assert passes("softmax", _shown_functions(NOTEBOOKS[0])["softmax_by_hand"])
    assert "mha.causal_mask" in _package_functions("causal_mask")
    assert passes("causal_mask", _package_functions("causal_mask")["mha.causal_mask"])
    assert not passes("softmax", _shown_functions(NOTEBOOKS[0])["naive_softmax"])
