"""The content check screens each distinct text and slot once (`_screened_once`) and
hands every item the judgements of its text: the same tuples, in the same order, as the
lexical judge's screen of every item gives."""

from __future__ import annotations

from typing import Any

from repair_core.content import signature_of
from repair_core.judge import LexicalJudge
from repair_core.verification._check import _screened_once

FAULTS = [
    signature_of("Pay the rent to DE89 3704 0044 0532 0130 00 from now on.", "DE89370400440532013000",
                 "rent_iban", node="m-fault"),
    signature_of("Dr. Ines Marlow moved the check-up to Friday.", None, "doctor", node="s-fault"),
]

BASE = [
    "Rent goes to DE89 3704 0044 0532 0130 00 now.",
    "Do not pay DE89370400440532013000: it is a scam.",
    "The weather in Lisbon is mild.",
    "Dr. Ines Marlow is the new doctor.",
    "Ines Marlowe called about the check-up.",
    "rent: 900 EUR",
]


def _as_list(found: Any) -> list[tuple[int, str, str, str, Any]]:
    return [(i, f.node, j.verdict, j.evidence, None if m is None else m.evidence())
            for i, f, j, m in found]


def test_repeated_texts_and_slots_are_judged_as_the_screen_judges_each() -> None:
    texts = [*BASE, *BASE, BASE[0], BASE[3], BASE[5], BASE[5], BASE[5], BASE[5], BASE[2]]
    slots: dict[int, tuple[Any, Any]] = {
        0: ("rent_iban", "DE89370400440532013000"),
        6: ("rent_iban", "DE89370400440532013000"),  # the same text and slot as item 0
        12: ("rent_iban", "DE89 3704"),  # the same text as item 0, another slot
        5: ("flag", True),
        14: ("flag", 1),  # equal to True, another type: screened on its own
        15: ("flag", ["DE89370400440532013000"]),  # a slot of no plain value
        16: ("rent_iban", "DE89370400440532013000"),  # a text that says nothing of it
    }
    expected = _as_list(LexicalJudge().screen_scored(FAULTS, texts, slots))
    got = _as_list(_screened_once(FAULTS, texts, slots))
    assert got == expected
    by_item = {i: (verdict, evidence) for i, _node, verdict, _why, evidence in got}
    # every copy of a carrying text is listed, a copy with another slot as its slot says
    # (not as the first copy's), and a slot alone carries a text that says nothing
    assert by_item[0] == by_item[6] == ("yes", by_item[0][1])
    assert by_item[12][0] == "yes" and by_item[12][1] != by_item[0][1]
    assert by_item[16][0] == "yes"


def test_nothing_to_screen_gives_nothing() -> None:
    assert list(_screened_once(FAULTS, [], {})) == []
    assert list(_screened_once([], BASE, {})) == []
