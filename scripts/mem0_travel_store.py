"""A real Mem0 store (`mem0ai`, offline) for the travel run of otel_travel_run.py, and
that run traced against it. Used by tests/test_import_mem0.py and docs/import.md.

Offline: `MEM0_TELEMETRY=False` (set before mem0 is imported), a local Qdrant path, and
after construction a hash embedder and a fake LLM swapped in (the store is only written
with `infer=False`, `update` and `delete`, so the LLM is never asked; the fake one fails
loudly if it is). The seat preference is added as "aisle" and then UPDATEd to "window":
the poisoned update whose current text is the fault.

    python3 scripts/mem0_travel_store.py OUTDIR
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ["MEM0_TELEMETRY"] = "False"
# Mem0 opens a second local Qdrant (for telemetry) under MEM0_DIR (default ~/.mem0) with
# every Memory: keep it out of the home folder and private to this process
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))

sys.path.insert(0, str(Path(__file__).resolve().parent))


DIMS = 16


class HashEmbedder:
    """A deterministic embedding from sha256 (no model, no network)."""

    def __init__(self, config) -> None:
        self.config = config  # mem0 reads config.embedding_dims for its own bookkeeping

    def embed(self, text, memory_action=None):
        digest = hashlib.sha256(str(text).encode("utf-8")).digest()
        return [b / 255 for b in digest[:DIMS]]


class NoLLM:
    """Stands in for the LLM: the store is written without inference."""

    def generate_response(self, *args, **kwargs):
        raise AssertionError("the offline Mem0 store must not call an LLM")


def make_memory(folder: str | Path):
    """A Mem0 `Memory` on a local Qdrant path and a history database in `folder`."""
    from mem0 import Memory

    folder = Path(folder)
    config = {
        "vector_store": {"provider": "qdrant", "config": {
            "path": str(folder / "qdrant"), "on_disk": True, "collection_name": "travel",
            "embedding_model_dims": DIMS}},
        "history_db_path": str(folder / "history.db"),
        "llm": {"provider": "openai", "config": {"api_key": "offline"}},
        "embedder": {"provider": "openai", "config": {"api_key": "offline",
                                                      "embedding_dims": DIMS}},
    }
    memory = Memory.from_config(config)
    telemetry_store = getattr(memory, "_telemetry_vector_store", None)
    if telemetry_store is not None:  # unused with telemetry off; it would hold a lock
        telemetry_store.client.close()
    memory.embedding_model = HashEmbedder(memory.embedding_model.config)
    memory.llm = NoLLM()
    return memory


def fill(memory, user: str = "lin") -> dict[str, str]:
    """Write the travel store; returns name (m2..m5) -> Mem0 memory id. m3 is first added
    as the true "aisle" preference, then updated to the poisoned "window"."""
    from otel_travel_run import STORE

    ids = {}
    for name in ("m2", "m3", "m4", "m5"):
        text = "Lin prefers aisle seats." if name == "m3" else STORE[name]
        ids[name] = memory.add(text, user_id=user, infer=False)["results"][0]["id"]
    memory.update(ids["m3"], STORE["m3"])
    return ids


def build(outdir: str | Path) -> tuple[dict[str, str], Path, Path, Path]:
    """Fill a Mem0 store in `outdir`, run the traced agent against it (the record it
    learns is added to Mem0 too); returns (ids incl. m6, history.db, hex trace, b64 trace)."""
    from otel_travel_run import write_both

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    memory = make_memory(out)
    ids = fill(memory)

    def write(text: str) -> str:
        ids["m6"] = memory.add(text, user_id="lin", infer=False)["results"][0]["id"]
        return ids["m6"]

    hex_path, b64_path = write_both(out, stem="mem0-travel", ids=ids, write=write)
    memory.vector_store.client.close()
    return ids, out / "history.db", hex_path, b64_path


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "sample_imports/mem0")
    shutil.rmtree(target / "qdrant", ignore_errors=True)
    (target / "history.db").unlink(missing_ok=True)
    ids, db, hex_path, b64_path = build(target)
    shutil.rmtree(target / "qdrant", ignore_errors=True)
    (target / "ids.json").write_text(json.dumps(ids, indent=1, sort_keys=True) + "\n")
    for name, mid in sorted(ids.items()):
        print(name, mid)
    print(db, hex_path, b64_path, sep="\n")
