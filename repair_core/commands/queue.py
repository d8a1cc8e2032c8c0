"""`dgrr queue submit|list|show|claim|release|decide` and `dgrr worker`: the review queue
for live agents (docs/queue.md)."""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._errors import DgrrError
from .._text import printable
from . import (
    add_case_argument,
    add_suspects_argument,
    case_ids,
    clean_source_ids,
    not_suspect_ids,
    positive_int,
    positive_seconds,
    read_case,
)


def _db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None,
                   help="approvals database URL or SQLite file holding the queue (default: "
                        "$DGRR_DB, else ~/.dgrr/approvals.db)")


def register(sub: argparse._SubParsersAction) -> None:
    q = sub.add_parser("queue", help="the review queue: submit, list, show, claim, decide",
                       description="Repair requests from live agents, reviewed one reviewer "
                                   "at a time and written back by `dgrr worker` (see "
                                   "docs/queue.md).")
    qs = q.add_subparsers(dest="queue_command", metavar="ACTION", required=True)

    s = qs.add_parser("submit", help="queue a case with its diagnosed faults for review")
    add_case_argument(s)
    s.add_argument("--by", required=True, dest="diagnosed_by",
                   help="who or what diagnosed the faults (a detector, an operator)")
    s.add_argument("--agent", default="", help="the agent the trace came from")
    s.add_argument("--objective", choices=("answer", "store", "both"), default="both",
                   help="what the repair must serve (default: both)")
    s.add_argument("--to", choices=("langgraph", "mem0"), default=None,
                   help="the kind of store an approved repair is written back to")
    s.add_argument("--store", default=None,
                   help="the store, as `dgrr apply --store` takes it (with --to)")
    _db_arg(s)
    s.set_defaults(func=run_submit)

    ls = qs.add_parser("list", help="list requests, oldest first")
    ls.add_argument("--status", action="append", default=None,
                    choices=("pending", "claimed", "approved", "rejected", "applied", "failed"),
                    help="only these statuses (repeatable; default: all)")
    ls.add_argument("--agent", default=None, help="only this agent's")
    ls.add_argument("--user", default=None, help="only this user's")
    ls.add_argument("--fault-kind", default=None,
                    help="only requests with a fault of this kind (memory_record, "
                         "tool_observation, …)")
    ls.add_argument("--json", action="store_true", help="print JSON lines")
    _db_arg(ls)
    ls.set_defaults(func=run_list)

    sh = qs.add_parser("show", help="one request and its history")
    sh.add_argument("id", type=positive_int, help="the request number")
    sh.add_argument("--json", action="store_true", help="print one JSON object")
    _db_arg(sh)
    sh.set_defaults(func=run_show)

    c = qs.add_parser("claim", help="claim a request (or the oldest pending one)")
    c.add_argument("id", type=positive_int, nargs="?", default=None,
                   help="the request number (default: the oldest pending one)")
    c.add_argument("--reviewer", required=True, help="who claims it")
    _db_arg(c)
    c.set_defaults(func=run_claim)

    r = qs.add_parser("release", help="give a claimed request back to the queue")
    r.add_argument("id", type=positive_int, help="the request number")
    r.add_argument("--reviewer", required=True, help="who holds it")
    _db_arg(r)
    r.set_defaults(func=run_release)

    d = qs.add_parser("decide", help="approve or reject a request you hold",
                      description="Plan the request's case, replay it when approving, and "
                                  "record the decision in the approvals log.")
    d.add_argument("id", type=positive_int, help="the request number")
    d.add_argument("--reviewer", required=True, help="who decides (must hold the claim)")
    d.add_argument("--decision", required=True, choices=("approve", "reject"))
    d.add_argument("--comment", default="", help="why (required for a rejection)")
    d.add_argument("--model", default=None,
                   help="model for the replay of an approval (default: dgrr/reference)")
    d.add_argument("--acknowledge", action="append", default=[], metavar="ID",
                   help="a carrier of a fault the replayed result still has (WHERE:FAULT), "
                        "read and accepted; repeat for each (as `dgrr approve`)")
    d.add_argument("--acknowledge-owner", action="append", default=[], metavar="RECORD",
                   help="a record of someone other than the case's user that the repair "
                        "may write to; repeat for each (as `dgrr approve`)")
    add_suspects_argument(d)
    _db_arg(d)
    d.set_defaults(func=run_decide)

    ru = qs.add_parser("rule", help="show or set when two different reviewers must approve",
                       description="The two-reviewer rule, stored in the database so every "
                                   "server and CLI on it applies the same one.")
    ru.add_argument("--over-ops", type=int, default=None, metavar="N",
                    help="two reviewers when the repair asks for more than N store "
                         "operations (a whole number >= 0)")
    ru.add_argument("--irreversible", choices=("yes", "no"), default=None,
                    help="two reviewers when the failed run had effects that cannot be undone")
    ru.add_argument("--no-limit", action="store_true",
                    help="drop the store-operation limit")
    ru.add_argument("--by", default=None,
                    help="who changes the rule (required to change it): an administrator "
                         "the trust file names, whose key signs the change")
    _keys_args(ru)
    _db_arg(ru)
    ru.set_defaults(func=run_rule)

    w = sub.add_parser("worker", help="write approved repairs from the queue back to their "
                                      "stores",
                       description="Take approved requests one at a time, write each back "
                                   "to its store (as `dgrr apply --apply` does), and record "
                                   "the outcome; a store's refusal fails the request and is "
                                   "not retried.")
    w.add_argument("--name", default=None,
                   help="this worker's name in the log (default: worker@HOST:PID)")
    w.add_argument("--once", action="store_true",
                   help="apply what is approved now, then exit (default: keep polling)")
    w.add_argument("--poll", type=positive_seconds, default=2.0, metavar="SECONDS",
                   help="seconds between looks at the queue (default 2)")
    w.add_argument("--lease", type=positive_seconds, default=600.0, metavar="SECONDS",
                   help="take over a request another worker has held this long without "
                        "finishing (it died); its interrupted apply is resumed (default 600)")
    w.add_argument("--checkpoint", default=None, metavar="FILE",
                   help="a signed checkpoint of the approvals log (dgrr history "
                        "--checkpoint): nothing is applied unless the log still holds it")
    w.add_argument("--vault", metavar="FILE", default=None,
                   help="langgraph: a SQLite file to keep quarantined items in, outside the "
                        "store, as `dgrr apply --vault` (default: a table of a "
                        "SqliteStore's or PostgresStore's own database, or memory beside an "
                        "InMemoryStore); needed for other stores; a Mem0 request keeps its "
                        "quarantine in its store")
    _keys_args(w)
    _db_arg(w)
    w.set_defaults(func=run_worker)


def _keys_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--trust", default=None, metavar="FILE",
                   help="trust file (default: $DGRR_TRUST, else ~/.dgrr/trusted_keys.json)")
    p.add_argument("--keys", default=None, metavar="DIR",
                   help="private key folder (default: $DGRR_KEYS, else ~/.dgrr/keys)")


@contextmanager
def _open(args: argparse.Namespace) -> Iterator[Any]:
    """The queue at --db, closed when the command is done with it."""
    from ..approvals import ApprovalStore
    from ..queue import RepairQueue

    queue = RepairQueue(args.db, approvals=ApprovalStore(
        args.db, keys=getattr(args, "keys", None), trust=getattr(args, "trust", None)))
    try:
        yield queue
    finally:
        queue.close()


def _line(r: Any) -> str:
    holder = r.claimed_by if r.status == "claimed" else (r.decided_by or "")
    return (f"#{r.id:<5} {r.status:<9} {printable(r.case_id[:24]):<24} "
            f"{printable(r.agent[:14]):<14} {printable(r.user_id[:12]):<12} "
            f"{printable(','.join(r.faults))[:24]:<24} {printable(holder or '')[:16]}")


def run_submit(args: argparse.Namespace) -> int:
    if (args.to is None) != (args.store is None):
        raise DgrrError("--to and --store go together (where an approved repair is written)")
    case = read_case(args)
    faults = list(case.faults)
    if not faults:
        raise DgrrError("no diagnosed faults: give --faults IDS or a case with faults")
    with _open(args) as queue:
        target = {"to": args.to, "store": args.store} if args.to else None
        r = queue.submit(case, faults, diagnosed_by=args.diagnosed_by, agent=args.agent,
                         objective=args.objective, store_target=target,
                         source=os.path.basename(args.case))
    print(f"submitted request #{r.id}: case '{printable(r.case_id)}', "
          f"faults {', '.join(printable(f) for f in r.faults)} ({r.status})")
    return 0


def run_list(args: argparse.Namespace) -> int:
    with _open(args) as queue:
        rows = queue.requests(status=args.status, agent=args.agent, user_id=args.user,
                              fault_kind=args.fault_kind)
    if args.json:
        for r in rows:
            sys.stdout.write(json.dumps(r.model_dump(mode="json"), ensure_ascii=True) + "\n")
        return 0
    if not rows:
        print("no requests")
        return 0
    print(f"{'id':<6} {'status':<9} {'case':<24} {'agent':<14} {'user':<12} "
          f"{'faults':<24} reviewer")
    for r in rows:
        print(_line(r))
    return 0


def run_show(args: argparse.Namespace) -> int:
    with _open(args) as queue:
        r = queue.get(args.id)
        events = queue.events(args.id)
    if args.json:
        data = {**r.model_dump(mode="json"),
                "events": [e.model_dump(mode="json") for e in events]}
        sys.stdout.write(json.dumps(data, ensure_ascii=True) + "\n")
        return 0
    print(f"request #{r.id}: {r.status}")
    for name in ("case_id", "agent", "user_id", "diagnosed_by", "objective", "source",
                 "claimed_by", "decided_by", "decision_id", "worker", "applied_id", "error"):
        value = getattr(r, name)
        if value not in (None, ""):
            print(f"  {name:<13} {printable(str(value))}")
    print("  faults        " + ", ".join(f"{printable(f)} ({k})"
                                          for f, k in zip(r.faults, r.fault_kinds,
                                                          strict=True)))
    if r.store_target:
        print(f"  write back to {r.store_target['to']}:"
              f"{printable(r.store_target['store'])}")
    print("history:")
    for e in events:
        print(f"  {e.at:%Y-%m-%d %H:%M:%S}  {printable(e.actor)[:20]:<20} "
              f"{e.from_status or '-':>8} -> {e.to_status:<8} "
              f"{printable(' '.join(e.note.split()))[:60]}")
    return 0


def run_claim(args: argparse.Namespace) -> int:
    with _open(args) as queue:
        r = queue.claim(args.id, reviewer=args.reviewer)
    if r is None:
        print("nothing pending")
        return 1
    print(f"claimed request #{r.id} (case '{printable(r.case_id)}') for "
          f"{printable(r.claimed_by or '')}")
    return 0


def run_release(args: argparse.Namespace) -> int:
    with _open(args) as queue:
        r = queue.release(args.id, reviewer=args.reviewer)
    print(f"released request #{r.id}: {r.status}")
    return 0


def run_decide(args: argparse.Namespace) -> int:
    from ..case._owner import owner_ack
    from ..queue import review

    with _open(args) as queue:
        # the reviewer's suspects edits plan the request's case as `dgrr plan` does
        known = case_ids(queue.case(args.id)) if args.not_suspect or args.clean_source \
            else set()
        r = review(queue, args.id, reviewer=args.reviewer, decision=args.decision,
                   comment=args.comment, model=args.model,
                   acknowledged=[*args.acknowledge,
                                 *(owner_ack(r) for r in args.acknowledge_owner)],
                   suspects=args.suspects, not_suspect=not_suspect_ids(args, known),
                   clean_source=clean_source_ids(args, known))
        head = queue.approvals.verify().head
    print(f"request #{r.id}: {r.status} by {printable(r.decided_by or '')}, "
          f"recorded as #{r.decision_id} in the approvals log"
          + (f" (head {head})" if head else ""))
    return 0


def run_rule(args: argparse.Namespace) -> int:
    from ..queue import ReviewRule

    with _open(args) as queue:
        rule = queue.rule()
        changes: dict[str, Any] = {}
        if args.over_ops is not None:
            if args.over_ops < 0:
                raise DgrrError(f"--over-ops: expected a whole number >= 0, got {args.over_ops}")
            changes["over_ops"] = args.over_ops
        if args.no_limit:
            changes["over_ops"] = None
        if args.irreversible is not None:
            changes["irreversible"] = args.irreversible == "yes"
        if changes:
            if not args.by or not args.by.strip():
                raise DgrrError("--by: who changes the rule is required")
            rule = queue.set_rule(ReviewRule(**{**rule.model_dump(), **changes}), actor=args.by)
            print(f"recorded in the approvals log, signed by {printable(args.by.strip())}")
    limit = "no limit" if rule.over_ops is None else f"more than {rule.over_ops}"
    print(f"two reviewers when: store operations {limit}; irreversible effects "
          f"{'yes' if rule.irreversible else 'no'}")
    return 0


def run_worker(args: argparse.Namespace) -> int:
    from ..integrations.apply_result import log_checks
    from ..queue import apply_next

    name = args.name or f"worker@{socket.gethostname()}:{os.getpid()}"
    failed = 0
    trust, against = log_checks(args.trust, args.checkpoint)
    with _open(args) as queue:
        while True:
            r = apply_next(queue, worker=name, lease=args.lease, trust=trust,
                           against=against, vault=args.vault)
            if r is None:
                if args.once:
                    break
                time.sleep(args.poll)
                continue
            if r.status == "applied":
                print(f"request #{r.id}: applied (log #{r.applied_id})", flush=True)
            else:
                failed += 1
                print(f"request #{r.id}: failed: {printable(r.error or '')}", flush=True)
    return 1 if failed else 0
