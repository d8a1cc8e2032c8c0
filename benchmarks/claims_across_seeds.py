"""The docs' comparisons over generation seeds and repair-noise salts.

A committed noisy result is one draw of the model's slips on one generated suite. This
script repeats it: for every suite family, generation seed S and noise salt K it repairs
the suite with `dgrr/reference/noise=P/salt=K` (`docs/replay.md`, built-in models: the
salt draws another set of slips at the same rate) and stores, per method and case,
whether the answer recovered (strict rule). Then, per family:

- each method's recovery: the mean over the (seed, salt) units and a 95% percentile
  bootstrap interval over the units (10,000 resamples of the units, fixed seed);
- Ours against every other method: units where Ours is ahead / tied / behind, and the
  paired exact McNemar test on the discordant (unit, case) pairs pooled over all units
  (two-sided binomial test at 1/2; scipy's `binomtest` when scipy is installed, the same
  sum by hand otherwise).

Families: `controlled-noisy` (the controlled suite's failed runs made by `dgrr/rolling`
at noise 0.1, the first 50 cases, as `sample_traces/controlled-noisy` is for seed 42),
`controlled` (the failed runs made by `dgrr/reference`, all 150 cases) and `adapted` (the
adapted suite's 50 cases, failed runs by `dgrr/reference`), all repaired by
`dgrr/reference` at `--noise` (0.1 unless given). At `--noise 0` the repair is the
committed suites' deterministic `dgrr/reference`, a salt changes nothing, and each seed
is one run: give `--salts 1`, and the interval is a 95% Student-t interval over the
seeds (a percentile bootstrap over a handful of values only returns their own resample
means). Each unit also keeps every method's replayed steps, trajectory steps and model
calls, reported as replay ratio and LLM calls per case.

Resumable and parallel: a generated suite whose manifest exists is not generated again;
each unit's per-case outcomes are written atomically to `OUT/units/<family>-s<S>-k<K>.json`
(`<family>-n<P>-s<S>-k<K>.json` at a `--noise` other than 0.1) and a unit whose file
exists is skipped; units run in `--workers` processes. Usage:

    python benchmarks/claims_across_seeds.py --out out/claims --families controlled-noisy \\
        --seeds 42,43 --salts 20 --workers 2 --doc docs/results.md
    python benchmarks/claims_across_seeds.py --out out/claims-n0 --families adapted \\
        --noise 0 --seeds 42,43,44 --salts 1 --doc docs/results.md --block claims-adapted
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BLOCK = "claims"
"""The docs block (`<!-- NAME:begin -->` ... `<!-- NAME:end -->`) written unless --block."""
NOISE = 0.1
"""The repairing model's slip rate unless --noise."""
FAMILIES: dict[str, dict[str, Any]] = {
    "controlled-noisy": {"suite": "controlled", "generator": "dgrr/rolling", "noise": 0.1,
                         "count": 50, "committed": {42: "sample_traces/controlled-noisy"}},
    "controlled": {"suite": "controlled", "generator": "dgrr/reference", "noise": 0.0,
                   "count": None, "committed": {42: "sample_traces/controlled"}},
    "adapted": {"suite": "adapted", "generator": "dgrr/reference", "noise": 0.0,
                "count": None, "committed": {42: "sample_traces/adapted"}},
}
"""Suite family -> its generated suite, how its failed runs are made, and the committed
suite of a seed."""
DEFAULT_METHODS = ("ours", "ours_no_support_check", "ours_no_selective_replay",
                   "ours_no_planner", "llm_judge", "redo_first_exposure", "full_rerun",
                   "delete_restore_rerun", "agenttrace")
"""Ours, its ablations and the baselines that recover more than a third of any committed
suite (the others are behind Ours on every committed suite by 0.5 or more)."""


# ---- statistics ---------------------------------------------------------------------

def mcnemar_exact(ahead: int, behind: int) -> float:
    """Two-sided exact McNemar p-value of `ahead` vs `behind` discordant pairs: the
    binomial test of min(ahead, behind) out of ahead + behind at 1/2."""
    if ahead < 0 or behind < 0:
        raise ValueError(f"discordant counts must be >= 0, got {ahead}, {behind}")
    n = ahead + behind
    if n == 0:
        return 1.0
    try:
        from scipy.stats import binomtest
    except ImportError:
        k = min(ahead, behind)
        tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
        return min(1.0, 2 * tail)
    return float(binomtest(min(ahead, behind), n, 0.5).pvalue)


def bootstrap_interval(values: Sequence[float], reps: int = 10_000, seed: int = 0
                       ) -> tuple[float, float]:
    """95% percentile bootstrap interval of the mean of `values` (resampled with
    replacement, `reps` times, from a fixed seed)."""
    if not values:
        raise ValueError("no values to resample")
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(reps))
    return means[int(0.025 * (reps - 1))], means[int(math.ceil(0.975 * (reps - 1)))]


def compare(units: Sequence[dict[str, dict[str, bool]]], a: str, b: str) -> dict[str, Any]:
    """Method `a` against `b` over units (method -> case -> recovered): units where a is
    ahead / tied / behind, the pooled discordant pairs and their exact McNemar p."""
    ahead = tied = behind = only_a = only_b = 0
    for unit in units:
        ra, rb = unit[a], unit[b]
        cases = sorted(set(ra) & set(rb))
        na, nb = sum(ra[c] for c in cases), sum(rb[c] for c in cases)
        ahead, tied, behind = (ahead + (na > nb), tied + (na == nb), behind + (na < nb))
        only_a += sum(1 for c in cases if ra[c] and not rb[c])
        only_b += sum(1 for c in cases if rb[c] and not ra[c])
    return {"ahead": ahead, "tied": tied, "behind": behind, "only_a": only_a,
            "only_b": only_b, "p": mcnemar_exact(only_a, only_b)}


# ---- the units ----------------------------------------------------------------------

def unit_path(out: Path, family: str, seed: int, salt: int, noise: float = NOISE) -> Path:
    tag = "" if noise == NOISE else f"-n{noise:g}"
    return out / "units" / f"{family}{tag}-s{seed}-k{salt}.json"


def repair_model(noise: float, salt: int) -> str:
    """The repairing model of a unit: at noise 0 the committed suites' deterministic
    policy itself (a salt would change nothing)."""
    return "dgrr/reference" if noise == 0 else f"dgrr/reference/noise={noise:g}/salt={salt}"


def suite_dir(out: Path, family: str, seed: int) -> Path:
    committed = FAMILIES[family]["committed"].get(seed)
    return ROOT / committed if committed else out / "suites" / f"{family}-s{seed}"


def ensure_suite(out: Path, family: str, seed: int) -> Path:
    """The suite of `family` and `seed`, generated unless present."""
    from repair_core.bench import generate_suite

    spec = FAMILIES[family]
    where = suite_dir(out, family, seed)
    if not (where / "manifest.json").exists():
        generate_suite(spec["suite"], where, seed=seed, model=spec["generator"],
                       noise=spec["noise"], count=spec["count"])
    return where


def run_unit(out: str, family: str, seed: int, salt: int, methods: list[str],
             noise: float = NOISE) -> dict[str, Any]:
    """Repair one suite at one salt with every method; store and return its outcomes and
    costs (skipped when stored with every method already)."""
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core._io import atomic_write_json
    from repair_core.bench import run_bench, suite_case_paths

    path = unit_path(Path(out), family, seed, salt, noise)
    if path.exists():
        stored = json.loads(path.read_text())
        if set(methods) <= set(stored["recovered"]):
            return stored
    t0 = time.perf_counter()
    model = repair_model(noise, salt)
    suite = suite_dir(Path(out), family, seed)
    run = Path(out) / "runs" / f"{family}-s{seed}-k{salt}"
    results = run_bench(suite_case_paths(str(suite)), methods, run, model=model,
                        suite=str(suite), progress=False)
    recovered: dict[str, dict[str, bool]] = {m: {} for m in methods}
    cost = {m: {"replayed": 0, "steps": 0, "calls": 0} for m in methods}
    for r in results:
        if r.error is None:
            recovered[r.method][r.case_id] = bool(r.recovered)
            cost[r.method]["replayed"] += r.replayed_steps
            cost[r.method]["steps"] += r.trajectory_steps
            cost[r.method]["calls"] += r.llm_calls
    unit = {"family": family, "seed": seed, "salt": salt, "model": model, "noise": noise,
            "cases": len(suite_case_paths(str(suite))), "recovered": recovered,
            "cost": cost, "seconds": round(time.perf_counter() - t0, 1)}
    atomic_write_json(path, unit)
    return unit


def run_all(out: Path, families: Sequence[str], seeds: Sequence[int], salts: Sequence[int],
            methods: list[str], workers: int, noise: float = NOISE) -> list[dict[str, Any]]:
    for family in families:  # generated once, before the units read them
        for seed in seeds:
            ensure_suite(out, family, seed)
    # salt by salt across the seeds: a run cut short still covers every seed
    todo = [(f, s, k) for f in families for k in salts for s in seeds]
    units: list[dict[str, Any]] = []
    if workers <= 1:
        for f, s, k in todo:
            units.append(run_unit(str(out), f, s, k, methods, noise))
            print(f"{f} seed {s} salt {k}: {units[-1]['seconds']} s", flush=True)
        return units
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_unit, str(out), f, s, k, methods, noise)
                   for f, s, k in todo]
        for fut in as_completed(futures):
            units.append(fut.result())
            u = units[-1]
            print(f"{u['family']} seed {u['seed']} salt {u['salt']}: {u['seconds']} s",
                  flush=True)
    return units


def stored_units(out: Path, noise: float = NOISE) -> list[dict[str, Any]]:
    """The units stored in `out` that were repaired at `noise` (units stored before the
    noise was recorded were repaired at the default)."""
    units = [json.loads(p.read_text()) for p in sorted((out / "units").glob("*.json"))]
    return [u for u in units if u.get("noise", NOISE) == noise]


# ---- the report ---------------------------------------------------------------------

def _ranges(values: Sequence[int]) -> str:
    """1, 2, 3, 5 -> '1–3, 5'."""
    out: list[str] = []
    for i, v in enumerate(values):
        if i and v == values[i - 1] + 1:
            out[-1] = f"{out[-1].split('–')[0]}–{v}"
        else:
            out.append(str(v))
    return ", ".join(out)


def p_text(p: float) -> str:
    """A p-value as the tables print it; one below the smallest float (the binomial sum
    underflows to 0 with a thousand or more discordant pairs) is not printed as 0."""
    return f"{p:.3g}" if p > 0 else "< 1e-300"


def _mean(outcomes: Sequence[dict[str, bool]]) -> float:
    """Recovered share over every (run, case) of `outcomes`."""
    n = sum(len(o) for o in outcomes)
    return sum(sum(o.values()) for o in outcomes) / n if n else 0.0


def seed_interval(values: Sequence[float]) -> tuple[float, float]:
    """95% Student-t interval of the mean of one value per seed (benchmarks/paper_density.py's,
    loaded by its path)."""
    import importlib.util

    path = Path(__file__).resolve().parent / "paper_density.py"
    spec = importlib.util.spec_from_file_location("paper_density", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, lo, hi = module.t_interval(values)
    return lo, hi


def _cost_rows(group: Sequence[dict[str, Any]], methods: Sequence[str], seeds: Sequence[int],
               interval: Any) -> list[str]:
    """Replay ratio and LLM calls per case of every method the group's units all priced."""
    priced = [m for m in methods if all(m in u.get("cost", {}) for u in group)]
    if not priced:
        return []
    out = ["", "| Method | Replay ratio, mean [95% interval] | LLM calls per case, mean "
           "[95% interval] | Per seed (replay ratio, calls) |", "|---|---:|---:|---:|"]
    for m in priced:
        cells = []
        for fig in ("ratio", "calls"):
            vals = [u["cost"][m]["replayed"] / u["cost"][m]["steps"] if fig == "ratio"
                    else u["cost"][m]["calls"] / max(1, len(u["recovered"][m]))
                    for u in group if u["cost"][m]["steps"]]
            lo, hi = interval(vals)
            d = 3 if fig == "ratio" else 2
            cells.append(f"{sum(vals) / len(vals):.{d}f} [{lo:.{d}f}, {hi:.{d}f}]")
        per = []
        for seed in seeds:
            mine = [u for u in group if u["seed"] == seed]
            steps = sum(u["cost"][m]["steps"] for u in mine)
            cases = sum(len(u["recovered"][m]) for u in mine)
            ratio = sum(u["cost"][m]["replayed"] for u in mine) / steps if steps else 0.0
            calls = sum(u["cost"][m]["calls"] for u in mine) / cases if cases else 0.0
            per.append(f"{seed}: {ratio:.3f}, {calls:.2f}")
        out.append(f"| {_label(m)} | {cells[0]} | {cells[1]} | {', '.join(per)} |")
    return out


def _label(method: str) -> str:
    from repair_core.bench import METHOD_LABELS

    return METHOD_LABELS.get(method, method)


def report(units: Iterable[dict[str, Any]], methods: Sequence[str]) -> str:
    from repair_core.bench import METHOD_LABELS

    by_family: dict[str, list[dict[str, Any]]] = {}
    for u in units:
        by_family.setdefault(u["family"], []).append(u)
    out: list[str] = []
    for family, group in by_family.items():
        group.sort(key=lambda u: (u["seed"], u["salt"]))
        seeds = sorted({u["seed"] for u in group})
        present = [m for m in methods if all(m in u["recovered"] for u in group)]
        outcomes = [u["recovered"] for u in group]
        cases = {u["seed"]: u["cases"] for u in group}
        per_seed = {s: sorted(u["salt"] for u in group if u["seed"] == s) for s in seeds}
        noise = group[0].get("noise", NOISE)
        # one run per seed: the seeds are the only spread, and a bootstrap over a few
        # values would understate it
        interval = seed_interval if len(group) == len(seeds) > 1 else bootstrap_interval
        if noise == NOISE:
            out.append(f"#### {family}: {len(group)} runs (generation seed, cases, noise "
                       "salts: " + "; ".join(f"{s}, {cases[s]} cases, salts "
                                             f"{_ranges(per_seed[s])}" for s in seeds)
                       + ")\n")
        else:
            out.append(f"#### {family}, repaired by {group[0]['model']}: {len(group)} runs "
                       "(generation seed, cases: " + "; ".join(f"{s}, {cases[s]}"
                                                               for s in seeds) + ")\n")
        if interval is seed_interval:
            out.append("Intervals: 95% Student-t over the seeds (one run per seed).\n")
        out.append("| Method | Recovery, mean [95% interval] | Mean per seed | Ours ahead / "
                   "tied / behind (runs) | Pooled discordant cases (Ours only / method "
                   "only) | Exact McNemar p |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for m in present:
            rates = [sum(o[m].values()) / len(o[m]) for o in outcomes if o[m]]
            lo, hi = interval(rates)
            mean = sum(rates) / len(rates)
            per_seed = ", ".join(
                f"{seed}: {_mean([u['recovered'][m] for u in group if u['seed'] == seed]):.3f}"
                for seed in seeds)
            if m == "ours":
                out.append(f"| {METHOD_LABELS.get(m, m)} | {mean:.3f} [{lo:.3f}, {hi:.3f}] "
                           f"| {per_seed} | – | – | – |")
                continue
            c = compare(outcomes, "ours", m) if "ours" in present else None
            cmp = (f"{c['ahead']} / {c['tied']} / {c['behind']} | {c['only_a']} / "
                   f"{c['only_b']} | {p_text(c['p'])}") if c else "– | – | –"
            out.append(f"| {METHOD_LABELS.get(m, m)} | {mean:.3f} [{lo:.3f}, {hi:.3f}] | "
                       f"{per_seed} | {cmp} |")
        if noise != NOISE:  # the default's block stays as it was
            out.extend(_cost_rows(group, present, seeds, interval))
        out.append("")
    return "\n".join(out)


def seed_list(text: str) -> list[int]:
    """Distinct generation seeds from a comma-separated list; a ValueError says what is
    wrong with it (the scripts that take `--seeds` print it after the option's name)."""
    try:
        seeds = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"not a comma-separated list of integers: {text!r}") from None
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"give distinct seeds, got {text!r}")
    return seeds


def checked_grid(ap: argparse.ArgumentParser, args: argparse.Namespace,
                 known: Sequence[str]) -> tuple[list[str], list[int]]:
    """The families and seeds a seeds script's arguments ask for, after the checks every
    such script makes, each refused by `ap.error` naming the option and its value:
    `--families` among `known`, `--seeds` (`seed_list`), `--workers` at least 1, and where
    the script has them `--salts` at least 1 and `--block` a block name."""
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    unknown = [f for f in families if f not in known]
    if unknown or not families:
        ap.error(f"--families: unknown {(', '.join(unknown) or args.families)!r}; "
                 f"choose from {', '.join(known)}")
    if hasattr(args, "block") and not re.fullmatch(r"[a-z0-9-]{1,40}", args.block):
        ap.error(f"--block: lower-case letters, digits and hyphens, got {args.block!r}")
    try:
        seeds = seed_list(args.seeds)
    except ValueError as e:
        ap.error(f"--seeds: {e}")
    if getattr(args, "salts", 1) < 1:
        ap.error(f"--salts: must be at least 1, got {args.salts}")
    if args.workers < 1:
        ap.error(f"--workers: must be at least 1, got {args.workers}")
    return families, seeds


def write_doc_block(doc: Path, block: str, text: str) -> bool:
    """Write `text` between the `<!-- block:begin -->` and `<!-- block:end -->` markers
    of `doc`; False, said on standard error, when the markers are not there."""
    from repair_core._io import write_marked_block

    begin, end = f"<!-- {block}:begin -->", f"<!-- {block}:end -->"
    if not write_marked_block(doc, begin, end, text):
        print(f"{doc}: no {begin} marker", file=sys.stderr)
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "claims",
                    help="work folder (re-use it to resume)")
    ap.add_argument("--families", default="controlled-noisy,controlled",
                    help=f"comma-separated, from {', '.join(FAMILIES)}")
    ap.add_argument("--seeds", default="42,43", help="generation seeds, comma-separated")
    ap.add_argument("--salts", type=int, default=20, help="noise salts 1..N per seed")
    ap.add_argument("--noise", type=float, default=NOISE,
                    help=f"the repairing model's slip rate (default {NOISE:g}; 0: the "
                    "deterministic dgrr/reference, give --salts 1)")
    ap.add_argument("--block", default=BLOCK,
                    help=f"the docs block --doc writes (default {BLOCK}: between "
                    f"<!-- {BLOCK}:begin --> and <!-- {BLOCK}:end -->)")
    ap.add_argument("--methods", default=",".join(DEFAULT_METHODS))
    ap.add_argument("--workers", type=int, default=1, help="units run in parallel processes")
    ap.add_argument("--report-only", action="store_true",
                    help="run nothing: report the units stored in --out")
    ap.add_argument("--doc", type=Path, default=None,
                    help="write the tables into this file, between the --block markers")
    args = ap.parse_args(argv)
    families, seeds = checked_grid(ap, args, FAMILIES)
    if not 0 <= args.noise < 1:
        ap.error(f"--noise: a slip rate from 0 up to 1, got {args.noise:g}")
    from repair_core.bench import METHOD_LABELS

    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    bad = [m for m in methods if m not in METHOD_LABELS]
    if bad or "ours" not in methods:
        ap.error(f"--methods: unknown {', '.join(bad)}" if bad else
                 "--methods: must include ours (every comparison is against it)")
    if not args.report_only:
        run_all(args.out, families, seeds, list(range(1, args.salts + 1)), methods,
                args.workers, args.noise)
    units = [u for u in stored_units(args.out, args.noise) if u["family"] in families]
    if not units:
        print("no stored runs to report", file=sys.stderr)
        return 1
    text = report(units, methods)
    print(text)
    if args.doc is not None and not write_doc_block(args.doc, args.block, text):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
