"""A thread pool for NumPy work: one thread per core, each with a single-threaded BLAS.

NumPy releases the GIL inside matrix products and element-wise operations, so threads that
each run their own slice of the work run at once. BLAS is limited to one thread for the
duration (with ``threadpoolctl``) so that the cores are not oversubscribed, and so that
BLAS's own threads, which spin for ~0.1 s after a multi-threaded product, stay asleep.
Used by the lean path of :func:`mha.multi_head_attention` (:mod:`mha.lean.tiles`).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from mha.lean.phases import phase


@functools.cache
def cpu_count() -> int:
    """The CPU cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@functools.cache
def _pool() -> tuple[ThreadPoolExecutor, Any]:
    """A pool with one thread per core but one (the caller is the last), and a controller of
    BLAS's own threads."""
    from threadpoolctl import ThreadpoolController

    helpers = ThreadPoolExecutor(cpu_count() - 1, thread_name_prefix="mha")
    return helpers, ThreadpoolController()


if hasattr(os, "register_at_fork"):  # a forked child has none of the pool's threads: new pool
    os.register_at_fork(after_in_child=_pool.cache_clear)


def run(task: Callable[..., None], arguments: Iterable[tuple[Any, ...]]) -> None:
    """Call ``task(*args)`` for every ``args`` in ``arguments``, on every core, BLAS single-threaded.

    The calling thread and the pool's threads (one per core in all) each take the next
    ``args`` until none is left: a thread that finishes early takes more, and a task costs
    one lock, not a hand-off through a queue. Runs in the calling thread alone when there is
    one core or one call. The first error a call raises is raised here, once every thread
    has stopped (a thread takes no new task after an error). :mod:`mha.lean.phases` times the
    tasks' steps; the time the threads spend waiting is what is left of cores x wall time.
    """
    arguments = list(arguments)
    if cpu_count() == 1 or len(arguments) == 1:
        for args in arguments:
            task(*args)
        return
    helpers, blas = _pool()
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

    with blas.limit(limits=1, user_api="blas"):
        others = [helpers.submit(work) for _ in range(min(cpu_count(), len(arguments)) - 1)]
        work()
        for other in others:
            if not other.cancel():  # one that has not started finds nothing left: cancelled
                other.result()
    if errors:
        raise errors[0]


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
    step = max(64, -(-rows.shape[0] // (4 * cpu_count())))  # rows per block, at least 64

    def product(chunk: slice) -> None:
        with phase("projections"):
            np.matmul(rows[chunk], b, out=out[chunk])

    run(product, [(slice(start, start + step),) for start in range(0, rows.shape[0], step)])
    return out.reshape(*a.shape[:-1], b.shape[1])
