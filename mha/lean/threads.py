"""A thread pool for NumPy work, as wide as the caller lets BLAS be, each thread's BLAS single.

NumPy releases the GIL inside matrix products and element-wise operations, so threads that
each run their own slice of the work run at once. The pool takes the caller's thread
settings as they are at the call: :func:`width` is the number of threads NumPy's BLAS may
use now (``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and any ``threadpoolctl`` limit in
force), at most one per core. While the pool's tasks run, NumPy's own BLAS library (not
another library's, such as SciPy's) runs single-threaded, so that the cores are not
oversubscribed and BLAS's own threads, which spin for ~0.1 s after a multi-threaded product,
stay asleep; its setting is put back when they are done. OpenBLAS holds that setting for
the whole process (``openblas_set_num_threads_local`` sets the same global count), so a
product that another thread starts during those milliseconds runs single-threaded too. A
width of 1 runs everything in the calling thread and touches no setting.
Used by the lean path of :func:`mha.multi_head_attention` (:mod:`mha.lean.tiles`).
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from mha.lean.phases import timed


@functools.cache
def cpu_count() -> int:
    """The CPU cores this process may use (one in Pyodide, which cannot start a thread)."""
    if sys.platform == "emscripten":
        return 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@functools.cache
def _numpy_blas() -> Any:
    """A threadpoolctl controller of the BLAS libraries that NumPy itself loaded (its wheel
    ships them beside the package, in ``numpy.libs`` or ``numpy/.dylibs``); of every BLAS
    library where none is NumPy's own (a system BLAS that NumPy shares)."""
    from threadpoolctl import ThreadpoolController

    blas = ThreadpoolController().select(user_api="blas")
    package = Path(np.__file__).resolve().parent

    def numpy_owns(path: Path) -> bool:
        return path.parent.name == f"{package.name}.libs" or package in path.parents

    own = [lib.filepath for lib in blas.lib_controllers if numpy_owns(Path(lib.filepath).resolve())]
    return blas.select(filepath=own) if own else blas


def _allowed_by_environment() -> int | None:
    """The thread count the environment asks for, where threadpoolctl sees no BLAS."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        value = os.environ.get(name, "").split(",")[0].strip()
        if value.isdigit() and int(value) > 0:
            return int(value)
    return None


def width() -> int:
    """How many threads the pool runs now: one per core, at most as many as NumPy's BLAS may
    use at this moment (its environment variables and any ``threadpoolctl`` limit)."""
    if cpu_count() == 1:  # nothing to share out (and no BLAS library to look up)
        return 1
    counts = [lib.num_threads for lib in _numpy_blas().lib_controllers]
    allowed = min(counts) if counts else _allowed_by_environment()
    return max(1, min(cpu_count(), allowed or cpu_count()))


@functools.cache
def _helpers() -> ThreadPoolExecutor:
    """Helper threads, one per core but one (the caller is the last)."""
    return ThreadPoolExecutor(max(1, cpu_count() - 1), thread_name_prefix="mha")


if hasattr(os, "register_at_fork"):  # a forked child has none of the pool's threads: new pool
    os.register_at_fork(after_in_child=_helpers.cache_clear)


def run(task: Callable[..., None], arguments: Iterable[tuple[Any, ...]]) -> None:
    """Call ``task(*args)`` for every ``args`` in ``arguments`` on :func:`width` threads.

    The calling thread and the helpers (:func:`width` threads in all) each take the next
    ``args`` until none is left: a thread that finishes early takes more, and a task costs
    one lock, not a hand-off through a queue. Runs in the calling thread alone when the
    width or the number of calls is 1. The first error a call raises is raised here, once
    every thread has stopped (a thread takes no new task after an error).
    """
    arguments = list(arguments)
    workers = min(width(), len(arguments))
    if workers <= 1:
        for args in arguments:
            task(*args)
        return
    pending, lock, errors = iter(arguments), threading.Lock(), []

    def work() -> None:
        while not errors:
            with lock:
                args = next(pending, None)
            if args is None:
                return
            try:
                task(*args)
            except BaseException as error:  # raised by run(), in the calling thread
                errors.append(error)

    with _numpy_blas().limit(limits=1):
        others = [_helpers().submit(work) for _ in range(workers - 1)]
        work()
        for other in others:
            if not other.cancel():  # one that has not started finds nothing left: cancelled
                other.result()
    if errors:
        raise errors[0]


@timed("projections")
def _product(rows: np.ndarray, b: np.ndarray, out: np.ndarray, chunk: slice) -> None:
    np.matmul(rows[chunk], b, out=out[chunk])


def block_rows(rows: int) -> int:
    """Rows per block when :func:`matmul` splits ``rows`` over the pool: four blocks per
    thread, at least 64 rows each."""
    return max(64, -(-rows // (4 * width())))


def matmul(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``a @ b`` as one 2-D product, its rows split over the pool, four blocks per thread
    (a thread slowed down by another process leaves its blocks to the others).

    ``out``, if given, is a C-contiguous array of the result's size and dtype to write into.

    Shapes
    ------
    a : (..., m, k);  b : (k, n)  ->  (..., m, n)
    """
    rows = a.reshape(-1, a.shape[-1])  # (all rows, k)
    shape = (rows.shape[0], b.shape[1])
    dtype = np.result_type(a, b)
    out = np.empty(shape, dtype=dtype) if out is None else out.reshape(shape)  # a view
    step = block_rows(rows.shape[0])
    blocks = [(rows, b, out, slice(start, start + step)) for start in range(0, shape[0], step)]
    run(_product, blocks)
    return out.reshape(*a.shape[:-1], b.shape[1])
