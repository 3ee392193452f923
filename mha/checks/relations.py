"""Diagnoses from the *relation* between the answer's results and the reference's on the same
inputs, for any exercise: nobody has to store the mistake for it to be named.

When no stored variant of an exercise's table equals the answer, the judge asks how the
answer's results relate to the reference's:

- **exactly**, on every test input: a constant factor (named when it means something: ``h``,
  ``sqrt(d_k)``, 2, 8 bits, GB for bytes, ``ln 10``, ...), another function of the right
  result (its logarithm, ``1 - x``, ``1/x``, its square root), the right numbers with the axes
  in another order, in another shape, squeezed, not broadcast, reduced over an axis, shifted
  by one, reversed along an axis, divided by its sum, or with one entry too many or too few at the end of an axis; the outputs of a tuple
  in another order; an output that is one of the arguments, unchanged; or the reference
  itself on *transformed inputs* (an integer off by one, set to 1 or replaced by another,
  a mask inverted, a weight transposed, a bias left out, two arguments swapped, the queries
  used for the keys and values, a list reversed; never for an answer that only raises); for counts, a term or a factor of the
  exercise's formula missing, doubled or replaced, an extra term, rounding up or to the
  nearest integer where the floor is asked, an integer that wrapped around;
- **in part**: right except on the fully masked query rows, right only without (or with)
  batch axes, zeros where it is wrong, raising exactly on the inputs that share one trait (no biases, a list argument,
  an optional argument given), infinite or NaN only on the inputs with the largest values
  (an overflow), right to the precision of float16 or bfloat16 only, within a few percent
  (an estimate), one output of a tuple wrong and the others right, wrong at some indices of
  an axis only, the right numbers in another arrangement (only where the values are distinct
  enough for that to say something: never for a mask).

Each finding has an id (``times:h``, ``input:head-1``, ``masked_rows``, ... see
:func:`exact_findings` and :func:`partial_findings`), a title, a hint and a sentence saying
what was seen. A mistake of an exercise's table names findings it explains with its
``relations`` (patterns of ids), so that its own id, title and hint are reported.

What an exercise may add as data: ``quantities(args)`` (the named sizes of an input, for
naming factors and terms), ``axes`` (the names of its outputs' last axes), ``terms`` (a count
as a sum of products of quantities) and ``exact(args)`` (a count before it is rounded down).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from mha.checks.compare import close, same_outcome
from mha.checks.core import PARAM_TYPES, Case, Foreign, Outcome, real_number

if TYPE_CHECKING:
    from mha.checks.kinds import Evidence


@dataclass(frozen=True)
class Finding:
    """A relation between the answer's results and the reference's: what it looks like."""

    id: str
    title: str
    hint: str
    seen: str


@dataclass(frozen=True)
class Term:
    """One term of a count: ``coefficient`` times the product of the named ``factors``
    (quantities of the input, repeated for a power); ``what`` names it in messages."""

    id: str
    what: str
    coefficient: float
    factors: tuple[str, ...]


def matches(patterns: Sequence[str], finding_id: str) -> bool:
    """Whether a table's ``relations`` patterns (``fnmatch``) name this finding."""
    return any(fnmatch.fnmatchcase(finding_id, p) for p in patterns)


# --- reading results -------------------------------------------------------------------------


def _leaf(value: Any) -> np.ndarray | None:
    """A result as an array of its own dtype (Python numbers as float64), or None when it is
    not real numbers; comparisons keep the tolerance of the less precise dtype."""
    if isinstance(value, Foreign) or value is None:
        return None
    if isinstance(value, bool | np.bool_):
        return np.asarray(value)
    if isinstance(value, int | float):
        return np.asarray(value, dtype=np.float64)
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        return value
    return None


def _outputs(value: Any, names: Sequence[str] | None) -> dict[str, Any] | None:
    """The named outputs of a result (a tuple's items, a parameter container's arrays), or
    ``{"result": value}``; None when the result does not have that structure."""
    if names is not None:
        if not isinstance(value, tuple | list) or len(value) != len(names):
            return None
        return dict(zip(names, value, strict=True))
    if isinstance(value, PARAM_TYPES):
        return {
            f"result.{f.name}": getattr(value, f.name)
            for f in dataclasses.fields(value)
            if isinstance(getattr(value, f.name), np.ndarray)
        }
    return {"result": value}


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    if got.shape != want.shape:
        return False
    if got.dtype == np.bool_ or want.dtype == np.bool_:
        return got.dtype == want.dtype and bool(np.array_equal(got, want))
    return close(got, want)


def _close_values(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal up to rounding, of one shape, whatever the dtypes (a float 1.0 equals True)."""
    return got.shape == want.shape and close(got, want)


class _Pairs:
    """The answer's and the reference's outputs, case by case and name by name; the answer's
    are None where it raised or gave a result of another structure."""

    def __init__(self, evidence: Evidence) -> None:
        names = (
            evidence.exercise.output_names if hasattr(evidence.exercise, "output_names") else None
        )
        self.evidence = evidence
        self.rows: list[tuple[Case, dict | None, dict | None, Outcome, Outcome]] = []
        for case, got, want in zip(evidence.cases, evidence.got, evidence.want, strict=True):
            g = None if got.error is not None else _outputs(got.value, names)
            w = _outputs(want.value, names)
            if g is not None and w is not None and g.keys() != w.keys():
                g = None  # another structure (a number where parameters are asked)
            self.rows.append((case, g, w, got, want))
        self.names = list(self.rows[0][2]) if self.rows and self.rows[0][2] else []

    def output(self, name: str):
        """(case, answer's, reference's) leaves of one output, None for the answer's when it
        raised or has another structure."""
        for case, g, w, _, _ in self.rows:
            yield case, None if g is None or name not in g else _leaf(g[name]), _leaf(w[name])


# --- quantities and factors ----------------------------------------------------------------


def quantities(exercise: Any, args: tuple) -> dict[str, float]:
    """The named sizes of an input: its integer arguments by parameter name, the sizes of a
    parameter container (``h``, ``d_model``, ``d_k``, ``d_v``, ``g``), and what the exercise
    adds (``exercise.quantities(args)``)."""
    names = exercise.argument_names()
    found: dict[str, float] = {}
    for name, arg in zip(names, args, strict=False):
        if isinstance(arg, int) and not isinstance(arg, bool):
            found[name] = float(arg)
        elif isinstance(arg, PARAM_TYPES):
            found["h"] = float(arg.num_heads)
            found.update(d_model=arg.d_model, d_k=arg.d_k, d_v=arg.d_v)
            if hasattr(arg, "num_kv_heads"):
                found["g"] = float(arg.num_kv_heads)
    extra = getattr(exercise, "quantities", None)
    if extra is not None:
        found.update({k: float(v) for k, v in extra(args).items()})
    return found


_LN10, _LN2 = math.log(10), math.log(2)
# (name, value, what it means); the names are those of the ids ``times:<name>``
CONSTANTS: tuple[tuple[str, float, str], ...] = (
    ("-1", -1.0, "the sign flipped"),
    ("2", 2.0, "twice the right value"),
    ("1/2", 0.5, "half the right value"),
    ("3", 3.0, "three times the right value"),
    ("1/3", 1 / 3, "a third of the right value"),
    ("4", 4.0, "four times the right value"),
    ("1/4", 0.25, "a quarter of the right value"),
    ("8", 8.0, "bits where bytes are asked (8 bits a byte)"),
    ("1/8", 0.125, "bytes where bits are asked"),
    ("100", 100.0, "a percentage where a fraction is asked"),
    ("1/100", 0.01, "a fraction where a percentage is asked"),
    ("1e-9", 1e-9, "gigabytes (10^9 bytes) where bytes are asked"),
    ("2^-30", 2.0**-30, "GiB (2^30 bytes) where bytes are asked"),
    ("1e-6", 1e-6, "megabytes (10^6 bytes) where bytes are asked"),
    ("2^-20", 2.0**-20, "MiB (2^20 bytes) where bytes are asked"),
    ("2^30/1e9", 2**30 / 1e9, "GiB and GB mixed up (2^30 for 10^9)"),
    ("1e9/2^30", 1e9 / 2**30, "GB and GiB mixed up (10^9 for 2^30)"),
    ("1000/1024", 1000 / 1024, "a decimal thousand (1000) where 1024 belongs"),
    ("(1000/1024)^2", (1000 / 1024) ** 2, "a decimal thousand (1000) where 1024 belongs, twice"),
    ("1024/1000", 1024 / 1000, "1024 where a decimal thousand (1000) belongs"),
    ("(1024/1000)^2", (1024 / 1000) ** 2, "1024 where a decimal thousand (1000) belongs, twice"),
    ("ln10", _LN10, "a base-10 logarithm where the natural one belongs"),
    ("1/ln10", 1 / _LN10, "a base-10 logarithm where the natural one belongs"),
    ("1/ln2", 1 / _LN2, "a base-2 logarithm (bits) where the natural one (nats) belongs"),
    ("ln2", _LN2, "a base-2 logarithm (bits) where the natural one (nats) belongs"),
)


# the constants that convert a unit (bits, bytes, GB, GiB, ...): named only for an exercise
# whose quantity is a memory size, where such a slip can happen
UNIT_CONSTANTS = frozenset({
    "8", "1/8", "1e-9", "2^-30", "1e-6", "2^-20", "2^30/1e9", "1e9/2^30", "1000/1024",
    "(1000/1024)^2", "1024/1000", "(1024/1000)^2",
})  # fmt: skip


def _measures_memory(exercise: Any) -> bool:
    """Whether an exercise's quantity is a memory size: one of its quantities (a count's
    values, a function's arguments) is in bytes."""
    names = [name for name, _ in getattr(exercise, "values", ())]
    if hasattr(exercise, "argument_names"):
        names += list(exercise.argument_names())
    return any("byte" in name for name in names)


def _constants(units: bool) -> list[tuple[str, float, str]]:
    """The meaningful constants, the unit conversions only where ``units``."""
    return [c for c in CONSTANTS if units or c[0] not in UNIT_CONSTANTS]


def _factor_names(q: dict[str, float]) -> list[tuple[str, float]]:
    """Candidate factors named from an input's quantities: q, 1/q, sqrt(q), 1/sqrt(q), a/b."""
    named = []
    for name, value in q.items():
        if value > 1:
            named += [(name, value), (f"1/{name}", 1 / value), (f"sqrt({name})", math.sqrt(value)),
                      (f"1/sqrt({name})", 1 / math.sqrt(value))]  # fmt: skip
    for (a, x), (b, y) in itertools.permutations(q.items(), 2):
        if x > 0 and y > 0 and x != y:
            named.append((f"{a}/{b}", x / y))
    for (a, x), (b, y) in itertools.combinations(q.items(), 2):
        if x > 1 and y > 1:
            named += [(f"{a}*{b}", x * y), (f"1/({a}*{b})", 1 / (x * y))]
    return named


def _factor_meaning(name: str) -> str:
    """What a factor's name says: a constant's meaning, or a quantity too many or missing."""
    for constant, _, what in CONSTANTS:
        if constant == name:
            return what
    if name.startswith("1/"):
        return f"a factor {name[2:].strip('()')} missing (a mean where a sum belongs?)"
    if "/" in name:
        a, b = name.split("/")
        return f"{a} where {b} belongs"
    return f"a factor {name} too many (a sum where a mean belongs?)"


def _name_factor(c: float, q: dict[str, float], rtol: float, units: bool) -> list[tuple[str, str]]:
    """(name, meaning) of every candidate equal to the factor ``c`` (unit conversions only
    where ``units``)."""
    candidates = [(n, v) for n, v, _ in _constants(units)] + _factor_names(q)
    return [(n, _factor_meaning(n)) for n, v in candidates if math.isclose(c, v, rel_tol=rtol)]


# --- relations on one output -------------------------------------------------------------------
# Each takes (answer's leaf, reference's leaf, context) and returns a key (a str that must
# agree across the test inputs, or a set of candidate keys to intersect) or None.


def _times(got, want, ctx):
    if got.dtype == np.bool_ or want.dtype == np.bool_ or got.shape != want.shape:
        return None
    w = want.reshape(-1)
    scale = float(np.dot(w, w))
    if scale == 0 or not np.all(np.isfinite(got)):
        return None
    c = float(np.dot(got.reshape(-1), w)) / scale
    if c == 0 or math.isclose(c, 1.0, rel_tol=1e-6) or not close(got, c * want):
        return None
    names = _name_factor(c, ctx["quantities"], ctx["rtol"], ctx["units"])
    return {f"times:{n}" for n, _ in names} | {f"constant:{c:.6g}"}


# (name, function of the right value, "<text> of the right value", the mistake, a hint)
_FUNCTIONS: tuple[tuple[str, Callable[[np.ndarray], np.ndarray], str, str, str], ...] = (
    ("log", np.log, "the logarithm", "a logarithm too many (a final exp missing?)",
     "your values are the logarithms of the right ones: exponentiate"),
    ("exp", np.exp, "the exponential", "an exponential too many", "your values are exp of the right ones"),
    ("complement", lambda w: 1.0 - w, "one minus", "one minus the quantity asked",
     "the exercise asks for the quantity itself, not 1 minus it"),
    ("reciprocal", lambda w: 1.0 / w, "the reciprocal", "the reciprocal of the quantity asked",
     "a fraction turned upside down: check which quantity divides which"),
    ("sqrt", np.sqrt, "the square root", "a square root too many",
     "one square root too many (a distance where a divergence is asked, a fourth root?)"),
    ("square", np.square, "the square", "a square root missing",
     "a square root is missing (a variance where a standard deviation is asked?)"),
)  # fmt: skip


def _function_of(got, want, ctx):
    if got.dtype == np.bool_ or want.dtype == np.bool_ or got.shape != want.shape:
        return None
    with np.errstate(all="ignore"):
        for name, fn, *_ in _FUNCTIONS:
            transformed = fn(want)
            if (
                np.all(np.isfinite(transformed))
                and not close(transformed, want)
                and close(got, transformed)
            ):
                return f"function:{name}"
    return None


def _inverted(got, want, ctx):
    same_kind = got.dtype == np.bool_ and want.dtype == np.bool_ and got.shape == want.shape
    return "inverted" if same_kind and np.array_equal(got, ~want) else None


def _numbers_for_bool(got, want, ctx):
    numbers = want.dtype == np.bool_ and got.dtype != np.bool_ and got.shape == want.shape
    return "numbers_for_bool" if numbers and np.array_equal(got, want.astype(got.dtype)) else None


def _axes(got, want, ctx):
    if (
        got.ndim != want.ndim
        or got.ndim < 2
        or got.ndim > 6
        or sorted(got.shape) != sorted(want.shape)
    ):
        return None
    identity = tuple(range(want.ndim))
    for perm in itertools.permutations(identity):
        fits = perm != identity and tuple(want.shape[p] for p in perm) == got.shape
        if fits and _close_values(got, np.transpose(want, perm)):
            return {"axes", "regrouped"}
    return None


def _regrouped(got, want, ctx):
    """The right numbers with axes moved and merged or split: a transpose then a reshape of
    the right result, or the right result after a transpose and reshape of the answer's."""
    if (
        got.size != want.size
        or got.size < 2
        or got.shape == want.shape
        or max(got.ndim, want.ndim) > 5
    ):
        return None
    for a, b in ((want, got), (got, want)):
        identity = tuple(range(a.ndim))
        for perm in itertools.permutations(identity):
            if perm != identity and _close_values(np.transpose(a, perm).reshape(b.shape), b):
                return "regrouped"
    return None


def _squeezed(got, want, ctx):
    squeezed = np.squeeze(want)
    if got.shape != want.shape and got.shape == squeezed.shape and _close_values(got, squeezed):
        return {"squeezed", "reshaped", "regrouped"}
    return None


def _reshaped(got, want, ctx):
    flat = got.shape != want.shape and got.size == want.size and got.size > 1
    if flat and _close_values(got.reshape(-1), want.reshape(-1)):
        return {"reshaped", "regrouped"}
    return None


def _not_broadcast(got, want, ctx):
    if got.shape == want.shape or got.ndim > want.ndim:
        return None
    try:
        spread = np.broadcast_to(got, want.shape)
    except ValueError:
        return None
    return "not_broadcast" if _close_values(spread, want) else None


def _reduced(got, want, ctx):
    if want.dtype == np.bool_ or got.ndim >= want.ndim:
        return None
    found = set()
    for op in ("mean", "sum"):
        if got.ndim == 0 and _close_values(got, getattr(want, op)()):
            found.add(f"reduced:{op}:all")
        for axis in range(-want.ndim, 0):
            if got.ndim == want.ndim - 1:
                reduced = getattr(want, op)(axis=axis)
                if reduced.shape == got.shape and _close_values(got, reduced):
                    found.add(f"reduced:{op}:{axis}")
    return found or None


def _off_by_one(got, want, ctx):
    """One entry too many or too few at either end of one axis."""
    if got.ndim != want.ndim or got.ndim == 0:
        return None
    differ = [a for a in range(got.ndim) if got.shape[a] != want.shape[a]]
    if len(differ) != 1 or abs(got.shape[differ[0]] - want.shape[differ[0]]) != 1:
        return None
    axis = differ[0]
    big, small = (got, want) if got.shape[axis] > want.shape[axis] else (want, got)
    n = small.shape[axis]
    for where, index in (("end", slice(0, n)), ("start", slice(1, n + 1))):
        trimmed = big[(slice(None),) * axis + (index,)]
        if _close_values(trimmed, small):
            more = "one too many" if big is got else "one too few"
            return f"off_by_one:{more}:{where}:{axis - got.ndim}"
    return None


def _shifted(got, want, ctx):
    """The right result moved by one step along an axis: entry i holds the right entry i+1
    (counting from 1 instead of 0) or i-1."""
    if got.shape != want.shape or want.dtype == np.bool_:
        return None
    for axis in range(got.ndim):
        n = got.shape[axis]
        if n < 2:
            continue
        head = (slice(None),) * axis
        first, rest = (*head, slice(0, n - 1)), (*head, slice(1, n))
        if close(got[first], want[rest]):
            return f"shifted:{axis - got.ndim}:ahead"
        if close(got[rest], want[first]):
            return f"shifted:{axis - got.ndim}:behind"
    return None


def _normalised(got, want, ctx):
    """The right values divided by their sum (over one axis or all): normalised to sum 1."""
    if got.shape != want.shape or want.dtype == np.bool_ or want.size < 2:
        return None
    for axis in (None, *range(-want.ndim, 0)):
        total = want.sum(axis=axis, keepdims=True)
        if np.all(total != 0):
            scaled = want / total
            if not close(scaled, want) and close(got, scaled):
                return f"normalised:{'all' if axis is None else axis}"
    return None


def _reversed(got, want, ctx):
    """The right result in reverse order along one axis (counted from the end, pads at the
    start)."""
    if got.shape != want.shape:
        return None
    for axis in range(got.ndim):
        flipped = np.flip(want, axis)
        if got.shape[axis] > 1 and not _same(flipped, want) and _same(got, flipped):
            return f"reversed:{axis - got.ndim}"
    return None


def _returns_argument(got, want, ctx):
    found = {
        f"returns_argument:{name}"
        for name, arg in ctx["arrays"]
        if arg.shape == got.shape and _close_values(got, arg) and not _close_values(got, want)
    }
    return found or None


OUTPUT_RELATIONS = (
    _times, _function_of, _inverted, _numbers_for_bool, _returns_argument, _axes, _squeezed,
    _reshaped, _regrouped, _not_broadcast, _reduced, _off_by_one, _shifted, _reversed,
    _normalised,
)  # fmt: skip


def _output_relation(pairs: _Pairs, name: str, evidence: Evidence) -> str | None:
    """A relation that holds for one output on every test input (and makes it wrong on at
    least one), or None; the most specific when several hold."""
    keys: dict[str, int] | None = None  # key -> rank (the more specific, the lower)
    wrong = 0
    for case, got, want in pairs.output(name):
        if got is None or want is None:
            return None
        if _same(got, want):
            continue
        wrong += 1
        ctx = _context(evidence, case)
        found: dict[str, int] = {}
        for rank, relation in enumerate(OUTPUT_RELATIONS):
            try:
                key = relation(got, want, ctx)
            except (ValueError, TypeError, FloatingPointError):
                key = None
            for k in sorted(key) if isinstance(key, set) else [key] if key else []:
                found.setdefault(
                    k, rank * 10 + (_MOST_SPECIFIC.index(k) if k in _MOST_SPECIFIC else 0)
                )
        keys = found if keys is None else {k: r for k, r in keys.items() if k in found}
        if not keys:
            return None
    if wrong < 2 and len(pairs.rows) >= 3:  # a factor or a function seen once may be chance
        keys = {k: r for k, r in (keys or {}).items() if not k.startswith(_SEEN_TWICE)}
    if not wrong or not keys:
        return None
    return _preferred(keys)


_SEEN_TWICE = ("times:", "constant:", "function:")  # named only when seen on two wrong inputs


_MOST_SPECIFIC = ("squeezed", "reshaped", "axes", "regrouped")


def _preferred(keys: dict[str, int]) -> str:
    """A named factor before a bare constant; otherwise the most specific relation."""
    named = sorted(k for k in keys if k.startswith("times:"))
    if named:
        order = [f"times:{n}" for n, _, _ in CONSTANTS]
        return min(named, key=lambda k: (order.index(k) if k in order else len(order), k))
    return min(keys, key=lambda k: (keys[k], k))


def _context(evidence: Evidence, case: Case) -> dict:
    """What the relations on one output may use besides the two results."""
    exercise = evidence.exercise
    loose = any(a.dtype in (np.float32, np.float16) for a in _arrays(case.args))
    arrays = [
        (arg_name, a)
        for arg_name, a in zip(exercise.argument_names(), case.args, strict=False)
        if isinstance(a, np.ndarray) and a.dtype.kind in "biuf"
    ]
    return {"quantities": quantities(exercise, case.args), "rtol": 1e-4 if loose else 1e-6,
            "arrays": arrays, "units": _measures_memory(exercise)}  # fmt: skip


def _arrays(args: Any) -> list[np.ndarray]:
    if isinstance(args, np.ndarray):
        return [args]
    if isinstance(args, tuple | list):
        return [a for x in args for a in _arrays(x)]
    if isinstance(args, PARAM_TYPES):
        return [
            getattr(args, f.name)
            for f in dataclasses.fields(args)
            if isinstance(getattr(args, f.name), np.ndarray)
        ]
    return []


# --- the reference on transformed inputs -------------------------------------------------------


@dataclass(frozen=True)
class _Transform:
    id: str
    what: str
    apply: Callable[[tuple], tuple | None]  # None: does not apply to this input
    after: Callable[[Any], Any] | None = None  # applied to the reference's result
    # a weight transposed, or used for another, which does not fit some inputs: an answer
    # making the slip fails there in shape, which the relation accepts
    changes_shapes: bool = False


def _replace_arg(args: tuple, index: int, value: Any) -> tuple:
    return (*args[:index], value, *args[index + 1 :])


def _at(index: int, kind: Callable[[Any], bool]) -> Callable[[tuple], Any]:
    def get(args: tuple) -> Any:
        return args[index] if len(args) > index and kind(args[index]) else None

    return get


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_int_sequence(x: Any) -> bool:
    """A list of integers or a 1-d integer array (sequence lengths, say)."""
    if isinstance(x, np.ndarray):
        return x.ndim == 1 and x.dtype.kind in "iu" and x.size > 0
    return isinstance(x, list) and len(x) > 0 and all(_is_int(v) for v in x)


def _stepped(x: Any, step: int) -> Any:
    return [v + step for v in x] if isinstance(x, list) else x + step


def _is_bool_array(x: Any) -> bool:
    return isinstance(x, np.ndarray) and x.dtype == np.bool_


def _is_matrix(x: Any) -> bool:
    return isinstance(x, np.ndarray) and x.ndim == 2 and x.dtype.kind == "f"


def _is_float_array(x: Any) -> bool:
    return isinstance(x, np.ndarray) and x.dtype.kind == "f"


def _is_named_arrays(x: Any) -> bool:
    """(name, array) pairs, a state dict on the wire."""
    return (
        isinstance(x, tuple | list) and len(x) > 1
        and all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str)
                and isinstance(p[1], np.ndarray) for p in x)
    )  # fmt: skip


def _zeroed_pair(pairs: Sequence, k: int, key: str) -> tuple | None:
    """The pairs with the ``k``-th array zeroed, where it is named ``key`` and not zero."""
    if k >= len(pairs) or pairs[k][0] != key or not np.any(pairs[k][1]):
        return None
    return tuple((name, np.zeros_like(a) if j == k else a) for j, (name, a) in enumerate(pairs))


def _wrapped_below_zero(args: tuple, index: int, ints: Sequence[int]) -> int:
    """What 0 - 1 is when counting from 1 wraps around: the last of the range that the one
    other positive integer argument bounds (head -1 of h is head h - 1), else -1."""
    bounds = [args[j] for j in ints if j != index and _is_int(args[j]) and args[j] > 0]
    return bounds[0] - 1 if len(bounds) == 1 else args[index] - 1


def _next_wrapping(args: tuple, index: int, ints: Sequence[int]) -> int | None:
    """``args[index] + 1``, wrapping around to 0 at the one other positive integer argument
    that bounds it (head h - 1 + 1 of h is head 0); None where no one argument bounds it."""
    bounds = [args[j] for j in ints if j != index and _is_int(args[j]) and args[j] > 0]
    return (args[index] + 1) % bounds[0] if len(bounds) == 1 else None


def _transforms(exercise: Any, cases: Sequence[Case]) -> list[_Transform]:
    """Every transformation of the inputs that a slip in an answer amounts to."""
    names = exercise.argument_names()
    longest = max(cases, key=lambda c: len(c.args)).args
    found: list[_Transform] = []

    def change(index: int, kind, new, tid: str, what: str) -> None:
        get = _at(index, kind)

        def apply(args: tuple) -> tuple | None:
            x = get(args)
            if x is None:
                return None
            try:
                y = new(x, args)
            except (IndexError, TypeError, ValueError):  # the input has no such argument
                return None
            return None if y is None else _replace_arg(args, index, y)

        found.append(_Transform(tid, what, apply))

    ints = [i for i, a in enumerate(longest) if _is_int(a) and i < len(names)]
    for i in ints:
        n = names[i]
        change(
            i,
            _is_int,
            lambda x, a, i=i: x - 1 if x > 0 else _wrapped_below_zero(a, i, ints),
            f"input:{n}-1",
            f"{n} - 1 in place of {n} (counted from 1?)",
        )
        change(i, _is_int, lambda x, a: x + 1, f"input:{n}+1", f"{n} + 1 in place of {n}")
        change(  # the same, wrapping around at the end: (i + 1) % h
            i,
            _is_int,
            lambda x, a, i=i: _next_wrapping(a, i, ints),
            f"input:{n}+1",
            f"{n} + 1 in place of {n} (the last one wrapping around to 0)",
        )
        change(
            i,
            _is_int,
            lambda x, a: 1 if x != 1 else None,
            f"input:{n}=1",
            f"{n} = 1, as if {n} were left out",
        )
        for j in ints:
            if j != i:
                change(i, _is_int, lambda x, a, j=j: a[j] if _is_int(a[j]) and a[j] != x else None,
                       f"input:{names[j]}_for_{n}", f"{names[j]} where {n} belongs")  # fmt: skip
    for i, arg in enumerate(longest[: len(names)]):
        n = names[i]
        if _is_bool_array(arg):
            change(i, _is_bool_array, lambda x, a: ~x, f"input:~{n}", f"the {n} inverted (~{n})")
        elif _is_matrix(arg):
            change(i, _is_matrix, lambda x, a: x.T.copy(), f"input:{n}.T", f"{n} transposed")
            rows = _Transform(
                f"input:{n}.T+result.T",
                f"{n} transposed, and the result transposed back (rows where columns belong)",
                found[-1].apply, after=_transposed,
            )  # fmt: skip
            found.append(rows)
        if _is_float_array(arg):
            for axis in range(-min(arg.ndim, 3), 0):
                change(i, lambda x, axis=axis: _is_float_array(x) and x.ndim >= -axis,
                       lambda x, a, axis=axis: np.flip(x, axis).copy(),
                       f"input:reversed({n},{axis})", f"{n} in reverse order along axis {axis}")  # fmt: skip
        elif _is_named_arrays(arg):
            for k, (key, _) in enumerate(arg):
                change(i, _is_named_arrays,
                       lambda x, a, k=k, key=key: _zeroed_pair(x, k, key),
                       f"input:{n}[{key}]=0", f"{key} left out (zero)")  # fmt: skip
        elif isinstance(arg, list) and len(arg) > 1:
            change(i, lambda x: isinstance(x, list), lambda x, a: x[::-1],
                   f"input:reversed({n})", f"{n} in reverse order")  # fmt: skip
        elif isinstance(arg, PARAM_TYPES):
            found.extend(_param_transforms(i, n))
        if _is_int_sequence(arg):  # lengths: a comparison off by one (<= for <)
            for step, sign in ((1, "+"), (-1, "-")):
                change(i, _is_int_sequence, lambda x, a, step=step: _stepped(x, step),
                       f"input:{n}{sign}1", f"every entry of {n} {sign} 1 in place of {n}")  # fmt: skip
    floats = [i for i, a in enumerate(longest[: len(names)]) if _is_float_array(a)]
    for i, j in itertools.combinations(floats, 2):
        a, b = names[i], names[j]

        def swap(args: tuple, i=i, j=j) -> tuple | None:
            x, y = args[i], args[j]
            if x.shape != y.shape or x.dtype != y.dtype:
                return None
            return _replace_arg(_replace_arg(args, i, y), j, x)

        found.append(_Transform(f"input:{a}<->{b}", f"{a} and {b} swapped", swap))

        def replace(args: tuple, i=i, j=j) -> tuple | None:
            if args[i].shape[-1] != args[j].shape[-1] or args[i].dtype != args[j].dtype:
                return None
            return _replace_arg(args, j, args[i])

        found.append(_Transform(f"input:{b}={a}", f"{a} used in place of {b}", replace))
    sequences = [i for i, a in enumerate(longest[: len(names)]) if _is_int_sequence(a)]
    for i, j in itertools.combinations(sequences, 2):

        def swap_lengths(args: tuple, i=i, j=j) -> tuple | None:
            x, y = args[i], args[j]
            if not (_is_int_sequence(x) and _is_int_sequence(y)) or len(x) != len(y):
                return None
            return _replace_arg(_replace_arg(args, i, y), j, x)

        found.append(_Transform(f"input:{names[i]}<->{names[j]}",
                                f"{names[i]} and {names[j]} swapped", swap_lengths))  # fmt: skip
    if len(floats) >= 3:
        first, rest = floats[0], floats[1:]

        def all_from_first(args: tuple) -> tuple | None:
            if any(args[r].shape[-1] != args[first].shape[-1] for r in rest):
                return None
            for r in rest:
                args = _replace_arg(args, r, args[first])
            return args

        others = " and ".join(names[r] for r in rest)
        found.append(_Transform(
            f"input:{','.join(names[r] for r in rest)}={names[first]}",
            f"{names[first]} used in place of {others} (self-attention only)", all_from_first,
        ))  # fmt: skip
    return found


def _transposed(value: Any) -> Any:
    """A matrix result transposed (anything else: None, which matches no answer)."""
    if isinstance(value, np.ndarray) and value.ndim == 2:
        return value.T.copy()
    return None


def _copied(x: np.ndarray | None) -> np.ndarray | None:
    return None if x is None else x.copy()


def _param_transforms(index: int, name: str) -> list[_Transform]:
    def edit(change: Callable[[Any], dict | None]):
        def apply(args: tuple) -> tuple | None:
            params = args[index] if len(args) > index else None
            if not isinstance(params, PARAM_TYPES):
                return None
            fields = change(params)
            if not fields:
                return None
            try:
                return _replace_arg(args, index, dataclasses.replace(params, **fields))
            except (TypeError, ValueError):  # e.g. a transposed weight that does not fit
                return None

        return apply

    weights, biases = ("w_q", "w_k", "w_v", "w_o"), ("b_q", "b_k", "b_v", "b_o")
    found = [
        _Transform(f"input:{name}.{w}.T", f"{name}.{w} transposed",
                   edit(lambda p, w=w: {w: getattr(p, w).T.copy()}), changes_shapes=True)
        for w in weights
    ]  # fmt: skip
    found += [
        _Transform(f"input:{name}.{b}=None", f"{name}.{b} left out",
                   edit(lambda p, b=b: {b: None} if getattr(p, b, None) is not None else None))
        for b in biases
    ]  # fmt: skip
    for a, b in itertools.permutations(weights[:3], 2):  # a copy-pasted projection
        found.append(_Transform(
            f"input:{name}.{b}={a}", f"{name}.{a} used in place of {name}.{b}",
            edit(lambda p, a=a, b=b: {b: getattr(p, a).copy()}), changes_shapes=True,
        ))  # fmt: skip
        bias_a, bias_b = f"b_{a[2]}", f"b_{b[2]}"
        found.append(_Transform(
            f"input:{name}.{b},{bias_b}={a},{bias_a}",
            f"{name}.{a} and {bias_a} used in place of {name}.{b} and {bias_b}",
            edit(lambda p, a=a, b=b, ba=bias_a, bb=bias_b: {
                b: getattr(p, a).copy(), bb: _copied(getattr(p, ba, None))}),
            changes_shapes=True,
        ))  # fmt: skip
    found.append(_Transform(
        f"input:{name}.biases=None", "every bias left out",
        edit(lambda p: {b: None for b in biases if getattr(p, b, None) is not None} or None),
    ))  # fmt: skip
    found.append(_Transform(
        f"input:{name}.square_weights.T", "every square weight transposed (x @ W.T where it fits)",
        edit(lambda p: {w: getattr(p, w).T.copy() for w in weights
                        if getattr(p, w).shape[0] == getattr(p, w).shape[1]} or None),
    ))  # fmt: skip
    found.append(_Transform(
        f"input:{name}.weights.T", "every weight transposed",
        edit(lambda p: {w: getattr(p, w).T.copy() for w in weights}), changes_shapes=True,
    ))  # fmt: skip
    return found


def _wrong_in_shape(got: Outcome, want: Outcome) -> bool:
    """The answer raised, or returned arrays of other shapes than the reference's."""
    if got.error is not None:
        return want.error is None
    if want.error is not None:
        return False
    return _shapes(got.value) != _shapes(want.value)


def _shapes(value: Any) -> Any:
    """The shapes of a result's arrays, in its structure (a tuple's items in order)."""
    if isinstance(value, tuple | list):
        return [_shapes(v) for v in value]
    return value.shape if isinstance(value, np.ndarray) else type(value).__name__


def _input_relation(evidence: Evidence) -> tuple[_Transform, int] | None:
    """The first transformation of the inputs on which the reference gives the answer's
    outcome on every test input (changing at least one wrong one), and a case it changed."""
    exercise = evidence.exercise
    order = sorted(
        range(len(evidence.cases)), key=lambda i: same_outcome(evidence.got[i], evidence.want[i])
    )
    counts = _scalars(evidence) is not None  # cheap to run: every holding change is sought
    found: list[tuple[_Transform, int]] = []
    for transform in _transforms(exercise, evidence.cases):
        changed = None
        for i in order:
            case, got = evidence.cases[i], evidence.got[i]
            new = transform.apply(case.args)
            if new is None:  # a change this input cannot take: the answer must be right
                # here, or fail in shape where a transposed weight would not fit
                if not same_outcome(got, evidence.want[i]) and not (
                    transform.changes_shapes and _wrong_in_shape(got, evidence.want[i])
                ):
                    break
                continue
            outcome = evidence.memo(
                ("input", transform.id, transform.what, i),
                lambda new=new, case=case: exercise.run(
                    exercise.reference, Case(case.description, new), measured=False
                ),
            )
            if transform.after is not None and outcome.error is None:
                outcome = dataclasses.replace(outcome, value=transform.after(outcome.value))
            if not same_outcome(got, outcome):
                break
            if changed is None and got.error is None and not same_outcome(got, evidence.want[i]):
                changed = i  # a wrong result reproduced: errors alone match too easily
        else:
            if changed is not None:
                found.append((transform, changed))
                if not counts:
                    break
    if len(found) > 1:  # two slips give the same counts on these inputs: name neither
        return None
    return found[0] if found else None


# --- counts: terms, rounding, wrap-around, an extra term ---------------------------------------


def _scalar(outcome: Outcome) -> float | None:
    return None if outcome.error is not None else real_number(outcome.value)


def _scalars(evidence: Evidence) -> list[tuple[Case, float, float]] | None:
    """(case, answer, reference) for a count; None unless every outcome is one number."""
    rows = []
    for case, got, want in zip(evidence.cases, evidence.got, evidence.want, strict=True):
        g, w = _scalar(got), _scalar(want)
        if g is None or w is None:
            return None
        rows.append((case, g, w))
    return rows


def _holds(rows, value: Callable[[Case], float | None]) -> bool:
    """``value(case)`` equals the answer on every input and differs from the right one on one."""
    telling = False
    for case, g, w in rows:
        v = value(case)
        if v is None or not math.isclose(g, v, rel_tol=1e-9, abs_tol=1e-9):
            return False
        telling = telling or not math.isclose(g, w, rel_tol=1e-9, abs_tol=1e-9)
    return telling


def _product(q: dict[str, float], factors: Sequence[str]) -> float:
    return math.prod(q[f] for f in factors)


@dataclass(frozen=True)
class Alternative:
    """A value a reader may put in place of one factor of a count (``id`` names it; ``what``
    says it, e.g. "4 bytes per number (float32)")."""

    factor: str
    id: str
    value: float
    what: str


def count(terms: Sequence[Term], q: dict[str, float]) -> float:
    """The sum of the terms for the quantities ``q``."""
    return sum(t.coefficient * _product(q, t.factors) for t in terms)


def count_variants(
    terms: Sequence[Term],
    q: dict[str, float],
    alternatives: Sequence[Alternative] = (),
    *,
    swaps: bool = True,
) -> list[tuple[str, str, float]]:
    """(id, what, value) of every count with one thing changed: a term left out, counted
    twice or halved (``term:<id>:missing|times2|half``); a factor left out of every term
    (``missing:<f>``) or of one term (``term:<id>:without:<f>``), counted twice
    (``doubled:<f>``); a quantity that is no factor multiplied into every term
    (``extra:<q>``) or into one (``term:<id>:extra:<q>``); a factor replaced by an
    alternative (``<factor>:<alternative>``); with ``swaps``, one factor of a term counted as
    another (``term:<id>:<f>-><g>``)."""

    def without(t: Term, f: str) -> Term:
        rest = list(t.factors)
        rest.remove(f)
        return dataclasses.replace(t, factors=tuple(rest))

    found = [(f"{a.factor}:{a.id}", f"with {a.what}", count(terms, {**q, a.factor: a.value}))
             for a in alternatives]  # fmt: skip
    factors = list(dict.fromkeys(f for t in terms for f in t.factors))
    for f in factors:
        found.append((f"missing:{f}", f"without the factor {f}",
                      count([without(t, f) if f in t.factors else t for t in terms], q)))  # fmt: skip
        found.append((f"doubled:{f}", f"with the factor {f} counted twice",
                      count([dataclasses.replace(t, factors=(*t.factors, f)) if f in t.factors else t
                             for t in terms], q)))  # fmt: skip
    extras = [(n, v) for n, v in q.items() if n not in factors and v > 1]
    found += [(f"extra:{n}", f"with an extra factor {n}", count(terms, q) * v) for n, v in extras]
    if len(terms) > 1:
        for t in terms:
            found += [
                (
                    f"term:{t.id}:missing",
                    f"without {t.what}",
                    count([u for u in terms if u is not t], q),
                ),
                (
                    f"term:{t.id}:times2",
                    f"with {t.what} counted twice",
                    count(terms, q) + count([t], q),
                ),
                (
                    f"term:{t.id}:half",
                    f"with half of {t.what}",
                    count(terms, q) - count([t], q) / 2,
                ),
            ]
            found += [(f"term:{t.id}:without:{f}", f"with {t.what} without the factor {f}",
                       count([without(u, f) if u is t else u for u in terms], q))
                      for f in dict.fromkeys(t.factors)]  # fmt: skip
            found += [(f"term:{t.id}:extra:{n}", f"with {t.what} times {n}",
                       count(terms, q) + (v - 1) * count([t], q)) for n, v in extras]  # fmt: skip
    for t in terms if swaps else ():  # one factor counted as another (n d^2 for n^2 d)
        for f, g in itertools.permutations(dict.fromkeys(t.factors), 2):
            swapped = dataclasses.replace(t, factors=(*without(t, f).factors, g))
            found.append((f"term:{t.id}:{f}->{g}", f"with {t.what} counting {g} where {f} belongs",
                          count([swapped if u is t else u for u in terms], q)))  # fmt: skip
    return found


def _term_findings(evidence: Evidence, rows) -> tuple[str, str] | None:
    """(id, what) of a change to the exercise's terms that gives the answer on every input."""
    exercise = evidence.exercise
    swaps = len(rows) > 1  # on one number a swapped factor is too often chance
    per_case = {
        id(case): count_variants(exercise.terms, quantities(exercise, case.args), swaps=swaps)
        for case, _, _ in rows
    }
    for k, (tid, what, _) in enumerate(per_case[id(rows[0][0])]):
        if _holds(rows, lambda case, k=k: per_case[id(case)][k][2]):
            return tid, what
    return None


def _extra_term(evidence: Evidence, rows) -> tuple[str, str] | None:
    """The answer minus the right count is c times a product of at most three quantities."""
    per_case = [quantities(evidence.exercise, case.args) for case, _, _ in rows]
    names = sorted(
        n for n in per_case[0] if all(n in q for q in per_case) and any(q[n] > 1 for q in per_case)
    )
    for degree in (1, 2, 3):
        for monomial in itertools.combinations_with_replacement(names, degree):
            ratios = []
            for case, g, w in rows:
                q = quantities(evidence.exercise, case.args)
                if not all(n in q for n in monomial):
                    break
                ratios.append((g - w) / _product(q, monomial))
            else:
                c = ratios[0]
                distinct = {
                    round(_product(quantities(evidence.exercise, r[0].args), monomial), 6)
                    for r in rows
                }
                nice = c != 0 and math.isclose(c * 2, round(c * 2), abs_tol=1e-9)
                if (
                    nice
                    and len(distinct) > 1
                    and all(math.isclose(r, c, rel_tol=1e-9) for r in ratios)
                ):
                    product = " * ".join(_powers(monomial))
                    sign = "an extra" if c > 0 else "a missing"
                    return (
                        f"extra_term:{_number(c)}*{product}",
                        f"{sign} term {_number(abs(c))} * {product}",
                    )
    return None


def _powers(monomial: Sequence[str]) -> list[str]:
    return [
        f"{n}^{monomial.count(n)}" if monomial.count(n) > 1 else n for n in dict.fromkeys(monomial)
    ]


def _number(c: float) -> str:
    return str(int(c)) if float(c).is_integer() else f"{c:g}"


def _rounding(evidence: Evidence, rows) -> str | None:
    exact = evidence.exercise.exact
    for mode, fn in (("ceil", math.ceil), ("round", round), ("none", float)):
        if _holds(rows, lambda case, fn=fn: float(fn(exact(*case.args)))):
            return f"rounding:{mode}"
    return None


def _wrapped(evidence: Evidence, rows) -> str | None:
    for bits in (32, 64):

        def wrap(case, bits=bits) -> float | None:
            w = next(r[2] for r in rows if r[0] is case)
            if not float(w).is_integer():
                return None
            half = 2 ** (bits - 1)
            return float((int(w) + half) % (2 * half) - half)

        if _holds(rows, wrap):
            return f"int_wrap:{bits}"
    return None


# --- describing what was found ------------------------------------------------------------------


def _axis_name(exercise: Any, output: str, axis: int) -> str:
    names = (getattr(exercise, "axes", None) or {}).get(output)
    if names and -axis <= len(names):
        return f"the {names[axis]} axis ({axis})"
    return f"axis {axis}"


_RESULT_WORDS = {"result": "your result"}


def _your(output: str) -> str:
    return _RESULT_WORDS.get(output, f"your {output}")


def _output_text(
    exercise: Any, output: str, key: str, got_shape, want_shape
) -> tuple[str, str, str]:
    """(what the output is, the mistake it looks like, a hint) for a relation key."""
    family, _, rest = key.partition(":")
    if family == "times":
        return (f"the right value times {rest}", _factor_meaning(rest),
                f"your result is off by exactly {rest} on every input: look for where that factor "
                "enters (or should enter) the computation")  # fmt: skip
    if family == "constant":
        return (f"the right value times {rest} on every input", "a constant factor",
                "a scale, a unit or a normalisation that differs from the one asked")  # fmt: skip
    if family == "function":
        return next(
            (f"{text} of the right value", title, hint)
            for n, _, text, title, hint in _FUNCTIONS
            if n == rest
        )
    if family == "inverted":
        return ("the right mask with True and False swapped", "a mask with the opposite polarity",
                "check the polarity: which value means 'may attend' here")  # fmt: skip
    if family == "numbers_for_bool":
        return ("the right mask as the numbers 1 and 0", "a mask of numbers where a boolean one is asked",
                "build the mask from a comparison, or convert with .astype(bool)")  # fmt: skip
    if family == "axes":
        shapes = "" if got_shape == want_shape else f" (shape {got_shape}, expected {want_shape})"
        return (f"the right numbers with the axes in another order{shapes}", "axes in the wrong order",
                "check which axes each transpose or reshape moves; .T reverses every axis")  # fmt: skip
    if family == "squeezed":
        return (f"the right values with the axes of size 1 dropped (shape {got_shape}, expected "
                f"{want_shape})", "axes of size 1 dropped (squeeze)",
                ".squeeze() drops every axis of size 1, the batch too when B = 1: index the axes "
                "you mean (e.g. [:, 0, 0, :])")  # fmt: skip
    if family == "reshaped":
        return (f"the right numbers in another shape ({got_shape}, expected {want_shape})",
                "the right numbers in the wrong shape",
                "the values are in the right order: the last reshape (or the axes you inserted) "
                "gives the wrong shape")  # fmt: skip
    if family == "regrouped":
        return (f"the right numbers with axes moved and merged or split (shape {got_shape}, expected "
                f"{want_shape})", "axes moved, merged or split the wrong way",
                "every number is right: check the order of your transposes and reshapes (a reshape "
                "only merges or splits neighbouring axes)")  # fmt: skip
    if family == "not_broadcast":
        return (f"the right values, but of shape {got_shape}, which only broadcasts to {want_shape}",
                "a result that is not broadcast to the asked shape",
                "the exercise asks for the full shape: np.broadcast_to(x, shape) (np.array(...) "
                "for a writable copy)")  # fmt: skip
    if family == "reduced":
        op, _, axis = rest.partition(":")
        where = "every axis" if axis == "all" else _axis_name(exercise, output, int(axis))
        word = "mean" if op == "mean" else "sum"
        return (f"the {word} of the right values over {where}", f"a {word} over {where}, which must be kept",
                f"keep that axis: the exercise asks for one value per entry of {where}, not their {word}")  # fmt: skip
    if family == "off_by_one":
        more, where, axis = rest.split(":")
        return (f"the right values with {more} entry at the {where} of axis {axis} (shape {got_shape}, "
                f"expected {want_shape})", "an off-by-one in a slice or a range",
                "a slice a:b stops before b, and a block of d entries starting at i*d is [i*d:(i+1)*d]")  # fmt: skip
    if family == "shifted":
        axis, _, direction = rest.partition(":")
        step = "i + 1" if direction == "ahead" else "i - 1"
        return (f"the right values shifted by one along {_axis_name(exercise, output, int(axis))} "
                f"(entry i holds the right entry {step})", "an index off by one (counted from 1 instead of 0?)",
                "Python counts from 0: the first position, head or row is 0")  # fmt: skip
    if family == "normalised":
        where = "every entry" if rest == "all" else _axis_name(exercise, output, int(rest))
        return (f"the right values divided by their sum over {where}",
                f"values normalised to sum to 1 over {where}, which the exercise does not ask",
                "leave out the division by the total: the exercise asks for the values themselves")  # fmt: skip
    if family == "reversed":
        where = _axis_name(exercise, output, int(rest))
        return (f"the right values in reverse order along {where}",
                f"an order reversed along {where} (counted from the end; for a mask, the pads at "
                "the start where they are at the end)",
                "the first entry comes first: check the direction of each comparison, range or "
                "slice along that axis (in this book a sequence's pads are at its end)")  # fmt: skip
    if family == "returns_argument":
        return (f"the argument {rest}, unchanged", f"the argument {rest} returned instead of the new value",
                f"return the new value, not the {rest} you were given")  # fmt: skip
    return key, key, ""


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --- the findings ------------------------------------------------------------------------------


def exact_findings(evidence: Evidence) -> Finding | None:
    """A relation that reproduces the answer on every test input, or None. Ids:

    - ``outputs_swapped``: a tuple's outputs in another order;
    - per output: ``times:<factor>`` (a named factor: ``2``, ``8``, ``100``, ``1e-9``,
      ``2^-30``, ``ln10``, ``h``, ``1/sqrt(d_k)``, ``top_k/h``, ...) or ``constant:<c>``,
      ``function:<log|exp|complement|reciprocal|sqrt|square>``, ``inverted``,
      ``numbers_for_bool``, ``axes``, ``squeezed``, ``reshaped``, ``regrouped``, ``not_broadcast``,
      ``reduced:<mean|sum>:<axis|all>``, ``off_by_one:<one too many|one too few>:<end|start>:<axis>``,
      ``shifted:<axis>:<ahead|behind>``, ``reversed:<axis>``, ``normalised:<axis|all>``,
      ``returns_argument:<name>``;
    - ``input:<change>``: the reference on changed inputs (``input:head-1``, ``input:batch=1``,
      ``input:n_k_for_n_q``, ``input:~mask``, ``input:params.w_o.T``, ``input:params.b_o=None``,
      ``input:q<->k``, ``input:k,v=q``, ``input:reversed(w_heads)``, ...);
    - counts: ``term:<id>:<missing|times2|half|without:<factor>>`` (with ``terms``),
      ``rounding:<ceil|round|none>`` (with ``exact``), ``int_wrap:<32|64>``,
      ``extra_term:<c>*<product>``.
    """
    with np.errstate(all="ignore"):
        return _exact(evidence)


def _exact(evidence: Evidence) -> Finding | None:
    exercise = evidence.exercise
    pairs = _Pairs(evidence)
    swapped = _outputs_swapped(evidence, pairs)
    if swapped:
        return swapped
    related = _related_outputs(evidence, pairs)
    if related:
        return related
    changed = _input_relation(evidence)
    if changed:
        transform, i = changed
        case = evidence.cases[i]
        return Finding(
            transform.id, f"the right computation, but with {transform.what}",
            _input_hint(transform.id),
            f"on {case.description} your result is what the right computation gives with {transform.what}",
        )  # fmt: skip
    rows = _scalars(evidence)
    if rows is None:
        return None
    first = next((case for case, g, w in rows if not math.isclose(g, w, rel_tol=1e-9)), None)
    if first is None:  # every value right (a float where an int is asked)
        return None
    if getattr(exercise, "terms", ()):
        term = _term_findings(evidence, rows)
        if term:
            tid, what = term
            return Finding(tid, f"the count {what}", "write the count as a sum of its terms and check each factor",
                           f"on {first.description} your count is the right one {what}")  # fmt: skip
    if getattr(exercise, "exact", None) is not None:
        mode = _rounding(evidence, rows)
        if mode:
            words = {"rounding:ceil": "rounded up", "rounding:round": "rounded to the nearest integer",
                     "rounding:none": "not rounded down to an integer"}[mode]  # fmt: skip
            return Finding(mode, f"the right quantity {words} where the largest integer that fits (the floor) is asked",
                           "round down: int() of a positive number, math.floor, // or math.isqrt; a value "
                           "rounded up no longer fits",
                           f"on {first.description} your result is the exact quantity {words}")  # fmt: skip
    wrapped = _wrapped(evidence, rows)
    if wrapped:
        bits = wrapped.split(":")[1]
        return Finding(wrapped, f"an integer overflow ({bits}-bit integers wrap around)",
                       f"a {bits}-bit integer holds at most 2^{int(bits) - 1} - 1: compute in Python ints (or np.int64)",
                       f"on {first.description} your count is the right one wrapped around 2^{bits}")  # fmt: skip
    extra = _extra_term(evidence, rows)
    if extra:
        tid, what = extra
        return Finding(tid, f"the count with {what}",
                       "compare your formula with the count the exercise describes, term by term",
                       f"your count minus the right one is {what.split(' term ')[1]} on every input")  # fmt: skip
    return None


def _input_hint(tid: str) -> str:
    if tid.endswith("-1"):
        return "one fewer than asked: counted from 1 instead of 0, a strict < where <= belongs, or a range that stops one early?"
    if tid.endswith("+1"):
        return "one more than asked: a <= where < belongs, or a range that goes one too far?"
    if tid.endswith("=1"):
        return "that size is missing from your computation: every one of them counts"
    if "_for_" in tid:
        return "two sizes mixed up: check which one belongs where"
    if tid.startswith("input:~"):
        return "check the polarity: in this book True means 'may attend'"
    if tid.endswith(".T"):
        return "this book's weights are in the paper's layout, x @ W: check each transpose"
    if tid.endswith("=None"):
        return "add each bias after its product when it is not None"
    if "<->" in tid:
        return "two arguments swapped: check the order of the arguments and of the products"
    if "reversed(" in tid:
        return "the order is reversed: the first one comes first"
    if "=" in tid:
        return "use each argument where it belongs (the keys and values come from k and v)"
    return "compare each input with where your code uses it"


def _outputs_swapped(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    names = pairs.names
    if len(names) < 2:
        return None
    for perm in itertools.permutations(range(len(names))):
        if perm == tuple(range(len(names))):
            continue
        telling = False
        for _, g, w, got, want in pairs.rows:
            if g is None:
                return None
            gl = [_leaf(g[names[p]]) for p in range(len(names))]
            wl = [_leaf(w[names[p]]) for p in perm]
            if any(x is None or y is None or not _same(x, y) for x, y in zip(gl, wl, strict=True)):
                break
            telling = telling or not same_outcome(got, want)
        else:
            if telling:
                given = ", ".join(names[p] for p in perm)
                return Finding("outputs_swapped", f"the right results in another order: ({given})",
                               f"return them in the order ({', '.join(names)})",
                               f"your results are ({given}) where ({', '.join(names)}) is asked")  # fmt: skip
    return None


def _related_outputs(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    """Every output right or related to the reference's by one relation, one at least related."""
    if not pairs.names:
        return None
    relations: dict[str, str] = {}
    for name in pairs.names:
        if all(g is not None and _same(g, w) for _, g, w in pairs.output(name)):
            continue
        key = _output_relation(pairs, name, evidence)
        if key is None:
            return None
        relations[name] = key
    if not relations:
        return None
    exercise = evidence.exercise
    texts = []
    for name, key in relations.items():
        case, got, want = next((c, g, w) for c, g, w in pairs.output(name) if not _same(g, w))
        text, title, hint = _output_text(exercise, name, key, got.shape, want.shape)
        texts.append((name, key, text, title, hint, case))
    name, key, text, title, hint, case = texts[0]
    same = [n for n, k, *_ in texts if k == key]
    ids = list(dict.fromkeys(k for _, k, *_ in texts))
    right = [n for n in pairs.names if n not in relations]
    seen = f"on {case.description} {_join([_your(n) for n in same])} {'are' if len(same) > 1 else 'is'} {text}"
    for n, _, t, *_ in texts:
        if n not in same:
            seen += f"; {_your(n)} is {t}"
    if right and len(pairs.names) > 1:
        seen += f" ({_join(right)} {'are' if len(right) > 1 else 'is'} right)"
    return Finding("+".join(ids), title, hint, seen)


def partial_findings(evidence: Evidence) -> list[Finding]:
    """What is wrong where, when no relation reproduces the answer everywhere. Ids:
    ``masked_rows``, ``batch_axes``, ``raised_when:<trait>``, ``zeros``, ``overflow``,
    ``precision:<float16|bfloat16>``, ``approximate``, ``rearranged``, ``part:<outputs>``,
    ``part:<axis>``; the most telling first."""
    with np.errstate(all="ignore"):
        return _partial(evidence, _Pairs(evidence))


_CAUSES = ("masked_rows", "batch_axes", "raised_when:*", "overflow", "precision:*", "scaled_rows")


def names_a_cause(finding_id: str) -> bool:
    """Whether a partial finding says why the answer is wrong (an overflow, low precision, the
    batch axes, ...) rather than only where (which output, which indices, zeros, nearly)."""
    return matches(_CAUSES, finding_id)


def _partial(evidence: Evidence, pairs: _Pairs) -> list[Finding]:
    found = []
    for finder in (_masked_rows, _batch_axes, _raised_when, _zeros, _overflow, _precision,
                   _scaled_rows, _nearly_right, _rearranged, _some_outputs, _some_indices):  # fmt: skip
        try:
            finding = finder(evidence, pairs)
        except (ValueError, TypeError, IndexError):
            finding = None
        if finding:
            found.append(finding)
    return found


def _wrong_entries(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    if got.dtype == np.bool_ or want.dtype == np.bool_:
        return got != want
    loose = 1e-4
    with np.errstate(invalid="ignore"):
        ok = np.isclose(got, want, rtol=loose, atol=loose * 0.1, equal_nan=True)
    return ~ok


def _masked_rows(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    """Right everywhere except on rows the reference gives as zeros, in cases with a mask."""
    seen_nan, wrong_case = False, None
    for i, (case, g, w, got, _) in enumerate(pairs.rows):
        if not any(_is_bool_array(a) for a in case.args):
            if not same_outcome(got, evidence.want[i]):
                return None
            continue
        if g is None:
            return None
        for name in pairs.names:
            gl, wl = _leaf(g[name]), _leaf(w[name])
            if gl is None or wl is None or gl.shape != wl.shape or wl.ndim == 0:
                return None
            wrong = _wrong_entries(gl, wl)
            if not wrong.any():
                continue
            zero_rows = np.all(wl == 0, axis=-1, keepdims=True)
            if np.any(wrong & ~zero_rows):
                return None
            wrong_case = wrong_case or case
            seen_nan = seen_nan or bool(np.isnan(gl[wrong]).any())
    if wrong_case is None:
        return None
    there = "NaN" if seen_nan else "values that are not zero (uniform weights?)"
    return Finding(
        "masked_rows", "a fully masked query row that is not zeros",
        "in this book a query that may attend no key gets zero weights and a zero output, never "
        "NaN: -inf everywhere in a row gives exp(-inf - (-inf)) = NaN, and -1e9 gives uniform "
        "weights; zero the rows that have no allowed key, e.g. "
        "np.where(mask.any(axis=-1, keepdims=True), weights, 0)",
        f"on {wrong_case.description} your result is right except on the query rows whose keys are "
        f"all masked, where it gives {there}",
    )  # fmt: skip


def _leading(cases: Sequence[Case]) -> list[int] | None:
    """The number of leading (batch) axes of each case: the first float array argument's
    dimensions beyond the fewest any case has."""
    first = [next((a for a in c.args if _is_float_array(a)), None) for c in cases]
    if any(a is None for a in first):
        return None
    fewest = min(a.ndim for a in first)
    return [a.ndim - fewest for a in first]


def _returns_its_input(want: Outcome, case: Case) -> bool:
    """The reference returned its first array argument unchanged (a repeat by 1, say)."""
    first = next((a for a in case.args if _is_float_array(a)), None)
    value = want.value
    return (
        want.error is None and isinstance(value, np.ndarray) and first is not None
        and value.shape == first.shape and bool(np.array_equal(value, first))
    )  # fmt: skip


def _batch_axes(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    leading = _leading(evidence.cases)
    if leading is None:
        return None
    outcomes = [
        (n, got, want)
        for n, got, want, case in zip(
            leading, evidence.got, evidence.want, evidence.cases, strict=True
        )
        if not _returns_its_input(want, case)  # any axis gives that: it tells none apart
    ]
    right = [n for n, g, w in outcomes if same_outcome(g, w)]
    wrong = [n for n, g, w in outcomes if not same_outcome(g, w)]
    # right on two inputs or more, all without batch axes or all with exactly one (a fixed
    # number of dimensions; then one input is enough if the wrong ones have fewer and more),
    # or with at most one and wrong on every input with more (at most one batch axis
    # assumed); wrong on two or more, none of them with a count of the right ones
    if len(wrong) < 2 or not right or max(right) > 1 or set(right) & set(wrong):
        return None
    if len(set(right)) > 1 and min(wrong) < max(right):
        return None
    if len(right) < 2 and not (right[0] == 1 and min(wrong) < 1 < max(wrong)):
        return None
    right, wrong = set(right), set(wrong)

    def axes(counts) -> str:
        return " or ".join(str(n) for n in sorted(counts))

    return Finding(
        "batch_axes", "axes counted from the front (axis 0 or 1, .T, a fixed number of dimensions) "
        "where they must be counted from the end",
        "with batch axes in front, .T reverses them too and axis 0 or 1 is a batch axis: count "
        "from the end (np.swapaxes(x, -1, -2), axis=-3, *batch, n, d = x.shape)",
        f"your function is right on the inputs with {axes(right)} leading (batch) axes and wrong "
        f"(or raises) on those with {axes(wrong)}",
    )  # fmt: skip


def _traits(exercise: Any, args: tuple) -> dict[str, tuple[str, str]]:
    """Traits of an input an error may depend on: trait id -> (words, hint)."""
    names = exercise.argument_names()
    traits: dict[str, tuple[str, str]] = {}
    for i, name in enumerate(names):
        arg = args[i] if i < len(args) else None
        if i < len(args) and arg is not None:
            traits[f"{name}_given"] = (f"{name} is given",
                                       f"your function fails when {name} is passed: check how it uses {name}")  # fmt: skip
        else:
            traits[f"{name}_omitted"] = (f"{name} is left out (None)",
                                         f"{name} may be None or left out: handle the default")  # fmt: skip
        if isinstance(arg, list | tuple) and not isinstance(arg, PARAM_TYPES):
            traits[f"{name}_list"] = (f"{name} is a Python list",
                                      f"{name} may be a list: convert it first, np.asarray({name})")  # fmt: skip
        if isinstance(arg, PARAM_TYPES) and getattr(arg, "b_q", 0) is None:
            traits[f"{name}_no_biases"] = (f"{name} has no biases",
                                           "a bias may be None: add it only when it is not, "
                                           "e.g. x @ w if b is None else x @ w + b")  # fmt: skip
        if isinstance(arg, np.ndarray) and arg.dtype.kind == "f":
            traits[f"{name}_{arg.dtype}"] = (
                f"{name} is {arg.dtype}",
                f"your function fails on {arg.dtype} inputs",
            )
    return traits


def _raised_when(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    raised = [got.error is not None for got in evidence.got]
    if not any(raised) or all(raised):
        return None
    errors = {got.error[0] for got in evidence.got if got.error is not None}
    if len(errors) != 1:
        return None
    if any(
        not r and not same_outcome(g, w)
        for r, g, w in zip(raised, evidence.got, evidence.want, strict=True)
    ):
        return None
    per_case = [_traits(evidence.exercise, case.args) for case in evidence.cases]
    few = min(sum(raised), len(raised) - sum(raised)) < 2
    for trait, (words, hint) in per_case[raised.index(True)].items():
        if few and trait.endswith(("_float16", "_float32", "_float64")):
            continue  # a dtype seen once on one side may be chance
        if all((trait in t) == r for t, r in zip(per_case, raised, strict=True)):
            error = next(got.error for got in evidence.got if got.error is not None)
            message = error[1] if len(error[1]) < 120 else error[1][:117] + "..."
            return Finding(f"raised_when:{trait}", f"an error exactly when {words}", hint,
                           f"your function raised {error[0]} ({message}) on exactly the inputs where {words}")  # fmt: skip
    return None


def _zeros(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    """Right on some inputs and all zeros on the others (every wrong output, every entry)."""
    wrong_case, right = None, False
    for case, g, w, got, want in pairs.rows:
        if same_outcome(got, want):
            right = True
            continue
        if g is None:
            return None
        zeroed = False
        for name in pairs.names:
            gl, wl = _leaf(g[name]), _leaf(w[name])
            if gl is None or wl is None or gl.dtype == np.bool_ or gl.size == 0:
                return None
            if not np.any(gl) and np.any(wl):
                zeroed = True
            elif not np.array_equal(gl, wl) and not _same(gl, wl):
                return None
        if not zeroed:
            return None
        wrong_case = wrong_case or case
    if wrong_case is None or not right:
        return None
    return Finding(
        "zeros", "zeros returned where the computation did not go through",
        "an `except` that returns zeros hides the error that a reader needs to see: let it "
        "raise, and fix what raised",
        f"your result is all zeros on {wrong_case.description} (and on every input where it "
        "is wrong), and right on the others",
    )  # fmt: skip


def _scaled_slices(got: np.ndarray, want: np.ndarray, *, vectors: bool) -> bool:
    """Each slice along some axis (a softmax's rows, say) the right one times a factor of its
    own, the factors not all alike (one factor for all is :func:`_times`); a vector, one
    slice, only where ``vectors`` (an exercise's one output, not a field among many)."""
    if got.dtype == np.bool_ or got.shape != want.shape or got.ndim < (1 if vectors else 2):
        return False
    if not np.all(np.isfinite(got)):
        return False
    if got.ndim == 1:  # one row: one factor
        scale = float(np.dot(want, want))
        c = float(np.dot(got, want)) / scale if scale else 1.0
        return not close(got, want) and close(got, c * want)
    for axis in range(got.ndim):
        if got.shape[axis] < 2:
            continue
        scale = np.sum(want * want, axis=axis, keepdims=True)
        factor = np.sum(got * want, axis=axis, keepdims=True) / np.where(scale == 0, 1, scale)
        factor = np.where(scale == 0, 1.0, factor)
        kept_or_zeroed = np.all(np.isclose(factor, 0) | np.isclose(factor, 1))
        if (
            close(got, factor * want)
            and not close(factor, np.full_like(factor, factor.flat[0]))
            and not kept_or_zeroed  # rows zeroed, not scaled: where, not a normalisation
        ):
            return True
    return False


def _scaled_rows(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    """Every wrong output, on every input where it is wrong, the right one with each slice
    along some axis times a factor of its own (a softmax divided by a maximum or a norm)."""
    wrong_case = None
    for case, g, w, got, want in pairs.rows:
        if same_outcome(got, want):
            continue
        if g is None:
            return None
        for name in w:  # this input's outputs (a parameter container's may vary)
            gl, wl = _leaf(g[name]), _leaf(w[name])
            if gl is None or wl is None:
                return None
            vectors = len(w) == 1
            if not _same(gl, wl) and not _scaled_slices(gl, wl, vectors=vectors):
                return None
        wrong_case = wrong_case or case
    if wrong_case is None:
        return None
    return Finding(
        "scaled_rows", "each row scaled by its own factor: another normalisation (a maximum, "
        "a norm, a sum over another axis?)",
        "check what each row is divided or multiplied by: the normalisation the exercise asks for",
        f"on {wrong_case.description} (and on every input where it is wrong) each row of your "
        "result (each slice along one axis) is the right one times a factor of its own",
    )  # fmt: skip


def _magnitude(case: Case) -> float:
    arrays = [a for a in _arrays(case.args) if a.dtype.kind == "f" and a.size]
    return max((float(np.max(np.abs(a))) for a in arrays), default=0.0)


def _overflow(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    blown = []
    for case, g, w, _, _ in pairs.rows:
        if g is None:
            return None
        nonfinite = False
        for name in pairs.names:
            gl, wl = _leaf(g[name]), _leaf(w[name])
            if gl is None or wl is None or gl.dtype == np.bool_:
                continue
            if gl.shape == wl.shape and np.any(~np.isfinite(gl) & np.isfinite(wl)):
                nonfinite = True
        if nonfinite:
            blown.append(case)
    right = [c for c, got, want in zip(evidence.cases, evidence.got, evidence.want, strict=True)
             if same_outcome(got, want)]  # fmt: skip
    if not blown or not right:
        return None
    smallest_blown = min(_magnitude(c) for c in blown)
    if smallest_blown <= max(_magnitude(c) for c in right) or smallest_blown < 20:
        return None  # not the large inputs (a division by 0 on an ordinary one, say)
    return Finding(
        "overflow", "an exponential that overflows on large values (inf or NaN only on the largest inputs)",
        "exp overflows above about 709 in float64 (88 in float32): subtract the maximum before exp "
        "(in an online softmax, keep a running maximum and rescale the sums when it grows)",
        f"your result is inf or NaN on {blown[0].description}, and only on the inputs with the "
        "largest values",
    )  # fmt: skip


def _representable(x: np.ndarray, kind: str) -> bool:
    finite = x[np.isfinite(x)]
    if kind == "float16":
        return bool(np.array_equal(finite.astype(np.float16).astype(np.float64), finite))
    as32 = finite.astype(np.float32)
    return bool(np.array_equal(as32.astype(np.float64), finite)) and not np.any(
        as32.view(np.uint32) & 0xFFFF
    )


def _rounded_to(x: float, kind: str) -> float:
    """``x`` rounded to the nearest float16 or bfloat16 number (bfloat16: float32's top 16
    bits, rounded to nearest even), as a float."""
    if kind == "float16":
        with np.errstate(over="ignore"):  # beyond 65504 float16 holds inf
            return float(np.float16(x))
    bits = int(np.array(x, np.float32).view(np.uint32))
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return float(np.array(bits, np.uint32).view(np.float32))


def _precision(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    for kind, tolerance in (("bfloat16", 2e-2), ("float16", 4e-3)):
        telling = False
        for name in pairs.names:
            for _, got, want in pairs.output(name):
                if got is None or want is None or got.shape != want.shape or got.dtype == np.bool_:
                    return None
                if _same(got, want):
                    continue
                scale = max(float(np.max(np.abs(want))), 1.0)
                if not np.allclose(got, want, rtol=tolerance, atol=tolerance * scale * 0.1):
                    break
                if not _representable(got, kind):
                    break
                telling = True
            else:
                continue
            break
        else:
            if telling:
                bits = "8 bits: about 2" if kind == "bfloat16" else "11 bits: about 3"
                return Finding(
                    f"precision:{kind}", f"a result computed in {kind} ({bits} significant digits)",
                    f"compute in the inputs' dtype: {kind} rounds every number, so the result is off in "
                    "the third or fourth digit",
                    f"your values are right to {kind}'s precision only, and every one of them is a {kind} number",
                )  # fmt: skip
    return None


def _nearly_right(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    rows = _scalars(evidence)
    if rows is None or all(float(w).is_integer() for _, _, w in rows):  # a count is not estimated
        return None
    off = [abs(g / w - 1) for _, g, w in rows if w != 0]
    if len(off) != len(rows) or not all(1e-9 < x < 0.1 for x in off):
        return None  # right on some input: no estimate
    return Finding("nearly_right", "a formula close to the right one (within 10% on every input)",
                   "compare your formula with the statement's term by term: another average, "
                   "normalisation or order of the steps gives values a few percent off",
                   f"your value is up to {max(off):.1%} away from the right one on every input")  # fmt: skip


def _some_outputs(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    if len(pairs.names) < 2:
        return None
    right, wrong = [], []
    for name in pairs.names:
        leaves = list(pairs.output(name))
        if any(g is None for _, g, _ in leaves):
            return None
        (right if all(_same(g, w) for _, g, w in leaves) else wrong).append(name)
    if not right or not wrong:
        return None
    return Finding(f"part:{','.join(wrong)}", f"{_join(wrong)} wrong while {_join(right)} {'are' if len(right) > 1 else 'is'} right",
                   f"look at the lines that compute {_join(wrong)}",
                   f"{_join(right)} {'are' if len(right) > 1 else 'is'} right on every input, {_join(wrong)} not")  # fmt: skip


def _some_indices(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    """Wrong at some indices of a named axis (or of the batch axis) and right at the others."""
    exercise = evidence.exercise
    for name in pairs.names:
        wants = [w for _, _, w in pairs.output(name)]
        fewest = min(w.ndim for w in wants)
        leading = [w.ndim - fewest for w in wants]
        named = (getattr(exercise, "axes", None) or {}).get(name, ())
        axes = [(-len(named) + k, f"the {n} axis") for k, n in enumerate(named)]
        found = None
        for axis, words in [(None, "the batch axis"), *axes]:
            telling, example = True, None
            for (case, got, want), lead in zip(pairs.output(name), leading, strict=True):
                if got is None or want is None or got.shape != want.shape or want.ndim == 0:
                    telling = False
                    break
                a = 0 if axis is None else axis
                if axis is None and lead == 0:
                    if not _same(got, want):
                        telling = False
                        break
                    continue
                wrong = _wrong_entries(got, want)
                if not wrong.any():
                    continue
                per_index = np.moveaxis(wrong, a, 0).reshape(wrong.shape[a], -1).any(axis=1)
                if per_index.all():
                    telling = False
                    break
                example = example or (case, np.flatnonzero(~per_index).tolist(), wrong.shape[a])
            if telling and example:
                found = (words, example)
                break
        if found:
            words, (case, right_at, size) = found
            return Finding(
                f"part:{words.split()[1]}", f"wrong at some indices of {words} and right at others",
                f"compare what your code does for the first and the other entries of {words}",
                f"on {case.description} {_your(name)} is right only at index {_join([str(i) for i in right_at])} "
                f"of {words} (of {size})",
            )  # fmt: skip
    return None


def _rearranged(evidence: Evidence, pairs: _Pairs) -> Finding | None:
    """On every wrong input, the wrong outputs together hold exactly the reference's numbers
    (the same multiset, of values distinct enough for that to say something: never a mask)."""
    telling, wrong_names = False, set()
    for _, g, w, _, _ in pairs.rows:
        if g is None or w is None:
            return None
        gs, ws = [], []
        for name in pairs.names:
            got, want = _leaf(g[name]), _leaf(w[name])
            if got is None or want is None:
                return None
            if not _same(got, want):
                gs.append(got.reshape(-1))
                ws.append(want.reshape(-1))
                wrong_names.add(name)
        if not gs:
            continue
        got, want = np.concatenate(gs), np.concatenate(ws)
        if got.size != want.size or got.size < 2:
            return None
        if want.dtype == np.bool_ or np.unique(want).size < max(3, want.size // 2):
            return None  # few distinct values: equal multisets say nothing of the places
        if not _close_values(np.sort(got), np.sort(want)):
            return None
        telling = True
    if not telling:
        return None
    names = [n for n in pairs.names if n in wrong_names]
    where = "" if names == ["result"] else f" (among {_join(names)})"
    return Finding("rearranged", "the right numbers in the wrong places",
                   "every number is right but some sit in the wrong place: check each reshape, "
                   "transpose and concatenation (a reshape does not move axes)",
                   f"your result holds exactly the right numbers, arranged differently{where}")  # fmt: skip


def number_finding(value: float, exercise: Any) -> Finding | None:
    with np.errstate(all="ignore"):
        return _number_finding(value, exercise)


def causes_of_number(value: float, exercise: Any) -> list[Finding]:
    """The explanations of a wrong number that say why (a factor of the count changed, a
    unit, a function), leaving out plain factors such as "half the right value": what a table's
    wrong value is told together with, where the two coincide."""
    with np.errstate(all="ignore"):
        return [f for f in _number_explanations(value, exercise) if f.id not in _PLAIN_FACTORS]


def _number_finding(value: float, exercise: Any) -> Finding | None:
    """What a wrong number is, for a number exercise: its count with one thing changed (with
    ``terms``: ids of :func:`count_variants`), the right value times a meaningful constant
    (``times:<name>``), a function of it (``function:<name>``), or an estimate within 10%
    (``approximate``). Where two of these explain the number alike (a factor of 8 bits that
    is also the batch of 8 counted twice), both are said: one number cannot tell them apart."""
    found = _number_explanations(value, exercise)
    if found:
        return told_together(found)
    return _rounded_or_estimated(value, exercise)


def told_together(alike: Sequence[Finding]) -> Finding:
    """One finding that says each of two or three explanations of one number (the first's id):
    one number cannot tell them apart. A single explanation is returned as it is."""
    if len(alike) == 1:
        return alike[0]
    alike = alike[:3]
    return Finding(
        alike[0].id,
        ", or ".join(f.title for f in alike) + " (one number cannot tell which)",
        "; or: ".join(dict.fromkeys(f.hint for f in alike)),
        "; or ".join(f.seen for f in alike) + " (one number cannot tell which)",
    )


def _number_explanations(value: float, exercise: Any) -> list[Finding]:
    """Every explanation of a wrong number by its formula, a function or a constant factor,
    one per meaning (a title said once)."""
    expected, tolerance = float(exercise.expected), max(exercise.rel_tol, 1e-9)
    found = []
    for tid, what, v in count_variants(
        exercise.terms, dict(exercise.values), exercise.alternatives, swaps=False
    ):  # one number: a factor counted as another is too often chance
        if math.isclose(value, v, rel_tol=tolerance) and not math.isclose(
            v, expected, rel_tol=tolerance
        ):
            found.append(Finding(tid, f"the count {what}", "write the count as a product of its factors (a sum of "
                                 "such products) and check each one against the question",
                                 f"it is the right count {what}"))  # fmt: skip
    with np.errstate(all="ignore"):
        for name, fn, text, title, hint in _FUNCTIONS:
            v = float(fn(np.float64(expected)))
            if (
                math.isfinite(v)
                and not math.isclose(v, expected)
                and math.isclose(value, v, rel_tol=max(tolerance, 1e-6))
            ):
                found.append(Finding(
                    f"function:{name}", title, hint, f"it is {text} of the right value: {title}"
                ))  # fmt: skip
    rounded = []  # told after every exact explanation
    if expected != 0:
        for name, c, what in _constants(_measures_memory(exercise)):
            if math.isclose(value / expected, c, rel_tol=1e-6):
                found.append(Finding(f"times:{name}", what, "compare the unit and the scale the question asks for",
                                     f"it is the right value times {name}: {what}"))  # fmt: skip
            elif _whole_in_a_larger_unit(value, expected, name, c):
                rounded.append(Finding(f"times:{name}", f"{what}, rounded to a whole number",
                                     "compare the unit and the scale the question asks for",
                                     f"it is the right value times {name}, rounded to a whole number: "
                                     f"{what}"))  # fmt: skip
    found += rounded
    meaningful = [f for f in found if f.id not in _PLAIN_FACTORS]
    titles: dict[str, Finding] = {}
    for finding in meaningful or found:  # "half the right value" says less than its cause
        titles.setdefault(finding.title, finding)
    return list(titles.values())


def _whole_in_a_larger_unit(value: float, expected: float, name: str, c: float) -> bool:
    """Whether ``value`` is the right value converted to a larger unit (GB, GiB, ...) and
    rounded to a whole number, as ``// 10**9`` gives."""
    if name not in UNIT_CONSTANTS or c >= 1 or value < 1 or not float(value).is_integer():
        return False
    converted = expected * c
    return value in (math.floor(converted), math.ceil(converted))


_PLAIN_FACTORS = tuple(f"times:{name}" for name in ("-1", "2", "1/2", "3", "1/3", "4", "1/4"))


def _rounded_or_estimated(value: float, exercise: Any) -> Finding | None:
    """The right value stored in low precision, or an estimate within 10% of it."""
    expected = float(exercise.expected)
    for kind in ("float16", "bfloat16"):
        if value != expected and value == _rounded_to(expected, kind):
            return Finding(f"precision:{kind}", f"the right value rounded to {kind}",
                           f"compute in float64 (Python's float): {kind} keeps about three "
                           "significant digits, fewer for a tiny number",
                           f"it is the right value as {kind} stores it")  # fmt: skip
    count = exercise.rel_tol == 0 and expected.is_integer()  # a count is not estimated
    if expected != 0 and not count and 0 < abs(value / expected - 1) < 0.1:
        return Finding("approximate", "an estimate close to the right value, not the value itself",
                       "the question asks for the exact value: derive it (an experiment only estimates it)",
                       f"it is {abs(value / expected - 1):.1%} away from the right value: an estimate? "
                       "the question asks for the value itself")  # fmt: skip
    return None


RELATION_FAMILIES = (
    "outputs_swapped", "times:", "constant:", "function:", "inverted", "numbers_for_bool", "axes",
    "squeezed", "reshaped", "regrouped", "not_broadcast", "reduced:", "off_by_one:", "shifted:",
    "reversed:", "normalised:", "scaled_rows",
    "returns_argument:", "input:", "term:", "missing:", "doubled:", "extra:", "rounding:",
    "int_wrap:", "extra_term:", "masked_rows", "batch_axes", "raised_when:", "zeros", "overflow",
    "precision:", "approximate", "nearly_right", "part:", "rearranged", "missing_axis:",
    "edit:",  # not a relation: an edit of the solution (mha.checks.edits)
)  # fmt: skip


def _is_family(part: str) -> bool:
    return any(part == f or (f.endswith(":") and part.startswith(f)) for f in RELATION_FAMILIES)


def is_relation_id(mistake_id: str) -> bool:
    """Whether an id is one a relation can give (each output's id of a ``+``-joined one).

    A ``+`` joins two outputs' ids only where a family's id follows it; elsewhere it belongs
    to the id (``input:top_k+1``)."""
    parts: list[str] = []
    for piece in mistake_id.split("+"):
        if parts and not _is_family(piece):
            parts[-1] += f"+{piece}"
        else:
            parts.append(piece)
    return all(_is_family(part) for part in parts)
