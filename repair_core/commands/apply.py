"""`dgrr apply RESULT.json --case CASE.json --to mem0|langgraph --store STORE`: write an
approved repair back to the real store (dry run unless --apply)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._errors import DgrrError
from .._text import printable
from . import plural, read_json
from .judging import add_judge_arguments, judge_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "apply", help="write an approved repair back to a Mem0 or LangGraph store (dry run by default)",
        description="Show the store operations a repair result asks for (delete, quarantine, "
                    "restore, add), and with --apply perform them on the real store: only "
                    "for a result with an approval in the approvals log, and only when every "
                    "touched memory still has the text and change time the trace saw. The "
                    "whole apply is planned and written to a journal before the first write; "
                    "an interrupted apply is finished with --resume or undone with "
                    "--rollback, and one store takes one apply at a time. What was applied "
                    "is recorded in the log next to the approval. See docs/writeback.md.")
    p.add_argument("result", metavar="RESULT.json", nargs="?",
                   help="repair result (dgrr repair --json); not with --resume/--rollback")
    p.add_argument("--case", metavar="CASE.json",
                   help="the imported case the result repaired (to find its approval); "
                        "required unless --resume/--rollback")
    p.add_argument("--to", choices=["mem0", "langgraph"], required=True,
                   help="kind of store to write to")
    p.add_argument("--store", metavar="STORE", required=True,
                   help="mem0: a Mem0 config JSON (Memory.from_config) or MODULE:FUNCTION "
                        "returning a mem0 Memory; langgraph: MODULE:FUNCTION returning the "
                        "LangGraph BaseStore the agent uses (or a coroutine / async context "
                        "manager giving an async store, e.g. AsyncSqliteStore)")
    p.add_argument("--apply", action="store_true",
                   help="perform the operations (default: only show them)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--resume", action="store_true",
                      help="finish this store's interrupted apply from its journal")
    what.add_argument("--rollback", action="store_true",
                      help="undo this store's interrupted apply: every touched item back to "
                           "its exact state before")
    p.add_argument("--overwrite", action="store_true",
                   help="with --resume/--rollback: also write slots that someone changed "
                        "since the apply planned them (default: keep their newer value and "
                        "exit 2 listing them); recorded in the approvals log as an "
                        "override signed by --reviewer's key, which the trust file must "
                        "name (refused without one)")
    add_judge_arguments(p)
    p.add_argument("--vault", metavar="FILE", default=None,
                   help="langgraph: a SQLite file to keep quarantined items in, outside the "
                        "store (default: a table of a SqliteStore's or PostgresStore's own "
                        "database, or memory beside an InMemoryStore); needed for other "
                        "stores, and again with --resume/--rollback")
    p.add_argument("--journal", metavar="DIR", default=None,
                   help="folder of the write-ahead journals and locks (default: "
                        "$DGRR_APPLY_DIR, else ~/.dgrr/apply)")
    p.add_argument("--reviewer", default=None,
                   help="who applies, resumes or rolls back (recorded in the approvals log; "
                        "required with --apply, --resume and --rollback; the resume's and "
                        "rollback's rows are signed like a decision)")
    p.add_argument("--db", default=None,
                   help="approvals database URL or SQLite file (default: $DGRR_DB, else "
                        "~/.dgrr/approvals.db)")
    p.add_argument("--trust", default=None, metavar="FILE",
                   help="trust file the approvals' signatures are checked against (default: "
                        "$DGRR_TRUST, else ~/.dgrr/trusted_keys.json when it exists; with "
                        "DGRR_REQUIRE_SIGNED=1 one is required)")
    p.add_argument("--checkpoint", default=None, metavar="FILE",
                   help="a signed checkpoint of the approvals log (dgrr history "
                        "--checkpoint): nothing is honoured unless the log still holds it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # imported here, not at the module's top: `dgrr --help` registers every command
    from ..approvals import ApprovalStore
    from ..case._load import load_case
    from ..integrations import journal_dir
    from ..integrations.apply_result import ApplyTarget, apply_result, log_checks

    target = ApplyTarget(to=args.to, store=args.store, vault=args.vault,
                         journal=args.journal)
    if args.vault is not None and args.to != "langgraph":
        raise DgrrError("--vault: only for --to langgraph (Mem0 keeps its quarantine in the "
                        "store, out of every scope)")
    if args.overwrite and not (args.resume or args.rollback):
        raise DgrrError("--overwrite: only with --resume or --rollback")
    if args.resume or args.rollback:
        if args.result or args.case or args.apply:
            raise DgrrError("--resume/--rollback: give only --to, --store (and --journal, "
                            "--reviewer, --db); the journal holds the rest")
        return _finish(args, journal_dir(args.journal))
    if not args.result:
        raise DgrrError("RESULT.json: the repair result to apply is required")
    if not args.case:
        raise DgrrError("--case: the imported case the result repaired is required")
    result = read_json(args.result, "RESULT")
    if not isinstance(result, dict):
        raise DgrrError(f"RESULT: expected a JSON object, got {type(result).__name__}")
    case = load_case(args.case)
    from ..replay import replay_again
    trust, against = log_checks(args.trust, args.checkpoint)
    store = ApprovalStore(args.db, trust=args.trust)
    try:
        apply_result(store, case, result, target, write=args.apply, reviewer=args.reviewer,
                     trust=trust, against=against, judge=judge_from(args),
                     recompute=replay_again)  # rule gate.replay-recomputed
        return 0
    finally:
        store.close()


def recheck_approval(log: Any, approval_id: int, operations: int, *, trust: Any,
                     against: Any, needed: int = 1) -> Any:
    """Approval #`approval_id` if the log still honours its plan and result (they verify,
    no later rejection, enough distinct reviewers); refused otherwise."""
    from ..approvals import honoured_approval

    found = log.find(id=approval_id)
    if not found or found[0].decision != "approve":
        raise DgrrError(f"--resume: the journal's approval #{approval_id} is not an approval "
                        "in this log; nothing written")
    approval = found[0]
    standing = honoured_approval(
        log, approval.case_id,
        lambda r: (r.inputs_sha256, r.outputs_sha256) == (approval.inputs_sha256,
                                                          approval.outputs_sha256),
        trust=trust, against=against,
        needed=lambda rule: max(needed, rule.needed(ops=operations, irreversible=False)))
    if standing.record is None:
        raise DgrrError(f"--resume: approval #{approval_id} is no longer honoured: "
                        f"{standing.reason or 'no approval'}; nothing written")
    # the plan still stands; the row the journal rests on is its own approval, not the
    # newest approval of the same plan (a second reviewer may have approved it since)
    return approval


def _finish(args: argparse.Namespace, folder: Any) -> int:
    """--resume / --rollback of the store's interrupted apply: the journal of the store
    `--store` opens (found by its resolved identity, authenticated), its approval
    re-checked before a resume, its `--vault` remembered."""
    from ..approvals import ApplyEvents, ApprovalStore, load_trust, row_signer
    from ..integrations import Journal, resume_apply, rollback_apply
    from ..integrations._identity import langgraph_identity, mem0_identity
    from ..integrations._target import open_mem0, with_langgraph
    from ..integrations.apply_result import log_checks, recorder, vault_path

    flag = "--resume" if args.resume else "--rollback"
    if not args.reviewer or not args.reviewer.strip():
        raise DgrrError(f"--reviewer: who finishes or undoes the apply is required with "
                        f"{flag} (the approvals log records it)")
    if args.overwrite:
        # rule apply.overwrite-signed: the override row must be signable by a key the
        # trust file trusts; refused before any store, journal or log is opened
        row_signer(args.reviewer, "override", trust=args.trust)
    # rule apply.journal-used-once: the resume's applied row and the rollback's row are
    # signed like a decision; refused as early
    row_signer(args.reviewer, "rolled-back" if args.rollback else "applied",
               trust=args.trust, signed=True)
    trust, against = log_checks(args.trust, args.checkpoint) if args.resume else (None, None)

    def pending_of(journal: Any) -> Any:
        pending = journal.pending()
        if pending is None:
            raise DgrrError(f"{flag}: no interrupted apply for this store in "
                            f"'{journal.folder}'")
        if pending.store != args.to:
            raise DgrrError(f"--to: the interrupted apply was to {pending.store}, not "
                            f"{args.to}")
        if args.vault is not None and pending.vault != vault_path(args.vault):
            raise DgrrError(f"--vault: the interrupted apply kept its quarantine in "
                            f"{pending.vault or 'the store own vault'}, not {args.vault}; "
                            "nothing written (leave --vault out: the journal remembers it)")
        if args.resume:
            if pending.approval_id is None:
                raise DgrrError("--resume: the journal names no approval; nothing written "
                                "(--rollback undoes it)")
            log = ApprovalStore(args.db, trust=args.trust)
            try:
                approval = recheck_approval(log, pending.approval_id, len(pending.operations),
                                            trust=trust, against=against,
                                            needed=pending.needed)
            finally:
                log.close()
            if (approval.row_hash, approval.inputs_sha256, approval.outputs_sha256) != (
                    pending.approval_row_hash, pending.inputs_sha256, pending.outputs_sha256):
                raise DgrrError(f"--resume: approval #{pending.approval_id} in the log is not "
                                "the row the journal rests on (its hashes differ); nothing "
                                "written")
        return pending

    def act(journal: Any, backend_of: Any) -> Any:
        pending = pending_of(journal)
        backend = backend_of(pending)
        log = ApprovalStore(args.db, trust=args.trust)
        events = ApplyEvents(log, reviewer=args.reviewer, target=f"{args.to}:{args.store}")

        def override(intent: Any, conflicts: list[Any]) -> None:
            row = log.record_override(
                intent.case_id, reviewer=args.reviewer, target=f"{args.to}:{args.store}",
                refers_to=intent.approval_id, comment=json.dumps(
                    {"apply": intent.apply_id, "rollback": bool(args.rollback),
                     "overwritten": [c.model_dump(mode="json") for c in conflicts]},
                    ensure_ascii=False, default=str))
            print(f"override recorded as #{row.id}")
            trust_file = load_trust(args.trust)
            if trust_file is None:  # row_signer required one; it went away meanwhile
                raise DgrrError("override refused: no trust file to count signed overrides "
                                "against; nothing written")
            # rule apply.overwrite-quorum: as many reviewers as the review rule asks
            events.check_override(intent, rollback=bool(args.rollback), trust=trust_file)
            print(f"{plural(len(conflicts), 'slot')} changed since the apply planned them "
                  "will be written over")

        try:
            if args.rollback:
                return rollback_apply(backend, journal, overwrite=args.overwrite,
                                      on_override=override, log=events)
            return resume_apply(backend, journal,
                                recorder(log, pending.approval_id, reviewer=args.reviewer,
                                         target=f"{args.to}:{args.store}", signed=True),
                                overwrite=args.overwrite, on_override=override, log=events)
        finally:
            log.close()

    if args.to == "langgraph":
        from ..integrations.langgraph import LangGraphSlots
        from ..integrations.langgraph_vault import SqliteVault

        def finish_langgraph(lg: Any) -> Any:
            journal = Journal.for_store(folder, "langgraph", langgraph_identity(lg, args.store))
            return act(journal, lambda pending: LangGraphSlots(
                lg, SqliteVault(pending.vault) if pending.vault else None))

        intent = with_langgraph(args.store, finish_langgraph)
    else:
        from ..integrations.mem0 import Mem0Slots, close_mem0

        memory = open_mem0(args.store)
        try:
            journal = Journal.for_store(folder, "mem0", mem0_identity(memory, args.store))
            intent = act(journal, lambda pending: Mem0Slots(memory))
        finally:
            close_mem0(memory)
    kept = [c for c in intent.conflicts if not c.overwritten]
    if kept:
        verb = ("rolled back, except" if args.rollback else "resumed, except") + \
            f" {plural(len(kept), 'slot')} someone changed since the apply planned them " \
            "(their newer value is kept; --overwrite writes over them)"
    elif args.rollback:
        verb = "rolled back: every touched item is as before"
    else:
        verb = "resumed: every planned write is done"
    print(f"apply {intent.apply_id} (case '{printable(intent.case_id)}') {verb} "
          f"({plural(len(intent.operations), 'operation')})")
    for c in intent.conflicts:
        print(f"  conflict: {printable(c.describe())}", file=sys.stderr if not
              c.overwritten else sys.stdout)
    return 2 if kept else 0
