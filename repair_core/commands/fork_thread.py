"""`dgrr fork-thread CASE.json --graph MODULE:FUNCTION --thread ID`: fork a LangGraph
thread from the last checkpoint before the repair's poison reached its state (dry run
unless --apply)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Any

from .._errors import DgrrError
from .._text import printable
from ..case._load import load_case
from . import plural, read_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "fork-thread",
        help="fork a LangGraph thread from before the poison reached it (dry run by default)",
        description="Find the last checkpoint of a LangGraph thread before a poisoned text "
                    "(a diagnosed fault, a record the plan deletes or quarantines, a model "
                    "output or tool result it replays) reached the thread's state, and with "
                    "--apply fork the thread from there with graph.update_state(..., "
                    "as_node='__copy__'): a new head, no checkpoint edited, the old branch "
                    "kept for audit. --apply needs an approval of the repair result in the "
                    "approvals log and records the fork next to it. See docs/import.md.")
    p.add_argument("case", metavar="CASE.json", help="the imported case (its plan names the "
                   "poisoned texts)")
    p.add_argument("--graph", metavar="MODULE:FUNCTION", required=True,
                   help="a function returning the agent's compiled LangGraph graph, with the "
                        "checkpointer that keeps its threads (a synchronous one)")
    p.add_argument("--thread", metavar="ID", required=True, help="the thread id to repair")
    p.add_argument("--result", metavar="RESULT.json", default=None,
                   help="the approved repair result (dgrr repair --json); required with "
                        "--apply, to find its approval")
    p.add_argument("--apply", action="store_true",
                   help="fork the thread (default: only show where it would be forked)")
    p.add_argument("--reviewer", default=None,
                   help="who forks (recorded in the approvals log; required with --apply)")
    p.add_argument("--db", default=None,
                   help="approvals database URL or SQLite file (default: $DGRR_DB, else "
                        "~/.dgrr/approvals.db)")
    p.set_defaults(func=run)


def _graph(spec: str) -> Any:
    module_name, _, func = spec.partition(":")
    if not module_name or not func:
        raise DgrrError(f"--graph: expected MODULE:FUNCTION returning a compiled graph, "
                        f"got {spec!r}")
    if os.getcwd() not in sys.path:  # as `python -m` would: the user's own modules
        sys.path.insert(0, os.getcwd())
    try:
        factory = getattr(importlib.import_module(module_name), func)
    except (ImportError, AttributeError) as exc:
        raise DgrrError(f"--graph: cannot load {spec!r}: {exc}") from None
    graph = factory()
    if not hasattr(graph, "get_state_history") or not hasattr(graph, "update_state"):
        raise DgrrError(f"--graph: {spec!r} returned {type(graph).__name__}, not a compiled "
                        "LangGraph graph")
    return graph


def run(args: argparse.Namespace) -> int:
    from ..integrations.langgraph_threads import poisoned_texts

    case = load_case(args.case)
    texts = poisoned_texts(case)
    if not texts:
        raise DgrrError(f"{args.case}: the plan names no poisoned text to look for")
    graph = _graph(args.graph)
    config = {"configurable": {"thread_id": args.thread}}
    approval, store = _approval(args, case) if args.apply else (None, None)
    try:
        return _fork(args, graph, config, texts, approval, store)
    finally:
        if store is not None:
            store.close()


def _fork(args: argparse.Namespace, graph: Any, config: dict[str, Any], texts: list[str],
          approval: Any, store: Any) -> int:
    from ..integrations.langgraph_threads import fork_thread, plan_fork

    try:
        fork = plan_fork(graph, config, texts)
    except DgrrError:
        raise
    except Exception as exc:  # the checkpointer's own error (e.g. an async one)
        raise DgrrError(f"--graph: reading thread {args.thread!r} failed: "
                        f"{type(exc).__name__}: {exc}") from None
    if fork is None:
        print(f"thread {args.thread!r}: no checkpoint holds a poisoned text "
              f"({plural(len(texts), 'text')} looked for): nothing to fork")
        return 0
    print(f"thread {args.thread!r}: head {printable(fork.head)}")
    print(f"  poison first in checkpoint {printable(fork.first_poisoned)}: "
          + "; ".join(repr(t if len(t) <= 60 else t[:59] + "…") for t in fork.found))
    print(f"  fork from checkpoint {printable(fork.fork_from)} "
          f"(next: {printable(', '.join(fork.next)) or 'none'})")
    print(f"  {plural(len(fork.dropped), 'message')} of the head not in the fork:")
    for d in fork.dropped:
        text = d["text"] if len(d["text"]) <= 70 else d["text"][:69] + "…"
        print(f"    {d['type']:<6} {text!r}")
    if approval is None:
        print("dry run: nothing written (add --apply to fork)")
        return 0
    done = fork_thread(graph, config, texts)
    if done is None or done.fork is None or done.fork_from != fork.fork_from:
        raise DgrrError(f"thread {args.thread!r} changed while forking; nothing recorded")
    from ..approvals import sha256_json
    from ..integrations.langgraph_threads import FORK_TARGET

    record = done.as_dict()
    event = store.record_applied(approval.id, reviewer=args.reviewer,
                                 target=f"{FORK_TARGET}{args.thread}",
                                 outputs_sha256=sha256_json(record),
                                 comment=json.dumps(record, ensure_ascii=False))
    print(f"forked: new head {printable(done.fork)}; the old head {printable(done.head)} "
          "stays in the thread's "
          "history")
    print(f"recorded as #{event.id} next to approval #{approval.id}")
    return 0


def _approval(args: argparse.Namespace, case: Any) -> tuple[Any, Any]:
    """The approval of `--result` for this case (refused without one), and the open log."""
    from ..approvals import ApprovalStore, approval_hashes
    from ..integrations._target import approval_of_result as find_approval

    if not args.result:
        raise DgrrError("--result: the approved repair result is required with --apply")
    if not args.reviewer or not args.reviewer.strip():
        raise DgrrError("--reviewer: who forks the thread is required with --apply")
    result = read_json(args.result, "RESULT")
    if not isinstance(result, dict):
        raise DgrrError(f"RESULT: expected a JSON object, got {type(result).__name__}")
    store = ApprovalStore(args.db)
    approval = find_approval(store, case, result, approval_hashes)
    if approval is None:
        store.close()
        raise DgrrError("refused: this result has no approval in the approvals log "
                        "(dgrr approve CASE --result RESULT); nothing written")
    return approval, store
