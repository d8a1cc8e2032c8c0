"""Turning the operations of one trace into a `dgrr.case/v1` document: turns, steps,
records and the dependencies given by the spans, with the missing ones inferred
(`_infer`). Step ids are the spans' hex ids; record ids are the source's ids."""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .. import provenance as pv
from ..case._owner import MEM0_SCOPES
from ..case._trace import TRACE_FIELD, step_trace
from ._call_messages import call_messages
from ._implied import (
    agent_answer_op,
    answered_turns,
    final_answer_op,
    is_final_answer_tool,
    message_tool_ops,
)
from ._infer import infer_deps
from ._llamaindex import Insert, inserts, node_documents
from ._memtools import memory_tool_ops
from ._nesting import collapse_nested
from ._otlp import Span
from ._prompt_memory import prompt_memory_ops
from ._semconv import NOT_GENAI, Operation, Retrieved, classify, session_of, user_of

__all__ = ["Assembled", "assemble", "action_id", "observation_id", "parent_cycles"]

_CHAT_TYPES = ("claim", "plan", "answer")


def parent_cycles(parent: Mapping[str, str | None]) -> Iterator[list[str]]:
    """Each cycle of parent links in `parent` (span id -> parent span id), as the spans on
    it in parent order, once; linear in the number of spans.

    >>> list(parent_cycles({"a": "b", "b": "a", "c": "a", "d": None, "e": "e"}))
    [['a', 'b'], ['e']]
    """
    state: dict[str, int] = {}  # 1: on the walk being followed, 2: done
    for start in parent:
        walk: list[str] = []
        node: str | None = start
        while node is not None and node in parent and node not in state:
            state[node] = 1
            walk.append(node)
            node = parent[node]
        if node is not None and state.get(node) == 1:  # the walk came back to itself
            yield walk[walk.index(node):]
        for seen in walk:
            state[seen] = 2


def action_id(span_id: str) -> str:
    """Step id of the tool_action a tool span becomes."""
    return f"{span_id}-action"


def observation_id(span_id: str) -> str:
    """Step id of the tool_observation a tool span becomes."""
    return f"{span_id}-observation"


@dataclass
class Assembled:
    """A case document built from spans, with what was counted on the way."""

    data: dict[str, Any]
    """The case as JSON data (validated by the caller)."""
    trace_id: str
    """The trace imported."""
    spans_used: int
    """Spans that became a turn or steps."""
    skipped: Counter[str] = field(default_factory=Counter)
    """Spans (or returned documents) left out, by reason."""
    problems: list[str] = field(default_factory=list)
    """Malformed provenance, each naming the span and attribute."""
    span_of: dict[str, str] = field(default_factory=dict)
    """Step or turn id -> the span id it came from."""
    deps_given: int = 0
    """Dependencies the spans (or the store) recorded."""
    deps_inferred: int = 0
    """Dependencies guessed where a span recorded none (`inferred: true`)."""
    traces: list[str] = field(default_factory=list)
    """Every trace imported: the chosen one and the traces of its session, in order."""
    session: str | None = None
    """The session (conversation, thread) id that stitched the traces, when there was one."""
    incomplete: Counter[str] = field(default_factory=Counter)
    """Spans used without some of their content, by what was missing."""
    kinds: Counter[str] = field(default_factory=Counter)
    """Spans of the imported traces by what they were read as (agent, chat, tool, ...)
    or why they were skipped."""
    conflicting: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Record id -> each (memory read step, text) that returned it with another text than
    the one the case keeps (the first the trace showed, or the last a write set)."""

    @property
    def read(self) -> str:
        """What the imported traces held, for a refusal: `3 chat, 2 tool, 1 agent, 4 not
        a GenAI span`."""
        return ", ".join(f"{n} {kind}" for kind, n in self.kinds.most_common()) or "no span"


def assemble(spans: list[Span], *, store: Iterable[Mapping[str, Any]] = (),
             user: str | None = None, case_id: str | None = None,
             trace_id: str | None = None, faults: Iterable[str] = (),
             memory_tools: Mapping[str, str] | None = None,
             memory_in_prompt: Iterable[str] = ()) -> Assembled:
    """The case document of the trace `trace_id` (default: the trace with the most GenAI
    spans) in `spans`, with `store` records (e.g. from a Mem0 history) added first.
    `memory_tools` declares tools that read or write memory (name -> read, write or none;
    `_memtools`); `memory_in_prompt` adds header lines of memory blocks in a model call's
    system or developer message (`_prompt_memory`)."""
    store = list(store)
    classified = [(span, classify(span)) for span in spans]
    ops: dict[str, list[Operation]] = {}
    for span, op in classified:
        ops.setdefault(span.trace_id, [])
        if not isinstance(op, str):
            ops[span.trace_id].append(op)
    order = {t: i for i, t in enumerate(ops)}
    chosen = trace_id if trace_id is not None else max(
        ops, key=lambda t: (len(ops[t]), -order[t]), default="")
    # several traces of one session (session.id, gen_ai.conversation.id, a LangGraph
    # thread) are one case: each trace is usually one turn
    session_of_trace: dict[str, str] = {}
    for span in spans:
        if span.trace_id not in session_of_trace:
            sid = session_of(span)
            if sid is not None:
                session_of_trace[span.trace_id] = sid
    session_id = session_of_trace.get(chosen)
    selected = {t for t in ops if t == chosen or
                (session_id is not None and session_of_trace.get(t) == session_id)}
    skipped: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for span, op in classified:
        if span.trace_id not in selected:
            skipped["span of another trace"] += 1
            continue
        if isinstance(op, str):
            skipped[op] += 1
        kinds[op if isinstance(op, str) else f"{op.kind} span"] += 1
    out = Assembled(data={}, trace_id=chosen, spans_used=0, skipped=skipped,
                    traces=[t for t in ops if t in selected], session=session_id,
                    kinds=kinds)
    mine = [final_answer_op(op) if op.kind == "tool" and is_final_answer_tool(op.tool) else op
            for t in ops if t in selected for op in ops[t]]
    mine += message_tool_ops(mine)
    store_ids = {str(r["text"]).strip(): str(r["id"]) for r in store
                 if r.get("status") == "active" and isinstance(r.get("text"), str)}
    mine = memory_tool_ops(mine, memory_tools, store_ids)
    mine += prompt_memory_ops(mine, memory_in_prompt)
    span_by_id = {s.span_id: s for s in spans if s.trace_id in selected}
    parent = {sid: s.parent_id for sid, s in span_by_id.items()}
    for op in mine:
        parent.setdefault(op.span.span_id, op.span.parent_id)
    cycles = list(parent_cycles(parent))
    if cycles:  # no span can be its own ancestor: such a trace has no tree to import
        out.problems += [f"spans {' -> '.join(c)} -> {c[0]}: a cycle of parentSpanId links "
                         "(a span cannot be its own ancestor)" for c in cycles[:20]]
        return out
    mine, nested = collapse_nested(mine, parent)
    if nested:
        skipped["nested span of the same call (part of the outer one)"] += nested
    documents = node_documents(span_by_id.values())
    if documents:
        mine = [_by_document(op, documents) if op.kind == "memory_search" else op
                for op in mine]
    by_span = {op.span.span_id: op for op in mine}

    agent_memo: dict[str, str | None] = {}

    def agent_ancestor(span_id: str) -> str | None:
        """The nearest agent span above `span_id` (memoised: linear over all spans)."""
        path: dict[str, None] = {}  # ordered, with O(1) membership (a cycle stops the walk)
        p = parent.get(span_id)
        found: str | None = None
        while p is not None and p not in agent_memo and p not in path:
            anc = by_span.get(p)
            if anc is not None and anc.kind == "agent":
                found = p
                break
            path[p] = None
            p = parent.get(p)
        else:
            found = agent_memo.get(p) if p is not None else None
        for q in path:
            agent_memo[q] = found
        return found

    turns: dict[str, Operation] = {}
    for op in mine:
        if op.kind == "agent":
            if agent_ancestor(op.span.span_id) is None:
                turns[op.span.span_id] = op
            else:
                skipped["nested agent span (its steps belong to the outer turn)"] += 1
    steps_ops = [op for op in mine if op.kind != "agent"]
    # an application's own span (not GenAI) that parents GenAI spans is the turn
    root_memo: dict[str, str] = {}
    for op in steps_ops:
        if agent_ancestor(op.span.span_id) is not None:
            continue
        root = _root(op.span.span_id, parent, root_memo)
        if root != op.span.span_id and root in span_by_id and root not in by_span \
                and root not in turns:
            turns[root] = Operation(span_by_id[root], "agent", "gen_ai")
            skipped[NOT_GENAI] -= 1
            kinds[NOT_GENAI] -= 1
            kinds["application span parenting GenAI spans (the turn)"] += 1
    skipped = +skipped
    out.skipped = skipped
    out.kinds = +kinds

    turn_memo: dict[str, str] = {}

    def turn_of(op: Operation) -> str:
        """The turn span above (or at) `op` (memoised: linear over all spans)."""
        if op.span.span_id in turns:
            return op.span.span_id
        path: dict[str, None] = {}
        p = parent.get(op.span.span_id)
        tid = _DEFAULT_TURN
        while p is not None and p not in path:
            if p in turns:
                tid = p
                break
            if p in turn_memo:
                tid = turn_memo[p]
                break
            path[p] = None
            p = parent.get(p)
        for q in path:
            turn_memo[q] = tid
        return tid

    _turn_texts(turns, steps_ops, turn_of, skipped)
    for write in _insert_ops(inserts(span_by_id.values()), turns):
        parent[write.span.span_id] = write.span.parent_id
        steps_ops.append(write)
    answered = answered_turns(steps_ops, turn_of)
    implied_answers: set[str] = set()
    for op in list(turns.values()):
        if op.output and op.span.span_id not in answered:
            answer = agent_answer_op(op)
            parent[answer.span.span_id] = op.span.span_id
            steps_ops.append(answer)
            implied_answers.add(answer.span.span_id)
    ordered = sorted([*turns.values(), *steps_ops],
                     key=lambda o: (o.span.start, o.kind != "agent", o.span.span_id))
    session: list[dict[str, Any]] = []
    trajectory: list[dict[str, Any]] = []
    records: dict[str, dict[str, Any]] = {}
    default_user = user or _first_user(spans, selected) or "unknown"
    for stored in store:
        records[str(stored["id"])] = {**stored, "user_id": stored.get("user_id") or default_user,
                                      "deps": list(stored.get("deps", []))}
    from_store = set(records)
    seen_text: dict[str, str] = {}  # record id -> the text the trace showed it with last
    node_of_span: dict[str, str] = {}
    step_op: dict[str, Operation] = {}
    turn_id_of: dict[str, str] = {}
    latest_version: dict[str, tuple[str, str]] = {}
    seq = 0
    if steps_ops and any(turn_of(op) == _DEFAULT_TURN for op in steps_ops):
        seq += 1
        asked = next((op.user_text for op in sorted(steps_ops, key=lambda o: o.span.start)
                      if turn_of(op) == _DEFAULT_TURN and op.user_text), "")
        session.append({"id": _DEFAULT_TURN, "seq": seq,
                        "text": asked or "(the trace records no agent span: no user turn)"})
    for op in ordered:
        sid = op.span.span_id
        seq += 1
        if op.missing is not None:
            out.incomplete[f"{op.kind} span without {op.missing}"] += 1
        if op.kind == "agent":
            session.append({"id": sid, "seq": seq, "text": op.text})
            node_of_span[sid] = sid
            out.span_of[sid] = sid
            continue
        turn = turn_of(op)
        base: dict[str, Any] = {"seq": seq, "turn": turn}
        if op.kind == "memory_search":
            returned: list[str] = []
            seen_here: set[str] = set()  # `returned` in order, each id once
            for r in op.records:
                if r.id not in records:
                    records[r.id] = {"id": r.id, "user_id": _record_user(r.metadata, default_user),
                                     "text": r.content, "status": "active", "deps": [],
                                     **_owner(r.metadata)}
                if r.id not in from_store:  # the value the agent last saw
                    records[r.id].update(item_fields(r.metadata, f"span {sid}: "
                                                     "gen_ai.memory.records", out.problems))
                    _namespace_owner(records[r.id])
                if r.id not in seen_here:
                    seen_here.add(r.id)
                    returned.append(r.id)
                if r.content:
                    _note_text(out, seen_text, r.id, r.content, sid)
            if op.skipped_documents:
                skipped["returned document with neither id nor content"] += \
                    op.skipped_documents
            step = {"id": sid, **base, "type": "memory_read",
                    "text": f"search memory: {op.query}" if op.query else "search memory",
                    "query": op.query, "returned": returned}
        elif op.kind == "chat":
            step_type = _chat_type(op, out.problems)
            step = {"id": sid, **base, "type": step_type or "claim", "text": op.text,
                    "_explicit_type": step_type is not None}
            if op.tool_calls:
                call = op.tool_calls[0]
                step.update(tool=call.name, args=call.args)
                if not op.text:
                    step["text"] = f"call {call.name}({json.dumps(call.args, sort_keys=True)})"
            verified = op.span.attributes.get(pv.VERIFIED)
            if verified is not None and not isinstance(verified, bool):
                out.problems.append(f"span {sid}: {pv.VERIFIED}: expected a boolean "
                                    f"(true or false), got {_show(verified)}")
            elif verified is not None:
                step["verified"] = verified
        elif op.kind == "tool":
            act, obs = action_id(sid), observation_id(sid)
            unrecorded = op.missing is not None and "arguments" in op.missing
            trajectory.append(_keep_trace(
                {"id": act, **base, "type": "tool_action",
                 "text": f"{op.tool}(arguments not recorded)" if unrecorded
                 else f"{op.tool}({json.dumps(op.args, sort_keys=True)})",
                 "tool": op.tool, "args": op.args, "deps": []}, op.span))
            step_op[act] = op
            out.span_of[act] = sid
            seq += 1
            step = {"id": obs, "seq": seq, "turn": turn, "type": "tool_observation",
                    "text": op.result if isinstance(op.result, str) else
                    "" if op.result is None else json.dumps(op.result),
                    "output": op.result, "status": "failed" if op.span.status_error else "ok"}
            node_of_span[sid] = obs
        else:  # memory_write
            if op.record_id is None:
                skipped["memory write without gen_ai.memory.record.id or "
                        "gen_ai.memory.content"] += 1
                seq -= 1
                continue
            step = {"id": sid, **base, "type": "memory_write", "op": op.write_op,
                    "text": f"{op.write_op} memory {op.record_id}: {op.records[0].content}"
                    if op.records and op.records[0].content else
                    f"{op.write_op} memory {op.record_id}",
                    "target": [op.record_id],
                    "status": "failed" if op.span.status_error else "ok"}
            _write_record(records, from_store, op, sid, seq, default_user, latest_version)
            if op.write_op != "delete" and op.records and op.records[0].content:
                seen_text[str(op.record_id)] = op.records[0].content
            if op.write_op != "delete" and str(op.record_id) not in from_store:
                records[str(op.record_id)].update(
                    item_fields(op.span.attributes, f"span {sid}", out.problems))
                _namespace_owner(records[str(op.record_id)])
        step["deps"] = []
        if op.kind != "tool":  # a tool span's time and usage are its call's
            _keep_trace(step, op.span, model_call=op if op.kind == "chat" else None)
        node_of_span.setdefault(sid, step["id"])
        trajectory.append(step)
        step_op[step["id"]] = op
        turn_id_of[step["id"]] = turn
        out.span_of[step["id"]] = sid
    for rid, seen in out.conflicting.items():
        # kept on the record (an extra field of the case) so that the plan warns too
        records[rid]["conflicting_texts"] = [{"step": step, "text": text}
                                             for step, text in seen]
    _default_answers(trajectory)
    thought = {s["turn"] for s in trajectory if s["type"] in ("claim", "plan", "answer")
               and s["id"] not in implied_answers}
    acted = {s["turn"] for s in trajectory if s["type"] in ("tool_action", "memory_write")}
    if acted - thought:  # e.g. CrewAI's instrumentor alone records no LLM span
        out.incomplete["turn whose tool calls and memory writes no model call in the trace "
                       "made (no LLM span: they are tied to the turn only; trace the model "
                       "client too)"] += len(acted - thought)
    out.spans_used = sum(1 for op in (*turns.values(), *steps_ops)
                         if op.span.span_id in span_by_id)

    _attach_deps(trajectory, step_op, node_of_span, out.problems)
    infer_deps(trajectory, step_op)
    all_deps = [d for node in (*trajectory, *records.values()) for d in node["deps"]]
    out.deps_inferred = sum(1 for d in all_deps if d.get("inferred"))
    out.deps_given = len(all_deps) - out.deps_inferred
    tools = sorted({s["tool"] for s in trajectory if s["type"] == "tool_action"})
    effects = {}
    for s in trajectory:
        if s["type"] == "tool_action":
            eff = step_op[s["id"]].span.attributes.get(pv.TOOL_EFFECT)
            if eff is not None:
                effects[s["tool"]] = eff
    out.data = {
        "format": "dgrr.case/v1",
        "case_id": case_id or f"trace-{chosen}",
        "user_id": default_user,
        "session": session,
        "memory": list(records.values()),
        "trajectory": trajectory,
        "faults": list(faults),
        "tools": [{"name": t, **({"effect": effects[t]} if t in effects else {})}
                  for t in tools],
    }
    return out


_DEFAULT_TURN = "turn-0"


def _by_document(op: Operation, documents: Mapping[str, str]) -> Operation:
    """A read's records named by the documents their nodes were made from."""
    records = tuple(replace(r, id=documents[r.id]) if r.id in documents else r
                    for r in op.records)
    return replace(op, records=records)


def _insert_ops(found: list[Insert], turns: Mapping[str, Operation]) -> list[Operation]:
    """A LlamaIndex insert after a turn: a memory write (of each document) in the latest
    turn before it. An insert before every turn (the index build) is the store as it
    was."""
    starts = sorted((op.span.start, tid) for tid, op in turns.items())
    times = [start for start, _ in starts]
    out = []
    for ins in found:
        at = bisect_right(times, ins.span.start)
        if at == 0:
            continue
        for n, (doc, text) in enumerate(ins.documents):
            span = Span(trace_id=ins.span.trace_id, span_id=f"{ins.span.span_id}-insert-{n}",
                        parent_id=starts[at - 1][1], name="insert", start=ins.span.start + n,
                        end=ins.span.end, status_error=ins.span.status_error,
                        attributes={}, resource=ins.span.resource)
            out.append(Operation(span, "memory_write", "openinference",
                                 records=(Retrieved(doc, text),), record_id=doc,
                                 write_op="add"))
    return out


def _root(span_id: str, parent: Mapping[str, str | None], memo: dict[str, str]) -> str:
    """The topmost ancestor of `span_id` (memoised; a cycle stops the walk)."""
    path: dict[str, None] = {}
    node = span_id
    while node not in memo and node not in path:
        path[node] = None
        up = parent.get(node)
        if up is None or up not in parent:
            break
        node = up
    root = memo.get(node, node)
    for q in path:
        memo[q] = root
    return root


def _turn_texts(turns: dict[str, Operation], steps: list[Operation], turn_of: Any,
                skipped: Counter[str]) -> None:
    """Each turn's text: its agent span's input, else the first user message of its
    first model call. An agent span with neither and no step (an index build, an
    insert) is not a turn."""
    asked: dict[str, str] = {}
    has_steps: set[str] = set()
    for op in sorted(steps, key=lambda o: o.span.start):
        tid = turn_of(op)
        has_steps.add(tid)
        if op.user_text:
            asked.setdefault(tid, op.user_text)
    for tid, op in list(turns.items()):
        if op.text:
            continue
        if asked.get(tid):
            turns[tid] = replace(op, text=asked[tid], missing=None)
        elif tid not in has_steps:
            del turns[tid]
            skipped["agent span without a user message or steps (not a turn)"] += 1
        elif op.missing is None:
            turns[tid] = replace(op, missing="the user's message (an agent or application "
                                 "span's input, or a user message in its model calls)")


def _first_user(spans: list[Span], traces: set[str]) -> str | None:
    for s in spans:
        if s.trace_id in traces:
            v = user_of(s)
            if v is not None:
                return v
    return None


_USAGE = {"input_tokens": ("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens",
                            "llm.token_count.prompt"),
          "output_tokens": ("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens",
                            "llm.token_count.completion"),
          "cost": ("gen_ai.usage.cost", "llm.cost.total")}


def _keep_trace(step: dict[str, Any], span: Span, *, model_call: Operation | None = None
                ) -> dict[str, Any]:
    """`step` with what its span recorded besides content under its `trace` key
    (`repair_core.case._trace.StepTrace`): its name and operation, start and end time,
    and the token usage and
    cost of a model call, by the attribute names of each convention, and, for a
    `model_call`, the model and the messages sent and answered (`_call_messages`); a value
    not of its shape is not kept."""
    a = span.attributes
    raw: dict[str, Any] = {"span_name": span.name,
                           "operation": a.get("gen_ai.operation.name",
                                              a.get("openinference.span.kind")),
                           "start_ns": span.start or None, "end_ns": span.end or None}
    for key, names in _USAGE.items():
        raw[key] = next((a[n] for n in names if n in a), None)
    if model_call is not None:
        call = call_messages(span)
        raw.update(model=call.model, provider=call.provider, input_messages=call.sent,
                   output_messages=_with_calls(call.answered, model_call))
    kept = step_trace({TRACE_FIELD: raw})
    if kept is not None:
        step[TRACE_FIELD] = kept.model_dump(mode="json", exclude_none=True,
                                           exclude_defaults=True)
    return step


def _with_calls(answered: list[dict[str, str]], op: Operation) -> list[dict[str, str]]:
    """The completion's messages, or, when they do not show the tool calls the classifier
    read from the span elsewhere (OpenLit <= 1.3x keeps them in
    `gen_ai.response.tool_calls` and writes "None" as the text), the reply as one message
    of its text and calls."""
    calls = [f"call {c.name}({json.dumps(c.args, sort_keys=True, ensure_ascii=False)})"
             for c in op.tool_calls]
    if not calls or any(f"call {op.tool_calls[0].name}(" in m["content"] for m in answered):
        return answered
    return [{"role": "assistant", "content": "\n".join([op.text, *calls] if op.text
                                                         else calls)}]


def item_fields(source: Mapping[str, Any], where: str, problems: list[str]) -> dict[str, Any]:
    """A LangGraph item's namespace, key and whole value as the trace saw them
    (`dgrr.memory.namespace`, `dgrr.memory.key`, `dgrr.memory.value` on a write span or in
    a returned record's metadata), as the case record's `langgraph_namespace`,
    `langgraph_key` and `langgraph_value` (what an apply checks the store against); {}
    when the trace did not record them."""
    raw_value = source.get(pv.MEMORY_VALUE)
    if raw_value is None:
        return {}
    out: dict[str, Any] = {}
    try:
        value = json.loads(raw_value) if isinstance(raw_value, str) else None
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        problems.append(f"{where}: {pv.MEMORY_VALUE}: expected a JSON object, got "
                        f"{_show(raw_value)}")
        return {}
    out["langgraph_value"] = value
    raw_ns, key = source.get(pv.MEMORY_NAMESPACE), source.get(pv.MEMORY_KEY)
    if raw_ns is None and key is None:
        return out
    try:
        ns = json.loads(raw_ns) if isinstance(raw_ns, str) else raw_ns
    except (ValueError, RecursionError):
        ns = None
    if not isinstance(ns, list) or not all(isinstance(p, str) for p in ns):
        problems.append(f"{where}: {pv.MEMORY_NAMESPACE}: expected a JSON list of strings, "
                        f"got {_show(raw_ns)}")
    elif not isinstance(key, str):
        problems.append(f"{where}: {pv.MEMORY_KEY}: expected a string, got {_show(key)}")
    else:
        out.update(langgraph_namespace=ns, langgraph_key=key)
    return out


def _note_text(out: Assembled, seen_text: dict[str, str], rid: str, text: str,
               step: str) -> None:
    """Note that memory read `step` returned record `rid` with `text`: the first text seen
    is kept, another one (with no write between them) is a conflict, never silently
    dropped (warning `conflicting-texts`)."""
    kept = seen_text.setdefault(rid, text)
    if kept != text:
        out.conflicting.setdefault(rid, []).append((step, text))




def _owner(meta: Mapping[str, Any]) -> dict[str, Any]:
    """`{"owner": {...}}`: the scope ids the source gave with a returned record (Mem0's
    `user_id`, `agent_id`, `run_id`), so that the plan can tell records of someone other
    than the case's user (warning `other-owner`); {} when it gave none."""
    owner = {k: v for k in MEM0_SCOPES if isinstance(v := meta.get(k), str) and v}
    return {"owner": owner} if owner else {}


def _namespace_owner(record: dict[str, Any]) -> None:
    """A LangGraph item's owner is its namespace: `record` (with `langgraph_namespace`)
    gets it as `owner["namespace"]`, beside any scope ids its source gave."""
    ns = record.get("langgraph_namespace")
    if isinstance(ns, list):
        record["owner"] = {**(record.get("owner") or {}), "namespace": list(ns)}


def _record_user(meta: Mapping[str, Any], default: str) -> str:
    for key in ("user_id", "user"):
        v = meta.get(key)
        if isinstance(v, str) and v:
            return v
    return default


def _chat_type(op: Operation, problems: list[str]) -> str | None:
    t = op.span.attributes.get(pv.STEP_TYPE)
    if t is None:
        return op.step_type
    if t not in _CHAT_TYPES:
        problems.append(f"span {op.span.span_id}: {pv.STEP_TYPE}: a model call is one of "
                        f"{', '.join(_CHAT_TYPES)}, got {t!r}")
        return None
    return str(t)


def _default_answers(trajectory: list[dict[str, Any]]) -> None:
    """In each turn without an explicit answer, an untyped model call without tool calls,
    the last of the turn, is the answer; any other untyped call with tool calls is a plan."""
    by_turn: dict[str, list[dict[str, Any]]] = {}
    for s in trajectory:
        if "_explicit_type" in s:
            by_turn.setdefault(s["turn"], []).append(s)
    for chats in by_turn.values():
        for s in chats:
            if not s["_explicit_type"] and "tool" in s:
                s["type"] = "plan"
        if not any(s["type"] == "answer" and s["_explicit_type"] for s in chats):
            free = [s for s in chats if not s["_explicit_type"] and "tool" not in s]
            if free:
                free[-1]["type"] = "answer"
    for s in trajectory:
        explicit = s.pop("_explicit_type", None)
        if explicit is not None and s["type"] != "plan":
            s.pop("tool", None)
            s.pop("args", None)


def _write_record(records: dict[str, dict[str, Any]], from_store: set[str], op: Operation,
                  write: str, seq: int, user: str,
                  latest: dict[str, tuple[str, str]] | None = None) -> None:
    rid = str(op.record_id)
    latest = {} if latest is None else latest  # record id -> (its latest version, the write)
    content = op.records[0].content if op.records else ""
    label = {"add": "produce", "update": "update", "delete": "delete"}[op.write_op or "add"]
    old = op.span.attributes.get(pv.OLD_CONTENT)
    if op.write_op == "delete" and not content and isinstance(old, str):
        content = old
    rec = records.get(rid)
    if rec is None:
        rec = records[rid] = {"id": rid, "user_id": user, "text": content,
                              "status": "deleted" if op.write_op == "delete" else "active",
                              "deps": []}
    elif rid not in from_store:
        if op.write_op == "delete":
            rec["status"] = "deleted"
        elif content:
            rec["text"] = content
    if op.write_op == "update" and isinstance(old, str) and rid not in from_store:
        # the text this update replaced (dgrr.memory.old_content): a superseded version,
        # retired by the record's current text (as in a Mem0 history import), so that a
        # fault diagnosed on the current text, or an affected write that produced it,
        # restores it (rule memory.restore). Once a later update replaces that text, the
        # version is retired by the write that replaced it instead: else diagnosing the
        # current text would bring every earlier text back at once.
        if rid in latest:
            prev_id, prev_write = latest[rid]
            records[prev_id]["deps"] = [{"id": prev_write, "label": "delete"}]
        latest[rid] = (f"{rid}@{write}", write)
        records[f"{rid}@{write}"] = {"id": f"{rid}@{write}", "user_id": rec["user_id"],
                                     "text": old, "status": "superseded",
                                     "deps": [{"id": rid, "label": "delete"}],
                                     "version_of": rid}
    if op.write_op == "add" and rec.get("created_seq") is None:
        rec["created_seq"] = seq
    rec["deps"].append({"id": write, "label": label})


def _attach_deps(trajectory: list[dict[str, Any]], step_op: Mapping[str, Operation],
                 node_of_span: Mapping[str, str], problems: list[str]) -> None:
    """Deps the spans give: `dgrr.deps`, links with `dgrr.dep.label`, and what the span
    structure records (the turn that started a read, the records it returned, the action
    an observation came from). Marks each step `_provenance` when the span had any."""
    for s in trajectory:
        op = step_op[s["id"]]
        deps: list[dict[str, Any]] = []
        sid = op.span.span_id
        if s["type"] == "tool_observation":
            deps.append({"id": action_id(sid), "label": "produce"})
        else:
            explicit = _explicit_deps(op, node_of_span, problems)
            if explicit is not None:
                deps += explicit
                s["_provenance"] = True
            elif s["type"] == "memory_read":
                deps.append({"id": s["turn"], "label": "initiate"})
        if s["type"] == "memory_read" and "_provenance" not in s:
            deps += [{"id": r, "label": "cite"} for r in s["returned"]]
        if s["type"] == "plan" and "_provenance" not in s:
            deps.append({"id": s["turn"], "label": "initiate"})
        s["deps"] = _dedupe(deps)


def _explicit_deps(op: Operation, node_of_span: Mapping[str, str], problems: list[str]
                   ) -> list[dict[str, Any]] | None:
    a = op.span.attributes
    where = f"span {op.span.span_id}"
    out: list[dict[str, Any]] = []
    found = False
    raw = a.get(pv.DEPS)
    if raw is not None:
        found = True
        try:
            items = json.loads(raw) if isinstance(raw, str) else None
        except (ValueError, RecursionError) as exc:
            problems.append(f"{where}: {pv.DEPS}: not JSON ({exc.__class__.__name__}: {exc})")
            items = []
        if not isinstance(items, list):
            problems.append(f"{where}: {pv.DEPS}: expected a JSON list of "
                            "{id, label, sufficient?}")
            items = []
        for n, d in enumerate(items):
            if not isinstance(d, dict) or not isinstance(d.get("id"), str) \
                    or not isinstance(d.get("label"), str):
                problems.append(f"{where}: {pv.DEPS}[{n}]: expected {{id, label, sufficient?}}, "
                                f"got {json.dumps(d)[:60]}")
                continue
            sufficient = d.get("sufficient", False)
            if not isinstance(sufficient, bool):
                problems.append(f"{where}: {pv.DEPS}[{n}].sufficient: expected a boolean "
                                f"(true or false), got {_show(sufficient)}")
                continue
            dep = {"id": node_of_span.get(d["id"].lower(), d["id"]), "label": d["label"]}
            if sufficient:
                dep["sufficient"] = True
            out.append(dep)
    for link in op.span.links:
        label = link.attributes.get(pv.DEP_LABEL)
        if label is None:
            continue
        found = True
        if not isinstance(label, str):
            problems.append(f"{where}: link to span {link.span_id}: {pv.DEP_LABEL}: expected "
                            f"a string, got {_show(label)}")
            continue
        sufficient = link.attributes.get(pv.DEP_SUFFICIENT, False)
        if not isinstance(sufficient, bool):
            problems.append(f"{where}: link to span {link.span_id}: {pv.DEP_SUFFICIENT}: "
                            f"expected a boolean (true or false), got {_show(sufficient)}")
            continue
        dep = {"id": node_of_span.get(link.span_id, link.span_id), "label": label}
        if sufficient:
            dep["sufficient"] = True
        out.append(dep)
    return out if found else None


def _show(value: Any, limit: int = 60) -> str:
    """A value as the JSON (or text) a person would recognise, cut to `limit`."""
    try:
        text = json.dumps(value, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _dedupe(deps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[tuple[str, str]] = set()
    out = []
    for d in deps:
        key = (d["id"], d["label"])
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
