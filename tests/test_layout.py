"""The package's layout holds: no module reaches into another's private names.

A name that starts with ``_`` belongs to the module that defines it. Another module of
``mha`` (or a chapter's code, or a solution) that imports it, or reads it as an attribute of
that module, depends on what the owner is free to change; such a name is made public where
it is shared (``mha.checks.inputs``, ``mha.checks.variants``, ...). A private *module*
(``mha._validate``) is the package's own: its public names serve every module of ``mha``.
The test reads the code (``ast``), so it also covers modules that need torch or a GPU.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mha"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_module(dotted: str) -> bool:
    return dotted in MODULES


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def private_uses(module: str, source: str, is_package: bool = False) -> list[str]:
    """Each use in ``source`` (the code of ``module``) of another ``mha`` module's private name:
    ``from mha.x import _name``, ``x._name`` where ``x`` is bound to a module of ``mha``, or
    ``Name._name`` where ``Name`` was imported from another module of ``mha`` (a class)."""
    tree = ast.parse(source)
    found = []
    aliases: dict[str, str] = {}  # local name -> the mha module it is bound to
    imported: dict[str, tuple[str, str]] = {}  # local name -> (its mha module, its dotted name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mha":
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    else:
                        aliases["mha"] = "mha"
        elif isinstance(node, ast.ImportFrom):
            source_module = _absolute(module, is_package, node)
            if source_module.split(".")[0] != "mha":
                continue
            for alias in node.names:
                dotted = f"{source_module}.{alias.name}"
                if _is_module(dotted):
                    aliases[alias.asname or alias.name] = dotted
                elif source_module != module:
                    imported[alias.asname or alias.name] = (source_module, dotted)
                if not _is_module(dotted) and _private(alias.name) and source_module != module:
                    found.append(f"line {node.lineno}: from {source_module} import {alias.name}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        chain, base = [node.attr], node.value
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if isinstance(base, ast.Name) and base.id in imported:
            found.append(f"line {node.lineno}: {imported[base.id][1]}.{'.'.join(reversed(chain))}")
            continue
        if not isinstance(base, ast.Name) or base.id not in aliases:
            continue
        owner, rest = aliases[base.id], list(reversed(chain))
        while len(rest) > 1 and _is_module(f"{owner}.{rest[0]}"):  # mha.checks.core._x
            owner = f"{owner}.{rest.pop(0)}"
        if owner != module:
            found.append(f"line {node.lineno}: {owner}.{'.'.join(rest)}")
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_uses_another_modules_private_names(module):
    path = MODULES[module]
    uses = private_uses(module, path.read_text(), path.name == "__init__.py")
    assert not uses, f"{path.relative_to(ROOT)} uses private names of other modules: {uses}"


def _chapter_code() -> list[tuple[str, str]]:
    """(label, code) of every chapter's code cells and every solution file."""
    code = []
    for notebook in sorted((ROOT / "chapters").glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                lines = [  # IPython's magics and shell lines are no Python: read as `pass`
                    line[: len(line) - len(line.lstrip())] + "pass"
                    if line.lstrip().startswith(("%", "!"))
                    else line
                    for line in source.splitlines()
                ]
                code.append((f"{notebook.name} cell {i}", "\n".join(lines)))
    for solution in sorted((ROOT / "chapters" / "solutions").glob("*.py")):
        code.append((str(solution.relative_to(ROOT)), solution.read_text()))
    return code


def test_chapters_and_solutions_use_only_public_names():
    uses = {label: private_uses("__main__", code) for label, code in _chapter_code()}
    assert not {label: found for label, found in uses.items() if found}


@pytest.mark.parametrize(
    "source, expected",
    [
        ("from mha.checks.core import _normal", ["line 1: from mha.checks.core import _normal"]),
        ("from mha import _validate\n_validate.floating", []),  # the package's private module
        ("import mha\nmha.checks.core._short(1)", ["line 2: mha.checks.core._short"]),
        ("from mha.checks import core\ncore._PARAMS", ["line 2: mha.checks.core._PARAMS"]),
        ("from mha import gpu as g\ng._probe()", ["line 2: mha.gpu._probe"]),
        ("from mha.checks import core\ncore.Case", []),
        ("import numpy as np\nnp._NoValue", []),  # another library's business
        ("from mha.checks import check\ncheck.__doc__", []),
        (
            "from mha.params import MHAParams\nMHAParams._fields()",
            ["line 2: mha.params.MHAParams._fields"],
        ),
        ("import mha\nmha.MHAParams._fields()", ["line 2: mha.MHAParams._fields"]),
    ],
)
def test_the_reader_of_private_uses_finds_them(source, expected):
    assert private_uses("mha.somewhere", source) == expected


def test_one_ruff_version_in_pre_commit_and_the_dependencies():
    """pre-commit's ruff and the one ``dev.py lint`` installs are the same version: a file
    formatted by one is formatted by the other."""
    import re

    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())["repos"]
    (ruff_hook,) = [repo for repo in hooks if repo["repo"].endswith("/ruff-pre-commit")]
    pinned = re.findall(r'"ruff==([\w.]+)"', (ROOT / "pyproject.toml").read_text())
    assert pinned == [ruff_hook["rev"].removeprefix("v")]
