"""Small wording helpers shared by the library's summaries and the CLI."""

from __future__ import annotations

import re

__all__ = ["plural", "markdown_text", "markdown_code", "ratio_text", "printable",
           "printable_lines"]


def plural(n: int, noun: str) -> str:
    """`1 turn`, `2 turns`, `0 turns`.

    >>> plural(1, "plan edit"), plural(3, "fault")
    ('1 plan edit', '3 faults')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# CommonMark lets a backslash escape any ASCII punctuation character; escaping all of them
# leaves no link, image, emphasis, HTML or table cell break for a renderer to find. GFM
# autolinks are found after escapes are resolved, so a word joiner (U+2060) splits them.
_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")
_MD_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto)(:)|(w)(ww\.)|(@)")


def markdown_text(text: object) -> str:
    """Untrusted `text` as Markdown that renders as exactly that text, on one line.

    >>> print(markdown_text("![x](y.png) a|b"))
    \\!\\[x\\]\\(y\\.png\\) a\\|b
    """
    flat = " ".join(str(text).split())
    flat = _MD_AUTOLINK.sub(lambda m: "\u2060".join(g for g in m.groups() if g)
                            if m.group(5) is None else "\u2060@", flat)
    return _MD_PUNCT.sub(r"\\\1", flat)


def markdown_code(text: object) -> str:
    """Untrusted `text` as an inline code span, whatever backticks it holds (a code span
    shows its content literally: no link, image or HTML). A `|` is escaped so that the
    span can sit in a table cell.

    >>> markdown_code("m3"), markdown_code("a`b")
    ('`m3`', '`` a`b ``')
    """
    flat = " ".join(str(text).split()) or " "
    runs = [len(r) for r in re.findall(r"`+", flat)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if runs or flat.startswith(" ") or flat.endswith(" ") else ""
    return f"{fence}{pad}{flat}{pad}{fence}".replace("|", "\\|")


def ratio_text(ratio: float) -> str:
    """A replay ratio to three decimals, or to two significant digits when that would
    show a ratio above zero as 0.000 (22 of 100,000 steps).

    >>> ratio_text(6 / 11), ratio_text(22 / 100_000), ratio_text(0.0)
    ('0.545', '0.00022', '0.000')
    """
    return f"{ratio:.2g}" if 0 < ratio < 0.0005 else f"{ratio:.3f}"


def printable(value: object) -> str:
    r"""`value` with control and format characters (ANSI escapes, BEL, CR, line breaks, bidi
    overrides) shown as escapes, so stored text cannot drive the terminal it is printed on.

    >>> print(printable("m3\x1b[2J\r\u202e"))
    m3\x1b[2J\x0d\u202e
    """
    text = str(value)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else
                   (f"\\x{ord(c):02x}" if ord(c) < 0x100 else
                    f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
                   for c in text)


QUOTED_CHARS = 400
"""Characters of a case text a readable report quotes; the JSON report has them all."""


def excerpt(value: object, limit: int = QUOTED_CHARS) -> str:
    """`value` through `printable`, cut after `limit` characters with a note of how many
    more there are: a readable report quotes a text, a megabyte record is not read there.

    >>> print(excerpt("abcdef", limit=3))
    abc… (3 more characters)
    """
    text = str(value)
    if len(text) <= limit:
        return printable(text)
    return f"{printable(text[:limit])}… ({len(text) - limit:,} more characters)"


def printable_lines(text: object) -> str:
    """`text` line by line through `printable`: its line breaks stay line breaks (a message
    listing problems one per line), every other control character is escaped."""
    return "\n".join(printable(line) for line in str(text).split("\n"))
