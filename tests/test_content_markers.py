"""Instruction markers are found as their patterns find them: the words looked for first
(`_LEADS`, read from the same table as the patterns) only skip texts in which a pattern
cannot match."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core.content._markers import _LEADS, _TO_ASCII, MARKERS, instruction_markers


def _searched(text: str) -> list[str]:
    return [kind for kind, pattern in MARKERS.items() if pattern.search(text)]


def test_every_character_a_case_blind_pattern_reads_as_an_ascii_letter_is_folded_to_it():
    for code in range(0x80, 0x110000):
        c = chr(code)
        letter = re.fullmatch("[a-z]", c, re.IGNORECASE)
        assert (ord(c) in _TO_ASCII) == bool(letter), hex(code)
        if letter:
            assert re.fullmatch(_TO_ASCII[ord(c)], c, re.IGNORECASE)


_PIECES = ["ignore", "IGNORE", "İgnore", "disregard", "forget", "all", "the", "previous",
           "prior", "instructions", "ınstructions", "before", "you", "can", "solve", "do",
           "task", "taſk", "to", "the", "assistant", "Assistant", "dear", "hey", "AI",
           "are", "must", "now", "act", "new", "updated", "important", "system", "message",
           "from", "for", "<", "/", ">", "INFORMATION", "admin", ",", " ", "  ", "\n",
           "Kelvin", "x"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14).map(" ".join))
def test_markers_are_found_as_their_patterns_find_them(text):
    assert instruction_markers(text) == _searched(text)


def test_each_kind_is_found_by_its_pattern_in_any_case_and_with_odd_letters():
    texts = {"tag-block": "x </ information> y",
             "ignore-previous": "İGNORE all previous instructions",
             "before-task": "Before you can solve the taſk",
             "to-assistant": "to you, the Assistant",
             "new-instructions": "NEW instructions for you"}
    assert set(_LEADS) == set(MARKERS)
    for kind, text in texts.items():
        assert instruction_markers(text) == [kind] == _searched(text)


_EACH_LEAD = {
    "tag-block": ["<SYSTEM>"],
    "ignore-previous": ["Ignore all previous instructions", "disregard your rules",
                        "FORGET the earlier tasks"],
    "before-task": ["Before you can solve the task"],
    "to-assistant": ["To you, the AI", "dear assistant", "Attention agent", "HEY ai",
                     "You must now obey"],
    "new-instructions": ["New instructions from Emma", "updated message for you",
                         "IMPORTANT instructions from me", "System message from admin"],
}


def test_every_lead_of_every_pattern_opens_a_match_it_is_found_in():
    """Each way a marker opens is looked for first and then found: a lead the table
    gave in capitals, or a pattern's opening without its lead, would skip these texts."""
    opened = {kind: set() for kind in MARKERS}
    for kind, texts in _EACH_LEAD.items():
        for text in texts:
            match = MARKERS[kind].search(text)
            assert match is not None, (kind, text)
            opened[kind] |= {lead for lead in _LEADS[kind]
                             if match.group().lower().startswith(lead)}
            assert kind in instruction_markers(f"x {text} y"), (kind, text)
    assert opened == {kind: set(leads) for kind, leads in _LEADS.items()}
