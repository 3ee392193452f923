"""Every figure of the book has a caption and alt text, set in its cell's myst-nb metadata.

myst-nb (1.x) wraps each display output of a code cell in a figure when the cell's metadata
holds ``{"mystnb": {"figure": {"caption": ..., "name": ...}, "image": {"alt": ...}}}``.

A cell *draws a figure* when, outside a function definition, it calls ``plt.<anything>``
(but ``plt.close``), a function of ``mha.book.diagrams``, ``head_grid``, ``attention_heatmap``,
``similarity_maps`` or ``attention_explorer``, or a function that an earlier cell of the
notebook defined and whose body does one of these (a helper of the notebook that calls
``plt.show()``). The detector is tested on small notebooks below. A figure name is optional (a cell that draws two figures
cannot name both), unique in the book, and starts with ``fig-``. The built site is checked
for the rendered ``<figcaption>`` and ``alt`` attributes by tests/test_book.py.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))
DRAWING_FUNCTIONS = {"head_grid", "attention_heatmap", "similarity_maps", "attention_explorer"}


def _tree(source: str) -> ast.Module:
    """The cell's code; IPython lines (``%pip``, ``!ls``) become ``pass``."""
    lines = source.splitlines()
    for i, line in enumerate(lines):
        code = line.lstrip()
        if code[:1] in ("%", "!"):
            lines[i] = line[: len(line) - len(code)] + "pass"
    return ast.parse("\n".join(lines))


def _called_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else ""
        if owner == "plt":
            return "" if func.attr == "close" else "plt"
        return "diagrams" if owner == "diagrams" else func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _calls_outside_functions(node: ast.AST):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(child, ast.Call):
            yield _called_name(child)
        yield from _calls_outside_functions(child)


def drawing_cells(nb) -> list:
    """The code cells of ``nb`` that draw a figure, in order."""
    drawing_names = {"plt", "diagrams", *DRAWING_FUNCTIONS}
    drawing = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tree = _tree(cell.source)
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            calls = {_called_name(n) for n in ast.walk(function) if isinstance(n, ast.Call)}
            if calls & drawing_names:
                drawing_names.add(function.name)
        if set(_calls_outside_functions(tree)) & drawing_names:
            drawing.append(cell)
    return drawing


def caption_problems(nb) -> list[str]:
    """What is wrong with the figures' metadata of ``nb``: one line per problem."""
    problems = []
    drawing = {cell.id for cell in drawing_cells(nb)}
    for cell in nb.cells:
        options = cell.metadata.get("mystnb", {})
        figure, image = options.get("figure", {}), options.get("image", {})
        if cell.id in drawing:
            if not str(figure.get("caption", "")).strip():
                problems.append(f"cell {cell.id} draws a figure without mystnb.figure.caption")
            if not str(image.get("alt", "")).strip():
                problems.append(f"cell {cell.id} draws a figure without mystnb.image.alt")
            if "name" in figure and not re.fullmatch(r"fig-[a-z0-9-]+", figure["name"]):
                problems.append(f"cell {cell.id}: figure name {figure['name']!r} is not fig-...")
        elif figure or image:
            problems.append(f"cell {cell.id} has figure metadata but draws no figure")
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_has_a_caption_and_alt_text(path):
    nb = nbformat.read(path, as_version=4)
    assert drawing_cells(nb), f"{path.name} draws no figure: is the detector still right?"
    assert caption_problems(nb) == []


def test_figure_names_are_unique_in_the_book():
    names = [
        cell.metadata["mystnb"]["figure"]["name"]
        for path in NOTEBOOKS
        for cell in nbformat.read(path, as_version=4).cells
        if "name" in cell.metadata.get("mystnb", {}).get("figure", {})
    ]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


# The detector, on small notebooks.

CAPTIONED = {
    "mystnb": {
        "figure": {"caption": "A line.", "name": "fig-a"},
        "image": {"alt": "A rising line."},
    }
}


def _notebook(*cells) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(source, id=f"c{i}", metadata=metadata or {})
        for i, (source, metadata) in enumerate(cells)
    ]
    return nb


@pytest.mark.parametrize(
    "source",
    [
        "plt.plot([1, 2])\nplt.show()",
        "fig, ax = plt.subplots()",
        "from mha import diagrams\n\ndiagrams.score_masks()\nplt.show()",
        "head_grid(w)",
        "plot.attention_heatmap(w, ax=ax)",
        "attention_explorer(tokens, weights)",
        "%pip install -q mha\nplt.show()",
    ],
)
def test_a_cell_that_draws_needs_caption_and_alt(source):
    assert caption_problems(_notebook((source, None))) == [
        "cell c0 draws a figure without mystnb.figure.caption",
        "cell c0 draws a figure without mystnb.image.alt",
    ]
    assert caption_problems(_notebook((source, CAPTIONED))) == []


def test_a_helper_that_draws_makes_its_callers_draw():
    nb = _notebook(
        ("def show(m):\n    plt.imshow(m)\n    plt.show()", None),  # defines, draws nothing yet
        ("x = 1\nshow(x)", None),
        ("def helper():\n    return 2", None),
        ("helper()", None),
    )
    assert [cell.id for cell in drawing_cells(nb)] == ["c1"]


def test_cells_that_do_not_draw_need_nothing_and_may_not_claim_a_figure():
    nb = _notebook(("print('no figure')\nplt.close('all')", None), ("x = 2", CAPTIONED))
    assert caption_problems(nb) == ["cell c1 has figure metadata but draws no figure"]


def test_empty_alt_text_and_a_bad_name_are_problems():
    metadata = {
        "mystnb": {"figure": {"caption": "A line.", "name": "Figure 1"}, "image": {"alt": " "}}
    }
    assert caption_problems(_notebook(("plt.show()", metadata))) == [
        "cell c0 draws a figure without mystnb.image.alt",
        "cell c0: figure name 'Figure 1' is not fig-...",
    ]
