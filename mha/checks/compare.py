"""Comparing an answer's outcome with the reference's: what is wrong first (type, shape,
NaN, values, dtype, in that order), and the note for a float32 result that drifted to float64."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mha.checks.core import PARAM_TYPES, Foreign, Outcome, short

DRIFT_NOTE = (
    "the inputs are float32 but your result is float64. The values are right, so this passes; "
    "under NumPy 2 a NumPy float64 scalar such as np.sqrt(d_k) promotes float32 arrays. To keep "
    "float32, divide by math.sqrt(d_k) (a Python float) or cast back with .astype(q.dtype)."
)


class Problem(NamedTuple):
    """The first thing wrong with a result: which aspect, a message, and an optional hint."""

    aspect: str  # raised, mutated, type, shape, nonfinite, values, dtype
    message: str
    hint: str | None = None


def describe_error(error: tuple[str, str]) -> Problem:
    """The answer's own exception, its type and message shown (an empty message is said so)."""
    type_name, text = error
    message = f"raised {type_name}: {short(text, 200)}" if text.strip() else f"raised {type_name}"
    if type_name == "NotImplementedError" and not text.strip():
        return Problem("raised", message, "part of the function is still a stub")
    if "broadcast" in text or "matmul" in text or "shapes" in text:
        return Problem(
            "raised",
            message,
            "a shape mismatch: print the shapes of your arrays; reductions need keepdims=True "
            "to broadcast back, and q @ k needs k's last two axes swapped",
        )
    return Problem("raised", message)


def close(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal up to the rounding of the less precise of the two dtypes (NaN equals NaN)."""
    loose = any(x.dtype in (np.float32, np.float16) for x in (a, b))
    rtol, atol = (1e-4, 1e-5) if loose else (1e-6, 1e-9)
    try:
        a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    except (TypeError, ValueError):  # complex numbers where reals are expected
        return False
    return bool(np.allclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True))


def _as_number_array(x: Any) -> np.ndarray | None:
    """A numeric/bool ndarray for an array or a Python number; None for anything else."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, bool | int | float):
        return np.asarray(x)
    return None


LOW_PRECISION = {
    "float16": "float16 keeps about 3 significant digits (11 bits)",
    "bfloat16": "bfloat16 keeps about 2 significant digits (8 bits)",
}


def _not_an_array(name: str, got: Any, want: np.ndarray) -> Problem:
    if isinstance(got, Foreign) and got.type_name == "torch.Tensor":
        if got.text.endswith("torch.bfloat16"):
            return Problem(
                "dtype",
                f"{name} is a torch.bfloat16 tensor, expected {want.dtype} like the inputs: "
                f"{LOW_PRECISION['bfloat16']}",
                "compute in the inputs' dtype, or cast the result back (.to(q.dtype))",
            )
        return Problem(
            "type",
            f"{name} is a torch.Tensor ({got.text})",
            "this exercise works on NumPy arrays; use np functions (or .numpy() at the end)",
        )
    if isinstance(got, Foreign) and got.type_name == "numpy.ndarray":
        return Problem(
            "type",
            f"{name} is a NumPy array ({got.text}), expected a torch tensor",
            "this exercise works in torch: stay in torch (~mask, torch.where, ...) or convert "
            "back with torch.from_numpy",
        )
    shown = got.text if isinstance(got, Foreign) else short(got)
    type_name = got.type_name if isinstance(got, Foreign) else type(got).__name__
    what = "a number" if want.ndim == 0 else "a NumPy array"
    return Problem("type", f"{name} should be {what}, got {type_name} {shown}")


def array_problem(name: str, got: Any, want: np.ndarray) -> tuple[Problem | None, str | None]:
    """(the problem with ``got``, or None; a note for a passing result, or None)."""
    array = _as_number_array(got)
    if array is None or (array.ndim > 0 and not isinstance(got, np.ndarray)):
        return _not_an_array(name, got, want), None
    if array.shape != want.shape:
        return Problem("shape", f"{name} has shape {array.shape}, expected {want.shape}"), None
    if want.dtype == np.bool_:
        if array.dtype != np.bool_:
            return Problem(
                "dtype",
                f"{name} has dtype {array.dtype}, expected bool",
                "build the mask from a comparison (e.g. cols <= rows), or convert with .astype(bool)",
            ), None
        if not np.array_equal(array, want):
            wrong = int(np.sum(array != want))
            return Problem(
                "values", f"{name} has True/False in the wrong places ({wrong} entries)"
            ), None
        return None, None
    if array.dtype.kind not in "iufc" or (array.dtype.kind == "c" and want.dtype.kind != "c"):
        return Problem("dtype", f"{name} has dtype {array.dtype}, expected {want.dtype}"), None
    if array.dtype == np.float16 and want.dtype.kind == "f" and want.dtype != np.float16:
        return Problem(
            "dtype",
            f"{name} has dtype float16, expected {want.dtype} like the inputs: "
            f"{LOW_PRECISION['float16']}",
            "compute in the inputs' dtype (or cast back with .astype(q.dtype)): float16 rounds "
            "every number to about 3 significant digits and overflows above 65504",
        ), None
    finite = np.isfinite(want)
    if not np.all(np.isfinite(array)[finite]):
        return Problem(
            "nonfinite", f"{name} contains NaN or inf where the right answer is finite"
        ), None
    if not close(array, want):
        difference = np.abs(array.astype(np.float64) - want.astype(np.float64))
        if np.isnan(difference).any():
            return Problem("values", f"{name} has the right shape but NaN in other places"), None
        return Problem(
            "values",
            f"{name} has the right shape but wrong values (off by up to {difference.max():.3g})",
        ), None
    if array.dtype == want.dtype or (want.ndim == 0 and not isinstance(got, np.ndarray)):
        return None, None
    if want.dtype == np.float32 and array.dtype == np.float64:
        return None, DRIFT_NOTE
    if want.dtype.kind == "f" and array.dtype.kind in "iu":
        return Problem(
            "dtype", f"{name} has an integer dtype {array.dtype}, expected {want.dtype}"
        ), None
    if want.dtype.kind in "iu" and array.dtype.kind in "iu":
        return None, None
    hint = None
    if want.dtype == np.float64 and array.dtype in (np.float32, np.float16):
        hint = "the result is asked in float64: compute in float64 and do not cast it down"
    return Problem("dtype", f"{name} has dtype {array.dtype}, expected {want.dtype}", hint), None


def _number_problem(name: str, got: Any, want: int | float) -> Problem | None:
    array = _as_number_array(got)
    if array is None or array.ndim != 0 or array.dtype == np.bool_ or isinstance(got, bool):
        shown = got.text if isinstance(got, Foreign) else short(got)
        type_name = got.type_name if isinstance(got, Foreign) else type(got).__name__
        return Problem("type", f"{name} should be a number, got {type_name} {shown}")
    number = array.item()
    if isinstance(want, int) and not isinstance(want, bool):
        if float(number) != want:
            return Problem("values", f"{name} is {short(number)}, not the right number")
        if array.dtype.kind == "f":
            return Problem(
                "type",
                f"{name} is {short(number)}, the right value but a float where a count (an int) "
                "is asked",
                "** 2.0, / and math.sqrt give floats (which round counts above 2^53): use **2, "
                "//, math.isqrt, or int(...)",
            )
        return None
    if not np.isfinite(number) and np.isfinite(want):
        return Problem("nonfinite", f"{name} is {number} where the right answer is finite")
    if not close(np.asarray(number, dtype=np.float64), np.asarray(want, dtype=np.float64)):
        return Problem("values", f"{name} is {short(number)}, not the right number")
    return None


def value_problem(name: str, got: Any, want: Any) -> tuple[Problem | None, str | None]:
    """Like :func:`array_problem` for any wire-safe ``want`` (array, number, bool, params)."""
    if isinstance(want, np.ndarray):
        return array_problem(name, got, want)
    if isinstance(want, bool):
        same = isinstance(got, bool | np.ndarray) and np.asarray(got).dtype == np.bool_
        if not same or np.asarray(got).ndim != 0:
            return Problem("type", f"{name} should be True or False, got {short(got)}"), None
        ok = bool(got) == want
        return (None if ok else Problem("values", f"{name} is {bool(got)}, not {want}")), None
    if isinstance(want, int | float):
        return _number_problem(name, got, want), None
    if isinstance(want, PARAM_TYPES):
        if type(got) is not type(want):
            shown = got.text if isinstance(got, Foreign) else short(got)
            return Problem(
                "type",
                f"{name} should be an {type(want).__name__}, got {type(got).__name__} {shown}",
            ), None
        notes = []
        for f in dataclasses.fields(want):
            g, w = getattr(got, f.name), getattr(want, f.name)
            if w is None or not isinstance(w, np.ndarray):
                if w is None and g is not None:
                    return Problem(
                        "values",
                        f"{name}.{f.name} is {short(g)}, expected None (the module "
                        "has no such parameter: leave it out rather than fill it with zeros)",
                    ), None
                if w is not None and (isinstance(g, np.ndarray) or g != w):
                    return Problem(
                        "values", f"{name}.{f.name} is {short(g)}, expected {short(w)}"
                    ), None
                continue
            if g is None:
                return Problem("values", f"{name}.{f.name} is None, expected an array"), None
            problem, note = array_problem(f"{name}.{f.name}", g, w)
            if problem is not None:
                return problem, None
            notes.append(note)
        return None, next((n for n in notes if n), None)
    raise TypeError(f"the reference returned {type(want).__name__}, which checks cannot compare")


def outcome_problem(
    got: Outcome, want: Outcome, output_names: Sequence[str] | None
) -> tuple[Problem | None, str | None]:
    """The first thing wrong with the answer's outcome on one case, and a note if it passes."""
    if want.error is not None:
        raise RuntimeError(f"the reference failed on its own test input: {want.error}")
    if got.error is not None:
        return describe_error(got.error), None
    if got.mutated:
        return Problem(
            "mutated",
            f"the function changed its argument {got.mutated} in place",
            "work on new arrays (x = x - m, not x -= m); the caller's arrays must not change",
        ), None
    if output_names is None:
        return value_problem("the result", got.value, want.value)
    names = output_names
    if not isinstance(got.value, tuple | list) or len(got.value) != len(names):
        shown = got.value.text if isinstance(got.value, Foreign) else short(got.value)
        kind = got.value.type_name if isinstance(got.value, Foreign) else type(got.value).__name__
        return Problem(
            "type",
            f"expected a tuple ({', '.join(names)}), got {kind} {shown}",
            f"end with `return {', '.join(names)}`",
        ), None
    notes = []
    for name, g, w in zip(names, got.value, want.value, strict=True):
        problem, note = value_problem(name, g, w)
        if problem is not None:
            return problem, None
        notes.append(note)
    return None, next((n for n in notes if n), None)


def same_value(a: Any, b: Any) -> bool:
    """Both the same structure and (up to tolerance) values; bools must match exactly."""
    if isinstance(a, tuple | list) or isinstance(b, tuple | list):
        return (
            isinstance(a, tuple | list)
            and isinstance(b, tuple | list)
            and len(a) == len(b)
            and all(same_value(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, PARAM_TYPES) or isinstance(b, PARAM_TYPES):
        return type(a) is type(b) and all(
            same_value(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    if a is None or b is None:
        return a is None and b is None
    x, y = _as_number_array(a), _as_number_array(b)
    if x is None or y is None or x.shape != y.shape:
        return False
    if x.dtype == np.bool_ or y.dtype == np.bool_:
        return x.dtype == y.dtype and np.array_equal(x, y)
    if x.dtype.kind in "iu" and y.dtype.kind in "iu":  # counts are exact
        return bool(np.array_equal(x, y))
    return close(x, y)


def _words(message: str) -> set[str]:
    return set(re.findall(r"[a-z_]{3,}", message.lower()))


def same_error(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """The same exception type and a matching message: the same words, numbers and shapes
    aside, or most of them ("tuple index out of range" and "list index out of range"); two
    messages that both say that shapes do not broadcast match."""
    if a[0] != b[0]:
        return False
    if all("broadcast" in message for message in (a[1], b[1])):  # shapes that do not fit,
        return True  # said by NumPy or by a function that checks them first
    x, y = _words(a[1]), _words(b[1])
    if not x and not y:
        return True
    return len(x & y) >= 0.5 * len(x | y)


def same_outcome(a: Outcome, b: Outcome) -> bool:
    """Both raised the same error (type and message), or both returned the same structure
    and (up to tolerance) values."""
    if (a.error is None) != (b.error is None):
        return False
    if a.error is not None:
        return same_error(a.error, b.error)
    return same_value(a.value, b.value)
