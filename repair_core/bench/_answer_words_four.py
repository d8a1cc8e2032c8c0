"""The answer reader's words in Welsh, Tagalog, Basque and Croatian (with Serbian and
Bosnian written in Latin letters, which share its words) (docs/benchmark.md, "Reading an
answer"; rule `oracle.glossed-four-languages`).

These four were guessed as English, Dutch or Portuguese by a word or two they share with
them, or by no word at all, so an answer saying the action was not done ("Nisam
rezervirao let ...", "Hindi ko na-book ...", "Nid oeddwn yn gallu ychwanegu ...",
"Ezin izan dut ... gehitu") had its values matched and was recovered. They are read as the
languages of `_answer_words_glossed` are: each general word or phrase found in its
language's one table is written as the English words the reader reads, the other words
are kept, and the answer is read as English. The tables hold general words only — verbs
of booking, holding, adding, putting, sending, changing, updating and buying with their
done, negated, offered and promised forms; negations, "not yet", "failed", pending words,
offers, conditions, "instead of", "old", "wrong", corrections and apologies; weekdays,
months, colours, seat positions, cabins, an order's statuses, "size", "order", "cart",
"flight", "and", "with", "for", "from", "to" — never an answer's text or a case's values.

A negation is read as "not" only right before a word or phrase of the table ("nisam
rezervirao", "hindi ko na-book", "ddim wedi archebu"); before any other word (Basque "ez
dut JL67 hegaldia erreserbatu", whose verb comes last) or where the table marks it unread
(`None`: Tagalog and Cebuano "wala", Basque "ezin") it leaves the answer unsure, as does a
word saying the action failed or is offered before a word the table does not hold
(`_answer_words_glossed.GOVERNING`).
"""

from __future__ import annotations

import re

from ._answer_words_scripts import _each

__all__ = ["BASQUE_CASE_ENDING", "CONDITIONALS", "SERBIAN_ALPHABET", "SIZE_AFTER", "WORDS",
           "serbian_latin"]

_SERBIAN_LATIN = dict(zip("абвгдђежзијклљмнњопрстћуфхцчџш", (
    "a", "b", "v", "g", "d", "đ", "e", "ž", "z", "i", "j", "k", "l", "lj", "m", "n", "nj",
    "o", "p", "r", "s", "t", "ć", "u", "f", "h", "c", "č", "dž", "š"), strict=True))
"""Serbian Cyrillic letters and the Latin letters Serbian writes for each, one to one
(Serbian is written in both alphabets)."""
SERBIAN_ALPHABET = frozenset(_SERBIAN_LATIN)
"""The 30 letters of Serbian Cyrillic."""


def serbian_latin(text: str) -> str:
    """`text` with its Serbian Cyrillic letters written in Latin letters, capitals kept
    ("Нисам резервисао" -> "Nisam rezervisao"); any other character as it is.

    >>> serbian_latin("Поруџбина O-8214 није стигла.")
    'Porudžbina O-8214 nije stigla.'
    """
    out = []
    for ch in text:
        latin = _SERBIAN_LATIN.get(ch.lower())
        out.append(ch if latin is None else latin.capitalize() if ch.isupper() else latin)
    return "".join(out)


def _after(done: dict[str, str], forms: tuple[str, ...], english: str = "") -> dict[str, str]:
    """Each word of `done` (a verb form -> its English past) written after each of
    `forms` (auxiliaries), as `english` and the past ("wedi archebu": "booked")."""
    return {f"{form} {word}": f"{english} {past}".strip()
            for word, past in done.items() for form in forms}


def _before(done: dict[str, str], forms: tuple[str, ...], english: str = "") -> dict[str, str]:
    """Each word of `done` written before each of `forms` (pronouns and particles), as
    `english` and the past ("na-book ko na": "i booked")."""
    return {f"{word} {form}": f"{english} {past}".strip()
            for word, past in done.items() for form in forms}


# --- Welsh ---------------------------------------------------------------------------

_CY_VERB_NOUNS = {
    "archebu": ("book", "booked"), "harchebu": ("book", "booked"),
    "cadw": ("hold", "held"), "gadw": ("hold", "held"), "chadw": ("hold", "held"),
    "ychwanegu": ("add", "added"), "hychwanegu": ("add", "added"),
    "rhoi": ("put", "put"), "roi": ("put", "put"), "rhoi'r": ("put", "put"),
    "anfon": ("send", "sent"), "hanfon": ("send", "sent"), "danfon": ("send", "sent"),
    "newid": ("change", "changed"), "diweddaru": ("update", "updated"),
    "prynu": ("buy", "bought"), "brynu": ("buy", "bought"), "phrynu": ("buy", "bought"),
}
"""Welsh verb-nouns (with their mutated forms): alone the verb, after "wedi" (has) done."""

_CY_PAST = {"archebais": "i booked", "cedwais": "i held", "ychwanegais": "i added",
            "rhoddais": "i put", "anfonais": "i sent", "newidiais": "i changed",
            "diweddarais": "i updated", "prynais": "i bought"}
"""Welsh first-person past forms."""

_CY_PERFECT = ("wedi", "wedi'i", "wedi'u", "wedi ei", "wedi eu")

_CONDITIONALS = {"cy": ("byddwn", "buaswn"), "tl": ("sana",), "eu": ("nuke",),
                 "hr": ("bih", "bi")}
"""Words that make a verb conditional (Welsh "byddwn wedi", Tagalog "sana", Basque
"nuke", Croatian "bih", "bi"), each unread in its language's table."""

_CY: dict[str, str | None] = {
    **{word: verb for word, (verb, _) in _CY_VERB_NOUNS.items()},
    **_after({w: past for w, (_, past) in _CY_VERB_NOUNS.items()}, _CY_PERFECT),
    **_CY_PAST,
    **_each("rwyf rydw dw wyf", "i"), "rydw i": "i", "dw i": "i", "rydyn ni": "we",
    "rydym": "we",
    # "nid wyf wedi archebu", "dydw i ddim wedi archebu": not before the done verb
    **_each("ddim nid ni na", "not>"), "nid wyf": "not>", "nid ydw": "not>",
    "nid ydym": "not>", "dydw i ddim": "not>", "dw i ddim": "not>", "dydw i": "",
    "dydy e ddim": "not>", "dydy o ddim": "not>", "dydy hi ddim": "not>",
    "heb": "not>", "heb ei": "not>", "heb eu": "not>",
    "ddim eto": "not yet", "dim eto": "not yet", "eto": "yet",
    "nid oeddwn yn gallu": "i was not able to", "doeddwn i ddim yn gallu": "i was not able to",
    "ni allwn": "i could not", "ni allaf": "i cannot", "methais": "failed",
    "methu": "failed", "wedi methu": "failed",
    "ceisiais": "i tried", "rwyf wedi ceisio": "i tried",
    "ydych chi am i mi": "shall i", "hoffech chi i mi": "shall i",
    "a hoffech i mi": "shall i", "gallaf": "i can", "byddaf yn": "i will", "fe wnaf": "i will",
    "yn aros": "pending", "yn disgwyl cadarnhad": "pending", "pan": "when", "os": "if",
    "yn lle": "instead of", **_each("hen blaenorol", "old"),
    **_each("anghywir gwallus", "wrong"), "cywiriad": "correction",
    "sori": "sorry", "mae'n ddrwg gen i": "sorry", "ymddiheuriadau": "sorry",
    **dict.fromkeys(_CONDITIONALS["cy"]),
    **{f"{d} {day}": english for d in ("dydd", "ddydd") for day, english in (
        ("llun", "monday"), ("mawrth", "tuesday"), ("mercher", "wednesday"),
        ("iau", "thursday"), ("gwener", "friday"), ("sadwrn", "saturday"), ("sul", "sunday"))},
    "ionawr": "january", "chwefror": "february", "mawrth": "march", "ebrill": "april",
    "mai": "may", "mehefin": "june", "gorffennaf": "july", "awst": "august",
    "medi": "september", "hydref": "october", "tachwedd": "november", "rhagfyr": "december",
    "yfory": "tomorrow", "nesaf": "next",
    **_each("coch goch", "red"), **_each("glas las", "blue"),
    **_each("gwyrdd wyrdd werdd", "green"), **_each("gwyn wyn wen gwen", "white"),
    **_each("du ddu", "black"), **_each("llwyd lwyd", "grey"),
    **_each("sedd", "seat"), "ger yr eil": "aisle", "wrth yr eil": "aisle", "eil": "aisle",
    "ger y ffenestr": "window", "wrth y ffenestr": "window", "ffenestr": "window",
    "yn y canol": "middle", **_each("canol ganol", "middle"),
    "dosbarth economi": "economy", "economi": "economy", "dosbarth busnes": "business",
    "yn cael ei brosesu": "processing", "yn cael ei phrosesu": "processing",
    "ar y ffordd": "in transit", "allan i'w danfon": "out for delivery",
    "wedi'i bacio": "packed", "wedi ei bacio": "packed", "wedi'i phacio": "packed",
    "wedi cyrraedd": "delivered", "bydd yn cyrraedd": "arrives", "yn cyrraedd": "arrives",
    **_each("maint", "size"), **_each("archeb harcheb", "order"),
    **_each("basged fasged troli", "cart"), "basged siopa": "cart", "fasged siopa": "cart",
    **_each("hediad", "flight"),
    **_each("cyfeiriad gyfeiriad nghyfeiriad", "address"), **_each("y yr", "the"),
    **_each("mae mae'r", "is"), **_each("eich", "your"), "ac": "and", "gyda": "with",
    "ar": "on", "o": "from", "i": "to", "at": "to", "yn": "",
}
"""Welsh (with its mutated forms: "gadw", "harchebu", "ddu")."""

# --- Tagalog ---------------------------------------------------------------------------

_TL_DONE = {"na-book": "booked", "nai-book": "booked", "binook": "booked",
            "nag-book": "booked", "ni-reserve": "booked", "na-reserve": "booked",
            "nireserba": "booked", "nakareserba": "booked", "naireserba": "booked",
            "na-hold": "held", "naka-hold": "held", "hinold": "held",
            "idinagdag": "added", "naidagdag": "added", "na-add": "added",
            "in-add": "added", "inilagay": "put", "nailagay": "put", "nailalagay": "put",
            "ipinadala": "sent", "naipadala": "sent", "na-ship": "sent",
            "pinalitan": "changed", "binago": "changed", "napalitan": "changed",
            "na-update": "updated", "in-update": "updated", "binili": "bought",
            "nabili": "bought"}
"""Tagalog done (perfective) forms of acting, and the English verbs it takes in with a
prefix ("na-book")."""

_TL_PROMISED = {"ibo-book": "book", "ibu-book": "book", "ire-reserve": "book",
                "idadagdag": "add", "ia-add": "add", "ilalagay": "put",
                "ipapadala": "send", "ipadadala": "send", "isi-ship": "send",
                "papalitan": "change", "bibilhin": "buy"}
"""Tagalog contemplative (future) forms: promised or offered, never done."""

_TL: dict[str, str | None] = {
    **_TL_DONE, **_before(_TL_DONE, ("ko", "ko na", "ko nang", "nako", "na nako"), "i"),
    **_before(_TL_DONE, ("na",)),
    # promised whoever acts: read as the agent's own promise, which is no done action
    **{word: f"i will {verb}" for word, verb in _TL_PROMISED.items()},
    **{f"{word} ko": f"i will {verb}" for word, verb in _TL_PROMISED.items()},
    **{f"gusto mo bang {word}": f"shall i {verb}" for word, verb in _TL_PROMISED.items()},
    **{f"{word} ko ba": f"shall i {verb}" for word, verb in _TL_PROMISED.items()},
    "gusto mo bang": "shall i", "gusto mo ba": "shall i", "puwede kong": "i can",
    "pwede kong": "i can", "kaya kong": "i can",
    "hindi": "not>", "hindi ko": "not>", "hindi pa": "not yet>", "hindi ko pa": "not yet>",
    "di": "not>", "di ko": "not>", "wala": None, "wala pa": None,
    **dict.fromkeys(_CONDITIONALS["tl"]), "hindi ko nagawang": "i was not able to",
    "hindi ko magawang": "i was not able to",
    "hindi nagtagumpay": "failed", "nabigo": "failed", "pumalya": "failed",
    "sinubukan ko": "i tried", "sinubukan kong": "i tried",
    "nakabinbin": "pending", "naghihintay ng kumpirmasyon": "pending",
    "kapag": "once", "pag": "once", "kung": "if", "sa halip na": "instead of",
    **_each("luma dati", "old"), "mali": "wrong", "pagwawasto": "correction",
    **_each("paumanhin pasensya patawad", "sorry"),
    "lunes": "monday", "martes": "tuesday", **_each("miyerkules miyerkoles", "wednesday"),
    "huwebes": "thursday", "biyernes": "friday", "sabado": "saturday", "linggo": "sunday",
    "enero": "january", "pebrero": "february", "marso": "march", "abril": "april",
    "mayo": "may", "hunyo": "june", "hulyo": "july", "agosto": "august",
    "setyembre": "september", "oktubre": "october", "nobyembre": "november",
    "disyembre": "december", "bukas": "tomorrow", "susunod na": "next",
    "pula": "red", **_each("asul bughaw", "blue"), **_each("berde luntian", "green"),
    "puti": "white", "itim": "black", **_each("abo kulay-abo abuhin", "grey"),
    **_each("upuan upuang", "seat"), **_each("pasilyo", "aisle"),
    "tabi ng bintana": "window", "bintana": "window", "sa gitna": "middle",
    "gitna": "middle", "pinoproseso": "processing", "pinoproseso pa": "processing",
    "nasa biyahe": "in transit", "nasa daan": "in transit",
    **_each("naka-pack na-pack nakaimpake", "packed"),
    **_each("naihatid nai-deliver", "delivered"), "inihahatid": "out for delivery",
    "darating": "arrives", "dadating": "arrives",
    **_each("sukat laki", "size"), "lipad": "flight", "kulay": "colour",
    "ang": "the", "ng": "of", "mga": "", "ay": "is", "at": "and", "sa": "to",
    "mula sa": "from", "mula": "from", "papuntang": "to", "papunta sa": "to",
    "ko": "", "mo": "your", "na": "", "pa": "", "po": "", "yung": "the", "ito": "it",
}
"""Tagalog (and the Taglish that writes English verbs with its prefixes)."""

# --- Basque ---------------------------------------------------------------------------

_EU_PARTICIPLES = {"erreserbatu": "booked", "erreserbatuta": "booked",
                   "gorde": "held", "gordeta": "held", "atxiki": "held",
                   "gehitu": "added", "gehituta": "added", "jarri": "put",
                   "bidali": "sent", "bidalita": "sent", "aldatu": "changed",
                   "aldatuta": "changed", "eguneratu": "updated", "erosi": "bought"}
"""Basque perfective participles: done after "dut", "dugu", "da" or alone."""

_EU_FUTURE = {"erreserbatuko": "book", "gordeko": "hold", "gehituko": "add",
              "jarriko": "put", "bidaliko": "send", "aldatuko": "change",
              "eguneratuko": "update", "erosiko": "buy"}
"""Basque future participles: promised, never done."""

_EU_AUX = ("dut", "dugu", "da", "dira", "ditut", "ditugu", "zaizu", "zaitut")

_EU: dict[str, str | None] = {
    **_EU_PARTICIPLES,
    **{f"{word} {aux}": past for word, past in _EU_PARTICIPLES.items() for aux in _EU_AUX},
    # promised whoever acts: read as the agent's own promise, which is no done action
    **{f"{word} {aux}": f"i will {verb}" for word, verb in _EU_FUTURE.items()
       for aux in _EU_AUX},
    **{word: f"i will {verb}" for word, verb in _EU_FUTURE.items()},
    "bidaliko da": "will ship", "bidaliko dira": "will ship",
    # the negated auxiliary comes first and the verb last: read only when it is next
    **_each("ez", "not>"), **{f"ez {aux}": "not>" for aux in _EU_AUX},
    "oraindik ez": "not yet>", **{f"oraindik ez {aux}": "not yet>" for aux in _EU_AUX},
    "ezin": None, **dict.fromkeys(_CONDITIONALS["eu"]), "ezin izan dut": "failed",
    "ezin izan dugu": "failed",
    "huts egin du": "failed", "saiatu naiz": "i tried",
    "nahi duzu": "shall i", "nahi al duzu": "shall i", "nahi baduzu": "if",
    "zain": "pending", "zain dago": "pending", "itxaroten": "pending",
    "baieztatu ondoren": "once confirmed", "ordez": "instead of",
    **_each("zaharra zaharrean aurrekoa", "old"), **_each("okerra oker", "wrong"),
    "zuzenketa": "correction", **_each("barkatu", "sorry"),
    **{stem + end: day for stem, day in (
        ("astelehen", "monday"), ("astearte", "tuesday"), ("asteazken", "wednesday"),
        ("ostegun", "thursday"), ("ostiral", "friday"), ("larunbat", "saturday"),
        ("igande", "sunday")) for end in ("", "a", "an", "ean", "erako", "rako")},
    **{stem + end: month for stem, month in (
        ("urtarril", "january"), ("otsail", "february"), ("martxo", "march"),
        ("apiril", "april"), ("maiatz", "may"), ("ekain", "june"), ("uztail", "july"),
        ("abuztu", "august"), ("irail", "september"), ("urri", "october"),
        ("azaro", "november"), ("abendu", "december")) for end in ("a", "an", "ean")},
    "bihar": "tomorrow", "datorren": "next", "hurrengo": "next",
    **_each("gorria gorri", "red"), **_each("urdina urdin", "blue"),
    **_each("berdea berde", "green"), **_each("zuria zuri", "white"),
    **_each("beltza beltz", "black"), **_each("grisa", "grey"),
    **_each("eserlekua eserlekuan eserleku", "seat"),
    **_each("pasilloa pasilloan korridorea", "aisle"), "pasillo ondoan": "aisle",
    **_each("leihoa leihatila", "window"), "leiho ondoan": "window",
    **_each("erdikoa erdian", "middle"), "turista klasea": "economy",
    "klase ekonomikoa": "economy", "ekonomikoa": "economy", "negozio klasea": "business",
    **_each("prozesatzen", "processing"), "bidean": "in transit",
    **_each("paketatuta bilduta", "packed"), "banaketan": "out for delivery",
    "entregatuta": "delivered", **_each("iritsiko", "arrives"),
    **_each("tamaina neurria taila", "size"), **_each("eskaera eskaria", "order"),
    **_each("saskia saskira saskian", "cart"), **_each("hegaldia hegaldi", "flight"),
    **_each("helbidea helbidera helbidean", "address"),
    # never "eta" (and): English writes it for an arrival time ("ETA Thu")
    "zure": "your", "dago": "is", "dira": "are",
}
"""Basque."""

BASQUE_CASE_ENDING = re.compile(
    r"(?<=[A-Z0-9])-(?:tik|etik|ra|era|ara|an|ean|ko|eko|rekin|ekin|ri|eri|k|ek|ren|en"
    r"|rako|erako|a|ak)\b")
"""A Basque case ending a hyphen joins to an id, a seat or an airport code written in
capitals or digits ("SEA-tik": from SEA, "22C-a"): the value is named."""

SIZE_AFTER = frozenset({"eu"})
"""Basque writes a size before the word for size as well as after it ("XL tamaina")."""

# --- Croatian, Serbian and Bosnian in Latin letters ----------------------------------

_HR_PARTICIPLES = {
    **_each("rezervirao rezervirala rezervirali rezervisao rezervisala rezervisali "
            "bukirao bukirala", "booked"),
    **_each("rezervirano rezervirana rezerviran rezervisano rezervisana rezervisan",
            "booked"),
    **_each("zadržao zadržala zadržano zadržana zadržan", "held"),
    **_each("dodao dodala dodali dodano dodana dodan dodat dodata", "added"),
    **_each("stavio stavila stavljeno stavljena", "put"),
    **_each("poslao poslala poslali poslano poslana poslan poslat poslata "
            "otpremljeno otpremljena", "sent"),
    **_each("promijenio promijenila promijenjeno promijenjena promenio promenila "
            "promenjeno promenjena ažurirao ažurirala ažurirano ažurirana", "changed"),
    **_each("preusmjerio preusmjerila preusmjerena preusmerio preusmerila preusmerena",
            "changed"),
    **_each("kupio kupila kupljeno kupljena", "bought"),
}
"""Croatian and Serbian participles of acting (masculine, feminine, neuter): done after
"sam", "je" or alone, not done after "nisam", "nije"."""

_HR_FUTURE = {"rezervirat ću": "book", "rezervisaću": "book", "rezervirati ću": "book",
              "dodat ću": "add", "dodaću": "add", "dodati ću": "add",
              "poslat ću": "send", "poslaću": "send", "poslati ću": "send",
              "promijenit ću": "change", "promeniću": "change", "zadržat ću": "hold"}
"""Croatian and Serbian future forms: promised, never done."""

_HR: dict[str, str | None] = {
    **_HR_PARTICIPLES,
    **{f"{word} {aux}": f"i {past}" for word, past in _HR_PARTICIPLES.items()
       for aux in ("sam", "smo")},
    **{f"{aux} {word}": f"i {past}" for word, past in _HR_PARTICIPLES.items()
       for aux in ("sam", "smo")},
    **{f"je {word}": past for word, past in _HR_PARTICIPLES.items()},
    **{word: f"i will {verb}" for word, verb in _HR_FUTURE.items()},
    **_each("nisam nismo nije nisu ne", "not>"),
    "još nisam": "not yet>", "još nije": "not yet>", "još nismo": "not yet>",
    "nisam mogao": "failed", "nisam mogla": "failed", "nisam uspio": "failed",
    "nisam uspjela": "failed", "nisam uspeo": "failed", "nisam uspela": "failed",
    "nije uspjelo": "failed", "nije uspelo": "failed", "došlo je do greške": "failed",
    # "nisam uspeo da ga rezervišem": the verb after "da" in the present
    "da": "", "da ga": "", "da je": "",
    **_each("rezervišem rezerviram rezervišemo bukiram", "book"),
    **_each("dodam dodamo", "add"), **_each("pošaljem pošaljemo", "send"),
    **_each("promenim promijenim", "change"), **_each("zadržim", "hold"),
    **_each("kupim", "buy"),
    # "nije tačna": what was said is wrong; "više ne važi": no longer valid
    **{f"nije {w}": "wrong" for w in ("tačna", "tačno", "tačan", "točna", "točno",
                                      "točan", "ispravna", "ispravno", "ispravan")},
    "više ne važi": "no longer valid", "više nije": "no longer", "ne važi": "invalid",
    "pokušao sam": "i tried", "pokušala sam": "i tried",
    "želite li da": "shall i", "želiš li da": "shall i", "hoćete li da": "shall i",
    "da li da": "shall i", "mogu": "i can", "ne mogu": None,
    **dict.fromkeys(_CONDITIONALS["hr"]),
    "na čekanju": "pending", "čeka potvrdu": "pending", "kad": "when", "kada": "when",
    "ako": "if", **_each("umjesto umesto", "instead of"),
    **_each("stari stara staru staro prethodni prethodna prethodnu", "old"),
    **_each("pogrešan pogrešna pogrešnu pogrešno netočan netočna netačan netačna",
            "wrong"),
    **_each("ispravak ispravka", "correction"),
    **_each("oprostite izvinite", "sorry"), "žao mi je": "sorry",
    **_each("ponedjeljak ponedeljak", "monday"), "utorak": "tuesday",
    **_each("srijeda srijedu sreda sredu", "wednesday"), "četvrtak": "thursday",
    "petak": "friday", **_each("subota subotu", "saturday"),
    **_each("nedjelja nedjelju nedelja nedelju", "sunday"),
    **_each("siječanj januar", "january"), **_each("veljača februar", "february"),
    **_each("ožujak mart", "march"), **_each("travanj april", "april"),
    **_each("svibanj maj", "may"), **_each("lipanj jun", "june"),
    **_each("srpanj jul", "july"), **_each("kolovoz avgust", "august"),
    **_each("rujan septembar", "september"), **_each("listopad oktobar", "october"),
    **_each("studeni novembar", "november"), **_each("prosinac decembar", "december"),
    "sutra": "tomorrow", **_each("sljedeći sljedeće sljedeću sledeći sledeće sledeću",
                                "next"),
    **_each("crven crvena crvenu crveni crveno crvenoj", "red"),
    **_each("plav plava plavu plavi plavo plavoj", "blue"),
    **_each("zelen zelena zelenu zeleni zeleno zelenoj", "green"),
    **_each("bijel bijela bijelu bijeli bijelo bijeloj beo bela belu beli belo beloj",
            "white"),
    **_each("crn crna crnu crni crno crnoj", "black"),
    **_each("siv siva sivu sivi sivo sivoj", "grey"),
    **_each("sjedalo sjedala sjedište sedište mjesto mesto", "seat"),
    "do prolaza": "aisle", "uz prolaz": "aisle", "kod prolaza": "aisle",
    "do prozora": "window", "uz prozor": "window", "kod prozora": "window",
    "u sredini": "middle", **_each("srednje srednja srednju srednjem", "middle"),
    **_each("ekonomska ekonomsku ekonomskoj", "economy"), "ekonomska klasa": "economy",
    "ekonomskoj klasi": "economy", **_each("poslovna poslovnu poslovnoj", "business"),
    "u obradi": "processing", "u tranzitu": "in transit", "na putu": "in transit",
    "u dostavi": "out for delivery",
    **_each("zapakirana zapakirano zapakovana zapakovano spakirana spakovana upakirana",
            "packed"),
    **_each("isporučena isporučeno dostavljena dostavljeno", "delivered"),
    **_each("stiže stići", "arrives"),
    **_each("veličina veličine veličini veličinu", "size"),
    **_each("narudžba narudžbu narudžbe porudžbina porudžbinu porudžbine", "order"),
    **_each("košarica košaricu košarici korpa korpu korpi", "cart"),
    **_each("leta letu", "flight"), **_each("adresa adresu adrese adresi", "address"),
    "i dalje": "still", "je": "is", "su": "are",
    "i": "and", "sa": "with", "za": "for", "iz": "from", "na adresu": "to", "na": "to",
    "vaša": "your", "vaš": "your", "vašu": "your",
}
"""Croatian, and Serbian and Bosnian in Latin letters."""

WORDS: dict[str, dict[str, str | None]] = {"cy": _CY, "tl": _TL, "eu": _EU, "hr": _HR}
"""Each language's one table, as `_answer_words_glossed._WORDS` holds its own."""

CONDITIONALS = frozenset().union(*_CONDITIONALS.values())
"""The words of `_CONDITIONALS`: unread, so a done verb after them leaves the answer
unsure, named as a conditional, not a negation."""
