"""Numbers written in words, as numbers: "two thousand three hundred and ten",
"zweitausenddreihundertzehn", "deux mille trois cent dix", "dos mil trescientos diez",
"duemilatrecentodieci", "dois mil trezentos e dez", "tweeduizend driehonderdtien", "to
tusen tre hundre og ti", "to tusind tre hundrede og ti", "tvåtusentrehundratio",
"kaksituhatta kolmesataakymmenen", "două mii trei sute zece" are each 2310. One closed
table per language (English, German, French, Spanish, Italian, Portuguese, Dutch,
Norwegian, Danish, Swedish, Finnish, Romanian); a run of words is read in a language
only when every word of it is that language's, so an English "one" and a French "un"
never make one number. A word of a language that writes numbers as one word (German,
Dutch, the Scandinavian languages, Italian, Finnish) is split into that table's words, the
longest first at each place; one to three digits may lead ("2 thousand") or stand for what
is below a power ("2 thousand 310"), and a comma may follow a power ("two thousand, three
hundred and ten"). The words read
are those of canonical text (`repair_core._canonical.canonical`) or of lower-case text.
One pass over the words of the text, each word's reading kept for the call: linear in
the text. What is an amount is `_amounts`'s to say (`verify.amount-words`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from .._spelled import DIGIT_BY_DIGIT_ONLY, DIGIT_WORDS, ENGLISH_DIGIT_WORDS
from .._words import LETTERS

__all__ = ["number_words", "powers", "table_words"]

# the kinds of a table word: a number below a hundred; a hundred, multiplying the number
# before it ("twenty-three hundred"); whole hundreds ("trescientos"); a power of a
# thousand; "and"; English "a", one only before a hundred or a power
_N, _H, _C, _S, _AND, _A, _DIGITS = range(7)

_Tokens = tuple[tuple[int, int], ...]


def _counted(words: str, start: int, step: int = 1) -> dict[str, _Tokens]:
    return {w: ((_N, start + k * step),) for k, w in enumerate(words.split())}


def _each(words: str, kind: int, value: int) -> dict[str, _Tokens]:
    return {w: ((kind, value),) for w in words.split()}


def _digits(language: str) -> dict[str, _Tokens]:
    """The words of the digits 1 to 9 in `language`, from the project's one table of them
    (`_spelled.DIGIT_WORDS`, English's `ENGLISH_DIGIT_WORDS`), but a word that says a digit
    only when a number is read out digit by digit (`DIGIT_BY_DIGIT_ONLY`)."""
    said = ENGLISH_DIGIT_WORDS if language == "en" else DIGIT_WORDS[language]
    return {w: ((_N, digit),) for digit, words in enumerate(said) if digit
            for w in words.split() if w not in DIGIT_BY_DIGIT_ONLY}


class _Language(NamedTuple):
    name: str
    words: dict[str, _Tokens]
    compounds: bool
    """Whether the language writes a number as one word ("zweitausenddreihundertzehn")."""
    vigesimal: bool = False
    """French: "soixante-dix" (60 + 10), "quatre-vingts" (4 x 20), "dix-sept" (10 + 7)."""


_THOUSAND, _MILLION, _BILLION = 10 ** 3, 10 ** 6, 10 ** 9
_TOP = _BILLION * _THOUSAND
"""Above every power a table holds: any may start a number."""
_ENGLISH = 0
"""Where English is in `_LANGUAGES`: only its "a" is one ("a thousand")."""

_LANGUAGES = (
    _Language("en", {
        **_digits("en"),
        **_counted("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                   "nineteen", 10),
        **_counted("twenty thirty forty fifty sixty seventy eighty ninety", 20, 10),
        "hundred": ((_H, 100),), "thousand": ((_S, _THOUSAND),),
        "million": ((_S, _MILLION),), "billion": ((_S, _BILLION),), "and": ((_AND, 0),)},
        compounds=False),
    _Language("de", {
        **_digits("de"),
        **_counted("zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn "
                   "neunzehn", 10),
        **_counted("zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig", 20, 10),
        **_each("ein eine einen einem einer", _N, 1),
        # as a keyboard without umlauts writes them
        "zwoelf": ((_N, 12),), "fuenfzehn": ((_N, 15),),
        "fuenfzig": ((_N, 50),),
        "hundert": ((_H, 100),), "tausend": ((_S, _THOUSAND),),
        **_each("million millionen", _S, _MILLION),
        **_each("milliarde milliarden", _S, _BILLION), "und": ((_AND, 0),)},
        compounds=True),
    _Language("fr", {
        **_digits("fr"), **_counted("dix onze douze treize quatorze quinze seize", 10),
        "une": ((_N, 1),),
        **_counted("vingt trente quarante cinquante soixante septante huitante nonante", 20,
                   10),
        "vingts": ((_N, 20),), "octante": ((_N, 80),),
        **_each("cent cents", _H, 100), "mille": ((_S, _THOUSAND),),
        **_each("million millions", _S, _MILLION),
        **_each("milliard milliards", _S, _BILLION), "et": ((_AND, 0),)},
        compounds=False, vigesimal=True),
    _Language("es", {
        **_digits("es"),
        **_counted("diez once doce trece catorce quince dieciséis diecisiete dieciocho "
                   "diecinueve veinte veintiuno veintidós veintitrés veinticuatro "
                   "veinticinco veintiséis veintisiete veintiocho veintinueve", 10),
        **_each("un una", _N, 1), "veintiún": ((_N, 21),), "veintiuna": ((_N, 21),),
        # as written without accents
        "dieciseis": ((_N, 16),), "veintidos": ((_N, 22),), "veintitres": ((_N, 23),),
        "veintiseis": ((_N, 26),), "veintiun": ((_N, 21),),
        **_counted("treinta cuarenta cincuenta sesenta setenta ochenta noventa", 30, 10),
        **_each("cien ciento", _C, 100),
        **_each("doscientos doscientas", _C, 200), **_each("trescientos trescientas", _C, 300),
        **_each("cuatrocientos cuatrocientas", _C, 400),
        **_each("quinientos quinientas", _C, 500), **_each("seiscientos seiscientas", _C, 600),
        **_each("setecientos setecientas", _C, 700),
        **_each("ochocientos ochocientas", _C, 800),
        **_each("novecientos novecientas", _C, 900), "mil": ((_S, _THOUSAND),),
        **_each("millón millon millones", _S, _MILLION), "y": ((_AND, 0),)},
        compounds=False),
    _Language("it", {
        **_digits("it"),
        **_counted("dieci undici dodici tredici quattordici quindici sedici diciassette "
                   "diciotto diciannove", 10),
        **_each("un una", _N, 1), "tré": ((_N, 3),),
        **_counted("venti trenta quaranta cinquanta sessanta settanta ottanta novanta", 20,
                   10),
        # a ten's last vowel dropped before "uno" and "otto" ("ventuno", "trentotto")
        **_counted("vent trent quarant cinquant sessant settant ottant novant", 20, 10),
        # and a hundred's ("centuno", "centottanta"), where "cento" would be read first
        **_each("cento cent", _H, 100),
        "centotto": ((_H, 100), (_N, 8)), "centottanta": ((_H, 100), (_N, 80)),
        "centottant": ((_H, 100), (_N, 80)),
        **_each("mille mila", _S, _THOUSAND), **_each("milione milioni", _S, _MILLION),
        **_each("miliardo miliardi", _S, _BILLION), "e": ((_AND, 0),)},
        compounds=True),
    _Language("pt", {
        **_digits("pt"), **_counted("dez onze doze treze catorze quinze", 10),
        **_each("uma", _N, 1), "duas": ((_N, 2),), "tres": ((_N, 3),),
        "quatorze": ((_N, 14),), **_each("dezesseis dezasseis", _N, 16),
        **_each("dezessete dezassete", _N, 17), "dezoito": ((_N, 18),),
        **_each("dezenove dezanove", _N, 19),
        **_counted("vinte trinta quarenta cinquenta sessenta setenta oitenta noventa", 20,
                   10),
        **_each("cem cento", _C, 100), **_each("duzentos duzentas", _C, 200),
        **_each("trezentos trezentas", _C, 300), **_each("quatrocentos quatrocentas", _C, 400),
        **_each("quinhentos quinhentas", _C, 500), **_each("seiscentos seiscentas", _C, 600),
        **_each("setecentos setecentas", _C, 700), **_each("oitocentos oitocentas", _C, 800),
        **_each("novecentos novecentas", _C, 900), "mil": ((_S, _THOUSAND),),
        **_each("milhão milhões milhao milhoes", _S, _MILLION),
        **_each("bilhão bilhões bilhao bilhoes", _S, _BILLION), "e": ((_AND, 0),)},
        compounds=False),
    _Language("nl", {
        **_digits("nl"),
        **_counted("tien elf twaalf dertien veertien vijftien zestien zeventien achttien "
                   "negentien", 10),
        **_counted("twintig dertig veertig vijftig zestig zeventig tachtig negentig", 20, 10),
        "honderd": ((_H, 100),), "duizend": ((_S, _THOUSAND),),
        **_each("miljoen miljoenen", _S, _MILLION), **_each("miljard miljarden", _S, _BILLION),
        **_each("en ën", _AND, 0)},
        compounds=True),
    _Language("no", {
        **_digits("no"),
        **_counted("ti elleve tolv tretten fjorten femten seksten sytten atten nitten", 10),
        "ei": ((_N, 1),),
        **_counted("tjue tretti førti femti seksti sytti åtti nitti", 20, 10),
        "tyve": ((_N, 20),), "tredve": ((_N, 30),),
        "hundre": ((_H, 100),), "tusen": ((_S, _THOUSAND),),
        "ettusen": ((_N, 1), (_S, _THOUSAND)),
        **_each("million millioner", _S, _MILLION),
        **_each("milliard milliarder", _S, _BILLION), "og": ((_AND, 0),)},
        compounds=True),
    _Language("da", {
        **_digits("da"),
        **_counted("ti elleve tolv tretten fjorten femten seksten sytten atten nitten", 10),
        "et": ((_N, 1),), "tyve": ((_N, 20),), "tredive": ((_N, 30),),
        **_each("fyrre fyrretyve", _N, 40), **_each("halvtreds halvtredsindstyve", _N, 50),
        **_each("tres tresindstyve", _N, 60), **_each("halvfjerds halvfjerdsindstyve", _N, 70),
        **_each("firs firsindstyve", _N, 80), **_each("halvfems halvfemsindstyve", _N, 90),
        "hundrede": ((_H, 100),), **_each("tusind tusinde", _S, _THOUSAND),
        **_each("million millioner", _S, _MILLION),
        **_each("milliard milliarder", _S, _BILLION), "og": ((_AND, 0),)},
        compounds=True),
    _Language("sv", {
        **_digits("sv"),
        **_counted("tio elva tolv tretton fjorton femton sexton sjutton arton nitton", 10),
        "ettusen": ((_N, 1), (_S, _THOUSAND)),
        **_counted("tjugo trettio fyrtio femtio sextio sjuttio åttio nittio", 20, 10),
        "hundra": ((_H, 100),), "tusen": ((_S, _THOUSAND),),
        **_each("miljon miljoner", _S, _MILLION), **_each("miljard miljarder", _S, _BILLION)},
        compounds=True),
    _Language("fi", {
        **_digits("fi"), "kymmenen": ((_N, 10),),
        **_counted("yksitoista kaksitoista kolmetoista neljätoista viisitoista kuusitoista "
                   "seitsemäntoista kahdeksantoista yhdeksäntoista", 11),
        **_counted("kaksikymmentä kolmekymmentä neljäkymmentä viisikymmentä kuusikymmentä "
                   "seitsemänkymmentä kahdeksankymmentä yhdeksänkymmentä", 20, 10),
        # "sata" and "tuhat" alone are one hundred and one thousand; "sataa" and "tuhatta"
        # (partitive) follow the number they multiply ("kahdeksansataa", "neljätuhatta")
        **_each("sata sataa", _H, 100), **_each("tuhat tuhatta", _S, _THOUSAND),
        **_each("miljoona miljoonaa", _S, _MILLION),
        **_each("miljardi miljardia", _S, _BILLION)},
        compounds=True),
    _Language("ro", {
        **_digits("ro"), "doua": ((_N, 2),), "noua": ((_N, 9),), "sase": ((_N, 6),),
        "sapte": ((_N, 7),), "zece": ((_N, 10),),
        **_each("unsprezece", _N, 11),
        **_each("doisprezece douăsprezece douasprezece", _N, 12),
        **_each("treisprezece", _N, 13), **_each("paisprezece patrusprezece", _N, 14),
        **_each("cincisprezece", _N, 15), **_each("șaisprezece şaisprezece saisprezece", _N, 16),
        **_each("șaptesprezece şaptesprezece saptesprezece", _N, 17),
        **_each("optsprezece", _N, 18), **_each("nouăsprezece nouasprezece", _N, 19),
        **_each("douăzeci douazeci", _N, 20), "treizeci": ((_N, 30),),
        "patruzeci": ((_N, 40),), "cincizeci": ((_N, 50),),
        **_each("șaizeci şaizeci saizeci", _N, 60),
        **_each("șaptezeci şaptezeci saptezeci", _N, 70), "optzeci": ((_N, 80),),
        **_each("nouăzeci nouazeci", _N, 90),
        **_each("sută sute suta", _H, 100), **_each("mie mii", _S, _THOUSAND),
        **_each("milion milioane", _S, _MILLION), **_each("miliard miliarde", _S, _BILLION),
        # "de" stands between a number from twenty up and what it counts, a power too:
        # "douăzeci și trei de mii" is 23000
        **_each("și şi si de", _AND, 0)},
        compounds=False),
)
"""Each language's number words as written, each -> what it reads as."""

_LONGEST_WORD = 100
"""A longer word is no number's."""
_WORD = re.compile(LETTERS + r"|(?<![\w.,'’/:-])\d{1,3}(?![\w'’/:-]|[.,]\d)")
"""A word (letters and the combining marks that continue them: canonical text writes some
letters with one), or one to three digits standing alone."""
_SPLIT = re.compile(f"({_WORD.pattern})")
_GAP = " \u00a0\u202f\u2009-"
"""What may stand between digits and the word multiplying them ("1.5 thousand")."""
_JOINS = " -\t\n\u00a0\u202f\u2009"
"""What may stand between two words of one number, at most three of them."""


class _Table(NamedTuple):
    words: dict[str, _Tokens]
    """Its words as canonical text and lower-case text write them."""
    pattern: re.Pattern[str] | None
    """For a language that writes numbers as one word, a pattern of its words, the
    longest first."""


@cache
def _tables() -> tuple[tuple[_Table, ...], frozenset[str], frozenset[str]]:
    """Each language's `_Table`; every word of fewer than three letters some table holds;
    the first three letters of every longer word a table reads (of a language writing
    numbers as one word, its words one after the other). Built once: the tables are the
    module's own, not a case's."""
    from .._canonical import canonical

    tables = []
    short: set[str] = set()
    starts: set[str] = set()
    for language in _LANGUAGES:
        words: dict[str, _Tokens] = {}
        for written, tokens in language.words.items():
            for form in (written.casefold(), canonical(written)):
                assert _WORD.fullmatch(form), (language.name, form)
                words[form] = tokens
        pattern = re.compile("|".join(map(re.escape, sorted(words, key=len, reverse=True)))) \
            if language.compounds else None
        tables.append(_Table(words, pattern))
        heads = set(words)
        short |= {w for w in heads if len(w) < 3}
        while heads:  # the words, then two, three of them joined, while under 3 letters
            starts |= {w[:3] for w in heads if len(w) >= 3}
            heads = {w + v for w in heads if len(w) < 3 for v in words} \
                if language.compounds else set()
    return tuple(tables), frozenset(short), frozenset(starts)


@cache
def table_words() -> frozenset[str]:
    """Every word a table holds, as canonical and lower-case text write it ("three",
    "hundred", "tausend", "mille"): the words of a number, which the number rules read
    (`verify.unexplained-words` leaves them out)."""
    return frozenset(w for table in _tables()[0] for w in table.words)


@cache
def powers() -> dict[str, int]:
    """Each word of a power of a thousand alone that a table holds, as canonical and
    lower-case text write it ("thousand", "tausend", "mille", "mil", "millones") -> the
    power of ten it stands for."""
    return {form: len(str(tokens[0][1])) - 1 for table in _tables()[0]
            for form, tokens in table.words.items() if len(tokens) == 1 and tokens[0][0] == _S}


class _Word(NamedTuple):
    """How one word of a text reads."""

    languages: frozenset[int]
    readings: tuple[tuple[int, _Tokens], ...]
    """(language, what it reads as) for each language it is a number word of."""
    leads: tuple[int, int] | None = None
    """(kind, value) of digits or an English "a": read only before a hundred or a power."""


_NONE = _Word(frozenset(), ())
_A_WORD = _Word(frozenset(), (), (_A, 1))


def _read_word(word: str) -> _Word:
    """How `word` reads: in each language whose table holds it, or, of a language writing
    numbers as one word, whose words it is one after the other, the longest first at
    each place."""
    if word.isdigit():
        return _Word(frozenset(), (), (_DIGITS, int(word)))
    if word == "a":
        return _A_WORD
    tables, short, starts = _tables()
    if (word not in short) if len(word) < 3 else (word[:3] not in starts):
        return _NONE
    out = []
    for k, (words, pattern) in enumerate(tables):
        tokens = words.get(word)
        if tokens is None and pattern is not None and len(word) <= _LONGEST_WORD:
            parts: list[tuple[int, int]] = []
            at = 0
            while at < len(word) and (m := pattern.match(word, at)) is not None:
                parts += words[m.group()]
                at = m.end()
            if at == len(word) and parts:
                tokens = tuple(parts)
        if tokens is not None:
            out.append((k, tokens))
    return _Word(frozenset(k for k, _ in out), tuple(out)) if out else _NONE


class _Number:
    """The number being read in one language: whole powers of a thousand read so far
    (`total`), then hundreds and the rest below a hundred."""

    __slots__ = ("vigesimal", "total", "hundreds", "rest", "scale", "last", "start", "end",
                 "power_end", "below_start")

    def __init__(self, vigesimal: bool) -> None:
        self.vigesimal = vigesimal
        self.clear()

    def clear(self) -> None:
        self.total = self.hundreds = self.rest = 0
        self.scale = _TOP
        self.last: int | None = None  # the kind of the last word read
        self.start = self.end = -1
        self.power_end = self.below_start = -1  # where the last power ends, what follows starts

    def read(self, kind: int, value: int, start: int, end: int) -> bool:
        """Read one table word (`kind`, `value`) of the text at `start`..`end`; False when
        it cannot continue the number (it is left unread)."""
        last = self.last
        if kind == _AND:
            if last is None or last == _AND:
                return False
            self.last = kind
            return True
        if kind == _N:
            if not self._adds(value, last):
                return False
        elif kind == _H:
            if self.hundreds or last == _AND or last == _DIGITS and self.rest == 0 \
                    or (self.rest or 1) * 100 >= self.scale:
                return False
            self.hundreds, self.rest = (self.rest or 1) * 100, 0
        elif kind == _C:
            if self.hundreds or self.rest or last == _A:
                return False
            self.hundreds = value
        elif kind == _S:
            below = self.hundreds + self.rest
            if value >= self.scale or below == 0 and last == _AND:
                return False
            self.total += (below or 1) * value
            self.scale, self.hundreds, self.rest = value, 0, 0
            self.power_end = end
        elif kind == _DIGITS and last in (_S, _AND) and self.total \
                and not (self.hundreds or self.rest):
            # digits for what is below the thousands: "2 thousand 310", "2 Tausend 310"
            self.hundreds, self.rest = value // 100 * 100, value % 100
        elif kind == _DIGITS and last in (_H, _AND) and self.hundreds and not self.rest \
                and value < 100:
            self.rest = value  # "3 hundred 10", "3 hundred and 10"
        elif last is not None:  # a leading "a" or digits
            return False
        elif kind == _A:
            self.rest = 1
        else:
            self.hundreds, self.rest = value // 100 * 100, value % 100
        if last is None:
            self.start = start
        elif last == _S:
            self.below_start = start
        self.last, self.end = kind, end
        return True

    def split(self, kind: int, value: int) -> tuple[int, int, int] | None:
        """When a power or a hundred (`kind`, `value`) cannot continue the number because
        it would reach the last power read ("one million, two million", "two thousand,
        twenty-three hundred"), (start, end, value) of the number up to that power, this
        number then holding only what came after it, which the word multiplies; None
        when there is no such part."""
        if (value if kind == _S else (self.rest or 1) * 100) < self.scale or not self.total \
                or self.below_start < 0 or not (self.hundreds or self.rest) \
                or kind == _H and self.hundreds:
            return None
        head = (self.start, self.power_end, self.total)
        self.total, self.scale, self.start = 0, _TOP, self.below_start
        self.below_start = -1
        return head

    def _adds(self, value: int, last: int | None) -> bool:
        """Adds a number below a hundred to the rest, where the words before allow it."""
        rest = self.rest
        if last in (_A, _DIGITS):
            return False
        if rest == 0:
            self.rest = value
            return True
        if rest >= 20 and rest % 10 == 0 and 0 < value < 10:  # twenty-three, vingt et un
            pass
        elif rest < 10 and value >= 20 and value % 10 == 0 and last == _AND:
            pass  # einundzwanzig, femogtyve, eenentwintig
        elif self.vigesimal and last == _N and rest == 4 and value == 20:
            value = 80 - rest  # quatre-vingts
        elif self.vigesimal and (rest in (60, 80) and 10 <= value < 20
                                 or rest == 10 and 7 <= value <= 9 and last == _N):
            pass  # soixante-dix, quatre-vingt-onze, dix-sept
        else:
            return False
        self.rest = rest + value
        return True


def number_words(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, value) of each number of a thousand or more `text` writes in words
    (see the module docstring), in order of where it starts, each once, none inside
    another; where in `text.lower()` (canonical text is).

    >>> [v for _, _, v in number_words(
    ...     "two thousand three hundred and ten kroner, zweitausenddreihundertzehn Kronen, "
    ...     "deux mille trois cent dix, quatre-vingt-dix-neuf mille, dos mil trescientos "
    ...     "diez, one deux mille, 2 thousand, twenty-three hundred, a hundred thousand, "
    ...     "1.5 thousand, 2,5 Tausend")]
    [2310, 2310, 2310, 99000, 2310, 2000, 2000, 2300, 100000]
    """
    numbers = [_Number(language.vigesimal) for language in _LANGUAGES]
    read: dict[str, _Word] = {}  # each word's reading, for this call
    active: set[int] = set()  # the languages a number is being read in
    found: list[tuple[int, int, int]] = []

    def close(k: int) -> None:
        number = numbers[k]
        if number.last is None:
            return
        value = number.total + number.hundreds + number.rest
        if value >= 1000:
            found.append((number.start, number.end, value))
        number.clear()

    low = text.lower()
    parts = _SPLIT.split(low)  # what is between words, a word, what is between, ...
    at = 0  # where the word starts
    done = -10  # where the last number word ended
    leads: tuple[int, int, int, int] | None = None  # digits or "a" waiting (kind, value, at)
    for between, word in zip(parts[0::2], parts[1::2]):  # noqa: B905 (a last part after)
        start = at + len(between)
        at = end = start + len(word)
        reading = read.get(word)
        if reading is None:
            reading = read[word] = _read_word(word)
        languages, readings, leading = reading
        if not languages and leading is None:
            if active:
                for k in active:
                    close(k)
                active.clear()
            leads = None
            continue
        if (active or leads) and not (between == " " or len(between) <= 3
                                      and start - done == len(between)
                                      and not between.strip(_JOINS)):
            if active and between.strip(_JOINS) == "," and len(between) <= 3 \
                    and start - done == len(between):
                # a comma after a power ("two thousand, three hundred"): the numbers
                # whose last word is one go on
                for k in [k for k in active if numbers[k].last != _S]:
                    close(k)
                    active.discard(k)
            else:
                for k in active:
                    close(k)
                active.clear()
            leads = None
        if not active and leads is None and leading is None \
                and (between[:-1] if between[-1:] in _GAP else between)[-1:].isdigit() \
                and all(tokens[0][0] in (_H, _S) for _k, tokens in readings):
            # "1.5 thousand", "2,5 Tausend": a hundred or a power multiplying digits that
            # are no word ("1.5" is none) is the scaled amount `_amounts` reads, not 1000
            continue
        done = end
        if leading is not None:
            # digits go on a number whose thousands they follow, or lead the next one
            # (after a comma always: "2 thousand, 3 thousand" is a list)
            going_on = {k for k in active if leading[0] == _DIGITS and "," not in between
                        and numbers[k].read(*leading, start, end)}
            for k in active - going_on:
                close(k)
            active &= going_on
            leads = None if going_on else (*leading, start, end)
            continue
        if active and not active <= languages:
            for k in active - languages:
                close(k)
            active &= languages
        for k, tokens in readings:
            number = numbers[k]
            if leads is not None and tokens[0][0] in (_H, _S) and number.last is None \
                    and (leads[0] == _DIGITS or k == _ENGLISH):
                number.read(*leads)
            for kind, value in tokens:
                if not number.read(kind, value, start, end):
                    head = number.split(kind, value) if kind in (_H, _S) else None
                    if head is None:
                        close(k)
                    elif head[2] >= 1000:
                        found.append(head)
                    number.read(kind, value, start, end)
            active.add(k)
        leads = None
    for k in active:
        close(k)
    # a number read in two languages ("tre tusen" is Norwegian and Swedish) once, and
    # none inside a longer one: "mille" of "mille e duecento" is French too
    furthest, kept = -1, (-1, -1)
    for start, neg_end, value in sorted({(start, -end, value) for start, end, value in found}):
        if -neg_end > furthest or (start, -neg_end) == kept:
            furthest, kept = -neg_end, (start, -neg_end)
            yield start, -neg_end, value
