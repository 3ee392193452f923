"""The benchmark as other machines compute: once per machine class, in processes of its own.

``python -m mha.bench --machine NAME`` (repeatable; ``all`` for every class that
:func:`mha.bench.machines.machine_classes` lists) runs the benchmark, or its ``--profile``,
once per class: a fresh ``python -m mha.bench`` in the class's environment
(:func:`run_as`; NumPy and OpenBLAS choose their kernels when they load, so a class cannot
be switched on inside a running process), whose worker processes inherit it. Each class's
table is printed under its name; ``--json`` writes them all. ``python -m mha.bench.classes
BENCH.json [PROFILE.json]`` prints such runs as the README's markdown tables
(:func:`markdown`).

The goals per class (issue 24): NumPy / ``nn.MultiheadAttention`` with the upper quartile at
most 1.1 on every class, and at most 1.0 where NumPy's exponentials (by the route the lean
path chose) are at least as fast as ``torch.exp`` (known from the class's profile); the
lean path within 1.15x of its floor (the profile).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mha.bench.machines import MachineClass
from mha.bench.verdict import meets

RATIO_GOAL, RATIO_GOAL_FAST_EXP, FLOOR_GOAL = 1.1, 1.0, 1.15


def select(classes: list[MachineClass], names: list[str]) -> list[MachineClass]:
    """The classes ``names`` name: ``all``, or each an exact name or a piece of one class's
    name (case aside), such as ``"x86-64-v2"`` or ``"Sandybridge"``."""
    if "all" in names:
        return list(classes)
    chosen = []
    for name in names:
        exact = [c for c in classes if c.name == name]
        matches = exact or [c for c in classes if name.lower() in c.name.lower()]
        if len(matches) != 1:
            raise ValueError(
                f"--machine {name!r} names {len(matches)} of this CPU's machine classes, not "
                f"one; choose from {[c.name for c in classes]} or 'all'"
            )
        chosen.append(matches[0])
    return chosen


def run_as(
    machine_class: MachineClass, argv: list[str], python: str = sys.executable
) -> dict[str, Any]:
    """``python -m mha.bench ARGV`` in a fresh process in ``machine_class``'s environment: its
    JSON report, with the class (name, environment, kernels) under ``"machine_class"``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report.json"
        done = subprocess.run(
            [python, "-m", "mha.bench", *argv, "--json", str(path)],
            env=machine_class.environ(),
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or not path.exists():
            raise RuntimeError(
                f"the benchmark as {machine_class.name!r} failed (exit status "
                f"{done.returncode}):\n{done.stderr[-2000:]}"
            )
        report = json.loads(path.read_text())
    return {"machine_class": machine_class.to_dict(), **report}


def _iqr(summary: dict[str, Any], fmt: str = ".2f") -> str:
    return f"{summary['median']:{fmt}} [{summary['q1']:{fmt}}, {summary['q3']:{fmt}}]"


def _exp_rates(profiles: list[dict[str, Any]] | None) -> dict[str, tuple[float, float | None]]:
    """Class name -> (NumPy's exponentials per second by the lean path's route, torch's)."""
    rates = {}
    for run in profiles or []:
        for p in run["profiles"]:
            rates[run["machine_class"]["name"]] = (p["exp_per_s"], p["torch_exp_per_s"])
    return rates


def ratio_goal(numpy_exp_per_s: float | None, torch_exp_per_s: float | None) -> float:
    """The upper quartile NumPy / nn.MHA must meet: 1.0 where NumPy's exponentials are at
    least as fast as torch's, 1.1 otherwise (or where either rate is unknown)."""
    known = numpy_exp_per_s is not None and torch_exp_per_s is not None
    fast = known and numpy_exp_per_s >= torch_exp_per_s
    return RATIO_GOAL_FAST_EXP if fast else RATIO_GOAL


def _most_above_floor(profile_report: dict[str, Any]) -> str:
    """The phase whose time exceeds its floor (none for phases without one) the most."""
    floors = profile_report["floor_ms"]
    excess = {name: ms - floors.get(name, 0.0) for name, ms in profile_report["phases_ms"].items()}
    name = max(excess, key=excess.__getitem__)
    return f"{name} +{excess[name]:.0f} ms"


def markdown(bench: list[dict[str, Any]], profiles: list[dict[str, Any]] | None = None) -> str:
    """The README's tables: per class and goal shape, NumPy and nn.MHA's times, their ratio
    and the verdict by the upper quartile, NumPy's fraction of the peak; then (with
    ``profiles``) per class the lean path's exponential, the rates, and the call against its
    floor, and against the floor with each product at BLAS's rate on the call's own shapes.
    ``bench`` and ``profiles`` are the ``"machine_classes"`` of two ``--machine`` runs."""
    rates = _exp_rates(profiles)
    lines = [
        "| machine class | (B, n, d_model, h) | NumPy's exp | NumPy ms | nn.MHA ms "
        "| NumPy / nn.MHA | goal | NumPy of peak |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for run in bench:
        name = run["machine_class"]["name"]
        goal = ratio_goal(*rates.get(name, (None, None)))
        ms = {(tuple(r["shape"]), r["impl"]): r for r in run["rows"]}
        for entry in run["ratios"]:
            shape, ratio = tuple(entry["shape"]), entry["numpy / nn.MHA"]
            if ratio is None:
                continue
            numpy_row, torch_row = ms[shape, "numpy"], ms[shape, "nn.MHA"]
            verdict = "met" if meets(ratio, goal, at_most=True) else "**NOT met**"
            lines.append(
                f"| {name} | {', '.join(map(str, shape))}{' causal' if run['causal'] else ''} "
                f"| {run['numpy_exp_route']} | {numpy_row['ms']['median']:.0f} "
                f"| {torch_row['ms']['median']:.0f} | {_iqr(ratio)} | <= {goal:.1f}: {verdict} "
                f"| {_iqr(numpy_row['fraction_of_peak'], '.0%')} |"
            )
    if profiles:
        lines += [
            "",
            "| machine class | (B, n, d_model, h) | exponential | its rate | torch.exp "
            "| call ms | floor ms | call / floor | most above its floor | call / floor at BLAS rate |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for run in profiles:
            for p in run["profiles"]:
                floor_ms = sum(p["floor_ms"].values())
                over = p["wall_ms"] / floor_ms
                over_blas = p["wall_ms"] / sum(p["blas_floor_ms"].values())
                verdict = "met" if over <= FLOOR_GOAL else "**NOT met**"
                torch_rate = p["torch_exp_per_s"]
                lines.append(
                    f"| {run['machine_class']['name']} | {', '.join(map(str, p['shape']))}"
                    f"{' causal' if p['causal'] else ''} | {p['exp_route']} "
                    f"| {p['exp_per_s'] / 1e9:.2f} G/s "
                    f"| {'-' if torch_rate is None else f'{torch_rate / 1e9:.2f} G/s'} "
                    f"| {p['wall_ms']:.0f} | {floor_ms:.0f} "
                    f"| {over:.2f} (<= {FLOOR_GOAL}: {verdict}) | {_most_above_floor(p)} "
                    f"| {over_blas:.2f} |"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m mha.bench.classes",
        description="The README's tables from `python -m mha.bench --machine ... --json` runs.",
    )
    parser.add_argument("bench", type=Path, help="the JSON of a benchmark run over classes")
    parser.add_argument("profile", type=Path, nargs="?", help="the JSON of a --profile run")
    args = parser.parse_args(argv)
    bench = json.loads(args.bench.read_text())["machine_classes"]
    profiles = None
    if args.profile is not None:
        profiles = json.loads(args.profile.read_text())["machine_classes"]
    print(markdown(bench, profiles))


if __name__ == "__main__":
    main()
