"""Any JSON value as text, and the content of a case node as text: what a carrier check
reads (`repair_core.content`). Import-free, so every layer can use it (the columnar
reader too)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ._carried import field_of, text_of

__all__ = ["BOOKKEEPING", "flatten", "node_content", "with_value"]


def _parts(value: Any) -> Iterator[str]:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, int | float):
        yield repr(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _parts(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _parts(v)
    else:
        yield str(value)


def flatten(value: Any) -> str:
    """The strings and numbers of `value` (dict keys included), one per line, in order.
    Iterative depth is Python's: a case's values are bounded by the loader.

    >>> flatten([{"function": "send_money", "args": {"recipient": "US13", "amount": 0.5}}])
    'function\\nsend_money\\nargs\\nrecipient\\nUS13\\namount\\n0.5'
    >>> flatten("plain"), flatten(None), flatten(True)
    ('plain', '', '')
    """
    return "\n".join(_parts(value))


def node_content(node: Any) -> str:
    """The content of a case node that a carrier check reads: its text, a tool
    observation's output when the text does not already hold it, a record's or claim's
    value (flattened), and every string a record holds in its other fields
    (`other_fields`: attachments, tags, metadata, at any depth, but where it lives and
    who owns it, `BOOKKEEPING`), which the store holds and an apply writes with it.

    >>> from repair_core import MemoryRecord
    >>> node_content(MemoryRecord(id="m", user_id="u", text="Lin's seat", key="seat",
    ...                           value="window", status="active"))
    "Lin's seat\\nwindow"
    >>> node_content(MemoryRecord(id="m", user_id="u", text="Invoice", status="active",
    ...                           attachments=[{"name": "remit-to-X.pdf", "bytes": 9}],
    ...                           langgraph_value={"text": "Invoice"}, owner={"user": "u"}))
    'Invoice\\nremit-to-X.pdf'

    """
    text = text_of(node)
    value = field_of(node, "value")
    content = with_value(text, value)
    other = field_of(node, "other_fields")
    if not other:
        return content
    said = {text, value} if isinstance(value, str) else {text}
    held = [s for s in _strings([v for k, v in other.items() if k not in BOOKKEEPING])
            if s not in said]
    return "\n".join([content, *held]) if held else content


BOOKKEEPING = frozenset({"owner", "version_of", "langgraph_namespace", "langgraph_key",
                         "mem0_memory_id", "mem0_changed_at", "mem0_actor_id", "mem0_role"})
"""Fields the importers write on a record to say where it lives, whose it is and which
version it is (`importers`): not what it says. `langgraph_value`, the value a LangGraph
store holds, is content."""


def _strings(value: Any) -> Iterator[str]:
    """The strings of a JSON value, at any depth, in order (object keys are its shape,
    not what it holds); one pass, with a stack of its own."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
        elif isinstance(v, list | tuple):
            stack.extend(reversed(v))


def with_value(text: str, value: Any) -> str:
    """`text` and, flattened, a `value` it does not already hold (`node_content` of a
    node whose `text_of` is `text`).

    >>> with_value("Lin's seat is window", "window"), with_value("Lin's seat", None)
    ("Lin's seat is window", "Lin's seat")
    """
    if value is None or (isinstance(value, str) and value in text):
        return text
    shown = flatten(value)
    return f"{text}\n{shown}" if shown else text
