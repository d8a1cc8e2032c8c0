"""The three answer rules (paper, strict, state) on the same repairs, over generation seeds.

docs/results.md's "Three rules" compares rules, not methods: every answer of every method
is judged by each rule. This script repairs each suite of each generation seed with every
method (`dgrr/reference`, deterministic: at noise 0 each seed is one run) and keeps, per
method and case, the three verdicts:

- paper: the answer states every required fact (forbidden facts not checked);
- strict: every required fact and no forbidden fact (the recovery of every table);
- state: the final tool state holds every required entry and no forbidden fact (None
  where the case's world is not judged).

A repair that crashed fails every rule. The report gives, per family, each method's
recovery under each rule (mean over the seeds [95% Student-t interval over the seeds]),
then, for each pair of rules, the answers (method x case x seed, pooled over the methods:
it is the rules that are compared) that one rule passes and the other fails, the share of
answers on which they disagree per seed with its mean and interval, and the exact McNemar
p on the pooled discordant answers (`benchmarks/claims_across_seeds.py`'s statistics).

Resumable: each (family, seed) run is written atomically to `OUT/rules/<family>-s<S>.json`
and skipped when it holds every method; the suites are laid out as
`benchmarks/claims_across_seeds.py` lays them out (seed 42: the committed suite). Usage:

    python benchmarks/rules_across_seeds.py --out out/claims-n0 --families controlled,adapted \\
        --seeds 42,43,44 --workers 1 --doc docs/results.md
"""

from __future__ import annotations

import argparse
import json
import os
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

BLOCK = "rules-seeds"
"""The docs block written unless --block."""
RULES = ("paper", "strict", "state")
FAMILIES = ("controlled", "adapted")
"""The suite families whose answers have required and forbidden facts."""


def run_path(out: Path, family: str, seed: int) -> Path:
    return out / "rules" / f"{family}-s{seed}.json"


def run_seed(out: str, family: str, seed: int, methods: list[str]) -> dict[str, Any]:
    """Repair one suite with every method; store and return each answer's three
    verdicts (skipped when stored with every method)."""
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core._io import atomic_write_json
    from repair_core.bench import run_bench, suite_case_paths

    path = run_path(Path(out), family, seed)
    if path.exists():
        stored: dict[str, Any] = json.loads(path.read_text())
        if set(methods) <= set(stored["verdicts"]):
            return stored
    t0 = time.perf_counter()
    suite = claims_across_seeds.ensure_suite(Path(out), family, seed)
    results = run_bench(suite_case_paths(str(suite)), methods,
                        Path(out) / "rules-runs" / f"{family}-s{seed}",
                        model="dgrr/reference", suite=str(suite), progress=False)
    verdicts: dict[str, dict[str, dict[str, bool | None]]] = {m: {} for m in methods}
    for r in results:
        ok = r.error is None
        verdicts[r.method][r.case_id] = {
            "paper": ok and bool(r.recovered_paper), "strict": ok and bool(r.recovered),
            "state": None if r.state_ok is None and ok else ok and bool(r.state_ok)}
    if not any(r.error is None and r.state_ok is not None for r in results):
        for per_case in verdicts.values():  # no world judged here: no state verdict at all
            for v in per_case.values():
                v["state"] = None
    stored = {"family": family, "seed": seed, "verdicts": verdicts,
              "seconds": round(time.perf_counter() - t0, 1)}
    atomic_write_json(path, stored)
    return stored


def disagreement(runs: Sequence[dict[str, Any]], a: str, b: str) -> dict[str, Any]:
    """Rule `a` against rule `b` on every answer both judge, pooled over the runs'
    methods: answers only `a` passes, only `b` passes, judged answers, the share that
    disagree per run (in the runs' order) and the exact McNemar p."""
    claims = claims_across_seeds
    only_a = only_b = judged = 0
    shares = []
    for run in runs:
        a_only = b_only = n = 0
        for per_case in run["verdicts"].values():
            for v in per_case.values():
                if v[a] is None or v[b] is None:
                    continue
                n += 1
                a_only += v[a] and not v[b]
                b_only += v[b] and not v[a]
        if n:
            shares.append((a_only + b_only) / n)
        only_a, only_b, judged = only_a + a_only, only_b + b_only, judged + n
    return {"only_a": only_a, "only_b": only_b, "judged": judged, "shares": shares,
            "p": claims.mcnemar_exact(only_a, only_b)}


def _interval(values: Sequence[float]) -> str:
    if not values:
        return "–"
    lo, hi = claims_across_seeds.seed_interval(values) if len(values) > 1 else (values[0], values[0])
    mean = sum(values) / len(values)
    return f"{mean:.3f} [{max(0.0, lo):.3f}, {min(1.0, hi):.3f}]"


def report(runs: Sequence[dict[str, Any]], methods: Sequence[str]) -> str:
    from repair_core.bench import METHOD_LABELS

    claims = claims_across_seeds
    out: list[str] = []
    by_family: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_family.setdefault(r["family"], []).append(r)
    for family, group in by_family.items():
        group.sort(key=lambda r: r["seed"])
        seeds = [r["seed"] for r in group]
        cases = {r["seed"]: len(next(iter(r["verdicts"].values()))) for r in group}
        out += [f"#### {family}, repaired by dgrr/reference: seeds "
                + ", ".join(f"{s} ({cases[s]} cases)" for s in seeds), "",
                "Each method's recovery under each rule: mean over the seeds [95% Student-t "
                "interval over the seeds, cut to [0, 1]]; '–' where no case's world is "
                "judged.", "",
                "| Method | Paper rule | Strict rule | State rule |", "|---|---:|---:|---:|"]
        for m in methods:
            if not all(r["verdicts"].get(m) for r in group):
                continue
            cells = []
            for rule in RULES:
                rates = []
                for r in group:
                    judged = [v[rule] for v in r["verdicts"][m].values() if v[rule] is not None]
                    if judged:
                        rates.append(sum(judged) / len(judged))
                cells.append(_interval(rates) if len(rates) == len(group) else "–")
            out.append(f"| {METHOD_LABELS.get(m, m)} | " + " | ".join(cells) + " |")
        out += ["", "Each pair of rules on the same answers, pooled over every method and "
                "seed: answers only the first rule passes / only the second, the share of "
                "judged answers on which they disagree (mean over the seeds [95% interval]) "
                "and the exact McNemar p.", "",
                "| Rules | Answers judged by both | Only the first / only the second | "
                "Disagreeing share, mean [95% interval] | Per seed | Exact McNemar p |",
                "|---|---:|---:|---:|---:|---:|"]
        for a, b in (("paper", "strict"), ("strict", "state"), ("paper", "state")):
            d = disagreement(group, a, b)
            if not d["judged"]:
                out.append(f"| {a} / {b} | 0 | – | – | – | – |")
                continue
            per = ", ".join(f"{s}: {v:.3f}" for s, v in zip(seeds, d["shares"], strict=False))
            out.append(f"| {a} / {b} | {d['judged']} | {d['only_a']} / {d['only_b']} | "
                       f"{_interval(d['shares'])} | {per} | {claims.p_text(d['p'])} |")
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "claims-n0",
                    help="work folder (re-use it to resume; its suites/ are shared with "
                    "claims_across_seeds.py at --noise 0)")
    ap.add_argument("--families", default=",".join(FAMILIES),
                    help=f"comma-separated, from {', '.join(FAMILIES)}")
    ap.add_argument("--seeds", default="42,43,44", help="generation seeds, comma-separated")
    ap.add_argument("--methods", default="all", help="as for dgrr bench run --methods")
    ap.add_argument("--workers", type=int, default=1, help="runs in parallel processes")
    ap.add_argument("--report-only", action="store_true",
                    help="run nothing: report the runs stored in --out")
    ap.add_argument("--doc", type=Path, default=None,
                    help="write the tables into this file, between the --block markers")
    ap.add_argument("--block", default=BLOCK, help=f"the docs block (default {BLOCK})")
    args = ap.parse_args(argv)
    families, seeds = claims_across_seeds.checked_grid(ap, args, FAMILIES)
    from repair_core._errors import DgrrError
    from repair_core.bench import method_names

    try:
        methods = method_names(args.methods)
    except DgrrError as exc:
        ap.error(str(exc))
    if not args.report_only:
        jobs = [(str(args.out), f, s, methods) for f in families for s in seeds]
        for f in families:  # generated once, before the runs read them
            for s in seeds:
                claims_across_seeds.ensure_suite(args.out, f, s)
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for fut in as_completed([pool.submit(run_seed, *j) for j in jobs]):
                r = fut.result()
                print(f"{r['family']} seed {r['seed']}: {r['seconds']} s", flush=True)
    runs = [json.loads(run_path(args.out, f, s).read_text()) for f in families for s in seeds
            if run_path(args.out, f, s).exists()]
    if not runs:
        print(f"{args.out}: no stored runs to report", file=sys.stderr)
        return 1
    text = report(runs, methods)
    print(text)
    if args.doc is not None and not claims_across_seeds.write_doc_block(args.doc, args.block,
                                                                         text):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
