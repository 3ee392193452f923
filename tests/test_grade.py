"""mha.grade: the batch grader on synthetic submissions (correct, partly correct, typical
mistakes, hanging, crashing, malformed), its table, resume and interruption."""

from __future__ import annotations

import csv
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from mha import grade

ROOT = Path(__file__).resolve().parent.parent
CHAPTER_1 = (ROOT / "chapters" / "solutions" / "01_scaled_dot_product_attention.py").read_text()
SETUP = "from mha.checks import check"
CHAPTER_1_CHECKS = [
    'check("softmax", softmax)',
    'check("scaled_dot_product_attention", scaled_dot_product_attention)',
    'check("score_std", score_std())',
]
EXERCISES = ["softmax", "scaled_dot_product_attention", "score_std"]
FAST = grade.Limits(cell_seconds=3, notebook_seconds=7, check_seconds=5, interrupt_grace_seconds=1)


def write_notebook(folder: Path, name: str, *cells: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(c[3:])
        if c.startswith("md:")
        else nbformat.v4.new_code_cell(c)
        for c in cells
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    path = folder / name
    nbformat.write(nb, path)
    return path


def read_csv(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="") as f:
        return {Path(r["submission"]).name: r for r in csv.DictReader(f)}


# --- no kernel needed -----------------------------------------------------------------------


def test_check_calls_are_found_by_parsing_not_running(tmp_path):
    path = write_notebook(
        tmp_path,
        "a.ipynb",
        "md:check('not', code)",
        "%pip install nothing\nimport mha.checks\ncheck('softmax', my_softmax)",
        "mha.checks.check('score_std', answer=16.0)  # keyword form",
        "def broken(:\n    check('split_heads', split_heads)",  # does not parse: skipped
        "check('softmax', better_softmax)\ncheck(name_in_a_variable, f)",
    )
    found = grade.check_calls(nbformat.read(path, as_version=4))
    assert found == {"softmax": "better_softmax", "score_std": "16.0"}


def test_submissions_are_files_or_folders_without_checkpoints(tmp_path):
    (tmp_path / "class" / ".ipynb_checkpoints").mkdir(parents=True)
    a = write_notebook(tmp_path / "class", "a.ipynb", "1")
    write_notebook(tmp_path / "class" / ".ipynb_checkpoints", "a-checkpoint.ipynb", "1")
    b = write_notebook(tmp_path, "b.ipynb", "1")
    assert grade.notebooks_in([tmp_path / "class", b, a]) == [a, b]
    with pytest.raises(FileNotFoundError, match=r"missing\.ipynb"):
        grade.notebooks_in([tmp_path / "missing.ipynb"])


def test_exercises_default_to_those_with_check_cells(tmp_path):
    write_notebook(tmp_path, "a.ipynb", 'check("score_std", 16)', 'check("no_such_exercise", 1)')
    write_notebook(tmp_path, "b.ipynb", 'check("softmax", softmax)')
    (tmp_path / "c.ipynb").write_text("{broken")
    assert grade.exercises_in(grade.notebooks_in([tmp_path])) == ["softmax", "score_std"]


def _malformed(folder: Path) -> list[Path]:
    (folder / "not_json.ipynb").write_text('{"cells": [')
    (folder / "not_a_notebook.ipynb").write_text('{"hello": "world"}')
    return [folder / "not_json.ipynb", folder / "not_a_notebook.ipynb"]


def test_malformed_submissions_get_zeros_with_a_reason(tmp_path):
    rows = grade.grade(_malformed(tmp_path), EXERCISES, tmp_path / "out", FAST, log=io.StringIO())
    assert len(rows) == 2
    for row in rows:
        assert row["total"] == "0" and "could not read the notebook" in row["error"]
        assert all(row[f"{name} reason"] == "notebook unreadable" for name in EXERCISES)


def test_resume_skips_finished_rows_and_refuses_to_overwrite(tmp_path, capsys):
    first, second = _malformed(tmp_path)
    out = tmp_path / "out"
    assert grade.main([str(first), "--out", str(out), "--exercises", "softmax"]) == 0
    seed = read_csv(out / "grades.csv")["not_json.ipynb"]["seed"]
    with pytest.raises(SystemExit):  # the table exists and --resume is missing
        grade.main([str(first), "--out", str(out), "--exercises", "softmax"])
    assert "pass --resume" in capsys.readouterr().err
    grade.main([str(tmp_path), "--out", str(out), "--exercises", "softmax", "--resume"])
    assert "1 already in" in capsys.readouterr().err
    rows = read_csv(out / "grades.csv")
    assert set(rows) == {"not_json.ipynb", "not_a_notebook.ipynb"}
    assert rows["not_json.ipynb"]["seed"] == seed  # not graded again
    table = json.loads((out / "grades.json").read_text())
    assert [s["submission"] for s in table["submissions"]] == [str(first), str(second)]
    with pytest.raises(SystemExit):  # other exercises than the table's columns
        grade.main([str(tmp_path), "--out", str(out), "--exercises", "score_std", "--resume"])


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["a.ipynb", "--exercises", "sofmax"], "unknown exercise"),
        (["a.ipynb", "--timeout", "0"], "--timeout must be positive"),
        (["a.ipynb", "nowhere.ipynb"], "neither a file nor a folder"),
    ],
)
def test_bad_command_lines_are_explained(tmp_path, capsys, monkeypatch, argv, words):
    write_notebook(tmp_path, "a.ipynb", 'check("softmax", f)')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        grade.main(argv)
    assert words in capsys.readouterr().err


def test_summary_counts_passes_and_problems():
    rows = [
        {"submission": "a", "total": "2", "softmax": "1", "score_std": "1", "error": ""},
        {"submission": "b", "total": "0", "softmax": "0", "score_std": "0", "error": "kernel died"},
    ]
    text = grade.summary(rows, ["softmax", "score_std"])
    assert "2 submission(s); mean 1.00 / 2, full marks 1, zero 1" in text
    assert "softmax" in text and "1/2 passed" in text
    assert "b: kernel died" in text


# --- with kernels: one run over a class of synthetic submissions -----------------------------


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    write_notebook(folder, "correct.ipynb", SETUP, CHAPTER_1, *CHAPTER_1_CHECKS)
    write_notebook(
        folder,
        "partial.ipynb",
        SETUP,
        "import math\nimport numpy as np\n"
        "def softmax(x, axis=-1):\n"
        "    e = np.exp(x - x.max(axis=axis, keepdims=True))\n"
        "    return e / e.sum(axis=axis, keepdims=True)",
        'check("softmax", softmax)',
        "raise RuntimeError('a cell that raises')",
        "print('x' * 3_000_000)  # megabytes of output",
        "def scaled_dot_product_attention(q, k, v, mask=None):\n"
        "    scores = q @ k.swapaxes(-1, -2)  # not scaled\n"
        "    if mask is not None:\n"
        "        scores = np.where(mask, scores, -np.inf)\n"
        "    w = softmax(scores)\n"
        "    return w @ v, w",
        # a notebook that fakes its own check cannot fool the re-check
        "def check(name, answer):\n    print(f'[PASS] {name}')",
        'check("scaled_dot_product_attention", scaled_dot_product_attention)',
        "answer = ...",
        'check("score_std", answer)',
    )
    write_notebook(
        folder,
        "slow.ipynb",
        SETUP,
        CHAPTER_1,
        "while True:\n    pass",
        "import time\ntime.sleep(2.5)",
        "time.sleep(2.5)  # interrupted when the notebook's time is up",
        "score_std = lambda: 256",
        *CHAPTER_1_CHECKS,
    )
    write_notebook(
        folder,
        "stuck.ipynb",
        CHAPTER_1,
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass",
        *CHAPTER_1_CHECKS,
    )
    write_notebook(folder, "crash.ipynb", CHAPTER_1, "import os\nos._exit(1)", *CHAPTER_1_CHECKS)
    write_notebook(folder, "no_check_cells.ipynb", CHAPTER_1)  # answers found by name
    (folder / "malformed.ipynb").write_text("{not json")
    out = folder / "out"
    start = time.monotonic()
    rows = grade.grade(grade.notebooks_in([folder]), EXERCISES, out, FAST, log=sys.stderr)
    return {Path(r["submission"]).name: r for r in rows}, out, time.monotonic() - start


def test_a_correct_submission_gets_full_marks(graded):
    rows, _, _ = graded
    row = rows["correct.ipynb"]
    assert row["total"] == "3" and row["out_of"] == "3" and row["error"] == ""
    assert all(row[f"{name} reason"] == "" for name in EXERCISES)


def test_a_partly_correct_submission_is_rechecked_not_trusted(graded):
    rows, _, _ = graded
    row = rows["partial.ipynb"]
    assert (row["softmax"], row["scaled_dot_product_attention"], row["score_std"]) == (
        "1",
        "0",
        "0",
    )
    assert "without dividing the scores by sqrt(d_k)" in row["scaled_dot_product_attention reason"]
    assert row["score_std reason"].startswith("not attempted")
    assert row["error"] == ""  # a raising cell and megabytes of output are not notebook failures


def test_an_endless_cell_is_interrupted_and_the_notebook_time_limit_holds(graded):
    rows, _, _ = graded
    row = rows["slow.ipynb"]
    assert "cell 2 exceeded its 3 s limit and was interrupted" in row["error"]
    assert "notebook time limit (7 s) reached before cell 5" in row["error"]
    # functions defined before the hang still count; `score_std = lambda: 256` never ran
    assert (row["softmax"], row["scaled_dot_product_attention"], row["score_std"]) == (
        "1",
        "1",
        "1",
    )
    assert float(row["seconds"]) < 20


def test_a_kernel_that_ignores_interrupts_is_stopped(graded):
    rows, _, _ = graded
    row = rows["stuck.ipynb"]
    assert row["total"] == "0"
    assert "ignored the interrupt, so the kernel was stopped" in row["error"]


def test_a_crashing_kernel_gives_zeros_and_grading_goes_on(graded):
    rows, _, _ = graded
    row = rows["crash.ipynb"]
    assert row["total"] == "0" and "the kernel died in cell 1" in row["error"]
    assert "kernel died" in row["softmax reason"]
    assert rows["malformed.ipynb"]["total"] == "0"


def test_answers_without_a_check_cell_are_found_by_the_exercise_name(graded):
    rows, _, _ = graded
    assert rows["no_check_cells.ipynb"]["total"] == "3"


def test_the_tables_hold_one_row_per_submission(graded):
    rows, out, _ = graded
    table = json.loads((out / "grades.json").read_text())
    assert table["exercises"] == EXERCISES
    assert len(table["submissions"]) == len(rows) == 7
    by_name = {Path(s["submission"]).name: s for s in table["submissions"]}
    assert by_name["correct.ipynb"]["scores"] == dict.fromkeys(EXERCISES, 1)
    assert set(by_name["partial.ipynb"]["reasons"]) == {"scaled_dot_product_attention", "score_std"}
    assert (out / "grades.csv").stat().st_size < 50_000  # the megabytes of output stayed out


def test_an_interrupted_run_keeps_its_finished_rows(tmp_path):
    (tmp_path / "a_malformed.ipynb").write_text("{")
    write_notebook(tmp_path, "b_sleeps.ipynb", "import time\ntime.sleep(60)")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "mha.grade", str(tmp_path), "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--exercises", "softmax"], cwd=ROOT, stderr=subprocess.PIPE, text=True
    )
    csv_path, deadline = out / "grades.csv", time.monotonic() + 30
    while not (csv_path.exists() and len(csv_path.read_text().splitlines()) == 2):
        assert time.monotonic() < deadline, "the first row never appeared"
        time.sleep(0.2)
    time.sleep(3)  # the second notebook's kernel starts and sleeps
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "rerun with --resume" in err
    rows = read_csv(out / "grades.csv")
    assert list(rows) == ["a_malformed.ipynb"]
    assert len(json.loads((out / "grades.json").read_text())["submissions"]) == 1


def test_a_real_chapter_with_its_solutions_pasted_in_gets_full_marks(tmp_path):
    chapter = ROOT / "chapters" / "01_scaled_dot_product_attention.ipynb"
    nb = nbformat.read(chapter, as_version=4)
    solved = nbformat.read(chapter, as_version=4)
    stubs = [
        i
        for i, cell in enumerate(solved.cells)
        if cell.cell_type == "code"
        and ("NotImplementedError" in cell.source or "= ..." in cell.source)
    ]
    from mha.checks import EXERCISES as REGISTRY

    chapter_1 = [name for name, exercise in REGISTRY.items() if exercise.chapter == 1]
    assert len(stubs) == len(chapter_1), "one stub per exercise of chapter 1"
    for i in reversed(stubs):  # the reader's answer: the solution file, right after the stub
        solved.cells.insert(i + 1, nbformat.v4.new_code_cell(CHAPTER_1))
    nbformat.write(nb, tmp_path / "untouched.ipynb")
    nbformat.write(solved, tmp_path / "solved.ipynb")
    limits = grade.Limits(cell_seconds=60, notebook_seconds=120, check_seconds=10)
    paths = grade.notebooks_in([tmp_path])
    assert grade.exercises_in(paths) == chapter_1
    rows = grade.grade(paths, chapter_1, tmp_path / "out", limits, log=io.StringIO())
    by_name = {Path(r["submission"]).name: r for r in rows}
    assert by_name["solved.ipynb"]["total"] == str(len(chapter_1)), by_name["solved.ipynb"]
    assert by_name["solved.ipynb"]["error"] == ""
    untouched = by_name["untouched.ipynb"]
    assert untouched["total"] == "0" and untouched["error"] == ""
    assert all(untouched[f"{name} reason"].startswith("not attempted") for name in chapter_1)
