"""Whether a word starts a sentence is read from the characters just before it, as the
definition reads it from the 64 before it (and from the whole text before it, for a word
after 64 blanks)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core.content._tokens import _STARTERS, _first_visible, _starts_sentence


def _defined(text: str, pos: int) -> bool:
    before = text[max(0, pos - 64):pos]
    if "\n" in before[len(before.rstrip()):]:
        return True
    before = before.rstrip()
    if not before:
        return not text[:pos].strip()
    return before[-1] in _STARTERS


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["Lin", "b", " ", "\n", "\t", ".", "\u2028", "\xa0", "\r",
                                 "'", ":", "  ", " " * 70, "\n" + " " * 70]),
                min_size=1, max_size=12).map("".join))
def test_a_sentence_start_is_read_as_defined(text):
    first = _first_visible(text)
    for pos, c in enumerate(text):
        if not c.isspace():
            assert _starts_sentence(text, pos, first) == _defined(text, pos), (text, pos)
