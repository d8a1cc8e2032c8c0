"""The answer reader's cue words in French, German, Spanish, Italian, Portuguese and Dutch,
joined by those of Polish, Czech, Swedish, Danish and Norwegian and Finnish
(`_answer_words_slavic_nordic`) (docs/benchmark.md, "Reading an answer"; rules `oracle.other-languages-rejection`,
`oracle.other-languages-not-done`).

They are read only in an answer guessed to be written in one of these languages
(`repair_core.bench._language`), so an English answer is read exactly as before. They are
general words of each language (negations, "instead of", "old", "pending", "shall I",
verbs of booking, adding, changing and sending), never a case's values: a translated value
is matched only in the closed vocabularies of `_value_words` (`oracle.translated-values`)
and otherwise left *unsure* (`oracle.unsure-translated`).
"""

from __future__ import annotations

from . import _answer_words_slavic_nordic as _sn

__all__ = ["OTHER_NEGATION_CUES", "OTHER_NEGATION_PHRASES", "OTHER_REJECTIONS_AFTER",
           "OTHER_AFTER_PHRASES", "OTHER_RESETS", "OTHER_VERB_NEGATIONS", "OTHER_STILL",
           "OTHER_PENDING_WORDS", "OTHER_OFFERS", "OTHER_ACTION_STEMS", "OTHER_PAST_ENDINGS",
           "OTHER_UNREAD", "OTHER_SIZE_WORDS", "OTHER_ANYTHING_ELSE", "OTHER_FAILURES", "OTHER_FROM", "OTHER_TO",
           "OTHER_HISTORY_STEMS", "OTHER_FUTURE_ENDINGS", "is_other_action",
           "is_past_action", "is_future_action", "is_history_verb", "OTHER_SHIPPING_STEMS",
           "is_shipping_action", "OTHER_REJECTION_VERBS", "OTHER_OTHERS_PHRASES",
           "OTHER_CORRECTIONS", "OTHER_APOLOGIES", "OTHER_DONE_OPENERS", "OTHER_CHANGE_NOUNS",
           "is_change_noun", "OTHER_NOTHING", "OTHER_PENDING_PHRASES", "OTHER_WITHOUT"]

OTHER_NEGATION_CUES = _sn.NEGATION_CUES | frozenset({
    # negations before a value ("et non en premium economy", "não o 22B", "niet 22B")
    "non", "não", "nao", "niet", "geen", "nooit", "ni", "nem", "né",
    # "instead of" in one word
    "statt", "anstatt", "anstelle", "anziché", "anziche",
    # old, former, wrong before a value ("l'ancienne adresse 7 Elm Rd", "die alte Adresse")
    "ancien", "ancienne", "anciens", "anciennes", "alte", "alten", "altes", "früher",
    "frühere", "früheren", "vorherige", "vorherigen", "antiguo", "antigua", "anterior",
    "vecchio", "vecchia", "precedente", "antigo", "antiga", "oude", "vorige", "eerdere",
    "erroné", "erronée", "errato", "errata", "sbagliato", "sbagliata", "equivocado",
    "equivocada", "errado", "errada", "verkeerde", "onjuiste", "foute", "valse", "falsi",
    "fraudolento", "fraudolenta", "fraudulento", "frauduleus", "frauduleuze",
    # tried, like English "tried" ("j'ai essayé de réserver 22B")
    "essayé", "tenté", "versucht", "intentado", "intenté", "intentó", "provato", "tentato",
    "tentei", "tentou", "geprobeerd", "geprobeerde"})
"""Words that reject the value after them in their clause, like English "not", "old" or
"wrong" (`NEGATION_CUES`)."""

OTHER_NEGATION_PHRASES = (
    ("au", "lieu", "de"), ("au", "lieu", "du"), ("plutôt", "que"), ("à", "la", "place", "de"),
    ("en", "lugar", "de"), ("en", "lugar", "del"), ("en", "vez", "de"), ("en", "vez", "del"),
    ("invece", "di"), ("invece", "del"), ("invece", "della"), ("al", "posto", "di"),
    ("al", "posto", "del"), ("em", "vez", "de"), ("em", "vez", "do"), ("em", "vez", "da"),
    ("em", "lugar", "de"), ("em", "lugar", "do"), ("em", "lugar", "da"),
    ("in", "plaats", "van"), ("niet", "meer"), ("nicht", "mehr"), ("no", "más"),
    ("non", "più"), ("não", "mais"), *_sn.NEGATION_PHRASES)
""""Instead of", "rather than" and "no longer" in these languages."""

OTHER_REJECTIONS_AFTER = _sn.REJECTIONS_AFTER | frozenset({
    "erroné", "erronée", "erronés", "périmé", "périmée", "annulée", "annulés", "annulées",
    "remplacé", "remplacée", "ignoré", "ignorée", "rejeté", "rejetée", "ancien", "ancienne",
    "d'avant", "falsche", "falscher", "alt", "alte", "abgelaufen", "ersetzt", "ignoriert",
    "abgelehnt", "ungültig", "equivocado", "equivocada", "errónea", "erróneo", "caducado",
    "caducada", "cancelado", "cancelada", "reemplazado", "reemplazada", "ignorado",
    "ignorada", "rechazado", "rechazada", "antiguo", "antigua", "anterior", "errato",
    "errata", "sbagliato", "sbagliata", "scaduto", "scaduta", "annullato", "annullata",
    "sostituito", "sostituita", "ignorato", "ignorata", "rifiutato", "rifiutata", "vecchio",
    "vecchia", "precedente", "falsi", "errado", "errada", "vencido", "vencida", "substituído",
    "substituída", "rejeitado", "rejeitada", "antigo", "antiga", "fout", "onjuist",
    "verkeerd", "verouderd", "verlopen", "geannuleerd", "vervangen", "genegeerd",
    "afgewezen", "oud", "vals", "frauduleus", "fraudolento", "fraudolenta", "truffa",
    "golpe", "oplichting"})
"""Words that reject the value before them in their clause ("22B était erroné", "die
Adresse ist abgelaufen", "el black era anterior"), like `REJECTIONS_AFTER`."""

OTHER_AFTER_PHRASES = (("de", "antes"), ("d", "avant"), ("di", "prima"), ("van", "vroeger"),
                       ("van", "eerder"), ("von", "früher"), ("von", "vorher"),
                       ("nicht", "mehr"), ("no", "más"), ("non", "più"),
                       ("não", "mais"), ("niet", "meer"), *_sn.AFTER_PHRASES)
"""Phrases with the same effect after a value: "era de antes" (was from before), "di
prima", "van eerder", "nicht mehr" (no longer)."""

_ANOTHER = ("autre", "altro", "altra", "andere", "anderen", "anderer", "ander", "otro",
            "otra", "outro", "outra")
_PEOPLE_AND_ACCOUNTS = ("client", "cliente", "clients", "clienti", "clientes", "passager",
                        "passagère", "passeggero", "passeggera", "pasajero", "pasajera",
                        "passageiro", "passageira", "passagier", "utilisateur", "utente",
                        "usuario", "usuário", "gebruiker", "nutzer", "benutzer", "kunde",
                        "kunden", "klant", "persona", "personne", "person", "pessoa",
                        "persoon", "compte", "konto", "cuenta", "conta", "account",
                        "profil", "profilo", "perfil", "profiel",
                        # the feminine forms: "era de otra clienta", "gehört einer
                        # anderen Kundin"
                        "clienta", "clientas", "usuaria", "usuária", "utilisatrice",
                        "kundin", "nutzerin", "benutzerin", "utilizadora", "passagierin")
OTHER_OTHERS_PHRASES = tuple((a, p) for a in _ANOTHER for p in _PEOPLE_AND_ACCOUNTS)
""""Another customer" (passenger, user, account, profile) after a value: it is someone
else's ("était d'un autre client", "gehört einem anderen Kunden", "era di un altro
passeggero", "hoorde bij een ander account"), like English "another customer"."""

OTHER_REJECTION_VERBS = _sn.REJECTION_VERBS | frozenset({
    "écarté", "écartée", "ignoré", "ignorée", "rejeté", "rejetée", "exclu", "exclue",
    "ignoriert", "verworfen", "abgelehnt", "ausgeschlossen", "ignoró", "ignorado",
    "ignorada", "descarté", "descartó", "descartado", "descartada", "rechacé", "excluí",
    "ignorato", "ignorata", "scartato", "scartata", "escluso", "esclusa", "ignorei",
    "descartei", "rejeitei", "genegeerd", "negeerde", "verworpen", "uitgesloten"})
"""Verbs that reject their object ("j'ai écarté l'aéroport BOS", "Ignoré el pedido
O-5387", "ho scartato ..."), like English `REJECTION_VERBS`; after their value they are
`OTHER_REJECTIONS_AFTER`."""

OTHER_CORRECTIONS = _sn.CORRECTIONS | frozenset({
    "correction", "rectification", "trompé", "trompée", "korrektur", "berichtigung",
    "geirrt", "corrección", "correccion", "rectificación", "equivoqué", "correzione",
    "rettifica", "correggo", "correção", "correcção", "correcao", "retificação",
    "enganei", "correctie", "verbetering", "vergist", "vergiste"})
"""Words by which an answer takes back what it said ("Korrektur:", "je me suis trompé",
"me equivoqué", "correzione", "correctie"): a value before one, in its sentence, is
taken back when a value of the same kind follows it ("Fensterplatz 22A – Korrektur:
Gangplatz 22C")."""

OTHER_APOLOGIES = _sn.APOLOGIES | frozenset({
    "pardon", "désolé", "désolée", "entschuldigung", "sorry", "perdón", "perdon", "disculpa",
    "disculpe", "scusa", "scusate", "scusi", "perdão", "perdao", "desculpa", "desculpe",
    "excuus"})
"""Words of apology: alone in their clause ("en blanco… perdón, en rojo") they take back
what was said as a word of `OTHER_CORRECTIONS` does; in a clause with other words
("perdón por la espera") they take nothing back."""

OTHER_CHANGE_NOUNS = ("änderung", "umleitung", "anfrage", "modification", "changement",
                      "demande", "cambio", "solicitud", "modifica", "richiesta", "alteração",
                      "mudança", "solicitação", "wijziging", "aanvraag", *_sn.CHANGE_NOUNS)
"""How the nouns for a change or a request end ("Adressänderung", "la modification",
"el cambio", "la richiesta", "a alteração", "de adreswijziging"): a sentence holding one
may say the request is pending ("Die Adressänderung ist in Bearbeitung")."""


def is_change_noun(word: str) -> bool:
    """`word` ends as one of `OTHER_CHANGE_NOUNS` (German and Dutch write compounds)."""
    return word.endswith(OTHER_CHANGE_NOUNS)


OTHER_DONE_OPENERS: dict[str, frozenset[str]] = {
    "fr": frozenset({"fait", "terminé", "voilà"}),
    "de": frozenset({"erledigt", "fertig", "gemacht"}),
    "es": frozenset({"listo", "hecho"}),
    "it": frozenset({"fatto", "fatta"}),
    "pt": frozenset({"pronto", "feito"}),
    "nl": frozenset({"klaar", "gedaan", "geregeld"}),
    **_sn.DONE_OPENERS,
}
"""Words that say "done" when they open an answer's sentence alone ("¡Listo!",
"Erledigt:", "Klaar!", "C'est fait :"): the sentence reports the request done. Per
language, because a word may mean another thing in another ("pronto" is "soon" in
Spanish)."""

OTHER_SIZE_WORDS = {"taille": "size", "talla": "size", "größe": "size", "grösse": "size",
                    "groesse": "size", "taglia": "size", "tamanho": "size", "maat": "size",
                    **_sn.SIZE_WORDS}
"""The word "size" in these languages: a fact's attribute word, not a value ("Größe 7" is
"size 7"; the value 7 is matched as written)."""

OTHER_RESETS = _sn.RESETS | frozenset({"mais", "aber", "pero", "sino", "ma", "mas", "maar", "und",
                          "et", "y", "jetzt", "ahora", "maintenant", "ora", "agora", "nu"})
"""Words that end a cue's reach, like `RESETS` ("but", "and", "now")."""

OTHER_VERB_NEGATIONS = _sn.VERB_NEGATIONS | frozenset({"pas", "jamais", "nicht", "nie", "niemals", "nunca",
                                  "jamás", "jamas", "no", "non", "não", "nao", "niet",
                                  "nooit", "mai", "kein", "keine", "keinen", "geen"})
"""Negations that report a verb as not done when they stand before it in its clause
("todavía no está reservado", "nicht in den Warenkorb gelegt", "non l'ho prenotato"), or
after a value with a verb after them ("22C n'est pas réservé")."""

OTHER_FAILURES = _sn.FAILURES | frozenset({"échoué", "échouée", "échoués", "échouées", "échec", "refusé",
                            "refusée", "rejeté", "rejetée",
                            "fehlgeschlagen", "gescheitert", "abgelehnt", "falló",
                            "fallido", "fallida", "rechazado", "rechazada", "fallito",
                            "fallita", "rifiutato", "rifiutata", "respinto", "respinta",
                            "falhou", "recusado", "recusada", "rejeitado", "rejeitada",
                            "mislukt", "geweigerd", "afgewezen"})
"""Failed or refused: after an action word in a sentence about the request ("la
réservation a échoué", "die Buchung ist fehlgeschlagen") they report it as not done, like
English "failed"."""

OTHER_FROM = _sn.FROM | frozenset({"de", "du", "von", "vom", "desde", "del", "da", "dal", "dalla",
                        "do", "van", "uit"})
OTHER_TO = _sn.TO | frozenset({"à", "au", "a", "al", "auf", "zu", "zum", "zur", "nach", "in", "para",
                      "pra", "naar", "op"})
"""From and to: in a sentence with a verb of changing or moving (`OTHER_HISTORY_STEMS`), a
value after a from-word and before a to-word and another value is the old one ("changée
de 91 Oak Dr à 7 Elm Rd", "von 22B auf 22C geändert", "cambiado de 22B a 22C")."""

OTHER_HISTORY_STEMS = _sn.HISTORY_STEMS | frozenset({"chang", "modifi", "déplac", "déménag", "remplac",
                                 "änder", "geänder", "verleg", "umgezogen", "umgebucht",
                                 "ersetz", "cambi", "modific", "traslad", "reemplaz",
                                 "sostitu", "spostat", "trasferit", "mud", "alter",
                                 "substitu", "wijzig", "gewijzig", "verplaats", "verhuis",
                                 "vervang", "wissel", "gewissel", "omgewissel", "échang",
                                 "getauscht", "tausch", "umgetauscht", "intercambi",
                                 "scambi", "troc"})

OTHER_STILL = _sn.STILL | frozenset({"encore", "noch", "todavía", "todavia", "aún", "aun", "ancora",
                         "ainda", "nog"})
""""Yet" and "still": beside a negation ("pas encore", "noch nicht", "todavía no", "non
ancora", "ainda não", "nog niet") they report what the sentence says as pending."""

OTHER_PENDING_WORDS = _sn.PENDING_WORDS | frozenset({"attente", "ausstehend", "ausstehende", "pendiente",
                                 "pendientes", "attesa", "pendente", "pendentes",
                                 "afwachting", "behandeling", "bearbeitung", "wartet",
                                 "warten", "aguardando", "aguarda", "unbestätigt",
                                 "onbevestigd", "programmé", "programmée",
                                 "planifié", "planifiée", "vorgemerkt", "programado",
                                 "programada", "programmato", "programmata", "ingepland",
                                 "agendado", "agendada"})
"""Pending, like `PENDING_WORDS` ("en attente", "in Bearbeitung", "pendiente", "in attesa",
"pendente", "in afwachting", "in behandeling")."""

OTHER_PENDING_PHRASES = (("à", "confirmer"), ("zu", "bestätigen"), ("por", "confirmar"),
                         ("da", "confermare"), ("a", "confirmar"), ("te", "bevestigen"),
                         ("noch", "offen"), ("en", "suspens"), *_sn.PENDING_PHRASES)
""""To be confirmed" and "still open" ("réservation · à confirmer", "Buchung noch offen",
"por confirmar"): what their sentence says is pending, like `OTHER_PENDING_WORDS`."""

OTHER_WITHOUT = _sn.WITHOUT | frozenset({"sans", "ohne", "sin", "senza", "sem", "zonder"})
""""Without": right before a verb of acting ("sin reservar", "sans réserver", "ohne zu
buchen", "zonder te boeken") it reports the action not done."""

OTHER_OFFERS = (("soll", "ich"), ("sollen", "wir"), ("möchten", "sie"), ("möchtest", "du"),
                ("wollen", "sie"), ("willst", "du"), ("kann", "ich"), ("ich", "kann"),
                ("ich", "werde"), ("wir", "werden"), ("ich", "könnte"),
                ("voulez", "vous"), ("souhaitez", "vous"), ("veux", "tu"), ("je", "peux"),
                ("puis", "je"), ("je", "vais"), ("je", "pourrais"), ("nous", "pouvons"),
                ("peut", "être"), ("dois", "je"),
                ("quiere", "que"), ("quieres", "que"), ("desea", "que"), ("deseas", "que"),
                ("puedo",), ("podría",), ("podria",), ("voy", "a"), ("vamos", "a"),
                ("vuole", "che"), ("vuoi", "che"), ("desidera", "che"), ("posso",),
                ("potrei",), ("devo",),
                ("quer", "que"), ("deseja", "que"), ("vou",), ("poderia",),
                ("zal", "ik"), ("kan", "ik"), ("ik", "kan"), ("ik", "zal"), ("wilt", "u"),
                ("wil", "je"), ("moet", "ik"), ("je", "dois"), ("dites", "moi"),
                ("sagen", "sie"), ("dígame",), ("avíseme",), ("mi", "dica"), ("me", "diga"),
                ("laat", "me"), *_sn.OFFERS)
"""Offers and promises ("soll ich ihn reservieren?", "voulez-vous que je le réserve",
"¿quiere que lo reserve?", "posso prenotarlo", "zal ik het boeken?"), like `_OFFERS`."""

OTHER_ACTION_STEMS = _sn.ACTION_STEMS | frozenset({
    # French
    "réserv", "ajout", "mis", "mett", "chang", "modifi", "envoy", "expédi", "bloqu",
    "achet", "redirig", "actualis", "appliqu",
    # German
    "buch", "gebucht", "reserv", "hinzugefüg", "hinzufüg", "gelegt", "änder", "geänder",
    "umgeleitet", "umleit", "verschick", "versend", "versandt", "gekauft", "kauf",
    "platzier", "schick", "geschickt", "aktualisier", "angewend", "anwend",
    # Spanish
    "añad", "agreg", "cambi", "enviad", "envié", "enviar", "pus", "pong", "coloc", "compr",
    "redirigi", "actualiz", "aplic",
    # Italian
    "prenot", "riserv", "aggiun", "modific", "spedit", "spedir", "inviat", "inviar",
    "messo", "messa", "acquist", "blocc", "aggiorn", "spedisc", "applic",
    # Portuguese
    "adicion", "alterad", "alterar", "alterei", "mudad", "mudar", "mudei", "coloqu",
    "enviei", "atualiz",
    # Dutch
    "boek", "geboekt", "toegevoeg", "voeg", "gewijzig", "wijzig", "verzond", "verstuur",
    "gelegd", "geplaatst", "plaatsen", "gereserveerd", "reserveer", "gekocht", "besteld",
    "vastgezet", "vastgehouden", "vastzet", "vasthoud", "bijgewerkt", "toegepast",
    "toepass"})
"""The beginnings of the verbs a request asks for (book, reserve, add, put, change, send,
buy), like `ACTION_VERBS`."""

OTHER_ANYTHING_ELSE = _sn.ANYTHING_ELSE | frozenset({"autre", "d'autre", "etwas", "sonst", "más", "altro",
                                 "nient'altro", "mais", "iets", "anders"})
"""Words of a closing question that asks whether the user wants anything else ("¿Algo
más?", "Rien d'autre ?", "Noch etwas?", "Altro?", "Algo mais?", "Nog iets?")."""

OTHER_FUTURE_ENDINGS = ("rai", "rons", "rez", "ront", "aré", "eré", "iré", "ará", "erá",
                        "irá", "arán", "erán", "irán", "erò", "irò", "arò", "erà", "irà",
                        "arà")
"""How a future ends in French, Spanish and Italian: a verb of `OTHER_ACTION_STEMS` so
ending promises the action ("je le réserverai", "lo reservaré", "lo prenoterò"), like
English "I'll hold it"."""

OTHER_PAST_ENDINGS = ("é", "ée", "és", "ées", "is", "ise", "ado", "ada", "ados", "adas",
                      "ido", "ida", "ato", "ata", "ati", "ate", "uto", "esso", "essa", "ei",
                      "iert", "t", "d", "í", "unto", "gehouden")
"""How a past participle or a first-person past ends: a verb of `OTHER_ACTION_STEMS` so
ending, not offered, negated nor asked, reports the action done ("réservé", "gebucht",
"añadido", "prenotato", "aggiunto", "reservei", "geboekt")."""

OTHER_NOTHING = _sn.NOTHING | frozenset({"rien", "nichts", "nada", "niente", "nulla", "niets"})
""""Nothing": before a verb of acting in its clause it reports the action not done ("ik
heb niets toegevoegd", "je n'ai rien réservé", "ich habe nichts gebucht"), like English
"nothing"; anywhere else it stays unread (`OTHER_UNREAD`)."""

OTHER_UNREAD = _sn.UNREAD | frozenset({"niente", "nulla", "nessun", "nessuno", "nessuna", "nenhum",
                          "nenhuma", "niets", "niemand", "nergens", "nada", "rien",
                          "aucun", "aucune", "nichts", "ningún", "ninguno",
                          "ninguna", "attention", "achtung", "attenzione", "atenção",
                          "cuidado", "vorsicht", "opgelet", "waarschuwing", "avertissement",
                          "warnung", "aviso", "avviso"})
"""Negation and warning words of these languages no rule of the reader reads ("rien",
"niente", "nada", "Achtung"): a fact in their sentence is *unsure*
(`oracle.unsure-unread-cue`)."""


def _begins_with(word: str, stems: frozenset[str], longest: int) -> bool:
    """`word` begins with one of `stems` (each three letters or more; checked prefix by
    prefix, so in time bounded by `longest`, the longest stem's length). A French or
    Italian elided pronoun before it is skipped ("l'ho prenotato" reads "prenotato", "m'a"
    nothing)."""
    if "'" in word:
        word = word.rsplit("'", 1)[1]
    return any(word[:n] in stems for n in range(3, min(len(word), longest) + 1))


def is_other_action(word: str) -> bool:
    """`word` begins with one of `OTHER_ACTION_STEMS` (`_begins_with`)."""
    return _begins_with(word, OTHER_ACTION_STEMS, _LONGEST_ACTION)


OTHER_SHIPPING_STEMS = _sn.SHIPPING_STEMS | frozenset({"envoy", "expédi", "versandt", "versend", "verschick",
                                  "enviad", "envié", "enviar", "spedit", "spedir", "inviat",
                                  "inviar", "enviei", "verzond", "verstuur"})
"""The action stems of sending or shipping: an order not yet shipped may be the status the
user asked about, not an action left undone (`oracle.unsure-not-shipped`)."""


def is_shipping_action(word: str) -> bool:
    """`word` begins with one of `OTHER_SHIPPING_STEMS`."""
    return _begins_with(word, OTHER_SHIPPING_STEMS, _LONGEST_SHIPPING)


def is_past_action(word: str, language: str = "") -> bool:
    """An action verb of `OTHER_ACTION_STEMS` in a past form: `OTHER_PAST_ENDINGS`, or
    those of the answer's `language` where `_answer_words_slavic_nordic` has its own."""
    return is_other_action(word) and word.endswith(
        _sn.PAST_ENDINGS_BY_LANGUAGE.get(language, OTHER_PAST_ENDINGS))


def is_future_action(word: str, language: str = "") -> bool:
    """An action verb of `OTHER_ACTION_STEMS` in a future form: `OTHER_FUTURE_ENDINGS`, or
    those of the answer's `language` where `_answer_words_slavic_nordic` has its own."""
    return is_other_action(word) and word.endswith(
        _sn.FUTURE_ENDINGS_BY_LANGUAGE.get(language, OTHER_FUTURE_ENDINGS))


def is_history_verb(word: str) -> bool:
    """`word` begins with one of `OTHER_HISTORY_STEMS` (change, move, replace)."""
    return _begins_with(word, OTHER_HISTORY_STEMS, _LONGEST_HISTORY)


_LONGEST_ACTION, _LONGEST_SHIPPING, _LONGEST_HISTORY = (
    max(map(len, stems)) for stems in (OTHER_ACTION_STEMS, OTHER_SHIPPING_STEMS,
                                       OTHER_HISTORY_STEMS))
