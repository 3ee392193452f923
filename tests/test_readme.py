"""The README's Python examples run as written, and its chapter list is the book's."""

import re
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CHAPTER_ROW = re.compile(
    r"^\| (?P<part>[^|]+?) \| (?P<title>\d+\. [^|]+?) \| `(?P<notebook>chapters/\d\d_\w+\.ipynb)` \|$"
)


def test_readme_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert blocks, "README has no ```python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def readme_chapters(text: str) -> list[tuple[str, str, str]]:
    """The README's chapter table: (part, numbered title, notebook) per row, in order."""
    return [
        (m["part"], m["title"], m["notebook"])
        for m in map(CHAPTER_ROW.match, text.splitlines())
        if m
    ]


def book_chapters() -> list[tuple[str, str, str]]:
    """The same, from _toc.yml's parts and each notebook's title."""
    rows = []
    for part in yaml.safe_load((ROOT / "_toc.yml").read_text())["parts"]:
        for entry in part["chapters"]:
            if not entry["file"].startswith("chapters/"):
                continue  # back matter (the references page) is not a chapter
            notebook = f"{entry['file']}.ipynb"
            first = nbformat.read(ROOT / notebook, as_version=4).cells[0].source
            title = next(line[2:] for line in first.splitlines() if line.startswith("# "))
            rows.append((part["caption"], title, notebook))
    return rows


def test_the_readme_lists_the_chapters_of_the_table_of_contents():
    assert readme_chapters(README.read_text()) == book_chapters(), (
        "the README's table of chapters (part, title, notebook) must list _toc.yml's chapters "
        "in order, with each notebook's title"
    )


def test_the_chapter_table_parser_reads_a_row():
    row = "| Beyond NumPy | 6. The PyTorch variant | `chapters/06_pytorch.ipynb` |"
    assert readme_chapters(row) == [
        ("Beyond NumPy", "6. The PyTorch variant", "chapters/06_pytorch.ipynb")
    ]
    assert (
        readme_chapters("| Beyond NumPy | The PyTorch variant | `chapters/06_pytorch.ipynb` |")
        == []
    )


def test_ci_runs_the_readme_commands_and_installs_nothing_else():
    section = README.read_text().split("## The two commands", 1)[1].split("\n## ", 1)[0]
    commands = re.search(r"```bash\n(.*?)```", section, flags=re.DOTALL).group(1)
    lines = [line.split("#")[0].strip() for line in commands.splitlines()]
    assert [line for line in lines if line.startswith("python3 dev.py")] == [
        "python3 dev.py book",
        "python3 dev.py test",
    ]
    ci = (README.parent / ".ci" / "run").read_text()
    ci_commands = [
        line.strip()
        for line in ci.split("PY\n", 2)[-1].splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert ci_commands == [
        'echo "--- the README\'s commands:"; cat .ci/readme-commands.sh',
        "bash -euxo pipefail .ci/readme-commands.sh",
        "python3 dev.py lint",
    ], "CI must run the README's block as written, and nothing it does not say"
