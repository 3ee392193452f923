"""Grader process: what a course's gradebook needs from the table (a roster, points, exports a
learning platform imports), and a similarity report across the class.

- **Roster** (``--roster roster.csv``): columns ``path``, ``student_id``, ``name``. ``path`` is
  a submitted file or a folder, relative to the folder named on the command line (as
  ``--shard`` reads paths); a submission belongs to the longest ``path`` that is it or holds it.
- **Points** (``--points points.csv``): columns ``exercise``, ``points``; an exercise not
  listed is worth 1.
- **Exports**, written next to ``grades.csv`` (every text cell formula-safe, see
  :func:`mha.grade.table.cell`):

  - ``canvas.csv``: Canvas's gradebook import: ``Student``, ``ID``, ``SIS User ID``,
    ``SIS Login ID``, ``Section`` and one column named after ``--assignment`` with the points;
    the roster's ``student_id`` fills ``SIS User ID`` and ``SIS Login ID``, ``ID`` is left
    empty (Canvas matches on the SIS columns);
  - ``moodle.csv``: Moodle's grade import: ``ID number``, ``Full name`` and the assignment's
    column (map "ID number" to the user's "idnumber" when importing);
  - ``gradescope/<student_id>/results.json``: Gradescope's autograder results, one per
    submission: ``score``, ``max_score``, ``output`` and one test per exercise (``name``,
    ``score``, ``max_score``, ``output``: the reason).

  A submission missing from the roster is exported under its path, with an empty ID.
- **Similarity** (``similarity.html``): for each exercise, every pair of answers whose code (the
  statements the grader ran for it, imports left out) overlaps by at least the threshold by
  ``copydetect``'s fingerprints (winnowing), most similar first, the two answers side by side.
  It is evidence for a person to look at, never a verdict: answers to a short exercise look
  alike, and the book's own solutions are public.
"""

from __future__ import annotations

import csv
import html
import itertools
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mha.grade.table import cell

MIN_TOKENS = 20  # answers shorter than this are not compared (a one-liner looks like any other)


@dataclass(frozen=True)
class Student:
    student_id: str
    name: str


def read_roster(path: Path) -> dict[str, Student]:
    """{path inside the class folder: student} from a roster CSV (ValueError if malformed)."""
    with path.open(newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        missing = {"path", "student_id", "name"} - set(reader.fieldnames or [])
        if missing:
            raise ValueError(f"the roster {path} has no column {sorted(missing)}")
        roster = {}
        for line in reader:
            key = os.path.normpath(line["path"].strip()).strip("/")
            roster[key] = Student(line["student_id"].strip(), line["name"].strip())
    return roster


def student_of(inside: str, roster: dict[str, Student]) -> Student | None:
    """The student whose roster path is the submission's path inside the folder, or holds it."""
    parts = Path(inside).parts
    for n in range(len(parts), 0, -1):
        found = roster.get(os.path.join(*parts[:n]))
        if found is not None:
            return found
    return None


def read_points(path: Path) -> dict[str, float]:
    with path.open(newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        if not {"exercise", "points"} <= set(reader.fieldnames or []):
            raise ValueError(f"the points table {path} needs the columns exercise and points")
        points = {}
        for line in reader:
            value = float(line["points"])
            if not value >= 0:
                raise ValueError(f"{line['exercise']} has {value} points; points are >= 0")
            points[line["exercise"].strip()] = value
    return points


def points_of(row: dict[str, str], exercises: Sequence[str], points: dict[str, float]):
    """(points scored, points possible) of a table row."""
    graded = [n for n in exercises if row.get(n, "") != ""]
    scored = sum(points.get(n, 1.0) * int(row[n]) for n in graded)
    return scored, sum(points.get(n, 1.0) for n in graded)


def _number(value: float) -> str:
    return f"{value:g}"


def export(
    out: Path,
    rows: list[dict[str, str]],
    exercises: Sequence[str],
    *,
    students: dict[str, Student | None],
    points: dict[str, float],
    assignment: str,
) -> list[Path]:
    """Write the platform exports (see the module docstring); their paths."""
    written = [out / "canvas.csv", out / "moodle.csv"]
    with written[0].open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment])
        for row in rows:
            student = students.get(row["key"])
            name = student.name if student else row["submission"]
            sid = student.student_id if student else ""
            scored, _ = points_of(row, exercises, points)
            writer.writerow([cell(name), "", cell(sid), cell(sid), "", _number(scored)])
    with written[1].open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["ID number", "Full name", assignment])
        for row in rows:
            student = students.get(row["key"])
            scored, _ = points_of(row, exercises, points)
            writer.writerow(
                [
                    cell(student.student_id if student else ""),
                    cell(student.name if student else row["submission"]),
                    _number(scored),
                ]
            )
    for row in rows:
        student = students.get(row["key"])
        folder = (
            out
            / "gradescope"
            / (student.student_id if student and student.student_id else row["key"])
        )
        folder.mkdir(parents=True, exist_ok=True)
        scored, possible = points_of(row, exercises, points)
        tests = [
            {
                "name": name,
                "score": points.get(name, 1.0) * int(row[name]),
                "max_score": points.get(name, 1.0),
                "output": row[f"{name} reason"] or "passed",
            }
            for name in exercises
            if row.get(name, "") != ""
        ]
        results = {"score": scored, "max_score": possible, "output": row["error"], "tests": tests}
        (folder / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
        written.append(folder / "results.json")
    return written


@dataclass(frozen=True)
class Pair:
    exercise: str
    first: str
    second: str
    similarity: float
    first_code: str
    second_code: str


def similar_pairs(answers: dict[str, dict[str, str]], threshold: float) -> list[Pair]:
    """Pairs of answers to one exercise at or above ``threshold`` (the smaller of the two
    overlap fractions), most similar first. ``answers``: {exercise: {submission: code}}."""
    from copydetect import CodeFingerprint, compare_files

    pairs = []
    with tempfile.TemporaryDirectory(prefix="mha-grade-similarity-") as folder:
        for exercise, codes in answers.items():
            prints = {}
            for i, (submission, code) in enumerate(sorted(codes.items())):
                path = Path(folder, f"{exercise}-{i}.py")
                path.write_text(code, encoding="utf-8")
                try:
                    fingerprint = CodeFingerprint(str(path), 5, 4, language="python")
                except Exception:  # code copydetect cannot tokenise: not compared
                    continue
                if len(fingerprint.raw_code) and len(fingerprint.hashes) >= MIN_TOKENS // 4:
                    prints[submission] = (fingerprint, code)
            for (a, (fa, ca)), (b, (fb, cb)) in itertools.combinations(sorted(prints.items()), 2):
                _, (sa, sb), _ = compare_files(fa, fb)
                if min(sa, sb) >= threshold:
                    pairs.append(Pair(exercise, a, b, float(min(sa, sb)), ca, cb))
    return sorted(pairs, key=lambda p: (-p.similarity, p.exercise, p.first, p.second))


def similarity_report(path: Path, pairs: Iterable[Pair], threshold: float) -> Path:
    """An HTML page of the pairs, every text escaped."""
    pairs = list(pairs)
    parts = [
        "<!doctype html><meta charset='utf-8'><title>Similar answers</title>",
        "<style>body{font-family:sans-serif}pre{white-space:pre-wrap;background:#f6f6f6;"
        "padding:6px}td{vertical-align:top;width:50%}</style>",
        "<h1>Similar answers</h1>",
        f"<p>{len(pairs)} pair(s) of answers to the same exercise whose code overlaps by at "
        f"least {threshold:.0%} (copydetect's fingerprints). This is evidence for a person to "
        "look at, never a verdict: short answers look alike, and the book's solutions are "
        "public.</p>",
    ]
    for pair in pairs:
        parts += [
            f"<h2>{html.escape(pair.exercise)}: {pair.similarity:.0%}</h2><table><tr>",
            f"<td><b>{html.escape(pair.first)}</b><pre>{html.escape(pair.first_code)}</pre></td>",
            f"<td><b>{html.escape(pair.second)}</b><pre>{html.escape(pair.second_code)}</pre></td>",
            "</tr></table>",
        ]
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
