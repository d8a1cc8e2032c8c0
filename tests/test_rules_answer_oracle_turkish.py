"""The answer oracle in Turkish (docs/rules.md, `oracle.turkish`). Each answer was written
for these tests; each case is labelled as in a committed case. Every answer here was
`unsure` before (a language the reader did not read), so a right one counted as an
error."""

from __future__ import annotations

import pytest
from answer_languages import BOOK, UA511, read_in

from repair_core.bench import judge_recovery
from repair_core.bench._answer_words_turkish import gloss
from repair_core.bench._language import ANSWER_READER_LANGUAGES, guess_language

rule = pytest.mark.rule


# (case, answer, outcome): a right answer, a wrong value, a negation, a pending action,
# an offer, a self-correction, "instead of", an ability, a size after its number
ANSWERS = [
    ("UA511", "UA511 uçuşunda koridor tarafındaki 22C koltuğunu rezerve ettim.",
     "recovered"),
    ("UA511", "UA511 uçuşunda ortadaki 22B koltuğunu rezerve ettim.", "not recovered"),
    ("UA511", "UA511 uçuşunda koridor tarafındaki 22C koltuğunu rezerve etmedim.",
     "not recovered"),
    ("UA511", "UA511 uçuşundaki koridor tarafı 22C koltuğu henüz rezerve edilmedi.",
     "not recovered"),
    ("UA511", "UA511 uçuşunda koridor tarafındaki 22C koltuğu boş. Rezerve edeyim mi?",
     "not recovered"),
    ("UA511", "UA511 uçuşunda 22B — pardon, düzeltme: koridor tarafındaki 22C koltuğunu "
     "rezerve ettim.", "recovered"),
    ("UA511", "UA511 uçuşunda 22B yerine koridor tarafındaki 22C koltuğunu ayırttım.",
     "recovered"),
    ("RJ220", "RJ-220'yi beyaz renkte, beden XL olarak sepetinize ekledim.", "recovered"),
    ("RJ220", "RJ-220'yi siyah renkte, beden XL olarak sepetinize ekledim.",
     "not recovered"),
    ("RJ220", "RJ-220'yi beyaz renkte, beden XL olarak sepetinize ekleyebilirim.",
     "not recovered"),
    ("RJ220", "RJ-220'yi beyaz renkte, beden XL olarak sepetinize eklemedim.",
     "not recovered"),
    ("RS310", "Yeşil RS-310'u 7 numara olarak sepetinize ekledim.", "recovered"),
    ("O8471", "Siparişiniz O-8471 hazırlanıyor ve perşembe günü teslim edilecek.",
     "recovered"),
]


@rule("oracle.turkish")
@pytest.mark.parametrize(("case", "answer", "outcome"), ANSWERS)
def test_turkish_is_read_through_its_verbs_endings_and_general_words(case, answer,
                                                                     outcome):
    assert read_in("tr", case, answer) == (outcome, [])


@rule("oracle.turkish")
def test_a_turkish_negation_word_the_reader_does_not_read_leaves_the_answer_unsure():
    verdict = judge_recovery("UA511 uçuşunda koridor tarafında 22C koltuğu yok.", *UA511,
                             request=BOOK)
    assert verdict.outcome == "unsure"
    assert verdict.unsure == ["language: a negation ('yok') in a form the reader does not "
                              "read in Turkish"]


@rule("oracle.turkish")
def test_verb_endings_and_delivery_are_read_by_their_form():
    assert gloss("eklendi") == "added"
    assert gloss("eklenmedi") == "not added"
    assert gloss("değiştireyim") == "shall i change"
    assert gloss("göndereceğim") == "i will send"
    # "koyu" (dark) begins as "koy" (put) and is no verb
    assert gloss("koyu") == "koyu"
    # delivered only when it was ("teslim edildi"), not when it will be
    assert gloss("teslim edildi") == "delivered"
    assert gloss("teslim edilecek") == "teslim edilecek"
    # a short answer is placed by Turkish words of its own ("artık": now, no longer)
    assert guess_language("Artık her sabah yüzüyorsun.", ANSWER_READER_LANGUAGES).code == "tr"
    # the next-session agent still does not read Turkish
    assert guess_language("Siparişiniz hazırlanıyor ve yarın teslim edilecek.").why_unread
