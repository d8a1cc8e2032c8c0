"""Any JSON value as text, and the content of a case node as text: what a carrier check
reads (`repair_core.content`). Import-free, so every layer can use it (the columnar
reader too)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ._carried import text_of

__all__ = ["flatten", "node_content", "with_value"]


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
    return with_value(text_of(node), getattr(node, "value", None))


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
