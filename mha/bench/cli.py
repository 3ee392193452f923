"""``python -m mha.bench``: the command line of the benchmark (see :mod:`mha.bench`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import mha.bench
from mha import gpu
from mha.bench import classes, machines, profile
from mha.bench.measure import (
    PEAK_SIDE,
    RESULT_PREFIX,
    SHAPES,
    available_impls,
    gpu_largest_n,
    lean_memory_check,
    measure,
    run,
)
from mha.bench.verdict import format_table


def _shape(text: str) -> tuple[int, int, int, int]:
    parts = tuple(int(p) for p in text.split(","))
    if len(parts) != 4 or min(parts) < 1:
        raise argparse.ArgumentTypeError(
            f"a shape is B,n,d_model,h (four positive ints), got {text!r}"
        )
    return parts  # type: ignore[return-value]


def _forwarded(args: argparse.Namespace) -> list[str]:
    """The command line of one machine class's run: these arguments but ``--machine`` and
    ``--json``."""
    argv = [f"--shape={','.join(map(str, s))}" for s in args.shape or []]
    argv += [f"--impl={impl}" for impl in args.impl or []]
    argv += ["--rounds", str(args.rounds), "--calls", str(args.calls)]
    flags = ("no_memory", "lean_memory", "profile", "causal")
    return argv + [f"--{flag.replace('_', '-')}" for flag in flags if getattr(args, flag)]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        prog="python -m mha.bench", description=mha.bench.__doc__.split("\n")[0]
    )
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
    parser.add_argument(
        "--causal",
        action="store_true",
        help="with a causal mask (the fractions of peak count only the pairs it lets attend)",
    )
    parser.add_argument(
        "--machine",
        action="append",
        help="run as this machine class, in its own processes (repeatable; 'all'; see "
        "python -m mha.bench.machines)",
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
        shapes = args.shape or SHAPES
        result = measure(args.worker, shapes, args.calls, not args.no_memory, args.causal)
        print(RESULT_PREFIX + json.dumps(result))
        return result
    if args.machine:
        try:
            chosen = classes.select(machines.machine_classes(), args.machine)
        except ValueError as error:
            parser.error(str(error))
        report = {"machine_classes": []}
        for machine_class in chosen:
            env = machine_class.env or "no variable"
            print(f"=== machine class: {machine_class.name} ({env})", flush=True)
            run_report = classes.run_as(machine_class, _forwarded(args))
            report["machine_classes"].append(run_report)
            if args.profile:
                print("\n\n".join(profile.format_profile(p) for p in run_report["profiles"]))
            else:
                print(format_table(run_report))
            print(flush=True)
    elif args.profile:
        shapes = args.shape or [profile.SHAPE]
        report = {"profiles": [profile.profile(s, args.calls, args.causal) for s in shapes]}
        print("\n\n".join(profile.format_profile(p) for p in report["profiles"]))
    else:
        impls = available_impls()
        if args.impl:
            unknown = set(args.impl) - set(impls)
            if unknown:
                parser.error(f"--impl {sorted(unknown)} not available here; choose from {impls}")
            impls = [i for i in impls if i in args.impl]
        shapes, memory = args.shape or SHAPES, not args.no_memory
        report = run(shapes, impls, args.rounds, args.calls, memory, causal=args.causal)
        if args.lean_memory:
            report["lean_memory"] = lean_memory_check()
            if gpu.gpu_available():
                report["gpu_largest_n"] = gpu_largest_n()
        print(format_table(report))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2))
        print(f"\nwrote {args.json}")
    return report
