"""`dgrr approve CASE` and `dgrr history`: record a reviewer's decision on a repair in the
append-only approvals database, and list the decisions recorded."""

from __future__ import annotations

import argparse
import json
import sys

from .._errors import DgrrError
from .._plan import plan_case
from . import (
    add_case_argument,
    edited_plan,
    plural,
    positive_int,
    read_case,
    read_json,
)


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
    p.add_argument("--objective", choices=("answer", "store", "both"), default=None,
                   help="what the approved plan repairs (answer, store or both); default: the "
                        "objective the --result was repaired for, else answer")
    _db_arg(p)
    p.set_defaults(func=run_approve)

    h = sub.add_parser("history", help="list recorded approvals, newest first",
                       description="List the decisions in the approvals database.")
    h.add_argument("--case", default=None, help="only this case id")
    h.add_argument("--limit", type=positive_int, default=None,
                   help="at most this many rows (a whole number >= 1)")
    h.add_argument("--json", action="store_true", help="print JSON lines")
    h.add_argument("--verify", action="store_true",
                   help="check the hash chain of the whole log: exit 0 when intact, 1 with "
                        "the first broken row otherwise")
    _db_arg(h)
    h.set_defaults(func=run_history)


def _db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None,
                   help="database URL or SQLite file (default: $DGRR_DB, else "
                        "~/.dgrr/approvals.db)")


def missing_database(db: str | None) -> str | None:
    """The SQLite file `db` names (or the default one) when it does not exist yet; None
    when it exists or `db` is a server URL."""
    import os
    from pathlib import Path

    from ..approvals._store import db_url

    url = db_url(db)
    if not url.startswith("sqlite:///"):
        return None  # a server, or an in-memory SQLite database
    path = url.removeprefix("sqlite:///").split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return None if Path(path).exists() else os.path.normpath(path)


def _result_objective(result: object) -> str:
    """The objective a repair result was made for (its report says so unless answer)."""
    report = result.get("report") if isinstance(result, dict) else None
    objective = report.get("objective") if isinstance(report, dict) else None
    return objective if objective in ("answer", "store", "both") else "answer"


def run_approve(args: argparse.Namespace) -> int:
    from ..approvals import ApprovalStore, record_decision

    result = read_json(args.result, "--result") if args.result else None
    if result is not None and not isinstance(result, dict):
        raise DgrrError(f"--result: expected a JSON object, got {type(result).__name__}")
    objective = args.objective or _result_objective(result)
    plan = plan_case(read_case(args), objective=objective)  # type: ignore[arg-type]
    if args.plan:
        plan = edited_plan(plan, args.plan, force=args.force, comment=args.comment or None)
    store = ApprovalStore(args.db)
    rec = record_decision(store, plan, reviewer=args.reviewer, decision=args.decision,
                          comment=args.comment, result=result)
    print(f"recorded #{rec.id}: {rec.decision} of case '{rec.case_id}' by {rec.reviewer} "
          f"({plural(len(rec.plan_edits), 'plan edit')}) in {store.url}")
    return 0


def printable(value: str) -> str:
    """`value` with control and format characters (ANSI escapes, BEL, bidi overrides,
    line breaks) shown as escapes, so stored text cannot drive the terminal."""
    return "".join(c if c.isprintable() else
                   (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
                   for c in value)


def run_history(args: argparse.Namespace) -> int:
    from ..approvals import ApprovalStore

    missing = missing_database(args.db)
    if missing is not None:  # a read-only command never creates a database (or its folder)
        if args.db is not None:
            raise DgrrError(f"--db {args.db}: no such database ({missing} does not exist)")
        print(f"no approvals recorded (no database yet at {missing})")
        return 0
    store = ApprovalStore(args.db)
    out = sys.stdout
    if args.verify:
        check = store.verify()
        if check.ok:
            out.write(f"approvals log intact: {check.rows} rows"
                      + (f", head {check.head}" if check.head else "") + "\n")
            return 0
        where = f"row #{check.first_broken}" if check.first_broken is not None else "triggers"
        print(f"dgrr history: approvals log BROKEN at {where}: {check.reason}",
              file=sys.stderr)
        return 1
    rows = store.history(case_id=args.case, limit=args.limit)
    if args.json:
        for r in rows:  # ASCII escapes: no control character reaches the terminal raw
            out.write(json.dumps(r.model_dump(mode="json"), ensure_ascii=True) + "\n")
        return 0
    if not rows:
        out.write("no approvals recorded"
                  + (f" for case '{printable(args.case)}'" if args.case else "") + "\n")
        return 0
    out.write(f"{'#':>4}  {'time (UTC)':<19}  {'case':<20}  {'reviewer':<14}  {'decision':<8}  "
              "edits  comment\n")
    for r in rows:
        decision = r.decision if r.kind == "decision" else r.kind
        comment = r.comment if r.kind == "decision" else f"#{r.refers_to} -> {r.target}: {r.comment}"
        out.write(f"{r.id:>4}  {r.created_at:%Y-%m-%d %H:%M:%S}  "
                  f"{printable(r.case_id[:20]):<20}  {printable(r.reviewer[:14]):<14}  "
                  f"{decision:<8}  {len(r.plan_edits):>5}  "
                  f"{printable(' '.join(comment.split())[:60])}\n")
    return 0
