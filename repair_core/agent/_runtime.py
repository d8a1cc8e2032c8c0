"""The instrumented reference agent: read → claims → plan → tool → answer → writes (and
periodic consolidation), recorded as a `dgrr.case/v1` trajectory with full provenance."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._errors import ModelError
from ..case._case import (
    CASE_FORMAT,
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
from ..case._load import case_from_data
from ..model import REFERENCE_MODEL, ModelClient
from ..tools import ToolError, ToolRegistry, World, default_registry
from ._evidence import claim_item, observation_item, ordered, record_item, request_item
from ._store import LexicalRetriever, MemoryStore, Retriever

__all__ = ["Agent", "recurrence_probe"]


@dataclass
class _Recorder:
    """Allocates ids and seqs and collects what the execution did."""

    turns: list[Turn] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    seq: int = 0

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def turn(self, text: str) -> Turn:
        t = Turn(id=f"u{len(self.turns) + 1}", seq=self.next_seq(), text=text)
        self.turns.append(t)
        return t

    def step(self, cls: type, turn: Turn, **fields: Any) -> Any:
        seq = self.next_seq()
        s = cls(id=f"s{seq}", seq=seq, turn=turn.id, **fields)
        self.steps.append(s)
        return s


class Agent:
    """A memory-augmented, tool-using agent whose every model call goes through
    `ModelClient` and whose every step records its premises."""

    def __init__(self, model: str = REFERENCE_MODEL, api_base: str | None = None, *,
                 tools: ToolRegistry | None = None, retriever: Retriever | None = None,
                 consolidate_every: int = 0, client: ModelClient | None = None,
                 max_tools: int = 3) -> None:
        self.client = client or ModelClient(model, api_base)
        self.tools = tools or default_registry()
        self.retriever = retriever or LexicalRetriever()
        self.consolidate_every = consolidate_every
        self.max_tools = max_tools

    # ---- public ------------------------------------------------------------------------

    def run_session(self, user_id: str, turns: Sequence[str], store: MemoryStore, *,
                    case_id: str = "case", domain: str | None = None,
                    faults: Sequence[str] = (), world: World | None = None) -> Case:
        """Run the user's turns against `store` (mutated in place) and return the case."""
        rec = _Recorder()
        world = world if world is not None else self.tools.new_world()
        created: set[str] = set()
        used_tools: list[str] = []
        for n, text in enumerate(turns, start=1):
            turn = rec.turn(text)
            self._turn(rec, turn, user_id, store, domain, world, created, used_tools)
            if self.consolidate_every and n % self.consolidate_every == 0:
                self._consolidate(rec, turn, user_id, store, created)
        return self._case(rec, store, user_id, case_id, domain, faults, created, used_tools)

    # ---- one turn ----------------------------------------------------------------------

    def _turn(self, rec: _Recorder, turn: Turn, user_id: str, store: MemoryStore,
              domain: str | None, world: World, created: set[str], used: list[str]) -> None:
        tool_names = self.tools.names(domain)
        read = self._read(rec, turn, user_id, store, tool_names)
        order = {r.id: i for i, r in enumerate(store.records)}
        records = ordered([record_item(store.get(r)) for r in read.returned  # type: ignore[arg-type]
                           if store.get(r) is not None], order)
        made = [self._claim(rec, turn, user_id, read, records, key)
                for key in dict.fromkeys(r["key"] for r in records if r.get("key"))]
        claims = [c for c in made if c is not None]
        observations: list[ToolObservation] = []
        tools_of: dict[str, str] = {}
        done: list[str] = []
        for _ in range(self.max_tools):
            evidence = [claim_item(c) for c in claims] + [
                observation_item(o, tools_of.get(o.id)) for o in observations]
            obs = self._tool_step(rec, turn, user_id, tool_names, done, evidence, world)
            if obs is None:
                break
            tool = done[-1]
            tools_of[obs.id] = tool
            if tool not in used:
                used.append(tool)
            observations.append(obs)
        evidence = [claim_item(c) for c in claims] + [
            observation_item(o, tools_of.get(o.id)) for o in observations if o.status == "ok"]
        self._answer(rec, turn, user_id, evidence)
        self._remember(rec, turn, user_id, store, evidence, created)

    def _read(self, rec: _Recorder, turn: Turn, user_id: str, store: MemoryStore,
              tool_names: list[str]) -> MemoryRead:
        wanted = [turn.text]
        for name in tool_names:
            spec = self.tools.get(name)
            if spec and any(_mentions(turn.text, kw) for kw in spec.keywords):
                wanted += [s.replace("_", " ") for p in spec.params for s in p.slots]
        query = " ".join(dict.fromkeys(wanted))
        returned = self.retriever.retrieve(store.records, query, user_id)
        return rec.step(MemoryRead, turn, type="memory_read", text="retrieve memories for the "
                        "request", query=query, returned=returned,
                        deps=[Dep(id=turn.id, label="initiate"),
                              *(Dep(id=r, label="cite") for r in returned)])

    def _claim(self, rec: _Recorder, turn: Turn, user_id: str, read: MemoryRead,
               records: list[dict[str, Any]], key: str) -> Claim | None:
        inputs = {"user_id": user_id, "request": request_item(turn, rec.turns), "slot": key,
                  "evidence": records}
        try:
            out = self.client.complete_json("claim", inputs)
        except ModelError:
            return None
        said = {t.id for t in rec.turns}  # a cited user turn (this one or an earlier one)
        deps = [Dep(id=read.id, label="cite")]
        deps += [Dep(id=c, label="cite", sufficient=(c == out.support))
                 for c in dict.fromkeys(out.cites) if c not in said]
        if out.support and out.support not in out.cites and out.support not in said:
            deps.append(Dep(id=out.support, label="cite", sufficient=True))
        if out.support in said:
            deps.append(Dep(id=out.support, label="support"))
        return rec.step(Claim, turn, type="claim", text=out.text, key=out.key or key,
                        value=out.value, deps=deps)

    def _tool_step(self, rec: _Recorder, turn: Turn, user_id: str, tool_names: list[str],
                   done: list[str], evidence: list[dict[str, Any]], world: World
                   ) -> ToolObservation | None:
        inputs = {"user_id": user_id, "request": request_item(turn, rec.turns),
                  "tools": self.tools.describe(tool_names), "tool_hint": None, "done": done,
                  "evidence": evidence}
        try:
            out = self.client.complete_json("plan", inputs)
        except ModelError:
            return None
        if out.tool is None or out.tool not in self.tools or out.tool in done:
            return None
        done.append(out.tool)
        plan = rec.step(Plan, turn, type="plan", text=out.text, tool=out.tool,
                        args=dict(out.args),
                        deps=[Dep(id=turn.id, label="initiate"),
                              *_cite_deps(out.cites, rec.turns)])
        shown = ", ".join(f"{k}={v}" for k, v in out.args.items())
        action = rec.step(ToolAction, turn, type="tool_action", text=f"{out.tool}({shown})",
                          tool=out.tool, args=dict(out.args),
                          deps=[Dep(id=plan.id, label="produce")])
        deps = [Dep(id=action.id, label="produce")]
        try:
            result = self.tools.call(world, out.tool, dict(out.args))
        except ToolError as exc:
            action.status = "failed"
            return rec.step(ToolObservation, turn, type="tool_observation", status="failed",
                            text=f"{out.tool} failed: {exc}", output={"error": str(exc)},
                            deps=deps)
        return rec.step(ToolObservation, turn, type="tool_observation", text=result.text,
                        output=result.output, deps=deps)

    def _answer(self, rec: _Recorder, turn: Turn, user_id: str,
                evidence: list[dict[str, Any]]) -> Answer:
        inputs = {"user_id": user_id, "request": request_item(turn, rec.turns),
                  "evidence": evidence}
        try:
            out = self.client.complete_json("answer", inputs)
            text, cites = out.text, list(out.cites)
        except ModelError as exc:
            text, cites = f"(no answer: {exc})", []
        return rec.step(Answer, turn, type="answer", text=text,
                        deps=[Dep(id=turn.id, label="initiate"),
                              *_cite_deps(cites, rec.turns)])

    def _remember(self, rec: _Recorder, turn: Turn, user_id: str, store: MemoryStore,
                  evidence: list[dict[str, Any]], created: set[str]) -> None:
        inputs = {"user_id": user_id, "request": request_item(turn, rec.turns), "op": "add",
                  "slot": None,
                  "evidence": evidence,
                  "memory": [record_item(r) for r in store.active() if r.user_id == user_id]}
        try:
            out = self.client.complete_json("memory_write", inputs)
        except ModelError:
            return
        for r in out.records:
            rid = store.new_id()
            deps = [Dep(id=r.derive, label="derive")] if r.derive else []
            deps += [Dep(id=c, label="cite") for c in dict.fromkeys(r.cites)
                     if c != r.derive and c != turn.id]
            write = rec.step(MemoryWrite, turn, type="memory_write", op="add", target=[rid],
                             text=f"remember: {r.text}", deps=deps or
                             [Dep(id=turn.id, label="initiate")])
            store.add(MemoryRecord(id=rid, user_id=user_id, text=r.text, key=r.key,
                                   value=r.value, status="active", created_seq=write.seq,
                                   deps=[Dep(id=write.id, label="produce")]))
            created.add(rid)

    def _consolidate(self, rec: _Recorder, turn: Turn, user_id: str, store: MemoryStore,
                     created: set[str]) -> None:
        keys = dict.fromkeys(r.key for r in store.active() if r.user_id == user_id and r.key)
        for key in keys:
            if key is not None:
                self._consolidate_key(rec, turn, user_id, store, created, key)

    def _consolidate_key(self, rec: _Recorder, turn: Turn, user_id: str, store: MemoryStore,
                         created: set[str], key: str) -> None:
        """Fold the user's active records under `key` into one summary record."""
        members = [r for r in store.active() if r.user_id == user_id and r.key == key]
        if len(members) < 2:
            return
        order = {r.id: i for i, r in enumerate(store.records)}
        items = ordered([record_item(r) for r in members], order)
        try:
            out = self.client.complete_json("consolidate", {"user_id": user_id, "key": key,
                                                            "records": items})
        except ModelError:
            return
        value, text = self._consolidated(out.value, out.text)
        rid = store.new_id()
        sources = [r for r in members if r.id in out.cites]
        write = rec.step(MemoryWrite, turn, type="memory_write", op="consolidate",
                         target=[*(r.id for r in sources), rid],
                         text=f"consolidate {key}: {', '.join(r.id for r in sources)}",
                         deps=[Dep(id=turn.id, label="initiate"),
                               *(Dep(id=r.id, label="cite") for r in sources)])
        for r in sources:
            r.status = "superseded"
            r.deps = [*r.deps, Dep(id=write.id, label="delete")]
        store.add(MemoryRecord(id=rid, user_id=user_id, text=text, key=out.key or key,
                               value=value, status="active", created_seq=write.seq,
                               deps=[Dep(id=write.id, label="produce"),
                                     *(Dep(id=r.id, label="consolidate") for r in sources)]))
        created.add(rid)

    def _consolidated(self, value: Any, text: str) -> tuple[Any, str]:
        """The summary's value and text as stored (a hook: fault injection changes them)."""
        return value, text

    # ---- the case ----------------------------------------------------------------------

    def _case(self, rec: _Recorder, store: MemoryStore, user_id: str, case_id: str,
              domain: str | None, faults: Sequence[str], created: set[str],
              used_tools: list[str]) -> Case:
        known = {t.id for t in rec.turns} | {s.id for s in rec.steps} | {r.id for r in store}
        memory = []
        for r in store.records:
            data = r.model_dump(mode="json")
            if r.id not in created:  # written by an earlier execution: predates this one
                data["created_seq"] = None
            data["deps"] = [d for d in data["deps"] if d["id"] in known]
            memory.append(data)
        tools = [self.tools.get(n).as_case_tool().model_dump(mode="json")  # type: ignore[union-attr]
                 for n in used_tools]
        doc = {"format": CASE_FORMAT, "case_id": case_id, "domain": domain, "user_id": user_id,
               "session": [t.model_dump(mode="json") for t in rec.turns], "memory": memory,
               "trajectory": [s.model_dump(mode="json") for s in rec.steps],
               "faults": list(faults), "tools": tools}
        return case_from_data(doc, source=f"agent run {case_id}")


def _cite_deps(cites: Iterable[str], turns: Sequence[Turn]) -> list[Dep]:
    """Deps of cited ids: an earlier user turn is an `initiate` premise (the current
    one already is), anything else a `cite`."""
    said = {t.id for t in turns}
    current = turns[-1].id if turns else None
    return [Dep(id=c, label="initiate" if c in said else "cite")
            for c in dict.fromkeys(cites) if c != current]


def _mentions(text: str, phrase: str) -> bool:
    import re

    return re.search(rf"(?<!\w){re.escape(phrase.lower())}(?!\w)", text.lower()) is not None


def recurrence_probe(records: Iterable[MemoryRecord], user_id: str, turn: str, *,
                     model: str = REFERENCE_MODEL, api_base: str | None = None,
                     tools: ToolRegistry | None = None, retriever: Retriever | None = None,
                     domain: str | None = None, client: ModelClient | None = None) -> str:
    """Clear all state, load only `records` (their active ones) into a fresh store, re-run
    one user turn in a fresh world and return the answer."""
    fresh = MemoryStore(
        r.model_copy(update={"deps": [], "created_seq": None}, deep=True)
        for r in records if r.status == "active")
    agent = Agent(model, api_base, tools=tools, retriever=retriever, client=client)
    case = agent.run_session(user_id, [turn], fresh, case_id="recurrence-probe", domain=domain)
    return case.final_answer().text
