"""The cross-model grid over seeds and noise salts: generate with one built-in policy,
repair with another, and compare Ours with every other method case by case.

For every generating policy G, noise rate P and seed S the script generates a suite
(`dgrr bench generate --suite controlled --seed S --model G --noise P --count K`), then
repairs it with every repairing policy R: at noise 0 once with the deterministic `dgrr/R`
(a salt would change nothing), at a noise P above 0 once per salt k = 1..N with
`dgrr/R/noise=P/salt=k` (`docs/replay.md`, built-in models: the salt draws another set of
the repair's slips at the same rate; the failed runs' own slips are the generating seed's).
Each cell (G, R, P) reports, per method:

- recovery (strict rule): the mean over the cell's runs (seed, salt) with a 95% interval:
  a percentile bootstrap over the runs (10,000 resamples, fixed seed) where there are
  salts, a Student-t interval over the seeds at noise 0, cut to [0, 1] (one run per seed;
  a bootstrap over a handful of values only returns their own resample means);
- Ours against the method: the runs where Ours is ahead / tied / behind, and the paired
  exact McNemar test on the discordant (run, case) pairs pooled over the cell's runs
  (`benchmarks/claims_across_seeds.py`'s statistics, loaded by its path).

Resumable and parallel: a suite whose manifest exists is not generated again; each run's
per-case outcomes are written atomically to `OUT/units/G-R-nP-sS-kK.json` and a run whose
file holds every method is skipped; generation and runs go to `--workers` processes.
Usage:

    python benchmarks/cross_model_grid.py --out /tmp/grid --policies reference,rolling \\
        --seeds 1,2,3,4,5 --count 20 --salts 20 --workers 2 --doc docs/results-cross-model.md
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# its sibling scripts, also when a test loads this one by its path
sys.path.insert(0, str(ROOT / "benchmarks"))
import claims_across_seeds  # noqa: E402

BEGIN, END = "<!-- grid:begin -->", "<!-- grid:end -->"
SIGNIFICANT = 0.05
"""A paired comparison counts as a lead (or a loss) only below this exact McNemar p."""


def _model(policy: str, noise: float, salt: int | None = None) -> str:
    """The built-in model string of a policy at a rate (and a salt, at a rate above 0)."""
    if not noise:
        return f"dgrr/{policy}"
    return f"dgrr/{policy}/noise={noise:g}" + (f"/salt={salt}" if salt else "")


def salts_for(noise: float, salts: int) -> list[int]:
    """The salts a cell at `noise` is repaired with: none (0) at noise 0, 1..N above it."""
    return [0] if not noise else list(range(1, salts + 1))


def suite_path(out: Path, gen: str, noise: float, seed: int) -> Path:
    return out / "suites" / f"{gen}-n{noise:g}-s{seed}"


def unit_path(out: Path, gen: str, rep: str, noise: float, seed: int, salt: int) -> Path:
    return out / "units" / f"{gen}-{rep}-n{noise:g}-s{seed}-k{salt}.json"


def generate(out: str, gen: str, noise: float, seed: int, count: int) -> dict[str, Any]:
    """Generate one suite unless its manifest exists."""
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core.bench import generate_suite

    suite = suite_path(Path(out), gen, noise, seed)
    t0 = time.perf_counter()
    if not (suite / "manifest.json").exists():
        generate_suite("controlled", suite, seed=seed, model=_model(gen, noise), count=count)
    return {"gen": gen, "noise": noise, "seed": seed,
            "seconds": round(time.perf_counter() - t0, 1)}


def run_unit(out: str, gen: str, rep: str, noise: float, seed: int, salt: int,
             methods: list[str]) -> dict[str, Any]:
    """Repair one suite with one policy at one salt; store and return every method's
    per-case outcome and model calls (skipped when stored with every method)."""
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core._io import atomic_write_json
    from repair_core.bench import run_bench, suite_case_paths

    path = unit_path(Path(out), gen, rep, noise, seed, salt)
    if path.exists():
        stored: dict[str, Any] = json.loads(path.read_text())
        if set(methods) <= set(stored["recovered"]):
            return stored
    t0 = time.perf_counter()
    suite = suite_path(Path(out), gen, noise, seed)
    model = _model(rep, noise, salt)
    run = Path(out) / "runs" / path.stem
    results = run_bench(suite_case_paths(str(suite)), methods, run, model=model,
                        suite=str(suite), progress=False)
    recovered: dict[str, dict[str, bool]] = {m: {} for m in methods}
    calls = {m: 0 for m in methods}
    errors = {m: 0 for m in methods}
    for r in results:
        if r.error is None:
            recovered[r.method][r.case_id] = bool(r.recovered)
            calls[r.method] += r.llm_calls
        else:
            errors[r.method] += 1
    unit = {"gen": gen, "rep": rep, "noise": noise, "seed": seed, "salt": salt,
            "model": model, "recovered": recovered, "calls": calls, "errors": errors,
            "seconds": round(time.perf_counter() - t0, 1)}
    atomic_write_json(path, unit)
    return unit


def cell_name(unit: dict[str, Any]) -> str:
    return f"{unit['gen']} -> {unit['rep']} @ {unit['noise']:g}"


def summarise(units: Iterable[dict[str, Any]], methods: Sequence[str]
              ) -> dict[str, dict[str, dict[str, Any]]]:
    """cell "G -> R @ P" -> method -> {mean, lo, hi, runs, seeds, calls, and, for every
    method but Ours, the paired comparison with Ours: ahead, tied, behind (runs), only_a
    (cases only Ours recovered), only_b, p}."""
    claims = claims_across_seeds
    cells: dict[str, list[dict[str, Any]]] = {}
    for u in units:
        cells.setdefault(cell_name(u), []).append(u)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for cell in sorted(cells):
        # in (seed, salt) order, not completion order: the bootstrap resamples by position
        group = sorted(cells[cell], key=lambda u: (u["seed"], u["salt"]))
        seeds = sorted({u["seed"] for u in group})
        one_per_seed = len(group) == len(seeds) > 1
        outcomes = [u["recovered"] for u in group]
        out[cell] = {}
        for m in methods:
            if not all(o.get(m) for o in outcomes):
                continue
            rates = [sum(o[m].values()) / len(o[m]) for o in outcomes]
            lo, hi = (claims.seed_interval(rates) if one_per_seed
                      else claims.bootstrap_interval(rates))
            lo, hi = max(0.0, lo), min(1.0, hi)  # a share: a t interval can leave [0, 1]
            per_case_calls = [u["calls"][m] / len(u["recovered"][m]) for u in group]
            entry: dict[str, Any] = {
                "mean": statistics.fmean(rates), "lo": lo, "hi": hi, "runs": len(group),
                "seeds": len(seeds), "interval": "t" if one_per_seed else "bootstrap",
                "calls": statistics.fmean(per_case_calls),
                "errors": sum(u.get("errors", {}).get(m, 0) for u in group)}
            if m != "ours" and all(o.get("ours") for o in outcomes):
                entry.update(claims.compare(outcomes, "ours", m))
            out[cell][m] = entry
    return out


STORE_OBJECTIVE = ("ours_store",)
"""Methods that leave the final answer as the user received it (objective store): their
answer recovery is 0 by construction, so the grid, which scores answers, leaves them out."""


def _label(method: str) -> str:
    from repair_core.bench import METHOD_LABELS

    return METHOD_LABELS.get(method, method)


def _cells(summary: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    return [c.replace("->", "→") for c in summary]


def table(summary: dict[str, dict[str, dict[str, Any]]], methods: list[str]) -> str:
    """Recovery per method and cell: mean [95% interval]."""
    methods = [m for m in methods if m not in STORE_OBJECTIVE]
    lines = ["| Method | " + " | ".join(_cells(summary)) + " |",
             "|---|" + "---|" * len(summary)]
    for m in methods:
        row = [_label(m)]
        for c in summary:
            s = summary[c].get(m)
            row.append("–" if s is None else f"{s['mean']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}]")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def p_text(p: float) -> str:
    """A p-value as the tables print it (never 0: an underflowed sum is '< 1e-300')."""
    return f"{p:.3g}" if p > 0 else "< 1e-300"


def paired_table(summary: dict[str, dict[str, dict[str, Any]]], methods: list[str]) -> str:
    """Ours against each method per cell: the pooled discordant cases (Ours only / method
    only) and the exact McNemar p."""
    methods = [m for m in methods if m not in STORE_OBJECTIVE and m != "ours"]
    lines = ["| Ours against | " + " | ".join(_cells(summary)) + " |",
             "|---|" + "---|" * len(summary)]
    for m in methods:
        row = [_label(m)]
        for c in summary:
            s = summary[c].get(m)
            row.append("–" if s is None or "p" not in s
                       else f"{s['only_a']} / {s['only_b']}, p {p_text(s['p'])}")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def verdict(entry: dict[str, Any]) -> str:
    """'ahead', 'behind' (p below SIGNIFICANT, the side with more discordant cases) or
    'not shown to differ'."""
    if entry["p"] < SIGNIFICANT and entry["only_a"] != entry["only_b"]:
        return "ahead" if entry["only_a"] > entry["only_b"] else "behind"
    return "not shown to differ"


def standings(summary: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Per cell, Ours against every baseline by the paired test."""
    from repair_core.bench import BASELINES

    lines = []
    for cell, by_m in summary.items():
        ours = by_m.get("ours")
        if ours is None:
            continue
        groups: dict[str, list[str]] = {"ahead": [], "not shown to differ": [], "behind": []}
        for b in BASELINES:
            if b in by_m and "p" in by_m[b]:
                groups[verdict(by_m[b])].append(_label(b))
        parts = []
        if not groups["behind"] and not groups["not shown to differ"]:
            parts.append("ahead of every baseline")
        else:
            for key, words in (("behind", "behind"), ("not shown to differ", "not shown to "
                                                      "differ from"), ("ahead", "ahead of")):
                if groups[key]:
                    parts.append(f"{words} {', '.join(groups[key])}")
        lines.append(f"- {cell.replace('->', '→')}: Ours {ours['mean']:.3f}; "
                     + "; ".join(parts))
    return lines


def against_the_goal(summary: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Per cell, the baselines Ours does not match at lower cost: ahead of Ours by the
    paired test, or recovering something at no more model calls per case than Ours."""
    from repair_core.bench import BASELINES

    lines = []
    for cell, by_m in summary.items():
        ours = by_m.get("ours")
        if ours is None:
            continue
        short = []
        for b in BASELINES:
            s = by_m.get(b)
            if s is None or "p" not in s:
                continue
            if verdict(s) == "behind" or s["calls"] <= ours["calls"] and s["mean"] > 0:
                short.append(f"{_label(b)} (recovery {s['mean']:.3f}, {s['calls']:.2f} calls)")
        lines.append(f"- {cell.replace('->', '→')}: Ours {ours['mean']:.3f} at "
                     f"{ours['calls']:.2f} calls; " + (
                         "no baseline ahead by the paired test, every cheaper one recovers "
                         "nothing" if not short else "not against " + ", ".join(short)))
    return lines


def report(summary: dict[str, dict[str, dict[str, Any]]], methods: list[str],
           seeds: Sequence[int], count: int, noises: Sequence[float], salts: int) -> str:
    noisy = [p for p in noises if p]
    runs = ", ".join(f"{len(seeds)} at noise 0" if not p else
                     f"{len(seeds)} seeds × {salts} salts = {len(seeds) * salts} at noise {p:g}"
                     for p in noises)
    errors = sum(e["errors"] for by_m in summary.values() for e in by_m.values())
    md = (f"Seeds {','.join(map(str, seeds))}; {count} controlled cases per generated suite; "
          f"noise {','.join(f'{p:g}' for p in noises)}"
          + (f"; the repair at noise {','.join(f'{p:g}' for p in noisy)} with salts "
             f"1–{salts}" if noisy else "")
          + f". Runs per cell: {runs}. Each cell: mean recovery over its runs [95% interval: "
          "Student-t over the seeds at noise 0, cut to [0, 1], percentile bootstrap over "
          "the runs where there are salts]." + (f" {errors} (method, case) runs failed and are left out."
                                 if errors else "") + "\n\n" + table(summary, methods))
    md += ("\n\nOurs against each method, pooled over the cell's runs: cases only Ours "
           "recovered / cases only the method recovered, and the exact McNemar p:\n\n"
           + paired_table(summary, methods))
    md += (f"\n\nOurs against every baseline by the paired test (ahead or behind: p < "
           f"{SIGNIFICANT:g}):\n\n" + "\n".join(standings(summary)))
    md += ("\n\nAgainst the goal, no baseline ahead of Ours by the paired test and none "
           "cheaper in model calls per case that recovers anything:\n\n"
           + "\n".join(against_the_goal(summary)))
    return md + "\n"


def _jobs_in_order(policies: Sequence[str], noises: Sequence[float], seeds: Sequence[int],
                   salts: int) -> list[tuple[str, str, float, int, int]]:
    # salt by salt across the cells and seeds: a run cut short still covers every cell
    most = max(len(salts_for(p, salts)) for p in noises)
    jobs = []
    for i in range(most):
        for p in noises:
            ks = salts_for(p, salts)
            if i < len(ks):
                jobs += [(g, r, p, s, ks[i]) for g in policies for r in policies for s in seeds]
    return jobs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="grid folder (re-use it to resume)")
    ap.add_argument("--seeds", default="1,2,3,4,5", help="comma-separated generator seeds")
    ap.add_argument("--noise", default="0,0.1", help="comma-separated noise rates")
    ap.add_argument("--policies", default="reference,rolling",
                    help="built-in policies, used both to generate and to repair")
    ap.add_argument("--count", type=int, default=20, help="cases per generated suite")
    ap.add_argument("--salts", type=int, default=20,
                    help="repair-noise salts 1..N per seed at a noise above 0")
    ap.add_argument("--methods", default="all", help="as for dgrr bench run --methods")
    ap.add_argument("--workers", type=int, default=1, help="parallel processes")
    ap.add_argument("--report-only", action="store_true",
                    help="run nothing: report the runs stored in --out")
    ap.add_argument("--doc", default=None, help="Markdown file whose grid block is rewritten")
    args = ap.parse_args(argv)

    try:
        seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
        noises = [float(p) for p in args.noise.split(",") if p.strip()]
    except ValueError:
        ap.error(f"--seeds / --noise: not comma-separated numbers: {args.seeds!r}, "
                 f"{args.noise!r}")
    if not seeds or not noises:
        ap.error("--seeds / --noise: give at least one of each")
    bad_noise = [p for p in noises if not 0 <= p < 1]
    if bad_noise:
        ap.error(f"--noise: a slip rate from 0 up to 1, got {bad_noise[0]:g}")
    if args.salts < 1:
        ap.error(f"--salts: must be at least 1, got {args.salts}")
    if args.workers < 1:
        ap.error(f"--workers: must be at least 1, got {args.workers}")
    if args.count < 1:
        ap.error(f"--count: must be at least 1, got {args.count}")
    from repair_core.model import POLICIES

    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    unknown = [p for p in policies if p not in POLICIES or not re.fullmatch(r"[a-z-]+", p)]
    if unknown or not policies:
        ap.error(f"--policies: unknown {', '.join(unknown) or repr(args.policies)}; "
                 f"choose from {', '.join(sorted(POLICIES))}")
    from repair_core._errors import DgrrError
    from repair_core.bench import method_names

    try:
        methods = [m for m in method_names(args.methods) if m not in STORE_OBJECTIVE]
    except DgrrError as exc:
        ap.error(str(exc))
    if "ours" not in methods:
        ap.error("--methods: must include ours (every comparison is against it)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    if not args.report_only:
        generations = [(str(out), g, p, s, args.count) for g in policies for p in noises
                       for s in seeds]
        units = [(str(out), *job, methods)
                 for job in _jobs_in_order(policies, noises, seeds, args.salts)]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for fut in as_completed([pool.submit(generate, *j) for j in generations]):
                g = fut.result()
                print(f"suite {g['gen']} noise {g['noise']:g} seed {g['seed']}: "
                      f"{g['seconds']} s", flush=True)
            for fut in as_completed([pool.submit(run_unit, *j) for j in units]):
                u = fut.result()
                print(f"{cell_name(u)} seed {u['seed']} salt {u['salt']}: {u['seconds']} s",
                      flush=True)
    wanted = {(g, r, p, s, k) for g, r, p, s, k in _jobs_in_order(policies, noises, seeds,
                                                                  args.salts)}
    stored = [json.loads(f.read_text()) for f in sorted((out / "units").glob("*.json"))]
    stored = [u for u in stored
              if (u["gen"], u["rep"], u["noise"], u["seed"], u["salt"]) in wanted]
    if not stored:
        print(f"{out}: no stored runs to report", file=sys.stderr)
        return 1
    # a run cut short reports the salts every noisy cell has so far
    done_salts = min((len({u["salt"] for u in stored if u["noise"] == p})
                      for p in noises if p), default=0)
    stored = [u for u in stored if u["salt"] <= done_salts]
    summary = summarise(stored, methods)
    md = report(summary, methods, seeds, args.count, noises, done_salts)
    from repair_core._io import atomic_write_json, atomic_write_text

    atomic_write_json(out / "grid.json", {"seeds": seeds, "noise": noises,
                                          "policies": policies, "count": args.count,
                                          "salts": args.salts, "methods": methods,
                                          "summary": summary})
    atomic_write_text(out / "grid.md", md)
    print(md)
    print(f"grid done in {time.perf_counter() - start:.0f} s")
    if args.doc:
        from repair_core._io import write_marked_block

        write_marked_block(Path(args.doc), BEGIN, END, md, append=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
