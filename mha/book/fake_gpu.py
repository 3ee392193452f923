"""Stand-ins that run chapter 7's GPU branches on the CPU, so that tests can execute them.

Chapter 7 has cells that run only where a CUDA GPU exists (CuPy arrays, torch on ``cuda``,
longer sequences). A machine without a GPU skips them, so a mistake in them would ship
unseen. With the environment variable ``MHA_BOOK_FAKE_GPU=1`` the chapter swaps the names
below in for the real ones and takes its GPU branches, at small sizes, on the CPU:

- :data:`gpu`: the interface of :mod:`mha.gpu` (``gpu_available`` is True,
  ``to_device`` copies into NumPy, ``synchronize`` does nothing);
- :data:`cupy`: NumPy standing in for CuPy, with a ``get_default_memory_pool()`` whose
  ``total_bytes()`` is the peak that ``tracemalloc`` traced since ``free_all_blocks()``;
- :func:`make_call` and :func:`time_interleaved`: those of :mod:`mha.bench.timing`, with the GPU
  implementations (``"cupy"``, ``"... cuda"``) run by their CPU counterparts.

What this checks is the chapter's logic (branches, sizes, NaN for what did not run, plots,
asserts), not CuPy or CUDA themselves: ``tests/test_gpu.py`` does that on a real GPU.
"""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Callable
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np

from mha import gpu as real_gpu
from mha.bench import timing
from mha.params import MHAParams

ENV_VAR = "MHA_BOOK_FAKE_GPU"


def enabled() -> bool:
    """True when the environment asks for the fake GPU (``MHA_BOOK_FAKE_GPU=1``)."""
    return os.environ.get(ENV_VAR, "") == "1"


class _TracedPool:
    """CuPy's memory pool, as chapter 7 reads it: ``free_all_blocks()``, then
    ``total_bytes()`` before and after a call. Here ``free_all_blocks`` starts ``tracemalloc``
    afresh and ``total_bytes`` is the peak traced since; the second reading stops tracing.
    """

    def __init__(self) -> None:
        self._readings = 0

    def free_all_blocks(self) -> None:
        if tracemalloc.is_tracing():
            tracemalloc.stop()
        tracemalloc.start()
        self._readings = 0

    def total_bytes(self) -> int:
        peak = tracemalloc.get_traced_memory()[1] if tracemalloc.is_tracing() else 0
        self._readings += 1
        if self._readings == 2:
            tracemalloc.stop()
        return peak


class _FakeCuPy(ModuleType):
    """NumPy under CuPy's name, plus the memory pool."""

    def __init__(self) -> None:
        super().__init__("numpy", "NumPy standing in for CuPy (MHA_BOOK_FAKE_GPU=1)")
        self._pool = _TracedPool()

    def get_default_memory_pool(self) -> _TracedPool:
        return self._pool

    def __getattr__(self, name: str) -> Any:
        return getattr(np, name)


cupy = _FakeCuPy()


def _to_device(x):
    if isinstance(x, MHAParams):
        return x.map(np.array)
    return np.array(x)  # a copy, as a transfer makes one


gpu = SimpleNamespace(
    gpu_available=lambda: True,
    backend_summary=lambda: "Fake GPU (MHA_BOOK_FAKE_GPU=1): NumPy on the CPU stands in for CuPy.",
    array_module=lambda prefer_gpu=True: cupy if prefer_gpu else np,
    to_device=_to_device,
    to_host=real_gpu.to_host,
    synchronize=lambda: None,
)

_CPU_COUNTERPART = {"cupy": "numpy"}


def _cpu_impl(impl: str) -> str:
    return _CPU_COUNTERPART.get(impl, impl.removesuffix(" cuda"))


def make_call(impl: str, shape: tuple[int, int, int, int], seed: int = 0) -> Callable[[], Any]:
    """:func:`mha.bench.timing.make_call`, with a GPU implementation run by its CPU counterpart."""
    return timing.make_call(_cpu_impl(impl), shape, seed)


def time_interleaved(
    calls: dict[str, Callable[[], Any]], rounds: int, **kwargs
) -> dict[str, float]:
    """:func:`mha.bench.timing.time_interleaved`, without synchronising a GPU that is not there."""
    # timing synchronises CUDA for names ending in "cuda": rename those, keep the order
    renamed = [name if name == _cpu_impl(name) else f"{name} (on the CPU)" for name in calls]
    times = timing.time_interleaved(
        dict(zip(renamed, calls.values(), strict=True)), rounds, **kwargs
    )
    return {name: times[new] for name, new in zip(calls, renamed, strict=True)}
