"""Measuring the implementations: each in a fresh process per round, in alternating order.

:func:`run` is a whole benchmark run (``rounds`` rounds of :func:`measure_in_fresh_process`
per implementation); :func:`measure` is one implementation in this process: its device's
matmul peak (:func:`matmul_peak`) and its time per shape, and :func:`peak_memory_mib` of one
call. :func:`lean_memory_check` and :func:`gpu_largest_n` are the extra memory checks of
``--lean-memory``. The verdict on what they measured is :mod:`mha.bench.verdict`'s.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import mha
from mha import gpu
from mha.bench.timing import (
    CPU_IMPLS,
    GPU_IMPLS,
    SETTLE_SECONDS,
    flops,
    make_call,
    optional_torch,
    time_interleaved,
)
from mha.bench.verdict import ratios, spread
from mha.lean import kernels, threads

SHAPES = [
    (1, 128, 512, 8),
    (8, 256, 512, 8),
    (4, 1024, 768, 12),
    (1, 4096, 512, 8),
    (32, 64, 256, 4),
]


def _gpu_torch() -> bool:
    torch = optional_torch()
    return torch is not None and torch.cuda.is_available()


def available_impls() -> list[str]:
    """The implementations this machine can run."""
    impls = ["numpy"] + (CPU_IMPLS[1:] if optional_torch() is not None else [])
    if gpu.gpu_available():
        impls.append("cupy")
    if _gpu_torch():
        impls += GPU_IMPLS[1:]
    return impls


def _on_gpu(impl: str) -> bool:
    return impl == "cupy" or impl.endswith("cuda")


#: Sides of the square float32 products whose fastest round :func:`matmul_peak` reports.
PEAK_SIDE = {"cpu": 2048, "gpu": 8192}


def matmul_peak(device: str = "cpu", rounds: int = 5) -> dict[str, float]:
    """float32 GFLOP/s of a square matrix product, the fastest of ``rounds``: a peak.

    ``device="cpu"``: NumPy and torch (if installed); ``"gpu"``: CuPy and torch on CUDA,
    where present. Sides :data:`PEAK_SIDE`.
    """
    if device not in PEAK_SIDE:
        raise ValueError(f"device must be one of {sorted(PEAK_SIDE)}, got {device!r}")
    side = PEAK_SIDE[device]
    a = np.random.default_rng(0).standard_normal((side, side), dtype=np.float32)
    torch = optional_torch()
    calls = {}
    if device == "cpu":
        calls["numpy"] = lambda: a @ a
        if torch is not None:
            a_t = torch.from_numpy(a)
            calls["torch"] = lambda: a_t @ a_t
    else:
        if gpu.gpu_available():
            a_c = gpu.to_device(a)
            calls["cupy"] = lambda: a_c @ a_c
        if _gpu_torch():
            a_g = torch.from_numpy(a).cuda()
            calls["torch cuda"] = lambda: a_g @ a_g
    peaks = {}
    for name, call in calls.items():  # one library after the other: one pause between them
        if peaks:
            time.sleep(SETTLE_SECONDS)
        seconds = time_interleaved({name: call}, rounds, summary=min)[name]
        peaks[name] = 2 * side**3 / seconds / 1e9
    return peaks


def _status_mib(field: str) -> float:
    """A memory field of /proc/self/status (VmRSS, VmHWM), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024  # kB
    raise KeyError(field)


def peak_memory_mib(impl: str, call: Callable[[], Any]) -> float | None:
    """How much one call raises the peak memory above what was in use before it, in MiB.

    On the CPU: the peak resident set size (VmHWM) reset to the current size just before
    the call (Linux ``/proc/self/clear_refs``), after returning freed heap to the system
    (``malloc_trim``). On CUDA with torch: ``torch.cuda.max_memory_allocated``. None where
    neither applies (CuPy, or not Linux).
    """
    if impl.endswith("cuda"):
        cuda = optional_torch().cuda
        cuda.synchronize()
        cuda.reset_peak_memory_stats()
        before = cuda.memory_allocated()
        call()
        cuda.synchronize()
        return (cuda.max_memory_allocated() - before) / 2**20
    clear_refs = Path("/proc/self/clear_refs")
    if impl == "cupy" or not clear_refs.exists():
        return None
    gc.collect()
    ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim(0)
    clear_refs.write_text("5")  # VmHWM := VmRSS
    before = _status_mib("VmRSS")
    call()
    return _status_mib("VmHWM") - before


def lean_memory_check(n: int = 8192, d_model: int = 512, h: int = 8) -> dict[str, float]:
    """Peak traced memory (MiB) of NumPy MHA returning the weights vs the lean path, B=1."""
    params = mha.init_params(d_model, h)
    x = np.random.default_rng(0).standard_normal((1, n, d_model), dtype=np.float32)
    peaks = {}
    for need_weights in (True, False):
        tracemalloc.start()
        start = time.perf_counter()
        mha.multi_head_attention(x, x, x, params, need_weights=need_weights)
        seconds = time.perf_counter() - start
        peaks["weights" if need_weights else "lean"] = tracemalloc.get_traced_memory()[1] / 2**20
        peaks[f"{'weights' if need_weights else 'lean'}_seconds"] = seconds
        tracemalloc.stop()
    peaks["scores_mib"] = h * n * n * 4 / 2**20
    peaks["lean_over_weights"] = peaks["lean"] / peaks["weights"]
    return peaks


def gpu_largest_n(
    d_model: int = 512, h: int = 8, start: int = 4096, max_n: int = 2**17
) -> dict[str, int | str]:
    """Largest n (doubling from ``start`` up to ``max_n``) that CuPy runs, B=1, with and
    without the weights; and what stopped the doubling (an error's type, or "max_n")."""
    cupy = gpu.require_cupy()
    params = gpu.to_device(mha.init_params(d_model, h))
    largest: dict[str, int | str] = {}
    for need_weights in (True, False):
        label = "with weights" if need_weights else "lean"
        n, fits, stopped_by = start, 0, "max_n"
        while n <= max_n:
            try:
                x = cupy.zeros((1, n, d_model), dtype=cupy.float32)
                mha.multi_head_attention(x, x, x, params, need_weights=need_weights)
                gpu.synchronize()
                fits = n
            except Exception as error:  # out of memory, in CuPy's pool or in cuBLAS
                stopped_by = type(error).__name__
                break
            finally:
                x = None
                cupy.get_default_memory_pool().free_all_blocks()
            n *= 2
        largest[label] = fits
        largest[f"{label}: stopped by"] = stopped_by
    return largest


def measure(
    impl: str,
    shapes: list[tuple[int, int, int, int]],
    calls: int,
    memory: bool,
    causal: bool = False,
) -> dict[str, Any]:
    """One implementation in this process: its device's matmul peak and its time per shape
    (with a causal mask if ``causal``).

    The peak (GFLOP/s) is the best of :func:`matmul_peak` before and after the timings;
    each time (ms) is the median of ``calls`` calls after a warm-up (more calls for small
    shapes, up to five times as many, for a steadier median); ``memory`` adds the
    :func:`peak_memory_mib` of one call per shape (None where it cannot be measured).
    """
    if impl not in CPU_IMPLS + GPU_IMPLS:
        raise ValueError(f"impl must be one of {CPU_IMPLS + GPU_IMPLS}, got {impl!r}")
    device = "gpu" if _on_gpu(impl) else "cpu"
    first_peak = matmul_peak(device)
    times_ms, memory_mib = [], []
    for shape in shapes:
        call = make_call(impl, shape, causal=causal)
        time.sleep(SETTLE_SECONDS)  # the peak's other library may still be spinning
        shape_calls = calls * max(1, min(5, int(2e10 // flops(*shape[:3]))))
        times_ms.append(1e3 * time_interleaved({impl: call}, shape_calls)[impl])
        memory_mib.append(peak_memory_mib(impl, call) if memory else None)
    last_peak = matmul_peak(device)
    return {
        "impl": impl,
        "exp_route": kernels.exponential(np, np.float32).name if impl == "numpy" else None,
        "peak_gflops": max(*first_peak.values(), *last_peak.values()),
        "times_ms": times_ms,
        "memory_mib": memory_mib,
    }


RESULT_PREFIX = "mha.bench result: "


def measure_in_fresh_process(
    impl: str,
    shapes: list[tuple[int, int, int, int]],
    calls: int,
    memory: bool,
    causal: bool = False,
) -> dict[str, Any]:
    """:func:`measure` in a new Python process (``python -m mha.bench --worker IMPL ...``),
    in this process's environment (a machine class's, when the benchmark runs as one)."""
    command = [sys.executable, "-m", "mha.bench", "--worker", impl, "--calls", str(calls)]
    command += ["--peak-side", json.dumps(PEAK_SIDE)]  # this process's sides, also in tests
    for shape in shapes:
        command += ["--shape", ",".join(map(str, shape))]
    if not memory:
        command.append("--no-memory")
    if causal:
        command.append("--causal")
    done = subprocess.run(command, capture_output=True, text=True)
    for line in reversed(done.stdout.splitlines()):
        if done.returncode == 0 and line.startswith(RESULT_PREFIX):
            return json.loads(line.removeprefix(RESULT_PREFIX))
    raise RuntimeError(
        f"the benchmark's process for {impl!r} failed (exit status {done.returncode}):\n"
        + done.stderr[-2000:]
    )


def run(
    shapes: list[tuple[int, int, int, int]],
    impls: list[str],
    rounds: int = 5,
    calls: int = 5,
    memory: bool = True,
    measure_round: Callable[..., dict[str, Any]] = measure_in_fresh_process,
    causal: bool = False,
) -> dict[str, Any]:
    """Measure everything, ``rounds`` rounds of ``measure_round`` per implementation.

    Round r runs the implementations in the order of ``impls`` (r even) or reversed (r odd);
    ``measure_round(impl, shapes, calls, memory, causal)`` is :func:`measure` in a fresh
    process. Memory is measured in the first round only. With ``causal`` every call has a
    causal mask, and the fractions of the peak count only the products of the pairs it lets
    attend (:func:`mha.bench.timing.flops`). Returns the JSON-ready report.
    """
    report: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpus": threads.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "torch": getattr(optional_torch(), "__version__", None),
            "backend": gpu.backend_summary(),
            "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        },
        "rounds": rounds,
        "calls": calls,
        "causal": causal,
    }
    results: dict[str, list[dict[str, Any]]] = {impl: [] for impl in impls}
    for r in range(rounds):
        for impl in impls if r % 2 == 0 else impls[::-1]:
            results[impl].append(measure_round(impl, shapes, calls, memory and r == 0, causal))
    if hasattr(os, "getloadavg"):
        report["machine"]["load_average_after"] = list(os.getloadavg())
    report["matmul_peak_gflops"] = {
        impl: spread([res["peak_gflops"] for res in results[impl]]) for impl in impls
    }
    report["rows"] = []
    for s, shape in enumerate(shapes):
        work = flops(*shape[:3], causal=causal)
        for impl in impls:
            ms = [res["times_ms"][s] for res in results[impl]]
            fractions = [
                work / (t / 1e3) / 1e9 / res["peak_gflops"]
                for t, res in zip(ms, results[impl], strict=True)
            ]
            report["rows"].append(
                {
                    "shape": list(shape),
                    "impl": impl,
                    "ms": spread(ms),
                    "gflops": work / (statistics.median(ms) / 1e3) / 1e9,
                    "fraction_of_peak": spread(fractions),
                    "peak_memory_mib": results[impl][0]["memory_mib"][s],
                }
            )
    report["ratios"] = ratios(report["rows"])
    routes = {res.get("exp_route") for res in results.get("numpy", [])}
    report["numpy_exp_route"] = "/".join(sorted(r for r in routes if r)) or None
    return report
