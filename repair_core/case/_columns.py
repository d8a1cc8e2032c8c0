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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter
from typing import Any, Literal

import msgspec
import numpy as np

from .._perf import gc_paused

__all__ = ["CaseColumns", "read_columns", "LABEL_CODE", "TYPE_CODE"]

# The vocabulary of `_case` (the pydantic models), repeated here so that the columnar path
# starts without importing pydantic (tests/test_columnar_read.py checks they agree).
LABELS: tuple[str, ...] = ("initiate", "cite", "support", "produce", "delete", "update",
                           "consolidate", "supersede", "derive")
STEP_TYPES: tuple[str, ...] = ("memory_read", "claim", "plan", "tool_action",
                               "tool_observation", "answer", "memory_write")
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
    # an inferred edge (an importer's guess) fails the decode: the networkx planner plans it
    inferred: Literal[False] = False


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
    # the lists are split into items here and decoded a batch at a time (_batches)
    session: list[msgspec.Raw]
    memory: list[msgspec.Raw]
    trajectory: list[msgspec.Raw]
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


# The short fields, as strict as the pydantic models in strict mode (anything these do not
# accept is checked by the models themselves: `_short_fields`).
class _Tool(_Strict):
    name: str
    effect: Literal["pure", "idempotent", "resettable", "compensable",
                    "irreversible"] = "irreversible"
    description: str | None = None


class _EvalLabels(_Strict, kw_only=True):
    required_facts: list[str] = []
    forbidden_facts: list[str] = []
    clean_answer: str | None = None
    benign: list[str] = []
    gold_claims: list[str] = []
    fault_types: dict[str, str] = {}
    required_state: list[str] | None = None


class _Shell(_Strict, kw_only=True):
    format: Literal["dgrr.case/v1"]
    case_id: str
    domain: str | None = None
    user_id: str
    faults: list[str]
    tools: list[_Tool] = []
    eval: _EvalLabels | None = None


_DECODER = msgspec.json.Decoder(_Case)
_TURNS = msgspec.json.Decoder(list[_Turn])
_RECORDS = msgspec.json.Decoder(list[_Record])
_STEPS = msgspec.json.Decoder(list[_AnyStep])  # type: ignore[arg-type]
_BATCH = 20_000
"""Items decoded at a time: their structs are dropped once their columns are taken, so a
large case is never held whole as Python objects."""
_ID, _SEQ, _DEPS, _TURN, _STATUS, _TEXT = (
    attrgetter(f) for f in ("id", "seq", "deps", "turn", "status", "text"))
_LABEL, _SUFFICIENT = attrgetter("label"), attrgetter("sufficient")
_VERIFIED, _RETURNED, _TARGET, _TOOL = (
    attrgetter(f) for f in ("verified", "returned", "target", "tool"))
_CREATED = attrgetter("created_seq")
_SHORT_FIELDS = ("format", "case_id", "domain", "user_id", "faults", "tools", "eval",
                 "agentdojo", "multisession")
_STEP_CODE = {cls: TYPE_CODE[cls.__struct_config__.tag]  # type: ignore[union-attr]
              for cls in _AnyStep.__args__}  # type: ignore[attr-defined]
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
    limit = sys.getrecursionlimit()
    with gc_paused():
        try:
            sys.setrecursionlimit(max(limit - _DEPTH_MARGIN, 100))
            # the items are kept as slices of `raw` (msgspec.Raw), decoded batch by batch
            # below; this first pass checks the syntax and nesting of the whole file
            doc = _DECODER.decode(raw)
            del raw
            short = _short_fields(doc)
            if short is None:
                return None
            return _Reader(doc, short, keep_text, fault_content, faults_override).columns()
        except (msgspec.DecodeError, ValueError, RecursionError):
            return None
        finally:
            sys.setrecursionlimit(limit)


def _short_fields(doc: _Case) -> dict[str, Any] | None:
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
        typed = msgspec.convert(shell, _Shell, strict=True)
    except msgspec.ValidationError:
        return _short_fields_by_model(shell)  # e.g. a field the format allows beyond these
    return {"case_id": typed.case_id, "domain": typed.domain, "user_id": typed.user_id,
            "faults": typed.faults, "tools": {t.name: t.effect for t in typed.tools}}


def _short_fields_by_model(shell: dict[str, Any]) -> dict[str, Any] | None:
    from pydantic import ValidationError

    from ._case import Case

    try:
        case = Case.model_validate({**shell, "session": [], "memory": [], "trajectory": []},
                                   strict=True)
    except (ValidationError, RecursionError):
        return None
    return {"case_id": case.case_id, "domain": case.domain, "user_id": case.user_id,
            "faults": case.faults, "tools": {t.name: t.effect for t in case.tools}}


def _batches(items: list[msgspec.Raw], decoder: msgspec.json.Decoder) -> Iterator[list[Any]]:
    for i in range(0, len(items), _BATCH):
        yield decoder.decode(b"".join((b"[", b",".join(items[i:i + _BATCH]), b"]")))


class _Declined(Exception):
    """The case is invalid or not judged here: the exact loader runs."""


def _need(ok: bool | np.bool_) -> None:
    if not ok:
        raise _Declined


class _Reader:
    """One pass over the items, a batch at a time: turns, then records (so that reads and
    writes can be checked against the record ids), then steps. Node numbers are fixed from
    the list lengths, so each batch writes straight into its slice of the arrays."""

    def __init__(self, doc: _Case, short: dict[str, Any], keep_text: bool,
                 fault_content: bool, faults_override: list[str] | None) -> None:
        self.doc, self.short, self.keep_text = doc, short, keep_text
        self.fault_content, self.faults_override = fault_content, faults_override
        # what `_fault_content` reads (only for planning): the text of each turn,
        # observation and record, and the records' created_seq, key and value
        self.content_text: dict[int, str] = {}
        self.observations: list[int] = []
        self.record_created: list[int | None] = []
        self.record_kv: list[tuple[str | None, Any]] = []
        self.n_t, self.n_s, self.n_r = len(doc.session), len(doc.trajectory), len(doc.memory)

    def columns(self) -> CaseColumns | None:
        try:
            return self._columns()
        except _Declined:
            return None

    def _columns(self) -> CaseColumns:
        doc, n_t, n_s, n_r = self.doc, self.n_t, self.n_s, self.n_r
        n = n_t + n_s + n_r
        first_record = n_t + n_s
        ids: list[str] = [""] * n
        seq = np.empty(n, np.int64)
        type_code = np.empty(n, np.int8)
        texts: list[str] = [""] * n if self.keep_text else []

        # turns
        turns = _TURNS.decode(b"".join((b"[", b",".join(doc.session), b"]")))
        ids[:n_t] = map(_ID, turns)
        seq[:n_t] = np.fromiter(map(_SEQ, turns), np.int64, n_t)
        type_code[:n_t] = TYPE_CODE["turn"]
        if self.keep_text:
            texts[:n_t] = map(_TEXT, turns)
        if self.fault_content:
            self.content_text.update(zip(range(n_t), map(_TEXT, turns), strict=True))
        del turns
        turn_index = dict(zip(ids[:n_t], range(n_t), strict=True))
        index = turn_index.copy()

        # records: their premises are looked up once every id is known
        active = np.zeros(n, bool)
        statuses: list[str] = []
        record_dep_ids: list[str] = []
        record_counts = np.empty(n_r, np.int64)
        record_labels, record_suff = [], []
        done = 0
        for batch in _batches(doc.memory, _RECORDS):
            k, at = len(batch), first_record + done
            ids[at:at + k] = map(_ID, batch)
            index.update(zip(ids[at:at + k], range(at, at + k), strict=True))
            seq[at:at + k] = np.fromiter(
                (-1 if c is None else c for c in map(_CREATED, batch)), np.int64, k)
            statuses += map(_STATUS, batch)
            active[at:at + k] = np.fromiter(map("active".__eq__, statuses[done:done + k]),
                                            bool, k)
            if self.keep_text:
                texts[at:at + k] = map(_TEXT, batch)
            if self.fault_content:
                self.content_text.update(zip(range(at, at + k), map(_TEXT, batch), strict=True))
                self.record_created += map(_CREATED, batch)
                self.record_kv += ((m.key, m.value) for m in batch)
            dep_lists = [*map(_DEPS, batch)]
            record_counts[done:done + k] = np.fromiter(map(len, dep_lists), np.int64, k)
            deps = [*chain.from_iterable(dep_lists)]
            record_dep_ids += map(_ID, deps)
            record_labels.append(_label_codes(deps))
            record_suff.append(np.fromiter(map(_SUFFICIENT, deps), bool, len(deps)))
            done += k
        type_code[first_record:] = TYPE_CODE["record"]
        record_ids = ids[first_record:]
        _need(len(index) == n_t + n_r)  # no repeated id among turns and records
        issuperset = set(record_ids).issuperset

        # steps
        failed = np.zeros(n, bool)
        verified = np.zeros(n, bool)
        step_turn = np.empty(n_s, np.int64)
        tools: list[str | None] = [None] * n_s
        step_counts = np.empty(n_s, np.int64)
        src_parts, label_parts, suff_parts = [], [], []
        unresolved: list[tuple[int, str]] = []  # (edge, id) of premises not yet seen
        edges = 0
        done = 0
        claim, read, write = TYPE_CODE["claim"], TYPE_CODE["memory_read"], \
            TYPE_CODE["memory_write"]
        observation = TYPE_CODE["tool_observation"]
        with_tool = np.array([TYPE_CODE["plan"], TYPE_CODE["tool_action"]], np.int8)
        index_get = index.get
        for batch in _batches(doc.trajectory, _STEPS):
            k, at = len(batch), n_t + done
            ids[at:at + k] = map(_ID, batch)
            index.update(zip(ids[at:at + k], range(at, at + k), strict=True))
            seq[at:at + k] = np.fromiter(map(_SEQ, batch), np.int64, k)
            codes = np.fromiter(map(_STEP_CODE.__getitem__, map(type, batch)), np.int8, k)
            type_code[at:at + k] = codes
            failed[at:at + k] = np.fromiter(map("failed".__eq__, map(_STATUS, batch)), bool, k)
            pick = batch.__getitem__
            claims = np.flatnonzero(codes == claim)
            verified[at + claims] = np.fromiter(map(_VERIFIED, map(pick, claims.tolist())),
                                                bool, len(claims))
            step_turn[done:done + k] = np.fromiter(
                map(turn_index.get, map(_TURN, batch), repeat(-1)), np.int64, k)
            reads = np.flatnonzero(codes == read).tolist()
            writes = np.flatnonzero(codes == write).tolist()
            _need(all(map(issuperset, map(_RETURNED, map(pick, reads))))
                  and all(map(issuperset, map(_TARGET, map(pick, writes)))))
            for i in np.flatnonzero(np.isin(codes, with_tool)).tolist():
                tools[done + i] = batch[i].tool
            if self.keep_text:
                texts[at:at + k] = map(_TEXT, batch)
            if self.fault_content:
                for i in np.flatnonzero(codes == observation).tolist():
                    self.observations.append(at + i)
                    self.content_text[at + i] = _text_of(batch[i])
            dep_lists = [*map(_DEPS, batch)]
            step_counts[done:done + k] = np.fromiter(map(len, dep_lists), np.int64, k)
            deps = [*chain.from_iterable(dep_lists)]
            del dep_lists
            src = np.fromiter(map(index_get, map(_ID, deps), repeat(-1)), np.int64, len(deps))
            # a premise later in the file than its dependent (any order is allowed)
            unresolved += ((edges + i, deps[i].id) for i in np.flatnonzero(src < 0).tolist())
            src_parts.append(src)
            label_parts.append(_label_codes(deps))
            suff_parts.append(np.fromiter(map(_SUFFICIENT, deps), bool, len(deps)))
            edges += len(deps)
            done += k
        del doc, self.doc
        _need(len(index) == n)  # no repeated id
        _need(not (step_turn < 0).any())  # every step's turn is a turn
        if n and (max(map(len, ids)) > _MAX_ID_CHARS or "\0" in "".join(ids)):
            # numpy's fixed-width id strings: kept small, and they would drop a trailing NUL
            raise _Declined
        step_seq_order = n_t + np.argsort(seq[n_t:first_record], kind="stable")
        timed = np.sort(seq[:first_record])
        _need(not (timed[1:] == timed[:-1]).any())  # no repeated seq
        _need((type_code == TYPE_CODE["answer"]).any())

        # dependency edges: dependents in file order (steps, then records)
        record_src = np.fromiter(map(index_get, record_dep_ids, repeat(-1)), np.int64,
                                 len(record_dep_ids))
        src = np.concatenate([*src_parts, record_src])
        del src_parts, record_src, record_dep_ids
        for edge, premise in unresolved:
            src[edge] = index_get(premise, -1)
        _need(not (src < 0).any())  # an unknown id
        label = np.concatenate([*label_parts, *record_labels]).astype(np.int8, copy=False)
        sufficient = np.concatenate([*suff_parts, *record_suff]).astype(bool, copy=False)
        dst = np.repeat(np.arange(n_t, n, dtype=np.int64),
                        np.concatenate([step_counts, record_counts]))
        _need(not (src == dst).any())
        # a step may not depend on a later turn or step
        both = (dst < first_record) & (src < first_record)
        _need(not (seq[src[both]] > seq[dst[both]]).any())
        _need(not _cycle_suspected(n_t, n_s, seq, src, dst, label))
        self.seq_of = seq

        def faultable(node: int) -> bool:  # a record, a user turn or a tool observation
            return node >= 0 and not (n_t <= node < first_record
                                      and type_code[node] != observation)

        fault_nodes: list[int] = [index_get(f, -1) for f in self.short["faults"]]
        _need(all(map(faultable, fault_nodes)) and len(set(fault_nodes)) == len(fault_nodes))
        if self.faults_override is not None:  # `with_faults`: valid ids, store order
            chosen = {index_get(f, -1) for f in self.faults_override}
            _need(all(map(faultable, chosen)))  # else the exact loader names the id
            fault_nodes = sorted(chosen, key=lambda i: (0, i) if i >= first_record
                                 else (1, int(seq[i])) if i >= n_t else (2, int(seq[i])))
        carry_hits, record_kv = self._fault_content(fault_nodes, first_record) \
            if self.fault_content else ([], {})
        short = self.short
        return CaseColumns(
            case_id=short["case_id"], domain=short["domain"], user_id=short["user_id"],
            ids=ids, n_turns=n_t, n_steps=n_s, type_code=type_code, seq=seq, failed=failed,
            verified=verified, active=active, record_status=statuses, step_turn=step_turn,
            step_tool=tools, src=src, dst=dst, label=label, sufficient=sufficient,
            faults=fault_nodes, tools=short["tools"], texts=texts, carry_hits=carry_hits,
            record_kv=record_kv, step_seq_order=step_seq_order)

    def _fault_content(self, fault_nodes: list[int], first_record: int
                       ) -> tuple[list[tuple[int, float, set[int]]],
                                  dict[int, tuple[str | None, Any]]]:
        """What the planner needs of the faults' content (issue 17): the observations and
        records that carry a fault's text, and the keys and values of faulty records."""
        if not fault_nodes:
            return [], {}
        from ..analysis._carry import text_hits

        text = self.content_text
        fault_texts = {f: text[f] for f in fault_nodes}
        n_r = len(self.record_kv)
        candidates = [*self.observations, *range(first_record, first_record + n_r)]
        created = self.record_created

        def time_of(node: int) -> float:
            if node < first_record:
                return int(self.seq_of[node])
            c = created[node - first_record]
            return float("-inf") if c is None else c

        hits = [(candidates[i], time_of(candidates[i]), found) for i, found in
                text_hits(fault_texts, [text[c] for c in candidates])]
        kv = self.record_kv
        keys = {kv[f - first_record][0] for f in fault_nodes if f >= first_record}
        keys.discard(None)
        record_kv = {first_record + i: m for i, m in enumerate(kv)
                     if m[0] in keys} if keys else {}
        return hits, record_kv


_LABEL_OF: Callable[[str], int] = LABEL_CODE.__getitem__


def _label_codes(deps: list[_Dep]) -> np.ndarray:
    return np.fromiter(map(_LABEL_OF, map(_LABEL, deps)), np.int8, len(deps))


def _text_of(node: Any) -> str:  # _carry._text_of
    output = getattr(node, "output", None)
    if isinstance(output, str) and output not in node.text:
        return str(node.text + " " + output)
    return str(node.text)


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
