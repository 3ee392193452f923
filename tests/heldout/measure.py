"""Measure a held-out round on 13 seeds: what a judge reads, and the rates the README gives.

    .venv/bin/python tests/heldout/measure.py round5 --seen       # which answers were seen before
    .venv/bin/python tests/heldout/measure.py round5 --run        # check every answer, 13 seeds
    .venv/bin/python tests/heldout/measure.py round5 --to-read    # what the judge reads
    .venv/bin/python tests/heldout/measure.py round5              # the rates (needs reading.json)

``--run`` checks every answer of the round on the seeds 2024-2036 (one process per chapter, two
at a time) and writes ``_build/heldout/<round>.json``: for each answer and seed, whether it
passed, its diagnosis and its feedback. ``--to-read`` writes ``_build/heldout/<round>-to-read.md``:
each wrong answer whose diagnosis is not the label's id on some seed, with its code, the
writer's mistake, the label, and each distinct diagnosis with its feedback and seeds. The judge
answers in the round's ``reading.json``: for each such answer (``"chNN:index"``), each
diagnosis id (``"none"`` for no diagnosis) maps to ``"named"`` (the feedback says what the
mistake is, in other words), ``"where"`` (only which output or where it is wrong),
``"other"`` (it names another mistake: a misdiagnosis) or ``"nothing"``.

The rates count a wrong answer as named on a seed when its diagnosis is the label's id, or the
judge read that diagnosis as ``named``; "on every seed" when it is named on all 13.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = ROOT / "_build" / "heldout"
SEEDS = tuple(range(2024, 2037))
NONE = "none"


def _run_chapter(round_name: str, chapter: str) -> dict:
    """Every answer of one chapter file of the round, checked on every seed (in this process)."""
    sys.path.insert(0, str(HERE.parent))
    warnings.filterwarnings("ignore")
    from mha.checks import check

    import heldout

    results = {}
    for answer in heldout.rounds()[round_name]:
        if not answer.key.startswith(chapter + ":"):
            continue
        per_seed = {}
        for seed in SEEDS:
            result = check(answer.exercise, answer.answer(), seed=seed)
            per_seed[str(seed)] = {
                "passed": result.passed,
                "diagnosis": result.diagnosis,
                "feedback": result.feedback,
                "hint": result.hint,
            }
        results[answer.key] = per_seed
    return results


def run(round_name: str) -> Path:
    chapters = sorted({p.stem for p in (HERE / round_name).glob("ch[0-9][0-9].py")})
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import measure; "
        "print(json.dumps(measure._run_chapter(sys.argv[2], sys.argv[3])))"
    )

    def one(chapter: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-c", script, str(HERE), round_name, chapter],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        return json.loads(done.stdout.strip().splitlines()[-1])

    results: dict = {}
    with ThreadPoolExecutor(2) as pool:
        for part in pool.map(one, chapters):
            results.update(part)
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{round_name}.json"
    path.write_text(json.dumps(results, indent=1))
    return path


def _answers(round_name: str):
    sys.path.insert(0, str(HERE.parent))
    import heldout

    return heldout.rounds()[round_name]


def _diagnoses(per_seed: dict) -> dict[str, list[str]]:
    """Each distinct diagnosis id (``"none"`` for none) and the seeds it was given on."""
    found: dict[str, list[str]] = collections.defaultdict(list)
    for seed, result in per_seed.items():
        found[result["diagnosis"] or NONE].append(seed)
    return dict(found)


def to_read(round_name: str) -> Path:
    results = json.loads((OUT / f"{round_name}.json").read_text())
    lines = [f"# {round_name}: the diagnoses to read", ""]
    for answer in _answers(round_name):
        if answer.kind != "wrong":
            continue
        per_seed = results[answer.key]
        found = _diagnoses(per_seed)
        if set(found) == {answer.label}:
            continue
        lines += [
            f"## {answer.key} `{answer.exercise}` (label: `{answer.label}`)",
            "",
            f"The writer's mistake: {answer.mistake}",
            "",
            "```python",
            answer.code.strip(),
            "```",
            "",
        ]
        for diagnosis, seeds in found.items():
            example = per_seed[seeds[0]]
            lines += [
                f"- diagnosis `{diagnosis}` on {len(seeds)} of {len(SEEDS)} seeds"
                f"{' (passed!)' if example['passed'] else ''}:",
                f"  > {example['feedback']}",
                f"  > Hint: {example['hint']}",
                "",
            ]
    path = OUT / f"{round_name}-to-read.md"
    path.write_text("\n".join(lines))
    return path


def rates(round_name: str) -> str:
    results = json.loads((OUT / f"{round_name}.json").read_text())
    reading_file = HERE / round_name / "reading.json"
    reading = json.loads(reading_file.read_text()) if reading_file.exists() else {}
    answers = _answers(round_name)
    kinds = collections.Counter(a.kind for a in answers)
    correct_pass = sum(
        all(r["passed"] for r in results[a.key].values()) for a in answers if a.kind == "correct"
    )
    wrong = [a for a in answers if a.kind == "wrong"]
    count = collections.Counter()
    for a in wrong:
        per_seed = results[a.key]
        read = reading.get(a.key, {})

        def verdict(result: dict, a=a, read=read) -> str:
            diagnosis = result["diagnosis"] or NONE
            if result["passed"]:
                return "passes"
            if diagnosis == a.label:
                return "label"
            return read.get(diagnosis, "unread")

        verdicts = [verdict(r) for r in per_seed.values()]
        first = verdict(per_seed[str(SEEDS[0])])
        count["passes"] += any(v == "passes" for v in verdicts)
        every = all(v in ("label", "named") for v in verdicts)
        count["named"] += every
        count["named_unseen"] += every and not a.seen
        count["label"] += all(v == "label" for v in verdicts)
        count["first_named"] += first in ("label", "named")
        count["other"] += any(v == "other" for v in verdicts)
        count["where"] += not every and any(v == "where" for v in verdicts)
        count["unread"] += any(v == "unread" for v in verdicts)
    unseen = sum(not a.seen for a in wrong)
    robust = [a for a in answers if a.kind == "robustness"]
    robust_pass = sum(any(r["passed"] for r in results[a.key].values()) for a in robust)
    n = len(wrong)
    return "\n".join([
        f"{round_name}: {kinds['correct']} correct, {n} wrong, {kinds['robustness']} robustness",
        f"correct answers that pass on every seed: {correct_pass} of {kinds['correct']}",
        f"wrong answers that pass on some seed: {count['passes']}",
        f"wrong answers named on every seed: {count['named']} of {n} ({count['named'] / n:.1%}); "
        f"by the label's id alone {count['label']}; on seed {SEEDS[0]} {count['first_named']}",
        f"... of the {unseen} not in seen.json: {count['named_unseen']} "
        f"({count['named_unseen'] / max(unseen, 1):.1%})",
        f"misdiagnosed (another mistake named on some seed): {count['other']}",
        f"only where it is wrong (on some seed, not named on every seed): {count['where']}",
        f"diagnoses not yet read: {count['unread']}",
        f"robustness answers that pass on some seed: {robust_pass} of {len(robust)}",
    ])  # fmt: skip


def _body(code: str) -> str:
    """The code without imports, decorators, def lines and comments, on one line (the rule of
    ``tests/test_checks.py``: what stays when an answer is copied under another name)."""
    lines = [line.split("#")[0].strip() for line in code.splitlines()]
    kept = [
        line for line in lines if line and not line.startswith(("import ", "from ", "@", "def "))
    ]
    return " ".join(" ".join(kept).split())


def seen(round_name: str) -> Path:
    """Write the round's ``seen.json``: the answers whose code was already in ``tests/corpus/``
    or ``mha/checks/``, or is an earlier round's answer's. A body of 40 characters or more is
    seen where it occurs in that code; a shorter one (a one-line value or return) where it is
    the whole body of a corpus function or of an earlier round's answer."""
    import ast

    sources = [*(HERE.parent / "corpus").glob("*.py"), *(ROOT / "mha" / "checks").rglob("*.py")]
    learnt = _body("\n".join(path.read_text() for path in sources))
    short_bodies = set()
    for path in (HERE.parent / "corpus").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                short_bodies.add(_body(ast.unparse(node)))
    sys.path.insert(0, str(HERE.parent))
    import heldout

    rounds = heldout.rounds()
    earlier = [a for name in rounds if name < round_name for a in rounds[name]]
    earlier_text = _body("\n".join(a.code for a in earlier))
    short_bodies |= {_body(a.code) for a in earlier}
    found = []
    for answer in rounds[round_name]:
        body = _body(answer.code)
        if (len(body) >= 40 and (body in learnt or body in earlier_text)) or (
            len(body) < 40 and body in short_bodies
        ):
            found.append(answer.key)
    path = HERE / round_name / "seen.json"
    path.write_text(json.dumps(found, indent=1) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("round", help="the round's folder, e.g. round5")
    parser.add_argument("--run", action="store_true", help="check every answer on 13 seeds")
    parser.add_argument("--to-read", action="store_true", help="write what the judge reads")
    parser.add_argument("--seen", action="store_true", help="write seen.json")
    args = parser.parse_args()
    if args.run:
        print("wrote", run(args.round))
    if args.to_read:
        print("wrote", to_read(args.round))
    if args.seen:
        print("wrote", seen(args.round))
    if not (args.run or args.to_read or args.seen):
        print(rates(args.round))


if __name__ == "__main__":
    main()
