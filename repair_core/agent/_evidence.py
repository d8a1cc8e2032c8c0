"""Evidence items: how records, claims and observations appear in prompts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..case._case import Claim, MemoryRecord, ToolObservation, Turn

__all__ = ["record_item", "claim_item", "observation_item", "request_item", "ordered"]


def request_item(turn: Turn, earlier: Iterable[Turn] = ()) -> dict[str, Any]:
    """The current user turn; with `earlier`, the conversation's earlier user turns too
    (oldest first), which a policy may read and cite by id."""
    item: dict[str, Any] = {"id": turn.id, "kind": "request", "text": turn.text}
    before = [{"id": t.id, "text": t.text} for t in earlier if t.seq < turn.seq]
    if before:
        item["earlier"] = before
    return item


def record_item(rec: MemoryRecord) -> dict[str, Any]:
    return {"id": rec.id, "kind": "record", "user_id": rec.user_id, "text": rec.text,
            "key": rec.key, "value": rec.value, "created_seq": rec.created_seq}


def claim_item(step: Claim) -> dict[str, Any]:
    return {"id": step.id, "kind": "claim", "seq": step.seq, "text": step.text, "key": step.key,
            "value": step.value, "verified": step.verified}


def observation_item(step: ToolObservation, tool: str | None) -> dict[str, Any]:
    return {"id": step.id, "kind": "observation", "seq": step.seq, "tool": tool,
            "text": step.text, "output": step.output}


def ordered(items: Iterable[dict[str, Any]], store_order: dict[str, int]) -> list[dict[str, Any]]:
    """Oldest first, without duplicates: records that predate the execution in store order,
    then everything else by the seq that created it."""
    seen: dict[str, dict[str, Any]] = {}
    for item in items:
        seen.setdefault(item["id"], item)

    def when(item: dict[str, Any]) -> tuple[int, int]:
        if item["kind"] == "record":
            created = item.get("created_seq")
            return (-1 if created is None else created, store_order.get(item["id"], 0))
        return (item.get("seq", 0), 0)

    return sorted(seen.values(), key=when)
