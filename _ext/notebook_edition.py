"""Sphinx extension of the book: the notebook edition, plain notebooks for Colab and Jupyter.

The chapters are MyST notebooks. Their markdown holds what only the book's build renders:
glue roles, exercise, hint and solution directives, cross-references, amsmath environments.
After the HTML build this extension writes each chapter again as a plain notebook,
``notebooks/<docname>.ipynb`` inside the site (``_build/html``), published with it:

- each ``{glue:text}`` (and ``{glue}``, ``{glue:md}``, ``{glue:math}``) role is the value
  the build computed, read from myst-nb's glue data of the executed notebook and formatted
  as on the website; a note under the title says the numbers were computed at build time;
- each ``{exercise}`` is a heading with its number and title (the stars are in the title),
  each dropdown (the hints) is folded in ``<details>``, and ``{solution}`` blocks are left
  out (with ``solutions=True``, for an instructors' edition, they are folded in too);
- formulas use only ``$...$`` and ``$$...$$``, the delimiters Colab's MathJax looks for:
  amsmath environments become ``aligned``, ``gathered`` or ``alignedat`` inside ``$$``,
  ``\\label`` goes, a labelled equation gets its number as ``\\tag``;
- ``{ref}``, ``{numref}``, ``{eq}`` and ``{doc}`` become the text the website shows, as a
  link to the website's page (plain text when the target is in the same chapter);
  ``{cite:p}`` and ``{cite:t}`` become "(Vaswani et al., 2017)" and "Vaswani et al. (2017)",
  each linked to its entry on the website's bibliography page;
  ``{literalinclude}`` becomes the included code;
- the code cells are the chapter's own, without outputs; a figure's caption follows it.

An instructors' edition, the same with each solution folded in ``<details>``, goes beside
the site (``_build/instructors/``), not into it.

The chapter pages' "Open in Colab" and ``.ipynb`` download buttons open this edition.
Whatever the markdown holds that has no plain form here is a build warning (an error for the
book), naming the chapter, so the edition never shows MyST to a reader.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import nbformat

#: The site's folder that holds the edition, and the branch the site is published from:
#: Colab opens ``github/<org>/<repo>/blob/<PUBLISHED_BRANCH>/<EDITION>/<docname>.ipynb``.
EDITION = "notebooks"
PUBLISHED_BRANCH = "gh-pages"
#: The instructors' edition, with the solutions folded in: ``_build/instructors/``.
INSTRUCTORS = "instructors"
COLAB = "https://colab.research.google.com"

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<marks>`{3,}|~{3,}|:{3,})(?P<info>.*)$")
_DIRECTIVE = re.compile(r"^\{(?P<name>[\w:.+-]+)\}\s*(?P<argument>.*)$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):\s*(?P<value>.*)$")
_ROLE = re.compile(r"\{(?P<name>[A-Za-z][\w:+.-]*)\}(?P<ticks>`+)")
_EXPLICIT_TITLE = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
_TARGET_LINE = re.compile(r"^\s*\((?P<label>[^()\s]+)\)=\s*$")
_LABELLED_MATH = re.compile(r"^(?P<math>.*\$\$)\s*\((?P<label>[^()\s]+)\)\s*$", re.DOTALL)
_ENVIRONMENT = re.compile(r"\\(?P<which>begin|end)\{(?P<name>[A-Za-z]+)(?P<star>\*?)\}")
_LINK = re.compile(r"\]\((?P<target>[^()\s]+)\)")

#: amsmath environments as MyST takes them at the top level, and what each becomes inside
#: ``$$``: MathJax (Colab, Jupyter) and KaTeX take these inner forms in display math.
_INNER_ENVIRONMENT = {
    "equation": None,
    "align": "aligned",
    "flalign": "aligned",
    "eqnarray": "aligned",
    "split": "aligned",
    "alignat": "alignedat",
    "gather": "gathered",
    "multline": "gathered",
}
_MATRICES = {"matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "cases"}
#: The environments MyST's amsmath extension takes as a block of their own (outside ``$$``).
_TOP_LEVEL_ENVIRONMENTS = (set(_INNER_ENVIRONMENT) - {"split"}) | (_MATRICES - {"cases"})
_ADMONITIONS = {
    "admonition", "attention", "caution", "danger", "error", "hint", "important", "note",
    "seealso", "tip", "warning", "dropdown", "topic", "sidebar", "margin",
}  # fmt: skip
_TITLED_ADMONITIONS = {"admonition", "dropdown", "topic", "sidebar", "margin"}
_BUILD_METADATA = {"mystnb", "jupytext", "myst"}
_CODE_DIRECTIVES = {"code", "code-block", "sourcecode"}
_DROPPED_DIRECTIVES = {"toctree", "tableofcontents", "contents", "index"}
_TEXT_ROLES = {"term", "index", "dfn", "guilabel", "menuselection"}
_CODE_ROLES = {"code", "samp", "file", "command", "program", "envvar", "option", "mimetype"}
_HTML_ROLES = {"sup": "sup", "sub": "sub", "kbd": "kbd"}


@dataclass
class BuildData:
    """What the conversion takes from the build; :func:`collect` reads it from Sphinx."""

    site: str  #: the website's address, ending in "/"
    book_title: str
    pages: dict[str, str]  #: docname -> page path in the site ("chapters/01_x.html")
    titles: dict[str, str]  #: docname -> page title
    glue: dict[str, dict[str, dict]]  #: docname -> key -> mime bundle (the executed cell's)
    labels: dict[str, tuple[str, str, str]]  #: label -> (docname, anchor, title)
    numbers: dict[str, dict[str, tuple[str, str]]]  #: docname -> anchor -> (type, "1.2")
    equations: dict[str, tuple[str, int]]  #: label -> (docname, number)
    exercises: dict[str, list[tuple[str, bool]]]  #: docname -> (label, hidden), in order
    numfig_format: dict[str, str]
    srcdir: Path = Path()
    #: bibliography key -> (authors as cited, year, docname of its entry, anchor of its entry)
    citations: dict[str, tuple[str, str, str, str]] = field(default_factory=dict)

    def number(self, docname: str, anchor: str) -> str | None:
        found = self.numbers.get(docname, {}).get(anchor)
        return found[1] if found else None


@dataclass
class _Directive:
    name: str
    argument: str
    options: dict[str, str]
    body: list[str]


@dataclass
class MarkdownConverter:
    """Turns one notebook's MyST markdown into the Markdown Colab and Jupyter render.

    One converter per notebook: it numbers the notebook's exercises in order across cells.
    ``problems`` collects what could not be converted (the build reports each as a warning).
    """

    build: BuildData
    docname: str
    solutions: bool = False
    problems: list[str] = field(default_factory=list)
    glued: int = 0  #: how many glue roles were replaced by their values
    _exercise_index: int = 0

    # --- blocks -------------------------------------------------------------------------

    def convert(self, text: str) -> str:
        lines = self._blocks(text.splitlines())
        out = "\n".join(lines).strip("\n")
        return re.sub(r"\n{3,}", "\n\n", out)

    def _blocks(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        paragraph: list[str] = []

        def flush() -> None:
            if paragraph:
                out.extend(self.inline("\n".join(paragraph)).split("\n"))
                paragraph.clear()

        i = 0
        while i < len(lines):
            line = lines[i]
            fence = _FENCE.match(line)
            if fence:
                flush()
                end = _closing_fence(lines, i + 1, fence["marks"])
                body = [_dedent(body_line, fence["indent"]) for body_line in lines[i + 1 : end]]
                directive = _DIRECTIVE.match(fence["info"].strip())
                if directive:
                    converted = self._directive(_parse_directive(directive, body))
                else:  # a plain code block: as it is
                    converted = [line.lstrip(" \t"), *body, fence["marks"]]
                out.extend(fence["indent"] + c if c else c for c in converted)
                i = end + 1
            elif line.lstrip().startswith("$$"):
                flush()
                end = _display_math_end(lines, i)
                out.extend(self._display_math("\n".join(lines[i : end + 1])).split("\n"))
                i = end + 1
            elif _begins_environment(line):
                flush()
                name = _begins_environment(line)
                end = i
                while end < len(lines) and f"\\end{{{name}}}" not in lines[end]:
                    end += 1
                out.extend(["$$", *self.math("\n".join(lines[i : end + 1])).split("\n"), "$$"])
                i = end + 1
            elif _TARGET_LINE.match(line) or line.startswith("%") or line.startswith("+++"):
                flush()  # a MyST target, comment or block break: nothing to show
                i += 1
            elif not line.strip():
                flush()
                out.append("")
                i += 1
            else:
                paragraph.append(line)
                i += 1
        flush()
        return out

    def _directive(self, directive: _Directive) -> list[str]:
        name = directive.name
        if name in ("exercise", "exercise-start"):
            return self._exercise(directive)
        if name in ("solution", "solution-start"):
            if not self.solutions:
                return []
            return self._folded("Solution", directive.body)
        if name in ("exercise-end", "solution-end") or name in _DROPPED_DIRECTIVES:
            return []
        if name in _ADMONITIONS:
            return self._admonition(directive)
        if name == "literalinclude":
            return self._literalinclude(directive)
        if name in _CODE_DIRECTIVES:
            language = directive.argument or directive.options.get("language", "")
            return [f"```{language}", *directive.body, "```"]
        if name in ("glue", "glue:", "glue:any", "glue:md"):
            return [
                "",
                self._glue("glue:md" if name == "glue:md" else "glue", directive.argument),
                "",
            ]
        if name == "glue:math":
            latex = self._glued(directive.argument).get("text/latex", "").strip().strip("$")
            label = directive.options.get("label")
            return ["$$", *self.math(latex, label).split("\n"), "$$"]
        if name == "math":
            label = directive.options.get("label")
            return ["$$", *self.math("\n".join(directive.body), label).split("\n"), "$$"]
        if name in ("figure", "image"):
            return self._figure(directive)
        self.problems.append(
            f"the directive {{{name}}} has no plain-Markdown form in the notebook edition"
        )
        return self._blocks(directive.body)

    def _exercise(self, directive: _Directive) -> list[str]:
        exercises = self.build.exercises.get(self.docname, [])
        if self._exercise_index >= len(exercises):
            self.problems.append(
                f"exercise {self._exercise_index + 1} ({directive.argument!r}) is not in the build"
            )
            label, hidden = "", False
        else:
            label, hidden = exercises[self._exercise_index]
        self._exercise_index += 1
        if hidden:
            return []
        number = self.build.number(self.docname, label)
        heading = f"Exercise {number}" if number else "Exercise"  # as the website titles it
        if directive.argument:
            heading += f" ({self.inline(directive.argument)})"
        return ["", f"### {heading}", "", *self._blocks(directive.body), ""]

    def _admonition(self, directive: _Directive) -> list[str]:
        """A dropdown or a hint is folded in ``<details>``; another admonition gets a bold title."""
        name, body = directive.name, directive.body
        if name in _TITLED_ADMONITIONS:
            title = directive.argument or name.capitalize()
        else:  # the argument of {note}, {tip}, ... is the start of its text
            title, body = name.capitalize(), [directive.argument, *body]
        folded = (
            name in ("dropdown", "hint")
            or "dropdown" in directive.options.get("class", "").split()
            or title.lower().startswith("hint")
        )
        if folded:
            return self._folded(title, body)
        return ["", f"**{self.inline(title)}.**", "", *self._blocks(body), ""]

    def _folded(self, summary: str, body: list[str]) -> list[str]:
        content = self._blocks(body)
        summary = self.inline(summary)
        return [
            "",
            "<details>",
            f"<summary>{summary}</summary>",
            "",
            *content,
            "",
            "</details>",
            "",
        ]

    def _literalinclude(self, directive: _Directive) -> list[str]:
        from sphinx.directives.code import LiteralIncludeReader

        path = self._source_path(directive.argument)
        options = dict(directive.options)
        for key in ("dedent", "lineno-start"):
            if key in options:
                options[key] = int(options[key])
        try:
            reader = LiteralIncludeReader(
                str(path), options, SimpleNamespace(source_encoding="utf-8")
            )
            text, _ = reader.read()
        except (OSError, ValueError) as error:
            self.problems.append(f"literalinclude {directive.argument}: {error}")
            return []
        language = options.get("language", "python" if path.suffix == ".py" else "")
        return [f"```{language}", *text.rstrip("\n").split("\n"), "```"]

    def _figure(self, directive: _Directive) -> list[str]:
        target = directive.argument
        if "://" not in target:
            self.problems.append(
                f"the {directive.name} {target} is a local file: the notebook edition shows "
                "images by URL only (draw it in a code cell, or give its URL)"
            )
            return []
        alt = directive.options.get("alt", "")
        lines = [f"![{alt}]({target})"]
        caption = " ".join(line.strip() for line in directive.body if line.strip())
        if caption:
            lines += ["", f"*{self.inline(caption)}*"]
        return ["", *lines, ""]

    # --- math ---------------------------------------------------------------------------

    def _display_math(self, block: str) -> str:
        labelled = _LABELLED_MATH.match(block.strip())
        label = labelled["label"] if labelled else None
        math = (labelled["math"] if labelled else block.strip()).strip()
        inner = math[2:-2] if math.endswith("$$") and len(math) >= 4 else math[2:]
        return f"$$\n{self.math(inner.strip(), label)}\n$$"

    def math(self, latex: str, label: str | None = None) -> str:
        """LaTeX for inside ``$$``: environments MathJax and KaTeX take there, no labels."""
        labels = re.findall(r"\\label\{([^}]*)\}", latex)
        latex = re.sub(r"\s*\\(label\{[^}]*\}|nonumber|notag)", "", latex)

        def environment(match: re.Match) -> str:
            name = match["name"]
            if name in _MATRICES or name not in _INNER_ENVIRONMENT:
                return match[0]
            inner = _INNER_ENVIRONMENT[name]
            return "" if inner is None else f"\\{match['which']}{{{inner}}}"

        latex = _ENVIRONMENT.sub(environment, latex)
        latex = re.sub(r"\\(?:eq)?ref\{([^}]*)\}", self._equation_reference, latex)
        for name in [label, *labels]:
            equation = self.build.equations.get(name) if name else None
            if equation:
                latex = f"{latex.rstrip()} \\tag{{{equation[1]}}}"
                break
        return latex.strip("\n")

    def _equation_reference(self, match: re.Match) -> str:
        equation = self.build.equations.get(match[1])
        if equation is None:
            self.problems.append(f"\\ref{{{match[1]}}} names no labelled equation")
            return match[1]
        return f"\\text{{({equation[1]})}}"

    # --- inline -------------------------------------------------------------------------

    def inline(self, text: str) -> str:
        """Roles replaced, code spans kept as they are, links to chapters made absolute."""
        out: list[str] = []
        i = 0
        while i < len(text):
            char = text[i]
            if char == "\\":
                out.append(text[i : i + 2])
                i += 2
                continue
            role = _ROLE.match(text, i) if char == "{" else None
            if role:
                ticks = len(role["ticks"])
                end = _closing_ticks(text, role.end(), ticks)
                if end is not None:
                    out.append(self._role(role["name"], text[role.end() : end].strip()))
                    i = end + ticks
                    continue
            if char == "`":
                ticks = len(text[i:]) - len(text[i:].lstrip("`"))
                end = _closing_ticks(text, i + ticks, ticks)
                stop = i + ticks if end is None else end + ticks
                out.append(text[i:stop])
                i = stop
                continue
            link = _LINK.match(text, i) if char == "]" else None
            if link:
                out.append(f"]({self._link_target(link['target'])})")
                i = link.end()
                continue
            out.append(char)
            i += 1
        return "".join(out)

    def _role(self, name: str, content: str) -> str:
        if name in ("glue", "glue:", "glue:any", "glue:text", "glue:md"):
            return self._glue(name, content)
        if name in ("ref", "numref", "eq", "doc"):
            return self._reference(name, content)
        if name in ("cite", "cite:p", "cite:t"):
            return self._citation(name, content)
        if name == "math":
            return f"${content}$"
        title, target = _explicit_title(content)
        if name == "abbr":  # "LIFO (last-in, first-out)" reads "LIFO"
            return re.sub(r"\s*\(.*\)$", "", content)
        if name in _TEXT_ROLES:
            return title or target
        if name in _CODE_ROLES:
            return f"`{content}`"
        if name in _HTML_ROLES:
            tag = _HTML_ROLES[name]
            return f"<{tag}>{content}</{tag}>"
        self.problems.append(
            f"the role {{{name}}} has no plain-Markdown form in the notebook edition"
        )
        return content

    def _citation(self, role: str, content: str) -> str:
        """Author-year, as the website shows it (``_ext/bibliography.py``), each one linked."""
        cited = []
        for key in (key.strip() for key in content.split(",")):
            if key not in self.build.citations:
                self.problems.append(f"{{{role}}} {key}: no such entry in the bibliography")
                cited.append(key)
                continue
            authors, year, docname, anchor = self.build.citations[key]
            text = f"{authors} ({year})" if role == "cite:t" else f"{authors}, {year}"
            cited.append(self._link(text, docname, anchor))
        return "; ".join(cited) if role == "cite:t" else f"({'; '.join(cited)})"

    def _glue(self, role: str, content: str) -> str:
        """A glued value as the website shows it: ``{glue:text}`key:.2f``` formats it."""
        from myst_nb.core.variables import format_plain_text

        document, separator, key = content.rpartition("::")
        key, fmt = key.rsplit(":", 1) if role == "glue:text" and ":" in key else (key, "")
        data = self._glued(document + separator + key)
        if not data:
            return key
        if role == "glue:md" and "text/markdown" in data:
            return self.inline(data["text/markdown"])
        if "text/plain" not in data:
            self.problems.append(f"the glued value {key!r} has no text form")
            return key
        return format_plain_text(data["text/plain"], fmt or ("s" if role == "glue:text" else ""))

    def _glued(self, key: str) -> dict:
        """The mime bundle glued under ``key`` (``path::key`` for another chapter's)."""
        docname = self.docname
        if "::" in key:
            path, key = key.split("::", 1)
            docname = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), path))
            docname = docname.removesuffix(".ipynb").removesuffix(".md")
        data = self.build.glue.get(docname, {}).get(key, {}).get("data")
        if data is None:
            self.problems.append(f"no glued value {key!r} in {docname}")
            return {}
        self.glued += 1
        return data

    def _reference(self, role: str, content: str) -> str:
        title, target = _explicit_title(content)
        if role == "doc":
            docname = posixpath.normpath(
                target.lstrip("/")
                if target.startswith("/")
                else posixpath.join(posixpath.dirname(self.docname), target)
            )
            if docname not in self.build.titles:
                self.problems.append(f"{{doc}} {target}: no such page")
                return title or target
            return self._link(title or self.build.titles[docname], docname, "")
        if role == "eq":
            equation = self.build.equations.get(target)
            if equation is None:
                self.problems.append(f"{{eq}} {target}: no labelled equation")
                return title or target
            return self._link(title or f"({equation[1]})", equation[0], f"equation-{target}")
        found = self.build.labels.get(target.lower())
        if found is None:
            self.problems.append(f"{{{role}}} {target}: no such label")
            return title or target
        docname, anchor, label_title = found
        if role == "numref":
            number = self.build.number(docname, anchor)
            kind = self.build.numbers.get(docname, {}).get(anchor, ("figure",))[0]
            if number is None:
                self.problems.append(f"{{numref}} {target}: the target has no number")
                return title or label_title
            text = (title or self.build.numfig_format.get(kind, "%s")).replace("%s", number)
            text = text.replace("{number}", number).replace("{name}", label_title)
        else:
            text = title or label_title
        return self._link(text, docname, anchor)

    def _link(self, text: str, docname: str, anchor: str) -> str:
        if docname == self.docname:
            return text
        return f"[{text}]({self.build.site}{self.build.pages[docname]}{'#' + anchor if anchor else ''})"

    def _link_target(self, target: str) -> str:
        path, _, anchor = target.partition("#")
        if "://" in path or not path.endswith((".ipynb", ".md")):
            return target
        docname = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), path))
        docname = docname.rsplit(".", 1)[0]
        if docname not in self.build.pages:
            return target
        return f"{self.build.site}{self.build.pages[docname]}{'#' + anchor if anchor else ''}"

    def _source_path(self, argument: str) -> Path:
        relative = (
            argument.lstrip("/")
            if argument.startswith("/")
            else posixpath.join(posixpath.dirname(self.docname), argument)
        )
        return self.build.srcdir / relative


def convert_notebook(
    notebook: nbformat.NotebookNode, docname: str, build: BuildData, *, solutions: bool = False
) -> tuple[nbformat.NotebookNode, list[str]]:
    """The edition of one chapter notebook, and what could not be converted."""
    converter = MarkdownConverter(build, docname, solutions)
    cells = []
    in_gated_solution = False
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            starts = re.search(r"^\s*(```|:::)\{solution-start\}", cell.source, re.M)
            ends = re.search(r"^\s*(```|:::)\{solution-end\}", cell.source, re.M)
            if starts and not ends:
                in_gated_solution = True
            text = converter.convert(cell.source)
            if ends:
                in_gated_solution = False
            if text.strip():
                cells.append(nbformat.v4.new_markdown_cell(text, **_same_id(cell)))
        elif cell.cell_type == "code" and not (in_gated_solution and not solutions):
            metadata = {"tags": cell.metadata["tags"]} if cell.metadata.get("tags") else {}
            cells.append(
                nbformat.v4.new_code_cell(cell.source, metadata=metadata, **_same_id(cell))
            )
            figure = cell.metadata.get("mystnb", {}).get("figure", {})
            if figure.get("caption"):
                number = build.number(docname, figure.get("name", ""))
                name = build.numfig_format.get("figure", "Fig. %s") % number if number else "Figure"
                text = f"**{name}.** {converter.inline(figure['caption'])}"
                cells.append(nbformat.v4.new_markdown_cell(text, **_same_id(cell, "-caption")))
    note = (
        f"*This is the notebook edition of [{build.titles.get(docname, docname)}]"
        f"({build.site}{build.pages.get(docname, '')}), a chapter of "
        f"[{build.book_title}]({build.site}), for Colab and Jupyter.*"
    )
    if converter.glued:
        note += (
            " *The numbers quoted in the text were computed when the book was built; running "
            "the cells computes them again, and on another machine the last digits may differ.*"
        )
    cells.insert(1, nbformat.v4.new_markdown_cell(note, id="edition-note"))
    edition = nbformat.v4.new_notebook(cells=cells)
    # The notebook's metadata, less what only the book's build reads (Colab's, say, stays).
    edition.metadata = {
        key: value for key, value in notebook.metadata.items() if key not in _BUILD_METADATA
    }
    return edition, converter.problems


def _same_id(cell: nbformat.NotebookNode, suffix: str = "") -> dict[str, str]:
    """The source cell's id (with a suffix for a cell added after it), where it has one."""
    return {"id": f"{cell.id}{suffix}"[:64]} if cell.get("id") else {}


# --- helpers of the parser -------------------------------------------------------------


def _closing_fence(lines: list[str], start: int, marks: str) -> int:
    for end in range(start, len(lines)):
        stripped = lines[end].strip()
        if stripped and set(stripped) == {marks[0]} and len(stripped) >= len(marks):
            return end
    return len(lines)


def _dedent(line: str, indent: str) -> str:
    return line[len(indent) :] if line.startswith(indent) else line.lstrip(" \t")


def _parse_directive(match: re.Match, body: list[str]) -> _Directive:
    options: dict[str, str] = {}
    if body and body[0].strip() == "---":
        import yaml

        end = next((i for i in range(1, len(body)) if body[i].strip() == "---"), len(body))
        options = {
            str(k): str(v) for k, v in (yaml.safe_load("\n".join(body[1:end])) or {}).items()
        }
        body = body[end + 1 :]
    else:
        while body and _OPTION.match(body[0]):
            option = _OPTION.match(body[0])
            options[option["key"]] = option["value"]
            body = body[1:]
    return _Directive(match["name"], match["argument"], options, body)


def _display_math_end(lines: list[str], start: int) -> int:
    """The line that closes the ``$$`` block opened on line ``start``."""
    if "$$" in lines[start].lstrip()[2:]:
        return start
    return next((end for end in range(start + 1, len(lines)) if "$$" in lines[end]), len(lines) - 1)


def _begins_environment(line: str) -> str | None:
    match = re.match(r"^\s*\\begin\{([A-Za-z]+\*?)\}", line)
    if match and match[1].rstrip("*") in _TOP_LEVEL_ENVIRONMENTS:
        return match[1]
    return None


def _closing_ticks(text: str, start: int, ticks: int) -> int | None:
    for match in re.finditer(r"`+", text[start:]):
        if len(match[0]) == ticks:
            return start + match.start()
    return None


def _explicit_title(content: str) -> tuple[str, str]:
    match = _EXPLICIT_TITLE.match(content)
    return (match["title"], match["target"]) if match else ("", content)


# --- the Sphinx side ---------------------------------------------------------------------


def site_address(config) -> str:
    """The website's address: ``html_baseurl``, else GitHub Pages' address of the repository."""
    if config.html_baseurl:
        return config.html_baseurl.rstrip("/") + "/"
    org, repo = _org_and_repo(config)
    return f"https://{org}.github.io/{repo}/"


def colab_url(config, docname: str) -> str:
    org, repo = _org_and_repo(config)
    return f"{COLAB}/github/{org}/{repo}/blob/{PUBLISHED_BRANCH}/{EDITION}/{docname}.ipynb"


def _org_and_repo(config) -> tuple[str, str]:
    url = config.html_theme_options.get("repository_url", "").rstrip("/")
    if not url.startswith("https://github.com/"):
        raise ValueError(f"repository.url in _config.yml must be a GitHub repository, got {url!r}")
    org, repo = url.removeprefix("https://github.com/").split("/")[:2]
    return org, repo


def cited_authors(persons: list) -> str:
    """The authors as an author-year citation names them: "Shazeer", "Jain and Wallace",
    "Vaswani et al." (three or more; pybtex's ``others`` counts as more)."""
    from pybtex.richtext import Text

    def last(person) -> str:
        return Text.from_latex(" ".join(person.prelast_names + person.last_names)).render_as("text")

    if len(persons) > 2 or (len(persons) == 2 and str(persons[1]) == "others"):
        return f"{last(persons[0])} et al."
    return " and ".join(last(person) for person in persons)


def _citations(env) -> dict[str, tuple[str, str, str, str]]:
    """Each entry of the book's bibliography page: how it is cited, and where it is."""
    domain = env.get_domain("cite")
    citations = {}
    for bibliography_key, bibliography in domain.bibliographies.items():
        for key, node in bibliography.citation_nodes.items():
            entry = domain.bibdata.data.entries[key]
            authors = cited_authors(entry.persons.get("author", []))
            citations[key] = (
                authors,
                entry.fields["year"],
                bibliography_key.docname,
                node["ids"][0],
            )
    return citations


def collect(app) -> BuildData:
    """What the conversion needs, from the finished build's environment."""
    env = app.env
    std, math = env.get_domain("std"), env.get_domain("math")
    docs = sorted(env.found_docs)
    labels = {label: (doc, anchor, title) for label, (doc, anchor, title) in std.labels.items()}
    for label, (doc, anchor) in std.anonlabels.items():
        labels.setdefault(label, (doc, anchor, label))
    glue_folder = Path(env.mystnb_config.output_folder)
    glue = {}
    for doc in docs:
        path = glue_folder / f"{doc}.glue.json"
        glue[doc] = json.loads(path.read_text()) if path.exists() else {}
    exercises: dict[str, list[tuple[str, bool]]] = {doc: [] for doc in docs}
    registry = getattr(env, "sphinx_exercise_registry", {})
    entries = sorted(registry.items(), key=lambda item: item[1]["node"].get("serial_number", 0))
    for label, entry in entries:
        if entry["type"] in ("exercise", "exercise-start") and entry["docname"] in exercises:
            exercises[entry["docname"]].append((label, bool(entry["node"].get("hidden"))))
    numbers = {
        doc: {
            anchor: (kind, ".".join(map(str, number)))
            for kind, anchors in env.toc_fignumbers.get(doc, {}).items()
            for anchor, number in anchors.items()
        }
        for doc in docs
    }
    return BuildData(
        site=site_address(app.config),
        book_title=app.config.html_title or app.config.project,
        pages={doc: app.builder.get_target_uri(doc) for doc in docs},
        titles={doc: env.titles[doc].astext() for doc in docs if doc in env.titles},
        glue=glue,
        labels=labels,
        numbers=numbers,
        equations={label: (doc, number) for label, (doc, number) in math.equations.items()},
        exercises=exercises,
        numfig_format=dict(app.config.numfig_format),
        srcdir=Path(app.srcdir),
        citations=_citations(env),
    )


def _notebook_docs(app) -> list[str]:
    return sorted(
        doc for doc in app.env.found_docs if str(app.env.doc2path(doc)).endswith(".ipynb")
    )


def _write_edition(app, exception) -> None:
    """The edition into the site; the instructors' edition beside it, not published."""
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    build = collect(app)
    folders = {False: Path(app.outdir, EDITION), True: Path(app.outdir).parent / INSTRUCTORS}
    for docname in _notebook_docs(app):
        source = nbformat.read(app.env.doc2path(docname), as_version=4)
        problems: list[str] = []
        for solutions, folder in folders.items():
            notebook, found = convert_notebook(source, docname, build, solutions=solutions)
            problems += [problem for problem in found if problem not in problems]
            path = folder / f"{docname}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(notebook, path)
        for problem in problems:
            logger.warning(f"notebook edition: {problem}", location=docname)


def _point_buttons_at_edition(app, pagename, templatename, context, doctree) -> None:
    """The page's Colab button and .ipynb download open the edition, not the MyST source."""
    if pagename not in app.env.found_docs or not str(app.env.doc2path(pagename)).endswith(".ipynb"):
        return
    for group in context.get("header_buttons", []):
        for button in group.get("buttons", []):
            url = button.get("url", "")
            if url.startswith(COLAB):
                button["url"] = colab_url(app.config, pagename)
            elif button.get("label") in ("download-source-button", "download-notebook-button"):
                button["url"] = context["pathto"](f"{EDITION}/{pagename}.ipynb", 1)
                button["tooltip"] = "Download the notebook (plain Jupyter, as on Colab)"


def setup(app):
    app.connect("html-page-context", _point_buttons_at_edition, priority=900)
    app.connect("build-finished", _write_edition)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
