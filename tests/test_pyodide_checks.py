"""The checks in the page's Python: Pyodide under Node.js, with the network cut.

Pyodide is older or newer than the book's own environment (Pyodide 0.27.7: Python 3.12.7,
NumPy 2.0.2; the book: whatever ``requirements.txt`` installs), so the checks are run there
with the runtime and the wheels the site serves (mha itself from this checkout): every
exercise's solution, and every corpus answer written with NumPy, get the same verdict
(status and diagnosis, same seed) as in CPython; the build's probe, which decides which
exercises get a "Run here" button, gives a button exactly to those whose solution passes in
Pyodide; ``mha`` there imports neither torch, CuPy nor threadpoolctl, and its lean path runs
on one thread and agrees with the per-head loop.

Needs Node.js and the site built (``python3 dev.py book`` places the runtime and the wheels
in ``_static/run-here``); skips without them. The network is cut with bubblewrap (a network namespace of its own) where
bubblewrap is installed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PATH = ("tests", "_ext/pyodide_exercises")  # pyodide_verdicts imports corpus and probe from there
sys.path[:0] = [str(ROOT / "_ext"), *(str(ROOT / folder) for folder in PATH)]

import pyodide_verdicts  # noqa: E402
from pyodide_exercises import assets, exercises, probe  # noqa: E402

NODE = shutil.which("node")
BWRAP = shutil.which("bwrap")
SERVED = ROOT / "_build" / "html" / "_static" / "run-here"  # what the site serves
RUNTIME = SERVED / "pyodide"
SEED = 2024
pytestmark = [
    pytest.mark.skipif(NODE is None, reason="needs Node.js (apt-get install nodejs)"),
    pytest.mark.skipif(
        not (SERVED / "manifest.json").exists(),
        reason="the book is not built (python3 dev.py book places Pyodide in the site)",
    ),
]

FOUND = [
    e
    for path in sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
    for e in exercises.read(path)[1]
]


def _request(solution_root: Path, path: list[str]) -> dict:
    return {
        "seed": SEED,
        "path": path,
        "exercises": [
            {
                "name": e.name,
                "solution": str(solution_root / e.solution[0].relative_to(ROOT)),
                "pyobject": e.solution[1],
            }
            for e in FOUND
        ],
    }


def _wheels() -> list[Path]:
    """The wheels the site serves: mha's, then its dependencies'."""
    return [SERVED / name for name in json.loads((SERVED / "manifest.json").read_text())["wheels"]]


@pytest.fixture(scope="module")
def in_pyodide(tmp_path_factory) -> dict:
    io = tmp_path_factory.mktemp("io")
    book = Path("/book")
    (io / "request.json").write_text(
        json.dumps(_request(book, [str(book), *(str(book / f) for f in PATH)]))
    )
    config = {
        "runtime": str(RUNTIME),
        # mha itself from this checkout, mounted at /book, so that its code is tested as it is
        "wheels": [str(w) for w in _wheels() if not w.name.startswith("mha-")],
        "mounts": [[str(ROOT), str(book)], [str(io), "/io"]],
        "script": str(ROOT / "tests" / "pyodide_verdicts.py"),
    }
    (io / "config.json").write_text(json.dumps(config))
    command = [NODE, str(ROOT / "tests" / "pyodide_node.cjs"), str(io / "config.json")]
    if BWRAP:  # no network: a namespace with only its own loopback
        command = [BWRAP, "--unshare-net", "--dev-bind", "/", "/", "--die-with-parent", *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads((io / "reply.json").read_text())


@pytest.fixture(scope="module")
def in_cpython() -> dict:
    return pyodide_verdicts.verdicts(_request(ROOT, []))  # sys.path has PATH


@pytest.fixture(scope="module")
def buttons() -> dict:
    return probe.runnable(FOUND, RUNTIME, _wheels(), ROOT)


def test_pyodide_is_the_runtime_the_site_serves(in_pyodide, record_property):
    record_property("pyodide", f"Python {in_pyodide['python']}, NumPy {in_pyodide['numpy']}")
    print(
        f"Pyodide {assets.PYODIDE_VERSION}: Python {in_pyodide['python']}, NumPy {in_pyodide['numpy']}"
    )
    assert in_pyodide["platform"] == "emscripten"
    assert in_pyodide["numpy"] == assets.NUMPY_WHEEL.split("-")[1]


def test_mha_imports_no_torch_cupy_or_threadpoolctl_and_runs_on_one_thread(in_pyodide):
    assert in_pyodide["loaded"] == []
    assert in_pyodide["lean"]["threads"] == 1
    assert in_pyodide["lean"]["max_difference"] < 1e-5  # float32, |out| ~ 1


def test_buttons_go_exactly_where_the_solution_passes_in_pyodide(in_pyodide, buttons):
    passing = {name for name, (status, _) in in_pyodide["solutions"].items() if status == "passed"}
    assert {name for name, why in buttons.items() if why is None} == passing


@pytest.mark.parametrize("exercise", FOUND, ids=lambda e: e.name)
def test_every_solution_with_a_button_passes_in_pyodide(exercise, in_pyodide, buttons):
    if buttons[exercise.name] is not None:
        pytest.skip(f"no button: {buttons[exercise.name][:120]}")
    assert in_pyodide["solutions"][exercise.name] == ["passed", None]


@pytest.mark.parametrize("exercise", FOUND, ids=lambda e: e.name)
def test_every_numpy_answer_of_the_corpus_gets_the_verdict_it_gets_in_cpython(
    exercise, in_pyodide, in_cpython, buttons
):
    if buttons[exercise.name] is not None:
        pytest.skip(f"no button: {buttons[exercise.name][:120]}")
    mine = {k: v for k, v in in_cpython["corpus"].items() if k.startswith(f"{exercise.name}-")}
    theirs = {k: v for k, v in in_pyodide["corpus"].items() if k.startswith(f"{exercise.name}-")}
    assert mine, f"no wrong or other correct answer to {exercise.name} in NumPy"
    assert theirs == mine
