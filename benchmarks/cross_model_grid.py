"""The cross-model seed x noise grid: generate with one built-in policy, repair with another.

For every generating policy G, noise rate P and seed S the script generates a suite
(`dgrr bench generate --suite controlled --seed S --model G --noise P --count K`), then
repairs it with every repairing policy R at the same rate (`dgrr bench run --model R
--noise P`). Each cell (G, R, P) reports, per method, the mean recovery over the seeds and
a 95% percentile bootstrap interval over the seeds' recoveries (10,000 resamples, fixed
seed).

Resumable and parallel: a suite whose manifest exists is not generated again, a stored
result is not recomputed (the runner's resume), and the (G, P, S) units run in
`--workers` processes. Usage:

    python benchmarks/cross_model_grid.py --out /tmp/grid --seeds 1,2,3,4,5 --count 20 \\
        --workers 2 --doc docs/results-cross-model.md
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BEGIN, END = "<!-- grid:begin -->", "<!-- grid:end -->"


def _model(policy: str, noise: float) -> str:
    return f"dgrr/{policy}" + (f"/noise={noise:g}" if noise else "")


def _unit(out: str, gen: str, noise: float, seed: int, count: int, repairs: list[str],
          methods: list[str]) -> dict[str, Any]:
    """Generate one suite (unless present) and repair it with every policy."""
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core.bench import generate_suite, run_bench, suite_case_paths

    suite = Path(out) / "suites" / f"{gen}-n{noise:g}-s{seed}"
    t0 = time.perf_counter()
    if not (suite / "manifest.json").exists():
        generate_suite("controlled", suite, seed=seed, model=_model(gen, noise), count=count)
    t1 = time.perf_counter()
    recovered: dict[str, dict[str, float]] = {}
    calls: dict[str, dict[str, float]] = {}
    for rep in repairs:
        run = Path(out) / "runs" / f"{gen}-{rep}-n{noise:g}-s{seed}"
        results = run_bench(suite_case_paths(str(suite)), methods, run,
                            model=_model(rep, noise), suite=str(suite), progress=False)
        by_m: dict[str, list[bool]] = {}
        spent: dict[str, list[int]] = {}
        for r in results:
            by_m.setdefault(r.method, []).append(bool(r.recovered))
            spent.setdefault(r.method, []).append(r.llm_calls)
        recovered[rep] = {m: sum(v) / len(v) for m, v in by_m.items() if v}
        calls[rep] = {m: sum(v) / len(v) for m, v in spent.items() if v}
    return {"gen": gen, "noise": noise, "seed": seed, "recovery": recovered, "calls": calls,
            "generate_s": round(t1 - t0, 1), "run_s": round(time.perf_counter() - t1, 1),
            "cases": len(suite_case_paths(str(suite)))}


def bootstrap_ci(values: list[float], *, resamples: int = 10_000, seed: int = 0
                 ) -> tuple[float, float]:
    """95% percentile bootstrap interval of the mean of `values`."""
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choice(values) for _ in range(n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def summarise(units: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """cell "G -> R @ P" -> method -> {mean, lo, hi, seeds}."""
    cells: dict[str, dict[str, list[float]]] = {}
    costs: dict[str, dict[str, list[float]]] = {}
    # in seed order, not completion order: the bootstrap resamples by position
    for u in sorted(units, key=lambda u: (u["gen"], u["noise"], u["seed"])):
        for rep, by_m in u["recovery"].items():
            cell = f"{u['gen']} -> {rep} @ {u['noise']:g}"
            for m, v in by_m.items():
                cells.setdefault(cell, {}).setdefault(m, []).append(v)
            for m, c in u.get("calls", {}).get(rep, {}).items():
                costs.setdefault(cell, {}).setdefault(m, []).append(c)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for cell, by_m in sorted(cells.items()):
        out[cell] = {}
        for m, vals in by_m.items():
            lo, hi = bootstrap_ci(vals)
            spent = costs.get(cell, {}).get(m)
            out[cell][m] = {"mean": statistics.fmean(vals), "lo": lo, "hi": hi,
                            "seeds": len(vals), "per_seed": vals,
                            "calls": statistics.fmean(spent) if spent else None}
    return out


STORE_OBJECTIVE = ("ours_store",)
"""Methods that leave the final answer as the user received it (objective store): their
answer recovery is 0 by construction, so the grid, which scores answers, leaves them out."""


def table(summary: dict[str, dict[str, dict[str, Any]]], methods: list[str]) -> str:
    from repair_core.bench import METHOD_LABELS

    methods = [m for m in methods if m not in STORE_OBJECTIVE]
    cells = list(summary)
    lines = ["| Method | " + " | ".join(c.replace("->", "→") for c in cells) + " |",
             "|---|" + "---|" * len(cells)]
    for m in methods:
        row = [METHOD_LABELS.get(m, m)]
        for c in cells:
            s = summary[c].get(m)
            row.append("–" if s is None else f"{s['mean']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}]")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def not_ahead(summary: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Per cell, the baselines whose mean recovery is not below Ours' (ties included)."""
    from repair_core.bench import BASELINES, METHOD_LABELS

    lines = []
    for cell, by_m in summary.items():
        ours = by_m.get("ours")
        if ours is None:
            continue
        level = [f"{METHOD_LABELS.get(b, b)} ({by_m[b]['mean']:.3f})" for b in BASELINES
                 if b in by_m and by_m[b]["mean"] >= ours["mean"]]
        lines.append(f"- {cell.replace('->', '→')}: Ours {ours['mean']:.3f}; "
                     + ("ahead of every baseline" if not level
                        else "not ahead of " + ", ".join(level)))
    return lines


def against_the_goal(summary: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Per cell, the baselines Ours does not match at lower cost: a higher mean recovery,
    or the same or lower recovery at no more model calls per case than Ours."""
    from repair_core.bench import BASELINES, METHOD_LABELS

    lines = []
    for cell, by_m in summary.items():
        ours = by_m.get("ours")
        if ours is None or ours.get("calls") is None:
            continue
        short = []
        for b in BASELINES:
            s = by_m.get(b)
            if s is None or s.get("calls") is None:
                continue
            if s["mean"] > ours["mean"] or s["calls"] <= ours["calls"] and s["mean"] > 0:
                short.append(f"{METHOD_LABELS.get(b, b)} (recovery {s['mean']:.3f}, "
                             f"{s['calls']:.2f} calls)")
        lines.append(f"- {cell.replace('->', '→')}: Ours {ours['mean']:.3f} at "
                     f"{ours['calls']:.2f} calls; " + (
                         "at least every baseline's recovery, at fewer calls" if not short
                         else "not against " + ", ".join(short)))
    return lines


def write_doc(doc: Path, body: str) -> None:
    from repair_core._io import write_marked_block

    write_marked_block(doc, BEGIN, END, f"{body}\n", append=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="grid folder (re-use it to resume)")
    ap.add_argument("--seeds", default="1,2,3,4,5", help="comma-separated generator seeds")
    ap.add_argument("--noise", default="0,0.1", help="comma-separated noise rates")
    ap.add_argument("--policies", default="reference,reference-b",
                    help="built-in policies, used both to generate and to repair")
    ap.add_argument("--count", type=int, default=20, help="cases per generated suite")
    ap.add_argument("--methods", default="all", help="as for dgrr bench run --methods")
    ap.add_argument("--workers", type=int, default=2, help="parallel (policy, noise, seed) units")
    ap.add_argument("--doc", default=None, help="Markdown file whose grid block is rewritten")
    args = ap.parse_args(argv)

    from repair_core.bench import method_names

    seeds = [int(s) for s in args.seeds.split(",")]
    noises = [float(p) for p in args.noise.split(",")]
    policies = [p.strip() for p in args.policies.split(",")]
    methods = [m for m in method_names(args.methods) if m not in STORE_OBJECTIVE]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(str(out), g, p, s, args.count, policies, methods)
            for g in policies for p in noises for s in seeds]
    units: list[dict[str, Any]] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        futures = [pool.submit(_unit, *j) for j in jobs]
        for fut in as_completed(futures):
            u = fut.result()
            units.append(u)
            print(f"{u['gen']} noise {u['noise']:g} seed {u['seed']}: {u['cases']} cases, "
                  f"generate {u['generate_s']} s, runs {u['run_s']} s", flush=True)
    summary = summarise(units)
    (out / "grid.json").write_text(json.dumps(
        {"seeds": seeds, "noise": noises, "policies": policies, "count": args.count,
         "methods": methods, "units": units, "summary": summary}, indent=1))
    md = table(summary, methods)
    md += ("\n\nWhere Ours is ahead of every baseline on mean recovery (ties count as not "
           "ahead):\n\n" + "\n".join(not_ahead(summary)))
    goal = against_the_goal(summary)
    if goal:
        md += ("\n\nAgainst the goal, Ours at least every baseline's mean recovery at fewer "
               "model calls per case (a baseline that recovers nothing is not counted for "
               "cost):\n\n" + "\n".join(goal))
    (out / "grid.md").write_text(md + "\n")
    print(md)
    print(f"grid done in {time.perf_counter() - start:.0f} s")
    if args.doc:
        write_doc(Path(args.doc), f"Seeds {','.join(map(str, seeds))}; {args.count} "
                  f"controlled cases per suite; noise {args.noise}. Each cell: mean "
                  "recovery over the seeds [95% bootstrap interval].\n\n" + md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
