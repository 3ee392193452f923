"""Sphinx extension of the book: author-year citations in round brackets.

``{cite:t}`vaswani2017attention``` reads "Vaswani et al. (2017)", ``{cite:p}`...``` reads
"(Vaswani et al., 2017)", several keys are separated by "; ". Each links to its entry on the
bibliography page (``references.md``, from ``references.bib``). The notebook edition writes
the same text, with the same link (``notebook_edition.citation_text``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sphinxcontrib.bibtex.plugin import register_plugin
from sphinxcontrib.bibtex.style.referencing import BracketStyle, PersonStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

#: The value of ``bibtex_reference_style`` in ``_config.yml``.
STYLE = "author_year_round"


def _round() -> BracketStyle:
    return BracketStyle(left="(", right=")", sep="; ")


@dataclass
class RoundAuthorYearStyle(AuthorYearReferenceStyle):
    """Author-year references in round brackets, "et al." from three authors on."""

    bracket_textual: BracketStyle = field(default_factory=_round)
    bracket_parenthetical: BracketStyle = field(default_factory=_round)
    bracket_author: BracketStyle = field(default_factory=_round)
    bracket_label: BracketStyle = field(default_factory=_round)
    bracket_year: BracketStyle = field(default_factory=_round)
    person: PersonStyle = field(default_factory=lambda: PersonStyle(other=" et al."))


def setup(app):
    register_plugin("sphinxcontrib.bibtex.style.referencing", STYLE, RoundAuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
