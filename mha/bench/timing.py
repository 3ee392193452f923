"""Timing helpers the chapters use: interleaved timing, FLOP counts, ready-made calls.

:func:`time_interleaved` times several functions in one run, one call of each per round,
so that whatever else the machine does slows all of them alike; :func:`make_call` builds a
call of each implementation of multi-head self-attention on the same weights and inputs;
:func:`flops` counts the work of one call. The project's own benchmark, ``python -m
mha.bench`` (:mod:`mha.bench`), is built on them.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import mha
from mha import gpu
from mha.lean import threads

#: The implementations :func:`make_call` builds: on the CPU, and (where a CUDA GPU exists)
#: mha on CuPy and the torch implementations on ``cuda``.
CPU_IMPLS = ["numpy", "nn.MHA", "torch variant", "bare SDPA"]
GPU_IMPLS = ["cupy", "nn.MHA cuda", "torch variant cuda", "bare SDPA cuda"]


def flops(batch: int, n: int, d_model: int) -> int:
    """Multiply-adds x 2 of self-attention: four (d_model x d_model) projections, Q K^T, P V."""
    return 8 * batch * n * d_model**2 + 4 * batch * n**2 * d_model


def matmul_peak_numpy(side: int = 2048, rounds: int = 5) -> float:
    """GFLOP/s of NumPy's float32 ``a @ a`` for a (side, side) ``a``, the fastest of ``rounds``.

    BLAS runs with its own threads, one per core: this machine's peak for NumPy's products.
    """
    a = np.random.default_rng(0).standard_normal((side, side), dtype=np.float32)
    seconds = time_interleaved({"numpy": lambda: a @ a}, rounds, summary=min)["numpy"]
    return 2 * side**3 / seconds / 1e9


def exp_rate(elements: int = 2**18, rounds: int = 5) -> float:
    """Exponentials per second of NumPy's float32 ``exp2``, on every core at once.

    Eight tasks per core, run by :mod:`mha.lean.threads` (so that no thread can take all of them
    before the others start), each computes ``2 ** x`` of its own ``elements`` numbers in
    [-8, 0] (1 MiB by default, like a tile of scores) 8 times; the fastest of ``rounds``.
    """
    tasks, repeats = 8 * threads.cpu_count(), 8
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(-8.0, 0.0, elements).astype(np.float32) for _ in range(tasks)]
    outputs = [np.empty_like(x) for x in inputs]

    def exponentiate(i: int) -> None:
        for _ in range(repeats):
            np.exp2(inputs[i], out=outputs[i])

    call = {"numpy": lambda: threads.run(exponentiate, [(i,) for i in range(tasks)])}
    time.sleep(SETTLE_SECONDS)  # BLAS's threads, after a product, spin on the cores for a while
    seconds = time_interleaved(call, rounds, summary=min)["numpy"]
    return tasks * repeats * elements / seconds


def floor(
    shape: tuple[int, int, int, int], peak_gflops: float, exps_per_second: float
) -> dict[str, float]:
    """The least time (s) of one self-attention call of ``shape`` = (B, n, d_model, h).

    Each part at the rates measured on this machine: the products' FLOPs at the matmul
    peak (:func:`matmul_peak_numpy`), and the ``B h n^2`` exponentials of the softmax at
    :func:`exp_rate`. Everything else (masks, maxima, sums, copies, Python) is on top.
    """
    batch, n, d_model, h = shape
    peak = peak_gflops * 1e9
    return {
        "projections": 8 * batch * n * d_model**2 / peak,
        "QK^T products": 2 * batch * n**2 * d_model / peak,
        "PV products": 2 * batch * n**2 * d_model / peak,
        "exp": batch * h * n**2 / exps_per_second,
    }


def optional_torch() -> ModuleType | None:
    """``torch``, or None where it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def make_call(impl: str, shape: tuple[int, int, int, int], seed: int = 0) -> Callable[[], Any]:
    """A zero-argument function that runs ``impl`` once on fixed random inputs of ``shape``.

    All implementations get the same weights (``mha.init_params(seed=seed)``) and inputs:
    ``numpy`` is :func:`mha.multi_head_attention` with ``need_weights=False``, ``nn.MHA``
    ``torch.nn.MultiheadAttention``, ``torch variant`` :class:`mha.torch_mha.MultiHeadAttention`,
    ``bare SDPA`` one ``x @ W_qkv``, ``F.scaled_dot_product_attention`` and ``@ W_o``; a name
    ending in `` cuda`` runs on the GPU, ``cupy`` is mha on CuPy arrays (see
    :data:`CPU_IMPLS`, :data:`GPU_IMPLS`). PyTorch runs under ``torch.inference_mode()``.
    """
    if impl not in CPU_IMPLS + GPU_IMPLS:
        raise ValueError(f"impl must be one of {CPU_IMPLS + GPU_IMPLS}, got {impl!r}")
    batch, n, d_model, h = shape
    params = mha.init_params(d_model, h, seed=seed)
    x = np.random.default_rng(seed).standard_normal((batch, n, d_model), dtype=np.float32)
    if impl in ("numpy", "cupy"):
        if impl == "cupy":
            x, params = gpu.to_device(x), gpu.to_device(params)

        def call():
            return mha.multi_head_attention(x, x, x, params, need_weights=False)[0]

        return call
    torch = optional_torch()
    import torch.nn.functional as F

    from mha.torch_mha import MultiHeadAttention

    device = "cuda" if impl.endswith("cuda") else "cpu"
    x_t = torch.from_numpy(x).to(device)
    variant = MultiHeadAttention.from_params(params, device=device)
    module = variant.to_torch()
    w_qkv = torch.cat([variant.w_q, variant.w_k, variant.w_v], dim=1).detach()
    w_o = variant.w_o.detach()

    def bare_sdpa():
        q, k, v = (x_t @ w_qkv).view(batch, n, 3, h, d_model // h).permute(2, 0, 3, 1, 4)
        heads = F.scaled_dot_product_attention(q, k, v)  # (B, h, n, d_k)
        return heads.transpose(1, 2).reshape(batch, n, d_model) @ w_o

    forward = {
        "torch variant": lambda: variant(x_t, need_weights=False)[0],
        "nn.MHA": lambda: module(x_t, x_t, x_t, need_weights=False)[0],
        "bare SDPA": bare_sdpa,
    }[impl.removesuffix(" cuda")]

    def call():
        with torch.inference_mode():
            return forward()

    return call


def _synchronize(impl: str) -> None:
    if impl == "cupy":
        gpu.synchronize()
    elif impl.endswith("cuda"):
        optional_torch().cuda.synchronize()


#: Pause (s) before a call whose library differs from the previous call's: after a NumPy
#: call OpenBLAS's threads keep spinning for ~0.1 s and slow down whatever runs next.
SETTLE_SECONDS = 0.2


def _library(impl: str) -> str:
    """Which library's threads an implementation uses: numpy, cupy or torch."""
    return impl if impl in ("numpy", "cupy") else "torch"


def time_interleaved(
    calls: dict[str, Callable[[], Any]], rounds: int, summary: Callable = statistics.median
) -> dict[str, float]:
    """Seconds per call of each function (``summary`` of the rounds: the median by default).

    One warm-up call each, then ``rounds`` rounds of one call each, so that a slow moment of
    the machine slows every function alike. Between functions of different libraries it
    pauses :data:`SETTLE_SECONDS` and makes one untimed call, so that neither the other
    library's spinning threads nor this library's sleeping ones are timed. The names of
    ``calls`` say where a function runs, as :func:`make_call`'s ``impl``: ``"numpy"``,
    ``"cupy"`` (synchronised before each clock read), a name ending in ``"cuda"`` (torch,
    synchronised), anything else (torch on the CPU).
    """
    times: dict[str, list[float]] = {name: [] for name in calls}
    for name, call in calls.items():
        call()
        _synchronize(name)
    previous = None
    for _ in range(rounds):
        for name, call in calls.items():
            if previous is not None and _library(name) != _library(previous):
                time.sleep(SETTLE_SECONDS)
                call()  # wakes this library's threads up again (not timed)
                _synchronize(name)
            previous = name
            _synchronize(name)
            start = time.perf_counter()
            call()
            _synchronize(name)
            times[name].append(time.perf_counter() - start)
    return {name: summary(ts) for name, ts in times.items()}
