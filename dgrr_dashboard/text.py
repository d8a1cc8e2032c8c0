"""Untrusted text as text in Streamlit's Markdown elements.

`st.markdown`, `st.caption`, `st.success`/`info`/`warning`/`error`, widget labels and radio
options all render Markdown (links, images, directives, autolinks). Every string that comes
from a case, a plan edit, a model or a reviewer goes through :func:`md` (prose) or
:func:`code` (an id in a code span) before it is placed in such an element; `st.text`,
`st.code`, `st.json` and data frames show text as it is and need neither.
"""

from __future__ import annotations

import re

__all__ = ["md", "code", "file_stem", "MISSING"]

MISSING = "—"
"""What a table shows where a value is not there (a record's `created_seq` or `trust` of
None), instead of Streamlit's "None", which reads like a value."""

# CommonMark lets a backslash escape any ASCII punctuation character; escaping all of them
# leaves no link, image, emphasis, HTML, directive (`:red[...]`) or maths (`$`) for the
# parser to find.
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")
# Streamlit's GFM autolinks are found in the parsed text (after escapes are resolved), so a
# word joiner (U+2060, invisible) goes where those patterns need adjacent characters.
_WJ = "\u2060"
_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto)(:)|(w)(ww\.)|(@)")


def md(text: object) -> str:
    """`text` as Markdown that renders as exactly that text, on one line.

    >>> md("![t](x.png)")
    '\\\\!\\\\[t\\\\]\\\\(x\\\\.png\\\\)'
    >>> "http\\u2060" in md("see http://a.example")  # no autolink either
    True
    """
    flat = " ".join(str(text).split())
    flat = _AUTOLINK.sub(lambda m: _WJ.join(g for g in m.groups() if g) if m.group(5) is None
                         else _WJ + "@", flat)
    return _PUNCT.sub(r"\\\1", flat)


def code(text: object) -> str:
    """`text` as an inline code span, whatever backticks it holds (code spans show their
    content literally: no links, images or HTML).

    >>> code("m3")
    '`m3`'
    >>> code("a`b")
    '`` a`b ``'
    """
    flat = " ".join(str(text).split()) or " "
    runs = [len(r) for r in re.findall(r"`+", flat)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if runs or flat.startswith(" ") or flat.endswith(" ") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def file_stem(text: object, limit: int = 80) -> str:
    """`text` (a case id) as the start of a download's file name: letters, digits, `-`,
    `_` and `.` kept, anything else `_`, no leading dot, at most `limit` characters.

    >>> file_stem("../x y/<b>")
    '_x_y__b_'
    >>> file_stem("")
    'case'
    """
    kept = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in str(text))
    return kept.lstrip(".")[:limit] or "case"
