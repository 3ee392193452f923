"""``python -m mha.grade``: the command line (see :mod:`mha.grade`)."""

from __future__ import annotations

import argparse
import hashlib
import os
import signal
import sys
import tempfile
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import TextIO

from mha.checks import EXERCISES
from mha.grade import gradebook, table
from mha.grade import submissions as found
from mha.grade.grader import Options, Row, Views, exercises_for, grade
from mha.grade.sandbox import GiB, Limits, Sandbox, prepare_fonts, unavailable

NO_SANDBOX_WARNING = (
    "WARNING: --no-sandbox: the notebooks run as you, with your files, your network and each "
    "other's: a submission can read or change other submissions, the grades, and anything "
    "else you can. Use it only for notebooks you trust."
)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def shard_key(path: Path, roots: list[Path]) -> str:
    """A submission's path inside the folder it was found in (the same on every machine)."""
    for root in roots:
        if path.parts[: len(root.parts)] == root.parts and path != root:
            return found.shown(Path(*path.parts[len(root.parts) :]))
    return found.shown(path.name)


def in_shard(name: str, shard: tuple[int, int] | None) -> bool:
    """Whether a submission belongs to shard ``i`` of ``n`` (by a hash of its name, so that
    the same folder splits the same way on every machine)."""
    if shard is None:
        return True
    i, n = shard
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big") % n == i - 1


def _minutes(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s"


def run(
    paths: list[Path],
    out: Path,
    options: Options,
    *,
    jobs: int = 1,
    isolate: bool = True,
    resume: bool = False,
    shard: tuple[int, int] | None = None,
    threads: int | None = None,
    roots: list[Path] | None = None,
    log: TextIO | None = None,
    course: Course | None = None,
) -> tuple[list[dict[str, str]], list[str]]:
    """Grade the submissions into ``out``; (the table's rows, its exercises)."""
    course = course or Course()
    log = sys.stderr if log is None else log
    roots = roots or paths
    notebooks = [found.read(p) for p in paths if in_shard(shard_key(p, roots), shard)]
    exercises = table.ordered(name for s in notebooks for name in exercises_for(s, options)[1])
    with tempfile.TemporaryDirectory(prefix="mha-grade-") as scratch:
        fonts = Path(scratch, "fonts")
        fonts.mkdir()
        sandbox = Sandbox(
            isolate=isolate,
            threads=threads or max(1, _cores() // jobs),
            fonts=prepare_fonts(fonts) if isolate else None,
            limits=options.limits,
        )
        views = Views(sandbox, Path(scratch, "views"))
        reason = unavailable(sandbox) if isolate else None
        if reason is not None:
            raise RuntimeError(
                f"cannot sandbox the notebooks: {reason}. Without a sandbox, --no-sandbox grades "
                "notebooks you trust."
            )
        grades = table.Table(out, exercises, resume=resume)
        todo = [s for s in notebooks if s.key not in grades.done]
        skipped = len(notebooks) - len(todo)
        print(
            f"grading {len(todo)} notebook(s), {jobs} at a time"
            + (f"; {skipped} already in {grades.csv}" if skipped else ""),
            file=log,
            flush=True,
        )
        start, done = time.monotonic(), 0
        answers: dict[str, dict[str, str]] = {}  # exercise -> {submission: code}
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            running = {pool.submit(grade, s, sandbox, options, views): s for s in todo}
            try:
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        row = _row(future, running.pop(future))
                        grades.add(row)
                        for name, code in row.code.items():
                            if row.reasons.get(name, "").startswith(("not attempted", "no answer")):
                                continue
                            answers.setdefault(name, {})[row.submission] = code
                        done += 1
                        elapsed = time.monotonic() - start
                        eta = elapsed / done * (len(todo) - done)
                        problem = f" ({row.error[:120]})" if row.error else ""
                        print(
                            f"[{done}/{len(todo)}] {row.submission}: {row.total}/{row.out_of} "
                            f"in {row.seconds:g} s{problem} | elapsed {_minutes(elapsed)}, "
                            f"ETA {_minutes(eta)}",
                            file=log,
                            flush=True,
                        )
            except BaseException:
                for future in running:
                    future.cancel()
                sandbox.stop_all()
                grades.finish()
                raise
    rows = grades.finish()
    students = {s.key: course.student(shard_key(s.path, roots)) for s in notebooks}
    gradebook.export(
        out, rows, exercises, students=students, points=course.points, assignment=course.assignment
    )
    pairs = gradebook.similar_pairs(answers, course.similarity)
    gradebook.similarity_report(out / "similarity.html", pairs, course.similarity)
    return rows, exercises


class Course:
    """What the gradebook exports need: a roster, points, the assignment's name, the
    similarity threshold (see :mod:`mha.grade.gradebook`)."""

    def __init__(
        self,
        roster: Path | None = None,
        points: Path | None = None,
        assignment: str = "MHA notebook",
        similarity: float = 0.8,
    ) -> None:
        self.roster = gradebook.read_roster(roster) if roster else {}
        self.points = gradebook.read_points(points) if points else {}
        unknown = sorted(set(self.points) - set(EXERCISES))
        if unknown:
            raise ValueError(f"the points table names unknown exercises {unknown}")
        self.assignment, self.similarity = assignment, similarity

    def student(self, inside: str):
        return gradebook.student_of(inside, self.roster)


def _row(future: Future, submission: found.Submission) -> Row:
    """The graded row, or, if grading itself failed (a bug), a row that says so."""
    try:
        return future.result()
    except Exception as error:
        traceback.print_exc()
        row = Row(submission.name, submission.sha256, submission.chapter, [], key=submission.key)
        row.error = f"not graded: the grader failed ({type(error).__name__}: {error})"[:500]
        return row


def _shard(text: str) -> tuple[int, int]:
    try:
        i, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shard takes i/N, e.g. 2/4; got {text!r}") from None
    if not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"--shard i/N needs 1 <= i <= N; got {text!r}")
    return i, n


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def _fraction(text: str) -> float:
    value = float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1], got {text}")
    return value


class _Help(argparse.HelpFormatter):
    """Every option's help ends with its default, unless it names one or has none."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text or action.default in (None, False, argparse.SUPPRESS):
            return text
        return f"{text} (default: %(default)s)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mha.grade",
        description="Grade a class's notebooks, each exercise in its own sandbox; write a score "
        "table, a feedback file per student, gradebook exports and a similarity report. "
        "`python -m mha.grade merge DIR... --out DIR` merges the tables of several runs "
        "(--shard).",
        formatter_class=_Help,
    )
    add = parser.add_argument
    add("submissions", nargs="+", help=".ipynb files or folders (searched recursively)")
    add("--out", type=Path, default=Path("grades"), help="folder for the tables and feedback")
    add(
        "--resume",
        action="store_true",
        help="skip the submissions already in --out's table (default: off)",
    )
    add("--jobs", type=int, default=_cores(), help="notebooks graded at once (default: the cores)")
    add(
        "--shard", type=_shard, default=None, help="grade only part i of N, e.g. 2/4 (default: all)"
    )
    add(
        "--chapter",
        type=int,
        default=None,
        help="grade every notebook on this chapter (default: the notebook's own, the one with most check cells)",
    )
    add(
        "--exercises",
        default=None,
        help="grade every notebook on these, comma-separated (default: its chapter's)",
    )
    add(
        "--cell-timeout",
        type=_positive,
        default=Limits.cell_seconds,
        help="seconds per cell an answer needs",
    )
    add(
        "--timeout",
        type=_positive,
        default=Limits.notebook_seconds,
        help="seconds for all the cells an answer needs",
    )
    add(
        "--check-timeout",
        type=_positive,
        default=Limits.check_seconds,
        help="seconds per exercise for all its test inputs",
    )
    add(
        "--memory",
        type=_positive,
        default=Limits.memory_bytes / GiB,
        help="GiB of resident memory per sandbox, /tmp included",
    )
    add(
        "--threads", type=int, default=None, help="BLAS threads per sandbox (default: cores / jobs)"
    )
    add(
        "--seed",
        type=int,
        default=None,
        help="fixed test inputs, to repeat a run (default: secret)",
    )
    add(
        "--roster",
        type=Path,
        default=None,
        help="CSV of path, student_id, name (default: none, exports use paths)",
    )
    add("--points", type=Path, default=None, help="CSV of exercise, points (default: 1 each)")
    add("--assignment", default="MHA notebook", help="the assignment's column in the exports")
    add("--similarity", type=_fraction, default=0.8, help="overlap reported in similarity.html")
    add(
        "--no-sandbox",
        action="store_true",
        help="run without bubblewrap: only for notebooks you trust (default: off)",
    )
    return parser


def merge_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mha.grade merge", description="Merge the tables of several runs."
    )
    parser.add_argument("folders", nargs="+", type=Path, help="the runs' --out folders")
    parser.add_argument("--out", type=Path, required=True, help="folder for the merged table")
    args = parser.parse_args(argv)
    try:
        rows = table.merge(args.folders, args.out)
    except (FileExistsError, FileNotFoundError, ValueError) as error:
        parser.error(str(error))
    print(table.summary(rows, table.exercises_of(table.read_csv(args.out / "grades.csv")[0])))
    print(f"merged {len(rows)} row(s) into {args.out / 'grades.csv'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["merge"]:
        return merge_main(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    exercises = None
    if args.exercises:
        exercises = tuple(n.strip() for n in args.exercises.split(",") if n.strip())
        unknown = [n for n in exercises if n not in EXERCISES]
        if unknown:
            parser.error(f"unknown exercise(s) {unknown}; known: {', '.join(EXERCISES)}")
    chapters = sorted({ex.chapter for ex in EXERCISES.values()})
    if args.chapter is not None and args.chapter not in chapters:
        parser.error(f"--chapter {args.chapter} has no exercises; chapters: {chapters}")
    try:
        paths = found.find(args.submissions)
    except FileNotFoundError as error:
        parser.error(str(error))
    if not paths:
        parser.error(f"no .ipynb files in {args.submissions}")
    limits = Limits(
        cell_seconds=args.cell_timeout,
        notebook_seconds=args.timeout,
        check_seconds=args.check_timeout,
        memory_bytes=int(args.memory * GiB),
    )
    options = Options(limits, exercises, args.chapter, args.seed)
    try:
        course = Course(args.roster, args.points, args.assignment, args.similarity)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    if args.no_sandbox:
        print(NO_SANDBOX_WARNING, file=sys.stderr)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop the sandboxes on kill
    try:
        rows, names = run(
            paths,
            args.out,
            options,
            jobs=args.jobs,
            isolate=not args.no_sandbox,
            resume=args.resume,
            shard=args.shard,
            threads=args.threads,
            roots=[Path(p) for p in args.submissions],
            course=course,
        )
    except (FileExistsError, ValueError, RuntimeError) as error:
        parser.error(str(error))
    except KeyboardInterrupt:
        print(
            f"\ninterrupted; finished rows are in {args.out}; rerun with --resume", file=sys.stderr
        )
        return 130
    print(table.summary(rows, names))
    print(
        f"tables: {args.out / 'grades.csv'} and {args.out / 'grades.json'}; feedback in "
        f"{args.out / 'feedback'}; exports: canvas.csv, moodle.csv, gradescope/; similar "
        f"answers: {args.out / 'similarity.html'}"
    )
    return 0
