"""The grader on a whole class in bubblewrap sandboxes (tests/grade_class.py): honest work is
graded as it deserves, and no cheat, fault or malformed file earns a mark, stops the run or
touches another row. Skipped, with the reason, where bubblewrap cannot sandbox (CI installs it).
"""

from __future__ import annotations

import collections
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from grade_class import HONEST, SOLUTIONS, write, write_class, write_course

import mha
from mha.checks import EXERCISES, check
from mha.grade import cli, submissions, table
from mha.grade.grader import Options, _seed, chapter_exercises
from mha.grade.sandbox import GiB, Limits, Sandbox, unavailable

REASON = unavailable(Sandbox(isolate=True))
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"no sandbox here: {REASON}"),
    pytest.mark.slow,
]

LIMITS = Limits(
    cell_seconds=20,
    notebook_seconds=90,
    check_seconds=6,
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
    row = graded["rows"]["honest/mistakes.ipynb"]
    text = (feedback / table.feedback_name(row["key"], row["submission"])).read_text()
    assert "## softmax: not passed" in text and "*Hint:*" in text and "unstable_softmax" in text


def test_progress_has_an_eta(graded):
    assert re.search(r"\[\d+/\d+\] .* \| elapsed \dm\d\ds, ETA \dm\d\ds", graded["log"])


# --- cheats -------------------------------------------------------------------------------------


def test_patching_check_and_its_helpers_changes_nothing(graded):
    name = "cheats/patch_check.ipynb"
    assert scores(graded, name, CH1) == ["0", "0", "1"]
    assert "without subtracting the maximum" in reason(graded, name, "softmax")


def test_patching_the_code_that_calls_the_answer_or_sends_its_results_gains_nothing(graded):
    name = "attacks/patch_calling.ipynb"  # its own process: it can only send what it computes
    assert scores(graded, name, CH1) == ["0", "0", "1"]


def test_forged_results_on_the_channel_are_the_answers_own_wrong_results(graded):
    name = "attacks/forged_channel.ipynb"
    assert scores(graded, name, CH1) == ["0", "0", "1"]
    assert "shape (3,)" in reason(graded, name, "softmax")


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
        ("cheats/reference_direct.ipynb", "softmax", "mha.functional.softmax"),
        (
            "cheats/reference_direct.ipynb",
            "scaled_dot_product_attention",
            "mha.functional.scaled_dot_product_attention",
        ),
        ("cheats/reference_hidden.ipynb", "softmax", "mha.checks.EXERCISES"),
        ("cheats/reference_hidden.ipynb", "scaled_dot_product_attention", "mha.checks"),
        ("cheats/reference_torch.ipynb", "softmax", "torch is not available"),
        ("cheats/unwatch.ipynb", "scaled_dot_product_attention", "sdpa_variant"),
        ("attacks/private_copy.ipynb", "softmax", "mha.functional.softmax"),
        ("attacks/private_copy.ipynb", "scaled_dot_product_attention", "mha.checks.chapters"),
    ],
)
def test_the_references_are_not_there(graded, name, exercise, seen):
    assert graded["rows"][name][exercise] == "0"
    text = reason(graded, name, exercise)
    assert "not available while" in text and seen in text, text
    others = [e for e in CH1 if e != exercise and not graded["rows"][name][f"{e} reason"]]
    assert all(graded["rows"][name][e] == "1" for e in others)
    feedback = (
        graded["out"]
        / "feedback"
        / table.feedback_name(graded["rows"][name]["key"], graded["rows"][name]["submission"])
    )
    assert "The answer that was graded:" in feedback.read_text()


def test_the_solutions_cannot_be_read_from_the_sandbox(graded):
    name = "cheats/solution_exec.ipynb"
    assert scores(graded, name, CH1) == ["0", "0", "0"]
    assert "NameError" in reason(graded, name, "softmax")
    assert "FileNotFoundError" in graded["rows"][name]["error"]  # the cell that raised is named


def test_a_memory_peak_is_measured_from_outside_the_answer(graded):
    name = "attacks/memory_reset.ipynb"
    text = reason(graded, name, "online_softmax_attention")
    assert graded["rows"][name]["online_softmax_attention"] == "0"
    assert "as much memory as a whole (n_q, n_k) array" in text, text


def test_the_limits_hold(graded):
    name = "attacks/limits.ipynb"
    row = graded["rows"][name]
    memory = reason(graded, name, "softmax")
    assert row["softmax"] == "0" and ("memory limit" in memory or "did not finish" in memory)
    assert row["scaled_dot_product_attention"] == "0"
    assert row["score_std"] == "1", reason(graded, name, "score_std")  # /dev, /tmp, /proc held
    assert _leftovers() == []


def test_names_cannot_collide_or_inject(graded):
    rows = graded["rows"]
    byte, text = "attacks/caf\\xfc.ipynb", "attacks/caf\\\\xfc.ipynb"
    solved = str(len(chapter_exercises(1)))  # these are solved chapter 1 notebooks
    assert (rows[byte]["total"], rows[text]["total"]) == (solved, "0")
    feedback = graded["out"] / "feedback"
    assert len({rows[n]["key"] for n in rows}) == len(rows) == len(list(feedback.glob("*.md")))
    assert rows["attacks/=HYPERLINK(1).ipynb"]["total"] == solved
    injected = feedback / table.feedback_name(
        rows["attacks/inject.ipynb"]["key"], rows["attacks/inject.ipynb"]["submission"]
    )
    assert not re.search(r"(?<!\\)<(img|svg)", injected.read_text())


def test_malformed_or_huge_cells_are_a_row(graded):
    solved = str(len(chapter_exercises(1)))  # solved chapter 1 notebooks, with the attack
    assert graded["rows"]["attacks/shell_lines.ipynb"]["total"] == solved
    surrogate = graded["rows"]["attacks/surrogate.ipynb"]
    assert surrogate["total"] == solved and "not valid Unicode" in surrogate["error"]


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
    assert "kernels=0 " in other  # no kernel, no connection file
    tmp = re.search(r"tmp=\[(.*)\]", other).group(1).replace("'", "").split(", ")
    bound = {Path(p).parts[2] for p in (mha.__file__, sys.prefix) if p.startswith("/tmp/")}
    own = [n for n in tmp if n in ("home", "work") or n.startswith(("mha-grade-runner-", "tmp"))]
    assert sorted(own + [n for n in tmp if n in bound]) == sorted(tmp)  # its own files only


def test_processes_a_notebook_leaves_are_stopped(graded):
    assert _leftovers() == []


# --- faults -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["faults/crash_cell.ipynb", "faults/stuck.ipynb", "faults/hog.ipynb"]
)
def test_a_cell_no_answer_needs_never_runs(graded, name):
    assert scores(graded, name, CH1) == ["1", "1", "1"]
    assert graded["rows"][name]["error"] == ""


def test_a_process_death_in_an_answer_costs_only_that_exercise(graded):
    name = "faults/crash_answer.ipynb"
    assert scores(graded, name, CH1) == ["0", "1", "1"]
    assert "the answer's process ended" in reason(graded, name, "softmax")


def test_an_endless_answer_fails_on_time_alone(graded):
    name = "faults/slow_answer.ipynb"
    assert scores(graded, name, CH1) == ["0", "1", "1"]
    assert "did not finish within 6 s" in reason(graded, name, "softmax")


@pytest.mark.parametrize(
    "name",
    [
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


# --- the whole course at the default limits -------------------------------------------------------


def test_every_chapter_gets_what_check_says_at_the_default_limits(tmp_path):
    """Every chapter's notebook solved, answered for its first exercise, and untouched: what
    ``check`` says of each answer in the notebook (the solutions pass, the stubs are not
    attempted), with no problem reported, at the grader's default limits."""
    folder = tmp_path / "course"
    write_course(folder)
    rows, _ = cli.run(
        submissions.find([folder]), tmp_path / "out", Options(), jobs=2, log=io.StringIO()
    )
    for row in rows:
        kind = Path(row["submission"]).stem.rsplit("_", 1)[1]
        expected = {"solved": row["out_of"], "partial": "1", "untouched": "0"}[kind]
        assert (row["total"], row["error"]) == (expected, ""), row


def test_the_sandbox_is_found_from_a_relative_interpreter_path(tmp_path):
    python = os.path.relpath(sys.executable, tmp_path)
    probe = "from mha.grade.sandbox import Sandbox, unavailable; print(unavailable(Sandbox(isolate=True)))"
    done = subprocess.run(
        [python, "-c", probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(mha.__file__).parent.parent)},
    )
    assert done.stdout.strip() == "None", done.stderr[-500:]


SHARED_BUFFER = """
_buffers = {}


def decode_one_token(x_t, params, cache_k, cache_v):
    results = solved_step(x_t, params, cache_k, cache_v)
    views = []
    for i, r in enumerate(results):  # one buffer per output, refilled by every call
        buffer = _buffers.setdefault((i, r.shape), np.empty_like(r))
        buffer[...] = r
        views.append(buffer)
    return tuple(views)
"""


def test_results_the_next_call_overwrites_fail_in_the_grader_as_in_check(tmp_path):
    solution = (SOLUTIONS / "12_gqa_and_kv_cache.py").read_text()
    solved = solution.replace("def decode_one_token(", "def solved_step(")
    namespace: dict = {}
    exec(solved + SHARED_BUFFER, namespace)
    assert check("decode_one_token", namespace["decode_one_token"]).diagnosis == "shared_buffer"
    folder = tmp_path / "class"
    write(
        folder, "ch12.ipynb", solved, SHARED_BUFFER, 'check("decode_one_token", decode_one_token)'
    )
    rows, _ = cli.run(
        submissions.find([folder]), tmp_path / "out", Options(LIMITS), jobs=1, log=io.StringIO()
    )
    (row,) = rows
    assert row["decode_one_token"] == "0", row
    assert "overwrites" in row["decode_one_token reason"], row["decode_one_token reason"]
