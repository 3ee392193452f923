"""The runner: executes one notebook inside its sandbox and collects what its answers did.

    python -m mha.grade.runner < job.npz > result.npz

Started by the grader (:mod:`mha.grade.sandbox`) inside the notebook's sandbox, it talks to
the grader only through its standard input (the job: the notebook's code cells, the limits,
the exercises with their test inputs, packed by :mod:`mha.grade.wire`) and standard output
(the result). It first makes itself non-dumpable, so that the notebook's processes (same
user) can read neither its memory nor its open files, reads the whole job and closes its
input, sets the resource limits that its children inherit, then:

1. starts a Jupyter kernel (``nbclient``, IPC sockets in a private folder) and runs the
   harness's setup (:func:`mha.grade.harness.install`) before any cell of the notebook;
2. runs the notebook's code cells with nbclient's per-cell ``timeout`` (nbclient interrupts
   the kernel); what nbclient lacks is added here: a time limit for the whole notebook, a
   kernel that ignores the interrupt is stopped, and :class:`_Watch` stops one whose processes
   and threads, or memory, exceed the limits. Outputs are neither kept nor read;
3. stops every other process the notebook left in the sandbox, then opens the harness's comm:
   the harness arms its watch, and only then receives the inputs; it sends each exercise's
   results as it finishes, in the order of the job, each within the exercise's time limit;
4. when the kernel dies (or is stopped) in a cell, starts a fresh one and runs the notebook
   again without that cell; when it dies while an answer runs, that exercise is lost and the
   others are graded in a fresh kernel. Each fresh kernel skips one more cell or grades at
   least one more exercise, and none starts after the notebook's total time
   (``limits["total_seconds"]``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from queue import Empty

from mha.grade import wire
from mha.grade.harness import COMM_TARGET

ARM_SECONDS = 60.0  # for the harness to answer the comm (it may import torch)
SLACK_SECONDS = 10.0  # on top of an exercise's time limit, for packing its results
RESULT_BYTES = 64 * 2**20  # what one exercise's answer may send back
MAX_JOB_BYTES = wire.MAX_BYTES
TIMEOUT_ERROR = "MhaGradeCellTimeout"
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
KERNEL_NAME = "mha-grade"


def _client_class():
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionComplete

    class Client(NotebookClient):
        """Follows only the end of each cell: outputs are never read, so none is kept and no
        malformed message can break the client."""

        def process_message(self, msg, cell, cell_index):
            content = msg.get("content")
            if (
                msg.get("msg_type") == "status"
                and isinstance(content, dict)
                and content.get("execution_state") == "idle"
            ):
                raise CellExecutionComplete()
            return None

    return Client


class Runner:
    """One notebook's run (see the module docstring)."""

    def __init__(self, job: dict) -> None:
        import nbformat

        self.job, self.limits = job, job["limits"]
        self.cells: list[tuple[int, str]] = [tuple(c) for c in job["cells"]]
        self.specs = {spec["name"]: spec for spec in job["exercises"]}
        self.skip: set[int] = set()  # positions of cells that stopped a kernel
        self.problems: list[str] = []
        self.results: dict[str, dict] = {}
        self.changed: list[str] = []
        self.private = Path(tempfile.mkdtemp(prefix="mha-grade-runner-"))
        self.workdir = self.private / "work"
        self.workdir.mkdir()
        setup = (
            f'__import__("mha.grade.harness").grade.harness.install({json.dumps(list(self.specs))})'
        )
        sources = [setup, *(source for _, source in self.cells)]
        self.nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
        self.cell_limit = float(self.limits["cell_seconds"])
        self.reply: dict = {}
        self._kernelspec()

    def _kernelspec(self) -> None:
        spec = self.private / "kernels" / KERNEL_NAME
        spec.mkdir(parents=True)
        argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        (spec / "kernel.json").write_text(
            json.dumps({"argv": argv, "display_name": "mha-grade", "language": "python"})
        )
        os.environ["JUPYTER_PATH"] = str(self.private)
        os.environ["JUPYTER_RUNTIME_DIR"] = str(self.private / "runtime")

    # --- the run ----------------------------------------------------------------------------

    async def run(self) -> dict:
        pending = list(self.specs)
        self.budget_end = time.monotonic() + float(self.limits["total_seconds"])
        while pending and time.monotonic() < self.budget_end:
            client = await self._start()
            try:
                stopped = await self._run_cells(client)
                if stopped is None:
                    self._stop_strays(client)
                    await self._harness(client, pending)
            finally:
                await self._shut_down(client)
            left = [name for name in pending if name not in self.results]
            if stopped is None and len(left) == len(pending):
                break  # the harness made no progress: another kernel would not either
            if stopped is None and left:
                self.problems.append("a fresh kernel graded the remaining exercises")
            pending = left
        for name in pending:
            self.results[name] = {"lost": "the notebook's time ran out before it was graded"}
        shutil.rmtree(self.private, ignore_errors=True)
        return {"problems": self.problems, "exercises": self.results, "changed": self.changed}

    async def _start(self):
        from jupyter_client.manager import AsyncKernelManager

        manager = AsyncKernelManager(kernel_name=KERNEL_NAME, transport="ipc")
        manager.ip = str(self.private / f"ipc-{uuid.uuid4().hex[:8]}")
        client = _client_class()(
            self.nb,
            km=manager,
            timeout_func=lambda cell: self.cell_limit,
            interrupt_on_timeout=True,
            error_on_timeout={"ename": TIMEOUT_ERROR, "evalue": "", "traceback": []},
            allow_errors=True,
            iopub_timeout=2,
            startup_timeout=120,
            on_cell_executed=self._executed,
        )
        quiet = subprocess.DEVNULL
        await client.async_start_new_kernel(stdout=quiet, stderr=quiet, cwd=str(self.workdir))
        await client.async_start_new_kernel_client()
        self.watch = _Watch(client.km.provisioner.pid, self.job)
        self.watching = asyncio.ensure_future(self.watch.run())
        return client

    def _executed(self, cell, cell_index, execute_reply) -> None:
        content = (execute_reply or {}).get("content")
        self.reply = content if isinstance(content, dict) else {}

    async def _shut_down(self, client) -> None:
        self.watching.cancel()
        self.problems.extend(sorted(self.watch.notes))
        try:
            client.kc.stop_channels()
            await client.km.shutdown_kernel(now=True)
        except Exception:  # already gone
            pass

    async def _run_cells(self, client) -> int | None:
        """Run the setup and the notebook's cells; the position of a cell that stopped the
        kernel (and is skipped from now on), or None."""
        from nbclient.exceptions import DeadKernelError

        self.cell_limit = 120.0
        await client.async_execute_cell(self.nb.cells[0], 0, store_history=False)
        if self.reply.get("status") != "ok":
            error = f"{self.reply.get('ename')}: {self.reply.get('evalue')}"
            raise RuntimeError(f"the grader's setup failed in the kernel ({error[:300]})")
        deadline = min(time.monotonic() + float(self.limits["notebook_seconds"]), self.budget_end)
        for position, (index, _) in enumerate(self.cells):
            if position in self.skip:
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                self.problems.append(
                    f"the notebook's time limit ({self.limits['notebook_seconds']:g} s) was "
                    f"reached before cell {index}; the rest did not run"
                )
                return None
            self.cell_limit = min(float(self.limits["cell_seconds"]), left)
            try:
                await client.async_execute_cell(self.nb.cells[position + 1], position + 1)
            except DeadKernelError:
                why = self.watch.reason or "the kernel died in it (a crash or an exit)"
            except Exception as error:  # a protocol failure: this kernel cannot be trusted
                why = f"the kernel's messages could not be followed ({type(error).__name__})"
            else:
                if self.reply.get("ename") != TIMEOUT_ERROR:
                    continue
                self.problems.append(
                    f"cell {index} ran past its {self.cell_limit:.3g} s limit and was interrupted"
                )
                if await self._responsive(client):
                    continue
                why = "it ignored the interrupt, so the kernel was stopped"
            self.skip.add(position)
            self.problems.append(f"cell {index}: {why}; the notebook was run again without it")
            return position
        return None

    async def _responsive(self, client) -> bool:
        """Whether the kernel answers a kernel_info request within the grace period."""
        msg_id = client.kc.kernel_info()
        deadline = time.monotonic() + float(self.limits["interrupt_grace_seconds"])
        while (left := deadline - time.monotonic()) > 0:
            try:
                reply = await client.kc.shell_channel.get_msg(timeout=left)
            except Empty:
                break
            if (reply.get("parent_header") or {}).get("msg_id") == msg_id:
                return True
        return False

    def _stop_strays(self, client) -> None:
        """SIGKILL every process the notebook left (in the sandbox: all but the runner, its
        ancestors and the kernel; without one: the kernel's descendants)."""
        kernel = getattr(client.km.provisioner, "pid", None)
        strays = _strays(kernel, everything=bool(self.job["sandboxed"]))
        kill(strays)
        if strays:
            self.problems.append(f"{len(strays)} process(es) the notebook left were stopped")

    # --- the harness -------------------------------------------------------------------------

    async def _harness(self, client, pending: list[str]) -> None:
        kc, comm_id = client.kc, uuid.uuid4().hex
        _send(kc, "comm_open", {"comm_id": comm_id, "target_name": COMM_TARGET, "data": {}})
        message = await self._receive(client, comm_id, ARM_SECONDS)
        if message is None or message[0].get("type") != "armed":
            self.problems.append("the grader's harness did not answer in the kernel")
            return
        changed = message[0].get("changed")
        if isinstance(changed, list):
            self.changed.extend(str(c)[:200] for c in changed[:50])
        specs = [self.specs[name] for name in pending]
        inputs = wire.pack({"exercises": specs})
        _send(kc, "comm_msg", {"comm_id": comm_id, "data": {"type": "inputs"}}, [inputs])
        for name in pending:  # the harness answers in this order, each within its time limit
            seconds = float(self.specs[name]["seconds"]) + SLACK_SECONDS
            deadline = time.monotonic() + seconds
            while True:
                message = await self._receive(client, comm_id, deadline - time.monotonic())
                if message is None:
                    self.results[name] = {"lost": await self._lost(client, seconds)}
                    return
                data, buffers = message
                if data.get("type") == "error":
                    self.problems.append(f"the harness failed: {str(data.get('message'))[:300]}")
                    return
                if (
                    data.get("type") == "result"
                    and data.get("exercise") == name
                    and len(buffers) == 1
                ):
                    try:
                        self.results[name] = wire.unpack(bytes(buffers[0]), max_bytes=RESULT_BYTES)
                    except wire.WireError as error:
                        self.results[name] = {
                            "lost": f"the kernel sent malformed results ({error})"
                        }
                    break

    async def _lost(self, client, seconds: float) -> str:
        """Why no result came for the answer that was running."""
        if self.watch.reason is not None:
            return self.watch.reason
        if await client.km.is_alive():
            return f"it did not finish within {seconds:g} s, so the kernel was stopped"
        return "the kernel died while the answer ran (a crash or an exit)"

    async def _receive(self, client, comm_id: str, seconds: float):
        """The next (data, buffers) of our comm, or None after ``seconds`` or a kernel death."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                msg = await client.kc.iopub_channel.get_msg(timeout=min(left, 1.0))
            except Empty:
                if not await client.km.is_alive():
                    return None
                continue
            content = msg.get("content") if isinstance(msg, dict) else None
            if (
                msg.get("msg_type") == "comm_msg"
                and isinstance(content, dict)
                and content.get("comm_id") == comm_id
                and isinstance(content.get("data"), dict)
            ):
                return content["data"], list(msg.get("buffers") or [])
        return None


class _Watch:
    """What setrlimit lacks: the notebook's processes and threads counted, and their memory
    summed, four times a second (RLIMIT_NPROC does not hold for root, and RLIMIT_AS is per
    process). Over a limit, the processes other than the kernel are stopped first (they may
    be left over from an earlier cell); if the kernel alone is over, it is stopped too."""

    def __init__(self, kernel: int, job: dict) -> None:
        self.kernel, self.sandboxed = kernel, bool(job["sandboxed"])
        self.tasks, self.memory = job["limits"]["processes"], job["limits"]["memory_bytes"]
        self.reason: str | None = None  # why the kernel was stopped
        self.notes: set[str] = set()  # processes stopped, the kernel spared

    def over(self) -> str | None:
        """Which limit the kernel and what it started exceed now, if any."""
        tasks = resident = 0
        for pid in [self.kernel, *_strays(self.kernel, everything=self.sandboxed)]:
            with contextlib.suppress(OSError, ValueError, IndexError):  # gone meanwhile
                resident += _proportional_bytes(pid)
                tasks += len(os.listdir(f"/proc/{pid}/task"))
        if tasks > self.tasks:
            return f"the notebook started more than {self.tasks} processes or threads"
        if resident > self.memory:
            return f"the notebook used more than {self.memory / 2**30:.3g} GiB of memory"
        return None

    async def run(self) -> None:
        if not os.path.isdir("/proc"):
            return
        while self.reason is None:
            await asyncio.sleep(0.25)
            over = self.over()
            if over is None:
                continue
            strays = _strays(self.kernel, everything=self.sandboxed)
            if strays:
                kill(strays)
                self.notes.add(f"{over}; the processes it left were stopped")
            else:
                kill([self.kernel])
                self.reason = f"{over}, so the kernel was stopped"


def _proportional_bytes(pid: int) -> int:
    """The process's share of resident memory (PSS: pages shared after a fork count once in
    all), or its resident size where the kernel does not report PSS."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:  # an older kernel
        pass
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE


def _send(kc, msg_type: str, content: dict, buffers: list[bytes] | None = None) -> None:
    message = kc.session.msg(msg_type, content)
    if buffers:
        message["buffers"] = buffers
    kc.shell_channel.send(message)


def _processes() -> dict[int, int]:
    """{pid: parent pid} of the live processes in /proc (none where there is no /proc;
    zombies, already dead, are left out)."""
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


def kill(pids) -> None:
    """SIGKILL each process (those already gone are skipped)."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def descendants(pid: int) -> set[int]:
    """``pid`` and every process started from it (by parent links in /proc)."""
    parents, family = _processes(), {pid}
    while more := {p for p, parent in parents.items() if parent in family} - family:
        family |= more
    return family


def _strays(kernel: int | None, *, everything: bool) -> list[int]:
    parents = _processes()
    keep, pid = {os.getpid()}, os.getpid()
    while pid in parents and parents[pid] not in keep and parents[pid] > 0:  # our ancestors
        pid = parents[pid]
        keep.add(pid)
    if kernel is not None:
        keep.add(kernel)
    if everything:
        return sorted(p for p in parents if p not in keep)
    return sorted(descendants(kernel) - {kernel}) if kernel is not None else []


def _limit(job: dict) -> None:
    """The limits every process started from here inherits."""
    limits = job["limits"]
    wanted = [
        (resource.RLIMIT_AS, limits["memory_bytes"]),
        (resource.RLIMIT_CPU, limits["cpu_seconds"]),
        (resource.RLIMIT_FSIZE, limits["file_bytes"]),
        (resource.RLIMIT_CORE, 0),
    ]
    if job["sandboxed"]:  # counted per user: only meaningful in the sandbox's user namespace
        # twice the watch's limit: the watch stops the extra processes before the kernel
        # itself runs out of threads
        wanted.append((resource.RLIMIT_NPROC, 2 * limits["processes"]))
    for which, value in wanted:
        _, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        with contextlib.suppress(ValueError, OSError):  # a limit this system does not set
            resource.setrlimit(which, (value, value))


def _not_dumpable() -> None:
    """prctl(PR_SET_DUMPABLE, 0): /proc/<runner>/{mem,fd,environ} closed to other processes."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)


def _fonts(folder: str | None) -> None:
    """Copy a prepared matplotlib font cache (saves building it in every sandbox)."""
    if folder and os.path.isdir(folder):
        cache = Path(os.environ.get("HOME", "/tmp"), ".cache", "matplotlib")
        cache.mkdir(parents=True, exist_ok=True)
        for entry in os.scandir(folder):
            if entry.is_file(follow_symlinks=False) and entry.name.startswith("fontlist"):
                shutil.copyfile(entry.path, cache / entry.name)


def main() -> int:
    _not_dumpable()
    data = sys.stdin.buffer.read(MAX_JOB_BYTES + 1)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed by accident goes to stderr, never into the result
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    job = wire.unpack(data, max_bytes=MAX_JOB_BYTES)
    _limit(job)
    _fonts(job.get("fonts"))
    result = asyncio.run(Runner(job).run())
    out.write(wire.pack(result))
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
