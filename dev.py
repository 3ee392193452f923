"""The project's commands. Needs only Python 3.10+; creates or reuses ``.venv`` next to it.

    python3 dev.py book    build the website into _build/html (warnings are errors)
    python3 dev.py test    run the unit tests and execute every notebook (nbval), then the
                           numeric tests again as other CPUs compute (the machine matrix)
    python3 dev.py matrix  only the machine matrix: the tests marked ``numeric``, once per
                           machine class this CPU can run (``python -m mha.bench.machines``)
    python3 dev.py lint    ruff lint and format check

Each command first makes sure ``.venv`` exists and holds ``requirements.txt`` (reinstalled
when it or ``pyproject.toml``, where the dependencies are listed, changes). Extra arguments
go to the tool: ``python3 dev.py test -k masks`` (with arguments, ``test`` runs only pytest).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".requirements.sha256"
#: What the virtualenv's contents depend on: reinstalled when either file changes.
INSTALL_INPUTS = ("requirements.txt", "pyproject.toml")


def run(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    result = subprocess.run([str(c) for c in cmd], cwd=ROOT)
    if result.returncode:
        sys.exit(result.returncode)


def ensure_venv() -> None:
    if not PYTHON.exists():
        print(f"creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    digest = hashlib.sha256()
    for name in INSTALL_INPUTS:
        digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes())
    wanted = digest.hexdigest()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        run(PYTHON, "-m", "pip", "install", "--upgrade", "pip")
        run(PYTHON, "-m", "pip", "install", "-r", ROOT / "requirements.txt")
        run(PYTHON, "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3")
        STAMP.write_text(wanted)


def book(args: list[str]) -> None:
    run(BIN / "jupyter-book", "build", ROOT, "--warningiserror", "--keep-going", *args)
    print(f"\nThe book is in {ROOT / '_build' / 'html' / 'index.html'}")


def test(args: list[str]) -> None:
    run(PYTHON, "-m", "pytest", *args)
    if not args:
        matrix([])


def matrix(args: list[str]) -> None:
    """The numeric tests once per machine class other than this CPU as it is: other OpenBLAS
    kernels, NumPy's narrower SIMD, one thread (see mha/bench/machines.py)."""
    listed = subprocess.run(
        [PYTHON, "-m", "mha.bench.machines", "--json"], cwd=ROOT, capture_output=True, text=True
    )
    if listed.returncode:
        sys.exit(f"could not list the machine classes:\n{listed.stderr}")
    classes = [c for c in json.loads(listed.stdout) if c["env"]]
    failed = []
    for c in classes:
        env = " ".join(f"{k}={v!r}" for k, v in c["env"].items())
        print(f"\n=== the numeric tests as {c['name']} ({env})", flush=True)
        cmd = [PYTHON, "-m", "pytest", "-m", "numeric", "-q", *args]
        if subprocess.run(cmd, cwd=ROOT, env={**os.environ, **c["env"]}).returncode:
            failed.append(c["name"])
    print(f"\nmachine matrix: {len(classes) - len(failed)} of {len(classes)} classes passed")
    if failed:
        sys.exit(f"the numeric tests failed as: {', '.join(failed)}")


def lint(args: list[str]) -> None:
    run(BIN / "ruff", "check", ROOT, *args)
    run(BIN / "ruff", "format", "--check", ROOT)


COMMANDS = {"book": book, "test": test, "matrix": matrix, "lint": lint}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    ensure_venv()
    COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
