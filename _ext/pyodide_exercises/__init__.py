"""Sphinx extension of the book: "Run here", the exercises checked in the page, offline.

Pyodide (CPython compiled to WebAssembly) with NumPy and ``mha`` is served with the site,
so that a reader can edit an exercise and run its ``check(...)`` in the browser, with no
install, account or server. At build time (HTML only) this extension

1. fetches and checks the runtime, NumPy's wheel and mha's dependencies, and builds a wheel
   of ``mha`` from the checkout (:mod:`pyodide_exercises.assets`; cached, so a second build
   fetches nothing), and stops the build with a clear message when a piece is missing;
2. finds every chapter's exercises from the notebooks' markup
   (:mod:`pyodide_exercises.exercises`) and keeps those whose solution passes its check
   with only what the page's Python has (:mod:`pyodide_exercises.probe`, in a fresh process);
3. puts a "Run here" placeholder after each such exercise's check cell, and the chapter's
   code cells as JSON in the page (``run-here.js`` fills the placeholders);
4. after the build, writes the runtime, the wheels (listed in ``manifest.json``), the
   licences and ``static/`` into ``_static/run-here/``.
"""

from __future__ import annotations

import email.parser
import json
import shutil
import zipfile
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.util import logging

from pyodide_exercises import assets, exercises, probe

logger = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
FOLDER = "run-here"  # under the site's _static/
PLACEHOLDER = 'class="mha-run-here"'


def _prepare(app) -> None:
    if app.builder.format != "html":
        return
    try:
        app.pyodide_assets = assets.prepare()
    except assets.AssetError as error:
        raise ExtensionError(f"Run here: {error}") from None
    logger.info(f"Run here: {app.pyodide_assets.describe()}")


def _notebooks(env) -> list[str]:
    return sorted(d for d in env.found_docs if Path(env.doc2path(d)).suffix == ".ipynb")


def _probe(app, env, added, changed, removed) -> list[str]:
    """Decide which exercises get a button (:func:`probe.runnable`); when that changed since
    the last build, every notebook's page is written again."""
    if app.builder.format != "html":
        return []
    found = [
        e for d in _notebooks(env) for e in exercises.read(Path(env.doc2path(d)))[1] if e.solution
    ]
    try:
        verdicts = probe.runnable(
            found, app.pyodide_assets.runtime, list(app.pyodide_assets.wheels), assets.ROOT
        )
    except RuntimeError as error:
        raise ExtensionError(f"Run here: {error}") from None
    for name, why in verdicts.items():
        if why:
            logger.info(f"Run here: no button for {name}: {why.splitlines()[0][:200]}")
    if getattr(env, "pyodide_runnable", None) == verdicts:
        return []
    env.pyodide_runnable = verdicts
    return _notebooks(env)


def page_data(docname: str, path: Path, runnable: dict) -> dict | None:
    """What run-here.js needs on one page, or None: its exercises (each with the notebook
    index of its check cell, ``check_cell``) and its code cells up to the last check cell."""
    cells, found = exercises.read(path)
    mine = [e for e in found if runnable.get(e.name, "unknown") is None]
    if not mine:
        return None
    answer_of = {index: e for e in mine for index in e.answer_cells}
    check_of = {e.check_cell: e for e in mine}
    shown = []
    for index, cell in enumerate(cells[: max(e.check_cell for e in mine) + 1]):
        if cell.cell_type != "code":
            continue
        if index in answer_of:
            exercise = answer_of[index]
            if index == exercise.answer_cells[0]:
                shown.append({"kind": "answer", "exercise": exercise.label})
        elif index in check_of:
            shown.append(
                {"kind": "check", "exercise": check_of[index].label, "source": cell.source}
            )
        else:
            shown.append({"kind": "chapter", "source": cell.source})
    return {
        "page": docname,
        "exercises": [
            {
                "label": e.label,
                "name": e.name,
                "title": e.title,
                "stub": "\n\n".join(cells[i].source for i in e.answer_cells),
                "check_cell": e.check_cell,
            }
            for e in mine
        ],
        "cells": shown,
    }


def _add_to_page(app, doctree, docname) -> None:
    if app.builder.format != "html":
        return
    path = Path(app.env.doc2path(docname))
    if path.suffix != ".ipynb":
        return
    data = page_data(docname, path, app.env.pyodide_runnable)
    if data is None:
        return
    label_of = {e["check_cell"]: e["label"] for e in data["exercises"]}
    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") == "cell_code" and cell.get("cell_index") in label_of:
            placeholder = f'<div {PLACEHOLDER} data-label="{label_of[cell["cell_index"]]}"></div>'
            cell.parent.insert(
                cell.parent.index(cell) + 1, nodes.raw("", placeholder, format="html")
            )
    payload = json.dumps(data).replace("</", "<\\/")  # no "</script>" inside the script
    script = f'<script type="application/json" id="mha-run-here-data">{payload}</script>'
    doctree.append(nodes.raw("", script, format="html"))


def _load_on_exercise_pages(app, pagename, templatename, context, doctree) -> None:
    if PLACEHOLDER in context.get("body", ""):
        app.add_js_file(f"{FOLDER}/run-here.js", defer="defer")
        app.add_css_file(f"{FOLDER}/run-here.css")


def _licence(wheel: Path) -> str:
    """The licence a wheel's metadata states (its expression, or its classifiers)."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        fields = email.parser.HeaderParser().parsestr(archive.read(name).decode())
    classifiers = [
        c.split(" :: ")[-1] for c in fields.get_all("Classifier", []) if c.startswith("License ::")
    ]
    return fields.get("License-Expression") or ", ".join(classifiers) or "(not stated)"


def _write(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    folder = Path(app.outdir, "_static", FOLDER)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(STATIC, folder, ignore=shutil.ignore_patterns("__pycache__"))
    runtime = folder / "pyodide"
    runtime.mkdir()
    for name in (*assets.RUNTIME_FILES, assets.NUMPY_WHEEL):
        shutil.copy2(app.pyodide_assets.runtime / name, runtime / name)
    (folder / "wheels").mkdir()
    for wheel in app.pyodide_assets.wheels:
        shutil.copy2(wheel, folder / "wheels" / wheel.name)
    manifest = {"wheels": [f"wheels/{w.name}" for w in app.pyodide_assets.wheels]}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    licences = [f"  {wheel.name}: {_licence(wheel)}" for wheel in app.pyodide_assets.wheels]
    notice = Path(__file__).with_name("NOTICE.txt").read_text()
    (folder / "NOTICE.txt").write_text(notice + "\n".join(licences) + "\n")
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    logger.info(f"Run here: wrote {folder} ({size / 1e6:.1f} MB)")


def setup(app):
    app.connect("builder-inited", _prepare)
    app.connect("env-get-outdated", _probe)
    app.connect("doctree-resolved", _add_to_page)
    app.connect("html-page-context", _load_on_exercise_pages)
    app.connect("build-finished", _write)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
