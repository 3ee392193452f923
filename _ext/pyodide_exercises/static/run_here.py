"""Runs one exercise in the page's Python (Pyodide), as the notebook would run it.

The page sends the chapter's code cells in order, with every exercise's answer cells
replaced by what the reader wrote there (or the stub), and says which exercise to check.
Only what the reader's answer and the check cell need is run first: the statements of the
earlier cells that bind a name they use, and, transitively, what those use (a backward slice,
statement by statement: ``import numpy as np`` from a setup cell, ``softmax`` from the
reader's answer to an earlier exercise, a chapter's ``softmax_by_hand``), never a plot or a
training run that nothing uses. Then the reader's code runs whole, and the check cell last:
its value is shown as the notebook shows it (the result's ``_repr_html_``). Every run
starts from a fresh namespace, so the result never depends on what ran before.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import symtable
import sys
import traceback
from dataclasses import dataclass
from typing import Any

_MAGIC = re.compile(r"^(\s*)[%!].*$", re.M)


@dataclass(frozen=True)
class Statement:
    """One top-level statement of a cell, with the names it binds and uses."""

    node: ast.stmt
    filename: str
    binds: frozenset[str]
    definitely_binds: frozenset[str]  # bound whenever it runs (not in an if, a loop, a try)
    uses: frozenset[str]


def _bound_names(node: ast.stmt) -> tuple[set[str], set[str]]:
    """(names the statement may bind at module level, names it binds whenever it runs).

    A store into ``a[i]`` or ``a.b`` counts as binding ``a`` (it changes ``a``), never
    definitely (the statement also needs ``a``)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}, {node.name}
    if isinstance(node, ast.Import | ast.ImportFrom):
        names = {(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"}
        return names, names
    bound, mutated = set(), set()

    def visit(child: ast.AST) -> None:
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(child.name)
            return  # its body is another scope
        if isinstance(
            child, ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
        ):
            return
        if isinstance(child, ast.Import | ast.ImportFrom):
            bound.update(_bound_names(child)[0])
        elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store | ast.Del):
            bound.add(child.id)
        elif isinstance(child, ast.Subscript | ast.Attribute) and isinstance(child.ctx, ast.Store):
            base = child.value
            while isinstance(base, ast.Subscript | ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name):
                mutated.add(base.id)
        for grandchild in ast.iter_child_nodes(child):
            visit(grandchild)

    visit(node)
    definite = bound if isinstance(node, ast.Assign | ast.AnnAssign) else set()
    return bound | mutated, set(definite)


def _used_names(node: ast.stmt) -> set[str]:
    """The global names the statement reads when it runs, or when the functions it defines
    run (their free globals), from the symbol table of its source."""
    used = set()

    def visit(table: symtable.SymbolTable, top: bool) -> None:
        for symbol in table.get_symbols():
            if symbol.is_referenced() and (top or symbol.is_global()):
                used.add(symbol.get_name())
        for child in table.get_children():
            visit(child, False)

    visit(symtable.symtable(ast.unparse(node), "<statement>", "exec"), True)
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        used.add(node.target.id)
    return used


def statements(source: str, filename: str, *, magics: bool = False) -> list[Statement]:
    """The top-level statements of a cell. ``magics=True`` turns IPython's ``%``/``!`` lines
    into ``pass`` first (the chapter's own cells: ``%pip install`` on Colab)."""
    if magics:
        source = _MAGIC.sub(lambda m: f"{m[1]}pass", source)
    found = []
    for node in ast.parse(source, filename).body:
        binds, definite = _bound_names(node)
        found.append(
            Statement(
                node, filename, frozenset(binds), frozenset(definite), frozenset(_used_names(node))
            )
        )
    return found


def needed(earlier: list[Statement], code: list[Statement]) -> list[Statement]:
    """The statements of ``earlier`` that ``code`` depends on, in their order: a backward
    slice over names (a statement is kept when it binds a name still needed after it)."""
    wanted: set[str] = set()
    for statement in reversed(code):
        wanted = (wanted - statement.definitely_binds) | statement.uses
    kept = []
    for statement in reversed(earlier):
        if statement.binds & wanted:
            kept.append(statement)
            wanted = (wanted - statement.definitely_binds) | statement.uses
    return kept[::-1]


class _CellFailed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _traceback(error: BaseException) -> str:
    """The error as Python prints it, without this module's frames (for a syntax error, only
    the line and the caret, as in a notebook)."""
    if isinstance(error, SyntaxError):
        return "".join(traceback.format_exception_only(type(error), error))
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))


def _exec(statements_: list[ast.stmt], filename: str, namespace: dict[str, Any]) -> None:
    exec(compile(ast.Module(body=statements_, type_ignores=[]), filename, "exec"), namespace)


def run(cells: list[dict[str, str]], answer: int, check: int) -> dict[str, Any]:
    """Run ``cells[answer]`` (the reader's code) and ``cells[check]`` (the check cell) after
    what they need of ``cells[:answer]``; each cell is ``{"source": ..., "kind": "chapter"
    | "answer" | "check"}``. Returns the printed output, and the check's value as HTML
    (``html``), its status and diagnosis, or the error that stopped the run (``error``)."""
    output = io.StringIO()
    reply: dict[str, Any] = {
        "output": "",
        "html": None,
        "status": None,
        "diagnosis": None,
        "error": None,
    }
    namespace: dict[str, Any] = {"__name__": "__main__"}
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            earlier = []
            for number, cell in enumerate(cells[:answer]):
                try:
                    earlier += statements(
                        cell["source"], f"<cell {number}>", magics=cell["kind"] == "chapter"
                    )
                except SyntaxError:
                    continue  # a cell that does not parse binds nothing (it raises in Jupyter)
            try:
                code = statements(cells[answer]["source"], "<your code>")
            except SyntaxError as error:
                raise _CellFailed(_traceback(error)) from None
            check_cell = statements(cells[check]["source"], "<check>")
            for statement in needed(earlier, code + check_cell):
                try:
                    _exec([statement.node], statement.filename, namespace)
                except Exception as error:
                    raise _CellFailed(
                        "Your code needs this line of an earlier cell, which failed here "
                        f"(the notebook has all of the book's packages):\n    "
                        f"{ast.unparse(statement.node).splitlines()[0]}\n{_traceback(error)}"
                    ) from None
            try:
                _exec([s.node for s in code], "<your code>", namespace)
            except Exception as error:
                raise _CellFailed(_traceback(error)) from None
            *body, last = [s.node for s in check_cell]
            _exec(body, "<check>", namespace)
            value = eval(compile(ast.Expression(last.value), "<check>", "eval"), namespace)
            reply["status"] = getattr(value, "status", None)
            reply["diagnosis"] = getattr(value, "diagnosis", None)
            if hasattr(value, "_repr_html_"):
                reply["html"] = value._repr_html_()
            elif value is not None:
                print(repr(value))
        except _CellFailed as failure:
            reply["error"] = failure.message
        except Exception as error:
            reply["error"] = _traceback(error)
    reply["output"] = output.getvalue()
    sys.stdout.flush()
    return reply
