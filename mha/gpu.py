"""The GPU variant: the same ``mha`` functions, run on CuPy arrays.

``mha``'s functions take their array namespace from their inputs, so the GPU variant is
"move the arrays to the GPU and call the same function". This module says whether a usable
GPU exists, moves arrays and :class:`~mha.MHAParams` to and from the device, and lets callers
fall back to NumPy where no GPU exists. CuPy is imported only when one of these functions is
called, and is optional: ``pip install "mha[gpu]"``.
"""

from __future__ import annotations

import functools
from types import ModuleType

import numpy as np

from mha._validate import Array
from mha.params import MHAParams


@functools.cache
def _probe() -> tuple[ModuleType | None, str]:
    """(cupy or None, one sentence saying what was found)."""
    try:
        import cupy
    except ImportError:
        return (
            None,
            "No GPU: CuPy is not installed (pip install 'mha[gpu]'); using NumPy on the CPU.",
        )
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as err:  # CUDA driver missing or broken
        return (
            None,
            f"No GPU: CuPy {cupy.__version__} is installed but CUDA failed ({err}); using NumPy on the CPU.",
        )
    if count == 0:
        return (
            None,
            f"No GPU: CuPy {cupy.__version__} found no CUDA device; using NumPy on the CPU.",
        )
    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    return cupy, f"GPU: {name} via CuPy {cupy.__version__}."


def gpu_available() -> bool:
    """True when CuPy imports *and* a CUDA device is present."""
    return _probe()[0] is not None


def backend_summary() -> str:
    """One sentence for the reader: which backend the ``mha`` functions will use here."""
    return _probe()[1]


def array_module(prefer_gpu: bool = True) -> ModuleType:
    """``cupy`` when ``prefer_gpu`` and a GPU is usable, else ``numpy``: the CPU fallback."""
    cupy = _probe()[0]
    return cupy if prefer_gpu and cupy is not None else np


def require_cupy() -> ModuleType:
    cupy, summary = _probe()
    if cupy is None:
        raise RuntimeError(f"{summary} Call mha.gpu.array_module() to fall back to NumPy.")
    return cupy


def to_device(x: Array | MHAParams) -> Array | MHAParams:
    """Copy a NumPy array, or every array of an MHAParams, to the GPU (CuPy)."""
    cupy = require_cupy()
    if isinstance(x, MHAParams):
        return x.map(cupy.asarray)
    return cupy.asarray(x)


def to_host(x: Array | MHAParams) -> np.ndarray | MHAParams:
    """Copy a CuPy array, or every array of an MHAParams, back to NumPy (a no-op for NumPy)."""
    if isinstance(x, MHAParams):
        return x.map(to_host)
    return x.get() if hasattr(x, "get") and not isinstance(x, np.ndarray) else np.asarray(x)


def synchronize() -> None:
    """Wait for the GPU to finish queued work (needed before reading a timer); no-op on CPU."""
    cupy = _probe()[0]
    if cupy is not None:
        cupy.cuda.get_current_stream().synchronize()
