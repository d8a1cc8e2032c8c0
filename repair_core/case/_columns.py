"""Reading a large case into columns: one typed parse, one linear cross-reference pass.

:func:`read_columns` decodes a `dgrr.case/v1` file with msgspec into compact structs
that mirror the pydantic models of `_case` (same strict types, same literals), checks the
cross-references as array operations, and returns a :class:`CaseColumns`: integer node
ids, per-node type/seq/status arrays and the dependency edges as integer arrays. No
pydantic model and no networkx graph is built.

It answers only *valid or not known*: whenever the fast decode or a check finds anything
wrong (or meets input it does not judge exactly: repeated keys aside, see below), it
returns None and the caller runs the exact loader (`parse_case` / `validate_file`),
which words every problem as before. So error messages never depend on the path taken.

What the fast pass cannot see: a key repeated inside one JSON object (msgspec, like most
JSON parsers, keeps the last). The exact loader refuses such files; the columnar path
accepts them, planning with the last value. docs/performance.md says so.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Literal

import msgspec
import numpy as np

from .._perf import gc_paused
from ._case import LABELS, STEP_TYPES

__all__ = ["CaseColumns", "read_columns", "LABEL_CODE", "TYPE_CODE"]

# Label codes in alphabetical order, so the smallest code is the label networkx's
# multigraph lists first for a (premise, dependent) pair (deps are inserted sorted).
LABEL_NAMES: tuple[str, ...] = tuple(sorted(LABELS))
LABEL_CODE = {name: i for i, name in enumerate(LABEL_NAMES)}
TYPE_NAMES: tuple[str, ...] = ("turn", *STEP_TYPES, "record")
TYPE_CODE = {name: i for i, name in enumerate(TYPE_NAMES)}

class _Strict(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """Fields beyond the format's send the case to the exact loader: msgspec skips an
    unknown field without checking its numbers, which the loader does. (`gc=False`: the
    structs hold no cycles, so the collector need not track millions of them.)"""


_Label = Literal["initiate", "cite", "support", "produce", "delete", "update", "consolidate",
                 "supersede", "derive"]


class _Dep(_Strict):
    id: str
    label: _Label
    sufficient: bool = False
    inferred: bool = False


class _Turn(_Strict):
    id: str
    seq: int
    text: str


class _Record(_Strict, kw_only=True):
    id: str
    user_id: str
    text: str
    key: str | None = None
    value: Any = None
    status: Literal["active", "superseded", "deleted"]
    created_seq: int | None = None
    trust: float | None = None
    deps: list[_Dep] = []


class _Step(_Strict, kw_only=True, tag_field="type"):
    id: str
    seq: int
    turn: str
    text: str
    status: Literal["ok", "failed"] = "ok"
    deps: list[_Dep] = []


class _MemoryRead(_Step, tag="memory_read"):
    query: str = ""
    returned: list[str] = []


class _Claim(_Step, tag="claim"):
    verified: bool = False
    key: str | None = None
    value: Any = None


class _Plan(_Step, tag="plan"):
    tool: str = ""
    args: dict[str, Any] = {}


class _ToolAction(_Step, tag="tool_action"):
    tool: str = ""
    args: dict[str, Any] = {}


class _ToolObservation(_Step, tag="tool_observation"):
    output: Any = None


class _Answer(_Step, tag="answer"):
    pass


class _MemoryWrite(_Step, tag="memory_write"):
    op: Literal["add", "update", "delete", "consolidate", "supersede"]
    target: list[str] = []


_AnyStep = (_MemoryRead | _Claim | _Plan | _ToolAction | _ToolObservation | _Answer
            | _MemoryWrite)
_Unset = msgspec.UnsetType


class _Case(_Strict, kw_only=True):
    session: list[_Turn]
    memory: list[_Record]
    trajectory: list[_AnyStep]
    # the short fields are checked by the pydantic model itself (exact messages)
    format: msgspec.Raw | _Unset = msgspec.UNSET
    case_id: msgspec.Raw | _Unset = msgspec.UNSET
    domain: msgspec.Raw | _Unset = msgspec.UNSET
    user_id: msgspec.Raw | _Unset = msgspec.UNSET
    faults: msgspec.Raw | _Unset = msgspec.UNSET
    tools: msgspec.Raw | _Unset = msgspec.UNSET
    eval: msgspec.Raw | _Unset = msgspec.UNSET
    # beyond the format: what the committed AgentDojo and multi-session suites record of
    # their tasks (decoded and checked like the short fields; any other extra field still
    # sends the case to the exact loader)
    agentdojo: msgspec.Raw | _Unset = msgspec.UNSET
    multisession: msgspec.Raw | _Unset = msgspec.UNSET


_DECODER = msgspec.json.Decoder(_Case)
_ID, _SEQ, _DEPS, _TURN, _STATUS = (attrgetter(f) for f in ("id", "seq", "deps", "turn", "status"))
_LABEL, _SUFFICIENT, _INFERRED = (attrgetter(f) for f in ("label", "sufficient", "inferred"))
_SHORT_FIELDS = ("format", "case_id", "domain", "user_id", "faults", "tools", "eval",
                 "agentdojo", "multisession")
# NUL characters: numpy's fixed-width strings would drop a trailing one from an id.
_NUL = b"\\u0000"
# Nesting: msgspec and json both stop at Python's recursion limit; msgspec is given a
# margin below it so that what it accepts the loader accepts too.
_DEPTH_MARGIN = 50
_MAX_ID_CHARS = 64


@dataclass
class CaseColumns:
    """A valid case as arrays. Node `i` is a turn (`i < T`), a step (`T <= i < T + S`,
    in file order) or a record (in file order)."""

    case_id: str
    domain: str | None
    user_id: str
    ids: list[str]
    n_turns: int
    n_steps: int
    type_code: np.ndarray
    """TYPE_CODE of each node."""
    seq: np.ndarray
    """Seq of turns and steps; a record's `created_seq` (-1 when None)."""
    failed: np.ndarray
    """Step status is failed."""
    verified: np.ndarray
    """A claim marked verified."""
    active: np.ndarray
    """A record whose status is active."""
    record_status: list[str]
    step_turn: np.ndarray
    """Node of each step's turn."""
    step_tool: list[str | None]
    """Tool of plan / tool_action steps."""
    src: np.ndarray
    """Premise of each dependency edge (in file order: dependents, then their deps)."""
    dst: np.ndarray
    label: np.ndarray
    sufficient: np.ndarray
    faults: list[int]
    tools: dict[str, str]
    texts: list[str] = field(repr=False, default_factory=list)
    """Text of each node (for the readable summary)."""
    step_seq_order: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    carry_hits: list[tuple[int, float, set[int]]] = field(repr=False, default_factory=list)
    """Each tool observation or record whose text carries a fault's text (`_carry`), its
    time (an observation's seq, a record's created_seq, -inf when it has none) and those
    faults (before the faults' time bounds, which the planner applies)."""
    record_kv: dict[int, tuple[str | None, Any]] = field(repr=False, default_factory=dict)
    """(key, value) of the faulty records and of the records that share a key with one
    (what `memory.never-restore-poison` compares)."""

    @property
    def n_nodes(self) -> int:
        return len(self.ids)


def read_columns(raw: bytes, *, keep_text: bool = False, fault_content: bool = True,
                 faults_override: list[str] | None = None) -> CaseColumns | None:
    """The case in `raw` as columns, or None when it is invalid or not judged here (the
    caller then runs the exact loader, which reports the problems). `fault_content`:
    also find what the planner reads of the faults' content (`carry_hits`, `record_kv`);
    validating does not need it. `faults_override`: the faults `dgrr plan --faults` marks
    instead of the file's (as `with_faults` sets them)."""
    if raw.find(_NUL) >= 0:
        return None
    limit = sys.getrecursionlimit()
    with gc_paused():
        try:
            sys.setrecursionlimit(max(limit - _DEPTH_MARGIN, 100))
            doc = _DECODER.decode(raw)
            del raw  # the caller passes the file's bytes on: they go here, not at return
        except (msgspec.DecodeError, ValueError, RecursionError):
            return None
        finally:
            sys.setrecursionlimit(limit)
        short = _short_fields(doc)
        if short is None:
            return None
        return _columns(doc, short, keep_text, fault_content, faults_override)


def _short_fields(doc: _Case) -> dict[str, Any] | None:
    from pydantic import ValidationError

    from ._case import Case
    from ._json import data_problems

    shell: dict[str, Any] = {}
    for name in _SHORT_FIELDS:
        value = getattr(doc, name)
        if value is not msgspec.UNSET:
            try:
                shell[name] = msgspec.json.decode(value)
            except msgspec.DecodeError:
                return None
    if data_problems(shell):
        return None
    try:
        case = Case.model_validate({**shell, "session": [], "memory": [], "trajectory": []},
                                   strict=True)
    except (ValidationError, RecursionError):
        return None
    return {"case_id": case.case_id, "domain": case.domain, "user_id": case.user_id,
            "faults": case.faults, "tools": {t.name: t.effect for t in case.tools}}


def _columns(doc: _Case, short: dict[str, Any], keep_text: bool, fault_content: bool = True,
             faults_override: list[str] | None = None) -> CaseColumns | None:
    turns, steps, records = doc.session, doc.trajectory, doc.memory
    n_t, n_s, n_r = len(turns), len(steps), len(records)
    ids = [*map(_ID, turns), *map(_ID, steps), *map(_ID, records)]
    n = len(ids)
    index = dict(zip(ids, range(n), strict=True))
    if len(index) != n:
        return None  # a repeated id
    seq = np.empty(n, np.int64)
    seq[:n_t] = np.fromiter(map(_SEQ, turns), np.int64, n_t)
    seq[n_t:n_t + n_s] = np.fromiter(map(_SEQ, steps), np.int64, n_s)
    created = [m.created_seq for m in records]
    seq[n_t + n_s:] = np.fromiter((-1 if c is None else c for c in created), np.int64, n_r)
    timed = seq[:n_t + n_s]
    if len(np.unique(timed)) != n_t + n_s:
        return None  # a repeated seq
    type_code = np.empty(n, np.int8)
    type_code[:n_t] = TYPE_CODE["turn"]
    step_codes = {cls: TYPE_CODE[cls.__struct_config__.tag] for cls in _AnyStep.__args__}
    type_code[n_t:n_t + n_s] = np.fromiter(map(step_codes.__getitem__, map(type, steps)),
                                           np.int8, n_s)
    type_code[n_t + n_s:] = TYPE_CODE["record"]
    if not (type_code == TYPE_CODE["answer"]).any():
        return None

    failed = np.zeros(n, bool)
    failed[n_t:n_t + n_s] = np.fromiter(map("failed".__eq__, map(_STATUS, steps)), bool, n_s)
    verified = np.zeros(n, bool)
    step_types = type_code[n_t:n_t + n_s]

    def of_type(name: str) -> list[Any]:
        return [steps[i] for i in np.flatnonzero(step_types == TYPE_CODE[name]).tolist()]

    claims = np.flatnonzero(step_types == TYPE_CODE["claim"])
    verified[n_t + claims] = np.fromiter(
        map(attrgetter("verified"), of_type("claim")), bool, len(claims))
    active = np.zeros(n, bool)
    statuses = [*map(_STATUS, records)]
    active[n_t + n_s:] = np.fromiter(map("active".__eq__, statuses), bool, n_r)

    record_ids = set(ids[n_t + n_s:])
    try:
        step_turn = np.fromiter(map(index.__getitem__, map(_TURN, steps)), np.int64, n_s)
    except KeyError:
        return None
    if (step_turn >= n_t).any():
        return None  # a turn that names a step or record
    issuperset = record_ids.issuperset
    if not (all(map(issuperset, map(attrgetter("returned"), of_type("memory_read"))))
            and all(map(issuperset, map(attrgetter("target"), of_type("memory_write"))))):
        return None

    # dependency edges: dependents in file order (steps, then records)
    dep_lists = [*map(_DEPS, steps), *map(_DEPS, records)]
    counts = np.fromiter(map(len, dep_lists), np.int64, n_s + n_r)
    dst = np.repeat(np.arange(n_t, n, dtype=np.int64), counts)
    flat = [d for deps in dep_lists for d in deps]
    del dep_lists
    if any(map(_INFERRED, flat)):
        return None  # inferred edges: the networkx planner handles them
    try:
        src = np.fromiter(map(index.__getitem__, map(_ID, flat)), np.int64, len(flat))
    except KeyError:
        return None  # an unknown id
    label = np.fromiter(map(LABEL_CODE.__getitem__, map(_LABEL, flat)), np.int8, len(flat))
    sufficient = np.fromiter(map(_SUFFICIENT, flat), bool, len(flat))
    del flat
    if (src == dst).any():
        return None
    # a step may not depend on a later turn or step
    step_dep = dst < n_t + n_s
    timed_src = src < n_t + n_s
    both = step_dep & timed_src
    if (seq[src[both]] > seq[dst[both]]).any():
        return None
    if _cycle_suspected(n_t, n_s, seq, src, dst, label):
        return None

    faults = short["faults"]
    fault_nodes = []
    for f in faults:
        i = index.get(f)
        # a record, a user turn or a tool observation (FAULTABLE_STEP_TYPES)
        if i is None or (n_t <= i < n_t + n_s and type_code[i] != TYPE_CODE["tool_observation"]):
            return None
        fault_nodes.append(i)
    if len(set(fault_nodes)) != len(fault_nodes):
        return None
    if faults_override is not None:  # `with_faults`: valid ids, store order, no repeats
        chosen = {index.get(f, -1) for f in faults_override}
        if any(i < 0 or (n_t <= i < n_t + n_s and type_code[i] != TYPE_CODE["tool_observation"])
               for i in chosen):
            return None  # the exact loader names the id
        fault_nodes = sorted(chosen, key=lambda i: (0, i) if i >= n_t + n_s
                             else (1, int(seq[i])) if i >= n_t else (2, int(seq[i])))
    carry_hits, record_kv = _fault_content(
        turns, steps, records, fault_nodes if fault_content else [], step_types)
    if len(ids) and max(map(len, ids)) > _MAX_ID_CHARS:
        return None  # keep numpy's fixed-width id strings small
    tools: list[str | None] = [None] * n_s
    for name in ("plan", "tool_action"):
        for i in np.flatnonzero(step_types == TYPE_CODE[name]).tolist():
            tools[i] = getattr(steps[i], "tool", None)
    texts: list[str] = []
    if keep_text:
        texts = [t.text for t in turns] + [s.text for s in steps] + [m.text for m in records]
    return CaseColumns(
        case_id=short["case_id"], domain=short["domain"], user_id=short["user_id"], ids=ids,
        n_turns=n_t, n_steps=n_s, type_code=type_code, seq=seq, failed=failed,
        verified=verified, active=active, record_status=statuses, step_turn=step_turn,
        step_tool=tools, src=src, dst=dst, label=label, sufficient=sufficient,
        faults=fault_nodes, tools=short["tools"], texts=texts, carry_hits=carry_hits,
        record_kv=record_kv,
        step_seq_order=n_t + np.argsort(seq[n_t:n_t + n_s], kind="stable"))


def _fault_content(turns: list[_Turn], steps: list[Any], records: list[_Record],
                   fault_nodes: list[int], step_types: np.ndarray
                   ) -> tuple[list[tuple[int, float, set[int]]], dict[int, tuple[str | None, Any]]]:
    """What the planner needs of the faults' content (issue 17): the observations and
    records that carry a fault's text, and the keys and values of faulty records."""
    if not fault_nodes:
        return [], {}
    from ..analysis._carry import text_hits

    n_t, n_s = len(turns), len(steps)

    def text_of(node: Any) -> str:  # _carry._text_of
        output = getattr(node, "output", None)
        if isinstance(output, str) and output not in node.text:
            return node.text + " " + output
        return node.text

    nodes: list[Any] = [*turns, *steps, *records]
    fault_texts = {f: text_of(nodes[f]) for f in fault_nodes}
    observations = (n_t + np.flatnonzero(step_types == TYPE_CODE["tool_observation"])).tolist()
    candidates = [*observations, *range(n_t + n_s, n_t + n_s + len(records))]
    first_record = n_t + n_s

    def time_of(node: int) -> float:
        if node < first_record:
            return nodes[node].seq
        created = nodes[node].created_seq
        return float("-inf") if created is None else created

    hits = [(candidates[i], time_of(candidates[i]), found) for i, found in
            text_hits(fault_texts, [text_of(nodes[c]) for c in candidates])]
    keys = {records[f - first_record].key for f in fault_nodes if f >= first_record}
    keys.discard(None)
    record_kv = {first_record + i: (m.key, m.value) for i, m in enumerate(records)
                 if m.key in keys} if keys else {}
    return hits, record_kv


_LIFECYCLE = (LABEL_CODE["delete"], LABEL_CODE["update"])


def _cycle_suspected(n_t: int, n_s: int, seq: np.ndarray, src: np.ndarray, dst: np.ndarray,
                     label: np.ndarray) -> bool:
    """The loader's cheap necessary condition for a dependency cycle (`_load._cycles`):
    a cycle among records' non-lifecycle premises, or a step reading a record whose
    premises (through records) include a step not earlier than it. True sends the case
    to the exact loader, which names the cycle if there is one."""
    first_record = n_t + n_s
    rec_dep = (dst >= first_record) & ~np.isin(label, _LIFECYCLE)
    r_src, r_dst = src[rec_dep], dst[rec_dep]
    # latest[r] = the latest seq among r's premises, through its record premises
    latest = np.full(len(seq), -1, np.int64)
    timed = r_src < first_record
    np.maximum.at(latest, r_dst[timed], seq[r_src[timed]])
    rr_src, rr_dst = r_src[~timed], r_dst[~timed]
    if len(rr_src):
        levels = _record_levels(rr_src, rr_dst)
        if levels is None:
            return True  # a loop among records
        # propagate along record -> record premises, premises first
        for edges in levels:
            np.maximum.at(latest, rr_dst[edges], latest[rr_src[edges]])
    step_dep = dst < first_record
    reads = step_dep & (src >= first_record)
    return bool((latest[src[reads]] >= seq[dst[reads]]).any())


def _record_levels(src: np.ndarray, dst: np.ndarray) -> list[np.ndarray] | None:
    """The record -> record premise edges grouped by the topological level of their
    premise (Kahn's algorithm, a level at a time), or None when they contain a loop."""
    nodes, inv = np.unique(np.concatenate([src, dst]), return_inverse=True)
    s, d = inv[:len(src)], inv[len(src):]
    indeg = np.bincount(d, minlength=len(nodes))
    order = np.argsort(s, kind="stable")
    starts = np.searchsorted(s[order], np.arange(len(nodes) + 1))
    frontier = np.flatnonzero(indeg == 0)
    seen = 0
    levels: list[np.ndarray] = []
    while len(frontier):
        seen += len(frontier)
        edges = order[_ranges(starts[frontier], starts[frontier + 1])]
        levels.append(edges)
        nxt = d[edges]
        np.subtract.at(indeg, nxt, 1)
        frontier = np.unique(nxt[indeg[nxt] == 0])
    return levels if seen == len(nodes) else None


def _ranges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The concatenation of arange(lo[i], hi[i]) for every i, in order."""
    lens = hi - lo
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    offsets = np.cumsum(lens) - lens
    return np.repeat(lo - offsets, lens) + np.arange(total)
