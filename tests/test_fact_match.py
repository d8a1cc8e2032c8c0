"""A fact is stated when its normalised form occurs in the normalised answer as whole
words. The match is a substring test between spaces (a normalised text is words of
letters, digits, `-` and `'` between single spaces); it must say what the boundary
regular expression it replaced says, for any texts, and the memo a replay keeps
(`NormalisedTexts`) must say what the functions say."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core.content._normalise import NormalisedTexts, fact_stated, normalise

# letters that normalise to themselves and to other forms (`rd`, number words), digits,
# the kept `-` and `'`, an underscore, spaces and punctuation that become spaces
_PIECES = st.sampled_from(["a", "b", "rd", "road", "two", "2", "ä", "é", "-", "'", "_", " ",
                           "  ", ".", ",", "NH", "347", "size", "small", "\t", "\u00a0"])
_TEXT = st.lists(_PIECES, max_size=12).map("".join)


def _by_boundaries(answer: str, fact: str) -> bool:
    f = normalise(fact)
    return bool(f) and re.search(
        rf"(?<![\w'\-]){re.escape(f)}(?![\w'\-])", normalise(answer)) is not None


@settings(max_examples=400, deadline=None)
@given(_TEXT, _TEXT)
def test_the_whole_word_match_is_the_boundary_match(answer, fact):
    assert fact_stated(answer, fact) == _by_boundaries(answer, fact)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_TEXT, _TEXT), max_size=8))
def test_the_memo_says_what_the_functions_say(pairs):
    texts = NormalisedTexts()
    for answer, fact in pairs + pairs:  # the second time from the memo
        assert texts(answer) == normalise(answer)
        assert texts.fact_stated(answer, fact) == fact_stated(answer, fact)


def test_a_fact_inside_a_longer_word_is_not_stated():
    assert fact_stated("road-2 b", "road 2 b") is False
    assert fact_stated("a road 2 b", "Rd. two") is True
    assert fact_stated("O'Neil", "neil") is False
