"""The exercises, one module per chapter (``chNN_topic.py``); see :mod:`mha.checks`.

A module's chapter is the number in its name, :func:`chapter_of` ``(__name__)``: renaming a
module renumbers its exercises, and nothing else holds the number.
"""

from __future__ import annotations

import re


def chapter_of(module_name: str) -> int:
    """The chapter of a chapter module: ``"mha.checks.chapters.ch08_what_heads_learn"`` -> 8."""
    match = re.fullmatch(r"(?:.*\.)?ch(\d\d)_\w+", module_name)
    if match is None:
        raise ValueError(
            f"module_name must end in chNN_topic (a chapter module), got {module_name!r}"
        )
    return int(match[1])
