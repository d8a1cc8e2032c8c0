"""The answer reader's language guess backed by a language detector (py3langid,
`oracle.language-detector`): an answer in a language the reader has no words for is
unsure, never read as the language whose few words it shares. The labels are those of
ctl-001 (seat 22C on the aisle, on UA511 to Seattle next Wednesday).

The answers below were written for these tests, in each language's words for "I booked"
and "I did not book" as a grammar source gives them, not fitted to the detector:
West Frisian's "ik haw" (I have) and "net" (not) from Wikipedia's "West Frisian grammar";
Samoan's "Sa ou le'i" (I had not yet) and "Ua" (done) from pasifikapages.net's "How To
Make a Verb Phrase Negative in Samoan", and "nofoa" (seat), "va'alele" (aeroplane) from
the University of Hawai'i's "Gagana Sāmoa" lesson 6; Kinyarwanda's "ntabwo" (not) from
Harvard ELIAS's "Types of negation in Kinyarwanda"; Quechua's "manan ... -chu" (not) from
aprenderquechua.com's "The suffix -chu in negative sentences". Before the detector,
every one of them was read as Dutch, French or English and recovered, the "not booked"
ones too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from answer_languages import UA511

from repair_core.bench import judge_recovery
from repair_core.bench._language import (
    ANSWER_READER_LANGUAGES,
    UNDETERMINED,
    detect_language,
    guess_answer_language,
    guess_language,
)

rule = pytest.mark.rule

ROOT = Path(__file__).resolve().parent.parent
BOOK = "Book me a flight from my home airport to Seattle next Wednesday."

UNREAD_ANSWERS = [
    # West Frisian: "I have not booked the seat ...", "I have booked your seat ... for
    # next Wednesday"; its "de", "op", "ik" are Dutch words too
    ("Ik haw de stoel 22C (aisle) op flecht UA511 nei Seattle net boekt.",
     "Western Frisian"),
    ("Ik haw jo stoel 22C (aisle) op flecht UA511 nei Seattle foar kommende woansdei "
     "boekt.", "Western Frisian"),
    # Samoan: "I had not yet booked the seat ...", "I have booked the seat ... on
    # Wednesday"; its article "le" is a French word, and the detector knows no Samoan
    ("Sa ou le'i fa'amauina le nofoa 22C (aisle) i le va'alele UA511 i Seattle.", None),
    ("Ua ou fa'amauina le nofoa 22C (aisle) i le va'alele UA511 i Seattle i le Aso Lulu.",
     None),
    # Kinyarwanda: "I did not take seat 22C in the plane UA511 going to Seattle", and
    # "I took ... on Wednesday": no word of any table, so English before
    ("Ntabwo nafashe intebe 22C (aisle) mu ndege UA511 ijya Seattle.", "Kinyarwanda"),
    ("Nafashe intebe 22C (aisle) mu ndege UA511 ijya Seattle ku wa Gatatu.",
     "Kinyarwanda"),
    # Quechua: "I did not buy the seat 22C on the UA511 plane", "I bought the seat ...
    # for Seattle"
    ("Manan 22C (aisle) tiyanata UA511 avionpi rantirqanichu.", "Quechua"),
    ("22C (aisle) tiyanata UA511 avionpi Seattlepaq rantirqani.", "Quechua"),
]


@rule("oracle.language-detector")
@pytest.mark.parametrize(("answer", "named"), UNREAD_ANSWERS)
def test_an_answer_in_a_language_the_reader_has_no_words_for_is_unsure(answer, named):
    assert judge_recovery(answer, *UA511, request=BOOK).outcome == "unsure"
    guess = guess_answer_language(answer)
    assert guess.code == UNDETERMINED
    assert "language detector" in guess.why_unread
    if named:
        assert named in guess.why_unread, guess.why_unread
    else:
        # a language the detector does not know: its words say French, the detector
        # cannot say which language it is
        assert "its words say French" in guess.why_unread, guess.why_unread


@rule("oracle.language-detector")
@pytest.mark.parametrize(("answer", "code"), [
    ("Ik heb stoel 22C aan het gangpad op vlucht UA511 naar Seattle geboekt.", "nl"),
    ("J'ai réservé le siège 22C côté couloir sur le vol UA511 pour Seattle.", "fr"),
    ("Ich habe den Sitz 22C am Gang auf dem Flug UA511 nach Seattle reserviert.", "de"),
    ("Held 22C on UA511.", "en"),
    ("I booked seat 22C (aisle) on UA511 to Seattle next Wednesday.", "en"),
    # terse English listings with no function word: the detector's best is weak and
    # often another language, and they stay English
    ("nh860 | bos→sea | Premium Economy | 22B", "en"),
    ("Cart: TS105 · Blue · S", "en"),
    # the words say Portuguese (by "o"), the detector's weak best is English: as before
    ("order o 6929 — IN TRANSIT — wednesday", "pt"),
])
def test_languages_the_reader_reads_and_terse_english_are_placed_as_before(answer, code):
    assert guess_answer_language(answer).code == code
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == code


@rule("oracle.language-detector")
def test_a_right_answer_in_a_neighbour_the_reader_does_not_read_is_no_longer_read_by_luck():
    # Afrikaans read as Dutch before, and this right answer recovered by luck; a wrong
    # one in Afrikaans would have been read with Dutch cues the same way
    answer = "Ek het UA511 na Seattle volgende Woensdag bespreek, sitplek 22C by die gang."
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == "nl"
    guess = guess_answer_language(answer)
    assert guess.code == UNDETERMINED and "Afrikaans" in guess.why_unread
    assert judge_recovery(answer, *UA511, request=BOOK).outcome == "unsure"


@rule("oracle.language-detector")
@pytest.mark.parametrize(("text", "code"), [
    # Norwegian is read with Danish, Serbian with Croatian, Malay with Indonesian
    ("Jeg har bestilt flyet ditt til Seattle neste onsdag, og setet er ved midtgangen.",
     "da"),
    ("Saya telah menempah tempat duduk anda di lorong untuk penerbangan ke Seattle.", "id"),
])
def test_the_detector_names_a_language_as_the_reader_does(text, code):
    assert detect_language(text)[0] == code


def test_the_detector_is_loaded_only_when_an_answer_is_read():
    # importing the bench (and every CLI command that does) costs no model load
    out = subprocess.run(
        [sys.executable, "-c", "import sys, repair_core.bench; "
         "print('py3langid' in sys.modules)"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
