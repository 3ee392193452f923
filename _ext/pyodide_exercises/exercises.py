"""A chapter's exercises, found from the notebook's markup (never from a typed list).

An exercise is a markdown ``:::{exercise} Title`` block with a ``:label:``; the first run of
code cells after it, before its *check cell* (one whose last statement is
``check("name", ...)``), are its answer cells (the stub the reader completes); the code cells
after a markdown cell that follows them are the chapter's (a prediction's experiment);
a later ``:::{solution} label`` block names the solution's file and ``:pyobject:``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

_BLOCK = re.compile(r"(?=^:::\{)", re.M)
_EXERCISE = re.compile(r"^:::\{exercise\}\s*(?P<title>.*)$", re.M)
_SOLUTION = re.compile(r"^:::\{solution\}\s+(?P<label>\S+)", re.M)
_LABEL = re.compile(r"^:label:\s*(\S+)", re.M)
_INCLUDE = re.compile(r"^```\{literalinclude\}\s+(?P<path>\S+)", re.M)
_PYOBJECT = re.compile(r"^:pyobject:\s*(?P<name>\S+)", re.M)


@dataclass(frozen=True)
class Exercise:
    """One exercise of a notebook; cells are indices into the notebook's cells."""

    label: str
    title: str  # as plain text: without its difficulty stars, math or code marks
    name: str  # the exercise's name in mha.checks, from its check cell
    answer_cells: tuple[int, ...]
    check_cell: int
    solution: tuple[Path, str] | None  # (the solution's file, the object it shows)


def plain_title(title: str) -> str:
    """An exercise's title as plain text, for the editor's label (MathJax typesets only the
    heading): math and code marks dropped (``$d_k$`` reads ``d_k``), and the stars."""
    return re.sub(r"\$([^$]*)\$|`([^`]*)`", lambda m: m[1] or m[2] or "", title).rstrip("★ ")


def check_name(source: str) -> str | None:
    """The exercise name of a check cell (``check("name", answer)`` last), else None."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return None
    last = body[-1] if body else None
    if (
        isinstance(last, ast.Expr)
        and isinstance(last.value, ast.Call)
        and isinstance(last.value.func, ast.Name)
        and last.value.func.id == "check"
        and last.value.args
        and isinstance(last.value.args[0], ast.Constant)
        and isinstance(last.value.args[0].value, str)
    ):
        return last.value.args[0].value
    return None


def read(path: Path) -> tuple[list[nbformat.NotebookNode], list[Exercise]]:
    """The notebook's cells and its exercises, in order (those with a check cell)."""
    cells = nbformat.read(path, as_version=4).cells
    found: dict[str, dict] = {}
    current = None
    for index, cell in enumerate(cells):
        if cell.cell_type == "markdown":
            if current is not None and current["answer_cells"]:
                current["stub_done"] = True  # the answer is the first run of code cells
            for block in _BLOCK.split(cell.source):
                exercise, solution = _EXERCISE.match(block), _SOLUTION.match(block)
                label = _LABEL.search(block)
                if exercise and label:
                    current = found[label[1]] = {
                        "label": label[1],
                        "title": plain_title(exercise["title"]),
                        "answer_cells": [],
                        "stub_done": False,
                        "check": None,
                        "solution": None,
                    }
                elif solution and solution["label"] in found:
                    include, pyobject = _INCLUDE.search(block), _PYOBJECT.search(block)
                    if include and pyobject:
                        found[solution["label"]]["solution"] = (
                            path.parent / include["path"],
                            pyobject["name"],
                        )
        elif cell.cell_type == "code" and current is not None and current["check"] is None:
            name = check_name(cell.source)
            if name is not None:
                current["check"] = (index, name)
            elif not current["stub_done"]:  # a prediction's experiment cells are the chapter's
                current["answer_cells"].append(index)
    return cells, [
        Exercise(
            e["label"],
            e["title"],
            e["check"][1],
            tuple(e["answer_cells"]),
            e["check"][0],
            e["solution"],
        )
        for e in found.values()
        if e["check"] is not None
    ]
