"""The exercises, one module per chapter: ``chNN_topic.py`` holds chapter NN's.

A module's name is where its exercises' chapter comes from (:func:`chapter_of`), and the
registry, :data:`mha.checks.EXERCISES`, takes every module here in the order of the numbers
(:func:`modules`) and gives each exercise its module's chapter: renumbering a chapter, or
splitting one in two, is a rename of files, and nothing else holds the number.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from types import ModuleType

_NAME = re.compile(r"ch(\d\d)_\w+")


def chapter_of(module_name: str) -> int:
    """The chapter of a chapter module: ``"mha.checks.chapters.ch08_what_heads_learn"`` -> 8."""
    match = _NAME.fullmatch(module_name.rsplit(".", 1)[-1])
    if match is None:
        raise ValueError(
            f"module_name must end in chNN_topic (a chapter module), got {module_name!r}"
        )
    return int(match[1])


def modules() -> list[ModuleType]:
    """Every ``chNN_topic`` module of this package, imported, in chapter order."""
    names = [info.name for info in pkgutil.iter_modules(__path__) if _NAME.fullmatch(info.name)]
    return [importlib.import_module(f"{__name__}.{name}") for name in sorted(names, key=chapter_of)]
