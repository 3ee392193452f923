"""Where the NumPy lean path's time goes, against its floor (``python -m mha.bench --profile``).

:func:`profile` calls :func:`mha.multi_head_attention` (self-attention,
``need_weights=False``, float32, the benchmark's inputs) with the phases of
:mod:`mha.lean.phases` recorded, and measures in the same process what the machine can do:
NumPy's matmul peak and its rate of exponentials by the route the lean path chose
(:func:`mha.bench.timing.matmul_peak_numpy`, :func:`mha.bench.timing.exp_rate`; torch's rate
beside it, :func:`mha.bench.timing.torch_exp_rate`). With ``causal`` the call has a causal
mask, and the floor counts only the pairs it lets attend (the lean path's tiles leave out
the keys past their rows' last, but compute the masked corner of each tile: that shows as
time above the floor). :func:`format_profile` prints the phases next to the floor of
:func:`mha.bench.timing.floor`: each product's FLOPs at the peak, the ``B h n^2`` exponentials at
the measured rate; and beside it the same floor with each product at the rate BLAS reaches on
the call's own shapes (:func:`mha.bench.timing.blas_rates`: with one side only d_k wide, less
than the square-matrix peak), which splits the time above the floor into what BLAS itself
cannot do on these shapes and what the lean path adds.

A phase's time is its seconds summed over the threads, divided by the cores: what it
costs the call when the cores share it. "idle / hand-offs" is the rest of cores x wall
time: threads waiting for work or for each other, starting tasks, and the Python between
the phases.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from mha.bench.timing import (
    blas_rates,
    exp_rate,
    floor,
    flops,
    make_call,
    matmul_peak_numpy,
    torch_exp_rate,
)
from mha.lean import kernels, phases, threads

SHAPE = (1, 4096, 512, 8)  # the benchmark's goal shape where the attention dominates
IDLE = "idle / hand-offs"


def profile(
    shape: tuple[int, int, int, int] = SHAPE, calls: int = 3, causal: bool = False
) -> dict[str, Any]:
    """Phases of ``calls`` calls at ``shape`` = (B, n, d_model, h), per call, in ms.

    Returns a JSON-ready dict: the shape, ``causal``, the cores, ``wall_ms`` (mean of the
    calls), ``phases_ms`` (each phase, and :data:`IDLE`), ``floor_ms``
    (:func:`mha.bench.timing.floor`), ``peak_gflops`` (the best of before and after the
    calls), ``blas_gflops`` (each product's rate on the call's own shapes,
    :func:`mha.bench.timing.blas_rates`) and ``blas_floor_ms`` (the floor at those rates),
    ``exp_route`` (the lean path's exponential), ``exp_per_s`` (its rate),
    ``torch_exp_per_s`` and ``fraction_of_peak`` (of the FLOPs that are work).
    """
    call = make_call("numpy", shape, causal=causal)
    call()  # warm-up: the thread pool, the first touch of the memory
    peak, rate = matmul_peak_numpy(), exp_rate()
    with phases.recording() as totals:
        start = time.perf_counter()
        for _ in range(calls):
            call()
        wall = (time.perf_counter() - start) / calls
    peak, rate = max(peak, matmul_peak_numpy()), max(rate, exp_rate())
    torch_rate, shape_rates = torch_exp_rate(), blas_rates(shape)
    cores = threads.width()  # the threads the lean path ran on
    phases_ms = {name: 1e3 * s / calls / cores for name, s in totals.items()}
    phases_ms[IDLE] = 1e3 * wall - sum(phases_ms.values())
    return {
        "shape": list(shape),
        "causal": causal,
        "cores": cores,
        "calls": calls,
        "wall_ms": 1e3 * wall,
        "phases_ms": phases_ms,
        "floor_ms": {name: 1e3 * s for name, s in floor(shape, peak, rate, causal).items()},
        "blas_floor_ms": {
            name: 1e3 * s for name, s in floor(shape, peak, rate, causal, shape_rates).items()
        },
        "peak_gflops": peak,
        "blas_gflops": shape_rates,
        "exp_route": kernels.exponential(np, np.float32).name,
        "exp_per_s": rate,
        "torch_exp_per_s": torch_rate,
        "fraction_of_peak": flops(*shape[:3], causal=causal) / wall / 1e9 / peak,
    }


def format_profile(report: dict[str, Any]) -> str:
    """The profile as a table: each phase's ms and share of the call, and its floor."""
    wall, floors, blas_floors = report["wall_ms"], report["floor_ms"], report["blas_floor_ms"]
    torch_rate = report["torch_exp_per_s"]
    lines = [
        f"NumPy lean path at (B, n, d_model, h) = {tuple(report['shape'])}"
        f"{', causal' if report['causal'] else ''} on {report['cores']} cores: {wall:.1f} ms "
        f"per call (mean of {report['calls']}), {report['fraction_of_peak']:.0%} of NumPy's "
        f"float32 matmul peak ({report['peak_gflops']:.0f} GFLOP/s); the lean path's "
        f"exponential: {report['exp_route']}, {report['exp_per_s'] / 1e9:.2f} G/s"
        + ("" if torch_rate is None else f" (torch.exp: {torch_rate / 1e9:.2f} G/s)"),
        "",
        f"{'phase':<28} {'ms':>8} {'share':>7} {'floor ms':>9} {'at BLAS rate':>13}",
    ]
    measured = report["phases_ms"]
    if len(measured) == 1:  # only IDLE: no phase ran
        lines.append("(the lean path was not taken: the scores fit the default memory budget)")
    order = [*floors, *sorted(set(measured) - set(floors) - {IDLE}), IDLE]
    for name in order:
        ms = measured.get(name, 0.0)
        floor_ms = f"{floors[name]:.1f}" if name in floors else "-"
        at_rate = f"{blas_floors[name]:.1f}" if name in blas_floors else "-"
        lines.append(f"{name:<28} {ms:>8.1f} {ms / wall:>7.0%} {floor_ms:>9} {at_rate:>13}")
    total_floor, total_blas_floor = sum(floors.values()), sum(blas_floors.values())
    rates = ", ".join(f"{name} {g:.0f}" for name, g in report["blas_gflops"].items())
    lines += [
        f"{'total':<28} {wall:>8.1f} {1:>7.0%} {total_floor:>9.1f} {total_blas_floor:>13.1f}",
        "",
        f"floor: the products' FLOPs at the peak, the exponentials at the {report['exp_route']} "
        f"rate, every core busy"
        + (", only the pairs the causal mask lets attend" if report["causal"] else "")
        + f"; the call took {wall / total_floor:.2f}x its floor",
        f"at BLAS rate: each product at the GFLOP/s BLAS reaches on the call's own shapes, every "
        f"core busy ({rates}); the call took {wall / total_blas_floor:.2f}x that",
    ]
    return "\n".join(lines)
