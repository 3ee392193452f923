"""The checks' verdicts on the solutions, on the corpus and on the number and shape
exercises' known wrong values, computed the same way in CPython
(imported by ``tests/test_pyodide_checks.py``) and in Pyodide (run there as a script by
``tests/pyodide_node.cjs``, with its request and reply in ``/io``).

Corpus answers that use torch are left out on both sides (the page has no torch); in Pyodide
the corpus modules that import torch at their top get a placeholder module so that their
NumPy answers can be loaded.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import sys
import threading
import types
from pathlib import Path

import numpy as np

LOADED_NAMES = ("torch", "cupy", "threadpoolctl")  # what the page's mha must not import


def _verdict(name: str, answer, seed: int) -> list:
    from mha.checks import check

    if isinstance(answer, Exception):  # the solution file did not load
        return ["unavailable", repr(answer)]
    try:
        result = check(name, answer, seed=seed)
    except Exception as error:  # a reference that cannot run here
        return ["raised", repr(error)]
    return [result.status, result.diagnosis]


def _corpus() -> list:
    """The corpus's answers but those that use torch or SciPy (torch placeholders where torch
    is missing, so that the modules import)."""
    try:
        import torch  # noqa: F401
    except ImportError:
        for name in ("torch", "torch.nn", "torch.nn.functional"):
            sys.modules[name] = types.ModuleType(name)
        sys.modules["torch"].nn = sys.modules["torch.nn"]
        sys.modules["torch.nn"].functional = sys.modules["torch.nn.functional"]
    import corpus

    for module in pkgutil.iter_modules(corpus.__path__):
        importlib.import_module(f"corpus.{module.name}")
    answers = [*corpus.ANSWERS, *corpus.PREDICTIONS]  # predictions are answers too
    missing = ("torch", "scipy")  # libraries the page's Python does not have
    return [a for a in answers if not any(m in inspect.getsource(a.fn) for m in missing)]


def _lean_path_on_one_thread() -> dict:
    """The lean (tiled) path against the per-head loop, and the threads it left."""
    import mha

    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 64, 32), dtype=np.float32)
    params = mha.init_params(32, 4, seed=0)
    lean, _ = mha.multi_head_attention(x, x, x, params, need_weights=False, memory_budget=4096)
    loop, _ = mha.multi_head_attention_loop(x, x, x, params)
    return {
        "max_difference": float(np.max(np.abs(lean - loop))),
        "threads": threading.active_count(),
    }


def verdicts(request: dict) -> dict:
    """Every exercise's solution and every NumPy corpus answer, checked with ``seed``."""
    import mha.checks

    seed = request["seed"]
    from probe import solution  # _ext/pyodide_exercises/probe.py, as the build loads solutions

    modules: dict = {}
    solutions = {
        e["name"]: _verdict(e["name"], solution(e, modules), seed) for e in request["exercises"]
    }
    lean = _lean_path_on_one_thread()
    loaded = sorted(m for m in sys.modules if m.partition(".")[0] in LOADED_NAMES)
    corpus = {
        answer.id: _verdict(answer.exercise, answer.fn, seed)
        for answer in _corpus()
        if answer.exercise in solutions
    }
    for name in solutions:  # a number or shape exercise: its table of known wrong values
        for wrong in getattr(mha.checks.EXERCISES[name], "wrong_values", ()):
            corpus[f"{name}-wrong-{wrong.id}"] = _verdict(name, wrong.value, seed)
    return {
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "platform": sys.platform,
        "loaded": loaded,
        "lean": lean,
        "solutions": solutions,
        "corpus": corpus,
    }


if __name__ == "__main__" and sys.platform == "emscripten":
    request = json.loads(Path("/io/request.json").read_text())
    sys.path[:0] = request["path"]
    Path("/io/reply.json").write_text(json.dumps(verdicts(request)))
