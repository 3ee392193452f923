"""Which exercises the page can check: :func:`runnable`, which runs this file in a fresh process.

As a script it reads JSON from stdin: ``{"allowed": [top-level modules the page's Python has, besides the
standard library], "missing": [standard-library modules it lacks], "exercises": [{"name",
"solution", "pyobject"}]}``. Blocks every other import and every new process, then checks each
exercise's solution (seed 0) and writes ``{name: null}`` for an exercise whose solution passes with only those
modules, ``{name: "why not"}`` for the others. The real test is the solutions passing in
Pyodide itself (``tests/test_pyodide_checks.py``); this only decides where a button goes.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import json
import subprocess
import sys
import zipfile
from pathlib import Path


class PageModulesOnly(importlib.abc.MetaPathFinder):
    """Refuses to import what the page's Python does not have."""

    def __init__(self, allowed: set[str], missing: set[str]) -> None:
        self.allowed = (set(sys.stdlib_module_names) - missing) | allowed

    def find_spec(self, name, path, target=None):
        top = name.partition(".")[0]
        if top not in self.allowed and not top.startswith("_sysconfigdata"):  # sysconfig's own
            raise ModuleNotFoundError(f"No module named {name!r} in the page's Python", name=name)
        return None  # the usual finders find it


def solution(exercise: dict, modules: dict):
    """The object ``exercise["pyobject"]`` of the file ``exercise["solution"]`` (each file
    loaded once, kept in ``modules``), or the error that stopped the file from loading."""
    path = exercise["solution"]
    if path not in modules:
        spec = importlib.util.spec_from_file_location(f"solution_{len(modules)}", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            modules[path] = module
        except Exception as error:
            modules[path] = error
    module = modules[path]
    return module if isinstance(module, Exception) else getattr(module, exercise["pyobject"])


def _import_names(wheel: Path) -> set[str]:
    """The top-level modules a wheel installs."""
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    return {top.removesuffix(".py") for top in tops if not top.endswith((".dist-info", ".data"))}


def runnable(
    exercises: list, runtime: Path, wheels: list[Path], cwd: Path
) -> dict[str, str | None]:
    """For each exercise (:class:`pyodide_exercises.exercises.Exercise` with a solution): None
    if its solution passes with only NumPy, the wheels and the runtime's standard library
    (those modules of it that ``pyodide-lock.json`` lists as separate packages left out), else
    why not."""
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    request = {
        "allowed": sorted({"numpy"}.union(*(_import_names(w) for w in wheels))),
        "missing": sorted(
            name
            for entry in lock["packages"].values()
            if entry["package_type"] == "cpython_module"
            for name in entry["imports"]
        ),
        "exercises": [
            {"name": e.name, "solution": str(e.solution[0]), "pyobject": e.solution[1]}
            for e in exercises
        ],
    }
    result = subprocess.run(
        [sys.executable, __file__],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    if result.returncode:
        raise RuntimeError(f"the exercise probe failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout)


class NoProcesses:
    """Stands in for ``subprocess.Popen``: the page's Python (emscripten) starts no process."""

    def __init__(self, *args, **kwargs) -> None:
        raise OSError(138, "the page's Python cannot start processes (emscripten)")


def main() -> None:
    request = json.load(sys.stdin)
    sys.meta_path.insert(0, PageModulesOnly(set(request["allowed"]), set(request["missing"])))
    subprocess.Popen = NoProcesses  # a check that measures in a fresh process cannot run there
    from mha.checks import check

    modules: dict = {}
    verdicts = {}
    for exercise in request["exercises"]:
        answer = solution(exercise, modules)
        if isinstance(answer, Exception):
            verdicts[exercise["name"]] = f"its solution file does not import: {answer!r}"
            continue
        try:
            result = check(exercise["name"], answer, seed=0)
            verdicts[exercise["name"]] = None if result.passed else f"its solution {result}"
        except Exception as error:
            verdicts[exercise["name"]] = f"its check raised {error!r}"
    json.dump(verdicts, sys.stdout)


if __name__ == "__main__":
    main()
