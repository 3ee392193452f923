"""The bibliography and the citations: every work the book cites is linked to its entry.

- No author-year citation is typed into the prose ("Clark et al. (2019)", "Shazeer 2019"):
  each is the role ``{cite:t}`clark2019what``` or ``{cite:p}`...```, which links to the
  bibliography page (``references.md``, built from ``references.bib``).
- Every cited key is an entry of ``references.bib``, and every entry has a title, authors, a
  year and a link (DOI, arXiv or URL), so that an instructor can hand out the reading.
The notebook edition's form of a citation is tested in ``tests/test_edition.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pybtex.database
import pytest

ROOT = Path(__file__).resolve().parent.parent
BIB = pybtex.database.parse_file(ROOT / "references.bib")
PAGES = sorted((ROOT / "chapters").glob("*.ipynb")) + sorted(ROOT.glob("*.md"))
PAGES = [page for page in PAGES if page.name != "README.md"]

#: "Clark et al. (2019)", "Jain and Wallace, 2019", "(Shazeer 2019)", "Patarasuk & Yuan 2009".
TYPED_CITATION = re.compile(
    r"\b[A-Z][\w'-]+(?:\s+et\s+al\.|\s+(?:and|&)\s+[A-Z][\w'-]+)?,?\s+\(?(?:19|20)\d\d[a-z]?\b"
)
#: A role, a code span or a display formula: what the prose test does not read.
_NOT_PROSE = re.compile(r"\{[\w:+.-]+\}`[^`]*`|`[^`]*`|\$\$.*?\$\$|\$[^$\n]*\$", re.DOTALL)
_CITE_ROLE = re.compile(r"\{cite(?::\w+)?\}`(?P<keys>[^`]*)`")
#: Page -> prose that reads like a citation and is not one, checked by hand ("GPT-2 2019"
#: would be one); none so far.
ALLOWED: dict[str, set[str]] = {}


def _markdown(page: Path) -> list[str]:
    if page.suffix == ".md":
        return [page.read_text()]
    notebook = nbformat.read(page, as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]


def typed_citations(text: str) -> list[str]:
    """The author-year citations typed into ``text`` outside roles, code and formulas."""
    return [match[0] for match in TYPED_CITATION.finditer(_NOT_PROSE.sub(" ", text))]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_no_citation_is_typed_into_the_prose(page):
    allowed = ALLOWED.get(str(page.relative_to(ROOT)), set())
    typed = [
        found for text in _markdown(page) for found in typed_citations(text) if found not in allowed
    ]
    assert typed == [], (
        f"{page.name} types citations into its prose: {typed}; cite with the role "
        "{cite:t}`key` or {cite:p}`key` (keys in references.bib) so that each links to the "
        "bibliography"
    )


def test_the_prose_rule_catches_typed_citations_and_passes_roles():
    assert typed_citations("as Clark et al. (2019) found, and (Shazeer 2019)") == [
        "Clark et al. (2019",
        "Shazeer 2019",
    ]
    assert typed_citations("Jain and Wallace, 2019; Patarasuk & Yuan 2009") == [
        "Jain and Wallace, 2019",
        "Patarasuk & Yuan 2009",
    ]
    assert typed_citations("{cite:t}`clark2019what` found; `Shazeer 2019` in code") == []
    assert typed_citations("as Touvron et al.,\n2023 did") == ["Touvron et al.,\n2023"]
    assert typed_citations("n = 2048 tokens, in 2019 the model") == []


def test_every_cited_key_is_in_the_bibliography():
    missing = {
        (page.name, key.strip())
        for page in PAGES
        for text in _markdown(page)
        for match in _CITE_ROLE.finditer(text)
        for key in match["keys"].split(",")
        if key.strip() not in BIB.entries
    }
    assert missing == set(), f"cited keys missing from references.bib: {sorted(missing)}"


@pytest.mark.parametrize("key", sorted(BIB.entries))
def test_every_entry_has_a_title_authors_a_year_and_a_link(key):
    entry = BIB.entries[key]
    assert entry.fields.get("title"), f"{key} has no title"
    assert entry.persons.get("author"), f"{key} has no authors"
    # a letter after the year tells apart two entries of the same authors and year (2023a)
    assert re.fullmatch(r"(19|20)\d\d[a-z]?", entry.fields.get("year", "")), f"{key} has no year"
    links = {name for name in ("doi", "eprint", "url") if entry.fields.get(name)}
    assert links, f"{key} has no link: give it a doi, an arXiv eprint or a url"
    if "eprint" in links:
        assert entry.fields.get("archiveprefix") == "arXiv", f"{key}: eprint without arXiv"
        assert re.fullmatch(r"\d{4}\.\d{4,5}", entry.fields["eprint"]), f"{key}: arXiv id"


def test_the_bibliography_page_lists_every_entry():
    page = (ROOT / "references.md").read_text()
    assert "```{bibliography}" in page and ":all:" in page


def test_no_two_entries_are_labelled_alike():
    from collections import Counter

    labels = Counter(
        (entry.persons["author"][0].last_names[0], len(entry.persons["author"]) > 2,
         entry.fields["year"])
        for entry in BIB.entries.values()
    )  # fmt: skip
    assert not [label for label, count in labels.items() if count > 1], (
        "two entries would both read 'Author et al., year': give their years a letter (2023a)"
    )
