"""The answer oracle in Catalan, Galician, Romanian, Indonesian, Russian and Ukrainian
(docs/rules.md, `oracle.glossed-languages`). Each answer was written for these tests;
each case is labelled as in a committed case. Every answer here was `unsure` before (a
language the reader did not read), so a right one counted as an error."""

from __future__ import annotations

import pytest
from answer_languages import ADD, RJ220, read_in

from repair_core.bench import judge_recovery
from repair_core.bench._answer_words_glossed import read
from repair_core.bench._language import (
    ANSWER_READER_LANGUAGES,
    LANGUAGE_NAMES,
    UNDETERMINED,
    guess_language,
)

rule = pytest.mark.rule

# (language, case, answer, outcome): per language a right answer, a fault or a wrong
# value, a negated action, and a pending, offered or promised one
ANSWERS = [
    ("ca", "UA511", "He reservat el seient 22C, de passadís, al vol UA511.", "recovered"),
    ("ca", "UA511", "He reservat el teu seient 22B, del mig, al vol UA511.", "not recovered"),
    ("ca", "UA511", "No he reservat el seient 22C de passadís al vol UA511.",
     "not recovered"),
    ("ca", "RJ220", "Vols que afegeixi la jaqueta RJ-220 blanca, talla XL, a la teva cistella?",
     "not recovered"),
    ("ca", "O8471", "La teva comanda O-8471 és en procés i arribarà dijous.", "recovered"),
    ("gl", "UA511", "Xa reservei o teu asento 22C, de corredor, no voo UA511.",
     "recovered"),
    ("gl", "UA511", "Aínda non reservei o asento 22C de corredor no voo UA511.",
     "not recovered"),
    ("gl", "RJ220", "Engadín ao carriño a chaqueta RJ-220 branca na talla XL.",
     "recovered"),
    ("gl", "RJ220", "Engadín ao carriño a chaqueta RJ-220 negra na talla XL.",
     "not recovered"),
    ("ro", "RJ220", "Am adăugat în coș geaca RJ-220 albă, mărimea XL.", "recovered"),
    ("ro", "RJ220", "Nu am adăugat în coș geaca RJ-220 albă, mărimea XL.",
     "not recovered"),
    ("ro", "RJ220", "Voi adăuga în coș geaca RJ-220 albă, mărimea XL, după ce confirmați.",
     "not recovered"),
    ("ro", "O8471", "Comanda ta O-8471 este în procesare și ajunge joi.", "recovered"),
    ("id", "RJ220", "Saya sudah menambahkan jaket RJ-220 warna putih ukuran XL ke "
     "keranjang.", "recovered"),
    ("id", "RJ220", "Saya belum menambahkan jaket RJ-220 warna putih ukuran XL ke "
     "keranjang.", "not recovered"),
    ("id", "RJ220", "Saya akan menambahkan jaket RJ-220 warna putih ukuran XL ke "
     "keranjang.", "not recovered"),
    ("id", "RJ220", "Saya sudah menambahkan jaket RJ-220 warna hitam ukuran XL ke "
     "keranjang.", "not recovered"),
    ("ru", "RJ220", "Я добавил в корзину куртку RJ-220 белого цвета, размер XL.",
     "recovered"),
    ("ru", "RJ220", "Я не добавил в корзину куртку RJ-220 белого цвета, размер XL.",
     "not recovered"),
    ("ru", "RJ220", "Я добавил в корзину куртку RJ-220 чёрного цвета, размер XL.",
     "not recovered"),
    ("ru", "O8471", "Ваш заказ O-8471 в обработке, доставка в четверг.", "recovered"),
    ("ru", "UA511", "Могу забронировать место 22C у прохода на рейсе UA511.",
     "not recovered"),
    ("uk", "RJ220", "Я додав до кошика куртку RJ-220 білого кольору, розмір XL.",
     "recovered"),
    ("uk", "RJ220", "Я ще не додав до кошика куртку RJ-220 білого кольору, розмір XL.",
     "not recovered"),
    ("uk", "UA511", "Забронював для вас місце 22B, середнє, на рейсі UA511.",
     "not recovered"),
    ("uk", "UA511", "Забронював для вас місце 22C біля проходу на рейсі UA511.",
     "recovered"),
    # each was unsure before, its language not read
    ("ro", "O8471", "Comanda O-8471 este în curs de procesare, livrarea joi.", "recovered"),
    ("id", "O8471", "Pesanan O-8471 sedang diproses dan akan tiba hari Kamis.",
     "recovered"),
    ("ru", "O8471", "Ваш заказ O-8471 обрабатывается, доставка в четверг.", "recovered"),
    ("id", "RS310", "RS-310 sudah saya masukkan ke keranjang Anda, hijau, ukuran 7.",
     "recovered"),
    ("ca", "O8471", "La vostra comanda O-8471 ja és en preparació i arribarà dijous amb el "
     "missatger.", "recovered"),
    # an id missing is missing in any language
    ("gl", "O8471", "Xa engadín unha camiseta á túa cesta; aínda non está pagada.",
     "not recovered"),
]


@rule("oracle.glossed-languages")
@pytest.mark.parametrize(("language", "case", "answer", "outcome"), ANSWERS)
def test_an_answer_is_read_through_its_languages_table(language, case, answer, outcome):
    assert read_in(language, case, answer) == (outcome, [])


@rule("oracle.glossed-languages")
@pytest.mark.parametrize(("answer", "language", "negation"), [
    ("Nu am adăugat nimic în coș, RJ-220 albă, mărimea XL.", "ro", "nimic"),
    ("В корзине нет куртки RJ-220 белого цвета, размер XL.", "ru", "нет"),
    # a negation before a word the table does not hold is one the reader cannot read
    ("Я не стал добавлять куртку RJ-220 белого цвета, размер XL, в корзину.", "ru",
     "не"),
    ("Geaca RJ-220 albă, mărimea XL, nu este încă în coș.", "ro", "nu"),
    ("Saya tidak sempat menambahkan jaket RJ-220 putih ukuran XL ke keranjang.", "id",
     "tidak"),
])
def test_a_negation_the_table_does_not_read_leaves_the_answer_unsure(answer, language,
                                                                     negation):
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == language
    verdict = judge_recovery(answer, *RJ220, request=ADD)
    assert verdict.outcome == "unsure"
    assert verdict.unsure == [f"language: a negation ('{negation}') in a form the reader "
                              f"does not read in {LANGUAGE_NAMES[language]}"]


@rule("oracle.glossed-languages")
@pytest.mark.parametrize(("answer", "language", "conditional"), [
    # would have added: the done verb after a conditional is not done
    ("Я бы добавил в корзину куртку RJ-220 белого цвета, размер XL.", "ru", "бы"),
    ("Я мог бы добавить в корзину куртку RJ-220 белого цвета, размер XL.", "ru", "бы"),
    ("Я б додав до кошика куртку RJ-220 білого кольору, розмір XL.", "uk", "б"),
    ("Am fi adăugat în coș geaca RJ-220 albă, mărimea XL.", "ro", "am fi"),
    ("Hauria afegit al carret la jaqueta RJ-220 blanca, talla XL.", "ca", "hauria"),
    ("Engadiría ao carriño a chaqueta RJ-220 branca na talla XL.", "gl", "engadiría"),
])
def test_a_conditional_leaves_the_answer_unsure(answer, language, conditional):
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == language
    verdict = judge_recovery(answer, *RJ220, request=ADD)
    assert verdict.unsure == [f"language: a conditional ('{conditional}') in a form the "
                              f"reader does not read in {LANGUAGE_NAMES[language]}"]


@rule("oracle.glossed-languages")
@pytest.mark.parametrize("answer", [
    "Jaket RJ-220 putih ukuran XL gagal ditambahkan ke keranjang.",
    "Jaket RJ-220 putih ukuran XL tidak berhasil ditambahkan ke keranjang.",
])
def test_an_action_that_failed_is_not_done(answer):
    assert read_in("id", "RJ220", answer) == ("not recovered", [])


@rule("oracle.glossed-languages")
@pytest.mark.parametrize(("text", "code"), [
    ("Ваш заказ уже в пути, он будет у вас в среду.", "ru"),
    ("Ваше замовлення вже в дорозі, воно буде у вас у середу.", "uk"),
    # Bulgarian and Serbian are neither: Bulgarian is not read, Serbian is read through
    # the Croatian, Serbian and Bosnian table (`oracle.glossed-four-languages`)
    ("Вашата поръчка е на път и ще пристигне в сряда.", UNDETERMINED),
    ("Ваша поруџбина је на путу и стиже у среду.", "hr"),
    # a Catalan answer is not taken for Spanish: its own words tell it
    ("He afegit al carret la jaqueta blanca, talla XL.", "ca"),
    ("He añadido al carrito la chaqueta blanca, talla XL.", "es"),
    # one short word of Indonesian ("ke") and one of German ("ab") tell nothing
    ("Aap ab gym ke paas jaate ho.", UNDETERMINED),
])
def test_the_guess_tells_these_languages_and_guesses_no_other(text, code):
    assert guess_language(text, ANSWER_READER_LANGUAGES).code == code


@rule("oracle.glossed-languages")
def test_the_gloss_keeps_other_words_and_reads_a_phrase_only_unbroken():
    assert read("Am rezervat locul 22C la culoar.", "ro") == ("i booked seat 22C aisle.",
                                                              None)
    # "la, culoar" is two clauses, not the phrase "la culoar"
    assert read("22C la, culoar", "ro")[0] == "22C la, aisle"


def test_such_text_glosses_in_time_linear_in_it():
    from cpu_time import grows_linearly

    grows_linearly(lambda n: "Я не добавил в корзину куртку 22C белого цвета, " * n,
                   lambda text: read(text, "ru"), 650)


@rule("oracle.glossed-languages")
@pytest.mark.parametrize(("language", "answer"), [
    ("ca", "He intentat afegir la jaqueta RJ-220 blanca, talla XL, al teu carretó."),
    ("gl", "Intentei engadir a chaqueta RJ-220 branca, talla XL, ao teu carriño."),
    ("ro", "Am încercat să adaug jacheta RJ-220 albă, mărimea XL, în coșul tău."),
    ("id", "Saya mencoba memasukkan jaket RJ-220 warna putih, ukuran XL, ke keranjang Anda."),
    ("ru", "Я пытался положить куртку RJ-220 белого цвета, размер XL, в вашу корзину."),
    ("uk", "Я намагався додати куртку RJ-220 білого кольору, розмір XL, у ваш кошик."),
])
def test_an_answer_that_only_tried_is_not_recovered(language, answer):
    # "I tried to add …": each was recovered, "tried" unread and the values taken as stated
    assert read_in(language, "RJ220", answer) == ("not recovered", [])

