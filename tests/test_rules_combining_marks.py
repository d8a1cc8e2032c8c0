"""A combining mark continues the word it follows (docs/rules.md, `match.combining-marks`):
the vowel signs of Hindi, Bengali and Tamil, the tone marks of Thai and an accent
written apart from its letter are no letters to `str.isalpha` or `\\w`, and every word
reader cut the words that hold them. Each test holds a real word the readers cut before
(`repair_core._words`)."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from cpu_time import grows_linearly
from text_shapes import TOKENS

from repair_core._carried import carries, folded_words
from repair_core._spelled import digit_words
from repair_core._words import LETTERS, MARK, WORD
from repair_core.bench import judge_recovery
from repair_core.bench._language import split_scripts
from repair_core.content._normalise import value_words
from repair_core.content._quantities import quantities
from repair_core.model._order_gloss import gloss

rule = pytest.mark.rule

WORDS = {
    "Hindi": ("किराया खाता", ["किराया", "खाता"]),  # rent, account
    "Bengali": ("ভাড়া", ["ভাড়া"]),  # rent: a nukta and a vowel sign
    "Tamil": ("கணக்கு", ["கணக்கு"]),  # account: a virama and a vowel sign
    # Thai writes no space between words: a run between spaces is one word here, and the
    # glossary reads Thai words inside it (next-session.glossed-languages)
    "Thai": ("ค่าเช่า", ["ค่าเช่า"]),  # rent: a tone mark above a consonant
    # Yoruba "friend": NFC keeps a grave and an acute apart from the dotted letters
    "Yoruba": ("ọ̀rẹ́", ["ọ̀rẹ́"]),
}


@rule("match.combining-marks")
@pytest.mark.parametrize("language", sorted(WORDS))
def test_a_word_with_vowel_signs_is_one_word_to_the_matcher_and_the_answer_reader(language):
    text, words = WORDS[language]
    # canonical text reads some marks as other marks (its confusables), so the matcher's
    # words are the canonical forms of the words, whole
    assert len(folded_words(text)) == len(words)
    assert value_words(text) == [unicodedata.normalize("NFKC", w).casefold() for w in words]


@rule("match.combining-marks")
def test_a_run_of_twelve_words_counts_words_not_the_pieces_between_marks():
    fault = ("मेरा किराया खाता बदल गया है और नया खाता नंबर जल्दी भेजा जाएगा कृपया "
             "प्रतीक्षा करें")  # my rent account has changed and the new number ...
    # eight of its words in a row: cut at the vowel signs they were fourteen pieces,
    # more than the twelve words a carried window needs
    assert len(folded_words(fault)) == 16
    assert not carries("सूचना: मेरा किराया खाता बदल गया है और नया खाता", fault)
    assert carries("सूचना: " + fault, fault)


@rule("match.combining-marks")
def test_a_quantity_names_the_whole_word_before_it():
    assert quantities("கணக்கு 500 mg")[0].subject == "கணக்கு"
    assert quantities("पैरासिटामोल की खुराक 500 mg")[0].subject == "खुराक"  # dose


@rule("match.combining-marks")
def test_a_word_ending_in_a_vowel_sign_is_split_from_the_latin_value_after_it():
    assert split_scripts("खाताUS13 पर") == "खाता US13 पर"
    assert split_scripts("किराया22C") == "किराया 22C"


@rule("match.combining-marks")
def test_an_answer_with_accents_written_apart_reads_as_the_same_answer_composed():
    answer = "Vous habitez à Séville."
    labels = (["Seville"], ["Porto"])
    composed = judge_recovery(answer, *labels, request="Where did I say I moved to?")
    apart = judge_recovery(unicodedata.normalize("NFD", answer), *labels,
                           request="Where did I say I moved to?")
    assert composed.outcome == apart.outcome == "recovered"


@rule("match.combining-marks")
def test_a_glossed_word_is_not_found_inside_a_longer_word_with_vowel_signs():
    # "भेजो" (send) is glossed; with a vowel sign after it, it is part of another word
    assert "send" in gloss("कृपया पैसे भेजो")
    assert gloss("भेजोो") == "भेजोो"


@rule("match.combining-marks")
def test_the_patterns_hold_every_combining_mark_and_start_no_word_with_one():
    mark = re.compile(MARK)
    marks = [chr(o) for o in range(sys.maxunicode + 1)
             if unicodedata.category(chr(o))[0] == "M"]
    assert all(mark.fullmatch(m) for m in marks)
    assert not mark.fullmatch("a") and not mark.fullmatch("\u200c")
    assert re.findall(WORD, "\u093f\u093f x_1\u0301 \u0915\u093f") == ["x_1\u0301", "\u0915\u093f"]
    assert re.findall(LETTERS, "\u0301ab1c\u0301") == ["ab", "c\u0301"]


@rule("match.linear")
@pytest.mark.parametrize("shape", ["combining marks alone", "a combining mark after every letter"])
@pytest.mark.parametrize("reader", [folded_words, value_words, split_scripts, gloss, quantities,
                                    digit_words])
def test_the_word_readers_read_marks_in_time_linear_in_the_text(shape, reader):
    grows_linearly(TOKENS[shape], reader, 32_000, label=(shape, reader.__name__))
