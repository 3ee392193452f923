"""Grader process: starting an answer's sandbox, talking to it, and holding it to its limits.

Each exercise of each notebook gets a fresh sandbox running :mod:`mha.grade.answer`, made with
bubblewrap (``bwrap``, the sandbox Flatpak uses):

- its own user (no capabilities, no further user namespaces), PID, network (none), IPC, UTS and
  cgroup namespaces, a new session; it dies with the grader;
- no ``/proc`` (so no process can read another's memory, environment or files, or reset the
  measurement of its own peak memory), a read-only ``/dev`` of device nodes, a small
  ``/dev/shm``, and a size-limited private ``/tmp`` as its home and working folder;
- read-only views of ``/usr``, a few files of ``/etc``, the Python installation, the
  environment's packages minus those the exercise does not need (empty folders in their
  place: a NumPy exercise sees no torch, SciPy or transformers), and the exercise's view of
  the ``mha`` package (:mod:`mha.grade.view`) where the package is; nothing else of the
  grader's machine (no submissions, no output folder, no chapters or solutions);
- a clean environment.

Limits are held from outside: a control group per sandbox where one is writable (resident
memory, processes and threads, a CPU share; :class:`mha.grade.processes.Cgroup`), else a
watched total (:class:`mha.grade.processes.Watch`); the file-size limit (``RLIMIT_FSIZE``);
and the grader's clock: a sandbox that does not answer in time is killed, whatever it catches.
The channel is the answer process's standard input and output (:mod:`mha.grade.protocol`);
its standard error is read, capped, only to explain a sandbox that failed to start.
"""

from __future__ import annotations

import collections
import contextlib
import importlib.metadata
import os
import re
import select
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mha
from mha.grade import protocol
from mha.grade.processes import Cgroup, Watch, kill_tree, writable_controllers

ETC = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "fonts",
    "localtime",
    "passwd",
    "group",
    "nsswitch.conf",
    "mime.types",
)
FONTS_INSIDE = "/run/mha-grade-fonts"
GiB, MiB = 2**30, 2**20
STDERR_KEPT = 4096  # bytes of a sandbox's standard error kept
RESULT_BYTES = 64 * MiB  # one message from the answer's process
VISIBLE = ("numpy", "array-api-compat", "threadpoolctl", "matplotlib", "ipython")  # and their needs


@dataclass(frozen=True)
class Limits:
    """Limits for one exercise's sandbox (times in seconds, sizes in bytes)."""

    cell_seconds: float = 60.0  # one cell of the answer's slice
    notebook_seconds: float = 300.0  # all of the slice's cells
    check_seconds: float = 30.0  # every test input (wall clock: the machine may be shared)
    memory_bytes: int = 3 * GiB  # resident memory of the whole sandbox, /tmp included
    processes: int = 256  # processes and threads in the sandbox
    file_bytes: int = 256 * MiB  # largest file written (RLIMIT_FSIZE)
    tmp_bytes: int = 256 * MiB  # the sandbox's /tmp
    start_seconds: float = 60.0  # for Python and the exercise's packages to start

    def exercise_seconds(self) -> float:
        """The most one exercise may take, all included."""
        return self.start_seconds + self.notebook_seconds + self.check_seconds + 30


class SandboxError(RuntimeError):
    """The answer's sandbox could not be started or gave no usable answer."""


class Lost(RuntimeError):
    """The answer's process ran out of time, died, or sent what is not a message."""


def _python_paths() -> list[str]:
    paths = []
    for path in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        for form in (os.path.abspath(path), os.path.realpath(path)):
            if os.path.isdir(form) and form not in paths:
                paths.append(form)
    return sorted(paths)


def _inside(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


class SitePackages:
    """What the environment's packages install where, to hide those an exercise does not need."""

    def __init__(self) -> None:
        self.distributions = {}
        for dist in importlib.metadata.distributions():
            name = dist.metadata.get("Name")
            if name:
                self.distributions.setdefault(_canonical(name), dist)
        self.owner: dict[str, str] = {}  # path of a top-level entry -> distribution
        self.startup: set[str] = set()  # distributions with a .pth file (run at start-up)
        for name, dist in self.distributions.items():
            for file in dist.files or []:
                parts = Path(str(file)).parts
                if len(parts) == 1 and parts[0].endswith(".pth"):
                    self.startup.add(name)
                if not parts or parts[0] == ".." or parts[0].endswith((".dist-info", ".egg-info")):
                    continue
                top = os.path.abspath(os.path.join(str(dist.locate_file("")), parts[0]))
                if top.endswith((".pth", "__pycache__")):
                    continue
                self.owner.setdefault(top, name)

    def needed(self, roots: Sequence[str]) -> set[str]:
        """The distributions ``roots`` need, transitively, on this machine (the extras they ask
        for included, other optional extras left out)."""
        from packaging.requirements import InvalidRequirement, Requirement

        todo, found = [(_canonical(r), frozenset()) for r in roots], set()
        while todo:
            name, extras = todo.pop()
            if (name, extras) in found or name not in self.distributions:
                continue
            found.add((name, extras))
            for text in self.distributions[name].requires or []:
                try:
                    requirement = Requirement(text)
                except InvalidRequirement:
                    continue
                marker = requirement.marker
                if marker is None or any(marker.evaluate({"extra": e}) for e in {"", *extras}):
                    todo.append((_canonical(requirement.name), frozenset(requirement.extras)))
        return {name for name, _ in found}

    def hidden(self, roots: Sequence[str]) -> list[str]:
        """Top-level files and folders of the distributions ``roots`` do not need."""
        keep = self.needed([*roots, *self.startup]) | {"mha"}
        return sorted(
            path for path, name in self.owner.items() if name not in keep and os.path.lexists(path)
        )

    def import_names(self, paths: Sequence[str]) -> list[str]:
        return sorted(
            {Path(p).name.split(".")[0] for p in paths if not Path(p).name.startswith("_")}
        )


class Sandbox:
    """How the answer sandboxes of one run are started (see the module docstring)."""

    def __init__(
        self,
        *,
        isolate: bool,
        threads: int = 1,
        fonts: Path | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.isolate, self.fonts, self.limits = isolate, fonts, limits or Limits()
        self.python = os.path.abspath(sys.executable)
        self.package_dir = os.path.dirname(os.path.abspath(mha.__file__))
        self.threads = str(max(1, threads))
        self.site = SitePackages()
        self.controllers = writable_controllers() if isolate else {}
        self.running: set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def environment(self) -> dict[str, str]:
        threads = {
            k: self.threads for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
        }
        env = {
            "PATH": f"{os.path.dirname(self.python)}:/usr/local/bin:/usr/bin:/bin",
            "PYTHONPATH": os.path.dirname(self.package_dir),
            "PYTHONNOUSERSITE": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "LANG": "C.UTF-8",
            "MPLBACKEND": "Agg",
            "HOME": "/tmp/home",
            "TMPDIR": "/tmp",
            **threads,
        }
        return env

    @property
    def fonts_inside(self) -> str | None:
        """Where the prepared font cache is, as the answer's process sees it."""
        return FONTS_INSIDE if self.isolate and self.fonts is not None else None

    def command(self, view: str | None, hidden: Sequence[str], *command: str) -> list[str]:
        """``command`` as run inside a sandbox with ``view`` in place of the package."""
        limits = self.limits
        argv = [
            "bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--cap-drop", "ALL", "--hostname", "mha-grade",
            "--dev", "/dev", "--size", str(32 * MiB), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
            "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
            "--ro-bind-try", "/proc/cpuinfo", "/proc/cpuinfo",
            "--ro-bind", "/usr", "/usr",
        ]  # fmt: skip
        for link in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
            if os.path.islink(link):
                argv += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                argv += ["--ro-bind", link, link]
        for name in ETC:
            argv += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        bound = ["/usr"]
        for path in _python_paths():
            if not _inside(path, bound):
                argv += ["--ro-bind", path, path]
                bound.append(path)
        for path in hidden:  # packages the exercise does not need: empty in the sandbox
            if _inside(path, bound):
                argv += (
                    ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
                )
        for path in [*self._other_copies(bound), *self._unused_site_packages(bound)]:
            argv += ["--tmpfs", path]
        if view is not None:
            argv += ["--ro-bind", view, self.package_dir]
        argv += ["--dir", "/tmp/home", "--dir", "/tmp/work", "--chdir", "/tmp/work"]
        if self.fonts is not None:
            argv += ["--ro-bind", str(self.fonts), FONTS_INSIDE]
        argv += ["--clearenv"]
        for key, value in self.environment().items():
            argv += ["--setenv", key, value]
        return [*argv, "--", *command]

    def _other_copies(self, bound: Sequence[str]) -> list[str]:
        """Other copies of the package on the import path (they would hold the references)."""
        found = []
        for entry in sys.path:
            candidate = os.path.join(os.path.abspath(entry or "."), "mha")
            if (
                candidate != self.package_dir
                and os.path.isfile(os.path.join(candidate, "__init__.py"))
                and _inside(candidate, bound)
            ):
                found.append(candidate)
        return found

    @staticmethod
    def _unused_site_packages(bound: Sequence[str]) -> list[str]:
        """Site-packages folders of the bound installations that are not on the import path
        (the base installation's, under a virtualenv): their packages are not the
        environment's, so none of them is visible."""
        on_path = {os.path.realpath(p) for p in sys.path if p}
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        found = []
        for root in bound:
            for kind in ("site-packages", "dist-packages"):
                folder = os.path.join(root, "lib", version, kind)
                if os.path.isdir(folder) and os.path.realpath(folder) not in on_path:
                    found.append(folder)
        return found

    def start(self, view: str | None, hidden: Sequence[str]) -> AnswerProcess:
        """A fresh sandbox running :mod:`mha.grade.answer`."""
        return AnswerProcess(self, view, hidden)

    def stop_all(self) -> None:
        with self._lock:
            for process in list(self.running):
                kill_tree(process.pid)


class AnswerProcess:
    """One running sandbox: send messages, receive them by the grader's clock, measure, stop."""

    # limits the grader sets before the sandbox starts: file size (in 512-byte blocks), no core
    # files, then the control groups; then bubblewrap
    START = (
        'ulimit -f "$1" && ulimit -c 0 || exit 97; shift; '
        'while [ "$1" != -- ]; do echo $$ > "$1" || exit 97; shift; done; shift; exec "$@"'
    )

    def __init__(self, sandbox: Sandbox, view: str | None, hidden: Sequence[str]) -> None:
        self.sandbox, limits = sandbox, sandbox.limits
        command = [sandbox.python, "-m", "mha.grade.answer"]
        if sandbox.isolate:
            command = sandbox.command(view, hidden, *command)
        self.cgroup = None
        if sandbox.controllers:
            self.cgroup = Cgroup(
                sandbox.controllers, memory_bytes=limits.memory_bytes, tasks=limits.processes
            )
        groups = self.cgroup.procs_files() if self.cgroup is not None else []
        blocks = str(max(1, limits.file_bytes // 512))
        command = ["/bin/sh", "-c", self.START, "sh", blocks, *groups, "--", *command]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        if not sandbox.isolate:  # the view first on the path: no bind mounts without a sandbox
            env = {**os.environ, **sandbox.environment(), "HOME": os.environ.get("HOME", "/tmp")}
            if view is not None:
                env["PYTHONPATH"] = os.path.dirname(view)
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd="/",  # never a folder that holds the package (python -m puts it on the path)
            start_new_session=True,
        )
        with sandbox._lock:
            sandbox.running.add(self.process)
        self.watch = None
        if self.cgroup is None or "memory" not in self.cgroup.paths:
            self.watch = Watch(
                self.process.pid, memory_bytes=limits.memory_bytes, tasks=limits.processes
            )
        self.stderr: collections.deque[bytes] = collections.deque()
        self._stderr_size = 0
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        self._buffer = b""

    def _drain(self) -> None:
        """Read standard error to its end, keeping only the last bytes."""
        stream = self.process.stderr
        while chunk := stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536):
            self.stderr.append(chunk)
            self._stderr_size += len(chunk)
            while self._stderr_size - len(self.stderr[0]) > STDERR_KEPT and len(self.stderr) > 1:
                self._stderr_size -= len(self.stderr.popleft())

    def error_tail(self) -> str:
        text = b"".join(self.stderr)[-STDERR_KEPT:].decode("utf-8", "replace").strip()
        return " | ".join(text.splitlines()[-3:])[:500]

    def send(self, tree: Any) -> None:
        data = protocol.pack(tree)
        try:
            self.process.stdin.write(len(data).to_bytes(protocol.HEADER, "big") + data)
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise Lost(self.why_gone()) from error

    def receive(self, deadline: float) -> Any:
        """The next message, by ``deadline`` (time.monotonic()); :class:`Lost` otherwise."""
        fd = self.process.stdout.fileno()
        while True:
            if len(self._buffer) >= protocol.HEADER:
                size = int.from_bytes(self._buffer[: protocol.HEADER], "big")
                if size > RESULT_BYTES:
                    raise Lost(
                        f"the answer's process sent a message of {size} bytes (limit {RESULT_BYTES})"
                    )
                if len(self._buffer) >= protocol.HEADER + size:
                    data = self._buffer[protocol.HEADER : protocol.HEADER + size]
                    self._buffer = self._buffer[protocol.HEADER + size :]
                    try:
                        return protocol.unpack(data, max_bytes=RESULT_BYTES)
                    except protocol.WireError as error:
                        raise Lost(f"the answer's process sent malformed data ({error})") from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if self.watch is not None and self.watch.reason is not None:
                raise Lost(self.watch.reason)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise Lost(self.why_gone())
            self._buffer += chunk

    def why_gone(self) -> str:
        """Why the answer's process is gone (or stopped talking)."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=2)
        if self.watch is not None and self.watch.reason is not None:
            return self.watch.reason
        if self.cgroup is not None and self.cgroup.out_of_memory():
            return (
                f"the answer's sandbox reached its memory limit "
                f"({self.sandbox.limits.memory_bytes / GiB:.3g} GiB), so the kernel stopped it"
            )
        code = self.process.returncode
        tail = self.error_tail()
        if code is None:
            return "the answer's process closed its channel"
        return f"the answer's process ended (exit {code})" + (f": {tail}" if tail and code else "")

    def reset_peak(self) -> int:
        """Start measuring a peak; the memory in use now."""
        meter = (
            self.cgroup if self.cgroup is not None and "memory" in self.cgroup.paths else self.watch
        )
        usage = meter.usage() or 0
        meter.reset_peak()
        return usage

    def peak(self) -> int:
        meter = (
            self.cgroup if self.cgroup is not None and "memory" in self.cgroup.paths else self.watch
        )
        return meter.peak() or 0

    def stop(self) -> None:
        kill_tree(self.process.pid)
        if self.cgroup is not None:
            self.cgroup.remove()
        if self.watch is not None:
            self.watch.stop()
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        self._reader.join(timeout=2)
        with contextlib.suppress(OSError):
            self.process.stderr.close()
        with self.sandbox._lock:
            self.sandbox.running.discard(self.process)


def unavailable(sandbox: Sandbox) -> str | None:
    """Why the sandbox cannot run here (None when it can)."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    probe = sandbox.command(None, [], sandbox.python, "-c", "import numpy")
    try:
        done = subprocess.run(
            probe, capture_output=True, timeout=120, env={"PATH": os.environ.get("PATH", "")}
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap could not be started ({error})"
    if done.returncode != 0:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-2:]
        return f"bwrap cannot run this Python with NumPy here: {' | '.join(tail)}"
    return None


def prepare_fonts(folder: Path) -> Path | None:
    """Build matplotlib's font cache once in ``folder`` (bound read-only into each sandbox, which
    copies it); None when matplotlib is missing or fails."""
    env = {**os.environ, "MPLCONFIGDIR": str(folder)}
    try:
        subprocess.run(
            [sys.executable, "-c", "import matplotlib.font_manager"],
            env=env,
            capture_output=True,
            timeout=300,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return folder if any(p.name.startswith("fontlist") for p in folder.iterdir()) else None
