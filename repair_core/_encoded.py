"""Text written in a reversible encoding of a format, read as the text it encodes (each
function below says which). An agent writes a payload this way when it exports a record
as JSON, saves a web form, formats a note in Markdown or stores a token, and the payload
is still there for whoever reads the record next.

Each reading is one pass of an anchored pattern with possessive runs (no pattern
backtracks) and bounded work for each match, so a megabyte of any shape costs time linear
in it. A low layer: `_canonical` builds on it.
"""

from __future__ import annotations

import re

__all__ = ["json_unescaped"]


_JSON_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*+)\\u([0-9A-Fa-f]{4})")


def _unescaped(m: re.Match[str]) -> str:
    char = chr(int(m.group(2), 16))
    # a printable character only: a surrogate half, a control character (NUL joins texts)
    # or a backslash (which would make an escape that is not in the text) stays as written
    if char == "\\" or not (char.isprintable() or char == " "):
        return m.group(0)
    return m.group(1) + char


def json_unescaped(text: str) -> str:
    """`text` with each JSON `\\uXXXX` escape of a printable character read as the
    character, in one pass; an escaped backslash before it (`\\\\u0044`, the text
    `\\u0044` in JSON) leaves it as written.

    >>> json_unescaped('"iban": "\\\\u0044\\\\u0045\\\\u0031\\\\u0032", "a\\\\\\\\u0044"')
    '"iban": "DE12", "a\\\\\\\\u0044"'
    """
    return _JSON_ESCAPE.sub(_unescaped, text) if "\\u" in text else text
