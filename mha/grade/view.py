"""Grader process: the copy of the ``mha`` package an exercise's answer runs against.

A *view* is built once per exercise and run (into a temporary folder) and bound read-only in
place of the package in that exercise's sandboxes. It is the package's source, read with
:mod:`ast` (nothing imported), with *units* (top-level functions, classes, assignments, and
the methods of classes) replaced by a placeholder that raises
:class:`mha.grade.unavailable.NotAvailableWhileGraded` when used:

- the exercise's references (``exercise.references`` inside ``mha``), and every unit that
  uses one, transitively, through the package's import graph and names (``from mha.blocks
  import softmax``, ``mha.softmax``, ``self.forward``): so ``mha.scaled_dot_product_attention``
  is gone while ``softmax`` is graded, since it computes a softmax;
- in ``mha/checks/``, everything except the machinery an answer is called with
  (:func:`mha.checks.core.call_answer`, the value exercises' ``run``, the cases and outcomes)
  and the exercise's ``prepare`` (the function that turns wire-safe inputs into the answer's
  arguments, such as chapter 10's ``evaluate``), each with what it uses: no reference, variant,
  expected value or mistake table is in the view, as code or as a file; ``check`` there only
  says that grading happens outside;
- in ``mha/grade/``, only the modules that run in the sandbox (:data:`SANDBOX_MODULES`).

Lines keep their numbers (a placeholder takes the place of the lines it replaces); there are no
``__pycache__`` folders; data files are copied.
"""

from __future__ import annotations

import ast
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SANDBOX_MODULES = ("mha.grade", "mha.grade.protocol", "mha.grade.answer", "mha.grade.unavailable")
CALLING_UNITS = (  # what mha.grade.answer calls an answer with
    "mha.checks.core.call_answer",
    "mha.checks.core.Case",
    "mha.checks.core.Outcome",
    "mha.checks.core.Foreign",
    "mha.checks.kinds.NumberExercise",
    "mha.checks.kinds.ShapeExercise",
)
CHECK_STUB = '''"""Grading happens outside this process: ``check`` does nothing here."""

from mha.grade.unavailable import NotAvailableWhileGraded


def check(name, answer, **options):
    """Does nothing while the grader runs the answer (the verdict is computed outside)."""
    return f"check({name!r}, ...): your answer is graded outside this process"


def __getattr__(name):
    import importlib

    try:
        return importlib.import_module(f"mha.checks.{name}")
    except ImportError:
        pass
    raise NotAvailableWhileGraded(f"mha.checks.{name} is not available while an exercise is graded")
'''
_PLACEHOLDER = (
    '{name} = __import__("mha.grade.unavailable", fromlist=["x"]).unavailable({what!r}, {why!r})'
)


@dataclass
class Unit:
    """A top-level function, class or assignment of a module, or a method of a class."""

    module: str
    name: str  # "softmax", "MultiHeadAttention", "MultiHeadAttention.forward"
    node: ast.AST
    uses: set[tuple[str, str]] = field(default_factory=set)  # (module, unit name)

    @property
    def key(self) -> tuple[str, str]:
        return (self.module, self.name)

    @property
    def dotted(self) -> str:
        return f"{self.module}.{self.name}"


@dataclass
class Module:
    name: str
    path: Path
    source: str
    tree: ast.Module
    names: dict[str, tuple] = field(
        default_factory=dict
    )  # name -> ("module", m) | ("unit", m, n) | ("from", m, n)
    units: dict[str, Unit] = field(default_factory=dict)


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.name if module.path.name == "__init__.py" else module.name.rsplit(".", 1)[0]
    base = package.split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _bound_names(node: ast.AST) -> list[str]:
    targets = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets = [node.target]
    names = []
    for target in targets:
        if isinstance(target, ast.Name):
            names.append(target.id)
        elif isinstance(target, ast.Tuple):
            names.extend(e.id for e in target.elts if isinstance(e, ast.Name))
    return names


def _walk_code(node: ast.AST) -> Iterable[ast.AST]:
    """Every node, annotations left out (they are never evaluated here)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for name, value in ast.iter_fields(current):
            if name in ("annotation", "returns"):
                continue
            items = value if isinstance(value, list) else [value]
            stack.extend(item for item in items if isinstance(item, ast.AST))


class Package:
    """The package's modules, units and the names that link them (read once per run)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.modules: dict[str, Module] = {}
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            source = path.read_text(encoding="utf-8")
            name = _module_name(root, path)
            self.modules[name] = Module(name, path, source, ast.parse(source))
        for module in self.modules.values():
            self._read(module)
        for module in self.modules.values():
            for unit in module.units.values():
                unit.uses = self._uses(module, unit)

    def _read(self, module: Module) -> None:
        for node in module.tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        module.names[alias.asname] = ("module", alias.name)
                    else:
                        top = alias.name.split(".")[0]
                        module.names[top] = ("module", top)
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(module, node)
                for alias in node.names:
                    if alias.name != "*":
                        module.names[alias.asname or alias.name] = ("from", source, alias.name)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                module.units[node.name] = Unit(module.name, node.name, node)
                module.names[node.name] = ("unit", module.name, node.name)
                if isinstance(node, ast.ClassDef):
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                            qualified = f"{node.name}.{item.name}"
                            module.units[qualified] = Unit(module.name, qualified, item)
            else:
                for name in _bound_names(node):
                    module.units[name] = Unit(module.name, name, node)
                    module.names[name] = ("unit", module.name, name)

    def resolve(self, target: tuple | None, depth: int = 0) -> tuple | None:
        """A name's target followed through ``from`` imports: ("module", m) or ("unit", m, n)."""
        if target is None or depth > 20 or target[0] != "from":
            return target
        _, source, name = target
        if f"{source}.{name}" in self.modules:
            return ("module", f"{source}.{name}")
        module = self.modules.get(source)
        if module is None:
            return None
        return self.resolve(module.names.get(name), depth + 1)

    def _attribute(self, target: tuple | None, attribute: str) -> tuple | None:
        if target is None:
            return None
        if target[0] == "module":
            if f"{target[1]}.{attribute}" in self.modules:
                return ("module", f"{target[1]}.{attribute}")
            module = self.modules.get(target[1])
            return None if module is None else self.resolve(module.names.get(attribute))
        if target[0] == "unit":
            module = self.modules[target[1]]
            qualified = f"{target[2]}.{attribute}"
            return ("unit", target[1], qualified) if qualified in module.units else None
        return None

    def lookup(self, dotted: str) -> tuple[str, str] | None:
        """The unit a dotted name (``"mha.softmax"``) stands for, if it is in the package."""
        parts = dotted.split(".")
        if parts[0] not in self.modules:
            return None
        target: tuple | None = ("module", parts[0])
        for part in parts[1:]:
            target = self._attribute(target, part)
        return (target[1], target[2]) if target is not None and target[0] == "unit" else None

    def _uses(self, module: Module, unit: Unit) -> set[tuple[str, str]]:
        found: set[tuple[str, str]] = set()
        owner = unit.name.split(".")[0] if "." in unit.name else None
        if isinstance(unit.node, ast.ClassDef):  # its bases and decorators, not its methods
            nodes = [*unit.node.bases, *unit.node.keywords, *unit.node.decorator_list]
            nodes += [
                n
                for n in unit.node.body
                if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
        else:
            nodes = [unit.node]
        for top in nodes:
            for node in _walk_code(top):
                if isinstance(node, ast.Attribute | ast.Name) and isinstance(node.ctx, ast.Load):
                    chain, base = [], node
                    while isinstance(base, ast.Attribute):
                        chain.append(base.attr)
                        base = base.value
                    if not isinstance(base, ast.Name):
                        continue
                    if base.id in ("self", "cls") and owner is not None:
                        target = ("unit", module.name, owner)
                    else:
                        target = self.resolve(module.names.get(base.id))
                    for attribute in [None, *reversed(chain)]:
                        if attribute is not None:
                            target = self._attribute(target, attribute)
                        if target is None:
                            break
                        if target[0] == "unit":
                            found.add((target[1], target[2]))
        found.discard(unit.key)
        return found

    def units(self) -> Iterable[Unit]:
        for module in self.modules.values():
            yield from module.units.values()

    def closure_of_users(self, start: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """Every unit that is in ``start`` or uses one, transitively: {unit: why}."""
        removed = {key: "it is the exercise's reference" for key in start}
        changed = True
        while changed:
            changed = False
            for unit in self.units():
                if unit.key in removed:
                    continue
                if "." in unit.name and (unit.module, unit.name.split(".")[0]) in removed:
                    removed[unit.key] = removed[(unit.module, unit.name.split(".")[0])]
                    changed = True
                    continue
                used = sorted(unit.uses & removed.keys())
                if used:
                    module, name = used[0]
                    removed[unit.key] = f"it uses {module}.{name}, which is not available either"
                    changed = True
        return removed

    def closure_of_uses(self, start: set[tuple[str, str]]) -> set[tuple[str, str]]:
        """``start`` and every unit they use, transitively (a method keeps its class, a class
        all its methods)."""
        kept, todo = set(), list(start)
        while todo:
            key = todo.pop()
            module = self.modules.get(key[0])
            if key in kept or module is None or key[1] not in module.units:
                continue
            kept.add(key)
            todo.extend(module.units[key[1]].uses)
            if "." in key[1]:
                todo.append((key[0], key[1].split(".")[0]))
            elif isinstance(module.units[key[1]].node, ast.ClassDef):
                todo.extend((key[0], n) for n in module.units if n.startswith(key[1] + "."))
        return kept


def _span(node: ast.AST) -> tuple[int, int]:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return first, node.end_lineno or node.lineno


def _rewritten(module: Module, removed: dict[tuple[str, str], str], exercise: str) -> str:
    """The module's source with each removed unit replaced by a placeholder (same lines)."""
    lines = module.source.splitlines(keepends=True)
    replacements = []  # (first, last, indent, names, why)
    for unit in module.units.values():
        if unit.key not in removed:
            continue
        if "." in unit.name and (unit.module, unit.name.split(".")[0]) in removed:
            continue  # the whole class goes
        first, last = _span(unit.node)
        if any(r[0] <= first and last <= r[1] for r in replacements):
            continue  # a tuple assignment already replaced
        names = _bound_names(unit.node) or [unit.name.split(".")[-1]]
        indent = " " * unit.node.col_offset
        replacements.append((first, last, indent, names, removed[unit.key], unit.dotted))
    for first, last, indent, names, why, dotted in sorted(replacements, reverse=True):
        text = "".join(
            indent
            + _PLACEHOLDER.format(
                name=name,
                what=dotted if len(names) == 1 else f"{module.name}.{name}",
                why=f"not available while {exercise!r} is graded: {why}",
            )
            + "\n"
            for name in names
        )
        span = last - first + 1
        padding = max(0, span - len(names))
        lines[first - 1 : last] = [text] + ["\n"] * padding
    return "".join(lines)


class ViewBuilder:
    """Builds the views of one run (the package is read once)."""

    def __init__(self, package_dir: Path) -> None:
        self.package_dir = package_dir
        self.package = Package(package_dir)
        self.calling = {self.package.lookup(name) for name in CALLING_UNITS}
        if None in self.calling:
            raise RuntimeError(f"the grader cannot find its calling machinery: {CALLING_UNITS}")

    def removed(self, exercise: str, references: Sequence[str], prepare: str | None):
        """{unit: why} for the exercise's view (see the module docstring)."""
        package = self.package
        start = {key for key in map(package.lookup, references) if key is not None}
        removed = package.closure_of_users(start)
        keep = set(self.calling)
        if prepare is not None:
            key = package.lookup(prepare)
            if key is None:
                raise RuntimeError(f"{exercise}: prepare {prepare} is not in the package")
            keep.add(key)
        kept = package.closure_of_uses(keep)
        held = sorted(f"{m}.{n}" for m, n in kept & removed.keys())
        if held:
            raise RuntimeError(
                f"{exercise}: what its answer is called with uses its reference {held}"
            )
        for unit in package.units():
            if unit.module.startswith("mha.checks") and unit.key not in kept:
                removed.setdefault(unit.key, "it belongs to the checks")
        return removed

    def build(
        self, exercise: str, references: Sequence[str], prepare: str | None, out: Path
    ) -> Path:
        """Write the view of the package for ``exercise`` into ``out`` (a folder named like the
        package); its path."""
        removed = self.removed(exercise, references, prepare)
        target = out / self.package_dir.name
        for path in sorted(self.package_dir.rglob("*")):
            relative = path.relative_to(self.package_dir)
            if "__pycache__" in relative.parts or path.is_dir() or path.suffix in (".pyc", ".pyo"):
                continue
            name = _module_name(self.package_dir, path) if path.suffix == ".py" else None
            if relative.parts[0] == "grade" and name not in SANDBOX_MODULES:
                continue
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            if name == "mha.checks":
                destination.write_text(CHECK_STUB, encoding="utf-8")
            elif name is not None:
                module = self.package.modules[name]
                touched = any(key in removed for key in ((name, u) for u in module.units))
                text = _rewritten(module, removed, exercise) if touched else module.source
                destination.write_text(text, encoding="utf-8")
            elif relative.parts[0] not in ("checks", "grade"):
                shutil.copyfile(path, destination)
        for folder, _, _ in os.walk(target):
            os.chmod(folder, 0o755)
        return target
