"""Repairing a LangGraph thread whose state took in a poisoned record or message.

A repaired store is not enough when the poison already reached a thread's state: the
agent's next turn on that thread reads its own conversation (the recalled notes, the
answer built on them) from the checkpointer. :func:`fork_thread` finds the last
checkpoint of the thread before the poison arrived and forks the thread from there with
LangGraph's own API (`graph.update_state(that checkpoint, None, as_node="__copy__")`): a
new checkpoint with the same values and pending tasks becomes the thread's head. No
checkpoint is edited or deleted: the poisoned branch stays in the thread's history
(`graph.get_state_history`) for audit, and :class:`ThreadFork` names its head.

Resuming the fork (`graph.invoke(None, config)`) re-runs the rest of that turn against the
repaired store; a new turn on the thread starts from the clean state.

    fork = fork_thread(graph, {"configurable": {"thread_id": "t1"}}, poisoned_texts(case))
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._errors import DgrrError

__all__ = ["ThreadFork", "RecordedFork", "poisoned_texts", "plan_fork", "fork_thread",
           "afork_thread", "recorded_forks", "fork_lines", "MIN_MATCH", "FORK_TARGET"]

MIN_MATCH = 12
"""Shorter texts are not looked for in a thread's state (they would match by chance)."""

_CHAT_STEPS = ("claim", "plan", "answer", "tool_observation")


@dataclass(frozen=True)
class ThreadFork:
    """Where a thread is (or would be) forked, and what the fork leaves behind."""

    thread_id: str
    """The thread."""
    head: str
    """Checkpoint id of the thread's head before the fork (kept, for audit)."""
    first_poisoned: str
    """The earliest checkpoint (on the head's branch) whose state holds a poisoned text."""
    fork_from: str
    """The last checkpoint before it: the fork has its values and pending tasks."""
    next: tuple[str, ...]
    """The nodes the fork would run next when resumed."""
    found: tuple[str, ...]
    """The poisoned texts found in the first poisoned checkpoint's state."""
    dropped: tuple[dict[str, str], ...] = ()
    """Messages (id, type, text) in the head's state that the fork does not have."""
    fork: str | None = None
    """Checkpoint id of the new head (None until forked)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-able account of the fork (for a report or an approvals log)."""
        return {"thread_id": self.thread_id, "head": self.head,
                "first_poisoned": self.first_poisoned, "fork_from": self.fork_from,
                "next": list(self.next), "found": list(self.found),
                "dropped": [dict(d) for d in self.dropped], "fork": self.fork}

    @classmethod
    def from_dict(cls, data: Any) -> ThreadFork:
        """The fork :meth:`as_dict` wrote; a :class:`DgrrError` naming the first field
        that is not what it wrote."""
        if not isinstance(data, Mapping):
            raise DgrrError(f"expected a JSON object, got {type(data).__name__}")
        for name in ("thread_id", "head", "first_poisoned", "fork_from"):
            if not isinstance(data.get(name), str):
                raise DgrrError(f"{name}: expected a string, got {_short(data.get(name))}")
        if data.get("fork") is not None and not isinstance(data["fork"], str):
            raise DgrrError(f"fork: expected a string or null, got {_short(data['fork'])}")
        for name in ("next", "found"):
            v = data.get(name, [])
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise DgrrError(f"{name}: expected a list of strings, got {_short(v)}")
        dropped = data.get("dropped", [])
        if not isinstance(dropped, list):
            raise DgrrError(f"dropped: expected a list, got {_short(dropped)}")
        for i, d in enumerate(dropped):
            if not isinstance(d, Mapping) or not all(
                    isinstance(d.get(k), str) for k in ("id", "type", "text")):
                raise DgrrError(f"dropped[{i}]: expected {{id, type, text}} strings, got "
                                f"{_short(d)}")
        return cls(thread_id=data["thread_id"], head=data["head"],
                   first_poisoned=data["first_poisoned"], fork_from=data["fork_from"],
                   next=tuple(data.get("next", [])), found=tuple(data.get("found", [])),
                   dropped=tuple({k: d[k] for k in ("id", "type", "text")} for d in dropped),
                   fork=data.get("fork"))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


FORK_TARGET = "langgraph-thread:"
"""Start of the `target` of the approvals-log event `dgrr fork-thread --apply` records
(`langgraph-thread:<thread id>`; its comment is :meth:`ThreadFork.as_dict` as JSON)."""


@dataclass(frozen=True)
class RecordedFork:
    """A thread fork as the approvals log records it."""

    event_id: int
    """The `applied` event's id."""
    approval_id: int | None
    """The approval it applied."""
    reviewer: str
    """Who forked."""
    created_at: str
    """When (UTC, ISO 8601)."""
    fork: ThreadFork
    """The fork: thread, old head (kept), new head, the checkpoint forked from, what the
    new head no longer has."""
    digest_matches: bool
    """The event's `outputs_sha256` is the digest of this record (it was not altered)."""


def fork_lines(fork: ThreadFork) -> list[str]:
    """The fork as lines of plain text for a person (ids and texts as they are)."""
    found = "; ".join(repr(t if len(t) <= 80 else t[:79] + "…") for t in fork.found)
    return [
        f"thread:                       {fork.thread_id} (LangGraph forks within the thread: "
        "the id stays, a new head checkpoint is added)",
        f"old head (kept for audit):    {fork.head}",
        f"new head (the fork):          {fork.fork or '(not forked yet)'}",
        f"forked from checkpoint:       {fork.fork_from}",
        f"poison first in checkpoint:   {fork.first_poisoned}",
        f"next on resume:               {', '.join(fork.next) or 'nothing'}",
        f"poisoned texts found:         {found or 'none'}",
        f"messages dropped from head:   {len(fork.dropped)}",
    ]


def recorded_forks(store: Any, case_id: str, limit: int = 500
                   ) -> tuple[list[RecordedFork], list[str]]:
    """The thread forks recorded for `case_id` in the approvals log `store` (newest
    first), and one line per event that names a fork but cannot be read."""
    from ..approvals import sha256_json

    forks: list[RecordedFork] = []
    problems: list[str] = []
    for rec in store.history(case_id=case_id, limit=limit):
        if rec.kind != "applied" or not str(rec.target or "").startswith(FORK_TARGET):
            continue
        try:
            data = json.loads(rec.comment)
            fork = ThreadFork.from_dict(data)
        except (ValueError, RecursionError) as exc:
            problems.append(f"approvals log #{rec.id}: the fork record is not JSON "
                            f"({type(exc).__name__})")
            continue
        except DgrrError as exc:
            problems.append(f"approvals log #{rec.id}: the fork record's {exc}")
            continue
        forks.append(RecordedFork(event_id=rec.id, approval_id=rec.refers_to,
                                  reviewer=rec.reviewer,
                                  created_at=rec.created_at.isoformat(), fork=fork,
                                  digest_matches=sha256_json(data) == rec.outputs_sha256))
    return forks, problems


def poisoned_texts(case: Any, plan: Any = None) -> list[str]:
    """Texts whose presence in a thread's state means the poison reached it: the diagnosed
    faults, the records the plan deletes or quarantines, and the model output and tool
    results it replays or invalidates (longest first; shorter than :data:`MIN_MATCH`
    characters left out)."""
    if plan is None:
        from ..plan._plan import plan_case

        plan = plan_case(case)
    texts: set[str] = set()
    for m in case.memory:
        if m.id in case.faults or plan.memory.get(m.id) in ("delete", "quarantine"):
            texts.add(m.text)
    for s in case.trajectory:
        if s.id in case.faults or (s.type in _CHAT_STEPS
                                   and plan.steps.get(s.id) in ("replay", "invalidate")):
            texts.add(s.text)
    return sorted((t.strip() for t in texts if len(t.strip()) >= MIN_MATCH),
                  key=lambda t: (-len(t), t))


def _texts_in(value: Any, out: list[str], depth: int = 0) -> None:
    """Every string in a state value: message contents, tool call arguments, nested lists
    and dicts."""
    if depth > 20:
        return
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, Mapping):
        for v in value.values():
            _texts_in(v, out, depth + 1)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            _texts_in(v, out, depth + 1)
    elif hasattr(value, "content"):  # a LangChain message
        _texts_in(value.content, out, depth + 1)
        _texts_in(getattr(value, "tool_calls", None) or [], out, depth + 1)


def _norm(text: str) -> str:
    return " ".join(text.split())


def _found(values: Any, poisoned: list[str]) -> tuple[str, ...]:
    strings: list[str] = []
    _texts_in(values, strings)
    haystack = "\n".join(_norm(s) for s in strings)
    return tuple(p for p in poisoned if _norm(p) in haystack)


def _messages(values: Any) -> list[Any]:
    out: list[Any] = []
    if isinstance(values, Mapping):
        for v in values.values():
            if isinstance(v, list):
                out += [m for m in v if hasattr(m, "content")]
    return out


def _describe(m: Any) -> dict[str, str]:
    strings: list[str] = []
    _texts_in(m.content, strings)
    text = " ".join(strings)
    if not text and getattr(m, "tool_calls", None):
        text = "; ".join(f"call {c.get('name')}({json.dumps(c.get('args'), sort_keys=True)})"
                         for c in m.tool_calls if isinstance(c, Mapping))
    return {"id": str(getattr(m, "id", "") or ""), "type": str(getattr(m, "type", "")),
            "text": text if len(text) <= 200 else text[:199] + "…"}


def _checkpoint_id(config: Mapping[str, Any]) -> str:
    return str(config["configurable"]["checkpoint_id"])


def _plan_from(snapshots: list[Any], thread_id: str, poisoned: list[str]) -> ThreadFork | None:
    """The fork, from the thread's state history (any order)."""
    if not snapshots:
        raise DgrrError(f"thread {thread_id!r}: no checkpoints (wrong thread id, or a graph "
                        "compiled without its checkpointer?)")
    by_id = {_checkpoint_id(s.config): s for s in snapshots}
    head = max(by_id)  # checkpoint ids are uuid6: newest sorts last
    chain: list[Any] = []  # head first, following parents
    cid: str | None = head
    while cid is not None and cid in by_id and len(chain) <= len(by_id):
        snap = by_id[cid]
        chain.append(snap)
        cid = _checkpoint_id(snap.parent_config) if snap.parent_config else None
    first = None
    for snap in reversed(chain):  # oldest first
        found = _found(snap.values, poisoned)
        if found:
            first = (snap, found)
            break
    if first is None:
        return None
    snap, found = first
    if not snap.parent_config:
        raise DgrrError(f"thread {thread_id!r}: the poisoned text is in its first checkpoint "
                        f"({_checkpoint_id(snap.config)}): there is no clean state to fork from")
    before = by_id[_checkpoint_id(snap.parent_config)]
    kept = {id(m) for m in _messages(before.values)}
    kept_ids = {getattr(m, "id", None) for m in _messages(before.values)} - {None}
    dropped = tuple(_describe(m) for m in _messages(by_id[head].values)
                    if id(m) not in kept and getattr(m, "id", None) not in kept_ids)
    return ThreadFork(thread_id=thread_id, head=head, first_poisoned=_checkpoint_id(snap.config),
                      fork_from=_checkpoint_id(before.config), next=tuple(before.next),
                      found=found, dropped=dropped)


def _thread(config: Mapping[str, Any]) -> str:
    try:
        return str(config["configurable"]["thread_id"])
    except (KeyError, TypeError):
        raise DgrrError("config: expected {'configurable': {'thread_id': ...}}") from None


def _base_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The thread's config without a checkpoint id (the whole thread)."""
    conf = {k: v for k, v in config["configurable"].items() if k != "checkpoint_id"}
    return {**config, "configurable": conf}


def plan_fork(graph: Any, config: Mapping[str, Any], poisoned: Iterable[str]
              ) -> ThreadFork | None:
    """Where :func:`fork_thread` would fork the thread of `config` (nothing written); None
    when the thread's state never held a poisoned text."""
    thread_id = _thread(config)
    texts = [p for p in poisoned if len(p.strip()) >= MIN_MATCH]
    return _plan_from(list(graph.get_state_history(_base_config(config))), thread_id, texts)


def _fork_config(fork: ThreadFork, config: Mapping[str, Any]) -> dict[str, Any]:
    base = _base_config(config)
    return {**base, "configurable": {**base["configurable"], "checkpoint_id": fork.fork_from}}


def fork_thread(graph: Any, config: Mapping[str, Any], poisoned: Iterable[str]
                ) -> ThreadFork | None:
    """Fork the thread of `config` from the last checkpoint before a `poisoned` text reached
    its state (see the module doc); the returned :class:`ThreadFork` names the new head.
    None (and nothing written) when the thread never held a poisoned text."""
    fork = plan_fork(graph, config, poisoned)
    if fork is None:
        return None
    new = graph.update_state(_fork_config(fork, config), None, as_node="__copy__")
    return _done(fork, new)


async def afork_thread(graph: Any, config: Mapping[str, Any], poisoned: Iterable[str]
                       ) -> ThreadFork | None:
    """:func:`fork_thread` for a graph with an async checkpointer."""
    thread_id = _thread(config)
    texts = [p for p in poisoned if len(p.strip()) >= MIN_MATCH]
    snapshots = [s async for s in graph.aget_state_history(_base_config(config))]
    fork = _plan_from(snapshots, thread_id, texts)
    if fork is None:
        return None
    new = await graph.aupdate_state(_fork_config(fork, config), None, as_node="__copy__")
    return _done(fork, new)


def _done(fork: ThreadFork, new_config: Mapping[str, Any]) -> ThreadFork:
    return ThreadFork(**{**fork.__dict__, "fork": _checkpoint_id(new_config)})
