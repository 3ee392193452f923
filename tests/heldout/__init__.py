"""Held-out answers: how well the checks name mistakes nobody showed them.

A round is written blind, *after* the diagnosis is frozen, by someone who has read only the
notebooks, and judged by someone else; it is never added to the tables or to
``tests/corpus/`` (``tests/test_checks.py`` makes sure no held-out answer's code is there,
but those of ``seen.json``, below).
Each round is used once: the next change to the diagnosis is measured on a new round, in a new
folder.

A round is a folder ``roundN/`` holding the writers' files ``chNN.py`` (each a list
``ANSWERS`` of dicts with ``exercise``, ``kind`` -- ``correct``, ``wrong`` or ``robustness``
--, ``mistake``, ``teacher_says`` and ``code``, which defines the exercise's name; from round 8
two writers' files one after the other, ``ANSWERS`` the first list then the second) and the
judge's ``labels.json``: for each wrong answer, ``"chNN:index"`` (its place in its file's
list) maps to the id of the mistake a right diagnosis names (an id of the exercise's table, a
known wrong value, or a relation's id, see :mod:`mha.checks.relations`), or to ``"unnamed"``
when no id fits. A folder without ``chNN.py`` files is a placeholder.

Where the diagnosis is not the label's id, a reader who did not write the checks reads what
it tells the student, after the round has been checked (``tests/heldout/measure.py``): the
round's ``reading.json`` maps ``"chNN:index"`` to each diagnosis id it got (``"none"`` for no
diagnosis) and the verdict: ``named`` (the mistake, in other words: an edit of the solution
that is the answer's slip, say), ``where`` (only where it is wrong), ``other`` (another
mistake: a misdiagnosis) or ``nothing``. A verdict holds for that id only: a later change that
gives another diagnosis is not read until a reader reads it.

A writer who never saw ``tests/corpus/`` still arrives at some of its answers (a one-line
count, the fixed version of the code a chapter gives): the judge lists their keys in the
round's ``seen.json``, the answers whose code was already in ``tests/corpus/`` or in
``mha/checks/`` when the round was added. Only those may be there, and the rates are also
given without them.

An exercise whose statement is rewritten after a round was written (another task, other
inputs) retires that round's answers to it: the round's ``retired.json`` maps the exercise's
name to why, and :func:`rounds` leaves those answers out (their labels name mistakes of the
old statement). The rates a round gave when it was measured stay in the README as measured.
"""

from __future__ import annotations

import contextlib
import io
import json
import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
UNNAMED = "unnamed"


@dataclass(frozen=True)
class HeldOut:
    """One held-out answer and the judge's label (None for correct and robustness answers)."""

    round: str
    key: str  # "chNN:index"
    exercise: str
    kind: str
    mistake: str | None
    code: str
    label: str | None
    seen: bool  # its code was in tests/corpus/ or mha/checks/ when the round was added
    read: dict[str, str]  # a reader's verdict on each diagnosis that is not the label's id

    def answer(self) -> Any:
        """What the code defines under the exercise's name (its prints are swallowed)."""
        namespace: dict[str, Any] = {
            "__name__": f"heldout_{self.round}_{self.key.replace(':', '_')}"
        }
        with contextlib.redirect_stdout(io.StringIO()):
            exec(self.code, namespace)
        return namespace[self.exercise]


def rounds() -> dict[str, list[HeldOut]]:
    """Every round's answers, by folder name, in order (placeholders hold none)."""
    found: dict[str, list[HeldOut]] = {}
    for folder in sorted(HERE.glob("round*"), key=lambda p: int(p.name[5:] or 0)):
        labels_file = folder / "labels.json"
        labels = json.loads(labels_file.read_text()) if labels_file.exists() else {}
        seen_file = folder / "seen.json"
        seen = set(json.loads(seen_file.read_text())) if seen_file.exists() else set()
        reading_file = folder / "reading.json"
        reading = json.loads(reading_file.read_text()) if reading_file.exists() else {}
        retired_file = folder / "retired.json"
        retired = json.loads(retired_file.read_text()) if retired_file.exists() else {}
        answers = []
        for path in sorted(folder.glob("ch[0-9][0-9].py")):
            for index, entry in enumerate(runpy.run_path(str(path))["ANSWERS"]):
                key = f"{path.stem}:{index}"
                answers.append(HeldOut(
                    folder.name, key, entry["exercise"], entry["kind"], entry.get("mistake"),
                    entry["code"], labels.get(key), key in seen, reading.get(key, {}),
                ))  # fmt: skip
        unknown = seen - {a.key for a in answers}
        if unknown:
            raise ValueError(f"{seen_file} lists {sorted(unknown)}, which are no answers of it")
        unanswered = set(retired) - {a.exercise for a in answers}
        if unanswered:
            raise ValueError(f"{retired_file} retires {sorted(unanswered)}, which it never answers")
        found[folder.name] = [a for a in answers if a.exercise not in retired]
    return found
