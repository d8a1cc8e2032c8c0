"""A LangGraph agent process for the queue tests (run as its own process):

    python tests/queue_agent.py run STORE_DB OUT_DIR QUEUE_DB [TARGET]
        runs scripts/langgraph_travel_run.py's real graph once against LangGraph's
        SqliteStore at STORE_DB (traced: OTel SDK + OpenInference + dgrr's traced_store),
        imports its trace, and submits the poisoned seat record to the review queue at
        QUEUE_DB with the store as the write-back target; prints the request id.
    python tests/queue_agent.py next-turn STORE_DB
        the agent's next turn's memory read (its own `recall` search) as a JSON list of texts.

The write-back target is `queue_agent:open_store`, which opens the SqliteStore named by
$DGRR_AGENT_STORE: `dgrr worker` loads it the way `dgrr apply --store` loads any factory.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))


def open_store(path: str | None = None) -> Any:
    """LangGraph's SqliteStore at `path` (default: $DGRR_AGENT_STORE), set up."""
    from langgraph.store.sqlite import SqliteStore

    conn = sqlite3.connect(path or os.environ["DGRR_AGENT_STORE"], check_same_thread=False,
                           isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    return store


def open_store_killed_at_write() -> Any:
    """The agent's store, but the process is killed (SIGKILL) before its Nth write, N from
    $DGRR_KILL_AT_WRITE: a worker dying in the middle of a write-back."""
    import signal

    from langgraph.store.base import BaseStore, PutOp

    class Killing(BaseStore):
        def __init__(self, inner: Any, at: int) -> None:
            self.inner, self.at, self.writes = inner, at, 0

        def batch(self, ops: Any) -> Any:
            ops = list(ops)
            for op in ops:
                if isinstance(op, PutOp):
                    self.writes += 1
                    if self.writes == self.at:
                        os.kill(os.getpid(), signal.SIGKILL)
            return self.inner.batch(ops)

        async def abatch(self, ops: Any) -> Any:
            return self.batch(ops)

    return Killing(open_store(), int(os.environ["DGRR_KILL_AT_WRITE"]))


def run(store_db: str, out_dir: str, queue_db: str, target: str = "queue_agent:open_store"
        ) -> int:
    from langgraph_travel_run import NAMESPACE
    from langgraph_travel_run import run as run_graph

    from repair_core.importers import import_trace
    from repair_core.integrations.langgraph import record_id
    from repair_core.queue import submit

    path, _ = run_graph(out_dir, inner=open_store(store_db))
    seat = record_id(NAMESPACE, "seat")
    case = import_trace([path], faults=[seat]).case
    request = submit(case, [seat], diagnosed_by="seat-detector", agent="travel-agent",
                     objective="store", db=queue_db, source=path.name,
                     store_target={"to": "langgraph", "store": target})
    print(request.id)
    return 0


def next_turn(store_db: str) -> int:
    from langgraph_travel_run import NAMESPACE, RECALL_QUERY

    store = open_store(store_db)
    hits = store.search(NAMESPACE, query=RECALL_QUERY)
    print(json.dumps({"recall": [h.value.get("text") for h in hits],
                      "prefix": [i.value.get("text") for i in store.search(("lin",))],
                      # every item of every namespace (root prefix), and every namespace
                      "root": [str(i.value) for i in store.search((), limit=10_000)]
                      + [str(ns) for ns in store.list_namespaces(limit=10_000)]}))
    return 0


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    sys.exit(run(*rest) if command == "run" else next_turn(*rest))
