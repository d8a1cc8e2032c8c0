"""Importing what real agent stacks record into a `dgrr.case/v1` case.

- OTLP JSON (`_otlp`): JSON lines with hex ids or one document with base64 ids;
- OTel GenAI and OpenInference span attributes (`_semconv`), plus dgrr's own provenance
  convention (`repair_core.provenance`);
- dependencies a span did not record, inferred and marked so (`_infer`);
- a Mem0 history database as the memory store, with status and lineage (`_mem0`).

>>> summary = ImportSummary(sources=["t.jsonl (OTLP JSON lines, hex ids)"], trace_id="ab",
...     spans_read=3, spans_used=2, turns=1, steps=2, records=1, deps_given=2,
...     deps_inferred=1, skipped={"not a GenAI span": 1})
>>> print(summary.describe())
read 3 spans from t.jsonl (OTLP JSON lines, hex ids); trace ab
made 1 turn, 2 steps, 1 record; dependencies: 2 given, 1 inferred
skipped: 1 not a GenAI span
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from .._errors import CaseError
from .._io import read_input
from .._text import plural
from ..case._case import Case
from ..case._load import case_from_data
from ._assemble import action_id, assemble, observation_id
from ._mem0 import is_sqlite, read_mem0_history
from ._memtools import (
    DEFAULT_MEMORY_TOOLS,
    memory_tool_kind,
    parse_memory_tools,
    read_memory_tools_file,
)
from ._otlp import Span, SpanEvent, looks_like_otlp, parse_otlp
from ._otlp_logs import looks_like_otlp_logs, parse_otlp_logs, with_log_events
from ._semconv import NEEDED, content_id

__all__ = ["ImportSummary", "ImportWarning", "Imported", "import_trace", "action_id", "observation_id",
           "content_id", "DEFAULT_MEMORY_TOOLS", "memory_tool_kind",
           "parse_memory_tools", "read_memory_tools_file"]


class ImportWarning(BaseModel):
    """Something the import kept although the trace disagrees about it."""

    kind: Literal["conflicting-texts"]
    """conflicting-texts: memory reads returned one record id with different texts; the
    case keeps the first (or the last a write set), the others are listed."""
    record: str
    """The record id."""
    kept: str
    """The text the case keeps."""
    others: list[str]
    """The other texts, in trace order, each once."""
    steps: list[str]
    """The memory read steps that returned the other texts."""

    def describe(self) -> str:
        """One line for a person (texts cut to 80 characters)."""
        def cut(text: str) -> str:
            return repr(text if len(text) <= 80 else text[:79] + "…")

        return (f"warning conflicting-texts: record {self.record!r} was returned with "
                f"{len(self.others) + 1} different texts; the case keeps {cut(self.kept)}, "
                f"not {', '.join(cut(t) for t in self.others)} (read by step"
                f"{'s' if len(self.steps) > 1 else ''} {', '.join(self.steps)})")


class ImportSummary(BaseModel):
    """What `dgrr import` read and made."""

    sources: list[str]
    """Each file read, with the format found."""
    trace_id: str
    """The trace imported (hex)."""
    spans_read: int
    """Spans in the files."""
    spans_used: int
    """Spans that became a turn or steps."""
    turns: int
    """User turns made (one per top-level agent span)."""
    steps: int
    """Trajectory steps made."""
    records: int
    """Memory records (from the store and the spans)."""
    deps_given: int
    """Dependencies the spans or the store recorded."""
    deps_inferred: int
    """Dependencies guessed where a span recorded none (`inferred: true`)."""
    skipped: dict[str, int] = Field(default_factory=dict)
    """Spans (or returned documents) left out, by reason."""
    traces: list[str] = Field(default_factory=list)
    """Every trace imported (the chosen one and the other traces of its session)."""
    session: str | None = None
    """The session id (`session.id`, `gen_ai.conversation.id`, a LangGraph thread) that
    stitched the traces, when the spans name one."""
    incomplete: dict[str, int] = Field(default_factory=dict)
    """Spans used without some of their content, by what was missing."""
    warnings: list[ImportWarning] = Field(default_factory=list)
    """What the import kept although the trace disagrees about it (also on the plan)."""

    def describe(self) -> str:
        """A few lines for a person."""
        if not self.trace_id and not self.spans_read:  # a store on its own
            return (f"read {', '.join(self.sources)}; no trace: a case of the store's "
                    f"records and their lineage alone (no steps; planned for the store)\n"
                    f"made {plural(self.records, 'record')}; dependencies: "
                    f"{self.deps_given} given (lineage)")
        where = f"trace {self.trace_id}" if self.trace_id else "no trace"
        others = len(self.traces) - 1
        if self.session is not None and others > 0:
            where += f" and {plural(others, 'other trace')} of session {self.session!r}"
        lines = [f"read {plural(self.spans_read, 'span')} from {', '.join(self.sources)}; "
                 f"{where}",
                 f"made {plural(self.turns, 'turn')}, {plural(self.steps, 'step')}, "
                 f"{plural(self.records, 'record')}; dependencies: {self.deps_given} given, "
                 f"{self.deps_inferred} inferred"]
        if self.skipped:
            lines.append("skipped: " + ", ".join(f"{k} {why}" for why, k in
                                                 sorted(self.skipped.items())))
        if self.incomplete:
            lines.append("incomplete: " + ", ".join(f"{k} {why}" for why, k in
                                                    sorted(self.incomplete.items())))
        lines += [w.describe() for w in self.warnings]
        return "\n".join(lines)


@dataclass(frozen=True)
class Imported:
    """An imported case and its summary."""

    case: Case
    summary: ImportSummary


def import_trace(traces: Sequence[str | Path], *, store: str | Path | None = None,
                 faults: Sequence[str] = (), user: str | None = None,
                 case_id: str | None = None, trace_id: str | None = None,
                 memory_tools: Mapping[str, str] | None = None,
                 cancelled: Callable[[], bool] | None = None,
                 logs: Sequence[str | Path] = (),
                 memory_in_prompt: Sequence[str] = ()) -> Imported:
    """Import OTLP JSON files (and optionally a Mem0 history database as the store) as a
    validated case. `memory_tools` declares tools that read or write memory (name ->
    `read`, `write` or `none`; the default names of :data:`DEFAULT_MEMORY_TOOLS` apply to
    the rest). Raises :class:`CaseError` naming file, line and field of every problem;
    nothing is half-imported. The import stops with a `CaseError` as soon as `cancelled()`
    is true (looked at while the store is read, between the files and while the case is
    checked). `logs` are OTLP JSON log files of the same run: a record with an
    `event.name` and a span id becomes an event of that span (frameworks that log message
    content instead of tracing it, such as Semantic Kernel). `memory_in_prompt` adds
    header lines under which a model call's system or developer message lists memories
    (AutoGen's `ListMemory` block is known without it)."""
    if not traces and store is None:
        raise CaseError(["no trace file and no --store given"], source="import")
    # Import builds millions of small acyclic objects; the cyclic collector would walk
    # them all again and again (time growing with their square), so it waits until the end.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _import(traces, store=store, faults=faults, user=user, case_id=case_id,
                       trace_id=trace_id, memory_tools=memory_tools, cancelled=cancelled,
                       logs=logs, memory_in_prompt=memory_in_prompt)
    finally:
        if was_enabled:
            gc.enable()


def _import(traces: Sequence[str | Path], *, store: str | Path | None,
            faults: Sequence[str], user: str | None, case_id: str | None,
            trace_id: str | None, memory_tools: Mapping[str, str] | None,
            cancelled: Callable[[], bool] | None, logs: Sequence[str | Path] = (),
            memory_in_prompt: Sequence[str] = ()) -> Imported:
    spans: list[Span] = []
    sources: list[str] = []

    def go_on() -> None:
        if cancelled is not None and cancelled():
            raise CaseError(["stopped: the import was cancelled"], source="import")

    for path in traces:
        go_on()
        p = Path(path)
        raw = read_input(p, "trace file")
        if is_sqlite(raw):
            raise CaseError(["an SQLite database is not a trace: give a Mem0 history "
                             "database with --store"], source=str(p))
        if not looks_like_otlp(raw):
            raise CaseError(["not an OTLP JSON trace (expected an object with "
                             "'resourceSpans', one document or one per line)"], source=str(p))
        found, encoding = parse_otlp(raw, source=str(p))
        lines = raw.strip().count(b"\n") + 1
        shape = "OTLP JSON lines" if lines > 1 and not raw.lstrip().startswith(b"{\n") \
            else "OTLP JSON"
        sources.append(f"{p.name} ({shape}, {encoding} ids)")
        spans += found
    log_events: dict[str, list[SpanEvent]] = {}
    for path in logs:
        go_on()
        p = Path(path)
        raw = read_input(p, "log file")
        if not looks_like_otlp_logs(raw):
            raise CaseError(["--logs: not OTLP JSON logs (expected an object with "
                             "'resourceLogs', one document or one per line)"], source=str(p))
        for span_id, events in parse_otlp_logs(raw, source=str(p)).items():
            log_events.setdefault(span_id, []).extend(events)
        sources.append(f"{p.name} (OTLP JSON logs)")
    spans = with_log_events(spans, log_events)
    if trace_id is not None:
        trace_id = trace_id.lower()
        if not any(s.trace_id == trace_id for s in spans):
            raise CaseError([f"--trace: no span of trace '{trace_id}' in the files"],
                            source="import")
    store_records = []
    if store is not None:
        go_on()
        store_records = read_mem0_history(store, user=user or "", cancelled=cancelled)
        sources.append(f"{Path(store).name} (Mem0 history)")
    if not traces and store is not None:
        return _store_only(store, store_records, sources=sources, faults=faults, user=user,
                           case_id=case_id, cancelled=cancelled)
    go_on()
    built = assemble(spans, store=store_records, user=user, case_id=case_id,
                     trace_id=trace_id, faults=faults, memory_tools=memory_tools,
                     memory_in_prompt=memory_in_prompt)
    spans_read = len(spans)
    del spans  # the case data holds what is needed from here on
    if built.problems:
        raise CaseError(built.problems, source="import")
    if built.spans_used == 0:
        why = ", ".join(f"{k} {r}" for r, k in sorted(built.skipped.items()))
        raise CaseError([f"no OTel GenAI, OpenInference or OpenLLMetry span to import "
                         f"({plural(spans_read, 'span')} read; skipped: {why}); a span needs one of "
                         f"{NEEDED}"], source="import")
    try:
        case = case_from_data(built.data, source="import", cancelled=cancelled)
    except CaseError as exc:
        if cancelled is not None and cancelled():
            raise
        raise CaseError([*(_name_span(p, built.data, built.span_of) for p in exc.problems),
                         *_fault_hint(exc.problems, built.data), f"read: {built.read}"],
                        source=exc.source) from None
    data = built.data
    summary = ImportSummary(
        sources=sources, trace_id=built.trace_id, spans_read=spans_read,
        spans_used=built.spans_used, turns=len(data["session"]),
        steps=len(data["trajectory"]), records=len(data["memory"]),
        deps_given=built.deps_given, deps_inferred=built.deps_inferred,
        skipped=dict(sorted(built.skipped.items())), traces=built.traces,
        session=built.session, incomplete=dict(sorted(built.incomplete.items())),
        warnings=_conflict_warnings(built.conflicting, data))
    return Imported(case=case, summary=summary)


_LISTED = 12
"""How many record ids an unknown fault's message lists."""


def _fault_hint(problems: Sequence[str], data: dict) -> list[str]:
    """When a diagnosed fault is an unknown id: the record ids the trace does hold, and,
    when no memory read named any, how memory that reached the model only through its
    prompt can be named."""
    if not any(p.startswith("faults[") and "unknown id" in p for p in problems):
        return []
    ids = [str(r["id"]) for r in data.get("memory", [])]
    shown = ", ".join(ids[:_LISTED]) + (f" and {len(ids) - _LISTED} more"
                                        if len(ids) > _LISTED else "")
    hint = [f"record ids in the trace: {shown}" if ids else "the trace holds no record"]
    if not any(s.get("type") == "memory_read" for s in data.get("trajectory", [])):
        hint.append("no memory read in the trace: if memory reached the model only inside "
                    "a system or developer message, name the line above its entries with "
                    "--memory-in-prompt HEADER (each entry becomes a record)")
    return hint


def _conflict_warnings(conflicting: dict[str, list[tuple[str, str]]], data: dict
                       ) -> list[ImportWarning]:
    """A `conflicting-texts` warning per record the reads returned with other texts."""
    if not conflicting:
        return []
    kept = {r["id"]: r["text"] for r in data["memory"] if r["id"] in conflicting}
    return [ImportWarning(kind="conflicting-texts", record=rid, kept=kept[rid],
                          others=list(dict.fromkeys(text for _, text in seen)),
                          steps=list(dict.fromkeys(step for step, _ in seen)))
            for rid, seen in conflicting.items()]


def _name_span(problem: str, data: dict, span_of: dict[str, str]) -> str:
    """`trajectory[4].deps[1]: ...` -> `trajectory[4] (span 1a2b…).deps[1]: ...`."""
    head, _, rest = problem.partition(":")
    if head.startswith("trajectory["):
        idx = head[len("trajectory["):].split("]", 1)[0]
        if idx.isdigit() and int(idx) < len(data["trajectory"]):
            sid = span_of.get(data["trajectory"][int(idx)]["id"])
            if sid:
                return f"{head} (span {sid}):{rest}"
    return problem


def _store_only(store: str | Path, records: list[dict], *, sources: list[str],
                faults: Sequence[str], user: str | None, case_id: str | None,
                cancelled: Callable[[], bool] | None) -> Imported:
    """A case of a Mem0 history alone: its records with their lineage, no turns and no
    steps (`case.store-only`), planned for the store (`objective.no-answer`). The case id
    defaults to `mem0-` and the first 12 hex digits of the database's SHA-256, so the same
    history imports to the same case."""
    user_id = user or "unknown"
    for r in records:
        r["user_id"] = r.get("user_id") or user_id
    if case_id is None:
        digest = hashlib.sha256(Path(store).read_bytes()).hexdigest()
        case_id = f"mem0-{digest[:12]}"
    data = {"format": "dgrr.case/v1", "case_id": case_id, "user_id": user_id,
            "session": [], "memory": records, "trajectory": [], "faults": list(faults)}
    case = case_from_data(data, source="import", cancelled=cancelled)
    summary = ImportSummary(
        sources=sources, trace_id="", spans_read=0, spans_used=0, turns=0, steps=0,
        records=len(records), deps_given=sum(len(r["deps"]) for r in records),
        deps_inferred=0)
    return Imported(case=case, summary=summary)
