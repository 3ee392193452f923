#!/usr/bin/env bash
# bench_classes.sh: the README's Benchmark table over machine classes (issue 24), on a QUIET machine.
#
#   bash tests/bench_classes.sh [REPO]      # REPO: a checkout with .venv (default: this one)
#
# Runs, with REPO's .venv, everything below and writes into REPO/bench-results/:
#   classes.json          python -m mha.bench over the classes at the issue's two shapes,
#                         NumPy vs nn.MHA, 5 rounds (ratios and fractions of peak by the IQR rule)
#   profile-classes.json  python -m mha.bench --profile over the same classes and shapes
#                         (the floor per class, exponentials at that class's measured rate)
#   profile-exp.json, profile-exp2.json
#                         the profile at (1, 4096, 512, 8) as this machine is, with the lean
#                         path's exponential forced each way (MHA_LEAN_EXP): the measured choice
#                         should be the faster one
#   causal.json           the benchmark as this machine is, with a causal mask, at both shapes
#                         (the fractions of peak count only the pairs the mask lets attend)
#   profile-causal.json   the profile with a causal mask (the floor counts only those pairs)
#   README-table.md       the tables to paste into README.md's "Benchmark over machine classes"
#   load.txt              uptime and top before and after each step
#   bench-classes.log         everything the runs printed (each class's full tables and profiles,
#                         phase by phase: where a goal is not met, which phase and by how much)
# The classes: this machine as it is; NumPy without AVX-512 (only where this CPU has AVX-512:
# elsewhere it computes as "as it is"); NumPy at the x86-64-v2 baseline. Estimated 5-7 minutes on
# the project's 2-core EPYC when quiet (about 2 more with the AVX-512 class; not timed quiet: the
# machine was never quiet while it was written); the script prints the elapsed time.
set -euo pipefail
REPO="${1:-$(dirname "$0")/..}"
cd "$REPO"
PY=.venv/bin/python
OUT=bench-results
[[ "${K_SMOKE:-0}" == 1 ]] && OUT=bench-results/smoke
mkdir -p "$OUT"
start=$(date +%s)
exec > >(tee "$OUT/bench-classes.log") 2>&1

load() {  # $1: a label
  { echo "== $1 ($(date -u +%H:%M:%S) UTC)"; uptime; top -bn1 | sed -n '7,14p'; } >> "$OUT/load.txt"
  uptime
}

: > "$OUT/load.txt"
load "before"
one_minute=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$one_minute" 'BEGIN { exit !(l > 0.5) }'; then
  echo "WARNING: load average $one_minute > 0.5: the figures will not be a quiet machine's" >&2
fi

# The classes this CPU has, in the order of the table (names as python -m mha.bench.machines).
mapfile -t MACHINES < <("$PY" - <<'EOF'
from mha.bench import machines
names = [c.name for c in machines.machine_classes()]
for wanted in ("as it is", "NumPy without AVX-512", "NumPy at x86-64-v2"):
    for name in names:
        if name == wanted or name.startswith(wanted + " ("):
            print(name)
EOF
)
ARGS=()
for m in "${MACHINES[@]}"; do ARGS+=(--machine "$m"); done
echo "classes: ${MACHINES[*]}"
SHAPES=(--shape 1,4096,512,8 --shape 4,1024,768,12)
ONE=1,4096,512,8 ROUNDS=5 CALLS=3
if [[ "${K_SMOKE:-0}" == 1 ]]; then  # K_SMOKE=1: a quick run that checks the script, no figures
  SHAPES=(--shape 1,512,64,4) ONE=1,512,64,4 ROUNDS=1 CALLS=1
fi

"$PY" -m mha.bench "${ARGS[@]}" "${SHAPES[@]}" --impl numpy --impl nn.MHA --rounds "$ROUNDS" \
  --no-memory --json "$OUT/classes.json"
load "after the benchmark over classes"
"$PY" -m mha.bench --profile "${ARGS[@]}" "${SHAPES[@]}" --calls "$CALLS" --json "$OUT/profile-classes.json"
load "after the profiles over classes"
for route in exp exp2; do
  MHA_LEAN_EXP=$route "$PY" -m mha.bench --profile --shape "$ONE" --calls "$CALLS" \
    --json "$OUT/profile-$route.json"
done
"$PY" -m mha.bench --machine "as it is" --causal "${SHAPES[@]}" --impl numpy --impl nn.MHA \
  --rounds "$ROUNDS" --no-memory --json "$OUT/causal.json"
"$PY" -m mha.bench --profile --causal --shape "$ONE" --calls "$CALLS" --json "$OUT/profile-causal.json"
load "after"

{
  "$PY" -m mha.bench.classes "$OUT/classes.json" "$OUT/profile-classes.json"
  echo
  echo "With a causal mask (fractions of peak count only the pairs it lets attend):"
  echo
  "$PY" -m mha.bench.classes "$OUT/causal.json"
  echo
  "$PY" - "$OUT" <<'EOF'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
for name in ("profile-exp", "profile-exp2", "profile-causal"):
    (p,) = json.loads((out / f"{name}.json").read_text())["profiles"]
    floor = sum(p["floor_ms"].values())
    print(f"- {name}: {p['exp_route']}{' causal' if p['causal'] else ''} at "
          f"{tuple(p['shape'])}: {p['wall_ms']:.0f} ms, floor {floor:.0f} ms "
          f"({p['wall_ms'] / floor:.2f}x), exp {p['exp_per_s'] / 1e9:.2f} G/s, "
          f"{p['fraction_of_peak']:.0%} of the peak (work counted: needed pairs only)")
EOF
  echo
  echo "Load (1, 5, 15 min): before $(sed -n 2p "$OUT/load.txt" | sed 's/.*load average: //'), after $(uptime | sed 's/.*load average: //')"
} | tee "$OUT/README-table.md"
echo "elapsed: $(( $(date +%s) - start )) s; wrote $OUT/"
