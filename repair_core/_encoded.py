"""Text written in a reversible encoding of a format, read as the text it encodes (each
function below says which). An agent writes a payload this way when it exports a record
as JSON, saves a web form, formats a note in Markdown or stores a token, and the payload
is still there for whoever reads the record next.

Each reading is one pass of an anchored pattern with possessive runs (no pattern
backtracks) and bounded work for each match, so a megabyte of any shape costs time linear
in it. A low layer: `_canonical` builds on it.
"""

from __future__ import annotations

import binascii
import re
import unicodedata
from collections.abc import Callable

from ._spelled import _iban_valid

__all__ = ["BASE64_LONGEST", "BASE64_SHORTEST", "base64_read", "cdata_read",
           "content_lines_unfolded", "form_spaces", "json_unescaped", "markdown_unemphasised", "quoted_printable_read",
           "rtf_read"]


_CONTENT_LINES = re.compile(r"^begin:v(?:card|calendar|event|todo|journal)\r?$",
                            re.IGNORECASE | re.MULTILINE)
_FOLD = re.compile(r"\r?\n[ \t]")


def content_lines_unfolded(text: str) -> str:
    """`text` with its folded lines joined when it is a vCard or an iCalendar object (a
    line `BEGIN:VCARD`, `BEGIN:VCALENDAR`, `BEGIN:VEVENT`, …): each line break followed by
    one blank or tab is dropped with that blank, as RFC 6350 and RFC 5545 unfold a
    content line that was folded at 75 octets, wherever the fold fell (inside a number,
    a host or a word). Any other text is returned as written: a line break before an
    indented line of prose or code is no fold. In one pass.

    >>> content_lines_unfolded("BEGIN:VCARD\\r\\nTEL:+44141496\\r\\n 0733\\r\\nEND:VCARD")
    'BEGIN:VCARD\\r\\nTEL:+441414960733\\r\\nEND:VCARD'
    >>> content_lines_unfolded("Call +44141496\\n 0733")
    'Call +44141496\\n 0733'
    """
    if "EGIN:" not in text and "egin:" not in text:
        return text
    return _each_text(text, _unfolded)


def _unfolded(text: str) -> str:
    return text if _CONTENT_LINES.search(text) is None else _FOLD.sub("", text)


def _each_text(text: str, read: Callable[[str], str]) -> str:
    """`read` of each of the texts NUL joins in `text` (`canonical_joined` reads many
    texts in one call): a reading whose test is the whole text's must not let one text's
    form decide how another is read."""
    if "\0" not in text:
        return read(text)
    return "\0".join(map(read, text.split("\0")))


_CDATA_OPEN, _CDATA_CLOSE = "<![CDATA[", "]]>"


def cdata_read(text: str) -> str:
    """`text` with each XML CDATA section read as the text it holds, its `<![CDATA[` and
    `]]>` dropped, so two sections side by side are one run of text, as an XML reader
    gives them (`<iban><![CDATA[DE5737050198]]><![CDATA[0041773312]]></iban>` holds one
    IBAN). A `]]>` outside a section, and an opening never closed, stay as written. One
    pass of `str.find`: a text of unclosed openings is not searched again from each.

    >>> cdata_read("<a><![CDATA[DE57 37]]><![CDATA[05 01]]></a> x]]> <![CDATA[open")
    '<a>DE57 3705 01</a> x]]> <![CDATA[open'
    """
    at = text.find(_CDATA_OPEN)
    if at < 0:
        return text
    out: list[str] = []
    done = 0
    while at >= 0:
        end = text.find(_CDATA_CLOSE, at + len(_CDATA_OPEN))
        if end < 0:
            break  # no later opening can be closed either
        out += [text[done:at], text[at + len(_CDATA_OPEN):end]]
        done = end + len(_CDATA_CLOSE)
        at = text.find(_CDATA_OPEN, done)
    out.append(text[done:])
    return "".join(out)


_QP_SOFT_BREAK = re.compile(r"=\r?\n")
_QP_BODY_BREAK = re.compile(r"(?<=\S)=\r?\n")
_QP_BYTES = re.compile(r"(?:=[0-9A-F]{2})++")
_QP_SURE = re.compile(r"=3D|=[C-F][0-9A-F]=[89AB][0-9A-F]")
"""An escape only quoted-printable writes: `=3D` (an `=` itself) or a character beyond
ASCII as UTF-8 (a lead byte, then a continuation byte); `=20` is a query string's too."""


def _qp_decoded(m: re.Match[str]) -> str:
    written = m.group(0)
    try:
        text = bytes.fromhex(written.replace("=", "")).decode("utf-8")
    except UnicodeDecodeError:
        return written
    # printable text only: an escaped control character or NUL (which joins texts) stays
    return text if all(c.isprintable() or c in " \t" for c in text) else written


def quoted_printable_read(text: str) -> str:
    """`text` read as a quoted-printable body (RFC 2045) when it is one: when it holds
    a soft line break right after a word (`por=` at the end of a line) and an escape
    only quoted-printable writes (`=3D`, or UTF-8 of a character beyond ASCII:
    `=C2=A3`), each soft break is dropped and each run of upper-case `=XX` escapes that
    is UTF-8 of printable text is read as that text; any other text is returned as
    written (`amount=20` in a query string, or an assignment whose line ends in ` =`,
    is no such body). In one pass each.

    >>> quoted_printable_read('<a href=3D"https://pay-por=\\ntal.example/x">=C2=A386</a>')
    '<a href="https://pay-portal.example/x">£86</a>'
    >>> quoted_printable_read("x=20 and y =\\n 5")
    'x=20 and y =\\n 5'
    >>> quoted_printable_read("?q=20&r=3D=\\n1")
    '?q &r=1'
    """
    if "=" not in text or not _QP_BODY_BREAK.search(text) or not _QP_SURE.search(text):
        return text
    return _QP_BYTES.sub(_qp_decoded, _QP_SOFT_BREAK.sub("", text))


_RTF_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*+)\\(?:'([0-9a-fA-F]{2})|u(-?\d{1,5})\??|([~_-]))")
_RTF_SYMBOLS = {"~": " ", "_": "-", "-": ""}
"""RTF's control symbols: a non-breaking space, a non-breaking hyphen, an optional hyphen."""


def _rtf_char(m: re.Match[str]) -> str:
    if m.group(4):
        return m.group(1) + _RTF_SYMBOLS[m.group(4)]
    if m.group(2):
        try:
            char = bytes.fromhex(m.group(2)).decode("cp1252")
        except UnicodeDecodeError:  # a byte code page 1252 leaves undefined
            return m.group(0)
    else:
        code = int(m.group(3))
        code = code + 65536 if code < 0 else code  # RTF writes a signed 16-bit number
        if not 0 < code < 0xD800 and not 0xDFFF < code <= 0xFFFF:
            return m.group(0)
        char = chr(code)
    return m.group(1) + char if char.isprintable() else m.group(0)


def rtf_read(text: str) -> str:
    """`text` with an RTF document's escapes read as what they write, when it holds one
    (`{\\rtf`): a non-breaking space `\\~` as a blank, a non-breaking hyphen `\\_` as
    `-`, an optional hyphen `\\-` as nothing, `\\'hh` as its code page 1252 character and
    `\\uN?` as character N; control words (`\\par`, `\\f0`) and braces stay. An escaped
    backslash before one (`\\\\~`) leaves it as written. In one pass.

    >>> rtf_read("{\\\\rtf1 f\\\\'fcr Mai: DE89\\\\~3704\\\\~0044, \\\\u8364? 5\\\\par}")
    '{\\\\rtf1 für Mai: DE89 3704 0044, € 5\\\\par}'
    >>> rtf_read("{\\\\rtf1 C:\\\\\\\\dir\\\\\\\\~x}")
    '{\\\\rtf1 C:\\\\\\\\dir\\\\\\\\~x}'
    """
    if "{\\rtf" not in text:
        return text
    return _RTF_ESCAPE.sub(_rtf_char, text)


_JSON_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*+)\\u([0-9A-Fa-f]{4})")


def _unescaped(m: re.Match[str]) -> str:
    char = chr(int(m.group(2), 16))
    # a printable character only: a surrogate half, a control character (NUL joins texts)
    # or a backslash (which would make an escape that is not in the text) stays as written
    if char == "\\" or not (char.isprintable() or char == " "):
        return m.group(0)
    return m.group(1) + char


_JSON_BREAK = re.compile(r"(?<!\\)((?:\\\\)*+)\\([nrt])")
_NOT_JSON_ESCAPE = re.compile(r'\\[^"\\/bfnrtu]')
_BREAKS = {"n": "\n", "r": "\r", "t": "\t"}


def _broken(m: re.Match[str]) -> str:
    return m.group(1) + _BREAKS[m.group(2)]


def json_unescaped(text: str) -> str:
    """`text` with each JSON `\\uXXXX` escape of a printable character read as the
    character, in one pass; an escaped backslash before it (`\\\\u0044`, the text
    `\\u0044` in JSON) leaves it as written. The escapes `\\n`, `\\r` and `\\t` are read
    as the line break or tab they write where the text holds two or more of them and
    every backslash of it starts an escape JSON has: a multi-line string kept as JSON
    source (an EPC payment payload `BCD\\n002\\n1\\nSCT\\n…\\nDE89…\\nEUR…`, whose IBAN
    the letters `n` glued to it hid), not a Windows path (`C:\\Users\\new`).

    >>> json_unescaped('"iban": "\\\\u0044\\\\u0045\\\\u0031\\\\u0032", "a\\\\\\\\u0044"')
    '"iban": "DE12", "a\\\\\\\\u0044"'
    >>> json_unescaped('BCD\\\\n002\\\\nDE12\\\\nEUR5')
    'BCD\\n002\\nDE12\\nEUR5'
    >>> json_unescaped('C:\\\\Users\\\\new\\\\notes, x\\\\\\\\n y\\\\n')
    'C:\\\\Users\\\\new\\\\notes, x\\\\\\\\n y\\\\n'
    """
    if "\\u" in text:
        text = _JSON_ESCAPE.sub(_unescaped, text)
    if "\\" in text and ("\\n" in text or "\\t" in text or "\\r" in text):
        text = _each_text(text, _json_broken)
    return text


def _json_broken(text: str) -> str:
    """`text` with its `\\n`, `\\r` and `\\t` escapes read (`json_unescaped`) where it
    holds two or more and no backslash that starts no JSON escape."""
    if len(_JSON_BREAK.findall(text)) < 2 or _NOT_JSON_ESCAPE.search(text) is not None:
        return text
    return _JSON_BREAK.sub(_broken, text)


BASE64_SHORTEST = 16
"""The fewest characters a base64 run has to be read (twelve bytes, an IBAN's length)."""
BASE64_LONGEST = 4096
"""The most characters a base64 run has to be read: a longer one is an attachment, not a
token, and stays as written, which keeps decoding a megabyte of base64 bounded."""

_BASE64_RUN = re.compile(rf"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{{{BASE64_SHORTEST},}}+={{0,2}}+"
                         r"(?![A-Za-z0-9+/=])")


def _decoded(m: re.Match[str]) -> str:
    written = m.group(0)
    # a run of digits alone is a number (a card's 16, an account's 20): base64 of ASCII
    # text never is one, yet about one 16-digit number in 10,000 decodes to printable
    # text of mixed scripts, and the number would be lost
    if len(written) > BASE64_LONGEST or len(written.rstrip("=")) % 4 == 1 \
            or written.isdigit():
        return written
    try:
        text = binascii.a2b_base64(written + "=" * (-len(written) % 4),
                                   strict_mode=False).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return written
    # only printable text that holds a letter or digit is read: an id or a hash of the
    # base64 alphabet decodes to bytes that are no such text (twelve random bytes are
    # printable ASCII one time in 150,000)
    if not text.isprintable() or not any(c.isalnum() for c in text) \
            or len(_scripts_beyond_ascii(text)) > 1 or not _reads_as_text(text):
        return written
    # a valid IBAN is the account it names, whatever its letters decode to (one Yemeni
    # IBAN in 30,000 decodes to ASCII and a CJK letter)
    if _IBAN_SHAPE.fullmatch(written) and _iban_valid(written):
        return written
    return text


_LETTERS = re.compile(r"[^\W\d_]+")
_ADDRESS_IN = re.compile(r"[A-Za-z][a-z+.-]{1,20}://[^\W_][\w-]{0,62}\.|"
                         r"[\w.+-]@[^\W_][\w-]{0,62}\.[^\W\d_]{2}")
"""A URL's scheme and the start of its host, or an e-mail address's `@` and domain."""
_MARKS_PER_CHARACTER = 1 / 3
"""The largest share of a decoding's non-blank characters that may be neither letters
nor digits, unless it holds a URL or an e-mail address (`_ADDRESS_IN`)."""


def _reads_as_text(text: str) -> bool:
    """Whether a decoding reads as something written: each run of letters in one case
    form (lower case, capitals, or a capital and lower case: a word, an acronym, a name;
    letters without case count as any), its digits of one script, and at most a third
    of the non-blank characters marks, unless it holds a URL or an e-mail address (JSON
    claims and HTML are mostly marks). What random bytes decode to when printable
    switches case inside its words ("LD5)aE)M5gNR", "gj5.uLJÃmyU") or is mostly marks
    ("Z<Ż>vu,g&m&")."""
    if len({unicodedata.digit(c, -1) >= 0 and unicodedata.name(c, "").partition(" ")[0]
            for c in text if c.isdigit()} - {False}) > 1:
        return False  # digits of two scripts ("ep4P6I۴Bg"): no one writes so
    for m in _LETTERS.finditer(text):
        word = m.group()
        if not (word.islower() or word.isupper() or word.istitle()) \
                and any(c.isupper() or c.islower() for c in word):
            return False
    if _ADDRESS_IN.search(text):
        return True
    seen = [c for c in text if not c.isspace()]
    marks = sum(1 for c in seen if not c.isalnum())
    return marks <= len(seen) * _MARKS_PER_CHARACTER


_IBAN_SHAPE = re.compile(r"[A-Z]{2}\d{2}[A-Z0-9]{12,30}")
"""A compact IBAN of 16 characters or more (a base64 run's shortest)."""


_ONE_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK"}
"""Scripts one language writes together, named as one (Japanese: kana and kanji)."""


def _scripts_beyond_ascii(text: str) -> set[str]:
    """The scripts of `text`'s letters beyond ASCII, by the first word of their Unicode
    names ("CYRILLIC", "NKO"; `_ONE_SCRIPT`). What an account number or an id decodes to
    when it happens to be printable mixes several ("-?y۞:ߎ5Ӯ;߮4", NKo and Cyrillic,
    from a valid Lithuanian IBAN), and a payload written in base64 holds one (a
    homograph host's Cyrillic letter among ASCII ones)."""
    names = (unicodedata.name(c, "").partition(" ")[0] for c in set(text)
             if not c.isascii() and c.isalpha())
    return {_ONE_SCRIPT.get(name, name) for name in names}


def base64_read(text: str) -> str:
    """`text` with each run of 16 to 4096 base64 characters (`A-Z`, `a-z`, `0-9`, `+`,
    `/`, up to two `=` of padding), not of digits alone, that decodes to printable UTF-8
    text whose letters beyond ASCII are of one script, read as that text.

    >>> base64_read("payee_token REUxMjUwMDEwNTE3MDY0ODQ4OTg5MA== id Ab12Cd34Ef56Gh78")
    'payee_token DE12500105170648489890 id Ab12Cd34Ef56Gh78'
    """
    # a run written again is read once (checking a valid IBAN costs some 25 µs: a
    # megabyte of one IBAN repeated took 0.85 s read run by run)
    read: dict[str, str] = {}

    def once(m: re.Match[str]) -> str:
        out = read.get(m.group(0))
        if out is None:
            out = read[m.group(0)] = _decoded(m)
        return out

    return _BASE64_RUN.sub(once, text)


_EMPHASIS = re.compile(r"(?<=[^\W_])[*`~]++(?=[^\W_])")
_MARKED_WORD = re.compile(r"(?<!\S)[^\s*`~]*+[*`~][^\s]*+")
_MARK_RUN = re.compile(r"\*++|`++|~++")


def _paired_runs(word: str) -> set[int]:
    """The starts of the runs of one mark in `word` (`**`, `` ` ``, `~~`) that open or
    close a pair: each run paired with the next run of the same mark and length, as
    Markdown closes `**` with `**` and `*` with `*`; a run with no such partner is none."""
    paired: set[int] = set()
    open_runs: dict[str, tuple[int, int]] = {}  # a mark -> (start, length) of its open run
    for r in _MARK_RUN.finditer(word):
        mark, length = word[r.start()], r.end() - r.start()
        opened = open_runs.pop(mark, None)
        if opened is not None and opened[1] == length:
            paired.update((opened[0], r.start()))
        else:
            open_runs[mark] = (r.start(), length)
    return paired


def _unmarked(m: re.Match[str]) -> str:
    word = m.group(0)
    # Markdown's marks come in pairs (`**b**`, `` `code` ``, `~~s~~`): a word with an odd
    # number of any of them is no emphasis (`2*3`, `a~b`) and stays as written
    if word.count("*") % 2 or word.count("`") % 2 or word.count("~") % 2:
        return word
    paired = _paired_runs(word)

    def gone(e: re.Match[str]) -> str:
        # every run of the marks between the two letters or digits opens or closes a
        # pair: a lone `**` is an exponent (`2**10`), not bold, and the number stays whole
        runs = _MARK_RUN.finditer(word, e.start(), e.end())
        return "" if all(r.start() in paired for r in runs) else e.group(0)

    return _EMPHASIS.sub(gone, word)


def markdown_unemphasised(text: str) -> str:
    """`text` with each run of Markdown emphasis or code marks (`*`, `` ` ``, `~`) between
    two letters or digits of a word read as nothing, as Markdown shows it, when the word
    holds each mark an even number of times and each of those runs opens or closes a
    pair (`_paired_runs`).

    >>> markdown_unemphasised("to `GB12`**SRLG**6083*7138*251946 now, 2*3=6, **bold** a*b")
    'to `GB12SRLG60837138251946 now, 2*3=6, **bold** a*b'
    >>> markdown_unemphasised("2**10 is 1024, a*b**c")
    '2**10 is 1024, a*b**c'
    """
    if "*" not in text and "`" not in text and "~" not in text:
        return text
    return _MARKED_WORD.sub(_unmarked, text)


_FORM_BODY = re.compile(r"(?<![^\s&?=])[^\s&?=]++=[^\s&?=]*+(?:&[^\s&?=]++=[^\s&?=]*+)++"
                        r"|(?<=\?)[^\s&?=]++=[^\s&?=]*+")
_FORM_PLUS = re.compile(r"(?<=[^\W_])\+(?=[^\W_])")


def _spaced(m: re.Match[str]) -> str:
    pairs = m.group(0).split("&")
    return "&".join(name + "=" + _FORM_PLUS.sub(" ", value)
                    for name, _, value in (pair.partition("=") for pair in pairs))


def form_spaces(text: str) -> str:
    """`text` with each `+` between two letters or digits inside the value of a form
    body's field read as a blank, as a form's encoding writes one: in two or more
    `name=value` pairs joined by `&`, or in the first pair of a URL's query (after `?`).
    A `+` of a name, of a lone `a=b+c` or before a phone number's country code stays.

    >>> form_spaces("payee=Hartley+Builders&iban=GB12+SRLG+6083 x?q=a+b 2+2=4 tel=+44")
    'payee=Hartley Builders&iban=GB12 SRLG 6083 x?q=a b 2+2=4 tel=+44'
    """
    if "+" not in text or "=" not in text:
        return text
    return _FORM_BODY.sub(_spaced, text)
