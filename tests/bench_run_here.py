"""Benchmark of "Run here" in the built site: how long a reader waits, and what the site weighs.

    .venv/bin/python tests/bench_run_here.py                 # 5 rounds, chapter 1's first exercise
    .venv/bin/python tests/bench_run_here.py --rounds 9 --later 10

Each round starts headless Chromium with a fresh profile (a cold cache), opens the page from
the site served on 127.0.0.1 (``tests/browser_site.py``: only the site is reachable), clicks
"Run here" on the page's first exercise and measures the time until the check's result is on
the page (the page's own clock, from the click), then ``--later`` more checks, then reloads
the page (a warm cache) and measures the first check again. It prints the median and the
interquartile range [q1, q3] over the rounds and judges each goal by the worse end of that
range: the first check on a cold cache within 15 s, later checks under 1 s, and the site's
extra size (everything "Run here" adds: ``_static/run-here`` and the pages' data) under 25 MB.
Also: what the first check downloads, the cores, and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser_site

GOALS = {
    "first check, cold cache (s)": 15.0,
    "later checks (s)": 1.0,
    "site's extra size (MB)": 25.0,
}
DATA = re.compile(r'<script type="application/json" id="mha-run-here-data">.*?</script>', re.S)
PLACEHOLDER = re.compile(r'<div class="mha-run-here" data-label="[^"]*"></div>')


def extra_size(site: Path) -> int:
    """Bytes "Run here" adds to the site: its folder, the pages' data and placeholders."""
    folder = sum(
        f.stat().st_size for f in (site / "_static" / "run-here").rglob("*") if f.is_file()
    )
    pages = 0
    for html in site.rglob("*.html"):
        text = html.read_text()
        pages += sum(len(m.encode()) for m in DATA.findall(text) + PLACEHOLDER.findall(text))
    return folder + pages


def _check_seconds(browser, widget, button: str) -> float:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    runs = int(widget.get_attribute("data-runs") or 0)
    widget.find_element(By.CSS_SELECTOR, button).click()
    WebDriverWait(browser, 120, poll_frequency=0.02).until(
        lambda _: int(widget.get_attribute("data-runs") or 0) > runs
    )
    if widget.get_attribute("data-status") in (None, "", "error"):
        raise RuntimeError(f"the check failed: {widget.text[-500:]}")
    return float(widget.get_attribute("data-seconds"))


def one_round(site, trap, page: str, later: int) -> dict:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    with tempfile.TemporaryDirectory() as profile:
        browser = browser_site.chromium(Path(profile), trap.port)
        browser.set_page_load_timeout(60)
        try:
            first_request = len(site.paths)
            browser.get(f"{site.url}{page}.html")
            WebDriverWait(browser, 30).until(
                lambda _: browser.find_elements(By.CSS_SELECTOR, ".mha-run-here button")
            )
            widget = browser.find_elements(By.CSS_SELECTOR, ".mha-run-here")[0]
            cold = _check_seconds(browser, widget, "button.mha-run-here-open")
            stages = dict(json.loads(widget.get_attribute("data-startup")))
            downloaded = sum(
                (browser_site.SITE / urlparse(p).path.lstrip("/")).stat().st_size
                for p in site.paths[first_request:]
                if (browser_site.SITE / urlparse(p).path.lstrip("/")).is_file()
            )
            again = [
                _check_seconds(browser, widget, "button.mha-run-here-run") for _ in range(later)
            ]
            browser.refresh()
            WebDriverWait(browser, 30).until(
                lambda _: browser.find_elements(By.CSS_SELECTOR, ".mha-run-here button")
            )
            widget = browser.find_elements(By.CSS_SELECTOR, ".mha-run-here")[0]
            warm = _check_seconds(browser, widget, "button.mha-run-here-open")
        finally:
            browser.quit()
    startup = {  # where the cold first check's time went, from the worker's own clock
        "Python's runtime": stages["Loading NumPy and mha…"] - stages["Starting Python…"],
        "NumPy, mha and its dependencies": stages["Importing the checks…"]
        - stages["Loading NumPy and mha…"],
        "import mha.checks": stages["ready"] - stages["Importing the checks…"],
    }
    startup["the rest (the worker's start, the check, the page)"] = cold - sum(startup.values())
    return {
        "cold": cold,
        "later": statistics.median(again),
        "warm": warm,
        "downloaded": downloaded,
        "startup": startup,
    }


def _spread(values: list[float]) -> tuple[float, float, float]:
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return median, q1, q3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="fresh browsers (default 5)")
    parser.add_argument("--later", type=int, default=5, help="checks after the first (default 5)")
    parser.add_argument("--page", default="chapters/01_scaled_dot_product_attention")
    args = parser.parse_args()
    if not (browser_site.SITE / "_static" / "run-here").is_dir():
        sys.exit("build the book first: python3 dev.py book")
    load_before = os.getloadavg()
    rounds = []
    with browser_site.Site() as site, browser_site.Trap() as trap:
        for number in range(args.rounds):
            rounds.append(one_round(site, trap, args.page, args.later))
            print(
                f"round {number + 1}: first {rounds[-1]['cold']:.2f} s (cold), later "
                f"{rounds[-1]['later']:.3f} s, first after a reload {rounds[-1]['warm']:.2f} s",
                flush=True,
            )
            time.sleep(1)
        if site.reports:
            sys.exit(f"requests for other hosts: {site.reports}")
    load_after = os.getloadavg()
    size = extra_size(browser_site.SITE) / 1e6
    measured = {
        "first check, cold cache (s)": _spread([r["cold"] for r in rounds]),
        "later checks (s)": _spread([r["later"] for r in rounds]),
        "site's extra size (MB)": (size, size, size),
    }
    print(
        f"\n{args.page}, {args.rounds} rounds, {os.cpu_count()} cores, load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after (1 min)"
    )
    print(
        f"first check after a reload (warm cache): {_spread([r['warm'] for r in rounds])[0]:.2f} s; "
        f"downloaded from opening the page to the first result: {statistics.median(r['downloaded'] for r in rounds) / 1e6:.1f} MB"
    )
    print("where the first check's time goes (median over the rounds):")
    for stage in rounds[0]["startup"]:
        print(f"  {stage:52s} {statistics.median(r['startup'][stage] for r in rounds):6.2f} s")
    print(f"\n{'':30s} {'median':>8s} {'[q1, q3]':>18s} {'goal':>6s} {'q3/goal':>8s}  verdict")
    for name, goal in GOALS.items():
        median, q1, q3 = measured[name]
        verdict = "met" if q3 <= goal else "NOT met"
        print(
            f"{name:30s} {median:8.2f} [{q1:7.2f}, {q3:7.2f}] {goal:6.0f} {q3 / goal:8.2f}  {verdict}"
        )


if __name__ == "__main__":
    main()
