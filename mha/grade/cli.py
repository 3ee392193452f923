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
from mha.grade import submissions as found
from mha.grade import table
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
) -> tuple[list[dict[str, str]], list[str]]:
    """Grade the submissions into ``out``; (the table's rows, its exercises)."""
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
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            running = {pool.submit(grade, s, sandbox, options, views): s for s in todo}
            try:
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        row = _row(future, running.pop(future))
                        grades.add(row)
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
    return grades.finish(), exercises


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mha.grade",
        description="Grade a class's notebooks, each in its own sandbox; write a score table "
        "and a feedback file per student. `python -m mha.grade merge DIR... --out DIR` "
        "merges the tables of several runs (--shard).",
    )
    parser.add_argument("submissions", nargs="+", help=".ipynb files or folders")
    parser.add_argument("--out", type=Path, default=Path("grades"), help="folder for the table")
    parser.add_argument("--resume", action="store_true", help="skip submissions in the table")
    parser.add_argument("--jobs", type=int, default=_cores(), help="notebooks at a time")
    parser.add_argument("--shard", type=_shard, help="grade only part i of N, e.g. 2/4")
    parser.add_argument("--chapter", type=int, help="grade every notebook on this chapter")
    parser.add_argument("--exercises", help="grade every notebook on these (comma-separated)")
    parser.add_argument("--cell-timeout", type=_positive, default=Limits.cell_seconds)
    parser.add_argument("--timeout", type=_positive, default=Limits.notebook_seconds)
    parser.add_argument("--check-timeout", type=_positive, default=Limits.check_seconds)
    parser.add_argument("--memory", type=_positive, default=Limits.memory_bytes / GiB)
    parser.add_argument("--threads", type=int, help="BLAS threads per notebook")
    parser.add_argument("--seed", type=int, help="fixed inputs, to repeat a run (default: secret)")
    parser.add_argument("--no-sandbox", action="store_true", help="run without bubblewrap")
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
        f"tables: {args.out / 'grades.csv'} and {args.out / 'grades.json'}; feedback in {args.out / 'feedback'}"
    )
    return 0
