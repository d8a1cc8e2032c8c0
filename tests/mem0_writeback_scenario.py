"""One approved Mem0 write-back and what the agent can read after it, as JSON; run in
process (mem0ai 0.1.x, the test environment) and in a second venv with mem0ai 2.x by
tests/test_writeback_mem0_scopes.py.

    python tests/mem0_writeback_scenario.py FOLDER   # prints the JSON report

The store (offline: scripts/mem0_travel_store.py's hash embedder, no LLM): memories
scoped by user, agent and run ids with metadata; the seat preference added as "aisle"
then updated to the poisoned "window". The repair deletes the poisoned seat, restores
"aisle" as a version of it, and quarantines a derived habit (all three scope ids) and a
note kept only under the agent's id.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCOPE = {"user_id": "lin", "agent_id": "travel-bot", "run_id": "trip-42"}
AISLE, WINDOW = "Lin prefers aisle seats.", "Lin prefers window seats."
HABIT = "Lin books window seats on long-haul flights."
NOTE = "Travel-bot note: always pick window seats for Lin."
HOME = "Lin lives in San Francisco."
SCOPES = [{"user_id": "lin"}, {"agent_id": "travel-bot"}, {"run_id": "trip-42"},
          {"user_id": "lin", "agent_id": "travel-bot"}, dict(SCOPE)]


def make_memory(folder: str | Path) -> Any:
    """scripts/mem0_travel_store.py's offline Memory (that module needs the OTel extra,
    which the mem0ai 2.x venv does not have)."""
    import hashlib

    from mem0 import Memory

    class HashEmbedder:
        def __init__(self, config: Any) -> None:
            self.config = config

        def embed(self, text: Any, memory_action: Any = None) -> list[float]:
            return [b / 255 for b in hashlib.sha256(str(text).encode()).digest()[:16]]

    class NoLLM:
        def generate_response(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the offline Mem0 store must not call an LLM")

    folder = Path(folder)
    memory = Memory.from_config({
        "vector_store": {"provider": "qdrant", "config": {
            "path": str(folder / "qdrant"), "on_disk": True, "collection_name": "travel",
            "embedding_model_dims": 16}},
        "history_db_path": str(folder / "history.db"),
        "llm": {"provider": "openai", "config": {"api_key": "offline"}},
        "embedder": {"provider": "openai", "config": {"api_key": "offline",
                                                      "embedding_dims": 16}}})
    telemetry_store = getattr(memory, "_telemetry_vector_store", None)
    if telemetry_store is not None:
        telemetry_store.client.close()
    memory.embedding_model = HashEmbedder(memory.embedding_model.config)
    memory.llm = NoLLM()
    return memory


def run(folder: str | Path) -> dict[str, Any]:
    import mem0

    from repair_core.integrations import StoreOp
    from repair_core.integrations.mem0 import (
        QUARANTINE_USER,
        apply_mem0,
        close_mem0,
        mem0_get_all,
        mem0_search,
    )

    memory = make_memory(folder)
    try:
        def add(text: str, **scope: str) -> str:
            got = memory.add(text, infer=False, metadata={"category": "travel"}, **scope)
            return str(got["results"][0]["id"])

        ids = {"seat": add(AISLE, **SCOPE), "habit": add(HABIT, **SCOPE),
               "note": add(NOTE, agent_id="travel-bot"), "home": add(HOME, **SCOPE)}
        if "text" in __import__("inspect").signature(memory.update).parameters:
            memory.update(ids["seat"], text=WINDOW)
        else:
            memory.update(ids["seat"], WINDOW)
        seen = {k: memory.get(v) for k, v in ids.items()}
        ops = [StoreOp(op="delete", record=ids["seat"], text=WINDOW, memory_id=ids["seat"],
                       expect_text=WINDOW, expect_changed_at=seen["seat"]["updated_at"]),
               StoreOp(op="quarantine", record=ids["habit"], text=HABIT,
                       memory_id=ids["habit"], expect_text=HABIT),
               StoreOp(op="quarantine", record=ids["note"], text=NOTE, memory_id=ids["note"],
                       expect_text=NOTE),
               StoreOp(op="restore", record=ids["seat"] + "@1", text=AISLE,
                       memory_id=ids["seat"])]
        # the note is the agent's, not scoped to Lin: the approval acknowledges it
        approval = SimpleNamespace(id=1, decision="approve", kind="decision", case_id="c",
                                   acknowledged=["other-owner:" + ids["note"]])
        done = apply_mem0(memory, ops, user="lin", case_id="c", approval=approval)
        restored = next(d["mem0_id"] for d in done if d["op"] == "restore")
        reach = []
        for scope in SCOPES:
            for query in ("window seats", "travel seat preference", NOTE):
                reach += [h["memory"] for h in mem0_search(memory, query, **scope)]
            reach += [h["memory"] for h in mem0_get_all(memory, **scope)]
        return {
            "mem0": mem0.__version__ if hasattr(mem0, "__version__") else "?",
            "ids": ids, "restored_id": restored, "reachable": reach,
            "restored": memory.get(restored), "seen": seen,
            "quarantine_listing": [h["memory"] for h in
                                   mem0_get_all(memory, user_id=QUARANTINE_USER)],
            "history": {k: [(r["event"], r["old_memory"], r["new_memory"])
                            for r in memory.history(v)]
                        for k, v in {**ids, "restored": restored}.items()},
        }
    finally:
        close_mem0(memory)


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1]), default=str))
