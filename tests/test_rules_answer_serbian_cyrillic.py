"""Serbian written in Cyrillic letters, read through the Croatian, Serbian and Bosnian
table once written in Latin letters, and Serbian words of judging and failing that table
reads (docs/rules.md, `oracle.glossed-four-languages`). Each answer was written for these
tests; the labels are those of ctl-001."""

from __future__ import annotations

import pytest
from answer_languages import UA511

from repair_core.bench import judge_recovery
from repair_core.bench._language import ANSWER_READER_LANGUAGES, guess_language

rule = pytest.mark.rule

LABELS = UA511
BOOK = "Book me a flight from my home airport to Seattle next Wednesday."


@rule("oracle.glossed-four-languages")
@pytest.mark.parametrize(("answer", "outcome"), [
    # Serbian in Cyrillic letters is read as it is in Latin letters
    ("Резервисао сам седиште 22C до пролаза на лету UA511.", "recovered"),
    ("Нисам резервисао седиште 22C до пролаза на лету UA511.", "not recovered"),
    ("Резервисао сам седиште 22B на лету UA511.", "not recovered"),
    ("Резервисао сам седиште 22C до пролаза на лету UA511. Белешка да желите седиште 22B "
     "није тачна.", "recovered"),
    # Serbian words of judging and failing, in either script
    ("Rezervisao sam sedište 22C do prolaza na letu UA511. Sedište 22B više ne važi.",
     "recovered"),
    ("Nisam uspeo da rezervišem sedište 22C do prolaza na letu UA511.", "not recovered"),
    ("Нисам успео да резервишем седиште 22C до пролаза на лету UA511.", "not recovered"),
    # Macedonian, written in nearly the same letters, is not read as Serbian
    ("Го резервирав седиштето 22C до патеката на летот UA511 во вторник.", "unsure"),
])
def test_serbian_in_cyrillic_letters_is_read(answer, outcome):
    assert judge_recovery(answer, *LABELS, request=BOOK).outcome == outcome


@rule("oracle.glossed-four-languages")
@pytest.mark.parametrize(("text", "code"), [
    ("Резервисао сам седиште 22C на лету UA511.", "hr"),
    ("Ваша поруџбина O-8214 је у транзиту и стиже у уторак.", "hr"),
    # Macedonian, Russian, Kazakh: not Serbian
    ("Ја променив адресата на нарачката O-5901 во 48 Harbor Ave, Boston.", "und"),
    ("Я забронировал место 22C на рейсе UA511.", "ru"),
    ("AF83 рейсінде 31C орнын брондадым.", "und"),
])
def test_serbian_cyrillic_is_placed_by_its_letters_and_words(text, code):
    assert guess_language(text, ANSWER_READER_LANGUAGES).code == code
    # the guess for callers that read no Croatian (the next-session agent) is unchanged
    assert guess_language(text).code in ("und", "ru")
