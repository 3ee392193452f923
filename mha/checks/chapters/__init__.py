"""The exercises, one module per chapter: ``chNN_topic.py`` holds chapter NN's.

A module's name is where its exercises' chapter comes from (:func:`number`), and the
registry, :data:`mha.checks.EXERCISES`, takes every module here in the order of the numbers
(:func:`modules`): renumbering a chapter, or splitting one in two, is a rename of files.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from types import ModuleType

_NAME = re.compile(r"ch(\d+)_\w+")


def number(module_name: str) -> int:
    """The chapter of a module of exercises: ``mha.checks.chapters.ch04_output`` -> 4."""
    match = _NAME.fullmatch(module_name.rsplit(".", 1)[-1])
    if match is None:
        raise ValueError(f"{module_name} is not named chNN_topic, so it has no chapter")
    return int(match.group(1))


def modules() -> list[ModuleType]:
    """Every ``chNN_topic`` module of this package, imported, in chapter order."""
    names = [info.name for info in pkgutil.iter_modules(__path__) if _NAME.fullmatch(info.name)]
    return [importlib.import_module(f"{__name__}.{name}") for name in sorted(names, key=number)]
