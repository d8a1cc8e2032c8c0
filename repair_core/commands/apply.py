"""`dgrr apply RESULT.json --case CASE.json --to mem0|langgraph --store STORE`: write an
approved repair back to the real store (dry run unless --apply)."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from .._case import Case
from .._edit import apply_edits
from .._errors import DgrrError
from .._load import load_case
from .._plan import plan_case
from . import plural, read_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "apply", help="write an approved repair back to a Mem0 or LangGraph store (dry run by default)",
        description="Show the store operations a repair result asks for (delete, quarantine, "
                    "restore, add), and with --apply perform them on the real store: only "
                    "for a result with an approval in the approvals log, and only when every "
                    "touched memory still has the text and change time the trace saw. What "
                    "was applied is recorded in the log next to the approval. See "
                    "docs/import.md.")
    p.add_argument("result", metavar="RESULT.json", help="repair result (dgrr repair --json)")
    p.add_argument("--case", metavar="CASE.json", required=True,
                   help="the imported case the result repaired (to find its approval)")
    p.add_argument("--to", choices=["mem0", "langgraph"], required=True,
                   help="kind of store to write to")
    p.add_argument("--store", metavar="STORE", required=True,
                   help="mem0: a Mem0 config JSON (Memory.from_config) or MODULE:FUNCTION "
                        "returning a mem0 Memory; langgraph: MODULE:FUNCTION returning the "
                        "LangGraph BaseStore the agent uses")
    p.add_argument("--apply", action="store_true",
                   help="perform the operations (default: only show them)")
    p.add_argument("--reviewer", default=None,
                   help="who applies (recorded in the approvals log; required with --apply)")
    p.add_argument("--db", default=None,
                   help="approvals database URL or SQLite file (default: $DGRR_DB, else "
                        "~/.dgrr/approvals.db)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..approvals import ApprovalStore, approval_hashes
    from ..integrations import store_ops

    result = read_json(args.result, "RESULT")
    if not isinstance(result, dict):
        raise DgrrError(f"RESULT: expected a JSON object, got {type(result).__name__}")
    case = load_case(args.case)
    ops = store_ops(case, result)
    store = ApprovalStore(args.db)
    try:
        approval = _approval(store, case, result, approval_hashes)
        kind = "Mem0" if args.to == "mem0" else "LangGraph"
        print(f"{plural(len(ops), 'operation')} on the {kind} store "
              f"for case '{case.case_id}':")
        for op in ops:
            print("  " + op.describe())
        if approval is None:
            print("approval: none for this result (dgrr approve CASE --result RESULT)")
        else:
            print(f"approval: #{approval.id} by {approval.reviewer}")
        if not args.apply:
            print("dry run: nothing written (add --apply to write)")
            return 0
        if approval is None:
            raise DgrrError("refused: this result has no approval in the approvals log; "
                            "nothing written")
        if not args.reviewer or not args.reviewer.strip():
            raise DgrrError("--reviewer: who applies the repair is required with --apply")
        if args.to == "langgraph":
            from ..integrations.langgraph import apply_langgraph

            # apply_* check every touched record against the trace before writing
            lg_store = _factory(args.store, "a LangGraph BaseStore")
            done = apply_langgraph(lg_store, ops, case_id=case.case_id)
            return _record_applied(store, approval, args, done, item="item")
        from ..integrations.mem0 import apply_mem0, close_mem0

        memory = _open_mem0(args.store)
        try:
            done = apply_mem0(memory, ops, user=case.user_id, case_id=case.case_id)
        finally:
            close_mem0(memory)
        return _record_applied(store, approval, args, done, item="mem0_id")
    finally:
        store.close()


def _record_applied(store: Any, approval: Any, args: argparse.Namespace,
                    done: list[dict[str, Any]], *, item: str) -> int:
    """Record what was written to the `--to` store next to its approval, and show it
    (`item`: the key of each done operation naming the store's own item)."""
    from ..approvals import sha256_json

    event = store.record_applied(approval.id, reviewer=args.reviewer,
                                 target=f"{args.to}:{args.store}",
                                 outputs_sha256=sha256_json(done),
                                 comment=json.dumps(done, ensure_ascii=False))
    for d in done:
        print(f"  applied {d['op']:<10} {d['record']} -> {args.to} {d[item]}")
    print(f"recorded as #{event.id} next to approval #{approval.id}")
    return 0


def _factory(spec: str, what: str) -> Any:
    """What a MODULE:FUNCTION factory returns."""
    module_name, _, func = spec.partition(":")
    if not module_name or not func:
        raise DgrrError(f"--store: expected MODULE:FUNCTION returning {what}, got {spec!r}")
    try:
        factory = getattr(importlib.import_module(module_name), func)
    except (ImportError, AttributeError) as exc:
        raise DgrrError(f"--store: cannot load {spec!r}: {exc}") from None
    return factory()


def _approval(store: Any, case: Case, result: dict, approval_hashes: Any) -> Any:
    """The newest decision whose inputs and outputs digests match this case,
    its recorded plan edits and this result (the digests computed once per distinct set
    of edits: on a large case each costs seconds)."""
    from ..approvals import honoured_approval

    # The approval may be of a plan for any objective (dgrr repair and approve: both); each
    # objective's plan is made once, and hashed once per distinct set of edits.
    bases: dict[str, Any] = {}
    hashes: dict[str, tuple[str, str] | None] = {}

    def matches(record: Any) -> bool:
        for objective in ("both", "answer", "store"):
            key = json.dumps([objective, record.plan_edits, record.forced,
                              record.comment if record.plan_edits else ""], sort_keys=True)
            if key not in hashes:
                if objective not in bases:
                    bases[objective] = plan_case(case, objective=objective)
                hashes[key] = _plan_hashes(bases[objective], record, result, approval_hashes)
            if hashes[key] == (record.inputs_sha256, record.outputs_sha256):
                return True
        return False

    # the latest matching decision wins; a log that does not verify honours nothing
    standing = honoured_approval(store, case.case_id, matches)
    if standing.reason:
        print(f"approval: {standing.reason}", file=sys.stderr)
    return standing.record


def _plan_hashes(base: Any, record: Any, result: dict, approval_hashes: Any
                 ) -> tuple[str, str] | None:
    """The (inputs, outputs) digests of `base` with `record`'s plan edits and `result`;
    None when those edits no longer apply."""
    plan = base
    if record.plan_edits:
        edits = {e["node"]: e["action"] for e in record.plan_edits}
        try:
            plan = apply_edits(base, edits, force=record.forced, comment=record.comment)
        except DgrrError:
            return None
    return approval_hashes(plan, result)


def _open_mem0(spec: str) -> Any:
    """A mem0 `Memory` from a config JSON file or a MODULE:FUNCTION factory."""
    path = Path(spec)
    if path.suffix == ".json" or path.is_file():
        config = read_json(spec, "--store")
        if not isinstance(config, dict):
            raise DgrrError("--store: a Mem0 config must be a JSON object")
        from mem0 import Memory

        return Memory.from_config(config)
    return _factory(spec, "a mem0 Memory")
