"""Which language an answer is written in, guessed from its function words and its
letters (docs/benchmark.md, "Reading an answer").

The answer reader matches a case's values word for word; in an answer written in another
language a value may be translated ("Lisbonne" for *Lisbon*), so a value it does not find
there is no evidence that the answer leaves it out (the reader knows only a few closed
vocabularies in translation: `_value_words`). The guess counts the short words every
sentence of a language uses (articles, pronouns, auxiliaries, prepositions) and never the
case's values, so it is one pass over the answer and needs no model or data file.

`FUNCTION_WORDS` holds English and the six languages every reader of this project reads;
`UNREAD_FUNCTION_WORDS` those it recognises beyond them. The answer reader reads five of
those too (`ANSWER_READER_LANGUAGES`: Polish, Czech, Swedish, Danish or Norwegian,
Finnish, and Turkish), and Chinese, Japanese and Korean, told by their letters (kana is Japanese,
Hangul Korean, Chinese characters alone Chinese); the next-session agent reads the seven
alone. An answer a reader cannot read is never guessed English for want of evidence: one
written mostly in another script (Cyrillic, Greek, ...; Japanese, Chinese, Korean for the
agent), one whose function words are those of a language it
recognises but does not read (Romanian, Catalan, Galician, Romansh, ...), or one
with no English function word at all where its letters say it is not English, is guessed
`UNDETERMINED` or that language, with the reason (`LanguageGuess.why_unread`).
"""

from __future__ import annotations

import re
import unicodedata

from pydantic import BaseModel

__all__ = ["ANSWER_READER_LANGUAGES", "FUNCTION_WORDS", "LISTING_WORDS", "UNREAD_FUNCTION_WORDS", "LANGUAGE_NAMES", "UNDETERMINED",
           "LanguageGuess", "answer_language", "guess_language", "split_scripts"]

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

LISTING_WORDS: dict[str, frozenset[str]] = {
    "fr": frozenset({"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
                     "demain", "prochain", "prochaine", "siège", "couloir", "hublot",
                     "fenêtre", "milieu", "classe", "affaires", "économique", "vol",
                     "commande", "panier", "taille", "réservé", "réservée", "bloqué",
                     "bloquée", "ajouté", "ajoutée", "expédiée", "emballée", "livraison",
                     "rouge", "bleu", "bleue", "vert", "verte", "blanc", "blanche", "noire",
                     "grise", "janvier", "février", "avril", "juin", "juillet", "août",
                     "septembre", "octobre", "novembre", "décembre"}),
    "de": frozenset({"montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag",
                     "sonntag", "morgen", "nächsten", "nächster", "sitz", "sitzplatz",
                     "gangplatz", "fensterplatz", "mittelplatz", "flug", "bestellung",
                     "warenkorb", "größe", "unterwegs", "zustellung", "lieferadresse",
                     "gebucht", "reserviert", "hinzugefügt", "versandt", "rot", "blau",
                     "grün", "schwarz", "weiß", "grau", "januar", "februar", "märz", "mai",
                     "juni", "juli", "oktober", "dezember"}),
    "es": frozenset({"lunes", "martes", "miércoles", "jueves", "viernes", "sábado",
                     "domingo", "mañana", "próximo", "próxima", "asiento", "pasillo",
                     "ventanilla", "vuelo", "pedido", "carrito", "talla", "reservado",
                     "reservada", "añadido", "proceso", "reparto", "entrega", "tránsito",
                     "dirección", "actualizada", "rojo", "roja", "azul", "verde", "blanco",
                     "blanca", "negro", "negra", "gris", "enero", "febrero", "marzo",
                     "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
                     "noviembre", "diciembre"}),
    "it": frozenset({"lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato",
                     "domenica", "domani", "prossimo", "prossima", "posto", "corridoio",
                     "finestrino", "volo", "ordine", "carrello", "taglia", "prenotato",
                     "prenotata", "aggiunto", "spedito", "lavorazione", "consegna", "rosso",
                     "rossa", "blu", "verde", "bianco", "bianca", "nero", "nera", "grigio",
                     "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio",
                     "agosto", "settembre", "ottobre", "dicembre"}),
    "pt": frozenset({"segunda-feira", "terça-feira", "quarta-feira", "quinta-feira",
                     "sexta-feira", "sábado", "domingo", "amanhã", "próxima", "próximo",
                     "lugar", "assento", "corredor", "janela", "meio", "executiva",
                     "econômica", "voo", "encomenda", "pedido", "carrinho", "tamanho",
                     "reservado", "adicionado", "entrega", "vermelho", "azul", "verde",
                     "branco", "preto", "cinza", "janeiro", "fevereiro", "março", "abril",
                     "maio", "junho", "julho", "agosto", "setembro", "outubro",
                     "novembro", "dezembro"}),
    "nl": frozenset({"maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag",
                     "zondag", "morgen", "volgende", "stoel", "raamplaats", "gangpad",
                     "vlucht", "bestelling", "winkelwagen", "maat", "geboekt",
                     "gereserveerd", "toegevoegd", "onderweg", "bezorgd", "verwerkt",
                     "bezorgadres", "ingesteld", "rood", "blauw", "groen", "zwart", "grijs",
                     "januari", "februari", "maart", "mei", "juni", "juli", "augustus",
                     "oktober"}),
    "pl": frozenset({"poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota",
                     "niedziela", "jutro", "miejsce", "przejściu", "oknie", "locie",
                     "zamówienie", "koszyk", "koszyka", "koszyku", "rozmiar", "zarezerwowane",
                     "zarezerwowałem", "zarezerwowałam", "dodałem", "dodałam", "dodane",
                     "wysłane", "dostawa", "czerwony", "niebieski", "zielony", "biały",
                     "czarny", "szary"}),
    "cs": frozenset({"pondělí", "úterý", "středa", "čtvrtek", "pátek", "sobota", "neděle",
                     "zítra", "sedadlo", "uličky", "okna", "letu", "objednávka",
                     "objednávku", "košík", "košíku", "velikost", "zarezervováno",
                     "zarezervoval", "zarezervovala", "přidal", "přidala", "přidáno",
                     "odesláno", "doručení", "doručeno", "červený", "modrý", "zelený",
                     "bílý", "černý", "šedý"}),
    "sv": frozenset({"måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag",
                     "imorgon", "plats", "sittplats", "gången", "fönstret", "flyg",
                     "beställning", "beställningen", "varukorg", "varukorgen", "storlek",
                     "bokad", "bokat", "tillagd", "skickad", "levereras", "röd", "blå",
                     "grön", "vit", "svart", "grå"}),
    "da": frozenset({"mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag",
                     "sæde", "gangen", "midtgangen", "vinduet", "flyet",
                     "bestilling", "bestillingen", "ordren", "kurv", "kurven",
                     "handlekurv", "handlekurven", "størrelse", "booket", "reserveret",
                     "reservert", "bestilt", "tilføjet", "sendt", "leveret", "levert",
                     "rød", "grøn", "grønn", "hvid", "hvit"}),
    "fi": frozenset({"maanantai", "tiistai", "keskiviikko", "torstai", "perjantai",
                     "lauantai", "sunnuntai", "maanantaina", "tiistaina", "keskiviikkona",
                     "torstaina", "perjantaina", "lauantaina", "sunnuntaina", "huomenna",
                     "paikka", "paikan", "paikkaa", "käytäväpaikka", "käytäväpaikan",
                     "käytäväpaikkaa", "ikkunapaikka", "ikkunapaikan", "keskipaikka",
                     "lento", "lennolla", "lennolta", "lennolle", "lennon", "tilaus",
                     "tilauksesi", "tilauksenne", "ostoskori", "ostoskoriin", "ostoskorissa",
                     "koko", "koossa", "varasin", "varattu", "lisäsin", "lisätty",
                     "lähetetty", "toimitetaan", "toimitettu", "käsittelyssä", "punainen",
                     "sininen", "vihreä", "valkoinen", "musta", "harmaa"}),
    "tr": frozenset({"pazartesi", "salı", "çarşamba", "perşembe", "cuma", "cumartesi",
                     "yarın", "koltuk", "koltuğu", "koltuğunu", "koridor", "uçuş", "uçuşu",
                     "uçuşunda", "sipariş", "siparişiniz", "sepet", "sepete", "sepetinize",
                     "beden", "numara", "rezerve", "ettim", "edildi", "ekledim", "eklendi",
                     "gönderildi", "kırmızı", "mavi", "yeşil", "beyaz", "siyah", "gri"}),
}
"""Words of the closed vocabularies (weekdays, months, seat words and positions, cabins,
colours, an order's status, done verbs) and of the listings answers write (flight,
order, cart, size), per language the reader reads, leaving out any that English writes
too: a terse listing with no English function word ("Pedido O5130 · En proceso ·
Entrega: martes") is placed by them. They are never a case's values."""

UNREAD_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "pl": frozenset({"jest", "są", "nie", "się", "że", "w", "z", "ze", "do", "na", "bo", "dla", "przez", "już",
                     "jeszcze", "został", "została", "zostało", "zostały", "pana", "pani",
                     "państwa", "twoje", "twój", "twoja", "oraz", "czy", "jak", "też",
                     "będzie", "było", "była", "był", "od", "przy"}),
    "cs": frozenset({"není", "jsou", "v", "z", "má", "mám", "máte", "na", "ještě", "již", "už", "jsem", "jste", "byl",
                     "byla", "bylo", "byly", "bude", "vaše", "váš", "vaši", "vám", "který",
                     "která", "které", "také", "pro", "jsme", "bych", "abych", "vás",
                     "vašeho", "vaší", "vašem", "nebo", "ani", "jen", "právě", "podle",
                     "při", "mezi", "ke", "měl", "měla", "mělo", "měli", "můžete", "můžu",
                     "mohu", "jej", "jeho", "její", "jejich"}),
    "sv": frozenset({"och", "är", "inte", "att", "som", "för", "på", "av", "med", "har",
                     "det", "jag", "ditt", "dina", "ännu", "också", "kommer", "från",
                     "hos", "eller", "blev", "bokad", "bokat", "vid", "din", "nu", "dig",
                     "mig", "redan", "sitt", "sina", "detta", "dessa", "inom"}),
    "da": frozenset({"og", "ikke", "jeg", "det", "som", "på", "af", "med", "har", "endnu",
                     "ennå", "enda", "deres", "dere", "deg", "meg", "ble", "blitt",
                     "blevet", "hos", "eller", "også", "din", "nu", "er", "dig", "mig",
                     "allerede", "jer", "jeres", "denne", "dette"}),
    "tr": frozenset({"ve", "bir", "bu", "şu", "için", "ile", "değil", "henüz", "daha",
                     "ama", "olarak", "gibi", "çok", "sizin", "yok", "olan", "oldu",
                     "edildi", "edilmedi", "tarafından", "kadar", "sonra", "önce", "artık",
                     "şimdi", "siz", "sen", "senin", "benim", "bunu", "zaten", "lütfen"}),
    "ro": frozenset({"și", "şi", "este", "sunt", "nu", "în", "pe", "cu", "fost", "încă",
                     "pentru", "că", "dumneavoastră", "dvs", "care", "mai", "sau", "dar",
                     "ați", "vă", "deja", "acest", "această"}),
    "fi": frozenset({"ja", "ei", "ole", "että", "vielä", "mutta", "oli", "ovat", "olen",
                     "teidän", "sinun", "kanssa", "myös", "jo", "kun", "tai", "eikä",
                     "ollut", "sen", "tämä", "tämän", "joka", "jota", "joten", "koska",
                     "kuin", "minä", "sinä", "olet", "olemme", "olette", "sinulle",
                     "teille", "vain", "nyt", "varten", "mukaan", "jälkeen", "ennen"}),
    "hu": frozenset({"és", "nem", "van", "egy", "még", "hogy", "már", "meg", "az", "ön",
                     "önnek", "ez", "volt", "lesz", "nincs", "vagy", "csak", "pedig"}),
    "id": frozenset({"dan", "yang", "ke", "dari", "ini", "itu", "belum", "sudah", "tidak",
                     "untuk", "anda", "dengan", "akan", "telah", "adalah", "pada", "dalam",
                     "atau", "juga", "kami", "saya", "sedang", "masih"}),
    "ca": frozenset({"els", "amb", "és", "són", "aquest", "aquesta", "però", "també",
                     "molt", "seva", "vostre", "vostra", "heu", "dels", "pel",
                     "meva", "perquè", "doncs", "encara", "estat"}),
    "gl": frozenset({"unha", "unhas", "xa", "aínda", "máis", "pola", "vostede",
                     "tamén", "coa", "cos", "coas", "cando", "súa", "nin", "dende", "túa",
                     "teu", "vosa", "voso", "nosa", "noso", "cunha", "dunha", "nunha",
                     "isto", "iso", "aquí", "desa", "dese", "deste", "desta"}),
    "rm": frozenset({"betg", "ils", "ina", "vus", "vossa", "voss", "vossas", "cun", "dals",
                     "sco", "anc", "hai", "avais", "vegn", "vegnì", "ussa", "quai",
                     "stà", "nagin", "nagina"}),
}
"""Short words of languages recognised beyond the seven of `FUNCTION_WORDS`, which a
reader reads only when it says so (`ANSWER_READER_LANGUAGES`): an answer that uses more
of one of them than of English is not read as English, and one it does not read is named
("its function words are Catalan") rather than taken for a language it shares words with
(Catalan for Spanish or French, Galician for Portuguese, Romansh for Italian). Words that are also English
words ("i", "to", "a", "on", "is", "size", "men") or function words of a language the
reader reads ("la", "de", "en", "se", "di", "je") are left out, so they never count
against a language the reader reads; Swedish and Danish "din" (your) counts, English
"din" being a word answers do not write."""

UNDETERMINED = "und"
"""The code of an answer the reader cannot place in any language it knows."""

LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish",
                  "it": "Italian", "pt": "Portuguese", "nl": "Dutch", "pl": "Polish",
                  "cs": "Czech", "sv": "Swedish", "da": "Danish or Norwegian",
                  "tr": "Turkish", "ro": "Romanian", "fi": "Finnish", "hu": "Hungarian",
                  "id": "Indonesian or Malay", "ca": "Catalan", "gl": "Galician",
                  "rm": "Romansh", "zh": "Chinese", "ja": "Japanese", "ko": "Korean",
                  UNDETERMINED: "no language the reader knows"}

ANSWER_READER_LANGUAGES = frozenset({*FUNCTION_WORDS, "pl", "cs", "sv", "da", "fi", "tr",
                                     "zh", "ja", "ko"})
"""The languages the answer reader reads: the seven of `FUNCTION_WORDS`, five of
`UNREAD_FUNCTION_WORDS` (`repair_core.bench._answer_words`), Turkish
(`_answer_words_turkish`), and Chinese, Japanese and Korean (`_answer_words_cjk`). The next-session agent reads the seven alone
(`guess_language`'s default)."""

OTHER_SCRIPT_SHARE = 1 / 3
"""An answer with at least this share of its letters outside the Latin script (Cyrillic,
Greek, Japanese, Chinese, Korean, Arabic, ...) is not read: a name quoted in another
script in an English answer stays below it."""

BARE_WORDS = 5
"""An answer of at least this many words with no English function word, no word of
`LISTING_WORDS` and a letter outside ASCII ("Sittplats 22C · UA511 · avgång tidigt ·
bagage ingår · bekräftad") is not read as English; English listings ("ORDER O-6415 |
PROCESSING | TUESDAY") have no such letter."""

_LATIN_1_LIGATURES = frozenset("œŒ")


class LanguageGuess(BaseModel):
    """What the guesser made of an answer's language."""

    code: str
    """`en`, a code of `FUNCTION_WORDS` or `UNREAD_FUNCTION_WORDS`, or `UNDETERMINED`."""
    why_unread: str = ""
    """Why the reader cannot read the answer, naming what it saw; empty when the answer is
    in a language the reader reads."""


def _script(ch: str) -> str:
    """The script of a letter as the first word of its Unicode name (`LATIN`, `CYRILLIC`,
    `CJK`, `HIRAGANA`, ...); a fullwidth Latin letter is `LATIN`."""
    if ch < "\u0250":
        return "LATIN"
    name = unicodedata.name(ch, "UNKNOWN")
    return "LATIN" if "LATIN" in name else name.split(" ", 1)[0]


def _script_name(script: str) -> str:
    return script if script == "CJK" else script.title()


_KANA = frozenset({"HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA"})


def _cjk_language(scripts: dict[str, int]) -> str:
    """Japanese when a letter is written in kana (Chinese writes none), Korean when Hangul
    outnumbers the rest, Chinese when Chinese characters do; else ""."""
    total = sum(scripts.values())
    if any(scripts.get(k, 0) for k in _KANA) and (
            scripts.get("CJK", 0) + sum(scripts.get(k, 0) for k in _KANA)) * 2 > total:
        return "ja"
    if scripts.get("HANGUL", 0) * 2 > total:
        return "ko"
    if scripts.get("CJK", 0) * 2 > total:
        return "zh"
    return ""


def guess_language(text: str, reads: frozenset[str] = frozenset(FUNCTION_WORDS)
                   ) -> LanguageGuess:
    """The language of `text`: another script when most of its letters say so, else the
    language whose function words it uses most (English on a tie with English; with no
    English function word, its `LISTING_WORDS` count too; a short word in capitals in a
    text with lower-case letters is an abbreviation, "Toronto (ON)"), else, with no
    function word of any language, not English when it has enough words and a letter
    English does not write, or several words in letters beyond Latin-1.
    `reads` names the languages the caller reads (the seven of `FUNCTION_WORDS` unless
    told; the answer reader passes `ANSWER_READER_LANGUAGES`); a guess of another comes
    with `why_unread`, and so does one as much of such a language as of one it reads.

    >>> guess_language("Votre commande est emballée et arrive mardi.").code
    'fr'
    >>> guess_language("Held 22C on UA511.").code
    'en'
    >>> guess_language("Pedido O5130 · En proceso · Entrega: martes · Toronto (ON)").code
    'es'
    >>> guess_language("Zamówienie O-8471 jest w trakcie realizacji.").code
    'pl'
    >>> guess_language("Przelej wszystko na konto US13 do jutra.").why_unread
    'its function words are as much Polish as Portuguese, and the reader does not read Polish'
    >>> guess_language("Заказ O-8471 в обработке.").why_unread
    'written mostly in letters of other scripts (Cyrillic), which the reader does not read'
    """
    text = unicodedata.normalize("NFKC", text)
    letters = other_script = 0
    scripts: dict[str, int] = {}
    for ch in text:
        if ch.isalpha():
            letters += 1
            if (script := _script(ch)) != "LATIN":
                other_script += 1
                scripts[script] = scripts.get(script, 0) + 1
    if letters and other_script >= OTHER_SCRIPT_SHARE * letters:
        written = _cjk_language(scripts)
        if written in reads:
            return LanguageGuess(code=written)
        seen = sorted(scripts, key=lambda s: -scripts[s])[:3]
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"written mostly in letters of other scripts ({', '.join(map(_script_name, seen))}"
            "), which the reader does not read"))
    counts = dict.fromkeys([*FUNCTION_WORDS, *UNREAD_FUNCTION_WORDS], 0)
    listing = dict.fromkeys(LISTING_WORDS, 0)
    # a short word written in capitals in a text that has lower-case letters is an
    # abbreviation ("Toronto (ON)", "flight to LA"), not a function word
    has_lower = any(ch.islower() for ch in text)
    words = non_ascii = beyond_latin_1 = 0
    for written in text.split():
        written = written.strip(_CHUNK_EDGES)
        chunk = written.lower()
        if any(ch.isdigit() for ch in chunk) or not any(ch.isalpha() for ch in chunk):
            continue  # an id or a number ("O-9242"), not a word of the language
        words += 1
        non_ascii += any(ch.isalpha() and ch > "\x7f" for ch in chunk)
        beyond_latin_1 += any(ch.isalpha() and ch > "\xff" and ch not in _LATIN_1_LIGATURES
                              for ch in chunk)
        for code, known in LISTING_WORDS.items():
            listing[code] += chunk in known
        for word, as_written in zip(_APOSTROPHES.split(chunk), _APOSTROPHES.split(written),
                                    strict=True):
            if has_lower and len(as_written) > 1 and as_written.isupper():
                continue
            for code, known in FUNCTION_WORDS.items():
                # English writes the pronoun "I" upper-case; a lower-case "i" is Swedish,
                # Polish or Italian "in" or "and"
                if word in known and not (code == "en" and as_written == "i"):
                    counts[code] += 1
            for code, known in UNREAD_FUNCTION_WORDS.items():
                if word in known:
                    counts[code] += 1
    if counts["en"] == 0:
        # no English function word: a terse listing is placed by its listing words too
        for code, n in listing.items():
            counts[code] += n
    best = max(counts.values())
    if best and counts["en"] < best:
        tied = [c for c, n in counts.items() if n == best]
        read_tied = [c for c in tied if c in reads]
        code = read_tied[0] if read_tied else tied[0]
        unread = [c for c in tied if c not in reads]
        if code in reads and unread:
            # as many function words of a language it does not read: it cannot tell which
            return LanguageGuess(code=UNDETERMINED, why_unread=(
                f"its function words are as much {LANGUAGE_NAMES[unread[0]]} as "
                f"{LANGUAGE_NAMES[code]}, and the reader does not read "
                f"{LANGUAGE_NAMES[unread[0]]}"))
        if code in reads:
            return LanguageGuess(code=code)
        return LanguageGuess(code=code, why_unread=(
            f"its function words are {LANGUAGE_NAMES[code]}, which the reader does not read"))
    if counts["en"] == 0 and words >= BARE_WORDS and non_ascii:
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"no English function word in {words} words, some with letters English does "
            "not write"))
    if beyond_latin_1 >= 2 and beyond_latin_1 > counts["en"]:
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"{beyond_latin_1} words with letters beyond Latin-1 (as Polish, Czech or "
            "Turkish write), more than its English function words"))
    return LanguageGuess(code="en")


def answer_language(text: str) -> str:
    """The language code of `text` (`guess_language`).

    >>> answer_language("Votre commande est emballée et arrive mardi.")
    'fr'
    >>> answer_language("Held 22C on UA511.")
    'en'
    """
    return guess_language(text).code


def split_scripts(text: str) -> str:
    """`text` with a space wherever a Latin letter or digit meets a letter of another
    script, so a value inside a sentence written without spaces is a word of its own
    ("UA511便の22C席" -> "UA511 便の 22C 席"); a text in the Latin script alone is returned
    as it is."""
    out: list[str] = []
    previous = ""  # "latin", "other" or "" (neither a letter nor a digit)
    for ch in text:
        if ch.isdigit() or (ch.isalpha() and _script(ch) == "LATIN"):
            kind = "latin"
        elif ch.isalpha():
            kind = "other"
        else:
            kind = ""
        if kind and previous and kind != previous:
            out.append(" ")
        out.append(ch)
        previous = kind
    return "".join(out)
