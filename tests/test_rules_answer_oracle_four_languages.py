"""The answer oracle in Welsh, Tagalog, Basque and Croatian (with Serbian in Latin
letters) (docs/rules.md, `oracle.glossed-four-languages`). Each answer was written for
these tests; each case is labelled as in a committed case. Before the rule, answers in
these languages were placed in English, Dutch or Portuguese by a word or two they share
with them, or by none, and their values matched: an answer saying the action was not done
("Nisam rezervirao ...", "Hindi ko na-book ...") was recovered."""

from __future__ import annotations

import pytest
from answer_languages import ADD, RJ220, UA511, read_in

from repair_core.bench import judge_recovery
from repair_core.bench._language import ANSWER_READER_LANGUAGES, LANGUAGE_NAMES, guess_language

rule = pytest.mark.rule

# (language, case, answer, outcome): per language a right answer, a fault or a wrong
# value, a negated action, and an offered or promised one
ANSWERS = [
    ("cy", "UA511", "Rwyf wedi archebu sedd 22C ger yr eil ar hediad UA511.", "recovered"),
    ("cy", "UA511", "Dydw i ddim wedi archebu sedd 22C ger yr eil ar hediad UA511.",
     "not recovered"),
    ("cy", "UA511", "Rwyf wedi cadw sedd 22B yn y canol ar hediad UA511.", "not recovered"),
    ("cy", "RJ220", "Nid oeddwn yn gallu ychwanegu siaced RJ-220 wen, maint XL, at eich "
     "basged.", "not recovered"),
    ("cy", "RJ220", "Ydych chi am i mi ychwanegu siaced RJ-220 wen, maint XL, at eich "
     "basged?", "not recovered"),
    ("cy", "O8471", "Mae eich archeb O-8471 yn cael ei phrosesu a bydd yn cyrraedd ddydd "
     "Iau.", "recovered"),
    ("tl", "UA511", "Na-book ko na ang upuang 22C sa pasilyo ng flight UA511.", "recovered"),
    ("tl", "UA511", "Hindi ko na-book ang upuang 22C sa pasilyo ng flight UA511.",
     "not recovered"),
    ("tl", "RJ220", "Idinagdag ko na sa cart mo ang jacket na RJ-220, kulay puti, size XL.",
     "recovered"),
    ("tl", "RJ220", "Hindi ko pa naidagdag sa cart ang jacket na RJ-220, kulay puti, "
     "size XL.", "not recovered"),
    ("tl", "RJ220", "Idadagdag ko sa cart ang RJ-220 na puti, size XL, kapag kinumpirma mo.",
     "not recovered"),
    ("tl", "O8471", "Ang order mo na O-8471 ay pinoproseso pa at darating sa Huwebes.",
     "recovered"),
    ("eu", "UA511", "UA511 hegaldian 22C eserlekua erreserbatu dut, pasillo ondoan.",
     "recovered"),
    ("eu", "UA511", "Ez dut erreserbatu UA511 hegaldiko 22C eserlekua, pasillo ondoan.",
     "not recovered"),
    ("eu", "RJ220", "RJ-220 jaka zuria, XL tamaina, saskira gehitu dut.", "recovered"),
    ("eu", "RJ220", "RJ-220 jaka beltza, XL tamaina, saskira gehitu dut.", "not recovered"),
    ("eu", "O8471", "O-8471 eskaera prozesatzen dago; ostegunean iritsiko da.", "recovered"),
    ("hr", "UA511", "Rezervirao sam sjedalo 22C do prolaza na letu UA511.", "recovered"),
    ("hr", "UA511", "Nisam rezervirao sjedalo 22C do prolaza na letu UA511.",
     "not recovered"),
    ("hr", "RJ220", "Dodala sam jaknu RJ-220 u bijeloj boji, veličina XL, u vašu košaricu.",
     "recovered"),
    ("hr", "RJ220", "Još nisam dodala jaknu RJ-220, bijelu, veličina XL, u košaricu.",
     "not recovered"),
    ("hr", "RJ220", "Želite li da dodam jaknu RJ-220, bijelu, veličina XL, u košaricu?",
     "not recovered"),
    ("hr", "O8471", "Vaša narudžba O-8471 je u obradi i stiže u četvrtak.", "recovered"),
    # a promise with no subject written is still no done action
    ("eu", "UA511", "UA511 hegaldiko 22C eserlekua erreserbatuko dut, pasillo ondoan.",
     "not recovered"),
    ("tl", "UA511", "Ibo-book ang upuang 22C sa pasilyo ng UA511.", "not recovered"),
    ("hr", "O8471", "Vaša porudžbina O-8471 je u obradi i stiže u četvrtak.", "recovered"),
]


@rule("oracle.glossed-four-languages")
@pytest.mark.parametrize(("language", "case", "answer", "outcome"), ANSWERS)
def test_an_answer_is_read_through_its_languages_table(language, case, answer, outcome):
    assert read_in(language, case, answer) == (outcome, [])


@rule("oracle.glossed-four-languages")
@pytest.mark.parametrize(("answer", "language", "unread"), [
    # the Basque verb comes last: a negation before anything else is not read
    ("Ez dut RJ-220 jaka zuria, XL tamaina, saskira gehitu.", "Basque",
     "a negation ('ez dut')"),
    ("Ezin izan dut RJ-220 jaka zuria saskira gehitu.", "Basque",
     "a verb after 'failed' ('ezin izan dut')"),
    # Tagalog and Cebuano "wala" (none, did not) before a verb
    ("Wala pa sa cart mo ang RJ-220 na puti, size XL.", "Tagalog", "a negation ('wala pa')"),
])
def test_a_negation_the_table_does_not_read_leaves_the_answer_unsure(answer, language,
                                                                     unread):
    verdict = judge_recovery(answer, *RJ220, request=ADD)
    assert verdict.outcome == "unsure"
    assert verdict.unsure == [f"language: {unread} in a form the reader does not read in "
                              f"{language}"]


@rule("oracle.glossed-four-languages")
@pytest.mark.parametrize("answer", [
    # English listings that write "ETA" (Basque "eta" is "and") stay English
    "Order #O4102 | status: PACKED | ETA: Fri",
    "o8471: processing, ETA thu",
    "O-7700 — packed, ships w/ UPS, ETA Thu.",
])
def test_english_listings_stay_english(answer):
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == "en"


@rule("oracle.glossed-four-languages")
def test_a_welsh_answer_in_ascii_letters_is_not_taken_for_english():
    # "middle" is the fault: read as English, "canol" was no word and "22C" was matched
    answer = "Rwyf wedi archebu UA511, sedd 22C yn y canol."
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == "cy"
    verdict = judge_recovery(answer, *UA511, request="Book me an aisle seat on UA511.")
    assert verdict.outcome == "not recovered"
    assert verdict.forbidden == ["middle"]


@rule("oracle.glossed-four-languages")
@pytest.mark.parametrize(("answer", "language", "conditional"), [
    # would have added: the done verb after a conditional is not done, and the reason
    # names a conditional, not a negation
    ("Byddwn wedi ychwanegu siaced RJ-220 wen, maint XL, at eich basged.", "cy", "byddwn"),
    ("Bih dodala jaknu RJ-220 u bijeloj boji, veličina XL, u vašu košaricu.", "hr", "bih"),
])
def test_a_conditional_leaves_the_answer_unsure(answer, language, conditional):
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == language
    verdict = judge_recovery(answer, *RJ220, request=ADD)
    assert verdict.outcome == "unsure"
    assert verdict.unsure == [f"language: a conditional ('{conditional}') in a form the "
                              f"reader does not read in {LANGUAGE_NAMES[language]}"]
