"""Machine classes: how other CPUs compute, reproduced on this one.

NumPy and OpenBLAS choose their kernels when they load, from the CPU's features, so the same
code runs other instructions, in another order, with other rounding, on another machine. Two
environment variables make this machine compute as a smaller one would:

- ``OPENBLAS_CORETYPE`` picks OpenBLAS's kernels (``Sandybridge``, ``Haswell``, ``SkylakeX``,
  ...): the matrix products of an older or a different CPU;
- ``NPY_DISABLE_CPU_FEATURES`` switches NumPy's wider SIMD targets off (its AVX-512 loops, or
  AVX2 as well, which leaves the x86-64-v2 baseline): the ``exp``, the sums and the
  comparisons of a CPU without them. Those classes set PyTorch's ``ATEN_CPU_CAPABILITY``
  to match (``avx2``, ``default``), so that torch's element-wise kernels lose the same
  instructions.

A third difference is the number of threads (``OMP_NUM_THREADS`` and friends), which changes
how a product is split. :func:`machine_classes` lists the classes this CPU can run, each
computing differently from the others: a kernel the CPU cannot execute (AVX-512 kernels on a
CPU without AVX-512) dies with SIGILL in a probe and is left out, and a setting that changes
nothing here (``Zen`` maps to ``Haswell``; AVX-512 off on a CPU without it) is left out too.

``python -m mha.bench.machines`` prints them; ``--json`` as JSON. ``python3 dev.py test``
runs the numeric tests again under each class; ``python -m mha.bench`` can time under one.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field

#: OpenBLAS kernels worth trying on x86-64, oldest first (names of ``OPENBLAS_CORETYPE``).
OPENBLAS_CORETYPES = (
    "Prescott",
    "Nehalem",
    "Sandybridge",
    "Haswell",
    "Zen",
    "SkylakeX",
    "Cooperlake",
    "SapphireRapids",
)
#: NumPy's AVX-512 dispatch targets, under the names of NumPy 1.x and of NumPy 2.x (a name
#: this NumPy does not know is ignored).
AVX512_TARGETS = (
    "AVX512F AVX512CD AVX512_KNL AVX512_KNM AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL "
    "AVX512_SPR X86_V4"
)
#: And its AVX2-era targets: switched off together with AVX-512, NumPy runs its x86-64-v2 baseline.
AVX2_TARGETS = "AVX AVX2 FMA3 F16C X86_V3"
#: PyTorch's element-wise kernels (its exp, its softmax) for each narrower NumPy class, so that
#: the benchmark compares NumPy and torch on the same instructions (its BLAS, MKL, is unchanged,
#: as NumPy's OpenBLAS is in these classes).
TORCH_CAPABILITY = {"NumPy without AVX-512": "avx2", "NumPy at x86-64-v2": "default"}
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")

# Runs a product and an exp (so that a kernel the CPU lacks faults here), then prints which
# kernels OpenBLAS (threadpoolctl) and NumPy's ufunc loops (numpy.lib.introspect, NumPy 2)
# chose.
_PROBE = """
import json
import numpy as np
from threadpoolctl import threadpool_info
a = np.linspace(-1, 1, 96 * 96, dtype=np.float32).reshape(96, 96)
float((a @ a).sum() + np.exp(a).sum())
blas = [i.get("architecture") or "" for i in threadpool_info() if i["user_api"] == "blas"]
try:
    loops = np.lib.introspect.opt_func_info(func_name="^(exp|exp2|add|maximum)$")
except AttributeError:  # NumPy 1.x: nothing to compare, every SIMD class counts as new
    simd = None
else:
    floats = ("ff", "dd", "fff", "ddd")  # float32 and float64 loops
    simd = sorted(f"{f}:{s}:{v['current']}" for f, d in loops.items() for s, v in d.items()
                  if s in floats)
print(json.dumps({"simd": simd, "blas": blas}))
"""


@dataclass(frozen=True)
class MachineClass:
    """One way of computing: a name, the environment that selects it, and what it selected."""

    name: str
    env: dict[str, str] = field(default_factory=dict)
    simd: tuple[str, ...] = ()  # NumPy's loops in use ("exp:ff:X86_V3", ...)
    blas: tuple[str, ...] = ()  # the BLAS kernels in use (OpenBLAS's architecture names)

    def environ(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """``base`` (default: this process's environment) with this class's variables set."""
        return {**(os.environ if base is None else base), **self.env}

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "env": self.env, "simd": self.simd, "blas": self.blas}


def probe(env: dict[str, str], python: str = sys.executable) -> MachineClass | None:
    """The kernels a fresh ``python`` chooses under ``env`` (added to this environment), or
    ``None`` when it cannot run (a kernel this CPU lacks: SIGILL)."""
    try:
        done = subprocess.run(
            [python, "-c", _PROBE],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        return None
    found = json.loads(done.stdout.strip().splitlines()[-1])
    simd = (env.get("NPY_DISABLE_CPU_FEATURES", ""),) if found["simd"] is None else found["simd"]
    return MachineClass("", env, tuple(simd), tuple(found["blas"]))


def machine_classes(python: str = sys.executable) -> list[MachineClass]:
    """The classes this CPU can run: as it is first, then one thread, then each other OpenBLAS
    kernel and each narrower NumPy SIMD set that changes what is computed here."""
    default = probe({}, python)
    if default is None:
        raise RuntimeError(f"{python} cannot run NumPy: the probe of machine classes failed")
    classes = [
        MachineClass("as it is", {}, default.simd, default.blas),
        MachineClass("1 thread", dict.fromkeys(THREAD_VARIABLES, "1"), default.simd, default.blas),
    ]
    seen_blas = {default.blas}
    for coretype in OPENBLAS_CORETYPES:
        found = probe({"OPENBLAS_CORETYPE": coretype}, python)
        if found is None or found.blas in seen_blas:
            continue
        seen_blas.add(found.blas)
        kernels = "/".join(k for k in found.blas if k) or coretype
        classes.append(
            MachineClass(f"OpenBLAS {coretype} ({kernels})", found.env, found.simd, found.blas)
        )
    seen_simd = {default.simd}
    for name, targets in (
        ("NumPy without AVX-512", AVX512_TARGETS),
        ("NumPy at x86-64-v2 (no AVX2, no AVX-512)", f"{AVX512_TARGETS} {AVX2_TARGETS}"),
    ):
        found = probe({"NPY_DISABLE_CPU_FEATURES": targets}, python)
        if found is None or found.simd in seen_simd:
            continue
        seen_simd.add(found.simd)
        torch = {"ATEN_CPU_CAPABILITY": TORCH_CAPABILITY[name.split(" (")[0]]}
        classes.append(MachineClass(name, {**found.env, **torch}, found.simd, found.blas))
    return classes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m mha.bench.machines",
        description="The machine classes this CPU can run (see mha.bench.machines).",
    )
    parser.add_argument("--json", action="store_true", help="print them as JSON")
    args = parser.parse_args(argv)
    classes = machine_classes()
    if args.json:
        print(json.dumps([c.to_dict() for c in classes]))
        return
    for c in classes:
        env = " ".join(f"{k}={v!r}" for k, v in c.env.items()) or "(no variable)"
        loops = ", ".join(c.simd)
        print(f"{c.name}: {env}\n    NumPy's loops: {loops}\n    BLAS kernels: {list(c.blas)}")


if __name__ == "__main__":
    main()
