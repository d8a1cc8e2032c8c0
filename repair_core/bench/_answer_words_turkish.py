"""The answer reader's words in Turkish (docs/benchmark.md, "Reading an answer"; rule
`oracle.turkish`).

Turkish writes "not", "done", "shall I" and "I can" as endings of the verb ("ekledim" I
added, "eklemedim" I did not add, "ekleyeyim mi?" shall I add, "ekleyebilirim" I can
add), and a case ending on a value after an apostrophe ("22C'yi"). So, as Chinese,
Japanese and Korean are (`_answer_words_cjk`), a Turkish answer is read through a gloss:
each word is looked up by its beginning in a closed list of general words — verbs of
booking, adding, putting, changing, sending and buying, with the endings that make them
done, negated, offered or promised read by short patterns anchored at both ends;
"rezerve" and "satın" with the verb after them; negations, rejections, corrections and
pending words; weekdays, colours, seat positions, cabins, an order's statuses, language
names, "size" and "order" — and written as the English words the reader reads, and the
answer is then read as an English one. Never an answer's text or a case's values. One pass
over the words, each looked at with its neighbour.

A negation word left over ("yok", "hiç", "asla", "hayır") is one the reader does not read:
the answer is unsure (`unread_negation`).
"""

from __future__ import annotations

import re

__all__ = ["SIZE_BEFORE", "gloss", "unread_negation"]

_VERBS = {"book": "booked", "add": "added", "put": "put", "change": "changed",
          "send": "sent", "buy": "bought"}

_STEMS = {"ayırt": "book", "ekle": "add", "koy": "put",
          "değiştir": "change", "gönder": "send", "yolla": "send", "güncelle": "change"}
"""Verb stems."""
_STEMS_LONGEST_FIRST = sorted(_STEMS, key=len, reverse=True)
"""`_STEMS` in the order they are looked up, longest first."""

_LIGHT = {"rezerve": "book", "satın": "buy"}
"""Words whose verb is the next word ("rezerve ettim", "satın aldım")."""

_PASSIVE = r"(?:[iıuü]?[ln])?"
_DONE = re.compile(rf"^{_PASSIVE}(?:y?[dt][iıuü](?:m|k|n|niz|nız|nuz|nüz)?"
                   rf"|y?m[iıuü]ş(?:t[iıuü]r|[iıuü]m|[iıuü]z)?)$")
_NOT = re.compile(rf"^{_PASSIVE}m[ea](?:[dt][iıuü]|m[iıuü]ş|y[ea]c[ea])")
_OFFER = re.compile(rf"^{_PASSIVE}y?[ea]y[iı]m$|^{_PASSIVE}y?[ea]l[iı]m$")
_CAN = re.compile(rf"^{_PASSIVE}y?[ea]b[iı]l[iı]r[iı]m$")
_WILL = re.compile(rf"^{_PASSIVE}y?[ea]c[ea][kğ][iı]m$")

_LIGHT_VERBS = {
    "ettim": "{past}", "ettik": "{past}", "edildi": "{past}", "edilmiştir": "{past}",
    "edilmiş": "{past}", "aldım": "{past}", "aldık": "{past}", "alındı": "{past}",
    "etmedim": "not {past}", "etmedik": "not {past}", "edilmedi": "not {past}",
    "edilmemiş": "not {past}", "almadım": "not {past}", "alınmadı": "not {past}",
    "edeyim": "shall i {verb}", "alayım": "shall i {verb}", "edebilirim": "i can {verb}",
    "alabilirim": "i can {verb}", "edeceğim": "i will {verb}", "alacağım": "i will {verb}"}

_WORDS = {
    "değil": "was wrong ,", "yerine": "was replaced ,", "yanlış": "wrong", "hatalı": "wrong",
    "eski": "old", "önceki": "old", "düzeltme": "correction", "pardon": "sorry",
    "özür": "sorry", "beklemede": "pending", "bekliyor": "pending", "henüz": "",
    "hâlâ": "still", "halen": "still", "mi": "?", "mı": "?",
    "pazartesi": "monday", "salı": "tuesday", "çarşamba": "wednesday",
    "perşembe": "thursday", "cuma": "friday", "cumartesi": "saturday", "pazar": "sunday",
    "kırmızı": "red", "mavi": "blue", "yeşil": "green", "beyaz": "white", "siyah": "black",
    "gri": "grey", "koridor": "aisle", "pencere": "window", "cam": "window",
    "orta": "middle", "ekonomi": "economy", "hazırlanıyor": "processing",
    "işleniyor": "processing", "işlemde": "processing", "yolda": "in transit",
    "dağıtımda": "out for delivery", "paketlendi": "packed",
    "ingilizce": "english", "fransızca": "french", "almanca": "german",
    "ispanyolca": "spanish", "italyanca": "italian", "portekizce": "portuguese",
    "felemenkçe": "dutch", "hollandaca": "dutch", "japonca": "japanese",
    "çince": "chinese", "korece": "korean", "rusça": "russian", "arapça": "arabic",
    "yunanca": "greek", "isveççe": "swedish", "lehçe": "polish", "türkçe": "turkish",
    "beden": "size", "numara": "size", "sipariş": "order"}
"""Whole words, or words with a case ending after them ("perşembeye", "koridorda")."""

_CASE_ENDINGS = ("", "ye", "ya", "e", "a", "de", "da", "te", "ta", "den", "dan", "i", "ı",
                 "yi", "yı", "u", "ü", "yu", "yü", "in", "ın", "nin", "nın", "n", "nda",
                 "nde", "ndaki", "ndeki", "daki", "deki", "si", "sı", "sini", "sını",
                 "leri", "ları", "ler", "lar", "iniz", "ınız", "niz", "nız")
_UNREAD = frozenset({"yok", "hiç", "asla", "hayır", "hiçbir"})
_DELIVERED = frozenset({"edildi", "edilmiş", "edilmiştir"})
SIZE_BEFORE = re.compile(r"^(?:\d{1,2}(?:[.,]5)?|[xX]{0,3}[sSmMlL])$")
_EDGES = "\"'()[]{}.,;:!?«»“”‘’"


def _lower(word: str) -> str:
    """Turkish lower case: dotted and dotless capital I."""
    return word.replace("I", "ı").replace("İ", "i").lower()


def _verb(word: str) -> str | None:
    """The gloss of `word` as a verb of `_STEMS` with its ending, or None."""
    for stem in _STEMS_LONGEST_FIRST:
        if word.startswith(stem):
            verb, rest = _STEMS[stem], word[len(stem):]
            past = _VERBS[verb]
            if _NOT.match(rest):
                return f"not {past}"
            if _DONE.match(rest):
                return past
            if _OFFER.match(rest):
                return f"shall i {verb}"
            if _CAN.match(rest):
                return f"i can {verb}"
            if _WILL.match(rest):
                return f"i will {verb}"
            return None
    return None


def _word(word: str) -> str | None:
    """The gloss of a word of `_WORDS`, with a case ending or none."""
    for ending in _CASE_ENDINGS:
        if word.endswith(ending) and (found := _WORDS.get(
                word[:len(word) - len(ending)] if ending else word)) is not None:
            return found
    return None


def gloss(text: str) -> str:
    """`text` with each general Turkish word written as the English words the reader
    reads; other words are kept as they are, and a value's case ending after an
    apostrophe is dropped ("22C'yi" is 22C).

    >>> gloss("22C'yi rezerve ettim, 22B değil.")
    '22C booked , 22B was wrong , .'
    >>> gloss("Sepete eklemedim; ekleyeyim mi?")
    'Sepete not added ; shall i add ? ?'
    """
    out: list[str] = []
    tokens = text.split()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        core = token.strip(_EDGES)
        head, tail = token[:token.find(core)] if core else token, token[
            token.find(core) + len(core):] if core else ""
        if "'" in core or "\u2019" in core:
            core = re.split("['\u2019]", core, maxsplit=1)[0]
        word = _lower(core)
        found = None
        if word in _LIGHT and i + 1 < len(tokens):
            light = _lower(tokens[i + 1].strip(_EDGES))
            form = _LIGHT_VERBS.get(light)
            if form is not None:
                verb = _LIGHT[word]
                found = form.format(verb=verb, past=_VERBS[verb])
                i += 1
                tail = tokens[i][len(tokens[i].rstrip(_EDGES)):]
        if (found is None and word == "teslim" and i + 1 < len(tokens)
                and _lower(tokens[i + 1].strip(_EDGES)) in _DELIVERED):
            # "teslim edildi" is delivered; "teslim edilecek" (will be) is not
            found = "delivered"
            i += 1
            tail = tokens[i][len(tokens[i].rstrip(_EDGES)):]
        if found is None:
            found = _verb(word) or _word(word)
        piece = found if found is not None else core
        if found == "size" and out and SIZE_BEFORE.match(out[-1]):
            # "7 numara", "XL beden": the size comes before the word for size
            out[-1], piece = "size", out[-1]
        out.append(" ".join(p for p in (head.strip(), piece, " ".join(tail)) if p))
        i += 1
    return " ".join(p for p in out if p)


def unread_negation(glossed: str) -> str | None:
    """A Turkish negation word left once the words are glossed ("yok", "hiç", "asla"):
    one the reader does not read; None when there is none."""
    return next((w for w in (_lower(t.strip(_EDGES)) for t in glossed.split())
                 if w in _UNREAD), None)
