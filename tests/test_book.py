"""The built website, looked at in a real browser (headless Chromium through Selenium).

Checks what a reader sees: every page of ``_toc.yml`` exists and is reachable from the
sidebar, every chapter shows its figures (loaded images, not broken links), carries an
"Open in Colab" link to its own notebook on the configured repository and branch, shows no
error output, renders its formulas when MathJax can load, and hides each exercise's solution
behind a toggle that opens. A full-page screenshot of each page is written to
``_build/screenshots/`` for a person to look at.

It needs the site built first (``python3 dev.py book``), Debian's ``chromium`` and
``chromium-driver``, and ``selenium``; it skips cleanly when any of them is missing.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
By = pytest.importorskip("selenium.webdriver.common.by").By
WebDriverWait = pytest.importorskip("selenium.webdriver.support.wait").WebDriverWait

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None or CHROMEDRIVER is None,
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


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--window-size=1300,1000",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
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
    mathjax_ran = browser.execute_script(
        "return typeof MathJax !== 'undefined' && !!MathJax.startup && !!MathJax.typesetPromise"
    )
    if mathjax_ran:  # MathJax loads from its CDN: only online
        browser.execute_script("return MathJax.startup.promise")
        assert browser.find_elements(By.CSS_SELECTOR, "mjx-container")
        assert not browser.find_elements(By.CSS_SELECTOR, "mjx-merror"), f"{page}: bad LaTeX"


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
