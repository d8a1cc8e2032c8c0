"""`dgrr plan CASE [--json]`: the rule-based repair plan, readable or as the plan report."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import TYPE_CHECKING, TextIO

from .._progress import progress
from ..plan._planner import PLANNERS, columnar_plan_json, file_size, wants_columnar
from . import add_case_argument, add_objective_argument, plural, read_case, wrap

if TYPE_CHECKING:
    from ..plan._plan import RepairPlan


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plan", help="plan the repair of a case (stages 1-3)",
                       description="Build the dependency graph, find what the diagnosed faults "
                                   "affected, and plan the repair by fixed rules.")
    add_case_argument(p)
    p.add_argument("--json", action="store_true",
                   help="print the plan report of the format spec as JSON")
    add_planner_argument(p)
    add_objective_argument(p, default="answer")
    p.add_argument("--ops", action="store_true",
                   help="print the plan as ordered operations (revoke, quarantine, restore, "
                        "invalidate, needs_human, replay with drop/replace) an external runtime "
                        "can execute (docs/replay-api.md); with --json the report carries them "
                        "as `ops`")
    p.set_defaults(func=run)


def add_planner_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--planner", choices=PLANNERS, default="auto",
                   help="auto (default): the columnar fast path for case files of 2 MB or "
                        "more, else the networkx planner; columnar: the fast path for any "
                        "size; networkx: never the fast path. The report is the same either "
                        "way; the fast path declines (networkx plans) what it does not "
                        "implement (docs/performance.md)")


def run(args: argparse.Namespace) -> int:
    if args.json and _columnar_allowed(args) and wants_columnar(args.planner,
                                                                file_size(args.case)):
        with progress("dgrr plan", total=3) as bar:
            faults = None if args.faults is None else [
                f.strip() for f in args.faults.split(",") if f.strip()]
            # a case without an answer step is declined by the columnar reader, so an unset
            # objective is the answer's here (resolve_objective)
            if columnar_plan_json(args.case, sys.stdout, bar, args.objective or "answer",
                                  args.ops, faults):
                return 0
    # the networkx planner (imported here: the columnar path above needs none of it)
    from .._io import to_json
    from ..plan._ops import plan_ops
    from ..plan._plan import plan_case, resolve_objective

    with progress("dgrr plan", total=3) as bar:
        bar.stage("read")
        case = read_case(args)
        bar.stage("plan")
        plan = plan_case(case, objective=resolve_objective(case, args.objective, "answer"))
        bar.stage("write")
        if args.json:
            report = plan.report()
            if args.ops:
                report.ops = plan_ops(plan)
            sys.stdout.write(to_json(report.model_dump(mode="json")))
        elif args.ops:
            sys.stdout.write(to_json(ops_json(plan)))
        else:
            write_summary(plan, sys.stdout)
    return 0


def _columnar_allowed(args: argparse.Namespace) -> bool:
    # the columnar planner reads one case file: no --memory (docs/performance.md)
    return args.memory is None


def ops_json(plan: RepairPlan) -> list[dict]:
    """The plan's operations as JSON data."""
    from ..plan._ops import plan_ops

    return [op.model_dump(mode="json") for op in plan_ops(plan)]


REASON_INDENT = 13


def write_summary(plan: RepairPlan, out: TextIO, max_rows: int = 200) -> None:
    """A plan a person can follow: faults and seeds, store changes, step actions, reasons."""
    case, a = plan.case, plan.analysis
    w = out.write
    w(f"Case {case.case_id}" + (f" ({case.domain})" if case.domain else "")
      + f", user {case.user_id}: {len(case.trajectory)} steps, {len(case.memory)} records, "
      f"{plural(len(case.faults), 'diagnosed fault')}\n\n")
    if plan.objective != "answer":
        w(f"Objective: {plan.objective} (" + ("the memory the next session reads; past "
          "answers are not regenerated" if plan.objective == "store" else "the final answer "
          "and the memory the next session reads") + ")\n\n")
    if not case.faults:
        w("No faults are marked: nothing is affected; the final answer is regenerated as is.\n")
    steps = {s.id: s for s in case.trajectory}
    records = {m.id: m for m in case.memory}
    turns = {t.id: t for t in case.session}
    w("Faults and their seeds\n")
    for fault, seed in a.seeds.items():
        if fault in steps or fault in turns:
            node = steps.get(fault) or turns[fault]
            what = getattr(node, "type", "user turn").replace("_", " ")
            w(wrap(f"\"{node.text}\"  a {what}: dropped from every replayed step's inputs",
                   f"  {fault}  ", indent=6) + "\n")
            continue
        if seed == fault:
            how = "the record itself (it predates the execution and has no producer)"
        elif steps[seed].status == "failed":
            how = f"failed {steps[seed].type} {seed} (seq {steps[seed].seq})"
        else:
            how = f"its producer {seed} (seq {steps[seed].seq}, {steps[seed].type})"
        w(wrap(f"\"{records[fault].text}\"  seed: {how}", f"  {fault}  ", indent=6) + "\n")
    w(f"\nAffected (A0): {len(a.affected)} nodes; {len(a.supported)} kept by independent "
      f"support, {len(a.unsupported)} unsupported; {len(plan.answer_relevant)} "
      "answer-relevant\n\n")

    mem_counts = Counter(plan.memory.values())
    w("Memory store: " + ", ".join(f"{n} {k}" for k, n in sorted(mem_counts.items())) + "\n")
    shown = 0
    for rid, action in plan.memory.items():
        if action == "keep" and rid not in plan.reasons:
            continue
        if shown >= max_rows:
            w(f"  … {sum(1 for r in plan.memory if r in plan.reasons) - shown} more\n")
            break
        shown += 1
        w(wrap(f"\"{records[rid].text}\"", f"  {action:<10} {rid:<8} ", indent=22) + "\n")
        w(wrap(plan.reasons.get(rid, ""), " " * REASON_INDENT, indent=REASON_INDENT) + "\n")

    if not case.trajectory:  # case.store-only: a store's records and lineage
        w("\nTrajectory: none (the case is a store's records and their lineage): nothing "
          "to replay\n")
        return
    step_counts = Counter(plan.steps.values())
    w("\nTrajectory: " + ", ".join(f"{n} {k}" for k, n in sorted(step_counts.items())) + "\n")
    shown = 0
    for sid, step_action in plan.steps.items():
        if step_action == "keep" and sid not in plan.reasons:
            continue
        if shown >= max_rows:
            w("  … more decisions: see --json\n")
            break
        shown += 1
        s = steps[sid]
        head = f"  {step_action:<10} {sid:<8} seq {s.seq:<5} {s.type:<16} "
        w(wrap(f"\"{s.text}\"", head, indent=len(head)) + "\n")
        w(wrap(plan.reasons.get(sid, ""), " " * REASON_INDENT, indent=REASON_INDENT) + "\n")

    order = plan.replay_order()
    shown_order = order if len(order) <= 40 else [*order[:20], "…", *order[-19:]]
    w(f"\nReplay, in trajectory order ({len(order)} of {len(case.trajectory)} steps, ratio "
      f"{len(order) / max(len(case.trajectory), 1):.3f}):\n  "
      + " → ".join(f"{x}(refresh)" if plan.steps.get(x) == "refresh" else x
                   for x in shown_order) + "\n")
