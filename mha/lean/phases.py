"""Where the lean path's time goes: per-phase timing, off unless :func:`recording` is on.

The lean path (:mod:`mha.lean.tiles`, and :mod:`mha.lean.threads` under it) wraps each of its
steps in ``with phase("exp"): ...``. Outside :func:`recording`, :func:`phase` returns one
shared do-nothing context: a function call and a ``with`` per step of a tile, well under a
microsecond against a tile's milliseconds. Inside it, every thread adds the seconds of each
phase to its own tally, and :func:`recording` sums the tallies over the threads.
``python -m mha.bench --profile`` prints that breakdown next to the floor the machine sets
(:mod:`mha.bench`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

_OFF = nullcontext()
_tallies: dict[int, dict[str, float]] | None = None  # thread id -> phase -> seconds; None: off


class _Timed:
    """Adds the seconds between enter and exit to this thread's tally of ``name``."""

    __slots__ = ("name", "start")

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc_info: object) -> None:
        seconds = time.perf_counter() - self.start
        tally = _tallies.setdefault(threading.get_ident(), {})  # one dict per thread
        tally[self.name] = tally.get(self.name, 0.0) + seconds


def phase(name: str) -> AbstractContextManager[None]:
    """A context that times one step called ``name``; it does nothing outside :func:`recording`."""
    return _OFF if _tallies is None else _Timed(name)


@contextmanager
def recording() -> Iterator[dict[str, float]]:
    """Record the phases of the calls made inside the block (not re-entrant).

    Yields a dict that is filled on exit: phase name -> seconds, summed over the threads
    (so two threads busy for a second each count two seconds).
    """
    global _tallies
    if _tallies is not None:
        raise RuntimeError("phases.recording() is already on; it does not nest")
    totals: dict[str, float] = {}
    _tallies = {}
    try:
        yield totals
    finally:
        tallies, _tallies = _tallies, None
        for tally in tallies.values():
            for name, seconds in tally.items():
                totals[name] = totals.get(name, 0.0) + seconds
