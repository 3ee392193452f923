"""mha.grade without a sandbox: the wire format, reading submissions, choosing exercises,
judging what a kernel sent, the table, shards and merging, the command line; and one small class
graded with --no-sandbox (the sandboxed class is tests/test_grade_sandbox.py)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from grade_class import CH1, CHECKS_1, IMPORT, REFERENCE_DIRECT, write

import mha
from mha.checks import EXERCISES, Case, Foreign, FunctionExercise, Outcome, run_answer
from mha.efficient import GQAParams
from mha.grade import cli, gradebook, grader, sandbox, slicing, submissions, table, view
from mha.grade import protocol as wire
from mha.grade.grader import Options, Row
from mha.grade.sandbox import Limits

ROOT = Path(__file__).resolve().parent.parent


# --- the wire format ----------------------------------------------------------------------------


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return type(b) is np.ndarray and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, tuple | list):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict):
        return type(b) is dict and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, mha.MHAParams | GQAParams):
        return type(a) is type(b) and all(
            _same(x, y) for x, y in zip(vars(a).values(), vars(b).values(), strict=True)
        )
    if isinstance(a, Case | Outcome):
        return type(a) is type(b) and all(
            _same(x, y) for x, y in zip(vars(a).values(), vars(b).values(), strict=True)
        )
    if isinstance(a, float) and np.isnan(a):
        return isinstance(b, float) and np.isnan(b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name", list(EXERCISES))
def test_every_exercises_inputs_cross_the_wire_unchanged(name):
    cases = EXERCISES[name].trials(np.random.default_rng(3))
    assert _same(wire.unpack(wire.pack(cases)), cases)


def test_outcomes_cross_the_wire_unchanged():
    params = mha.init_params(8, 2, bias=True)
    tree = {
        "outcomes": [
            Outcome(value=(np.ones((2, 3), np.float32), np.array(True), [1, 2.5, None, "x"])),
            Outcome(value=Foreign("torch.Tensor", "tensor of shape (2,)"), mutated="q"),
            Outcome(error=("ValueError", "bad"), measurements={"peak_bytes": 12.0}),
            Outcome(value=params, not_callable=None),
            Outcome(not_callable="int 5"),
        ],
        "numbers": [float("inf"), float("nan"), -0.0, 2**100, True, np.arange(3) + 1j],
    }
    assert _same(wire.unpack(wire.pack(tree)), tree)


def test_what_is_not_plain_data_is_not_packed():
    for value in (lambda: 1, object(), np.array(["a"]), {1: 2}):
        with pytest.raises(wire.WireError):
            wire.pack(value)


def _archive(**members: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=True)
    return buffer.getvalue()


TREE = _npy(np.frombuffer(b'{"array":0}', dtype=np.uint8))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"not a zip", "not an npz"),
        (_archive(**{"tree.npy": TREE, "a0.npy": _npy(np.array([object()]))}), "header"),
        (_archive(**{"tree.npy": TREE, "a0.npy": _npy(np.zeros(3))[:-8]}), "header"),
        (_archive(**{"tree.npy": TREE, "evil.npy": _npy(np.zeros(3))}), "unexpected member"),
        (_archive(**{"a0.npy": _npy(np.zeros(3))}), "no tree"),
        (_archive(**{"tree.npy": _npy(np.frombuffer(b'{"eval":1}', np.uint8))}), "unexpected node"),
        (_archive(**{"tree.npy": _npy(np.frombuffer(b"7", np.uint8))}), "unexpected node"),
        (
            _archive(**{"tree.npy": _npy(np.frombuffer(b'{"list":[' * 60 + b"]}" * 60, np.uint8))}),
            "deeply",
        ),
        (
            _archive(
                **{"tree.npy": _npy(np.frombuffer(json.dumps("x" * 200_000).encode(), np.uint8))}
            ),
            "too long",
        ),
        (
            _archive(
                **{"tree.npy": _npy(np.frombuffer(b'{"int":"' + b"9" * 500 + b'"}', np.uint8))}
            ),
            "unexpected node 'int'",
        ),
        (
            _archive(
                **{
                    "tree.npy": _npy(
                        np.frombuffer(b'{"params":"MHAParams","fields":{"w_q":null}}', np.uint8)
                    )
                }
            ),
            "bad 'params'",
        ),
        (
            _archive(**{"tree.npy": _npy(np.frombuffer(b'{"outcome":{"value":null}}', np.uint8))}),
            "unexpected fields",
        ),
    ],
)
def test_malformed_data_from_a_kernel_is_refused(data, words):
    with pytest.raises(wire.WireError, match=words):
        wire.unpack(data)


def test_compressed_or_oversized_archives_are_refused():
    buffer = io.BytesIO()
    np.savez_compressed(buffer, tree=np.frombuffer(b"null", np.uint8))
    with pytest.raises(wire.WireError, match="compressed"):
        wire.unpack(buffer.getvalue())
    with pytest.raises(wire.WireError, match="limit"):
        wire.unpack(wire.pack(np.zeros(1000)), max_bytes=1000)


# --- reading submissions ------------------------------------------------------------------------


def test_submissions_are_found_without_following_links_or_checkpoints(tmp_path):
    a = write(tmp_path / "class", "a.ipynb", "1")
    write(tmp_path / "class" / ".ipynb_checkpoints", "a-checkpoint.ipynb", "1")
    write(tmp_path / "elsewhere", "x.ipynb", "1")
    os.symlink(tmp_path / "elsewhere", tmp_path / "class" / "linked")
    odd = write(tmp_path / "class", b"\xff\xfe.ipynb", "1")
    assert submissions.find([tmp_path / "class"]) == sorted([a, odd])
    assert submissions.shown(odd).endswith("/\\xff\\xfe.ipynb")
    with pytest.raises(FileNotFoundError, match="missing"):
        submissions.find([tmp_path / "missing.ipynb"])


def test_a_notebook_is_read_for_its_code_and_check_calls(tmp_path):
    path = write(
        tmp_path,
        "a.ipynb",
        "%pip install nothing\nfrom mha.checks import check\ncheck('softmax', my_softmax)",
        "mha.checks.check('score_std', answer=16.0)  # keyword form",
        "def broken(:\n    check('split_heads', split_heads)",  # does not parse: skipped
        "check('softmax', better_softmax)\ncheck(name_in_a_variable, f)",
    )
    read = submissions.read(path)
    assert read.error == "" and len(read.sha256) == 64 and len(read.cells) == 4
    assert {n: e for n, (e, _) in read.calls.items()} == {
        "softmax": "better_softmax",
        "score_std": "16.0",
    }
    assert read.chapter == 1
    assert "cell 2 is not valid Python" in "; ".join(read.notes)


@pytest.mark.parametrize(
    ("calls", "chapter"),
    [
        (["causal_mask", "softmax", "padding_mask"], 5),
        (["softmax", "causal_mask"], 1),  # a tie: the chapter checked first
        (["no_such_exercise"], None),
        (["softmax", "head_weight", "causal_mask", "padding_mask"], 5),
    ],
)
def test_the_chapter_is_the_one_with_most_check_cells(calls, chapter):
    submission = submissions.Submission(Path("x"), "x", calls=dict.fromkeys(calls, ("f", 0)))
    assert submission.chapter == chapter


def _odd_files(folder: Path) -> dict[str, str]:
    folder.mkdir()
    (folder / "invalid.ipynb").write_text("{")
    (folder / "list.ipynb").write_text("[]")
    (folder / "nocells.ipynb").write_text('{"cells": 3}')
    (folder / "latin1.ipynb").write_bytes(b'{"cells": [], "x": "\xe9"}')
    os.mkfifo(folder / "fifo.ipynb")
    os.symlink("/dev/zero", folder / "zero.ipynb")
    (folder / "secret.txt").write_text("TOP-SECRET")
    os.symlink(folder / "secret.txt", folder / "link.ipynb")
    os.mkdir(folder / "dir.ipynb")
    return {
        "invalid.ipynb": "not valid JSON",
        "list.ipynb": "JSON but not a notebook",
        "nocells.ipynb": "no list of cells",
        "latin1.ipynb": "not UTF-8",
        "fifo.ipynb": "a FIFO",
        "zero.ipynb": "a symbolic link",
        "link.ipynb": "a symbolic link",
        "dir.ipynb": "a folder",
    }


def test_files_that_are_not_notebooks_are_not_read(tmp_path):
    for name, words in _odd_files(tmp_path / "odd").items():
        read = submissions.read(tmp_path / "odd" / name)
        assert read.error.startswith("could not read the notebook") and words in read.error, name
        assert "TOP-SECRET" not in read.error


def test_a_notebook_over_the_size_limit_is_not_read(tmp_path, monkeypatch):
    path = write(tmp_path, "big.ipynb", "x = 1" * 100)
    monkeypatch.setattr(submissions, "MAX_NOTEBOOK_BYTES", 100)
    assert "more than 100 bytes" in submissions.read(path).error


def test_odd_cells_are_skipped_with_a_note(tmp_path):
    cells = [
        {"cell_type": "code"},
        {"cell_type": "code", "source": 1},
        {"cell_type": "code", "source": ["a = 1\n", 2]},
        [],
        {"cell_type": "code", "source": ["a = ", "1"]},
    ]
    (tmp_path / "odd.ipynb").write_text(json.dumps({"cells": cells}))
    read = submissions.read(tmp_path / "odd.ipynb")
    assert read.cells == [(4, "a = 1")]
    assert read.notes == [
        "code cell 0 has no source; skipped",
        "code cell 1 has a source that is not text; skipped",
        "code cell 2 has a source that is not text; skipped",
        "cell 3 is not a cell; skipped",
    ]


def test_an_nbformat_3_notebook_is_read(tmp_path):
    worksheet = {"cells": [{"cell_type": "code", "input": "check('softmax', f)"}]}
    (tmp_path / "v3.ipynb").write_text(json.dumps({"nbformat": 3, "worksheets": [worksheet]}))
    assert submissions.read(tmp_path / "v3.ipynb").calls == {"softmax": ("f", 0)}


# --- the exercises of a notebook, and the verdicts on what a kernel sent ------------------------


def test_each_notebook_is_graded_on_its_own_chapter():
    ch5 = submissions.Submission(Path("x"), "x", calls={"causal_mask": "f"})
    chapter, names = grader.exercises_for(ch5, Options())
    assert chapter == 5 and {"causal_mask", "padding_mask"} <= set(names)
    assert names == [n for n in EXERCISES if EXERCISES[n].chapter == 5]  # all, registry order
    assert "softmax" in grader.exercises_for(ch5, Options(chapter=1))[1]
    assert grader.exercises_for(ch5, Options(exercises=("softmax",))) == (1, ["softmax"])


@pytest.mark.parametrize(
    "name", [n for n, ex in EXERCISES.items() if isinstance(ex, FunctionExercise)]
)
def test_every_function_exercises_inputs_depend_on_the_seed(name):
    def arguments(seed):
        return [c.args for c in EXERCISES[name].trials(np.random.default_rng(seed))]

    assert not _same(arguments(1), arguments(2))


def _run(name: str, function, **changes):
    cases = EXERCISES[name].trials(np.random.default_rng(5))
    outcomes = [run_answer(EXERCISES[name], function, case) for case in cases]
    run = grader._Run(outcomes=outcomes)
    for key, value in changes.items():
        setattr(run, key, value)
    return cases, run


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({}, ""),
        ({"timeout": "the first test input"}, "did not finish within 10 s"),
        ({"slow_cell": "cell 3"}, "not graded: cell 3 did not finish in time"),
        (
            {"answer_error": "NameError: name 'f' is not defined"},
            "no answer: evaluating 'f' raised NameError",
        ),
        ({"lost": "the answer's process ended (exit 1)"}, "not graded: the answer's process"),
    ],
)
def test_a_verdict_is_computed_here_from_what_the_sandbox_sent(changes, words):
    cases, run = _run("softmax", mha.softmax, **changes)
    reason, result = grader._verdict("softmax", cases, run, "f", Limits(check_seconds=10), 5)
    if words:
        assert words in reason and (result is None or not result.passed), reason
    else:
        assert reason == "" and result.passed


def test_results_for_only_some_inputs_are_not_judged():
    cases, run = _run("softmax", mha.softmax)
    run.outcomes = run.outcomes[:1]  # a forged reply: only the easy input
    reason, _ = grader._verdict("softmax", cases, run, "softmax", Limits(), 5)
    assert f"results for 1 of {len(cases)} test inputs" in reason
    stub_cases, stub = _run("softmax", lambda x, axis=-1: None)
    stub.outcomes = stub.outcomes[:1]  # a stub stops after one input, as check does
    assert grader._verdict("softmax", stub_cases, stub, "softmax", Limits(), 5)[0].startswith(
        "not attempted"
    )


# --- the static slice -------------------------------------------------------------------------


def _slice(cells: list[str], expression: str) -> list[str]:
    statements, _ = slicing.statements_of(list(enumerate(cells)))
    positions = slicing.answer_slice(statements, expression, len(statements))
    return [statements[i].source.strip() for i in positions]


def test_the_slice_holds_what_the_answer_needs_and_nothing_else():
    cells = [
        "import numpy as np\nimport torch\n%matplotlib inline\n!pip install x",
        "SCALE = 2.0\nnoise = np.random.default_rng(0).normal(size=3)",
        "def helper(x):\n    return x * SCALE",
        "def answer(x):\n    return helper(np.asarray(x))",
        "print(answer(noise))\nnp.testing.assert_allclose(answer(1.0), 2.0)",
        "SCALE = 3.0  # rebound later: the answer reads it when called",
        "table = {}\ntable['k'] = 1\ntable.update(j=2)",
    ]
    chosen = _slice(cells, "answer")
    assert chosen == [
        "import numpy as np",
        "SCALE = 2.0",
        "def helper(x):\n    return x * SCALE",
        "def answer(x):\n    return helper(np.asarray(x))",
        "SCALE = 3.0",  # rebound later: the answer reads it when called
    ]
    assert _slice(cells, "table") == ["table = {}", "table['k'] = 1", "table.update(j=2)"]


def test_what_the_slice_cannot_read_is_included():
    cells = [
        "import numpy as np",
        "exec('answer = 1')",
        "def unrelated():\n    pass",
        "np.random.seed(0)",
    ]
    assert _slice(cells, "answer") == ["exec('answer = 1')"]
    assert _slice(cells, "np") == ["import numpy as np", "exec('answer = 1')", "np.random.seed(0)"]


def test_a_cell_of_thousands_of_shell_lines_is_read_in_linear_work(monkeypatch):
    # IPython's transformation of a whole cell repeats over the cell for each special line
    # (quadratic: tens of seconds here); a large cell goes to it one line at a time.
    from IPython.core.inputtransformer2 import TransformerManager

    transformed = []
    original = TransformerManager.transform_cell

    def counting(self, cell):
        transformed.append(len(cell))
        return original(self, cell)

    monkeypatch.setattr(TransformerManager, "transform_cell", counting)
    cell = "\n".join(f"!echo {i}" for i in range(10_000))
    statements, _ = slicing.statements_of([(0, cell)])
    assert len(statements) == 10_000 and all(s.inert for s in statements)
    assert max(transformed) <= slicing.MAX_TRANSFORMED_CHARS < len(cell)  # never whole
    assert sum(transformed) <= len(cell) + len(transformed)  # each line once


# --- the view of the package ------------------------------------------------------------------


@pytest.fixture(scope="module")
def views(tmp_path_factory):
    folder = tmp_path_factory.mktemp("views")
    return view.ViewBuilder(Path(mha.__file__).parent), folder


VIEW_PROBE = """
import importlib, json, sys
import mha
found = {}
for dotted in sys.argv[1:]:
    parts = dotted.split(".")
    try:
        for i in range(len(parts), 0, -1):  # the longest prefix that is a module
            try:
                value = importlib.import_module(".".join(parts[:i]))
                break
            except ModuleNotFoundError as error:
                if type(error).__name__ == "NotAvailableWhileGraded":
                    raise
        for part in parts[i:]:
            value = getattr(value, part)
        found[dotted] = "unavailable" if type(value).__name__ == "Unavailable" else "present"
    except ImportError as error:
        found[dotted] = "unavailable" if type(error).__name__ == "NotAvailableWhileGraded" else "missing"
print(json.dumps(found))
"""


@pytest.mark.parametrize("name", list(EXERCISES))
def test_every_exercises_view_imports_without_its_references(views, name):
    builder, folder = views
    exercise = EXERCISES[name]
    prepare = getattr(exercise, "prepare", None)
    dotted = None if prepare is None else f"{prepare.__module__}.{prepare.__qualname__}"
    built = builder.build(name, exercise.references, dotted, folder / name)
    inside = [r for r in exercise.references if r.startswith("mha.")]
    probe = [*inside, "mha.MHAParams", "mha.checks.core.call_answer", *([dotted] if dotted else [])]
    assert not list(built.rglob("__pycache__")) and not (built / "grade" / "grader.py").exists()
    env = {"PYTHONPATH": str(built.parent), "PATH": "/usr/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", VIEW_PROBE, *probe],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
    )
    seen = json.loads(done.stdout)
    assert all(seen[r] == "unavailable" for r in inside), seen
    assert seen["mha.checks.core.call_answer"] == "present" and seen["mha.MHAParams"] == "present"
    if dotted:
        assert seen[dotted] == "present"
    texts = "".join(p.read_text() for p in built.rglob("*.py"))
    own = [r.rsplit(".", 1)[-1] for r in exercise.references if r.startswith("mha.checks.")]
    assert (own and not [r for r in own if f"def {r}(" in texts]) or not own
    assert "def _softmax_cases(" not in texts and "SOFTMAX_REFERENCES = (" not in texts


# --- the table, shards and merging --------------------------------------------------------------


def _row(name: str, chapter: int, scores: dict[str, int], error: str = "") -> Row:
    key = submissions.path_key(name)
    row = Row(name, "0" * 64, chapter, list(scores), key, dict(scores), error=error, seed=1)
    row.reasons = {n: "failed: wrong" for n, s in scores.items() if not s}
    return row


def test_rows_of_different_chapters_share_one_table(tmp_path):
    exercises = table.ordered(["causal_mask", "softmax", "score_std"])
    assert exercises == ["softmax", "score_std", "causal_mask"]
    grades = table.Table(tmp_path, exercises)
    grades.add(_row("a.ipynb", 1, {"softmax": 1, "score_std": 0}))
    grades.add(_row("b.ipynb", 5, {"causal_mask": 1}))
    rows = {r["submission"]: r for r in grades.finish()}
    assert (rows["a.ipynb"]["causal_mask"], rows["a.ipynb"]["out_of"]) == ("", "2")
    assert (rows["b.ipynb"]["softmax"], rows["b.ipynb"]["total"]) == ("", "1")
    data = json.loads((tmp_path / "grades.json").read_text())
    assert data["submissions"][1]["scores"] == {"causal_mask": 1}
    name = table.feedback_name(submissions.path_key("a.ipynb"), "a.ipynb")
    assert "score_std" in (tmp_path / "feedback" / name).read_text()
    with pytest.raises(FileExistsError, match="--resume"):
        table.Table(tmp_path, exercises)
    with pytest.raises(ValueError, match="columns of other exercises"):
        table.Table(tmp_path, ["softmax"], resume=True)
    keys = {submissions.path_key(n) for n in ("a.ipynb", "b.ipynb")}
    assert table.Table(tmp_path, exercises, resume=True).done == keys


def test_feedback_says_how_a_prediction_and_an_experiment_are_graded(tmp_path):
    grades = table.Table(tmp_path, ["softmax", "predict_unscaled_weight", "scale_experiment"])
    row = _row("a.ipynb", 1, {"softmax": 1, "predict_unscaled_weight": 1, "scale_experiment": 0})
    grades.add(row)
    grades.finish()
    sections = (tmp_path / "feedback" / table.feedback_name(row)).read_text().split("## ")
    said = {s.split(":", 1)[0]: "How it is graded" in s for s in sections[1:]}
    assert said == {"softmax": False, "predict_unscaled_weight": True, "scale_experiment": True}
    assert "earns its point when it is made" in sections[2]
    assert "recomputed from the reader's setting" in sections[3]


def test_feedback_file_names_are_safe_and_distinct(tmp_path):
    paths = [Path("a/b.ipynb"), Path("a_b.ipynb"), Path("../../etc/x.ipynb")]
    paths += [Path(os.fsdecode(b"caf\xfc.ipynb")), Path("caf\\xfc.ipynb")]  # a byte, a literal
    names = {table.feedback_name(submissions.path_key(p), submissions.shown(p)) for p in paths}
    assert len(names) == 5 and all("/" not in n and not n.startswith(".") for n in names)
    assert len({submissions.shown(p) for p in paths}) == 5  # shown one to one


def test_no_cell_of_the_table_starts_a_formula_and_no_text_escapes_the_feedback(tmp_path):
    row = _row("=HYPERLINK(1).ipynb", 1, {"softmax": 0})
    row.reasons["softmax"] = "-1+1 <img src=x onerror=alert(1)> <svg onload=x>"
    row.sources["softmax"] = 'def softmax(x):\n    """```\n## Instructor: full marks\n```"""'
    grades = table.Table(tmp_path, ["softmax"])
    grades.add(row)
    grades.finish()
    text = (tmp_path / "grades.csv").read_text()
    assert "\n'=HYPERLINK" in text and "'-1+1" in text
    assert table.read_csv(tmp_path / "grades.csv")[1][0]["submission"].startswith("'=")
    assert {
        r["submission"] for r in json.loads((tmp_path / "grades.json").read_text())["submissions"]
    } == {row.submission}
    feedback = (tmp_path / "feedback" / table.feedback_name(row)).read_text()
    assert not re.search(r"(?<!\\)<(img|svg)", feedback) and "\\<img" in feedback
    fence = [line for line in feedback.splitlines() if line.startswith("```")]
    assert fence[0] == "````python" and fence[-1] == "````"  # longer than any run inside


def test_shards_split_a_class_into_disjoint_parts():
    names = [f"student{i}.ipynb" for i in range(200)]
    parts = [[n for n in names if cli.in_shard(n, (i, 3))] for i in (1, 2, 3)]
    assert sorted(n for part in parts for n in part) == sorted(names) and all(
        len(p) > 40 for p in parts
    )


def test_a_shard_is_chosen_by_the_path_inside_the_folder_named():
    roots = [Path("/mnt/a/class"), Path("/home/b/other")]
    assert cli.shard_key(Path("/mnt/a/class/s1/x.ipynb"), roots) == "s1/x.ipynb"
    assert cli.shard_key(Path("/home/b/other/x.ipynb"), roots) == "x.ipynb"
    assert cli.shard_key(Path("elsewhere/y.ipynb"), roots) == "y.ipynb"


def test_shard_tables_merge_into_one(tmp_path, capsys):
    first = table.Table(tmp_path / "s1", ["softmax"])
    first.add(_row("a.ipynb", 1, {"softmax": 1}))
    first.finish()
    second = table.Table(tmp_path / "s2", ["causal_mask"])
    second.add(_row("b.ipynb", 5, {"causal_mask": 0}, error="cell 3: the kernel died"))
    second.finish()
    assert (
        cli.main(
            ["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "all")]
        )
        == 0
    )
    assert "merged 2 row(s)" in capsys.readouterr().out
    with (tmp_path / "all" / "grades.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["submission"] for r in rows] == ["a.ipynb", "b.ipynb"]
    assert table.exercises_of(rows[0]) == ["softmax", "causal_mask"]
    assert len(list((tmp_path / "all" / "feedback").glob("*.md"))) == 2
    with pytest.raises(ValueError, match="in both"):
        table.merge([tmp_path / "s1", tmp_path / "s1"], tmp_path / "again")


def test_the_summary_counts_passes_per_exercise_and_problems():
    rows = [
        table.line(
            _row("a", 1, {"softmax": 1, "score_std": 1}), ["softmax", "score_std", "causal_mask"]
        ),
        table.line(
            _row("b", 5, {"causal_mask": 0}, "kernel died"), ["softmax", "score_std", "causal_mask"]
        ),
    ]
    text = table.summary(rows, ["softmax", "score_std", "causal_mask"])
    assert "2 submission(s); mean score 50%, full marks 1, zero 1" in text
    assert "1/1 passed" in text and "0/1 passed" in text and "b: kernel died" in text


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["a.ipynb", "--exercises", "sofmax"], "unknown exercise"),
        (["a.ipynb", "--timeout", "0"], "must be positive"),
        (["a.ipynb", "--shard", "3/2"], "1 <= i <= N"),
        (["a.ipynb", "--shard", "half"], "i/N"),
        (["a.ipynb", "--chapter", "42"], "has no exercises"),
        (["a.ipynb", "--jobs", "0"], "at least 1"),
        (["a.ipynb", "nowhere.ipynb"], "does not exist"),
    ],
)
def test_bad_command_lines_are_explained(tmp_path, capsys, monkeypatch, argv, words):
    write(tmp_path, "a.ipynb", 'check("softmax", f)')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        cli.main(argv)
    assert words in capsys.readouterr().err


def test_without_bubblewrap_the_grader_refuses_unless_told(tmp_path, capsys, monkeypatch):
    write(tmp_path, "a.ipynb", IMPORT, CH1, *CHECKS_1)
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit):
        cli.main([str(tmp_path / "a.ipynb"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert "bubblewrap is not installed" in err and "--no-sandbox" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_class_graded_without_a_sandbox(tmp_path, capsys):
    folder = tmp_path / "class"
    write(folder, "honest.ipynb", IMPORT, CH1, *CHECKS_1)
    write(folder, "cheat.ipynb", IMPORT, CH1, REFERENCE_DIRECT, *CHECKS_1)
    (folder / "broken.ipynb").write_text("{")
    out = tmp_path / "out"
    argv = [str(folder), "--out", str(out), "--no-sandbox", "--jobs", "2", "--seed", "3"]
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    assert "WARNING: --no-sandbox" in captured.err and "3 submission(s)" in captured.out
    with (out / "grades.csv").open() as f:
        rows = {Path(r["submission"]).name: r for r in csv.DictReader(f)}
    assert [
        rows["honest.ipynb"][n] for n in ("softmax", "scaled_dot_product_attention", "score_std")
    ] == ["1"] * 3
    assert (rows["cheat.ipynb"]["softmax"], rows["cheat.ipynb"]["score_std"]) == ("0", "1")
    assert "not available while 'softmax' is graded" in rows["cheat.ipynb"]["softmax reason"]
    assert "not valid JSON" in rows["broken.ipynb"]["error"]
    assert cli.main([*argv, "--resume"]) == 0  # nothing left to grade
    assert "3 already in" in capsys.readouterr().err


@pytest.mark.slow
def test_an_interrupted_run_keeps_its_finished_rows(tmp_path):
    (tmp_path / "a_malformed.ipynb").write_text("{")
    write(tmp_path, "b_sleeps.ipynb", "import time\nf = time.sleep(60)", 'check("softmax", f)')
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "mha.grade",
        str(tmp_path),
        "--out",
        str(out),
        "--no-sandbox",
        "--jobs",
        "1",
    ]
    process = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    csv_path, deadline = out / "grades.csv", time.monotonic() + 60
    while not (csv_path.exists() and len(csv_path.read_text().splitlines()) == 2):
        assert time.monotonic() < deadline, "the first row never appeared"
        time.sleep(0.2)
    time.sleep(3)  # the second notebook's answer process starts and sleeps
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "rerun with --resume" in err
    with csv_path.open() as f:
        assert [Path(r["submission"]).name for r in csv.DictReader(f)] == ["a_malformed.ipynb"]


# --- the gradebook ------------------------------------------------------------------------------


def test_help_shows_every_option_with_its_default(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = " ".join(capsys.readouterr().out.split("options:")[1].split())
    options = [a for a in cli._parser()._actions if a.option_strings and a.dest != "help"]
    for action in options:
        start = text.index(action.option_strings[0] + " ")
        assert "(default:" in text[start : start + 200], action.option_strings[0]


def test_a_roster_points_and_exports_a_platform_imports(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("path,student_id,name\nalice,s1,Alice A\nbob/ch1.ipynb,=s2,Bob B\n")
    points = tmp_path / "points.csv"
    points.write_text("exercise,points\nsoftmax,3\n")
    course = cli.Course(roster, points, "Chapter 1")
    assert course.student("alice/sub/ch1.ipynb").student_id == "s1"
    assert course.student("bob/ch1.ipynb").name == "Bob B" and course.student("carol.ipynb") is None
    exercises = ["softmax", "score_std"]
    rows = [
        table.line(_row(n, 1, {"softmax": s, "score_std": 1}), exercises)
        for n, s in (("a", 1), ("b", 0), ("c", 1))
    ]
    students = dict(
        zip(
            [r["key"] for r in rows],
            [course.student("alice/x.ipynb"), course.student("bob/ch1.ipynb"), None],
            strict=True,
        )
    )
    gradebook.export(
        tmp_path, rows, exercises, students=students, points=course.points, assignment="Chapter 1"
    )
    canvas = list(csv.reader((tmp_path / "canvas.csv").open()))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Chapter 1"]
    assert canvas[1] == ["Alice A", "", "s1", "s1", "", "4"] and canvas[2][2:4] == ["'=s2", "'=s2"]
    assert canvas[2][5] == "1" and canvas[3][0] == "c"
    moodle = list(csv.reader((tmp_path / "moodle.csv").open()))
    assert moodle[0] == ["ID number", "Full name", "Chapter 1"] and moodle[1] == [
        "s1",
        "Alice A",
        "4",
    ]
    results = json.loads((tmp_path / "gradescope" / "s1" / "results.json").read_text())
    assert (results["score"], results["max_score"]) == (4, 4)
    assert [t["max_score"] for t in results["tests"]] == [3, 1]
    with pytest.raises(ValueError, match="unknown exercises"):
        points.write_text("exercise,points\nsofmax,3\n")
        cli.Course(None, points)


def test_similar_answers_are_reported_side_by_side(tmp_path):
    shared = "def softmax(x, axis=-1):\n    e = np.exp(x - x.max(axis=axis, keepdims=True))\n    total = e.sum(axis=axis, keepdims=True)\n    return e / total\n"
    renamed = shared.replace("total", "s").replace("e ", "ex ").replace("e.", "ex.")
    other = "def softmax(x, axis=-1):\n    out = []\n    for row in np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis]):\n        m = max(row)\n        out.append([math.exp(v - m) for v in row])\n    return np.array(out)\n"
    answers = {"softmax": {"a.ipynb": shared, "b.ipynb": renamed, "c.ipynb": other}}
    pairs = gradebook.similar_pairs(answers, 0.8)
    assert [(p.first, p.second) for p in pairs] == [("a.ipynb", "b.ipynb")]
    page = gradebook.similarity_report(tmp_path / "similarity.html", pairs, 0.8).read_text()
    assert "never a verdict" in page and "a.ipynb" in page and "return e / total" in page
