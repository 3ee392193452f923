"""Every result the book's prose quotes is glued from the code, never typed in.

A number typed into the markdown drifts as soon as the code, a seed or a library changes; a
number inserted with myst-nb's ``{glue:text}`name``` role is whatever the code computed in
the build. This test reads the markdown of every chapter (``chapters/*.ipynb``, the ones
added later included) and of ``intro.md``, and fails on a typed-in number that looks like a
*result*.

The rule (what counts as a result):

- **a decimal**, such as ``0.96`` or ``1.25`` (inputs are integers: ``n = 4096``,
  ``h = 8``); version numbers are not results (``PyTorch 2.5``, ``1.12``, ``x.y.z``);
- **a percentage**: ``34%``, ``34 percent``;
- **a ratio**: ``3x``, ``3×``, ``3 times``, ``3-fold``, and ``twofold`` ... ``tenfold``;
- **a measured unit**: a number followed by a unit of time (``ms``, ``s``, ``seconds``, ...),
  memory (``MiB``, ``GiB``, ``GB``, ``bytes``, ...) or work (``FLOPs``, ``GFLOP/s``);
- **an approximation**: a number after ``about``, ``around``, ``roughly``,
  ``approximately``, ``nearly``, ``almost``, ``~`` or ``\\approx`` (also as ``about $n = 22\\,000$``);
- **a number right after a result word**: ``accuracy``, ``redundancy``, ``similarity``,
  ``entropy``, ``distance``, ``loss``, ``error``, ``difference``, ``importance``, ``speed-up``
  (optionally joined by ``of``, ``is``, ``was``, ``near``, ``=`` or ``:``).

Integers that name things are inputs and pass: chapter numbers, sizes and counts
(``n = 4096``, ``8 heads``), years in citations. Inside ``$...$`` mathematics only decimals
and approximations are results (formulas are full of integers). Not scanned: inline code,
fenced code and directive blocks, ``{exercise}`` and ``{solution}`` blocks and the
exercises' ``{admonition} Hint`` dropdowns (their numbers are the exercise's inputs), link targets, and the glue roles themselves.

The allow-list, for the rare legitimate case (a specification, a cited figure): an HTML
comment in the same markdown cell, invisible in Jupyter and on the website, that quotes the
text and says why, e.g. ``<!-- not a result: "16 GB" is the T4's memory as sold -->``.
A finding is allowed when its text lies inside a quoted snippet of such a comment; a quoted
snippet that allows nothing fails the test, so the list cannot go stale.

Also checked: every ``{glue...}`name``` role names a value that a code cell of the same
notebook glues (``glue("name", ...)``, or an f-string pattern such as ``glue(f"acc_{h}", ...)``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
PAGES = [*CHAPTERS, ROOT / "intro.md"]

ALLOW = re.compile(r"<!--\s*not a result:(.*?)-->", re.S)
QUOTED = re.compile(r'"([^"]+)"')
GLUE_ROLE = re.compile(r"\{glue(?::[a-z]+)?\}`([^`]+)`")

# --- what is removed before scanning ---------------------------------------------------------

_FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.S | re.M)
_EXERCISE = re.compile(
    r"^(:{3,})\{(?:exercise|solution|admonition\} Hint)\}?.*?^\1[ \t]*$", re.S | re.M
)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_MYST_COMMENT = re.compile(r"^%.*$", re.M)
_ROLE = re.compile(r"\{[a-z:-]+\}`[^`]*`")  # {glue:text}`x`, {ref}`x`, {numref}`x` ...
_CODE = re.compile(r"`[^`]*`")
_LINK_TARGET = re.compile(r"\]\([^)]*\)|<https?://[^>]*>|https?://\S+")
_CITATION = re.compile(r"\b(?:et al\.?|and [A-Z][\w-]+|[A-Z][\w-]+),? \(?(?:19|20)\d\d[a-z]?\b")
_DISPLAY_MATH = re.compile(r"\$\$.*?\$\$|\\begin\{(\w+\*?)\}.*?\\end\{\1\}", re.S)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)([^$]+?)(?<!\\)\$")

# --- what counts as a result -----------------------------------------------------------------

NUMBER = r"\d+(?:[.,]\d+)*"
_UNITS = (
    r"ms|µs|us|ns|s|sec|seconds?|minutes?|hours?|KiB|MiB|GiB|TiB|kB|KB|MB|GB|TB|bytes"
    r"|FLOPs?|GFLOPs?|TFLOPs?|GFLOP/s|TFLOP/s"
)
_APPROX = r"(?:\babout|\baround|\broughly|\bapproximately|\bnearly|\balmost|~|≈|\\approx)"
_RESULT_WORDS = (
    r"accuracy|redundancy|similarity|entropy|distance|loss|error|difference|importance"
    r"|speed-?up"
)
_VERSION_CONTEXT = re.compile(
    r"(?:PyTorch|torch|Python|CUDA|CuPy|NumPy|version|versions|release|since|v)\s*(?:>=|==|<)?\s*$",
    re.I,
)

RULES = {
    "decimal": re.compile(r"(?<![\w.])\d+\.\d+(?![\w.]*\.\d)"),
    "percentage": re.compile(rf"(?<![\w.]){NUMBER}\s*(?:%|\\%|percent\b)"),
    "ratio": re.compile(
        rf"(?<![\w.]){NUMBER}(?:\s*(?:x|×)(?![\w])|\s+times\b|-?\s?fold\b)"
        r"|\b(?:two|three|four|five|six|seven|eight|nine|ten|hundred|thousand)fold\b",
        re.I,
    ),
    "unit": re.compile(rf"(?<![\w.]){NUMBER}\s*(?:{_UNITS})(?![\w])"),
    "approximation": re.compile(rf"{_APPROX}\s*\$?(?:[A-Za-z_{{}}\\]+\s*=\s*)?{NUMBER}(?:\\,\d+)*"),
    "result word": re.compile(
        rf"\b(?:{_RESULT_WORDS})\s*(?:of|is|was|near|=|:)?\s*\$?{NUMBER}", re.I
    ),
}
MATH_RULES = ("decimal", "approximation")


@dataclass(frozen=True)
class Finding:
    rule: str
    text: str
    context: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.text!r} in ...{self.context}..."


def _blank(match: re.Match) -> str:
    """The match replaced by spaces (keeps positions; keeps words apart)."""
    return " " * len(match.group(0))


def _is_version(text: str, start: int) -> bool:
    return bool(_VERSION_CONTEXT.search(text[max(0, start - 12) : start]))


def _scan(text: str, rules: tuple[str, ...]) -> list[Finding]:
    findings = []
    for rule in rules:
        for match in RULES[rule].finditer(text):
            if rule == "decimal" and _is_version(text, match.start()):
                continue
            context = " ".join(text[max(0, match.start() - 40) : match.end() + 20].split())
            findings.append(Finding(rule, match.group(0).strip(), context))
    return findings


def typed_results(markdown: str) -> list[Finding]:
    """The result numbers typed into one markdown cell (before the allow-list)."""
    text = _COMMENT.sub(_blank, markdown)
    for pattern in (_FENCE, _EXERCISE, _MYST_COMMENT, _ROLE, _CODE, _LINK_TARGET, _CITATION):
        text = pattern.sub(_blank, text)
    math = [m.group(0) for m in _DISPLAY_MATH.finditer(text)]
    text = _DISPLAY_MATH.sub(_blank, text)
    math += [m.group(1) for m in _INLINE_MATH.finditer(text)]
    prose = _INLINE_MATH.sub(lambda m: " " + m.group(1) + " ", text)  # for "about $n = 4$"
    prose_only = _INLINE_MATH.sub(_blank, text)
    findings = _scan(prose_only, tuple(r for r in RULES if r not in MATH_RULES))
    findings += _scan(prose, MATH_RULES)
    return findings


def allowed_snippets(markdown: str) -> list[str]:
    """The quoted snippets of the cell's ``<!-- not a result: "..." reason -->`` comments."""
    snippets = []
    for comment in ALLOW.findall(markdown):
        quoted = QUOTED.findall(comment)
        reason = QUOTED.sub("", comment).strip(" .,;:-—")
        if not quoted or not reason:
            raise ValueError(
                f"an allow-list comment needs a quoted snippet and a reason: {comment!r}"
            )
        snippets += quoted
    return snippets


def unglued_results(markdown: str) -> tuple[list[Finding], list[str]]:
    """(findings not covered by the allow-list, allow-list snippets that cover nothing)."""
    findings = typed_results(markdown)
    snippets = allowed_snippets(markdown)
    outside = _COMMENT.sub("", markdown)
    left = [f for f in findings if not any(f.text in s and s in outside for s in snippets)]
    unused = [s for s in snippets if s not in outside or not any(f.text in s for f in findings)]
    return left, unused


def _markdown_cells(path: Path) -> list[str]:
    if path.suffix == ".md":
        return [path.read_text()]
    nb = nbformat.read(path, as_version=4)
    return [cell.source for cell in nb.cells if cell.cell_type == "markdown"]


def glued_names(nb: nbformat.NotebookNode) -> list[re.Pattern]:
    """A pattern for each name the notebook's code cells glue (f-strings: any middle part)."""
    names = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(  # IPython magics and shell lines become ``pass``
            line[: len(line) - len(line.lstrip())] + "pass"
            if line.lstrip().startswith(("%", "!"))
            else line
            for line in cell.source.splitlines()
        )
        for node in ast.walk(ast.parse(source)):
            is_glue = (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "glue"
                and node.args
            )
            if not is_glue:
                continue
            name = node.args[0]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                names.append(re.compile(re.escape(name.value)))
            elif isinstance(name, ast.JoinedStr):
                parts = [
                    re.escape(part.value) if isinstance(part, ast.Constant) else r"[^`:]+"
                    for part in name.values
                ]
                names.append(re.compile("".join(parts)))
    return names


# --- the book ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_no_result_is_typed_into_the_prose(path):
    problems = []
    for i, markdown in enumerate(_markdown_cells(path)):
        left, unused = unglued_results(markdown)
        problems += [f"markdown cell {i}: {finding}" for finding in left]
        problems += [f"markdown cell {i}: allow-list snippet {s!r} allows nothing" for s in unused]
    assert not problems, (
        f"{path.name}: results typed into the prose; glue them from the code "
        "({glue:text}`name`) or, for a specification or a citation, allow them with "
        '<!-- not a result: "text" why -->:\n  ' + "\n  ".join(problems)
    )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_glue_role_names_a_glued_value(path):
    nb = nbformat.read(path, as_version=4)
    names = glued_names(nb)
    used = {
        role.split(":")[0]
        for cell in nb.cells
        if cell.cell_type == "markdown"
        for role in GLUE_ROLE.findall(cell.source)
    }
    missing = sorted(name for name in used if not any(p.fullmatch(name) for p in names))
    assert not missing, (
        f"{path.name}: the prose uses glued names that no code cell glues: {missing}"
    )


# --- the rule catches what it should, and lets inputs through --------------------------------


@pytest.mark.parametrize(
    "markdown",
    [
        "the largest weight is 0.96 on average",
        "a mean accuracy of 0.96 with two heads",
        "for 34% of its work",
        "the fused path is 3x faster",
        "the fused path is 3 times faster",
        "the loss falls tenfold",
        "one call takes 12 ms here",
        "the scores need 10 GiB",
        "1920 against 5632 FLOPs per token",
        "up to about $n = 22\\,000$",
        "accuracy 1 on both",
        "$\\log n \\approx 2.5$",
        "redundancy: 0",
        ":::{admonition} Note\nthe run took 3 ms\n:::",
    ],
)
def test_typed_results_are_found(markdown):
    assert typed_results(markdown), markdown


@pytest.mark.parametrize(
    "markdown",
    [
        "with $n = 4096$ tokens and $h = 8$ heads",
        "chapter 3 builds it; chapters 1 to 5",
        "a vocabulary of 10 and 1000 held-out sequences",
        "the glued {glue:text}`ch08_accuracy:.2f` and {glue:text}`ch08_ratio`x",
        "`torch.allclose(a, b, atol=1e-5)` and `0.5 * x`",
        "PyTorch 2.5 and later; since PyTorch 1.12; numpy 2.4.6",
        "Are Sixteen Heads (Michel et al. 2019) and (Jin et al., 2024)",
        "```python\nx = 0.25  # 3 ms\n```",
        ":::{exercise} Bytes\n:label: ex-b\nA layer of 2.5 GB and 16 heads.\n:::",
        ":::{admonition} Hint\n:class: dropdown\n\n2 bytes per number.\n:::",
        "$$\\operatorname{softmax}(z)_j = \\frac{e^{z_j}}{\\sum_l e^{z_l}} \\cdot 2$$",
        "[the paper](https://arxiv.org/abs/1706.03762v7)",
    ],
)
def test_inputs_and_glued_numbers_pass(markdown):
    assert typed_results(markdown) == [], typed_results(markdown)


def test_the_allow_list_allows_only_what_it_quotes():
    markdown = 'A T4 holds 16 GB and the run took 3 ms.\n<!-- not a result: "16 GB" as sold -->'
    left, unused = unglued_results(markdown)
    assert [f.text for f in left] == ["3 ms"] and unused == []


def test_a_stale_allow_list_entry_fails():
    markdown = 'A T4 holds memory.\n<!-- not a result: "16 GB" as sold -->'
    assert unglued_results(markdown)[1] == ["16 GB"]


def test_an_allow_list_entry_needs_a_reason():
    with pytest.raises(ValueError, match="reason"):
        allowed_snippets('It has 16 GB.\n<!-- not a result: "16 GB" -->')


def _notebook(markdown: str, code: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell(markdown), nbformat.v4.new_code_cell(code)]
    )


def test_the_book_test_fails_on_a_notebook_with_a_typed_result(tmp_path):
    typed = tmp_path / "99_typed.ipynb"
    nbformat.write(_notebook("# 99\nAccuracy reaches 0.97 here.", "acc = 0.97"), typed)
    with pytest.raises(AssertionError, match=r"0\.97"):
        test_no_result_is_typed_into_the_prose(typed)

    glued = tmp_path / "98_glued.ipynb"
    code = 'from myst_nb import glue\nglue("ch99_acc", 0.97, display=False)'
    nbformat.write(_notebook("# 98\nAccuracy reaches {glue:text}`ch99_acc:.2f`.", code), glued)
    test_no_result_is_typed_into_the_prose(glued)
    test_every_glue_role_names_a_glued_value(glued)


def test_a_glue_role_without_a_glued_value_fails(tmp_path):
    path = tmp_path / "97_missing.ipynb"
    code = 'glue(f"ch97_acc_{h}", 1.0)\nglue("ch97_other", 2)'
    nbformat.write(_notebook("{glue:text}`ch97_acc_8:.2f` and {glue:text}`ch97_gone`", code), path)
    with pytest.raises(AssertionError, match="ch97_gone"):
        test_every_glue_role_names_a_glued_value(path)


# --- mha.book.glue: what the chapters call -------------------------------------------------------


def test_glue_hands_python_numbers_to_myst_nb(monkeypatch):
    import numpy as np

    myst_nb = pytest.importorskip("myst_nb")
    from mha.book.glue import glue

    seen = {}
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: seen.update({name: value}))
    glue("x", np.float32(0.5))
    glue("y", np.array(3))
    glue("z", "text")
    assert seen == {"x": 0.5, "y": 3, "z": "text"}
    assert type(seen["x"]) is float and type(seen["y"]) is int  # repr 0.5, not np.float32(0.5)


def test_glue_does_nothing_without_myst_nb(monkeypatch):
    import sys

    from mha.book.glue import glue

    monkeypatch.setitem(sys.modules, "myst_nb", None)  # as on Colab: the import fails
    glue("x", 1.0)  # no error
    with pytest.raises(TypeError, match="name"):
        glue("", 1.0)
