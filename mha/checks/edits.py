"""Diagnoses from small edits of the book's solution: a mistake nobody stored, named by where
it sits.

A wrong answer is most often the right function with one thing changed: a ``keepdims`` left
out, one array used where another belongs, a ``+ 1`` missing from a slice, a step skipped. The
mistake tables (the chapters' ``Mistake`` rows) and the relations (:mod:`mha.checks.relations`)
name the changes that recur; this module finds the others by searching. It makes every
*one-step edit* of the book's solution to the exercise (the function of the same name in
``chapters/solutions/NN_topic.py``, the code the website shows behind the toggle) and runs each
edited solution on the answer's inputs. When an edit gives the answer's results on every input,
the answer is named by that edit in the solution's words: the step (the solution's line) and
what changed in it.

The edits, in the order they are tried (the first that explains the answer is named):

1. a step of the package the solution calls (``mha.scaled_dot_product_attention``,
   ``mha.split_heads``, ``mha.merge_heads``) done its usual wrong way (no scaling, the softmax
   over the queries, the mask after the softmax, a reshape without the transpose, ...); a
   call's keyword argument left out (``keepdims=True``, ``axis=axis``), its ``axis``/``dim``
   set to another axis, two of its positional arguments swapped, the function replaced by a
   usual confusion (``max``/``min``, ``sum``/``mean``, ``exp``/``exp2``, ``floor``/``ceil``,
   ``tril``/``triu``, ...), or the call replaced by one of its arguments or by the object it is
   called on (a transpose, a square root, a ``where`` left out); a ``range`` that starts at 1 or
   stops one early, or counts from 0 instead of its start; the same keyword or axis change made
   to every call of that function (``.sum(1)`` for ``.sum(0)`` twice);
2. an operation dropped (``a / b`` as ``a``, or as ``b``), its operands swapped, its operator
   replaced by a usual confusion (``*``/``/``, ``+``/``-``, ``@``/``*``, ...), a ``-``, ``~`` or
   ``.T`` left out, 0 or a large negative for ``-np.inf``;
3. a whole number one more or one less, a slice's bounds shifted by one together or apart, a
   slice taken on the other axis of a matrix, two items of a tuple or two values of a dict
   swapped (a shape, the outputs, the biases);
4. a statement left out, an ``if`` block left out or run whatever its condition; then a
   comparison turned around (``<``/``<=``, ``<``/``>=``, ...), after the steps left out, since a
   comparison that is never true also drops a term, and the dropped term is the likelier slip;
5. one name used where another of the same kind belongs (an array for an array, a number for a
   number: the kinds are read from a run of the solution), at one place or everywhere; two
   names swapped everywhere; a name counted from one (``i + 1`` or ``i - 1`` for ``i``
   everywhere); one attribute of the same object for another (``params.w_k`` for
   ``params.w_v``: the attributes the chapter's solutions read from it), two of them swapped;
   one string key for another, two of them swapped; one part of dotted keys read for another
   in every key, or two parts swapped (the key's weight and bias for the query's).

An edit is a diagnosis only when it gives the answer's outcome on *every* compared input (the
inputs that test an edge aside, as for the stored variants) and reproduces at least one of its
wrong *results*: an answer that only raises is never named by an edit that raises alike, since
errors say too little to tell mistakes apart. This is a claim about behaviour on those inputs,
never a guess from one number: edits are not searched for number and shape exercises, nor for
functions that return a whole number (a count: its floors and clamps let many edits land on the
same few values).

The search is deterministic and bounded: the edits of a solution are made once per process (the
kinds of its names read on the inputs of a fixed seed, not the answer's), solutions have no
``while`` loop to edit into an endless one, and most edits are rejected on the first input. It
runs in the judge's process, the trusted side of a grader: the answer never sees the solution or
its edits. Where the solutions are not installed, or the chapter has no solution by the
exercise's name, there is no edit to search.
"""

from __future__ import annotations

import ast
import copy
import itertools
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import mha
from mha.checks.compare import same_outcome
from mha.checks.relations import Finding

if TYPE_CHECKING:
    from mha.checks.kinds import Evidence, FunctionExercise

#: Where the book's solutions are looked for, in order: inside the package (an installed copy:
#: ``setup.py`` puts them there) and beside it (a clone of the repository).
SOLUTION_FOLDERS = (
    Path(__file__).resolve().parent / "solutions",
    Path(__file__).resolve().parent.parent.parent / "chapters" / "solutions",
)
KIND_SEED = 0  # the seed of the inputs the kinds of a solution's names are read on
_SNIPPET = 70  # characters of code quoted in a message, at most

_CONFUSED_FUNCTIONS = {  # a function for another, by the last part of its dotted name
    "max": ("min", "sum", "mean"),
    "min": ("max",),
    "amax": ("amin",),
    "amin": ("amax",),
    "argmax": ("argmin",),
    "argmin": ("argmax",),
    "maximum": ("minimum",),
    "minimum": ("maximum",),
    "sum": ("mean", "max"),
    "mean": ("sum", "median"),
    "var": ("std",),
    "std": ("var",),
    "exp": ("exp2",),
    "exp2": ("exp",),
    "log": ("log2", "log10"),
    "log2": ("log",),
    "log10": ("log",),
    "sqrt": ("square",),
    "floor": ("ceil", "round"),
    "ceil": ("floor", "round"),
    "isqrt": ("sqrt",),
    "any": ("all",),
    "all": ("any",),
    "tril": ("triu",),
    "triu": ("tril",),
    "ones": ("zeros",),
    "zeros": ("ones",),
    "concatenate": ("stack",),
    "cat": ("stack",),
    "stack": ("concatenate",),
    "repeat": ("tile",),
    "tile": ("repeat",),
    "repeat_interleave": ("repeat",),
    "abs": ("square",),
    "square": ("abs",),
    "sin": ("cos",),
    "cos": ("sin",),
}
_CONFUSED_OPERATORS: dict[type, tuple[type, ...]] = {
    ast.Mult: (ast.Div, ast.Add),
    ast.Div: (ast.Mult, ast.FloorDiv, ast.Sub),
    ast.FloorDiv: (ast.Div,),
    ast.Add: (ast.Sub, ast.Mult),
    ast.Sub: (ast.Add,),
    ast.MatMult: (ast.Mult,),
    ast.Pow: (ast.Mult,),
    ast.Mod: (ast.FloorDiv,),
}
_CONFUSED_COMPARISONS: dict[type, tuple[type, ...]] = {
    ast.Lt: (ast.LtE, ast.Gt, ast.GtE),
    ast.LtE: (ast.Lt, ast.GtE, ast.Gt),
    ast.Gt: (ast.GtE, ast.Lt, ast.LtE),
    ast.GtE: (ast.Gt, ast.LtE, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
}
_DROPPED_OPERAND = {  # ``a op b`` as ``a``: what is left out
    ast.Div: "not divided by",
    ast.FloorDiv: "not divided by",
    ast.Mult: "not multiplied by",
    ast.MatMult: "not multiplied by",
    ast.Add: "without adding",
    ast.Sub: "without subtracting",
    ast.Pow: "not raised to the power",
    ast.Mod: "not taken modulo",
}
_AXES = (-1, -2, -3, 0, 1)
_AXIS_KEYWORDS = ("axis", "dim", "axes")
_MODULES = ("np", "math", "torch", "mha", "F")


@dataclass(frozen=True)
class Edit:
    """One edited solution: what changed, in words; the solution's statements that hold it
    (``where``) and its code at the first place (``was``); the edited function."""

    kind: str  # the diagnosis id is "edit:<kind>"
    what: str
    where: tuple[str, ...]  # every statement the change touches
    was: str  # the code it changes (the first place)
    function: Callable

    def finding(self) -> Finding:
        places = " and ".join(f"`{w}`" for w in self.where[:2])
        if len(self.where) > 2:
            places += f" (and {len(self.where) - 2} more)"
        changes = "two changes" if self.kind == "two_reductions" else "one change"
        return Finding(
            f"edit:{self.kind}",
            self.what,
            f"find the step of your code that does what the solution's `{self.where[0]}` does, "
            f"and compare it with `{self.was}`",
            f"your results are exactly the solution's with {changes}, in {places}",
        )


def _code(node: ast.AST | list) -> str:
    if isinstance(node, list):
        return "; ".join(_code(n) for n in node)
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 3] + "..."


def _header(node: ast.AST) -> str:
    """A statement as one line (a compound statement by its header), or an expression."""
    if isinstance(node, ast.If):
        return f"if {_code(node.test)}:"
    if isinstance(node, ast.For):
        return f"for {_code(node.target)} in {_code(node.iter)}:"
    if isinstance(node, ast.With):
        return f"with {', '.join(_code(item) for item in node.items)}:"
    if isinstance(node, ast.FunctionDef):
        return f"def {node.name}(...):"
    return _code(node)


# --- places in a function ------------------------------------------------------------------------

Place = tuple[tuple[str, int | None], ...]  # (field, index in a list or None) from the function


def _walk(node: ast.AST, place: Place = ()) -> Iterator[tuple[Place, ast.AST]]:
    """Every node under ``node`` with its place, in source order (not inside ``while``)."""
    yield place, node
    if isinstance(node, ast.While):
        return
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield from _walk(item, (*place, (field, i)))
        elif isinstance(value, ast.AST):
            yield from _walk(value, (*place, (field, None)))


def _at(root: ast.AST, place: Place) -> ast.AST:
    node = root
    for field, index in place:
        node = getattr(node, field) if index is None else getattr(node, field)[index]
    return node


def _statement(root: ast.AST, place: Place) -> ast.stmt:
    """The innermost statement that holds the node at ``place``."""
    found = root
    for depth in range(len(place) + 1):
        node = _at(root, place[:depth])
        if isinstance(node, ast.stmt):
            found = node
    return found


@dataclass(frozen=True)
class _Change:
    """Replace the nodes at ``places`` by ``new`` (one each; a list of statements for a
    statement: empty removes it)."""

    kind: str
    places: tuple[Place, ...]
    new: tuple[Any, ...]
    what: str
    binds: tuple[tuple[str, Any], ...] = ()  # names the new code calls, and what they are


def _one(kind: str, place: Place, new: Any, what: str) -> _Change:
    return _Change(kind, (place,), (new,), what)


def _wrong_steps() -> dict[str, tuple[tuple[str, Callable], ...]]:
    """For each of the package's steps a solution calls, its usual wrong versions (the stored
    variants several chapters share), each with what it gets wrong."""
    from mha.checks.variants import (  # here: the variants module imports the kinds
        merge_interleaved,
        merge_no_transpose,
        sdpa_variant,
        split_interleaved,
        split_no_transpose,
    )

    return {
        "scaled_dot_product_attention": (
            ("the scores not divided by sqrt(d_k)", sdpa_variant(divisor=lambda d_k, d_v, n: 1.0)),
            ("the scores divided by d_k, not sqrt(d_k)", sdpa_variant(divisor=lambda d_k, d_v, n: d_k)),
            ("the scores divided by sqrt(d_v), the values' size", sdpa_variant(divisor=lambda d_k, d_v, n: math.sqrt(d_v))),
            ("the softmax over the queries (axis -2) instead of the keys", sdpa_variant(normalise=lambda s: mha.softmax(s, axis=-2))),
            ("the mask applied after the softmax", sdpa_variant(mask_mode="after")),
        ),
        "split_heads": (
            ("a plain reshape to (..., h, n, d), without moving the heads axis", split_no_transpose),
            ("the heads interleaved (head i takes every h-th feature)", split_interleaved),
        ),
        "merge_heads": (
            ("a plain reshape back, without moving the heads axis first", merge_no_transpose),
            ("the heads interleaved (every h-th feature from head i)", merge_interleaved),
        ),
    }  # fmt: skip


def _compiled_with(function: ast.FunctionDef, change: _Change, namespace: dict, filename: str):
    """``function`` with the change made, compiled in ``namespace`` (None if it does not
    compile); ``function`` itself is left as it was."""
    undo = []
    # Deepest places first, and later items of a list before earlier ones, so that replacing
    # one never moves another.
    for place, new in sorted(zip(change.places, change.new, strict=True), reverse=True):
        parent = _at(function, place[:-1])
        field, index = place[-1]
        if index is None:
            undo.append((parent, field, getattr(parent, field)))
            setattr(parent, field, new)
        else:
            items = getattr(parent, field)
            undo.append((parent, field, list(items)))
            items[index : index + 1] = new if isinstance(new, list) else [new]
            if not items:
                items.append(ast.Pass())
    try:
        scope = {**namespace, **dict(change.binds)}
        return _compiled(ast.fix_missing_locations(function), scope, filename)
    finally:
        for parent, field, old in reversed(undo):
            if isinstance(old, list):
                getattr(parent, field)[:] = old
            else:
                setattr(parent, field, old)


# --- what a solution's names hold ------------------------------------------------------------------


def _kind(value: Any) -> str:
    """What a value is, for deciding which names may stand for which."""
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | float | np.number):
        return "number"
    if isinstance(value, np.ndarray) or type(value).__name__ == "Tensor":
        return f"array of {value.ndim} axes"
    if callable(value):
        return "function"
    return type(value).__name__


@dataclass(frozen=True)
class _Vocabulary:
    """The names an edit may put in: the function's names with their kinds, the attributes
    the chapter's solutions read from each name, the string keys the function looks up."""

    kinds: dict[str, frozenset[str]]  # "q", "params.w_q": the kinds seen
    attributes: dict[str, tuple[str, ...]]
    keys: tuple[str, ...]

    def alike(self, a: str, b: str) -> bool:
        """Whether ``b`` held a value of a kind ``a`` held (None aside), on the fixed inputs."""
        shared = (self.kinds.get(a, frozenset()) & self.kinds.get(b, frozenset())) - {"NoneType"}
        return bool(shared)


def _names(function: ast.FunctionDef) -> list[str]:
    """The function's parameters and the names it binds, in order of appearance."""
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        elif isinstance(node, ast.arg):
            names.append(node.arg)
    return list(dict.fromkeys(names))


def _attributes(module: ast.Module) -> dict[str, tuple[str, ...]]:
    """For each name, the attributes any function of the module reads from a name so called
    (``params``: ``w_q``, ``w_k``, ``num_heads``, ...)."""
    found: dict[str, list[str]] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            found.setdefault(node.value.id, []).append(node.attr)
    return {owner: tuple(dict.fromkeys(attrs)) for owner, attrs in found.items()}


def _string_key(node: ast.AST) -> str | None:
    """The key of ``x["key"]``, or None for any other node."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value if isinstance(node.slice.value, str) else None
    return None


def _string_keys(function: ast.FunctionDef) -> tuple[str, ...]:
    keys = [_string_key(node) for node in ast.walk(function)]
    return tuple(dict.fromkeys(k for k in keys if k is not None))


def _traced_kinds(
    solution: Callable, filename: str, exercise: FunctionExercise, attributes: dict
) -> dict[str, frozenset[str]]:
    """The kinds of value each local name (and each ``name.attribute`` of the vocabulary) of
    the solution's frames held when they returned, on the inputs of :data:`KIND_SEED`."""
    seen: dict[str, set[str]] = {}

    def record(frame) -> None:
        for name, value in frame.f_locals.items():
            seen.setdefault(name, set()).add(_kind(value))
            for attribute in attributes.get(name, ()):
                held = getattr(value, attribute, None)
                seen.setdefault(f"{name}.{attribute}", set()).add(_kind(held))

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != filename:
            return None
        if event == "return":
            record(frame)
        return tracer

    before = sys.gettrace()
    try:
        for case in exercise.trials(np.random.default_rng(KIND_SEED)):
            sys.settrace(tracer)
            try:
                exercise.run(solution, case, measured=False)
            finally:
                sys.settrace(before)
    except Exception:  # inputs that cannot be drawn here: no kinds, so no name edits
        return {}
    return {name: frozenset(kinds) for name, kinds in seen.items()}


# --- the edits ---------------------------------------------------------------------------------------


def _last_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _renamed(func: ast.expr, name: str) -> ast.expr:
    new = copy.deepcopy(func)
    if isinstance(new, ast.Attribute):
        new.attr = name
    else:
        new.id = name
    return new


def _without_keyword(call: ast.Call, i: int) -> ast.Call:
    new = copy.deepcopy(call)
    del new.keywords[i]
    return new


def _keyword_left_out(call: ast.Call, keyword: ast.keyword, where: str) -> str:
    said = f"`{keyword.arg}={_code(keyword.value)}` left out of `{where}`"
    if keyword.arg == "keepdims":
        return f"{said} (the reduced axis is dropped, so it broadcasts against another axis)"
    if keyword.arg in _AXIS_KEYWORDS:
        return f"`{_last_name(call.func)}` over the whole array: {said}"
    return said


def _call_changes(place: Place, call: ast.Call) -> Iterator[_Change]:
    name, shown = _last_name(call.func), _code(call)
    if isinstance(call.func, ast.Attribute) and _code(call.func.value) == "mha":
        for i, (what, variant) in enumerate(_wrong_steps().get(name, ())):
            new = copy.deepcopy(call)
            new.func = ast.Name(f"_wrong_{name}_{i}", ast.Load())
            yield _Change(
                "wrong_step", (place,), (new,), f"{what}, in the step `{shown}`",
                ((new.func.id, variant),),
            )  # fmt: skip
    if name == "range" and len(call.args) == 1 and not call.keywords:
        (stop,) = call.args
        for new_args, what in (
            ([ast.Constant(1), stop], "the loop starts at 1: the first one is left out"),
            ([_plus(stop, -1)], "the loop stops one early: the last one is left out"),
        ):
            new = ast.Call(call.func, new_args, [])
            yield _one("off_by_one", place, new, f"`{_code(new)}` where `{shown}` belongs ({what})")
    if name in ("range", "arange") and len(call.args) == 2 and not call.keywords:
        start, stop = call.args
        for new_args, what in (
            ([ast.BinOp(stop, ast.Sub(), start)], "counted from 0, not from the start"),
            ([stop], "from 0, the start left out"),
        ):
            new = ast.Call(call.func, new_args, [])
            yield _one("off_by_one", place, new, f"`{_code(new)}` where `{shown}` belongs ({what})")
    for i, keyword in enumerate(call.keywords):
        if keyword.arg is None:
            continue
        yield _one(
            "keyword_left_out", place, _without_keyword(call, i),
            _keyword_left_out(call, keyword, shown),
        )  # fmt: skip
        if keyword.arg in _AXIS_KEYWORDS:
            old = _code(keyword.value)
            for axis in (*_AXES, None):
                if repr(axis) != old:
                    new = copy.deepcopy(call)
                    new.keywords[i].value = ast.Constant(axis)
                    yield _one(
                        "other_axis", place, new,
                        f"`{keyword.arg}={axis}` where `{keyword.arg}={old}` belongs, in `{shown}`",
                    )  # fmt: skip
    for i, j in itertools.combinations(range(len(call.args)), 2):
        if not any(isinstance(a, ast.Starred) for a in (call.args[i], call.args[j])):
            new = copy.deepcopy(call)
            new.args[i], new.args[j] = new.args[j], new.args[i]
            yield _one("arguments_swapped", place, new, f"`{_code(new)}` where `{shown}` belongs")
    for other in _CONFUSED_FUNCTIONS.get(name, ()):
        new = copy.deepcopy(call)
        new.func = _renamed(call.func, other)
        yield _one("other_function", place, new, f"`{other}` where `{name}` belongs, in `{shown}`")
    if isinstance(call.func, ast.Attribute) and name != "astype":
        receiver = call.func.value
        if not (isinstance(receiver, ast.Name) and receiver.id in _MODULES):
            yield _one(
                "step_left_out", place, receiver,
                f"`{_code(receiver)}` where `{shown}` belongs (the `.{name}(...)` left out)",
            )  # fmt: skip
    for argument in call.args:
        if not isinstance(argument, ast.Starred | ast.Constant):
            yield _one(
                "step_left_out", place, argument,
                f"`{_code(argument)}` where `{shown}` belongs (the `{name}` left out)",
            )  # fmt: skip


_REDUCTIONS = ("sum", "mean", "max", "min", "var", "std", "any", "all", "argmax", "argmin")


def _arguments(call: ast.Call) -> list[tuple[str, str, int | None]]:
    """The call's named arguments as (name, code, keyword index): its keywords, and the
    positional axis of a reduction method (``s.sum(0)``: ``("axis", "0", None)``)."""
    found = [(k.arg, _code(k.value), i) for i, k in enumerate(call.keywords) if k.arg is not None]
    reduction = isinstance(call.func, ast.Attribute) and call.func.attr in _REDUCTIONS
    if reduction and len(call.args) == 1 and isinstance(call.args[0], ast.Constant | ast.UnaryOp):
        found.append(("axis", _code(call.args[0]), None))
    return found


def _with_argument(call: ast.Call, index: int | None, value: ast.expr | None) -> ast.Call:
    """The call with keyword ``index`` (None: the positional axis) set to ``value`` (None:
    left out)."""
    new = copy.deepcopy(call)
    if index is None:
        new.args = [] if value is None else [value]
    elif value is None:
        del new.keywords[index]
    else:
        new.keywords[index].value = value
    return new


def _every_call_changes(function: ast.FunctionDef, nodes) -> Iterator[_Change]:
    """A keyword left out of, or an axis changed in, every call of one function that has it
    (``keepdims=True`` left out of both the maximum and the sum; ``.sum(1)`` for ``.sum(0)``
    twice)."""
    groups: dict[tuple[str, str, str], list[tuple[Place, ast.Call, int | None]]] = {}
    for place, node in nodes:
        if isinstance(node, ast.Call):
            for arg, value, index in _arguments(node):
                groups.setdefault((_last_name(node.func), arg, value), []).append(
                    (place, node, index)
                )
    for (name, arg, value), calls in groups.items():
        if len(calls) < 2 or any(a[0] == b[0][: len(a[0])] for a, b in itertools.pairwise(calls)):
            continue  # one call, or a call inside another (their places would clash)
        places = tuple(p for p, _, _ in calls)
        yield _Change(
            "keyword_left_out", places, tuple(_with_argument(c, i, None) for _, c, i in calls),
            f"`{arg}={value}` left out of every `{name}`",
        )  # fmt: skip
        if arg in _AXIS_KEYWORDS:
            for axis in (*_AXES, None):
                if repr(axis) != value:
                    news = tuple(_with_argument(c, i, ast.Constant(axis)) for _, c, i in calls)
                    yield _Change(
                        "other_axis", places, news,
                        f"`{arg}={axis}` where `{arg}={value}` belongs, in every `{name}`",
                    )  # fmt: skip


def _binary_changes(place: Place, node: ast.BinOp) -> Iterator[_Change]:
    shown, left, right = _code(node), _code(node.left), _code(node.right)
    dropped = _DROPPED_OPERAND.get(type(node.op))
    if dropped:
        yield _one("operand_left_out", place, node.left, f"`{left}` {dropped} `{right}`")
    if isinstance(node.op, ast.Add | ast.Mult | ast.MatMult | ast.Div | ast.FloorDiv):
        yield _one("operand_left_out", place, node.right, f"`{right}` where `{shown}` belongs")
    if not isinstance(node.op, ast.Add | ast.Mult):
        new = ast.BinOp(node.right, node.op, node.left)
        yield _one("operands_swapped", place, new, f"`{_code(new)}` where `{shown}` belongs")
    for other in _CONFUSED_OPERATORS.get(type(node.op), ()):
        new = ast.BinOp(node.left, other(), node.right)
        yield _one("other_operator", place, new, f"`{_code(new)}` where `{shown}` belongs")


def _unary_changes(place: Place, node: ast.UnaryOp) -> Iterator[_Change]:
    operand = _code(node.operand)
    if isinstance(node.op, ast.USub) and operand in ("np.inf", "math.inf", "torch.inf"):
        for value, why in ((0.0, "a hidden key keeps a weight"), (-1e9, "a large negative")):
            what = f"`{value!r}` where `{_code(node)}` belongs ({why})"
            yield _one("other_number", place, ast.Constant(value), what)
    if isinstance(node.op, ast.Invert | ast.Not):
        what = f"`{operand}` where its negation `{_code(node)}` belongs (not inverted)"
    elif isinstance(node.op, ast.USub):
        what = f"`{operand}` where `{_code(node)}` belongs (the minus sign left out)"
    else:
        return
    yield _one("sign_left_out", place, node.operand, what)


def _compare_changes(place: Place, node: ast.Compare) -> Iterator[_Change]:
    if len(node.ops) == 1:
        for other in _CONFUSED_COMPARISONS.get(type(node.ops[0]), ()):
            new = ast.Compare(node.left, [other()], node.comparators)
            what = f"`{_code(new)}` where `{_code(node)}` belongs"
            yield _one("other_comparison", place, new, what)


def _number_changes(place: Place, node: ast.Constant, where: str) -> Iterator[_Change]:
    value = node.value
    if isinstance(value, int) and not isinstance(value, bool):
        for new in dict.fromkeys((value + 1, value - 1, -value)):
            if new != value:
                kind = "off_by_one" if abs(new - value) == 1 else "other_number"
                what = f"`{new}` where `{value}` belongs, in `{where}`"
                yield _one(kind, place, ast.Constant(new), what)


def _plus(node: ast.expr | None, step: int) -> ast.expr:
    """``node + step`` (``step`` for a slice's missing start)."""
    if node is None:
        return ast.Constant(step)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return ast.Constant(node.value + step)
    return ast.BinOp(node, ast.Add() if step > 0 else ast.Sub(), ast.Constant(abs(step)))


def _with_index(node: ast.Subscript, position: int, part: ast.expr) -> ast.Subscript:
    new = copy.deepcopy(node)
    if isinstance(new.slice, ast.Tuple):
        new.slice.elts[position] = part
    else:
        new.slice = part
    return new


def _slice_changes(place: Place, node: ast.Subscript) -> Iterator[_Change]:
    index, shown = node.slice, _code(node)
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    for position, part in enumerate(parts):
        if isinstance(part, ast.Slice):
            if part.step is not None or (part.lower is None and part.upper is None):
                continue
            bounds = []
            for step in (1, -1):
                upper = _plus(part.upper, step) if part.upper is not None else None
                bounds += [(_plus(part.lower, step), upper), (_plus(part.lower, step), part.upper)]
                if part.upper is not None:
                    bounds.append((part.lower, upper))
            for lower, upper in bounds:
                new = _with_index(node, position, ast.Slice(lower, upper, None))
                yield _one("off_by_one", place, new, f"`{_code(new)}` where `{shown}` belongs")
        elif not isinstance(part, ast.Constant | ast.Starred):
            for step in (1, -1):
                new = _with_index(node, position, _plus(part, step))
                yield _one("off_by_one", place, new, f"`{_code(new)}` where `{shown}` belongs")
    if isinstance(index, ast.Slice):
        new = copy.deepcopy(node)
        new.slice = ast.Tuple([ast.Slice(), index], ast.Load())
        what = f"`{_code(new)}` where `{shown}` belongs (columns where rows belong)"
        yield _one("other_axis", place, new, what)
    elif len(parts) == 2 and _code(parts[0]) == ":" and isinstance(parts[1], ast.Slice):
        new = copy.deepcopy(node)
        new.slice = parts[1]
        what = f"`{_code(new)}` where `{shown}` belongs (rows where columns belong)"
        yield _one("other_axis", place, new, what)


def _swaps(items: list[ast.expr]) -> Iterator[tuple[int, int]]:
    for i, j in itertools.combinations(range(len(items)), 2):
        if _code(items[i]) != _code(items[j]) and len(items) <= 6:
            yield i, j


def _order_changes(place: Place, node: ast.AST) -> Iterator[_Change]:
    if isinstance(node, ast.Tuple | ast.List) and isinstance(node.ctx, ast.Load):
        for i, j in _swaps(node.elts):
            new = copy.deepcopy(node)
            new.elts[i], new.elts[j] = new.elts[j], new.elts[i]
            yield _one("order", place, new, f"`{_code(new)}` where `{_code(node)}` belongs")
    elif isinstance(node, ast.Dict) and None not in node.keys:
        for i, j in _swaps(node.values):
            new = copy.deepcopy(node)
            new.values[i], new.values[j] = new.values[j], new.values[i]
            keys = f"`{_code(node.keys[i])}` and `{_code(node.keys[j])}`"
            yield _one("order", place, new, f"the values of {keys} swapped, in `{_code(node)}`")


def _statement_changes(place: Place, node: ast.stmt) -> Iterator[_Change]:
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Expr):
        yield _one("statement_left_out", place, [], f"the step `{_code(node)}` left out")
    elif isinstance(node, ast.If):
        test = _code(node.test)
        yield _one("statement_left_out", place, node.orelse, f"the block `if {test}:` left out")
        yield _one(
            "condition_left_out", place, node.body,
            f"the block `if {test}:` run whatever `{test}` is",
        )  # fmt: skip


def _loads(nodes, name: str) -> tuple[Place, ...]:
    return tuple(
        p
        for p, n in nodes
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    )


def _name_changes(nodes, vocabulary: _Vocabulary, names: list[str]) -> Iterator[_Change]:
    for place, node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names:
            for other in names:
                if other != node.id and vocabulary.alike(node.id, other):
                    new = ast.Name(other, ast.Load())
                    yield _one(
                        "other_name", place, new, f"`{other}` used where `{node.id}` belongs"
                    )
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = node.value.id
            for other in vocabulary.attributes.get(owner, ()):
                if other != node.attr and vocabulary.alike(
                    f"{owner}.{node.attr}", f"{owner}.{other}"
                ):
                    new = ast.Attribute(node.value, other, ast.Load())
                    what = f"`{_code(new)}` used where `{_code(node)}` belongs"
                    yield _one("other_name", place, new, what)
        elif _string_key(node) is not None:
            for other in vocabulary.keys:
                if other != node.slice.value:
                    new = ast.Subscript(node.value, ast.Constant(other), ast.Load())
                    what = f"`{_code(new)}` used where `{_code(node)}` belongs"
                    yield _one("other_name", place, new, what)


def _everywhere_changes(nodes, vocabulary: _Vocabulary, names: list[str]) -> Iterator[_Change]:
    loads = {name: _loads(nodes, name) for name in names}
    used = [name for name in names if loads[name]]
    for name in used:
        for other in names:
            if other != name and len(loads[name]) > 1 and vocabulary.alike(name, other):
                what = f"`{other}` used where `{name}` belongs, everywhere"
                yield _Change(
                    "other_name",
                    loads[name],
                    (ast.Name(other, ast.Load()),) * len(loads[name]),
                    what,
                )
    for a, b in itertools.combinations(used, 2):
        if vocabulary.alike(a, b):
            places = loads[a] + loads[b]
            news = (ast.Name(b, ast.Load()),) * len(loads[a]) + (ast.Name(a, ast.Load()),) * len(
                loads[b]
            )
            yield _Change("swapped", places, news, f"`{a}` and `{b}` swapped everywhere")
    for name in used:
        if "number" in vocabulary.kinds.get(name, ()):
            for step, sign, why in ((1, "+", ""), (-1, "-", " (as if counted from 1)")):
                what = f"`{name} {sign} 1` where `{name}` belongs, everywhere{why}"
                news = (_plus(ast.Name(name, ast.Load()), step),) * len(loads[name])
                yield _Change("off_by_one", loads[name], news, what)
    by_attribute: dict[str, list[Place]] = {}
    by_key: dict[str, list[Place]] = {}
    owners: dict[str, ast.expr] = {}
    for place, node in nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            key = f"{node.value.id}.{node.attr}"
            by_attribute.setdefault(key, []).append(place)
        elif _string_key(node) is not None:
            by_key.setdefault(node.slice.value, []).append(place)
            owners[node.slice.value] = node.value
    for a, b in itertools.combinations(by_attribute, 2):
        owner_a, attr_a = a.split(".", 1)
        owner_b, attr_b = b.split(".", 1)
        if owner_a == owner_b and vocabulary.alike(a, b):
            owner = ast.Name(owner_a, ast.Load())
            places = (*by_attribute[a], *by_attribute[b])
            news = (ast.Attribute(owner, attr_b, ast.Load()),) * len(by_attribute[a]) + (
                ast.Attribute(owner, attr_a, ast.Load()),
            ) * len(by_attribute[b])
            yield _Change("swapped", places, news, f"`{a}` and `{b}` swapped")
    for a, b in itertools.combinations(by_key, 2):
        places = (*by_key[a], *by_key[b])
        news = tuple(
            ast.Subscript(owners[a], ast.Constant(b), ast.Load()) for _ in by_key[a]
        ) + tuple(ast.Subscript(owners[b], ast.Constant(a), ast.Load()) for _ in by_key[b])
        yield _Change("swapped", places, news, f"the keys `{a!r}` and `{b!r}` swapped")
    yield from _key_part_swaps(by_key, owners)


def _key_part_swaps(by_key: dict[str, list[Place]], owners: dict[str, ast.expr]):
    """One part of dotted keys read for another in every key that has it (``"self.key.weight"``
    and ``"self.key.bias"`` for the query's), or two parts swapped everywhere (the key's and
    the value's)."""
    tokens: dict[int, set[str]] = {}
    for key in by_key:
        for position, token in enumerate(key.split(".")):
            tokens.setdefault(position, set()).add(token)

    def renamed(key: str, position: int, mapping: dict[str, str]) -> str:
        parts = key.split(".")
        if len(parts) > position and parts[position] in mapping:
            parts[position] = mapping[parts[position]]
        return ".".join(parts)

    for position, found in tokens.items():
        for a, b in itertools.permutations(sorted(found), 2):
            for mapping, least, kind in (({a: b}, 2, "other_name"), ({a: b, b: a}, 3, "swapped")):
                if kind == "swapped" and a > b:
                    continue  # a swap is one change, whichever part comes first
                changed = [key for key in by_key if renamed(key, position, mapping) != key]
                if len(changed) < least or any(
                    renamed(key, position, mapping) not in by_key for key in changed
                ):
                    continue  # fewer keys are changed above; a key that does not exist says nothing
                places = tuple(place for key in changed for place in by_key[key])
                news = tuple(
                    ast.Subscript(
                        owners[key], ast.Constant(renamed(key, position, mapping)), ast.Load()
                    )
                    for key in changed
                    for _ in by_key[key]
                )
                example = f"`{changed[0]!r}` read as `{renamed(changed[0], position, mapping)!r}`"
                what = (
                    f"`{a}` and `{b}` swapped in every key ({example}, ...)"
                    if kind == "swapped"
                    else f"`{b}` read for `{a}` in every key ({example}, ...)"
                )
                yield _Change(kind, places, news, what)


def _changes(function: ast.FunctionDef, vocabulary: _Vocabulary) -> Iterator[_Change]:
    """Every edit of ``function``, in the order of the module's docstring."""
    nodes = [
        (p, n)
        for p, n in _walk(function)
        if p and p[0][0] == "body" and not _docstring(function, p)
    ]
    names = [n for n in _names(function) if n in vocabulary.kinds]
    calls = [
        c for place, node in nodes if isinstance(node, ast.Call) for c in _call_changes(place, node)
    ]
    yield from calls
    yield from _every_call_changes(function, nodes)
    for place, node in nodes:
        if isinstance(node, ast.BinOp):
            yield from _binary_changes(place, node)
        elif isinstance(node, ast.UnaryOp):
            yield from _unary_changes(place, node)
        elif isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
            what = f"`{_code(node.value)}` where `{_code(node)}` belongs (not transposed)"
            yield _one("step_left_out", place, node.value, what)
    for place, node in nodes:
        if isinstance(node, ast.Constant):
            yield from _number_changes(place, node, _code(_statement(function, place)))
        elif isinstance(node, ast.Subscript):
            yield from _slice_changes(place, node)
        else:
            yield from _order_changes(place, node)
    for place, node in nodes:
        if isinstance(node, ast.stmt) and not isinstance(node, ast.Return | ast.FunctionDef):
            yield from _statement_changes(place, node)
    for place, node in nodes:  # after the steps left out: a comparison that is never true
        if isinstance(node, ast.Compare):  # drops a term too, and that is the likelier slip
            yield from _compare_changes(place, node)
    yield from _name_changes(nodes, vocabulary, names)
    yield from _everywhere_changes(nodes, vocabulary, names)
    yield from _two_reductions(calls)


def _two_reductions(calls: list[_Change]) -> Iterator[_Change]:
    """Two reductions changed at once, each by a keyword left out or another axis (the
    maximum over the whole array and the sum over the last axis)."""
    reductions = [c for c in calls if c.kind in ("keyword_left_out", "other_axis")]
    for a, b in itertools.combinations(reductions, 2):
        (place_a,), (place_b,) = a.places, b.places
        if place_a[: len(place_b)] == place_b or place_b[: len(place_a)] == place_a:
            continue  # the same call, or one inside the other
        yield _Change(
            "two_reductions", (place_a, place_b), (*a.new, *b.new), f"{a.what}, and {b.what}"
        )


def _docstring(function: ast.FunctionDef, place: Place) -> bool:
    first = function.body[0]
    return (
        place[:1] == (("body", 0),)
        and isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )


# --- the solutions and their edits -------------------------------------------------------------------


def solution_file(chapter: int) -> Path | None:
    """The chapter's solutions (``NN_topic.py``) in the first of :data:`SOLUTION_FOLDERS` that
    has them, or None where they are not installed."""
    for folder in SOLUTION_FOLDERS:
        found = sorted(folder.glob(f"{chapter:02d}_*.py")) if folder.is_dir() else []
        if found:
            return found[0]
    return None


_SOLUTIONS: dict[Path, tuple[ast.Module, dict[str, Any]]] = {}


def _solutions(path: Path) -> tuple[ast.Module, dict[str, Any]]:
    if path not in _SOLUTIONS:
        tree = ast.parse(path.read_text(), filename=str(path))
        namespace: dict[str, Any] = {
            "__name__": f"mha_solutions_{path.stem}",
            "__file__": str(path),
        }
        exec(compile(tree, str(path), "exec"), namespace)
        _SOLUTIONS[path] = tree, namespace
    return _SOLUTIONS[path]


def _compiled(function: ast.FunctionDef, namespace: dict, filename: str) -> Callable | None:
    try:
        code = compile(ast.Module([function], []), filename, "exec")
    except (SyntaxError, ValueError, TypeError):
        return None
    scope = dict(namespace)
    exec(code, scope)
    return scope[function.name]


_MADE: dict[tuple[int | None, str | None], tuple[Edit, ...]] = {}


def edits(exercise: FunctionExercise) -> tuple[Edit, ...]:
    """Every one-step edit of the exercise's solution, made once per process (none where
    there is no solution by the exercise's name)."""
    key = (exercise.chapter, exercise.name)
    if key not in _MADE:
        _MADE[key] = _made(exercise)
    return _MADE[key]


def _made(exercise: FunctionExercise) -> tuple[Edit, ...]:
    path = solution_file(exercise.chapter) if exercise.chapter is not None else None
    if path is None:
        return ()
    try:
        tree, namespace = _solutions(path)
    except Exception:  # a module it needs is missing here (torch in the page's Python)
        return ()
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == exercise.name]
    if not found:
        return ()
    function = found[0]
    filename = f"<the solution {exercise.name}>"
    solution = _compiled(function, namespace, filename)
    attributes = _attributes(tree)
    kinds = _traced_kinds(solution, filename, exercise, attributes)
    vocabulary = _Vocabulary(kinds, attributes, _string_keys(function))
    made = []
    for change in _changes(function, vocabulary):
        edited = _compiled_with(function, change, namespace, f"<an edit of {exercise.name}>")
        if edited is not None:
            where = tuple(dict.fromkeys(_header(_statement(function, p)) for p in change.places))
            was = _header(_at(function, change.places[0]))
            made.append(Edit(change.kind, change.what, where, was, edited))
    return tuple(made)


def exact_edit(evidence: Evidence) -> Finding | None:
    """The first edit of the solution that gives the answer's outcome on every compared input
    and reproduces one of its wrong results (see the module's docstring), or None."""
    if all(_is_count(want.value) for want in evidence.want):
        return None  # a whole number per input: floors and clamps make coincidences likely
    compared = [i for i in range(len(evidence.cases)) if not evidence.blind(i)]
    wrong_results = [
        i
        for i in compared
        if evidence.got[i].error is None and not same_outcome(evidence.got[i], evidence.want[i])
    ]
    if not wrong_results:
        return None
    order = wrong_results[:1] + [i for i in compared if i != wrong_results[0]]
    exercise = evidence.exercise
    for edit in edits(exercise):
        if all(
            evidence.same_as(i, exercise.run(edit.function, evidence.cases[i], measured=False))
            for i in order
        ):
            return edit.finding()
    return None


def _is_count(value: Any) -> bool:
    """A whole number: a Python or NumPy integer, or a 0-d integer array."""
    if isinstance(value, bool | np.bool_):
        return False
    return isinstance(value, int | np.integer) or (
        isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu"
    )
