"""The answer reader's cue words in Polish, Czech, Swedish, Danish and Norwegian (Bokmål)
and Finnish (docs/benchmark.md, "Reading an answer"; rules
`oracle.other-languages-rejection`, `oracle.other-languages-not-done`).

`_answer_words` joins them to the words of the six languages it reads first, so they are
read only in an answer guessed to be written in a language the reader reads other than
English (`repair_core.bench._language.ANSWER_READER_LANGUAGES`). Like those, they are
general words of each language (negations, "instead of", "old", "pending", "shall I",
verbs of booking, adding, changing and sending), never a case's values. A word that is a
common word of one of the six other languages in another sense is kept per language
(`NEGATIONS_BY_LANGUAGE`, `PAST_ENDINGS_BY_LANGUAGE`, ...): Finnish "en" (I do not) is
French "en", Czech "ne" (not) is French "ne", a German infinitive ends as a Czech past
("buchen", "přidal ... en").

Polish, Swedish, Danish, Norwegian and Finnish write a negation as a word before the verb
("nie zarezerwowałem", "har inte bokat", "ikke bestilt", "en varannut"); Czech writes it
as the verb's first letters ("nezarezervoval"), so the reader splits such a verb into
`ne` and the verb (`split_czech_negation`). Finnish asks "shall I" with the verb's ending
("varaanko?") and promises with its present ("varaan"): `FUTURE_ENDINGS_BY_LANGUAGE`.
"""

from __future__ import annotations

__all__ = ["NEGATION_CUES", "REJECTIONS_AFTER", "REJECTION_VERBS", "CORRECTIONS",
           "APOLOGIES", "CHANGE_NOUNS", "DONE_OPENERS", "SIZE_WORDS", "RESETS",
           "VERB_NEGATIONS", "NEGATIONS_BY_LANGUAGE", "FAILURES", "FROM", "TO",
           "HISTORY_STEMS", "STILL", "PENDING_WORDS", "PENDING_PHRASES", "WITHOUT", "OFFERS",
           "ACTION_STEMS", "SHIPPING_STEMS", "PAST_ENDINGS_BY_LANGUAGE",
           "FUTURE_ENDINGS_BY_LANGUAGE", "ANYTHING_ELSE", "NOTHING", "UNREAD",
           "NEGATION_PHRASES", "AFTER_PHRASES", "CONDITIONS", "OPENING_CONDITIONS",
           "split_czech_negation"]

NEGATION_CUES = frozenset({
    # Polish ("nie" is German's too and read already): instead of, old, wrong, tried
    "zamiast", "stary", "stare", "starego", "starą", "stara", "poprzedni", "poprzednie",
    "poprzedniego", "poprzednią", "poprzednia", "błędny", "błędne", "błędnego", "błędną",
    "błędna", "fałszywy", "fałszywe", "fałszywego", "fałszywą", "próbowałem",
    "próbowałam",
    # Czech ("místo" is also "seat", so only "namísto")
    "namísto", "starý", "staré", "starou", "předchozí", "původní", "chybný", "chybné",
    "chybnou", "falešný", "falešné", "zkoušel", "zkoušela",
    # Swedish ("ej" is written short for Spanish "ejemplo": `NEGATIONS_BY_LANGUAGE`)
    "inte", "aldrig", "istället", "gamla", "tidigare", "föregående", "felaktig",
    "felaktiga", "falska", "försökte",
    # Danish and Norwegian
    "ikke", "ikkje", "aldri", "istedet", "istedenfor", "gamle", "tidligere", "forrige",
    "forkert", "forkerte", "feil", "falske", "forsøgte", "prøvede", "prøvde", "forsøkte",
    # Finnish
    "ei", "eikä", "vanha", "vanhan", "vanhaa", "entinen", "entisen", "edellinen",
    "edellisen", "väärä", "väärän", "virheellinen", "virheellisen", "yritin"})
"""Words that reject the value after them in their clause, like English "not", "old" or
"wrong"."""

NEGATION_PHRASES = (("i", "stället", "för"), ("i", "stedet", "for"), ("i", "steden", "for"),
                    ("inte", "längre"), ("ikke", "længere"), ("ikke", "lenger"),
                    ("już", "nie"), ("ei", "enää"))
""""Instead of" and "no longer" written in several words."""

REJECTIONS_AFTER = frozenset({
    "nieaktualny", "nieaktualne", "nieaktualna", "nieważny", "nieważne", "nieważna",
    "błędny", "błędne", "błędna", "anulowany", "anulowane", "anulowana", "odrzucony",
    "odrzucone", "odrzucona", "zastąpiony", "zastąpione", "zastąpiona", "zignorowany",
    "zignorowane", "zignorowana", "fałszywy", "fałszywe", "fałszywa", "oszustwo",
    "neplatný", "neplatné", "neplatná", "chybný", "chybné", "chybná", "zrušený",
    "zrušené", "zrušená", "zrušeno", "nahrazený", "nahrazeno", "ignorován", "ignorováno",
    "odmítnut", "odmítnuto", "falešný", "falešné", "podvod", "zastaralý", "zastaralé",
    "felaktig", "felaktigt", "ogiltig", "ogiltigt", "inaktuell", "föråldrad",
    "föråldrat", "avbokad", "avbokat", "ersatt", "ersatta", "ignorerad", "ignorerades",
    "avvisad", "avvisades", "falsk", "falskt", "bedrägeri",
    "forkert", "feil", "ugyldig", "ugyldigt", "forældet", "utdatert", "annulleret",
    "kansellert", "erstattet", "ignoreret", "ignorert", "afvist", "avvist", "svindel",
    "sijaan", "väärä", "virheellinen", "vanhentunut", "mitätön", "peruttu", "korvattu",
    "ohitettu", "hylätty", "väärennetty", "huijaus"})
"""Words that reject the value before them in their clause ("22B był błędny", "22B är
ogiltig", "22B:n sijaan")."""

AFTER_PHRASES = (("inte", "längre"), ("ikke", "længere"), ("ikke", "lenger"),
                 ("już", "nie"), ("ei", "enää"))
""""No longer" after a value ("22B gäller inte längre")."""

REJECTION_VERBS = frozenset({
    "zignorowałem", "zignorowałam", "odrzuciłem", "odrzuciłam", "pominąłem", "pominęłam",
    "ignoroval", "ignorovala", "odmítl", "odmítla", "vyřadil", "vyřadila",
    "ignorerade", "avvisade", "ignorerede", "ignorerte", "afviste", "avviste", "ohitin",
    "hylkäsin"})
"""Verbs that reject their object ("zignorowałem 22B", "jag ignorerade 22B")."""

CORRECTIONS = frozenset({
    "korekta", "poprawka", "sprostowanie", "pomyłka", "pomyliłem", "pomyliłam", "oprava",
    "omyl", "spletl", "spletla", "rättelse", "korrigering", "misstag", "rettelse",
    "korrektion", "korreksjon", "retting", "korjaus", "oikaisu", "erehdyin"})
"""Words by which an answer takes back what it said ("Korekta:", "oprava", "rättelse",
"korjaus")."""

APOLOGIES = frozenset({"przepraszam", "promiň", "promiňte", "pardon", "förlåt", "ursäkta",
                       "undskyld", "unnskyld", "beklager", "anteeksi", "pahoittelen"})
"""Words of apology: alone in their clause they take back what was said."""

CHANGE_NOUNS = ("zmiana", "zmiany", "zmianę", "prośba", "prośby", "wniosek", "zgłoszenie",
                "změna", "změny", "změnu", "žádost", "ändring", "ändringen", "begäran",
                "förfrågan", "ændring", "ændringen", "anmodning", "anmodningen", "endring",
                "endringen", "forespørsel", "muutos", "muutoksen", "pyyntö", "pyynnön")
"""How the nouns for a change or a request end ("adressändring", "zmiana adresu")."""

DONE_OPENERS: dict[str, frozenset[str]] = {
    "pl": frozenset({"gotowe", "zrobione", "załatwione"}),
    "cs": frozenset({"hotovo", "vyřízeno"}),
    "sv": frozenset({"klart", "fixat", "gjort"}),
    "da": frozenset({"klar", "klart", "færdig", "ordnet", "fikset", "gjort"}),
    "fi": frozenset({"valmis", "tehty", "hoidettu"}),
}
"""Words that say "done" when they open an answer's sentence alone ("Gotowe!",
"Hotovo:", "Klart!", "Ordnet!", "Valmis!")."""

SIZE_WORDS = {"rozmiar": "size", "rozmiarze": "size", "rozmiaru": "size",
              "velikost": "size", "velikosti": "size", "storlek": "size",
              "storleken": "size", "størrelse": "size", "koko": "size", "koossa": "size",
              "kokoa": "size"}
"""The word "size" in these languages ("rozmiar XL" is "size XL")."""

RESETS = frozenset({"ale", "lecz", "oraz", "teraz", "nyní", "teď", "men", "och", "og",
                    "nå", "mutta", "ja", "nyt"})
"""Words that end a cue's reach ("but", "and", "now"); Polish "i" and Czech "a" (and) are
Italian and Portuguese articles, so they are not among them."""

VERB_NEGATIONS = frozenset({"nie", "inte", "aldrig", "ikke", "ikkje", "aldri", "ei",
                            "eikä"})
"""Negations that report a verb as not done when they stand before it in its clause
("nie dodałem", "har inte bokat", "er ikke bestilt", "ei ole varattu")."""

NEGATIONS_BY_LANGUAGE: dict[str, frozenset[str]] = {
    "cs": frozenset({"ne", "není", "nebyl", "nebyla", "nebylo", "nebyly", "nejsou",
                     "nemám", "nemohu", "nemůžu", "nelze"}),
    "fi": frozenset({"en", "et", "emme", "ette", "eivät"}),
    "sv": frozenset({"ej"}),
}
"""Negations read only in an answer in their language: Czech "ne" (a verb's negated
first letters, `split_czech_negation`) and "není"; Finnish "en", "et" (I, you do not),
which are French words; Swedish "ej", Spanish "ejemplo" written short."""

FAILURES = frozenset({"nieudana", "nieudane", "nieudany", "selhala", "selhalo", "selhal",
                      "zamítnuta", "zamítnuto", "misslyckades", "nekades", "mislykkedes",
                      "fejlede", "mislyktes", "epäonnistui"})
"""Failed or refused, after an action word ("rezerwacja była nieudana", "bokningen
misslyckades")."""

FROM = frozenset({"z", "ze", "från", "fra"})
TO = frozenset({"na", "till", "til"})
"""From and to around the old value of a change ("zmieniony z 22B na 22C", "ändrad från
22B till 22C", "endret fra 22B til 22C")."""

HISTORY_STEMS = frozenset({"zmieni", "zmienion", "przenies", "przenios", "zamieni",
                           "zastąpi", "změn", "přesun", "nahrad", "vyměn", "ändr", "flytt",
                           "byt", "ersatt", "ersätt", "ændr", "endr", "erstat", "muut",
                           "vaihd", "vaihet", "siirr", "siirt"})
"""The beginnings of verbs of changing, moving and replacing."""

STILL = frozenset({"jeszcze", "ještě", "dosud", "ännu", "än", "fortfarande", "endnu",
                   "stadig", "ennå", "enda", "fortsatt", "vielä", "yhä", "edelleen"})
""""Yet" and "still" ("jeszcze nie", "ještě ne", "inte ännu", "ikke endnu", "ennå ikke",
"ei vielä")."""

PENDING_WORDS = frozenset({
    "oczekuje", "oczekujące", "oczekująca", "oczekującą", "oczekiwanie", "niepotwierdzona",
    "niepotwierdzone", "niepotwierdzony", "čeká", "čekající", "nepotvrzená", "nepotvrzeno",
    "nevyřízená", "väntar", "väntande", "avvaktar", "obekräftad", "obekräftat", "afventer",
    "venter", "afventende", "ubekræftet", "avventer", "ventende", "ubekreftet", "odottaa",
    "odottamassa", "vahvistamaton"})
"""Pending ("oczekuje na potwierdzenie", "čeká na schválení", "väntar på bekräftelse",
"afventer", "odottaa vahvistusta")."""

PENDING_PHRASES = (("do", "potwierdzenia"), ("k", "potvrzení"), ("ska", "bekräftas"),
                   ("skal", "bekræftes"), ("skal", "bekreftes"))
""""To be confirmed" ("do potwierdzenia", "k potvrzení", "ska bekräftas")."""

WITHOUT = frozenset({"bez", "utan", "uden", "uten", "ilman"})
""""Without" before a verb of acting ("bez rezerwacji" is no verb; "utan att boka" is)."""

OFFERS = (("czy", "mam"), ("czy", "mogę"), ("mogę",), ("czy", "chcesz"), ("czy", "chce"),
          ("chcesz", "żebym"), ("mógłbym",), ("mogłabym",), ("czy", "mamy"),
          ("mám", "ho"), ("mám", "ji"), ("mám", "je"), ("můžu",), ("mohu",),
          ("mohl", "bych"), ("mohla", "bych"), ("chcete", "abych"), ("chceš", "abych"),
          ("ska", "jag"), ("vill", "du"), ("vill", "ni"), ("kan", "jag"), ("jag", "kan"),
          ("jag", "kommer"), ("jag", "ska"), ("skulle", "jag"), ("jag", "skulle"),
          ("skal", "jeg"), ("vil", "du"), ("vil", "de"), ("kan", "jeg"), ("jeg", "kan"),
          ("jeg", "vil"), ("jeg", "skal"), ("jeg", "kunne"), ("ønsker", "du"),
          ("ønsker", "de"), ("haluatko",), ("haluatteko",), ("voin",), ("voisin",))
"""Offers and promises ("czy mam go zarezerwować?", "mám ho zarezervovat?", "ska jag
boka den?", "skal jeg bestille den?", "haluatko, että varaan?")."""

ACTION_STEMS = frozenset({
    # Polish ("doda" alone would read "dodatkowy", additional)
    "zarezerw", "rezerw", "dodał", "dodan", "dodam", "dodać", "dodaj", "zmieni", "wysła",
    "wyśl", "wysył", "kupi", "zakupi", "umieści", "umieszcz", "zaktualiz", "zamówi",
    "przenios", "przenies", "zablokow", "włoży", "włożon", "zastosow",
    # Czech
    "zarezerv", "rezervov", "přidal", "přidán", "přidám", "přidat", "změnil", "změněn",
    "změní", "změnit", "odesl", "poslal", "poslán", "pošlu", "koupil", "koupen",
    "zakoupil", "objednal", "objednán", "vložil", "vložen", "vložím", "aktualizov",
    "přesunul", "zablokov",
    # Swedish
    "boka", "tillagd", "tillagt", "lagt", "ändr", "skick", "beställ", "köpt", "köpte",
    "flytt", "bytt", "bytte", "uppdater", "tillämp",
    # Danish and Norwegian ("send" alone would read German "Sendung")
    "booke", "bestil", "tilføj", "ændr", "endr", "sendt", "sendte", "købt", "købte",
    "kjøpt", "kjøpte", "opdater", "oppdater",
    # Finnish ("lisää" alone is also "more")
    "varasin", "varasimme", "varat", "varann", "varaan", "varaam", "lisäs", "lisät", "lisänn", "lisään", "muutin",
    "muutet", "muuttan", "muutan", "vaihdo", "vaihdet", "vaihtan", "vaihdan", "lähetin",
    "lähetet", "lähettän", "lähetän", "ostin", "ostet", "ostan", "tilasin", "tilannut",
    "siirs", "siirret"})
"""The beginnings of the verbs a request asks for (book, reserve, add, put, change, send,
buy)."""

SHIPPING_STEMS = frozenset({"wysła", "wyśl", "wysył", "odesl", "poslal", "poslán", "pošlu",
                            "skick", "sendt", "sendte", "lähetin", "lähetet", "lähettän",
                            "lähetän"})
"""The action stems of sending or shipping."""

PAST_ENDINGS_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "pl": ("łem", "łam", "łeś", "łaś", "liśmy", "łyśmy", "ło", "ła", "ł", "li", "ły",
           "ano", "ono", "ane", "any", "ana", "one", "ony", "ona", "ęte", "ęty", "ęta"),
    "cs": ("al", "ala", "ali", "alo", "aly", "il", "ila", "ili", "ilo", "ily", "án", "ána",
           "áno", "ány", "en", "ena", "eno", "eny", "ěn", "ěna", "ěno", "ul", "ula", "ný",
           "ná", "né", "ní"),
    "sv": ("at", "ad", "ade", "ades", "ats", "t", "d", "tt", "te"),
    "da": ("et", "ede", "t", "te", "dt"),
    "fi": ("in", "tu", "ty", "ttiin", "nut", "nyt", "neet"),
}
"""How a past participle or a past ends, per language: a verb of `ACTION_STEMS` so ending
reports the action done ("zarezerwowałem", "přidáno", "bokat", "bestilt", "varasin",
"varattu"). Per language, because a German infinitive ends as a Czech participle does,
and a Czech infinitive ("zarezervovat") as a Spanish or French participle."""

FUTURE_ENDINGS_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "pl": ("uję", "ię", "ę", "dam"),
    "cs": ("uji", "uju", "ím", "ám", "u"),
    "fi": ("nko", "nkö", "aan", "ään", "an", "än"),
    "sv": (),
    "da": (),
}
"""How a perfective present (a promise: "zarezerwuję", "přidám") or a Finnish present or
"shall I" ("varaan", "varaanko") ends, per language."""

ANYTHING_ELSE = frozenset({"coś", "něco", "dalšího", "något", "annat", "noget", "andet",
                           "noe", "annet", "muuta", "jotain"})
"""Words of a closing question asking whether the user wants anything else."""

NOTHING = frozenset({"nic", "ničeho", "inget", "ingenting", "intet", "mitään"})
""""Nothing" before a verb of acting ("nic nie dodałem", "jag har ingenting bokat")."""

UNREAD = frozenset({"nic", "nikt", "żaden", "żadnego", "żadnej", "uwaga", "ostrzeżenie",
                    "nikdo", "žádný", "žádné", "žádnou", "pozor", "varování", "ingen",
                    "inget", "ingenting", "varning", "intet", "advarsel", "mitään",
                    "kukaan", "varoitus", "huomio"})
"""Negation and warning words no rule of the reader reads: a fact beside one is
*unsure*."""

CONDITIONS = frozenset({"jeśli", "jeżeli", "gdy", "gdyby", "pokud", "jakmile", "jestli",
                        "když", "när", "ifall", "når", "hvis", "jos", "kunhan"})
"""Words of a condition ("jeśli potwierdzisz", "jakmile potvrdíte", "när du bekräftar",
"hvis du bekræfter", "kunhan vahvistat")."""

OPENING_CONDITIONS: dict[str, frozenset[str]] = {
    "pl": frozenset({"jeśli", "jeżeli", "gdy", "kiedy", "jak"}),
    "cs": frozenset({"pokud", "jakmile", "jestli", "až", "když"}),
    "sv": frozenset({"om", "när", "ifall"}),
    "da": frozenset({"hvis", "når", "om"}),
    "fi": frozenset({"jos", "kun", "kunhan"}),
}
"""Words that open a condition, per language ("Om du bekräftar, bokar jag ..."): Swedish
"om" is Dutch "around", Danish "kun" is "only"."""


def split_czech_negation(word: str, is_action: bool) -> list[str]:
    """A Czech verb of acting written negated ("nezarezervoval", "nepřidal") as the
    negation `ne` and the verb, so it reads as Polish "nie zarezerwowałem" does;
    `is_action` says whether the word without its `ne` is a verb of acting."""
    return ["ne", word[2:]] if word.startswith("ne") and is_action else [word]
