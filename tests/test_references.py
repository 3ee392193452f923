"""The prose refers to an exercise by its label, never by a typed number.

The website numbers the exercises across the whole book (``sphinx-exercise``: 1, 2, ... to
the last one), while a notebook on its own, a reader or an author counts them per chapter:
"exercise 3" typed into chapter 9 names some other chapter's exercise on the site, and goes
wrong again whenever an exercise is added above it. A reference is written as a labelled
reference instead, ``{numref}`ex-head-similarity``` (the site writes the right number, with
a link) or ``{ref}`the similarity exercise <ex-head-similarity>```.

This test reads the markdown of every chapter (``chapters/*.ipynb``) and of ``intro.md``,
the exercise statements and hints included, and fails on an exercise named by a number or an
ordinal: "exercise 3", "Exercises 2 and 4", "Ex. 5", "exercise 10.2", "the third exercise",
"exercise three" ("the next exercise" passes: a place, not a number). Not read: inline code, fenced code, HTML and MyST comments, and the roles
themselves (``{numref}`ex-...``` is the right way).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [*sorted((ROOT / "chapters").glob("*.ipynb")), ROOT / "intro.md"]

_FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.S | re.M)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_MYST_COMMENT = re.compile(r"^%.*$", re.M)
_ROLE = re.compile(r"\{[a-z:-]+\}`[^`]*`")  # {numref}`ex-x`, {ref}`text <ex-x>` ...
_CODE = re.compile(r"`[^`]*`")

_ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
_NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten"
_SPACE = r"[ \t]*\n?[ \t]*"  # within a paragraph: at most one line break
NUMBERED_EXERCISE = re.compile(
    rf"\b(?:exercises?|ex\.){_SPACE}(?:\d+|(?:{_NUMBER_WORDS})\b)"  # exercise 3, exercise three
    rf"|\b(?:{_ORDINALS}|\d+(?:st|nd|rd|th)){_SPACE}exercise\b",  # the third (3rd) exercise
    re.I,
)


def numbered_exercises(markdown: str) -> list[str]:
    """The references to an exercise by number or ordinal in one markdown cell."""
    text = markdown
    for pattern in (_FENCE, _COMMENT, _MYST_COMMENT, _ROLE, _CODE):
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return [
        " ".join(text[max(0, m.start() - 40) : m.end() + 20].split())
        for m in NUMBERED_EXERCISE.finditer(text)
    ]


def _markdown_cells(path: Path) -> list[str]:
    if path.suffix == ".md":
        return [path.read_text()]
    nb = nbformat.read(path, as_version=4)
    return [cell.source for cell in nb.cells if cell.cell_type == "markdown"]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_no_exercise_is_referred_to_by_number(path):
    problems = [
        f"markdown cell {i}: ...{context}..."
        for i, markdown in enumerate(_markdown_cells(path))
        for context in numbered_exercises(markdown)
    ]
    assert not problems, (
        f"{path.name}: an exercise referred to by a typed number, which the site numbers "
        "differently (across the book); refer to it by its label, {numref}`ex-label`:\n  "
        + "\n  ".join(problems)
    )


# --- the rule catches what it should, and lets labelled references through --------------------


@pytest.mark.parametrize(
    "markdown",
    [
        "as in exercise 3 above",
        "Exercises 2 and 4 ask for it",
        "(see Ex. 5)",
        "exercise 10.2 of chapter 10",
        "the third exercise below",
        "in the 2nd exercise",
        "Exercise three writes it",
        "as in\nexercise\n4",
        ":::{exercise} Bytes\n:label: ex-b\nReuse your answer to exercise 2.\n:::",
    ],
)
def test_numbered_references_are_found(markdown):
    assert numbered_exercises(markdown), markdown


@pytest.mark.parametrize(
    "markdown",
    [
        "in {numref}`ex-attention-without-head`",
        "{ref}`the similarity exercise <ex-head-similarity>` helps",
        "## Exercises\n\nThree exercises follow; each is checked.",
        "the exercises of chapter 8 and 3 figures",
        "`check('exercise_3', f)`",
        "```python\n# exercise 3\n```",
        "<!-- exercise 3 was moved -->",
        "an exercise whose answer has 3 parts",
        "(the next exercise asks why)",  # a relative place, not a number
    ],
)
def test_labelled_references_and_other_numbers_pass(markdown):
    assert numbered_exercises(markdown) == [], numbered_exercises(markdown)
