"""The batch grader: run submitted notebooks and score their exercises.

    python -m mha.grade SUBMISSIONS... [--out grades] [--resume]

``SUBMISSIONS`` are ``.ipynb`` files or folders (searched recursively). For each notebook the
grader

1. reads it (an unreadable file scores zero, with the reason), and finds its exercise cells:
   every ``check("name", expression)`` call in its code cells (parsed with ``ast``, so
   nothing is run to find them);
2. runs it in its own fresh Jupyter kernel (``nbclient``), in an empty temporary folder, with
   a time limit per cell and one for the whole notebook; a cell that raises does not stop the
   others, a cell over its time limit is interrupted, output beyond a size cap is dropped;
3. in the same kernel, evaluates each exercise's ``expression`` (or, with no check cell, the
   exercise's own name) and runs :func:`mha.checks.check` on it again with a fresh random
   seed: what the notebook printed is never trusted;
4. appends one row to ``grades.csv`` (one column per exercise, 1 or 0, a total, and a reason
   wherever a point was lost) and rewrites ``grades.json`` from it.

Rows are written as each notebook finishes, so an interrupted run loses nothing finished;
``--resume`` skips the submissions already in the table. A kernel that dies or a notebook
that hangs gives zeros for what could not be shown, with the reason, and grading goes on.
Progress goes to stderr, a summary to stdout at the end.

What it does not protect against: the submissions' code runs with the grader's permissions
(use a container or a throwaway account for untrusted work), and a notebook can replace
``mha.checks`` itself inside its kernel. See README.md, "For instructors".
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import csv
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mha.checks import EXERCISES, check

RESULT_MIME = "application/vnd.mha.grade+json"
MAX_NOTEBOOK_BYTES = 20_000_000


@dataclass(frozen=True)
class Limits:
    """Time and size limits for one notebook."""

    cell_seconds: float = 60.0
    notebook_seconds: float = 600.0
    check_seconds: float = 10.0
    output_bytes_per_cell: int = 100_000
    interrupt_grace_seconds: float = 5.0
    kernel_name: str = "python3"


@dataclass
class Row:
    """One submission's line of the score table."""

    submission: str
    scores: dict[str, int]
    reasons: dict[str, str] = field(default_factory=dict)
    error: str = ""
    seconds: float = 0.0
    seed: int = 0

    @property
    def total(self) -> int:
        return sum(self.scores.values())


# --- finding the exercises ----------------------------------------------------------------


def _python_source(cell_source: str) -> str:
    """A cell's code with IPython syntax (%magics, !shell) turned into plain Python."""
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(cell_source)


def check_calls(nb: Any) -> dict[str, str]:
    """{exercise name: source of the answer expression} for each ``check("name", expr)``.

    Calls spelled ``check(...)``, ``checks.check(...)`` or ``mha.checks.check(...)`` count; a
    later call for the same exercise wins. Cells that do not parse are skipped.
    """
    found: dict[str, str] = {}
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        try:
            source = _python_source(cell.source)
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            callee = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            answer = node.args[1] if len(node.args) > 1 else None
            answer = answer or next((k.value for k in node.keywords if k.arg == "answer"), None)
            if (
                callee == "check"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and answer is not None
            ):
                found[node.args[0].value] = ast.get_source_segment(source, answer)
    return found


def notebooks_in(paths: Iterable[str | Path]) -> list[Path]:
    """The ``.ipynb`` files named, or found under the folders named (sorted, no checkpoints)."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found.extend(
                p for p in sorted(path.rglob("*.ipynb")) if ".ipynb_checkpoints" not in p.parts
            )
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(f"submission {str(path)!r} is neither a file nor a folder")
    return list(dict.fromkeys(found))


def _read(path: Path) -> Any:
    import nbformat

    size = path.stat().st_size
    if size > MAX_NOTEBOOK_BYTES:
        raise ValueError(f"the file has {size} bytes (limit {MAX_NOTEBOOK_BYTES})")
    nb = nbformat.read(path, as_version=4)
    if not isinstance(nb.get("cells"), list):
        raise ValueError("the file has no list of cells")
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            cell.outputs, cell.execution_count = [], None
    return nb


def exercises_in(paths: Iterable[Path]) -> list[str]:
    """Known exercises with a check cell in at least one readable notebook (registry order)."""
    named: set[str] = set()
    for path in paths:
        try:
            named |= set(check_calls(_read(path)))
        except Exception:  # an unreadable submission names nothing; grading reports it
            continue
    return [name for name in EXERCISES if name in named]


# --- running one notebook -----------------------------------------------------------------


def _client_class():
    from nbclient import NotebookClient

    class CappedClient(NotebookClient):
        """A NotebookClient that keeps at most ``output_cap`` bytes of output per cell
        (set ``output_cap``, ``protected_cell`` and ``output_bytes = {}`` after creating it)."""

        def output(self, outs, msg, display_id, cell_index):
            if cell_index != self.protected_cell:  # the grader's own cell is never capped
                size = len(json.dumps(msg.get("content", {}), default=str))
                self.output_bytes[cell_index] = self.output_bytes.get(cell_index, 0) + size
                if self.output_bytes[cell_index] > self.output_cap:
                    return None
            return super().output(outs, msg, display_id, cell_index)

    return CappedClient


def recheck_in_kernel(namespace: dict, answers: dict[str, str], seed: int, seconds: float):
    """Run inside the submission's kernel: re-check each answer, display the results as JSON.

    ``answers`` maps exercise names to the expression to evaluate in ``namespace`` (the
    notebook's globals). The results go out as one display message of type RESULT_MIME.
    """
    from IPython.display import display

    results = {}
    for name, expression in answers.items():
        try:
            answer = eval(expression, namespace)
        except BaseException as error:
            reason = f"no answer: evaluating {expression!r} raised {type(error).__name__}: {error}"
            results[name] = {"passed": False, "status": "failed", "feedback": reason[:300]}
            continue
        results[name] = check(name, answer, seed=seed, time_limit=seconds).to_dict()
    display({RESULT_MIME: results}, raw=True)


def grade_notebook(path: Path, exercises: list[str], limits: Limits) -> Row:
    """Run one submission and re-check its exercises; never raises because of the notebook."""
    seed = random.SystemRandom().randrange(2**32)
    row = Row(str(path), dict.fromkeys(exercises, 0), seed=seed)
    start = time.monotonic()
    try:
        nb = _read(path)
    except Exception as error:
        row.error = f"could not read the notebook: {type(error).__name__}: {str(error)[:200]}"
        row.reasons = dict.fromkeys(exercises, "notebook unreadable")
        return row
    found = check_calls(nb)
    answers = {name: found.get(name, name) for name in exercises}  # default: the name itself
    results, row.error = _execute(nb, answers, seed, limits)
    for name in exercises:
        result = results.get(name)
        if result is None:
            row.reasons[name] = row.error or "not re-checked"
        elif result.get("passed"):
            row.scores[name] = 1
        else:
            row.reasons[name] = f"{result.get('status')}: {result.get('feedback')}"
            if result.get("hint"):
                row.reasons[name] += f" | Hint: {result['hint']}"
    row.seconds = round(time.monotonic() - start, 1)
    return row


class _Watchdog:
    """Interrupts the kernel (SIGINT) when a cell runs past its limit, and kills the kernel's
    process group if it is still busy ``grace`` seconds later (an answer that ignores
    interrupts). nbclient then reports the dead kernel, and the notebook gets zeros."""

    def __init__(self, client: Any, grace: float) -> None:
        self.pgid = client.km.provisioner.pgid
        self.grace = grace
        self.fired: str | None = None
        self._timers: list[threading.Timer] = []

    def arm(self, seconds: float) -> None:
        self.fired = None
        self._start(seconds, self._interrupt)

    def disarm(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    def _start(self, seconds: float, action) -> None:
        timer = threading.Timer(seconds, action)
        timer.daemon = True
        self._timers.append(timer)
        timer.start()

    def _signal(self, signum: int) -> None:
        with contextlib.suppress(OSError):  # already gone
            os.killpg(self.pgid, signum)

    def _interrupt(self) -> None:
        self.fired = "interrupted"
        self._signal(signal.SIGINT)
        self._start(self.grace, self._kill)

    def _kill(self) -> None:
        self.fired = "killed"
        self._signal(signal.SIGKILL)


def _execute(nb: Any, answers: dict[str, str], seed: int, limits: Limits) -> tuple[dict, str]:
    """Run the cells, then the re-check; (results by exercise, notebook-level problem)."""
    import nbformat
    from nbclient.exceptions import DeadKernelError

    problems: list[str] = []
    recheck = nbformat.v4.new_code_cell(
        "import mha.grade as _mha_grade\n"
        f"_mha_grade.recheck_in_kernel(globals(), {answers!r}, {seed}, {limits.check_seconds})"
    )
    student_cells = len(nb.cells)
    nb.cells.append(recheck)
    with tempfile.TemporaryDirectory(prefix="mha-grade-") as workdir:
        client = _client_class()(
            nb,
            kernel_name=limits.kernel_name,
            timeout=None,  # the watchdog keeps time
            allow_errors=True,
            shutdown_kernel="immediate",
            resources={"metadata": {"path": workdir}},
        )
        client.output_cap = limits.output_bytes_per_cell
        client.protected_cell = student_cells
        client.output_bytes = {}
        recheck_seconds = len(answers) * (limits.check_seconds + 5) + 30
        index = 0
        try:
            with client.setup_kernel(stderr=subprocess.DEVNULL):  # the kernel's own log
                watchdog = _Watchdog(client, limits.interrupt_grace_seconds)
                deadline = time.monotonic() + limits.notebook_seconds  # from kernel start
                for index, cell in enumerate(nb.cells):
                    if index < student_cells:
                        seconds = min(limits.cell_seconds, deadline - time.monotonic())
                        if seconds <= 0:
                            problems.append(
                                f"notebook time limit ({limits.notebook_seconds:g} s) reached "
                                f"before cell {index}; the rest did not run"
                            )
                            continue
                    else:
                        seconds = recheck_seconds
                    watchdog.arm(seconds)
                    try:
                        client.execute_cell(cell, index)
                    finally:
                        watchdog.disarm()
                    if watchdog.fired:
                        problems.append(
                            f"cell {index} exceeded its {seconds:.3g} s limit and was interrupted"
                        )
        except DeadKernelError:
            if watchdog.fired == "killed":
                cause = f"cell {index} ran past its time limit and ignored the interrupt, so the kernel was stopped"
            else:
                cause = f"the kernel died in cell {index} (the notebook crashed or exited)"
            return {}, "; ".join([*problems, cause])
        except Exception as error:  # kernel could not start, protocol failure, ...
            return {}, "; ".join([*problems, f"{type(error).__name__}: {str(error)[:200]}"])
    for output in recheck.outputs:
        if output.get("output_type") == "display_data" and RESULT_MIME in output.get("data", {}):
            return dict(output["data"][RESULT_MIME]), "; ".join(problems)
    errors = [f"{o.get('ename')}: {o.get('evalue')}" for o in recheck.outputs if o.get("ename")]
    return {}, "; ".join([*problems, f"the re-check failed {errors[:1]}"])


# --- the table ----------------------------------------------------------------------------


def _columns(exercises: list[str]) -> list[str]:
    reasons = [f"{name} reason" for name in exercises]
    return ["submission", "total", "out_of", *exercises, *reasons, "error", "seconds", "seed"]


def _csv_line(row: Row, exercises: list[str]) -> dict[str, Any]:
    return {
        "submission": row.submission,
        "total": row.total,
        "out_of": len(exercises),
        **row.scores,
        **{f"{name} reason": row.reasons.get(name, "") for name in exercises},
        "error": row.error,
        "seconds": row.seconds,
        "seed": row.seed,
    }


def _read_table(csv_path: Path, exercises: list[str]) -> list[dict[str, str]]:
    with csv_path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != _columns(exercises):
            raise ValueError(
                f"{csv_path} has columns {reader.fieldnames}, but this run grades "
                f"{exercises}; use another --out or the same --exercises"
            )
        return list(reader)


def _write_json(json_path: Path, csv_path: Path, exercises: list[str]) -> None:
    """Rewrite the JSON table from the CSV (the CSV is the record; the JSON follows it)."""
    rows = [
        {
            "submission": r["submission"],
            "total": int(r["total"]),
            "out_of": int(r["out_of"]),
            "scores": {name: int(r[name]) for name in exercises},
            "reasons": {name: r[f"{name} reason"] for name in exercises if r[f"{name} reason"]},
            "error": r["error"],
            "seconds": float(r["seconds"]),
            "seed": int(r["seed"]),
        }
        for r in _read_table(csv_path, exercises)
    ]
    temporary = json_path.with_suffix(".json.tmp")
    temporary.write_text(json.dumps({"exercises": exercises, "submissions": rows}, indent=1))
    os.replace(temporary, json_path)


def grade(
    submissions: list[Path],
    exercises: list[str],
    out: Path,
    limits: Limits,
    *,
    resume: bool = False,
    log: Any = None,
) -> list[dict[str, str]]:
    """Grade each submission into ``out/grades.csv`` and ``out/grades.json``; return the rows.

    Progress goes to ``log`` (a text stream; ``sys.stderr`` by default).
    """
    log = sys.stderr if log is None else log
    out.mkdir(parents=True, exist_ok=True)
    csv_path, json_path = out / "grades.csv", out / "grades.json"
    if csv_path.exists() and not resume:
        raise FileExistsError(
            f"{csv_path} exists; pass --resume to continue it, or choose another --out"
        )
    done = (
        {r["submission"] for r in _read_table(csv_path, exercises)} if csv_path.exists() else set()
    )
    if not csv_path.exists():
        with csv_path.open("w", newline="", encoding="utf-8") as f:
            csv.DictWriter(f, _columns(exercises)).writeheader()
    todo = [p for p in submissions if str(p) not in done]
    print(
        f"grading {len(todo)} notebook(s) on {len(exercises)} exercise(s)"
        + (f"; {len(submissions) - len(todo)} already in {csv_path}" if done else ""),
        file=log,
        flush=True,
    )
    for number, path in enumerate(todo, 1):
        print(f"[{number}/{len(todo)}] {path} ...", end=" ", file=log, flush=True)
        row = grade_notebook(path, exercises, limits)
        with csv_path.open("a", newline="", encoding="utf-8") as f:
            csv.DictWriter(f, _columns(exercises)).writerow(_csv_line(row, exercises))
            f.flush()
            os.fsync(f.fileno())
        _write_json(json_path, csv_path, exercises)
        problem = f" ({row.error})" if row.error else ""
        print(f"{row.total}/{len(exercises)} in {row.seconds:g} s{problem}", file=log, flush=True)
    _write_json(json_path, csv_path, exercises)
    return _read_table(csv_path, exercises)


def summary(rows: list[dict[str, str]], exercises: list[str]) -> str:
    """A few lines: how many graded, the mean, each exercise's pass rate, the problems."""
    if not rows:
        return "no submissions graded"
    totals = [int(r["total"]) for r in rows]
    lines = [
        f"{len(rows)} submission(s); mean {sum(totals) / len(rows):.2f} / {len(exercises)}, "
        f"full marks {sum(t == len(exercises) for t in totals)}, zero {sum(t == 0 for t in totals)}"
    ]
    width = max(map(len, exercises))
    for name in exercises:
        passed = sum(int(r[name]) for r in rows)
        lines.append(f"  {name:<{width}}  {passed:>4}/{len(rows)} passed")
    troubled = [r for r in rows if r["error"]]
    if troubled:
        lines.append(f"{len(troubled)} notebook(s) with problems (see the error column):")
        lines.extend(f"  {r['submission']}: {r['error']}" for r in troubled)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mha.grade",
        description="Run submitted notebooks, re-check their exercises, write a score table.",
    )
    parser.add_argument("submissions", nargs="+", help=".ipynb files or folders")
    parser.add_argument(
        "--out", type=Path, default=Path("grades"), help="folder for grades.csv/.json"
    )
    parser.add_argument("--resume", action="store_true", help="skip submissions already graded")
    parser.add_argument(
        "--exercises",
        help="comma-separated exercise names (default: those with a check cell in any submission)",
    )
    parser.add_argument(
        "--cell-timeout", type=float, default=Limits.cell_seconds, help="seconds per cell"
    )
    parser.add_argument(
        "--timeout", type=float, default=Limits.notebook_seconds, help="seconds per notebook"
    )
    parser.add_argument(
        "--check-timeout",
        type=float,
        default=Limits.check_seconds,
        help="seconds per exercise re-check",
    )
    parser.add_argument("--kernel", default=Limits.kernel_name, help="Jupyter kernel name")
    args = parser.parse_args(argv)
    for option in ("cell_timeout", "timeout", "check_timeout"):
        if getattr(args, option) <= 0:
            parser.error(
                f"--{option.replace('_', '-')} must be positive, got {getattr(args, option)}"
            )
    try:
        submissions = notebooks_in(args.submissions)
    except FileNotFoundError as error:
        parser.error(str(error))
    if not submissions:
        parser.error(f"no .ipynb files in {args.submissions}")
    if args.exercises:
        exercises = [name.strip() for name in args.exercises.split(",") if name.strip()]
        unknown = [name for name in exercises if name not in EXERCISES]
        if unknown:
            parser.error(f"unknown exercise(s) {unknown}; known: {', '.join(EXERCISES)}")
    else:
        exercises = exercises_in(submissions)
        if not exercises:
            parser.error("no check(...) cells found in the submissions; pass --exercises")
    limits = Limits(args.cell_timeout, args.timeout, args.check_timeout, kernel_name=args.kernel)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # clean kernel shutdown on kill
    try:
        rows = grade(submissions, exercises, args.out, limits, resume=args.resume)
    except (FileExistsError, ValueError) as error:
        parser.error(str(error))
    except KeyboardInterrupt:
        print(
            f"\ninterrupted; finished rows are in {args.out}; rerun with --resume", file=sys.stderr
        )
        return 130
    print(summary(rows, exercises))
    print(f"tables: {args.out / 'grades.csv'} and {args.out / 'grades.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
