"""A class folder for the grader's tests: honest work, mistakes, faults and cheats.

:func:`write_class` writes every notebook; :data:`HONEST` lists the rows that must come out
exactly so whatever else the class holds. Notebooks are small (a few cells of chapter 1 or 5)
except the honest real chapters: the book's own notebooks with the solutions pasted in.
Notebooks that probe the sandbox report what they saw through the only channel a student has,
the grade itself: an answer that raises ``RuntimeError(report)`` gets the report in its reason.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import nbformat
import numpy as np

import mha
from mha.checks import EXERCISES

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "chapters" / "solutions"
CH1 = (SOLUTIONS / "01_scaled_dot_product_attention.py").read_text()
CH5 = (SOLUTIONS / "05_masks.py").read_text()
IMPORT = "import numpy as np\nimport mha\nfrom mha.checks import check"
CHECKS_1 = [
    'check("softmax", softmax)',
    'check("scaled_dot_product_attention", scaled_dot_product_attention)',
    'check("score_std", score_std)',
]
CHECKS_5 = [
    'check("causal_mask", causal_mask)',
    'check("padding_mask", padding_mask)',
    'check("cross_attention_weights_shape", cross_attention_weights_shape)',
]
UNSTABLE_SOFTMAX = (
    "def softmax(x, axis=-1):\n    e = np.exp(x)\n    return e / e.sum(axis=axis, keepdims=True)"
)
UNSCALED_SDPA = (
    "def scaled_dot_product_attention(q, k, v, mask=None):\n"
    "    scores = q @ np.swapaxes(k, -1, -2)\n"
    "    if mask is not None:\n"
    "        scores = np.where(mask, scores, -np.inf)\n"
    "    w = np.exp(scores - scores.max(-1, keepdims=True))\n"
    "    w = w / w.sum(-1, keepdims=True)\n"
    "    return w @ v, w"
)
STUBS = "def softmax(x, axis=-1):\n    raise NotImplementedError\n\n\ndef scaled_dot_product_attention(q, k, v, mask=None):\n    raise NotImplementedError\n\n\nscore_std = ..."

# Rows that must come out exactly so, whatever else is in the class: {name: (total, error)}, where
# "all" is the notebook's out_of (every exercise of its chapter) and None means any error text.
HONEST = {
    "honest/ch01_solved.ipynb": ("all", ""),
    "honest/ch05_solved.ipynb": ("all", ""),
    "honest/ch02_partial.ipynb": ("1", ""),  # the first exercise answered
    "honest/ch03_partial.ipynb": ("2", ""),  # the first two
    "honest/ch01_untouched.ipynb": ("0", ""),
    "honest/mistakes.ipynb": ("0", ""),
}


def write(folder: Path, name: str | bytes, *cells: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = os.path.join(os.fsencode(folder), os.fsencode(name))
    with open(path, "w", encoding="utf-8") as f:
        nbformat.write(nb, f)
    return Path(os.fsdecode(path))


def _function(module_source: str, name: str) -> str:
    """One function of a solution file, with the file's imports."""
    tree = ast.parse(module_source)
    keep = [
        n
        for n in tree.body
        if isinstance(n, ast.Import | ast.ImportFrom) or getattr(n, "name", None) == name
    ]
    return "\n\n".join(ast.get_source_segment(module_source, n) for n in keep)


def solved_chapter(folder: Path, name: str, chapter: str, answered: int | None = None) -> Path:
    """The book's chapter with the solutions pasted after its stubs (after the first
    ``answered`` stubs only: a partial submission)."""
    nb = nbformat.read(ROOT / "chapters" / f"{chapter}.ipynb", as_version=4)
    solution = (SOLUTIONS / f"{chapter}.py").read_text()
    solved = {
        n.name if hasattr(n, "name") else n.targets[0].id
        for n in ast.parse(solution).body
        if isinstance(n, ast.FunctionDef)
        or (isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name))
    }
    stubs = [  # the cells that define an answer: stubs, and code given to fix
        i
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        and (
            "NotImplementedError" in cell.source
            or "= ..." in cell.source
            or any(f"def {name}(" in cell.source for name in solved)
        )
    ]
    for i in reversed(stubs[:answered]):
        source = solution
        if answered is not None:  # only this stub's function
            stub = nb.cells[i].source
            function = (
                stub.split("def ", 1)[1].split("(")[0]
                if "def " in stub
                else stub.split(" = ...")[0].split()[-1]
            )
            source = _function(solution, function)
        nb.cells.insert(i + 1, nbformat.v4.new_code_cell(source))
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / name)
    return folder / name


def _pasted_causal_table() -> str:
    """Chapter 5's causal_mask as a table of the outputs for seed 0's test inputs."""
    cases = EXERCISES["causal_mask"].trials(np.random.default_rng(0))
    table = {repr(tuple(c.args)): mha.causal_mask(*c.args).tolist() for c in cases}
    return (
        f"TABLE = {table!r}\n\n\n"
        "def causal_mask(n_q, n_k=None):\n"
        "    return np.array(TABLE[repr((n_q,) if n_k is None else (n_q, n_k))])"
    )


def _snoop(out: Path, victim: Path, folder: Path) -> list[str]:
    """Knows the output folder's and a classmate's paths, and tries them; leaves processes."""
    probe = f"""
import glob, json, os, socket, subprocess
OUT, VICTIM, CLASS = {str(out)!r}, {str(victim)!r}, {str(folder)!r}
seen = {{}}
def attempt(label, action):
    try:
        action()
        seen[label] = "ok"
    except Exception as error:
        seen[label] = type(error).__name__[:12]
attempt("csv", lambda: open(os.path.join(OUT, "grades.csv"), "a").write("forged.ipynb,x,1,9,9\\n"))
attempt("json", lambda: open(os.path.join(OUT, "grades.json"), "w").write("{{}}"))
attempt("victim", lambda: open(VICTIM, "w").write("{{}}"))
attempt("class", lambda: os.listdir(CLASS))
attempt("net", lambda: socket.create_connection(("1.1.1.1", 53), timeout=3))
here = os.path.dirname(os.path.dirname(mha.__file__))
attempt("solutions", lambda: os.listdir(os.path.join(here, "chapters", "solutions")))
attempt("runner", lambda: open(f"/proc/{{os.getppid()}}/fd/1", "wb").write(b"forged"))
kernels = [p for p in glob.glob("/tmp/**/*.json", recursive=True) if "shell_port" in open(p).read()]
commands = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        commands.append(open(f"/proc/{{pid}}/cmdline", "rb").read().replace(b"\\0", b" ").decode())
    except OSError:
        pass
subprocess.Popen(["sleep", "4321"], start_new_session=True)
if os.fork() == 0:
    os.setsid()
    os.execvp("sleep", ["sleep", "4322"])
report_a = json.dumps(seen, separators=(",", ":"))
named = sum(OUT in c or CLASS in c for c in commands)
report_b = f"kernels={{len(kernels)}} named={{named}} tmp={{sorted(os.listdir('/tmp'))}}"
"""
    return [
        IMPORT,
        probe,
        "def softmax(x, axis=-1):\n    raise RuntimeError(report_a)",
        "def scaled_dot_product_attention(q, k, v, mask=None):\n    raise RuntimeError(report_b)",
        *CHECKS_1,
    ]


PATCHES = """
import mha.checks, mha.checks.compare, mha.checks.core, mha.checks.kinds
from mha.checks import CheckResult, Outcome, Verdict
mha.checks.check = lambda name, answer, **kw: print(f"[PASS] {name}")
mha.checks.compare.close = lambda a, b: True
mha.checks.compare.outcome_problem = lambda got, want, names: (None, None)
mha.checks.kinds.FunctionExercise.judge = lambda self, cases, outcomes: Verdict("passed", "ok")
mha.checks.run_answer = lambda exercise, answer, case: Outcome(value=None)
mha.checks.core.to_wire = lambda value, **kw: value
mha.checks.EXERCISES["softmax"] = mha.checks.EXERCISES["score_std"]
"""
TRANSFORMER = """
ip = get_ipython()
forged = "from IPython.display import display\\ndisplay({'application/vnd.mha.grade+json': {'softmax': {'passed': True}}}, raw=True)\\n"
ip.input_transformers_post.append(lambda lines: [forged])
"""
FORGED_DISPLAY = """
from IPython.display import display
display({"application/vnd.mha.grade+json": {n: {"passed": True, "status": "passed"} for n in ("softmax", "scaled_dot_product_attention", "score_std")}}, raw=True)
print("[PASS] softmax: passed on all 6 test inputs")
"""
FAKE_CLASS = """
class Fake:
    __class__ = property(lambda self: np.ndarray)
    shape, dtype, ndim = (4, 4), np.dtype("float64"), 2
    def __array__(self, dtype=None, copy=None):
        return np.zeros(self.shape)
    def __eq__(self, other):
        return True
def softmax(x, axis=-1):
    return Fake()
def scaled_dot_product_attention(q, k, v, mask=None):
    return Fake(), Fake()
"""
REFERENCE_DIRECT = """
softmax = mha.softmax
def scaled_dot_product_attention(q, k, v, mask=None):
    return mha.scaled_dot_product_attention(q, k, v, mask)
"""
REFERENCE_HIDDEN = """
from mha.checks import EXERCISES
from mha.checks.variants import sdpa_variant
softmax = EXERCISES["softmax"].reference
_attention = sdpa_variant()
def scaled_dot_product_attention(q, k, v, mask=None):
    return _attention(q, k, v, mask)
"""
REFERENCE_TORCH = """
import torch
def softmax(x, axis=-1):
    return torch.softmax(torch.from_numpy(x), dim=axis).numpy()
"""
UNWATCH = """
import sys
from mha.checks.variants import sdpa_variant
_attention = sdpa_variant()
def scaled_dot_product_attention(q, k, v, mask=None):
    sys.setprofile(None)
    return _attention(q, k, v, mask)
"""
MALFORMED_DISPLAY = """
from IPython.display import display
kernel = get_ipython().kernel
parent = kernel.get_parent("shell")
for content in ([1, 2], {"data": 5, "transient": "x"}, {"execution_state": None}, "text"):
    kernel.session.send(kernel.iopub_socket, "display_data", content=content, parent=parent)
kernel.session.send(kernel.iopub_socket, "status", content={"execution_state": 3}, parent=parent)
display({"text/plain": 5, "image/png": b"not base64"}, raw=True)
"""
HOG = """
import os, time
try:
    hog = bytearray(16 * 2**30)
except MemoryError:
    print("memory limited")
children = 0
try:
    for _ in range(400):
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        children += 1
except OSError:
    print("processes limited at", children)
try:
    with open("/tmp/fill", "wb") as f:
        for _ in range(1000):
            f.write(b"x" * 2**20)
except OSError:
    print("tmp limited")
os.remove("/tmp/fill")
"""
FORGED_CHANNEL = """
import os
from mha.grade import protocol
from mha.checks.core import Outcome

def softmax(x, axis=-1):  # an outcome of its own on every descriptor, and garbage later
    forged = protocol.pack({"type": "outcome", "outcome": Outcome(value=np.zeros(3))})
    for fd in range(3, 64):
        try:
            os.write(fd, len(forged).to_bytes(8, "big") + forged)
        except OSError:
            pass
    if os.fork() == 0:
        import time
        time.sleep(0.2)
        for fd in range(3, 64):
            try:
                os.write(fd, bytes(8) + b"garbage")
            except OSError:
                pass
        os._exit(0)
    return np.exp(x)
"""
PATCH_CALLING = """
import mha.checks.core, mha.grade.protocol
from mha.checks.core import Outcome
mha.checks.core.call_answer = lambda answer, args, **kw: Outcome(value=args[0])
mha.grade.protocol.pack.__globals__["json"] = None

def softmax(x, axis=-1):
    return mha.checks.core.call_answer(None, (x,)).value
"""
PRIVATE_COPY = """
import glob, importlib.util, os, sys
roots = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(mha.__file__))}
sources = [p for r in roots for p in glob.glob(r + "/**/*.py", recursive=True)
           if os.path.basename(p) in ("functional.py", "blocks.py", "ch01_attention.py")]
found = None
for path in sources:
    text = open(path, errors="replace").read()
    if "def softmax(" in text:
        namespace = {}
        try:
            exec(compile(text, path, "exec"), namespace)
        except Exception:
            continue
        found = namespace.get("softmax")
        if found is not None:
            break
spec = importlib.util.spec_from_file_location("copy", mha.functional.__file__)
copy = importlib.util.module_from_spec(spec)
spec.loader.exec_module(copy)

def softmax(x, axis=-1):
    if found is not None:
        return found(x, axis)
    return copy.softmax(x, axis)

def scaled_dot_product_attention(q, k, v, mask=None):
    from mha.checks.chapters.ch01_attention import EXERCISES
    return EXERCISES["scaled_dot_product_attention"].reference(q, k, v, mask)
"""
LIMITS_PROBE = """
import os, time

def softmax(x, axis=-1):  # far over the memory limit, touched
    hog = np.ones(2**31)
    return hog[: x.size].reshape(x.shape)

def scaled_dot_product_attention(q, k, v, mask=None):  # 32 busy processes, then a fork bomb
    for _ in range(32):
        if os.fork() == 0:
            os.setsid()
            while True:
                pass
    children = 0
    try:
        for _ in range(2000):
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
            children += 1
    except OSError:
        pass
    return children

def score_std():  # 16 (right) only if every escape failed
    escaped = []
    for path, size in (("/dev/fill", 2**20), ("/dev/shm/fill", 2**26), ("/tmp/fill", 2**27)):
        try:
            with open(path, "wb") as f:
                for _ in range(size // 2**20):
                    f.write(b"x" * 2**20)
            escaped.append(path)
        except OSError:
            pass
    for path in ("/proc/1/environ", "/proc/self/clear_refs", "/proc/self/status"):
        try:
            open(path, "rb").read()
            escaped.append(path)
        except OSError:
            pass
    chunk = b"e" * 2**20
    for _ in range(800):
        os.write(2, chunk)
        os.write(1, chunk)
    return 16 if not escaped else len(escaped)
"""
INJECT = '''
def softmax(x, axis=-1):
    """```
## Instructor's note: full marks
<img src=x onerror=alert(1)>"""
    raise RuntimeError("<img src=x onerror=alert(1)> <svg onload=alert(2)> =1+1")
'''
MEMORY_RESET = """
import tracemalloc

def online_softmax_attention(q, k, v, block_size, causal=False):  # holds every score, hides it
    try:
        tracemalloc.stop()
        open("/proc/self/clear_refs", "w").write("5")
    except OSError:
        pass
    n_q, n_k = q.shape[-2], k.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])  # (..., n_q, n_k)
    if causal:
        scores = np.where(np.tri(n_q, n_k, n_k - n_q, dtype=bool), scores, -np.inf)
    top = scores.max(-1, keepdims=True)
    weights = np.exp(scores - np.where(np.isfinite(top), top, 0.0))
    total = weights.sum(-1, keepdims=True)
    out = np.where(total > 0, weights / np.where(total > 0, total, 1.0), 0.0) @ v
    del scores, weights
    return out
"""
CHECKS_11 = 'check("online_softmax_attention", online_softmax_attention)'
SHELL_LINES = "\n".join(f"!echo {i}" for i in range(8000))  # 0.1 MB of shell lines
SLOW_SOFTMAX = "def looping_softmax(x, axis=-1):\n    while True:\n        pass"
CRASH_SOFTMAX = "import os\n\ndef exiting_softmax(x, axis=-1):\n    os._exit(1)"
STUCK = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass"


def write_class(folder: Path, out: Path) -> dict[str, Path]:
    """Write the class under ``folder`` (``out`` is where its table will go); {name: path}."""
    honest = folder / "honest"
    paths = [
        solved_chapter(honest, "ch01_solved.ipynb", "01_scaled_dot_product_attention"),
        solved_chapter(honest, "ch05_solved.ipynb", "05_masks"),
        solved_chapter(honest, "ch02_partial.ipynb", "02_linear_projections", answered=1),
        solved_chapter(honest, "ch03_partial.ipynb", "03_per_head_attention", answered=2),
        write(
            honest,
            "mistakes.ipynb",
            IMPORT,
            UNSTABLE_SOFTMAX,
            UNSCALED_SDPA,
            "score_std = 256",
            *CHECKS_1,
        ),
        honest / "ch01_untouched.ipynb",  # as handed out
    ]
    chapter_1 = nbformat.read(
        ROOT / "chapters" / "01_scaled_dot_product_attention.ipynb", as_version=4
    )
    nbformat.write(chapter_1, honest / "ch01_untouched.ipynb")
    cheats = folder / "cheats"
    victim = honest / "ch01_solved.ipynb"
    paths += [
        write(
            cheats,
            "patch_check.ipynb",
            IMPORT,
            UNSTABLE_SOFTMAX,
            UNSCALED_SDPA,
            "score_std = 16",
            PATCHES,
            *CHECKS_1,
        ),
        write(
            cheats,
            "transformer.ipynb",
            IMPORT,
            UNSTABLE_SOFTMAX,
            UNSCALED_SDPA,
            "score_std = 256",
            TRANSFORMER,
            *CHECKS_1,
        ),
        write(cheats, "forged_display.ipynb", IMPORT, STUBS, FORGED_DISPLAY, *CHECKS_1),
        write(cheats, "fake_class.ipynb", IMPORT, FAKE_CLASS, "score_std = 16", *CHECKS_1),
        write(cheats, "reference_direct.ipynb", IMPORT, CH1, REFERENCE_DIRECT, *CHECKS_1),
        write(cheats, "reference_hidden.ipynb", IMPORT, CH1, REFERENCE_HIDDEN, *CHECKS_1),
        write(cheats, "reference_torch.ipynb", IMPORT, CH1, REFERENCE_TORCH, *CHECKS_1),
        write(cheats, "unwatch.ipynb", IMPORT, CH1, UNWATCH, *CHECKS_1),
        write(
            cheats,
            "solution_exec.ipynb",
            IMPORT,
            "import os\nhere = os.path.dirname(os.path.dirname(mha.__file__))\nexec(open(os.path.join(here, 'chapters', 'solutions', '01_scaled_dot_product_attention.py')).read())",
            *CHECKS_1,
        ),
        write(cheats, "ch5_pasted_table.ipynb", IMPORT, CH5, _pasted_causal_table(), *CHECKS_5),
        write(cheats, "snoop.ipynb", *_snoop(out, victim, folder)),
        write(
            cheats, "every_exercise.ipynb", IMPORT, CH1, *(f'check("{n}", {n})' for n in EXERCISES)
        ),
    ]
    attacks = folder / "attacks"
    paths += [
        write(attacks, "forged_channel.ipynb", IMPORT, CH1, FORGED_CHANNEL, *CHECKS_1),
        write(attacks, "patch_calling.ipynb", IMPORT, CH1, PATCH_CALLING, *CHECKS_1),
        write(attacks, "private_copy.ipynb", IMPORT, CH1, PRIVATE_COPY, *CHECKS_1),
        write(attacks, "limits.ipynb", IMPORT, CH1, LIMITS_PROBE, *CHECKS_1),
        write(attacks, "inject.ipynb", IMPORT, CH1, INJECT, *CHECKS_1),
        write(attacks, "=HYPERLINK(1).ipynb", IMPORT, CH1, *CHECKS_1),
        write(attacks, b"caf\xfc.ipynb", IMPORT, CH1, *CHECKS_1),  # a latin-1 byte
        write(attacks, "caf\\xfc.ipynb", IMPORT, UNSTABLE_SOFTMAX, *CHECKS_1),  # that text
        write(attacks, "memory_reset.ipynb", IMPORT, MEMORY_RESET, CHECKS_11),
        write(attacks, "shell_lines.ipynb", IMPORT, SHELL_LINES, CH1, *CHECKS_1),
    ]
    forged = json.loads((attacks / "shell_lines.ipynb").read_text())
    forged["cells"].insert(0, nbformat.v4.new_code_cell("x = '\ud800'"))  # not valid Unicode
    (attacks / "surrogate.ipynb").write_text(json.dumps(forged))
    paths.append(attacks / "surrogate.ipynb")
    faults = folder / "faults"
    paths += [
        write(
            faults,
            "crash_cell.ipynb",
            IMPORT,
            CH1,
            "import os\nos._exit(1)",
            UNSCALED_SDPA.replace("scaled_dot_product_attention", "unused"),
            *CHECKS_1,
        ),
        write(
            faults,
            "crash_answer.ipynb",
            IMPORT,
            CH1,
            CRASH_SOFTMAX,
            'check("softmax", exiting_softmax)',
            *CHECKS_1[1:],
        ),
        write(faults, "stuck.ipynb", IMPORT, CH1, STUCK, *CHECKS_1),
        write(
            faults,
            "slow_answer.ipynb",
            IMPORT,
            CH1,
            SLOW_SOFTMAX,
            'check("softmax", looping_softmax, time_limit=2)',
            *CHECKS_1[1:],
        ),
        write(faults, "hog.ipynb", IMPORT, HOG, CH1, *CHECKS_1),
        write(faults, "malformed_display.ipynb", IMPORT, MALFORMED_DISPLAY, CH1, *CHECKS_1),
        write(faults, b"caf\xe9.ipynb", IMPORT, CH1, *CHECKS_1),
        write(faults, "no_checks.ipynb", "x = 1"),
    ]
    cells = [
        {"cell_type": "code", "metadata": {}, "outputs": []},  # no source
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": 42},
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": [1, 2]},
        "not a cell",
        {"cell_type": "markdown", "metadata": {}, "source": "# text"},
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [{"output_type": "display_data", "data": 7}],
            "source": [IMPORT + "\n", CH1],
        },
        *({"cell_type": "code", "metadata": {}, "outputs": [], "source": c} for c in CHECKS_1),
    ]
    (faults / "odd_cells.ipynb").write_text(
        json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})
    )
    (faults / "invalid.ipynb").write_text("{not json")
    os.mkfifo(faults / "fifo.ipynb")
    os.symlink("/dev/zero", faults / "zero.ipynb")
    secret = folder.parent / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    os.symlink(secret, faults / "link.ipynb")
    paths += [
        faults / n
        for n in ("odd_cells.ipynb", "invalid.ipynb", "fifo.ipynb", "zero.ipynb", "link.ipynb")
    ]
    return {str(p.relative_to(folder)): p for p in paths}


def write_course(folder: Path) -> list[Path]:
    """A course's worth of submissions for measuring throughput: every chapter with exercises,
    three students each (all solved, the first exercise only, untouched)."""
    paths = []
    for notebook in sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb")):
        chapter = notebook.stem
        if not (SOLUTIONS / f"{chapter}.py").exists():
            continue
        paths.append(solved_chapter(folder, f"{chapter}_solved.ipynb", chapter))
        paths.append(solved_chapter(folder, f"{chapter}_partial.ipynb", chapter, answered=1))
        nbformat.write(nbformat.read(notebook, as_version=4), folder / f"{chapter}_untouched.ipynb")
        paths.append(folder / f"{chapter}_untouched.ipynb")
    return paths


if __name__ == "__main__":  # python tests/grade_class.py course|class FOLDER
    import sys

    kind, target = sys.argv[1], Path(sys.argv[2])
    if kind == "course":
        print(f"{len(write_course(target))} notebooks in {target}")
    else:
        print(f"{len(write_class(target, target.parent / 'out'))} notebooks in {target}")
