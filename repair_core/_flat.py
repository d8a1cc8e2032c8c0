"""Any JSON value as text, and the content of a case node as text: what a carrier check
reads (`repair_core.content`). Import-free, so every layer can use it (the columnar
reader too)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ._carried import text_of

__all__ = ["flatten", "node_content"]


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
    observation's output when the text does not already hold it, and a record's or
    claim's value (flattened).

    >>> from repair_core import MemoryRecord
    >>> node_content(MemoryRecord(id="m", user_id="u", text="Lin's seat", key="seat",
    ...                           value="window", status="active"))
    "Lin's seat\\nwindow"

    """
    text = text_of(node)
    value = getattr(node, "value", None)
    if value is not None and not (
            isinstance(value, str) and value in text):
        shown = flatten(value)
        if shown:
            text += "\n" + shown
    return text
