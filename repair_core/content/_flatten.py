"""Any JSON value as text: what a scorer reads of a list of tool calls or a record's value."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["flatten"]


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
