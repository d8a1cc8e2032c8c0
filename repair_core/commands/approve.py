"""`dgrr approve CASE` and `dgrr history`: record a reviewer's decision on a repair in the
append-only approvals database, and list the decisions recorded."""

from __future__ import annotations

import argparse
import json
import sys

from .._errors import DgrrError
from .._text import printable
from . import (
    add_case_argument,
    add_suspects_argument,
    case_ids,
    clean_source_ids,
    edited_plan,
    not_suspect_ids,
    plural,
    positive_int,
    read_case,
    read_json,
)
from .judging import add_judge_arguments, judge_from


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
    p.add_argument("--acknowledge", action="append", default=[], metavar="ID",
                   help="a carrier of a fault the --result still has, or an item not "
                        "certified clean of one (WHERE:FAULT, as `dgrr verify` lists it), that "
                        "you read and accept; repeat for each: an approval of a result with "
                        "either is refused until every one is acknowledged, and the ids are "
                        "recorded with it")
    p.add_argument("--acknowledge-owner", action="append", default=[], metavar="RECORD",
                   help="a record of someone other than the case's user (`dgrr plan` warns "
                        "about it as other-owner) that the repair may write to; repeat for "
                        "each: `dgrr apply` refuses to delete, quarantine or restore such a "
                        "record unless the approval acknowledged it")
    p.add_argument("--objective", choices=("answer", "store", "both"), default=None,
                   help="what the approved plan repairs (answer, store or both); default: the "
                        "objective the --result was repaired for, else answer (store for a "
                        "case without an answer step)")
    add_suspects_argument(p, from_result=True)
    add_judge_arguments(p)
    _db_arg(p)
    p.set_defaults(func=run_approve)

    h = sub.add_parser("history", help="list recorded approvals, newest first",
                       description="List the decisions in the approvals database.")
    h.add_argument("--case", default=None, help="only this case id")
    h.add_argument("--limit", type=positive_int, default=None,
                   help="at most this many rows (a whole number >= 1)")
    h.add_argument("--json", action="store_true", help="print JSON lines")
    h.add_argument("--verify", action="store_true",
                   help="check the hash chain of the whole log (and every row's signature "
                        "when a trust file exists): exit 0 when intact, 1 with the first "
                        "broken row otherwise")
    h.add_argument("--against", default=None, metavar="FILE",
                   help="with --verify: also check the log still holds the signed checkpoint "
                        "FILE (detects deleted newest rows, an emptied log, an older copy)")
    h.add_argument("--checkpoint", default=None, metavar="FILE",
                   help="write a checkpoint of the log's head to FILE, signed by --reviewer "
                        "(keep it away from the database)")
    h.add_argument("--reviewer", default=None,
                   help="who signs the --checkpoint (their key must be in the key folder)")
    h.add_argument("--trust", default=None, metavar="FILE",
                   help="trust file (default: $DGRR_TRUST, else ~/.dgrr/trusted_keys.json)")
    h.add_argument("--keys", default=None, metavar="DIR",
                   help="private key folder (default: $DGRR_KEYS, else ~/.dgrr/keys)")
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


def run_approve(args: argparse.Namespace) -> int:
    # imported here, not at the module's top: `dgrr --help` registers every command
    from ..approvals import ApprovalStore, record_decision
    from ..case._owner import OWNER_ACK_PREFIX, acknowledged_owners, owner_ack
    from ..integrations._target import result_clean_source, result_objective, result_suspects
    from ..plan._plan import plan_case
    from ..replay import replay_again

    result = read_json(args.result, "--result") if args.result else None
    if result is not None and not isinstance(result, dict):
        raise DgrrError(f"--result: expected a JSON object, got {type(result).__name__}")
    # unset: the result's objective, else plan_case's default (answer; store for a case
    # without an answer step)
    objective = args.objective or (result_objective(result) if result is not None else None)
    # likewise what the plan does with suspects
    suspects, unmarked = result_suspects(result) if result is not None else ("quarantine", [])
    cleaned = result_clean_source(result) if result is not None else {}
    case = read_case(args)
    plan = plan_case(case, objective=objective,  # type: ignore[arg-type]
                     suspects=args.suspects or suspects,  # type: ignore[arg-type]
                     not_suspect=unmarked if args.not_suspect is None
                     else not_suspect_ids(args, case_ids(case)),
                     clean_source=cleaned if args.clean_source is None
                     else clean_source_ids(args, case_ids(case)))
    if args.plan:
        plan = edited_plan(plan, args.plan, force=args.force, comment=args.comment or None)
    store = ApprovalStore(args.db)
    if args.acknowledge and result is None:
        raise DgrrError("--acknowledge: only with --result (the carriers are in a result)")
    if args.acknowledge_owner and args.decision != "approve":
        raise DgrrError("--acknowledge-owner: only with --decision approve")
    rec = record_decision(store, plan, reviewer=args.reviewer, decision=args.decision,
                          comment=args.comment, result=result,
                          acknowledged=[*args.acknowledge,
                                        *(owner_ack(r) for r in args.acknowledge_owner)],
                          judge=judge_from(args),
                          recompute=replay_again)  # rule gate.replay-recomputed
    print(f"recorded #{rec.id}: {rec.decision} of case '{printable(rec.case_id)}' by "
          f"{printable(rec.reviewer)} ({plural(len(rec.plan_edits), 'plan edit')}) in "
          f"{store.url}")
    owners = sorted(acknowledged_owners(rec.acknowledged))
    carriers = [a for a in rec.acknowledged if not a.startswith(OWNER_ACK_PREFIX)]
    if carriers:
        print(f"acknowledged {plural(len(carriers), 'carrier')} of a fault or "
              "item(s) not certified clean: " + ", ".join(printable(a) for a in carriers))
    if owners:
        print(f"acknowledged {plural(len(owners), 'record')} of another owner: "
              + ", ".join(printable(a) for a in owners))
    signed = f"signed with {rec.key_id}" if rec.signature else "unsigned (no key for the reviewer)"
    print(f"log head now {rec.row_hash} (#{rec.id}, {signed})")
    return 0


def run_history(args: argparse.Namespace) -> int:
    from ..approvals import ApprovalStore

    missing = missing_database(args.db)
    if missing is not None:  # a read-only command never creates a database (or its folder)
        if args.db is not None:
            raise DgrrError(f"--db {args.db}: no such database ({missing} does not exist)")
        print(f"no approvals recorded (no database yet at {missing})")
        return 0
    if args.against and not args.verify:
        raise DgrrError("--against: only with --verify")
    if args.checkpoint and args.verify:
        raise DgrrError("--checkpoint: make a checkpoint or --verify, not both at once")
    store = ApprovalStore(args.db, keys=args.keys, trust=args.trust)
    out = sys.stdout
    if args.checkpoint:
        return _write_checkpoint(store, args)
    if args.verify:
        from ..approvals import TrustFile, read_checkpoint

        trust = TrustFile.load(args.trust, missing_ok=args.trust is None and not args.against)
        against = read_checkpoint(args.against, trust) if args.against and trust else None
        check = store.verify(trust, against)
        if check.ok:
            how = ("chain and signatures checked against " + str(trust.path) if trust else
                   "chain only: no trust file, signatures not checked")
            out.write(f"approvals log intact: {check.rows} rows"
                      + (f", head {check.head}" if check.head else "") + f" ({how})\n")
            if check.unsigned_applied:
                out.write(f"note: {check.unsigned_applied} applied event(s) unsigned (the "
                          "applier had no key); they authorise nothing\n")
            if against is not None:
                out.write(f"contains the checkpoint of {against.created_at} by "
                          f"{printable(against.reviewer)} ({against.rows} rows, head "
                          f"{against.head})\n")
            return 0
        where = f" at row #{check.first_broken}" if check.first_broken is not None else ""
        print(f"dgrr history: approvals log BROKEN{where}: {check.reason}",
              file=sys.stderr)
        return 1
    rows = store.history(case_id=args.case, limit=args.limit)
    if args.reviewer or args.keys or args.trust:
        raise DgrrError("--reviewer, --keys and --trust: only with --checkpoint or --verify")
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
        comment = (r.comment if r.kind in ("decision", "rule")
                   else f"#{r.refers_to} -> {r.target}: {r.comment}")
        out.write(f"{r.id:>4}  {r.created_at:%Y-%m-%d %H:%M:%S}  "
                  f"{printable(r.case_id[:20]):<20}  {printable(r.reviewer[:14]):<14}  "
                  f"{decision:<8}  {len(r.plan_edits):>5}  "
                  f"{printable(' '.join(comment.split())[:60])}\n")
    return 0


def _write_checkpoint(store: object, args: argparse.Namespace) -> int:
    from .._io import check_not_input, check_output_file
    from ..approvals import (
        ApprovalStore,
        TrustFile,
        key_dir,
        load_signer,
        make_checkpoint,
        trust_path,
        write_checkpoint,
    )

    assert isinstance(store, ApprovalStore)
    if not args.reviewer:
        raise DgrrError("--checkpoint: --reviewer (who signs it) is required")
    check_output_file(args.checkpoint, "--checkpoint")
    db_file = store.url.removeprefix("sqlite:///").split("?", 1)[0]
    check_not_input(args.checkpoint, [db_file if store.url.startswith("sqlite:///") else None,
                                      trust_path(args.trust)], "--checkpoint")
    signer = load_signer(args.reviewer, args.keys)
    if signer is None:
        raise DgrrError(f"--reviewer: no private key for {printable(args.reviewer)!r} in "
                        f"{key_dir(args.keys)} (dgrr keys generate --reviewer NAME)")
    cp = make_checkpoint(store, signer, TrustFile.load(args.trust, missing_ok=True))
    write_checkpoint(cp, args.checkpoint)
    print(f"checkpoint of {cp.rows} rows, head {cp.head}, signed by "
          f"{printable(cp.reviewer)} ({cp.key_id}) written to {args.checkpoint}; keep it "
          "away from the database")
    return 0
