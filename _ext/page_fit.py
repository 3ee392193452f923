"""Sphinx extension of the book: pages that fit a laptop, a phone and a printout.

- ``page-fit.css`` and ``page-fit.js`` (in ``page_fit_static/``) on every page: code and
  formula boxes, tables and figures that are wider than the column scroll inside their own
  box, which then fades out on the side where more of it is hidden (the JavaScript marks
  such boxes ``data-scroll="right"``, ``"left"`` or ``"both"`` and makes them reachable by
  keyboard); in print, solutions stay closed, figures are not split across pages, code wraps
  and the attention explorer prints its static picture.
- Each SVG figure is wrapped in a ``<div class="mha-figure-box">`` and given a
  ``min-width``: the narrowest it can be shown with its smallest text at 9 CSS px. On a phone
  such a figure keeps that width and scrolls sideways in its box.
- A repair for Sphinx 7.4: an inline script added while the builder starts is listed twice
  on every page (once as filename ``None``, once as ``""``), and two ``const THEBE_JS_URL``
  declarations are a ``SyntaxError`` in the console. Each page keeps the first of each.
"""

from __future__ import annotations

import html
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

STATIC = Path(__file__).with_name("page_fit_static")
#: The smallest figure text a reader is asked to read, in CSS px.
SMALLEST_TEXT_PX = 9.0
_IMG = re.compile(r'<img\b[^>]*\bsrc="(?P<src>[^"]+\.svg)"[^>]*>')
_FONT_SIZE = re.compile(r"font-size:\s*([0-9.]+)px")


def svg_text_scale(svg: str) -> tuple[float, float]:
    """``(width, smallest)``: the SVG's width in CSS px and its smallest text, in the same px.

    The width comes from the ``width`` attribute (``pt`` or ``px``), the text sizes from each
    ``font-size`` in a ``style`` attribute (matplotlib's ``svg.fonttype: none`` writes text
    that way, in units of the ``viewBox``). ``smallest`` is ``inf`` when there is no text.
    """
    root = ET.fromstring(svg)
    width = root.get("width", "")
    number = float(re.match(r"[0-9.]+", width).group())
    css_width = number * 4 / 3 if width.endswith("pt") else number
    view_width = float(root.get("viewBox").split()[2]) if root.get("viewBox") else number
    sizes = [float(m) for m in _FONT_SIZE.findall(svg)]
    smallest = min(sizes, default=float("inf")) * css_width / view_width
    return css_width, smallest


def _legible_width(path: Path) -> int | None:
    """The narrowest the figure can be shown with its smallest text at 9 CSS px."""
    width, smallest = svg_text_scale(path.read_text(encoding="utf-8"))
    if smallest == float("inf"):
        return None
    return math.ceil(width * SMALLEST_TEXT_PX / smallest)


def _box_figures(app, pagename, templatename, context, doctree) -> None:
    if "body" not in context:
        return
    sources = {Path(name).name: Path(app.srcdir, src) for src, name in app.builder.images.items()}

    def box(match: re.Match) -> str:
        source = sources.get(Path(html.unescape(match["src"])).name)
        width = _legible_width(source) if source and source.exists() else None
        tag = match[0]
        if width is not None:
            tag = tag.replace("<img ", f'<img style="min-width: {width}px" ', 1)
        return f'<div class="mha-figure-box">{tag}</div>'

    context["body"] = _IMG.sub(box, context["body"])


def _drop_repeated_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if scripts is None:
        return
    seen, unique = set(), []
    for script in scripts:
        key = (script.filename or "", script.priority, tuple(sorted(script.attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


def _add_static_path(app) -> None:
    app.config.html_static_path.append(str(STATIC))


def setup(app):
    app.connect("builder-inited", _add_static_path)
    app.add_css_file("page-fit.css")
    app.add_js_file("page-fit.js", loading_method="defer")
    app.connect("html-page-context", _box_figures)
    app.connect("html-page-context", _drop_repeated_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
