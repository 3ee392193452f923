"""The notebook edition: the chapters as plain notebooks that Colab and Jupyter render.

``_ext/notebook_edition.py`` writes it into the site (``_build/html/notebooks/``) at the end of
``python3 dev.py book``. Tested here:

- the conversion of MyST markdown, on small examples (no build needed), citations included;
- the extension inside a real build: a two-chapter book built by jupyter-book in a temporary
  folder (glue values from the executed notebook, exercise numbers, cross-references, the
  Colab and download buttons, and a build that fails on markup the edition cannot show);
- the chapters' install cell without network: one line that says how to install, never a git
  error followed by ``ModuleNotFoundError``;
- the edition of the built book, as a reader gets it: rendered by nbconvert's classic HTML
  exporter, with no MyST left, every exercise with its hints folded and no solution, the
  website's glued values, formulas in the delimiters Colab takes; and every notebook run top
  to bottom under nbval, alone in a folder as a download is. These skip until the book is
  built (``python3 dev.py book``) and while it is older than a chapter, as in
  ``tests/test_book.py``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
import venv
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pybtex.database
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ROOT / "chapters"
SITE = ROOT / "_build" / "html"
SOURCES = sorted(CHAPTERS.glob("*.ipynb"))


def _load_extension():
    spec = importlib.util.spec_from_file_location(
        "notebook_edition", ROOT / "_ext" / "notebook_edition.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


edition = _load_extension()
EDITION = SITE / edition.EDITION


def _repository() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]


# --- the conversion, on small examples -------------------------------------------------


def _build_data(tmp_path: Path | None = None) -> edition.BuildData:
    return edition.BuildData(
        site="https://example.org/book/",
        book_title="The book",
        pages={"chapters/one": "chapters/one.html", "chapters/two": "chapters/two.html"},
        titles={"chapters/one": "1. One", "chapters/two": "2. Two"},
        glue={
            "chapters/one": {
                "ratio": {"data": {"text/plain": "0.123456"}},
                "count": {"data": {"text/plain": "12345"}},
                "name": {"data": {"text/plain": "'heads'"}},
            },
            "chapters/two": {"speedup": {"data": {"text/plain": "3.25"}}},
        },
        labels={
            "sec-masks": ("chapters/two", "sec-masks", "Masks"),
            "fig-heads": ("chapters/two", "fig-heads", "Heads"),
            "sec-here": ("chapters/one", "sec-here", "Here"),
        },
        numbers={
            "chapters/two": {"fig-heads": ("figure", "3")},
            "chapters/one": {"ex-first": ("exercise", "1"), "ex-second": ("exercise", "2")},
        },
        equations={"eq-attention": ("chapters/two", 4)},
        exercises={
            "chapters/one": [("ex-first", False), ("ex-hidden", True), ("ex-second", False)]
        },
        numfig_format={"figure": "Fig. %s", "exercise": "Exercise %s"},
        srcdir=tmp_path or ROOT,
    )


def _convert(text: str, tmp_path: Path | None = None, **options) -> tuple[str, list[str]]:
    converter = edition.MarkdownConverter(_build_data(tmp_path), "chapters/one", **options)
    return converter.convert(text), converter.problems


def test_the_edition_writes_citations_as_the_website_does_linked_to_the_entry():
    bib = pybtex.database.parse_file(ROOT / "references.bib")
    bibliography = "references"
    build = edition.BuildData(
        site="https://example.org/book/",
        book_title="The book",
        pages={"chapters/one": "chapters/one.html", bibliography: "references.html"},
        titles={"chapters/one": "1. One", bibliography: "References"},
        glue={},
        labels={},
        numbers={},
        equations={},
        exercises={},
        numfig_format={},
        citations={
            key: (
                edition.cited_authors(bib.entries[key].persons["author"]),
                bib.entries[key].fields["year"],
                bibliography,
                f"cite-{key}",
            )
            for key in ("vaswani2017attention", "jain2019attention", "shazeer2019fast")
        },
    )
    converter = edition.MarkdownConverter(build, "chapters/one")
    text = converter.convert(
        "As {cite:t}`vaswani2017attention` wrote {cite:p}`jain2019attention, shazeer2019fast`."
    )
    link = "https://example.org/book/references.html#cite-"
    assert text == (
        f"As [Vaswani et al. (2017)]({link}vaswani2017attention) wrote "
        f"([Jain and Wallace, 2019]({link}jain2019attention); "
        f"[Shazeer, 2019]({link}shazeer2019fast))."
    )
    assert converter.problems == []
    converter.convert("{cite:p}`nobody2020`")
    assert converter.problems == ["{cite:p} nobody2020: no such entry in the bibliography"]


def test_glue_roles_become_the_values_formatted_as_on_the_website():
    text, problems = _convert(
        "A ratio of {glue:text}`ratio:.2f` ({glue:text}`ratio:.0%`), {glue:text}`count:,d` "
        "calls, {glue:text}`name` and {glue}`count`; chapter 2's {glue:text}`two.ipynb::speedup:.1f` "
        "({glue:text}`two.ipynb::speedup`)."
    )
    assert text == "A ratio of 0.12 (12%), 12,345 calls, heads and 12345; chapter 2's 3.2 (3.25)."
    assert problems == []


def test_a_missing_glue_key_is_a_problem_not_a_silent_gap():
    text, problems = _convert("{glue:text}`nowhere:.2f`")
    assert text == "nowhere"
    assert problems == ["no glued value 'nowhere' in chapters/one"]


def test_exercises_become_numbered_headings_with_hints_folded_and_no_solutions(tmp_path):
    (tmp_path / "chapters" / "solutions").mkdir(parents=True)
    (tmp_path / "chapters" / "solutions" / "one.py").write_text(
        "def first(x):\n    return x + 41\n"
    )
    source = textwrap.dedent(
        """\
        :::{exercise} First ★
        :label: ex-first

        Write `first(x)`, with $x$ a number.
        :::

        :::{admonition} Hint
        :class: dropdown

        Add {glue:text}`count:,d`.
        :::

        :::{exercise} Hidden
        :label: ex-hidden
        :hidden:

        Not shown.
        :::

        ::::{exercise} Second ★★
        :label: ex-second

        Two.
        ::::

        :::{solution} ex-first
        :class: dropdown

        ```{literalinclude} solutions/one.py
        :pyobject: first
        ```
        :::
        """
    )
    text, problems = _convert(source, tmp_path)
    assert problems == []
    assert text.split("\n\n") == [
        "### Exercise 1 (First ★)",
        "Write `first(x)`, with $x$ a number.",
        "<details>\n<summary>Hint</summary>",
        "Add 12,345.",
        "</details>",
        "### Exercise 2 (Second ★★)",
        "Two.",
    ]
    with_solutions, problems = _convert(source, tmp_path, solutions=True)
    assert problems == []
    assert "<summary>Solution</summary>\n\n```python\ndef first(x):\n    return x + 41\n```" in (
        with_solutions
    )


def test_amsmath_environments_become_what_colab_renders_inside_double_dollars():
    source = textwrap.dedent(
        r"""
        \begin{align}
        a &= b \label{eq-a} \\
        c &= d \nonumber
        \end{align}

        $$
        \begin{equation*}
        x = \begin{pmatrix} 1 \\ 2 \end{pmatrix}
        \end{equation*}
        $$

        $$ y = \operatorname{softmax}(z) $$ (eq-attention)

        $$
        \begin{gather}
        p \\ q
        \end{gather}
        $$
        """
    )
    text, problems = _convert(source)
    assert problems == []
    blocks = text.split("\n\n")
    assert blocks[0] == "$$\n\\begin{aligned}\na &= b \\\\\nc &= d\n\\end{aligned}\n$$"
    assert blocks[1] == "$$\nx = \\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}\n$$"
    assert blocks[2] == "$$\ny = \\operatorname{softmax}(z) \\tag{4}\n$$"
    assert blocks[3] == "$$\n\\begin{gathered}\np \\\\ q\n\\end{gathered}\n$$"


def test_cross_references_become_links_to_the_website_or_plain_text_here():
    text, problems = _convert(
        "See {ref}`sec-masks`, {ref}`the masks <sec-masks>`, {numref}`fig-heads`, "
        "{numref}`Figure %s <fig-heads>`, {eq}`eq-attention`, {doc}`two`, {ref}`sec-here` "
        "and [chapter 2](two.ipynb#sec-masks)."
    )
    assert problems == []
    page = "https://example.org/book/chapters/two.html"
    assert text == (
        f"See [Masks]({page}#sec-masks), [the masks]({page}#sec-masks), "
        f"[Fig. 3]({page}#fig-heads), [Figure 3]({page}#fig-heads), "
        f"[(4)]({page}#equation-eq-attention), [2. Two]({page}), Here "
        f"and [chapter 2]({page}#sec-masks)."
    )


def test_code_is_left_as_it_is():
    source = "Write `{glue:text}` in the prose, ``{ref}`x` `` too.\n\n```python\n{ref}`y`\n```"
    text, problems = _convert(source)
    assert (text, problems) == (source, [])


def test_targets_comments_and_block_breaks_are_dropped():
    text, problems = _convert("(sec-here)=\n## Here\n\n% a comment\n+++\nText.")
    assert (text, problems) == ("## Here\n\nText.", [])


def test_markup_without_a_plain_form_is_reported():
    text, problems = _convert(
        "A {pep}`8` role.\n\n:::{tab-set}\nInside.\n:::\n\n```{figure} local.png\nCaption.\n```"
    )
    assert text.startswith("A 8 role.\n\nInside.")
    assert problems[0] == "the role {pep} has no plain-Markdown form in the notebook edition"
    assert (
        problems[1] == "the directive {tab-set} has no plain-Markdown form in the notebook edition"
    )
    assert "local.png is a local file" in problems[2]


def test_a_notebook_keeps_its_code_and_gets_a_note_and_captions():
    source = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# 1. One\n\nRatio {glue:text}`ratio:.1f`."),
            nbformat.v4.new_code_cell("x = 1", execution_count=3),
            nbformat.v4.new_code_cell(
                "plot()",
                metadata={"mystnb": {"figure": {"caption": "Heads, $h$ of them", "name": "f"}}},
            ),
            nbformat.v4.new_markdown_cell(":::{solution} ex-first\nHidden.\n:::"),
        ]
    )
    kernel = {"name": "python3", "display_name": "Python 3"}
    source.metadata = {"kernelspec": kernel, "accelerator": "GPU", "mystnb": {}}
    notebook, problems = edition.convert_notebook(source, "chapters/one", _build_data())
    assert problems == []
    assert notebook.metadata == {"kernelspec": kernel, "accelerator": "GPU"}
    kinds = [(cell.cell_type, cell.source) for cell in notebook.cells]
    assert kinds[0] == ("markdown", "# 1. One\n\nRatio 0.1.")
    assert kinds[1][0] == "markdown" and "computed when the book was built" in kinds[1][1]
    assert "https://example.org/book/chapters/one.html" in kinds[1][1]
    assert kinds[2:] == [
        ("code", "x = 1"),
        ("code", "plot()"),
        ("markdown", "**Figure.** Heads, $h$ of them"),
    ]
    assert all(cell.get("outputs", []) == [] for cell in notebook.cells)
    nbformat.validate(notebook)


# --- the extension in a real build -----------------------------------------------------


MINI_BOOK = {
    "_config.yml": """\
        title: Mini book
        execute:
          execute_notebooks: force
        repository:
          url: https://github.com/example/mini
          branch: main
        launch_buttons:
          colab_url: "https://colab.research.google.com"
        parse:
          myst_enable_extensions: [amsmath, dollarmath, colon_fence]
        sphinx:
          extra_extensions: [sphinx_exercise]
          local_extensions:
            notebook_edition: {ext}
        """,
    "_toc.yml": """\
        format: jb-book
        root: intro
        chapters:
          - file: one
          - file: two
        """,
    "intro.md": "# Intro\n\nThe mini book.\n",
}


def _mini_notebook(markdown: list[str], code: list[str]) -> str:
    cells = [nbformat.v4.new_markdown_cell(markdown[0])]
    for source, text in zip(code, markdown[1:], strict=True):
        cells += [nbformat.v4.new_code_cell(source), nbformat.v4.new_markdown_cell(text)]
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    return nbformat.writes(notebook)


def _build_mini_book(folder: Path, one: str, two: str) -> subprocess.CompletedProcess:
    for name, text in MINI_BOOK.items():
        (folder / name).write_text(textwrap.dedent(text).format(ext=ROOT / "_ext"))
    (folder / "one.ipynb").write_text(one)
    (folder / "two.ipynb").write_text(two)
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    return subprocess.run(
        [jupyter_book, "build", folder, "--warningiserror", "--keep-going"],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def mini_book(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mini_book")
    one = _mini_notebook(
        [
            "# One\n\nSee {ref}`sec-two` and {numref}`ex-two`.",
            "(sec-one)=\n## Values\n\nThe mean is {glue:text}`mean:.3f`.\n\n"
            ":::{exercise} Double ★\n:label: ex-double\n\nWrite `double`.\n:::\n\n"
            ":::{admonition} Hint\n:class: dropdown\n\nMultiply by {glue:text}`two`.\n:::\n\n"
            ":::{solution} ex-double\n:class: dropdown\n\nReturn `2 * x`.\n:::",
        ],
        [
            "from myst_nb import glue\n\nglue('mean', 1 / 3, display=False)\nglue('two', 2, display=False)"
        ],
    )
    two = _mini_notebook(
        [
            "# Two\n\n(sec-two)=\n## The second\n\n$$\na = b\n$$ (eq-two)\n\n"
            ":::{exercise} Halve ★★\n:label: ex-two\n\nWrite `halve`.\n:::",
            "Back to {ref}`sec-one`, and {eq}`eq-two`.",
        ],
        ["x = 1"],
    )
    result = _build_mini_book(folder, one, two)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return folder / "_build" / "html"


def _markdown(path: Path) -> str:
    notebook = nbformat.read(path, as_version=4)
    return "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def test_the_build_writes_each_chapter_with_the_values_it_computed(mini_book):
    one = _markdown(mini_book / "notebooks" / "one.ipynb")
    assert "The mean is 0.333." in one
    assert "### Exercise 1 (Double ★)" in one
    assert "<details>\n<summary>Hint</summary>\n\nMultiply by 2.\n\n</details>" in one
    assert "2 * x" not in one and "Solution" not in one
    assert "See [The second](https://example.github.io/mini/two.html#sec-two)" in one
    assert "and [Exercise 2](https://example.github.io/mini/two.html#ex-two)." in one
    two = _markdown(mini_book / "notebooks" / "two.ipynb")
    assert "$$\na = b \\tag{1}\n$$" in two
    assert "Back to [Values](https://example.github.io/mini/one.html#sec-one)" in two
    assert "and (1)." in two


def test_the_pages_open_the_edition_in_colab_and_download_it(mini_book):
    page = (mini_book / "one.html").read_text()
    colab = re.findall(r'href="(https://colab\.research\.google\.com/[^"]*)"', page)
    assert colab == [
        "https://colab.research.google.com/github/example/mini/blob/gh-pages/notebooks/one.ipynb"
    ]
    assert 'href="notebooks/one.ipynb"' in page
    assert "_sources/one.ipynb" not in page


def test_the_build_fails_on_markup_the_edition_cannot_show(tmp_path):
    one = _mini_notebook(["# One\n\nAs {pep}`8` says."], [])
    two = _mini_notebook(["# Two"], [])
    result = _build_mini_book(tmp_path, one, two)
    assert result.returncode != 0
    assert "notebook edition: the role {pep} has no plain-Markdown form" in result.stderr


# --- the install cell without network ---------------------------------------------------


#: How the README and the install cell tell a reader to install from a clone.
LOCAL_INSTALL = 'pip install -e ".[torch]"'


def _install_cell() -> str:
    first = nbformat.read(SOURCES[0], as_version=4)
    return next(cell.source for cell in first.cells if cell.cell_type == "code")


def test_without_network_the_install_cell_says_in_one_line_how_to_install(tmp_path, monkeypatch):
    """A kernel where ``mha`` is not installed and the repository cannot be reached.

    Its Python is a fresh virtualenv that sees this one's packages but not the editable
    ``mha`` (a ``.pth`` line adds the folder; the editable install's own ``.pth`` is not
    read from there), and git is sent to a closed local port instead of GitHub.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    environment = tmp_path / "venv"
    venv.create(environment, with_pip=False)
    python = environment / "bin" / "python"
    site_packages = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = [path for path in sys.path if path.endswith("site-packages")]
    Path(site_packages, "book_packages.pth").write_text("\n".join(ours) + "\n")
    kernels = tmp_path / "jupyter" / "kernels" / "without-mha"
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "without mha",
                "language": "python",
            }
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "url.http://127.0.0.1:9/.insteadOf")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "https://github.com/")
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.chdir(tmp_path)
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(_install_cell()), nbformat.v4.new_code_cell("import mha")]
    )
    with pytest.raises(CellExecutionError):  # the cell stops the run, as "Run all" does
        NotebookClient(notebook, kernel_name="without-mha", timeout=120).execute()

    install, after = notebook.cells
    assert [output.output_type for output in install.outputs] == ["error"], install.outputs
    (message,) = install.outputs[0].traceback  # one line, no traceback
    assert _repository()["url"] in message and LOCAL_INSTALL in message, message
    assert after.execution_count is None and not after.outputs
    shown = json.dumps(install.outputs)
    for noise in ("ModuleNotFoundError", "fatal:", "exit code", "Traceback"):
        assert noise not in shown, f"the install cell showed {noise!r}: {shown[:500]}"
    # What the cell met was the unreachable repository (not, say, a missing pip):
    requirement = re.search(r'"(mha @ git\+[^"]+)"', _install_cell())[1]
    pip = subprocess.run(
        [python, "-m", "pip", "install", requirement], capture_output=True, text=True
    )
    assert pip.returncode != 0 and "127.0.0.1" in pip.stdout + pip.stderr, pip.stderr[-500:]


def test_the_readme_says_where_the_edition_is_published_and_what_the_first_cell_installs():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Reading on Colab", 1)[1].split("\n## ", 1)[0]
    repository = _repository()
    config = SimpleNamespace(html_theme_options={"repository_url": repository["url"]})
    assert edition.colab_url(config, "chapters/NN_topic") in section
    assert f"`_build/html/{edition.EDITION}/chapters/NN_topic.ipynb`" in section
    assert f"the `{edition.PUBLISHED_BRANCH}` branch" in section
    assert f"`_build/{edition.INSTRUCTORS}/`" in section
    install = f'pip install "mha @ git+{repository["url"]}@{repository["branch"]}"'
    assert install in section
    assert install.removeprefix("pip install ") in _install_cell()
    assert LOCAL_INSTALL in section and LOCAL_INSTALL in _install_cell()


# --- the edition of the built book ------------------------------------------------------


def _edition_of(source: Path) -> Path:
    return EDITION / source.relative_to(ROOT)


def _skip_unless_built(source: Path) -> Path:
    path = _edition_of(source)
    if not path.exists():
        pytest.skip(f"the book is not built with its edition (python3 dev.py book): no {path}")
    if source.stat().st_mtime > path.stat().st_mtime:
        pytest.skip(f"the edition is older than {source.name}: rebuild it (python3 dev.py book)")
    return path


class RenderedMarkdown(HTMLParser):
    """The markdown cells of a notebook page from nbconvert: their markup, text and outline.

    ``markup`` is what the cells' HTML holds (tags with their attributes, and text, code
    included); ``outline`` lists, in order, ``("heading", level, text)``, ``("details",
    open, summary, text)`` for each ``<details>`` and ``("text", text)`` for the rest.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.markup: list[str] = []
        self.outline: list[tuple] = []
        self._depth = 0  # of <div> inside a markdown cell; 0 outside
        self._heading: tuple[int, list[str]] | None = None
        self._details: list[list] = []  # [open, summary, text, in_summary]

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if not self._depth:
            self._depth = int(tag == "div" and "text_cell_render" in classes)
            return
        self.markup.append(self.get_starttag_text())
        self._depth += tag == "div"
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = (int(tag[1]), [])
        elif tag == "details":
            self._details.append(["open" in dict(attrs), "", [], False])
        elif tag == "summary" and self._details:
            self._details[-1][3] = True

    def handle_endtag(self, tag):
        if not self._depth:
            return
        self._depth -= tag == "div"
        if self._heading and tag == f"h{self._heading[0]}":
            level, text = self._heading
            self.outline.append(("heading", level, "".join(text).replace("¶", "").strip()))
            self._heading = None
        elif tag == "summary" and self._details:
            self._details[-1][3] = False
        elif tag == "details" and self._details:
            is_open, summary, text, _ = self._details.pop()
            self.outline.append(("details", is_open, summary.strip(), "".join(text)))

    def handle_data(self, data):
        if not self._depth:
            return
        self.markup.append(data)
        if self._heading:
            self._heading[1].append(data)
        elif self._details and self._details[-1][3]:
            self._details[-1][1] += data
        elif self._details:
            self._details[-1][2].append(data)
        else:
            self.outline.append(("text", data))


def _render(path: Path) -> RenderedMarkdown:
    from nbconvert import HTMLExporter

    html, _ = HTMLExporter(template_name="classic").from_notebook_node(
        nbformat.read(path, as_version=4)
    )
    page = RenderedMarkdown()
    page.feed(html)
    return page


#: MyST a reader must never see: the named constructs, a role (``{name}`` and the code span
#: after it, rendered or not), a directive fence (as text, or as a code block's language), a
#: target line.
MYST = [
    re.compile(re.escape(literal))
    for literal in ("{glue", ":::{", "{literalinclude}", "{ref}", "{numref}", "{eval}", "{figure}")
] + [
    re.compile(r"\{[A-Za-z][\w:.+-]*\}(`|<code)"),
    re.compile(r"(```|:::)\s*\{[\w:.+-]+\}"),
    re.compile(r'class="language-\{'),
    re.compile(r"^\s*\([\w:.-]+\)=\s*$", re.MULTILINE),
]


def _myst_in(page: RenderedMarkdown) -> list[str]:
    markup = "".join(page.markup)
    return [match[0] for pattern in MYST for match in pattern.finditer(markup)]


def test_the_myst_check_finds_myst_in_a_source_chapter():
    """The check below can fail: the chapters' own MyST is found."""
    found = _myst_in(_render(SOURCES[0]))
    assert "{glue" in found and ":::{" in found and "{literalinclude}" in found, found


def _myst_tokens(text: str) -> list:
    """MyST's own parse of ``text``, with the markdown inside directives parsed too."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    config = MdParserConfig(enable_extensions={"colon_fence", "dollarmath", "amsmath"})
    parser = create_md_parser(config, RendererHTML)
    tokens = []
    for token in parser.parse(text):
        tokens.append(token)
        if token.type == "colon_fence":
            body = "\n".join(
                line for line in token.content.splitlines() if not re.match(r"^:[\w-]+:", line)
            )
            tokens += _myst_tokens(body)
    return tokens


def _exercises(source: Path) -> list[dict]:
    """Each exercise of a chapter, from its markup: title, statement, hints, solutions."""
    exercises: list[dict] = []
    for cell in nbformat.read(source, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        for token in _myst_tokens(cell.source):
            if token.type != "colon_fence" or not token.info.startswith("{"):
                continue
            name, _, argument = token.info[1:].partition("}")
            body = token.content
            if name == "exercise" and ":hidden:" not in body:
                exercises.append({"title": argument.strip(), "statement": body, "hints": []})
            elif name == "admonition" and argument.strip().startswith("Hint") and exercises:
                exercises[-1]["hints"].append((argument.strip(), body))
            elif name == "solution":
                exercises[-1].setdefault("solutions", []).append(body)
    return exercises


def _words(text: str) -> set[str]:
    """The plain words of a piece of markdown, without its roles, code and formulas."""
    text = re.sub(r"\{[^}]+\}`[^`]*`|`[^`]*`|\$[^$]*\$|^:[\w-]+:.*$", " ", text, flags=re.M)
    return _shown_words(text)


def _shown_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{4,}", text))


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_the_edition_renders_without_myst(source):
    page = _render(_skip_unless_built(source))
    found = _myst_in(page)
    assert not found, f"{source.name}: MyST left in the edition: {sorted(set(found))}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_every_exercise_is_there_with_its_hints_folded_and_no_solution(source):
    page = _render(_skip_unless_built(source))
    exercises = _exercises(source)
    sections: list[dict] = []
    for item in page.outline:
        if item[0] == "heading":
            sections.append({"heading": item[2], "text": "", "folded": []})
        elif sections and item[0] == "details":
            sections[-1]["folded"].append(item[1:])
        elif sections:
            sections[-1]["text"] += item[1]
    shown = [section for section in sections if re.match(r"Exercise \d", section["heading"])]
    assert len(shown) == len(exercises), f"{source.name}: {[s['heading'] for s in shown]}"
    website = (SITE / source.relative_to(ROOT).with_suffix(".html")).read_text()
    numbers = re.findall(r'<span class="caption-number">Exercise (\d+) </span>', website)
    for number, exercise, section in zip(numbers, exercises, shown, strict=True):
        title = exercise["title"]
        expected = f"Exercise {number} ({re.sub(r'[`*]', '', title)})"  # as rendered
        assert section["heading"] == expected, f"{source.name}: {section['heading']}"
        missing = _words(exercise["statement"]) - _shown_words(section["text"])
        assert not missing, f"{source.name}: {title}: the statement lacks {sorted(missing)}"
        assert len(section["folded"]) == len(exercise["hints"]), f"{source.name}: {title}"
        for (hint_title, hint), (is_open, summary, text) in zip(
            exercise["hints"], section["folded"], strict=True
        ):  # "Hint", or a level's own title ("Hint: a nudge")
            assert summary == hint_title and not is_open, f"{source.name}: {title}: {summary}"
            missing = _words(hint) - _shown_words(text)
            assert not missing, f"{source.name}: {title}: the hint lacks {sorted(missing)}"
    assert "<summary>Solution" not in "".join(page.markup), f"{source.name}: a solution is shown"
    text = _all_sources(_edition_of(source))
    for name, code in _solutions(exercises):
        assert code not in text, f"{source.name}: the solution {name} is shown"


def _solutions(exercises: list[dict]) -> list[tuple[str, str]]:
    """Each solution's function, as its ``{literalinclude}`` names it, and its code."""
    found = []
    for exercise in exercises:
        for solution in exercise.get("solutions", []):
            pattern = r"\{literalinclude\}\s*(\S+)\s*\n:pyobject:\s*(\w+)"
            for path, name in re.findall(pattern, solution):
                code = (CHAPTERS / path).read_text()
                function = next(
                    node for node in ast.parse(code).body if getattr(node, "name", None) == name
                )
                found.append((name, ast.get_source_segment(code, function)))
    return found


def _all_sources(path: Path) -> str:
    return "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_the_instructors_edition_folds_in_every_solution(source):
    _skip_unless_built(source)
    path = SITE.parent / edition.INSTRUCTORS / source.relative_to(ROOT)
    solutions = _solutions(_exercises(source))
    text = _all_sources(path)
    assert text.count("<summary>Solution</summary>") == len(solutions) > 0
    for name, code in solutions:
        assert code in text, f"{path.name}: no solution {name}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_the_numbers_are_the_websites_and_said_to_be_from_the_build(source):
    path = _skip_unless_built(source)
    page = SITE / source.relative_to(ROOT).with_suffix(".html")
    values = re.findall(r'<span class="pasted-text">([^<]*)</span>', page.read_text())
    roles = sum(
        1
        for cell in nbformat.read(source, as_version=4).cells
        if cell.cell_type == "markdown"
        for token in _myst_tokens(cell.source)
        for child in token.children or []
        if child.type == "myst_role" and child.meta["name"].startswith("glue")
    )
    assert len(values) == roles, f"{source.name}: {roles} glue roles, the site shows {len(values)}"
    notebook = nbformat.read(path, as_version=4)
    text = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    position = 0
    for value in values:
        found = text.find(value, position)
        assert found >= 0, f"{source.name}: the website's {value!r} is not in the edition's text"
        position = found + len(value)
    if values:
        assert "computed when the book was built" in notebook.cells[1].source


_TOP_LEVEL_MATH = r"\\(begin|end)\{(align|equation|gather|multline|flalign|alignat|eqnarray|split)"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_formulas_use_only_what_colab_renders(source):
    """``$...$`` and ``$$...$$`` only; inside them inner environments (``aligned``, ...), no labels."""
    notebook = nbformat.read(_skip_unless_built(source), as_version=4)
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        prose = re.sub(r"```.*?```|`[^`]*`", "", cell.source, flags=re.S)
        assert prose.count("$$") % 2 == 0, f"{source.name}: unbalanced $$ in {prose[:200]}"
        outside = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", "", prose, flags=re.S)
        for pattern in (r"\\begin\{", r"\\\(", r"\\\["):
            assert not re.search(pattern, outside), (
                f"{source.name}: {pattern} outside $ in {cell.id}"
            )
        for pattern in (_TOP_LEVEL_MATH, r"\\label\{", r"\\(eq)?ref\{"):
            assert not re.search(pattern, prose), f"{source.name}: {pattern} in {cell.id}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_every_link_to_the_website_names_a_page_and_an_anchor_it_has(source):
    """Cross-references become links to the website: each must arrive somewhere."""
    site = edition.site_address(
        SimpleNamespace(
            html_baseurl=yaml.safe_load((ROOT / "_config.yml").read_text())
            .get("html", {})
            .get("baseurl", ""),
            html_theme_options={"repository_url": _repository()["url"]},
        )
    )
    text = _all_sources(_skip_unless_built(source))
    links = re.findall(rf"\]\({re.escape(site)}([^)#\s]*)(?:#([^)\s]*))?\)", text)
    for page, anchor in links:
        if not page:  # the book's front page, in the note under the title
            continue
        html = SITE / page
        assert html.exists(), f"{source.name}: a link to {page}, which the site lacks"
        if anchor:
            assert f'id="{anchor}"' in html.read_text(), f"{source.name}: no #{anchor} in {page}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_the_edition_has_the_chapters_code_and_install_cell(source):
    notebook = nbformat.read(_skip_unless_built(source), as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    original = [
        c.source for c in nbformat.read(source, as_version=4).cells if c.cell_type == "code"
    ]
    assert code == original
    assert code[0] == _install_cell()
    assert all(not cell.get("outputs") for cell in notebook.cells)
    nbformat.validate(notebook)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_the_chapter_page_opens_the_edition(source):
    path = _skip_unless_built(source)
    page = (SITE / source.relative_to(ROOT).with_suffix(".html")).read_text()
    repository = _repository()["url"].removeprefix("https://github.com/")
    colab = re.findall(r'href="(https://colab\.research\.google\.com/[^"]*)"', page)
    docname = source.relative_to(ROOT).with_suffix("").as_posix()
    assert colab == [
        f"https://colab.research.google.com/github/{repository}/blob/gh-pages/notebooks/{docname}.ipynb"
    ]
    assert f'href="../notebooks/{docname}.ipynb"' in page
    assert path == SITE / "notebooks" / f"{docname}.ipynb"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_the_edition_runs_top_to_bottom_under_nbval(source, tmp_path):
    """As a reader's download: the notebook alone in a folder, run by nbval in lax mode."""
    path = _skip_unless_built(source)
    (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    result = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-q"),
            *("-p", "no:cacheprovider", "--rootdir", str(tmp_path), path.name),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert result.returncode == 0, f"{source.name}:\n{result.stdout[-4000:]}"
