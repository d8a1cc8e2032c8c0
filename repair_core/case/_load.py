"""Loading a case: every problem reported at once, never a traceback, never half a case."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Container, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from .._errors import CaseError, Problem
from .._io import read_input
from .._perf import without_gc
from ._case import (
    CASE_FORMAT,
    FAULTABLE_STEP_TYPES,
    LABELS,
    STEP_TYPES,
    TOOL_EFFECTS,
    WRITE_OPS,
    Case,
    MemoryRecord,
    Step,
    Turn,
)
from ._json import data_problems, loads_strict
from ._shared import SharedFieldNames, share_field_names, share_ids

__all__ = ["load_case", "parse_case", "case_from_data", "check_case_data", "case_from_parts",
           "load_case_parts", "repaired_case", "with_faults"]

RECORD_TYPES: set[type] = set()
"""Mapping types besides dict that the reference checks meet (the compact items of
`_stream`), recognised without an ABC isinstance check."""

_REQUIRED = ("format", "case_id", "user_id", "session", "memory", "trajectory", "faults")


def load_case(path: str | Path) -> Case:
    """Read and validate a case file.

    Raises :class:`CaseError` listing every problem (with field path and value).
    """
    p = Path(path)
    raw = read_input(p)
    return parse_case(raw, source=str(p))


def load_case_parts(trajectory: str | Path, memory: str | Path) -> Case:
    """Read a case given as two files: the trajectory (a case without `memory`) and the
    memory store (a list of records, or `{"memory": [...]}`)."""
    raws = []
    for label, path in (("trajectory file", Path(trajectory)), ("memory file", Path(memory))):
        try:
            raws.append(path.read_bytes())
        except OSError as exc:
            raise CaseError([f"{label}: cannot read '{path}': {exc.strerror}"],
                            source=f"{trajectory} + {memory}") from None
    return case_from_parts(raws[0], raws[1], source=f"{trajectory} + {memory}")


def case_from_parts(trajectory: str | bytes, memory: str | bytes,
                    source: str | None = None) -> Case:
    """Validate a case given as trajectory JSON plus memory-store JSON (see
    :func:`load_case_parts`). `format` defaults to dgrr.case/v1 and `faults` to none yet.

    >>> from repair_core import load_example
    >>> traj = load_example().model_dump(exclude={"memory"})
    >>> mem = [m.model_dump() for m in load_example().memory]
    >>> case_from_parts(json.dumps(traj), json.dumps(mem)).case_id
    'fig1-travel'
    """
    problems: list[str] = []
    parsed: list[Any] = []
    for label, raw in (("trajectory file", trajectory), ("memory file", memory)):
        data, found = loads_strict(raw)
        parsed.append(data)
        problems.extend(f"{label}: {p}" for p in found)
    if problems:
        raise CaseError(problems, source=source)
    traj, mem = parsed
    if not isinstance(traj, Mapping):
        problems.append(f"trajectory file: expected a JSON object, got {_show(traj)}")
    if isinstance(mem, Mapping) and "memory" in mem:
        mem = mem["memory"]
    if not isinstance(mem, list):
        problems.append('memory file: expected a list of records or {"memory": [...]}, '
                        f"got {_show(mem)}")
    if problems:
        raise CaseError(problems, source=source)
    return _checked_case({"format": CASE_FORMAT, "faults": [], **traj, "memory": mem},
                         source=source)


def with_faults(case: Case, faults: list[str] | tuple[str, ...]) -> Case:
    """`case` with exactly `faults` as its diagnosed faults (in store order), validated.

    >>> from repair_core import load_example
    >>> with_faults(load_example(), ["m6", "m3"]).faults
    ['m3', 'm6']
    >>> with_faults(load_example(), ["s3"])
    Traceback (most recent call last):
    ...
    repair_core._errors.CaseError: faults: invalid case (1 problem)
      - faults[0]: not a memory record, tool observation or user turn 's3'
    """
    records = {m.id for m in case.memory}
    known = records | {s.id for s in case.trajectory} | {t.id for t in case.session}
    allowed = records | {t.id for t in case.session} | {
        s.id for s in case.trajectory if s.type in FAULTABLE_STEP_TYPES}
    problems = [f"faults[{i}]: "
                f"{'not a memory record, tool observation or user turn' if f in known else 'unknown id'}"
                f" '{f}'" for i, f in enumerate(faults) if f not in allowed]
    if problems:
        raise CaseError(problems, source="faults")
    chosen = set(faults)
    # records in store order, then observations in seq order, then turns in seq order
    order = [m.id for m in case.memory] + [s.id for s in case.steps_in_order()] + [
        t.id for t in sorted(case.session, key=lambda t: t.seq)]
    return case.model_copy(update={"faults": [n for n in order if n in chosen]})


@without_gc
def parse_case(text: str | bytes, source: str | None = None) -> Case:
    """Validate a case given as JSON text.

    >>> parse_case('{"format": "dgrr.case/v2"}')
    Traceback (most recent call last):
    ...
    repair_core._errors.CaseError: invalid case (7 problems)
    ...
    """
    data, problems = loads_strict(text)  # duplicate keys, NaN, lone surrogates, limits
    if problems:
        raise CaseError(problems, source=source)
    return _checked_case(data, source=source)


@without_gc
def case_from_data(data: Any, source: str | None = None, *, cycles: bool = True,
                   cancelled: Callable[[], bool] | None = None) -> Case:
    """Validate already-parsed JSON data as a case (also refusing what JSON text could
    not hold: non-finite numbers and lone surrogates).

    `cycles=False` skips the dependency-cycle check; only for a trajectory dgrr itself
    produced by replay, whose re-run reads may cite records the original run made later.
    `cancelled` is asked often while a large case is checked; once it is true the check
    stops with a `CaseError` (an import whose browser session ended).
    """
    tick = None
    if cancelled is not None:
        def tick() -> None:
            if cancelled():
                raise CaseError(["stopped: the import was cancelled"], source=source)
    problems = data_problems(data, tick=tick)
    if problems:
        raise CaseError(problems, source=source)
    return _checked_case(data, source=source, cycles=cycles, tick=tick)


@without_gc
def repaired_case(case: Case, trajectory: Sequence[Step | Mapping[str, Any]],
                  memory: Sequence[MemoryRecord | Mapping[str, Any]],
                  source: str | None = None) -> Case:
    """`case` with `trajectory` and `memory` in place of its own and no evaluation labels:
    the case a replay leaves.

    An item given as a model is one of `case`'s own, validated with it (or dgrr's copy of
    one, marked or retired by the repair); an item given as JSON data is new (a replayed
    step, a record a replayed write added) and is checked as a loaded case's items are:
    searched for what JSON text could not hold, validated strictly, its references
    checked against every id of the new case, and every id and seq still unique. The
    references of the case's own items are not checked again: nothing they name is gone
    (every step and record of `case` is still there). Dependency cycles are not checked:
    a re-run read may cite records the original run only made later.
    """
    new = [x for x in [*trajectory, *memory] if not isinstance(x, BaseModel)]
    problems = data_problems(new)
    if problems:
        raise CaseError(problems, source=source)
    steps = _validated_new("trajectory", trajectory, problems)
    records = _validated_new("memory", memory, problems)
    # the references of the new items, among the ids (and seqs) of all; the whole check
    # runs only to word what the quick one found wrong, so the problems are its own
    if problems or not _new_references_hold(case, steps, records, trajectory, memory):
        problems.extend(_check_references({
            "session": [{"id": t.id, "seq": t.seq} for t in case.session],
            "trajectory": [x if isinstance(x, Mapping)
                           else {"id": x.id, "seq": x.seq, "type": x.type} for x in trajectory],
            "memory": [x if isinstance(x, Mapping) else {"id": x.id} for x in memory],
            "faults": case.faults}, cycles=False))
    if problems:
        raise CaseError(problems, source=source)
    # the new items (and the repair's copies of records) share their sets of names as a
    # loaded case's items do: at 300k steps about 150k sets of their own otherwise; the
    # kept steps and records already share theirs, and their deps
    share_field_names([x for x in (*steps, *records)
                       if type(x.__pydantic_fields_set__) is not SharedFieldNames], {})
    return case.model_copy(update={"trajectory": steps, "memory": records, "eval": None})


def _new_references_hold(case: Case, steps: Sequence[Step], records: Sequence[MemoryRecord],
                         trajectory: Sequence[Any], memory: Sequence[Any]) -> bool:
    """Whether `_check_references` would find nothing wrong with the repaired case of
    the validated `steps` and `records`, asking only about the new items of `trajectory`
    and `memory` (JSON data) what it asks about every item: the case's own items were
    checked when it was read, and nothing they name is gone. Over all items only their
    ids and seqs are read (each still unique), and that the trajectory has an answer
    and the faults are still what they were."""
    turn_ids = [t.id for t in case.session]
    step_ids = [s.id for s in steps]
    record_list = [m.id for m in records]
    known = {*turn_ids, *step_ids, *record_list}
    if len(known) != len(turn_ids) + len(step_ids) + len(record_list):
        return False
    seq_of = dict(zip(turn_ids, (t.seq for t in case.session), strict=True))
    seq_of.update(zip(step_ids, (s.seq for s in steps), strict=True))
    if len(set(seq_of.values())) != len(seq_of):
        return False
    if steps and not any(s.type == "answer" for s in reversed(steps)):
        return False
    record_ids, turns = set(record_list), set(turn_ids)
    faults = case.faults
    if len(set(faults)) != len(faults):
        return False
    wanted = set(faults) - record_ids - turns
    faultable = {s.id for s in steps if s.id in wanted and s.type in FAULTABLE_STEP_TYPES}
    if wanted - faultable:
        return False
    found: list[Problem] = []
    for section, items in (("trajectory", trajectory), ("memory", memory)):
        for i, item in enumerate(items):
            if not isinstance(item, Mapping):
                continue
            deps = item.get("deps")
            if isinstance(deps, list):
                _check_deps(section, i, item, deps, known, seq_of, found, None, turns)
            if section == "memory":
                continue
            turn = item.get("turn")
            if isinstance(turn, str) and turn not in turns:
                return False
            for field in ("returned", "target"):
                ids = item.get(field)
                if isinstance(ids, list) and any(isinstance(r, str) and r not in record_ids
                                                 for r in ids):
                    return False
    return not found


def _validated_new(section: str, items: Sequence[Any], problems: list[Problem]) -> list[Any]:
    """`items` with each JSON item validated strictly (`section`'s item model) in one call;
    the problems of an invalid one are added, placed at its index in `items`."""
    at = [i for i, x in enumerate(items) if not isinstance(x, BaseModel)]
    out = list(items)
    if not at:
        return out
    try:
        valid = _list_adapters()[section].validate_python([items[i] for i in at], strict=True)
    except ValidationError as exc:
        problems.extend(_describe({**err, "loc": (section, at[int(err["loc"][0])], *err["loc"][1:])})
                        for err in exc.errors())
        return out
    for i, item in zip(at, valid, strict=True):
        out[i] = item
    return out


def _checked_case(data: Any, source: str | None, cycles: bool = True,
                  tick: Callable[[], None] | None = None) -> Case:
    case, problems = _validate(data, cycles=cycles, tick=tick)
    if case is None or problems:
        raise CaseError(problems, source=source)
    return case


def check_case_data(data: Any) -> list[Problem]:
    """Every problem of raw case data: shape (via pydantic) and cross-references."""
    return data_problems(data) or _validate(data)[1]


def _validate(data: Any, cycles: bool = True,
              tick: Callable[[], None] | None = None) -> tuple[Case | None, list[Problem]]:
    if not isinstance(data, Mapping):
        return None, [Problem.at("(root)", f"expected a JSON object, got {_show(data)}")]
    case: Case | None = None
    try:
        # strict: the format's integers, numbers, strings and booleans are never coerced
        # ("2", 2.0 and true are not a seq)
        case = _model_validate(data, tick=tick)
        problems: list[Problem] = []
    except ValidationError as exc:
        problems = [_describe(err) for err in exc.errors()]
    except RecursionError:
        return None, [Problem.at("(root)", "nested too deeply")]
    if tick is not None:
        tick()
    problems.extend(_check_references(data, cycles=cycles))
    return case, problems


_LISTS = ("session", "memory", "trajectory")
VALIDATE_CHUNK = 2_000
"""Items of a long list validated per pydantic call. One call is one stretch of Rust
holding the interpreter lock: for a 100k-step case, 0.57 s in which no other thread of
the process ran (another reviewer's dashboard session); a chunk of 2,000 holds it for
about 10 ms."""


@functools.cache
def _list_adapters() -> dict[str, TypeAdapter[Any]]:
    return {"session": TypeAdapter(list[Turn]), "memory": TypeAdapter(list[MemoryRecord]),
            "trajectory": TypeAdapter(list[Step])}


def _model_validate(data: Mapping[str, Any], tick: Callable[[], None] | None = None) -> Case:
    """`Case.model_validate(data, strict=True)`, the same case or the same errors, with a
    long list validated :data:`VALIDATE_CHUNK` items at a time (the lock is released
    between calls). The model has no validators across fields, so validating the other
    fields with the lists empty and then each list on its own gives the same case; any
    error is raised by the one-call form, so the problems and their order are its own.
    The items share their sets of field names, and their references the ids' strings
    (`_shared`)."""
    shared: dict[frozenset[str], SharedFieldNames] = {}  # one set of field names per shape
    lists = [data.get(name) for name in _LISTS]
    if not all(isinstance(items, list) for items in lists) \
            or sum(map(len, lists)) <= VALIDATE_CHUNK:  # type: ignore[arg-type]
        case = Case.model_validate(data, strict=True)
        for name in _LISTS:
            share_field_names(case.__dict__[name], shared)
        share_ids(case.session, case.memory, case.trajectory)
        return case
    try:
        case = Case.model_validate({**data, **dict.fromkeys(_LISTS, [])}, strict=True)
        for name, items in zip(_LISTS, lists, strict=True):
            adapter = _list_adapters()[name]
            validated: list[Any] = []
            for start in range(0, len(items), VALIDATE_CHUNK):  # type: ignore[arg-type]
                if tick is not None:
                    tick()
                chunk = adapter.validate_python(
                    items[start:start + VALIDATE_CHUNK], strict=True)  # type: ignore[index]
                share_field_names(chunk, shared)
                validated += chunk
            case.__dict__[name] = validated
    except ValidationError:
        return Case.model_validate(data, strict=True)  # raises the errors in their order
    share_ids(case.session, case.memory, case.trajectory)
    return case


def _check_references(data: Mapping[str, Any], cycles: bool = True) -> list[Problem]:
    # One loop per section with the checks inlined: this runs once per step, record and
    # dependency of the case, so a generator or helper call per item is measurable on
    # large cases (docs/performance.md). Problems keep the order of the separate passes:
    # ids and seqs, trajectory deps, memory deps, then turns/returned/target per step.
    turns = _items(data, "session")
    records = _items(data, "memory")
    steps = _items(data, "trajectory")
    problems: list[Problem] = []
    at = Problem.at

    seen_ids, seq_of, record_ids, turn_ids = _index_ids(turns, steps, records, problems)

    step_problems: list[Problem] = []
    record_reads: list[tuple[int, str]] = []  # (seq of a step, record it depends on)
    has_answer = False
    for section, items in (("trajectory", steps), ("memory", records)):
        in_trajectory = section == "trajectory"
        for i, item in items:
            deps = item.get("deps")
            if isinstance(deps, list):
                _check_deps(section, i, item, deps, seen_ids, seq_of, problems,
                            record_reads if in_trajectory else None, turn_ids)
            if not in_trajectory:
                continue
            if item.get("type") == "answer":
                has_answer = True
            turn = item.get("turn")
            if isinstance(turn, str) and turn not in turn_ids:
                step_problems.append(at(f"trajectory[{i}].turn", f"unknown turn '{turn}'"))
            for field in ("returned", "target"):
                ids = item.get(field)
                if isinstance(ids, list):
                    for j, rid in enumerate(ids):
                        if isinstance(rid, str) and rid not in record_ids:
                            step_problems.append(at(f"trajectory[{i}].{field}[{j}]",
                                                    f"unknown memory record '{rid}'"))
    problems.extend(step_problems)
    if cycles:
        problems.extend(_cycles(records, steps, seen_ids, seq_of, record_reads))

    # a case without any step is a store's records and lineage (case.store-only), planned
    # for the store; a run that has steps is repaired for its answer and needs one
    if isinstance(data.get("trajectory"), list) and data["trajectory"] and not has_answer:
        problems.append(at("trajectory", "no answer step (repair needs one)"))

    faults = data.get("faults")
    if isinstance(faults, list):
        # untrusted inputs that can be diagnosed besides records (FAULTABLE_STEP_TYPES)
        fault_steps = {s.get("id") for _, s in steps if isinstance(s.get("id"), str)
                       and isinstance(s.get("type"), str)
                       and s.get("type") in FAULTABLE_STEP_TYPES}
        seen_faults: set[str] = set()
        for i, fid in enumerate(faults):
            if not isinstance(fid, str):
                continue
            if fid in seen_faults:
                problems.append(at(f"faults[{i}]", f"duplicate fault '{fid}'"))
            seen_faults.add(fid)
            if fid not in record_ids and fid not in turn_ids and fid not in fault_steps:
                what = "unknown id" if fid not in seen_ids else \
                    "not a memory record, tool observation or user turn"
                problems.append(at(f"faults[{i}]", f"{what} '{fid}'"))
    return problems


_Index = tuple[dict[str, tuple[str, int]], dict[str, int], set[str], set[str]]


def _index_ids(turns: list[tuple[int, Mapping[str, Any]]],
                     steps: list[tuple[int, Mapping[str, Any]]],
                     records: list[tuple[int, Mapping[str, Any]]],
                     problems: list[Problem]) -> _Index:
    """Where each id is first defined, the seq of each turn and step, the record ids and
    the turn ids; each duplicate id or seq is reported."""
    at = Problem.at
    seen_ids: dict[str, tuple[str, int]] = {}  # id -> where it is first defined
    seq_of: dict[str, int] = {}
    seen_seq: dict[int, str] = {}
    record_ids: set[str] = set()
    turn_ids: set[str] = set()
    for section, items, has_seq, ids in (("session", turns, True, turn_ids),
                                         ("trajectory", steps, True, None),
                                         ("memory", records, False, record_ids)):
        for i, item in items:
            node_id = item.get("id")
            if not isinstance(node_id, str):
                continue
            if ids is not None:
                ids.add(node_id)
            if node_id in seen_ids:
                first_section, first_index = seen_ids[node_id]
                problems.append(at(f"{section}[{i}].id", f"duplicate id '{node_id}' "
                                   f"(first at {first_section}[{first_index}])"))
                continue
            seen_ids[node_id] = (section, i)
            seq = item.get("seq")
            if has_seq and isinstance(seq, int) and not isinstance(seq, bool):
                seq_of[node_id] = seq
                if seq in seen_seq:
                    problems.append(at(f"{section}[{i}].seq",
                                       f"duplicate seq {seq} (also '{seen_seq[seq]}')"))
                else:
                    seen_seq[seq] = node_id
    return seen_ids, seq_of, record_ids, turn_ids


def _check_deps(section: str, index: int, item: Mapping[str, Any], deps: list[Any],
                known: Mapping[str, Any] | set[str], seq_of: Mapping[str, int],
                problems: list[Problem], record_reads: list[tuple[int, str]] | None,
                turn_ids: Container[str]) -> None:
    own_seq = item.get("seq")
    own_id = item.get("id")
    seq_bound = own_seq if isinstance(own_seq, int) else None
    # case.produced-in-run: a record that predates the run (created_seq null or absent)
    # cannot have been produced by a step of the run
    predates = section == "memory" and item.get("created_seq") is None
    for j, dep in enumerate(deps):
        if type(dep) is dict or type(dep) in RECORD_TYPES or isinstance(dep, Mapping):
            dep_id = dep.get("id")
        else:
            continue
        if not isinstance(dep_id, str):
            continue
        dep_seq = seq_of.get(dep_id)  # a dep with a seq is known: one lookup for most
        if dep_seq is None:
            if dep_id not in known:
                problems.append(Problem.at(f"{section}[{index}].deps[{j}]",
                                           f"unknown id '{dep_id}'"))
                continue
            if record_reads is not None and seq_bound is not None:
                record_reads.append((seq_bound, dep_id))
        elif predates and dep.get("label") == "produce" and dep_id not in turn_ids:
            problems.append(_produced_before_run(index, item, j, dep_id))
        if dep_id == own_id:
            problems.append(Problem.at(f"{section}[{index}].deps[{j}]",
                                       f"'{dep_id}' depends on itself"))
        elif seq_bound is not None and dep_seq is not None and dep_seq > seq_bound:
            problems.append(Problem.at(
                f"{section}[{index}].deps[{j}]",
                f"depends on '{dep_id}' (seq {dep_seq}), which comes after it (seq {own_seq})",
            ))


def _produced_before_run(index: int, item: Mapping[str, Any], j: int, step: str) -> Problem:
    """The problem of a record whose `created_seq` says it predates the run while its
    `deps[j]` says a step of the run produced it (case-format.md: created_seq is null
    or absent when the record predates the execution; `produce` is write -> record it
    created)."""
    return Problem.at(f"memory[{index}].created_seq",
                      f"null or absent (the record predates the run), but deps[{j}] is a 'produce' "
                      f"edge from step '{step}' of the run (the record was written in it): "
                      "give the seq of the step that created it")


_LIFECYCLE = ("delete", "update")  # a tuple: a label may be any JSON value, even a list


def _cycles(records: list[tuple[int, Mapping[str, Any]]],
            steps: list[tuple[int, Mapping[str, Any]]],
            where: Mapping[str, tuple[str, int]], seq_of: Mapping[str, int],
            record_reads: list[tuple[int, str]]) -> list[Problem]:
    """Dependency cycles, each named. A `delete` or `update` edge into a record is left
    out: a write that retires or rewrites a record may come after the steps that read it
    (and depend on them), so such loops are ordinary history, not circular reasoning.

    Steps only depend on earlier steps (checked above), so a cycle passes through a
    record. The full search runs only when a cheap necessary condition holds: some record
    cycle exists, or a step depends on a record whose premises (through other records)
    include a step that is not earlier than it."""
    premises: dict[str, list[str]] = {}  # record -> its non-lifecycle premise ids
    for _, item in records:
        rid, deps = item.get("id"), item.get("deps")
        if isinstance(rid, str) and isinstance(deps, list):
            ids = [str(d.get("id")) for d in deps if isinstance(d, Mapping)
                   and d.get("label") not in _LIFECYCLE and isinstance(d.get("id"), str)]
            if ids:
                premises[rid] = ids
    # latest[r]: the latest seq among r's premises, through its record premises
    latest: dict[str, int] = {}
    suspicious = False
    for root, ids in premises.items():
        if root in latest:
            continue
        # most records' premises are all steps or turns (their producing write): no walk
        if all(p in seq_of for p in ids):
            latest[root] = max(seq_of[p] for p in ids)
            continue
        stack = [(root, iter(ids))]
        on_path = {root}
        best = {root: -1}
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                on_path.discard(node)
                latest[node] = best[node]
                if stack:
                    parent = stack[-1][0]
                    best[parent] = max(best[parent], best[node])
                continue
            seq = seq_of.get(nxt)
            if seq is not None:
                best[node] = max(best[node], seq)
            elif nxt in on_path:
                suspicious = True  # a cycle among records
            elif nxt in latest:
                best[node] = max(best[node], latest[nxt])
            elif nxt in premises:
                on_path.add(nxt)
                best[nxt] = -1
                stack.append((nxt, iter(premises[nxt])))
    if not suspicious:
        get = latest.get
        suspicious = any(get(rid, -1) >= seq for seq, rid in record_reads)
    if not suspicious:
        return []
    return _find_cycles(premises, steps, where)


def _find_cycles(premises: Mapping[str, list[str]], steps: list[tuple[int, Mapping[str, Any]]],
                 where: Mapping[str, tuple[str, int]]) -> list[Problem]:
    graph: dict[str, list[str]] = dict(premises)  # node -> premises (edges reversed)
    for _, item in steps:
        sid, deps = item.get("id"), item.get("deps")
        if isinstance(sid, str) and isinstance(deps, list):
            graph[sid] = [str(d.get("id")) for d in deps if isinstance(d, Mapping)
                          and isinstance(d.get("id"), str)]
    problems: list[Problem] = []
    done: set[str] = set()
    for root in graph:
        if root in done:
            continue
        path = [root]
        index = {root: 0}
        stack = [iter(graph[root])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                done.add(path.pop())
                continue
            if nxt in index and index[nxt] < len(path) and path[index[nxt]] == nxt:
                loop = path[index[nxt]:]  # each depends on the next: print premises first
                shown = " → ".join(reversed([*loop, nxt]))
                section, i = where.get(nxt, ("trajectory", 0))
                problems.append(Problem.at(f"{section}[{i}].deps",
                                           f"dependency cycle {shown}"))
                done.update(loop)
                continue
            if nxt in done or nxt not in graph:
                continue
            index[nxt] = len(path)
            path.append(nxt)
            stack.append(iter(graph[nxt]))
    return problems


def _items(data: Mapping[str, Any], key: str) -> list[tuple[int, Mapping[str, Any]]]:
    value = data.get(key)
    if not isinstance(value, list):
        return []
    return [(i, v) for i, v in enumerate(value)
            if type(v) is dict or type(v) in RECORD_TYPES or isinstance(v, Mapping)]


_CHOICES = {
    "label": ("label", LABELS),
    "op": ("op", WRITE_OPS),
    "effect": ("effect", TOOL_EFFECTS),
    "type": ("step type", STEP_TYPES),
}


def _describe(err: Any) -> Problem:
    loc = list(err["loc"])
    # Discriminated unions put the tag in the location: trajectory.4.claim.deps -> drop "claim".
    if len(loc) > 2 and loc[0] == "trajectory" and isinstance(loc[1], int) and loc[2] in STEP_TYPES:
        del loc[2]
    path = _path(loc)
    kind = err["type"]
    value = err.get("input")
    if kind == "missing":
        return Problem.at(path, "missing required field")
    if kind == "union_tag_not_found":
        return Problem.at(f"{path}.type", "missing required field")
    if kind == "union_tag_invalid":
        tag = value.get("type") if isinstance(value, Mapping) else value
        return Problem.at(f"{path}.type",
                          f"unknown step type {_show(tag)} (expected one of {', '.join(STEP_TYPES)})")
    if kind == "literal_error":
        field = loc[-1] if loc else ""
        if field == "format":
            return Problem.at(path, f"unknown format {_show(value)} (expected '{CASE_FORMAT}')")
        if field == "label" and value == "chain":
            return Problem.at(path, "label 'chain' is never written: chain edges are derived from seq")
        if field in _CHOICES:
            name, choices = _CHOICES[str(field)]
            return Problem.at(path, f"unknown {name} {_show(value)} (expected one of {', '.join(choices)})")
        expected = err.get("ctx", {}).get("expected", "")
        return Problem.at(path, f"unknown value {_show(value)} (expected {expected})")
    if kind == "extra_forbidden":
        return Problem.at(path, "unknown field")
    return Problem.at(path, f"{err['msg'].lower()}, got {_show(value)}")


def _path(loc: list[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(root)"


def _show(value: Any, limit: int = 60) -> str:
    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value)
        except (TypeError, ValueError, RecursionError):
            try:
                text = repr(value)
            except RecursionError:
                text = f"a {type(value).__name__} nested too deeply to show"
    return text if len(text) <= limit else text[: limit - 1] + "…"
