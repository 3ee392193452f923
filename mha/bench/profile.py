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
the measured rate.

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
    calls), ``exp_route`` (the lean path's exponential), ``exp_per_s`` (its rate),
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
    torch_rate = torch_exp_rate()
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
        "peak_gflops": peak,
        "exp_route": kernels.exponential(np, np.float32).name,
        "exp_per_s": rate,
        "torch_exp_per_s": torch_rate,
        "fraction_of_peak": flops(*shape[:3], causal=causal) / wall / 1e9 / peak,
    }


def format_profile(report: dict[str, Any]) -> str:
    """The profile as a table: each phase's ms and share of the call, and its floor."""
    wall, floors = report["wall_ms"], report["floor_ms"]
    torch_rate = report["torch_exp_per_s"]
    lines = [
        f"NumPy lean path at (B, n, d_model, h) = {tuple(report['shape'])}"
        f"{', causal' if report['causal'] else ''} on {report['cores']} cores: {wall:.1f} ms "
        f"per call (mean of {report['calls']}), {report['fraction_of_peak']:.0%} of NumPy's "
        f"float32 matmul peak ({report['peak_gflops']:.0f} GFLOP/s); the lean path's "
        f"exponential: {report['exp_route']}, {report['exp_per_s'] / 1e9:.2f} G/s"
        + ("" if torch_rate is None else f" (torch.exp: {torch_rate / 1e9:.2f} G/s)"),
        "",
        f"{'phase':<28} {'ms':>8} {'share':>7} {'floor ms':>9}",
    ]
    measured = report["phases_ms"]
    if len(measured) == 1:  # only IDLE: no phase ran
        lines.append("(the lean path was not taken: the scores fit the default memory budget)")
    order = [*floors, *sorted(set(measured) - set(floors) - {IDLE}), IDLE]
    for name in order:
        ms = measured.get(name, 0.0)
        floor_ms = f"{floors[name]:.1f}" if name in floors else "-"
        lines.append(f"{name:<28} {ms:>8.1f} {ms / wall:>7.0%} {floor_ms:>9}")
    total_floor = sum(floors.values())
    lines += [
        f"{'total':<28} {wall:>8.1f} {1:>7.0%} {total_floor:>9.1f}",
        "",
        f"floor: the products' FLOPs at the peak, the exponentials at the {report['exp_route']} "
        f"rate, every core busy"
        + (", only the pairs the causal mask lets attend" if report["causal"] else "")
        + f"; the call took {wall / total_floor:.2f}x its floor",
    ]
    return "\n".join(lines)
