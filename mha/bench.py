"""Benchmark: multi-head self-attention, side by side, as ratios (``python -m mha.bench``).

Times the forward pass of multi-head self-attention with ``need_weights=False`` in float32:

- ``numpy``: :func:`mha.multi_head_attention` (the lean, threaded path for large scores);
- ``nn.MHA``: ``torch.nn.MultiheadAttention(batch_first=True)``;
- ``torch variant``: :class:`mha.torch_mha.MultiHeadAttention`;
- ``bare SDPA``: one fused ``x @ W_qkv``, ``F.scaled_dot_product_attention``, ``@ W_o``;

and, where a CUDA GPU exists, ``cupy`` (:func:`mha.multi_head_attention` on CuPy arrays)
and the torch implementations on ``cuda``. PyTorch runs under ``torch.inference_mode()``
(NumPy keeps no autograd graph either); GPU timings synchronise before the clock is read.

**The verdict survives noise.** A run is ``--rounds`` rounds (5 by default). In every round
each implementation runs in a fresh Python process of its own, and the order alternates
(A B C D, then D C B A, ...), so that neither a process's history (caches, threads left
spinning, the allocator's state) nor a slow moment of the shared machine favours one of
them. A process measures its device's float32 matmul peak (the fastest of five square
products with NumPy and torch, or CuPy and torch on a GPU, before and after its timings,
the best of both), then for each shape makes one warm-up call and ``--calls`` timed calls
and keeps their median. A round gives each pair of implementations one time ratio, and
each implementation one fraction of the peak measured in its own process, counting
``8 B n d^2`` FLOPs for the four projections and ``4 B n^2 d`` for ``Q K^T`` and ``P V``.
Over the rounds the report gives the median and the interquartile range (IQR, the middle
half of the rounds). A goal counts as met only when the worse end of the IQR meets it: the
upper quartile of a ratio that must be at most 1, the lower quartile of a fraction of the
peak that must be at least 60% (:func:`meets`).

Peak memory is how far one call raises the peak resident set size above the memory in use
before it (see :func:`peak_memory_mib`, measured in the first round); ``--lean-memory``
adds the B=1, n=8192, d_model=512, h=8 comparison of NumPy's weights-returning and lean
paths, traced with ``tracemalloc``. ``--profile`` prints instead where the lean path's time
goes, phase by phase, against the floor that the products and the exponentials set
(:mod:`mha.lean_profile`).

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
from mha import cupy_mha, threads
from mha.timing import (
    CPU_IMPLS,
    GPU_IMPLS,
    SETTLE_SECONDS,
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
GOAL_FRACTION_OF_PEAK = 0.6  # NumPy's share of the matmul peak at n >= 1024


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
        if cupy_mha.gpu_available():
            a_c = cupy_mha.to_device(a)
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


def measure(
    impl: str, shapes: list[tuple[int, int, int, int]], calls: int, memory: bool
) -> dict[str, Any]:
    """One implementation in this process: its device's matmul peak and its time per shape.

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
        call = make_call(impl, shape)
        time.sleep(SETTLE_SECONDS)  # the peak's other library may still be spinning
        shape_calls = calls * max(1, min(5, int(2e10 // flops(*shape[:3]))))
        times_ms.append(1e3 * time_interleaved({impl: call}, shape_calls)[impl])
        memory_mib.append(peak_memory_mib(impl, call) if memory else None)
    last_peak = matmul_peak(device)
    return {
        "impl": impl,
        "peak_gflops": max(*first_peak.values(), *last_peak.values()),
        "times_ms": times_ms,
        "memory_mib": memory_mib,
    }


_RESULT_PREFIX = "mha.bench result: "


def measure_in_fresh_process(
    impl: str, shapes: list[tuple[int, int, int, int]], calls: int, memory: bool
) -> dict[str, Any]:
    """:func:`measure` in a new Python process (``python -m mha.bench --worker IMPL ...``)."""
    command = [sys.executable, "-m", "mha.bench", "--worker", impl, "--calls", str(calls)]
    command += ["--peak-side", json.dumps(PEAK_SIDE)]  # this process's sides, also in tests
    for shape in shapes:
        command += ["--shape", ",".join(map(str, shape))]
    if not memory:
        command.append("--no-memory")
    done = subprocess.run(command, capture_output=True, text=True)
    for line in reversed(done.stdout.splitlines()):
        if done.returncode == 0 and line.startswith(_RESULT_PREFIX):
            return json.loads(line.removeprefix(_RESULT_PREFIX))
    raise RuntimeError(
        f"the benchmark's process for {impl!r} failed (exit status {done.returncode}):\n"
        + done.stderr[-2000:]
    )


def spread(values: list[float]) -> dict[str, Any]:
    """Median and quartiles of per-round values (linear interpolation; one value: all three)."""
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return {"median": float(median), "q1": float(q1), "q3": float(q3), "rounds": list(values)}


def meets(summary: dict[str, Any], goal: float, *, at_most: bool) -> bool:
    """Whether the worse end of the IQR meets ``goal``: q3 <= goal, or q1 >= goal."""
    return summary["q3"] <= goal if at_most else summary["q1"] >= goal


def run(
    shapes: list[tuple[int, int, int, int]],
    impls: list[str],
    rounds: int = 5,
    calls: int = 5,
    memory: bool = True,
    measure_round: Callable[..., dict[str, Any]] = measure_in_fresh_process,
) -> dict[str, Any]:
    """Measure everything, ``rounds`` rounds of ``measure_round`` per implementation.

    Round r runs the implementations in the order of ``impls`` (r even) or reversed (r odd);
    ``measure_round(impl, shapes, calls, memory)`` is :func:`measure` in a fresh process.
    Memory is measured in the first round only. Returns the JSON-ready report.
    """
    report: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpus": threads.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "torch": getattr(optional_torch(), "__version__", None),
            "backend": cupy_mha.backend_summary(),
            "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        },
        "rounds": rounds,
        "calls": calls,
    }
    results: dict[str, list[dict[str, Any]]] = {impl: [] for impl in impls}
    for r in range(rounds):
        for impl in impls if r % 2 == 0 else impls[::-1]:
            results[impl].append(measure_round(impl, shapes, calls, memory and r == 0))
    if hasattr(os, "getloadavg"):
        report["machine"]["load_average_after"] = list(os.getloadavg())
    report["matmul_peak_gflops"] = {
        impl: spread([res["peak_gflops"] for res in results[impl]]) for impl in impls
    }
    report["rows"] = []
    for s, shape in enumerate(shapes):
        work = flops(*shape[:3])
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
    return report


#: The time ratios the report gives (> 1: the first is slower), where both ran.
RATIOS = [
    ("numpy", "nn.MHA"),
    ("torch variant", "bare SDPA"),
    ("torch variant", "nn.MHA"),
    ("bare SDPA", "nn.MHA"),
    ("cupy", "torch variant cuda"),
    ("cupy", "bare SDPA cuda"),
]


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per shape: each ratio of :data:`RATIOS`, round by round, as a :func:`spread` (or None)."""
    by_shape: dict[tuple, dict[str, list[float]]] = {}
    for row in rows:
        by_shape.setdefault(tuple(row["shape"]), {})[row["impl"]] = row["ms"]["rounds"]
    out = []
    for shape, times in by_shape.items():
        entry: dict[str, Any] = {"shape": list(shape)}
        for a, b in RATIOS:
            both = a in times and b in times
            per_round = (
                [ta / tb for ta, tb in zip(times[a], times[b], strict=True)] if both else None
            )
            entry[f"{a} / {b}"] = spread(per_round) if both else None
        out.append(entry)
    return out


def _iqr(summary: dict[str, Any], fmt: str = ".2f") -> str:
    """``median [q1, q3]``."""
    return f"{summary['median']:{fmt}} [{summary['q1']:{fmt}}, {summary['q3']:{fmt}}]"


def _verdict(summary: dict[str, Any], goal: float, *, at_most: bool, fmt: str = ".2f") -> str:
    end = "upper quartile" if at_most else "lower quartile"
    ok = meets(summary, goal, at_most=at_most)
    return f"{'met' if ok else 'NOT met'} ({end} {summary['q3' if at_most else 'q1']:{fmt}})"


def goals(report: dict[str, Any]) -> list[str]:
    """One line per speed goal of the benchmark: median [IQR] over the rounds, and the verdict
    by the worse end of the IQR (:func:`meets`)."""
    lines = []
    for entry in report["ratios"]:
        shape = tuple(entry["shape"])
        r = entry["numpy / nn.MHA"]
        if shape in GOAL_SHAPES and r is not None:
            lines.append(
                f"NumPy no slower than nn.MultiheadAttention at {shape}: {_iqr(r)}x -> "
                + _verdict(r, 1.0, at_most=True)
            )
        rv, rm = entry["torch variant / bare SDPA"], entry["torch variant / nn.MHA"]
        if rv is not None:
            lines.append(
                f"torch variant within 1.1x of bare SDPA at {shape}: {_iqr(rv)}x -> "
                + _verdict(rv, 1.1, at_most=True)
            )
        if rm is not None and shape[1] >= 1024:
            lines.append(
                f"torch variant no slower than nn.MultiheadAttention at {shape}: {_iqr(rm)}x -> "
                + _verdict(rm, 1.0, at_most=True)
            )
    for row in report["rows"]:
        if row["impl"] == "numpy" and row["shape"][1] >= 1024:
            f = row["fraction_of_peak"]
            lines.append(
                f"NumPy at {GOAL_FRACTION_OF_PEAK:.0%} of the matmul peak or more at "
                f"{tuple(row['shape'])}: {_iqr(f, '.0%')} -> "
                + _verdict(f, GOAL_FRACTION_OF_PEAK, at_most=False, fmt=".0%")
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
    """The report as plain text: times and fractions of peak, then ratios, then goals."""
    load = report["machine"].get("load_average")
    lines = [
        f"{report['rounds']} rounds, each implementation in a fresh process per round, in "
        f"alternating order; per process the median of {report['calls']} calls or more per "
        "shape. Figures: median [IQR] over the rounds."
        + (
            ""
            if load is None
            else f" Load average before: {load[0]:.2f}, after: "
            f"{report['machine']['load_average_after'][0]:.2f}."
        ),
        "float32 matmul peak measured in each implementation's processes (GFLOP/s): "
        + ", ".join(f"{impl} {_iqr(g, '.0f')}" for impl, g in report["matmul_peak_gflops"].items()),
        "",
        f"{'B, n, d_model, h':<20} {'implementation':<20} {'ms':>24} "
        f"{'GFLOP/s':>8} {'of peak':>18} {'peak MiB':>9}",
    ]
    for row in report["rows"]:
        mem = row["peak_memory_mib"]
        lines.append(
            f"{tuple(row['shape'])!s:<20} {row['impl']:<20} {_iqr(row['ms'], '.1f'):>24} "
            f"{row['gflops']:>8.1f} {_iqr(row['fraction_of_peak'], '.0%'):>18} "
            f"{'-' if mem is None else f'{mem:.0f}':>9}"
        )
    names = [f"{a} / {b}" for a, b in RATIOS]
    names = [k for k in names if any(e[k] is not None for e in report["ratios"])]
    lines += ["", f"{'ratios (time)':<20} " + " ".join(f"{k:>26}" for k in names)]
    for entry in report["ratios"]:
        cells = " ".join(f"{'-' if entry[k] is None else _iqr(entry[k]):>26}" for k in names)
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
        help="B,n,d_model,h (repeatable; default: the five, or 1,4096,512,8 with --profile)",
    )
    parser.add_argument("--impl", action="append", help="only these implementations (repeatable)")
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds of fresh processes (default 5)"
    )
    parser.add_argument(
        "--calls", type=int, default=5, help="timed calls per shape in each process (default 5)"
    )
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory calls")
    parser.add_argument(
        "--lean-memory", action="store_true", help="add the n=8192 lean-path memory check (~8 GiB)"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="instead: where the NumPy lean path's time goes, phase by phase, against its floor",
    )
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # one process of a round
    parser.add_argument("--peak-side", type=json.loads, help=argparse.SUPPRESS)  # the parent's
    args = parser.parse_args(argv)
    for name in ("rounds", "calls"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if args.worker is not None:
        PEAK_SIDE.update(args.peak_side or {})
        result = measure(args.worker, args.shape or SHAPES, args.calls, not args.no_memory)
        print(_RESULT_PREFIX + json.dumps(result))
        return result
    if args.profile:
        from mha import lean_profile

        report = {
            "profiles": [
                lean_profile.profile(s, args.calls) for s in args.shape or [lean_profile.SHAPE]
            ]
        }
        print("\n\n".join(lean_profile.format_profile(p) for p in report["profiles"]))
    else:
        impls = available_impls()
        if args.impl:
            unknown = set(args.impl) - set(impls)
            if unknown:
                parser.error(f"--impl {sorted(unknown)} not available here; choose from {impls}")
            impls = [i for i in impls if i in args.impl]
        report = run(args.shape or SHAPES, impls, args.rounds, args.calls, not args.no_memory)
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
