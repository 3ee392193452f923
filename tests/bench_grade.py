"""Throughput and memory of the grader on a whole course (a benchmark, not a test).

    .venv/bin/python tests/bench_grade.py [--jobs 2] [--folder DIR]

Writes the course's notebooks (every chapter with exercises, three students each: solved, the
first exercise only, untouched; tests/grade_class.py), grades them with ``--jobs`` in this
process, and prints notebooks per minute, the grader process's own peak resident memory
(``VmHWM``: the sandboxes are other processes) and the machine's load before and after, since
on a shared machine the figures depend on it.
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time
from pathlib import Path

from grade_class import write_course

from mha.grade import cli, submissions
from mha.grade.grader import Options


def _peak_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mha-grade-bench-") as scratch:
        folder = args.folder or Path(scratch, "course")
        paths = write_course(folder)
        load_before = os.getloadavg()
        start = time.monotonic()
        rows, _ = cli.run(
            submissions.find([folder]), Path(scratch, "out"), Options(), jobs=args.jobs,
            log=io.StringIO(),
        )  # fmt: skip
        seconds = time.monotonic() - start
        load_after = os.getloadavg()
    solved = [r for r in rows if r["submission"].endswith("_solved.ipynb")]
    full = sum(r["total"] == r["out_of"] for r in solved)
    print(f"{len(paths)} notebooks with --jobs {args.jobs} on {len(os.sched_getaffinity(0))} cores")
    print(f"  {seconds:.0f} s: {60 * len(rows) / seconds:.1f} notebooks a minute")
    print(f"  the grader's own peak resident memory: {_peak_mib():.0f} MiB")
    print(f"  solved chapters at full marks: {full} of {len(solved)}")
    print(f"  load average (1, 5, 15 min) before {load_before}, after {load_after}")


if __name__ == "__main__":
    main()
