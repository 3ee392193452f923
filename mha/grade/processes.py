"""Grader process: the helpers that watch and stop a sandbox's processes from outside.

- :class:`Cgroup`: a sandbox's own control groups (cgroup v1 ``memory``, ``pids`` and ``cpu``
  hierarchies, made under the grader's own groups where they are writable): resident memory
  of the whole sandbox (its files in ``/tmp`` included) capped by the kernel, processes and
  threads refused beyond the limit, CPU shared per sandbox rather than per process or session,
  and the peak memory of one call read from ``memory.max_usage_in_bytes``;
- :class:`Watch`: where no group is writable, the same limits as a watched total (four
  times a second: the sandbox's resident memory summed, its tasks counted), and the peak of
  one call from the processes' ``VmHWM`` after resetting it through ``clear_refs`` (the
  sandbox has no ``/proc`` of its own, so nothing inside can reset it);
- :func:`kill_tree`, :func:`descendants`: SIGKILL for a process and everything it started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
import uuid
from pathlib import Path

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
CONTROLLERS = ("memory", "pids", "cpu")


def _processes() -> dict[int, int]:
    """{pid: parent pid} of the live processes (zombies left out)."""
    parents = {}
    for entry in os.scandir("/proc") if os.path.isdir("/proc") else []:
        if entry.name.isdigit():
            try:
                state, parent = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()[:2]
            except (OSError, ValueError, IndexError):  # gone meanwhile
                continue
            if state not in ("Z", "X"):
                parents[int(entry.name)] = int(parent)
    return parents


def descendants(pid: int) -> set[int]:
    """``pid`` and every live process started from it (by parent links in /proc)."""
    parents, family = _processes(), {pid}
    while more := {p for p, parent in parents.items() if parent in family} - family:
        family |= more
    return family & (set(parents) | {pid})


def kill(pids) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def kill_tree(pid: int) -> None:
    kill(descendants(pid))


def _mounts() -> dict[str, str]:
    """{controller: mount point} of the cgroup v1 hierarchies."""
    found = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if tail and tail[0] == "cgroup" and len(tail) >= 3:
                for option in tail[2].split(","):
                    if option in CONTROLLERS:
                        found[option] = fields[4]
    return found


def _own_groups() -> dict[str, str]:
    found = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(","):
                found[controller] = path
    return found


def writable_controllers() -> dict[str, Path]:
    """{controller: folder to make groups in} for the v1 controllers this process may use."""
    found = {}
    own = _own_groups()
    for controller, mount in _mounts().items():
        base = Path(mount) / own.get(controller, "/").lstrip("/")
        probe = base / f"mha-grade-probe-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        try:
            probe.mkdir()
            probe.rmdir()
        except OSError:
            continue
        found[controller] = base
    return found


class Cgroup:
    """One sandbox's groups (see the module docstring)."""

    def __init__(self, bases: dict[str, Path], *, memory_bytes: int, tasks: int) -> None:
        name = f"mha-grade-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.paths: dict[str, Path] = {}
        for controller, base in bases.items():
            path = base / name
            path.mkdir()
            self.paths[controller] = path
        if "memory" in self.paths:
            memory = self.paths["memory"]
            self._write(memory / "memory.limit_in_bytes", memory_bytes)
            with contextlib.suppress(OSError):  # no swap accounting on this kernel
                self._write(memory / "memory.memsw.limit_in_bytes", memory_bytes)
        if "pids" in self.paths:
            self._write(self.paths["pids"] / "pids.max", tasks)

    @staticmethod
    def _write(path: Path, value) -> None:
        path.write_text(f"{value}\n")

    def procs_files(self) -> list[str]:
        return [str(path / "cgroup.procs") for path in self.paths.values()]

    def _read(self, controller: str, name: str) -> int | None:
        try:
            return int((self.paths[controller] / name).read_text().split()[0])
        except (KeyError, OSError, ValueError, IndexError):
            return None

    def usage(self) -> int | None:
        return self._read("memory", "memory.usage_in_bytes")

    def reset_peak(self) -> None:
        with contextlib.suppress(KeyError, OSError):
            self._write(self.paths["memory"] / "memory.max_usage_in_bytes", 0)

    def peak(self) -> int | None:
        return self._read("memory", "memory.max_usage_in_bytes")

    def out_of_memory(self) -> bool:
        """Whether the kernel refused memory to the sandbox (its limit was reached)."""
        try:
            text = (self.paths["memory"] / "memory.oom_control").read_text()
        except (KeyError, OSError):
            return False
        kills = [int(line.split()[1]) for line in text.splitlines() if line.startswith("oom_kill ")]
        return bool(kills and kills[0]) or bool(self._read("memory", "memory.failcnt"))

    def tasks_refused(self) -> bool:
        try:
            return "max" in (self.paths["pids"] / "pids.events").read_text() and any(
                int(line.split()[1])
                for line in (self.paths["pids"] / "pids.events").read_text().splitlines()
            )
        except (KeyError, OSError, ValueError, IndexError):
            return False

    def pids(self) -> set[int]:
        found = set()
        for path in self.paths.values():
            with contextlib.suppress(OSError, ValueError):
                found |= {int(p) for p in (path / "cgroup.procs").read_text().split()}
        return found

    def remove(self) -> None:
        """Kill what is left and remove the groups."""
        for _ in range(50):
            left = self.pids()
            if not left:
                break
            kill(left)
            time.sleep(0.02)
        for path in self.paths.values():
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # tasks not yet gone
                    time.sleep(0.02)


def _resident(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE


def _status(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


class Watch:
    """Limits and peaks from /proc where no group is writable (see the module docstring)."""

    def __init__(self, root: int, *, memory_bytes: int, tasks: int) -> None:
        self.root, self.memory_bytes, self.tasks = root, memory_bytes, tasks
        self.reason: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="mha-grade-watch")
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            family = descendants(self.root)
            resident = tasks = 0
            for pid in family:
                with contextlib.suppress(OSError, ValueError, IndexError):
                    resident += _resident(pid)
                    tasks += len(os.listdir(f"/proc/{pid}/task"))
            if tasks > self.tasks:
                self.reason = (
                    f"the answer's sandbox started more than {self.tasks} processes or threads"
                )
            elif resident > self.memory_bytes:
                self.reason = f"the answer's sandbox used more than {self.memory_bytes / 2**30:.3g} GiB of memory"
            if self.reason is not None:
                kill(family)
                return

    def reset_peak(self) -> None:
        for pid in descendants(self.root):
            with contextlib.suppress(OSError):
                Path(f"/proc/{pid}/clear_refs").write_text("5")

    def _total(self, field: str) -> int:
        total = 0
        for pid in descendants(self.root):
            with contextlib.suppress(OSError, ValueError):
                total += _status(pid, field)
        return total

    def peak(self) -> int:
        return self._total("VmHWM")

    def usage(self) -> int:
        return self._total("VmRSS")

    def stop(self) -> None:
        self._stop.set()
