"""Tools that read or write the agent's memory, read as memory reads and writes.

Frameworks record a memory tool as an ordinary tool call (`recall_memory`, ADK's
`load_memory`, Mem0's and LangGraph's memory tools). Declared by name
(`dgrr import --memory-tool NAME=read|write`, or a `[memory_tools]` table in a config
file) or recognised by the default names below, such a tool becomes:

- read: a memory read whose returned records are the items of its JSON result (a list,
  or the list under `results` / `memories` / `documents` / `items`) with an id and a
  text (`content`, `text`, `memory`, `data`, a LangGraph item's `value`, ADK's
  `content.parts`); an item without an id gets the content id of its text;
- write: a memory write of the text of its arguments (`text`, `content`, `memory`,
  `data`, `fact`, `note`, or its only string argument), producing the record its output
  names (`id`, `memory_id`, Mem0's `results[0].id`, LangGraph's "created memory ID"), or
  else a new record named by the text's content id.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Literal

from .._errors import CaseError
from ..case._json import json_or_text
from ._semconv import Operation, Retrieved, content_id

__all__ = ["MemoryToolKind", "DEFAULT_MEMORY_TOOLS", "memory_tool_kind", "as_memory_op",
           "parse_memory_tools", "read_memory_tools_file"]

MemoryToolKind = Literal["read", "write"]

DEFAULT_MEMORY_TOOLS: tuple[tuple[str, MemoryToolKind], ...] = (
    ("recall_*", "read"), ("*recall*memory*", "read"), ("*recall*memories*", "read"),
    ("*search*memory*", "read"), ("*search*memories*", "read"),
    ("load_memory", "read"), ("load_memories", "read"),
    ("preload_memory", "read"), ("search_memory", "read"), ("search_memories", "read"),
    ("get_memories", "read"), ("get_all_memories", "read"), ("retrieve_memories", "read"),
    ("*save*memory*", "write"), ("*save*memories*", "write"), ("remember", "write"),
    ("add_memory", "write"), ("add_memories", "write"), ("store_memory", "write"),
    ("create_memory", "write"), ("update_memory", "write"), ("manage_memory", "write"),
)
"""Tool names (shell patterns, matched exactly) read as memory tools unless declared
otherwise: common names (a read's patterns mirror the writes', so a plugin's prefixed
`LinPlugin-recall_memory` is a read as `LinPlugin-save_memory` is a write), ADK's
`load_memory` / `preload_memory`, Mem0's (`add_memory`,
`search_memory`, `get_all_memories`, `update_memory`) and LangGraph langmem's
(`manage_memory`, `search_memory`)."""

_TEXT_KEYS = ("text", "content", "memory", "data", "fact", "note", "information", "value")
_LIST_KEYS = ("results", "memories", "documents", "items", "records")
_CREATED = re.compile(r"(?:created|updated|saved|stored|added)\s+memory\s+([\w.:@/-]+)", re.I)


def memory_tool_kind(name: str, declared: Mapping[str, str] | None = None
                     ) -> MemoryToolKind | None:
    """read, write, or None for a tool that is not a memory tool. A declared name wins
    (`none` declares a tool that matches a default pattern not to be one)."""
    if declared and name in declared:
        kind = declared[name]
        return kind if kind in ("read", "write") else None  # type: ignore[return-value]
    for pattern, kind in DEFAULT_MEMORY_TOOLS:
        if fnmatchcase(name, pattern):
            return kind
    return None


def parse_memory_tools(items: Iterable[str], *, where: str = "--memory-tool"
                       ) -> dict[str, str]:
    """`NAME=read|write|none` items as a name -> kind table; a bad item is named."""
    out: dict[str, str] = {}
    problems = []
    for item in items:
        name, sep, kind = item.partition("=")
        name, kind = name.strip(), kind.strip().lower()
        if not sep or not name or kind not in ("read", "write", "none"):
            problems.append(f"{where} {item!r}: expected NAME=read, NAME=write or NAME=none")
            continue
        out[name] = kind
    if problems:
        raise CaseError(problems, source="import")
    return out


def read_memory_tools_file(path: str | Path) -> dict[str, str]:
    """The `[memory_tools]` table of a TOML config file (`recall_notes = "read"`), or the
    `memory_tools` object of a JSON one."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise CaseError([f"--config: cannot read: {exc.strerror}"], source=str(p)) from None
    try:
        data: Any = json.loads(raw) if raw.lstrip().startswith(b"{") else \
            tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CaseError([f"--config: not TOML or JSON: {exc}"], source=str(p)) from None
    table = data.get("memory_tools", {}) if isinstance(data, dict) else None
    if not isinstance(table, dict):
        raise CaseError(["memory_tools: expected a table of NAME = \"read\" | \"write\""],
                        source=str(p))
    return parse_memory_tools([f"{k}={v}" for k, v in table.items()],
                              where=f"{p.name}: memory_tools:")


def _text_of(item: Any) -> str:
    if isinstance(item, str):
        return item
    if not isinstance(item, Mapping):
        return ""
    for key in _TEXT_KEYS:
        v = item.get(key)
        if isinstance(v, str) and v:
            return v
        if isinstance(v, Mapping):
            parts = v.get("parts")
            if isinstance(parts, list):  # ADK's MemoryEntry.content
                text = "\n".join(str(p["text"]) for p in parts
                                 if isinstance(p, Mapping) and isinstance(p.get("text"), str))
                if text:
                    return text
            inner = _text_of(v)  # a LangGraph item's value
            if inner:
                return inner
    return ""


def _items(result: Any) -> list[Any]:
    result = json_or_text(result)
    if isinstance(result, Mapping) and set(result) == {"result"}:
        result = json_or_text(result["result"])  # ADK wraps a tool's return value
    if isinstance(result, Mapping):
        for key in _LIST_KEYS:
            if isinstance(result.get(key), list):
                return list(result[key])
        return [result] if _text_of(result) else []
    return list(result) if isinstance(result, list) else []


def _records(result: Any) -> tuple[tuple[Retrieved, ...], int]:
    out: list[Retrieved] = []
    skipped = 0
    for item in _items(result):
        text = _text_of(item)
        rid: Any = None
        meta: dict[str, Any] = {}
        if isinstance(item, Mapping):
            rid = item.get("id", item.get("memory_id"))
            if rid is None and isinstance(item.get("key"), str):
                ns = item.get("namespace")
                rid = "/".join([*map(str, ns), item["key"]]) if isinstance(ns, list) \
                    else item["key"]
            if isinstance(item.get("metadata"), Mapping):
                meta = dict(item["metadata"])
                if rid is None:  # an entry whose store keeps the id in its metadata (Strands)
                    rid = meta.get("id", meta.get("memory_id"))
        if (rid is None or rid == "") and not text:
            skipped += 1
            continue
        out.append(Retrieved(content_id(text) if rid is None or rid == "" else str(rid),
                             text, meta))
    return tuple(out), skipped


def _written_text(args: Mapping[str, Any]) -> str:
    for key in _TEXT_KEYS:
        v = args.get(key)
        if isinstance(v, str) and v:
            return v
    strings = [v for v in args.values() if isinstance(v, str) and v]
    if not strings:  # a list of one entry (Strands' `add_memory(entries=[...])`)
        lists = [v for v in args.values() if isinstance(v, list) and len(v) == 1
                 and isinstance(v[0], str) and v[0]]
        strings = [lists[0][0]] if len(lists) == 1 else []
    return strings[0] if len(strings) == 1 else ""


def _written_id(result: Any, args: Mapping[str, Any]) -> str | None:
    parsed = json_or_text(result)
    if isinstance(parsed, Mapping):
        for key in ("id", "memory_id"):
            if parsed.get(key) not in (None, ""):
                return str(parsed[key])
        items = parsed.get("results")
        if isinstance(items, list) and items and isinstance(items[0], Mapping) \
                and items[0].get("id") not in (None, ""):
            return str(items[0]["id"])
    if isinstance(parsed, str):
        m = _CREATED.search(parsed)
        if m:
            return m[1].rstrip(".")
    for key in ("id", "memory_id"):
        if isinstance(args.get(key), str) and args[key]:
            return str(args[key])
    return None


def as_memory_op(op: Operation, kind: MemoryToolKind,
                 store_ids: Mapping[str, str] | None = None) -> Operation:
    """The memory read or write a memory tool's call records (`op` unchanged when its span
    holds neither the result a read needs nor the text or id a write needs).
    `store_ids` maps a stored memory's text to its id (a Mem0 history given as the
    store): a write of that text produced that memory."""
    if kind == "read":
        if op.result is None:
            return op
        records, skipped = _records(op.result)
        query = op.args.get("query") if isinstance(op.args.get("query"), str) else \
            next((v for v in op.args.values() if isinstance(v, str)), "")
        return replace(op, kind="memory_search", query=str(query), records=records,
                       skipped_documents=skipped)
    text = _written_text(op.args)
    rid = _written_id(op.result, op.args)
    if text and store_ids and text.strip() in store_ids:
        rid = store_ids[text.strip()]
    if rid is None and text:
        rid = content_id(text)
    if rid is None:
        return op
    update = "id" in op.args or str(op.args.get("action", "")).lower() == "update"
    return replace(op, kind="memory_write", records=(Retrieved(rid, text),), record_id=rid,
                   write_op="update" if update else "add")


def memory_tool_ops(ops: Sequence[Operation], declared: Mapping[str, str] | None,
                    store_ids: Mapping[str, str] | None = None) -> list[Operation]:
    """`ops` with each memory tool's call read as a memory read or write, one id per
    store item (`one_id_per_item`)."""
    out = []
    for op in ops:
        kind = memory_tool_kind(op.tool, declared) if op.kind == "tool" else None
        if kind == "write" and _entries(op.args):
            out += [as_memory_op(entry, kind, store_ids) for entry in _each_entry(op)]
        else:
            out.append(op if kind is None else as_memory_op(op, kind, store_ids))
    return one_id_per_item(out)


def _entries(args: Mapping[str, Any]) -> list[str]:
    """The entries of a write of several (`add_memory(entries=[...])`): the one list of
    two or more strings among its arguments, when it has no text argument."""
    if _written_text(args):
        return []
    lists = [v for v in args.values() if isinstance(v, list) and len(v) > 1
             and all(isinstance(e, str) and e for e in v)]
    return list(lists[0]) if len(lists) == 1 else []


def _each_entry(op: Operation) -> list[Operation]:
    """A write of several entries as one write per entry: the first keeps the call's span,
    the others are named `<span id>-entry<N>` and sit beside it."""
    key = next(k for k, v in op.args.items() if isinstance(v, list) and len(v) > 1)
    out = []
    for n, entry in enumerate(op.args[key], start=1):
        span = op.span if n == 1 else replace(op.span, span_id=f"{op.span.span_id}-entry{n}")
        # each entry's write is told apart by its text alone: no id the tool answered
        out.append(replace(op, span=span, args={**op.args, key: [entry]}, result=None))
    return out


def one_id_per_item(ops: Sequence[Operation]) -> list[Operation]:
    """`ops` with a memory tool's write whose answer named the item by its bare key
    (langmem's "created memory K") given the id the trace's reads give that item,
    `namespace/.../K`: the read that returns `…/K` names it, else, when every namespaced
    item read in the trace is in one namespace, that namespace. Without this one LangGraph
    item would be two records, one quarantined and one left readable. Linear in the ops."""
    full: dict[str, set[str]] = {}
    namespaces: set[str] = set()
    for op in ops:
        if op.kind == "memory_search":
            for r in op.records:
                ns, slash, key = r.id.rpartition("/")
                if slash and ns and key:
                    full.setdefault(key, set()).add(r.id)
                    namespaces.add(ns)
    if not full:
        return list(ops)
    out = []
    for op in ops:
        rid = op.record_id
        if op.kind == "memory_write" and op.tool and rid and "/" not in rid \
                and not rid.startswith("sha256:"):
            named = full.get(rid, set())
            new = next(iter(named)) if len(named) == 1 else \
                f"{next(iter(namespaces))}/{rid}" if not named and len(namespaces) == 1 \
                else None
            if new is not None:
                op = replace(op, record_id=new,
                             records=tuple(replace(r, id=new) for r in op.records))
        out.append(op)
    return out
