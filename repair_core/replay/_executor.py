"""Stage 4: selective replay of a planned repair, and stage 5's outputs.

Reads re-query the repaired store; a step whose old output is invalidated (or being
replayed) never contributes it to a prompt; writes are applied only while still supported
and never re-admit a diagnosed fault; tools are re-issued only through their declared
effect; the final answer is always regenerated.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._case import (
    Answer,
    Case,
    Claim,
    Dep,
    MemoryRead,
    MemoryRecord,
    MemoryWrite,
    Plan,
    Step,
    ToolAction,
    ToolObservation,
    Turn,
)
from .._errors import DgrrError, ModelError
from .._load import case_from_data
from .._plan import RepairPlan, plan_case
from ..agent._evidence import (
    claim_item,
    observation_item,
    ordered,
    record_item,
    request_item,
)
from ..agent._store import LexicalRetriever, Retriever
from ..model import REFERENCE_MODEL, ModelClient
from ..tools import ToolError, ToolRegistry, default_registry
from ._models import (
    Cost,
    Decision,
    Failure,
    RepairedStore,
    RepairReport,
    RepairResult,
    SkippedWrite,
    StepOutcome,
    ToolNote,
)

__all__ = ["repair", "execute", "ProgressFn"]

ProgressFn = Callable[[int, int, str, Cost], None]


def repair(case: Case, plan: RepairPlan | None = None, *, model: str = REFERENCE_MODEL,
           api_base: str | None = None, observations: Mapping[str, Any] | None = None,
           on_progress: ProgressFn | None = None, tools: ToolRegistry | None = None,
           retriever: Retriever | None = None, client: ModelClient | None = None
           ) -> RepairResult:
    """Plan (unless given) and replay the repair of `case` (stages 4–5)."""
    plan = plan if plan is not None else plan_case(case)
    if plan.case.case_id != case.case_id:
        raise DgrrError(f"plan is for case {plan.case.case_id!r}, not {case.case_id!r}")
    case = plan.case
    invalidated = [s for s, a in plan.steps.items() if a == "invalidate"]
    decisions = _plan_decisions(plan)
    return execute(case, plan.memory, plan.replay_set, invalidated=invalidated, model=model,
                   api_base=api_base, observations=observations, on_progress=on_progress,
                   tools=tools, retriever=retriever, client=client, decisions=decisions)


def execute(case: Case, store_edits: Mapping[str, str], replay_ids: Iterable[str], *,
            invalidated: Iterable[str] = (), faults: Iterable[str] | None = None,
            model: str = REFERENCE_MODEL, api_base: str | None = None,
            observations: Mapping[str, Any] | None = None,
            on_progress: ProgressFn | None = None, tools: ToolRegistry | None = None,
            retriever: Retriever | None = None, client: ModelClient | None = None,
            decisions: Iterable[Decision] | Mapping[str, str] | None = None
            ) -> RepairResult:
    """Apply `store_edits` and replay `replay_ids` (plus the final answer) in trajectory
    order. The executor behind `repair`, usable for baselines and ablations."""
    actions = {s.id for s in case.trajectory if s.type == "tool_action"}
    wrong = sorted(set(observations or {}) - actions)
    if wrong:
        raise DgrrError("observations: not tool_action steps of case "
                        f"{case.case_id}: {', '.join(wrong)}")
    run = _Run(case, dict(store_edits), set(replay_ids), set(invalidated),
               set(case.faults if faults is None else faults),
               client or ModelClient(model, api_base), tools or default_registry(),
               retriever or LexicalRetriever(), dict(observations or {}), on_progress)
    if decisions is None or isinstance(decisions, Mapping):
        run.report.decisions = _edit_decisions(case, run.store_edits, run.replay, run.invalid,
                                               dict(decisions or {}))
    else:
        run.report.decisions = list(decisions)
    return run.execute()


def _plan_decisions(plan: RepairPlan) -> list[Decision]:
    out = [Decision(id=rid, kind="record", action=a,
                    reason=plan.reasons.get(rid, "unaffected: kept"))
           for rid, a in plan.memory.items()]
    out += [Decision(id=sid, kind="step", action=a,
                     reason=plan.reasons.get(sid, "unaffected: kept"))
            for sid, a in plan.steps.items()]
    return out


def _edit_decisions(case: Case, edits: dict[str, str], replay: set[str],
                    invalid: set[str], reasons: dict[str, str]) -> list[Decision]:
    out = [Decision(id=m.id, kind="record", action=edits.get(m.id, "keep"),
                    reason=reasons.get(m.id) or (
                        "given store edit" if m.id in edits else "no edit: kept"))
           for m in case.memory]
    for s in case.steps_in_order():
        action = ("refresh" if s.type == "tool_observation" else "replay") if s.id in replay \
            else "invalidate" if s.id in invalid else "keep"
        out.append(Decision(id=s.id, kind="step", action=action, reason=reasons.get(s.id) or (
            "given replay set" if action != "keep" else "not replayed")))
    return out


@dataclass
class _Pending:
    """A tool result waiting for its observation step."""

    output: Any
    text: str


@dataclass
class _Run:
    case: Case
    store_edits: dict[str, str]
    replay: set[str]
    invalid: set[str]
    faults: set[str]
    client: ModelClient
    tools: ToolRegistry
    retriever: Retriever
    observations: dict[str, Any]
    on_progress: ProgressFn | None
    report: RepairReport = field(init=False)
    records: dict[str, MemoryRecord] = field(init=False)
    new_steps: dict[str, Step] = field(init=False, default_factory=dict)
    pending: dict[str, _Pending] = field(init=False, default_factory=dict)
    record_marks: dict[str, str] = field(init=False, default_factory=dict)
    quarantined: list[str] = field(init=False, default_factory=list)
    _outcomes: dict[str, StepOutcome] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.report = RepairReport(case_id=self.case.case_id, model=self.client.model)
        self.steps = {s.id: s for s in self.case.trajectory}
        self.turns = {t.id: t for t in self.case.session}
        self.order = self.case.steps_in_order()
        self.final = self.case.final_answer().id
        self.replay = {s for s in self.replay if s in self.steps} | {self.final}
        # An observation is refreshed through its action, and a re-issued action
        # produces its observations anew: (observation, action) pairs, found once.
        produced = [(s.id, d.id) for s in self.order if s.type == "tool_observation"
                    for d in s.deps if d.label == "produce" and d.id in self.steps]
        self.replay |= {act for obs, act in produced if obs in self.replay}
        self.replay |= {obs for obs, act in produced
                        if act in self.replay and self.steps[act].type == "tool_action"}
        self.stale = self.replay | self.invalid
        self.declared = {t.name: t.effect for t in self.case.tools}
        self.calls0, self.tokens0 = self.client.calls, self.client.tokens
        self.failures0 = self.client.connection_failures
        self.store_order = {m.id: i for i, m in enumerate(self.case.memory)}
        self.taken = {m.id for m in self.case.memory} | set(self.steps) | set(self.turns)

    # ---- the run ---------------------------------------------------------------------

    def execute(self) -> RepairResult:
        self._edit_store()
        self.world = self.tools.new_world()
        self._rebuild_world()
        todo = [s for s in self.order if s.id in self.replay]
        for done, step in enumerate(todo, start=1):
            calls, tokens = self.client.calls, self.client.tokens
            self.client.tags = {"step": step.id}
            outcome = self._replay_step(step)
            outcome.llm_calls = self.client.calls - calls
            outcome.tokens = self.client.tokens - tokens
            self._outcomes[step.id] = outcome
            if self.on_progress is not None:
                self.on_progress(done, len(todo), step.id, self._cost())
        self.client.tags = {}
        return self._result()

    def _cost(self) -> Cost:
        n = len(self.case.trajectory)
        return Cost(llm_calls=self.client.calls - self.calls0,
                    connection_failures=self.client.connection_failures - self.failures0,
                    tokens=self.client.tokens - self.tokens0,
                    replay_ratio=round(len(self.replay) / n, 6) if n else 0.0)

    # ---- store -----------------------------------------------------------------------

    def _edit_store(self) -> None:
        self.records = {m.id: m.model_copy(deep=True) for m in self.case.memory}
        changes = self.report.store_changes
        for rid, action in self.store_edits.items():
            rec = self.records.get(rid)
            if rec is None:
                continue
            if action == "delete":
                if rec.status == "active":
                    rec.status = "deleted"
                self.record_marks[rid] = "deleted"
                changes.deleted.append(rid)
            elif action == "quarantine":
                self.record_marks[rid] = "quarantined"
                self.quarantined.append(rid)
                changes.quarantined.append(rid)
            elif action == "restore":
                rec.status = "active"
                self.record_marks[rid] = "restored"
                changes.restored.append(rid)

    def _active(self, rid: str) -> bool:
        rec = self.records.get(rid)
        return (rec is not None and rec.status == "active"
                and self.record_marks.get(rid) not in ("deleted", "quarantined"))

    def _active_records(self) -> list[MemoryRecord]:
        return [r for r in self.records.values() if self._active(r.id)]

    def _rebuild_world(self) -> None:
        """Put the simulated world in the state the failed run left it in."""
        for step in self.order:
            if (isinstance(step, ToolAction) and step.status == "ok" and step.tool in self.tools
                    and self.tools.get(step.tool).effect != "pure"):  # type: ignore[union-attr]
                with contextlib.suppress(ToolError):
                    self.tools.call(self.world, step.tool, step.args)

    # ---- evidence --------------------------------------------------------------------

    def _current(self, sid: str) -> Step | None:
        """The version of a step whose output may be used now, or None."""
        if sid in self.new_steps:
            return self.new_steps[sid]
        if sid in self.stale:
            return None
        return self.steps.get(sid)

    def _tool_of(self, obs: Step) -> str | None:
        for d in obs.deps:
            producer = self._current(d.id) or self.steps.get(d.id)
            if d.label == "produce" and isinstance(producer, ToolAction):
                return producer.tool
        return None

    def _evidence(self, step: Step) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        for d in step.deps:
            if d.id in self.records:
                if self._active(d.id):
                    items.append(record_item(self.records[d.id]))
                continue
            prem = self._current(d.id)
            if isinstance(prem, MemoryRead):
                items += [record_item(self.records[r]) for r in prem.returned if self._active(r)]
            elif isinstance(prem, Claim):
                items.append(claim_item(prem))
            elif isinstance(prem, ToolObservation) and prem.status == "ok":
                items.append(observation_item(prem, self._tool_of(prem)))
        return ordered(items, self.store_order)

    def _request(self, step: Step) -> dict[str, Any]:
        turn = self.turns.get(step.turn) or Turn(id=step.turn, seq=0, text="")
        return request_item(turn)

    def _deps_from(self, step: Step, cites: Iterable[str], support: str | None = None,
                   keep_labels: tuple[str, ...] = ("initiate",)) -> list[Dep]:
        deps = [Dep(id=d.id, label=d.label) for d in step.deps if d.label in keep_labels]
        seen = {d.id for d in deps}
        for d in step.deps:  # the reads the evidence came through
            prem = self._current(d.id)
            if isinstance(prem, MemoryRead) and d.id not in seen:
                deps.append(Dep(id=d.id, label="cite"))
                seen.add(d.id)
        for cid in cites:
            if cid in seen:
                continue
            seen.add(cid)
            if cid in self.turns:
                deps.append(Dep(id=cid, label="initiate"))
            else:
                deps.append(Dep(id=cid, label="cite", sufficient=(cid == support)))
        if support and support not in seen and support in self.turns:
            deps.append(Dep(id=support, label="support"))
        return deps

    # ---- replay by step type ---------------------------------------------------------

    def _replay_step(self, step: Step) -> StepOutcome:
        handler: Callable[[Any], StepOutcome] = {  # type: ignore[assignment]
            "memory_read": self._read, "claim": self._claim, "plan": self._plan,
            "tool_action": self._action, "tool_observation": self._observation,
            "answer": self._answer, "memory_write": self._write,
        }[step.type]
        try:
            return handler(step)
        except ModelError as exc:
            self.report.failures.append(Failure(step=step.id, stage=step.type, error=str(exc)))
            return StepOutcome(id=step.id, type=step.type, outcome="failed", detail=str(exc))

    def _replaced(self, step: Step, **update: Any) -> StepOutcome:
        new = step.model_copy(update=update, deep=True)
        self.new_steps[step.id] = new
        if step.type == "tool_observation":
            return StepOutcome(id=step.id, type=step.type, outcome="refreshed",
                               detail=_clip(new.text))
        return StepOutcome(id=step.id, type=step.type, outcome="replayed", detail=_clip(new.text))

    def _read(self, step: MemoryRead) -> StepOutcome:
        returned = self.retriever.retrieve(self._active_records(), step.query,
                                           self.case.user_id)
        deps = [Dep(id=d.id, label=d.label) for d in step.deps if d.label == "initiate"]
        deps += [Dep(id=r, label="cite") for r in returned]
        out = self._replaced(step, returned=returned, deps=deps)
        out.detail = f"returned {', '.join(returned) or 'nothing'}"
        return out

    def _claim(self, step: Claim) -> StepOutcome:
        inputs = {"user_id": self.case.user_id, "request": self._request(step),
                  "slot": step.key, "evidence": self._evidence(step)}
        out = self.client.complete_json("claim", inputs)
        return self._replaced(step, text=out.text, key=out.key if out.key is not None else step.key,
                              value=out.value, verified=False,
                              deps=self._deps_from(step, out.cites, out.support))

    def _registered(self, name: str, args: Mapping[str, Any]) -> bool:
        """The tool is registered with a signature that accepts the trace's arguments (a
        foreign trace may use a registered name for a different tool)."""
        spec = self.tools.get(name)
        return spec is not None and set(args) <= {p.name for p in spec.params}

    def _tool_description(self, name: str, old_args: Mapping[str, Any]) -> dict[str, Any]:
        spec = self.tools.get(name)
        if spec is not None and self._registered(name, old_args):
            return spec.describe()
        return {"name": name, "description": "(not registered)", "keywords": [],
                "params": [{"name": k, "required": True} for k in old_args]}

    def _plan(self, step: Plan) -> StepOutcome:
        inputs = {"user_id": self.case.user_id, "request": self._request(step),
                  "tools": [self._tool_description(step.tool, step.args)],
                  "tool_hint": step.tool, "done": [], "evidence": self._evidence(step)}
        out = self.client.complete_json("plan", inputs)
        tool = out.tool or step.tool
        return self._replaced(step, tool=tool, args=dict(out.args), text=out.text or step.text,
                              deps=self._deps_from(step, out.cites))

    def _action(self, step: ToolAction) -> StepOutcome:
        plan_id = next((d.id for d in step.deps if d.label == "produce"), None)
        tool, args = step.tool, dict(step.args)
        if plan_id is not None and plan_id in self.steps:
            plan = self._current(plan_id)
            if not isinstance(plan, Plan):
                return self._action_blocked(step, "skipped",
                                            f"its plan {plan_id} could not be regenerated")
            tool, args = plan.tool or tool, dict(plan.args)
        effect = self.declared.get(tool, "irreversible")
        note = ToolNote(step=step.id, tool=tool, args=args, reason="")
        if step.id in self.observations:
            supplied = self.observations[step.id]
            self.pending[step.id] = _Pending(supplied, _text_of(supplied))
            out = self._replaced(step, tool=tool, args=args)
            out.detail = "observation supplied by hand"
            return out
        if effect == "irreversible":
            note.reason = (f"{tool} is irreversible (or not declared): never replayed; the "
                           "earlier call's external effect stands and rollback cannot undo it")
            self.report.irreversible_effects.append(note)
            return self._action_blocked(step, "irreversible", note.reason)
        if not (self._registered(tool, step.args) and self._registered(tool, args)):
            what = ("is not registered" if tool not in self.tools else
                    "is registered with another signature than this trace's call")
            note.reason = (f"tool {tool} {what}: supply its observation for "
                           f"{step.id} by hand (the old observation is not reused)")
            self.report.needs_observation.append(note)
            return self._action_blocked(step, "needs_observation", note.reason)
        if effect in ("resettable", "compensable") and step.status == "ok":
            try:
                how = self.tools.undo(self.world, step.tool, step.args)
                self.report.resets.append(ToolNote(step=step.id, tool=step.tool,
                                                   args=dict(step.args), reason=how))
            except ToolError as exc:
                return self._action_failed(step, f"could not reset the earlier call: {exc}")
        try:
            result = self.tools.call(self.world, tool, args)
        except ToolError as exc:
            return self._action_failed(step, str(exc))
        self.pending[step.id] = _Pending(result.output, result.text)
        shown = ", ".join(f"{k}={v}" for k, v in args.items())
        return self._replaced(step, tool=tool, args=args, text=f"{tool}({shown})",
                              status="ok")

    def _action_blocked(self, step: ToolAction, outcome: Any, why: str) -> StepOutcome:
        return StepOutcome(id=step.id, type=step.type, outcome=outcome, detail=why)

    def _action_failed(self, step: ToolAction, why: str) -> StepOutcome:
        self.report.failures.append(Failure(step=step.id, stage="tool", error=why))
        return StepOutcome(id=step.id, type=step.type, outcome="failed", detail=why)

    def _observation(self, step: ToolObservation) -> StepOutcome:
        action = next((d.id for d in step.deps if d.label == "produce"), None)
        result = self.pending.get(action or "")
        if result is None:
            why = f"its action {action} was not re-issued: no observation, the old one is not reused"
            return StepOutcome(id=step.id, type=step.type, outcome="skipped", detail=why)
        return self._replaced(step, output=result.output, text=result.text, status="ok")

    def _answer(self, step: Answer) -> StepOutcome:
        inputs = {"user_id": self.case.user_id, "request": self._request(step),
                  "evidence": self._evidence(step)}
        out = self.client.complete_json("answer", inputs)
        return self._replaced(step, text=out.text, deps=self._deps_from(step, out.cites))

    # ---- writes ----------------------------------------------------------------------

    def _write(self, step: MemoryWrite) -> StepOutcome:
        produced = [r for r in step.target if r in self.records and any(
            d.id == step.id and d.label in ("produce", "update", "consolidate", "supersede")
            for d in self.records[r].deps)]
        retired = [r for r in step.target if r in self.records and any(
            d.id == step.id and d.label == "delete" for d in self.records[r].deps)]
        if step.op == "delete":
            retired = retired or list(step.target)
        elif not produced:
            produced = [r for r in step.target if r not in retired][:1]
        if step.op == "consolidate":
            new_records = self._consolidate(step, produced, retired)
        elif step.op == "delete":
            new_records = [] if self._still_justified(step) else None
        else:
            new_records = self._rewrite(step, produced)
        if new_records is None:
            return StepOutcome(id=step.id, type=step.type, outcome="skipped",
                               detail=self.report.skipped_writes[-1].reason)
        admitted = [self._admit(step, rec) for rec in new_records]
        added = [rid for rid in admitted if rid is not None]
        if step.op != "add" and (added or step.op == "delete"):
            for rid in retired or ([] if step.op == "consolidate" else produced):
                self._retire(step, rid, added)
        if not added and step.op != "delete":
            return StepOutcome(id=step.id, type=step.type, outcome="skipped",
                               detail=self.report.skipped_writes[-1].reason
                               if self.report.skipped_writes else "nothing to write")
        cites = sorted({c for rec in new_records for c in rec.get("cites", [])})
        derived = {rec["derive"] for rec in new_records if rec.get("derive")}
        deps = [Dep(id=d.id, label="derive") if d.id in derived else d
                for d in self._deps_from(step, cites)]
        out = self._replaced(step, target=[*added, *[r for r in retired if r not in added]],
                             deps=deps, status="ok",
                             text=f"{step.op}: " + " | ".join(
                                 self.records[r].text for r in added) if added else step.text)
        return out

    def _still_justified(self, step: MemoryWrite) -> bool:
        """A delete is re-applied only while one of its premises is still valid."""
        if self._evidence(step) or any(d.id in self.turns for d in step.deps):
            return True
        self.report.skipped_writes.append(SkippedWrite(
            step=step.id, text=step.text,
            reason="no longer supported: none of its premises is valid after the repair"))
        return False

    def _rewrite(self, step: MemoryWrite, produced: list[str]) -> list[dict[str, Any]] | None:
        slot = next((self.records[r].key for r in produced if self.records[r].key), None)
        evidence = self._evidence(step)
        if not evidence:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=step.text,
                reason="no longer supported: none of its premises is valid after the repair"))
            return None
        inputs = {"user_id": self.case.user_id, "request": self._request(step), "op": step.op,
                  "slot": slot, "evidence": evidence,
                  "memory": [record_item(r) for r in self._active_records()
                             if r.user_id == self.case.user_id]}
        out = self.client.complete_json("memory_write", inputs)
        records = []
        for rec in out.records:
            if not rec.cites and rec.derive is None:
                self.report.skipped_writes.append(SkippedWrite(
                    step=step.id, text=rec.text, reason="cites no evidence: not supported"))
                continue
            records.append({**rec.model_dump(), "base": produced[0] if produced else None})
        if not records and not out.records:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=step.text,
                reason="the repaired evidence no longer supports any record"))
        return records

    def _consolidate(self, step: MemoryWrite, produced: list[str], retired: list[str]
                     ) -> list[dict[str, Any]] | None:
        sources = [d.id for d in step.deps if d.id in self.records]
        sources += [r for r in retired if r not in sources]
        live = [self.records[r] for r in sources if self._active(r)]
        if not live:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=step.text, reason="no source record is active any more"))
            return None
        key = next((self.records[r].key for r in produced if self.records[r].key), None)
        items = ordered([record_item(r) for r in live], self.store_order)
        out = self.client.complete_json("consolidate", {"user_id": self.case.user_id,
                                                        "key": key, "records": items})
        return [{**out.model_dump(), "derive": None, "sources": list(out.cites),
                 "base": produced[0] if produced else None}]

    def _admit(self, step: MemoryWrite, rec: dict[str, Any]) -> str | None:
        clash = self._fault_twin(rec)
        if clash is not None:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=rec.get("text", ""),
                reason=f"equals diagnosed fault {clash}: never re-admitted"))
            return None
        rid = self._new_id(rec.get("base") or f"{step.id}.m")
        deps = [Dep(id=step.id, label="update" if step.op == "update" else "produce")]
        deps += [Dep(id=s, label="consolidate") for s in rec.get("sources", [])]
        self.records[rid] = MemoryRecord(id=rid, user_id=self.case.user_id, text=rec["text"],
                                         key=rec.get("key"), value=rec.get("value"),
                                         status="active", created_seq=step.seq, deps=deps)
        self.record_marks[rid] = "added"
        self.report.store_changes.added.append(rid)
        return rid

    def _fault_twin(self, rec: dict[str, Any]) -> str | None:
        text = " ".join(str(rec.get("text", "")).lower().split())
        for fid in sorted(self.faults):
            f = self.records.get(fid) or next((m for m in self.case.memory if m.id == fid), None)
            if f is None:
                continue
            if " ".join(f.text.lower().split()) == text:
                return fid
            if (f.key is not None and f.key == rec.get("key")
                    and _same(f.value, rec.get("value"))):
                return fid
        return None

    def _retire(self, step: MemoryWrite, rid: str, by: list[str]) -> None:
        """Retire `rid` as the original mutation did, a record the plan restored included:
        the restore made its content available to this replayed write, which now
        consolidates or replaces it again."""
        rec = self.records.get(rid)
        if rec is None or not self._active(rid):
            return
        restored = self.record_marks.get(rid) == "restored"
        rec.status = "superseded"
        if not any(d.id == step.id and d.label == "delete" for d in rec.deps):
            rec.deps = [*rec.deps, Dep(id=step.id, label="delete")]
        self.record_marks[rid] = "restored-then-retired" if restored else "retired"
        self.report.store_changes.retired.append(rid)
        if restored:
            self.report.notes.append(f"{rid} restored, then {_AGAIN[step.op]} by replayed "
                                     f"{step.id}" + (f" into {', '.join(by)}" if by else ""))

    def _new_id(self, base: str) -> str:
        n = 1
        while f"{base}~r{n}" in self.taken:
            n += 1
        rid = f"{base}~r{n}"
        self.taken.add(rid)
        return rid

    # ---- outputs ---------------------------------------------------------------------

    def _result(self) -> RepairResult:
        for s in self.order:  # effects of invalidated calls that no rollback can undo
            if (isinstance(s, ToolAction) and s.id in self.invalid and s.id not in self.replay
                    and s.status == "ok"
                    and self.declared.get(s.tool, "irreversible") == "irreversible"):
                self.report.irreversible_effects.append(ToolNote(
                    step=s.id, tool=s.tool, args=dict(s.args),
                    reason=f"invalidated; {s.tool} is irreversible (or not declared): its "
                           "external effect stands and rollback cannot undo it"))
        outcomes: list[StepOutcome] = []
        for s in self.order:
            if s.id in self._outcomes:
                outcomes.append(self._outcomes[s.id])
            elif s.id in self.invalid:
                outcomes.append(StepOutcome(id=s.id, type=s.type, outcome="invalidated",
                                            detail="old output no longer evidence; not replayed"))
            else:
                outcomes.append(StepOutcome(id=s.id, type=s.type, outcome="kept"))
        self.report.steps = outcomes
        trajectory = self._trajectory()
        final = self.new_steps.get(self.final)
        return RepairResult(
            answer=final.text if final is not None else None,
            original_answer=self.steps[self.final].text,
            store=RepairedStore(
                active=[r for r in trajectory.memory if self._active(r.id)],
                quarantine=[r for r in trajectory.memory if r.id in self.quarantined]),
            trajectory=trajectory, report=self.report, cost=self._cost())

    def _trajectory(self) -> Case:
        memory = []
        for rid, rec in self.records.items():
            data = rec.model_dump(mode="json")
            mark = self.record_marks.get(rid)
            if mark == "quarantined":
                data["status"] = "deleted"
            if mark:
                data["repair"] = mark
            memory.append(data)
        steps = []
        for s in self.order:
            new = self.new_steps.get(s.id)
            data = (new or s).model_dump(mode="json")
            outcome = self._outcomes.get(s.id)
            data["repair"] = (outcome.outcome if outcome is not None
                              else "invalidated" if s.id in self.invalid else "kept")
            steps.append(data)
        doc = self.case.model_dump(mode="json")
        doc.update(memory=memory, trajectory=steps, eval=None)
        doc.pop("eval")
        return case_from_data(doc, source=f"repaired {self.case.case_id}")


_AGAIN = {"consolidate": "consolidated again", "update": "updated again",
          "supersede": "superseded again", "delete": "deleted again", "add": "retired"}


def _same(a: Any, b: Any) -> bool:
    norm = lambda v: json.dumps(v, sort_keys=True, default=str).lower()  # noqa: E731
    return norm(a) == norm(b)


def _text_of(output: Any) -> str:
    if isinstance(output, str):
        return output
    return json.dumps(output, ensure_ascii=False, default=str)


def _clip(text: str, width: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"
