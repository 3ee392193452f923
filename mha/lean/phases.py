"""Where the lean path's time goes: per-phase timing, off unless :func:`recording` is on.

The lean path (:mod:`mha.lean.tiles`, and :mod:`mha.lean.threads` under it) is written as
steps, each a function decorated with ``@timed("exp")`` and so on; its loops call the steps
and hold no timing code. Outside :func:`recording`, a timed step costs one function call
more than the step itself, well under a microsecond against a tile's milliseconds. Inside
it, every thread adds the seconds of each phase to its own tally, and :func:`recording`
sums the tallies over the threads. ``python -m mha.bench --profile`` prints that breakdown
next to the floor the machine sets (:mod:`mha.bench.profile`).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

_tallies: dict[int, dict[str, float]] | None = None  # thread id -> phase -> seconds; None: off

Step = TypeVar("Step", bound=Callable[..., Any])


def timed(name: str) -> Callable[[Step], Step]:
    """Decorate one step of the lean path: while :func:`recording`, its calls add their
    seconds to this thread's tally of phase ``name``; otherwise it just runs."""

    def decorate(step: Step) -> Step:
        @functools.wraps(step)
        def timed_step(*args: Any, **kwargs: Any) -> Any:
            if _tallies is None:
                return step(*args, **kwargs)
            start = time.perf_counter()
            try:
                return step(*args, **kwargs)
            finally:
                tally = _tallies.setdefault(threading.get_ident(), {})  # one dict per thread
                tally[name] = tally.get(name, 0.0) + time.perf_counter() - start

        return timed_step  # type: ignore[return-value]

    return decorate


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
