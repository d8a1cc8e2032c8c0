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

import contextlib
import mmap
import os
import pickle
import select
import struct
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter
from typing import Annotated, Any, Literal, cast

import msgspec
import numpy as np

from .._carried import text_of
from .._flat import with_value
from .._forked import Forked
from .._forked import may_fork as _may_fork
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


_MAX_ID_CHARS = 64
_NodeId = Annotated[str, msgspec.Meta(max_length=_MAX_ID_CHARS)]
"""The planner sorts ids as numpy fixed-width strings, kept small: a longer id fails the
decode, and the exact loader takes the case."""


class _Dep(_Strict):
    # a premise longer than any node id names no node: the exact loader words it (and
    # the premises are joined to the nodes as fixed-width arrays: `_nodes_of`)
    id: _NodeId
    label: _Label
    sufficient: bool = False
    # an inferred edge (an importer's guess) fails the decode: the networkx planner plans it
    inferred: Literal[False] = False


class _Turn(_Strict):
    id: _NodeId
    seq: int
    text: str


class _Record(_Strict, kw_only=True):
    id: _NodeId
    user_id: str
    text: str
    key: str | None = None
    value: Any = None
    status: Literal["active", "superseded", "deleted"]
    created_seq: int | None = None
    trust: float | None = None
    deps: list[_Dep] = []


class _Step(_Strict, kw_only=True, tag_field="type"):
    id: _NodeId
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
_BATCH = 1_000
"""Items decoded at a time: their structs are dropped once their columns are taken, so a
large case is never held whole as Python objects. Small batches keep the structs in the
CPU's cache and reuse the memory the last batch freed: reading a 1M-step case took 7.6 CPU
seconds in batches of 1,000 against 10.5 in batches of 20,000 (500: 7.3; 100k steps:
0.59 against 0.80)."""
_ID, _SEQ, _DEPS, _TURN, _STATUS, _TEXT = (
    attrgetter(f) for f in ("id", "seq", "deps", "turn", "status", "text"))
_LABEL, _SUFFICIENT = attrgetter("label"), attrgetter("sufficient")
_VERIFIED, _RETURNED, _TARGET = (
    attrgetter(f) for f in ("verified", "returned", "target"))
_CREATED, _KEY, _VALUE = attrgetter("created_seq"), attrgetter("key"), attrgetter("value")
_TOOL = attrgetter("tool")
_SHORT_FIELDS = ("format", "case_id", "domain", "user_id", "faults", "tools", "eval",
                 "agentdojo", "multisession")
_STEP_CODE = {cls: TYPE_CODE[cls.__struct_config__.tag]  # type: ignore[union-attr]
              for cls in _AnyStep.__args__}  # type: ignore[attr-defined]
# Nesting: msgspec and json both stop at Python's recursion limit; msgspec is given a
# margin below it so that what it accepts the loader accepts too.
_DEPTH_MARGIN = 50


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
    claim_key: dict[int, str]
    """Node -> slot of each claim that names one."""
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
    contents: list[str] = field(repr=False, default_factory=list)
    """What a carrier check reads of each node (`content.node_content`), when the faults'
    content is read (planning): the suspects' search (`plan._suspects`)."""
    carry_texts: dict[int, str] = field(repr=False, default_factory=dict)
    """The text `_carry` reads of each turn, record and tool observation (planning)."""
    observations: list[int] = field(repr=False, default_factory=list)
    """The tool observations' nodes, in file order (planning)."""
    record_slots: list[tuple[str | None, Any]] = field(repr=False, default_factory=list)
    """(key, value) of every record, in store order (planning)."""
    record_created: list[int | None] = field(repr=False, default_factory=list)
    """created_seq of every record, in store order (planning)."""
    fault_outputs: dict[int, Any] = field(repr=False, default_factory=dict)
    """The output of each tool observation named as a fault (planning)."""

    @property
    def n_nodes(self) -> int:
        return len(self.ids)


def read_columns(raw: bytes | mmap.mmap, *, keep_text: bool = False,
                 fault_content: bool = True, faults_override: list[str] | None = None,
                 parallel: bool = False) -> CaseColumns | None:
    """The case in `raw` (bytes, or a file mapped by `_io.map_input`) as columns, or None
    when it is invalid or not judged here (the caller then runs the exact loader, which
    reports the problems). `fault_content`: also find what the planner reads of the
    faults' content (`carry_hits`, `record_kv`); validating does not need it.
    `faults_override`: the faults `dgrr plan --faults` marks instead of the file's (as
    `with_faults` sets them). `parallel`: read a large trajectory
    in two processes, this one from the front and a forked second one from the back
    (only where forking is safe: several CPUs, no other thread running); the result is
    the same either way."""
    limit = sys.getrecursionlimit()
    with gc_paused():
        try:
            sys.setrecursionlimit(max(limit - _DEPTH_MARGIN, 100))
            # the items are kept as slices of `raw` (msgspec.Raw), decoded batch by batch
            # below; this first pass checks the syntax and nesting of the whole file
            # (`find`, not `in`: a mapped file's `in` looks for one byte only)
            if raw.find(b"\\") >= 0 and raw.find(b"\\u0000") >= 0:  # memchr's speed first
                # NUL, which the exact loader refuses in texts and numpy would drop from
                # the end of an id, can only be written escaped
                return None
            doc = _DECODER.decode(raw)
            release = _page_release(raw)
            release()
            del raw
            short = _short_fields(doc)
            if short is None:
                return None
            return _Reader(doc, short, keep_text, fault_content, faults_override,
                           parallel, release).columns()
        except (msgspec.DecodeError, ValueError, OverflowError, RecursionError):
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


def _page_release(raw: bytes | mmap.mmap) -> Callable[[], None]:
    """What lets go of the pages of a mapped case file read so far (a no-op for bytes).
    The pages of a file mapping count as the process's memory while they are mapped in:
    the first pass over a 1M-step case maps in all of its 322 MB, and reading the items
    a batch at a time maps them in again. Let go, a page read again is mapped in again
    from the page cache: the items are slices of the mapping, never copied."""
    if not isinstance(raw, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED"):
        return lambda: None

    def release() -> None:
        with contextlib.suppress(OSError, ValueError):  # ValueError: closed
            raw.madvise(mmap.MADV_DONTNEED)
    return release


_RELEASE_BATCHES = 64
"""Batches read between two releases of a mapped file's pages (`_page_release`): about
17 MB of the 1M-step case; the release itself costs well under a millisecond."""


def _batches(items: list[msgspec.Raw], decoder: msgspec.json.Decoder,
             release: Callable[[], None] | None = None) -> Iterator[list[Any]]:
    for k, i in enumerate(range(0, len(items), _BATCH)):
        if release is not None and k % _RELEASE_BATCHES == _RELEASE_BATCHES - 1:
            release()
        yield decoder.decode(b"".join((b"[", b",".join(items[i:i + _BATCH]), b"]")))


class _Declined(Exception):
    """The case is invalid or not judged here: the exact loader runs."""


def _need(ok: bool | np.bool_) -> None:
    if not ok:
        raise _Declined


class _Reader:
    """One pass over the items, a batch at a time: turns, then records (so that a faulty
    record's text is known before the steps are searched for it), then steps. Node
    numbers are fixed from the list lengths, so each batch writes straight into its slice
    of the arrays; every id an item names is looked up at the end, all at once."""

    def __init__(self, doc: _Case, short: dict[str, Any], keep_text: bool,
                 fault_content: bool, faults_override: list[str] | None,
                 parallel: bool = False, release: Callable[[], None] | None = None) -> None:
        self.doc, self.short, self.keep_text = doc, short, keep_text
        self.release = release
        self.fault_content, self.faults_override = fault_content, faults_override
        self.parallel = parallel
        # the faults' text search made while both processes read (`_early_hits`)
        self.early: tuple[set[int], list[tuple[int, set[int]]], int] | None = None
        self.early_records: list[tuple[int, set[int]]] | None = None  # the records'
        self.child_hits: list[tuple[int, set[int]]] | None = None
        # what `_fault_content` reads (only for planning): the text of each turn,
        # observation and record, and the records' created_seq, key and value
        self.content_text: dict[int, str] = {}
        self.observations: list[int] = []
        self.record_created: list[int | None] = []
        self.record_kv: list[tuple[str | None, Any]] = []
        self.record_contents: list[str] = []
        self.turn_texts: list[str] = []
        self.fault_set = frozenset((*short["faults"], *(faults_override or ())))
        self.predating: list[int] = []  # the records whose created_seq is null or absent
        self.n_t, self.n_s, self.n_r = len(doc.session), len(doc.trajectory), len(doc.memory)

    @property
    def fault_ids(self) -> list[str]:
        """The faults planned for: `--faults`' when given, else the file's."""
        return self.short["faults"] if self.faults_override is None else self.faults_override

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
            self.turn_texts = [*map(_TEXT, turns)]
            self.content_text.update(zip(range(n_t), self.turn_texts, strict=True))
        del turns
        turn_index = dict(zip(ids[:n_t], range(n_t), strict=True))
        index = turn_index.copy()

        self.turn_index = turn_index
        # a large trajectory is read in two processes (`parallel`), this one from the
        # front, the second (which starts here) from the back, until they meet
        items = doc.trajectory
        meeting = _Meeting.start(n_s) \
            if self.parallel and n_s >= _PARALLEL_MIN_STEPS and _may_fork() else None
        if meeting is not None and self.fault_content and self.fault_ids:
            _build_folding_tables()  # once, for both processes
        child = _fork_part(self, items, index, meeting) if meeting is not None else None
        if child is None and meeting is not None:
            meeting.close()
            meeting = None
        try:
            active, statuses, record_dep_ids, record_counts, record_labels, record_suff = \
                self._records(ids, seq, texts, index)
            type_code[first_record:] = TYPE_CODE["record"]
            if child is not None:  # the records' share of the faults' text search
                self._early_record_hits(index)
            if meeting is None or child is None:
                front = self._step_part(items, 0)
            else:
                front = self._claimed_part(items, meeting, True, child.fd)
            split = len(front.ids)
            if child is not None:  # while the child reads: this part's share of the search
                self._early_hits(front, index)
        except BaseException:
            if child is not None:
                child.cancel()
            raise
        finally:
            if meeting is not None:
                meeting.close()
        parts = [front]
        if child is not None:
            try:
                part = child.part()
            except BaseException:  # interrupted while waiting
                child.cancel()
                raise
            if isinstance(part, _Declined):
                raise part
            if part is not None:
                self.child_hits = part.hits
            end = n_s if part is None else part.first
            if split < end:  # the child failed (killed, out of memory): read its part here
                parts[0] = front = _merged([front, self._step_part(items[split:end], split)],
                                           0)
                split = end
                self._early_hits(front, index)
            if part is not None:
                parts.append(part)

        failed = np.zeros(n, bool)
        verified = np.zeros(n, bool)
        step_turn = np.concatenate([p.step_turn for p in parts])
        tools: list[str | None] = [None] * n_s
        claim_key: dict[int, str] = {}
        step_contents: list[str] = []
        fault_outputs: dict[int, Any] = {}
        for part in parts:
            k, at = len(part.ids), n_t + part.first
            ids[at:at + k] = part.ids
            seq[at:at + k] = part.seq
            type_code[at:at + k] = part.codes
            failed[at:at + k] = part.failed
            verified[at + part.claims] = part.verified
            for i, tool in zip((part.first + part.tool_items).tolist(), part.tool_names,
                               strict=True):
                tools[i] = tool
            claim_key.update(zip((at + part.claim_key_items).tolist(), part.claim_key_names,
                                 strict=True))
            if self.keep_text:
                texts[at:at + k] = part.texts
            if self.fault_content:
                self.observations += part.observations
                self.content_text.update(zip(part.observations, part.observation_texts,
                                             strict=True))
                step_contents += part.contents
                fault_outputs.update(part.fault_outputs)
        step_counts = np.concatenate([p.counts for p in parts])
        premise_parts = [p.premises for p in parts]
        member_parts = [p.members for p in parts]
        label_parts = [p.label for p in parts]
        suff_parts = [p.sufficient for p in parts]
        del parts
        del doc, self.doc
        _need(not (step_turn < 0).any())  # every step's turn is a turn
        step_seq_order = n_t + np.argsort(seq[n_t:first_record], kind="stable")
        # stable: timsort, which merges the runs a trajectory's seqs mostly come in
        timed = np.sort(seq[:first_record], kind="stable")
        _need(not (timed[1:] == timed[:-1]).any())  # no repeated seq
        _need((type_code == TYPE_CODE["answer"]).any())

        # dependency edges: dependents in file order (steps, then records); every
        # premise, every record a read returned or a write targets, and every fault
        # looked up at once, and every id checked to be distinct
        fault_ids = [*self.short["faults"], *(self.faults_override or ())]
        members = _joined_ids(member_parts)
        wanted = _joined_ids([*premise_parts, _id_array(record_dep_ids), members,
                              _id_array(fault_ids)])
        del premise_parts, member_parts, record_dep_ids
        nodes = _nodes_of(ids, wanted)
        del wanted
        edges = len(nodes) - len(members) - len(fault_ids)
        src = nodes[:edges]
        # a read's returned ids and a write's targets are records
        _need(not (nodes[edges:edges + len(members)] < first_record).any())
        node_of = dict(zip(fault_ids, nodes[edges + len(members):].tolist(), strict=True))
        _need(not (src < 0).any())  # an unknown id
        label = np.concatenate([*label_parts, *record_labels]).astype(np.int8, copy=False)
        sufficient = np.concatenate([*suff_parts, *record_suff]).astype(bool, copy=False)
        dst = np.repeat(np.arange(n_t, n, dtype=np.int64),
                        np.concatenate([step_counts, record_counts]))
        _need(not (src == dst).any())
        if self.predating:  # case.produced-in-run: no step of the run produced such a record
            predates = np.zeros(n, bool)
            predates[self.predating] = True
            at_records = len(src) - int(record_counts.sum())  # the records' deps come last
            premise, dependent = src[at_records:], dst[at_records:]
            _need(not (predates[dependent] & (premise >= n_t) & (premise < first_record)
                       & (label[at_records:] == LABEL_CODE["produce"])).any())
        # a step may not depend on a later turn or step
        both = (dst < first_record) & (src < first_record)
        _need(not (seq[src[both]] > seq[dst[both]]).any())
        _need(not _cycle_suspected(n_t, n_s, seq, src, dst, label))
        self.seq_of = seq

        def faultable(node: int) -> bool:  # a record, a user turn or a tool observation
            return node >= 0 and not (n_t <= node < first_record
                                      and type_code[node] != _OBSERVATION_CODE)

        fault_nodes: list[int] = [node_of[f] for f in self.short["faults"]]
        _need(all(map(faultable, fault_nodes)) and len(set(fault_nodes)) == len(fault_nodes))
        if self.faults_override is not None:  # `with_faults`: valid ids, store order
            chosen = {node_of[f] for f in self.faults_override}
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
            step_tool=tools, claim_key=claim_key, src=src, dst=dst, label=label, sufficient=sufficient,
            faults=fault_nodes, tools=short["tools"], texts=texts, carry_hits=carry_hits,
            record_kv=record_kv, step_seq_order=step_seq_order,
            contents=[*self.turn_texts, *step_contents, *self.record_contents]
            if self.fault_content else [],
            carry_texts=self.content_text if self.fault_content else {},
            observations=self.observations, record_slots=self.record_kv,
            record_created=self.record_created, fault_outputs=fault_outputs)

    def _records(self, ids: list[str], seq: np.ndarray, texts: list[str],
                 index: dict[str, int]) -> tuple[np.ndarray, list[str], list[str], np.ndarray,
                                                 list[np.ndarray], list[np.ndarray]]:
        """Read the records into their slices of `ids`, `seq` and `texts`, and add the
        faulty ones' ids to `index`; every id a record names is looked up once every id
        is known (`_nodes_of`, which also finds a repeated id)."""
        doc, n, n_r = self.doc, len(ids), self.n_r
        first_record = n - n_r
        active = np.zeros(n, bool)
        statuses: list[str] = []
        record_dep_ids: list[str] = []
        record_counts = np.empty(n_r, np.int64)
        record_labels, record_suff = [], []
        fault_set = self.fault_set
        done = 0
        for batch in _batches(doc.memory, _RECORDS, self.release):
            k, at = len(batch), first_record + done
            ids[at:at + k] = map(_ID, batch)
            index.update(_faulty(ids[at:at + k], at, fault_set))
            created = [*map(_CREATED, batch)]
            if None in created:
                self.predating += (at + i for i, c in enumerate(created) if c is None)
                created = [-1 if c is None else c for c in created]
            seq[at:at + k] = created
            statuses += map(_STATUS, batch)
            active[at:at + k] = np.fromiter(map("active".__eq__, statuses[done:done + k]),
                                            bool, k)
            if self.keep_text:
                texts[at:at + k] = map(_TEXT, batch)
            if self.fault_content:
                record_texts = [*map(_TEXT, batch)]
                self.content_text.update(zip(range(at, at + k), record_texts, strict=True))
                self.record_created += map(_CREATED, batch)
                self.record_kv += zip(map(_KEY, batch), map(_VALUE, batch), strict=True)
                self.record_contents += map(with_value, record_texts, map(_VALUE, batch))
            dep_lists = [*map(_DEPS, batch)]
            record_counts[done:done + k] = np.fromiter(map(len, dep_lists), np.int64, k)
            deps = [*chain.from_iterable(dep_lists)]
            record_dep_ids += map(_ID, deps)
            record_labels.append(_label_codes(deps))
            record_suff.append(np.fromiter(map(_SUFFICIENT, deps), bool, len(deps)))
            done += k
        return active, statuses, record_dep_ids, record_counts, record_labels, record_suff

    def _step_part(self, items: list[msgspec.Raw], first: int) -> _StepPart:
        """The columns of trajectory items `first`, `first + 1`, ... (`items`), read a
        batch at a time. The premises are kept as ids (`premises`), joined to the nodes
        once every part is read (`_nodes_of`)."""
        n_t, keep_text, fault_content = self.n_t, self.keep_text, self.fault_content
        turn_index = self.turn_index
        part = _StepPart(first)
        ids: list[str] = part.ids
        seqs, codes_parts, failed_parts, step_turns, count_parts = [], [], [], [], []
        claim_parts, verified_parts, label_parts, suff_parts = [], [], [], []
        tool_parts, claim_key_parts, premise_parts, member_parts = [], [], [], []
        done = 0
        for batch in _batches(items, _STEPS, self.release):
            k, at = len(batch), n_t + first + done
            ids += map(_ID, batch)
            seqs.append(np.fromiter(map(_SEQ, batch), np.int64, k))
            codes = np.fromiter(map(_STEP_CODE.__getitem__, map(type, batch)), np.int8, k)
            codes_parts.append(codes)
            failed_parts.append(np.fromiter(map("failed".__eq__, map(_STATUS, batch)), bool, k))
            pick = batch.__getitem__
            claims = np.flatnonzero(codes == _CLAIM_CODE)
            claim_parts.append(done + claims)
            verified_parts.append(np.fromiter(map(_VERIFIED, map(pick, claims.tolist())),
                                              bool, len(claims)))
            step_turns.append(np.fromiter(
                map(turn_index.get, map(_TURN, batch), repeat(-1)), np.int64, k))
            reads = np.flatnonzero(codes == _READ_CODE).tolist()
            writes = np.flatnonzero(codes == _WRITE_CODE).tolist()
            # looked up with the premises (`_nodes_of`): a set of every record id asked
            # for each cost 0.8 us an id at 1M steps, its strings all over the heap
            member_parts.append(_id_array([
                *chain.from_iterable(map(_RETURNED, map(pick, reads))),
                *chain.from_iterable(map(_TARGET, map(pick, writes)))], _MAX_ID_CHARS))
            keys = [*map(_KEY, map(pick, claims.tolist()))]
            if None in keys:  # a claim that names no slot
                named = [i for i, key in enumerate(keys) if key is not None]
                claim_key_parts.append(done + claims[named])
                keys = [keys[i] for i in named]
            else:
                claim_key_parts.append(done + claims)
            part.claim_key_names += keys
            tooled = np.flatnonzero((codes == _PLAN_CODE) | (codes == _ACTION_CODE))
            tool_parts.append(done + tooled)
            part.tool_names += map(_TOOL, map(pick, tooled.tolist()))
            if keep_text or fault_content:
                batch_texts = [*map(_TEXT, batch)]
                if keep_text:
                    part.texts += batch_texts
            if fault_content:
                # a step's content is its text but for a claim's value and an
                # observation's output (`node_content`)
                for i in claims.tolist():
                    batch_texts[i] = with_value(batch_texts[i], batch[i].value)
                fault_set = self.fault_set
                for i in np.flatnonzero(codes == _OBSERVATION_CODE).tolist():
                    observation = batch[i]
                    # an observation has no value: its content is its `text_of`
                    batch_texts[i] = text = text_of(observation)
                    part.observations.append(at + i)
                    part.observation_texts.append(text)
                    if observation.id in fault_set:
                        part.fault_outputs[at + i] = observation.output
                part.contents += batch_texts
            dep_lists = [*map(_DEPS, batch)]
            count_parts.append(np.fromiter(map(len, dep_lists), np.int64, k))
            deps = [*chain.from_iterable(dep_lists)]
            del dep_lists
            premise_parts.append(_id_array([*map(_ID, deps)]))
            label_parts.append(_label_codes(deps))
            suff_parts.append(np.fromiter(map(_SUFFICIENT, deps), bool, len(deps)))
            done += k
        for name, arrays in zip(_ARRAYS, (
                seqs, codes_parts, failed_parts, step_turns, count_parts, claim_parts,
                verified_parts, label_parts, suff_parts, tool_parts,
                claim_key_parts), strict=True):
            # cast: mypy joins the lists' element types, to `object` on some runs
            setattr(part, name, _joined(cast("list[np.ndarray]", arrays), _ARRAYS[name]))
        part.premises = _joined_ids(premise_parts)
        part.members = _joined_ids(member_parts)
        return part

    def _claimed_part(self, items: list[msgspec.Raw], meeting: _Meeting, front: bool,
                      watch: int | None = None) -> _StepPart:
        """The chunks of `items` this process claims from the `front` (or the back) of
        `meeting` until the two ends meet, read and joined into one part."""
        chunks = []
        while (claimed := meeting.claim(front, watch)) is not None:
            lo, hi = claimed
            chunks.append(self._step_part(items[lo:hi], lo))
        return _merged(chunks, 0 if front else len(items))

    def _early_fault_texts(self, index: dict[str, int]) -> dict[int, str] | None:
        """The faults' texts when every fault is a turn or a record (known before the
        steps are read, so both processes can search the texts they read), else None."""
        if not self.fault_content:
            return None
        first_record = self.n_t + self.n_s
        found: dict[int, str] = {}
        for fault in self.fault_ids:
            node = index.get(fault, -1)
            if not (0 <= node < self.n_t or node >= first_record) \
                    or node not in self.content_text:
                return None
            found[node] = self.content_text[node]
        return found or None

    def _early_record_hits(self, index: dict[str, int]) -> None:
        """Search the records for the faults' texts, before the steps are read (the
        reading is shared out as it goes, so this costs the second process nothing). The
        records are searched here, not in the second process, because this one has
        their texts already."""
        from .._carried import text_hits

        fault_texts = self._early_fault_texts(index)
        if fault_texts is not None:
            first_record = self.n_t + self.n_s
            records = [*map(self.content_text.__getitem__,
                            range(first_record, first_record + self.n_r))]
            self.early_records = text_hits(fault_texts, records)

    def _early_hits(self, part: _StepPart, index: dict[str, int]) -> None:
        """Search this process's observations for the faults' texts (the second process
        searches its own; `_fault_content` takes the results, with the records', when
        the faults turn out the same)."""
        from .._carried import text_hits

        fault_texts = self._early_fault_texts(index)
        if fault_texts is not None and self.early_records is not None:
            self.early = (set(fault_texts), text_hits(fault_texts, part.observation_texts),
                          len(part.observations))

    def _fault_content(self, fault_nodes: list[int], first_record: int
                       ) -> tuple[list[tuple[int, float, set[int]]],
                                  dict[int, tuple[str | None, Any]]]:
        """What the planner needs of the faults' content (carried fault text): the observations and
        records that carry a fault's text, and the keys and values of faulty records."""
        if not fault_nodes:
            return [], {}
        from .._carried import text_hits

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

        found_in: Iterable[tuple[int, set[int]]]
        if self.early is not None and self.early_records is not None \
                and self.child_hits is not None and self.early[0] == set(fault_nodes):
            # searched in the two processes: the candidates are this one's observations,
            # the child's, then the records; this one searched its observations and the
            # records, the child its own observations
            _, early_hits, n_first = self.early
            n_obs = len(self.observations)
            found_in = chain(early_hits, ((n_first + i, f) for i, f in self.child_hits),
                             ((n_obs + i, f) for i, f in self.early_records))
        else:
            found_in = text_hits(fault_texts, [text[c] for c in candidates])
        hits = [(candidates[i], time_of(candidates[i]), found) for i, found in found_in]
        kv = self.record_kv
        keys = {kv[f - first_record][0] for f in fault_nodes if f >= first_record}
        keys.discard(None)
        record_kv = {first_record + i: m for i, m in enumerate(kv)
                     if m[0] in keys} if keys else {}
        return hits, record_kv


_CLAIM_CODE, _READ_CODE, _WRITE_CODE, _OBSERVATION_CODE = (
    TYPE_CODE[t] for t in ("claim", "memory_read", "memory_write", "tool_observation"))
_PLAN_CODE, _ACTION_CODE = TYPE_CODE["plan"], TYPE_CODE["tool_action"]


def _no_ints() -> np.ndarray:
    return np.zeros(0, np.int64)


@dataclass
class _StepPart:
    """The columns of a run of trajectory items, starting at item `first`."""

    first: int
    ids: list[str] = field(default_factory=list)
    tool_names: list[str] = field(default_factory=list)
    """Tool of each plan and tool_action step (items: `tool_items`)."""
    claim_key_names: list[str] = field(default_factory=list)
    """Key of each claim that names its slot (items: `claim_key_items`)."""
    texts: list[str] = field(default_factory=list)
    observations: list[int] = field(default_factory=list)
    """Node of each tool observation."""
    observation_texts: list[str] = field(default_factory=list)
    contents: list[str] = field(default_factory=list)
    """`content.node_content` of each item (planning)."""
    fault_outputs: dict[int, Any] = field(default_factory=dict)
    """Node -> output of each tool observation named as a fault (planning)."""
    premises: np.ndarray = field(default_factory=lambda: np.zeros(0, "U1"))
    """The premise id of each dependency edge, in order (fixed-width strings)."""
    members: np.ndarray = field(default_factory=lambda: np.zeros(0, "U1"))
    """The ids a read returned and a write targets, in order (fixed-width strings): each
    must be a record's."""
    hits: list[tuple[int, set[int]]] | None = None
    """`text_hits` of the part's observations (searched by the second process, when
    every fault is a turn or a record)."""
    seq: np.ndarray = field(default_factory=_no_ints)
    codes: np.ndarray = field(default_factory=_no_ints)
    failed: np.ndarray = field(default_factory=_no_ints)
    step_turn: np.ndarray = field(default_factory=_no_ints)
    counts: np.ndarray = field(default_factory=_no_ints)
    claims: np.ndarray = field(default_factory=_no_ints)
    """Items (within the part) that are claims; `verified` is theirs."""
    verified: np.ndarray = field(default_factory=_no_ints)
    label: np.ndarray = field(default_factory=_no_ints)
    sufficient: np.ndarray = field(default_factory=_no_ints)
    tool_items: np.ndarray = field(default_factory=_no_ints)
    """Items (within the part) that are plan or tool_action steps, in order."""
    claim_key_items: np.ndarray = field(default_factory=_no_ints)
    """Items (within the part) that are claims naming their slot, in order."""


_PARALLEL_MIN_STEPS = 125_000
"""From this many steps up a second process reads part of the trajectory. It saves wall
time in proportion to the steps, for CPU time that grows with them too: `dgrr plan` of
100k steps took 0.09 s less wall time for 0.12 CPU s more, of 150k 0.20 s less for 0.10
more; reading 1M steps took 8.5-9.1 CPU s in two processes against 7.1 in one, on a
shared machine (docs/performance.md). Below this size it would cost more than it saves."""
_CHUNK = 4 * _BATCH
"""Trajectory items claimed at a time by either process (`_Meeting`). How fast each
process reads moved by up to 35% between runs on a shared machine, so no fixed share of
the trajectory keeps both busy: with a fixed half, one process waited 0.1-0.5 s for the
other at 1M steps. Claimed a chunk at a time, the two finish within a chunk of each other
(4,000 steps: 13-27 ms at 1M)."""


class _Meeting:
    """Two processes reading the trajectory from its two ends until they meet: the first
    claims chunks from the front, the second (forked after :meth:`start`) from the back.
    The two ends are kept in shared memory and moved holding a token, one byte passed
    through a pipe (a lock both processes hold a share of). Each side's first chunk is
    its own from the start, so each reads at least one whenever there are two."""

    def __init__(self, n: int) -> None:
        self.ends = mmap.mmap(-1, 16)  # anonymous and shared: both processes see it
        first = min(_CHUNK, n // 2)
        struct.pack_into("qq", self.ends, 0, first, n - first)
        self.first = {True: (0, first), False: (n - first, n)}
        self.parent = os.getpid()
        self.token_r, self.token_w = os.pipe()
        os.set_blocking(self.token_r, False)
        os.write(self.token_w, b"t")

    @classmethod
    def start(cls, n: int) -> _Meeting | None:
        try:
            return cls(n)
        except OSError:  # no pipe: read in one process
            return None

    def claim(self, front: bool, watch: int | None = None) -> tuple[int, int] | None:
        """The next chunk (lo, hi) for the front or the back; None once the two ends
        have met or (`watch`, the other process's result pipe, being readable without
        the token free) the other process has ended holding the token."""
        first = self.first.pop(front, None)
        if first is not None and first[0] < first[1]:
            return first
        if not self._acquire(watch):
            return None
        try:
            lo, hi = struct.unpack_from("qq", self.ends, 0)
            if lo >= hi:
                return None
            if front:
                claimed = (lo, min(lo + _CHUNK, hi))
                struct.pack_into("q", self.ends, 0, claimed[1])
            else:
                claimed = (max(hi - _CHUNK, lo), hi)
                struct.pack_into("q", self.ends, 8, claimed[0])
            return claimed
        finally:
            os.write(self.token_w, b"t")

    def _acquire(self, watch: int | None) -> bool:
        poller = select.poll()  # not select(): it refuses descriptors from 1024 up
        poller.register(self.token_r, select.POLLIN)
        if watch is not None:
            poller.register(watch, select.POLLIN)
        while True:
            ready = {fd for fd, _ in poller.poll(1000)}
            if self.token_r in ready:
                try:
                    if os.read(self.token_r, 1):
                        return True
                except BlockingIOError:  # the other process took it first
                    continue
            if watch is not None and watch in ready:  # readable, or closed by its end
                return False
            if os.getpid() != self.parent and os.getppid() != self.parent:
                os._exit(1)  # the second process, whose first has gone

    def close(self) -> None:
        """Release the pipe (the first process, once it has read its part)."""
        for fd in (self.token_r, self.token_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.token_r = self.token_w = -1


def _merged(parts: list[_StepPart], first: int) -> _StepPart:
    """The chunks `parts` (together a run of items, in any order) as one part; an empty
    part starting at `first` when there are none."""
    parts = sorted(parts, key=attrgetter("first"))
    if len(parts) == 1:
        return parts[0]
    whole = _StepPart(parts[0].first if parts else first)
    items = 0
    for part in parts:
        assert part.first == whole.first + items  # contiguous, by the claims
        whole.ids += part.ids
        whole.texts += part.texts
        whole.observations += part.observations
        whole.observation_texts += part.observation_texts
        whole.contents += part.contents
        whole.fault_outputs.update(part.fault_outputs)
        whole.tool_names += part.tool_names
        whole.claim_key_names += part.claim_key_names
        items += len(part.ids)
    for name in _ARRAYS:
        arrays = [getattr(p, name) for p in parts]
        if name in _ITEMS:
            starts = np.cumsum([0, *(len(p.ids) for p in parts[:-1])])
            arrays = [a + s for a, s in zip(arrays, starts, strict=True)]
        setattr(whole, name, _joined(arrays, _ARRAYS[name]))
    whole.premises = _joined_ids([p.premises for p in parts])
    whole.members = _joined_ids([p.members for p in parts])
    return whole


_ARRAYS: dict[str, type] = {  # a _StepPart's arrays and their types, in this order
    "seq": np.int64, "codes": np.int8, "failed": bool, "step_turn": np.int64,
    "counts": np.int64, "claims": np.int64, "verified": bool,
    "label": np.int8, "sufficient": bool, "tool_items": np.int64,
    "claim_key_items": np.int64}
_ITEMS = ("claims", "tool_items", "claim_key_items")
"""The arrays of items within a part (offset by each part's start when parts join)."""


class _Child(Forked):
    """A forked process reading trajectory items into a :class:`_StepPart`."""

    def part(self) -> _StepPart | _Declined | None:
        """The child's part, its refusal, or None when it died without one."""
        data = self.result()
        if not data:
            return None
        part = pickle.loads(data)
        return _unpack(part) if isinstance(part, dict) else part \
            if isinstance(part, _Declined) else None


def _build_folding_tables() -> None:
    """Build the tables the faults' text search folds texts with (`_carried.folded_words`
    builds them on first use), before the second process is forked: both processes
    search, and built after the fork each process built its own (0.1-0.15 CPU s). Only
    called when there are faults, whose search the first process makes in any case."""
    from .._carried import folded_words

    folded_words("")


def _fork_part(reader: _Reader, items: list[msgspec.Raw], index: dict[str, int],
               meeting: _Meeting) -> _Child | None:
    """Read `items` from the back in a forked process (copy-on-write: it shares what is
    read so far), claiming chunks from `meeting`; None when no process could be started
    (the caller reads them itself)."""
    def work() -> bytes:
        part: _StepPart | _Declined
        try:
            _fault_records(reader, index)
            part = reader._claimed_part(items, meeting, False)
            fault_texts = reader._early_fault_texts(index)
            if fault_texts is not None:
                from .._carried import text_hits

                part.hits = text_hits(fault_texts, part.observation_texts)
        except _Declined as declined:
            part = declined
        except (msgspec.DecodeError, ValueError, OverflowError, RecursionError):
            part = _Declined()
        return pickle.dumps(_pack(part) if isinstance(part, _StepPart) else part,
                            protocol=pickle.HIGHEST_PROTOCOL)

    return _Child.start(work)


class _IdText(msgspec.Struct, gc=False):
    id: str
    text: str


_RECORD_TEXT = msgspec.json.Decoder(_IdText)


def _fault_records(reader: _Reader, index: dict[str, int]) -> None:
    """In the second process, when the faults' content is read: add the faulty records'
    ids to `index` and their texts to `content_text`. Each fault's id is looked for as
    JSON in the records' bytes and only the records it occurs in are decoded (decoding
    every record's id cost this process 0.1-0.3 CPU s at 1M steps); the first process
    checks the records whole. A fault written otherwise (an escaped character) is not
    found here: this process then leaves the faults' text search to the first."""
    if not reader.fault_content:
        return
    memory = reader.doc.memory
    first_record = reader.n_t + reader.n_s
    joined = b"".join(memory)
    ends = np.cumsum(np.fromiter(map(len, memory), np.int64, len(memory)))
    for fault in reader.fault_ids:
        if fault in index:  # a turn's
            continue
        needle = msgspec.json.encode(fault)
        at = joined.find(needle)
        while at >= 0:
            item = int(np.searchsorted(ends, at, side="right"))
            record = _RECORD_TEXT.decode(memory[item])
            if record.id == fault:
                index[fault] = first_record + item
                reader.content_text[first_record + item] = record.text
                break
            at = joined.find(needle, int(ends[item]))


def _faulty(ids: list[str], first: int, fault_set: frozenset[str]
            ) -> Iterator[tuple[str, int]]:
    """(id, node) of each id of `ids` (nodes `first`, `first + 1`, ...) that is a fault's.
    Only the faults' ids are kept in a dictionary: the rest are looked up with the
    premises (`_nodes_of`)."""
    if not fault_set.isdisjoint(ids):
        yield from ((key, first + i) for i, key in enumerate(ids) if key in fault_set)


_STRING_LISTS = ("ids", "texts", "observation_texts", "contents", "tool_names",
                 "claim_key_names")


def _pack(part: _StepPart) -> dict[str, Any]:
    """The part as the second process sends it: each list of strings joined by NUL
    (which no string of a case read here contains), a fifth of the time pickle takes
    for a list of a million short strings."""
    state = dict(vars(part))
    for name in _STRING_LISTS:
        state[name] = (len(state[name]), "\0".join(state[name]))
    return state


def _unpack(state: dict[str, Any]) -> _StepPart:
    for name in _STRING_LISTS:
        count, joined = state[name]
        state[name] = joined.split("\0") if count else []
    return _StepPart(**state)


def _id_array(keys: list[str], longest: int | None = None) -> np.ndarray:
    """`keys` as a numpy array of fixed-width strings, as wide as the longest: of bytes
    when every id is ASCII (a quarter of the memory), else of code points. Declines when
    a key is longer than `longest` (given for text no decode has bounded: such a key
    names no node, and one long text would make every row that wide)."""
    if not keys:
        return np.zeros(0, "S1")
    if longest is not None and max(map(len, keys)) > longest:
        raise _Declined
    try:
        return np.array(keys, dtype="S")
    except UnicodeEncodeError:
        return np.array(keys, dtype=str)


def _same_kind(arrays: list[np.ndarray]) -> list[np.ndarray]:
    """`arrays` of ids, those of bytes turned to code points when any is of code points
    (ASCII bytes decode as they were encoded)."""
    if all(a.dtype.kind == "S" for a in arrays):
        return arrays
    return [a.astype(f"U{a.dtype.itemsize}") if a.dtype.kind == "S" else a for a in arrays]


def _joined_ids(arrays: list[np.ndarray]) -> np.ndarray:
    """Arrays of ids as one, as wide as the widest."""
    return np.concatenate(_same_kind(arrays)) if arrays else np.zeros(0, "S1")


def _padded(keys: np.ndarray, size: int) -> np.ndarray:
    """`keys` as strings of `size` bytes (a multiple of 8), padded with NULs."""
    chars = size if keys.dtype.kind == "S" else size // 4
    return keys.astype(f"{keys.dtype.kind}{chars}", copy=False)


_FNV_OFFSET, _FNV_PRIME = np.uint64(0xCBF29CE484222325), np.uint64(0x100000001B3)
_BLOCK = 1 << 16
"""Ids hashed or compared at a time (`_hashes`, `_nodes_of`): a block's words stay in
the CPU's cache while each column is folded in, and what is gathered to compare is small."""


def _hashes(keys: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each id of `keys` (strings of a multiple of 8 bytes), its 8-byte
    words folded in one column at a time, FNV-1a's way. The padding after an id's end
    is folded in too, so ids are compared by hash only at the same width."""
    words = keys.view(np.uint64).reshape(len(keys), keys.dtype.itemsize // 8)
    hashes = np.full(len(keys), _FNV_OFFSET, np.uint64)
    for lo in range(0, len(keys), _BLOCK):
        block, rows = hashes[lo:lo + _BLOCK], words[lo:lo + _BLOCK]
        for column in range(words.shape[1]):
            block ^= rows[:, column]
            block *= _FNV_PRIME
    return hashes


def _nodes_of(ids: list[str], wanted: np.ndarray) -> np.ndarray:
    """The node of each id in `wanted` (fixed-width strings): its place in `ids`, -1 for
    an id not there; declines when an id is repeated in `ids`. A join of the ids' hashes,
    sorted, with every match checked against the id itself: a dictionary of a million
    ids and a lookup per premise cost 2-3 CPU s of a 1M-step read (its keys' pages all
    over the heap), the join about 0.6 s (docs/performance.md)."""
    if not ids:
        return np.full(len(wanted), -1, np.int64)
    nodes, wanted = _same_kind([_id_array(ids), wanted])
    size = -(-max(nodes.dtype.itemsize, wanted.dtype.itemsize) // 8) * 8
    nodes, wanted = _padded(nodes, size), _padded(wanted, size)
    node_hashes = _hashes(nodes)
    order = np.argsort(node_hashes, kind="stable")
    sorted_hashes = node_hashes[order]
    del node_hashes
    shared = np.flatnonzero(sorted_hashes[1:] == sorted_hashes[:-1])
    if len(shared):
        _need(not (nodes[order[shared]] == nodes[order[shared + 1]]).any())  # repeated
        # distinct ids with one hash (rare, or made to collide): looked up one by one
        index = dict(zip(ids, range(len(ids)), strict=True))
        _need(len(index) == len(ids))
        keys = wanted.astype(f"U{size}") if wanted.dtype.kind == "S" else wanted
        return np.fromiter(map(index.get, keys.tolist(), repeat(-1)), np.int64,
                           len(wanted))
    # searched in the order of their hashes: a binary search of each premise in turn
    # strayed over the whole array (0.85 CPU s for the 1M-step case's 2.3M premises,
    # against 0.35 with the sort)
    wanted_hashes = _hashes(wanted)
    by_hash = np.argsort(wanted_hashes)
    found = np.empty(len(wanted), np.int64)
    found[by_hash] = np.searchsorted(sorted_hashes, wanted_hashes[by_hash])
    del wanted_hashes, by_hash
    found[found == len(order)] = 0
    found = order[found]
    for lo in range(0, len(found), _BLOCK):
        block = found[lo:lo + _BLOCK]
        block[nodes[block] != wanted[lo:lo + _BLOCK]] = -1
    return found


def _joined(arrays: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(arrays).astype(dtype, copy=False) if arrays \
        else np.zeros(0, dtype)


_LABEL_OF: Callable[[str], int] = LABEL_CODE.__getitem__


def _label_codes(deps: list[_Dep]) -> np.ndarray:
    return np.fromiter(map(_LABEL_OF, map(_LABEL, deps)), np.int8, len(deps))


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
        frontier = _distinct(nxt[indeg[nxt] == 0])
    return levels if seen == len(nodes) else None


def _distinct(values: np.ndarray) -> np.ndarray:
    """`np.unique(values)` (sorted, each value once), without the import of numpy.ma that
    numpy 2.4's `np.unique` makes on its first plain call (10 ms of a 1 s command)."""
    if len(values) < 2:
        return values.copy()
    ordered = np.sort(values)
    keep = np.empty(len(ordered), bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def _ranges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The concatenation of arange(lo[i], hi[i]) for every i, in order."""
    lens = hi - lo
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    offsets = np.cumsum(lens) - lens
    return np.repeat(lo - offsets, lens) + np.arange(total)
