"""The grader on a whole class in bubblewrap sandboxes (tests/grade_class.py): honest work is
graded as it deserves, and no cheat, fault or malformed file earns a mark, stops the run or
touches another row. Skipped, with the reason, where bubblewrap cannot sandbox (CI installs it).
"""

from __future__ import annotations

import collections
import hashlib
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from grade_class import HONEST, write_class

import mha
from mha.checks import EXERCISES
from mha.grade import cli, submissions, table
from mha.grade.grader import Options, _seed, chapter_exercises
from mha.grade.sandbox import GiB, Limits, Sandbox, unavailable

REASON = unavailable(Sandbox(isolate=True))
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"no sandbox here: {REASON}"),
    pytest.mark.slow,
]

LIMITS = Limits(
    cell_seconds=8,
    notebook_seconds=90,
    check_seconds=4,
    interrupt_grace_seconds=2,
    memory_bytes=3 * GiB,
    tmp_bytes=64 * 2**20,
)
SEED = 7


def _leftovers() -> list[str]:
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in ps.splitlines() if re.match(r"sleep 432[12]$", line.strip())]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("grading")
    folder, out = base / "class", base / "out"
    paths = write_class(folder, out)
    before = {
        name: p.read_bytes() for name, p in paths.items() if p.is_file() and not p.is_symlink()
    }
    log = io.StringIO()
    start = time.monotonic()
    rows, exercises = cli.run(
        submissions.find([folder]), out, Options(LIMITS, seed=SEED), jobs=2, log=log
    )
    seconds = time.monotonic() - start
    print(f"\ngraded {len(rows)} notebooks in {seconds:.0f} s with --jobs 2")
    by_name = {r["submission"].removeprefix(f"{folder}/"): r for r in rows}
    return {
        "rows": by_name,
        "out": out,
        "folder": folder,
        "paths": paths,
        "before": before,
        "log": log.getvalue(),
        "exercises": exercises,
    }


def reason(graded, name: str, exercise: str) -> str:
    return graded["rows"][name][f"{exercise} reason"]


def scores(graded, name: str, exercises: list[str]) -> list[str]:
    return [graded["rows"][name][e] for e in exercises]


CH1 = ["softmax", "scaled_dot_product_attention", "score_std"]


# --- honest work and the table ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_work_is_graded_as_it_deserves(graded, name):
    row = graded["rows"][name]
    total, error = HONEST[name]
    chapter = int(name.split("/ch")[1][:2]) if "/ch" in name else 1
    assert (row["chapter"], row["out_of"]) == (str(chapter), str(len(chapter_exercises(chapter))))
    assert (row["total"], row["error"]) == (row["out_of"] if total == "all" else total, error), row


def test_honest_mistakes_are_diagnosed(graded):
    assert "without subtracting the maximum" in reason(graded, "honest/mistakes.ipynb", "softmax")
    assert "without dividing" in reason(
        graded, "honest/mistakes.ipynb", "scaled_dot_product_attention"
    )
    assert "variance" in reason(graded, "honest/mistakes.ipynb", "score_std")
    untouched = "honest/ch01_untouched.ipynb"
    assert all(reason(graded, untouched, e).startswith("not attempted") for e in CH1)


def test_there_is_one_row_per_submitted_file_and_no_other(graded):
    written = {submissions.shown(p.relative_to(graded["folder"])) for p in graded["paths"].values()}
    assert set(graded["rows"]) == written
    table_json = json.loads((graded["out"] / "grades.json").read_text(encoding="utf-8"))
    assert len(table_json["submissions"]) == len(written)
    assert "forged.ipynb" not in (graded["out"] / "grades.csv").read_text(encoding="utf-8")


def test_each_row_holds_the_hash_of_the_notebook_as_read(graded):
    for name, data in graded["before"].items():
        if not name.endswith(("invalid.ipynb", "fifo.ipynb")):
            assert (
                graded["rows"][submissions.shown(name)]["sha256"]
                == hashlib.sha256(data).hexdigest()
            )
        assert graded["paths"][name].read_bytes() == data  # no notebook was changed


def test_out_of_is_the_notebooks_own_chapter(graded):
    for name, row in graded["rows"].items():
        if row["chapter"]:
            expected = sum(ex.chapter == int(row["chapter"]) for ex in EXERCISES.values())
            assert row["out_of"] == str(expected), name
    every = graded["rows"]["cheats/every_exercise.ipynb"]
    counts = collections.Counter(ex.chapter for ex in EXERCISES.values())
    most = [chapter for chapter, count in counts.items() if count == max(counts.values())]
    assert every["chapter"] == str(most[0])  # the most check cells; a tie: the one checked first


def test_a_feedback_file_is_written_per_student(graded):
    feedback = graded["out"] / "feedback"
    assert len(list(feedback.glob("*.md"))) == len(graded["rows"])
    text = (
        feedback / table.feedback_name(graded["rows"]["honest/mistakes.ipynb"]["submission"])
    ).read_text()
    assert "## softmax: not passed" in text and "*Hint:*" in text and "unstable_softmax" in text


def test_progress_has_an_eta(graded):
    assert re.search(r"\[\d+/\d+\] .* \| elapsed \dm\d\ds, ETA \dm\d\ds", graded["log"])


# --- cheats -------------------------------------------------------------------------------------


def test_patching_check_and_its_helpers_changes_nothing(graded):
    name = "cheats/patch_check.ipynb"
    assert scores(graded, name, CH1) == ["0", "0", "1"]
    assert "without subtracting the maximum" in reason(graded, name, "softmax")
    assert "changed the grading code" in graded["rows"][name]["error"]


def test_an_input_transformer_cannot_rewrite_the_grading(graded):
    name = "cheats/transformer.ipynb"
    assert scores(graded, name, CH1) == ["0", "0", "0"]
    assert "without dividing" in reason(graded, name, "scaled_dot_product_attention")


def test_a_forged_result_display_is_not_read(graded):
    name = "cheats/forged_display.ipynb"
    assert scores(graded, name, CH1) == ["0", "0", "0"]
    assert reason(graded, name, "softmax").startswith("not attempted")


def test_an_object_faking_its_class_is_not_an_array(graded):
    name = "cheats/fake_class.ipynb"
    assert scores(graded, name, CH1) == ["0", "0", "1"]
    assert "should be a NumPy array, got __main__.Fake" in reason(graded, name, "softmax")


@pytest.mark.parametrize(
    ("name", "exercise", "seen"),
    [
        ("cheats/reference_direct.ipynb", "softmax", "mha.softmax"),
        (
            "cheats/reference_direct.ipynb",
            "scaled_dot_product_attention",
            "mha.scaled_dot_product_attention",
        ),
        ("cheats/reference_hidden.ipynb", "softmax", "mha.softmax"),
        ("cheats/reference_hidden.ipynb", "scaled_dot_product_attention", "the checks' own code"),
        ("cheats/reference_torch.ipynb", "softmax", "torch.softmax"),
        ("cheats/unwatch.ipynb", "scaled_dot_product_attention", "watch turned off"),
    ],
)
def test_the_reference_is_not_accepted_as_the_answer(graded, name, exercise, seen):
    assert graded["rows"][name][exercise] == "0"
    text = reason(graded, name, exercise)
    assert text.startswith("uses the reference implementation") and seen in text
    others = [e for e in CH1 if e != exercise and not graded["rows"][name][f"{e} reason"]]
    assert all(graded["rows"][name][e] == "1" for e in others)
    feedback = graded["out"] / "feedback" / table.feedback_name(graded["rows"][name]["submission"])
    assert "The answer that was graded:" in feedback.read_text()


def test_the_solutions_cannot_be_read_from_the_sandbox(graded):
    name = "cheats/solution_exec.ipynb"
    assert scores(graded, name, CH1) == ["0", "0", "0"]
    assert "NameError" in reason(graded, name, "softmax")


def test_a_pasted_table_of_outputs_fails_on_the_secret_inputs(graded):
    name = "cheats/ch5_pasted_table.ipynb"
    seed = int(graded["rows"][name]["seed"])
    assert seed == _seed(
        submissions.Submission(Path(), graded["rows"][name]["submission"]), Options(seed=SEED)
    )
    trials = EXERCISES["causal_mask"].trials
    assert [c.args for c in trials(np.random.default_rng(seed))] != [
        c.args for c in trials(np.random.default_rng(0))
    ]
    row = graded["rows"][name]
    assert (row["causal_mask"], row["padding_mask"], row["cross_attention_weights_shape"]) == (
        "0",
        "1",
        "1",
    )
    assert "KeyError" in reason(graded, name, "causal_mask")


def test_a_notebook_sees_no_classmate_no_table_and_no_network(graded):
    name = "cheats/snoop.ipynb"
    report = (
        reason(graded, name, "softmax").split("raised RuntimeError: ")[1].split(" (wrong on")[0]
    )
    seen = json.loads(report)
    assert set(seen) == {"csv", "json", "victim", "class", "net", "solutions", "runner"}
    assert all(result != "ok" for result in seen.values()), seen
    other = reason(graded, name, "scaled_dot_product_attention")
    assert "named=0" in other  # no process shows the grader's paths
    assert "kernels=1 " in other  # the connection file of its own kernel, no other
    tmp = re.search(r"tmp=\[(.*)\]", other).group(1).replace("'", "").split(", ")
    bound = {Path(p).parts[2] for p in (mha.__file__, sys.prefix) if p.startswith("/tmp/")}
    own = [n for n in tmp if n in ("home", "work") or n.startswith(("mha-grade-runner-", "tmp"))]
    assert sorted(own + [n for n in tmp if n in bound]) == sorted(tmp)  # its own files only


def test_processes_a_notebook_leaves_are_stopped(graded):
    assert (
        "process(es) the notebook left were stopped"
        in graded["rows"]["cheats/snoop.ipynb"]["error"]
    )
    assert _leftovers() == []


# --- faults -------------------------------------------------------------------------------------


def test_a_kernel_death_in_a_cell_costs_only_that_cell(graded):
    row = graded["rows"]["faults/crash_cell.ipynb"]
    assert scores(graded, "faults/crash_cell.ipynb", CH1) == ["1", "1", "1"]
    assert (
        "cell 2: the kernel died in it" in row["error"] and "run again without it" in row["error"]
    )


def test_a_kernel_death_in_an_answer_costs_only_that_exercise(graded):
    name = "faults/crash_answer.ipynb"
    assert scores(graded, name, CH1) == ["0", "1", "1"]
    assert "kernel died" in reason(graded, name, "softmax")


def test_a_cell_that_ignores_interrupts_is_stopped_and_skipped(graded):
    row = graded["rows"]["faults/stuck.ipynb"]
    assert scores(graded, "faults/stuck.ipynb", CH1) == ["1", "1", "1"]
    assert "ignored the interrupt, so the kernel was stopped" in row["error"]


def test_an_endless_answer_fails_on_time_alone(graded):
    name = "faults/slow_answer.ipynb"
    assert scores(graded, name, CH1) == ["0", "1", "1"]
    assert "did not finish within 4 s" in reason(graded, name, "softmax")


@pytest.mark.parametrize(
    "name",
    [
        "faults/hog.ipynb",
        "faults/malformed_display.ipynb",
        "faults/odd_cells.ipynb",
        "faults/caf\\xe9.ipynb",
    ],
)
def test_faults_the_grading_survives(graded, name):
    assert scores(graded, name, CH1) == ["1", "1", "1"], graded["rows"][name]


def test_odd_cells_are_skipped_with_a_note(graded):
    error = graded["rows"]["faults/odd_cells.ipynb"]["error"]
    assert (
        "code cell 0 has no source" in error
        and "code cell 1 has a source that is not text" in error
    )
    assert "cell 3 is not a cell" in error


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("faults/invalid.ipynb", "not valid JSON"),
        ("faults/fifo.ipynb", "a FIFO"),
        ("faults/zero.ipynb", "a symbolic link"),
        ("faults/link.ipynb", "a symbolic link"),
        ("faults/no_checks.ipynb", "no check cell of a known exercise"),
    ],
)
def test_files_that_cannot_be_graded_get_a_row_with_the_reason(graded, name, words):
    row = graded["rows"][name]
    assert row["total"] == "0" and words in row["error"]


def test_a_linked_file_is_never_read_into_the_table(graded):
    for path in (graded["out"] / "grades.csv", graded["out"] / "grades.json"):
        assert "TOP-SECRET" not in path.read_text(encoding="utf-8")
