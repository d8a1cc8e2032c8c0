"""The repair methods compared by the benchmark, as data: what each does to the store and
which steps it replays.

Every method maps a case (with its `eval` stripped: methods never see it) to a
:class:`RepairDecision`; the runner hands every decision to the same rollback executor
(`repair_core.execute`) and model layer. Ours and its three ablations are built from the
core's stage-2/3 functions; the six baselines follow method.md's descriptions. Readings
that go beyond the spec are documented on each function and in `docs/benchmark.md`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..analysis._analysis import Analysis, analyse
from ..case._case import Case
from ..plan._plan import MemoryAction, plan_case, replay_closure

__all__ = [
    "RepairDecision",
    "METHODS",
    "METHOD_LABELS",
    "BASELINES",
    "ABLATIONS",
    "methods_phrase",
    "AUDIT_TRUST",
    "audit_view",
    "open_judge_inputs",
    "retired_by_faults",
    "first_exposure",
    "method_names",
    "decide",
]


@dataclass(frozen=True)
class RepairDecision:
    """What a method decided for one case, before execution."""

    method: str
    """Registry name of the method."""
    store_edits: dict[str, MemoryAction]
    """Record id -> keep | delete | quarantine | restore (missing = keep)."""
    replay: frozenset[str]
    """Step ids to replay (observations with their actions); the answer is always added."""
    invalidated: frozenset[str] = frozenset()
    """Steps whose old output is no longer evidence but which are not replayed."""
    reasons: dict[str, str] = field(default_factory=dict)
    """Node id -> why, copied into the executor's report."""
    llm_calls: int = 0
    """Model calls the method made to decide (auditor, judge, tracer)."""
    tokens: int = 0
    """Tokens of those calls."""
    notes: tuple[str, ...] = ()
    """Anything worth reporting about how the decision was reached."""
    persist_store: bool = True
    """False for a method that never edits the store: `store_edits` then only shape the
    replay, and the store it leaves is the original one."""
    answer: bool = True
    """False for a store-objective plan: the final answer is not regenerated (the user
    already has it); the bench then scores the next session on the repaired store."""
    kind: Literal["rollback", "store_only"] = "rollback"
    """`store_only`: the method only edits the store and retries the final user turn as a
    fresh run on it; that run neither invalidates nor re-derives the failed trajectory's
    claims, so it predicts none (method.md: such a method scores 0 claim-invalidation F1)."""

    def predicted_claims(self, case: Case) -> list[str]:
        """Claim ids the method invalidated or replayed (for claim-invalidation F1); none
        for a store-only method, by its kind."""
        if self.kind == "store_only":
            return []
        touched = self.replay | self.invalidated
        return sorted(s.id for s in case.trajectory if s.type == "claim" and s.id in touched)


MethodFn = Callable[[Case, Any], RepairDecision]


def _with_answer(case: Case, steps: Iterable[str]) -> frozenset[str]:
    return frozenset(steps) | {case.final_answer().id}


def _seed_steps(a: Analysis) -> set[str]:
    return {s for s in a.seeds.values() if a.graph.nodes[s]["kind"] == "step"}


def _from_plan(name: str, plan: Any) -> RepairDecision:
    invalid = frozenset(s for s, act in plan.steps.items() if act == "invalidate")
    return RepairDecision(method=name, store_edits=dict(plan.memory),
                          replay=frozenset(plan.replay_set), invalidated=invalid,
                          reasons=dict(plan.reasons),
                          answer=getattr(plan, "objective", "answer") != "store")


# --- ours and its ablations -------------------------------------------------------------

def ours(case: Case, client: Any = None) -> RepairDecision:
    """The full method: the core's rule-guided plan (stages 1-3)."""
    return _from_plan("ours", plan_case(case))


def ours_store(case: Case, client: Any = None) -> RepairDecision:
    """The core's plan with objective `store`: every quarantined record whose producer's
    inputs can be cleaned is re-derived; no past answer is regenerated."""
    return _from_plan("ours_store", plan_case(case, objective="store"))


def ours_no_support_check(case: Case, client: Any = None) -> RepairDecision:
    """Ablation: every candidate in `A0` counts as unsupported (no independent-support
    check); the stage-3 rules then run unchanged on that analysis."""
    a = analyse(case)
    blind = dataclasses.replace(a, supported=frozenset(), support={})
    return _from_plan("ours_no_support_check", plan_case(case, analysis=blind))


def ours_no_planner(case: Case, client: Any = None) -> RepairDecision:
    """Ablation: no rule-guided planner. Our reading: delete the diagnosed faults and
    quarantine nothing (no memory dispositions beyond deletion), and replay every
    unsupported step (no answer-relevance cut), the seeds and the final answer, closed
    under execution."""
    a = analyse(case)
    steps = {n for n in a.unsupported if a.graph.nodes[n]["kind"] == "step"}
    replay, _ = replay_closure(a, steps | _seed_steps(a) | {a.final_answer})
    edits: dict[str, MemoryAction] = {m: "delete" for m in case.faults}
    return RepairDecision(method="ours_no_planner", store_edits=edits, replay=replay,
                          reasons={m: "diagnosed fault" for m in case.faults})


def ours_no_selective_replay(case: Case, client: Any = None) -> RepairDecision:
    """Ablation: our memory dispositions, but replay every step from the earliest seed
    on. A seed that is a record has no time of its own; then replay starts at the
    earliest affected step."""
    plan = plan_case(case)
    a = plan.analysis
    seqs = {s.id: s.seq for s in case.trajectory}
    starts = [seqs[s] for s in _seed_steps(a)] or [seqs[n] for n in a.affected if n in seqs]
    start = min(starts, default=seqs[a.final_answer])
    replay = frozenset(s for s, q in seqs.items() if q >= start)
    return RepairDecision(method="ours_no_selective_replay", store_edits=dict(plan.memory),
                          replay=_with_answer(case, replay), reasons=dict(plan.reasons))


# --- baselines that only edit the store (then retry the final turn) ---------------------

def _final_turn_steps(case: Case) -> frozenset[str]:
    turn = case.final_answer().turn
    return frozenset(s.id for s in case.trajectory if s.turn == turn)


def no_repair(case: Case, client: Any = None) -> RepairDecision:
    """Baseline: change nothing; the failed answer stands (no replay at all)."""
    return RepairDecision(method="no_repair", store_edits={}, replay=frozenset(),
                          kind="store_only")


def _whole_session(case: Case) -> frozenset[str]:
    return _with_answer(case, (s.id for s in case.trajectory))


def full_reset(case: Case, client: Any = None) -> RepairDecision:
    """Baseline: wipe the whole active store, then re-run the whole session on the empty
    store: every step of every turn is replayed in order, each prompt showing the
    conversation up to its turn (so a model that reads the user's earlier turns can
    recover what the user said; facts only memory held are gone)."""
    edits: dict[str, MemoryAction] = {m.id: "delete" for m in case.memory
                                      if m.status == "active"}
    return RepairDecision(method="full_reset", store_edits=edits,
                          replay=_whole_session(case), kind="store_only")


def delete_retrieved(case: Case, client: Any = None) -> RepairDecision:
    """Baseline: delete every record any memory read of the failed run returned, then
    re-run the whole session (as `full_reset`) on what is left."""
    returned = {r for s in case.trajectory if s.type == "memory_read"
                for r in getattr(s, "returned", [])}
    edits: dict[str, MemoryAction] = {m.id: "delete" for m in case.memory
                                      if m.id in returned and m.status == "active"}
    return RepairDecision(method="delete_retrieved", store_edits=edits,
                          replay=_whole_session(case), kind="store_only")


def delete_faults_rerun(case: Case, client: Any = None) -> RepairDecision:
    """Naive baseline: delete the diagnosed faults and re-run the final user turn (no
    dependency analysis: copies of a fault stay, and records a fault retired stay
    retired)."""
    edits: dict[str, MemoryAction] = {m: "delete" for m in case.faults}
    return RepairDecision(method="delete_faults_rerun", store_edits=edits,
                          replay=_with_answer(case, _final_turn_steps(case)),
                          reasons={m: "diagnosed fault" for m in case.faults},
                          kind="store_only")


def retired_by_faults(case: Case) -> list[str]:
    """Records the faults' lineage retired: an inactive record that the write producing
    a fault also retired (a consolidation's sources, a superseded record), or that a
    fault names as consolidated or superseded."""
    records = {m.id: m for m in case.memory}
    faults = [records[f] for f in case.faults if f in records]
    writers = {d.id for f in faults for d in f.deps if d.label == "produce"}
    named = {d.id for f in faults for d in f.deps
             if d.label in ("consolidate", "supersede", "update") and d.id in records}
    out = []
    for m in case.memory:
        if m.status == "active" or m.id in case.faults:
            continue
        if m.id in named or any(d.id in writers and d.label in ("delete", "supersede",
                                                                 "consolidate", "update")
                                for d in m.deps):
            out.append(m.id)
    return out


def delete_restore_rerun(case: Case, client: Any = None) -> RepairDecision:
    """Naive baseline: delete the diagnosed faults, restore the records their lineage
    retired (`retired_by_faults`), and re-run the final user turn."""
    edits: dict[str, MemoryAction] = {m: "delete" for m in case.faults}
    back = retired_by_faults(case)
    edits.update({m: "restore" for m in back})
    reasons = {m: "diagnosed fault" for m in case.faults}
    reasons.update({m: "retired by a fault's lineage" for m in back})
    return RepairDecision(method="delete_restore_rerun", store_edits=edits,
                          replay=_with_answer(case, _final_turn_steps(case)),
                          reasons=reasons, kind="store_only")



# --- the strong simple redo baselines --------------------------------------------------
# Neither reads the dependency graph: they use the diagnosed faults, which step read or
# wrote a record (the `returned` list of a read, a record's `produce` edge) and trajectory
# order. With rule `replay.write.supersedes-own` a replayed write retires what it wrote
# in the failed run, so a redo never keeps the failed run's writes beside their replays.

def _writer_of(case: Case) -> dict[str, str]:
    """Record id -> the step that produced it in the run (session writes only)."""
    steps = {s.id for s in case.trajectory}
    return {m.id: d.id for m in case.memory for d in m.deps
            if d.label == "produce" and d.id in steps}


def first_exposure(case: Case) -> str | None:
    """The earliest step that read a diagnosed fault (a read that returned it, or any
    step with an edge from it) or wrote one; None when no step touched a fault."""
    faults = set(case.faults)
    writer = _writer_of(case)
    touching = {writer[f] for f in faults if f in writer}
    for s in case.trajectory:
        if s.type == "memory_read" and faults & set(getattr(s, "returned", [])):
            touching.add(s.id)
        if any(d.id in faults for d in s.deps):
            touching.add(s.id)
    ordered_steps = [s.id for s in case.steps_in_order() if s.id in touching]
    return ordered_steps[0] if ordered_steps else None


def redo_first_exposure(case: Case, client: Any = None) -> RepairDecision:
    """Strong simple baseline: delete the diagnosed faults, restore the records their
    lineage retired (`retired_by_faults`), drop every record the run wrote from the
    first exposure on (the first step that read or wrote a fault), and replay every
    step from that exposure to the end. No dependency graph, no support check."""
    start_id = first_exposure(case)
    seqs = {s.id: s.seq for s in case.trajectory}
    start = seqs[start_id] if start_id is not None else seqs[case.final_answer().id]
    redo = {sid for sid, q in seqs.items() if q >= start}
    edits: dict[str, MemoryAction] = {m: "delete" for m in case.faults}
    reasons = {m: "diagnosed fault" for m in case.faults}
    for m in retired_by_faults(case):
        edits[m] = "restore"
        reasons[m] = "retired by a fault's lineage"
    records = {m.id: m for m in case.memory}
    for rid, sid in _writer_of(case).items():
        if sid in redo and rid not in edits and records[rid].status == "active":
            edits[rid] = "delete"
            reasons[rid] = f"written by {sid}, at or after the first exposure {start_id}"
    return RepairDecision(method="redo_first_exposure", store_edits=edits,
                          replay=_with_answer(case, redo), reasons=reasons,
                          notes=(f"redo from first exposure {start_id}",) if start_id
                          else ("no step touched a fault: only the answer is replayed",))


def full_rerun(case: Case, client: Any = None) -> RepairDecision:
    """Strong simple baseline ("delete session writes + full re-run"): delete the
    diagnosed faults and every record the session wrote, restore every record the
    session retired (the store as it stood before the session, minus the faults), and
    re-run the whole session. Each replayed prompt shows the conversation up to its
    turn."""
    steps = {s.id for s in case.trajectory}
    edits: dict[str, MemoryAction] = {m: "delete" for m in case.faults}
    reasons = {m: "diagnosed fault" for m in case.faults}
    for m in case.memory:
        if m.id in edits:
            continue
        wrote = any(d.label == "produce" and d.id in steps for d in m.deps)
        retired = m.status != "active" and any(
            d.id in steps and d.label in ("delete", "supersede", "update", "consolidate")
            for d in m.deps)
        if wrote and m.status == "active":
            edits[m.id], reasons[m.id] = "delete", "written during the session"
        elif retired and not wrote:
            edits[m.id], reasons[m.id] = "restore", "retired during the session"
    return RepairDecision(method="full_rerun", store_edits=edits,
                          replay=_whole_session(case), reasons=reasons)


# --- text-only helpers for the model-driven baselines -----------------------------------

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-_.]*[A-Za-z0-9]|[A-Za-z0-9]")
_STOP = frozenset(["a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "at", "by", "from", "is", "are", "was", "were", "be", "i", "me", "my", "you", "your", "we", "our", "he", "she", "it", "its", "they", "their", "this", "that", "these", "those", "as", "not", "no", "yes", "do", "does", "did", "has", "have", "had", "will", "would", "can", "could", "should", "prefers", "prefer", "user", "s"])


def _tokens(text: Any) -> set[str]:
    return {w.casefold() for w in _WORD.findall(str(text))} - _STOP


def _fault_marks(case: Case) -> set[str]:
    """What a text reader can take from the diagnosed records: the words of their values
    that the user's turns do not use (the words of their text that no other active
    record uses, when a record has no value)."""
    records = {m.id: m for m in case.memory}
    said = set().union(*(_tokens(t.text) for t in case.session))
    other_texts = set().union(*(_tokens(m.text) for m in case.memory
                                if m.id not in case.faults and m.status == "active"))
    marks: set[str] = set()
    for f in case.faults:
        m = records[f]
        own = _tokens(m.value) - said if m.value not in (None, "") else set()
        marks |= own or (_tokens(m.text) - said - other_texts)
    return marks


def _step_text(s: Any) -> str:
    parts = [s.text]
    for name in ("args", "output", "value", "query"):
        v = getattr(s, name, None)
        if v not in (None, "", {}, []):
            parts.append(str(v))
    return " ".join(parts)


def _execution_closure(case: Case, steps: set[str]) -> set[str]:
    """Add the tool actions and observations that replaying `steps` needs: a plan brings
    its action, an action its observation and an observation its action (execution
    mechanics from the `produce` edges, not causal attribution)."""
    by_id = {s.id: s for s in case.trajectory}
    produced: dict[str, list[str]] = {}
    for s in case.trajectory:
        for d in s.deps:
            if d.label == "produce" and d.id in by_id:
                produced.setdefault(d.id, []).append(s.id)
    out = set(steps)
    queue = list(steps)
    while queue:
        sid = queue.pop()
        s = by_id[sid]
        nxt = [*produced.get(sid, [])] if s.type in ("plan", "tool_action") else []
        if s.type in ("tool_action", "tool_observation"):
            nxt += [d.id for d in s.deps if d.label == "produce" and d.id in by_id
                    and by_id[d.id].type == "tool_action"]
        for n in nxt:
            if n not in out and by_id[n].type in ("tool_action", "tool_observation"):
                out.add(n)
                queue.append(n)
    return out


METHODS: dict[str, MethodFn] = {
    "ours": ours,
    "ours_store": ours_store,
    "no_repair": no_repair,
    "full_reset": full_reset,
    "delete_retrieved": delete_retrieved,
    "delete_faults_rerun": delete_faults_rerun,
    "delete_restore_rerun": delete_restore_rerun,
    "redo_first_exposure": redo_first_exposure,
    "full_rerun": full_rerun,
    "ours_no_planner": ours_no_planner,
    "ours_no_support_check": ours_no_support_check,
    "ours_no_selective_replay": ours_no_selective_replay,
}
"""Method name -> decision function, in the order of the result tables."""

METHOD_LABELS: dict[str, str] = {
    "no_repair": "No repair",
    "full_reset": "Full memory reset",
    "delete_retrieved": "Delete retrieved memories",
    "delete_faults_rerun": "Delete faults, re-run turn",
    "delete_restore_rerun": "Delete faults + restore, re-run turn",
    "memaudit": "MemAudit-style (scripted)",
    "llm_judge": "LLM-judge repair (scripted)",
    "agenttrace": "AgentTrace-style",
    "redo_first_exposure": "Redo from first exposure",
    "full_rerun": "Delete session writes + full re-run",
    "ours": "Ours",
    "ours_store": "Ours (store)",
    "ours_no_planner": "Ours w/o rollback planner",
    "ours_no_support_check": "Ours w/o support check",
    "ours_no_selective_replay": "Ours w/o selective replay",
}
"""Row labels of the result tables, in table order. The model-driven baselines say
"(scripted)": with the built-in models their auditor and judge are fixed rules, not a
model, so their numbers never stand for a model's judgement."""

BASELINES = ("no_repair", "full_reset", "delete_retrieved", "delete_faults_rerun",
             "delete_restore_rerun", "memaudit", "llm_judge", "agenttrace",
             "redo_first_exposure", "full_rerun")
ABLATIONS = ("ours_no_planner", "ours_no_support_check", "ours_no_selective_replay")

_COUNT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                "sixteen", "seventeen", "eighteen", "nineteen", "twenty")


def methods_phrase() -> str:
    """How many methods the registry holds, and of which kinds, as the docs say it
    (checked against README.md and docs/ by tests/test_method_count_documented.py).

    >>> methods_phrase()
    'fifteen methods (Ours, Ours (store), ten baselines, three ablations)'
    """
    def word(n: int) -> str:
        return _COUNT_WORDS[n] if n < len(_COUNT_WORDS) else str(n)

    ours = [METHOD_LABELS[m] for m in METHOD_LABELS if m not in BASELINES + ABLATIONS]
    return (f"{word(len(METHOD_LABELS))} methods ({', '.join(ours)}, "
            f"{word(len(BASELINES))} baselines, {word(len(ABLATIONS))} ablations)")


def method_names(spec: str = "all") -> list[str]:
    """Resolve `all`, `baselines`, `ablations` or a comma-separated list of names."""
    from .._errors import DgrrError

    if spec == "all":
        return list(METHOD_LABELS)
    if spec == "baselines":
        return ["ours", *BASELINES]
    if spec == "ablations":
        return ["ours", *ABLATIONS]
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in METHODS]
    if unknown or not names:
        raise DgrrError(f"--methods: unknown method(s) {', '.join(unknown) or spec!r}; "
                        f"choose from all, baselines, ablations or {', '.join(METHODS)}")
    return names


def decide(name: str, case: Case, client: Any = None) -> RepairDecision:
    """Run method `name` on `case` with its evaluation labels stripped."""
    return METHODS[name](case.without_eval(), client)


# --- the model-driven baselines -----------------------------------------------------------
# MemAudit-style and LLM-judge repair ask the model layer (stages `audit` and `judge`):
# with the offline reference model their decisions are deterministic, and their calls
# and tokens count in the method's LLM count. AgentTrace-style rebuilds its causal chain
# from the log text with the text procedure below (no model stage exists for it), so its
# decision makes no model calls. None of them sees the runtime's provenance edges (tool
# actions and observations follow their plans through produce edges: execution mechanics).

def _client(client: Any) -> Any:
    if client is not None:
        return client
    from ..model import ModelClient

    return ModelClient()




AUDIT_TRUST = (0.5, 0.95)
"""MemAudit's trust scores: one distribution, U(0.5, 0.95), for every record, faulty or
not (the auditor cannot learn a record's status from its score)."""


def audit_view(case: Case) -> Case:
    """The case as MemAudit sees it: every record's trust drawn afresh from
    `AUDIT_TRUST`, seeded by case and record id (the generator's scores are not used)."""
    import random

    lo, hi = AUDIT_TRUST
    memory = [m.model_copy(update={"trust": round(random.Random(
        f"memaudit:{case.case_id}:{m.id}").uniform(lo, hi), 2)}) for m in case.memory]
    return case.model_copy(update={"memory": memory})


def memaudit(case: Case, client: Any = None) -> RepairDecision:
    """Baseline (MemAudit-style): the auditor model examines every active record against
    the rest of the active store (one call per record), with trust scores from one
    distribution for every record (`audit_view`); flagged records are deleted (the
    diagnosed faults when it flags none), then the final user turn is retried."""
    from .._errors import ModelError
    from ..model import audit_inputs

    client = _client(client)
    calls0, tokens0 = client.calls, client.tokens
    flags: list[str] = []
    notes: list[str] = []
    view = audit_view(case)
    for m in view.memory:
        if m.status != "active":
            continue
        try:
            if client.complete_json("audit", audit_inputs(view, m.id)).suspicious:
                flags.append(m.id)
        except ModelError as exc:
            notes.append(f"audit of {m.id} failed: {exc}")
    if not flags:
        flags = list(case.faults)
        notes.append("auditor flagged nothing: fell back to the diagnosed faults")
    edits: dict[str, MemoryAction] = {m: "delete" for m in flags}
    return RepairDecision(method="memaudit", store_edits=edits,
                          replay=_with_answer(case, _final_turn_steps(case)),
                          reasons={m: "flagged by the auditor" for m in flags},
                          notes=tuple(notes), llm_calls=client.calls - calls0,
                          tokens=client.tokens - tokens0, kind="store_only")


def open_judge_inputs(case: Case) -> dict[str, Any]:
    """What the open judge (judge/v2) is shown: the run as a log (user turns and steps in
    order, reads with the ids they returned), the active memory with the step that wrote
    each record, the retired records with the step that retired them, and the diagnosed
    faults as flagged records. No dependency edges, no rules."""
    steps = {s.id: s for s in case.trajectory}

    def writer(m: Any) -> str | None:
        return next((d.id for d in m.deps if d.label == "produce" and d.id in steps), None)

    def retirer(m: Any) -> str | None:
        return next((d.id for d in m.deps if d.label in ("delete", "supersede", "update",
                                                            "consolidate")
                     and d.id in steps), None)

    def rec(m: Any) -> dict[str, Any]:
        return {"id": m.id, "user_id": m.user_id, "text": m.text, "key": m.key,
                "value": m.value, "written_by": writer(m)}

    log: list[tuple[int, dict[str, Any]]] = [
        (t.seq, {"id": t.id, "type": "turn", "text": t.text}) for t in case.session]
    for s in case.trajectory:
        item: dict[str, Any] = {"id": s.id, "type": s.type, "turn": s.turn, "text": s.text}
        if s.type == "memory_read":
            item["returned"] = list(getattr(s, "returned", []))
        if s.type == "claim":
            item["key"], item["value"] = getattr(s, "key", None), getattr(s, "value", None)
        log.append((s.seq, item))
    by_id = {m.id: m for m in case.memory}
    return {"user_id": case.user_id,
            "flagged": [rec(by_id[f]) for f in case.faults if f in by_id],
            "trajectory": [item for _, item in sorted(log, key=lambda x: x[0])],
            "memory": [rec(m) for m in case.memory if m.status == "active"],
            "retired": [{**rec(m), "status": m.status, "retired_by": retirer(m)}
                        for m in case.memory if m.status != "active"]}


def llm_judge(case: Case, client: Any = None) -> RepairDecision:
    """Baseline (LLM-judge repair, in the spirit of Reflexion/Self-Refine): the judge
    model gets the open prompt judge/v2 (one call) with `open_judge_inputs`, and
    chooses per record delete, revise (removed; the redo writes again), restore or keep,
    and the step to redo from. The run is redone from that step: every later step is
    replayed with the edited store (only the final turn when it names none). If the
    call fails, the faults are deleted and only the final turn is re-run."""
    from .._errors import ModelError

    client = _client(client)
    calls0, tokens0 = client.calls, client.tokens
    records = {m.id: m for m in case.memory}
    edits: dict[str, MemoryAction] = {}
    reasons: dict[str, str] = {}
    seqs = {s.id: s.seq for s in case.trajectory}
    try:
        out = client.complete_json("judge", open_judge_inputs(case))
        for v in out.records:
            if v.id not in records:
                continue
            active = records[v.id].status == "active"
            if v.action in ("delete", "revise") and active:
                edits[v.id] = "delete"
            elif v.action == "restore" and not active:
                edits[v.id] = "restore"
            else:
                continue
            reasons[v.id] = f"the judge chose {v.action}: {v.reason}".rstrip(": ")
        start = seqs.get(out.redo_from or "")
        notes: tuple[str, ...] = (out.reason,)
    except ModelError as exc:
        edits = {m: "delete" for m in case.faults}
        start, notes = None, (f"judge failed: {exc}",)
    redo = ({sid for sid, q in seqs.items() if q >= start} if start is not None
            else set(_final_turn_steps(case)))
    return RepairDecision(method="llm_judge", store_edits=edits,
                          replay=_with_answer(case, redo), reasons=reasons,
                          notes=notes, llm_calls=client.calls - calls0,
                          tokens=client.tokens - tokens0)


def _implicated(case: Case) -> list[str]:
    """Steps a reader of the log links to the diagnosed records: those that repeat what is
    distinctive of them, and the reads that returned them (in trajectory order)."""
    marks = _fault_marks(case)
    faults = set(case.faults)
    return [s.id for s in case.steps_in_order()
            if _tokens(_step_text(s)) & marks
            or (s.type == "memory_read" and faults & set(getattr(s, "returned", [])))]


def agenttrace(case: Case, client: Any = None) -> RepairDecision:
    """Baseline (AgentTrace-style): a causal chain rebuilt from the log text (the steps
    that repeat what is distinctive of a diagnosed record, or read one), localising the
    root cause at its earliest step; the implicated steps are replayed with the root-cause
    records left out of their context. It never edits the store: the records are set
    aside for the replay only, and the persisted store is the original one."""
    implicated = _implicated(case)
    hidden: dict[str, MemoryAction] = {m: "quarantine" for m in case.faults}
    return RepairDecision(method="agenttrace", store_edits=hidden,
                          replay=_with_answer(case, _execution_closure(case, set(implicated))),
                          persist_store=False,
                          notes=(f"root cause localised at {implicated[0]}",) if implicated
                          else ("no step linked to the faults: only the answer is replayed",))


METHODS.update({"memaudit": memaudit, "llm_judge": llm_judge, "agenttrace": agenttrace})
METHODS = {name: METHODS[name] for name in METHOD_LABELS}
