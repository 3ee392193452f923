"""Starting the runner (:mod:`mha.grade.runner`) for one notebook: in a bubblewrap sandbox, or,
with ``--no-sandbox``, as a plain child process.

The sandbox (``bwrap``, the sandbox Flatpak uses) gets

- its own user (no capabilities, no further user namespaces), PID, network (loopback only),
  IPC, UTS and cgroup namespaces, and a new session; it is killed with the grader;
- a root made of read-only binds of only what Python needs: ``/usr`` (and the ``/bin``,
  ``/lib`` links), a few files of ``/etc`` (the dynamic linker's cache, fonts, ``passwd``),
  the Python installation and the environment (``sys.prefix``, ``sys.base_prefix``), and the
  ``mha`` package folder alone (so ``chapters/solutions`` next to it does not exist inside);
  the grader's submissions, output folder and the book's chapters are not bound, and any of
  them that lies inside a bound folder is covered by an empty tmpfs;
- a private, size-limited ``/tmp`` (the kernel's home, working folder and sockets);
- a clean environment.

The runner sets the memory, CPU-time, file-size and process limits (``setrlimit``) that the
kernel inherits. Everything crosses the boundary through the runner's standard input and
output (:mod:`mha.grade.wire`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import mha

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
    "hosts",
    "mime.types",
)
FONTS_INSIDE = "/run/mha-grade-fonts"
GiB = 2**30


@dataclass(frozen=True)
class Limits:
    """Limits for one notebook (times in seconds, sizes in bytes)."""

    cell_seconds: float = 60.0
    notebook_seconds: float = 600.0
    check_seconds: float = 10.0
    interrupt_grace_seconds: float = 5.0
    memory_bytes: int = 4 * GiB  # address space of each process (RLIMIT_AS)
    processes: int = 256  # processes and threads of the notebook (the runner's watch)
    file_bytes: int = GiB  # largest file written (RLIMIT_FSIZE)
    tmp_bytes: int = GiB  # the sandbox's /tmp

    def to_job(self, exercises: int) -> dict:
        return {
            "cell_seconds": float(self.cell_seconds),
            "notebook_seconds": float(self.notebook_seconds),
            "total_seconds": self.total_seconds(exercises),
            "interrupt_grace_seconds": float(self.interrupt_grace_seconds),
            "memory_bytes": int(self.memory_bytes),
            "cpu_seconds": int(self.wall_seconds(exercises)),
            "file_bytes": int(self.file_bytes),
            "processes": int(self.processes),
        }

    def total_seconds(self, exercises: int) -> float:
        """No fresh kernel starts after this (a kernel death costs a re-run: three runs of the
        notebook, and the answers' time)."""
        from mha.grade.runner import ARM_SECONDS, SLACK_SECONDS

        return (
            3 * self.notebook_seconds
            + ARM_SECONDS
            + exercises * (self.check_seconds + SLACK_SECONDS)
        )

    def wall_seconds(self, exercises: int) -> float:
        """The most one notebook may take, all included; past it the sandbox is killed."""
        return 2 * self.total_seconds(exercises) + 300


class SandboxError(RuntimeError):
    """The runner gave no result (it crashed, was killed, or ran past the wall-clock limit)."""


def _python_paths() -> list[str]:
    """The Python installation and environment, as named and resolved."""
    paths = []
    for path in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        for form in (os.path.abspath(path), os.path.realpath(path)):
            if os.path.isdir(form) and form not in paths:
                paths.append(form)
    return sorted(paths)


def _inside(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


class Sandbox:
    """How one notebook's runner is started; :meth:`run` starts it."""

    def __init__(
        self,
        *,
        isolate: bool,
        hide: Sequence[Path] = (),
        threads: int = 1,
        fonts: Path | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.isolate, self.fonts, self.limits = isolate, fonts, limits or Limits()
        self.mha_dir = os.path.dirname(os.path.abspath(mha.__file__))
        root = os.path.dirname(self.mha_dir)
        self.hide = [os.path.abspath(p) for p in hide] + [f"{root}/chapters", f"{root}/_build"]
        self.threads = str(max(1, threads))
        self.running: set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def environment(self) -> dict[str, str]:
        """The runner's environment (the whole of it, in the sandbox)."""
        threads = {
            k: self.threads for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
        }
        env = {
            "PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
            "PYTHONPATH": os.path.dirname(self.mha_dir),
            "PYTHONNOUSERSITE": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "LANG": "C.UTF-8",
            "MPLBACKEND": "Agg",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            **threads,
        }
        if not self.isolate:
            return {
                **os.environ,
                **env,
                "PYTHONPATH": os.pathsep.join(
                    p for p in (env["PYTHONPATH"], os.environ.get("PYTHONPATH")) if p
                ),
            }
        return {**env, "HOME": "/tmp/home", "TMPDIR": "/tmp"}

    def command(self, *command: str) -> list[str]:
        """``command`` as run inside the sandbox (unchanged without one)."""
        if not self.isolate:
            return list(command)
        argv = [
            "bwrap",
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--hostname",
            "mha-grade",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--size",
            str(self.limits.tmp_bytes),
            "--tmpfs",
            "/tmp",  # first, so that binds of folders under /tmp stay visible
            "--ro-bind",
            "/usr",
            "/usr",
        ]
        for link in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
            if os.path.islink(link):
                argv += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                argv += ["--ro-bind", link, link]
        for name in ETC:
            argv += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        bound = ["/usr", self.mha_dir]
        for path in _python_paths():
            if not _inside(path, bound):
                argv += ["--ro-bind", path, path]
                bound.append(path)
        argv += ["--ro-bind", self.mha_dir, self.mha_dir]
        for path in self.hide:  # belt and braces: nothing of theirs is bound on purpose
            if _inside(path, bound) and os.path.lexists(path):
                argv += (
                    ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
                )
        argv += ["--dir", "/tmp/home", "--dir", "/tmp/work", "--chdir", "/tmp/work"]
        if self.fonts is not None:
            argv += ["--ro-bind", str(self.fonts), FONTS_INSIDE]
        argv += ["--clearenv"]
        for key, value in self.environment().items():
            argv += ["--setenv", key, value]
        return [*argv, "--", *command]

    @property
    def fonts_inside(self) -> str | None:
        if self.fonts is None:
            return None
        return FONTS_INSIDE if self.isolate else str(self.fonts)

    def run(self, job: bytes, seconds: float) -> bytes:
        """Run the runner on ``job``; its result, or :class:`SandboxError`."""
        command = self.command(sys.executable, "-m", "mha.grade.runner")
        with tempfile.TemporaryDirectory(prefix="mha-grade-home-") as home:
            env = self.environment() if not self.isolate else {"PATH": os.environ.get("PATH", "")}
            if not self.isolate:
                env["HOME"] = home
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=True,
            )
            with self._lock:
                self.running.add(process)
            try:
                out, err = process.communicate(job, timeout=seconds)
            except subprocess.TimeoutExpired:
                self._kill(process)
                out, err = process.communicate()
                raise SandboxError(
                    f"the sandbox ran past {seconds:.0f} s and was stopped"
                ) from None
            finally:
                with self._lock:
                    self.running.discard(process)
        if process.returncode != 0 or not out:
            tail = err.decode("utf-8", "replace").strip().splitlines()[-3:]
            raise SandboxError(f"the runner failed (exit {process.returncode}): {' | '.join(tail)}")
        return out

    def _kill(self, process: subprocess.Popen) -> None:
        """SIGKILL the runner and everything it started (a kernel has its own session)."""
        from mha.grade.runner import descendants, kill

        kill(descendants(process.pid))

    def stop_all(self) -> None:
        """Stop every runner still running (on an interrupt)."""
        with self._lock:
            for process in list(self.running):
                self._kill(process)


def unavailable(sandbox: Sandbox) -> str | None:
    """Why the sandbox cannot run here (None when it can): bwrap missing, or unable to start
    Python with this package inside it."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    probe = sandbox.command(sys.executable, "-c", "import mha.grade.runner")
    try:
        done = subprocess.run(
            probe, capture_output=True, timeout=120, env={"PATH": os.environ.get("PATH", "")}
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap could not be started ({error})"
    if done.returncode != 0:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-2:]
        return f"bwrap cannot run Python with this package here: {' | '.join(tail)}"
    return None


def prepare_fonts(folder: Path) -> Path | None:
    """Build matplotlib's font cache once in ``folder`` (each sandbox copies it); None when
    matplotlib is missing or fails."""
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
