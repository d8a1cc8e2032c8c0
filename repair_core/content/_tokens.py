"""Distinctive tokens: what identifies a fault's content rather than its topic. URLs,
e-mail addresses, account numbers (IBAN-shaped), ids (letters and digits mixed), long
numbers, and proper names."""

from __future__ import annotations

import contextlib
import ipaddress
import re
import stringprep
import unicodedata
from collections.abc import Callable, Hashable, Iterable
from functools import cache, lru_cache
from itertools import islice
from operator import itemgetter
from typing import Any, Literal, TypeVar, cast

from .._spelled import IPV6, iban_formats, ipv6_reader, public_suffixes
from .._words import WORD
from ._iban import iban_is_valid
from ._punycode import punycode
from ._stems import ORDINARY_STEMS, stem

__all__ = ["TokenKind", "STRONG_KINDS", "distinctive_tokens", "proper_names", "COMMON_CAPITALISED",
           "initial_words", "lower_case_uses", "national_forms", "domestic_forms", "domestic_clues",
           "unicode_host",
           "parent_domains", "encoded_forms", "ace_form"]

TokenKind = Literal["url", "email", "account", "id", "number", "name"]
STRONG_KINDS: frozenset[str] = frozenset({"url", "email", "account", "id", "number"})
"""Token kinds that identify content on their own (a name is only a hint)."""

# Every pattern here is anchored or a plain character class, bounded where it repeats:
# text is cut into whitespace-separated chunks first, then each chunk is classified.
_PIECE_END = re.compile(r"[\s'\"<>(){}\[\],]")
"""What ends a URL or e-mail address (as the old patterns read them)."""
_LOCAL_END = re.compile(r"[\w.+-]{1,65}$")
"""The local part of an e-mail address, at the end of what comes before its "@" (searched
from 65 characters before the end: an address's local part has at most 64)."""
_DOMAIN_START = re.compile(r"[\w.-]{1,253}")
_DOMAIN = re.compile(r"[\w-]{1,63}(?:\.[\w-]{1,63}){1,126}")
"""A mail domain: labels joined by dots (each repetition starts with a dot, which no
label holds, so there is one way to read it)."""
_HOST = re.compile(r"[^/?#:]{1,260}")
_HOSTNAME = re.compile(r"[^\W_][\w.-]{0,251}[^\W_]")
# a run of groups: each repetition starts with a blank, quote, comma, bar, hyphen or
# line break, which the group before cannot hold, and is bounded in length
_IBAN_RUN = re.compile(r"(?<![\w.])[A-Za-z]{2}\d[A-Za-z0-9]{0,31}(?![A-Za-z0-9])"
                       r"(?:[ \t]{0,2}(?:\r?\n|[\"']?[ \t]{0,2}[,|][ \t]{0,2}[\"']?|-)?"
                       r"[ \t]{0,2}[A-Za-z0-9]{1,30}(?![A-Za-z0-9])){0,15}")
_IBAN_COMPACT = re.compile(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}")
"""An account number written as one piece: IBAN-shaped, checked or not."""
_IBAN_GROUP = re.compile(r"[A-Za-z0-9]+")
"""A group of a run: what stands between is blanks, a hyphen, one line break (a CSV field
or a form wrapped inside the number), or a comma or a table bar, each maybe between
quotes (the items of a list, `["FR76", "3000", …]`, YAML's `[DE89, "3704", …]`, a row
`| DE89 | 3704 |`); a run is read as an IBAN only where its checksum holds."""
_BOXED = re.compile(r"(?<![A-Za-z0-9|])\|?(?:[ \t]{0,2}[A-Za-z0-9][ \t]{0,2}\|){15,}"
                    r"(?:[ \t]{0,2}[A-Za-z0-9](?![A-Za-z0-9]))?")
"""A run of fifteen or more single letters or digits each closed by a bar (the last one
maybe not), as a paper form's boxes are typed ("|N|L|9|1|A|B|N|A|…|"): each repetition
starts after the bar the one before ends with."""
_BOX_SPACE = re.compile(r"[ \t|]")
_NUMBER_RUN = re.compile(r"(?<![\w.])[+(]?\d[\d().\-/]{0,30}"
                         r"(?:[ \t](?:\(\d{1,5}\)|\d)[\d().\-/]{0,30}){0,12}")
"""A run of number groups split by one blank: the first may open with "+" or "(", a later
one only with a closed bracket (the trunk zero of "+44 (0)161 …", an area code "(0161)"),
never with an open one, which starts what follows the number ("020 5567 8901 (45,000 kip
to release)" is the phone number, not a 13-digit one ending in 45)."""
_ID_RUN = re.compile(r"(?<![\w-])[A-Za-z0-9_-]{5,}")
"""A run that may be an id (the old pattern's word boundary in front)."""
_HAS_LETTER = re.compile(r"[A-Za-z]").search
_ORDINAL = re.compile(r"(?i)\d{1,20}(?:st|nd|rd|th|am|pm|h|min|s|x|kg|km|mb|gb)")


@cache
def _name_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a run of capitalised words, one capitalised word): a capitalised word in any cased
    script of the Basic Multilingual Plane, inner capitals included ("Müller", "Łukasz",
    "GmbH", "McKinsey"); an all-capital word ("USA", "IBAN") is an acronym, not a name.
    Python's `re` has no Unicode case classes, so the two are listed from the code
    points once, on first use (about 10 ms)."""
    plane = "".join(map(chr, range(0x10000)))
    up = _char_class(c for c in plane if c.isupper() or c.istitle())
    low = _char_class(c for c in plane if c.islower())
    word = f"{up}{low}+(?:{up}{low}*)*"
    return (re.compile(rf"\b{word}(?:['’]{low}+)?(?:[ \t]+(?:{word}|{up}\.))*"),
            re.compile(rf"\b{word}\b"))


def _char_class(chars: Iterable[str]) -> str:
    """A regex character class of `chars` (in code point order), as ranges."""
    ranges: list[list[int]] = []
    for cp in map(ord, chars):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return "[" + "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                         for a, b in ranges) + "]"
_STARTERS = frozenset(".!?:;\n\"'([*>-")
_TRAILING = ".,;:!?"
_MAX_CARD, _MIN_CARD, _MAX_PHONE, _MIN_PHONE = 19, 13, 15, 7


def _starts_sentence(text: str, pos: int, first: int) -> bool:
    """Whether the word at `pos` of `text` starts a sentence (or the text, or a line).
    `first`: where the text's first non-blank character is (`_first_visible`)."""
    if pos <= first:
        return True
    # most words follow a visible character, or one blank after one: read just those
    prev = text[pos - 1]
    if not prev.isspace():
        return prev in _STARTERS
    if prev != "\n" and not text[pos - 2].isspace():
        return text[pos - 2] in _STARTERS
    before = text[max(0, pos - 64):pos]
    if "\n" in before[len(before.rstrip()):]:
        return True
    before = before.rstrip()
    if not before:
        return pos <= first
    return before[-1] in _STARTERS


def _first_visible(text: str) -> int:
    """Where the first non-blank character of `text` is (worked out once per text: a
    copy of everything before each word made the check quadratic)."""
    return len(text) - len(text.lstrip())

_COMMON_WORDS = """
i a an the this that these those it its he she they we you your my our his her their me us
them and or but if then so as at by for from in into of on onto to with without after before
when while where what which who whom whose why how please hi hello dear thanks thank yes no
not all any each every some one two three many more most much also just only here there now
today tomorrow yesterday
monday tuesday wednesday thursday friday saturday sunday
january february march april may june july august september october november december
mr mrs ms dr user assistant agent system tool note important information re fwd subject
send visit get make create delete invite modify concatenate tell give show find book buy
pay call email post read write add remove update check use go take put let keep ask do
transfer schedule change reply forward share open click follow remember save store
since because although though however try maybe perhaps actually currently recently lately
usually always never sometimes often still well ok okay sure
"""
COMMON_CAPITALISED: frozenset[str] = frozenset(_COMMON_WORDS.split())
"""Capitalised words that are not names (function words, days, months, titles, and the
verbs an order starts with)."""


_VERB_WORDS = """
prefer like love enjoy want wish need hate dislike avoid lives works owns speaks studies
drives eats drinks plays attends allergic has have had is are was were be
verify confirm wire sign log enter provide submit approve contact download install run
ignore disregard forget cancel reserve order return reset charge
"""
_VERB_STEMS: frozenset[str] = frozenset(map(stem, _VERB_WORDS.split())) | ORDINARY_STEMS
"""Stems of words a record starts with when it leaves out its subject ("Prefers window
seats", "Lives in Lisbon", "Is vegetarian"), and of the verbs an order starts with
("Verify your account", "Wire the deposit"): at a sentence's start such a word is not a
name."""


_GERMAN_MARK_WORDS = """
und oder nicht ist sind wird werden wurde haben mit für auf zum zur vom beim nach über
sich auch bitte noch schon sehr das dem eine einen einem einer eines ihre ihren ihnen
wir ich geht neue neues neuen
"""
_GERMAN_MARKS = frozenset(_GERMAN_MARK_WORDS.split())
"""Words, as German writes them in lower case, that English text does not use: a text
holding two different ones reads as German, where every noun is capitalised ("die
Miete", "das Konto"), so a capital does not make a name. "der", "den", "des" and "von"
are left out: an English text says them inside names ("Ursula von der Leyen")."""

_GERMAN_DETERMINER_WORDS = """
der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner
mein meine meinen meinem meiner dein deine deinen deinem deiner sein seine seinen seinem
seiner ihr ihre ihren ihrem ihrer unser unsere unseren unserem unserer euer eure euren
eurem eurer dieser diese diesen diesem dieses jeder jede jeden jedem jedes zum zur vom
beim im am ins
"""
_GERMAN_DETERMINERS = frozenset(_GERMAN_DETERMINER_WORDS.split())
"""German articles and determiners, case-folded: in a German text the capitalised word
after one (or after one and at most `_ADJECTIVES` lower-case words: "das neue Konto") is
a common noun, not a name."""

_GERMAN_COMMON_WORDS = """
sie ihnen bitte und oder ich wir er es man herr herrn frau
januar februar märz april mai juni juli august september oktober november dezember
montag dienstag mittwoch donnerstag freitag samstag sonntag
"""
_GERMAN_COMMON = _GERMAN_DETERMINERS | frozenset(_GERMAN_COMMON_WORDS.split())
"""Capitalised words a German text writes that are not names (the formal "Sie",
"Bitte" opening a request, determiners opening a sentence, titles, months, days)."""

_ADJECTIVES = 2
_WORD_RUN = re.compile(WORD)
_LOWER_WORD = re.compile(r"\b[a-zäöüß]+\b")
"""A word of lower-case letters, as German writes its function words."""


_ARTICLE_NOUN = re.compile(r"(?<!\w)(?:der|die|das|den|dem|ein|eine|einen|einem|einer|eines"
                           r"|zum|zur|vom|beim)[ \t]+[A-ZÄÖÜ]")
"""A German article in lower case before a capitalised word ("die Miete"): English says
one only inside a name ("von der Leyen")."""


def _reads_german(text: str) -> bool:
    """Whether `text` holds two signs of German: different `_GERMAN_MARKS`, or articles
    before a capitalised word (`_ARTICLE_NOUN`). Two passes over the text, each stopping
    at the second sign."""
    seen: set[str] = set()
    for m in _ARTICLE_NOUN.finditer(text):
        seen.add(str(m.start()))
        if len(seen) == 2:
            return True
    for w in _LOWER_WORD.findall(text):
        if w in _GERMAN_MARKS:
            seen.add(w)
            if len(seen) == 2:
                return True
    return False


def _after_determiner(text: str, pos: int) -> bool:
    """Whether the word at `pos` of a German text follows a determiner, directly or
    across at most `_ADJECTIVES` lower-case words (a few words before it are read)."""
    before = _WORD_RUN.findall(text[max(0, pos - 48):pos])
    if pos > 48 and before:
        before = before[1:]  # the first may be cut
    for w in reversed(before[-(_ADJECTIVES + 1):]):
        if w.casefold() in _GERMAN_DETERMINERS:
            return True
        if not w.islower():
            return False
    return False


def proper_names(text: str, common: Iterable[str] = ()) -> list[str]:
    """Runs of capitalised words in `text` that are names, as they are written. A word
    that starts a sentence is a name only when it is not common: not in
    `COMMON_CAPITALISED`, not among `common` (the case-folded words the caller saw in
    lower case elsewhere, so "Send" at a sentence's start is a verb) and not a form of a
    verb or ordinary word a record starts with (`_VERB_STEMS`: "Prefers window seats").
    In a text that reads as German (`_reads_german`), where every noun is capitalised,
    neither a German function word or title (`_GERMAN_COMMON`) nor a noun is a name: a
    capitalised word after a determiner ("die Miete", "an den Vermieter", "das neue
    Konto"), and the same word wherever else the text writes it.

    >>> proper_names("Send a link to Alice. Lin prefers window seats, says Emma Johnson.",
    ...              common={"send"})
    ['Alice', 'Lin', 'Emma Johnson']
    >>> proper_names("Prefers window seats. Likes Jazz Club evenings.")
    ['Jazz Club']
    >>> proper_names("Die Miete geht ab Mai an den Vermieter Hans Becker, auf das neue "
    ...              "Konto bei der Sparkasse. Bitte die Miete überweisen.")
    ['Hans Becker']
    """
    ordinary = COMMON_CAPITALISED | {w.casefold() for w in common}
    german = _reads_german(text)
    visible = _first_visible(text)
    # each run as written and whether it starts a sentence, once however often it is
    # written: what it is decided to be depends on nothing else
    runs: dict[tuple[str, bool], None] = {}
    nouns: set[str] = set()
    for m in _name_patterns()[0].finditer(text):
        runs[(m.group(0), _starts_sentence(text, m.start(), visible))] = None
        if german:
            # a capitalised word after a determiner, in the run or just before it
            follows = _after_determiner(text, m.start())
            for part in m.group(0).split():
                folded = part.casefold()
                if follows and folded not in _GERMAN_DETERMINERS:
                    nouns.add(folded)
                follows = folded in _GERMAN_DETERMINERS
    if german:
        ordinary |= _GERMAN_COMMON
    never = COMMON_CAPITALISED | _GERMAN_COMMON | nouns if german else COMMON_CAPITALISED
    found: dict[str, None] = {}
    for run, initial in runs:
        parts = run.split()
        first, last = 0, len(parts)
        while first < last:
            word = parts[first].casefold().split("'")[0].split("’")[0]
            if word in never or (initial and (
                    word in ordinary or stem(word) in _VERB_STEMS)):
                first += 1
                initial = False
            else:
                break
        while last > first and parts[last - 1].casefold() in never:
            last -= 1
        if last > first:
            found.setdefault(" ".join(parts[first:last]), None)
    return list(found)


def distinctive_tokens(text: str, common: Iterable[str] = (), *, names: bool = True
                       ) -> dict[str, TokenKind]:
    """The distinctive tokens of `text`, normalised (URLs to their host, e-mail addresses
    case-folded, account numbers upper-cased and without their grouping, card and phone
    numbers to their digits), each with its kind, in order found. `names`: whether to
    look for proper names (a text only scored against a signature needs none: a name is
    found there as words). Linear in the text: it is cut into whitespace-separated
    chunks, and each chunk (or run of chunks, for a grouped number) is classified by
    anchored patterns bounded in length.

    >>> distinctive_tokens("Send to US133000000121212121212 and www.secure-systems-252.com"
    ...                    "/x or mail fred9246@gmail.com; ID 123456789, Alice")
    ... # doctest: +NORMALIZE_WHITESPACE
    {'fred9246@gmail.com': 'email', 'secure-systems-252.com': 'url',
     'US133000000121212121212': 'account', '123456789': 'number', 'Alice': 'name'}
    >>> distinctive_tokens("IBAN DE89 3704 0044 0532 0130 00, card 4111 1111 1111 1111, "
    ...                    "call +1 (415) 555-0134 or see evil-site.xyz/login")
    ... # doctest: +NORMALIZE_WHITESPACE
    {'evil-site.xyz': 'url', 'DE89370400440532013000': 'account',
     '4111111111111111': 'account', '14155550134': 'number'}
    """
    found: dict[str, dict[str, TokenKind]] = {k: {} for k in
                                              ("email", "url", "account", "number", "id")}
    if ":" in text:
        text = _ipv6_hosts(text, found["url"])
    if "." in text:
        _ipv4_hosts(text, found["url"])
    parts = re.split(r"(\s+)", text)  # chunks at even indices, whitespace between
    consumed: dict[str, bool] = {}  # a chunk said again is read once
    by_shape: dict[bytes, tuple[_UrlSpan, ...]] = {}
    aces: dict[tuple[bytes, int], _AceTemplate | None] = {}
    for i in [i for i in range(0, len(parts), 2) if "@" in parts[i] or "." in parts[i]]:
        chunk = parts[i]
        gone = consumed.get(chunk)
        if gone is None:
            gone = consumed[chunk] = ("@" in chunk and _emails(chunk, found["email"],
                                                               found["id"])) or (
                "." in chunk and _urls(chunk, found["url"], by_shape, aces))
            if gone and "/" in chunk:
                _path_ids(chunk, found["id"])
        if gone:
            parts[i] = " "
    rest = _numbers(_hex_addresses("".join(parts), found["account"]), found["account"],
                    found["number"])
    for m in _ID_RUN.finditer(rest):
        _id(m.group(0), found["id"])
        if "_" in m.group(0) or "-" in m.group(0):
            _id_parts(m.group(0), found["account"], found["number"])
    if "@" in rest:
        for m in _HANDLE.finditer(rest):
            found["id"].setdefault("@" + m.group(1).casefold(), "id")
    _packages(rest, found["id"])
    _other_forms(text, found)
    out: dict[str, TokenKind] = {}
    for kind_found in found.values():
        for t, k in kind_found.items():
            out.setdefault(t, k)
    if names:
        for name in proper_names(rest, common):
            out.setdefault(name, "name")
    return out


_ICAP = re.compile(r"(?<![A-Za-z0-9])XE\d{2}[0-9A-Z]{30,31}(?![A-Za-z0-9])", re.IGNORECASE)
"""An Ethereum address in ICAP's direct form: `XE`, two check digits and the address as a
base-36 number, checked as an IBAN is (mod 97)."""
_ENUM_DIGITS = (7, 15)
"""The fewest and most digits of a phone number read from its ENUM domain (E.164 allows
fifteen), and so of one whose ENUM domain `encoded_forms` gives."""
_ENUM = re.compile(rf"(?:\d\.){{{_ENUM_DIGITS[0]},{_ENUM_DIGITS[1]}}}e164\.arpa")
"""A phone number as its ENUM domain (RFC 6116): its digits reversed, one per label,
under e164.arpa."""


def _other_forms(text: str, found: dict[str, dict[str, TokenKind]]) -> None:
    """Adds the other form of a token `text` writes in a form that encodes another: an
    ICAP address (`_ICAP`, in either case) is its `0x` address as `match.hex-addresses`
    writes one, an ENUM domain (`_ENUM`) also its phone number's digits."""
    if "xe" in text or "XE" in text:
        from stdnum.iso7064 import mod_97_10

        for m in _ICAP.finditer(text):
            icap = m.group(0).upper()
            if mod_97_10.is_valid(icap[4:] + icap[:4]) \
                    and (value := int(icap[4:], 36)) < 1 << 160:
                found["account"].setdefault(f"0x{value:040x}", "account")
    for host in [t for t in found["url"] if _ENUM.fullmatch(t)]:
        found["number"].setdefault(host[:-len("e164.arpa")].replace(".", "")[::-1], "number")


def encoded_forms(token: str, kind: TokenKind) -> list[str]:
    """The forms, case-folded, in which `_other_forms` reads `token` from text that
    encodes it: a phone number's ENUM domain, a `0x` address's ICAP form (direct, or basic
    for an address too large for thirty base-36 digits)."""
    if kind == "number" and token.isdigit() and _ENUM_DIGITS[0] <= len(token) <= _ENUM_DIGITS[1]:
        return [".".join(reversed(token)) + ".e164.arpa"]
    if kind == "account" and token.startswith("0x") and len(token) == 42:
        from stdnum.iso7064 import mod_97_10

        digits, value = "", int(token, 16)
        while value:
            value, d = divmod(value, 36)
            digits = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + digits
        body = digits.rjust(30 if len(digits) <= 30 else 31, "0").upper()
        return [f"xe{mod_97_10.calc_check_digits(body + 'XE')}{body.lower()}"]
    return []


_MIN_IPV6_GROUPS = 3
"""The fewest groups of hex digits an IPv6 address is written with to be a token: fewer
("a::b", "::1") is a pair of names joined as C++ and Rust join them, or a loopback."""


def _ipv6_hosts(text: str, found: dict[str, TokenKind]) -> str:
    """Adds the IPv6 addresses of `text` (bare, or in a URL's brackets) written with at
    least `_MIN_IPV6_GROUPS` groups and a decimal digit, compressed in lower case, as URL
    hosts (an address is a host), and gives `text` with each blanked; an IPv4-mapped one
    is left to be read as its IPv4 address (`_spelled.ipv6_addresses` writes it so)."""
    blank: list[tuple[int, int]] = []
    address = ipv6_reader()
    for m in IPV6.finditer(text):
        written = m.group(2)
        read = address(written)
        if read is None or "." in read or not _HAS_DIGIT(written) \
                or sum(1 for g in written.split(":") if g) < _MIN_IPV6_GROUPS:
            continue
        found.setdefault(read, "url")
        blank.append(m.span())
    return _blanked(text, blank)


_IPV4 = re.compile(r"(?<![\w.])[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?!\w|\.[0-9])")
"""What may be an IPv4 address in dotted decimal: four numbers of one to three digits."""


def _ipv4_hosts(text: str, found: dict[str, TokenKind]) -> None:
    """Adds the IPv4 addresses of `text` written in dotted decimal (each number at most
    255, no leading zero, as `ipaddress` reads them) as URL hosts: "203.0.113.58" is the
    host of "http://203.0.113.58/". What the digits read as besides (a number of ten or
    more digits) stays."""
    read: set[str] = set()  # each written form parsed once: a log repeats its hosts
    for m in _IPV4.finditer(text):
        written = m.group(0)
        if written in read:
            continue
        read.add(written)
        with contextlib.suppress(ValueError):
            found.setdefault(str(ipaddress.IPv4Address(written)), "url")


def _pieces(chunk: str) -> list[str]:
    return [p.rstrip(_TRAILING) for p in _PIECE_END.split(chunk) if p]


_PAYMENT_HANDLE = re.compile(r"[A-Za-z]{2,64}")
"""What follows the "@" of a payment address (a UPI id's bank handle, "name@okaxis")."""


def _emails(chunk: str, found: dict[str, TokenKind], ids: dict[str, TokenKind]) -> bool:
    """Adds the e-mail addresses of `chunk` to `found`, and its payment addresses (a
    local part of two or more characters, "@" and a handle of letters with no dot, not
    followed by ":", "/" or "@": "name.bill@ybl") to `ids`, case-folded; whether there
    was either (the chunk is read no further)."""
    hit = False
    for piece in _pieces(chunk):
        at = piece.split("@")
        for k in range(len(at) - 1):
            before, after = at[k], at[k + 1]
            if not before or not after:
                continue
            local = _LOCAL_END.search(before, max(0, len(before) - 65))
            m = _DOMAIN_START.match(after)
            if local is None or len(local.group(0)) > 64 or m is None:
                continue
            n = len(local.group(0))
            domain = m.group(0).rstrip(".")
            if _DOMAIN.fullmatch(domain):
                found.setdefault(f"{before[len(before) - n:]}@{domain}".casefold(), "email")
                hit = True
            elif n >= 2 and _PAYMENT_HANDLE.fullmatch(domain) \
                    and after[m.end():m.end() + 1] not in (":", "/") and k + 2 == len(at):
                ids.setdefault(f"{before[len(before) - n:]}@{domain}".casefold(), "id")
                hit = True
    return hit


def _plausible(host: str) -> bool:
    """Whether `host` (lower case) is a host name with a dot."""
    return 3 <= len(host) <= 253 and "." in host and ".." not in host and "-." not in host \
        and ".-" not in host and "_" not in host and _HOSTNAME.fullmatch(host) is not None


def parent_domains(host: str) -> tuple[str, ...]:
    """The domains `host` (lower case, ASCII) lies under that are not public suffixes,
    nearest first, down to its registrable domain (a public suffix of the Public Suffix
    List and one label more: whoever holds it holds every name under it); none for a
    registrable domain itself, a public suffix or an address of digits.

    >>> parent_domains("login.secure.evil-pay.co.uk")
    ('secure.evil-pay.co.uk', 'evil-pay.co.uk')
    >>> parent_domains("evil-pay.com"), parent_domains("10.0.0.1")
    ((), ())
    """
    if host.count(".") < 2:  # most hosts: a name and its suffix, read without a list
        return ()
    dots = [i for i, c in enumerate(host) if c == "."]
    if host[dots[-1] + 1:].isdigit():
        return ()
    rules = public_suffixes()[1]
    if host in rules:
        return ()
    # where the longest public suffix it ends in starts (after a dot); its last label
    # at least. No rule of the list has more than `_RULE_LABELS` labels.
    suffix = len(dots) - 1
    for k in range(max(0, len(dots) - _RULE_LABELS), len(dots) - 1):
        if host[dots[k] + 1:] in rules:
            suffix = k
            break
    return tuple(host[dots[k] + 1:] for k in range(suffix))


_RULE_LABELS = 8
"""More labels than any rule of the Public Suffix List has (it has at most six)."""


_UrlSpan = tuple[int, int, bool]
"""Where a host is written in a chunk: (start, end, whether it is written without a
scheme or `www.`, so that it must end in a public suffix and not be one)."""
_DIGIT_SHAPE = bytes.maketrans(b"0123456789", b"0000000000")
"""An ASCII chunk's shape: its bytes, digits read as 0 (bytes: a table translates them
several times faster than a str's mapping). Where pieces end, where a host is written
and whether it is plausible (`_plausible`) do not depend on which digits a chunk holds."""
_ALNUM = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ALNUM_SHAPE = bytes.maketrans(_ALNUM, b"a" * len(_ALNUM))
"""The shape of an ASCII chunk with no `://` and no `www.` in any case: letters and
digits read as a. Without a scheme or `www.`, which letters a chunk holds decides only
whether a host ends in a public suffix and is not one, and those are looked up on the
chunk as written: "ab.com/" and "xy.net/" have one shape."""


_ZEROS = str.maketrans("123456789", "000000000")
"""A text's ASCII digits read as 0: where a chunk's pieces end, where a host is written
in it, whether that is plausible (`_DIGIT_SHAPE`), and a label's IDNA form but for the
digits it copies (`_ace_label`) do not depend on which digits it holds."""


def _urls(chunk: str, found: dict[str, TokenKind],
          by_shape: dict[bytes, tuple[_UrlSpan, ...]],
          aces: dict[tuple[bytes, int], _AceTemplate | None]) -> bool:
    """Adds the URL hosts of `chunk` to `found`; whether there was one. `by_shape`: the
    spans of the chunks read before, by their shape (an ASCII chunk's `_ALNUM_SHAPE`, else
    `_DIGIT_SHAPE` of its UTF-8 bytes): a text of thousands of hosts ("x1.com/ x2.com/
    ...", "ф1.рф ф2.рф ...") has a handful of shapes. `aces`: the IDNA forms of the hosts
    beyond ASCII read before, by their chunk's shape and where they start in it
    (`_ace_template`)."""
    if chunk.isascii():
        plain = "://" not in chunk and "www." not in chunk.lower()
        shape = chunk.encode().translate(_ALNUM_SHAPE if plain else _DIGIT_SHAPE)
    else:
        # letters stay as written (lower() may change a non-ASCII text's length); an
        # ASCII digit is read as 0, as each of them reads alike there. In UTF-8 no byte of
        # another character is an ASCII digit's, so the bytes' table reads the digits as
        # a str's mapping would, several times faster
        shape = chunk.encode("utf-8", "surrogatepass").translate(_DIGIT_SHAPE)
    spans = by_shape.get(shape)
    if spans is None:
        spans = by_shape[shape] = _url_spans(shape.decode("utf-8", "surrogatepass"))
    hit = False
    tops, rules = public_suffixes()
    for start, end, bare in spans:
        written = chunk[start:end]
        host = written.lower()
        if bare:
            # without a scheme, a domain ends in a public suffix written in lower case
            # ("it.Is" and "notes.txt" are not domains) and is not a public suffix itself;
            # one that does not may be written in reverse-domain notation, its labels from
            # the suffix on ("uk.co.dvla-refund-portal", as an allowlist or a package
            # names a host): the host they name, read the same way, when it has three
            # labels or more and the last holds a letter ("the no.1 pick" names none)
            if written[written.rfind(".") + 1:] not in tops or host in rules:
                labels = host.split(".")
                host = ".".join(reversed(labels))
                if len(labels) < 3 or written[:written.find(".")] not in tops \
                        or host in rules or not host.isascii() \
                        or not any(c.isalpha() for c in labels[-1]):
                    continue
        else:
            host = host.removeprefix("www.")
        if not host.isascii():
            host = _ace_host(host, aces, (shape, start))
        found.setdefault(host, "url")
        hit = True
    return hit


_AceTemplate = tuple[str, "Callable[[str], Any] | None"]
"""A host shape's IDNA form with "{}" where each ASCII digit of a host of that shape goes,
in order, and what picks those digits out of the host (None: it holds none)."""


def _ace_host(host: str, aces: dict[_Key, _AceTemplate | None], shape: _Key) -> str:
    """`_punycode(host)`, worked out once per `shape` of host (its ASCII digits read as 0;
    `_urls` names it by its chunk's shape and where it starts there) where `_ace_label`
    can write each of its labels: its ASCII digits are copied into the form in order (an
    ASCII label is copied whole, a label beyond ASCII begins with its ASCII characters),
    so a host of the shape has the shape's form with its own digits put in. The 111,111
    hosts of a megabyte "ф0.рф ф1.рф ..." have six shapes."""
    if shape in aces:
        template = aces[shape]
    else:
        # lower() (which made `host`) makes no ASCII digit and keeps each
        template = aces[shape] = _ace_template(host.translate(_ZEROS))
    if template is None:
        return _punycode(host)
    form, digits = template
    return form if digits is None else form.format(*digits(host))


_Key = TypeVar("_Key", bound=Hashable)


def _ace_template(shape: str) -> _AceTemplate | None:
    """The `_AceTemplate` of a host shape; None where `_punycode` must read each host
    (a label the codec decides, an empty one, or an IDNA dot other than ".")."""
    labels = shape.split(".")
    if not all(labels) or not _IDNA_DOTS.isdisjoint(shape):
        return None
    ace = [*map(_ace_label, labels)]
    if None in ace:
        return None
    # a host holds no brace (`_HOSTNAME`: letters, digits, "." and "-"), nor does its
    # IDNA form: each "0" (an ASCII digit of the host) a label's form copies is a slot;
    # a label beyond ASCII copies its ASCII characters after "xn--", then its punycode
    # writes digits of its own
    form = ".".join(
        label.replace("0", "{}") if label.isascii() else
        "xn--" + (basic := label.encode("ascii", "ignore").decode("ascii")).replace("0", "{}")
        + cast("str", written)[4 + len(basic):]
        for label, written in zip(labels, ace, strict=True))
    at = [i for i, c in enumerate(shape) if c == "0"]
    if not at:
        return form, None
    # one place: itemgetter gives the character, which `*` spreads as itself
    return form, itemgetter(*at)


def unicode_host(host: str) -> str | None:
    """A host in its ASCII (IDNA) form with a label in punycode, as it is written in
    Unicode ("xn--stadtwerke-mnchen-e3b.de" -> "stadtwerke-münchen.de"); None for a host
    with no such label or none that decodes."""
    if "xn--" not in host:
        return None
    try:
        written = host.encode("ascii").decode("idna")
    except UnicodeError:
        return None
    return written if written != host else None


def _punycode(host: str) -> str:
    """A host with letters beyond ASCII in its ASCII (IDNA) form, the one a browser
    resolves: "stadtwerke-münchen.de" is "xn--stadtwerke-mnchen-e3b.de". As written when
    it is no valid IDNA name."""
    labels = host.split(".")
    if all(labels) and _IDNA_DOTS.isdisjoint(host):
        ace = [*map(_ace_label, labels)]
        if None not in ace:
            return ".".join(cast("list[str]", ace))
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


_IDNA_DOTS = frozenset("\u3002\uff0e\uff61")
"""The dots other than "." the IDNA codec splits a name at."""


def _ace_label(label: str) -> str | None:
    """`label` as the IDNA codec's ToASCII writes it, where nameprep leaves it as it is;
    None where the codec must decide (nameprep would change it, or it is no valid label).
    Worked out once per shape (`_ZEROS`: "ф17" and "ф42" are both "ф00"): the ASCII
    characters of a label are copied first, in order, and what follows them depends on
    where the others stand and which they are, not on which ASCII characters stand
    between; nameprep keeps every ASCII digit, and NFKC composes none with its
    neighbours. A megabyte of hosts "ф{i}.рф" has six shapes."""
    if label.isascii():
        return label if len(label) < 64 else None
    shape = label.translate(_ZEROS)
    ace = _ace_shape(shape)
    if ace is None or shape == label:
        return ace
    basic = label.encode("ascii", "ignore").decode("ascii")
    return "xn--" + basic + ace[4 + len(basic):]


@lru_cache(maxsize=4096)  # a top-level domain such as "рф" ends every host of a text
def _ace_shape(label: str) -> str | None:
    """`_ace_label` of a label beyond ASCII. The codec's nameprep walks the stringprep
    tables for every character of every label, about 45 µs a label: a megabyte of
    distinct hosts cost over 7 CPU s. A label whose characters nameprep each keeps (none
    of them right-to-left, so no bidirectional check applies) and that NFKC (Unicode
    3.2, as nameprep) keeps, nameprep keeps whole."""
    if label.startswith("xn--") or not _kept_by_nameprep(label) \
            or unicodedata.ucd_3_2_0.normalize("NFKC", label) != label:
        return None
    ace = ace_form(label)
    return ace if len(ace) < 64 else None


def ace_form(label: str) -> str:
    """`label` as an ASCII label: as it is when it is ASCII, else "xn--" and its punycode
    (no nameprep, no check of its length: `_ace_label` makes those where the IDNA codec
    would).

    >>> ace_form("рф"), ace_form("com")
    ('xn--p1ai', 'com')
    """
    return label if label.isascii() else "xn--" + punycode(label)


_NAMEPREP_KEPT: set[str] = set()
"""The characters `_kept_by_nameprep` found kept so far (a set: a label's characters are
looked up in one call)."""


def _kept_by_nameprep(label: str) -> bool:
    """Whether nameprep maps each character of `label` to itself, allows it and reads it
    left to right."""
    return _NAMEPREP_KEPT.issuperset(label) or all(map(_char_kept_by_nameprep, label))


@cache
def _char_kept_by_nameprep(char: str) -> bool:
    from encodings.idna import nameprep

    try:
        kept = nameprep(char) == char and not stringprep.in_table_d1(char)
    except UnicodeError:
        return False
    if kept:
        _NAMEPREP_KEPT.add(char)
    return kept


def _url_spans(chunk: str) -> tuple[_UrlSpan, ...]:
    """The spans of `chunk` where a plausible host is written: after `http://`,
    `https://` or `www.` (the host is the span lower-cased, without `www.`), or without
    them (the span lower-cased, if it ends in a public suffix and is not one)."""
    out: list[_UrlSpan] = []
    at = 0
    for piece in _PIECE_END.split(chunk) if _PIECE_END.search(chunk) else (chunk,):
        start, at = at, at + len(piece) + 1  # each piece ends at one character
        piece = piece.rstrip(_TRAILING)
        if "." not in piece:
            continue
        bare = not ("://" in piece or piece[:4].lower() == "www.")
        if "://" in piece:
            scheme, _, piece = piece.partition("://")
            if not scheme.lower().endswith(("http", "https")):
                continue
            start += len(scheme) + 3
        m = _HOST.match(piece)
        written = m.group(0).rstrip(_TRAILING) if m else ""
        host = written.lower() if bare else written.lower().removeprefix("www.")
        if _plausible(host):
            out.append((start, start + len(written), bare))
        if "://" in piece:
            out += _inner_url_spans(piece, start)
    return tuple(out)


def _inner_url_spans(piece: str, start: int) -> list[_UrlSpan]:
    """The spans of the hosts of URLs written inside the URL `piece` (a redirect's
    target in its query: "google.com/url?q=https://evil.example/x"), after its own
    host: each later `http://` or `https://`. `start`: where `piece` is in its chunk.
    Each character is read at most twice (the scheme's letters, back to the `://` before)."""
    out: list[_UrlSpan] = []
    k = piece.find("://", 1)
    before = 0
    while k >= 0:
        j = k
        while j > before and piece[j - 1].isalpha() and k - j < 5:
            j -= 1
        if k > 0 and piece[j:k].lower() in ("http", "https"):
            m = _HOST.match(piece, k + 3)
            written = m.group(0).rstrip(_TRAILING) if m else ""
            if _plausible(written.lower().removeprefix("www.")):
                out.append((start + k + 3, start + k + 3 + len(written), False))
        before = k + 3
        k = piece.find("://", before)
    return out


def _luhn_valid(digits: str) -> bool:
    """python-stdnum's Luhn check, its package imported on the first card-length number
    (importing it costs 0.02 CPU s, and most texts hold none)."""
    from stdnum import luhn

    return bool(luhn.is_valid(digits))


def _numbers(text: str, accounts: dict[str, TokenKind], numbers: dict[str, TokenKind]
             ) -> str:
    """Adds the account numbers (IBANs in any grouping, checksum-checked when grouped;
    card numbers that pass the Luhn check) and long numbers (7+ digits in one piece,
    phone numbers, grouped numbers of 10+ digits, by their digits) of `text`, and gives
    `text` with each grouped one blanked. The runs of groups are found by bounded
    patterns with no choice between two ways of reading a character."""
    _domestic_accounts(text, numbers)
    blank: list[tuple[int, int]] = []
    for m in _BOXED.finditer(text):
        # an IBAN typed one character per box: from its first box, its country's length
        boxes = _BOX_SPACE.sub("", m.group(0)).upper()
        compact = boxes[:_iban_lengths().get(boxes[:2], 0)]
        if _IBAN_COMPACT.fullmatch(compact) is not None and iban_is_valid(compact):
            accounts.setdefault(compact, "account")
            blank.append(m.span())
    for m in _IBAN_RUN.finditer(text):
        run = m.group(0)
        if len(run) < 15:
            continue
        spans = [g.span() for g in _IBAN_GROUP.finditer(run)]
        groups = [run[a:b] for a, b in spans]
        first = 0
        while first < len(groups):
            # an IBAN from this group on, its country's length of characters (a group
            # may end inside the check digits: "GB2 9NW BK6 …" in threes); a run whose
            # first word is none ("CO2 GB29 NWBK …") is read on from a later group
            used = _grouped_iban(groups, first)
            if used > first:
                accounts.setdefault("".join(groups[first:used]).upper(), "account")
                blank.append((m.start() + spans[first][0], m.start() + spans[used - 1][1]))
                first = used
                continue
            if first == 0 and _IBAN_COMPACT.fullmatch(groups[0]):
                accounts.setdefault(groups[0], "account")  # IBAN-shaped, as written
                blank.append((m.start(), m.start() + len(groups[0])))
            first += 1
    text = _blanked(text, blank)
    blank = []
    for m in _NUMBER_RUN.finditer(text):
        run = m.group(0).rstrip(_TRAILING + "-/")
        if len(run) < _MIN_PHONE:
            continue
        groups = run.split()
        for g in groups:
            if g.isdigit() and len(g) >= 7 and not (len(groups) == 1 and _routing(text, m.start(), g)):
                numbers.setdefault(g, "number")
        digits = run.translate(_NOT_DIGITS)
        if (len(groups) == 1 and run.isdigit()) or not digits.isdigit() \
                or len(digits) > _MAX_CARD:
            continue
        phone = run[0] in "+(" and _MIN_PHONE <= len(digits) <= _MAX_PHONE
        if len(digits) >= _MIN_CARD and not phone and _luhn_valid(digits):
            accounts.setdefault(digits, "account")
        elif phone or (len(digits) >= 10 and not _dated(groups[0])) or (
                len(digits) < 10 and _phone_grouped(run)):
            numbers.setdefault(digits, "number")
        else:
            continue
        blank.append((m.start(), m.start() + len(run)))
    return _blanked(text, blank)


_HEX_RUN = re.compile(r"(?<![\w.])[0-9A-Fa-fxX]{1,42}(?!\w)(?:[ \t-][0-9A-Fa-f]{1,40}(?!\w)){0,40}")
"""A run of groups of hexadecimal digits (the first may start with "0x"), separated by
one blank or hyphen: each repetition starts with the separator the group before cannot
hold."""
_HEX_DIGITS = 40
_HEX_SEPARATOR = re.compile(r"[ \t-]")


def _hex_addresses(text: str, accounts: dict[str, TokenKind]) -> str:
    """Adds the 40-hex-digit addresses of `text` (an Ethereum-style wallet), with or
    without their "0x" and in any grouping ("0x7A3F…", "7a3f 9c2e … 6e0f"), as "0x" and
    the digits in lower case, and gives `text` with each blanked. A window of consecutive
    groups of a run is an address when it holds exactly 40 hex digits, at least eight of
    them digits and four letters (words such as "a bad cafe" are hex too); windows are
    found left to right by two pointers over the groups, so a run is read once."""
    blank: list[tuple[int, int]] = []
    for m in _HEX_RUN.finditer(text):
        run = m.group(0)
        if len(run) < _HEX_DIGITS:
            continue
        groups = _HEX_SEPARATOR.split(run)
        starts = [0]
        for g in groups[:-1]:
            starts.append(starts[-1] + len(g) + 1)
        digits = [g[2:] if g[:2] in ("0x", "0X") and k == 0 else g
                  for k, g in enumerate(groups)]
        if any(not all(c in _HEX_CHARS for c in d) for d in digits[1:]):
            continue  # an "x" is only a prefix's
        # each group's numerals counted once and summed over the window as it slides:
        # counting them per window read each character up to 40 times
        numeral_counts = [sum(map(str.isdigit, d)) for d in digits]
        first_is_hex = all(c in _HEX_CHARS for c in digits[0])
        lo, total, numerals = 0, 0, 0
        for hi, d in enumerate(digits):
            total += len(d)
            numerals += numeral_counts[hi]
            while total > _HEX_DIGITS and lo < hi:
                total -= len(digits[lo])
                numerals -= numeral_counts[lo]
                lo += 1
            if total != _HEX_DIGITS:
                continue
            if (lo > 0 or first_is_hex) and numerals >= 8 and _HEX_DIGITS - numerals >= 4:
                compact = "".join(digits[lo:hi + 1]).lower()
                accounts.setdefault("0x" + compact, "account")
                blank.append((m.start() + starts[lo], m.start() + starts[hi] + len(groups[hi])))
                lo, total, numerals = hi + 1, 0, 0
    return _blanked(text, blank)


_HEX_CHARS = frozenset("0123456789abcdefABCDEF")


_ROUTING_LABEL = re.compile(r"(?:routing|aba|rtn|transit)(?:[ \t]*(?:no|nr|number|#))?"
                            r"[ \t.:#=-]{0,3}$")


def _routing(text: str, at: int, digits: str) -> bool:
    """Whether the 9 digits at `at` are a US bank's routing number: labelled so by the
    words just before it ("routing", "ABA", "RTN", "transit", with "no"/"number") and
    passing the ABA checksum. It names a bank, which every customer of it shares, as an
    IBAN's bank code does: not an account, so no token on its own."""
    if len(digits) != 9:
        return False
    from stdnum.us import rtn

    return _ROUTING_LABEL.search(text[max(0, at - 24):at].casefold()) is not None \
        and rtn.is_valid(digits)


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    out, at = [], 0
    for start, end in spans:
        out += [text[at:start], " "]
        at = end
    out.append(text[at:])
    return "".join(out)


def _grouped_iban(groups: list[str], first: int) -> int:
    """The end (exclusive) of the groups from `first` on that make a valid IBAN of their
    country's length, when `groups[first]` starts with a country code and a digit; else
    `first`."""
    head = groups[first]
    if len(head) < 3 or not (head[:2].isalpha() and head[2].isdigit()):
        return first
    want = _iban_lengths().get(head[:2].upper(), 0)
    compact, used = "", first
    while used < len(groups) and len(compact) < want:
        compact += groups[used].upper()
        used += 1
    if len(compact) == want and _IBAN_COMPACT.fullmatch(compact) is not None \
            and iban_is_valid(compact):
        return used
    return first


@cache
def _iban_lengths() -> dict[str, int]:
    """Country code -> the length of its IBANs, from python-stdnum's IBAN registry."""
    return {country: len(shape) for country, shape in iban_formats().items()}


_NOT_DIGITS = str.maketrans("", "", " \t+().-/")
_MIN_NATIONAL = 9


def national_forms(digits: str) -> tuple[str, ...]:
    """The forms a phone number written with its country code (`digits`, 11 or more) takes
    at home: without a country code of one, two or three digits, with or without a trunk
    `0` (`+39 02 8734 5521` is `02 8734 5521` in Milan, `+44 20 7946 0018` is
    `020 7946 0018` in London). Which country code it has is not known, so each length is
    tried; a form shorter than nine digits is left out (it could be another number).

    >>> national_forms("390287345521")
    ('90287345521', '090287345521', '0287345521', '287345521')
    >>> "2079460018" in national_forms("442079460018"), national_forms("0287345521")
    (True, ())
    """
    if not 11 <= len(digits) <= _MAX_PHONE or not digits.isdigit():
        return ()
    out: list[str] = []
    for k in (1, 2, 3):
        rest = digits[k:]
        if len(rest) < _MIN_NATIONAL:
            break
        for form in (rest, rest if rest.startswith("0") else "0" + rest):
            if form not in out:
                out.append(form)
    return tuple(out)


def domestic_forms(account: str) -> tuple[str, ...]:
    """The digits of the national account number a valid IBAN (`account`, in any case,
    without its grouping) was built from, as a domestic form writes them (ISO 13616: an
    IBAN is the country code, two check digits and the country's BBAN): its BBAN where
    that is digits only (Spain's CCC `2100-0418-45-0200051332`, Belgium's
    `510-0075470-61`, Norway's `8601.11.17947`, the Czech `0800 000019 2000145399`);
    Italy's and San Marino's without the CIN letter before them (ABI, CAB and account,
    as their labelled fields give them, `_domestic_accounts`); Britain's without the
    bank's four letters (the sort code and account number, `_SORT_CODE_COUNTRIES`, as a
    grouping or their labels give them). The BBAN is the same
    account at home, so a record writing it carries the IBAN; only in the countries
    of `_BBAN_AT_HOME` and `_CIN_COUNTRIES`, and Poland's NRB, the IBAN without its
    country code (`_CHECKED_AT_HOME`). Any other token has none.

    >>> domestic_forms("es9121000418450200051332"), domestic_forms("IT60X0542811101000000123456")
    (('21000418450200051332',), ('0542811101000000123456',))
    >>> domestic_forms("GB29NWBK60161331926819"), domestic_forms("ES9121000418450200051333")
    (('60161331926819',), ())
    >>> domestic_forms("DE89370400440532013000")
    ()
    """
    upper = account.upper()
    if _IBAN_COMPACT.fullmatch(upper) is None or not iban_is_valid(upper):
        return ()
    bban = upper[4:]
    if upper[:2] in _BBAN_AT_HOME and bban.isdigit():
        return (bban,)
    if upper[:2] in _CIN_COUNTRIES and bban[1:].isdigit():
        return (bban[1:],)
    if upper[:2] in _CHECKED_AT_HOME and upper[2:].isdigit():
        return (upper[2:],)
    if upper[:2] in _SORT_CODE_COUNTRIES and bban[4:].isdigit() and len(bban) == 18:
        return (bban[4:],)
    return ()


def domestic_clues(account: str) -> list[str]:
    """Patterns (of canonical text), besides the digits of its `domestic_forms` in any
    grouping, one of which every text writing `account` (an IBAN) in a national form
    `_domestic_accounts` reads holds: a Czech number and bank code around their slash,
    an Italian ABI field."""
    forms = domestic_forms(account)
    if not forms:
        return []
    country, digits = account[:2].upper(), forms[0]
    if country == "CZ":
        return [re.escape(digits[10:].lstrip("0") + "/" + digits[:4])]
    if country in _CIN_COUNTRIES:
        return ["abi[^\\d\\n]{0,6}?" + digits[:5]]
    if country in _SORT_CODE_COUNTRIES:
        return ["[ -]?".join([digits[0:2], digits[2:4], digits[4:6]])]
    return []


_BBAN_AT_HOME = frozenset({"BE", "CZ", "ES", "HR", "HU", "NO", "PT", "RS", "SI"})
"""Countries whose domestic account number is the BBAN's digits, one number in the
BBAN's order however grouped (Spain's CCC, Portugal's NIB, Belgium's 3-7-2, Norway's
4.2.5, Hungary's 3x8, the Croatian, Serbian and Slovenian bank-and-account forms), or
is read into that order (`_domestic_accounts`: the Czech form). Elsewhere the BBAN is
not one number at home (Germany's and Austria's bank code and account are two, written
apart; a dotted `DE89.3704…` is only a near miss, `judge.lexical.near-miss`)."""
_CHECKED_AT_HOME = frozenset({"PL"})
"""Countries whose domestic account number is the IBAN without its country code, check
digits and all (Poland's NRB: `61 1090 1014 0000 0712 1981 2874`)."""
_SORT_CODE_COUNTRIES = frozenset({"GB"})
"""Countries whose BBAN is the bank's four letters, a six-digit sort code and an
eight-digit account number, and whose domestic form is those two numbers, which the
letters are left out of: Britain's sort code `20-20-15` and account `55555555`, written
together in a grouping or apart under their labels (`_SORT_CODE_FIELDS`)."""
_CIN_COUNTRIES = frozenset({"IT", "SM"})
"""The countries whose BBAN opens with a check letter (the CIN) before its digits."""

_CZECH_ACCOUNT = re.compile(r"(?<![\w/-])(?:(\d{1,6})-)?(\d{2,10})/(\d{4})(?![\w/])")
"""A Czech domestic account number: an optional prefix and a hyphen, the number, a slash
and the bank code (`19-2000145399/0800`)."""
_ITALIAN_FIELDS = re.compile(r"(?<![a-z])abi[^\d\n]{0,6}?(\d{5})(?!\d)[^\d\n]{1,8}?cab[^\d\n]{0,6}?"
                             r"(\d{5})(?!\d)[^\d\n]{1,24}?(\d{3,12})(?!\d)")
"""An Italian account as its labelled fields (canonical text): ABI, the bank's five
digits; CAB, the branch's five; then the account number (`c/c`, `conto`) of up to
twelve digits, each label a few characters from its digits, the three on one line."""
_SORT_CODE_FIELDS = re.compile(r"(?<![a-z])(?:sort[ -]?code|//sc)[^\d\n]{0,6}?"
                               r"(?<!\d)(\d\d)[ -]?(\d\d)[ -]?(\d\d)(?![\d-])")
"""A British sort code under its label (canonical text): `sort code`, or a SWIFT field's
`//SC` clearing code (MT103's 57D), a few characters before its six digits in twos."""
_UK_ACCOUNT_FIELD = re.compile(r"(?<![a-z])(?:account(?: number| no\.?)?|acct|a/c|:59[af]?:/)"
                               r"[^\d\n]{0,6}?(?<!\d)(\d{8})(?!\d)")
"""The account number after a sort code: labelled `account` (`number`, `no`), `acct`,
`a/c`, or the beneficiary field `:59:/` of a SWIFT message, eight digits."""
_SORT_CODE_REACH = 160
"""How far after a sort code its account number's label is looked for (one line of a
letter, or the few fields of a SWIFT message between 57D and 59)."""
_NACHA_ENTRY = re.compile(r"(?<![0-9a-z])6([23458][0-9])([0-9]{8})([0-9])([0-9a-z -]{17})[0-9]{10}")
"""A NACHA entry detail record as its fixed fields run on: record type 6, the
transaction code, the receiving bank's eight-digit routing number and its check digit,
the account number left-justified in 17 places, the amount in 10 digits."""


def _domestic_accounts(text: str, numbers: dict[str, TokenKind]) -> None:
    """Adds the account numbers `text` (canonical) writes in a national form no grouping
    shows, as the digits of their BBAN (`domestic_forms` gives those of an IBAN): a Czech
    `prefix-number/bank` passing its checks (python-stdnum's `cz.bankaccount`), as bank
    code, prefix (six places) and number (ten); Italian ABI, CAB and account fields; a
    British sort code and the account number labelled after it (`_SORT_CODE_FIELDS`); and
    the account number of a NACHA entry detail record whose routing number passes the
    ABA check, read from its fixed places (the run of digits holds the routing number
    and the account as one number)."""
    if "/" in text:
        from stdnum.cz import bankaccount

        for m in _CZECH_ACCOUNT.finditer(text):
            prefix, number, bank = m.group(1) or "", m.group(2), m.group(3)
            if bankaccount.is_valid(m.group(0)):
                numbers.setdefault(bank + prefix.zfill(6) + number.zfill(10), "number")
    if "abi" in text and "cab" in text:
        for m in _ITALIAN_FIELDS.finditer(text):
            numbers.setdefault(m.group(1) + m.group(2) + m.group(3).zfill(12), "number")
    if "sort" in text or "//sc" in text:
        done = 0
        for m in _SORT_CODE_FIELDS.finditer(text):
            if m.start() < done:
                continue
            labelled = _UK_ACCOUNT_FIELD.search(text, m.end(), m.end() + _SORT_CODE_REACH)
            # the search ends at the reach, where `(?!\d)` sees no digit after: a longer
            # number running past it is no eight-digit account
            if labelled is not None and not text[labelled.end():labelled.end() + 1].isdigit():
                numbers.setdefault("".join(m.groups()) + labelled.group(1), "number")
                done = labelled.end()
    if "6" in text:
        from stdnum.us import rtn

        for m in _NACHA_ENTRY.finditer(text):
            account = m.group(4).rstrip(" ")
            if account.isdigit() and len(account) >= _MIN_PHONE \
                    and rtn.is_valid(m.group(2) + m.group(3)):
                numbers.setdefault(account, "number")


_HAS_DIGIT = re.compile(r"\d").search


_GROUP_SPLIT = re.compile(r"[ \t.\-/]")


def _phone_grouped(run: str) -> bool:
    """Whether `run`, a number of seven to nine digits in groups, is grouped as a
    national phone number is and an amount, a date or a list of small numbers is not:
    three groups or more, the first of three or four digits, each later one of two to
    four ("599 41 27 83", Georgia; "094-61-28-37", Armenia; "0911 62 47 83"), not a
    date's four, two and two (or two, two and four), and not a thousands grouping (each
    later group of three: "1 250 000") unless its first digit is a trunk zero, which no
    amount starts with ("094 612 837")."""
    parts = [p for p in _GROUP_SPLIT.split(run) if p]
    if len(parts) < 3 or not all(p.isdigit() for p in parts):
        return False
    lengths = [len(p) for p in parts]
    if not (3 <= lengths[0] <= 4 and all(2 <= n <= 4 for n in lengths[1:])):
        return False
    if lengths in ([4, 2, 2], [2, 2, 4]):
        return False
    return parts[0][0] == "0" or any(n != 3 for n in lengths[1:])


def _dated(piece: str) -> bool:
    """Whether `piece` looks like a date (2024-05-01, 01/05/2024, 2024.05.01)."""
    groups = [g for g in re.split(r"[-./]", piece) if g]
    return len(groups) == 3 and sorted(map(len, groups)) in ([2, 2, 4], [1, 2, 4], [1, 1, 4])


def _id(run: str, found: dict[str, TokenKind]) -> None:
    """Adds `run` (of letters, digits, "_" and "-") to `found` when it is an id: letters
    and digits mixed, 5+ characters, not an ordinal or a measure ("21st", "250kg")."""
    tok = run.lstrip("-_").rstrip("-")
    if len(tok) >= 5 and not tok.isalpha() and not tok.isdigit() and _HAS_DIGIT(tok) \
            and _HAS_LETTER(tok) and not _ORDINAL.fullmatch(tok):
        found.setdefault(tok.casefold(), "id")


_ID_PART_SEPARATORS = re.compile(r"[_-]")


def _id_parts(run: str, accounts: dict[str, TokenKind], numbers: dict[str, TokenKind]
              ) -> None:
    """Adds the account numbers and long numbers written as parts of `run` (letters,
    digits, "_" and "-"), between its underscores and hyphens, as a file name writes them
    ("invoice_DE89370400440532013000", "remit-to-DE89…"): an IBAN-shaped part (by its
    checksum, or as written when of IBAN shape, as a compact IBAN counts), a card number
    passing the Luhn check, or 7 or more digits."""
    for part in _ID_PART_SEPARATORS.split(run):
        upper = part.upper()
        if _IBAN_COMPACT.fullmatch(upper) and (
                iban_is_valid(upper) or len(upper) == _iban_lengths().get(upper[:2], 0)):
            accounts.setdefault(upper, "account")
        elif part.isdigit() and len(part) >= _MIN_PHONE:
            if _MIN_CARD <= len(part) <= _MAX_CARD and _luhn_valid(part):
                accounts.setdefault(part, "account")
            else:
                numbers.setdefault(part, "number")


_MIN_PATH_ID = 12


_HANDLE = re.compile(r"(?<![\w@.+-])@([A-Za-z][A-Za-z0-9_]{4,31})(?![\w@-]|\.\w)")
"""A messenger or social handle: "@" and 5 to 32 letters, digits and "_" (Telegram's
rule), not part of an e-mail address. Its name ignores case."""
_HANDLE_LINK = re.compile(r"(?i)(?<![\w.-])(?:https?://)?(?:t|telegram)\.me/"
                          r"([A-Za-z][A-Za-z0-9_]{4,31})(?![\w-])")
"""A Telegram link to a handle: `t.me/NAME` names the account `@NAME`."""
_INSTALL = re.compile(r"(?i)\binstall[ \t]+([A-Za-z0-9][A-Za-z0-9._-]{0,80}[A-Za-z0-9])"
                      r"(?![\w.-])")
_REQUIREMENT = re.compile(r"(?m)^[ \t]*([A-Za-z0-9][A-Za-z0-9._-]{0,80}[A-Za-z0-9])"
                          r"[ \t]*(?:\[[^\]\n]{0,80}\])?[ \t]*(?:===|==|>=|<=|~=|!=|<|>)")
"""A package to install ("pip install NAME") or a requirements line ("NAME>=2.8")."""
_PACKAGE_SEPARATORS = re.compile(r"[-_.]+")


def _packages(text: str, found: dict[str, TokenKind]) -> None:
    """Adds the Python package names `text` installs or requires to `found`, as PEP 503
    normalises them (case-folded, each run of "-", "_" and "." one "-": pip installs
    "Python_Dateutils" as "python-dateutils"): a name of two parts or more, so an id
    ("requests" alone is a word)."""
    if "install" not in text.lower() and not any(op in text for op in ("==", ">=", "<=",
                                                                       "~=", "!=")):
        return
    for pattern in (_INSTALL, _REQUIREMENT):
        for m in pattern.finditer(text):
            name = _PACKAGE_SEPARATORS.sub("-", m.group(1)).casefold()
            if "-" in name and _HAS_LETTER(name) and not name.replace("-", "").isdigit():
                found.setdefault(name, "id")


def _path_ids(chunk: str, found: dict[str, TokenKind]) -> None:
    """Adds the ids written in the path or query of the URLs of `chunk` (after the first
    "/" that follows its host) to `found`: an id of at least 12 characters (a form's or a
    document's, "1FAIpQLSc…"), which names one page where its host names a whole site;
    and the handle a Telegram link names (`t.me/NAME` is `@name`)."""
    for m in _HANDLE_LINK.finditer(chunk):
        found.setdefault("@" + m.group(1).casefold(), "id")
    slash = chunk.find("/", chunk.find("://") + 3 if "://" in chunk else 0)
    if slash < 0:
        return
    for m in _ID_RUN.finditer(chunk, slash):
        if len(m.group(0)) >= _MIN_PATH_ID:
            _id(m.group(0), found)


def initial_words(text: str) -> set[str]:
    """The capitalised words that start a sentence of `text`, case-folded (whether they
    are names is for `lower_case_uses` to say).

    >>> sorted(initial_words("Standing instruction: Send it. Lin said so, Alice."))
    ['lin', 'send', 'standing']
    """
    first = _first_visible(text)
    return {m.group(0).casefold() for m in _name_patterns()[1].finditer(text)
            if _starts_sentence(text, m.start(), first)}


def lower_case_uses(candidates: Iterable[str], texts: Iterable[str]) -> set[str]:
    """Those of the case-folded `candidates` that some text of `texts` writes in lower
    case (one search over all the texts).

    >>> sorted(lower_case_uses({"standing", "lin"}, ["a standing order", "Lin"]))
    ['standing']
    """
    wanted = sorted(candidates, key=len, reverse=True)
    if not wanted:
        return set()
    # no assertion in front: it would hide the words' first letters from the regex engine
    pattern = re.compile("(?:" + "|".join(map(re.escape, wanted)) + r")(?!\w)")
    found: set[str] = set()
    # a few thousand texts joined at a time, and no more read once every candidate is
    # found (a word never spans two texts: each chunk starts and ends where one does)
    it = iter(texts)
    while chunk := list(islice(it, _TEXTS_SEARCHED_TOGETHER)):
        joined = "\n".join(chunk)
        for m in pattern.finditer(joined):
            if m.start() == 0 or not (joined[m.start() - 1].isalnum()
                                      or joined[m.start() - 1] == "_"):
                found.add(m.group(0))
                if len(found) == len(wanted):
                    return found
    return found


_TEXTS_SEARCHED_TOGETHER = 4096
"""Texts `lower_case_uses` joins for one search."""
