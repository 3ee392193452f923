"""The built website, looked at in a real browser (headless Chromium through Selenium).

Checks what a reader sees: every page of ``_toc.yml`` exists and is reachable from the
sidebar, every chapter shows its figures (loaded images, not broken links), each with its
caption and alt text, and every diagram of ``mha.book.diagrams`` by its figure name; carries an
"Open in Colab" link to its own notebook on the configured repository and branch, shows no
error output, and hides each exercise's solution behind a toggle that opens. The site works
offline: no page loads a script, stylesheet or anything else from another host, and MathJax,
served with the site, has typeset every formula (no raw TeX left). The attention explorer
(``mha.book.explorer``) answers a hover and its menus by changing the lines it draws. A full-page
screenshot of each page is written to ``_build/screenshots/`` for a person to look at.

It needs the site built first (``python3 dev.py book``), Debian's ``chromium`` and
``chromium-driver``, and ``selenium``; it skips cleanly when any of them is missing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlparse

import browser_site
import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
By = pytest.importorskip("selenium.webdriver.common.by").By
WebDriverWait = pytest.importorskip("selenium.webdriver.support.wait").WebDriverWait
ActionChains = pytest.importorskip("selenium.webdriver.common.action_chains").ActionChains
Select = pytest.importorskip("selenium.webdriver.support.select").Select

pytestmark = [
    pytest.mark.skipif(
        browser_site.CHROMIUM is None or browser_site.CHROMEDRIVER is None,
        reason="needs chromium and chromedriver (apt-get install chromium chromium-driver)",
    ),
    pytest.mark.skipif(
        not (SITE / "intro.html").exists(),
        reason="the book is not built (python3 dev.py book)",
    ),
    pytest.mark.skipif(
        (SITE / "intro.html").exists()
        and (ROOT / "_toc.yml").stat().st_mtime > (SITE / "intro.html").stat().st_mtime,
        reason="_toc.yml changed after the last build: rebuild the book (python3 dev.py book)",
    ),
    pytest.mark.slow,
]


def _toc_pages() -> list[str]:
    """Every page of the book in reading order (paths without suffix), root first."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    pages = [toc["root"]]

    def walk(entries):
        for entry in entries:
            if "file" in entry:
                pages.append(entry["file"])
            for key in ("parts", "chapters", "sections"):
                walk(entry.get(key, []))

    walk(toc.get("parts", []) + toc.get("chapters", []))
    return pages


PAGES = _toc_pages()
CHAPTERS = [page for page in PAGES if (ROOT / f"{page}.ipynb").exists()]


def _figure_cells(page: str) -> list:
    """The chapter's code cells whose myst-nb metadata makes their output a figure."""
    cells = nbformat.read(ROOT / f"{page}.ipynb", as_version=4).cells
    return [cell for cell in cells if cell.metadata.get("mystnb", {}).get("figure")]


NAMED_FIGURES = [
    (page, cell.metadata["mystnb"]["figure"]["name"], "diagrams." in cell.source)
    for page in CHAPTERS
    for cell in _figure_cells(page)
    if "name" in cell.metadata["mystnb"]["figure"]
]
DIAGRAMS = [(page, name) for page, name, is_diagram in NAMED_FIGURES if is_diagram]
EXPLORER_PAGES = [
    page for page in CHAPTERS if any("attention_explorer(" in c.source for c in _figure_cells(page))
]


@pytest.fixture(scope="module")
def browser():
    driver = browser_site.chromium()
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def _open(browser, page: str) -> None:
    path = SITE / f"{page}.html"
    assert path.exists(), f"{page} is in _toc.yml but the site has no {path.relative_to(ROOT)}"
    sources = [ROOT / f"{page}{suffix}" for suffix in (".ipynb", ".md")]
    if any(src.exists() and src.stat().st_mtime > path.stat().st_mtime for src in sources):
        pytest.skip(f"the site is older than {page}'s source: rebuild it (python3 dev.py book)")
    browser.get(path.as_uri())


def _screenshot(browser, page: str) -> None:
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1300, min(max(height, 1000), 16000))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{page.replace('/', '__')}.png"))
    browser.set_window_size(1300, 1000)


def _expected_colab_url(page: str) -> str:
    repository = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]
    repo = repository["url"].removeprefix("https://github.com/").rstrip("/")
    return (
        f"https://colab.research.google.com/github/{repo}/blob/{repository['branch']}/{page}.ipynb"
    )


def test_sidebar_links_every_page_in_reading_order(browser):
    _open(browser, PAGES[0])
    _screenshot(browser, PAGES[0])
    links = browser.find_elements(By.CSS_SELECTOR, "nav.bd-docs-nav a.reference.internal")
    targets = [Path(urlparse(link.get_attribute("href")).path).with_suffix("") for link in links]
    expected = [SITE / page for page in PAGES[1:]]
    assert [t for t in targets if t in expected] == expected


@pytest.mark.parametrize("page", CHAPTERS)
def test_chapter_page_renders(browser, page):
    _open(browser, page)
    _screenshot(browser, page)

    assert browser.find_elements(By.CSS_SELECTOR, "main h1"), f"{page}: no title"

    figures = browser.find_elements(By.CSS_SELECTOR, ".cell_output img")
    assert figures, f"{page}: no figure in the executed notebook"
    broken = [
        img.get_attribute("src")
        for img in figures
        if not browser.execute_script("return arguments[0].naturalWidth > 0", img)
    ]
    assert not broken, f"{page}: images that did not load: {broken}"

    errors = browser.find_elements(By.CSS_SELECTOR, ".cell_output .output.traceback")
    assert not errors, f"{page}: a cell shows an error: {errors[0].text[:300]}"

    colab = [
        a.get_attribute("href")
        for a in browser.find_elements(By.CSS_SELECTOR, "a")
        if (a.get_attribute("href") or "").startswith("https://colab.research.google.com/")
    ]
    assert colab == [_expected_colab_url(page)], f"{page}: Colab links {colab}"

    assert browser.find_elements(By.CSS_SELECTOR, "div.math, span.math"), f"{page}: no math"


def _wait_for_mathjax(browser, page: str) -> None:
    WebDriverWait(browser, 20).until(
        lambda _: browser.execute_script(
            "return !!(window.MathJax && MathJax.startup && MathJax.startup.promise)"
        ),
        message=f"{page}: MathJax did not load (it must come with the site: _static/mathjax)",
    )
    outcome = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "MathJax.startup.promise.then(() => done('ok'), (error) => done(String(error)));"
    )
    assert outcome == "ok", f"{page}: MathJax failed: {outcome}"


# Text outside code that still looks like TeX: \( \) \[ \] $$, a command, or $...$.
_RAW_TEX = r"\\[()\[\]]|\$\$|\\[a-zA-Z]{2,}|\$[^$\s][^$]*\$"
_FIND_RAW_TEX = """
const skip = "pre, code, script, style, textarea, mjx-container, .cell_input, .highlight";
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const found = [];
while (walker.nextNode()) {
  const node = walker.currentNode;
  if (node.parentElement.closest(skip)) continue;
  if (new RegExp(arguments[0]).test(node.textContent)) found.push(node.textContent.trim());
}
return found;
"""


@pytest.mark.parametrize("page", PAGES)
def test_every_formula_is_typeset_by_mathjax_from_the_site(browser, page):
    _open(browser, page)
    _wait_for_mathjax(browser, page)
    untypeset = browser.execute_script(
        "return [...document.querySelectorAll('span.math, div.math')]"
        ".filter(e => !e.querySelector('mjx-container')).map(e => e.textContent.slice(0, 80))"
    )
    assert not untypeset, f"{page}: formulas left as TeX: {untypeset[:5]}"
    assert not browser.find_elements(By.CSS_SELECTOR, "mjx-merror"), f"{page}: bad LaTeX"
    raw = browser.execute_script(_FIND_RAW_TEX, _RAW_TEX)
    assert not raw, f"{page}: raw TeX in the text: {[text[:80] for text in raw[:5]]}"


@pytest.mark.parametrize("page", PAGES)
def test_nothing_is_loaded_from_another_host(browser, page):
    _open(browser, page)
    _wait_for_mathjax(browser, page)  # MathJax loads its parts on demand: wait for them
    urls = browser.execute_script(
        "return [...document.querySelectorAll('script[src]')].map(e => e.src)"
        ".concat([...document.querySelectorAll('link[href]')]"
        "  .filter(e => /stylesheet|preload|icon|manifest/.test(e.rel)).map(e => e.href))"
        ".concat(performance.getEntriesByType('resource').map(e => e.name))"
    )
    assert urls, f"{page}: no script or stylesheet at all?"
    foreign = sorted({url for url in urls if urlparse(url).scheme not in ("file", "data", "blob")})
    assert not foreign, f"{page}: loads from other hosts: {foreign}"


@pytest.mark.parametrize("page", CHAPTERS)
def test_every_figure_has_a_caption_and_alt_text(browser, page):
    _open(browser, page)
    for name in [n for p, n, _ in NAMED_FIGURES if p == page]:
        figures = browser.find_elements(By.CSS_SELECTOR, f"figure#{name}")
        assert figures, f"{page}: no figure named {name}"
    images = browser.find_elements(By.CSS_SELECTOR, ".cell_output img")
    assert len(images) >= len(_figure_cells(page)), f"{page}: fewer images than figure cells"
    for image in images:
        alt = (image.get_attribute("alt") or "").strip()
        src = image.get_attribute("src")[:60]
        assert alt and not re.search(r"\.(png|jpe?g|svg)$", alt), f"{page}: {src} has no alt text"
        caption = browser.execute_script(
            "const f = arguments[0].closest('figure');"
            "return f && f.querySelector('figcaption') ? f.querySelector('figcaption').innerText : ''",
            image,
        )
        assert caption.strip(), f"{page}: an image ({src}) is not in a figure with a caption"


@pytest.mark.parametrize(("page", "name"), DIAGRAMS, ids=[name for _, name in DIAGRAMS])
def test_every_diagram_is_shown_in_its_chapter(browser, page, name):
    _open(browser, page)
    figure = browser.find_element(By.CSS_SELECTOR, f"figure#{name}")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", figure)
    image = figure.find_element(By.CSS_SELECTOR, "img")
    assert image.is_displayed() and browser.execute_script(
        "return arguments[0].naturalWidth > 100", image
    ), f"{page}: the diagram {name} did not load"
    assert figure.find_element(By.CSS_SELECTOR, "figcaption").text.strip()


def _drawn_lines(explorer) -> int:
    return len(explorer.find_elements(By.CSS_SELECTOR, "g.mark-rule line, g.mark-rule path"))


@pytest.mark.parametrize("page", EXPLORER_PAGES)
def test_attention_explorer_answers_the_pointer_and_the_menus(browser, page):
    _open(browser, page)
    explorer = browser.find_element(By.CSS_SELECTOR, ".mha-explorer")
    WebDriverWait(browser, 20).until(
        lambda _: explorer.get_attribute("data-ready") == "true",
        message=f"{page}: the explorer was not drawn (is _static/vega/vega-bundle.js there?)",
    )
    assert not explorer.find_element(By.CSS_SELECTOR, "img.mha-explorer-static").is_displayed()
    spec = json.loads(
        browser.execute_script(
            "return arguments[0].querySelector('.mha-explorer-spec').textContent", explorer
        )
    )
    lines = spec["layer"][0]["data"]["values"]

    def expect(count: int, what: str) -> None:
        WebDriverWait(browser, 5).until(
            lambda _: _drawn_lines(explorer) == count,
            message=f"{page}: {what}: {_drawn_lines(explorer)} lines drawn, expected {count}",
        )

    expect(sum(line["layer"] == 0 for line in lines), "all lines of the first layer")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", explorer)
    query = 1  # hover over the second query token
    token = explorer.find_elements(By.CSS_SELECTOR, "g.mark-text.role-mark")[0]
    ActionChains(browser).move_to_element(
        token.find_elements(By.CSS_SELECTOR, "text")[query]
    ).perform()
    expect(sum(line["layer"] == 0 and line["i"] == query for line in lines), "after the hover")
    head = Select(explorer.find_element(By.CSS_SELECTOR, "select[name=head]"))
    head.select_by_index(2)  # the second head (the first entry is "all heads")
    mine = [line for line in lines if line["i"] == query and line["head"] == 1]
    expect(sum(line["layer"] == 0 for line in mine), "after choosing a head")
    layers = Select(explorer.find_element(By.CSS_SELECTOR, "select[name=layer]"))
    if len(layers.options) > 1:
        layers.select_by_index(1)
        expect(sum(line["layer"] == 1 for line in mine), "after choosing the second layer")
    _screenshot(browser, f"{page}-explorer")


@pytest.mark.parametrize("page", CHAPTERS)
def test_exercise_solutions_are_hidden_until_opened(browser, page):
    _open(browser, page)
    exercises = browser.find_elements(By.CSS_SELECTOR, "div.exercise")
    solutions = browser.find_elements(By.CSS_SELECTOR, "div.solution.dropdown")
    if not exercises:
        pytest.skip(f"{page} has no exercises")
    assert len(solutions) == len(exercises), f"{page}: every exercise needs a solution toggle"
    for solution in solutions:
        body = solution.find_element(By.CSS_SELECTOR, "section")
        assert not body.is_displayed(), f"{page}: a solution is visible before it is opened"
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", solution)
        solution.find_element(By.CSS_SELECTOR, "button.toggle-button").click()
        WebDriverWait(browser, 5).until(
            lambda _, body=body: body.is_displayed(),
            message=f"{page}: a solution did not open when its toggle was clicked",
        )
        assert body.find_elements(By.CSS_SELECTOR, "pre"), f"{page}: a solution has no code"
