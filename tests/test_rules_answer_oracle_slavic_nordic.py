"""The answer oracle in Polish, Czech, Swedish, Danish, Norwegian (Bokmål) and Finnish
(docs/rules.md, `oracle.slavic-nordic-languages`), and the languages it names but does not
read (`oracle.unsure-language`). Each answer was written for these tests; each case is
labelled as in a committed case. Every answer here was `unsure` before (a language the
reader did not read), so a right one counted as an error."""

from __future__ import annotations

import pytest
from answer_languages import BOOK, O8471, UA511, WHERE, read_in

from repair_core.bench import judge_recovery
from repair_core.bench._language import ANSWER_READER_LANGUAGES, guess_language

rule = pytest.mark.rule


# (language, case, answer, outcome): per language a right answer, a wrong value, a
# negation, a pending action, an offer and a self-correction
ANSWERS = [
    ("pl", "UA511", "Zarezerwowałem miejsce 22C przy przejściu w locie UA511.", "recovered"),
    ("pl", "UA511", "Zarezerwowałem miejsce 22B w środku w locie UA511.", "not recovered"),
    ("pl", "UA511", "Nie zarezerwowałem miejsca 22C przy przejściu w locie UA511.",
     "not recovered"),
    ("pl", "UA511", "Miejsce 22C przy przejściu w locie UA511 jeszcze nie zostało "
     "zarezerwowane.", "not recovered"),
    ("pl", "UA511", "Miejsce 22C przy przejściu w locie UA511 jest wolne. Czy mam je "
     "zarezerwować?", "not recovered"),
    ("pl", "UA511", "Zarezerwowałem miejsce 22B w locie UA511 — przepraszam, pomyłka: "
     "miejsce 22C przy przejściu.", "recovered"),
    ("pl", "RJ220", "Dodałem koszulkę RJ-220 w kolorze białym, rozmiar XL, do koszyka.",
     "recovered"),
    ("pl", "RJ220", "Dodałem koszulkę RJ-220 w kolorze czarnym, rozmiar XL, do koszyka.",
     "not recovered"),
    ("pl", "O8471", "Zamówienie O-8471 jest w trakcie realizacji, dostawa w czwartek.",
     "recovered"),
    ("cs", "UA511", "Zarezervoval jsem sedadlo 22C u uličky na letu UA511.", "recovered"),
    ("cs", "UA511", "Zarezervoval jsem sedadlo 22B uprostřed na letu UA511.",
     "not recovered"),
    ("cs", "UA511", "Sedadlo 22C u uličky na letu UA511 jsem nezarezervoval.",
     "not recovered"),
    ("cs", "UA511", "Sedadlo 22C u uličky na letu UA511 ještě není zarezervováno.",
     "not recovered"),
    ("cs", "UA511", "Sedadlo 22C u uličky na letu UA511 je volné. Mám ho zarezervovat?",
     "not recovered"),
    ("cs", "UA511", "Zarezervoval jsem sedadlo 22B na letu UA511 – oprava: sedadlo 22C u "
     "uličky.", "recovered"),
    ("cs", "RJ220", "Přidal jsem tričko RJ-220 v bílé barvě, velikost XL, do košíku.",
     "recovered"),
    ("cs", "O8471", "Objednávka O-8471 se zpracovává, doručení ve čtvrtek.", "recovered"),
    ("sv", "UA511", "Jag har bokat plats 22C vid gången på flyg UA511.", "recovered"),
    ("sv", "UA511", "Jag har bokat plats 22B i mitten på flyg UA511.", "not recovered"),
    ("sv", "UA511", "Jag har inte bokat plats 22C vid gången på flyg UA511.",
     "not recovered"),
    ("sv", "UA511", "Plats 22C vid gången på flyg UA511 är ännu inte bokad.",
     "not recovered"),
    ("sv", "UA511", "Plats 22C vid gången på UA511 är ledig. Ska jag boka den?",
     "not recovered"),
    ("sv", "UA511", "Jag har bokat plats 22B på UA511 – rättelse: plats 22C vid gången.",
     "recovered"),
    ("sv", "RJ220", "Jag har lagt till tröjan RJ-220 i vitt, storlek XL, i din varukorg.",
     "recovered"),
    ("sv", "O8471", "Din beställning O-8471 behandlas och levereras på torsdag.",
     "recovered"),
    ("da", "UA511", "Jeg har booket sæde 22C ved gangen på fly UA511.", "recovered"),
    ("da", "UA511", "Jeg har booket sæde 22B i midten på fly UA511.", "not recovered"),
    ("da", "UA511", "Jeg har ikke booket sæde 22C ved gangen på fly UA511.",
     "not recovered"),
    ("da", "UA511", "Sæde 22C ved gangen på UA511 er endnu ikke reserveret.",
     "not recovered"),
    ("da", "UA511", "Sæde 22C ved gangen på UA511 er ledigt. Skal jeg reservere det?",
     "not recovered"),
    ("da", "UA511", "Jeg har reserveret sæde 22B på UA511 – rettelse: sæde 22C ved gangen.",
     "recovered"),
    # Norwegian (Bokmål) is read with Danish: the guess names them together
    ("da", "UA511", "Jeg har reservert sete 22C ved midtgangen på fly UA511.", "recovered"),
    ("da", "UA511", "Jeg har ikke reservert sete 22C ved midtgangen på UA511.",
     "not recovered"),
    ("da", "UA511", "Sete 22C ved midtgangen på UA511 er ennå ikke bestilt.",
     "not recovered"),
    ("da", "UA511", "Sete 22C ved midtgangen på UA511 er ledig. Vil du at jeg skal "
     "bestille det?", "not recovered"),
    ("da", "RJ220", "Jeg har lagt til genseren RJ-220 i hvit, størrelse XL, i "
     "handlekurven.", "recovered"),
    ("fi", "UA511", "Varasin lennolta UA511 käytäväpaikan 22C.", "recovered"),
    ("fi", "UA511", "Varasin lennolta UA511 paikan 22B keskeltä.", "not recovered"),
    ("fi", "UA511", "En varannut lennolta UA511 käytäväpaikkaa 22C.", "not recovered"),
    ("fi", "UA511", "Käytäväpaikkaa 22C lennolla UA511 ei ole vielä varattu.",
     "not recovered"),
    ("fi", "UA511", "Käytäväpaikka 22C lennolla UA511 on vielä vapaana. Varaanko sen?",
     "not recovered"),
    ("fi", "UA511", "Varasin paikan 22B lennolta UA511 – korjaus: käytäväpaikka 22C.",
     "recovered"),
    ("fi", "O8471", "Tilauksesi O-8471 on nyt käsittelyssä ja se toimitetaan torstaina.",
     "recovered"),
]


@rule("oracle.slavic-nordic-languages")
@pytest.mark.parametrize(("language", "case", "answer", "outcome"), ANSWERS)
def test_the_five_languages_are_read_like_the_six_before_them(language, case, answer,
                                                              outcome):
    assert read_in(language, case, answer) == (outcome, [])


@rule("oracle.slavic-nordic-languages")
@pytest.mark.parametrize(("answer", "outcome"), [
    # "instead of" before the fault, or after it in Finnish
    ("Zarezerwowałem miejsce 22C przy przejściu w locie UA511 zamiast 22B.", "recovered"),
    ("Jag har bokat plats 22C vid gången på UA511 istället för 22B.", "recovered"),
    ("Jeg har booket sæde 22C ved gangen på UA511 i stedet for 22B.", "recovered"),
    ("Zarezervoval jsem sedadlo 22C u uličky na letu UA511 namísto 22B.", "recovered"),
    ("Varasin lennolta UA511 käytäväpaikan 22C paikan 22B sijaan.", "recovered"),
    # a promise in the perfective present, a pending word, a sentence opening on "done"
    ("Zarezerwuję miejsce 22C przy przejściu w locie UA511.", "not recovered"),
    ("Přidám sedadlo 22C u uličky na letu UA511.", "not recovered"),
    ("Bokningen av plats 22C vid gången på UA511 väntar på bekräftelse.", "not recovered"),
    ("Gotowe! Miejsce 22C przy przejściu w locie UA511.", "recovered"),
])
def test_rejections_promises_pending_and_done_in_the_five_languages(answer, outcome):
    verdict = judge_recovery(answer, *UA511, request=BOOK)
    assert (verdict.outcome, verdict.unsure) == (outcome, [])


@rule("oracle.slavic-nordic-languages")
@pytest.mark.parametrize(("answer", "language"), [
    # "din", "nu", "er" are Swedish or Danish; each short answer was guessed Romanian or
    # left undetermined before
    ("Din bokning är klar nu.", "sv"),
    ("Din ordre er sendt i dag.", "da"),
    # Czech "ve" (in) is Turkish "ve" (and), so Czech is told by its own words
    ("Jeho let by měl odletět ve čtvrtek.", "cs"),
    # German "er" (he) and Dutch "er" (there) stay theirs
    ("Er hat 22C gebucht.", "de"),
    ("Er is nog geen bevestiging.", "nl"),
])
def test_short_swedish_and_danish_answers_are_placed(answer, language):
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == language


@rule("oracle.slavic-nordic-languages")
def test_the_next_session_agent_still_reads_only_its_seven_languages():
    # the language guess is shared: the agent does not read Polish, the answer reader does
    answer = "Zarezerwowałem miejsce 22C przy przejściu w locie UA511."
    assert guess_language(answer).why_unread == (
        "its function words are Polish, which the reader does not read")
    assert guess_language(answer, ANSWER_READER_LANGUAGES).why_unread == ""


@rule("oracle.slavic-nordic-languages")
@pytest.mark.parametrize(("answer", "outcome"), [
    # words of the five that are other words in the six read before them: Finnish "en"
    # is French "en", Czech "ne" French "ne", Swedish "ej" Spanish "ejemplo" written short
    ("J'ai réservé le siège 22C en allée (aisle) sur UA511.", "recovered"),
    ("He reservado 22C (aisle) en UA511, p. ej. junto a la salida.", "recovered"),
    ("Ich habe 22C (aisle) auf UA511 gebucht; den Sitz 22B habe ich nicht gebucht.",
     "recovered"),
])
def test_their_words_leave_the_six_other_languages_as_they_were(answer, outcome):
    assert judge_recovery(answer, *UA511, request=BOOK).outcome == outcome


@rule("oracle.unsure-language")
@pytest.mark.parametrize(("answer", "name"), [
    # guessed Italian before and misread (Catalan and Galician are read now:
    # `oracle.glossed-languages`)
    ("Vossa empustaziun O-8471 vegn elavurada ussa e n'è anc betg expedida.", "Romansh"),
])
def test_romansh_is_named_and_left_unsure(answer, name):
    guess = guess_language(answer, ANSWER_READER_LANGUAGES)
    assert guess.why_unread == f"its function words are {name}, which the reader does not read"
    verdict = judge_recovery(answer, *O8471, request=WHERE)
    assert verdict.outcome in ("unsure", "not recovered")
    assert verdict.outcome == "not recovered" or verdict.unsure[0].startswith("language: ")
