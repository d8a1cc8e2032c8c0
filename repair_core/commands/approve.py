"""`dgrr approve CASE` and `dgrr history`: record a reviewer's decision on a repair in the
append-only approvals database, and list the decisions recorded."""

from __future__ import annotations

import argparse
import sys

from .._errors import DgrrError
from .._io import to_json
from .._plan import plan_case
from . import add_case_argument, edited_plan, read_case, read_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("approve", help="record a reviewer's decision on a repair",
                       description="Plan the case (with the reviewer's edits, if given) and "
                                   "append the decision, with hashes of inputs and outputs, "
                                   "to the approvals database. A reviewer records one decision "
                                   "per case, plan and result.")
    add_case_argument(p)
    p.add_argument("--reviewer", required=True, help="who decides")
    p.add_argument("--decision", required=True, choices=("approve", "reject"),
                   help="approve or reject the repair")
    p.add_argument("--comment", default="",
                   help="why (required for a rejection and when edits are forced)")
    p.add_argument("--plan", default=None,
                   help="edited plan report JSON (dgrr plan --json, edited) or {\"edits\": {...}}")
    p.add_argument("--force", action="store_true",
                   help="accept plan edits that override an invariant (needs --comment)")
    p.add_argument("--result", default=None,
                   help="repair result JSON (dgrr repair --json) whose outputs are approved; "
                        "refused unless it is the repair of this case and plan")
    _db_arg(p)
    p.set_defaults(func=run_approve)

    h = sub.add_parser("history", help="list recorded approvals, newest first",
                       description="List the decisions in the approvals database.")
    h.add_argument("--case", default=None, help="only this case id")
    h.add_argument("--limit", type=int, default=None, help="at most this many rows")
    h.add_argument("--json", action="store_true", help="print JSON lines")
    _db_arg(h)
    h.set_defaults(func=run_history)


def _db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None,
                   help="database URL or SQLite file (default: $DGRR_DB, else "
                        "~/.dgrr/approvals.db)")


def run_approve(args: argparse.Namespace) -> int:
    from ..approvals import ApprovalStore, record_decision

    plan = plan_case(read_case(args))
    if args.plan:
        plan = edited_plan(plan, args.plan, force=args.force, comment=args.comment or None)
    result = read_json(args.result, "--result") if args.result else None
    if result is not None and not isinstance(result, dict):
        raise DgrrError(f"--result: expected a JSON object, got {type(result).__name__}")
    store = ApprovalStore(args.db)
    rec = record_decision(store, plan, reviewer=args.reviewer, decision=args.decision,
                          comment=args.comment, result=result)
    print(f"recorded #{rec.id}: {rec.decision} of case '{rec.case_id}' by {rec.reviewer} "
          f"({len(rec.plan_edits)} plan edits) in {store.url}")
    return 0


def run_history(args: argparse.Namespace) -> int:
    from ..approvals import ApprovalStore

    rows = ApprovalStore(args.db).history(case_id=args.case, limit=args.limit)
    out = sys.stdout
    if args.json:
        for r in rows:
            out.write(to_json(r.model_dump(mode="json"), indent=None))
        return 0
    if not rows:
        out.write("no approvals recorded" + (f" for case '{args.case}'" if args.case else "")
                  + "\n")
        return 0
    out.write(f"{'#':>4}  {'time (UTC)':<19}  {'case':<20}  {'reviewer':<14}  {'decision':<8}  "
              "edits  comment\n")
    for r in rows:
        out.write(f"{r.id:>4}  {r.created_at:%Y-%m-%d %H:%M:%S}  {r.case_id[:20]:<20}  "
                  f"{r.reviewer[:14]:<14}  {r.decision:<8}  {len(r.plan_edits):>5}  "
                  f"{' '.join(r.comment.split())[:60]}\n")
    return 0
