"""A Mem0 agent's memory as a write-back target for the queue tests (`MODULE:FUNCTION`, as
`dgrr worker` and `dgrr apply --store` take it): scripts/mem0_travel_store.py's offline
`Memory` (mem0ai, local Qdrant, hash embedder, no LLM) in the folder $DGRR_MEM0_STORE."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))


def open_memory() -> Any:
    """The agent's Mem0 `Memory`."""
    from mem0_travel_store import make_memory

    return make_memory(os.environ["DGRR_MEM0_STORE"])


def open_memory_killed_at_write() -> Any:
    """The agent's memory, but the process is killed (SIGKILL) before the Nth write to its
    vector store (insert, update or delete), N from $DGRR_KILL_AT_WRITE (0: never): a
    worker dying in the middle of a write-back."""
    memory = open_memory()
    store = memory.vector_store
    at, writes = int(os.environ["DGRR_KILL_AT_WRITE"]), [0]

    def killing(write: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            writes[0] += 1
            if writes[0] == at:
                os.kill(os.getpid(), signal.SIGKILL)
            return write(*args, **kwargs)
        return wrapped

    for name in ("insert", "update", "delete"):
        setattr(store, name, killing(getattr(store, name)))
    return memory
