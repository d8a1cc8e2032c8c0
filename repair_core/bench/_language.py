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

The answer reader's guess (`guess_answer_language`) is checked by a language detector
(py3langid, loaded on first use, its model inside its wheel): the words choose among the
languages the reader reads, and the detector says when an answer is in none of them
(Frisian, Kinyarwanda, Quechua, which the word tables took for Dutch or English).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from typing import Any

from pydantic import BaseModel

from .._words import is_mark
from ._answer_words_four import SERBIAN_ALPHABET
from ._answer_words_glossed import GLOSS_WORDS

__all__ = ["ANSWER_READER_LANGUAGES", "detect_language", "guess_answer_language", "FUNCTION_WORDS", "LISTING_WORDS", "UNREAD_FUNCTION_WORDS", "LANGUAGE_NAMES", "UNDETERMINED",
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
    "sl": frozenset({"tudi", "lahko", "ker", "zelo", "vendar", "torej", "zdaj", "sedaj",
                     "kje", "skupaj", "največ", "najmanj", "bomo", "boste", "bodo", "niso",
                     "nisem", "naslednji", "naslednjo", "naslednje", "naslednjem",
                     "napačno", "napačen", "napačna", "zadnje", "zadnji", "zadnjo",
                     "vašo",
                     # past forms in -l (Croatian writes -o: "rezervirao") and the words
                     # for the seat, order, cart and address
                     "rezerviral", "dodal", "poslal", "spremenil", "spremenila", "kupil",
                     "sedež", "sedeža", "naročilo", "naročila", "košarico", "naslov"}),
    # Zulu and Xhosa write a negation inside the verb ("angikabhukhi", "andikabhukisha"):
    # their words for the seat, plane, cart, order and address place an answer too
    "zu": frozenset({"yakho", "wakho", "lakho", "kwakho", "sakho", "zakho", "yami", "wami",
                     "kodwa", "futhi", "noma", "ukuthi", "ngoba", "kanye", "ozayo",
                     "esuka", "ukuba", "kwaye", "okanye", "ngoku", "kuba", "kakhulu",
                     "angizange", "andizange", "akukho", "ayikho", "namhlanje", "kusasa",
                     "ngomso", "isihlalo", "isitulo", "endizeni", "indiza", "ibhanoyi",
                     "kwinqwelomoya", "inqwelomoya", "enqoleni", "kwinqwelo", "ikheli",
                     "idilesi", "usayizi", "umbala"}),
    "lb": frozenset({"ech", "hunn", "huet", "hutt", "ass", "sinn", "méi", "eng", "engem",
                     "enger", "äre", "ären", "ärem", "iech", "awer", "gëtt", "kënnt",
                     "wëllt", "hien", "dës", "elo", "schonn", "keen", "keng", "iwwer",
                     "vun", "sech"}),
    "ht": frozenset({"mwen", "avèk", "poko", "pou", "kounye", "genyen", "paske", "ankò",
                     "nou", "ap", "pral", "sou"}),
    "jv": frozenset({"wis", "durung", "lan", "ing", "sampeyan", "panjenengan", "kanggo",
                     "saka", "menyang", "ora", "uga", "kuwi", "karo", "mung", "arep",
                     "kowe", "nanging"}),
    "mg": frozenset({"ny", "aho", "ianao", "amin", "tamin", "tsy", "mbola", "efa", "sy",
                     "ary", "izany", "ity", "avy", "dia", "nefa", "anao", "ahy"}),
    "ha": frozenset({"zuwa", "daga", "ranar", "tare", "kuma", "amma", "wannan", "wanda",
                     "sosai", "yanzu", "kuna", "muna", "ban", "bai", "jirgin", "kujera"}),
    "yo": frozenset(unicodedata.normalize("NFKC", w) for w in (
        "ṣùgbọ́n", "sínú", "yóò", "pẹ̀lú", "àti", "kò", "kì", "ṣe", "rẹ", "wà", "fún",
        "tíì", "náà", "padà", "mọ́", "ní", "sí", "lọ", "dé", "ò", "lórí")),
    "mi": frozenset({"ngā", "tō", "tāku", "kāore", "mō", "anō", "rā", "kua", "kia", "ahau",
                     "hei", "nei"}),
    # Sundanese: its pronouns, its negations "teu", "henteu" and "moal" (of a future),
    # "acan" (yet), "geus" and "parantos" (already, done), "rék" and "badé" (will) and
    # its prepositions and demonstratives, from the grammar in Wikipedia's "Sundanese
    # language" and thelanguages.com's "Sundanese Verbs"; none is Indonesian or
    # Javanese, whose words it would otherwise be taken for (or Swedish, by "dina")
    "su": frozenset({"abdi", "anjeun", "teu", "henteu", "moal", "acan", "geus", "parantos",
                     "rék", "badé", "sareng", "kana", "ieu", "éta", "pikeun", "tos",
                     "urang", "hapunten"}),
    # Scottish Gaelic and Irish: the negative particles "chan" and "níor", "níl"
    # and the verb "to be" ("tha", "bha"; "atá", "bhfuil"), from Polyglot Club's
    # "Scottish Gaelic Grammar - Negation", celticlanguages.online's "Dependent
    # Particles" and Universal Dependencies' Irish "Polarity"; read as Portuguese or
    # English before ("Cha do ghlèidh mi ... air an itealan", "Níor chuir mé ...")
    # ("cha" itself is Swahili's "of" too: it is left out)
    "gd": frozenset({"chan", "agus", "tha", "bha", "chaidh", "fhathast", "leis",
                     "agaibh", "dhuibh", "bhur", "airson", "anns", "seo", "robh",
                     # as for Zulu, the words for the seat, plane, order and address
                     "suidheachan", "itealan", "òrdugh", "seòladh"}),
    "ga": frozenset({"níor", "níl", "tá", "agus", "fós", "bhfuil", "chuir", "atá", "daoibh",
                     "libh", "mé", "bhur", "seo", "suíochán", "eitilt", "ordú", "seoladh"}),
    # Slovak: its past forms of "to be" and "not been" ("bol", "nebol"), "ešte" (yet),
    # "alebo" (or), "ktorý" (which), "pretože" (because), from colanguage.com's "Slovak
    # past tense"; Czech writes "byl", "ještě", "nebo", "který", "protože"
    "sk": frozenset({"ešte", "alebo", "ktorý", "ktorá", "ktoré", "bol", "bolo", "nebol",
                     "nebola", "nebolo", "pretože", "veľmi", "ďakujem", "sme"}),
    # Breton: the negation "ne ... ket", "eus" (there is), "emañ" (is), from Wikipedia's
    # "Breton grammar" and brezhonegbrovear.bzh's "An nac'hañ"
    "br": frozenset({"ket", "eus", "hag", "gant", "evit", "c'hoazh", "emañ", "eo"}),
    # Corsican: the negation "ùn ... micca", "aghju" (I have), "hè", "sò" (is, are), from
    # gbatti-alinguacorsa.fr's "Nun, ùn; Micca"
    "co": frozenset({"ùn", "micca", "aghju", "hè", "sò", "nantu", "incù", "ancu", "vostru",
                     "chì", "avà", "dinò"}),
}
"""Short words of languages recognised beyond the seven of `FUNCTION_WORDS`, which a
reader reads only when it says so (`ANSWER_READER_LANGUAGES`): an answer that uses more
of one of them than of English is not read as English, and one it does not read is named
("its function words are Catalan") rather than taken for a language it shares words with
(Catalan for Spanish or French, Galician for Portuguese, Romansh for Italian). Words that are also English
words ("i", "to", "a", "on", "is", "size", "men") or function words of a language the
reader reads ("la", "de", "en", "se", "di", "je") are left out, so they never count
against a language the reader reads; Swedish and Danish "din" (your) counts, English
"din" being a word answers do not write. Slovenian is known by words no other language
listed here writes ("tudi", "lahko", "skupaj", "največ"), and by the words it shares with
Czech, Polish or Croatian beside them (`SHARED_BESIDE_OWN_WORDS`)."""

SHARED_BESIDE_OWN_WORDS: dict[str, frozenset[str]] = {
    "sl": frozenset({"v", "po", "za", "pri", "od", "iz", "z", "s", "ni", "pa", "ki", "bo",
                     "že", "še", "ali", "če", "kot", "ko", "tako", "samo", "vaš", "vaša",
                     "vaše", "vam", "vas", "smo", "ste", "sem", "si", "bila", "bilo",
                     "bili", "prosim"}),
}
"""Function words a language of `UNREAD_FUNCTION_WORDS` shares with a neighbour the guess
knows (Slovenian "v", "po", "že" with Czech, Polish and Croatian), counted for it only in
a text that holds one of its own words there: a Czech text is not made as much Slovenian
by its "v" and "z", and a Slovenian one ("Nakaži skupaj ... na račun ..., v obrokih po
največ ...") is no longer Czech by them. None is a function word of the seven languages
of `FUNCTION_WORDS`."""

READER_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "ca": frozenset({"per", "he", "teu", "teva", "teus", "meu", "hem", "ho", "hi", "pels",
                     "vaig", "vas"}),
    "gl": frozenset({"non"}),
    "vi": frozenset({"bạn", "tôi", "mình", "của", "và", "là", "đã", "được", "không", "có",
                     "này", "cho", "với", "trên", "từ", "đến", "các", "những", "một", "sẽ",
                     "đang", "chưa", "rồi", "nhé", "ở", "lúc", "vào", "nữa", "còn",
                     "cũng", "thì", "nhưng", "hoặc", "tại", "về"}),
    "hu": frozenset({"minden", "ezt", "azt", "nekem", "neked", "önnek", "önt", "amit",
                     "ami", "mert", "nincsen", "lett", "vagyok", "fogom", "kell",
                     "szerint", "után", "előtt", "alatt"}),
    "sw": frozenset({"kwa", "katika", "kwenye", "kila", "hii", "hiyo", "huo", "yako",
                     "wako", "zako", "lako", "ajili", "bado", "tayari", "lakini", "pia",
                     "sana", "kutoka", "hadi", "mimi", "wewe", "yangu", "wangu", "kama"}),
    "tr": frozenset({"yüzünden", "dolayı", "göre", "zaman", "diye", "bile", "hem"}),
    "cy": frozenset({"yr", "yn", "wedi", "eich", "ar", "mae", "nid", "ddim", "dydw", "rwyf",
                     "rydw", "rydych", "roedd", "oeddwn", "bydd", "fydd", "gyda", "ond",
                     "hefyd", "eto", "fy", "chi", "hwn", "yw", "ydy", "ydych", "oes",
                     "gan", "ac", "ag", "efo", "mewn", "drwy", "trwy", "nesaf"}),
    "tl": frozenset({"ang", "ng", "mga", "sa", "ay", "ko", "mo", "niya", "ako", "ikaw",
                     "siya", "tayo", "namin", "natin", "ninyo", "nila", "hindi", "pa",
                     "po", "ba", "rin", "lang", "naman", "kung", "dahil", "wala",
                     "yung", "iyong", "ito", "iyan", "iyon", "nang", "kay", "nasa", "kapag"}),
    "eu": frozenset({"dut", "dugu", "duzu", "dira", "dago", "daude", "zen",
                     "izan", "ere", "baina", "edo", "zure", "zuk", "nik", "bat", "hau",
                     "hori", "orain", "oraindik", "ditut", "ditugu"}),
    "hr": frozenset({"sam", "smo", "ste", "nisam", "nije", "nismo", "niste", "nisu",
                     "vaš", "vaša", "vašu", "vam", "za", "iz", "ili", "već", "još",
                     "će", "ću", "kao", "koji", "koja", "koje", "sutra", "biti",
                     "bio", "sada", "sad", "trenutno"}),
}
"""More Catalan and Galician function words, shared with a language the next-session
agent reads or another it recognises ("per", "he", "non"), and the function words of
Vietnamese, Swahili, Welsh, Tagalog, Basque and Croatian (with Serbian and Bosnian in
Latin letters), and more of Hungarian and Turkish, counted only by a reader that
reads these languages (the answer reader), so the agent's guess and its reasons stay as
they were."""

UNDETERMINED = "und"
"""The code of an answer the reader cannot place in any language it knows."""

LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish",
                  "it": "Italian", "pt": "Portuguese", "nl": "Dutch", "pl": "Polish",
                  "cs": "Czech", "sv": "Swedish", "da": "Danish or Norwegian",
                  "tr": "Turkish", "ro": "Romanian", "fi": "Finnish", "hu": "Hungarian",
                  "id": "Indonesian or Malay", "ca": "Catalan", "gl": "Galician",
                  "rm": "Romansh", "zh": "Chinese", "ja": "Japanese", "ko": "Korean",
                  "ru": "Russian", "uk": "Ukrainian", "vi": "Vietnamese", "hi": "Hindi",
                  "el": "Greek", "ar": "Arabic", "he": "Hebrew", "sw": "Swahili",
                  "sl": "Slovenian", "cy": "Welsh", "tl": "Tagalog", "eu": "Basque",
                  "zu": "Zulu or Xhosa", "lb": "Luxembourgish", "ht": "Haitian Creole",
                  "jv": "Javanese", "mg": "Malagasy", "ha": "Hausa", "yo": "Yoruba",
                  "mi": "Maori", "su": "Sundanese", "gd": "Scottish Gaelic", "ga": "Irish",
                  "sk": "Slovak", "br": "Breton", "co": "Corsican",
                  "hr": "Croatian, Serbian or Bosnian",
                  UNDETERMINED: "no language the reader knows"}

ANSWER_READER_LANGUAGES = frozenset({*FUNCTION_WORDS, "pl", "cs", "sv", "da", "fi", "tr",
                                     "zh", "ja", "ko", "ca", "gl", "ro", "id", "ru", "uk",
                                     "vi", "hi", "hu", "el", "ar", "he", "sw",
                                     "cy", "tl", "eu", "hr"})
"""The languages the answer reader reads: the seven of `FUNCTION_WORDS`, five of
`UNREAD_FUNCTION_WORDS` (`repair_core.bench._answer_words`), Turkish
(`_answer_words_turkish`), Chinese, Japanese and Korean (`_answer_words_cjk`), and
Catalan, Galician, Romanian, Indonesian, Russian and Ukrainian (`_answer_words_glossed`),
and Vietnamese, Hindi, Hungarian, Greek, Arabic, Hebrew and Swahili
(`_answer_words_scripts`), and Welsh, Tagalog, Basque and Croatian
(`_answer_words_four`). The next-session agent reads the seven alone (`guess_language`'s default)."""

CYRILLIC_WORDS: dict[str, frozenset[str]] = {
    "ru": frozenset({"и", "не", "что", "это", "как", "вы", "ты", "он", "она", "уже", "ещё",
                     "еще", "был", "была", "было", "будет", "вам", "ваш", "ваша", "ваше",
                     "тебе", "твой", "твоя", "из", "от", "по", "для", "или", "но",
                     "мы", "я", "к", "с", "о", "в", "у"}),
    "uk": frozenset({"і", "й", "не", "що", "це", "як", "ви", "ти", "він", "вона", "вже",
                     "ще", "був", "була", "було", "буде", "вам", "ваш", "ваша", "ваше",
                     "тобі", "твій", "твоя", "із", "від", "по", "для", "або", "але", "ми",
                     "я", "до", "з", "та", "у", "в"}),
}
"""Short words of Russian and Ukrainian, which tell an answer written mostly in Cyrillic
letters apart with the letters each writes alone (`_UKRAINIAN_LETTERS`,
`_RUSSIAN_LETTERS`)."""

_UKRAINIAN_LETTERS = frozenset("іїєґ")
_RUSSIAN_LETTERS = frozenset("ыэъё")
_OTHER_CYRILLIC_LETTERS = frozenset("јљњћђџѓќѕў")
"""Letters of Serbian, Macedonian and Belarusian Cyrillic, none Russian or Ukrainian: a
text holding one is neither."""
_BULGARIAN_WORDS = frozenset({"е", "са", "към", "във", "със", "съм"})
"""Short Bulgarian words that are neither Russian nor Ukrainian: a text using one is
neither."""

_SERBIAN_CYRILLIC_WORDS = frozenset({"је", "није", "сам", "смо", "су", "нисам", "нисмо",
                                     "нису"})
"""Serbian auxiliaries and their negations ("Резервисао сам", "није тачна"): with no
letter outside the Serbian alphabet and no Macedonian word, one of them or a "ђ" or "ћ"
places a Cyrillic text as Serbian."""
_MACEDONIAN_WORDS = frozenset({"во", "со", "сум", "сме", "ќе", "е"})
"""Short Macedonian words Serbian does not write ("во", "со", "сум"): a text using one is
not Serbian."""


def _serbian_cyrillic(text: str, scripts: dict[str, int]) -> str:
    """"hr" (the reader's Croatian, Serbian or Bosnian) for a text written mostly in
    Cyrillic letters, every one of the Serbian alphabet, with a "ђ" or "ћ" or a Serbian
    auxiliary (`_SERBIAN_CYRILLIC_WORDS`) and no Macedonian word (`_MACEDONIAN_WORDS`);
    else ""."""
    if scripts.get("CYRILLIC", 0) * 2 <= sum(scripts.values()):
        return ""
    lower = text.lower()
    if any(_script(ch) == "CYRILLIC" and ch not in SERBIAN_ALPHABET for ch in lower):
        return ""  # another Cyrillic letter: Russian "ы", Macedonian "ѓ", Kazakh "ә", ...
    words = {w.strip(_CHUNK_EDGES) for w in lower.split()}
    if words & _MACEDONIAN_WORDS:
        return ""
    return "hr" if "ђ" in lower or "ћ" in lower or words & _SERBIAN_CYRILLIC_WORDS else ""


OTHER_SCRIPT_SHARE = 1 / 3
"""An answer with at least this share of its letters outside the Latin script (Cyrillic,
Greek, Japanese, Chinese, Korean, Arabic, ...) is not read: a name quoted in another
script in an English answer stays below it."""

LANGUAGE_WORDS_ONE_IN = 20
"""A language is placed by one word in this many of a text's words at least: a language
other than English only when the words counted for it are that share or more, and a text
with no such words by its own letters (`OWN_LETTERS`) only when it is shorter. A sentence
of any language is a third or more function words, the tersest listing of the answer sets
one word in thirteen, while letters drawn at random make a short word of some language's
table now and then (18 French ones in 5,357 random words), which is no language at all."""

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


@functools.cache
def _words_of(code: str) -> frozenset[str]:
    """Every word `code` is counted by (function, listing and table words), built once
    per language, not once per tie."""
    return (FUNCTION_WORDS.get(code, frozenset()) | UNREAD_FUNCTION_WORDS.get(code, frozenset())
            | READER_FUNCTION_WORDS.get(code, frozenset())
            | LISTING_WORDS.get(code, frozenset()) | GLOSS_WORDS.get(code, frozenset()))


_LATIN_GLOSSED = ("ca", "gl", "ro", "id", "vi", "hu", "sw", "cy", "tl", "eu", "hr")
GLOSSED_LEAST = 2
"""An answer is placed in Catalan, Galician, Romanian or Indonesian by this many of its
words at least: one short word ("ke", "cu") is shared with too many languages the guess
does not know."""

UNREAD_LETTERS = frozenset("ðþħġċĉĝĥĵŝŭŵŷāēīōūļņķģėįųə")
"""Latin letters no language the answer reader reads writes (Icelandic "ð", "þ", Maltese
"ħ", "ġ", Esperanto "ĉ", "ŭ", Welsh "ŵ", Latvian "ā", "ļ", Lithuanian "ė", "ų",
Azerbaijani "ə", ...): one word shared with a language it reads ("flug", "la", "u") does
not make a text holding one that language."""
_OWN_GLOSS_WORDS = {
    code: frozenset(w for w in GLOSS_WORDS[code] if len(w) > 2) - frozenset().union(
        *(known for other, known in [*FUNCTION_WORDS.items(), *UNREAD_FUNCTION_WORDS.items()]
          if other != code))
    for code in _LATIN_GLOSSED}
"""The single words of more than two letters of the gloss tables of Catalan, Galician,
Romanian and Indonesian (`repair_core.bench._answer_words_glossed`) that are no other
language's function word ("afegit", "dijous", "carriño", "vineri", "keranjang"): like
`LISTING_WORDS`, they place an answer with no English function word, for a reader that
reads the language (the next-session agent's guess counts none of them); a word another
language lists too ("talla", "corredor") counts for both, and words only one of them has
then tell them apart (`_by_own_words`)."""


def _index(*tables: dict[str, frozenset[str]]) -> dict[str, tuple[str, ...]]:
    """Word -> the languages of `tables` that list it, in the tables' order."""
    out: dict[str, list[str]] = {}
    for table in tables:
        for code, known in table.items():
            for word in known:
                out.setdefault(word, []).append(code)
    return {word: tuple(codes) for word, codes in out.items()}


@functools.cache
def _codes_by_word() -> tuple[dict[str, tuple[str, ...]], ...]:
    """The word tables turned round, built on first use: word -> the languages counting
    it among `FUNCTION_WORDS` and `UNREAD_FUNCTION_WORDS`, among
    `READER_FUNCTION_WORDS`, among `LISTING_WORDS`, among `_OWN_GLOSS_WORDS` and among
    `SHARED_BESIDE_OWN_WORDS`; so a
    word of an answer is one look-up, not one per language."""
    return (_index(FUNCTION_WORDS, UNREAD_FUNCTION_WORDS), _index(READER_FUNCTION_WORDS),
            _index(LISTING_WORDS), _index(_OWN_GLOSS_WORDS), _index(SHARED_BESIDE_OWN_WORDS))


def _by_own_words(tied: list[str], seen: Counter[str], best: int
                  ) -> tuple[list[str], bool]:
    """Languages tied on their count, when one of them is read through a gloss table
    (Catalan, Galician, Romanian, Indonesian): that one first when it has more words no
    other of them has than each of them ("He afegit al carret": "he" and "al" are Spanish
    and Catalan, "afegit" and "carret" Catalan only), else the others in their order; and
    whether no word tells the first from such a language (as many words of their own, or
    `best`, the count they tie on, under `GLOSSED_LEAST`). Languages tied with none of
    those are returned in their order."""
    if len(tied) < 2 or not any(c in _LATIN_GLOSSED for c in tied):
        return tied, False
    if best < GLOSSED_LEAST:
        return tied, True
    words = {code: _words_of(code) for code in tied}
    own = {code: sum(n for w, n in seen.items() if w in words[code]
                     and not any(w in words[o] for o in tied if o != code)) for code in tied}
    ranked = sorted(tied, key=lambda c: -own[c])
    top = own[ranked[0]]
    # a language of the gloss tables is placed, or set aside, only by words of its own:
    # as many as the first's, no word tells which it is
    if ranked[0] in _LATIN_GLOSSED:
        return ranked, any(own[c] == top for c in ranked[1:])
    if any(own[c] == top for c in ranked[1:] if c in _LATIN_GLOSSED):
        return ranked, True
    return [c for c in tied if c not in _LATIN_GLOSSED], False


def _cyrillic_language(text: str, scripts: dict[str, int]) -> str:
    """Russian or Ukrainian for a text written mostly in Cyrillic letters: one of them
    by the letters it writes alone, backed by more of its short words than of the other's
    (`CYRILLIC_WORDS`); else ""."""
    if scripts.get("CYRILLIC", 0) * 2 <= sum(scripts.values()):
        return ""
    lower = text.lower()
    if not _OTHER_CYRILLIC_LETTERS.isdisjoint(lower):
        return ""
    words = [w.strip(_CHUNK_EDGES) for w in lower.split()]
    if any(w in _BULGARIAN_WORDS for w in words):
        return ""
    counts = {code: sum(w in known or w in GLOSS_WORDS[code] for w in words)
              for code, known in CYRILLIC_WORDS.items()}
    ukrainian = not _UKRAINIAN_LETTERS.isdisjoint(lower)
    russian = not _RUSSIAN_LETTERS.isdisjoint(lower)
    if ukrainian and not russian and counts["uk"] > counts["ru"]:
        return "uk"
    if russian and not ukrainian and counts["ru"] >= counts["uk"] > 0:
        return "ru"
    if not ukrainian and not russian and counts["ru"] > counts["uk"]:
        return "ru"
    return ""


SCRIPT_FUNCTION_WORDS: dict[str, tuple[str, frozenset[str], frozenset[str]]] = {
    "el": ("GREEK", frozenset({"και", "το", "τα", "η", "ο", "οι", "του", "της", "των",
                               "τον", "την", "με", "για", "σε", "στο", "στη", "στην",
                               "στον", "να", "θα", "δεν", "είναι", "από", "σου", "σας",
                               "μου", "ένα", "μια", "ότι", "αλλά"}), frozenset()),
    "ar": ("ARABIC", frozenset({"في", "من", "إلى", "الى", "على", "مع", "عن", "أن", "هذا",
                                "هذه", "هو", "هي", "لا", "لم", "تم", "قد", "كان", "أنت",
                                "أنا", "التي", "الذي", "يوم", "الآن"}),
           frozenset("پچژگکیٹڈڑںےھۓ")),
    "he": ("HEBREW", frozenset({"את", "של", "על", "עם", "לא", "זה", "הוא", "היא", "אני",
                                "אתה", "יש", "אין", "גם", "כי", "אבל", "או", "מה", "רק",
                                "כבר", "עוד", "ליד", "אל", "שלך", "שלי", "שלכם",
                                "לך", "לי", "אתם", "אנחנו"}),
           frozenset("װױײ")),
    "hi": ("DEVANAGARI", frozenset({"है", "हैं", "में", "के", "की", "का", "को", "से", "ने",
                                    "और", "था", "थी", "थे", "आप", "आपने", "आपकी", "आपका",
                                    "यह", "वह", "मैंने", "नहीं", "पर", "भी", "हो"}),
           frozenset()),
}
"""Per language written in its own script: the script, short words nearly every sentence
uses, and letters only a neighbour writing the same script uses (Persian and Urdu in
Arabic letters; Yiddish's ligatures in Hebrew letters). The letters are looked for in the
text folded to NFKC, so each is one NFKC keeps: Yiddish's pointed alefs "אַ", "אָ" and
"ײַ" become a letter and a point pointed Hebrew writes too, and tell nothing."""
_SCRIPT_NEIGHBOURS = {"ar": frozenset({"است", "این", "که", "را", "می", "ہے", "کے"}),
                      "he": frozenset({"איז", "דער", "דאס", "און", "ניט", "נישט", "מיט"}),
                      "hi": frozenset({"आहे", "आणि", "छ", "छन्", "हुन्छ", "गरे", "र", "पण",
                                       "मी", "तुम्ही", "होते", "आहेत", "गर्नुहोस्"})}
"""Words of a neighbour writing the same letters (Persian and Urdu, Yiddish, Marathi and
Nepali): a text using one is not the language."""


def _script_language(text: str, scripts: dict[str, int]) -> str:
    """Greek, Arabic, Hebrew or Hindi for a text written mostly in that script, with at
    least one of its short words (`SCRIPT_FUNCTION_WORDS`), none of a neighbour's
    letters and no word of a neighbour writing the same script; else ""."""
    total = sum(scripts.values())
    for code, (script, known, neighbour_letters) in SCRIPT_FUNCTION_WORDS.items():
        if scripts.get(script, 0) * 2 <= total:
            continue
        if not neighbour_letters.isdisjoint(text):
            return ""
        words = {w.strip(_CHUNK_EDGES + "،؛؟।") for w in text.lower().split()}
        if words & _SCRIPT_NEIGHBOURS.get(code, frozenset()) or not words & known:
            return ""
        return code
    return ""


OWN_LETTERS: dict[str, frozenset[str]] = {
    "pl": frozenset("łŁ"), "cs": frozenset("řŘůŮ"), "ro": frozenset("țȚșȘ"),
}
"""Letters only one language the guess knows writes, and no neighbour of it (Polish "ł",
Czech "ř" and "ů", Romanian "ț" and "ș" with the comma below): an answer the function
words leave undetermined ("Poleciłem Rijksmuseum; bilety najlepiej kupić online.", "Ți-am
recomandat Muzeul Van Gogh", where "van" is as Hungarian as Dutch) is placed by them, by
a reader that reads that language; English with a foreign name ("Hotel Łódź Centrum")
stays English."""


def _by_own_letters(text: str, reads: frozenset[str]) -> str:
    """The one language `reads` holds whose own letters (`OWN_LETTERS`) `text` writes,
    when it writes no other's; else ""."""
    found = [code for code, letters in OWN_LETTERS.items() if not letters.isdisjoint(text)]
    return found[0] if len(found) == 1 and found[0] in reads else ""


_WRITTEN_MOSTLY = "written mostly in letters of other scripts"


def guess_language(text: str, reads: frozenset[str] = frozenset(FUNCTION_WORDS)
                   ) -> LanguageGuess:
    """`_guess_by_words`, with an answer in the Latin script it leaves undetermined placed
    by its own letters (`OWN_LETTERS`) in the one language of `reads` that writes them.

    >>> guess_language("Poleciłem muzeum; bilety najlepiej kupić online.").code
    'und'
    >>> guess_language("Poleciłem muzeum; bilety najlepiej kupić online.",
    ...                ANSWER_READER_LANGUAGES).code
    'pl'
    """
    guess, words = _guess_by_words(text, reads)
    # a text in another script is not placed by a Latin letter, and a longer one whose
    # words are hardly any language's is no language, whichever letters it writes
    if (guess.code == UNDETERMINED and not guess.why_unread.startswith(_WRITTEN_MOSTLY)
            and words < LANGUAGE_WORDS_ONE_IN and (own := _by_own_letters(text, reads))):
        return LanguageGuess(code=own)
    return guess


def _guess_by_words(text: str, reads: frozenset[str]) -> tuple[LanguageGuess, int]:
    """(The language of `text`, the number of its words read, 0 for another script):
    another script when most of its letters say so, else the
    language whose function words it uses most (English on a tie with English; with no
    English function word, its `LISTING_WORDS` count too; a short word in capitals in a
    text with lower-case letters is an abbreviation, "Toronto (ON)"), else, with no
    function word of any language, not English when it has enough words and a letter
    English does not write, or several words in letters beyond Latin-1; a language other
    than English by one word in `LANGUAGE_WORDS_ONE_IN` at least.
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
    # each distinct character is looked at once, with how often it occurs
    chars = Counter(text)
    for ch, n in chars.items():
        if ch.isalpha():
            letters += n
            if (script := _script(ch)) != "LATIN":
                other_script += n
                scripts[script] = scripts.get(script, 0) + n
    if letters and other_script >= OTHER_SCRIPT_SHARE * letters:
        written = (_cjk_language(scripts) or _cyrillic_language(text, scripts)
                   or _serbian_cyrillic(text, scripts)
                   or _script_language(text, scripts))
        if written in reads:
            return LanguageGuess(code=written), 0
        most = sorted(scripts, key=lambda s: -scripts[s])[:3]
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"{_WRITTEN_MOSTLY} ({', '.join(map(_script_name, most))}"
            "), which the reader does not read")), 0
    counts = dict.fromkeys([*FUNCTION_WORDS, *UNREAD_FUNCTION_WORDS,
                            *READER_FUNCTION_WORDS], 0)
    own_gloss = {code: known for code, known in _OWN_GLOSS_WORDS.items() if code in reads}
    listing = dict.fromkeys([*LISTING_WORDS, *own_gloss], 0)
    function_codes, reader_codes, listing_codes, gloss_codes, shared_codes = _codes_by_word()
    seen: Counter[str] = Counter()
    shared = dict.fromkeys(SHARED_BESIDE_OWN_WORDS, 0)
    # a short word written in capitals in a text that has lower-case letters is an
    # abbreviation ("Toronto (ON)", "flight to LA"), not a function word
    has_lower = any(ch.islower() for ch in chars)
    words = non_ascii = beyond_latin_1 = 0
    # each distinct token is read once, counted as often as it occurs
    for token, n in Counter(text.split()).items():
        written = token.strip(_CHUNK_EDGES)
        chunk = written.lower()
        if not chunk.isalpha() and (any(ch.isdigit() for ch in chunk)
                                    or not any(ch.isalpha() for ch in chunk)):
            continue  # an id or a number ("O-9242"), not a word of the language
        words += n
        if not chunk.isascii():
            non_ascii += n * any(ch.isalpha() and ch > "\x7f" for ch in chunk)
            beyond_latin_1 += n * any(ch.isalpha() and ch > "\xff"
                                      and ch not in _LATIN_1_LIGATURES for ch in chunk)
        for code in listing_codes.get(chunk, ()):
            listing[code] += n
        for code in gloss_codes.get(chunk, ()):
            if code in own_gloss:
                listing[code] += n
        seen[chunk] += n
        for word, as_written in zip(_APOSTROPHES.split(chunk), _APOSTROPHES.split(written),
                                    strict=True):
            if has_lower and len(as_written) > 1 and as_written.isupper():
                continue
            for code in function_codes.get(word, ()):
                # English writes the pronoun "I" upper-case; a lower-case "i" is Swedish,
                # Polish or Italian "in" or "and"
                if not (code == "en" and as_written == "i"):
                    counts[code] += n
            for code in reader_codes.get(word, ()):
                if code in reads:
                    counts[code] += n
            for code in shared_codes.get(word, ()):
                shared[code] += n
    for code, n in shared.items():
        if counts[code]:
            counts[code] += n
    if counts["en"] == 0:
        # no English function word: a terse listing is placed by its listing words too
        for code, n in listing.items():
            counts[code] += n
    best = max(counts.values())
    if best and counts["en"] < best and best * LANGUAGE_WORDS_ONE_IN < words:
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"too few of its words belong to any one language ({best} of {words}) to say "
            "it is written in one")), words
    if best and counts["en"] < best:
        tied = [c for c, n in counts.items() if n == best]
        read_tied, alike = _by_own_words([c for c in tied if c in reads], seen, best)
        if alike:
            return LanguageGuess(code=UNDETERMINED, why_unread=(
                f"its function words are as much {LANGUAGE_NAMES[read_tied[0]]} as "
                f"{LANGUAGE_NAMES[read_tied[1]]}, and no word tells them apart")), words
        code = read_tied[0] if read_tied else tied[0]
        unread = [c for c in tied if c not in reads]
        if code in reads and unread:
            # as many function words of a language it does not read: it cannot tell which
            return LanguageGuess(code=UNDETERMINED, why_unread=(
                f"its function words are as much {LANGUAGE_NAMES[unread[0]]} as "
                f"{LANGUAGE_NAMES[code]}, and the reader does not read "
                f"{LANGUAGE_NAMES[unread[0]]}")), words
        if code in reads and code in _LATIN_GLOSSED and best < GLOSSED_LEAST:
            return LanguageGuess(code=UNDETERMINED, why_unread=(
                f"one word only says it is {LANGUAGE_NAMES[code]}")), words
        if code in reads and best < GLOSSED_LEAST and (
                unread_letters := sorted(UNREAD_LETTERS.intersection(text.lower()))):
            return LanguageGuess(code=UNDETERMINED, why_unread=(
                f"one word only says it is {LANGUAGE_NAMES[code]}, and it writes "
                f"'{unread_letters[0]}', a letter no language the reader reads writes")), words
        if code in reads:
            return LanguageGuess(code=code), words
        return LanguageGuess(code=code, why_unread=(
            f"its function words are {LANGUAGE_NAMES[code]}, which the reader does not "
            "read")), words
    if counts["en"] == 0 and words >= BARE_WORDS and non_ascii:
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"no English function word in {words} words, some with letters English does "
            "not write")), words
    if beyond_latin_1 >= 2 and beyond_latin_1 > counts["en"]:
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"{beyond_latin_1} words with letters beyond Latin-1 (as Polish, Czech or "
            "Turkish write), more than its English function words")), words
    return LanguageGuess(code="en"), words


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
        elif is_mark(ch):
            kind = previous  # a vowel sign or an accent continues its letter's word
        else:
            kind = ""
        if kind and previous and kind != previous:
            out.append(" ")
        out.append(ch)
        previous = kind
    return "".join(out)


DETECTOR_UNREAD_LEAST = 0.5
"""The language detector's probability from which a language it names that the answer
reader does not read makes an answer unsure (`guess_answer_language`). On the committed
answer sets every answer in such a language it names is at 0.5 or more, and no English
answer is named another language the reader does not read at 0.35 to 0.5; at 0.7 three
Zulu answers would be read as English again."""

DETECTOR_UNSURE_BELOW = 0.2
"""Below this probability the detector cannot tell which language a text is in: an answer
its words place in a language other than English that the detector does not name too is
then unsure (`guess_answer_language`). A Samoan answer, a language the detector does not
know, that its "le" places in French comes out at 0.13; a terse English listing with no
function word is often below it too, which is why English for want of any other
language's words stays English, and so does a listing the words place elsewhere by a
name or a letter ("order o 6929 — IN TRANSIT — wednesday", "16 Rue Verte, Lyon ...
status: processing") whose best guess, however weak, is English."""

_DETECTED_AS = {"no": "da", "nb": "da", "nn": "da", "sr": "hr", "bs": "hr", "ms": "id",
                "xh": "zu", "wuu": "zh"}
"""Detector codes -> the code the reader gives the same language: Norwegian is read with
Danish, Serbian and Bosnian with Croatian, Malay with Indonesian, Xhosa is named with Zulu,
and Wu Chinese, which the detector gives short standard Chinese now and then ("已为您预留
DL217 ... 商务舱靠窗座位 8A" at 0.55), is Chinese."""

_NO_LANGUAGE = "zxx"
"""The detector's code for a text with no language in it (ids, numbers, symbols): the
words decide."""

DETECTED_NAMES = {
    "ace": "Acehnese", "af": "Afrikaans", "am": "Amharic", "an": "Aragonese",
    "ary": "Moroccan Arabic", "arz": "Egyptian Arabic", "as": "Assamese",
    "az": "Azerbaijani", "ba": "Bashkir", "bcl": "Central Bikol", "be": "Belarusian",
    "bg": "Bulgarian", "bn": "Bengali", "crh": "Crimean Tatar", "dz": "Dzongkha",
    "eo": "Esperanto", "et": "Estonian", "ext": "Extremaduran", "fa": "Persian",
    "fo": "Faroese", "fuv": "Nigerian Fulfulde", "fy": "Western Frisian",
    "gcf": "Guadeloupean Creole", "gcr": "Guianese Creole", "gom": "Goan Konkani",
    "grc": "Ancient Greek", "gu": "Gujarati", "gug": "Paraguayan Guarani", "guw": "Gun",
    "hbo": "Ancient Hebrew", "hy": "Armenian", "ig": "Igbo", "is": "Icelandic",
    "ka": "Georgian", "kab": "Kabyle", "kik": "Kikuyu", "kk": "Kazakh", "km": "Khmer",
    "kn": "Kannada", "ku": "Kurdish", "ky": "Kyrgyz", "la": "Latin", "lg": "Ganda",
    "lij": "Ligurian", "ln": "Lingala", "lo": "Lao", "lt": "Lithuanian",
    "ltg": "Latgalian", "lv": "Latvian", "mk": "Macedonian", "ml": "Malayalam",
    "mn": "Mongolian", "mr": "Marathi", "mt": "Maltese", "my": "Burmese", "ne": "Nepali",
    "nso": "Northern Sotho", "oc": "Occitan", "om": "Oromo", "or": "Odia",
    "pa": "Punjabi", "pcm": "Nigerian Pidgin", "ps": "Pashto", "qu": "Quechua",
    "rw": "Kinyarwanda", "sa": "Sanskrit", "sdh": "Southern Kurdish",
    "se": "Northern Sami", "si": "Sinhala", "sn": "Shona", "so": "Somali",
    "sq": "Albanian", "st": "Southern Sotho", "ta": "Tamil", "te": "Telugu",
    "tg": "Tajik", "th": "Thai", "tk": "Turkmen", "tt": "Tatar", "ug": "Uyghur",
    "ur": "Urdu", "uz": "Uzbek", "uzs": "Southern Uzbek", "vec": "Venetian",
    "vo": "Volapük", "wa": "Walloon", "yue": "Cantonese", _NO_LANGUAGE: "no language",
}
"""Names of the languages the detector knows beyond `LANGUAGE_NAMES`, for the reasons it
gives; a code missing from both is shown as it is."""


def _language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code) or DETECTED_NAMES.get(code) or f"'{code}'"


@functools.cache
def _language_identifier() -> Any:
    """py3langid's identifier over its 140 languages with normalised probabilities,
    loaded on first use (about a second: the model ships xz-compressed in its wheel, and
    nothing is fetched)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def detect_language(text: str) -> tuple[str, float]:
    """(The language py3langid finds `text` written in, its probability), the code as the
    reader gives that language (`_DETECTED_AS`). A word holding a digit (an id, a seat, a
    price: "UA511", "22C") is left out: it belongs to no language.

    >>> detect_language("Votre commande est emballée et arrive mardi.")[0]
    'fr'
    """
    code, probability = _language_identifier().classify(_words_only(text) or text)
    return _DETECTED_AS.get(code, code), float(probability)


def _words_only(text: str) -> str:
    """`text` without its words holding a digit."""
    return " ".join(w for w in text.split() if not any(ch.isdigit() for ch in w))


def guess_answer_language(text: str) -> LanguageGuess:
    """The language of an answer for the answer reader: `guess_language` over
    `ANSWER_READER_LANGUAGES`, checked by a language detector (`detect_language`). The
    word tables say which language the reader reads an answer in; the detector, which
    knows 140 languages, says when an answer is in none of them. An answer the words
    place in a language is unsure (`UNDETERMINED`, with the reason) when the detector
    names a language the reader does not read at `DETECTOR_UNREAD_LEAST` or more
    (Frisian taken for Dutch by its "de" and "op"; Kinyarwanda and Quechua taken for
    English for want of any other language's words), or when the words place it in a
    language other than English that the detector does not name and the detector's best,
    not English either, is below `DETECTOR_UNSURE_BELOW` in a text of `BARE_WORDS` words
    or more (Samoan taken for French by "le"; on fewer words no detector can say, "No
    reservé 22C en UA511." is at 0.13). A language the detector names that the reader reads but the words do not name
    leaves the words' guess as it is, and so does a text with no language in it.

    >>> guess_answer_language("Ntabwo nafashe intebe 22C mu ndege UA511.").why_unread
    'the language detector reads it as Kinyarwanda (0.99), which the reader does not read'
    >>> guess_answer_language("Held 22C on UA511.").code
    'en'
    """
    guess = guess_language(text, ANSWER_READER_LANGUAGES)
    if guess.code == UNDETERMINED:
        return guess
    detected, probability = detect_language(text)
    if detected in (guess.code, _NO_LANGUAGE):
        return guess
    if detected not in ANSWER_READER_LANGUAGES and probability >= DETECTOR_UNREAD_LEAST:
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"the language detector reads it as {_language_name(detected)} "
            f"({probability:.2f}), which the reader does not read"))
    if (guess.code != "en" and detected != "en" and probability < DETECTOR_UNSURE_BELOW
            and len(_words_only(text).split()) >= BARE_WORDS):
        return LanguageGuess(code=UNDETERMINED, why_unread=(
            f"its words say {LANGUAGE_NAMES[guess.code]}, but the language detector "
            f"cannot tell which language it is (its best, {_language_name(detected)}, "
            f"at {probability:.2f})"))
    return guess
