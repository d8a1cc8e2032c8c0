"""The controlled suite at the paper's fault density, beside the committed one, written
into docs/results.md ("Why Ours' replay ratio is not the paper's 0.123"):

    python benchmarks/paper_density.py --out out/paper-density            # print
    python benchmarks/paper_density.py --out out/paper-density --write    # and docs

The paper gives the controlled suite's faults (128 / 22 cases with one / two or three)
but no steps per case; its Ours row implies 46.3 steps per case if each replayed step
were one model call (LLM count 5.70 / replay ratio 0.123, `benchmarks/paper_gap.py`),
where the committed suite has 32.1. This script generates the controlled suite of
`--seed` padded with quiet turns to `--steps-per-case` (`dgrr bench generate
--steps-per-case`: the same cases, faults and labels over more steps), repairs it with
`--methods` and the committed suite's model (`dgrr/reference`, noise 0, deterministic),
and sets each method's recovery (strict rule), replay ratio and LLM calls per case
beside the committed `docs/results/controlled/results.csv` and the paper's figures.
Resumable: the suite is not generated again when its manifest exists, and finished
(case, method) runs are kept.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BEGIN, END = "<!-- paper-density:begin -->", "<!-- paper-density:end -->"
DOC = ROOT / "docs" / "results.md"
COMMITTED = ROOT / "sample_traces" / "controlled"
COMMITTED_CSV = ROOT / "docs" / "results" / "controlled" / "results.csv"
PAPER_STEPS_PER_CASE = 46.3
"""The paper's Ours LLM count over its replay ratio (5.70 / 0.123): the steps per case its
controlled suite would have if each replayed step were one model call (an assumption)."""
PAPER_FAULTS = (128 + 2 * 22, 128 + 3 * 22)
"""The fewest and most faults the paper's suite can have: 128 cases with one, 22 with two
or three (it does not split the 22)."""
DEFAULT_METHODS = ("ours", "ours_no_support_check", "ours_no_selective_replay",
                   "llm_judge", "agenttrace", "redo_first_exposure", "full_rerun")
MODEL = "dgrr/reference"


class Row:
    """One method's figures on one suite (a plain class: the script is also loaded by its
    path, outside `sys.modules`)."""

    def __init__(self) -> None:
        self.cases = 0
        """Cases the method ran without an error."""
        self.recovered = 0
        """Of those, recovered under the strict rule."""
        self.replayed = 0
        """Replayed steps, summed over the cases."""
        self.steps = 0
        """Trajectory steps, summed over the cases."""
        self.calls = 0.0
        """Model calls of the repair, summed over the cases."""

    def add(self, recovered: bool, replayed: int, steps: int, calls: float) -> None:
        self.cases += 1
        self.recovered += recovered
        self.replayed += replayed
        self.steps += steps
        self.calls += calls


def rows_from_csv(path: Path, methods: Sequence[str]) -> dict[str, Row]:
    """Per method, the figures of a results CSV (`dgrr bench run`'s `results.csv`)."""
    out = {m: Row() for m in methods}
    with path.open(newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["method"] in out and not r["error"]:
                out[r["method"]].add(r["recovered"] == "True", int(r["replayed_steps"]),
                                     int(r["trajectory_steps"]), float(r["llm_calls"]))
    return out


def suite_shape(paths: Iterable[Path]) -> dict[str, float]:
    """Cases, steps, faults and raw affected steps (`A0`, from the rule plan) of a suite."""
    from repair_core import plan_case
    from repair_core.case._load import load_case

    cases = steps = faults = affected = 0
    for p in paths:
        case = load_case(p)
        ids = {s.id for s in case.trajectory}
        cases += 1
        steps += len(ids)
        faults += len(case.faults)
        affected += len(ids & set(plan_case(case).analysis.affected))
    return {"cases": cases, "steps": steps, "faults": faults, "affected": affected}


def ensure_suite(out: Path, seed: int, steps_per_case: float) -> Path:
    """The padded suite under `out/suite`, generated unless its manifest says it is this
    one already."""
    from repair_core.bench import generate_suite

    where = out / "suite"
    manifest = where / "manifest.json"
    if manifest.exists():
        m = json.loads(manifest.read_text(encoding="utf-8"))
        if m.get("seed") == seed and m.get("steps_per_case_target") == steps_per_case:
            return where
    generate_suite("controlled", where, seed=seed, steps_per_case=steps_per_case)
    return where


def measure(out: Path, seed: int, steps_per_case: float, methods: list[str],
            workers: int) -> dict[str, Any]:
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core.bench import run_bench, suite_case_paths, write_outputs

    suite = ensure_suite(out, seed, steps_per_case)
    paths = [Path(p) for p in suite_case_paths(str(suite))]
    results = run_bench(paths, methods, out / "run", model=MODEL, suite=str(suite),
                        workers=workers, progress=False)
    write_outputs(results, out / "run")
    return {"seed": seed, "target": steps_per_case,
            "padded": rows_from_csv(out / "run" / "results.csv", methods),
            "committed": rows_from_csv(COMMITTED_CSV, methods),
            "padded_shape": suite_shape(paths),
            "committed_shape": suite_shape(
                [Path(p) for p in suite_case_paths(str(COMMITTED))])}


def _f(num: float, den: float, digits: int = 3) -> str:
    return f"{num / den:.{digits}f}" if den else "–"


def report(m: dict[str, Any], methods: Sequence[str]) -> str:
    from repair_core.bench._methods import METHOD_LABELS
    from repair_core.bench._tables import PAPER_FIGURES

    paper = PAPER_FIGURES["controlled"]
    c, p = m["committed_shape"], m["padded_shape"]
    out = [f"Suites (seed {m['seed']}; the padded one generated with --steps-per-case "
           f"{m['target']:g}):", "",
           "| Suite | Cases | Faults | Steps per case | Faults per 100 steps | Affected share "
           "of steps (A0) |", "|---|---:|---:|---:|---:|---:|",
           f"| controlled (committed) | {c['cases']} | {c['faults']} "
           f"| {_f(c['steps'], c['cases'], 1)} | {_f(100 * c['faults'], c['steps'], 2)} "
           f"| {_f(c['affected'], c['steps'])} |",
           f"| controlled, padded | {p['cases']} | {p['faults']} "
           f"| {_f(p['steps'], p['cases'], 1)} | {_f(100 * p['faults'], p['steps'], 2)} "
           f"| {_f(p['affected'], p['steps'])} |",
           f"| paper (implied) | 150 | {PAPER_FAULTS[0]}–{PAPER_FAULTS[1]} "
           f"| {PAPER_STEPS_PER_CASE:.1f} "
           f"| {_f(100 * PAPER_FAULTS[0], 150 * PAPER_STEPS_PER_CASE, 2)}–"
           f"{_f(100 * PAPER_FAULTS[1], 150 * PAPER_STEPS_PER_CASE, 2)} | – |", "",
           "| Method | Recovery: committed | padded | Replay ratio: committed | padded "
           "| LLM calls per case: committed | padded | Paper: recovery, replay ratio, LLM "
           "calls |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name in methods:
        a, b = m["committed"][name], m["padded"][name]
        ref = paper.get(name, {})
        figures = ", ".join("–" if ref.get(k) is None else f"{ref[k]:.{d}f}"
                            for k, d in (("recovery", 3), ("replay_ratio", 3), ("llm_calls", 2)))
        out.append(f"| {METHOD_LABELS.get(name, name)} | {_f(a.recovered, a.cases)} "
                   f"| {_f(b.recovered, b.cases)} | {_f(a.replayed, a.steps)} "
                   f"| {_f(b.replayed, b.steps)} | {_f(a.calls, a.cases, 2)} "
                   f"| {_f(b.calls, b.cases, 2)} | {figures} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "paper-density",
                    help="work folder for the padded suite and its run (re-use it to resume)")
    ap.add_argument("--seed", type=int, default=42, help="generation seed (default 42)")
    ap.add_argument("--steps-per-case", type=float, default=PAPER_STEPS_PER_CASE,
                    help=f"steps per case to pad to (default {PAPER_STEPS_PER_CASE})")
    ap.add_argument("--methods", default=",".join(DEFAULT_METHODS))
    ap.add_argument("--workers", type=int, default=1, help="processes for the run")
    ap.add_argument("--write", action="store_true",
                    help=f"write the tables between {BEGIN} and {END} in {DOC.name}")
    args = ap.parse_args(argv)
    from repair_core._errors import DgrrError
    from repair_core.bench import METHOD_LABELS

    methods = [x.strip() for x in args.methods.split(",") if x.strip()]
    bad = [x for x in methods if x not in METHOD_LABELS]
    if bad or not methods:
        named = ", ".join(bad) if bad else repr(args.methods)
        ap.error(f"--methods: unknown {named}")
    if args.workers < 1:
        ap.error(f"--workers: must be at least 1, got {args.workers}")
    try:
        text = report(measure(args.out, args.seed, args.steps_per_case, methods,
                              args.workers), methods)
    except DgrrError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text, end="")
    if args.write:
        from repair_core._io import write_marked_block

        if not write_marked_block(DOC, BEGIN, END, text):
            print(f"{DOC}: no {BEGIN} marker", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
