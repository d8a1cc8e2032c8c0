"""Inputs of the baseline stages (audit, judge) built from a case: what each baseline
is shown, and nothing more (no provenance edges)."""

from __future__ import annotations

from typing import Any

from ..case._case import Case, MemoryRecord

__all__ = ["audit_inputs", "judge_inputs"]


def _record(m: MemoryRecord, position: int) -> dict[str, Any]:
    return {"id": m.id, "kind": "record", "user_id": m.user_id, "text": m.text, "key": m.key,
            "value": m.value, "trust": m.trust, "position": position}


def audit_inputs(case: Case, record_id: str) -> dict[str, Any]:
    """The audit of one active record against the rest of the active store."""
    active = [m for m in case.memory if m.status == "active"]
    items = [_record(m, i) for i, m in enumerate(active)]
    record = next(item for item in items if item["id"] == record_id)
    return {"user_id": case.user_id, "record": record,
            "store": [item for item in items if item["id"] != record_id]}


def judge_inputs(case: Case) -> dict[str, Any]:
    """The failed run's text, the active memory and the diagnosed faults."""
    by_id = {m.id: m for m in case.memory}
    steps = []
    for s in case.steps_in_order():
        item: dict[str, Any] = {"id": s.id, "type": s.type, "text": s.text}
        if s.type == "memory_read":
            item["returned"] = list(getattr(s, "returned", []))
        steps.append(item)
    active = [m for m in case.memory if m.status == "active"]
    return {"user_id": case.user_id,
            "faults": [_record(by_id[f], 0) for f in case.faults if f in by_id],
            "trajectory": steps,
            "memory": [_record(m, i) for i, m in enumerate(active)]}
