"""The controlled suite at the paper's fault density, beside the unpadded one, over
generation seeds, written into docs/results.md ("Why Ours' replay ratio is not the
paper's 0.123"):

    python benchmarks/paper_density.py --out out/paper-density --seeds 42,43,44           # print
    python benchmarks/paper_density.py --out out/paper-density --seeds 42,43,44 --write   # and docs

The paper gives the controlled suite's faults (128 / 22 cases with one / two or three)
but no steps per case; its Ours row implies 46.3 steps per case if each replayed step
were one model call (LLM count 5.70 / replay ratio 0.123, `benchmarks/paper_gap.py`),
where the committed suite has 32.1. For every generation seed this script repairs two
suites with `--methods` and the committed suite's model (`dgrr/reference`, noise 0,
deterministic): the plain controlled suite of that seed (the committed
`sample_traces/controlled` for seed 42, generated for the others) and the same suite
padded with quiet turns to `--steps-per-case` (`dgrr bench generate --steps-per-case`:
the same cases, faults and labels over more steps), the quiet turns placed by
`--quiet-turns-at` (just before the final request, or at the session's start).

Per method and suite it reports recovery (strict rule), replay ratio, model calls per
case and per step, and the suite's affected share: the mean over the seeds with a 95%
Student-t interval over the per-seed values (with three seeds the interval is wide: it
says how far the seeds spread, not the cases), and Ours against each method by the
paired exact McNemar test on the discordant cases pooled over the seeds.

Resumable: a suite is not generated again when its manifest says it is the one asked
for, and finished (case, method) runs are kept (`OUT/<suite>-s<seed>/run`).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# its sibling scripts, also when a test loads this one by its path
sys.path.insert(0, str(ROOT / "benchmarks"))
import claims_across_seeds  # noqa: E402

DOC = ROOT / "docs" / "results.md"
COMMITTED = ROOT / "sample_traces" / "controlled"
COMMITTED_SEED = 42
PAPER_STEPS_PER_CASE = 46.3
"""The paper's Ours LLM count over its replay ratio (5.70 / 0.123): the steps per case its
controlled suite would have if each replayed step were one model call (an assumption)."""
PAPER_FAULTS = (128 + 2 * 22, 128 + 3 * 22)
"""The fewest and most faults the paper's suite can have: 128 cases with one, 22 with two
or three (it does not split the 22)."""
DEFAULT_METHODS = ("ours", "ours_no_support_check", "ours_no_selective_replay",
                   "llm_judge", "agenttrace", "redo_first_exposure", "full_rerun")
MODEL = "dgrr/reference"
QUIET_PLACES = {"request": "s", "start": "start-s"}
"""--quiet-turns-at -> the prefix of its padded suites' folders under --out."""
T_975 = (
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
    2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
    2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
    2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272)
"""Student t's 0.975 quantile for 1 to 30 degrees of freedom (scipy's `t.ppf`, to six
decimals, so a report is the same whether scipy is installed or not; beyond 30, 1.96)."""


def markers(quiet_at: str) -> tuple[str, str]:
    """The docs block a placement's report is written between."""
    name = "paper-density" if quiet_at == "request" else f"paper-density-{quiet_at}"
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


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
        self.by_case: dict[str, bool] = {}
        """Case id -> recovered, for the paired test."""

    def add(self, recovered: bool, replayed: int, steps: int, calls: float,
            case_id: str = "") -> None:
        self.cases += 1
        self.recovered += recovered
        self.replayed += replayed
        self.steps += steps
        self.calls += calls
        if case_id:
            self.by_case[case_id] = recovered


def rows_from_csv(path: Path, methods: Sequence[str]) -> dict[str, Row]:
    """Per method, the figures of a results CSV (`dgrr bench run`'s `results.csv`)."""
    out = {m: Row() for m in methods}
    with path.open(newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["method"] in out and not r["error"]:
                out[r["method"]].add(r["recovered"] == "True", int(r["replayed_steps"]),
                                     int(r["trajectory_steps"]), float(r["llm_calls"]),
                                     r["case_id"])
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


# ---- statistics ---------------------------------------------------------------------

def t_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% Student-t interval of `values` (the interval is the mean itself for
    one value)."""
    if not values:
        raise ValueError("no values")
    mean = statistics.fmean(values)
    n = len(values)
    if n == 1:
        return mean, mean, mean
    q = T_975[n - 2] if n - 1 <= len(T_975) else 1.96
    half = q * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def paired(per_seed: Sequence[tuple[Row, Row]]) -> tuple[int, int, float]:
    """Ours against a method over seeds ((ours, method) per seed): the cases only Ours
    recovers and only the method recovers, pooled over the seeds, and the exact McNemar
    p of those counts."""
    only_a = only_b = 0
    for a, b in per_seed:
        for case in a.by_case.keys() & b.by_case.keys():
            only_a += a.by_case[case] and not b.by_case[case]
            only_b += b.by_case[case] and not a.by_case[case]
    return only_a, only_b, float(claims_across_seeds.mcnemar_exact(only_a, only_b))


# ---- the runs -----------------------------------------------------------------------

def suite_folder(out: Path, seed: int, padded: str | None) -> Path:
    """The work folder of a seed's plain suite (`padded` None) or padded one."""
    return out / (f"plain-s{seed}" if padded is None else f"{QUIET_PLACES[padded]}{seed}")


def ensure_suite(where: Path, seed: int, steps_per_case: float | None,
                 quiet_at: str = "request") -> Path:
    """The suite under `where/suite` (the committed one for the plain seed 42),
    generated unless its manifest says it is this one already."""
    from repair_core.bench import generate_suite

    if steps_per_case is None and seed == COMMITTED_SEED:
        return COMMITTED
    suite = where / "suite"
    manifest = suite / "manifest.json"
    if manifest.exists():
        m = json.loads(manifest.read_text(encoding="utf-8"))
        if (m.get("seed") == seed and m.get("steps_per_case_target") == steps_per_case
                and m.get("quiet_turns_at", "request") == quiet_at):
            return suite
    if steps_per_case is None:
        generate_suite("controlled", suite, seed=seed)
    else:
        generate_suite("controlled", suite, seed=seed, steps_per_case=steps_per_case,
                       quiet_at=quiet_at)
    return suite


def measure_suite(where: Path, seed: int, steps_per_case: float | None, quiet_at: str,
                  methods: list[str], workers: int) -> dict[str, Any]:
    """One seed's suite, repaired by every method: its rows, shape and wall time."""
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core.bench import run_bench, suite_case_paths, write_outputs

    t0 = time.perf_counter()
    suite = ensure_suite(where, seed, steps_per_case, quiet_at)
    paths = [Path(p) for p in suite_case_paths(str(suite))]
    results = run_bench(paths, methods, where / "run", model=MODEL, suite=str(suite),
                        workers=workers, progress=False)
    write_outputs(results, where / "run")
    return {"rows": rows_from_csv(where / "run" / "results.csv", methods),
            "shape": suite_shape(paths), "seconds": time.perf_counter() - t0}


def measure(out: Path, seeds: Sequence[int], steps_per_case: float, quiet_at: str,
            methods: list[str], workers: int,
            say: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Every seed's padded and plain suite, the padded ones first (a run cut short still
    has them for every seed it reached)."""
    plain: dict[int, Any] = {}
    padded: dict[int, Any] = {}
    for seed in seeds:
        for kind, store, spc in (("padded", padded, steps_per_case), ("plain", plain, None)):
            where = suite_folder(out, seed, None if spc is None else quiet_at)
            store[seed] = measure_suite(where, seed, spc, quiet_at, methods, workers)
            say(f"seed {seed}, {kind}: {store[seed]['seconds']:.0f} s")
    return {"seeds": list(seeds), "target": steps_per_case, "quiet_at": quiet_at,
            "plain": plain, "padded": padded}


# ---- the report ---------------------------------------------------------------------

def _ci(values: Sequence[float], digits: int = 3) -> str:
    mean, lo, hi = t_interval(values)
    return f"{mean:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def report(m: dict[str, Any], methods: Sequence[str]) -> str:
    from repair_core.bench._methods import METHOD_LABELS
    from repair_core.bench._tables import PAPER_FIGURES

    paper = PAPER_FIGURES["controlled"]
    seeds = m["seeds"]
    where = {"request": "just before the final request",
             "start": "at the start of the session"}[m["quiet_at"]]
    out = [f"Generation seeds {', '.join(map(str, seeds))}; the padded suites generated "
           f"with --steps-per-case {m['target']:g}, quiet turns {where}. Each figure is "
           f"the mean over the {len(seeds)} seeds [95% Student-t interval over the "
           "seeds].", "",
           "| Suite | Cases | Faults (per seed) | Steps per case | Faults per 100 steps "
           "| Affected share of steps (A0) |", "|---|---:|---:|---:|---:|---:|"]
    for label, kind in (("controlled", "plain"), ("controlled, padded", "padded")):
        shapes = [m[kind][s]["shape"] for s in seeds]
        cases = sorted({int(x["cases"]) for x in shapes})
        out.append(f"| {label} | {', '.join(map(str, cases))} "
                   f"| {', '.join(str(int(x['faults'])) for x in shapes)} "
                   f"| {_ci([_ratio(x['steps'], x['cases']) for x in shapes], 1)} "
                   f"| {_ci([_ratio(100 * x['faults'], x['steps']) for x in shapes], 2)} "
                   f"| {_ci([_ratio(x['affected'], x['steps']) for x in shapes])} |")
    lo_f, hi_f = (100 * f / (150 * PAPER_STEPS_PER_CASE) for f in PAPER_FAULTS)
    out += [f"| paper (implied) | 150 | {PAPER_FAULTS[0]}–{PAPER_FAULTS[1]} "
            f"| {PAPER_STEPS_PER_CASE:.1f} | {lo_f:.2f}–{hi_f:.2f} | – |", "",
            "| Method | Recovery: plain | padded | Replay ratio: plain | padded "
            "| LLM calls per case: plain | padded | LLM calls per step, padded "
            "| Padded, Ours only / method only (pooled), exact McNemar p "
            "| Paper: recovery, replay ratio, LLM calls |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name in methods:
        cells = []
        for fig in ("recovery", "ratio", "calls"):
            for kind in ("plain", "padded"):
                rows = [m[kind][s]["rows"][name] for s in seeds]
                if fig == "recovery":
                    cells.append(_ci([_ratio(r.recovered, r.cases) for r in rows]))
                elif fig == "ratio":
                    cells.append(_ci([_ratio(r.replayed, r.steps) for r in rows]))
                else:
                    cells.append(_ci([_ratio(r.calls, r.cases) for r in rows], 2))
        rows = [m["padded"][s]["rows"][name] for s in seeds]
        cells.append(_ci([_ratio(r.calls, r.steps) for r in rows]))
        if name == "ours" or "ours" not in methods:
            cells.append("–")
        else:
            a, b, p = paired([(m["padded"][s]["rows"]["ours"], m["padded"][s]["rows"][name])
                              for s in seeds])
            cells.append(f"{a} / {b}, p = {p:.3g}")
        ref = paper.get(name, {})
        cells.append(", ".join("–" if ref.get(k) is None else f"{ref[k]:.{d}f}"
                               for k, d in (("recovery", 3), ("replay_ratio", 3),
                                            ("llm_calls", 2))))
        out.append(f"| {METHOD_LABELS.get(name, name)} | " + " | ".join(cells) + " |")
    out += ["", "Per seed, padded suite (recovery, replay ratio, LLM calls per case):", "",
            "| Method | " + " | ".join(f"seed {s}" for s in seeds) + " |",
            "|---|" + "---:|" * len(seeds)]
    for name in methods:
        per = []
        for s in seeds:
            r = m["padded"][s]["rows"][name]
            per.append(f"{_ratio(r.recovered, r.cases):.3f}, {_ratio(r.replayed, r.steps):.3f}"
                       f", {_ratio(r.calls, r.cases):.2f}")
        out.append(f"| {METHOD_LABELS.get(name, name)} | " + " | ".join(per) + " |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "paper-density",
                    help="work folder for the suites and their runs (re-use it to resume)")
    ap.add_argument("--seeds", default="42,43,44",
                    help="generation seeds, comma-separated (default 42,43,44)")
    ap.add_argument("--steps-per-case", type=float, default=PAPER_STEPS_PER_CASE,
                    help=f"steps per case to pad to (default {PAPER_STEPS_PER_CASE})")
    ap.add_argument("--quiet-turns-at", choices=tuple(QUIET_PLACES), default="request",
                    help="where the padded suites' quiet turns go (default request)")
    ap.add_argument("--methods", default=",".join(DEFAULT_METHODS))
    ap.add_argument("--workers", type=int, default=1, help="processes for each run")
    ap.add_argument("--write", action="store_true",
                    help=f"write the tables between the placement's markers in {DOC.name}")
    args = ap.parse_args(argv)
    from repair_core._errors import DgrrError
    from repair_core.bench import METHOD_LABELS

    methods = [x.strip() for x in args.methods.split(",") if x.strip()]
    bad = [x for x in methods if x not in METHOD_LABELS]
    if bad or not methods:
        named = ", ".join(bad) if bad else repr(args.methods)
        ap.error(f"--methods: unknown {named}")
    try:
        seeds = claims_across_seeds.seed_list(args.seeds)
    except ValueError as e:
        ap.error(f"--seeds: {e}")
    if args.workers < 1:
        ap.error(f"--workers: must be at least 1, got {args.workers}")
    try:
        text = report(measure(args.out, seeds, args.steps_per_case, args.quiet_turns_at,
                              methods, args.workers,
                              lambda s: print(s, file=sys.stderr, flush=True)), methods)
    except DgrrError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text, end="")
    if args.write:
        from repair_core._io import write_marked_block

        begin, end = markers(args.quiet_turns_at)
        if not write_marked_block(DOC, begin, end, text):
            print(f"{DOC}: no {begin} marker", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
