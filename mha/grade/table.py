"""The score table (``grades.csv`` and ``grades.json``), the feedback files, merging shards,
and the summary. Only the grader's process writes any of them.

Columns: ``submission`` (the path, printable), ``sha256`` (of the bytes graded), ``chapter``,
``total``, ``out_of``, one column per exercise (1 or 0; empty where the notebook's chapter does
not have that exercise), ``<exercise> reason`` wherever a point was lost, ``error`` (problems
with the notebook as a whole), ``seconds`` and ``seed`` (``check(name, answer, seed=...)``
repeats an exercise's inputs). A row is appended as each notebook finishes; at the end the
CSV is rewritten sorted by submission, and the JSON follows the CSV.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
from collections.abc import Iterable
from pathlib import Path

from mha.checks import EXERCISES
from mha.grade.grader import Row

_FIXED = ["submission", "key", "sha256", "chapter", "total", "out_of"]
_TAIL = ["error", "seconds", "seed"]
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>&])")


def cell(text: str) -> str:
    """A CSV cell that no spreadsheet reads as a formula (a leading ' where it would)."""
    return "'" + text if text.startswith(_FORMULA) else text


def markdown_text(text: str) -> str:
    """``text`` shown literally in Markdown: no markup, no HTML, no line breaks."""
    return _MARKDOWN.sub(r"\\\1", " ".join(text.splitlines()))


def inline_code(text: str) -> str:
    """``text`` as a Markdown code span it cannot close (shown literally, no HTML)."""
    text = " ".join(text.splitlines())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    return (
        f"{fence} {text} {fence}"
        if text.startswith("`") or text.endswith("`")
        else f"{fence}{text}{fence}"
    )


def code_block(text: str, language: str = "python") -> list[str]:
    """Lines of a fenced block that ``text`` cannot close (the fence is longer than any run of
    backticks in it)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + language, text, fence]


def columns(exercises: list[str]) -> list[str]:
    return [*_FIXED, *exercises, *(f"{name} reason" for name in exercises), *_TAIL]


def exercises_of(fieldnames: Iterable[str]) -> list[str]:
    """The exercise columns of a table's header."""
    names = list(fieldnames)
    return [name for name in names if f"{name} reason" in names]


def ordered(exercises: Iterable[str]) -> list[str]:
    """Registry order (unknown names last, sorted)."""
    names = set(exercises)
    return [n for n in EXERCISES if n in names] + sorted(names - set(EXERCISES))


def line(row: Row, exercises: list[str]) -> dict[str, str]:
    graded = set(row.exercises)
    return {
        "submission": row.submission,
        "key": row.key,
        "sha256": row.sha256,
        "chapter": "" if row.chapter is None else str(row.chapter),
        "total": str(row.total),
        "out_of": str(row.out_of),
        **{n: str(row.scores.get(n, 0)) if n in graded else "" for n in exercises},
        **{f"{n} reason": row.reasons.get(n, "") if n in graded else "" for n in exercises},
        "error": row.error,
        "seconds": f"{row.seconds:g}",
        "seed": "" if row.seed is None else str(row.seed),
    }


def uncell(text: str) -> str:
    """The text of a cell written by :func:`cell`."""
    return text[1:] if text.startswith("'") and text[1:].startswith(_FORMULA) else text


def read_csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        return list(reader.fieldnames or []), rows


def write(out: Path, exercises: list[str], rows: list[dict[str, str]]) -> None:
    """Rewrite ``grades.csv`` (sorted by submission) and ``grades.json``, each atomically."""
    rows = sorted(rows, key=lambda r: r["submission"])
    temporary = out / "grades.csv.tmp"
    with temporary.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, columns(exercises))
        writer.writeheader()
        writer.writerows({k: cell(v) for k, v in r.items()} for r in rows)
    os.replace(temporary, out / "grades.csv")
    table = {"exercises": exercises, "submissions": [_json_row(r, exercises) for r in rows]}
    temporary = out / "grades.json.tmp"
    temporary.write_text(json.dumps(table, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(temporary, out / "grades.json")


def _json_row(r: dict[str, str], exercises: list[str]) -> dict:
    graded = [n for n in exercises if r.get(n, "") != ""]
    return {
        "submission": r["submission"],
        "key": r["key"],
        "sha256": r["sha256"],
        "chapter": int(r["chapter"]) if r["chapter"] else None,
        "total": int(r["total"]),
        "out_of": int(r["out_of"]),
        "scores": {n: int(r[n]) for n in graded},
        "reasons": {n: r[f"{n} reason"] for n in graded if r[f"{n} reason"]},
        "error": r["error"],
        "seconds": float(r["seconds"] or 0),
        "seed": int(r["seed"]) if r["seed"] else None,
    }


class Table:
    """``out/grades.csv`` and ``out/grades.json`` for one run (see the module docstring)."""

    def __init__(self, out: Path, exercises: list[str], *, resume: bool = False) -> None:
        self.out, self.exercises = out, exercises
        out.mkdir(parents=True, exist_ok=True)
        self.csv = out / "grades.csv"
        self.rows: list[dict[str, str]] = []
        if self.csv.exists():
            if not resume:
                raise FileExistsError(
                    f"{self.csv} exists; pass --resume to continue it, or choose another --out"
                )
            fieldnames, rows = read_csv(self.csv)
            self.rows = [{k: uncell(v) for k, v in r.items()} for r in rows]
            if fieldnames != columns(exercises):
                raise ValueError(
                    f"{self.csv} has the columns of other exercises "
                    f"({', '.join(exercises_of(fieldnames))}); use another --out"
                )
        else:
            write(out, exercises, [])

    @property
    def done(self) -> set[str]:
        """The keys of the submissions already graded."""
        return {r["key"] for r in self.rows}

    def add(self, row: Row) -> None:
        """Append the row (flushed to disk), rewrite the JSON, write the feedback file."""
        values = line(row, self.exercises)
        with self.csv.open("a", newline="", encoding="utf-8") as f:
            csv.DictWriter(f, columns(self.exercises)).writerow(
                {k: cell(v) for k, v in values.items()}
            )
            f.flush()
            os.fsync(f.fileno())
        self.rows.append(values)
        table = {
            "exercises": self.exercises,
            "submissions": [_json_row(r, self.exercises) for r in self.rows],
        }
        temporary = self.out / "grades.json.tmp"
        temporary.write_text(json.dumps(table, indent=1, ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, self.out / "grades.json")
        feedback(row, self.out / "feedback")

    def finish(self) -> list[dict[str, str]]:
        write(self.out, self.exercises, self.rows)
        return sorted(self.rows, key=lambda r: r["submission"])


# --- feedback -------------------------------------------------------------------------------


def feedback_name(row_or_key, submission: str | None = None) -> str:
    """A file name for a submission's feedback: a readable stem and the path's key, so that no
    two submitted paths share one."""
    key, name = (
        (row_or_key.key, row_or_key.submission) if submission is None else (row_or_key, submission)
    )
    tail = "_".join(name.removesuffix(".ipynb").split("/")[-3:])  # e.g. class_alice_ch1
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", tail).strip("._")
    return f"{stem[-80:] or 'notebook'}-{key}.md"


def feedback(row: Row, folder: Path) -> Path:
    """Write the Markdown feedback for one student: each exercise, its verdict and why. Every
    text that comes from the notebook or its answers is escaped (:func:`markdown_text`) or
    fenced (:func:`code_block`)."""
    folder.mkdir(exist_ok=True)
    chapter = "?" if row.chapter is None else row.chapter
    lines = [
        f"# Feedback: {markdown_text(row.submission)}",
        "",
        f"Chapter {chapter}: **{row.total} / {row.out_of}**",
        "",
    ]
    if row.error:
        lines += [f"**About the notebook:** {markdown_text(row.error)}", ""]
    for name in row.exercises:
        result = row.results.get(name)
        mark = "passed" if row.scores.get(name) else "not passed"
        lines += [f"## {name}: {mark}", ""]
        if name in row.defined:
            lines += [f"The answer graded was defined in cell {row.defined[name]}.", ""]
        grading = getattr(EXERCISES.get(name), "grading", None)  # predictions, experiments
        if grading:
            lines += [f"*How it is graded:* {markdown_text(grading)}.", ""]
        if result is not None:
            lines.append(markdown_text(result.feedback))
            if result.diagnosis:
                lines.append(f"\n*Recognised mistake:* {inline_code(result.diagnosis)}")
            if result.hint:
                lines.append(f"\n*Hint:* {markdown_text(result.hint)}")
            if result.note:
                lines.append(f"\n*Note:* {markdown_text(result.note)}")
        else:
            lines.append(markdown_text(row.reasons.get(name, "")))
        if name in row.notes:
            lines.append(f"\n*Flagged:* {markdown_text(row.notes[name])}")
        if name in row.sources:
            lines += ["", "The answer that was graded:", "", *code_block(row.sources[name])]
        lines.append("")
    if row.seed is not None:
        lines += [
            "To repeat these test inputs in your notebook: "
            f'`check("<exercise>", answer, seed={row.seed})`.',
            "",
        ]
    path = folder / feedback_name(row)
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


# --- merging shards -------------------------------------------------------------------------


def merge(folders: list[Path], out: Path) -> list[dict[str, str]]:
    """One table from the tables of several runs (e.g. ``--shard 1/3`` .. ``3/3``).

    Exercise columns are the union; a submission graded in two folders is an error. The
    feedback files are copied into ``out/feedback``.
    """
    if (out / "grades.csv").exists():
        raise FileExistsError(f"{out / 'grades.csv'} exists; choose another --out")
    rows: dict[str, dict[str, str]] = {}
    where: dict[str, Path] = {}
    exercises: set[str] = set()
    for folder in folders:
        path = folder / "grades.csv"
        if not path.is_file():
            raise FileNotFoundError(f"{path} does not exist")
        fieldnames, found = read_csv(path)
        exercises |= set(exercises_of(fieldnames))
        for r in found:
            r = {k: uncell(v) for k, v in r.items()}
            if r["key"] in rows:
                raise ValueError(f"{r['submission']} is in both {where[r['key']]} and {folder}")
            rows[r["key"]], where[r["key"]] = r, folder
    names = ordered(exercises)
    out.mkdir(parents=True, exist_ok=True)
    (out / "feedback").mkdir(exist_ok=True)
    for folder in folders:
        for source in sorted((folder / "feedback").glob("*.md")):
            shutil.copyfile(source, out / "feedback" / source.name)
    merged = [{column: r.get(column, "") for column in columns(names)} for r in rows.values()]
    write(out, names, merged)
    return sorted(merged, key=lambda r: r["submission"])


# --- summary --------------------------------------------------------------------------------


def summary(rows: list[dict[str, str]], exercises: list[str]) -> str:
    """A few lines: how many graded, the mean, each exercise's pass rate, the problems."""
    if not rows:
        return "no submissions graded"
    fractions = [int(r["total"]) / int(r["out_of"]) for r in rows if int(r["out_of"])]
    mean = f"{100 * sum(fractions) / len(fractions):.0f}%" if fractions else "-"
    full = sum(1 for r in rows if int(r["out_of"]) and r["total"] == r["out_of"])
    zero = sum(1 for r in rows if r["total"] == "0")
    lines = [f"{len(rows)} submission(s); mean score {mean}, full marks {full}, zero {zero}"]
    width = max(map(len, exercises), default=0)
    for name in exercises:
        graded = [r for r in rows if r.get(name, "") != ""]
        passed = sum(int(r[name]) for r in graded)
        lines.append(f"  {name:<{width}}  {passed:>4}/{len(graded)} passed")
    troubled = [r for r in rows if r["error"]]
    if troubled:
        lines.append(f"{len(troubled)} notebook(s) with problems (see the error column):")
        lines.extend(f"  {r['submission']}: {r['error'][:300]}" for r in troubled)
    return "\n".join(lines)
