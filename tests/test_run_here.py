""" "Run here" without a browser: the exercises found from the notebooks' markup, the page data
the build writes, and ``run_here.py`` (what the page's Python runs) in CPython: the backward
slice of the chapter it runs before an answer, its messages, and every exercise's solution
passing through it as the page runs it, with the earlier exercises answered by their solutions.

The same runner in Pyodide is ``tests/test_pyodide_checks.py``; in the built site, in
headless Chromium, ``tests/test_book_run_here.py``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "_ext"), str(ROOT / "_ext" / "pyodide_exercises" / "static")]

import run_here  # noqa: E402
from browser_site import answered  # noqa: E402
from pyodide_exercises import exercises, page_data  # noqa: E402

NOTEBOOKS = sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))


def _run(*sources: str, kinds: tuple[str, ...] | None = None) -> dict:
    """run_here.run on chapter cells, then an answer (the last but one) and a check (the last)."""
    kinds = kinds or ("chapter",) * (len(sources) - 2) + ("answer", "check")
    cells = [{"source": s, "kind": k} for s, k in zip(sources, kinds, strict=True)]
    return run_here.run(cells, len(cells) - 2, len(cells) - 1)


def test_only_what_the_answer_needs_runs_first():
    reply = _run(
        "import numpy as np\nimport not_a_module_of_the_page as plt\nfig = plt.figure()",
        "def helper(x):\n    return np.sqrt(x)\n\nprint('the chapter printed this')",
        "unused = 1 / 0",
        "def answer(x):\n    return helper(x)",
        "answer(16.0)",
    )
    assert reply["error"] is None, reply["error"]
    assert reply["output"] == "np.float64(4.0)\n"


def test_a_later_binding_hides_an_earlier_one_unless_it_uses_it():
    earlier = run_here.statements("x = 1 / 0\nx = 2\ny = 5\ny += 1\nz = [0]\nz[0] = 3", "<c>")
    code = run_here.statements("print(x, y, z)", "<a>")
    kept = [ast.unparse(s.node) for s in run_here.needed(earlier, code)]
    assert kept == ["x = 2", "y = 5", "y += 1", "z = [0]", "z[0] = 3"]


def test_names_used_inside_functions_and_classes_count():
    earlier = run_here.statements("import math\nimport numpy as np\nK = 3\nunused = 4", "<c>")
    code = run_here.statements(
        "class A:\n    size = K\n    def f(self, x):\n        return math.sqrt(x) + np.pi", "<a>"
    )
    kept = [ast.unparse(s.node) for s in run_here.needed(earlier, code)]
    assert kept == ["import math", "import numpy as np", "K = 3"]


def test_a_needed_line_that_fails_is_named():
    reply = _run(
        "import not_a_module_of_the_page as plt", "def answer():\n    return plt", "answer()"
    )
    assert "import not_a_module_of_the_page as plt" in reply["error"]
    assert "ModuleNotFoundError" in reply["error"]


def test_magics_in_the_chapter_are_skipped_but_not_in_the_answer():
    reply = _run(
        "import sys\nif 'google.colab' in sys.modules:\n    %pip install mha\nK = 2",
        "value = K",
        "value",
    )
    assert reply["error"] is None and reply["output"] == "2\n"
    reply = _run("%timeit 1", "1")
    assert "SyntaxError" in reply["error"] and "<your code>" in reply["error"]


def test_the_answer_s_error_is_shown_as_python_shows_it_without_the_runner():
    reply = _run("def answer(:\n    pass", "answer")
    assert 'File "<your code>", line 1' in reply["error"] and "SyntaxError" in reply["error"]
    assert "run_here" not in reply["error"] and "ast.py" not in reply["error"]
    reply = _run("def answer():\n    return 1 / 0\n\nanswer()", "answer")
    assert reply["error"].startswith("Traceback") and "ZeroDivisionError" in reply["error"]
    assert "run_here" not in reply["error"]


def test_every_run_starts_from_a_fresh_namespace():
    cells = [
        {"source": "", "kind": "chapter"},
        {"source": "try:\n    counter += 1\nexcept NameError:\n    counter = 1", "kind": "answer"},
        {"source": "counter", "kind": "check"},
    ]
    assert run_here.run(cells, 1, 2)["output"] == "1\n"
    assert run_here.run(cells, 1, 2)["output"] == "1\n"


def test_a_check_result_comes_back_as_the_notebook_shows_it():
    reply = _run("from mha.checks import check", "softmax = ...", 'check("softmax", softmax)')
    assert reply["status"] == "not attempted" and reply["diagnosis"] is None
    assert "softmax: not attempted" in reply["html"]


def test_exercises_are_found_from_the_markup(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("import numpy as np"),
        nbformat.v4.new_markdown_cell(
            ":::{exercise} Double it ★★\n:label: ex-double\n\nWrite it.\n:::\n\n"
            ":::{admonition} Hint\n:class: dropdown\n\nTimes two.\n:::"
        ),
        nbformat.v4.new_code_cell("from mha.checks import check"),
        nbformat.v4.new_code_cell("def double(x):\n    raise NotImplementedError"),
        nbformat.v4.new_code_cell('check("double", double)'),
        nbformat.v4.new_markdown_cell(
            ":::{solution} ex-double\n:class: dropdown\n\n"
            "```{literalinclude} solutions/double.py\n:pyobject: double\n```\n:::"
        ),
        nbformat.v4.new_code_cell("print('after')"),
    ]
    path = tmp_path / "01_double.ipynb"
    nbformat.write(notebook, path)
    cells, found = exercises.read(path)
    assert found == [
        exercises.Exercise(
            "ex-double",
            "Double it",
            "double",
            (2, 3),
            4,
            (tmp_path / "solutions/double.py", "double"),
        )
    ]
    data = page_data("chapters/01_double", path, {"double": None})
    assert [c["kind"] for c in data["cells"]] == ["chapter", "answer", "check"]
    assert data["exercises"][0]["stub"] == cells[2].source + "\n\n" + cells[3].source
    assert page_data("chapters/01_double", path, {"double": "needs torch"}) is None


def test_a_predictions_experiment_cells_are_not_its_answer(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell(
            ":::{exercise} Predict it ★\n:label: ex-guess\n\nGuess.\n:::"
        ),
        nbformat.v4.new_code_cell("guess = ..."),
        nbformat.v4.new_markdown_cell("Now the experiment."),
        nbformat.v4.new_code_cell("import matplotlib.pyplot as plt\nplt.plot([1, 2])"),
        nbformat.v4.new_code_cell('check("guess", guess)'),
    ]
    path = tmp_path / "01_guess.ipynb"
    nbformat.write(notebook, path)
    (found,) = exercises.read(path)[1]
    assert (found.answer_cells, found.check_cell) == ((1,), 4)


def test_a_title_is_plain_text_in_the_editors_label():
    assert exercises.plain_title("Divide by another power of $d_k$ ★★") == (
        "Divide by another power of d_k"
    )
    assert exercises.plain_title("`softmax` in float16 ★") == "softmax in float16"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_check_cell_belongs_to_one_exercise_with_a_stub_and_a_solution(path):
    cells, found = exercises.read(path)
    checks = [
        i for i, c in enumerate(cells) if c.cell_type == "code" and exercises.check_name(c.source)
    ]
    assert sorted(e.check_cell for e in found) == checks
    for exercise in found:
        assert exercise.answer_cells, f"{exercise.label} has no stub cell"
        assert exercise.solution and exercise.solution[0].exists(), exercise.label


PAGES = [(p, e) for p in NOTEBOOKS for e in exercises.read(p)[1]]


@pytest.mark.parametrize(("path", "exercise"), PAGES, ids=[e.name for _, e in PAGES])
def test_every_solution_passes_through_the_page_runner(path, exercise):
    """Answered in order with the solutions, as a reader who solved them all (CPython has
    every package, so every chapter's exercises run here)."""
    found = exercises.read(path)[1]
    data = page_data(f"chapters/{path.stem}", path, {e.name: None for e in found})
    stubs = {e["label"]: e["stub"] for e in data["exercises"]}
    solved = found[: found.index(exercise) + 1]
    answers = stubs | {e.label: answered(stubs[e.label], e.solution) for e in solved}
    cells = [
        {
            "kind": c["kind"],
            "source": answers[c["exercise"]] if c["kind"] == "answer" else c["source"],
        }
        for c in data["cells"]
    ]
    answer, check = (
        next(i for i, c in enumerate(data["cells"]) if (c["kind"], c.get("exercise")) == key)
        for key in (("answer", exercise.label), ("check", exercise.label))
    )  # as run-here.js finds them (a prediction's experiment cells lie between)
    reply = run_here.run(cells, answer, check)
    assert reply["error"] is None, reply["error"]
    assert reply["status"] == "passed", reply["html"]


@pytest.mark.parametrize(
    ("name", "package_function"),
    [
        ("head_similarity", "mha.analysis.head_similarity"),
        ("induction_score", "mha.induction.induction_score"),
    ],
)
def test_the_numpy_references_equal_the_package_s_torch_functions(name, package_function):
    """Two checks compute their reference in NumPy, so that the page (no torch) can run them;
    they must still say what the package's torch functions say."""
    import importlib

    import numpy as np
    import torch

    from mha.checks import EXERCISES

    module, _, function = package_function.rpartition(".")
    package = getattr(importlib.import_module(module), function)
    exercise = EXERCISES[name]
    for case in exercise.trials(np.random.default_rng(0)):
        tensors = [torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in case.args]
        expected = package(*tensors)
        expected = expected.numpy() if isinstance(expected, torch.Tensor) else expected
        np.testing.assert_allclose(exercise.reference(*case.args), expected, rtol=1e-6, atol=1e-12)


# --- the build's downloads ------------------------------------------------------------------


def test_without_npm_the_build_says_what_to_install(monkeypatch, tmp_path):
    from pyodide_exercises import assets

    monkeypatch.setattr(assets, "CACHE", tmp_path)
    monkeypatch.setattr(assets.shutil, "which", lambda name: None)
    with pytest.raises(assets.AssetError, match=r"npm is not installed.*apt-get install npm"):
        assets.prepare()


def test_a_runtime_whose_lock_disagrees_with_the_pinned_numpy_stops_the_build(
    monkeypatch, tmp_path
):
    import json

    from pyodide_exercises import assets

    monkeypatch.setattr(assets, "CACHE", tmp_path)
    runtime = tmp_path / f"pyodide-{assets.PYODIDE_VERSION}"
    runtime.mkdir()
    for name in assets.RUNTIME_FILES:
        (runtime / name).write_text("")
    lock = {"packages": {"numpy": {"file_name": assets.NUMPY_WHEEL, "sha256": "0" * 64}}}
    (runtime / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(assets.AssetError, match="update the two pins together"):
        assets.prepare()


@pytest.mark.skipif(
    not (ROOT / "_build" / ".pyodide_cache" / "wheels").is_dir(),
    reason="nothing cached yet: python3 dev.py book fetches it",
)
def test_a_second_build_fetches_nothing():
    from pyodide_exercises import assets

    prepared = assets.prepare()
    assert prepared.fetched == ()
    assert all(path.is_file() for path in prepared.files())
    assert "nothing fetched" in prepared.describe()
