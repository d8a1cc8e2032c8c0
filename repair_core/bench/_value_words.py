"""Closed vocabularies the answer reader reads in French, German, Spanish, Italian,
Portuguese and Dutch (docs/benchmark.md, "Reading an answer"; rule
`oracle.translated-values`).

A value in words may be written translated in an answer in another language ("mardi" for
*Tuesday*, "rouge" for *red*, "côté couloir" for *aisle*). For the few closed sets of words
the committed suites' values come from — weekdays, months, colours, seat positions, cabins,
an order's status and the names of languages — every language has a small fixed list, so the reader matches them the way
a bilingual reviewer would. Anything else in words (a city, a hobby, a dish) stays *unsure*
(`oracle.unsure-translated`): the list is a language's words for these sets, never a case's.
"""

from __future__ import annotations

from ..content._normalise import value_words

__all__ = ["TRANSLATED_VALUES", "VALUE_KINDS", "WEEKDAY_ABBREVIATIONS", "translations",
           "excludes"]


def _inflected(stems: str, endings: tuple[str, ...]) -> list[str]:
    return [s + e for s in stems.split() for e in endings]


_DE = ("", "e", "en", "er", "es", "em")
_ROMANCE = ("o", "a", "os", "as")
_IT = ("o", "a", "i", "e")
_NL = ("", "e")

def _language_names(names: dict[str, str]) -> dict[str, list[str]]:
    """Each language's name in the six languages, and those opening on a vowel also
    elided after French "l'" ("l'italien"), which the reader reads as one word."""
    return {en: [*forms.split(), *(f"l'{w}" for w in forms.split() if w[0] in "aeiou")]
            for en, forms in names.items()}


_TRANSLATIONS: dict[str, list[str]] = {
    # weekdays
    "monday": ["lundi", "montag", "lunes", "lunedì", "lunedi", "segunda-feira",
               "maandag"],
    "tuesday": ["mardi", "dienstag", "martes", "martedì", "martedi", "terça", "terça-feira",
                "terca", "dinsdag"],
    "wednesday": ["mercredi", "mittwoch", "miércoles", "miercoles", "mercoledì",
                  "mercoledi", "quarta", "quarta-feira", "woensdag"],
    "thursday": ["jeudi", "donnerstag", "jueves", "giovedì", "giovedi", "quinta",
                 "quinta-feira", "donderdag"],
    "friday": ["vendredi", "freitag", "viernes", "venerdì", "venerdi", "sexta",
               "sexta-feira", "vrijdag"],
    "saturday": ["samedi", "samstag", "sonnabend", "sábado", "sabado", "sabato", "zaterdag"],
    "sunday": ["dimanche", "sonntag", "domingo", "domenica", "zondag"],
    # months; French and German "mai" is not read: it is Italian "never"
    "january": ["janvier", "januar", "jänner", "enero", "gennaio", "janeiro", "januari"],
    "february": ["février", "fevrier", "februar", "feber", "febrero", "febbraio",
                 "fevereiro", "februari"],
    "march": ["mars", "märz", "maerz", "marzo", "março", "marco", "maart"],
    "april": ["avril", "abril", "aprile"],
    "may": ["mayo", "maggio", "maio", "mei"],
    "june": ["juin", "juni", "junio", "giugno", "junho"],
    "july": ["juillet", "juli", "julio", "luglio", "julho"],
    "august": ["août", "aout", "agosto", "augustus"],
    "september": ["septembre", "septiembre", "setiembre", "settembre", "setembro"],
    "october": ["octobre", "oktober", "octubre", "ottobre", "outubro"],
    "november": ["novembre", "noviembre", "novembro"],
    "december": ["décembre", "decembre", "dezember", "diciembre", "dicembre", "dezembro"],
    # colours, with the forms adjectives take
    "red": ["rouge", "rouges", *_inflected("rot", _DE), *_inflected("roj", _ROMANCE),
            *_inflected("ross", _IT), *_inflected("vermelh", _ROMANCE), "rood", "rode"],
    "blue": ["bleu", "bleue", "bleus", "bleues", *_inflected("blau", _DE), "azul", "azules",
             "azuis", "blu", "blauw", "blauwe"],
    "green": ["vert", "verte", "verts", "vertes", *_inflected("grün", _DE),
              *_inflected("gruen", _DE), "verde", "verdes", "verdi", "groen", "groene"],
    "white": ["blanc", "blanche", "blancs", "blanches", *_inflected("weiß", _DE),
              *_inflected("weiss", _DE), *_inflected("blanc", _ROMANCE),
              *_inflected("bianc", ("o", "a")), "bianchi", "bianche",
              *_inflected("branc", _ROMANCE), "wit", "witte"],
    "black": ["noir", "noire", "noirs", "noires", *_inflected("schwarz", _DE),
              *_inflected("negr", _ROMANCE), *_inflected("ner", _IT),
              *_inflected("pret", _ROMANCE), "zwart", "zwarte"],
    "grey": ["gris", "grise", "grises", *_inflected("grau", _DE), "grigio", "grigia",
             "grigi", "grigie", "cinza", "cinzento", "cinzenta", "grijs", "grijze"],
    # seats and cabins
    "aisle": ["couloir", "côté couloir", "gangplatz", "am gang", "pasillo",
              "corridoio", "corredor", "gangpad", "aan het gangpad", "gangsitz", "gangpadplaats",
              "gangpadstoel", "gangplaats"],
    "window": ["hublot", "côté hublot", "côté fenêtre", "fensterplatz", "am fenster",
               "ventanilla", "finestrino", "janela", "bij het raam", "fenstersitz",
               "raamplaats", "raamstoel"],
    "middle": ["du milieu", "au milieu", "mittelplatz", "in der mitte", "del medio", "centrale",
               "en medio", "de en medio", "in mezzo", "no meio",
               "do meio", "in het midden", "mittelsitz", "middenplaats", "middenstoel"],
    "economy": ["économique", "economique", "classe économique", "turista", "económica",
                "economica", "econômica", "economia", "economía", "economy-klasse",
                "economyklasse"],
    "business": ["affaires", "classe affaires", "ejecutiva", "executiva", "businessklasse",
                 "business-klasse"],
    "premium economy": ["premium économique", "premium economique", "économique premium",
                        "economia premium", "turista premium", "premium economica",
                        "premium economia", "econômica premium", "economica premium",
                        "económica premium", "classe économique premium",
                        "classe econômica premium"],
    # an order's status
    "processing": ["en cours de traitement", "en traitement", "en préparation",
                   "wird bearbeitet", "en proceso", "en preparación",
                   "en preparacion", "en procesamiento", "in lavorazione",
                   "in elaborazione", "em processamento", "em preparação",
                   "em preparacao", "wordt verwerkt", "in bearbeitung", "in behandeling",
                   "in verwerking"],
    "in transit": ["en transit", "en cours d'acheminement", "unterwegs", "im transit",
                   "en tránsito", "en transito", "en camino", "in transito", "in viaggio",
                   "em trânsito", "em transito", "onderweg"],
    "out for delivery": ["en cours de livraison", "in zustellung", "in der zustellung",
                         "wird zugestellt", "en reparto", "in consegna", "saiu para entrega",
                         "em rota de entrega", "wordt bezorgd", "in bezorging",
                         "onderweg voor bezorging", "bezorger onderweg",
                         "zusteller unterwegs"],
    "delivered": ["livré", "livrée", "livrés", "livrées", "zugestellt", "geliefert",
                  *_inflected("entregad", _ROMANCE), *_inflected("consegnat", _IT),
                  "entregue", "entregues", "bezorgd", "afgeleverd", "geleverd"],
    "packed": ["emballé", "emballée", "emballés", "emballées", "verpackt",
               *_inflected("empaquetad", _ROMANCE), *_inflected("embalad", _ROMANCE),
               *_inflected("imballat", _IT), "ingepakt"],
    # the names of languages, as each language names them
    **_language_names({
        "english": "anglais englisch inglés ingles inglese inglês ingles engels",
        "french": "français francais französisch franzoesisch francés frances francese "
                  "francês frans",
        "german": "allemand deutsch alemán aleman tedesco alemão alemao duits",
        "spanish": "espagnol spanisch español espanol spagnolo espanhol spaans castellano",
        "italian": "italien italienisch italiano italiaans",
        "portuguese": "portugais portugiesisch portugués portugues portoghese português "
                      "portugees",
        "dutch": "néerlandais neerlandais niederländisch niederlaendisch holländisch "
                 "neerlandés holandés holandes olandese holandês nederlands",
        "japanese": "japonais japanisch japonés japones giapponese japonês japans",
        "chinese": "chinois chinesisch chino cinese chinês chines chinees",
        "korean": "coréen coreen koreanisch coreano koreaans",
        "russian": "russe russisch ruso russo",
        "arabic": "arabe arabisch árabe arabo",
        "greek": "grec griechisch griego greco grego grieks",
        "swedish": "suédois suedois schwedisch sueco svedese zweeds",
        "polish": "polonais polnisch polaco polacco polonês polones pools",
        "turkish": "turc türkisch tuerkisch turco turks"}),
}

_INSTRUMENTS = {
    "cello": "violoncelle violoncello violonchelo chelo violoncelo wiolonczela wiolonczelę "
             "wiolonczeli sello selloa sellon",
    "violin": "violon geige violine violín violino viool skrzypce skrzypcach housle "
              "houslích fiol fiolin viulu viulua viulun",
    "piano": "klavier pianoforte fortepian fortepianie pianino klavír klavíru klaver "
             "pianoa pianon",
    "trumpet": "trompette trompete trompeta tromba trompet trąbka trąbkę trąbce trubka "
               "trubku trumpetti trumpettia",
    "guitar": "guitare gitarre guitarra chitarra violão gitaar gitara gitarę gitarze "
              "kytara kytaru gitarr gitar kitara kitaraa",
    "flute": "flûte flöte querflöte flauta flauto fluit flet flecie flétna flétnu flöjt "
             "fløjte fløyte huilu huilua"}
"""Musical instruments, as each of the languages names them ("violoncelle", "Geige"):
read translated like the sets above, but no set of `excludes` (one plays several), and no
value of `VALUE_KINDS` (a name the slips and name-form readers may still read)."""
for _name, _forms in _INSTRUMENTS.items():
    _TRANSLATIONS[_name] = _forms.split()

_HABITUAL_WEEKDAYS = {
    "monday": "lundis montags segundas segundas-feiras maandags",
    "tuesday": "mardis dienstags terças terças-feiras tercas dinsdags",
    "wednesday": "mercredis mittwochs quartas quartas-feiras woensdags",
    "thursday": "jeudis donnerstags quintas quintas-feiras donderdags",
    "friday": "vendredis freitags sextas sextas-feiras vrijdags",
    "saturday": "samedis samstags sonnabends sábados sabados zaterdags",
    "sunday": "dimanches sonntags domingos zondags"}
"""A weekday said as a habit, in its adverb or plural form ("mittwochs", "les mercredis",
"às quartas", "'s woensdags"): the same day. Spanish and Italian write it as the day
("los miércoles", "il mercoledì")."""
for _day, _forms in _HABITUAL_WEEKDAYS.items():
    _TRANSLATIONS[_day] = [*_TRANSLATIONS[_day], *_forms.split()]

_PL = ("y", "a", "e", "ym", "ą", "ej", "ego", "i")
_CS = ("ý", "á", "é", "ou", "ém", "ého", "í")
_FI_CASES = ("", "na", "ta", "ssa", "lla", "n")

_MORE_TRANSLATIONS: dict[str, list[str]] = {
    # Polish, Czech, Swedish, Danish and Norwegian, Finnish
    "monday": ["poniedziałek", "poniedziałku", "pondělí", "måndag", "måndagen", "mandag",
               "mandagen", *_inflected("maanantai", _FI_CASES)],
    "tuesday": ["wtorek", "wtorku", "úterý", "tisdag", "tisdagen", "tirsdag", "tirsdagen",
                *_inflected("tiistai", _FI_CASES)],
    "wednesday": ["środa", "środę", "środy", "středa", "středu", "onsdag", "onsdagen",
                  *_inflected("keskiviikko", _FI_CASES)],
    "thursday": ["czwartek", "czwartku", "čtvrtek", "torsdag", "torsdagen",
                 *_inflected("torstai", _FI_CASES)],
    "friday": ["piątek", "piątku", "pátek", "fredag", "fredagen",
               *_inflected("perjantai", _FI_CASES)],
    "saturday": ["sobota", "sobotę", "soboty", "sobotu", "lördag", "lördagen", "lørdag",
                 "lørdagen", *_inflected("lauantai", _FI_CASES)],
    "sunday": ["niedziela", "niedzielę", "niedzieli", "neděle", "neděli", "söndag",
               "söndagen", "søndag", "søndagen", *_inflected("sunnuntai", _FI_CASES)],
    "january": ["styczeń", "stycznia", "leden", "ledna", "januar", "tammikuu",
                "tammikuussa", "tammikuuta"],
    "february": ["luty", "lutego", "únor", "února", "februar", "helmikuu", "helmikuussa",
                 "helmikuuta"],
    "march": ["marzec", "marca", "březen", "března", "marts", "maaliskuu", "maaliskuussa",
              "maaliskuuta"],
    "april": ["kwiecień", "kwietnia", "duben", "dubna", "huhtikuu", "huhtikuussa",
              "huhtikuuta"],
    "may": ["maj", "maja", "květen", "května", "toukokuu", "toukokuussa", "toukokuuta"],
    "june": ["czerwiec", "czerwca", "červen", "června", "kesäkuu", "kesäkuussa",
             "kesäkuuta"],
    "july": ["lipiec", "lipca", "červenec", "července", "heinäkuu", "heinäkuussa",
             "heinäkuuta"],
    "august": ["sierpień", "sierpnia", "srpen", "srpna", "augusti", "elokuu", "elokuussa",
               "elokuuta"],
    "september": ["wrzesień", "września", "září", "syyskuu", "syyskuussa", "syyskuuta"],
    "october": ["październik", "października", "říjen", "října", "lokakuu", "lokakuussa",
                "lokakuuta"],
    "november": ["listopad", "listopada", "listopadu", "marraskuu", "marraskuussa",
                 "marraskuuta"],
    "december": ["grudzień", "grudnia", "prosinec", "prosince", "desember", "joulukuu",
                 "joulukuussa", "joulukuuta"],
    "red": [*_inflected("czerwon", _PL), *_inflected("červen", _CS), "röd", "rött", "röda",
            "rød", "rødt", "røde", "punainen", "punaisen", "punaisena", "punaista"],
    "blue": [*_inflected("niebiesk", _PL), *_inflected("modr", _CS), "blå", "blått",
             "blåa", "sininen", "sinisen", "sinisenä", "sinistä"],
    "green": [*_inflected("zielon", _PL), *_inflected("zelen", _CS), "grön", "grönt",
              "gröna", "grøn", "grønt", "grønne", "grønn", "vihreä", "vihreän",
              "vihreänä", "vihreää"],
    "white": [*_inflected("biał", _PL), "biali", "biel", *_inflected("bíl", _CS), "vit",
              "vitt", "vita", "hvid", "hvidt", "hvide", "hvit", "hvitt", "hvite",
              "valkoinen", "valkoisen", "valkoisena", "valkoista"],
    "black": [*_inflected("czarn", _PL), *_inflected("čern", _CS), "svart", "svarta",
              "svarte", "sort", "sorte", "musta", "mustan", "mustana", "mustaa"],
    "grey": [*_inflected("szar", _PL), *_inflected("šed", _CS), "grå", "grått", "gråa",
             "gråt", "grå", "harmaa", "harmaan", "harmaana", "harmaata"],
    "aisle": ["przy przejściu", "od strony przejścia", "u uličky", "do uličky", "uličky",
              "gångplats", "vid gången", "gangplads", "gangpladsen", "ved gangen",
              "gangplass", "gangplassen", "ved midtgangen", "käytäväpaikka",
              "käytäväpaikan", "käytävän puolella", "käytäväpaikalle"],
    "window": ["przy oknie", "u okna", "fönsterplats", "vid fönstret", "vinduesplads",
               "vinduespladsen", "vindusplass", "vindusplassen", "ved vinduet",
               "ikkunapaikka", "ikkunapaikan", "ikkunan vieressä", "ikkunapaikalle"],
    "middle": ["środkowe", "środkowy", "w środku", "uprostřed", "prostřední", "mittplats",
               "i mitten", "midterplads", "midtersæde", "midtsete", "i midten",
               "keskipaikka", "keskipaikan", "keskellä"],
    "economy": ["ekonomiczna", "ekonomicznej", "ekonomiczną", "ekonomická", "ekonomické",
                "ekonomiklass", "ekonomiklassen", "økonomiklasse", "økonomiklassen",
                "turistiluokka", "turistiluokassa", "turistiluokan"],
    "business": ["biznesowa", "biznesowej", "klasa biznes", "klasie biznes", "businessklass",
                 "businessklassen", "businessklasse", "bisnesluokka", "bisnesluokassa",
                 "bisnesluokan"],
    "processing": ["w trakcie realizacji", "w realizacji", "realizowane", "w przygotowaniu",
                   "przetwarzane", "se zpracovává", "ve zpracování", "zpracovává",
                   "behandlas", "under behandling", "bearbetas", "behandles",
                   "käsittelyssä", "käsitellään"],
    "in transit": ["w drodze", "w transporcie", "na cestě", "v přepravě", "på väg",
                   "under transport", "på vej", "undervejs", "på vei", "underveis",
                   "matkalla", "kuljetuksessa"],
    "out for delivery": ["w doręczeniu", "u kuriera", "doručuje se", "ute för leverans",
                         "under utkörning", "ude til levering", "ute for levering",
                         "jakelussa"],
    "delivered": ["dostarczone", "dostarczona", "dostarczony", "doręczone", "doręczona",
                  "doręczony", "doručeno", "doručena", "doručen", "doručený",
                  "levererad", "levererat", "levererade", "leveret", "levert",
                  "toimitettu", "perillä"],
    "packed": ["spakowane", "spakowana", "spakowany", "zapakowane", "zapakowana",
               "zapakowany", "zabaleno", "zabalena", "zabalený", "packad", "packat",
               "packade", "pakket", "pakattu"],
    **_language_names({
        "english": "angielski angielskiego angielskim angličtina angličtinu angličtině "
                   "anglicky engelska engelsk englanti englantia englanniksi",
        "french": "francuski francuskiego francuskim francouzština francouzštinu "
                  "francouzsky franska fransk ranska ranskaa ranskaksi",
        "german": "niemiecki niemieckiego niemieckim němčina němčinu německy tyska tysk "
                  "saksa saksaa saksaksi",
        "spanish": "hiszpański hiszpańskiego hiszpańskim španělština španělštinu "
                   "španělsky spanska spansk espanja espanjaa espanjaksi",
        "italian": "włoski włoskiego włoskim italština italštinu italsky italienska "
                   "italiensk italiaa italiaksi",
        "portuguese": "portugalski portugalskiego portugalština portugalštinu "
                      "portugisiska portugisisk portugalia portugaliksi",
        "dutch": "niderlandzki niderlandzkiego holenderski nizozemština holandština "
                 "nederländska holländska nederlandsk hollandsk hollanti hollantia",
        "japanese": "japoński japońskiego japońskim japonština japonštinu japanska "
                    "japansk japani japania japaniksi",
        "chinese": "chiński chińskiego čínština čínštinu kinesiska kinesisk kiina kiinaa "
                   "kiinaksi",
        "korean": "koreański koreańskiego korejština korejštinu koreanska koreansk "
                  "koreaa koreaksi",
        "russian": "rosyjski rosyjskiego ruština ruštinu ryska russisk venäjä venäjää "
                   "venäjäksi",
        "arabic": "arabski arabskiego arabština arabštinu arabiska arabisk arabiaa",
        "greek": "grecki greckiego řečtina řečtinu grekiska græsk gresk kreikka kreikkaa",
        "swedish": "szwedzki szwedzkiego švédština švédštinu svenska svensk ruotsi "
                   "ruotsia ruotsiksi",
        "polish": "polski polskiego polština polštinu polska polsk puola puolaa puolaksi",
        "turkish": "turecki tureckiego turečtina turečtinu turkiska tyrkisk turkki "
                   "turkkia"}),
}
"""The same sets in Polish, Czech, Swedish, Danish and Norwegian and Finnish, in the
forms their sentences give them (a Polish or Czech adjective's endings, a Finnish
weekday's cases: "torstaina")."""

TRANSLATED_VALUES: dict[tuple[str, ...], frozenset[tuple[str, ...]]] = {
    tuple(value_words(en)): frozenset(
        tuple(value_words(f)) for f in (*forms, *_MORE_TRANSLATIONS.get(en, ())))
    for en, forms in _TRANSLATIONS.items()}
"""A value's words as the reader compares them -> the words of each way the other
languages it reads write that value."""


_SETS = {"weekday": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                     "sunday"),
         "month": ("january", "february", "march", "april", "may", "june", "july",
                   "august", "september", "october", "november", "december"),
         "language": ("english", "french", "german", "spanish", "italian", "portuguese",
                      "dutch", "japanese", "chinese", "korean", "russian", "arabic",
                      "greek", "swedish", "polish", "turkish"),
         "colour": ("red", "blue", "green", "white", "black", "grey"),
         "seat": ("aisle", "window", "middle"),
         "cabin": ("economy", "business", "premium economy"),
         "status": ("processing", "in transit", "out for delivery", "delivered", "packed")}

VALUE_KINDS: dict[tuple[str, ...], str] = {
    words: kind for kind, values in _SETS.items() for en in values
    for words in (tuple(value_words(en)), *TRANSLATED_VALUES[tuple(value_words(en))])}
"""The words of a value of the closed vocabularies, in English or in one of the six
languages -> the set it belongs to (`weekday`, `month`, `colour`, `seat`, `cabin`,
`status`, `language`): two
values of one set are values of the same kind ("Fensterplatz" and "aisle" are seats)."""


_VALUE_OF: dict[tuple[str, ...], tuple[str, ...]] = {
    words: tuple(value_words(en)) for values in _SETS.values() for en in values
    for words in (tuple(value_words(en)), *TRANSLATED_VALUES[tuple(value_words(en))])}
_OVERLAPPING = frozenset({frozenset({("in", "transit"), ("out", "for", "delivery")})})
_NOT_EXCLUSIVE = frozenset({"language"})
"""Sets no value of which excludes another: one learns or speaks several languages."""
"""Values of one set that may both be said of one thing: an order out for delivery is
still on its way ("bezorger onderweg")."""


def excludes(words: tuple[str, ...], fact: list[str]) -> bool:
    """`words`, a value of the closed vocabularies in any language, is another value of
    the set of `fact` that cannot be said of the same thing ("entregado" excludes
    *processing*, "bleu" excludes *red*; "onderweg" does not exclude *out for
    delivery*)."""
    value, own = _VALUE_OF.get(words), tuple(fact)
    return (value is not None and own in _VALUE_OF and value != own
            and VALUE_KINDS[words] == VALUE_KINDS[own]
            and VALUE_KINDS[own] not in _NOT_EXCLUSIVE
            and frozenset({value, own}) not in _OVERLAPPING)


_WEEK = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEKDAY_ABBREVIATIONS: dict[str, dict[str, str]] = {
    code: dict(zip(short.split(), _WEEK, strict=True)) for code, short in (
        ("fr", "lun mar mer jeu ven sam dim"), ("de", "mo di mi do fr sa so"),
        ("es", "lun mar mié jue vie sáb dom"), ("it", "lun mar mer gio ven sab dom"),
        ("pt", "seg ter qua qui sex sáb dom"), ("nl", "ma di wo do vr za zo"))}
"""Each language's short weekdays -> the English weekday ("Di" is Tuesday in German and
Dutch). Most are words of another sense too ("di" is Italian "of", "do" Portuguese "of
the"), so the reader takes one only in an answer in its language and only where a listing
puts it: alone in its clause or last in its sentence ("Zustellung: Di")."""


def translations(fact: list[str]) -> frozenset[tuple[str, ...]]:
    """The ways the other languages the reader reads write the value `fact` (its
    `value_words`); empty when the value is no word of the closed vocabularies.

    >>> sorted(translations(["tuesday"]))[:4]
    [('dienstag',), ('dienstags',), ('dinsdag',), ('dinsdags',)]
    """
    return TRANSLATED_VALUES.get(tuple(fact), frozenset())
