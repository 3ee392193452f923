"""Sphinx extension of the book: author-year citations in round brackets.

``{cite:t}`vaswani2017attention``` reads "Vaswani et al. (2017)", ``{cite:p}`...``` reads
"(Vaswani et al., 2017)", several keys are separated by "; ". Each links to its entry on the
bibliography page (``references.md``, from ``references.bib``), which is labelled the same
way, "[Vaswani et al., 2017]", in the entries' order (by author). The notebook edition writes
the same text, with the same link (``notebook_edition.cited_authors``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pybtex.plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle
from sphinxcontrib.bibtex.plugin import register_plugin
from sphinxcontrib.bibtex.style.referencing import BracketStyle, PersonStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

#: The values of ``bibtex_reference_style`` and ``bibtex_default_style`` in ``_config.yml``.
STYLE = "author_year_round"
ENTRY_STYLE = "plain_author_year"


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


class AuthorYearLabels(BaseLabelStyle):
    """Each entry of the bibliography labelled as it is cited: "Vaswani et al., 2017"."""

    def format_labels(self, sorted_entries):
        from notebook_edition import cited_authors  # _ext/ is on the path of the build

        for entry in sorted_entries:
            yield f"{cited_authors(entry.persons.get('author', []))}, {entry.fields['year']}"


class AuthorYearStyle(PlainStyle):
    """pybtex's plain entries (authors, title, venue, year, DOI or arXiv link), author-year
    labels."""

    default_label_style = "author_year_book"


def setup(app):
    register_plugin("sphinxcontrib.bibtex.style.referencing", STYLE, RoundAuthorYearStyle)
    pybtex.plugin.register_plugin("pybtex.style.labels", "author_year_book", AuthorYearLabels)
    pybtex.plugin.register_plugin("pybtex.style.formatting", ENTRY_STYLE, AuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
