"""Why Ours' replay ratio on the committed suites (0.457 controlled) is not the paper's
0.123, measured from the committed cases and results, written into docs/results.md:

    python benchmarks/paper_gap.py            # print the section
    python benchmarks/paper_gap.py --write    # and rewrite it in docs/results.md

For every committed case the rule plan is made again (`plan_case`, deterministic and
without a model): its raw affected candidates `A0` among the trajectory's steps give the
affected share, and its replayed and refreshed steps are the steps Ours' replay re-ran.
That count is checked against the `replayed_steps` of Ours' row in the committed
`results.csv` (the script says in how many cases they agree), so the step kinds below
are those of the committed run. Two ways of counting a replayed step are shown: every
step the replay re-ran (dgrr's replay ratio: tool actions, observations and memory reads
included) and only the steps that call the model (claims, plans, memory writes, the
answer), over all steps either way, as the paper's ratio is "replayed steps / trajectory
steps".

The paper reports no steps per case. The last table divides each of the paper's LLM
counts by its replay ratio: the steps per case the paper's cases would have if each
replayed step were one model call of the repair, which is an assumption, not a figure of
the paper.

Over generation seeds (the committed cases are seed 42's):

    python benchmarks/paper_gap.py --seeds 42,43,44 --suites-from out/claims-n0 [--write]

plans each suite of each seed the same way (for seeds other than 42 the suites under
`DIR/suites/`, as `benchmarks/claims_across_seeds.py` lays them out, generated when
missing) and reports the affected share, Ours' planned replay ratio and its model-facing
share per seed, with the mean and a 95% Student-t interval over the seeds, then the
step-type and session-length tables the same way.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# its sibling scripts, also when a test loads this one by its path
sys.path.insert(0, str(ROOT / "benchmarks"))
import claims_across_seeds  # noqa: E402

from repair_core import plan_case  # noqa: E402
from repair_core._io import write_marked_block  # noqa: E402
from repair_core.bench._methods import METHOD_LABELS  # noqa: E402
from repair_core.bench._tables import PAPER_FIGURES  # noqa: E402
from repair_core.case._load import load_case  # noqa: E402

BEGIN, END = "<!-- paper-gap:begin -->", "<!-- paper-gap:end -->"
SEEDS_BEGIN, SEEDS_END = "<!-- paper-gap-seeds:begin -->", "<!-- paper-gap-seeds:end -->"
DOC = ROOT / "docs" / "results.md"
SUITES = ("controlled", "controlled-noisy", "adapted")
MODEL_FACING = ("claim", "plan", "memory_write", "answer")
"""Step types whose replay calls the model (the others are tool calls, tool results and
store reads)."""
KINDS = ("claim", "plan", "tool_action", "tool_observation", "memory_read", "memory_write",
         "answer")
PAPER_REPLAY_RATIO = 0.123
LENGTHS = (("8-19", 19), ("20-39", 39), ("40+", 10**9))
"""Buckets of steps per case, by their upper bound."""


class SuiteGap:
    """What one suite's cases and Ours' committed results say about the replay ratio (a
    plain class: the script is also loaded by its path, outside `sys.modules`)."""

    def __init__(self, suite: str) -> None:
        self.suite = suite
        """The suite's folder name under sample_traces/ and docs/results/."""
        self.cases = 0
        """Cases planned."""
        self.steps: Counter[str] = Counter()
        """Trajectory steps of all cases, by step type."""
        self.affected: Counter[str] = Counter()
        """Steps among the raw affected candidates `A0`, by step type."""
        self.replayed: Counter[str] = Counter()
        """Steps Ours' plan replays or refreshes, by step type."""
        self.agree = 0
        """Cases whose planned replay count equals `replayed_steps` in the committed CSV."""
        self.committed_replayed = 0
        """Sum of `replayed_steps` over Ours' committed rows."""
        self.committed_calls = 0.0
        """Sum of `llm_calls` over Ours' committed rows."""
        self.faults: Counter[int] = Counter()
        """Cases by number of diagnosed faults (3 stands for 3 or more)."""
        self.by_length: dict[str, Counter[str]] = {b: Counter() for b, _ in LENGTHS}
        """Per length bucket: `cases`, `steps`, `affected`, `replayed`, `earlier` (steps
        before the final turn) and `earlier_affected` summed."""

    def total(self, counter: Counter[str], kinds: tuple[str, ...] = KINDS) -> int:
        return sum(counter[k] for k in kinds)


def _rows(suite: str, method: str) -> dict[str, dict[str, str]]:
    path = ROOT / "docs" / "results" / suite / "results.csv"
    with path.open(newline="", encoding="utf-8") as f:
        return {r["case_id"]: r for r in csv.DictReader(f) if r["method"] == method}


def committed_cost(suite: str, method: str) -> tuple[float, float]:
    """`method`'s replay ratio and LLM calls per case in the suite's committed CSV."""
    rows = list(_rows(suite, method).values())
    steps = sum(int(r["trajectory_steps"]) for r in rows)
    replayed = sum(int(r["replayed_steps"]) for r in rows)
    return replayed / steps, sum(float(r["llm_calls"]) for r in rows) / len(rows)


def case_counts(case_path: Path
                ) -> tuple[str, int, Counter[str], Counter[str], Counter[str], tuple[int, int]]:
    """One case's id, its number of faults, its steps, affected steps and Ours' replayed
    steps by type, and its steps before the final turn with how many are affected."""
    case = load_case(case_path)
    plan = plan_case(case)
    kind = {s.id: s.type for s in case.trajectory}
    steps = Counter(kind.values())
    affected = Counter(kind[n] for n in plan.analysis.affected if n in kind)
    replayed = Counter(kind[s] for s, a in plan.steps.items() if a in ("replay", "refresh"))
    last = case.final_answer().turn
    earlier = [s.id for s in case.trajectory if s.turn != last]
    early = (len(earlier), sum(1 for s in earlier if s in plan.analysis.affected))
    return case.case_id, len(case.faults), steps, affected, replayed, early


def measure(suite: str, limit: int | None = None) -> SuiteGap:
    """Plan the suite's committed cases (the first `limit` by file name) and compare with
    Ours' committed results."""
    rows = _rows(suite, "ours")
    gap = SuiteGap(suite)
    paths = sorted(p for p in (ROOT / "sample_traces" / suite).glob("*.json")
                   if p.name != "manifest.json")
    for path in paths[:limit]:
        case_id, faults, steps, affected, replayed, early = case_counts(path)
        row = rows[case_id]
        gap.cases += 1
        gap.faults[min(faults, 3)] += 1
        n = sum(steps.values())
        bucket = gap.by_length[next(b for b, top in LENGTHS if n <= top)]
        bucket.update(cases=1, steps=n, affected=sum(affected.values()),
                      replayed=sum(replayed.values()), earlier=early[0],
                      earlier_affected=early[1])
        gap.steps += steps
        gap.affected += affected
        gap.replayed += replayed
        gap.agree += sum(replayed.values()) == int(row["replayed_steps"])
        gap.committed_replayed += int(row["replayed_steps"])
        gap.committed_calls += float(row["llm_calls"])
    return gap


def _r(num: float, den: float) -> str:
    return f"{num / den:.3f}" if den else "–"


def report(gaps: list[SuiteGap]) -> str:
    out = ["Per suite (Ours, dgrr/reference; the paper's controlled suite: 128 / 17 / 5 "
           "cases with 1 / 2 / 3 faults, replay ratio 0.123 for Ours on GPT-4o):", "",
           "| Suite | Cases | Cases with 1 / 2 / 3+ faults | Steps per case | Affected share of steps (A0) | Replayed steps "
           "agree with results.csv | Replay ratio, all replayed steps | Model-facing share "
           "of replayed steps | Replay ratio, model-facing replayed steps | Model-facing replayed per case | LLM calls per "
           "case (results.csv) | Paper's replay ratio |",
           "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for g in gaps:
        steps, mf = g.total(g.steps), g.total(g.replayed, MODEL_FACING)
        out.append(
            f"| {g.suite} | {g.cases} | {g.faults[1]} / {g.faults[2]} / {g.faults[3]} "
            f"| {steps / g.cases:.1f} | {_r(g.total(g.affected), steps)} "
            f"| {g.agree} of {g.cases} | {_r(g.total(g.replayed), steps)} "
            f"| {_r(mf, g.total(g.replayed))} | {_r(mf, steps)} "
            f"| {mf / g.cases:.2f} | {g.committed_calls / g.cases:.2f} "
            f"| {PAPER_REPLAY_RATIO:.3f} (controlled) |")
    out += ["", "By step type (share of the suite's steps of that type):", "",
            "| Suite | Step type | Steps | Affected | Replayed by Ours | Share of Ours' "
            "replayed steps |", "|---|---|---:|---:|---:|---:|"]
    for g in gaps:
        for k in KINDS:
            out.append(f"| {g.suite} | {k} | {g.steps[k]} | {_r(g.affected[k], g.steps[k])} "
                       f"| {_r(g.replayed[k], g.steps[k])} "
                       f"| {_r(g.replayed[k], g.total(g.replayed))} |")
    out += ["", "By session length (steps per case):", "",
            "| Suite | Steps per case | Cases | Affected share of steps (A0) | Affected share "
            "of the steps before the final turn | Replay ratio, all replayed steps |",
            "|---|---|---:|---:|---:|---:|"]
    for g in gaps:
        for name, _ in LENGTHS:
            b = g.by_length[name]
            if b["cases"]:
                out.append(f"| {g.suite} | {name} | {b['cases']} | "
                           f"{_r(b['affected'], b['steps'])} "
                           f"| {_r(b['earlier_affected'], b['earlier'])} "
                           f"| {_r(b['replayed'], b['steps'])} |")
    paper = PAPER_FIGURES["controlled"]
    p_ours, p_full = paper["ours"], paper["ours_no_selective_replay"]
    out += ["", "What selective replay leaves of the replay without it (Ours / Ours w/o "
            "selective replay, each counted its own way):", "",
            "| Suite | Ours replay ratio | w/o selective replay | Ours / w/o | Ours LLM calls "
            "| w/o selective replay | Ours / w/o |", "|---|---:|---:|---:|---:|---:|---:|"]
    for g in gaps:
        (ro, co), (rf, cf) = (committed_cost(g.suite, "ours"),
                              committed_cost(g.suite, "ours_no_selective_replay"))
        out.append(f"| {g.suite} | {ro:.3f} | {rf:.3f} | {ro / rf:.2f} | {co:.2f} | {cf:.2f} "
                   f"| {co / cf:.2f} |")
    pr, pr_full = p_ours["replay_ratio"] or 0.0, p_full["replay_ratio"] or 1.0
    pc, pc_full = p_ours["llm_calls"] or 0.0, p_full["llm_calls"] or 1.0
    out.append(f"| paper (controlled) | {pr:.3f} | {pr_full:.3f} | {pr / pr_full:.2f} "
               f"| {pc:.2f} | {pc_full:.2f} | {pc / pc_full:.2f} |")
    out += ["", "The paper's controlled figures: steps per case if each replayed step were "
            "one model call of the repair (LLM count / replay ratio; an assumption):", "",
            "| Method | Paper's LLM count | Paper's replay ratio | Implied steps per case |",
            "|---|---:|---:|---:|"]
    for method, fig in PAPER_FIGURES["controlled"].items():
        calls, ratio = fig.get("llm_calls"), fig.get("replay_ratio")
        if calls and ratio:
            out.append(f"| {METHOD_LABELS.get(method, method)} | {calls:.2f} | {ratio:.3f} "
                       f"| {calls / ratio:.1f} |")
    return "\n".join(out) + "\n"


def planned_totals(case_paths: Iterable[Path]) -> Counter[str]:
    """Cases, steps, affected steps (`A0`), Ours' replayed steps and the model-facing ones
    among them, summed over the cases (planned, without a model); the same by step type
    (`steps:claim`, `affected:claim`, `replayed:claim`, ...) and, per length bucket, its
    cases, steps, affected and replayed steps and steps before the final turn with the
    affected ones among them (`8-19:cases`, `8-19:earlier_affected`, ...)."""
    total: Counter[str] = Counter()
    for path in case_paths:
        _, _, steps, affected, replayed, early = case_counts(path)
        n = sum(steps.values())
        total.update(cases=1, steps=n, affected=sum(affected.values()),
                     replayed=sum(replayed.values()),
                     model_facing=sum(replayed[k] for k in MODEL_FACING))
        for k in KINDS:
            total.update({f"steps:{k}": steps[k], f"affected:{k}": affected[k],
                          f"replayed:{k}": replayed[k]})
        bucket = next(b for b, top in LENGTHS if n <= top)
        total.update({f"{bucket}:cases": 1, f"{bucket}:steps": n,
                      f"{bucket}:affected": sum(affected.values()),
                      f"{bucket}:replayed": sum(replayed.values()),
                      f"{bucket}:earlier": early[0], f"{bucket}:earlier_affected": early[1]})
    return total


def measure_seeds(suites_from: Path, seeds: Sequence[int]) -> dict[str, dict[int, Counter[str]]]:
    """Per suite and generation seed, the planned totals of its cases."""
    claims = claims_across_seeds
    out: dict[str, dict[int, Counter[str]]] = {}
    for suite in SUITES:
        out[suite] = {}
        for seed in seeds:
            where = claims.ensure_suite(suites_from, suite, seed)
            out[suite][seed] = planned_totals(
                sorted(p for p in where.glob("*.json") if p.name != "manifest.json"))
    return out


def seeds_report(per_suite: dict[str, dict[int, Counter[str]]]) -> str:
    interval = claims_across_seeds.seed_interval
    figures = (("Affected share of steps (A0)", "affected", "steps"),
               ("Replay ratio, all replayed steps", "replayed", "steps"),
               ("Model-facing share of replayed steps", "model_facing", "replayed"),
               ("Replay ratio, model-facing replayed steps", "model_facing", "steps"))
    seeds = sorted({s for per_seed in per_suite.values() for s in per_seed})
    out = [f"Ours' plan (no model) on each suite of generation seeds "
           f"{', '.join(map(str, seeds))}: the mean over the seeds [95% Student-t "
           "interval over the seeds], then each seed's value.", "",
           "| Suite | Figure | Mean [95% interval] | " + " | ".join(f"seed {s}" for s in seeds)
           + " |", "|---|---|---:|" + "---:|" * len(seeds)]
    for suite, per_seed in per_suite.items():
        for label, num, den in figures:
            vals = [per_seed[s][num] / per_seed[s][den] for s in seeds if per_seed[s][den]]
            if len(vals) != len(seeds):
                continue
            lo, hi = interval(vals) if len(vals) > 1 else (vals[0], vals[0])
            out.append(f"| {suite} | {label} | {sum(vals) / len(vals):.3f} [{lo:.3f}, "
                       f"{hi:.3f}] | " + " | ".join(f"{v:.3f}" for v in vals) + " |")

    def cell(per_seed: dict[int, Counter[str]], num: str, den: str) -> str:
        """Mean [interval] of num/den over the seeds; '–' where a seed has no den."""
        vals = [per_seed[s][num] / per_seed[s][den] for s in seeds if per_seed[s][den]]
        if len(vals) != len(seeds):
            return "–"
        lo, hi = interval(vals) if len(vals) > 1 else (vals[0], vals[0])
        # every figure here is a share: a t interval over few seeds can leave [0, 1]
        return f"{sum(vals) / len(vals):.3f} [{max(0.0, lo):.3f}, {min(1.0, hi):.3f}]"

    out += ["", "By step type (share of the suite's steps of that type), mean over the seeds "
            "[95% Student-t interval, cut to [0, 1]]:", "",
            "| Suite | Step type | Steps (" + " / ".join(f"seed {s}" for s in seeds)
            + ") | Affected | Replayed by Ours | Share of Ours' replayed steps |",
            "|---|---|---:|---:|---:|---:|"]
    for suite, per_seed in per_suite.items():
        for k in KINDS:
            counts = " / ".join(str(per_seed[s][f"steps:{k}"]) for s in seeds)
            out.append(f"| {suite} | {k} | {counts} "
                       f"| {cell(per_seed, f'affected:{k}', f'steps:{k}')} "
                       f"| {cell(per_seed, f'replayed:{k}', f'steps:{k}')} "
                       f"| {cell(per_seed, f'replayed:{k}', 'replayed')} |")
    out += ["", "By session length (steps per case), mean over the seeds [95% Student-t "
            "interval, cut to [0, 1]]; '–' where a seed has no case of that length:", "",
            "| Suite | Steps per case | Cases (" + " / ".join(f"seed {s}" for s in seeds)
            + ") | Affected share of steps (A0) | Affected share of the steps before the "
            "final turn | Replay ratio, all replayed steps |", "|---|---|---:|---:|---:|---:|"]
    for suite, per_seed in per_suite.items():
        for b, _ in LENGTHS:
            if not any(per_seed[s][f"{b}:cases"] for s in seeds):
                continue
            counts = " / ".join(str(per_seed[s][f"{b}:cases"]) for s in seeds)
            out.append(f"| {suite} | {b} | {counts} "
                       f"| {cell(per_seed, f'{b}:affected', f'{b}:steps')} "
                       f"| {cell(per_seed, f'{b}:earlier_affected', f'{b}:earlier')} "
                       f"| {cell(per_seed, f'{b}:replayed', f'{b}:steps')} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true",
                    help="also rewrite the marked section of docs/results.md")
    ap.add_argument("--seeds", default=None,
                    help="generation seeds, comma-separated: report the planned shares "
                    "over them instead of the committed suites' section")
    ap.add_argument("--suites-from", type=Path, default=ROOT / "out" / "claims-n0",
                    help="with --seeds: the claims_across_seeds work folder whose "
                    "suites/ holds (or gets) the suites of seeds other than 42")
    args = ap.parse_args(argv)
    if args.seeds is not None:
        try:
            seeds = claims_across_seeds.seed_list(args.seeds)
        except ValueError as e:
            ap.error(f"--seeds: {e}")
        text = seeds_report(measure_seeds(args.suites_from, seeds))
        print(text, end="")
        if args.write and not write_marked_block(DOC, SEEDS_BEGIN, SEEDS_END, text):
            print(f"docs/results.md: no {SEEDS_BEGIN} marker; nothing written",
                  file=sys.stderr)
            return 1
        return 0
    text = report([measure(s) for s in SUITES])
    print(text, end="")
    if args.write and not write_marked_block(DOC, BEGIN, END, f"```\n{text}```\n"):
        print(f"docs/results.md: no {BEGIN} marker; nothing written", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
