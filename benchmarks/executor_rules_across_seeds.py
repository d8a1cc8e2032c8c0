"""What the executor's two rules for baselines at their best move, per method, over seeds.

Rules `replay.answer.sees-replayed` and `replay.world.own-action` apply to every repair
method alike, and `repair_core.replay.ExecutorRules` switches them (`RULES_BEFORE`: both
off, the executor as it ran before them). This script repairs each suite twice with every
method, once with both rules off ("before") and once with the default executor
("after"), and stores per method and case the verdict and the cost. A unit is one
generated suite (family, generation seed S) repaired at one noise salt K; the families
and the repairing model are `benchmarks/claims_across_seeds.py`'s (`controlled-noisy`
repaired at noise 0.1 over salts 1..N, `controlled` and `adapted` at noise 0, one run
per seed), plus `agentdojo`, the committed AgentDojo cases (enumerated cases and a
deterministic agent: one run, no seed). The verdict is the strict rule's recovery, and on
AgentDojo the user task's utility, as the docs' tables report them. Per family and
method:

- recovery before and after: the mean over the units with a 95% interval (Student-t over
  the seeds when each seed is one run, else a percentile bootstrap over the units), and
  the change after - before with its interval;
- the discordant (unit, case) pairs pooled over all units: gained (after only) and lost
  (before only), and their paired exact McNemar p; and how many distinct cases (a case
  of one seed's suite) were gained or lost in at least one run;
- replayed steps and model calls per case, before and after (and on AgentDojo the share
  of cases that need a human).

Resumable and parallel: each unit is written atomically to
`OUT/units/<family>-s<S>-k<K>.json` and skipped when present; the runs under it are
`dgrr bench` folders, resumed case by case; units run in `--workers` processes. Usage:

    python benchmarks/executor_rules_across_seeds.py --out out/executor-rules \\
        --families controlled-noisy,controlled --seeds 42,43,44 --salts 20 --workers 1 \\
        --doc docs/results.md
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# its sibling scripts, also when a test loads this one by its path
sys.path.insert(0, str(ROOT / "benchmarks"))
import claims_across_seeds  # noqa: E402

BLOCK = "executor-rules"
"""The docs block written unless --block."""
SETTINGS = ("before", "after")
"""Both rules off, then the default executor."""
FAMILIES = ("controlled-noisy", "controlled", "adapted", "agentdojo")
AGENTDOJO = "agentdojo"
"""The family of the committed AgentDojo cases: no generation seed, no slips."""
DEFAULT_METHODS = ("full_reset", "delete_retrieved", "delete_faults_rerun",
                   "delete_restore_rerun", "memaudit", "llm_judge", "agenttrace",
                   "redo_first_exposure", "full_rerun", "ours", "ours_store",
                   "ours_no_planner", "ours_no_support_check", "ours_no_selective_replay")
"""Every method that goes through the executor (no repair does not)."""


def family_noise(family: str) -> float:
    """The repairing model's slip rate of a family (claims_across_seeds' families)."""
    if family == AGENTDOJO:
        return 0.0
    return claims_across_seeds.NOISE if family == "controlled-noisy" else 0.0


def unit_path(out: Path, family: str, seed: int, salt: int) -> Path:
    return out / "units" / f"{family}-s{seed}-k{salt}.json"


def _suite(out: Path, family: str, seed: int) -> Path:
    if family == AGENTDOJO:
        return ROOT / "sample_traces" / "agentdojo"
    return claims_across_seeds.ensure_suite(out, family, seed)


def _model(family: str, salt: int) -> str:
    if family == AGENTDOJO:
        return "dgrr/agentdojo-vulnerable"  # the scripted tool agent the cases were made by
    return claims_across_seeds.repair_model(family_noise(family), salt)


def run_unit(out: str, family: str, seed: int, salt: int, methods: list[str]
             ) -> dict[str, Any]:
    """Repair one suite at one salt with every method, before and after the rules; store
    and return the verdicts and costs (skipped when stored with every method)."""
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core._io import atomic_write_json
    from repair_core.bench import run_bench, suite_case_paths
    from repair_core.replay import RULES_BEFORE, ExecutorRules

    path = unit_path(Path(out), family, seed, salt)
    if path.exists():
        stored: dict[str, Any] = json.loads(path.read_text())
        if all(set(methods) <= set(stored[s]["recovered"]) for s in SETTINGS):
            return stored
    t0 = time.perf_counter()
    suite = _suite(Path(out), family, seed)
    paths = suite_case_paths(str(suite))
    unit: dict[str, Any] = {"family": family, "seed": seed, "salt": salt,
                            "model": _model(family, salt), "cases": len(paths)}
    for setting, rules in zip(SETTINGS, (RULES_BEFORE, ExecutorRules()), strict=True):
        results = run_bench(paths, methods, Path(out) / "runs" / f"{family}-s{seed}-k{salt}"
                            f"-{setting}", model=unit["model"], suite=str(suite),
                            progress=False, rules=rules)
        recovered: dict[str, dict[str, bool]] = {m: {} for m in methods}
        cost = {m: {"replayed": 0, "steps": 0, "calls": 0, "human": 0} for m in methods}
        for r in results:
            if r.error is None:
                verdict = r.utility if family == AGENTDOJO else r.recovered
                recovered[r.method][r.case_id] = bool(verdict)
                cost[r.method]["replayed"] += r.replayed_steps
                cost[r.method]["steps"] += r.trajectory_steps
                cost[r.method]["calls"] += r.llm_calls
                cost[r.method]["human"] += bool(r.needs_human)
        unit[setting] = {"recovered": recovered, "cost": cost}
    unit["seconds"] = round(time.perf_counter() - t0, 1)
    atomic_write_json(path, unit)
    return unit


def run_all(out: Path, families: Sequence[str], seeds: Sequence[int], salts: Sequence[int],
            methods: list[str], workers: int) -> None:
    todo: list[tuple[str, int, int]] = []
    for family in families:
        if family == AGENTDOJO:
            todo.append((family, 0, 0))
            continue
        for seed in seeds:  # generated once, before the units read them
            claims_across_seeds.ensure_suite(out, family, seed)
        family_salts = salts if family_noise(family) else [1]  # at noise 0 a salt is moot
        # salt by salt across the seeds: a run cut short still covers every seed
        todo += [(family, s, k) for k in family_salts for s in seeds]
    if workers <= 1:
        for f, s, k in todo:
            u = run_unit(str(out), f, s, k, methods)
            print(f"{f} seed {s} salt {k}: {u['seconds']} s", flush=True)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_unit, str(out), f, s, k, methods) for f, s, k in todo]
        for fut in as_completed(futures):
            u = fut.result()
            print(f"{u['family']} seed {u['seed']} salt {u['salt']}: {u['seconds']} s",
                  flush=True)


# ---- the report ---------------------------------------------------------------------

def _share(recovered: dict[str, bool]) -> float:
    return sum(recovered.values()) / len(recovered) if recovered else 0.0


def _interval(values: Sequence[float], per_seed_runs: bool) -> tuple[float, float]:
    """95% interval of the mean of `values`: Student-t over the seeds when each is one run
    (a bootstrap over a handful of values only returns their own resample means), a
    percentile bootstrap over the units otherwise; one value is its own interval."""
    if len(values) == 1:
        return values[0], values[0]
    if per_seed_runs:
        return claims_across_seeds.seed_interval(values)
    return claims_across_seeds.bootstrap_interval(values)


def moved(units: Sequence[dict[str, Any]], method: str) -> dict[str, Any]:
    """`method` before and after over `units`: recovery per unit on each side, the pooled
    discordant pairs (gained: recovered after only; lost: before only) with their exact
    McNemar p, the distinct (seed, case) pairs each way, and the cost sums."""
    before, after, gained, lost = [], [], 0, 0
    gained_cases: set[tuple[int, str]] = set()
    lost_cases: set[tuple[int, str]] = set()
    cost = {s: {"replayed": 0, "steps": 0, "calls": 0, "human": 0, "cases": 0}
            for s in SETTINGS}
    for u in units:
        rb, ra = u["before"]["recovered"][method], u["after"]["recovered"][method]
        cases = sorted(set(rb) & set(ra))
        before.append(_share({c: rb[c] for c in cases}))
        after.append(_share({c: ra[c] for c in cases}))
        for c in cases:
            if ra[c] and not rb[c]:
                gained += 1
                gained_cases.add((u["seed"], c))
            elif rb[c] and not ra[c]:
                lost += 1
                lost_cases.add((u["seed"], c))
        for s in SETTINGS:
            for k in ("replayed", "steps", "calls", "human"):
                cost[s][k] += u[s]["cost"][method][k]
            cost[s]["cases"] += len(u[s]["recovered"][method])
    return {"before": before, "after": after, "change": [a - b for a, b in zip(after, before, strict=True)],
            "gained": gained, "lost": lost, "gained_cases": sorted(gained_cases),
            "lost_cases": sorted(lost_cases),
            "p": claims_across_seeds.mcnemar_exact(gained, lost), "cost": cost}


def _runs_of(group: Sequence[dict[str, Any]], seed: int, salts: bool) -> str:
    """'43, 50 cases, salts 1–5': what a seed's runs in `group` are."""
    mine = [u for u in group if u["seed"] == seed]
    text = f"{seed}, {mine[0]['cases']} cases"
    return text + (f", salts {claims_across_seeds._ranges([u['salt'] for u in mine])}"
                   if salts else "")


def report(units: Sequence[dict[str, Any]], methods: Sequence[str]) -> str:
    from repair_core.bench import METHOD_LABELS

    by_family: dict[str, list[dict[str, Any]]] = {}
    for u in units:
        by_family.setdefault(u["family"], []).append(u)
    out: list[str] = []
    for family in [f for f in FAMILIES if f in by_family]:
        group = sorted(by_family[family], key=lambda u: (u["seed"], u["salt"]))
        seeds = sorted({u["seed"] for u in group})
        per_seed_runs = len(group) == len(seeds)
        present = [m for m in methods
                   if all(m in u[s]["recovered"] for u in group for s in SETTINGS)]
        if family == AGENTDOJO:
            out.append(f"#### {family}: the committed cases, {group[0]['cases']} cases, one "
                       "run (no generation seed, no slips): utility\n")
        else:
            model = group[0]["model"].split("/salt=")[0]
            out.append(f"#### {family}, repaired by {model}: {len(group)} runs (generation "
                       f"seed, cases{', noise salts' if not per_seed_runs else ''}: "
                       + "; ".join(_runs_of(group, s, not per_seed_runs) for s in seeds)
                       + "): strict recovery\n")
            out.append("Intervals: 95% " + ("Student-t over the seeds." if per_seed_runs
                                             else "percentile bootstrap over the runs.") + "\n")
        human = family == AGENTDOJO
        out.append("| Method | Before, mean [95% interval] | After, mean [95% interval] | "
                   "Change [95% interval] | Change per seed | Gained / lost (pooled pairs) | Exact McNemar p "
                   "| Distinct cases gained / lost | Replayed steps per case before → after | "
                   "LLM calls per case before → after |"
                   + (" Needs a human before → after |" if human else ""))
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                   + ("---:|" if human else ""))
        for m in present:
            d = moved(group, m)
            cells = []
            for key in ("before", "after", "change"):
                vals = d[key]
                lo, hi = _interval(vals, per_seed_runs)
                # a share lies in [0, 1] and a change of one in [-1, 1]
                floor = -1.0 if key == "change" else 0.0
                lo, hi = max(floor, lo), min(1.0, hi)
                sign = "+" if key == "change" else ""
                cells.append(f"{sum(vals) / len(vals):{sign}.3f} [{lo:{sign}.3f}, {hi:{sign}.3f}]")
            changes = list(zip((u["seed"] for u in group), d["change"], strict=True))
            per_seed = ", ".join(
                f"{seed}: {statistics.fmean(c for s, c in changes if s == seed):+.3f}"
                for seed in seeds)
            cb, ca = d["cost"]["before"], d["cost"]["after"]
            row = (f"| {METHOD_LABELS.get(m, m)} | {cells[0]} | {cells[1]} | {cells[2]} | "
                   f"{per_seed if family != AGENTDOJO else '–'} | "
                   f"{d['gained']} / {d['lost']} | {claims_across_seeds.p_text(d['p'])} | "
                   f"{len(d['gained_cases'])} / {len(d['lost_cases'])} | "
                   f"{cb['replayed'] / max(1, cb['cases']):.2f} → "
                   f"{ca['replayed'] / max(1, ca['cases']):.2f} | "
                   f"{cb['calls'] / max(1, cb['cases']):.2f} → "
                   f"{ca['calls'] / max(1, ca['cases']):.2f} |")
            if human:
                row += (f" {cb['human'] / max(1, cb['cases']):.3f} → "
                        f"{ca['human'] / max(1, ca['cases']):.3f} |")
            out.append(row)
        out.append("")
    return "\n".join(out)


def stored_units(out: Path, families: Sequence[str]) -> list[dict[str, Any]]:
    units = [json.loads(p.read_text()) for p in sorted((out / "units").glob("*.json"))]
    return [u for u in units if u["family"] in families]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "executor-rules",
                    help="work folder (re-use it to resume)")
    ap.add_argument("--families", default="controlled-noisy,controlled",
                    help=f"comma-separated, from {', '.join(FAMILIES)}")
    ap.add_argument("--seeds", default="42,43,44", help="generation seeds, comma-separated")
    ap.add_argument("--salts", type=int, default=20,
                    help="noise salts 1..N per seed of a family repaired with slips")
    ap.add_argument("--methods", default=",".join(DEFAULT_METHODS))
    ap.add_argument("--workers", type=int, default=1, help="units run in parallel processes")
    ap.add_argument("--block", default=BLOCK,
                    help=f"the docs block --doc writes (default {BLOCK})")
    ap.add_argument("--report-only", action="store_true",
                    help="run nothing: report the units stored in --out")
    ap.add_argument("--doc", type=Path, default=None,
                    help="write the tables into this file, between the --block markers")
    args = ap.parse_args(argv)
    families, seeds = claims_across_seeds.checked_grid(ap, args, FAMILIES)
    from repair_core.bench import METHOD_LABELS

    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    bad = [m for m in methods if m not in METHOD_LABELS or m == "no_repair"]
    if bad or not methods:
        ap.error(f"--methods: not a method the executor runs: {', '.join(bad) or args.methods!r}")
    if not args.report_only:
        run_all(args.out, families, seeds, list(range(1, args.salts + 1)), methods,
                args.workers)
    units = stored_units(args.out, families)
    if not units:
        print("no stored runs to report", file=sys.stderr)
        return 1
    text = report(units, methods)
    print(text)
    if args.doc is not None and not claims_across_seeds.write_doc_block(args.doc, args.block,
                                                                          text):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
