"""Benchmark: multi-head self-attention, side by side, as ratios (``python -m mha.bench``).

Times, in one run and interleaved (one call of each implementation per round, so that
whatever else the machine does slows all of them alike; a pause, not timed, when the next
call uses another library's threads), the forward pass of multi-head self-attention with
``need_weights=False`` in float32:

- ``numpy``: :func:`mha.multi_head_attention` (the lean, threaded path for large scores);
- ``nn.MHA``: ``torch.nn.MultiheadAttention(batch_first=True)``;
- ``torch variant``: :class:`mha.torch_mha.MultiHeadAttention`;
- ``bare SDPA``: one fused ``x @ W_qkv``, ``F.scaled_dot_product_attention``, ``@ W_o``;

and, where a CUDA GPU exists, ``cupy`` (:func:`mha.multi_head_attention` on CuPy arrays)
and the torch implementations on ``cuda``. PyTorch runs under ``torch.inference_mode()``
(NumPy keeps no autograd graph either). Each time is the median of the rounds after one
warm-up call; GPU timings synchronise before the clock is read.

Each result is also given as a fraction of its device's float32 matmul peak, measured in
the same run (the fastest round of a square product with NumPy and torch, and CuPy and torch
on a GPU, before and after the shapes), counting
``8 B n d^2`` FLOPs for the four projections and ``4 B n^2 d`` for ``Q K^T`` and ``P V``.
Peak memory is how far one call raises the peak resident set size above the memory in use
before it (see :func:`peak_memory_mib`); ``--lean-memory`` adds the B=1, n=8192,
d_model=512, h=8 comparison of NumPy's weights-returning and lean paths, traced with
``tracemalloc``.

The table goes to stdout; ``--json PATH`` writes everything (``bench-results/`` is ignored
by git). This module is the project's own benchmark and its goals; the timing helpers it is
built on, which the chapters use too, are in :mod:`mha.timing`.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import json
import platform
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import mha
from mha import cupy_mha, threads
from mha.timing import (
    CPU_IMPLS,
    GPU_IMPLS,
    flops,
    make_call,
    optional_torch,
    time_interleaved,
)

SHAPES = [
    (1, 128, 512, 8),
    (8, 256, 512, 8),
    (4, 1024, 768, 12),
    (1, 4096, 512, 8),
    (32, 64, 256, 4),
]
GOAL_SHAPES = [(4, 1024, 768, 12), (1, 4096, 512, 8)]


def _gpu_torch() -> bool:
    torch = optional_torch()
    return torch is not None and torch.cuda.is_available()


def available_impls() -> list[str]:
    """The implementations this machine can run."""
    impls = ["numpy"] + (CPU_IMPLS[1:] if optional_torch() is not None else [])
    if cupy_mha.gpu_available():
        impls.append("cupy")
    if _gpu_torch():
        impls += GPU_IMPLS[1:]
    return impls


def _on_gpu(impl: str) -> bool:
    return impl == "cupy" or impl.endswith("cuda")


#: Sides of the square float32 products whose fastest round :func:`matmul_peak` reports.
PEAK_SIDE = {"cpu": 2048, "gpu": 8192}


def matmul_peak(rounds: int = 5) -> dict[str, float]:
    """float32 GFLOP/s of a square matrix product, the fastest of ``rounds``: a peak.

    NumPy and torch on the CPU; CuPy and torch on a GPU if present (sides :data:`PEAK_SIDE`).
    """
    rng = np.random.default_rng(0)
    side = PEAK_SIDE
    a = rng.standard_normal((side["cpu"], side["cpu"]), dtype=np.float32)
    calls = {"numpy": lambda: a @ a}
    torch = optional_torch()
    if torch is not None:
        a_t = torch.from_numpy(a)
        calls["torch"] = lambda: a_t @ a_t
    if cupy_mha.gpu_available() or _gpu_torch():
        big = rng.standard_normal((side["gpu"], side["gpu"]), dtype=np.float32)
        if cupy_mha.gpu_available():
            a_c = cupy_mha.to_device(big)
            calls["cupy"] = lambda: a_c @ a_c
        if _gpu_torch():
            a_g = torch.from_numpy(big).cuda()
            calls["torch cuda"] = lambda: a_g @ a_g
    fastest = time_interleaved(calls, rounds, summary=min)
    return {
        name: 2 * side["gpu" if _on_gpu(name) else "cpu"] ** 3 / t / 1e9
        for name, t in fastest.items()
    }


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
    cupy = cupy_mha._require_cupy()
    params = cupy_mha.to_device(mha.init_params(d_model, h))
    largest: dict[str, int | str] = {}
    for need_weights in (True, False):
        label = "with weights" if need_weights else "lean"
        n, fits, stopped_by = start, 0, "max_n"
        while n <= max_n:
            try:
                x = cupy.zeros((1, n, d_model), dtype=cupy.float32)
                mha.multi_head_attention(x, x, x, params, need_weights=need_weights)
                cupy_mha.synchronize()
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


def run(
    shapes: list[tuple[int, int, int, int]],
    impls: list[str],
    rounds: int,
    memory: bool,
) -> dict[str, Any]:
    """Measure everything; returns the JSON-ready report."""
    report: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpus": threads.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "torch": getattr(optional_torch(), "__version__", None),
            "backend": cupy_mha.backend_summary(),
        },
        "rows": [],
    }
    first_peak = matmul_peak()
    for shape in shapes:
        calls = {impl: make_call(impl, shape) for impl in impls}
        work = flops(shape[0], shape[1], shape[2])
        # small shapes: more rounds, for a steadier median
        shape_rounds = rounds * max(1, min(5, int(2e10 // work)))
        medians = time_interleaved(calls, shape_rounds)
        for impl in impls:
            gflops = work / medians[impl] / 1e9
            report["rows"].append(
                {
                    "shape": list(shape),
                    "impl": impl,
                    "median_ms": 1e3 * medians[impl],
                    "gflops": gflops,
                    "peak_memory_mib": peak_memory_mib(impl, calls[impl]) if memory else None,
                }
            )
    last_peak = matmul_peak()  # the peak is the best of both: a busy moment lowers one of them
    report["matmul_peak_gflops"] = {lib: max(first_peak[lib], last_peak[lib]) for lib in first_peak}
    for row in report["rows"]:  # of the peak of the row's own device
        gpu = _on_gpu(row["impl"])
        peaks = [g for name, g in report["matmul_peak_gflops"].items() if _on_gpu(name) == gpu]
        row["fraction_of_peak"] = row["gflops"] / max(peaks)
    report["ratios"] = ratios(report["rows"])
    return report


def _ratio(times: dict[str, float], a: str, b: str) -> float | None:
    return times[a] / times[b] if a in times and b in times else None


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per shape: time ratios (> 1 means the first is slower) behind the goals."""
    by_shape: dict[tuple, dict[str, float]] = {}
    for row in rows:
        by_shape.setdefault(tuple(row["shape"]), {})[row["impl"]] = row["median_ms"]
    out = []
    for shape, times in by_shape.items():
        out.append(
            {
                "shape": list(shape),
                "numpy / nn.MHA": _ratio(times, "numpy", "nn.MHA"),
                "torch variant / bare SDPA": _ratio(times, "torch variant", "bare SDPA"),
                "torch variant / nn.MHA": _ratio(times, "torch variant", "nn.MHA"),
                "bare SDPA / nn.MHA": _ratio(times, "bare SDPA", "nn.MHA"),
                "cupy / torch variant cuda": _ratio(times, "cupy", "torch variant cuda"),
                "cupy / bare SDPA cuda": _ratio(times, "cupy", "bare SDPA cuda"),
            }
        )
    return out


def goals(report: dict[str, Any]) -> list[str]:
    """One line per speed goal of the benchmark issue: the ratio and met / not met."""
    lines = []
    for entry in report["ratios"]:
        shape = tuple(entry["shape"])
        r = entry["numpy / nn.MHA"]
        if shape in GOAL_SHAPES and r is not None:
            lines.append(
                f"NumPy no slower than nn.MultiheadAttention at {shape}: "
                f"{r:.2f}x -> {'met' if r <= 1 else 'NOT met'}"
            )
        rv, rm = entry["torch variant / bare SDPA"], entry["torch variant / nn.MHA"]
        if rv is not None:
            lines.append(
                f"torch variant within 1.1x of bare SDPA at {shape}: "
                f"{rv:.2f}x -> {'met' if rv <= 1.1 else 'NOT met'}"
            )
        if rm is not None and shape[1] >= 1024:
            lines.append(
                f"torch variant faster than nn.MultiheadAttention at {shape}: "
                f"{rm:.2f}x -> {'met' if rm < 1 else 'NOT met'}"
            )
    lean = report.get("lean_memory")
    if lean is not None:
        ok = lean["lean_over_weights"] < 1 / 8
        lines.append(
            f"lean path peak memory at n=8192: {lean['lean']:.0f} MiB vs {lean['weights']:.0f} MiB "
            f"with weights ({lean['lean_over_weights']:.3f}, goal < 1/8) -> "
            f"{'met' if ok else 'NOT met'}"
        )
    return lines


def format_table(report: dict[str, Any]) -> str:
    """The report as plain-text tables: times and fractions of peak, then ratios, then goals."""
    peaks = report["matmul_peak_gflops"]
    lines = [
        f"float32 matmul peak (CPU {PEAK_SIDE['cpu']}^3, GPU {PEAK_SIDE['gpu']}^3): "
        + ", ".join(f"{name} {g:.0f} GFLOP/s" for name, g in peaks.items()),
        "",
        f"{'B, n, d_model, h':<20} {'implementation':<20} {'median ms':>10} "
        f"{'GFLOP/s':>8} {'of peak':>8} {'peak MiB':>9}",
    ]
    for row in report["rows"]:
        mem = row["peak_memory_mib"]
        lines.append(
            f"{tuple(row['shape'])!s:<20} {row['impl']:<20} {row['median_ms']:>10.2f} "
            f"{row['gflops']:>8.1f} {row['fraction_of_peak']:>8.0%} "
            f"{'-' if mem is None else f'{mem:.0f}':>9}"
        )
    names = [k for k in report["ratios"][0] if k != "shape"] if report["ratios"] else []
    names = [k for k in names if any(e[k] is not None for e in report["ratios"])]
    lines += ["", f"{'ratios (time)':<20} " + " ".join(f"{k:>26}" for k in names)]
    for entry in report["ratios"]:
        cells = " ".join(f"{'-' if entry[k] is None else f'{entry[k]:.2f}':>26}" for k in names)
        lines.append(f"{tuple(entry['shape'])!s:<20} {cells}")
    lean = report.get("lean_memory")
    if lean is not None:
        lines += [
            "",
            f"lean memory check (B=1, n=8192, d_model=512, h=8; scores {lean['scores_mib']:.0f} "
            f"MiB): weights path {lean['weights']:.0f} MiB in {lean['weights_seconds']:.1f} s, "
            f"lean path {lean['lean']:.0f} MiB in {lean['lean_seconds']:.1f} s",
        ]
    if "gpu_largest_n" in report:
        lines.append(f"largest n on the GPU (B=1, d_model=512, h=8): {report['gpu_largest_n']}")
    lines += ["", *goals(report)]
    return "\n".join(lines)


def _shape(text: str) -> tuple[int, int, int, int]:
    parts = tuple(int(p) for p in text.split(","))
    if len(parts) != 4 or min(parts) < 1:
        raise argparse.ArgumentTypeError(
            f"a shape is B,n,d_model,h (four positive ints), got {text!r}"
        )
    return parts  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m mha.bench", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--shape",
        type=_shape,
        action="append",
        help="B,n,d_model,h (repeatable; default: the five)",
    )
    parser.add_argument("--impl", action="append", help="only these implementations (repeatable)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per shape (default 5)")
    parser.add_argument(
        "--no-memory", action="store_true", help="skip the peak-memory subprocesses"
    )
    parser.add_argument(
        "--lean-memory", action="store_true", help="add the n=8192 lean-path memory check (~8 GiB)"
    )
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    impls = available_impls()
    if args.impl:
        unknown = set(args.impl) - set(impls)
        if unknown:
            parser.error(f"--impl {sorted(unknown)} not available here; choose from {impls}")
        impls = [i for i in impls if i in args.impl]
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    report = run(args.shape or SHAPES, impls, args.rounds, memory=not args.no_memory)
    if args.lean_memory:
        report["lean_memory"] = lean_memory_check()
        if cupy_mha.gpu_available():
            report["gpu_largest_n"] = gpu_largest_n()
    print(format_table(report))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2))
        print(f"\nwrote {args.json}")
    return report


if __name__ == "__main__":
    main()
