"""One value spelled other ways, read as its plain spelling before matching: HTML character
references decoded, an e-mail address's sub-address tag dropped, a URL's numeric IPv4 host
in dotted decimal, an IPv6 address in its compressed form (an IPv4-mapped one as the IPv4
address), the letters O, I and l at an IBAN's digit places as digits where that makes its
checksum hold, a run of CJK digit numerals or of Pinyin digit words as ASCII digits, and
letters and digits
spelled out to be read aloud as the characters they name, in single letters or in the
ICAO spelling alphabet ("alfa", "bravo", ...). Each is a pass over the text
with patterns of bounded length (no choice between two readings of a character), so
linear in the text. A low layer: `_canonical` builds on it.
"""

from __future__ import annotations

import html
import ipaddress
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

__all__ = ["cjk_digits", "html_decoded", "iban_digits", "iban_formats", "ipv6_addresses",
           "numeric_hosts", "ocr_digits", "pinyin_digits", "spelling_alphabet",
           "spoken_characters", "untagged_mail"]


def html_decoded(text: str) -> str:
    """`text` with its HTML character references and entities decoded (`html.unescape`):
    a saved HTML draft writes an address as "&#114;&#101;…&#64;…".

    >>> html_decoded("mailto:&#114;efunds&#64;hmrc&#45;taxrebate&#46;uk &pound;5 AT&T")
    'mailto:refunds@hmrc-taxrebate.uk £5 AT&T'
    """
    return html.unescape(text) if "&" in text else text


_TAG = re.compile(r"(?<=[\w.-])\+[\w.-]{1,64}(?=@[\w-])")
"""An e-mail address's sub-address: "+" and a tag of up to 64 characters before its "@"."""


def untagged_mail(text: str) -> str:
    """`text` with the "+tag" of each e-mail address dropped: `name+tag@host` is delivered
    to `name@host`.

    >>> untagged_mail("forward to accounts+remit@outlook.com, not c++ or a+b = c")
    'forward to accounts@outlook.com, not c++ or a+b = c'
    """
    return _TAG.sub("", text) if "+" in text and "@" in text else text


_HOST_PART = r"(?:0x[0-9a-f]{1,8}|[0-9]{1,10})"
_NUMERIC_HOST = re.compile(rf"(?<=//){_HOST_PART}(?:\.{_HOST_PART}){{0,3}}(?=[/:?#\s]|\Z)",
                           re.IGNORECASE)
"""A URL's host written as one to four numbers (decimal, octal with a leading 0, or hex)."""


def _host_part(part: str) -> int | None:
    low = part.lower()
    if low.startswith("0x"):
        return int(low[2:], 16)
    if len(part) > 1 and part.startswith("0"):
        return int(part, 8) if set(part) <= set("01234567") else None
    return int(part)


def _dotted(m: re.Match[str]) -> str:
    parts = [_host_part(p) for p in m.group(0).split(".")]
    if any(p is None for p in parts):
        return m.group(0)
    *head, last = [p for p in parts if p is not None]
    # as inet_aton reads it: the last number fills the bytes the others leave
    if any(p > 255 for p in head) or last >= 1 << (8 * (4 - len(head))):
        return m.group(0)
    value = sum(p << (8 * (3 - k)) for k, p in enumerate(head)) + last
    return ".".join(str((value >> shift) & 255) for shift in (24, 16, 8, 0))


def numeric_hosts(text: str) -> str:
    """`text` with each URL host written as a number ("http://3119138835/", octal
    "0271.0352.0110.023", hex "0xb9ea4813") in dotted decimal, as a browser reads it.

    >>> numeric_hosts("http://3119138835/x http://0xB9.0xEA.72.19/ http://1.2.3.4/ //999999999999/")
    'http://185.234.72.19/x http://185.234.72.19/ http://1.2.3.4/ //999999999999/'
    """
    return _NUMERIC_HOST.sub(_dotted, text) if "//" in text else text


IPV6 = re.compile(r"(?<![\w:.\[])(\[?)((?:[0-9A-Fa-f]{0,4}:){2,7}"
                  r"(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9A-Fa-f]{1,4})?)(\]?)(?![\w:])")
"""What may be an IPv6 address, in brackets as a URL writes it or bare: two to seven groups
of up to four hex digits each ended by a colon (each repetition ends with the colon no
group holds, so there is one way to read it), then a last group or a dotted IPv4 tail.
`ipaddress` says whether it is one."""


def ipv6_address(written: str) -> str | None:
    """The IPv6 address `written` (without brackets) in its one textual form: compressed
    and in lower case (RFC 5952), or, for an IPv4-mapped address (`::ffff:a.b.c.d`, or
    its last 32 bits in hex), the IPv4 address in dotted decimal; None when it is none.
    `ipaddress` reads it, unless it is written in that form already.

    >>> ipv6_address("2A05:D014:01F2:C300:0000:0000:0000:0007"), ipv6_address("::ffff:b9dc:652f")
    ('2a05:d014:1f2:c300::7', '185.220.101.47')
    >>> ipv6_address("10:30:45") is None, ipv6_address("1:0:0:2::3"), ipv6_address("fe80::1")
    (True, '1:0:0:2::3', 'fe80::1')
    """
    if _compressed_already(written):
        return written
    if "::" not in written and written.count(":") != 7:
        return None  # a time, a ratio: eight groups, or fewer around "::"
    return _read_ipv6(written)


def ipv6_reader() -> Callable[[str], str | None]:
    """`ipv6_address` with a memo for one call over a text: a log writes one address many
    times, and `ipaddress` reads it slowly. Not process-wide: a memo outlives no call, so
    no case's addresses stay in the process after it."""
    memo: dict[str, str | None] = {}

    def read(written: str) -> str | None:
        if written not in memo:
            memo[written] = ipv6_address(written)
        return memo[written]

    return read


def _compressed_already(written: str) -> bool:
    """Whether `written` is an IPv6 address in its compressed form for sure: lower-case
    hex groups without leading zeros, none of them 0, with one "::" standing for two or
    more zero groups (so at most six colons), not IPv4-mapped. Most addresses are written
    so; they need not be read."""
    return written.count(":") <= 6 and "ffff" not in written \
        and _COMPRESSED.fullmatch(written) is not None


_GROUP = "[1-9a-f][0-9a-f]{0,3}"
_COMPRESSED = re.compile(f"(?:{_GROUP}(?::{_GROUP})*)?::(?:{_GROUP}(?::{_GROUP})*)?")
"""Groups without a leading zero, in lower case, around one "::" (each repetition starts
with the colon no group holds)."""


def _read_ipv6(written: str) -> str | None:
    try:
        value = int(ipaddress.IPv6Address(written))
    except ValueError:
        return None
    if value >> 32 == 0xFFFF:  # ::ffff:a.b.c.d
        return str(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    groups = [f"{(value >> shift) & 0xFFFF:x}" for shift in range(112, -16, -16)]
    # RFC 5952: the longest run of two or more zero groups (the first of equal ones) is "::"
    best_at, best_len, at = -1, 1, 0
    while at < 8:
        end = at
        while end < 8 and groups[end] == "0":
            end += 1
        if end - at > best_len:
            best_at, best_len = at, end - at
        at = end + 1
    if best_at < 0:
        return ":".join(groups)
    return ":".join(groups[:best_at]) + "::" + ":".join(groups[best_at + best_len:])


def _ipv6(m: re.Match[str], address: Callable[[str], str | None]) -> str:
    opened, written, closed = m.groups()
    read = address(written)
    if read is None or read == written:
        return m.group(0)
    if "." in read and opened and closed:
        return read  # a URL's host "[::ffff:a.b.c.d]" is the IPv4 host
    return opened + read + closed


def ipv6_addresses(text: str) -> str:
    """`text` with each IPv6 address written in its one form (`ipv6_address`): expanded
    with every zero group spelled out, with leading zeros, in capitals or compressed, an
    address is the same address; an IPv4-mapped one, in a URL's brackets or bare, is the
    IPv4 address.

    >>> ipv6_addresses("http://[2001:DB8:0:0:0:0:0:1]:8080/ dns ::ffff:192.0.2.7, "
    ...                "http://[::ffff:c000:207]/ at 10:30:45")
    'http://[2001:db8::1]:8080/ dns 192.0.2.7, http://192.0.2.7/ at 10:30:45'
    """
    if "::" not in text and text.count(":") < 7:
        return text
    address = ipv6_reader()
    return IPV6.sub(lambda m: _ipv6(m, address), text)


_IBAN_START = re.compile(r"(?<![\w.])[A-Za-z]{2}[0-9OoIil]{2}")
"""Where an IBAN may start: a country code and two check digits, some of which may be
written as the letters O, o, I, i or l."""
_AS_DIGIT = {"O": "0", "o": "0", "I": "1", "i": "1", "l": "1"}
"""The letters read as digits at an IBAN's digit places (those `ocr_digits` reads, and
"i", which an "I" is after case-folding)."""
_IBAN_GAP = " \t-"
"""What may separate an IBAN's groups (one character at a time)."""


@cache
def iban_formats() -> dict[str, str]:
    """Country code -> what each place of its IBANs holds, one character a place: "a" a
    letter, "n" a digit, "c" either (the country code is "aa", the check digits "nn"), from
    python-stdnum's IBAN registry.

    >>> iban_formats()["NL"]
    'aannaaaannnnnnnnnn'
    """
    from importlib.resources import files

    out: dict[str, str] = {}
    for line in files("stdnum").joinpath("iban.dat").read_text(encoding="utf-8").splitlines():
        m = re.match(r'([A-Z]{2}) .*bban="([^"]*)"', line)
        if m:
            out[m.group(1)] = "aann" + "".join(kind * int(size) for size, kind in
                                               re.findall(r"(\d+)!([anc])", m.group(2)))
    return out


def iban_digits(text: str) -> str:
    """`text` with the letters O, o, I, i and l at the digit places of an IBAN (its check
    digits and the places its country's format gives digits) read as 0 and 1 where the
    IBAN they make then passes its checksum: a camera or a hand writes a round zero as
    the letter ("NL91 ABNA O417 1643 OO"). One whose checksum fails, or with another letter
    at a digit place, stays as it is written. From each place an IBAN can start, at most
    one IBAN's groups are read, by a pattern bounded in length.

    >>> iban_digits("pay NL91 ABNA O417 1643 OO, not NL91 ABNA O417 1643 O1 or DEll")
    'pay NL91 ABNA 0417 1643 00, not NL91 ABNA O417 1643 O1 or DEll'
    """
    if not any(c in text for c in "OoIil"):
        return text
    formats = iban_formats()
    out: list[str] = []
    done = 0
    seen: dict[str, str | None] = {}  # a text may say one IBAN many times
    for m in _IBAN_START.finditer(text):
        if m.start() < done:
            continue
        shape = formats.get(m.group(0)[:2].upper())
        if shape is None:
            continue
        # as many characters as the country's IBAN has letters and digits, a separator
        # between each two, and the one after them
        window = text[m.start():m.start() + 2 * len(shape) + 1]
        if window in seen:
            read = seen[window]
        else:
            read = seen[window] = _iban_read(window, shape)
        if read is not None:
            out += [text[done:m.start()], read]
            done = m.start() + len(read)
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


def _iban_read(window: str, shape: str) -> str | None:
    """The IBAN of the country of `shape` that `window` starts with, its letters at digit
    places read as digits, as written but for those; None when it starts with none, no
    letter is read, or the checksum then fails."""
    # a quick look first: the first letters and digits, as many as the IBAN has
    compact = window.translate(_NO_GAPS)[:len(shape)]
    if _iban_patterns()[shape].fullmatch(compact) is None:
        return None  # too short, or another letter at a digit place
    span = _IBAN_SPAN.match(window)
    if span is None:
        return None
    written = span.group(0)
    # the IBAN ends at a group's end: its length of letters and digits, no more
    length, cut = 0, 0
    for group in _IBAN_GAPS.split(written):
        if length >= len(shape):
            break
        length += len(group)
        cut += len(group) + 1
    if length != len(shape):
        return None
    # each stretch of digit places read through the table, the others as written
    read = "".join(compact[a:b].translate(_AS_DIGITS) if digits else compact[a:b]
                   for a, b, digits in _stretches_of(shape))
    if read == compact or not _iban_valid(read.upper()):
        return None
    piece, at = [], 0
    for c in written[:cut - 1]:
        if c in _IBAN_GAP:
            piece.append(c)
        else:
            piece.append(read[at])
            at += 1
    return "".join(piece)


_IBAN_SPAN = re.compile(r"[A-Za-z0-9]{1,34}(?![A-Za-z0-9])(?:[ \t-][A-Za-z0-9]{1,34}(?![A-Za-z0-9])){0,16}")
"""Up to seventeen groups of letters and digits, each split from the next by one blank or
hyphen (each repetition starts with the separator no group holds)."""
_IBAN_GAPS = re.compile(r"[ \t-]")
_NO_GAPS = str.maketrans("", "", _IBAN_GAP)


@cache
def _iban_patterns() -> dict[str, re.Pattern[str]]:
    """Each country's IBAN shape (`iban_formats`) -> a pattern of what it may be written as
    before the letters are read: a letter or digit where it holds either, a letter where
    it holds one, and a digit or one of the letters read as one where it holds a digit."""
    place = {"a": "[A-Za-z]", "c": "[A-Za-z0-9]", "n": "[0-9OoIil]"}
    return {shape: re.compile("".join(place[kind] for kind in shape))
            for shape in set(iban_formats().values())}
_AS_DIGITS = str.maketrans(_AS_DIGIT)


@cache
def _stretches_of(shape: str) -> tuple[tuple[int, int, bool], ...]:
    """(start, end, whether they are digit places) of each run of places of one kind."""
    out: list[tuple[int, int, bool]] = []
    for k, kind in enumerate(shape):
        if out and out[-1][2] == (kind == "n"):
            out[-1] = (out[-1][0], k + 1, out[-1][2])
        else:
            out.append((k, k + 1, kind == "n"))
    return tuple(out)
_MOD97 = str.maketrans({chr(c): str(c - 55) for c in range(ord("A"), ord("Z") + 1)})


def _iban_valid(compact: str) -> bool:
    """Whether `compact` (upper case, each place of the kind its country's shape gives) is
    a valid IBAN: the mod-97 checksum (ISO 7064) is checked here before python-stdnum,
    which checks the country's own rules too, is asked."""
    if int((compact[4:] + compact[:4]).translate(_MOD97)) % 97 != 1:
        return False
    return _stdnum_valid(compact)


def _stdnum_valid(compact: str) -> bool:
    """python-stdnum's word on an IBAN (looking its country up costs some 0.1 ms; an IBAN
    written again in one text is asked once, by `iban_digits`' memo of its windows)."""
    from stdnum import iban

    return bool(iban.is_valid(compact))


_CJK_DIGITS = str.maketrans("〇零一二三四五六七八九", "00123456789")
_CJK_RUN = re.compile("[〇零一二三四五六七八九]{4,}")
"""Four or more CJK digit numerals in a row, with no 十, 百, 千 or 万 among them: a number
read digit by digit (an account, a phone), never a count ("二十七" is 27, "八万" 80,000)."""


def cjk_digits(text: str) -> str:
    """`text` with each run of four or more CJK digit numerals as ASCII digits.

    >>> cjk_digits("普通 七二一九八三〇 (二十七日まで), 一月")
    '普通 7219830 (二十七日まで), 一月'
    """
    if text.isascii():
        return text
    return _CJK_RUN.sub(lambda m: m.group(0).translate(_CJK_DIGITS), text)


_PINYIN_DIGITS = {"ling": "0", "yi": "1", "yao": "1", "er": "2", "liang": "2", "san": "3",
                  "si": "4", "wu": "5", "liu": "6", "qi": "7", "ba": "8", "jiu": "9"}
"""The Pinyin words of the ten digits ("yao" is one and "liang" two as a phone number or a
count is said)."""
_TONE_MARKS = ("\u0304", "\u0301", "\u030c", "\u0306", "\u0300")
"""The marks of the four tones (macron, acute, caron, grave) and the breve, which the
confusables read a caron as ("ǔ" is "ŭ")."""


def _toned(word: str) -> set[str]:
    """`word` as written without a tone and with one tone mark on any of its vowels."""
    out = {word}
    for i, c in enumerate(word):
        if c in "aeiou":
            out.update(unicodedata.normalize("NFC", word[:i] + c + mark + word[i + 1:])
                       for mark in _TONE_MARKS)
    return out


_PINYIN_READ = {toned: digit for word, digit in _PINYIN_DIGITS.items()
                for toned in _toned(word)}
_LETTER = r"[^\W\d_]"
_PINYIN_WORD = ("(?:" + "|".join(sorted(map(re.escape, _PINYIN_READ), key=len, reverse=True))
                + f")(?!{_LETTER})")
_PINYIN_RUN = re.compile(f"{_PINYIN_WORD}(?:[\\s,;:.-]{{1,4}}{_PINYIN_WORD}){{3,}}")
"""Four or more Pinyin digit words in a row, separated by one to four blanks or
punctuation marks: a number read digit by digit. Each word ends before a character that
is no letter, so a word is read one way only, and a separator is bounded. It starts with
the words themselves, so the search skips to their first letters (a look-behind first
would try every place); that the first word is a whole word is checked after."""
_LETTERS = re.compile(f"{_LETTER}+")
_IS_LETTER = re.compile(_LETTER)


def pinyin_digits(text: str) -> str:
    """`text` (lower case) with each run of four or more Pinyin digit words, toneless or
    with tone marks, as ASCII digits: a card or phone number written for a reader who has
    no Chinese characters to type.

    >>> pinyin_digits("xin ka: liu er yi qi, ling ling. dian hua: yāo sān bā liù hao, "
    ...               "er san si; xyi er san si wu")
    'xin ka: 621700. dian hua: 1386 hao, er san si; xyi 2345'
    """
    out: list[str] = []
    done = pos = 0
    while (m := _PINYIN_RUN.search(text, pos)) is not None:
        start = m.start()
        if start and _IS_LETTER.match(text, start - 1):
            # the run's first word ends a longer word ("xyi"): look again after it
            pos = _LETTERS.match(text, start).end()  # type: ignore[union-attr]
            continue
        out.append(text[done:start])
        out.append("".join(_PINYIN_READ[w] for w in _LETTERS.findall(m.group(0))))
        done = pos = m.end()
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


_OCR_LETTERS = str.maketrans("OolI", "0011")
"""Letters a camera or a hand writes for a digit: UTS #39 gives "0" the prototype "O" and
"1", "I" the prototype "l"; a lower-case "o" is read as 0 too (a round zero)."""
_OCR_RUN = re.compile(r"(?<![^\W_])[0-9OolI]+(?:[ .-][0-9OolI]+)*(?![^\W_])")
"""Groups of digits and those letters, each split from the next by one blank, dot or
hyphen, standing alone (no other letter or digit either side). Each group is a run of
one class and each repetition starts with a separator no group holds, so a character is
read one way only."""
_MIN_OCR = 7
"""The fewest characters a run of groups must have to be read as a number (a phone or
account number has at least seven digits)."""


def ocr_digits(text: str) -> str:
    """`text` with the letters O, o, l and I read as the digits 0 and 1 inside each run of
    two or more groups that holds a digit in every group, at least seven characters, and
    more digits than such letters: a phone number read off a photo ("Ol6l 496 O732") is
    the number. A group without a digit (a word, "10 l" of water) ends the run; ordinary
    words are never changed, nor an id written as one group ("O1234567", "I2024001").

    >>> ocr_digits("LLOYDS FRAUD - Ol6l 496 O732 - l0l, IO 2O24, 10 l 20 l, O1234567")
    'LLOYDS FRAUD - 0161 496 0732 - l0l, IO 2O24, 10 l 20 l, O1234567'
    """
    # a run is changed only where a group holds a digit and one of the letters, so one
    # next to the other: only the stretches of the characters a run is made of around
    # such a pair are searched (the run's search alone tries every place of the text)
    out: list[str] = []
    done = end = 0
    for pair in _OCR_PAIR.finditer(text):
        if pair.start() < end:  # in the stretch just read
            continue
        start = pair.start()
        before = _OCR_OTHER.search(text[end:start][::-1])
        start = end if before is None else start - before.start()
        after = _OCR_OTHER.search(text, pair.end())
        end = len(text) if after is None else after.start()
        # up to the character after the stretch, which the run's look-ahead reads
        for m in _OCR_RUN.finditer(text, start, end + 1):
            if m.end() - m.start() < _MIN_OCR:
                continue  # no stretch of it is long enough to be read: left as it is
            out.append(text[done:m.start()])
            out.append(_ocr_run(m))
            done = m.end()
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


_OCR_PAIR = re.compile(r"[0-9](?:[OolI]|(?<=[OolI][0-9]))")
"""A digit with one of the letters read as digits after it or before it (found from the
digit: three times faster than from either, "o" and "l" being common letters)."""
_OCR_OTHER = re.compile(r"[^0-9OolI .-]")
"""A character no run holds: a run of `_OCR_RUN` lies between two of them."""


_OCR_SEP = re.compile(r"([ .-])")
_ASCII_DIGIT = re.compile(r"[0-9]")


def _ocr_run(m: re.Match[str]) -> str:
    """One run of `ocr_digits`, each stretch of groups that all hold a digit read apart."""
    run = m.group(0)
    out: list[str] = []
    stretch: list[str] = []  # the groups of the current stretch, with their separators

    def flush() -> None:
        text = "".join(stretch)
        # too short to hold _MIN_OCR digits and letters (the common case), or no letter
        # to read: settled before the digits and groups are counted
        if len(text) >= _MIN_OCR and (letters := sum(map(text.count, "OolI"))):
            # a run holds only ASCII digits, the four letters and separators: counted in C
            digits = sum(map(text.count, "0123456789"))
            groups = sum(g not in (" ", ".", "-") for g in stretch)
            if digits > letters and digits + letters >= _MIN_OCR and groups > 1:
                text = text.translate(_OCR_LETTERS)
        out.append(text)
        stretch.clear()

    parts = _OCR_SEP.split(run)  # group, separator, group, ..., group
    for i in range(0, len(parts), 2):
        group = parts[i]
        if _ASCII_DIGIT.search(group):
            stretch.append(group)
        else:
            flush()
            out.append(group)
        if i + 1 < len(parts):
            (stretch if stretch else out).append(parts[i + 1])
    if stretch and stretch[-1] in (" ", ".", "-"):
        last = stretch.pop()
        flush()
        out.append(last)
    else:
        flush()
    return "".join(out)


_DIGIT_WORDS = {"zero": "0", "nought": "0", "one": "1", "two": "2", "three": "3",
                "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
                "nine": "9"}
_TIMES = {"double": 2, "triple": 3}
_WORD = re.compile(r"[a-z]+")
_BETWEEN = re.compile(r"[\s,;:.-]*")
_MIN_SPOKEN = 8
"""The fewest characters a spelled-out run names to be read as one value (an IBAN, an
account or phone number), with at least `_MIN_SPOKEN_DIGITS` digits among them."""
_MIN_SPOKEN_DIGITS = 6


_NAMING = ("(?<![a-z])(?:" + "|".join([*_DIGIT_WORDS, *_TIMES]) + "|[a-z])(?![a-z])")
_SPOKEN_SPAN = re.compile(f"{_NAMING}(?:{_BETWEEN.pattern}{_NAMING}){{3,}}")
"""At least four words in a row that a spelled-out run is made of (single letters, digit
words, "double", "triple"), separated only by blanks and punctuation, as many as follow:
a run of fewer names at most 4 characters, and only such a span can hold a run."""


def spoken_characters(text: str) -> str:
    """`text` (lower case) with each run of single letters and digit words, "double" or
    "triple" before one of them, separated only by blanks and punctuation, written as
    the characters it names when it names at least 8 with 6 digits: an IBAN read over the
    phone.

    >>> spoken_characters("to read aloud: i, e, nine three; b, o, f, i; nine, triple "
    ...                   "three, eight, one. thanks")
    'to read aloud: ie93bofi933381. thanks'
    """
    if len(text) >= _CHAINS_MIN_CHARS:
        regions: Iterable[tuple[int, int]] = _stretches(text, _chains_with_digit_words)
    elif any(w in text for w in _DIGIT_WORDS):
        regions = [(0, len(text))]
    else:
        return text
    # each span is read on its own: the words around it end any run, so the whole text
    # read word by word gives the same (and a long text has few such spans)
    out: list[str] = []
    done = 0
    for lo, hi in regions:
        for m in _SPOKEN_SPAN.finditer(text, lo, hi):
            out.append(text[done:m.start()])
            out.append(_spoken_run(m.group(0)))
            done = m.end()
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


_CHAINS_MIN_CHARS = 4096
"""A text of this many characters has its spans looked for only where
`_chains_with_digit_words` finds room for a run: a chunk of a case's texts joined is a
megabyte or more, where the span search alone tries every place (20 ns a character)."""
_WINDOW_CHARS = 1 << 20
"""About how many characters `_chains_with_digit_words` reads at a time (its arrays take
about 20 bytes a character)."""
_UNSPANNED = re.compile(r"[^a-z\s,;:.-]")
"""A character no span holds: neither a letter of a word nor what separates two."""


def _stretches(text: str, chains: Callable[[str], list[tuple[int, int]]]
               ) -> Iterator[tuple[int, int]]:
    """The parts of `text` (start, end) that may hold a span with a run, in order: those
    `chains` (`_chains_with_digit_words`, `_icao_chains`) finds in a window of about
    `_WINDOW_CHARS` characters at a time, each window ending before a character no span
    holds (so none is cut), or a whole window when no such character comes soon enough."""
    start = 0
    while start < len(text):
        cut = _UNSPANNED.search(text, start + _WINDOW_CHARS) \
            if start + _WINDOW_CHARS < len(text) else None
        end = len(text) if cut is None else cut.start()
        if end - start > 4 * _WINDOW_CHARS:
            yield start, end
        else:
            for lo, hi in chains(text[start:end]):
                yield start + lo, start + hi
        start = end


def _word_key(word: str) -> int:
    """A word's length and its first three and last letters (of a shorter word, its last
    letter repeated), packed in one number."""
    return (len(word) << 32 | ord(word[0]) << 24 | ord(word[min(1, len(word) - 1)]) << 16
            | ord(word[min(2, len(word) - 1)]) << 8 | ord(word[-1]))


_DIGIT_KEYS = sorted(map(_word_key, _DIGIT_WORDS))
_NAMING_KEYS = sorted(map(_word_key, [*_DIGIT_WORDS, *_TIMES]))


def _chains_with_digit_words(text: str) -> list[tuple[int, int]]:
    """Where in `text` a span may hold a run (`_SPOKEN_SPAN`, `_spoken_run`): each stretch
    of at least four words in a row (runs of `[a-z]`) that are each of one letter or
    have the length, first three and last letters of a naming word, at least two of them
    those of a digit word. Every span lies in one stretch, which starts and ends where a
    word does (a span's words are such words, one after the other), and a span in a
    stretch with fewer digit words is left as it is: a run names at least
    `_MIN_SPOKEN_DIGITS` digits, at most three per digit word ("triple")."""
    return _chains(text, _NAMING_KEYS, _DIGIT_KEYS, 2)


def _chains(text: str, naming_keys: list[int], counted_keys: list[int], least: int
            ) -> list[tuple[int, int]]:
    """Each stretch (start, end) of at least four words in a row (runs of `[a-z]`) of
    `text` that are each of one letter or have the key (`_word_key`) of one of
    `naming_keys`, at least `least` of them one of `counted_keys` (a subset). Found with
    a few numpy passes over the characters' codes."""
    import numpy as np

    codes = np.frombuffer(text.encode("ascii"), np.uint8) if text.isascii() \
        else np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
    letter = (codes >= 97) & (codes <= 122)
    edges = np.flatnonzero(np.diff(letter, prepend=False, append=False))
    starts, ends = edges[0::2], edges[1::2]
    length = ends - starts
    shortest, longest = naming_keys[0] >> 32, naming_keys[-1] >> 32
    short = np.flatnonzero((length >= shortest) & (length <= longest))
    s = starts[short]
    key = (length[short] << 32 | codes[s].astype(np.int64) << 24
           | codes[s + 1].astype(np.int64) << 16 | codes[s + 2].astype(np.int64) << 8
           | codes[ends[short] - 1].astype(np.int64))
    counted = np.zeros(len(starts), bool)
    counted[short] = _among(key, counted_keys)
    if np.count_nonzero(counted) < least:
        return []
    naming = length == 1
    naming[short] |= _among(key, naming_keys)
    # runs of naming words: words first .. last (inclusive)
    bounds = np.flatnonzero(np.diff(naming, prepend=False, append=False))
    first, last = bounds[0::2], bounds[1::2] - 1
    counted_before = np.concatenate(([0], np.cumsum(counted)))
    kept = (last - first >= 3) & (counted_before[last + 1] - counted_before[first] >= least)
    return list(zip(starts[first[kept]].tolist(), ends[last[kept]].tolist(), strict=True))


def _among(values: Any, sorted_keys: list[int]) -> Any:
    """Whether each of `values` (a numpy array) is one of `sorted_keys`."""
    import numpy as np

    keys = np.array(sorted_keys, np.int64)
    at = np.minimum(np.searchsorted(keys, values), len(keys) - 1)
    return keys[at] == values


def _spoken_run(text: str) -> str:
    """`spoken_characters` of `text`, read word by word."""
    out: list[str] = []
    done = 0  # the text before this is in `out`
    run: list[str] = []  # the characters named so far
    start = end = 0  # where the run starts and ends in the text
    times = 0  # a pending "double" (2) or "triple" (3)

    def flush() -> None:
        nonlocal done, run, times
        named = "".join(run)
        if len(named) >= _MIN_SPOKEN and sum(c.isdigit() for c in named) >= _MIN_SPOKEN_DIGITS:
            out.append(text[done:start])
            out.append(named)
            done = end
        run, times = [], 0

    last = 0  # where the previous word ended
    for m in _WORD.finditer(text):
        w = m.group(0)
        if (run or times) and _BETWEEN.fullmatch(text, last, m.start()) is None:
            flush()
        last = m.end()
        if w in _TIMES and not times:
            if not run:
                start = m.start()
            times = _TIMES[w]
            continue
        char = _DIGIT_WORDS.get(w) or (w if len(w) == 1 else None)
        if char is None:
            if run or times:  # else there is nothing to flush: most words of a long text
                flush()
            continue
        if not run and not times:
            start = m.start()
        run.append(char * (times or 1))
        times = 0
        end = m.end()
    flush()
    out.append(text[done:])
    return "".join(out)


_ICAO_LETTERS = {"alfa": "a", "alpha": "a", "bravo": "b", "charlie": "c", "delta": "d",
                 "echo": "e", "foxtrot": "f", "golf": "g", "hotel": "h", "india": "i",
                 "juliett": "j", "juliet": "j", "kilo": "k", "lima": "l", "mike": "m",
                 "november": "n", "oscar": "o", "papa": "p", "quebec": "q", "romeo": "r",
                 "sierra": "s", "tango": "t", "uniform": "u", "victor": "v", "whiskey": "w",
                 "whisky": "w", "xray": "x", "x-ray": "x", "yankee": "y", "zulu": "z"}
"""The ICAO spelling alphabet (the "NATO alphabet"), with the spellings English writes
for alfa, juliett, whiskey and x-ray."""
_ICAO_OTHERS = {**_DIGIT_WORDS, "tree": "3", "fife": "5", "niner": "9",
                "dash": "-", "dot": ".", "slash": "/"}
"""What else a value spelled in that alphabet is made of: digits (with ICAO's "tree",
"fife" and "niner") and the marks of an address said as words."""
_ICAO_MARKS = frozenset("-./")
_MIN_ICAO_LETTERS = 4
"""The fewest alphabet letters a run names to be read as one value: fewer in a row are
ordinary words ("the Delta hotel")."""
_ICAO_WORD = ("(?:" + "|".join(sorted([*_ICAO_LETTERS, *_ICAO_OTHERS], key=len, reverse=True))
              + ")(?![a-z])")
_ICAO_NAMING = re.compile(f"(?<![a-z]){_ICAO_WORD}")
_ICAO_SPAN = re.compile(f"(?<![a-z]){_ICAO_WORD}(?:{_BETWEEN.pattern}{_ICAO_WORD}){{3,}}")
"""At least four words of the alphabet, digit or mark words in a row, separated only by
blanks and punctuation (each word ends before a character that is no letter, so a word
is read one way only)."""


def spelling_alphabet(text: str) -> str:
    """`text` (lower case) with each run of words of the ICAO spelling alphabet, digit
    words and "dash", "dot" or "slash", separated only by blanks and punctuation, written
    as the characters it names when it names at least four letters: a web address or an
    IBAN read over the phone. A mark at either end of a run stays a word.

    >>> spelling_alphabet("go to: kilo alfa, x-ray echo, dash, two, dot, india oscar now; "
    ...                   "the delta hotel, one two three")
    'go to: kaxe-2.io now; the delta hotel, one two three'
    """
    # a long text is searched only in the stretches that can hold a span (the search
    # starts with a look-behind, so it tries every place: 27 ns a character)
    regions: Iterable[tuple[int, int]] = _stretches(text, _icao_chains) \
        if len(text) >= _CHAINS_MIN_CHARS else [(0, len(text))]
    out: list[str] = []
    done = 0
    for m in (m for lo, hi in regions for m in _ICAO_SPAN.finditer(text, lo, hi)):
        found = list(_ICAO_NAMING.finditer(text, m.start(), m.end()))
        words = [w.group(0) for w in found]
        chars = [_ICAO_LETTERS.get(w) or _ICAO_OTHERS[w] for w in words]
        lo, hi = 0, len(chars)
        while lo < hi and chars[lo] in _ICAO_MARKS:
            lo += 1
        while hi > lo and chars[hi - 1] in _ICAO_MARKS:
            hi -= 1
        if sum(w in _ICAO_LETTERS for w in words[lo:hi]) < _MIN_ICAO_LETTERS:
            continue
        first, last = found[lo].start(), found[hi - 1].end()
        out.append(text[done:first])
        out.append("".join(chars[lo:hi]))
        done = last
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


def _word_runs(words: Iterable[str]) -> list[str]:
    """The runs of `[a-z]` in `words` ("x-ray": "x" and "ray")."""
    return [run for word in words for run in _WORD.findall(word)]


_ICAO_RUNS = [run for run in _word_runs([*_ICAO_LETTERS, *_ICAO_OTHERS]) if len(run) > 1]
_ICAO_KEYS = sorted(set(map(_word_key, _ICAO_RUNS)))
_ICAO_LETTER_KEYS = sorted({_word_key(run) for run in _word_runs(_ICAO_LETTERS)
                            if len(run) > 1})


def _icao_chains(text: str) -> list[tuple[int, int]]:
    """Where in `text` a span of the spelling alphabet may name a value (`_ICAO_SPAN`,
    `spelling_alphabet`): each stretch of at least four words in a row (runs of `[a-z]`)
    that are each of one letter or have the length, first three and last letters of a
    word of a span ("x-ray" is two: "x" and "ray"), at least `_MIN_ICAO_LETTERS` of them
    those of a word of the alphabet. A span's words lie one after the other in one
    stretch, and a span in a stretch with fewer alphabet words is left as it is."""
    return _chains(text, _ICAO_KEYS, _ICAO_LETTER_KEYS, _MIN_ICAO_LETTERS)
