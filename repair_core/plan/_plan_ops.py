"""A plan as ordered operations an external runtime can execute (docs/replay-api.md).

`plan_ops(plan)` turns a `RepairPlan` into the list `dgrr plan --ops` prints and the plan
JSON carries; `ops_inputs(case, ops)` turns such a list back into what the executor needs.
`repair` runs from `plan_ops(plan)` and nothing else, so dgrr's own executor and an
external runtime consume one contract. The operations themselves are `_ops`; this module
sits above the plan's types (`_plan`), which import only those.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from .._errors import DgrrError
from ..case._case import Case
from ..graph._graph import premises
from ._ops import (
    OPS_ADAPTER,
    Invalidate,
    NeedsHuman,
    Op,
    Quarantine,
    Replay,
    Restore,
    Revoke,
    Suspect,
)
from ._plan import PlanReport, RepairPlan

__all__ = ["plan_ops", "ops_inputs", "read_ops", "plan_schema", "cleaned_inputs", "OpsInputs",
           "UncheckedOps"]


def plan_schema() -> dict[str, Any]:
    """The JSON Schema of the plan JSON (`dgrr plan --json [--ops]`), committed as
    schemas/plan.schema.json."""
    schema = PlanReport.model_json_schema(mode="serialization")
    # `objective` and `ops` are left out of an answer plan's JSON: not required
    schema["required"] = [k for k in schema.get("required", []) if k not in ("objective", "ops")]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://dgrr.invalid/schemas/plan.schema.json",
            "title": "dgrr plan report", **schema}


def cleaned_inputs(plan: RepairPlan) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Each replayed step -> (inputs it no longer sees, inputs replaced by a replayed
    step's new output)."""
    a = plan.analysis
    G = a.graph
    replay = plan.replay_set
    removed = {m for m, d in plan.memory.items() if d in ("delete", "quarantine")}
    invalid = {s for s, d in plan.steps.items() if d == "invalidate"}
    out: dict[str, tuple[list[str], dict[str, str]]] = {}
    for sid in plan.replay_order():
        drop: list[str] = []
        replace: dict[str, str] = {}
        for p in sorted({p for p, _lb, _ in premises(G, sid)}):
            if p in replay:
                replace[p] = p
            elif p in removed:
                redo = sorted(q for q in a.producers(p) if q in replay)
                if redo and p not in a.faults:
                    replace[p] = redo[0]
                else:
                    drop.append(p)
            elif p in a.faults or p in invalid:
                drop.append(p)
        out[sid] = (drop, replace)
    return out


def plan_ops(plan: RepairPlan) -> list[Op]:
    """The plan as ordered operations: the suspects found by content, then store edits
    (revoke, quarantine, restore), then invalidations and effects needing a human, then
    replays in trajectory order. A suspected source the plan cleans is revoked after the
    diagnosed faults."""
    case, a = plan.case, plan.analysis
    reasons = plan.reasons
    kinds = {t.id: "turn" for t in case.session}
    kinds.update((s.id, "step") for s in case.trajectory)
    ops: list[Op] = [Suspect(id=s.id, kind=s.kind, role=s.role, fault=s.fault, action=s.action,
                             evidence=s.evidence) for s in plan.suspected]
    sources = [s.id for s in plan.suspected if s.action == "clean"]
    for f in [*case.faults, *sources]:
        if kinds.get(f) is not None:
            ops.append(Revoke(id=f, kind=kinds[f],  # type: ignore[arg-type]
                              reason=reasons.get(f, "diagnosed fault")))
    for rid, action in plan.memory.items():
        why = reasons.get(rid, "")
        if action == "delete":
            ops.append(Revoke(id=rid, kind="record", reason=why))
        elif action == "quarantine":
            ops.append(Quarantine(record=rid, reason=why))
        elif action == "restore":
            ops.append(Restore(record=rid, version=rid, reason=why))
    tools = {t.name: t.effect for t in case.tools}
    for s in case.steps_in_order():
        if plan.steps.get(s.id) == "invalidate" and s.id not in a.faults:
            ops.append(Invalidate(step=s.id, reason=reasons.get(s.id, "")))
    for s in case.steps_in_order():
        if (s.type == "tool_action" and s.status == "ok" and s.id in a.unsupported
                and tools.get(getattr(s, "tool", "") or "", "irreversible") == "irreversible"):
            ops.append(NeedsHuman(step=s.id, reason=(
                f"tool '{getattr(s, 'tool', '')}' is irreversible (or undeclared): its call in "
                "the failed run cannot be undone or re-issued")))
    cleaned = cleaned_inputs(plan)
    for sid in plan.replay_order():
        drop, replace = cleaned[sid]
        ops.append(Replay(step=sid, refresh=plan.steps.get(sid) == "refresh", drop=drop,
                          replace=replace, reason=reasons.get(sid, "")))
    return ops


@dataclass(frozen=True)
class OpsInputs:
    """What the executor needs, read from an operation list."""

    store_edits: dict[str, str]
    replay: list[str]
    invalidated: list[str]
    revoked: list[str]
    answer: bool
    """The final answer is regenerated (a store-objective plan leaves past answers)."""
    no_longer_sees: dict[str, list[str]]


def ops_inputs(case: Case, ops: Iterable[Op | Mapping[str, Any]]) -> OpsInputs:
    """Read an operation list (models or their JSON) for `case`, checking every id."""
    return read_ops(ops).checked(case)


_KINDS = ("record", "step", "turn")
"""The kinds of id an operation names, by their number in `UncheckedOps`."""
_UNKNOWN = (*(f"ops[{{}}].id: not a {kind} of the case '{{}}'" for kind in _KINDS),
            "ops[{}].record: unknown record '{}'", "ops[{}].step: unknown step '{}'")
"""What an unknown id is called, by how its operation names it: a revoked or suspected
record, step or turn (0-2), a quarantined or restored record (3), a step (4)."""


@dataclass(frozen=True)
class UncheckedOps:
    """An operation list read into what the executor needs, its ids not yet checked
    against a case: what a repair keeps of a plan report while the case is read, so
    the report can go first (`read_ops`, `checked`)."""

    store_edits: dict[str, str]
    """Record -> delete, quarantine or restore."""
    replay: list[str]
    """The steps replayed, in the list's order."""
    invalidated: list[str]
    """The steps invalidated (revoked steps among them)."""
    revoked: list[str]
    """The revoked records, steps and turns."""
    no_longer_sees: dict[str, list[str]]
    """Replayed step -> the recorded inputs it drops."""
    named: list[str]
    """The id each operation names, in list order."""
    named_as: bytes
    """How each operation names its id (a number of `_UNKNOWN`)."""
    problems: list[tuple[int, str]]
    """What is wrong whatever the case (operation number, text)."""

    def checked(self, case: Case) -> OpsInputs:
        """The inputs for `case`, every named id checked against it."""
        records = {m.id for m in case.memory}
        steps = {s.id for s in case.trajectory}
        turns = {t.id for t in case.session}
        known = (records, steps, turns, records, steps)
        # an unknown id is told before what else is wrong with the same operation
        problems = [(i, 0, _UNKNOWN[how].format(i, rid))
                    for i, (rid, how) in enumerate(zip(self.named, self.named_as, strict=True))
                    if rid not in known[how]]
        problems += [(i, 1, text) for i, text in self.problems]
        if problems:
            raise DgrrError("invalid operations: " + "; ".join(t for _, _, t in sorted(problems)))
        # a case without steps (case.store-only) has no answer to regenerate
        final = case.final_answer().id if case.has_answer() else None
        return OpsInputs(store_edits=self.store_edits, replay=self.replay,
                         invalidated=self.invalidated, revoked=self.revoked,
                         answer=final is not None and final in self.replay,
                         no_longer_sees=self.no_longer_sees)


def read_ops(ops: Iterable[Op | Mapping[str, Any]]) -> UncheckedOps:
    """Read an operation list (models or their JSON), without a case: `checked` checks
    its ids."""
    parsed = OPS_ADAPTER.validate_python([o.model_dump() if isinstance(o, BaseModel) else o
                                          for o in ops])
    edits: dict[str, str] = {}
    replay: list[str] = []
    invalid: list[str] = []
    revoked: list[str] = []
    sees: dict[str, list[str]] = {}
    named: list[str] = []
    named_as = bytearray()
    problems: list[tuple[int, str]] = []
    for i, op in enumerate(parsed):
        if isinstance(op, Revoke):
            named.append(op.id)
            named_as.append(_KINDS.index(op.kind))
            revoked.append(op.id)
            if op.kind == "record":
                edits[op.id] = "delete"
            elif op.kind == "step":
                invalid.append(op.id)
        elif isinstance(op, Suspect):
            named.append(op.id)
            named_as.append(_KINDS.index(op.kind))
        elif isinstance(op, Quarantine | Restore):
            named.append(op.record)
            named_as.append(3)
            if isinstance(op, Restore) and op.version != op.record:
                problems.append((i, f"ops[{i}].version: only the record's own version "
                                    f"'{op.record}' can be restored, not '{op.version}'"))
            edits[op.record] = op.op
        elif isinstance(op, Invalidate | Replay | NeedsHuman):
            named.append(op.step)
            named_as.append(4)
            if isinstance(op, Invalidate):
                invalid.append(op.step)
            elif isinstance(op, Replay):
                replay.append(op.step)
                if op.drop:
                    sees[op.step] = list(op.drop)
    return UncheckedOps(store_edits=edits, replay=replay, invalidated=invalid, revoked=revoked,
                        no_longer_sees=sees, named=named, named_as=bytes(named_as),
                        problems=problems)
