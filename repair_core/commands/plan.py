"""`dgrr plan CASE [--json]`: the rule-based repair plan, readable or as the plan report."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from .._progress import progress
from .._text import excerpt, ratio_text
from .._text import printable as t
from ..plan._planner import (
    PLANNERS,
    columnar_plan_json,
    columnar_plan_ops_of,
    columnar_plan_summary_of,
    file_size,
    wants_columnar,
)
from . import (
    add_case_argument,
    add_objective_argument,
    add_suspects_argument,
    case_ids,
    clean_source_ids,
    not_suspect_ids,
    plural,
    read_case,
    wrap,
)

if TYPE_CHECKING:
    from ..plan._plan import RepairPlan
    from ..plan._summary import PlanSummary


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plan", help="plan the repair of a case (stages 1-3)",
                       description="Build the dependency graph, find what the diagnosed faults "
                                   "affected, and plan the repair by fixed rules.")
    add_case_argument(p)
    p.add_argument("--json", action="store_true",
                   help="print the plan report of the format spec as JSON (the readable plan quotes "
                        "each text up to 400 characters and lists up to 50 suspects; the "
                        "JSON has them all)")
    add_planner_argument(p)
    add_objective_argument(p, default="both")
    add_suspects_argument(p)
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
                        "size; networkx: never the fast path. The report and the readable "
                        "plan are the same either way; the fast path declines (networkx "
                        "plans) what it does not implement (docs/performance.md)")


def run(args: argparse.Namespace) -> int:
    if _columnar_allowed(args) and wants_columnar(args.planner, file_size(args.case)):
        with progress("dgrr plan", total=3) as bar:
            faults = None if args.faults is None else [
                f.strip() for f in args.faults.split(",") if f.strip()]
            # a case without an answer step is declined by the columnar reader, so an unset
            # objective is the default both here (resolve_objective)
            objective = args.objective or "both"
            suspects = {"suspects": args.suspects,
                        "check_not_suspect": lambda ids: not_suspect_ids(args, ids),
                        "check_clean_source": lambda ids: clean_source_ids(args, ids)}
            if args.json:
                if columnar_plan_json(args.case, sys.stdout, bar, objective, args.ops, faults,
                                      **suspects):
                    return 0
            elif args.ops:
                ops = columnar_plan_ops_of(args.case, bar, objective, faults, **suspects)
                if ops is not None:
                    from .._io import to_json

                    bar.stage("write")
                    sys.stdout.write(to_json(ops))
                    return 0
            else:
                summary = columnar_plan_summary_of(args.case, bar, objective, faults,
                                                   **suspects)
                if summary is not None:
                    bar.stage("write")
                    write_summary(summary, sys.stdout)
                    return 0
    # the networkx planner (imported here: the columnar path above needs none of it)
    from .._io import to_json
    from ..plan._plan import plan_case, resolve_objective

    with progress("dgrr plan", total=3) as bar:
        bar.stage("read")
        case = read_case(args)
        bar.stage("plan")
        plan = plan_case(case, objective=resolve_objective(case, args.objective, "both"),
                         suspects=args.suspects,
                         not_suspect=not_suspect_ids(args, case_ids(case)),
                         clean_source=clean_source_ids(args, case_ids(case)))
        bar.stage("write")
        if args.json:
            report = plan.report()
            if args.ops:
                from ..plan._plan_ops import plan_ops

                report.ops = plan_ops(plan)
            sys.stdout.write(to_json(report.model_dump(mode="json")))
        elif args.ops:
            sys.stdout.write(to_json(ops_json(plan)))
        else:
            # the readable plan's summary only: `--json` and `--ops` need none of it
            from ..plan._summary import plan_summary

            write_summary(plan_summary(plan), sys.stdout)
    return 0


def _columnar_allowed(args: argparse.Namespace) -> bool:
    # the columnar planner reads one case file: no --memory (docs/performance.md)
    return args.memory is None


def ops_json(plan: RepairPlan) -> list[dict]:
    """The plan's operations as JSON data."""
    from ..plan._plan_ops import plan_ops

    return [op.model_dump(mode="json") for op in plan_ops(plan)]


REASON_INDENT = 13
MAX_WARNINGS = 20
"""Warnings the readable plan shows; the JSON report has them all."""
MAX_SUSPECTED = 50
"""Suspected sources and carriers the readable plan shows; the JSON report has them all."""


def write_summary(s: PlanSummary, out: TextIO) -> None:
    """A plan a person can follow: faults and seeds, store changes, step actions, reasons.
    Every id and text of the case is shown through `printable` (`t`), a text quoted up to
    `QUOTED_CHARS` characters (`excerpt`)."""
    w = out.write
    w(f"Case {t(s.case_id)}" + (f" ({t(s.domain)})" if s.domain else "")
      + f", user {t(s.user_id)}: {s.steps} steps, {s.records} records, "
      f"{plural(s.faults, 'diagnosed fault')}\n\n")
    if s.objective != "answer":
        w(f"Objective: {s.objective} (" + ("the memory the next session reads; past "
          "answers are not regenerated" if s.objective == "store" else "the final answer "
          "and the memory the next session reads") + ")\n\n")
    if s.warnings:
        w("Warnings\n")
        for line in s.warnings[:MAX_WARNINGS]:
            w(wrap(t(line), "  warning ", indent=6) + "\n")
        if len(s.warnings) > MAX_WARNINGS:
            w(f"  … {len(s.warnings) - MAX_WARNINGS} more: see --json\n")
        w("\n")
    if not s.faults:
        w("No faults are marked: nothing is affected; the final answer is regenerated as is.\n")
    else:  # a heading over nothing read as if the faults' lines had gone missing
        w("Faults and their seeds\n")
    for f in s.fault_lines:
        if f.what is not None:
            w(wrap(f"\"{excerpt(f.text)}\"  a {f.what}: dropped from every replayed step's inputs",
                   f"  {t(f.id)}  ", indent=6) + "\n")
        else:
            w(wrap(f"\"{excerpt(f.text)}\"  seed: {t(f.seed)}", f"  {t(f.id)}  ", indent=6) + "\n")
    if s.suspected:
        w("\nSuspected by content (no diagnosis or lineage names them; docs/method.md)\n")
        for x in s.suspected[:MAX_SUSPECTED]:
            what = {"clean": "cleaned like a fault", "quarantine": "quarantined",
                    "flag": "flagged only"}.get(x.action, x.action)
            w(wrap(f"{x.role} of {t(x.fault)}, {what}: {excerpt(x.evidence)}",
                   f"  {t(x.id)}  ", indent=6) + "\n")
        if len(s.suspected) > MAX_SUSPECTED:
            w(f"  … {len(s.suspected) - MAX_SUSPECTED} more: see --json\n")
    w(f"\nAffected (A0): {s.affected} nodes; {s.supported} kept by independent "
      f"support, {s.unsupported} unsupported; {s.answer_relevant} answer-relevant\n\n")

    w("Memory store: " + ", ".join(f"{n} {k}" for k, n in s.memory_counts.items()) + "\n")
    for row in s.memory_rows:
        w(wrap(f"\"{excerpt(row.text)}\"", f"  {row.action:<10} {t(row.id):<8} ", indent=22) + "\n")
        w(wrap(t(row.reason), " " * REASON_INDENT, indent=REASON_INDENT) + "\n")
    if s.more_records:
        w(f"  … {s.records_with_reasons - len(s.memory_rows)} more\n")

    if not s.steps:  # case.store-only: a store's records and lineage
        w("\nTrajectory: none (the case is a store's records and their lineage): nothing "
          "to replay\n")
        return
    w("\nTrajectory: " + ", ".join(f"{n} {k}" for k, n in s.step_counts.items()) + "\n")
    for row in s.step_rows:
        head = f"  {row.action:<10} {t(row.id):<8} seq {row.seq:<5} {row.type:<16} "
        w(wrap(f"\"{excerpt(row.text)}\"", head, indent=len(head)) + "\n")
        if row.span is not None:
            w(wrap(f"span: {t(row.span)}", " " * REASON_INDENT, indent=REASON_INDENT) + "\n")
        w(wrap(t(row.reason), " " * REASON_INDENT, indent=REASON_INDENT) + "\n")
    if s.more_steps:
        w("  … more decisions: see --json\n")

    order = [t(x) + (f" [{t(s.replay_spans[x])}]" if x in s.replay_spans else "")
             + ("(refresh)" if refresh else "") for x, refresh in s.replay]
    shown_order = order if len(order) <= 40 else [*order[:20], "…", *order[-19:]]
    w(f"\nReplay, in trajectory order ({len(order)} of {s.steps} steps, ratio "
      f"{ratio_text(len(order) / max(s.steps, 1))}):\n  " + " → ".join(shown_order) + "\n")
