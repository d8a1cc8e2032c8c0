"""Nesting collapsed: instrumentors that wrap each layer of a framework record one model
call as nested OpenInference LLM spans (LlamaIndex: `predict` -> `chat`) and one retrieval
as nested RETRIEVER spans (`retrieve` -> `_retrieve`); a framework's memory tool records
its store's own memory span inside the tool's span (Strands: `search_memory` ->
`memory.search`, `add_memory` -> `memory.add`); an instrumentor wraps a framework that
traces its own tool calls (OpenInference's AutoGen TOOL span holding AutoGen's own
`execute_tool` span of the same tool). The outermost span of such a nest is the
step; what only an inner span carries (the output text, tool calls, the input messages,
the returned documents, the written record) is taken into it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ._semconv import Operation

__all__ = ["collapse_nested"]

_NESTING = ("chat", "memory_search")
_MEMORY = ("memory_search", "memory_write")
"""Memory reads (writes) nest whatever their convention: a memory tool's call and its
store's span are one read (write)."""


def collapse_nested(ops: Sequence[Operation], parent: Mapping[str, str | None]
                    ) -> tuple[list[Operation], int]:
    """`ops` with each OpenInference LLM (RETRIEVER) span nested in another one, each
    memory read (write) nested in another one and each call of a tool nested in a call of
    the same tool merged into the outermost, and how many were merged. Linear in the
    spans."""
    by_span = {op.span.span_id: op for op in ops
               if (op.kind in _NESTING and op.convention == "openinference")
               or op.kind in _MEMORY or op.kind == "tool"}
    if not by_span:
        return list(ops), 0
    top: dict[str, str | None] = {}  # span -> outermost nestable op at or above it

    def outermost(span_id: str) -> str | None:
        path: list[str] = []
        node: str | None = span_id
        seen: set[str] = set()
        while node is not None and node not in top and node not in seen:
            seen.add(node)
            path.append(node)
            node = parent.get(node)
        current = top.get(node) if node is not None else None
        for q in reversed(path):  # from the highest down
            if current is None and q in by_span:
                current = q
            elif current is not None and q in by_span and \
                    not _same_nest(by_span[q], by_span[current]):
                current = q  # a model call inside a retrieval (or the reverse) is its own
            top[q] = current
        return top[span_id]

    merged: dict[str, Operation] = {}
    inner: set[str] = set()
    for op in ops:
        sid = op.span.span_id
        if sid not in by_span:
            continue
        up = outermost(sid)
        if up is None or up == sid:
            continue
        inner.add(sid)
        merged[up] = _merge(merged.get(up, by_span[up]), op)
    out = [merged.get(op.span.span_id, op) for op in ops if op.span.span_id not in inner]
    return out, len(inner)


def _same_nest(a: Operation, b: Operation) -> bool:
    """What nests in what: the same kind (for a tool call, of the same tool: a tool that
    calls another tool is two calls), or calls of the same tool whatever they were read
    as (a memory tool's call read as a memory write holds its framework's own span of
    that call)."""
    if a.kind == b.kind and (a.kind != "tool" or a.tool == b.tool):
        return True
    return bool(a.tool) and a.tool == b.tool


def _merge(outer: Operation, inner: Operation) -> Operation:
    """`outer` with what it lacks taken from `inner`."""
    fields: dict[str, Any] = {}
    if outer.kind == "chat":
        if not outer.text and not outer.tool_calls and (inner.text or inner.tool_calls):
            fields.update(text=inner.text, tool_calls=inner.tool_calls, missing=None)
        if not outer.user_text:
            fields["user_text"] = inner.user_text
        if not outer.message_results:
            fields["message_results"] = inner.message_results
    elif outer.kind == "tool":
        if outer.missing is not None and inner.missing is None:
            fields.update(args=inner.args, result=inner.result, missing=None)
        if outer.call_id is None and inner.call_id is not None:
            fields["call_id"] = inner.call_id
    elif outer.kind == "memory_write":
        if outer.record_id is None and inner.record_id is not None:
            fields.update(records=inner.records, record_id=inner.record_id,
                          write_op=outer.write_op or inner.write_op)
    elif not outer.records and inner.records:
        fields.update(records=inner.records, skipped_documents=inner.skipped_documents)
        if not outer.query:
            fields["query"] = inner.query
    return replace(outer, **fields) if fields else outer
