"""Answers in Zulu or Xhosa, Luxembourgish, Haitian Creole, Javanese, Malagasy, Hausa,
Yoruba, Maori and Slovenian are named as languages the reader does not read, not taken
for English, Dutch, German, French, Indonesian or Croatian by a word or two they share
(docs/rules.md, `oracle.unsure-language`): read so, an answer saying the seat was not
booked ("Mwen poko rezève", "Ech hunn ... net reservéiert", "Angikabhukhi", "Aku durung
mesen", "Tsy mbola nitahiry", "Nisem rezerviral") had its values matched and was
recovered. Each answer was written for these tests; the labels are those of ctl-001."""

from __future__ import annotations

import pytest
from answer_languages import UA511

from repair_core.bench import judge_recovery
from repair_core.bench._language import (
    ANSWER_READER_LANGUAGES,
    LANGUAGE_NAMES,
    guess_language,
)

rule = pytest.mark.rule

LABELS = UA511
BOOK = "Book me a flight from my home airport to Seattle next Wednesday."

NOT_BOOKED = [
    ("Mwen poko rezève chèz 22C aisle sou vòl UA511 la pou ou.", "ht"),
    ("Ech hunn de Sëtz 22C (aisle) am Fluch UA511 net reservéiert.", "lb"),
    ("Angikabhukhi isihlalo 22C (aisle) endizeni UA511.", "zu"),
    ("Andikabhukisha isihlalo 22C (aisle) kwinqwelomoya UA511.", "zu"),
    ("Aku durung mesen kursi 22C (aisle) ing pesawat UA511.", "jv"),
    ("Tsy mbola nitahiry ny seza 22C (aisle) amin ny UA511 aho.", "mg"),
    ("Nisem rezerviral sedeža 22C (aisle) na letu UA511.", "sl"),
    ("Ban riƙe kujera 22C (aisle) a jirgin UA511 ba.", "ha"),
    ("Mi ò tíì fi ìjókòó 22C (aisle) pamọ́ lórí UA511.", "yo"),
    ("Kāore anō au kia tāpui i te tūru 22C (aisle) i UA511 nei.", "mi"),
]


@rule("oracle.unsure-language")
@pytest.mark.parametrize(("answer", "code"), NOT_BOOKED)
def test_an_answer_in_a_language_not_read_is_unsure_and_named(answer, code):
    judged = judge_recovery(answer, *LABELS, request=BOOK)
    assert judged.outcome == "unsure"
    guess = guess_language(answer, ANSWER_READER_LANGUAGES)
    assert guess.code in (code, "und"), guess
    assert guess.why_unread
    # named: "und" only where the words are as much another language's, still named
    assert LANGUAGE_NAMES[code] in guess.why_unread, guess


@rule("oracle.unsure-language")
@pytest.mark.parametrize(("text", "code"), [
    # the languages these words could be taken from are placed as before
    ("Rezervirao sam sjedalo 22C do prolaza na letu UA511.", "hr"),
    ("Vaše objednávka O-8471 se zpracovává a měla by dorazit ve čtvrtek.", "cs"),
    ("Ich habe den Sitz 22C am Gang auf dem Flug UA511 reserviert.", "de"),
    ("J'ai réservé le siège 22C côté couloir sur le vol UA511 pour vous.", "fr"),
    ("Saya sudah memesan kursi 22C di pesawat UA511.", "id"),
    ("Held 22C (aisle) on UA511 for you.", "en"),
])
def test_the_languages_they_share_words_with_are_placed_as_before(text, code):
    assert guess_language(text, ANSWER_READER_LANGUAGES).code == code
