"""Finding the submitted notebooks and reading them without trusting them.

A submission is any name ending in ``.ipynb`` under the folders given (or named directly),
outside ``.ipynb_checkpoints``. Only a regular file is read, at most ``MAX_NOTEBOOK_BYTES``: a
symbolic link is never followed (it could point to a device, a FIFO, or a classmate's
notebook), and a FIFO, device, socket or folder is not opened. Whatever a submission is, it
gets a :class:`Submission`, with the reason when it cannot be graded. Names that are not UTF-8
are shown with ``\\xNN`` escapes.

Reading keeps only what grading needs: the code cells' sources (by their index in the
notebook), their statements as read by :mod:`mha.grade.slicing` (nothing runs), the
``check("name", answer)`` calls among them, and notes on odd cells (no source, a source that
is not text, text that is not valid Unicode), which are skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from mha.checks import EXERCISES
from mha.grade import slicing

MAX_NOTEBOOK_BYTES = 20_000_000
MAX_CELLS = 5_000
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_KINDS = {
    stat.S_IFLNK: "a symbolic link (not followed)",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def printable(text: str) -> str:
    """``text`` with control characters (terminal escapes, newlines) as ``\\xNN`` and lone
    surrogates (not valid Unicode) as ``\\udNNN``."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def shown(path: Path | str) -> str:
    """A path as printable UTF-8 text, one to one: a backslash as ``\\\\``, bytes that are not
    UTF-8 and control characters as ``\\xNN`` (so two different names never look the same)."""
    raw = os.fsencode(path).replace(b"\\", b"\\\\")
    return printable(raw.decode("utf-8", "backslashreplace"))


def path_key(path: Path | str) -> str:
    """A short name unique to the path's bytes (SHA-256, 80 bits)."""
    return hashlib.sha256(os.fsencode(path)).hexdigest()[:20]


@dataclass
class Submission:
    """One submitted file, as read."""

    path: Path
    name: str  # shown(path): for the table, the feedback, the messages
    sha256: str = ""  # of the bytes read
    cells: list[tuple[int, str]] = field(default_factory=list)  # (index, source) of code cells
    statements: list[slicing.Statement] = field(default_factory=list)
    calls: dict[str, tuple[str, int]] = field(
        default_factory=dict
    )  # exercise -> (expression, position)
    notes: list[str] = field(default_factory=list)  # odd cells, skipped
    error: str = ""  # why it cannot be graded at all

    @property
    def key(self) -> str:
        return path_key(self.path)

    @property
    def chapter(self) -> int | None:
        """The chapter with the most check cells of known exercises (ties: the one checked
        first); None without any."""
        chapters = [EXERCISES[name].chapter for name in self.calls if name in EXERCISES]
        if not chapters:
            return None
        counts = Counter(chapters)
        return max(counts, key=lambda c: (counts[c], -chapters.index(c)))


def find(paths: Iterable[str | Path]) -> list[Path]:
    """The submissions named or found under the folders named (sorted, no duplicates); symbolic
    links to folders are not entered. Raises FileNotFoundError for a name that does not exist."""
    found: list[Path] = []
    for path in map(Path, paths):
        if not os.path.lexists(path):
            raise FileNotFoundError(f"submission {shown(path)!r} does not exist")
        if path.is_dir() and not path.is_symlink():
            found.extend(sorted(_walk(path)))
        else:
            found.append(path)
    return list(dict.fromkeys(found))


def _walk(folder: Path) -> Iterable[Path]:
    try:
        entries = list(os.scandir(folder))
    except OSError:  # unreadable folder: nothing found in it
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != ".ipynb_checkpoints":
                yield from _walk(Path(entry.path))
        elif entry.name.endswith(".ipynb"):
            yield Path(entry.path)


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, if it is a regular file within the size limit (ValueError if not)."""
    mode = os.lstat(path).st_mode
    kind = _KINDS.get(stat.S_IFMT(mode))
    if kind is not None:
        raise ValueError(f"it is {kind}, not a regular file")
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(descriptor, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced since lstat
            raise ValueError("it is not a regular file")
        data = f.read(MAX_NOTEBOOK_BYTES + 1)
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise ValueError(f"it has more than {MAX_NOTEBOOK_BYTES} bytes")
    return data


def _code_cells(raw: dict, notes: list[str]) -> list[tuple[int, str]]:
    if isinstance(raw.get("worksheets"), list):  # nbformat 3
        cells = [c for w in raw["worksheets"] if isinstance(w, dict) for c in w.get("cells") or []]
        key = "input"
    else:
        cells, key = raw.get("cells"), "source"
    if not isinstance(cells, list):
        raise ValueError("it has no list of cells")
    if len(cells) > MAX_CELLS:
        raise ValueError(f"it has {len(cells)} cells (limit {MAX_CELLS})")
    code = []
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            notes.append(f"cell {index} is not a cell; skipped")
            continue
        if cell.get("cell_type") != "code":
            continue
        source = cell.get(key)
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if source is None:
            notes.append(f"code cell {index} has no source; skipped")
        elif not isinstance(source, str):
            notes.append(f"code cell {index} has a source that is not text; skipped")
        elif not _valid_unicode(source):
            notes.append(f"code cell {index} has a source that is not valid Unicode; skipped")
        else:
            code.append((index, source))
    return code


def _valid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates, which JSON allows
        return False
    return True


def read(path: Path) -> Submission:
    """Read one submission; never raises because of its contents."""
    submission = Submission(path, shown(path))
    try:
        data = _read_bytes(path)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        submission.error = f"could not read the notebook: {reason}"
        return submission
    submission.sha256 = hashlib.sha256(data).hexdigest()
    try:
        raw = json.loads(data.decode("utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("it is JSON but not a notebook")
        submission.cells = _code_cells(raw, submission.notes)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        kind = "not UTF-8 text" if isinstance(error, UnicodeDecodeError) else str(error)[:200]
        if isinstance(error, json.JSONDecodeError | RecursionError):
            kind = "it is not valid JSON"
        submission.error = f"could not read the notebook: {kind}"
        return submission
    try:
        submission.statements, unreadable = slicing.statements_of(submission.cells)
    except Exception as error:  # a cell the analysis cannot read: the notebook as a whole
        submission.error = f"could not read the notebook's code ({type(error).__name__})"
        return submission
    submission.notes += [f"cell {p.cell} is not valid Python ({p.message})" for p in unreadable]
    for position, statement in enumerate(submission.statements):
        for name, expression in statement.check_calls:
            submission.calls[name] = (expression, position)  # a later call wins
    return submission
