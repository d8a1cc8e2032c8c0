"""Stage 4: selective replay of a planned repair, and stage 5's outputs.

Reads re-query the repaired store; a step whose old output is invalidated (or being
replayed) never contributes it to a prompt; writes are applied only while still supported
and never re-admit a diagnosed fault; tools are re-issued only through their declared
effect, on a world from which every removed action's effect has been undone first; the
final answer is always regenerated. The store lives in `_memory.py`, the tool world and its
ledger of effects in `_world.py`; `_Run` orders the replay and asks the model.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .._errors import DgrrError, ModelError
from .._perf import gc_paused
from ..agent._evidence import (
    claim_item,
    observation_item,
    ordered,
    record_item,
    request_item,
)
from ..agent._store import LexicalRetriever, Retriever
from ..analysis._analysis import update_writer
from ..case._case import (
    Answer,
    Case,
    Claim,
    Dep,
    MemoryRead,
    MemoryWrite,
    Plan,
    Step,
    ToolAction,
    ToolObservation,
    Turn,
)
from ..case._load import repaired_case
from ..case._shared import SharedExtra, SharedFieldNames, share_field_names
from ..case._trace import TRACE_FIELD
from ..content._normalise import NormalisedTexts
from ..graph._descent import own_actions
from ..judge import Judge
from ..model import REFERENCE_MODEL, ModelClient
from ..plan._kept_calls import KeptCall, kept_call_note
from ..plan._plan import RepairPlan, plan_case
from ..plan._plan_ops import ops_inputs, plan_ops
from ..tools import ToolError, ToolRegistry, default_registry
from ..verification import BLOCKED, FaultSignatures, verify_result
from ..verification._gate import SUPPLIED_BY_HAND
from ._bounds import Conversation, store_view
from ._decision_rows import DecisionRows
from ._executor_rules import ExecutorRules
from ._memory import RepairedMemory
from ._models import (
    Cost,
    Decision,
    Failure,
    RemovedPremise,
    RepairedStore,
    RepairReport,
    RepairResult,
    SkippedWrite,
    StepOutcome,
    ToolNote,
    WorldEffect,
)
from ._outcome_rows import StepOutcomeRows
from ._slips import ask_again, missing_arguments, stated_by
from ._taken_plan import TakenPlan, plan_decisions, take_plan
from ._world import NEEDS_HUMAN, ToolWorld

__all__ = ["repair", "execute", "ProgressFn", "REMOVED_NOTE"]

REMOVED_NOTE = ("Records a repair took out of memory, each with the slot it held (key) and "
                "why. Where the request needs a slot that only a removed record held, say "
                "plainly that it could not be determined and why; never state what a "
                "removed record said, and never cite one.")
"""What the answer's input `removed` says to the model about its items."""

ProgressFn = Callable[[int, int, str, Cost], None]


def repair(case: Case, plan: RepairPlan | TakenPlan | Mapping[str, Any] | None = None, *,
           model: str = REFERENCE_MODEL, api_base: str | None = None,
           observations: Mapping[str, Any] | None = None,
           on_progress: ProgressFn | None = None, tools: ToolRegistry | None = None,
           retriever: Retriever | None = None, client: ModelClient | None = None,
           judge: Judge | None = None, check: bool = True,
           rules: ExecutorRules | None = None) -> RepairResult:
    """Plan (unless given) and replay the repair of `case` (stages 4–5), then check the
    corrected answer, the replayed outputs and the repaired store by content against every
    fault's and suspected source's signature (`RepairResult.verification`; `judge` is asked
    what the lexical judge leaves unsure, e.g. a `ModelJudge`). `check=False` leaves that
    check to the caller (the dashboard runs it in a process of its own): `verification`
    stays None, which is not certified clean. `rules` switches the executor's rules for
    baselines at their best (`ExecutorRules`; default: both on).

    `plan` is a :class:`RepairPlan` or a plan report of `case` carrying its operations, as
    JSON data (`dgrr plan --json --ops`; the columnar planner's
    `columnar_plan_report(..., ops=True)`), or what `take_plan` took of such a report (so
    the caller can let the report go before it reads the case): the replay runs from the
    operations either way."""
    if plan is None or isinstance(plan, RepairPlan):
        plan = plan if plan is not None else plan_case(case)
        if plan.case.case_id != case.case_id:
            raise DgrrError(f"plan is for case {plan.case.case_id!r}, not {case.case_id!r}")
        case = plan.case
        # The executor runs from the plan's operations only (docs/replay-api.md).
        with gc_paused():
            ops = ops_inputs(case, plan_ops(plan))
            decisions = plan_decisions(plan.memory, plan.steps, plan.reasons)
        unsupported: Iterable[str] = plan.analysis.unsupported
        objective: str = plan.objective
        suspects, not_suspect = str(plan.suspects), sorted(plan.not_suspect)
        clean_source = dict(sorted(plan.clean_source.items()))
    else:
        case_id = plan.case_id if isinstance(plan, TakenPlan) else plan.get("case_id")
        if case_id != case.case_id:
            raise DgrrError(f"plan is for case {case_id!r}, not {case.case_id!r}")
        taken = plan if isinstance(plan, TakenPlan) else take_plan(plan)
        with gc_paused():
            ops = taken.ops.checked(case)
        decisions, unsupported = taken.decisions, taken.unsupported
        objective, suspects = taken.objective, taken.suspects
        not_suspect, clean_source = taken.not_suspect, taken.clean_source
        del taken
    # What the replay needs of the plan is taken: a large report (hundreds of megabytes at
    # 300k steps) goes now, not after the replay, unless the caller keeps it
    del plan
    # An affected, unsupported action a forced edit kept is still removed from the world.
    run = _run(case, ops.store_edits, ops.replay, invalidated=ops.invalidated,
               faults=ops.revoked, model=model, api_base=api_base,
               observations=observations, on_progress=on_progress, tools=tools,
               retriever=retriever, client=client, decisions=decisions,
               undo_effects_of=unsupported, answer=ops.answer, rules=rules)
    result = run.execute()
    result.report.no_longer_sees = ops.no_longer_sees
    result.report.objective = objective
    result.report.suspects, result.report.not_suspect = suspects, not_suspect
    result.report.clean_source = clean_source
    if not check:
        return result
    # rule verify.after-replay: what the agent reads next, checked by content
    with gc_paused():
        result.verification = verify_result(case, result, sources=ops.revoked, judge=judge,
                                            made=run.__dict__.get("_carriers"))
    return result


def execute(case: Case, store_edits: Mapping[str, str], replay_ids: Iterable[str], *,
            invalidated: Iterable[str] = (), faults: Iterable[str] | None = None,
            model: str = REFERENCE_MODEL, api_base: str | None = None,
            observations: Mapping[str, Any] | None = None,
            on_progress: ProgressFn | None = None, tools: ToolRegistry | None = None,
            retriever: Retriever | None = None, client: ModelClient | None = None,
            decisions: Iterable[Decision] | Mapping[str, str] | None = None,
            undo_effects_of: Iterable[str] = (), answer: bool = True,
            rules: ExecutorRules | None = None) -> RepairResult:
    """Apply `store_edits` and replay `replay_ids` (plus the final answer) in trajectory
    order. The executor behind `repair`, usable for baselines and ablations.

    The world effects of every invalidated or replayed action are undone before a
    replayed call reads their state; `undo_effects_of` names further actions whose
    effects go too (`repair` passes the plan's affected, unsupported steps).
    `answer=False` (a store-objective plan) leaves the final answer as it was. `rules`
    switches the rules for baselines at their best (`ExecutorRules`; default: both on)."""
    return _run(case, store_edits, replay_ids, invalidated=invalidated, faults=faults,
                model=model, api_base=api_base, observations=observations,
                on_progress=on_progress, tools=tools, retriever=retriever, client=client,
                decisions=decisions, undo_effects_of=undo_effects_of, answer=answer,
                rules=rules).execute()


def _run(case: Case, store_edits: Mapping[str, str], replay_ids: Iterable[str], *,
         invalidated: Iterable[str] = (), faults: Iterable[str] | None = None,
         model: str = REFERENCE_MODEL, api_base: str | None = None,
         observations: Mapping[str, Any] | None = None,
         on_progress: ProgressFn | None = None, tools: ToolRegistry | None = None,
         retriever: Retriever | None = None, client: ModelClient | None = None,
         decisions: Iterable[Decision] | Mapping[str, str] | None = None,
         undo_effects_of: Iterable[str] = (), answer: bool = True,
         rules: ExecutorRules | None = None) -> _Run:
    """The replay `execute` runs, set up and not yet run."""
    wrong = sorted(set(observations) - {s.id for s in case.trajectory
                                        if s.type == "tool_action"}) if observations else []
    if wrong:
        raise DgrrError("observations: not tool_action steps of case "
                        f"{case.case_id}: {', '.join(wrong)}")
    # the set-up only builds data (the steps by id, the store and its word index): with the
    # collector on, its full collections walked the whole loaded case (1.3 of the 1.6 CPU s
    # the collector took in a 300k-step repair)
    with gc_paused():
        run = _Run(case, dict(store_edits), set(replay_ids), set(invalidated),
                   set(case.faults if faults is None else faults),
                   client or ModelClient(model, api_base), tools or default_registry(),
                   retriever or LexicalRetriever(), dict(observations or {}), on_progress,
                   set(undo_effects_of), answer, rules or ExecutorRules())
    if decisions is None or isinstance(decisions, Mapping):
        run.report.decisions = _edit_decisions(case, run.store_edits, run.replay, run.invalid,
                                               dict(decisions or {}))
    else:  # a plan's decisions stay rows until written (`DecisionRows`)
        run.report.decisions = (decisions if isinstance(decisions, DecisionRows)
                                else list(decisions))
    return run


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
    also_removed: set[str]
    """Actions neither invalidated nor replayed whose world effects go all the same."""
    answer: bool = True
    """Regenerate the final answer (always, unless a store-objective plan)."""
    rules: ExecutorRules = field(default_factory=ExecutorRules)
    """Which rules for baselines at their best apply (both, unless switched off)."""
    report: RepairReport = field(init=False)
    new_steps: dict[str, Step] = field(init=False, default_factory=dict)
    pending: dict[str, _Pending] = field(init=False, default_factory=dict)
    _outcomes: dict[str, StepOutcome] = field(init=False, default_factory=dict)
    _fault_values: Any = field(init=False, default=None)
    _normalised: NormalisedTexts = field(init=False, default_factory=NormalisedTexts)
    """The texts this replay compared as facts, normalised (`FaultValues`, `stated_by`):
    kept for the run only."""
    _blocked: dict[str, list[str]] = field(init=False, default_factory=dict)
    """memory_write step -> the faults its blocked records carry."""
    _replayed_in_turn: dict[str, list[dict[str, Any]]] = field(init=False, default_factory=dict)
    """turn -> evidence items of the claims and observations the replay wrote in it, in
    replay order (rule `replay.answer.sees-replayed`)."""

    def __post_init__(self) -> None:
        self.report = RepairReport(case_id=self.case.case_id, model=self.client.model)
        self.steps = {s.id: s for s in self.case.trajectory}
        self.turns = {t.id: t for t in self.case.session}
        self.order = self.case.steps_in_order()
        # "" for a case without steps (case.store-only): no answer to regenerate
        self.final = self.case.final_answer().id if self.case.has_answer() else ""
        self.replay = {s for s in self.replay if s in self.steps} | (
            {self.final} if self.answer and self.final else set())
        # An observation is refreshed through its action, and a re-issued action
        # produces its observations anew: (observation, action) pairs, found once.
        produced = [(s.id, d.id) for s in self.order if s.type == "tool_observation"
                    for d in s.deps if d.label == "produce" and d.id in self.steps]
        self.replay |= {act for obs, act in produced if obs in self.replay}
        self.replay |= {obs for obs, act in produced
                        if act in self.replay and self.steps[act].type == "tool_action"}
        # rule replay.world.own-action: a call no fault led to keeps its effect, and a
        # replayed one keeps its output (with its observations) instead of being re-issued
        self.own = own_actions(self.case, self.faults,
                               self.replay | self.invalid | self.also_removed,
                               steps=self.steps, order=self.order
                               ) if self.rules.keep_own_actions else set()
        kept_own = {a for a in self.own if a in self.replay}
        kept_own |= {obs for obs, act in produced if act in kept_own}
        self.replay -= kept_own
        self.kept_own = kept_own
        self.stale = self.replay | self.invalid
        self.calls0, self.tokens0 = self.client.calls, self.client.tokens
        self.memory = RepairedMemory(
            self.case, self.faults, self.report.store_changes, self.report.notes,
            taken={m.id for m in self.case.memory} | set(self.steps) | set(self.turns))
        self.failures0 = self.client.connection_failures

    # ---- the run ---------------------------------------------------------------------

    def execute(self) -> RepairResult:
        # The collector is paused where the work only builds data (a 100k-step case's
        # records, steps and report: its full collections walked them all again and again,
        # about a third of the replay's time); steps that call a model over the network
        # run with it on.
        with gc_paused():
            self.memory.apply_edits(self.store_edits)
            self._retire_replayed_writes()
            self.world = ToolWorld.after_failed_run(
                self.case, self.tools, removed=(self.stale | self.also_removed) - self.own)
            for sid in self.kept_own:
                self._outcomes[sid] = StepOutcome(
                    id=sid, type=self.steps[sid].type, outcome="kept",
                    detail=self._kept_own_detail(sid))
        todo = [s for s in self.order if s.id in self.replay]
        in_process = getattr(self.client, "builtin", None) is not None  # any client may be handed in
        with gc_paused() if in_process else contextlib.nullcontext():
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
        with gc_paused():
            return self._result()

    def _kept_own_detail(self, sid: str) -> str:
        """Why a step the plan replays keeps its failed-run output: the call it holds (or
        that produced it) is the user's own, and its tool is not called again (the plan's
        note for the same step, word for word)."""
        step = self.steps[sid]
        action = step if step.type == "tool_action" else next(
            (self.steps[d.id] for d in step.deps
             if d.label == "produce" and d.id in self.kept_own), step)
        return kept_call_note(KeptCall(action=action.id,
                                       tool=str(getattr(action, "tool", "") or "")))

    def _cost(self) -> Cost:
        n = len(self.case.trajectory)
        return Cost(llm_calls=self.client.calls - self.calls0,
                    connection_failures=self.client.connection_failures - self.failures0,
                    tokens=self.client.tokens - self.tokens0,
                    replay_ratio=round(len(self.replay) / n, 6) if n else 0.0)

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
            if d.id in self.memory:
                rid = self.memory.current(d.id)  # a re-derived record stands in for its old one
                if self.memory.active(rid):
                    items.append(record_item(self.memory[rid]))
                continue
            prem = self._current(d.id)
            if isinstance(prem, MemoryRead):
                items += [record_item(self.memory[r]) for r in prem.returned if self.memory.active(r)]
            elif isinstance(prem, Claim):
                items.append(claim_item(prem))
            elif isinstance(prem, ToolObservation) and prem.status == "ok":
                items.append(observation_item(prem, self._tool_of(prem)))
        return ordered(items, self.memory.order)

    def _removed_premises(self, step: Step) -> list[dict[str, Any]]:
        """The records the failed run's `step` read, directly, through a read or through a
        claim, that the repair removed, where nothing re-derived stands in for them: one
        item per record, with the slot it held (`key`) and why it went. The answer can then
        say what could not be determined instead of a generic "not found"."""
        items: dict[str, dict[str, Any]] = {}
        for d in step.deps:
            old = self.steps.get(d.id)
            key: str | None = None
            if d.id in self.memory:
                held = [d.id]
            elif isinstance(old, MemoryRead):
                held = list(old.returned)
            elif isinstance(old, Claim):
                now = self._current(d.id)
                if isinstance(now, Claim) and now.value is not None:
                    continue  # re-derived: the answer has it
                key, held = old.key, []
                for c in old.deps:
                    source = self.steps.get(c.id)
                    if c.id in self.memory:
                        held.append(c.id)
                    elif isinstance(source, MemoryRead):
                        held += source.returned
            else:
                continue
            for rid in held:
                if rid not in self.memory or self.memory.active(self.memory.current(rid)):
                    continue
                mark = self.memory.marks.get(rid, "removed")
                why = (f"{mark} as a diagnosed fault" if rid in self.faults
                       else f"{mark} by the repair")
                items.setdefault(rid, {"id": rid, "kind": "removed",
                                       "key": key or self.memory[rid].key, "why": why})
        return list(items.values())

    def _request(self, step: Step) -> dict[str, Any]:
        turn = self.turns.get(step.turn) or Turn(id=step.turn, seq=0, text="")
        if turn.id in self.faults:  # a diagnosed (injected) user turn is never shown
            turn = Turn(id=turn.id, seq=turn.seq, text="")
        # earlier turns: the recent conversation and the turns the step depends on (bounded)
        earlier = [t for t in self._conversation.earlier(turn, step) if t.id not in self.faults]
        return request_item(turn, earlier)

    @cached_property
    def _conversation(self) -> Conversation:
        return Conversation(self.case.session)

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
            outcome = handler(step)
        except ModelError as exc:
            self.report.failures.append(Failure(step=step.id, stage=step.type, error=str(exc)))
            return StepOutcome(id=step.id, type=step.type, outcome="failed", detail=str(exc))
        if step.id in self._blocked:
            faults = ", ".join(dict.fromkeys(self._blocked[step.id]))
            applied = f"; applied: {outcome.detail}" if outcome.outcome == "replayed" else ""
            outcome = StepOutcome(id=step.id, type=step.type, outcome=BLOCKED, detail=(
                f"not applied: its record carries {faults} (by content); needs a human"
                + applied))
        new = self.new_steps.get(step.id)
        if isinstance(new, Claim | Answer):  # a reply that restates a fault
            self._echo(new, new.text, getattr(new, "value", None), "flagged")
        return outcome

    def _echo(self, step: Step, text: Any, value: Any, action: str) -> tuple[str, str] | None:
        """Report (and return) the diagnosed fault value `text`/`value` states, if any."""
        from ._echo import FaultValues
        from ._models import FaultEcho

        if self._fault_values is None:  # after the plan's store edits, before any write
            self._fault_values = FaultValues(self.case, self.faults,
                                             self.memory.active_records(), self._normalised)
        hit = self._fault_values.stated(text, value)
        if hit is not None:
            self.report.fault_echoes.append(FaultEcho(
                step=step.id, type=step.type, fault=hit[0], value=hit[1],
                text=str(text or "")[:300], action=action))  # type: ignore[arg-type]
        return hit

    def _replaced(self, step: Step, **update: Any) -> StepOutcome:
        # a shallow copy: no step is changed in place, and the repaired trajectory is
        # validated anew from what the replay wrote (`_trajectory`)
        new = step.model_copy(update=update)
        if new.__pydantic_extra__ and TRACE_FIELD in new.__pydantic_extra__:
            # what the failed run's span recorded (time, tokens, messages) is not this run's
            new.__pydantic_extra__ = {k: v for k, v in new.__pydantic_extra__.items()
                                      if k != TRACE_FIELD}
        self.new_steps[step.id] = new
        if isinstance(new, Claim):
            self._replayed_in_turn.setdefault(new.turn, []).append(claim_item(new))
        elif isinstance(new, ToolObservation) and new.status == "ok":
            self._replayed_in_turn.setdefault(new.turn, []).append(
                observation_item(new, self._tool_of(new)))
        if step.type == "tool_observation":
            return StepOutcome(id=step.id, type=step.type, outcome="refreshed",
                               detail=_clip(new.text))
        return StepOutcome(id=step.id, type=step.type, outcome="replayed", detail=_clip(new.text))

    def _read(self, step: MemoryRead) -> StepOutcome:
        if type(self.retriever) is LexicalRetriever:  # the same ranking, from the index
            returned = self.memory.search(step.query, self.case.user_id, self.retriever.k)
        else:
            returned = self.retriever.retrieve(self.memory.active_records(), step.query,
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
        # rule replay.slip.ask-again: an empty reply is a slip only while the evidence
        # still states the original value; once the repair took it away, it is the answer
        source = None if out.value is not None else self._unaffected(step.value, inputs)
        if source is not None:
            out = self.client.complete_json(
                "claim", {**inputs, "missing": ask_again("the value of slot", [step.key or "?"])})
            if out.value is None:
                self._note_original(step, step.value, source)
                return self._replaced(step, text=step.text, key=step.key,
                                      value=step.value, verified=False,
                                      deps=self._deps_from(step, [source], source))
        return self._replaced(step, text=out.text, key=out.key if out.key is not None else step.key,
                              value=out.value, verified=False,
                              deps=self._deps_from(step, out.cites, out.support))

    def _unaffected(self, value: Any, inputs: Mapping[str, Any]) -> str | None:
        """Rule `replay.slip.ask-again`: the id of the repaired evidence (or user turn)
        that still states the original step's `value`, when no diagnosed fault does;
        None when the value is affected by the repair (or the step had none)."""
        source = stated_by(value, [inputs["request"], *inputs.get("evidence", [])],
                           self._normalised)
        if source is None:
            return None
        from ._echo import FaultValues

        if self._fault_values is None:
            self._fault_values = FaultValues(self.case, self.faults,
                                             self.memory.active_records(), self._normalised)
        if self._fault_values.stated(None, value) is not None:
            return None
        return source

    def _note_original(self, step: Step, value: Any, source: str) -> None:
        self.report.notes.append(f"{step.id}: the replayed reply left out {value!r} twice; "
                                 f"the original step's value is used, still stated by {source}")

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
        args, cites = dict(out.args), list(out.cites)
        missing = missing_arguments(self.tools, tool, args)
        if missing:  # rule replay.slip.ask-again
            again = self.client.complete_json(
                "plan", {**inputs, "missing": ask_again(f"the required argument(s) of {tool}",
                                                        missing)})
            if (again.tool or step.tool) == tool:
                args.update({k: v for k, v in again.args.items() if k in missing})
                cites += [c for c in again.cites if c not in cites]
            for name in missing_arguments(self.tools, tool, args):
                if tool != step.tool or name not in step.args:
                    continue
                source = self._unaffected(step.args[name], inputs)
                if source is not None:
                    self._note_original(step, step.args[name], source)
                    args[name] = step.args[name]
                    cites.append(source)
        return self._replaced(step, tool=tool, args=args, text=out.text or step.text,
                              deps=self._deps_from(step, cites))

    def _action(self, step: ToolAction) -> StepOutcome:
        plan_id = next((d.id for d in step.deps if d.label == "produce"), None)
        tool, args = step.tool, dict(step.args)
        if plan_id is not None and plan_id in self.steps:
            plan = self._current(plan_id)
            if not isinstance(plan, Plan):
                return self._action_blocked(step, "skipped",
                                            f"its plan {plan_id} could not be regenerated")
            tool, args = plan.tool or tool, dict(plan.args)
        note = ToolNote(step=step.id, tool=tool, args=args, reason="")
        if step.id in self.observations:
            supplied = self.observations[step.id]
            self.pending[step.id] = _Pending(supplied, _text_of(supplied))
            out = self._replaced(step, tool=tool, args=args)
            out.detail = SUPPLIED_BY_HAND
            return out
        if self.world.effect_of(tool) == "irreversible":
            earlier = self.world.entry(step.id)
            why = (f"{tool} is irreversible (or not declared): never replayed; " + (
                f"its earlier call {NEEDS_HUMAN}" if earlier is not None else
                "the failed run's call did not succeed, so there is no effect to undo"))
            return self._action_blocked(step, "irreversible", why)
        if not (self._registered(tool, step.args) and self._registered(tool, args)):
            what = ("is not registered" if tool not in self.tools else
                    "is registered with another signature than this trace's call")
            note.reason = (f"tool {tool} {what}: supply its observation for "
                           f"{step.id} by hand (the old observation is not reused)")
            self.report.needs_observation.append(note)
            return self._action_blocked(step, "needs_observation", note.reason)
        # The state this call reads must be the state it should have seen: undo every
        # removed action's effect on it first, earlier or later in the failed run.
        self.world.prepare(step.id, tool)
        earlier = self.world.entry(step.id)
        if earlier is not None and earlier.disposition == "needs_human":
            return self._action_failed(step, f"could not undo the earlier call: {earlier.detail}")
        try:
            result = self.world.call(tool, args)
        except ToolError as exc:
            return self._action_failed(step, str(exc))
        self.world.reissued(step.id)
        self.pending[step.id] = _Pending(result.output, result.text)
        shown = ", ".join(f"{k}={v}" for k, v in args.items())
        out = self._replaced(step, tool=tool, args=args, text=f"{tool}({shown})", status="ok")
        seen = [e for e in self.world.standing(tool) if e.step != step.id]
        if seen:
            which = ", ".join(f"{e.step} ({e.tool}, {e.declared})" for e in seen)
            out.detail += f"; ran on state still carrying removed effects it could not undo: {which}"
            self.report.notes.append(f"{step.id} ran on tool state that still carried the failed "
                                     f"run's effect of {which}: no declared undo, so its result "
                                     "may show what that call did")
        return out

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
        # rule replay.answer.sees-replayed: what the replay re-derived or refreshed in the
        # answer's turn is evidence too, not only what the failed answer cited
        evidence = self._evidence(step)
        if self.rules.answer_sees_replayed:
            evidence = ordered(evidence + self._replayed_in_turn.get(step.turn, []),
                               self.memory.order)
        inputs: dict[str, Any] = {"user_id": self.case.user_id, "request": self._request(step),
                                  "evidence": evidence}
        # a slot some evidence still speaks for is not lost
        covered = {e.get("key") for e in evidence
                   if e.get("key") is not None and e.get("value") is not None}
        removed = [i for i in self._removed_premises(step) if i["key"] not in covered]
        if removed:  # what the failed answer rested on that the repair took away
            # told in the input, not the template: a run with nothing removed is prompted
            # (and a noisy model's draws seeded) exactly as before
            inputs["removed"] = {"note": REMOVED_NOTE, "items": removed}
            self.report.answer_lost = [RemovedPremise(id=i["id"], key=i["key"], why=i["why"])
                                       for i in removed]
        out = self.client.complete_json("answer", inputs)
        return self._replaced(step, text=out.text, deps=self._deps_from(step, out.cites))

    # ---- writes ----------------------------------------------------------------------

    def _write(self, step: MemoryWrite) -> StepOutcome:
        produced = [r for r in step.target if r in self.memory and any(
            d.id == step.id and d.label in ("produce", "update", "consolidate", "supersede")
            for d in self.memory[r].deps)]
        retired = [r for r in step.target if r in self.memory and any(
            d.id == step.id and d.label == "delete" for d in self.memory[r].deps)]
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
            # what the step retired, as it is now: a record an earlier replayed write
            # re-derived stands in for its failed-run original (replay.write.retire-current)
            now = {rid: c if (c := self.memory.current(rid)) not in added else rid
                   for rid in retired or ([] if step.op == "consolidate" else produced)}
            for rid in now.values():
                self.memory.retire(step, rid, added)
            retired = [now.get(r, r) for r in retired]
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
                                 self.memory[r].text for r in added) if added else step.text)
        return out

    def _retire_replayed_writes(self) -> None:
        """Rule `replay.write.supersedes-own`: a record a replayed write produced in the
        failed run (by a `produce` edge, or, for a record no step produced, as its update
        writer, rule `support.update-writer`) is that step's old output, so it is stale
        from the start of the replay (no replayed read retrieves it) and the replayed write
        supersedes it: it leaves the active store, replaced by what the replay writes, or
        by nothing."""
        updated = []
        for rec in self.case.memory:
            writer = next((self.steps[d.id] for d in rec.deps if d.label == "produce"
                           and d.id in self.replay and d.id in self.steps), None)
            if isinstance(writer, MemoryWrite):
                self.memory.retire(writer, rec.id, [])
            elif writer is None and any(d.label == "update" and d.id in self.replay
                                        for d in rec.deps):
                updated.append(rec)
        if not updated:
            return
        readers: dict[str, list[str]] = {rec.id: [] for rec in updated}
        for step in self.order:
            for d in step.deps:
                if d.id in readers:
                    readers[d.id].append(step.id)
        for rec in updated:
            write = update_writer(self.steps, ((d.id, d.label, d.inferred) for d in rec.deps),
                                  readers[rec.id])
            writer = self.steps[write] if write in self.replay else None
            if isinstance(writer, MemoryWrite):
                self.memory.retire(writer, rec.id, [])

    def _still_justified(self, step: MemoryWrite) -> bool:
        """A delete is re-applied only while one of its premises is still valid."""
        if self._evidence(step) or any(d.id in self.turns for d in step.deps):
            return True
        self.report.skipped_writes.append(SkippedWrite(
            step=step.id, text=step.text,
            reason="no longer supported: none of its premises is valid after the repair"))
        return False

    def _rewrite(self, step: MemoryWrite, produced: list[str]) -> list[dict[str, Any]] | None:
        slot = next((self.memory[r].key for r in produced if self.memory[r].key), None)
        evidence = self._evidence(step)
        if not evidence:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=step.text,
                reason="no longer supported: none of its premises is valid after the repair"))
            return None
        inputs = {"user_id": self.case.user_id, "request": self._request(step), "op": step.op,
                  "slot": slot, "evidence": evidence,
                  "memory": [record_item(r) for r in store_view(  # bounded, see _bounds
                      self.memory, self.case.user_id, step, slot, evidence)]}
        out = self.client.complete_json("memory_write", inputs)
        # rule replay.slip.ask-again: an empty write is a slip only while the evidence
        # still states a value the original write recorded
        unaffected = [] if out.records else self._unaffected_records(produced, inputs)
        if unaffected:
            out = self.client.complete_json(
                "memory_write", {**inputs, "missing": ask_again("the record(s) for slot",
                                                                [slot or step.op])})
            if not out.records:
                return self._original_records(step, unaffected)
        valueless = {e["id"] for e in evidence if e.get("kind") == "claim"
                     and e.get("key") is not None and e.get("value") is None}
        records = []
        for rec in out.records:
            if not rec.cites and rec.derive is None:
                self.report.skipped_writes.append(SkippedWrite(
                    step=step.id, text=rec.text, reason="cites no evidence: not supported"))
                continue
            premises = {*rec.cites, *([rec.derive] if rec.derive else [])}
            if rec.key is not None and rec.value is None and premises <= valueless:
                # rule replay.write.no-value: a replayed claim that found no value is
                # not a fact to remember
                self.report.skipped_writes.append(SkippedWrite(
                    step=step.id, text=rec.text,
                    reason=f"its premise {', '.join(sorted(premises))} states no value for "
                           f"{rec.key}: nothing to remember"))
                continue
            records.append({**rec.model_dump(), "base": produced[0] if produced else None})
        if not records and not out.records:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=step.text,
                reason="the repaired evidence no longer supports any record"))
        return records

    def _original_records(self, step: MemoryWrite, unaffected: list[tuple[str, str]]
                          ) -> list[dict[str, Any]]:
        """The records the step wrote in the failed run whose value is unaffected
        (`_unaffected_records`: (record, the evidence that still states its value))."""
        records = []
        for rid, source in unaffected:
            rec = self.memory[rid]
            self._note_original(step, rec.value, source)
            records.append({"text": rec.text, "key": rec.key, "value": rec.value,
                            "cites": [source], "derive": None, "base": rid})
        return records

    def _unaffected_records(self, produced: list[str], inputs: Mapping[str, Any]
                            ) -> list[tuple[str, str]]:
        """(record, evidence id) of each record the original write produced whose value
        the repaired evidence still states and no fault does."""
        found = []
        for rid in produced:
            value = self.memory[rid].value
            source = None if value is None else self._unaffected(value, inputs)
            if source is not None:
                found.append((rid, source))
        return found

    def _consolidate(self, step: MemoryWrite, produced: list[str], retired: list[str]
                     ) -> list[dict[str, Any]] | None:
        sources: list[str] = []
        for d in step.deps:
            if d.id in self.memory:
                sources.append(d.id)
            elif isinstance(read := self._current(d.id), MemoryRead):
                # a consolidation that cited a read folds what the read returned (a
                # replayed read: what it returns from the repaired store)
                sources += read.returned
        sources += [r for r in retired if r not in sources]
        sources = list(dict.fromkeys(self.memory.current(r) for r in sources))
        live = [self.memory[r] for r in sources if self.memory.active(r)]
        if not live:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=step.text, reason="no source record is active any more"))
            return None
        key = next((self.memory[r].key for r in produced if self.memory[r].key), None)
        items = ordered([record_item(r) for r in live], self.memory.order)
        out = self.client.complete_json("consolidate", {"user_id": self.case.user_id,
                                                        "key": key, "records": items})
        return [{**out.model_dump(), "derive": None, "sources": list(out.cites),
                 "base": produced[0] if produced else None}]

    def _admit(self, step: MemoryWrite, rec: dict[str, Any]) -> str | None:
        clash = self.memory.fault_twin(rec)
        if clash is not None:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=rec.get("text", ""),
                reason=f"equals diagnosed fault {clash}: never re-admitted"))
            return None
        echo = self._echo(step, rec.get("text"), rec.get("value"), "refused")
        if echo is not None:
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=rec.get("text", ""), reason=f"states diagnosed fault "
                f"{echo[0]}'s value {echo[1]!r}: never re-admitted"))
            return None
        carried = self._carriers.record(rec.get("key"), rec.get("value"), rec.get("text"))
        if carried:
            # rule replay.write.blocked: lineage said the write is clean, its content says not
            faults = [m.node for m in carried]
            self._blocked.setdefault(step.id, []).extend(faults)
            self.report.skipped_writes.append(SkippedWrite(
                step=step.id, text=rec.get("text", ""), reason="carries " + "; ".join(
                    f"{self._carriers.source[m.node].replace('_', ' ')} {m.node} "
                    f"({m.evidence()})" for m in carried) + ": blocked, needs a human"))
            return None
        return self.memory.add(step, rec, sources=rec.get("sources", []))

    @cached_property
    def _carriers(self) -> FaultSignatures:
        return FaultSignatures(self.case, self.faults)

    # ---- outputs ---------------------------------------------------------------------

    def _result(self) -> RepairResult:
        self.world.finish()
        self._report_world()
        # one outcome per step: the plain ones as rows, made into models when read
        outcomes = StepOutcomeRows()
        invalidated = {"": "old output no longer evidence; not replayed",
                       NEEDS_HUMAN: f"old output no longer evidence; not replayed; "
                                    f"its effect {NEEDS_HUMAN}"}
        # and each step of the repaired trajectory with its mark, in the same pass: only
        # what the replay wrote is new data (checked as a loaded case's items are); the
        # rest are the case's own validated objects, each marked
        steps: list[Step | dict[str, Any]] = []
        names: dict[frozenset[str], SharedFieldNames] = {}
        marks: dict[str, SharedExtra] = {}
        for s in self.order:
            sid = s.id
            outcome = self._outcomes.get(sid)
            if outcome is not None:
                outcomes.add(outcome)
                mark = outcome.outcome
            elif sid in self.invalid:
                effect = self.world.entry(sid)
                stands = (NEEDS_HUMAN if effect is not None
                          and effect.disposition == "needs_human" else "")
                outcomes.add_noted(sid, s.type, "invalidated", invalidated[stands])
                mark = "invalidated"
            else:
                outcomes.add_kept(sid, s.type)
                mark = "kept"
            new = self.new_steps.get(sid)
            if new is not None:
                steps.append({**new.model_dump(mode="json"), "repair": mark})
            else:
                steps.append(_marked(s, mark, names, marks))
        share_field_names(outcomes.models(), {})  # 216 bytes each otherwise
        self.report.steps = outcomes
        trajectory = repaired_case(self.case, steps, self.memory.repaired(),
                                   source=f"repaired {self.case.case_id}")
        final = self.new_steps.get(self.final)
        quarantined = set(self.memory.quarantined)  # a list: thousands of ids at scale
        return RepairResult(
            answer=final.text if final is not None else None,
            original_answer=self.steps[self.final].text if self.final else "",
            store=RepairedStore(
                active=[r for r in trajectory.memory if self.memory.active(r.id)],
                quarantine=[r for r in trajectory.memory if r.id in quarantined]),
            trajectory=trajectory, report=self.report, cost=self._cost(),
            final_world=self.world.state)

    def _report_world(self) -> None:
        """The ledger into the report: what became of every effect of the failed run."""
        for e in self.world.ledger:
            self.report.world.append(WorldEffect(
                step=e.step, tool=e.tool, args=dict(e.args), effect=e.declared,
                removed=e.removed, disposition=e.disposition,  # type: ignore[arg-type]
                detail=e.detail, undone_before=e.undone_before))
        for e in self.world.undone:
            when = (f"before replayed {e.undone_before}" if e.undone_before
                    else "after the replay (no replayed call touched its state)")
            self.report.resets.append(ToolNote(step=e.step, tool=e.tool, args=dict(e.args),
                                               reason=f"{e.detail}, {when}"))
        for e in self.world.needing_a_human():
            self.report.irreversible_effects.append(ToolNote(
                step=e.step, tool=e.tool, args=dict(e.args), reason=e.detail))

def _marked(step: Step, mark: str,
            names: dict[frozenset[str], SharedFieldNames] | None = None,
            marks: dict[str, SharedExtra] | None = None) -> Step:
    """`step.model_copy(update={"repair": mark})`, made directly: the same fields,
    extra members and set fields, for every kept step of the trajectory (pydantic's copy
    spent 15 microseconds a step on attribute hooks). With `names` and `marks`, steps of
    one shape share their set of field names, and steps whose only extra member is the
    mark share it (`case._shared`); and when `step` shares its set of names too (a loaded
    case's step), the two share their dict of field values: whichever is assigned to
    first takes a copy of its own (`SharingModel`), and the kept steps of a 300k-step
    repair take 300k dicts (about 110 MB) fewer."""
    if step.__pydantic_private__ is not None:
        return step.model_copy(update={"repair": mark})
    cls = type(step)
    new = cls.__new__(cls)
    put = object.__setattr__
    shared = names is not None and type(step.__pydantic_fields_set__) is SharedFieldNames
    put(new, "__dict__", step.__dict__ if shared else step.__dict__.copy())
    extra = step.__pydantic_extra__
    if marks is not None and not extra:
        put(new, "__pydantic_extra__", marks.get(mark) or marks.setdefault(
            mark, SharedExtra(repair=mark)))
    else:
        put(new, "__pydantic_extra__", {**(extra or {}), "repair": mark})
    fields_set = frozenset((*step.__pydantic_fields_set__, "repair"))
    if names is not None:
        put(new, "__pydantic_fields_set__", names.get(fields_set) or names.setdefault(
            fields_set, SharedFieldNames(fields_set)))
    else:
        put(new, "__pydantic_fields_set__", set(fields_set))
    put(new, "__pydantic_private__", None)  # steps have no private attributes
    return new


def _text_of(output: Any) -> str:
    if isinstance(output, str):
        return output
    return json.dumps(output, ensure_ascii=False, default=str)


def _clip(text: str, width: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"
