"""One value spelled other ways, read as its plain spelling before matching: HTML character
references decoded, an e-mail address's sub-address tag dropped, a URL's numeric IPv4 host
in dotted decimal, an IPv6 address in its compressed form (an IPv4-mapped one as the IPv4
address), the letters O, I and l at an IBAN's digit places as digits where that makes its
checksum hold, a run of CJK digit numerals, or of digit words of one language (Pinyin,
Welsh, German, ..., Greek) said one by one, as ASCII digits, and letters and digits
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
from functools import cache, cached_property
from itertools import accumulate, product, repeat
from typing import Any, NamedTuple

from ._words import BMP_MARKS, MARK, OTHER_MARKS, is_mark

__all__ = ["BEFORE_SKELETON", "DEFANGED", "DIGIT_BY_DIGIT_ONLY", "DIGIT_WORDS", "ENGLISH_DIGIT_WORDS", "MAIL_SYMBOLS", "MAIL_WORDS", "cjk_digits", "html_decoded", "html_untagged", "iban_digits",
           "iban_formats", "ipv6_addresses",
           "numeric_hosts", "ocr_digits", "digit_words", "spelling_alphabet",
           "spoken_characters", "untagged_mail"]


def html_decoded(text: str) -> str:
    """`text` with its HTML character references and entities decoded (`html.unescape`):
    a saved HTML draft writes an address as "&#114;&#101;…&#64;…".

    >>> html_decoded("mailto:&#114;efunds&#64;hmrc&#45;taxrebate&#46;uk &pound;5 AT&T")
    'mailto:refunds@hmrc-taxrebate.uk £5 AT&T'
    """
    return html.unescape(text) if "&" in text else text


_INLINE_ELEMENTS = ("a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn",
                    "em", "font", "i", "ins", "kbd", "mark", "q", "s", "samp", "small", "span",
                    "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr")
"""Elements a browser shows inside a line of text: a tag of theirs separates nothing."""
_BLOCK_ELEMENTS = ("address", "article", "aside", "blockquote", "body", "br", "caption",
                   "center", "col", "colgroup", "dd", "div", "dl", "dt", "figcaption",
                   "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header",
                   "hr", "html", "label", "li", "main", "nav", "ol", "p", "pre", "section",
                   "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul")
"""Elements a browser shows apart (a line, a paragraph, a table's cell)."""
_ELEMENT_TAG = (r"</?(?:" + "|".join(sorted(_INLINE_ELEMENTS + _BLOCK_ELEMENTS, key=len,
                                            reverse=True)) + r")"
                r"(?:[ \t\n]{1,8}[a-z-]{1,20}(?:=(?:\"[\w -]{0,40}\"|'[\w -]{0,40}'|[\w-]{1,40}))?)"
                r"{0,8}[ \t\n]{0,8}/?>")
_ELEMENT_TAGS = re.compile(rf"{_ELEMENT_TAG}(?:[ \t\n]{{0,8}}{_ELEMENT_TAG})*", re.IGNORECASE)
"""A run of HTML tags of known elements, with no attribute or only attributes whose values
are plain words (`class="num"`, `colspan=2`): a value that could hold an address or a URL
(`href`, `src`, `style`) leaves its tag as written, for the token finders to read. Each
attribute starts with a blank the name before cannot hold, and each tag with "<": one
reading of every character."""
_INLINE_TAG = re.compile(r"</?(?:" + "|".join(_INLINE_ELEMENTS) + r")\b", re.IGNORECASE)


def html_untagged(text: str) -> str:
    """`text` with its runs of HTML tags read as a browser shows them: a run of inline
    tags (`<b>`, `</span>`) as nothing, any other run (`</td><td>`, `<br>`) as one space.
    An IBAN in a saved HTML table row with a group per cell,
    `<td>GB12</td><td>SRLG</td>…`, reads as `GB12 SRLG …`. A tag whose attribute could
    hold an address (`<a href="…">`) stays; `<name@host>` and `<https://…>` are no tag.

    >>> html_untagged("<tr><td>GB12</td>\\n<td>SRLG</td></tr> pay<b>pal</b>.com <x@y.z>")
    ' GB12 SRLG  paypal.com <x@y.z>'
    """
    if "<" not in text:
        return text
    return _ELEMENT_TAGS.sub(_untag, text)


def _untag(m: re.Match[str]) -> str:
    tags = m.group().count("<")
    return "" if len(_INLINE_TAG.findall(m.group())) == tags else " "


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


def _ipv6_rewritten(m: re.Match[str], address: Callable[[str], str | None]) -> str | None:
    """What the `IPV6` match `m` is written as (`ipv6_addresses`); None where it is
    written so already."""
    opened, written, closed = m.groups()
    read = address(written)
    if read is None or read == written:
        return None
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
    colons = text.count(":")
    if colons < 7 and "::" not in text:
        return text
    address = ipv6_reader()
    out: list[str] = []
    done = 0
    # a text of many colons (a log of addresses) is searched whole: trying every place
    # costs less than looking for the places around its colons
    for m in IPV6.finditer(text) if colons * _IPV6_DENSE > len(text) else _ipv6_matches(text):
        read = _ipv6_rewritten(m, address)
        if read is not None:
            out += [text[done:m.start()], read]
            done = m.end()
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


def _ipv6_matches(text: str) -> Iterator[re.Match[str]]:
    """`IPV6.finditer(text)`, searched only around the places where a match may start
    (`_ipv6_spans`)."""
    done = 0
    for lo, hi in _ipv6_spans(text):
        pos = max(lo, done)
        # a match starting by `hi` ends and is looked ahead of before this end
        while pos <= hi and (m := IPV6.search(text, pos, hi + _IPV6_LONGEST + 1)) is not None \
                and m.start() <= hi:
            yield m
            done = pos = m.end()


_IPV6_DENSE = 20
"""A text holding more than one colon in this many characters is searched for IPv6
addresses whole (36 ns a character) rather than around each pair of colons (about 0.7 µs
a colon, on a megabyte of addresses)."""
_IPV6_LONGEST = 52
"""The most characters an `IPV6` match holds: a bracket, seven groups of four hex digits
each with its colon, a dotted IPv4 tail of 15 and a bracket."""
_IPV6_PAIR = re.compile(r":[0-9A-Fa-f]{0,4}:")
"""Two colons with at most four hex digits between them, as an address's first two groups
end. It starts with the colon, so the search skips to the colons (`IPV6` starts with a
look-behind, which makes the engine try every place of the text: 36 ns a character)."""


def _ipv6_spans(text: str) -> list[tuple[int, int]]:
    """The places (first, last) where an `IPV6` match may start, in order: its first group
    (after an opening bracket) has at most four hex digits, so a match starts at most five
    places before the first colon of two that `_IPV6_PAIR` finds. Those searches do not
    overlap, so each colon that starts such a pair starts one found, or ends one."""
    spans: list[tuple[int, int]] = []
    for c in sorted({c for m in _IPV6_PAIR.finditer(text) for c in (m.start(), m.end() - 1)}):
        if spans and c - 5 <= spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], c)
        else:
            spans.append((max(c - 5, 0), c))
    return spans


_IBAN_START = re.compile(r"(?<![\w.])[A-Za-z]{2}[0-9OoIil]{2}")
"""Where an IBAN may start: a country code and two check digits, some of which may be
written as the letters O, o, I, i or l."""
_AS_DIGIT = {"O": "0", "o": "0", "I": "1", "i": "1", "l": "1"}
"""The letters read as digits at an IBAN's digit places (those `ocr_digits` reads, and
"i", which an "I" is after case-folding)."""
_IBAN_GAP = " \t-"
"""What may separate an IBAN's groups (one character at a time)."""


def _stdnum_registry(name: str) -> str:
    """The text of python-stdnum's data file `name`, found without importing the package
    where it is installed as files (its `__init__` imports ssl and pydoc for its online
    checks, 0.02 CPU s of a plan that validates no IBAN)."""
    from importlib.util import find_spec
    from pathlib import Path

    spec = find_spec("stdnum")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(folder, name)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    from importlib.resources import files

    return files("stdnum").joinpath(name).read_text(encoding="utf-8")


@cache
def iban_formats() -> dict[str, str]:
    """Country code -> what each place of its IBANs holds, one character a place: "a" a
    letter, "n" a digit, "c" either (the country code is "aa", the check digits "nn"), from
    python-stdnum's IBAN registry.

    >>> iban_formats()["NL"]
    'aannaaaannnnnnnnnn'
    """
    out: dict[str, str] = {}
    for line in _stdnum_registry("iban.dat").splitlines():
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
    for m in _iban_starts(text):
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


def _iban_starts(text: str) -> Iterator[re.Match[str]]:
    """The matches of `_IBAN_START` in `text`, in order; in a text of `_CHAINS_MIN_CHARS`
    or more, only those whose two letters name an IBAN country (`iban_formats`; the
    others start no IBAN). There the places where such two letters come before two digits
    or letters read as digits are found first with numpy (a window of `_WINDOW_CHARS`
    characters at a time) and the pattern is matched only there: it starts with a
    look-behind, which makes the engine try every place (37 ns a character). Two matches
    never overlap (each starts after a character that is no letter or digit), so
    matching at each such place in order finds what the search finds."""
    if len(text) < _CHAINS_MIN_CHARS:
        yield from _IBAN_START.finditer(text)
        return
    import numpy as np

    countries = _iban_countries()
    for lo in range(0, len(text), _WINDOW_CHARS):
        codes = _codes(text[lo:lo + _WINDOW_CHARS + 3])
        if len(codes) < 4:
            break
        folded = codes | 32  # an ASCII letter in lower case; nothing else becomes one
        letter = (folded >= 97) & (folded <= 122)
        digit = ((codes >= 48) & (codes <= 57)) | np.isin(codes, _AS_DIGIT_CODES)
        at = np.flatnonzero(letter[:-3] & letter[1:-2] & digit[2:-1] & digit[3:])
        pair = (folded[at].astype(np.int64) - 97) * 26 + folded[at + 1] - 97
        at = at[(at < _WINDOW_CHARS) & countries[pair]]
        for start in (at + lo).tolist():
            m = _IBAN_START.match(text, start)
            if m is not None:
                yield m


_AS_DIGIT_CODES = [ord(c) for c in _AS_DIGIT]


@cache
def _iban_countries() -> Any:
    """Whether each pair of letters (26 x the first + the second, a = 0) is the country
    code of an IBAN (`iban_formats`)."""
    import numpy as np

    out = np.zeros(26 * 26, bool)
    for code in iban_formats():
        out[(ord(code[0]) - 65) * 26 + ord(code[1]) - 65] = True
    return out


def _codes(text: str) -> Any:
    """The code points of `text` as a numpy array."""
    import numpy as np

    return np.frombuffer(text.encode("ascii"), np.uint8) if text.isascii() \
        else np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def _iban_read(window: str, shape: str) -> str | None:
    """The IBAN of the country of `shape` that `window` starts with, its letters at digit
    places read as digits, as written but for those; None when it starts with none, no
    letter is read, or the checksum then fails."""
    # a quick look first: the first letters and digits, as many as the IBAN has
    compact = window.translate(_NO_GAPS)[:len(shape)]
    if _iban_pattern(shape).fullmatch(compact) is None:
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
def _iban_pattern(shape: str) -> re.Pattern[str]:
    """A pattern of what an IBAN of `shape` (`iban_formats`) may be written as before the
    letters are read: a letter or digit where it holds either, a letter where it holds
    one, and a digit or one of the letters read as one where it holds a digit. Made for
    a shape when first met: all of them at once cost 30 ms, a tenth of what the suspects
    of a 100k-step plan cost."""
    place = {"a": "[A-Za-z]", "c": "[A-Za-z0-9]", "n": "[0-9OoIil]"}
    return re.compile("".join(place[kind] for kind in shape))
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


DIGIT_WORDS: dict[str, tuple[str, ...]] = {
    "cy": ("dim", "un", "dau dwy", "tri tair", "pedwar pedair", "pump", "chwech", "saith",
           "wyth", "naw"),
    "de": ("null", "eins", "zwei zwo", "drei", "vier", "fünf fuenf", "sechs", "sieben",
           "acht", "neun"),
    "fr": ("zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit",
           "neuf"),
    "es": ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho",
           "nueve"),
    "it": ("zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"),
    "pt": ("zero", "um", "dois", "três", "quatro", "cinco", "seis meia", "sete", "oito",
           "nove"),
    "nl": ("nul", "een één", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht",
           "negen"),
    "no": ("null", "en én ett", "to", "tre", "fire", "fem", "seks", "sju syv", "åtte", "ni"),
    "da": ("nul", "en", "to", "tre", "fire", "fem", "seks", "syv", "otte", "ni"),
    "sv": ("noll", "ett en", "två", "tre", "fyra", "fem", "sex", "sju", "åtta", "nio"),
    "fi": ("nolla", "yksi yks", "kaksi kaks", "kolme", "neljä", "viisi viis",
           "kuusi kuus", "seitsemän", "kahdeksan", "yhdeksän"),
    "pl": ("zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem",
           "osiem", "dziewięć"),
    "cs": ("nula", "jedna jeden", "dva dvě", "tři", "čtyři", "pět", "šest",
           "sedm", "osm", "devět"),
    "hr": ("nula", "jedan jedna jedno", "dva dvije", "tri", "četiri", "pet", "šest",
           "sedam", "osam", "devet"),
    "ca": ("zero", "u un una", "dos dues", "tres", "quatre", "cinc", "sis", "set", "vuit",
           "nou"),
    "lt": ("nulis", "vienas viena", "du dvi", "trys", "keturi keturios", "penki penkios",
           "šeši šešios", "septyni septynios", "aštuoni aštuonios", "devyni devynios"),
    "af": ("nul", "een", "twee", "drie", "vier", "vyf", "ses", "sewe", "agt", "nege"),
    "ro": ("zero", "unu una un", "doi două", "trei", "patru", "cinci", "șase şase", "șapte şapte",
           "opt", "nouă"),
    "tr": ("sıfır sifir", "bir", "iki", "üç", "dört", "beş", "altı alti", "yedi",
           "sekiz", "dokuz"),
    "id": ("nol kosong", "satu", "dua", "tiga", "empat", "lima", "enam", "tujuh",
           "delapan lapan", "sembilan"),
    "sw": ("sifuri", "moja", "mbili", "tatu", "nne", "tano", "sita", "saba", "nane", "tisa"),
    "tl": ("sero", "isa", "dalawa", "tatlo", "apat", "lima", "anim", "pito", "walo",
           "siyam"),
    "ru": ("ноль нуль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь",
           "девять"),
    "uk": ("нуль", "один", "два", "три", "чотири", "п'ять п’ять пʼять", "шість", "сім",
           "вісім", "дев'ять дев’ять девʼять"),
    "el": ("μηδέν", "ένα", "δύο", "τρία", "τέσσερα", "πέντε", "έξι", "επτά εφτά", "οκτώ οχτώ",
           "εννέα εννιά"),
    "yo": ("òdo", "ọ̀kan ookan", "èjì", "ẹ̀ta", "ẹ̀rin", "àrún", "ẹ̀fà", "èje", "ẹ̀jọ",
           "ẹ̀sán"),
    "ka": ("ნული", "ერთი", "ორი", "სამი", "ოთხი", "ხუთი", "ექვსი", "შვიდი", "რვა", "ცხრა"),
    "hy": ("զրո", "մեկ", "երկու", "երեք", "չորս", "հինգ", "վեց", "յոթ յոթը", "ութ",
           "ինը ինն"),
    "am": ("ዜሮ", "አንድ", "ሁለት", "ሶስት ሦስት", "አራት", "አምስት", "ስድስት", "ሰባት", "ስምንት",
           "ዘጠኝ"),
    "zh": tuple(" ".join(sorted({t for w, d in _PINYIN_DIGITS.items() if d == str(k)
                                 for t in _toned(w)})) for k in range(10)),
    # Hebrew's cardinals, feminine (the forms a number is read out in) then masculine,
    # unpointed, in full spelling and in the defective one ("שלש", "שתים"): Wikipedia,
    # "Modern Hebrew grammar", Numerals
    "he": ("אפס", "אחת אחד", "שתיים שתים שניים שנים", "שלוש שלש שלושה שלשה",
           "ארבע ארבעה", "חמש חמישה חמשה", "שש שישה ששה", "שבע שבעה", "שמונה",
           "תשע תשעה"),
}
"""Per language, the words each digit 0-9 is said with one by one (a phone, card or
account number read out), in lower case, with the spellings a keyboard without the
language's letters types ("fuenf", "sifir") and Pinyin with or without a tone mark; each
word is also read with any of its accents left out (`_unmarked`: "ctyri", "tva"). Malay's
"kosong" and "lapan" sit with Indonesian, Ukrainian apart from Russian: a run is read in
one language. The one table of the words of digits: `content._number_words` reads 1 to 9
of the languages it reads from here."""
ENGLISH_DIGIT_WORDS = ("zero nought oh", "one", "two", "three", "four", "five", "six", "seven",
                       "eight", "nine")
"""English's words of the ten digits, as `DIGIT_WORDS` writes a language's ("oh" is 0 as a
phone number is said: "oh-one-six-one"). Not among them:
English digit words said one by one are read with the single letters among them
(`spoken_characters`), not by `digit_words`."""
DIGIT_BY_DIGIT_ONLY = frozenset({"meia"})
"""Words of `DIGIT_WORDS` that say a digit only when a number is read out digit by digit:
Portuguese "meia" (half a dozen) is 6 on the phone, never in a count ("meia hora")."""
BEFORE_SKELETON = ("he",)
"""The languages of `DIGIT_WORDS` whose words canonical text reads before the confusables
(`digit_words(..., languages=BEFORE_SKELETON)`), and only then: the confusables read
Hebrew's "ו", "י" and "ס" as "l", "'" and "o", so "שתיים" reaches the other tables as
"שת''ם", which no word reader reads as one word."""
FEWEST_DIGIT_WORDS = {"zh": 4}
"""How many digit words in a row a language's run needs: Pinyin four, as before the
other languages were read; every other language's table holds an article or a word its
prose uses ("un", "en", "bir", "dim", "sei"), so its run needs `_FEWEST_DIGIT_WORDS`,
fewer digits than any phone, card or account number has."""
_FEWEST_DIGIT_WORDS = 6


def _unmarked(word: str) -> set[str]:
    """`word` and `word` with any of its combining marks left out, as typed without some
    or all of its accents ("dziewięć": "dziewięc", "dziewieć", "dziewiec")."""
    if word.isascii():
        return {word}
    parts = unicodedata.normalize("NFD", word)
    marks = [k for k, c in enumerate(parts) if is_mark(c)]
    out = {word}
    for kept in product((True, False), repeat=len(marks)):
        left_out = {k for k, keep in zip(marks, kept, strict=True) if not keep}
        out.add(unicodedata.normalize(
            "NFC", "".join(c for k, c in enumerate(parts) if k not in left_out)))
    return out


class _DigitTable:
    """The words of `DIGIT_WORDS` as a text reads them after `fold` (and as written):
    each word -> (its digit, the languages that have it, as bits), and what the numpy
    search for stretches (`_digit_chains`) needs: the characters of the words (an index
    for each, 0 for none) and the key of each word (`_word_key` of those indexes)."""

    def __init__(self, fold: Callable[[str], str] | None,
                 languages: tuple[str, ...] | None = None) -> None:
        self.languages = list(languages) if languages is not None else [
            lang for lang in DIGIT_WORDS if lang not in BEFORE_SKELETON]
        self.fewest = [FEWEST_DIGIT_WORDS.get(lang, _FEWEST_DIGIT_WORDS)
                       for lang in self.languages]
        self.words: dict[str, tuple[str, int]] = {}
        for bit, lang in enumerate(self.languages):
            for digit, said in enumerate(DIGIT_WORDS[lang]):
                for word in (w for written in said.split() for w in _unmarked(written)):
                    for form in {word, fold(word) if fold else word}:
                        had, langs = self.words.get(form, (str(digit), 0))
                        if had != str(digit):
                            raise ValueError(f"{form!r} is {had} and {digit}")
                        self.words[form] = had, langs | 1 << bit
        chars = sorted({c for w in self.words for c in w})
        if len(chars) > 254:
            raise ValueError("more than 254 characters in digit words")
        self.index = [0] * (ord(chars[-1]) + 2)
        for k, c in enumerate(chars, 1):
            self.index[ord(c)] = k
        self.keys = sorted({_indexed_key([self.index[ord(c)] for c in w])
                            for w in self.words})
        self.pieces = frozenset(p for w in self.words for p in _LETTERS.findall(w))
        self.unspanned = re.compile(
            "[^" + "".join(re.escape(c) for c in chars) + _DIGIT_GAP_CLASS + "]")
        self.fewest_at_all = min(self.fewest)
        self.fewest_known = b"\x01" * self.fewest_at_all
        self.masks = {w: langs for w, (_d, langs) in self.words.items()}
        self.digits = {w: d for w, (d, _langs) in self.words.items()}
        self.groups = [(f, sum(1 << bit for bit, g in enumerate(self.fewest) if g == f))
                       for f in sorted(set(self.fewest))]
        """(how many words, the languages whose run needs that many), fewest first."""

    @cached_property
    def outlines(self) -> Any:
        """Whether a word of each length (up to the longest digit word's), first and last
        character (their `index`) may be a digit word. Made on first use: only the numpy
        search of a long text (`_digit_chains`) reads it, and a plan whose texts are all
        short need not import numpy."""
        import numpy as np

        outlines = np.zeros((max(map(len, self.words)) + 1, 256, 256), bool)
        for w in self.words:
            outlines[len(w), self.index[ord(w[0])], self.index[ord(w[-1])]] = True
        return outlines


def _indexed_key(index: list[int]) -> int:
    """`_word_key` of a word given as its characters' indexes."""
    return (len(index) << 32 | index[0] << 24 | index[min(1, len(index) - 1)] << 16
            | index[min(2, len(index) - 1)] << 8 | index[-1])


@cache
def _digit_table(fold: Callable[[str], str] | None,
                 languages: tuple[str, ...] | None = None) -> _DigitTable:
    return _DigitTable(fold, languages)


_LETTER = r"[^\W\d_]"
_LETTERS = re.compile(f"{_LETTER}+")
_WORD_CHAR = f"(?:{_LETTER}|{MARK})"
_DIGIT_GAP_CLASS = r"\s,;:.\-()"
"""What may stand between two digit words of a run: blanks, the punctuation a number is
grouped with (", ; : . -", and brackets, as "(029) 2018 0764" writes an area code). Not
"/": it parts two numbers as often as it groups one, and a run is written as one number."""
_DIGIT_GAP_MOST = 4
_DIGIT_GAP = re.compile(f"[{_DIGIT_GAP_CLASS}]{{1,{_DIGIT_GAP_MOST}}}")
"""What may separate two digit words of a run: one to four of `_DIGIT_GAP_CLASS`."""


def digit_words(text: str, fold: Callable[[str], str] | None = None,
                languages: tuple[str, ...] | None = None) -> str:
    """`text` (lower case) with each run of digit words said one by one (`DIGIT_WORDS`),
    separated by one to four blanks or punctuation marks (`_DIGIT_GAP`), as ASCII digits,
    where the run's words are all of one language's table and are at least as many as
    that language needs (`FEWEST_DIGIT_WORDS`): a card or phone number written out for a
    reader to say it. `fold` is how the text was folded (canonical text reads a Cyrillic
    or Greek word as the confusables' prototypes): the words are read as written and as
    folded. `languages`: the tables read (every one but `BEFORE_SKELETON`'s by default).

    >>> digit_words("xin ka: liu er yi qi, ling ling. dian hua: yāo sān bā liù hao, "
    ...             "er san si; xyi er san si wu")
    'xin ka: 621700. dian hua: 1386 hao, er san si; xyi 2345'
    >>> digit_words("ffonia dim dau naw, dau dim un wyth; det tar en to tre dager; "
    ...             "uno, dos, tres, quatro, cinco, seis")
    'ffonia 0292018; det tar en to tre dager; uno, dos, tres, quatro, cinco, seis'
    """
    table = _digit_table(fold, languages)
    if len(text) >= _CHAINS_MIN_CHARS:
        regions: Iterable[tuple[int, int]] = _stretches(
            text, lambda part: _digit_chains(part, table), table.unspanned)
    else:
        # a run's words are as many runs of letters in a row, each a piece of a digit word
        known = bytes(map(table.pieces.__contains__, _LETTERS.findall(text)))
        if table.fewest_known not in known:
            return text
        regions = [(0, len(text))]
    out: list[str] = []
    done = 0
    for lo, hi in regions:
        for start, end, digits in _digit_runs(text, lo, hi, table):
            out += [text[done:start], digits]
            done = end
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


def _digit_runs(text: str, lo: int, hi: int, table: _DigitTable
                ) -> Iterator[tuple[int, int, str]]:
    """(start, end, digits) of each run of `digit_words` whose words start in
    `text[lo:hi]`, in order. The words are read with one split of the text; a word is
    read when, for a language it belongs to, it lies in a window of as many words as
    that language's run needs, all that language's digit words, each two split by what
    may separate them (numpy reads the windows)."""
    import numpy as np

    patterns = _digit_patterns()
    hi = patterns.rest.match(text, hi).end()  # type: ignore[union-attr]
    piece = text[lo:hi]
    # word, separator, word, ..., word; where no character but a letter can be in a word,
    # split by a plain class (the exact pattern looks around each apostrophe); a text with
    # no character above U+FFFF has none of the marks beyond it, which a class tests range
    # by range, nine times slower to search a megabyte for
    parts = (patterns.split if max(piece, default="") > "\uffff" else
             patterns.split_bmp if patterns.awkward_bmp.search(piece) else _NON_WORD
             ).split(piece)
    words, seps = parts[0::2], parts[1::2]
    masks = np.array(list(map(table.masks.get, words, repeat(0, len(words)))), np.int64)
    if _continues_a_word(text, lo):
        masks[0] = 0
    splits = {sep: _DIGIT_GAP.fullmatch(sep) is not None for sep in set(seps)}
    linked = np.array(list(map(splits.__getitem__, seps)), bool)
    # pairs[k]: the languages of words k and k + 1 when what is between them may be
    pairs = masks[:-1] & masks[1:] & np.where(linked, -1, 0)
    present = int(np.bitwise_or.reduce(pairs)) if len(pairs) else 0
    read = np.zeros(len(words) + 1, np.int64)  # + 1 where a window starts, - 1 after it
    window, width = pairs, 1  # window[k]: the languages of words k .. k + width
    for fewest, group in table.groups:
        if not present & group:
            continue
        while width < fewest - 1:
            window = window[:-1] & pairs[width:]
            width += 1
        starts = np.flatnonzero(window & group)
        np.add.at(read, starts, 1)
        np.add.at(read, starts + width + 1, -1)
    covered = np.cumsum(read[:-1]) > 0
    if not covered.any():
        return
    # a run ends where two words read are not linked (the next is another language's)
    joined = np.zeros(len(words) + 1, bool)
    joined[1:-1] = covered[:-1] & covered[1:] & (pairs != 0)
    first = np.flatnonzero(covered & ~joined[:-1])
    last = np.flatnonzero(covered & ~joined[1:])
    offsets = list(accumulate(map(len, parts), initial=lo))
    for a, b in zip(first.tolist(), last.tolist(), strict=True):
        yield offsets[2 * a], offsets[2 * b + 1], \
            "".join(map(table.digits.__getitem__, words[a:b + 1]))


_NON_WORD = re.compile(r"(\W+)")


class _DigitPatterns(NamedTuple):
    """The patterns that find the words of a run of `digit_words` (`_digit_patterns`)."""

    token: re.Pattern[str]
    """A word as digit words are read: letters and combining marks (a canonical text may
    keep a cedilla apart: "üç" is "üc" and U+0326), an apostrophe inside it ("п'ять")
    joining its parts. Each repetition starts with the apostrophe no part holds."""
    rest: re.Pattern[str]
    """The rest of a word of `token` that goes on at a place."""
    awkward_bmp: re.Pattern[str]
    """A character that is no letter and that `\\W` does not split, a combining mark (of
    the Basic Multilingual Plane) or an apostrophe: a word's bounds depend on more than
    the letters."""
    split: re.Pattern[str]
    """What splits the words of `token`: characters that are no letter or combining mark,
    and an apostrophe unless it stands between two of them."""
    split_bmp: re.Pattern[str]
    """`split` for a text with no character above U+FFFF."""


@cache
def _digit_patterns() -> _DigitPatterns:
    """The patterns of `_DigitPatterns`, compiled on first use: their classes of combining
    marks take about 14 ms to compile, which every process that imports this module
    would pay, while only a text holding a run of digit words' pieces reads them."""
    return _DigitPatterns(
        re.compile(f"{_WORD_CHAR}+(?:'{_WORD_CHAR}+)*"),
        re.compile(f"(?:'?{_WORD_CHAR})*"),
        re.compile(f"[\\d_'{BMP_MARKS}]"),
        _digit_split(BMP_MARKS + OTHER_MARKS),
        _digit_split(BMP_MARKS))


def _digit_split(marks: str) -> re.Pattern[str]:
    """`_DigitPatterns.split` with the combining marks of the class body `marks`."""
    return re.compile(
        f"((?:[^\\w'{marks}]|[\\d_]|'(?!{_WORD_CHAR})|(?<!{_WORD_CHAR})')+)")


def _continues_a_word(text: str, at: int) -> bool:
    """Whether the word that `_DigitPatterns.token` finds at `at` is the end of a longer
    one."""
    if at == 0:
        return False
    token = _digit_patterns().token
    before = text[at - 1]
    if before == "'":
        return at > 1 and token.match(text[at - 2]) is not None
    return token.match(before) is not None


_DIGIT_GAP_ASCII = [c for c in range(128) if _DIGIT_GAP.fullmatch(chr(c))]
"""The ASCII characters of `_DIGIT_GAP_CLASS`, as codes."""


def _digit_chains(text: str, table: _DigitTable) -> list[tuple[int, int]]:
    """Where in `text` a run of `digit_words` may be: each stretch of at least as many
    words in a row as the shortest run needs, each word a run of the digit words'
    characters (an apostrophe only between two others) whose length, first three and
    last characters are those of a digit word, each two split by one to four characters
    that may separate words (any character that is not ASCII is taken as one: it may be
    a blank). A word of `_DigitPatterns.token` that is a digit word is such a run, so a run's
    words lie in one stretch."""
    import numpy as np

    codes = _codes(text)
    index = np.array(table.index, np.uint8)
    at = index[codes if codes.dtype == np.uint8 else np.minimum(codes, len(index) - 1)]
    apostrophe = codes == 39
    letter = (at > 0) & ~apostrophe
    inner = np.zeros(len(codes), bool)
    inner[1:-1] = apostrophe[1:-1] & letter[:-2] & letter[2:]
    alpha = letter | inner
    edges = np.flatnonzero(np.diff(alpha, prepend=False, append=False))
    starts, ends = edges[0::2], edges[1::2]
    if len(starts) < table.fewest_at_all:
        return []
    length = ends - starts
    # the key of the words whose length, first and last characters are a digit word's
    outline = table.outlines
    short = np.flatnonzero(length < outline.shape[0])
    short = short[outline[length[short], at[starts[short]], at[ends[short] - 1]]]
    s, e = starts[short], ends[short]
    key = (length[short].astype(np.int64) << 32 | at[s].astype(np.int64) << 24
           | at[np.minimum(s + 1, e - 1)].astype(np.int64) << 16
           | at[np.minimum(s + 2, e - 1)].astype(np.int64) << 8 | at[e - 1].astype(np.int64))
    known = np.zeros(len(starts), bool)
    known[short] = _among(key, table.keys)
    between = starts[1:] - ends[:-1]
    link = known[:-1] & known[1:] & (between <= _DIGIT_GAP_MOST)
    # each character between two such words (at most four) may separate them: any that is
    # not ASCII (it may be a blank), or one of the ASCII ones
    linked = np.flatnonzero(link)
    after, apart = ends[linked], between[linked]
    ascii_gap = np.zeros(128, bool)
    ascii_gap[_DIGIT_GAP_ASCII] = True
    for k in range(_DIGIT_GAP_MOST):
        c = codes[np.minimum(after + k, len(codes) - 1)]
        link[linked] &= (apart <= k) | np.where(c < 128, ascii_gap[np.minimum(c, 127)], True)
    # runs of links: words first .. last (inclusive)
    bounds = np.flatnonzero(np.diff(link, prepend=False, append=False))
    first, last = bounds[0::2], bounds[1::2]  # links first .. last - 1: words first .. last
    kept = last - first >= table.fewest_at_all - 1
    return list(zip(starts[first[kept]].tolist(), ends[last[kept]].tolist(), strict=True))


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


_DIGIT_WORDS = {word: str(digit) for digit, said in enumerate(ENGLISH_DIGIT_WORDS)
                for word in said.split()}
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


def _stretches(text: str, chains: Callable[[str], list[tuple[int, int]]],
               unspanned: re.Pattern[str] | None = None) -> Iterator[tuple[int, int]]:
    """The parts of `text` (start, end) that may hold a span with a run, in order: those
    `chains` (`_chains_with_digit_words`, `_icao_chains`, `_digit_chains`) finds in a
    window of about `_WINDOW_CHARS` characters at a time, each window ending before a
    character no span holds (`unspanned`, by default `_UNSPANNED`; so none is cut), or a
    whole window when no such character comes soon enough."""
    start = 0
    while start < len(text):
        cut = (unspanned or _UNSPANNED).search(text, start + _WINDOW_CHARS) \
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
    s, n = starts[short], length[short]
    # a word's second and third letters as `_word_key` takes them: a two-letter word
    # ("oh") has its last letter as its third, not the character after it
    key = (n << 32 | codes[s].astype(np.int64) << 24
           | codes[s + np.minimum(1, n - 1)].astype(np.int64) << 16
           | codes[s + np.minimum(2, n - 1)].astype(np.int64) << 8
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


# --- an e-mail address spoken in words ------------------------------------------------------

MAIL_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...],
                            tuple[str, ...]]] = {
    "en": (("at",), ("dot",), ("dash", "hyphen"), ("underscore",)),
    "fr": (("arobase", "arobas"), ("point",), ("tiret",), ("underscore",)),
    "de": (("at", "klammeraffe"), ("punkt",), ("bindestrich", "minus"), ("unterstrich",)),
    "es": (("arroba",), ("punto",), ("guion", "guión"), ("underscore",)),
    "it": (("chiocciola",), ("punto",), ("trattino",), ("underscore",)),
    "pt": (("arroba",), ("ponto",), ("hífen", "hifen", "traço", "traco"), ("underline",)),
    "nl": (("apenstaartje",), ("punt",), ("streepje",), ("underscore",)),
    "pl": (("małpa", "malpa"), ("kropka",), ("myślnik", "myslnik"), ("podkreślnik",)),
    "ru": (("собака",), ("точка",), ("дефис",), ("подчеркивание",)),
    "zh": (("艾特",), ("点",), ("横杠",), ("下划线",)),
}
"""Per language, the words an e-mail address is read aloud with: (at, dot, dash,
underscore). An address is read in one language: its connector words are all of one."""

MAIL_SYMBOLS = ("@", ".", "-", "_")
"""The punctuation each of a language's four `MAIL_WORDS` groups spells, in order."""
_NO_BLANK = frozenset(["艾特", "点", "横杠", "下划线"])
"""Connector words of a script written without blanks between words."""


def _connector(words: Iterable[str]) -> str:
    """A pattern for one connector: a word with one to three blanks (or an opening or
    closing bracket) on each side, or a word of `_NO_BLANK` with none needed."""
    words = list(words)
    spaced = sorted({w for w in words if w not in _NO_BLANK}, key=len, reverse=True)
    tight = sorted({w for w in words if w in _NO_BLANK}, key=len, reverse=True)
    out = []
    if spaced:
        out.append(r"[ \t]{1,3}[\[(]?(?:" + "|".join(map(re.escape, spaced))
                   + r")[\])]?[ \t]{1,3}")
    if tight:
        out.append(r"[ \t]{0,3}(?:" + "|".join(map(re.escape, tight)) + r")[ \t]{0,3}")
    return "|".join(out)


def _words_of(k: int) -> list[str]:
    return [w for table in MAIL_WORDS.values() for w in table[k]]


_MAIL_LABEL = r"[a-z0-9]{1,63}"


def _reversed_connector(words: Iterable[str]) -> str:
    """`_connector` for text read backwards."""
    return _connector([w[::-1] for w in words]).replace(r"[\[(]?", "[)\\]]?", 1) \
        .replace(r"[\])]?", r"[(\[]?", 1)


_MAIL_AFTER = re.compile(
    rf"(?:(?<=[ \t\[(])(?:{'|'.join(sorted(set(_words_of(0)) - _NO_BLANK))})"
    rf"[\])]?[ \t]{{1,3}}|(?:{'|'.join(sorted(set(_words_of(0)) & _NO_BLANK))})[ \t]{{0,3}})"
    rf"(?P<domain>{_MAIL_LABEL}(?:(?:{_connector(_words_of(1))}|{_connector(_words_of(2))}"
    rf"|[.-]){_MAIL_LABEL}){{0,8}}"
    rf"(?:{_connector(_words_of(1))})(?P<tld>[a-z]{{2,24}}|[a-z](?: [a-z]){{1,3}}))(?![^\W_])")
"""What follows the at word of an address spoken in words (in lower case): the at word,
and a domain (labels of ASCII letters and digits joined by dot and dash words or by those
characters, at most nine) whose last label, after a dot *word*, is its top-level domain,
written whole or as two to four single letters ("f r"). Each repetition starts with a
blank, a bracket or punctuation no label holds, and each is bounded, so a match is tried
in bounded time at each place where an at word starts."""
_MAIL_BEFORE = re.compile(
    rf"[(\[]?[ \t]{{0,3}}(?P<local>{_MAIL_LABEL}(?:(?:{_reversed_connector(_words_of(1))}"
    rf"|{_reversed_connector(_words_of(2))}|{_reversed_connector(_words_of(3))}|[._-])"
    rf"{_MAIL_LABEL}){{0,6}})(?![^\W_])")
"""The local part before an at word, read backwards from it (in lower case, reversed):
labels joined by dot, dash and underscore words or by those characters, at most seven."""
_LOCAL_READ = 600
"""How many characters before an at word `_MAIL_BEFORE` reads (seven labels of at most
63 characters and six connectors)."""
_SHORTEST_SPOKEN = len("a艾特b点cn")
"""No shorter text holds an address spoken in words (most texts read are single words)."""
_MAIL_REACH = 800
"""At least one more than the most characters a match of `_MAIL_AFTER` spans (its at
word, nine labels of 63 characters, their connectors and a top-level domain): how far
past a match's start the pattern reads, so a dot word (which every match holds) is
within this many characters of the start."""
_DOT_WORDS = sorted(set(_words_of(1)))


def _mail_after(low: str) -> Iterator[re.Match[str]]:
    """The matches `_MAIL_AFTER.finditer(low)` finds, searched in a text of
    `_CHAINS_MIN_CHARS` characters or more only where a dot word follows within
    `_MAIL_REACH` characters (`_mail_windows`): the pattern starts with an alternation
    after a look-behind, so the whole-text search tries every place of a megabyte chunk
    (about 27 ns a character). Each window is searched with the text after it visible
    for `_MAIL_REACH` characters, as far as a match starting in it reads."""
    if len(low) < _CHAINS_MIN_CHARS:
        yield from _MAIL_AFTER.finditer(low)
        return
    done = 0
    for lo, hi in _mail_windows(low):
        for m in _MAIL_AFTER.finditer(low, max(lo, done), min(len(low), hi + _MAIL_REACH)):
            if m.start() >= hi:
                break
            done = m.end()
            yield m


def _mail_windows(low: str) -> list[tuple[int, int]]:
    """The stretches (start, end) of `low` where an address spoken in words may start:
    those ending at a dot word (`_DOT_WORDS`; one written with blanks between a blank or
    an opening bracket and a blank or a closing bracket, as `_connector` reads it) and
    starting `_MAIL_REACH` characters before it, overlapping ones joined."""
    dots = []
    for word in _DOT_WORDS:
        spaced = word not in _NO_BLANK
        at = low.find(word)
        while at >= 0:
            end = at + len(word)
            if not spaced or (at and low[at - 1] in " \t[(" and end < len(low)
                              and low[end] in " \t])"):
                dots.append(at)
            at = low.find(word, at + 1)
    windows: list[tuple[int, int]] = []
    for at in sorted(dots):
        lo = max(0, at - _MAIL_REACH)
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], at + 1)
        else:
            windows.append((lo, at + 1))
    return windows


_MAIL_PIECE = re.compile(r"[\[\]() \t]+")
_TEXT_WORDS = re.compile(r"[艾特点横杠下划线]+|[^\W\d_艾特点横杠下划线]+")


@cache
def _mail_symbols() -> dict[str, list[tuple[str, str]]]:
    """A connector word, case-folded -> (language, the character it stands for) for each
    language that has it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for language, table in MAIL_WORDS.items():
        for k, words in enumerate(table):
            for w in words:
                out.setdefault(w.casefold(), []).append((language, MAIL_SYMBOLS[k]))
    return out


@cache
def _top_levels() -> frozenset[str]:
    return public_suffixes()[0]


def _spoken_address(written: str) -> str | None:
    """The address `written` (a local part, an at word and a domain, in lower case)
    spells, or None when its connector words are not all of one language or its last
    label is no top-level domain of the Public Suffix List."""
    symbols = _mail_symbols()
    if not written.isascii():
        for w in _NO_BLANK:
            written = written.replace(w, f" {w} ")
    languages: set[str] | None = None
    out: list[str] = []
    for piece in _MAIL_PIECE.split(written):
        meant = symbols.get(piece)
        if meant is None:
            out.append(piece)
            continue
        here = {language for language, _s in meant}
        languages = here if languages is None else languages & here
        if not languages:
            return None
        out.append(meant[0][1])
    local, _, domain = "".join(out).partition("@")
    if not local or "@" in domain or domain.rpartition(".")[2] not in _top_levels():
        return None
    return f"{local}@{domain}"


def spoken_mail(text: str) -> str:
    """`text` with each e-mail address spoken in words (`MAIL_WORDS`: "claire point morel
    arobase orange point f r", "ivan точка petrov собака mail точка ru", "zhang 艾特 qq
    点 com") written as the address, in any case. Its top-level domain must be one of
    the Public Suffix List's, and it must be spoken with a dot word (an address written
    "at example.com" is left as it is: its host is read as a host). One pass of a
    pattern tried where an at word starts, then, for each address found, one bounded
    match backwards for its local part.

    >>> spoken_mail("écris à : Paul point Martin arobase orange point f r, merci")
    'écris à : Paul.Martin@orange.fr, merci'
    >>> spoken_mail("mail ops dash desk at acme dot co dot uk; meet at noon dot then")
    'mail ops-desk@acme.co.uk; meet at noon dot then'
    """
    if len(text) < _SHORTEST_SPOKEN:
        return text
    low = text.lower()
    if len(low) != len(text):  # a character whose lower case is longer: left as it is
        return text
    out: list[str] = []
    done = 0
    spelled: dict[str, str | None] = {}  # an address spoken again is read once
    for m in _mail_after(low):
        if m.start() < done or m.group("tld").replace(" ", "") not in _top_levels():
            continue
        window = low[max(done, m.start() - _LOCAL_READ):m.start()][::-1]
        before = _MAIL_BEFORE.match(window)
        if before is None:
            continue
        start = m.start() - before.end("local")
        if start > 0 and (low[start - 1].isalnum() or low[start - 1] == "_"):
            continue
        written = low[start:m.end()]
        if written not in spelled:
            spelled[written] = _spoken_address(written)
        address = spelled[written]
        if address is None:
            continue
        out.append(text[done:start])
        # the address in the case the text writes it
        as_written = text[start:m.end()]
        out.append(address if as_written == written else _recased(as_written, address))
        done = m.end()
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


def _recased(written: str, address: str) -> str:
    """`address` (lower case, spelled from `written`) with the letters `written` writes
    in capitals in its labels in capitals: the labels are `written`'s in order."""
    letters = iter(c for c in written if c.isalnum())
    out = []
    for c in address:
        if c.isalnum():
            for w in letters:
                if w.lower() == c:
                    out.append(w)
                    break
            else:
                out.append(c)
        else:
            out.append(c)
    return "".join(out)


@cache
def public_suffixes() -> tuple[frozenset[str], frozenset[str]]:
    """(top-level suffixes, every rule) of the Public Suffix List as the
    `publicsuffixlist` package ships it (read once, nothing fetched; a wildcard rule
    "*.ck" is read as "ck")."""
    from importlib.resources import files
    rules = set()
    text = files("publicsuffixlist").joinpath("public_suffix_list.dat").read_text(
        encoding="utf-8")
    for line in text.splitlines():
        rule = line.strip()
        if rule and not rule.startswith("//"):
            rule = rule.lstrip("!").removeprefix("*.")
            rules.add(rule.encode("idna").decode("ascii") if not rule.isascii() else rule)
            rules.add(rule)
    return frozenset(r.rsplit(".", 1)[-1] for r in rules), frozenset(rules)


DEFANGED: dict[str, str] = {"[.]": ".", "(.)": ".", "[@]": "@", "(@)": "@"}
"""Punctuation written in brackets so that a link or an address does not turn live
("evil[.]com", "fred9246[@]gmail.com"), each with the punctuation it stands for: content
matching (`content._match.spaced_hosts`) and the next-session agent (`model._spelled`)
read it so."""
