"""In the sandbox: what stands in for what an exercise's view leaves out (standard library only).

The view of the package (:mod:`mha.grade.view`) replaces a reference, and everything that
uses it, by an :class:`Unavailable` placeholder; a third-party package the exercise does not
need, and the grader's own modules, cannot be imported (:class:`HiddenModules`). Using any of
them raises :class:`NotAvailableWhileGraded`, whose message says what is missing and why, so
that a student reads "mha.softmax is not available while 'softmax' is graded: it is the
exercise's reference" rather than a bare ``NameError``. None of this protects anything: what
is left out is not in the sandbox at all; these only explain its absence.
"""

from __future__ import annotations

import importlib.abc
import sys


class NotAvailableWhileGraded(ModuleNotFoundError):
    """Something the answer used is left out of the sandbox while this exercise is graded."""


class Unavailable:
    """A placeholder: calling it, reading an attribute or subclassing it raises."""

    def __init__(self, what: str, why: str) -> None:
        self._message = f"{what} is {why}"

    def _raise(self, *args, **kwargs):
        raise NotAvailableWhileGraded(self._message)

    __call__ = _raise

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)  # copy, pickle and inspect ask for these
        raise NotAvailableWhileGraded(self._message)

    def __mro_entries__(self, bases):
        raise NotAvailableWhileGraded(self._message)

    __getitem__ = __setitem__ = __delitem__ = __iter__ = __len__ = __contains__ = _raise
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __matmul__ = _raise
    __rmatmul__ = __truediv__ = __rtruediv__ = __pow__ = __neg__ = __array__ = _raise
    __enter__ = __exit__ = __bool__ = __index__ = __float__ = __int__ = _raise

    def __repr__(self) -> str:
        return f"<unavailable: {self._message}>"


def unavailable(what: str, why: str) -> Unavailable:
    return Unavailable(what, why)


class HiddenModules(importlib.abc.MetaPathFinder):
    """Refuses to import the hidden top-level packages, and the grader's own modules, with a
    message that says why."""

    def __init__(self, hidden: dict[str, str]) -> None:
        self.hidden = hidden  # top-level or dotted prefix -> why

    def find_spec(self, fullname, path, target=None):
        for prefix, why in self.hidden.items():
            if fullname == prefix or fullname.startswith(prefix + "."):
                raise NotAvailableWhileGraded(f"{fullname} is {why}", name=fullname)
        return None


def hide(hidden: dict[str, str]) -> None:
    sys.meta_path.insert(0, HiddenModules(hidden))
