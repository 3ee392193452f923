"""The built website, looked at in a real browser (headless Chromium through Selenium).

Checks what a reader sees: every page of ``_toc.yml`` exists and is reachable from the
sidebar, every chapter shows its figures (loaded images, not broken links), each with its
caption and alt text, and every diagram of ``mha.book.diagrams`` by its figure name; carries an
"Open in Colab" link to its notebook edition on the configured repository, shows no
error output, and hides each exercise's solution behind a toggle that opens. The site works
offline: no page loads a script, stylesheet or anything else from another host, and MathJax,
served with the site, has typeset every formula (no raw TeX left). The attention explorer
(``mha.book.explorer``) answers a hover and its menus by changing the lines it draws. A full-page
screenshot of each page is written to ``_build/screenshots/`` for a person to look at.

Every page also fits a laptop (1280 px) and a phone (390 px): the page itself never scrolls
sideways, nothing is cut off where no gesture reaches it, every figure's text (read from its
SVG as shown, or from the explorer's drawing) is at least 9 CSS px, a box that scrolls
sideways fades out on the side where more is hidden, and at 1280 px a code line of the
linter's length fits and every figure fits its column; the explorer fits a phone. In print
media solutions stay closed, hints print as shown, figures are not split and the explorer
prints its picture. No page logs a console error, and no legend tells its entries apart by
colour alone (``_ext/page_fit.py`` and ``mha.book.plot`` make this so).

It needs the site built first (``python3 dev.py book``), Debian's ``chromium`` and
``chromium-driver``, and ``selenium``; it skips cleanly when any of them is missing.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

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
    """The chapter's notebook edition, published with the site on gh-pages (README)."""
    repository = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]
    repo = repository["url"].removeprefix("https://github.com/").rstrip("/")
    return f"https://colab.research.google.com/github/{repo}/blob/gh-pages/notebooks/{page}.ipynb"


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
    if not browser.execute_script("return document.querySelectorAll('.math').length"):
        return  # Sphinx adds MathJax only to pages with formulas (the references page has none)
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


# --- A page that fits a laptop (1280 px), a phone (390 px) and a printout ------------------
#
# Every page of the book is opened at both widths. Figures are found on the built page (every
# image and inline SVG of the article), never from a list, so new chapters are covered.

WIDTHS = {"laptop": 1280, "phone": 390}
SMALLEST_TEXT_PX = 9.0
CODE_LINE = 88  # ruff's line length for the notebooks: such a line must fit at 1280 px


@pytest.fixture(params=list(WIDTHS))
def width(browser, request):
    """The window at a laptop's or a phone's width (a phone's viewport, touch and all)."""
    pixels = WIDTHS[request.param]
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": pixels, "height": 900, "deviceScaleFactor": 1, "mobile": pixels < 600},
    )
    yield pixels
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _settle(browser, page: str) -> None:
    """Wait for what changes the layout after load: MathJax, the explorers; then re-mark."""
    _wait_for_mathjax(browser, page)
    WebDriverWait(browser, 20).until(
        lambda _: browser.execute_script(
            "return [...document.querySelectorAll('.mha-explorer')]"
            ".every(e => e.dataset.ready === 'true')"
        ),
        message=f"{page}: an attention explorer was not drawn",
    )
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "if (window.pageFitMarkAll) pageFitMarkAll();"
        "requestAnimationFrame(() => requestAnimationFrame(() => done()));"
    )


# The smallest text of an SVG as shown: each element's own text, its font size times the
# scale from its coordinates to the page's CSS px (rotation included).
_SMALLEST_SVG_TEXT = """
function smallestText(svg) {
  let smallest = Infinity, text = "";
  for (const el of svg.querySelectorAll("text, tspan")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (!own || (!box.width && !box.height)) continue;
    const m = el.getScreenCTM();
    const size = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b);
    if (size < smallest) [smallest, text] = [size, el.textContent.trim()];
  }
  return [smallest, text];
}
"""

# An SVG file shown by an <img>: drawn inline at the image's rendered width, then measured.
_SMALLEST_TEXT_AT_WIDTH = (
    _SMALLEST_SVG_TEXT
    + """
const [source, width] = arguments;
const box = document.createElement("div");
box.style.cssText = "position: absolute; left: -20000px; top: 0";
box.innerHTML = source;
document.body.appendChild(box);
const svg = box.querySelector("svg");
const [, , w, h] = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
svg.setAttribute("width", width);
svg.setAttribute("height", (width * h) / w);
const result = smallestText(svg);
box.remove();
return result;
"""
)

_SHOWN_FIGURES = """
const article = document.querySelector(".bd-article");
const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
return {
  images: [...article.querySelectorAll("img")].filter(shown).map((img) => ({
    src: img.currentSrc || img.src,
    width: img.getBoundingClientRect().width,
    alt: (img.alt || "").slice(0, 60),
  })),
  drawings: [...article.querySelectorAll(".mha-explorer-view svg")].filter(shown).length,
};
"""


# Content that no gesture reaches: a piece of text, an image, a drawing or a formula that lies
# outside a box which hides its overflow (and does not scroll), or outside the window (the
# page itself must not scroll sideways). Inside a box that scrolls, the box is what must be
# reachable. Text hidden on purpose for screen readers (clip / clip-path, e.g. MathJax's
# assistive MathML) and text cut with a visible ellipsis are not counted.
_UNREACHABLE = """
const article = document.querySelector(".bd-article");
const styles = new Map();
const style = (el) => styles.get(el) || styles.set(el, getComputedStyle(el)).get(el);
const scrolls = (s, axis) => ["auto", "scroll"].includes(axis === "x" ? s.overflowX : s.overflowY);
const clips = (s, axis) => ["hidden", "clip"].includes(axis === "x" ? s.overflowX : s.overflowY);
function hiddenOnPurpose(el) {
  for (let a = el; a && a !== document.body; a = a.parentElement) {
    const s = style(a);
    if (s.clip !== "auto" || s.clipPath !== "none" || s.visibility === "hidden") return true;
    if (s.textOverflow === "ellipsis") return true;
  }
  return false;
}
function boxes() {
  const found = [];
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim() || node.parentElement.closest("svg, mjx-container")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) {
      found.push([node.parentElement, node.parentElement, rect, node.textContent]);
    }
  }
  for (const el of article.querySelectorAll("img, svg, canvas, textarea, select, mjx-math")) {
    if (el.parentElement.closest("svg")) continue;
    for (const rect of el.getClientRects()) found.push([el, el.parentElement, rect, el.tagName]);
  }
  return found.filter(([, , r]) => r.width > 0.5 && r.height > 0.5);
}
const viewport = { left: 0, top: -Infinity, right: document.documentElement.clientWidth, bottom: Infinity };
const cut = [];
for (const [el, first, rect, what] of boxes()) {  // first: the innermost box around it
  if (hiddenOnPurpose(el)) continue;
  let box = rect, clipper = null;
  for (let a = first; a && !clipper; a = a.parentElement) {
    const s = style(a);
    const r = a.getBoundingClientRect();
    const inner = {
      left: r.left + a.clientLeft, right: r.left + a.clientLeft + a.clientWidth,
      top: r.top + a.clientTop, bottom: r.top + a.clientTop + a.clientHeight,
    };
    const outX = box.left < inner.left - 1 || box.right > inner.right + 1;
    const outY = box.top < inner.top - 1 || box.bottom > inner.bottom + 1;
    if ((outX && clips(s, "x")) || (outY && clips(s, "y"))) clipper = a;
    else if ((outX && scrolls(s, "x")) || (outY && scrolls(s, "y"))) box = r;
  }
  if (!clipper && (box.left < viewport.left - 1 || box.right > viewport.right + 1)) {
    clipper = document.documentElement;
  }
  if (clipper) {
    const name = clipper.tagName.toLowerCase() + [...clipper.classList].map((c) => "." + c).join("");
    cut.push(`${String(what).trim().slice(0, 50)} (cut by ${name})`);
  }
}
return cut;
"""


def _shown_text_sizes(browser, page: str) -> list[tuple[str, float, str]]:
    """(figure, its smallest text in CSS px as shown, that text) for each figure on the page.

    An ``<img>`` must be an SVG whose text is text (``mha.book.plot.setup_figures``): a
    bitmap's text size cannot be read back. Data-URI images are decoded the same way.
    """
    shown = browser.execute_script(_SHOWN_FIGURES)
    sizes = []
    for image in shown["images"]:
        src, what = image["src"], image["alt"] or image["src"][-40:]
        parsed = urlparse(src)
        if parsed.scheme == "data":
            header, _, payload = src.partition(",")
            assert header.startswith("data:image/svg+xml"), f"{page}: {what}: not an SVG"
            svg = base64.b64decode(payload).decode() if ";base64" in header else unquote(payload)
        else:
            assert Path(parsed.path).suffix == ".svg", (
                f"{page}: {what} ({Path(parsed.path).name}) is a bitmap: draw it as SVG with its "
                "text kept as text (mha.book.plot.setup_figures) so that its text is legible and "
                "measurable"
            )
            svg = Path(unquote(parsed.path)).read_text(encoding="utf-8")
        size, text = browser.execute_script(_SMALLEST_TEXT_AT_WIDTH, svg, image["width"])
        sizes.append((what, size, text))
    for index in range(shown["drawings"]):
        size, text = browser.execute_script(
            _SMALLEST_SVG_TEXT
            + "return smallestText(document.querySelectorAll('.mha-explorer-view svg')[arguments[0]]);",
            index,
        )
        sizes.append((f"explorer {index + 1}", size, text))
    return sizes


_SIDEWAYS = """
const article = document.querySelector(".bd-article");
const found = [];
for (const el of article.querySelectorAll("*")) {
  const s = getComputedStyle(el);
  if (!["auto", "scroll"].includes(s.overflowX) || el.scrollWidth <= el.clientWidth + 1) continue;
  const lines = el.tagName === "PRE" ? el.textContent.split("\\n") : [];
  found.push({
    what: el.tagName.toLowerCase() + [...el.classList].map((c) => "." + c).join(""),
    text: el.textContent.trim().slice(0, 60),
    longest: Math.max(0, ...lines.map((line) => [...line].length)),
    figure: el.classList.contains("mha-figure-box"),
    cue: el.dataset.scroll || "",
    mask: s.maskImage !== "none" || (s.webkitMaskImage || "none") !== "none",
  });
}
return found;
"""


@pytest.mark.parametrize("page", PAGES)
def test_page_fits_the_width(browser, width, page):
    """At 1280 and 390 px: no sideways scrolling of the page, nothing cut off where no gesture
    reaches it, figure text at least 9 CSS px; a box that scrolls sideways says so; at 1280
    px a code line the linter allows fits, and every figure fits its column."""
    _open(browser, page)
    _settle(browser, page)
    overflow = browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert overflow[0] <= overflow[1], f"{page} at {width} px: the page scrolls sideways {overflow}"

    cut = browser.execute_script(_UNREACHABLE)
    assert not cut, f"{page} at {width} px: {len(cut)} things cut off: {cut[:5]}"

    small = [(what, round(size, 1), text) for what, size, text in _shown_text_sizes(browser, page)
             if size < SMALLEST_TEXT_PX]  # fmt: skip
    assert not small, f"{page} at {width} px: figure text under {SMALLEST_TEXT_PX} px: {small}"

    sideways = browser.execute_script(_SIDEWAYS)
    silent = [box for box in sideways if not (box["cue"] and box["mask"])]
    assert not silent, f"{page} at {width} px: boxes that scroll with no cue: {silent[:3]}"
    if width >= WIDTHS["laptop"]:
        figures = [box["text"] or box["what"] for box in sideways if box["figure"]]
        assert not figures, f"{page} at {width} px: figures wider than the column: {figures}"
        code = [box for box in sideways if box["longest"] and box["longest"] <= CODE_LINE]
        assert not code, (
            f"{page} at {width} px: lines of at most {CODE_LINE} characters scroll: {code[:3]}"
        )
    _screenshot_at(browser, page, width)


def _screenshot_at(browser, page: str, width: int) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{page.replace('/', '__')}-{width}px.png"))


def test_a_scroll_cue_follows_the_scrolling(browser):
    """The cue says where more is hidden: right at the start, left at the end."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTHS["phone"], "height": 900, "deviceScaleFactor": 1, "mobile": True},
    )
    try:
        for page in CHAPTERS:
            _open(browser, page)
            _settle(browser, page)
            box = browser.execute_script("return document.querySelector('[data-scroll=right]')")
            if box is not None:
                break
        else:
            pytest.skip("no box scrolls sideways at 390 px")
        browser.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", box)
        WebDriverWait(browser, 5).until(
            lambda _: box.get_attribute("data-scroll") == "left",
            message=f"{page}: scrolled to its end, a box still says {box.get_attribute('data-scroll')}",
        )
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("page", EXPLORER_PAGES)
def test_attention_explorer_fits_a_phone(browser, page):
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTHS["phone"], "height": 900, "deviceScaleFactor": 1, "mobile": True},
    )
    try:
        _open(browser, page)
        _settle(browser, page)
        sizes = browser.execute_script(
            "return [...document.querySelectorAll('.mha-explorer')].map(e => [e.clientWidth,"
            " e.scrollWidth, e.querySelector('.mha-explorer-view svg').getBoundingClientRect().width])"
        )
        for box, content, drawing in sizes:
            assert content <= box and drawing <= box, (
                f"{page}: the explorer is {drawing:.0f} px wide in a {box} px box"
            )
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


_PRINT_STATE = """
const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
const body = (box) => [...box.children].filter((c) => !c.classList.contains("admonition-title"));
return {
  solutions: [...document.querySelectorAll("div.solution")].map((s) => body(s).some(shown)),
  hints: [...document.querySelectorAll("div.admonition.dropdown:not(.solution)")]
    .map((h) => body(h).some(shown)),
  figures: [...document.querySelectorAll(".bd-article figure")]
    .map((f) => [f.id, getComputedStyle(f).breakInside]),
  explorers: [...document.querySelectorAll(".mha-explorer")].map((e) => [
    shown(e.querySelector(".mha-explorer-static")), shown(e.querySelector(".mha-explorer-view")),
  ]),
};
"""


@pytest.mark.parametrize("page", CHAPTERS)
def test_print_keeps_solutions_closed_and_figures_whole(browser, page):
    """Printing (the browser's beforeprint event, then print media): every solution stays
    closed, even one the reader opened; each hint prints as the page shows it; no figure
    is split across pages; the explorer, which answers the pointer, prints its picture."""
    _open(browser, page)
    _settle(browser, page)
    before = browser.execute_script(_PRINT_STATE)
    for kind in ("hint", "solution"):  # the reader opens the first of each
        toggle = browser.find_elements(
            By.CSS_SELECTOR,
            "div.solution button.toggle-button"
            if kind == "solution"
            else "div.admonition.dropdown:not(.solution) button.toggle-button",
        )
        if toggle:
            browser.execute_script("arguments[0].click()", toggle[0])
    opened = browser.execute_script(_PRINT_STATE)
    browser.execute_script("window.dispatchEvent(new Event('beforeprint'))")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        printed = browser.execute_script(_PRINT_STATE)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        browser.execute_script("window.dispatchEvent(new Event('afterprint'))")
    assert not any(before["solutions"]), f"{page}: a solution is open before printing"
    assert not any(printed["solutions"]), f"{page}: a solution prints open"
    assert printed["hints"] == opened["hints"], (
        f"{page}: hints as shown {opened['hints']}, as printed {printed['hints']}"
    )
    split = [name for name, rule in printed["figures"] if rule != "avoid"]
    assert not split, f"{page}: figures that may be split across pages: {split}"
    assert all(picture and not view for picture, view in printed["explorers"]), (
        f"{page}: an explorer prints its interactive view, not its picture"
    )


@pytest.mark.parametrize("page", PAGES)
def test_no_console_error(browser, page):
    browser.get_log("browser")  # what earlier pages logged
    _open(browser, page)
    _settle(browser, page)
    errors = [
        entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
    ]
    assert not errors, f"{page}: the console shows errors: {errors[:3]}"


_SVG = "{http://www.w3.org/2000/svg}"
_XLINK = "{http://www.w3.org/1999/xlink}href"
_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|rgba?\([^)]*\)|(?:fill-|stroke-)?opacity:\s*[0-9.]+")


def _legend_entries(svg: str) -> list[list[tuple[str, str]]]:
    """Each legend of a matplotlib SVG: its entries as (label, look without colour).

    The look of an entry is its handle's drawing with every colour and opacity removed:
    dashes, widths, marker shapes (the markers' paths) and hatches (the patterns' paths)
    remain. Two entries of one legend with the same look differ by colour alone.
    """
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    defs = {el.get("id"): el for el in root.iter() if el.get("id")}

    def look(element) -> str:
        parts = []
        for el in element.iter():
            parts.append(el.tag.removeprefix(_SVG) + _COLOUR.sub("", el.get("style", "")))
            for reference in re.findall(r"url\(#([^)]+)\)", el.get("style", "")):
                if reference in defs:  # a hatch: its pattern's drawing
                    parts.append(look(defs[reference]))
            href = el.get(_XLINK, "").removeprefix("#")
            if href in defs:  # a marker: its shape
                parts.append(defs[href].get("d", ""))
        return "|".join(parts)

    legends = []
    for legend in root.iter(f"{_SVG}g"):
        if not (legend.get("id") or "").startswith("legend_"):
            continue
        entries, handle = [], []
        for child in list(legend)[1:]:  # the first child is the frame
            if (child.get("id") or "").startswith("text_"):
                label = "".join(child.itertext()).strip()
                if handle:  # (a legend's title has no handle)
                    entries.append((label, "||".join(look(h) for h in handle)))
                handle = []
            else:
                handle.append(child)
        legends.append(entries)
    return legends


def test_legend_reader_tells_colour_alone_apart():
    """The check below finds a legend whose entries differ by colour alone, not others."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def legend_of(draw) -> list[tuple[str, str]]:
        fig, ax = plt.subplots()
        draw(ax)
        ax.legend()
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg")
        plt.close(fig)
        return _legend_entries(buffer.getvalue())[0]

    def looks(entries):
        return len({look for _, look in entries})

    assert looks(legend_of(lambda ax: [ax.plot([0, 1], "o-", label=n) for n in "ab"])) == 1
    assert looks(legend_of(lambda ax: [ax.plot([0, 1], m, label=m) for m in ("o-", "s-")])) == 2
    assert looks(legend_of(lambda ax: [ax.plot([0, 1], ls=s, label=s) for s in ("-", "--")])) == 2
    bars = legend_of(lambda ax: [ax.bar([0], [1], hatch=h, label=h or "plain") for h in ("", "//")])
    assert looks(bars) == 2
    assert looks(legend_of(lambda ax: [ax.bar([0], [1], label=n) for n in "ab"])) == 1


def _page_svgs(page: str) -> list[tuple[str, str]]:
    """(file name, text) of every SVG image the built page shows."""
    html = (SITE / f"{page}.html").read_text(encoding="utf-8")
    sources = re.findall(r'<img[^>]*\bsrc="([^"]+\.svg)"', html)
    folder = (SITE / page).parent
    return [(Path(src).name, folder.joinpath(src).resolve().read_text("utf-8")) for src in sources]


@pytest.mark.parametrize("page", CHAPTERS)
def test_figure_text_is_set_in_fonts_a_reader_has(page):
    """Text kept as text is drawn with the reader's fonts: DejaVu Sans or, failing it, the
    generic sans-serif. A formula glyph that matplotlib takes from its own Computer Modern
    or STIX fonts (a prime in a superscript, a big root) would show as another character."""
    foreign = {
        (name[:12], family, text)
        for name, svg in _page_svgs(page)
        for family, text in re.findall(r"font-family: '([^']+)'[^>]*>([^<]*)<", svg)
        if not family.startswith("DejaVu Sans")
    }
    assert not foreign, f"{page}: figure text in fonts the page lacks: {sorted(foreign)[:5]}"


@pytest.mark.parametrize("page", CHAPTERS)
def test_no_legend_tells_its_entries_apart_by_colour_alone(page):
    """Every legend of every figure on the built page: entries differ by dash, marker,
    hatch or width as well as colour (readers who do not see the colours, and printouts)."""
    problems = []
    for _, svg in _page_svgs(page):
        for entries in _legend_entries(svg):
            seen = {}
            for label, look in entries:
                seen.setdefault(look, []).append(label)
            problems += [labels for labels in seen.values() if len(labels) > 1]
    assert not problems, f"{page}: legend entries told apart by colour alone: {problems}"
