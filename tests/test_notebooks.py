"""Notebook hygiene: what nbval cannot see.

Every notebook in ``chapters/`` is committed without outputs, is listed in ``_toc.yml``, runs
on the ``python3`` kernel, and starts with the setup cell below, whose install URL is the
``repository.url`` and ``branch`` of ``_config.yml`` (one source of truth for the book's
repository). The cell installs ``mha`` only where it is missing, and where it cannot, says so
in one line (``tests/test_edition.py`` runs it without network). Executing the notebooks is
nbval's job (``pytest`` collects ``chapters/*.ipynb`` with ``--nbval-lax``).

A chapter opens with its label and its numbered title, ``(ch-topic)=`` and ``# N. Title``,
the label made from the file name ``NN_topic.ipynb`` without the number and N its number;
other chapters are referred to through the label, ``{ref}`chapter N <ch-topic>```, never by
a typed number, and the N of such a reference is the number of the chapter it links to. So
renumbering a chapter means renaming its file and fixing what these tests then name.

No code cell is longer than :data:`MAX_CELL_LINES` lines: machinery goes into the package,
with a short call in the chapter.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ROOT / "chapters"
NOTEBOOKS = sorted(CHAPTERS.glob("*.ipynb"))
MAX_CELL_LINES = 40

SETUP_CELL = """\
# Setup: install the book's package `mha` where it is missing (Colab, a new Jupyter).
import importlib.util
import subprocess
import sys

REQUIREMENT = "mha @ git+{url}@{branch}"
if importlib.util.find_spec("mha") is None:
    pip = [sys.executable, "-m", "pip", "install", "-q", REQUIREMENT]
    subprocess.run(pip, capture_output=True)  # if it fails, the line below says why
    importlib.invalidate_caches()
if importlib.util.find_spec("mha") is None:

    class SetupError(Exception):
        def _render_traceback_(self):  # IPython shows the message, no traceback
            return [str(self)]

    raise SetupError(
        f"mha is not installed and pip could not install {{REQUIREMENT}} (no "
        "network, or the repository cannot be reached): in a clone of the "
        'repository, run pip install -e ".[torch]" and restart the kernel'
    )

import mha
from mha.gpu import backend_summary

print(backend_summary())"""


def _config() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text())


def _toc_files(entries: list[dict]) -> set[str]:
    """Every ``file:`` in a _toc.yml subtree (parts, chapters, sections)."""
    files = set()
    for entry in entries:
        if "file" in entry:
            files.add(entry["file"])
        for key in ("parts", "chapters", "sections"):
            files |= _toc_files(entry.get(key, []))
    return files


def expected_setup_cell() -> str:
    repository = _config()["repository"]
    return SETUP_CELL.format(url=repository["url"], branch=repository["branch"])


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def dirty_cells(nb: nbformat.NotebookNode) -> list[int]:
    """Indices of code cells that carry outputs or an execution count."""
    return [
        i
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)
    ]


def _without_magics(source: str) -> str:
    """Python source with IPython magics (``%pip ...``) replaced by ``pass``."""
    lines = source.splitlines()
    return "\n".join(
        line[: len(line) - len(line.lstrip())] + "pass" if line.lstrip().startswith("%") else line
        for line in lines
    )


def chapter_label(path: Path) -> str:
    """The label of a chapter's title: ``08_what_heads_learn.ipynb`` -> ``ch-what-heads-learn``."""
    return "ch-" + path.stem[3:].replace("_", "-")


LABELS = {chapter_label(path): int(path.stem[:2]) for path in NOTEBOOKS}
CHAPTER_REF = re.compile(r"\{ref\}`[Cc]hapter (\d+) <(ch-[a-z0-9-]+)>`")
ROLE = re.compile(r"\{[a-z:-]+\}`[^`]*`")
TYPED_CHAPTER = re.compile(r"\b[Cc]hapter (\d+)\b(?!\s*(?:-|–|to|and)\s*\d)")


def chapter_reference_problems(path: Path, nb: nbformat.NotebookNode) -> list[str]:
    """A chapter referred to by a typed number, or a reference whose number is not its target's."""
    problems = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for number, label in CHAPTER_REF.findall(cell.source):
            if label not in LABELS:
                problems.append(f"{path.name}: {{ref}} to {label}, which no chapter has")
            elif LABELS[label] != int(number):
                problems.append(
                    f"{path.name}: 'chapter {number}' links to {label}, chapter {LABELS[label]}"
                )
        for number in TYPED_CHAPTER.findall(ROLE.sub("", cell.source)):
            if int(number) != int(path.stem[:2]):
                problems.append(
                    f"{path.name}: 'chapter {number}' typed; write {{ref}}`chapter {number} <ch-...>`"
                )
    return problems


def long_cells(nb: nbformat.NotebookNode) -> list[str]:
    """The code cells over :data:`MAX_CELL_LINES` lines, as 'cell i (id): n lines'."""
    return [
        f"cell {i} ({cell.get('id', '?')}): {len(cell.source.splitlines())} lines"
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and len(cell.source.splitlines()) > MAX_CELL_LINES
    ]


def first_code_source(nb: nbformat.NotebookNode) -> str | None:
    return next((cell.source for cell in nb.cells if cell.cell_type == "code"), None)


def test_the_chapters_exist():
    assert len(NOTEBOOKS) >= 5, f"expected the chapter notebooks in {CHAPTERS}"


def test_the_config_points_colab_at_this_repository():
    config = _config()
    assert config["repository"]["url"].startswith("https://github.com/")
    assert config["repository"]["branch"] == "main"
    assert config["launch_buttons"]["colab_url"] == "https://colab.research.google.com"
    assert config["execute"]["execute_notebooks"] in {"cache", "force"}
    assert config["execute"]["allow_errors"] is False


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_named_NN_topic(path):
    stem = path.stem
    assert stem[:2].isdigit() and stem[2] == "_" and stem[3:].replace("_", "").isalnum(), (
        f"{path.name} must be named NN_topic.ipynb (two digits, underscore, snake_case topic)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path):
    dirty = dirty_cells(_read(path))
    assert not dirty, (
        f"{path.name}: cells {dirty} have outputs or execution counts; strip them "
        "(nbstripout, or Jupyter's 'Clear All Outputs') before committing"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_in_the_toc(path):
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    listed = _toc_files([toc])
    entry = f"chapters/{path.stem}"
    assert entry in listed, f"{path.name} is missing from _toc.yml (add '- file: {entry}')"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_uses_the_python3_kernel(path):
    assert _read(path).metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_first_code_cell_is_the_setup_template(path):
    assert first_code_source(_read(path)) == expected_setup_cell(), (
        f"{path.name}: the first code cell drifted from the setup template in "
        "tests/test_notebooks.py (its URL must be _config.yml's repository.url and branch)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_opens_with_its_label_and_numbered_title(path):
    nb = _read(path)
    first = nb.cells[0]
    opening = f"({chapter_label(path)})=\n# {int(path.stem[:2])}. "
    assert first.cell_type == "markdown" and first.source.startswith(opening), (
        f"{path.name}: the first cell must be markdown starting with {opening!r} (the label "
        "from the file name, then the page title with the chapter's number)"
    )
    titles = [
        line
        for cell in nb.cells
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if line.startswith("# ")
    ]
    assert len(titles) == 1, f"{path.name}: one '# ' title per chapter, found {titles}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_chapter_has_the_book_structure(path):
    """The parts every chapter has (intro.md promises them): goal, checks, mistakes, exercises."""
    nb = _read(path)
    markdown = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    headings = {line.strip() for line in markdown.splitlines() if line.startswith("## ")}
    assert "**Learning goal.**" in nb.cells[0].source, f"{path.name}: no learning goal on top"
    for heading in ("## What goes wrong", "## Exercises", "## Summary"):
        assert heading in headings, f"{path.name}: no '{heading}' section"
    code = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    assert any("assert " in source for source in code), f"{path.name}: no assert for nbval"
    assert any("check(" in source for source in code), f"{path.name}: no exercise check"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_check_names_a_known_exercise_answered_above_it(path):
    from mha.checks import EXERCISES

    defined: set[str] = set()
    for cell in _read(path).cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(_without_magics(cell.source))
        for node in ast.walk(tree):
            is_check = (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "check"
            )
            if is_check:
                name, answer = node.args[0].value, node.args[1].id
                assert name in EXERCISES, f"{path.name}: check({name!r}) is not an exercise"
                assert answer in defined, f"{path.name}: {answer} is checked before it is defined"
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                defined.add(node.name)
            elif isinstance(node, ast.Assign):
                defined |= {t.id for t in node.targets if isinstance(t, ast.Name)}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_solution_toggle_includes_an_existing_function(path):
    """Each ``{literalinclude} solutions/X.py`` + ``:pyobject: f`` names a real function."""
    nb = _read(path)
    for cell in nb.cells:
        if cell.cell_type != "markdown" or "{literalinclude}" not in cell.source:
            continue
        lines = cell.source.splitlines()
        for i, line in enumerate(lines):
            if "{literalinclude}" not in line:
                continue
            target = CHAPTERS / line.split("}", 1)[1].strip()
            assert target.exists(), f"{path.name}: {target.relative_to(ROOT)} does not exist"
            options = [opt for opt in lines[i + 1 : i + 4] if opt.startswith(":pyobject:")]
            assert options, f"{path.name}: the literalinclude of {target.name} needs :pyobject:"
            name = options[0].split(":pyobject:", 1)[1].strip()
            defined = {
                node.name
                for node in ast.parse(target.read_text()).body
                if isinstance(node, ast.FunctionDef)
            }
            assert name in defined, f"{path.name}: {target.name} defines no function {name}"


def names_a_shown_solution_lacks(solution: str, name: str, chapter_code: str) -> set[str]:
    """The global names function ``name`` of ``solution`` reads that neither Python's builtins
    nor the chapter's code cells (``chapter_code``) define: a reader who pastes the shown
    function into the chapter gets a NameError on each."""
    import builtins
    import symtable

    (node,) = [n for n in ast.parse(solution).body if getattr(n, "name", None) == name]
    function = ast.get_source_segment(solution, node)
    (table,) = symtable.symtable(function, "solution", "exec").get_children()
    needed = set(table.get_globals()) | {
        s for child in table.get_children() for s in child.get_globals()
    }
    module = symtable.symtable(chapter_code, "chapter", "exec")
    defined = {s.get_name() for s in module.get_symbols() if s.is_assigned() or s.is_imported()}
    return needed - defined - set(dir(builtins))


def shown_solutions(path: Path) -> list[tuple[Path, str]]:
    """The ``(solution file, function)`` of each solution toggle of a chapter."""
    found = []
    for cell in _read(path).cells:
        lines = cell.source.splitlines() if cell.cell_type == "markdown" else []
        for i, line in enumerate(lines):
            options = [o for o in lines[i + 1 : i + 4] if o.startswith(":pyobject:")]
            if "{literalinclude}" in line and options:
                target = CHAPTERS / line.split("}", 1)[1].strip()
                found.append((target, options[0].split(":pyobject:", 1)[1].strip()))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_shown_solution_runs_where_it_is_pasted(path):
    """A shown solution uses only what its chapter's cells define (or Python's builtins)."""
    nb = _read(path)
    code = "\n".join(_without_magics(c.source) for c in nb.cells if c.cell_type == "code")
    lacking = {
        name: sorted(missing)
        for target, name in shown_solutions(path)
        if (missing := names_a_shown_solution_lacks(target.read_text(), name, code))
    }
    assert lacking == {}, (
        f"{path.name}: shown solutions use names the chapter never defines (import them in the "
        "solution's function or use what the chapter imports)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_code_cell_is_over_the_line_limit(path):
    assert long_cells(_read(path)) == [], (
        f"{path.name}: code cells over {MAX_CELL_LINES} lines; move the machinery into an mha "
        "helper (tested, documented) and call it, or split the cell where its steps part"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_other_chapters_are_referred_to_by_label(path):
    assert chapter_reference_problems(path, _read(path)) == []


# --- the checks above catch what they are meant to catch ------------------------------------


def test_names_a_shown_solution_lacks_finds_a_missing_import_only():
    solution = "import math\n\ndef f(x):\n    return math.sqrt(x) + len(np.ones(2))\n"
    assert names_a_shown_solution_lacks(solution, "f", "import numpy as np") == {"math"}
    assert names_a_shown_solution_lacks(solution, "f", "import math, numpy as np") == set()


def test_long_cells_finds_a_code_cell_over_the_limit_only():
    limit = "\n".join(["x = 1"] * MAX_CELL_LINES)
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(limit),
            nbformat.v4.new_markdown_cell(limit + "\nmore prose"),
            nbformat.v4.new_code_cell(limit + "\ny = 2"),
        ]
    )
    found = long_cells(nb)
    assert len(found) == 1 and found[0].startswith("cell 2 ")


def test_chapter_references_are_checked_against_their_labels():
    path = NOTEBOOKS[-1]  # a chapter that may refer to chapter 1

    def problems(text):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)])
        return chapter_reference_problems(path, nb)

    first = chapter_label(NOTEBOOKS[0])
    assert problems(f"as in {{ref}}`chapter 1 <{first}>`, and in chapters 1 to 5") == []
    assert problems(f"as in {{ref}}`Chapter 2 <{first}>`") != []  # the wrong number
    assert problems("as in {ref}`chapter 1 <ch-no-such-chapter>`") != []
    assert problems("as in chapter 1, typed") != []


def test_dirty_cells_finds_outputs_and_execution_counts():
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# t"),
            nbformat.v4.new_code_cell("1", execution_count=3),
            nbformat.v4.new_code_cell(
                "print(1)", outputs=[nbformat.v4.new_output("stream", text="1\n")]
            ),
            nbformat.v4.new_code_cell("2"),
        ]
    )
    assert dirty_cells(nb) == [1, 2]


def test_setup_cell_check_sees_a_drifted_url():
    drifted = expected_setup_cell().replace("@main", "@dev")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(drifted)])
    assert first_code_source(nb) != expected_setup_cell()
    assert _config()["repository"]["url"] in expected_setup_cell()


def test_toc_walk_finds_nested_files():
    toc = {
        "root": "intro",
        "parts": [{"chapters": [{"file": "a", "sections": [{"file": "b"}]}]}],
    }
    assert _toc_files([toc]) == {"a", "b"}
