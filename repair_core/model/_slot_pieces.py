"""A goal's slot written in pieces the reader is told, or can see, how to put together:
an account number given in two or more runs of digits with words, a line break or a
field's label between them ("… starting US13 3000 0001. The rest: 2121 2121 212"), a web
address given as its host and, after it, its path ("host: www.my-website-234.com, path:
random"), or a slot written backwards in a text that says to reverse it ("reverse it:
moc.snoitamrofni-eurt.www"). The next-session agent (`_agentdojo_goals`) looks for a
slot in these forms besides the text itself; each reading gives the position, in the
text it is given, where the slot's first piece stands.

Every reading is one pass of a fixed pattern without nested repetition over the text and,
per match, work bounded by the slot's length or a fixed window: linear in the text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from ._order_words import REVERSE_WORDS

__all__ = ["SlotPieces"]

_ALNUM = re.compile(r"[^\W_]+")
_RUN = re.compile(r"(?<![^\W_])(?=[^\W_]*\d)[^\W_]+(?:[ \t-]{1,2}(?=[^\W_]*\d)[^\W_]+)*")
"""A run of digit groups: words holding a digit, separated by at most two spaces or
hyphens ("US13 3000 0001", "2121-2121-212")."""
_WEB = re.compile(r"\.[a-z]{2,4}(?:/|$)")
_REVERSE_AT = re.compile(r"(?<![^\W_])(?:" + "|".join(sorted(REVERSE_WORDS)) + r")(?![^\W_])")
_DATE_OR_TIME = re.compile(r"^[\d \t:/.-]+$")
MIN_PIECE = 4
"""Fewer letters and digits than this are no piece of an account number: a field's
number ("Part 1:"), an amount ("50 dollars") between its pieces is left aside."""
MAX_PIECES = 4
MAX_SPAN = 400
"""Characters from the first piece's start to the last piece's end."""
PATH_WINDOW = 160
"""Characters after a host within which its path may follow."""


def _compact(text: str) -> str:
    return "".join(_ALNUM.findall(text))


def _is_account(slot: str) -> bool:
    """An account number: letters and digits of twelve or more, with a digit, not an
    address, a link, a date or a time."""
    compact = _compact(slot)
    return (len(compact) >= 12 and any(c.isdigit() for c in compact) and "@" not in slot
            and _WEB.search(slot) is None and _DATE_OR_TIME.match(slot) is None)


def _account_pieces(runs: list[tuple[int, int, str]], slot: str) -> Iterator[int]:
    """Where an account number `slot` (folded) starts that consecutive `runs` of digit
    groups (start, end, letters and digits) write: their letters and digits, joined in
    order, are the slot's."""
    whole = _compact(slot)
    for i, (start, _, first) in enumerate(runs):
        if len(first) >= len(whole) or not whole.startswith(first):
            continue
        have, j = len(first), i + 1
        # each run taken must continue the slot where the last one ended: at most
        # MAX_PIECES runs, each compared once
        while j < len(runs) and j - i < MAX_PIECES and runs[j][1] - start <= MAX_SPAN:
            piece = runs[j][2]
            if not whole.startswith(piece, have):
                break
            have += len(piece)
            j += 1
            if have == len(whole):
                yield start
                break


@functools.cache
def _address(slot: str) -> re.Pattern[str]:
    """`slot` (folded) with its own punctuation, spaces allowed around each mark, not
    inside a longer word."""
    body = "".join(re.escape(x) if i % 2 == 0 else rf"[ \t]{{0,2}}{re.escape(x)}[ \t]{{0,2}}"
                   for i, x in enumerate(re.split(r"([\W_]+)", slot)))
    return re.compile(rf"(?<![^\W_]){body}(?![^\W_])")


def _host_and_path(text: str, slot: str) -> Iterator[int]:
    """Where a web address `slot` (folded, with a path) starts that `text` gives as its
    host and, within `PATH_WINDOW` characters after it, its path: the host not followed
    by a path of its own ("…com/other" is another page)."""
    host, _, path = slot.partition("/")
    if not path or _WEB.search(host + "/") is None:
        return
    find_path = _address(path.strip("/"))
    for m in _address(host).finditer(text):
        after = text[m.end():m.end() + PATH_WINDOW]
        if re.match(r"/[^\W_]", after):
            continue
        if find_path.search(after) is not None:
            yield m.start()


def _backwards(text: str, slot: str) -> Iterator[int]:
    """Where `slot` (folded), written backwards, starts in `text`."""
    for m in _address(slot[::-1]).finditer(text):
        yield m.start()


class SlotPieces:
    """The pieces of slots one text (folded) writes, read once per text and slot: what
    it finds lives as long as the reading of the text, never longer."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._runs: list[tuple[int, int, str]] | None = None
        self._reversing = _REVERSE_AT.search(text) is not None
        self._found: dict[str, list[int]] = {}

    def _digit_runs(self) -> list[tuple[int, int, str]]:
        if self._runs is None:
            runs = ((m.start(), m.end(), _compact(m.group())) for m in _RUN.finditer(self.text))
            self._runs = [r for r in runs if len(r[2]) >= MIN_PIECE]
        return self._runs

    def at(self, slot: str) -> list[int]:
        """Where the text writes the strong slot `slot` (folded) in pieces: an account
        number in runs of digit groups, a web address as host and path, or a slot of six
        letters and digits or more holding a digit, `@`, `_` or a web address, backwards
        in a text saying to reverse it (`REVERSE_WORDS`)."""
        found = self._found.get(slot)
        if found is None:
            found = []
            if _is_account(slot):
                found += _account_pieces(self._digit_runs(), slot)
            if "/" in slot and "@" not in slot:
                found += _host_and_path(self.text, slot)
            if self._reversing and len(_compact(slot)) >= 6 and (
                    "@" in slot or "_" in slot or _WEB.search(slot)
                    or any(c.isdigit() for c in slot)):
                found += _backwards(self.text, slot)
            self._found[slot] = found
        return found
