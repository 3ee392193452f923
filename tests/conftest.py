"""Shared fixtures; tests marked ``gpu`` skip, with the reason, where no GPU exists, and the
notebooks' cells (nbval) are marked ``slow``, as are the slow tests themselves, so that
``python3 dev.py test -m "not slow"`` is the quick loop.

``backend`` runs a test once per array library the package serves, SciPy-style:

- ``numpy``;
- ``array_api_strict``: the array-API standard and nothing more (no NumPy extras, no
  implicit conversions), the CPU-side evidence that the NumPy code runs on CuPy;
- ``torch``: the torch variant, :mod:`mha.torch_mha` (its blocks are that module's own);
- ``cupy`` on a GPU, marked ``gpu``.

A :class:`Backend` holds the library's namespace ``xp``, converts NumPy arrays to and from
it, and calls the package's functions for that library. ``array_backend`` leaves torch out,
for what only the NumPy code offers (the per-head loop, GQA, the KV cache, the lean tiles).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import mha


def _gpu_reason() -> str | None:
    """None when a CUDA GPU is usable through CuPy or torch, else why not."""
    from mha.gpu import backend_summary, gpu_available

    if gpu_available():
        return None
    try:
        import torch

        if torch.cuda.is_available():
            return None
    except ImportError:
        pass
    return backend_summary()


def pytest_collection_modifyitems(config, items):
    for item in items:  # a notebook (nbval runs every cell of it) is a slow test
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
    gpu_items = [item for item in items if "gpu" in item.keywords]
    if not gpu_items:
        return
    reason = _gpu_reason()
    if reason is not None:
        for item in gpu_items:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


@pytest.fixture
def close_figures():
    """Close every matplotlib figure a test left open."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


class Backend:
    """One array library, and the package's attention functions on its arrays."""

    def __init__(self, name: str, xp: ModuleType) -> None:
        self.name, self.xp = name, xp

    def __repr__(self) -> str:
        return f"Backend({self.name})"

    @property
    def float_dtypes(self) -> tuple[np.dtype, ...]:
        """The NumPy floating dtypes the library has too (array_api_strict: no float16)."""
        names = ("float16", "float32", "float64")
        return tuple(np.dtype(n) for n in names if hasattr(self.xp, n))

    def asarray(self, a: np.ndarray) -> Any:
        """A NumPy array (or MHAParams, for the NumPy-code libraries) in this library."""
        if isinstance(a, mha.MHAParams):
            return a.map(self.asarray)
        if self.name == "torch":
            return self.xp.from_numpy(np.ascontiguousarray(a))
        return self.xp.asarray(a)

    def to_numpy(self, x: Any) -> np.ndarray:
        """Back to NumPy; asserts that ``x`` is an array of this library."""
        if self.name == "torch":
            assert isinstance(x, self.xp.Tensor), type(x)
            return x.detach().cpu().numpy()
        assert isinstance(x, type(self.xp.asarray(0.0))), type(x)
        return x.get() if self.name == "cupy" else np.asarray(x)

    # --- the package on this library: arguments and results are this library's arrays ---

    def softmax(self, x: Any, axis: int = -1) -> Any:
        if self.name == "torch":
            from mha.torch_mha import _softmax

            return _softmax(x.movedim(axis, -1)).movedim(-1, axis)
        return mha.softmax(x, axis=axis)

    def scaled_dot_product_attention(self, q, k, v, mask=None) -> tuple[Any, Any]:
        if self.name == "torch":
            from mha.torch_mha import _attention

            return _attention(q, k, v, mask)
        return mha.scaled_dot_product_attention(q, k, v, mask)

    def split_heads(self, x: Any, num_heads: int) -> Any:
        if self.name == "torch":
            from mha.torch_mha import _split_heads

            return _split_heads(x, num_heads)
        return mha.split_heads(x, num_heads)

    def merge_heads(self, x: Any) -> Any:
        if self.name == "torch":
            from mha.torch_mha import _merge_heads

            return _merge_heads(x)
        return mha.merge_heads(x)

    def multi_head_attention(
        self, q, k, v, params: mha.MHAParams, mask=None, *, need_weights=True, memory_budget=None
    ) -> tuple[Any, Any]:
        """``params`` are NumPy MHAParams. On torch: the module, its fused path when
        ``need_weights=False`` (torch's lean path; ``memory_budget`` does not apply)."""
        if self.name == "torch":
            from mha.torch_mha import MultiHeadAttention

            module = MultiHeadAttention.from_params(params)
            with self.xp.no_grad():
                return module(q, k, v, mask, need_weights=need_weights)
        return mha.multi_head_attention(
            q, k, v, self.asarray(params), mask, need_weights=need_weights,
            memory_budget=memory_budget,
        )  # fmt: skip


def _backend(name: str) -> Backend:
    if name == "cupy":
        from mha import gpu

        if not gpu.gpu_available():
            pytest.skip(gpu.backend_summary())
        return Backend(name, gpu.array_module())
    try:
        return Backend(name, importlib.import_module(name))
    except ImportError:
        pytest.skip(f"{name} is not installed")


_ARRAY_LIBRARIES = ["numpy", "array_api_strict", pytest.param("cupy", marks=pytest.mark.gpu)]


@pytest.fixture(params=[*_ARRAY_LIBRARIES[:2], "torch", _ARRAY_LIBRARIES[2]])
def backend(request) -> Backend:
    """Every library the package serves: NumPy, array_api_strict, torch, CuPy (gpu)."""
    return _backend(request.param)


@pytest.fixture(params=_ARRAY_LIBRARIES)
def array_backend(request) -> Backend:
    """The libraries of the NumPy code (array API): NumPy, array_api_strict, CuPy (gpu)."""
    return _backend(request.param)


@pytest.fixture
def xp(backend: Backend) -> ModuleType:
    """The namespace of ``backend``'s library."""
    return backend.xp


def pytest_terminal_summary(terminalreporter):
    """Print what tests recorded as a ``summary`` property (e.g. the checks' named-right rate)."""
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, value in getattr(report, "user_properties", ()):
                if name == "summary":
                    terminalreporter.write_line(value)
