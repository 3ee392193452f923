"""Where the NumPy lean path's time goes, against its floor (``python -m mha.bench --profile``).

:func:`profile` calls :func:`mha.multi_head_attention` (self-attention,
``need_weights=False``, float32, the benchmark's inputs) with the phases of
:mod:`mha.lean.phases` recorded, and measures in the same process what the machine can do:
NumPy's matmul peak and its rate of exponentials (:func:`mha.bench.timing.matmul_peak_numpy`,
:func:`mha.bench.timing.exp_rate`). :func:`format_profile` prints the phases next to the floor of
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

from mha.bench.timing import exp_rate, floor, flops, make_call, matmul_peak_numpy
from mha.lean import phases, threads

SHAPE = (1, 4096, 512, 8)  # the benchmark's goal shape where the attention dominates
IDLE = "idle / hand-offs"


def profile(shape: tuple[int, int, int, int] = SHAPE, calls: int = 3) -> dict[str, Any]:
    """Phases of ``calls`` calls at ``shape`` = (B, n, d_model, h), per call, in ms.

    Returns a JSON-ready dict: the shape, the cores, ``wall_ms`` (mean of the calls),
    ``phases_ms`` (each phase, and :data:`IDLE`), ``floor_ms`` (:func:`mha.bench.timing.floor`),
    ``peak_gflops`` (the best of before and after the calls), ``exp_per_s`` and
    ``fraction_of_peak``.
    """
    call = make_call("numpy", shape)
    call()  # warm-up: the thread pool, the first touch of the memory
    peak, rate = matmul_peak_numpy(), exp_rate()
    with phases.recording() as totals:
        start = time.perf_counter()
        for _ in range(calls):
            call()
        wall = (time.perf_counter() - start) / calls
    peak, rate = max(peak, matmul_peak_numpy()), max(rate, exp_rate())
    cores = threads.width()  # the threads the lean path ran on
    phases_ms = {name: 1e3 * s / calls / cores for name, s in totals.items()}
    phases_ms[IDLE] = 1e3 * wall - sum(phases_ms.values())
    return {
        "shape": list(shape),
        "cores": cores,
        "calls": calls,
        "wall_ms": 1e3 * wall,
        "phases_ms": phases_ms,
        "floor_ms": {name: 1e3 * s for name, s in floor(shape, peak, rate).items()},
        "peak_gflops": peak,
        "exp_per_s": rate,
        "fraction_of_peak": flops(*shape[:3]) / wall / 1e9 / peak,
    }


def format_profile(report: dict[str, Any]) -> str:
    """The profile as a table: each phase's ms and share of the call, and its floor."""
    wall, floors = report["wall_ms"], report["floor_ms"]
    lines = [
        f"NumPy lean path at (B, n, d_model, h) = {tuple(report['shape'])} on "
        f"{report['cores']} cores: {wall:.1f} ms per call (mean of {report['calls']}), "
        f"{report['fraction_of_peak']:.0%} of NumPy's float32 matmul peak "
        f"({report['peak_gflops']:.0f} GFLOP/s); exp2: {report['exp_per_s'] / 1e9:.2f} G/s",
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
        f"floor: the products' FLOPs at the peak, the exponentials at the exp2 rate, every "
        f"core busy; the call took {wall / total_floor:.2f}x its floor",
    ]
    return "\n".join(lines)
