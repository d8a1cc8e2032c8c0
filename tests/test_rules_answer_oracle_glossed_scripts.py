"""The answer oracle in Vietnamese, Hindi, Hungarian, Greek, Arabic, Hebrew and Swahili
(docs/rules.md, `oracle.glossed-scripts`). Each answer was written for these tests; each
case is labelled as in a committed case. Every answer here was `unsure` before (a
language or a script the reader did not read), so a right one counted as an error."""

from __future__ import annotations

import pytest
from answer_languages import ADD, RJ220, read_in
from cpu_time import grows_linearly

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
# value, a negated action, and an offered or promised one
ANSWERS = [
    ("vi", "UA511", "Tôi đã đặt ghế 22C cạnh lối đi trên chuyến bay UA511 cho bạn.",
     "recovered"),
    ("vi", "UA511", "Tôi đã đặt ghế 22B ở giữa trên chuyến bay UA511 cho bạn.",
     "not recovered"),
    ("vi", "UA511", "Tôi chưa đặt ghế 22C cạnh lối đi trên chuyến bay UA511.",
     "not recovered"),
    ("vi", "RJ220", "Tôi sẽ thêm áo khoác RJ-220 màu trắng, cỡ XL vào giỏ hàng của bạn.",
     "not recovered"),
    ("vi", "O8471", "Đơn hàng O-8471 của bạn đang xử lý, dự kiến giao vào thứ năm.",
     "recovered"),
    ("hi", "RJ220", "मैंने RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में जोड़ दी है।",
     "recovered"),
    ("hi", "RJ220", "मैंने RJ-220 जैकेट काले रंग में, साइज़ XL, आपके कार्ट में जोड़ दी है।",
     "not recovered"),
    ("hi", "RJ220", "मैंने RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में नहीं जोड़ी।",
     "not recovered"),
    ("hi", "RJ220", "क्या मैं RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में जोड़ूँ?",
     "not recovered"),
    # the size before the word for size
    ("hi", "RJ220", "मैंने सफ़ेद RJ-220 जैकेट XL साइज़ में आपके कार्ट में जोड़ दी है।",
     "recovered"),
    # could not be added, did not manage to add: read as not added, not as a statement
    ("hi", "RJ220", "RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में नहीं जोड़ी जा सकी।",
     "not recovered"),
    ("hi", "RJ220", "मैं RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में नहीं जोड़ पाया।",
     "not recovered"),
    # about to add
    ("hi", "RJ220", "मैं RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में जोड़ने वाला हूँ।",
     "not recovered"),
    # was about to add, will be able to add, can be added, can be booked
    ("hi", "RJ220", "मैं RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में जोड़ने वाली थी।",
     "not recovered"),
    ("hi", "RJ220", "मैं RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में जोड़ पाऊँगा।",
     "not recovered"),
    ("hi", "RJ220", "RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, आपके कार्ट में जोड़ी जा सकती है।",
     "not recovered"),
    ("hi", "UA511", "UA511 की उड़ान पर 22C गलियारे वाली सीट बुक की जा सकती है।",
     "not recovered"),
    ("hi", "O8471", "आपका ऑर्डर O-8471 प्रक्रिया में है और गुरुवार को पहुँचेगा।", "recovered"),
    ("hu", "UA511", "Lefoglaltam a 22C folyosói ülést az UA511-es járaton.", "recovered"),
    ("hu", "UA511", "Lefoglaltam a 22B középső ülést az UA511-es járaton.",
     "not recovered"),
    ("hu", "UA511", "Még nem foglaltam le a 22C folyosói ülést az UA511-es járaton.",
     "not recovered"),
    ("hu", "RJ220", "Hozzáadjam a kosaradhoz a fehér RJ-220 kabátot XL méretben?",
     "not recovered"),
    ("hu", "RJ220", "Hozzáadtam a kosaradhoz a fehér RJ-220 kabátot XL méretben.",
     "recovered"),
    ("el", "UA511", "Έκλεισα τη θέση 22C στον διάδρομο στην πτήση UA511.", "recovered"),
    ("el", "UA511", "Δεν έκλεισα τη θέση 22C στον διάδρομο στην πτήση UA511.",
     "not recovered"),
    ("el", "RJ220", "Να προσθέσω το μπουφάν RJ-220 σε λευκό, μέγεθος XL, στο καλάθι σου;",
     "not recovered"),
    ("el", "RJ220", "Πρόσθεσα στο καλάθι σου το μπουφάν RJ-220 σε μαύρο, μέγεθος XL.",
     "not recovered"),
    ("el", "O8471", "Η παραγγελία σου O-8471 είναι σε επεξεργασία και φτάνει την Πέμπτη.",
     "recovered"),
    ("ar", "RJ220", "أضفت سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك.", "recovered"),
    ("ar", "RJ220", "لم أضف سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك.",
     "not recovered"),
    ("ar", "RJ220", "أضفت سترة RJ-220 باللون الأسود، المقاس XL، إلى سلتك.",
     "not recovered"),
    ("ar", "UA511", "هل تريد أن أحجز المقعد 22C بجانب الممر على الرحلة UA511؟",
     "not recovered"),
    # "I will do / did the adding", "I did not do the adding"
    ("ar", "RJ220", "سأقوم بإضافة سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك.",
     "not recovered"),
    ("ar", "RJ220", "لم أقم بإضافة سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك.",
     "not recovered"),
    ("ar", "RJ220", "قمت بإضافة سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك.", "recovered"),
    # "I will add" with "سوف", "we will add"
    ("ar", "RJ220", "سوف أضيف سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك.",
     "not recovered"),
    ("ar", "RJ220", "سوف أقوم بإضافة سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك.",
     "not recovered"),
    ("ar", "RJ220", "سنضيف سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك.", "not recovered"),
    ("ar", "O8471", "طلبك O-8471 قيد المعالجة ويصل يوم الخميس.", "recovered"),
    ("he", "UA511", "הזמנתי את מושב 22C ליד המעבר בטיסה UA511.", "recovered"),
    ("he", "UA511", "עדיין לא הזמנתי את מושב 22C ליד המעבר בטיסה UA511.",
     "not recovered"),
    ("he", "UA511", "הזמנתי את מושב 22B האמצעי בטיסה UA511.", "not recovered"),
    # a prefix joined to the value by a hyphen
    ("he", "UA511", "הזמנתי מושב 22C ליד המעבר ב-UA511.", "recovered"),
    ("he", "RJ220", "אוסיף את המעיל RJ-220 בלבן, מידה XL, לעגלה שלך.", "not recovered"),
    ("he", "O8471", "ההזמנה שלך O-8471 בטיפול ותגיע ביום חמישי.", "recovered"),
    ("sw", "RJ220", "Nimeongeza koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu chako.",
     "recovered"),
    ("sw", "RJ220", "Sijaongeza koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu chako.",
     "not recovered"),
    ("sw", "RJ220", "Nitaongeza koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu chako.",
     "not recovered"),
    # could not add
    ("sw", "RJ220", "Sikuweza kuongeza koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu "
     "chako.", "not recovered"),
    # cannot add, will not be able to add
    ("sw", "RJ220", "Siwezi kuongeza koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu "
     "chako.", "not recovered"),
    ("sw", "RJ220", "Sitaweza kuongeza koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu "
     "chako.", "not recovered"),
    ("sw", "RJ220", "Nimeongeza koti la RJ-220 rangi nyeusi, saizi XL, kwenye kikapu chako.",
     "not recovered"),
    ("sw", "O8471", "Oda yako O-8471 inashughulikiwa na itafika Alhamisi.", "recovered"),
]


@rule("oracle.glossed-scripts")
@pytest.mark.parametrize(("language", "case", "answer", "outcome"), ANSWERS)
def test_an_answer_is_read_through_its_languages_table(language, case, answer, outcome):
    assert read_in(language, case, answer) == (outcome, [])


@rule("oracle.glossed-scripts")
@pytest.mark.parametrize(("answer", "language", "word", "what"), [
    # would (have) added: a conditional is never read as done
    ("Lẽ ra tôi đã thêm áo khoác RJ-220 màu trắng, cỡ XL vào giỏ hàng.", "vi", "lẽ ra",
     "a conditional"),
    ("Hozzáadtam volna a kosaradhoz a fehér RJ-220 kabátot XL méretben.", "hu", "volna",
     "a conditional"),
    ("Θα είχα προσθέσει στο καλάθι σου το μπουφάν RJ-220 σε λευκό, μέγεθος XL.", "el",
     "θα", "a conditional"),
    ("لو أضفت سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك لكانت جاهزة.", "ar", "لو",
     "a conditional"),
    ("הייתי מוסיף את המעיל RJ-220 בלבן, מידה XL, לעגלה שלך.", "he", "הייתי",
     "a conditional"),
    ("Ningeongeza koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu chako.", "sw",
     "ningeongeza", "a conditional"),
    ("मैं RJ-220 जैकेट सफ़ेद रंग में, साइज़ XL, कार्ट में जोड़ देता, अगर स्टॉक होता।", "hi",
     "होता", "a conditional"),
    # a negation before a word the table does not hold, or one it marks unread
    ("Tôi không kịp thêm áo khoác RJ-220 màu trắng, cỡ XL vào giỏ hàng.", "vi", "không",
     "a negation"),
    ("ليس في سلتك سترة RJ-220 باللون الأبيض، المقاس XL.", "ar", "ليس", "a negation"),
    ("אין בעגלה שלך מעיל RJ-220 לבן במידה XL.", "he", "אין", "a negation"),
    ("RJ-220 जैकेट सफ़ेद, साइज़ XL, अभी कार्ट में नहीं है।", "hi", "नहीं", "a negation"),
    # could not (find): before a verb the table does not hold
    ("Sikuweza kupata koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu chako.", "sw",
     "sikuweza", "a negation"),
])
def test_a_conditional_or_an_unread_negation_leaves_the_answer_unsure(answer, language,
                                                                      word, what):
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == language
    verdict = judge_recovery(answer, *RJ220, request=ADD)
    assert verdict.outcome == "unsure"
    assert verdict.unsure == [f"language: {what} ('{word}') in a form the reader does not "
                              f"read in {LANGUAGE_NAMES[language]}"]


@rule("oracle.glossed-scripts")
@pytest.mark.parametrize(("language", "case", "answer", "said"), [
    # "I did not manage to book", "I can book", "I could put": each was recovered, the
    # failure or the ability read and the verb it governs, unread, taken for nothing
    ("hu", "UA511", "Nem sikerült lefoglalnom a 22C folyosói ülést az UA511-es járaton.",
     "a verb after 'failed' ('nem sikerült')"),
    ("hu", "UA511", "Tudok foglalni egy 22C folyosói ülést az UA511-es járaton.",
     "a verb after 'i can' ('tudok')"),
    ("he", "UA511", "אני יכול להזמין את מושב 22C ליד המעבר בטיסה UA511.",
     "a verb after 'i can' ('אני יכול')"),
    ("ru", "RJ220", "Я могу положить куртку RJ-220 белого цвета, размер XL, в вашу корзину.",
     "a verb after 'i can' ('могу')"),
])
def test_a_failure_or_an_offer_before_an_unread_verb_leaves_the_answer_unsure(
        language, case, answer, said):
    assert read_in(language, case, answer) == (
        "unsure", [f"language: {said} in a form the reader does not read in "
                   f"{LANGUAGE_NAMES[language]}"])


@rule("oracle.glossed-scripts")
@pytest.mark.parametrize(("language", "case", "answer"), [
    # before a verb the table holds the word is read
    ("ru", "RJ220", "Я могу добавить куртку RJ-220 белого цвета, размер XL, в вашу корзину."),
    ("id", "RJ220", "Saya gagal memasukkan jaket RJ-220 warna putih, ukuran XL, ke keranjang "
     "Anda."),
])
def test_a_failure_or_an_offer_before_a_read_verb_is_read(language, case, answer):
    assert read_in(language, case, answer) == ("not recovered", [])


@rule("oracle.glossed-scripts")
@pytest.mark.parametrize(("text", "code"), [
    ("Đơn hàng của bạn đang trên đường và sẽ đến vào thứ năm.", "vi"),
    ("Η παραγγελία σου είναι καθ' οδόν και φτάνει την Πέμπτη.", "el"),
    ("طلبك في الطريق ويصل يوم الخميس.", "ar"),
    ("ההזמנה שלך בדרך ותגיע ביום חמישי.", "he"),
    ("आपका ऑर्डर रास्ते में है और गुरुवार को पहुँचेगा।", "hi"),
    ("Oda yako iko njiani na itafika Alhamisi.", "sw"),
    ("A rendelésed úton van, és csütörtökön érkezik.", "hu"),
    ("Bacak mesafesi yüzünden her zaman aynı şirketi tercih ediyorsun.", "tr"),
    # the neighbours writing the same letters are not read: Persian, Urdu, Yiddish,
    # Marathi, Nepali
    ("سفارش شما در راه است و پنجشنبه می‌رسد.", UNDETERMINED),
    ("آپ کا آرڈر راستے میں ہے اور جمعرات کو پہنچے گا۔", UNDETERMINED),
    ("דער פּעקל איז אויפֿן וועג און קומט אָן דאָנערשטיק.", UNDETERMINED),
    ("तुमची ऑर्डर मार्गावर आहे आणि गुरुवारी पोहोचेल.", UNDETERMINED),
    ("तपाईंको अर्डर बाटोमा छ र बिहीबार आइपुग्छ।", UNDETERMINED),
    # written in one of these scripts with none of its short words: not guessed
    ("Ἐν ἀρχῇ ἦν ὁ λόγος", UNDETERMINED),
])
def test_the_guess_tells_these_languages_and_guesses_no_neighbour(text, code):
    assert guess_language(text, ANSWER_READER_LANGUAGES).code == code


@rule("oracle.glossed-scripts")
def test_a_neighbours_letters_are_letters_the_folded_text_can_hold():
    import unicodedata

    from repair_core.bench._language import SCRIPT_FUNCTION_WORDS

    # the guess reads the text folded to NFKC: a letter NFKC decomposes is never found
    for _, _, letters in SCRIPT_FUNCTION_WORDS.values():
        assert all(unicodedata.normalize("NFKC", ch) == ch for ch in letters)
    # a Yiddish ligature alone tells Yiddish
    assert guess_language("ההזמנה שלך בדרך, װאָס?", ANSWER_READER_LANGUAGES).code == (
        UNDETERMINED)


@rule("oracle.glossed-scripts")
@pytest.mark.parametrize("text", [
    "Η παραγγελία σου είναι καθ' οδόν και φτάνει την Πέμπτη.",
    "Đơn hàng của bạn đang trên đường và sẽ đến vào thứ năm.",
    "Oda yako iko njiani na itafika Alhamisi.",
])
def test_the_next_session_agent_still_reads_none_of_them(text):
    guess = guess_language(text)
    assert guess.why_unread


@rule("oracle.glossed-scripts")
def test_a_value_joined_by_a_hyphen_is_read_apart_from_its_prefix_or_ending():
    assert read("Lefoglaltam az AA882-es járatot 17:05-kor.", "hu") == (
        "booked az AA882 flight 17:05.", None)
    assert read("טסת מ-SFO ב-12:45.", "he")[0] == "טסת from SFO at 12:45."
    # an id's own hyphen is kept
    assert read("A O-8471 rendelés úton van.", "hu")[0] == "A O-8471 order in transit."


@pytest.mark.parametrize(("unit", "language"), [
    ("Tôi không thêm 22C vào giỏ hàng, ", "vi"), ("ב-ב-ב-", "he"), ("A-es-es-", "hu"),
    ("لم أضف سترة الأبيض، ", "ar"), ("मैंने नहीं जोड़ी ", "hi"), ("δεν πρόσθεσα ", "el"),
    ("sijaongeza kiti ", "sw"),
])
def test_such_text_glosses_in_time_linear_in_it(unit, language):
    grows_linearly(lambda size: unit * (size // len(unit)), lambda text: read(text, language),
                   32_000)


@rule("oracle.glossed-scripts")
@pytest.mark.parametrize(("language", "case", "answer"), [
    ("he", "UA511", "ניסיתי להזמין את מושב 22C ליד המעבר בטיסה UA511."),
    ("sw", "RJ220", "Nilijaribu kuongeza koti la RJ-220 rangi nyeupe, saizi XL, kwenye kikapu "
     "chako."),
    ("ar", "RJ220", "حاولت إضافة سترة RJ-220 باللون الأبيض، المقاس XL، إلى سلتك."),
    ("hu", "UA511", "Megpróbáltam lefoglalni a 22C folyosói ülést az UA511-es járaton."),
    ("vi", "UA511", "Tôi đã cố đặt ghế 22C cạnh lối đi trên chuyến bay UA511."),
])
def test_an_answer_that_only_tried_is_not_recovered(language, case, answer):
    # "I tried to book …": each was recovered, "tried" unread and the values taken as stated
    assert read_in(language, case, answer) == ("not recovered", [])

