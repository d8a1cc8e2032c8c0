"""Which language an answer is written in, guessed from its function words
(docs/benchmark.md, "Reading an answer").

The answer reader matches a case's values word for word; in an answer written in another
language a value may be translated ("emballée" for *packed*), so a value it does not find
there is no evidence that the answer leaves it out. The guess counts the short words every
sentence of a language uses (articles, pronouns, auxiliaries, prepositions) and never the
case's values, so it is one pass over the answer and needs no model or data file.
"""

from __future__ import annotations

import re

__all__ = ["FUNCTION_WORDS", "LANGUAGE_NAMES", "answer_language"]

_CHUNK_EDGES = "\"'()[]{}.,;:!?¡¿«»“”„‘’"
_APOSTROPHES = re.compile(r"['’]")

FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"in", "the", "and", "is", "are", "was", "were", "of", "to", "your", "you",
                     "i", "it", "for", "with", "not", "has", "have", "will", "this",
                     "that", "my", "be", "from", "on", "at", "by", "been", "its",
                     "didn", "haven", "isn", "wasn", "but", "which", "there", "would"}),
    "fr": frozenset({"le", "la", "les", "des", "du", "une", "est", "et", "pas", "vous",
                     "votre", "vos", "je", "j", "au", "aux", "sur", "pour", "avec", "ne",
                     "n", "sont", "été", "ai", "avez", "dans", "mais", "ce", "cette", "qu",
                     "il", "elle", "à", "en", "était", "puis", "encore", "chez", "ton", "ta"}),
    "de": frozenset({"der", "die", "das", "den", "dem", "ein", "eine", "einen", "ist",
                     "und", "nicht", "ich", "sie", "ihr", "ihre", "ihren", "ihrem", "auf",
                     "mit", "für", "in", "im", "von", "zu", "habe", "hat", "wurde", "noch", "ab",
                     "am", "aber", "sind", "war", "wird", "kein", "keine", "dein", "deine",
                     "du", "soll", "bei", "aus", "vom", "zum", "zur"}),
    "es": frozenset({"el", "los", "las", "una", "es", "y", "no", "en", "del", "al", "su", "sus",
                     "usted", "está", "están", "para", "con", "que", "por", "ha", "he",
                     "tiene", "pero", "todavía", "era", "fue", "se", "lo", "tu", "muy",
                     "aún", "ya", "desde"}),
    "it": frozenset({"in", "il", "lo", "gli", "su", "è", "non", "di", "della", "dello", "per", "che",
                     "sono", "ho", "ha", "suo", "sua", "tuo", "tua", "nel", "nella",
                     "ancora", "ma", "anche", "dal", "dalla", "con", "stato", "stata",
                     "era", "un", "una", "alla", "al"}),
    "pt": frozenset({"o", "os", "um", "uma", "é", "não", "do", "da", "dos", "das", "em",
                     "na", "no", "para", "com", "que", "seu", "sua", "você", "está", "foi",
                     "ainda", "ao", "mas", "pelo", "pela", "meu", "minha", "já", "era"}),
    "nl": frozenset({"de", "het", "een", "is", "en", "niet", "van", "op", "voor", "met",
                     "in", "ik", "u", "uw", "je", "jouw", "zijn", "heb", "heeft", "nog", "naar",
                     "dat", "die", "geen", "maar", "wordt", "werd", "was", "bij", "ook"}),
}
"""Short words that nearly every sentence of a language uses; the language whose words
an answer uses most is its guess. A word several languages share ("la", "de", "con")
counts for each of them."""

LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish",
                  "it": "Italian", "pt": "Portuguese", "nl": "Dutch"}


def answer_language(text: str) -> str:
    """The language code of `text`: the one whose function words it uses most; English
    on a tie with English or when it uses none.

    >>> answer_language("Votre commande est emballée et arrive mardi.")
    'fr'
    >>> answer_language("Held 22C on UA511.")
    'en'
    """
    counts = dict.fromkeys(FUNCTION_WORDS, 0)
    for chunk in text.lower().split():
        chunk = chunk.strip(_CHUNK_EDGES)
        if any(ch.isdigit() for ch in chunk):
            continue  # an id or a number ("O-9242"), not a word of the language
        for word in _APOSTROPHES.split(chunk):
            for code, words in FUNCTION_WORDS.items():
                if word in words:
                    counts[code] += 1
    best = max(counts.values())
    if best == 0 or counts["en"] == best:
        return "en"
    return min((c for c, n in counts.items() if n == best), key=list(FUNCTION_WORDS).index)
