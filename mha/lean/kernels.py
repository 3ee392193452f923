"""The lean path's kernels, chosen by the machine: how it exponentiates, how large its tiles are.

**The exponential.** The softmax needs ``e ** s`` for every score ``s``. With the queries
scaled by ``log2(e)`` the same number is ``2 ** s'``, so :func:`numpy.exp` and
:func:`numpy.exp2` are two routes to one softmax, and which is faster depends on the loops
NumPy dispatches on this CPU: NumPy 2.4 has a SIMD ``exp2`` loop for float32 only on
AVX-512 (``X86_V4``), while its ``exp`` has an AVX2 one too, so on an AVX2 CPU ``exp2``
runs at about 0.65x the speed of ``exp`` and on an AVX-512 CPU it is the faster of the two
(issue 24). NumPy does not say which loop is faster, so the choice is a measurement: the
first lean call of a process with a given dtype times both on the same scores (the fastest
of :data:`MEASURE_ROUNDS` interleaved rounds over :data:`MEASURE_ELEMENTS` numbers in
[-16, 0], 2 ms for float32 on this project's machine) and keeps the faster for the rest of the process.
The environment variable ``MHA_LEAN_EXP=exp`` or ``exp2`` forces a choice (tests, and the
benchmark's comparison of the two). Other libraries (CuPy, ...) always take the array-API
standard's ``exp``: on a GPU the exponentials are bound by memory, not by the instruction.

**The tiles.** One NumPy worker's score tile holds :func:`tile_elements` numbers: a quarter
of the last-level cache each core shares (Linux's ``/sys/devices/system/cpu``), rounded down
to a power of two and kept in [2**16, 2**20]; 2**20 where the cache cannot be read. On this
project's 2-core AMD EPYC (32 MiB of L3 for 2 cores) that is 2**20 float32 numbers (4 MiB),
the size that measured fastest there; on a CPU with less cache per core the tiles shrink with
it (a rule, not measured on such a CPU).
"""

from __future__ import annotations

import functools
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import array_api_compat
import numpy as np

#: The variable that forces the lean path's exponential (``exp`` or ``exp2``).
EXP_VARIABLE = "MHA_LEAN_EXP"
MEASURE_ELEMENTS = 2**15  # numbers per timed call: 128 KiB of float32, in the L2 cache
MEASURE_ROUNDS = 7  # interleaved rounds, the fastest of each kept
MIN_TILE_ELEMENTS, MAX_TILE_ELEMENTS = 2**16, 2**20


@dataclass(frozen=True)
class Exponential:
    """One route to ``e ** s``: ``name`` (``"exp"`` or ``"exp2"``) applied to ``scale * s``."""

    name: str
    scale: float  # base ** (scale * s) == e ** s: 1 for exp, log2(e) for exp2

    def __call__(self, xp: ModuleType, x: Any, out: Any = None) -> Any:
        """``base ** x``; NumPy only: into ``out`` when given."""
        if out is not None:
            return getattr(np, self.name)(x, out=out)
        return getattr(xp, self.name)(x)


EXPONENTIALS = {"exp": Exponential("exp", 1.0), "exp2": Exponential("exp2", math.log2(math.e))}


def exponential(xp: ModuleType, dtype: Any) -> Exponential:
    """The exponential the lean path uses for ``dtype`` arrays of ``xp``.

    ``MHA_LEAN_EXP`` if set; else on NumPy the faster of ``exp`` and ``exp2`` on this CPU
    (:func:`measured_exponential`, once per process and dtype); else ``exp``.
    """
    forced = os.environ.get(EXP_VARIABLE, "")
    if forced:
        if forced not in EXPONENTIALS:
            raise ValueError(
                f"{EXP_VARIABLE} must be one of {sorted(EXPONENTIALS)} or unset, got {forced!r}"
            )
        return EXPONENTIALS[forced]
    if not array_api_compat.is_numpy_namespace(xp):
        return EXPONENTIALS["exp"]
    return measured_exponential(np.dtype(dtype).name)


def _seconds(ufunc: np.ufunc, x: np.ndarray, out: np.ndarray) -> float:
    start = time.perf_counter()
    ufunc(x, out=out)
    return time.perf_counter() - start


@functools.cache
def measured_exponential(dtype: str) -> Exponential:
    """The faster of NumPy's ``exp`` and ``exp2`` on ``dtype`` numbers, measured once.

    Both exponentiate the same :data:`MEASURE_ELEMENTS` numbers in [-16, 0] (the range of
    shifted scores), one call each per round, interleaved, after one warm-up call each;
    the fastest round of each decides (a slow moment of a shared machine slows both).
    """
    x = np.linspace(-16.0, 0.0, MEASURE_ELEMENTS, dtype=dtype)
    out = np.empty_like(x)
    best = dict.fromkeys(EXPONENTIALS, math.inf)
    for name in EXPONENTIALS:
        getattr(np, name)(x, out=out)
    for _ in range(MEASURE_ROUNDS):
        for name in EXPONENTIALS:
            best[name] = min(best[name], _seconds(getattr(np, name), x, out))
    return EXPONENTIALS[min(best, key=best.__getitem__)]


def last_level_cache_per_core(root: Path = Path("/sys/devices/system/cpu/cpu0/cache")) -> int:
    """Bytes of CPU 0's largest cache level divided by the CPUs that share it (0: unknown).

    ``root`` holds Linux's ``index*/{level,type,size,shared_cpu_list}`` files.
    """
    units = {"K": 2**10, "M": 2**20, "G": 2**30}
    best_level, per_core = 0, 0
    for index in sorted(root.glob("index*")):
        try:
            level = int((index / "level").read_text())
            kind = (index / "type").read_text().strip()
            size = (index / "size").read_text().strip()
            shared = (index / "shared_cpu_list").read_text().strip()
        except (OSError, ValueError):
            continue
        number, unit = (size[:-1], size[-1]) if size[-1:] in units else (size, "")
        if kind == "Instruction" or level < best_level or not number.isdigit():
            continue
        sharers = 0
        for part in shared.split(","):
            first, _, last = part.partition("-")
            sharers += int(last or first) - int(first) + 1
        best_level, per_core = level, int(number) * units.get(unit, 1) // max(1, sharers)
    return per_core


def tile_elements_for(cache_bytes_per_core: int) -> int:
    """A quarter of ``cache_bytes_per_core`` in float32 numbers, rounded down to a power of
    two in [:data:`MIN_TILE_ELEMENTS`, :data:`MAX_TILE_ELEMENTS`]; the largest if unknown (0)."""
    share = cache_bytes_per_core // 4 // 4
    if share <= 0:
        return MAX_TILE_ELEMENTS
    return min(MAX_TILE_ELEMENTS, max(MIN_TILE_ELEMENTS, 1 << (share.bit_length() - 1)))


@functools.cache
def tile_elements() -> int:
    """Numbers in one NumPy worker's score tile on this CPU (:func:`tile_elements_for` its
    :func:`last_level_cache_per_core`), read once per process."""
    return tile_elements_for(last_level_cache_per_core())
