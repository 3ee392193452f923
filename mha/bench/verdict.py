"""The benchmark's verdict: medians and quartiles over the rounds, the ratios, the goals.

A goal counts as met only when the worse end of the interquartile range meets it
(:func:`meets`): the upper quartile of a ratio that must be at most 1, the lower quartile of
a fraction of the peak that must be at least 60%. :func:`format_table` prints a report of
:func:`mha.bench.measure.run` with the goals' verdicts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

GOAL_SHAPES = [(4, 1024, 768, 12), (1, 4096, 512, 8)]
GOAL_FRACTION_OF_PEAK = 0.6  # NumPy's share of the matmul peak at n >= 1024


def spread(values: list[float]) -> dict[str, Any]:
    """Median and quartiles of per-round values (linear interpolation; one value: all three)."""
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return {"median": float(median), "q1": float(q1), "q3": float(q3), "rounds": list(values)}


def meets(summary: dict[str, Any], goal: float, *, at_most: bool) -> bool:
    """Whether the worse end of the IQR meets ``goal``: q3 <= goal, or q1 >= goal."""
    return summary["q3"] <= goal if at_most else summary["q1"] >= goal


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
