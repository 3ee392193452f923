"""The forms a typed answer takes, for prediction and experiment exercises: a number in a range,
a whole number, one of a few words, a list of whole numbers.

A form reads a wire-safe value (:meth:`read`: the value in a plain Python form, or raises
:class:`NotThatForm` with what was expected), says whether two values are close enough to count
as the same (:meth:`close`) and how far apart they are (:meth:`distance`, to find the nearest of
several values), and shows a value in a message (:meth:`show`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mha.checks.core import Foreign, real_number, short


class NotThatForm(ValueError):
    """The answer is not of the form asked for; the message says what was expected."""


def _shown(value: Any) -> str:
    if isinstance(value, Foreign):
        return f"{value.type_name} {value.text}"
    return f"{type(value).__name__} {short(value)}"


def is_stub(value: Any) -> bool:
    """``...`` (or a value holding it, as the stub ``(SHIFT, ...)``): not answered yet."""
    if isinstance(value, Foreign):
        return value.text == "Ellipsis"
    if isinstance(value, tuple | list):
        return any(is_stub(item) for item in value)
    return value is None or value is Ellipsis


@dataclass(frozen=True)
class Number:
    """A real number in ``[low, high]`` (a number past a bound by float64 rounding, such as a
    cosine of 1.0000000000000002, is read as the bound). Two numbers are close when they differ
    by at most ``within``, or, with ``factor``, when the larger is at most ``factor`` times the
    smaller; numbers at or below ``zero`` in size count as zero (and are close to each
    other)."""

    low: float = -math.inf
    high: float = math.inf
    within: float = 0.0
    factor: float | None = None
    zero: float = 0.0

    def read(self, value: Any) -> float:
        number = real_number(value)
        if number is None or not math.isfinite(number):
            raise NotThatForm(f"expected a number, got {_shown(value)}")
        for bound in (self.low, self.high):
            if math.isfinite(bound) and math.isclose(number, bound, rel_tol=1e-12, abs_tol=1e-12):
                number = min(max(number, self.low), self.high)  # past it by rounding only
        if not self.low <= number <= self.high:
            raise NotThatForm(
                f"expected a number from {self.low:g} to {self.high:g}, got {number:g}"
            )
        return number

    def _is_zero(self, x: float) -> bool:
        return abs(x) <= self.zero

    def close(self, a: float, b: float) -> bool:
        if self._is_zero(a) or self._is_zero(b):
            return self._is_zero(a) and self._is_zero(b)
        if self.factor is not None:
            return a * b > 0 and max(abs(a), abs(b)) <= self.factor * min(abs(a), abs(b))
        return abs(a - b) <= self.within

    def distance(self, a: float, b: float) -> float:
        if self.factor is not None:
            small = max(self.zero, 1e-300)
            return abs(math.log(max(abs(a), small)) - math.log(max(abs(b), small)))
        return abs(a - b)

    def show(self, x: float) -> str:
        if self._is_zero(x) and self.zero:
            return "0" if x == 0 else f"{x:.1e} (zero up to rounding)"
        return f"{x:.3g}" if abs(x) < 1e5 else f"{x:,.0f}"


@dataclass(frozen=True)
class Whole:
    """A whole number (an int, or a float with no fraction) in ``[low, high]``; close when
    equal."""

    low: int = 0
    high: int = 2**63 - 1

    def read(self, value: Any) -> int:
        number = real_number(value)
        if number is None or not math.isfinite(number) or number != int(number):
            raise NotThatForm(f"expected a whole number, got {_shown(value)}")
        if not self.low <= number <= self.high:
            raise NotThatForm(
                f"expected a whole number from {self.low} to {self.high}, got {number:g}"
            )
        return int(number)

    def close(self, a: int, b: int) -> bool:
        return a == b

    def distance(self, a: int, b: int) -> float:
        return abs(a - b)

    def show(self, x: int) -> str:
        return f"{x:,}"


@dataclass(frozen=True)
class Choice:
    """One of ``options`` (words; case and surrounding spaces do not matter)."""

    options: tuple[str, ...]

    def read(self, value: Any) -> str:
        if isinstance(value, str) and value.strip().lower() in self.options:
            return value.strip().lower()
        listed = ", ".join(repr(o) for o in self.options)
        raise NotThatForm(f"expected one of {listed}, got {_shown(value)}")

    def close(self, a: str, b: str) -> bool:
        return a == b

    def distance(self, a: str, b: str) -> float:
        return 0.0 if a == b else 1.0

    def show(self, x: str) -> str:
        return repr(x)


@dataclass(frozen=True)
class WholeList:
    """A list (or tuple, or 1-D integer array) of ``length`` whole numbers; close when equal."""

    length: int

    def read(self, value: Any) -> list[int]:
        items = value.tolist() if isinstance(value, np.ndarray) and value.ndim == 1 else value
        whole = Whole(-(2**63), 2**63 - 1)
        try:
            if not isinstance(items, tuple | list) or len(items) != self.length:
                raise NotThatForm
            return [whole.read(item) for item in items]
        except NotThatForm:
            raise NotThatForm(
                f"expected a list of {self.length} whole numbers, got {_shown(value)}"
            ) from None

    def close(self, a: list[int], b: list[int]) -> bool:
        return list(a) == list(b)

    def distance(self, a: list[int], b: list[int]) -> float:
        return float(sum(x != y for x, y in zip(a, b, strict=True)))

    def show(self, x: list[int]) -> str:
        return str(list(x))


Form = Number | Whole | Choice | WholeList
