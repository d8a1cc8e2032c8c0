"""Many agents' stores for the queue's load test: `queue_load_store:agent_N` (a write-back
target, `MODULE:FUNCTION` as `dgrr worker` takes it) opens agent N's LangGraph SqliteStore,
`$DGRR_LOAD_STORES/N.db` — each agent a copy of one real run's store, taken after the run
(so every request is checked against, and written back to, a store of its own)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

PREFIX = "agent_"


def store_path(n: int) -> Path:
    return Path(os.environ["DGRR_LOAD_STORES"]) / f"{n}.db"


def __getattr__(name: str) -> Callable[[], Any]:
    number = name.removeprefix(PREFIX)
    if not name.startswith(PREFIX) or not number.isdigit():
        raise AttributeError(name)

    def open_agent_store() -> Any:
        from queue_agent import open_store

        return open_store(str(store_path(int(number))))

    return open_agent_store
