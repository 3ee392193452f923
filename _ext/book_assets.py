"""Sphinx extension of the book: the attention explorer's JavaScript, served with the site.

``mha.book.explorer`` outputs carry a Vega-Lite specification and draw it with Vega-Embed when the
page has loaded it. This extension makes the site hold that library, with no CDN:

- after an HTML build it writes ``_static/vega/vega-bundle.js``, Vega, Vega-Lite and
  Vega-Embed bundled into one file by ``vl_convert.javascript_bundle()`` (PyPI package
  ``vl-convert-python``), and ``_static/vega/NOTICE.txt``, their licences (``vega-NOTICE.txt``
  beside this file);
- it loads the bundle on the pages that hold an explorer, and only there.

MathJax is served with the site by another extension, ``sphinx-mathjax-offline``.
"""

from __future__ import annotations

from pathlib import Path

BUNDLE = "vega/vega-bundle.js"
NOTICE = Path(__file__).with_name("vega-NOTICE.txt")


def _load_on_explorer_pages(app, pagename, templatename, context, doctree) -> None:
    if 'class="mha-explorer"' in context.get("body", ""):
        app.add_js_file(BUNDLE)  # called here, it adds the script to this page only


def _write_bundle(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    import vl_convert

    folder = Path(app.outdir, "_static", "vega")
    folder.mkdir(parents=True, exist_ok=True)
    versions = (
        f"Vega {vl_convert.get_vega_version()}, Vega-Lite {vl_convert.get_vegalite_versions()[-1]}, "
        f"Vega-Embed {vl_convert.get_vega_embed_version()}"
    )
    header = f"/* {versions}: BSD 3-Clause licences, see NOTICE.txt in this folder. */\n"
    # In a function, so that the bundle's top-level names do not clash with the page's
    # scripts; it publishes window.vegaEmbed, window.vega and window.vegaLite itself.
    bundle = f"(function () {{\n{vl_convert.javascript_bundle()}\n}})();\n"
    Path(folder, "vega-bundle.js").write_text(header + bundle)
    Path(folder, "NOTICE.txt").write_text(f"{versions}.\n\n{NOTICE.read_text()}")


def setup(app):
    app.connect("html-page-context", _load_on_explorer_pages)
    app.connect("build-finished", _write_bundle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
