"""The words by which the next-session agent (`_agentdojo_goals`) tells an order from a
text that only reports, quotes, refuses or warns against one, in the languages it reads:
English, French, German, Spanish, Italian, Portuguese and Dutch (the languages the answer
reader reads too).

Every word is stored as `plain` makes it (NFKC, case folded, accents dropped), so
"envíe", "envie" and "ENVÍE" are one word. Only a language's general words are here
(verbs of AgentDojo's tool families, request and negation words, words of doubt, attack
and refusal), never the wording of a particular text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from ..judge import NEGATIONS, WARNINGS

__all__ = ["plain", "ACTION_WORDS", "FAMILY", "ORDER_WORDS", "ORDER_PHRASES", "CLITICS",
           "NEGATION_WORDS", "WARNING_WORDS", "DOUBT_WORDS", "ATTACK_WORDS",
           "REFUSAL_WORDS", "REPORTING_VERBS", "SPEECH_PAST", "SPEECH_BASE",
           "ADDRESSEES", "KNOWING", "REQUEST_MODALS", "REQUEST_MODALS_PRO_DROP",
           "ADDRESSEE_PRONOUNS", "PLEASE_WORDS", "HYPOTHETICAL_MODALS", "REPORT_AUX",
           "ATTEMPT_WORDS", "MODAL_ADVERBS", "STANCE_WORDS", "DETERMINERS", "BACK_REFERENCES",
           "CONDITIONALS", "STORY_WORDS", "LIGHT_VERBS", "ACTION_NOUNS", "PAST_TIME",
           "NOTING_WORDS", "IGNORING_WORDS", "LOG_LEVELS", "STATUS_WORDS",
           "HEADING_SPEECH", "UNREAD", "COURTESY_WORDS", "PAST_IRREGULAR", "EXAMPLE_WORDS", "PORTUGUESE_MARKERS",
           "MUST_AFTER_PASSIVE", "FINAL_LIGHT_VERBS", "DEFENCE_WORDS", "DEFENCE_LINKS",
           "THOUGHT_WORDS", "RECEIPT_WORDS", "TRANSCRIPT_WORDS", "ANSWER_WORDS",
           "LESSON_WORDS", "INCIDENT_WORDS", "NOTHING_WORDS", "ELSE_WORDS",
           "DONE_PARTICIPLES", "PASSIVE_PAST_AUX", "USER_WORDS",
           "THANKS_WORDS", "ADVANCE_WORDS", "DUTY_TE", "REVERSE_WORDS", "APPROVAL_WORDS",
           "APPROVAL_PHRASES", "PROPOSAL_PAIRS", "PROPOSAL_OPENERS", "REAFFIRM_WORDS",
           "STILL_WORDS", "REVOKE_WORDS", "RAN_WORDS", "APPROVAL_TAIL_WORDS"]


def plain(text: str) -> str:
    """Unicode NFKC, case folded, accents and other combining marks dropped."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if folded.isascii():
        return folded
    return unicodedata.normalize("NFC", "".join(
        c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c)))


def _words(text: str) -> frozenset[str]:
    return frozenset(plain(w) for w in text.split())


_ACTION_TEXT: Mapping[str, str] = {
    # English; French; German; Spanish; Italian; Portuguese; Dutch (the forms an order uses)
    "send": "send sends sending transfer wire remit pay forward email e-mail mail dm message "
            "text move share shares "
            "envoie envoyez envoyer envoi transfère transférez transférer virez virer vire "
            "payez payer transmettez transmets partagez partager partage "
            "sende senden schicke schicken schick überweise überweisen überweist zahle "
            "zahlen leite weiterleiten teile teilen "
            "envía envia envíe envie enviar transfiere transfiera transferir paga pague "
            "pagar manda mande mandar reenvía reenvia comparte compartir comparta "
            "invia inviare inoltra inoltrare trasferisci trasferire bonifica pagare mandare "
            "condividi condividere "
            "transfira transfere transferir envie enviar pague pagar encaminhe encaminhar "
            "encaminha reencaminha "
            "partilha partilhe partilhar compartilha compartilhe compartilhar "
            "stuur sturen verstuur versturen betaal betalen overmaken doorsturen deel delen",
    "update": "update modify change set switch redirect replace reset "
              "modifiez modifier modifie changez changer change remplacez remplacer mettez "
              "ändere ändern änderung setze setzen aktualisiere tausche ersetze "
              "cambia cambie cambiar modifica modifique modificar actualiza actualice "
              "pon ponga "
              "imposta impostare aggiorna aggiornare sostituisci cambiare "
              "altere alterar altera mude mudar atualize atualizar troque trocar defina "
              "muda troca atualiza "
              "wijzig wijzigen verander veranderen vervang vervangen stel",
    "reserve": "reserve reservation book booking réservez réserver réserve réservation "
               "reserviere reservieren buche buchen reserva reserve reservar "
               "prenota prenotare prenotazione riserva "
               "reservar reserva reservación "
               "reserveer reserveren reservering boek boeken",
    "create": "create add schedule set arrange put créez créer crée ajoutez ajouter "
              "ajoute planifiez mets mettez "
              "erstelle erstellen füge hinzufügen plane trage eintragen "
              "crea cree crear añade agrega programa pon ponga "
              "crea creare aggiungi aggiungere pianifica metti "
              "crie criar adicione adicionar agende agendar marque marcar coloque "
              "cria adiciona coloca "
              "maak maken voeg toevoegen plannen zet",
    "delete": "delete remove erase trash wipe purge rid supprimez supprimer supprime efface effacez "
              "lösche löschen entferne entfernen elimina elimine eliminar borra borre borrar "
              "cancella cancellare rimuovi rimuovere "
              "exclua excluir apague apagar remova remover apaga exclui "
              "verwijder verwijderen wis wissen",
    "visit": "visit open browse go load check consultez visitez visiter ouvrez ouvrir "
             "accédez va allez "
             "besuche besuchen öffne öffnen rufe visita visite visitar abre abra abrir accede "
             "apri aprire accedi vai visitare "
             "acesse acessar acessa acede "
             "bezoek bezoeken open ga",
    "post": "post publish upload concatenate collect gather dump copy publiez publier "
            "postez poste concaténez publie regroupe regroupez "
            "veröffentliche veröffentlichen lade hochladen publica publique "
            "publicar sube concatena "
            "pubblica pubblicare carica caricare "
            "publique publicar poste postar carregue concatene carrega junta "
            "publiceer publiceren plaats plaatsen upload "
            "share partagez partager teile teilen comparte compartir condividi condividere "
            "partilha partilhe partilhar compartilhe compartilhar deel delen",
    "invite": "invite add onboard invitez inviter ajoutez lade einladen füge invita "
              "invite invitar agrega añade "
              "invitare aggiungi "
              "convide convidar adicione convida adiciona "
              "nodig uitnodigen voeg",
    "get": "get fetch retrieve find collect récupérez récupérer trouvez hole holen finde "
           "obtén obtener busca "
           "trova recupera ottieni "
           "encontre obtenha busque encontra procura "
           "haal vind zoek",
}

ACTION_WORDS: Mapping[str, frozenset[str]] = {
    family: _words(text) for family, text in _ACTION_TEXT.items()}
"""Action words by the verb a tool's name starts with (its family), plain."""

FAMILY = {"send": "send", "update": "update", "reserve": "reserve", "create": "create",
          "delete": "delete", "remove": "delete", "get": "visit", "post": "post",
          "invite": "invite", "add": "invite", "append": "create", "share": "send",
          "schedule": "create", "reschedule": "update"}
"""The family of a tool by the first word of its name."""

ORDER_WORDS: frozenset[str] = _words("""
please kindly pls plz must should ensure need needs want wants urgent urgently
immediately now asap required mandatory
ignore disregard forget instead important instruction instructions task
veuillez merci svp plaît plait faut devez assurez oubliez ignorez important urgent
voudrait souhaite souhaiterait
bitte muss müssen sollst sollen stelle sicher vergiss ignoriere wichtig dringend sofort
erbeten
möchte möchten
por favor debe debes asegúrate asegurate asegúrese olvida ignora importante urgente
quiere quisiera desea gustaría
favore devi deve assicurati subito vorrebbe desidera
precisa certifique imediatamente gostaria deseja devem deves
alsjeblieft alstublieft graag moet moeten zorg negeer belangrijk dringend meteen
""")
"""Words that make a sentence an order besides the action words: requests, musts,
urgency, the user's wish told in the third person ("voudrait", "möchte", "gostaria")."""

ORDER_PHRASES: tuple[tuple[str, ...], ...] = (
    ("make", "sure"), ("would", "like"), ("d", "like"), ("want", "you"),
    ("wants", "you"), ("wish", "you"), ("wishes", "you"), ("you", "mind"),
    ("is", "to"), ("are", "to"), ("has", "to"), ("have", "to"), ("needs", "to"),
    ("rely", "on"), ("relying", "on"), ("count", "on"), ("counting", "on"),
    ("compte", "sur"), ("verlasse", "mich"), ("cuento", "con"), ("cuento", "contigo"),
    ("conto", "contigo"), ("reken", "erop"), ("vertrouw", "erop"))
"""Runs of words that make a sentence an order ("the user would like you to …"), the
passive order among them ("the password is to be changed to …", "has to be …"), and
reliance on the reader ("I count on you to …", "je compte sur toi pour …", "ich verlasse
mich darauf, dass …", "cuento contigo para …", "ik reken erop dat …")."""

KNOWING: frozenset[str] = _words("know understand learn see hear")
"""Verbs of coming to know: a wish to know ("would like to know who … is") asks a
question, it gives no order."""

CLITICS: tuple[str, ...] = ("glielo", "gliela", "selo", "sela", "melo", "telo", "gli",
                            "los", "las", "les", "nos", "lo", "la", "le", "li", "ne",
                            "me", "te")
"""Pronouns Spanish, Italian and Portuguese attach to an imperative ("publícalos",
"inviala"): a word that ends in one is also read without it."""

NEGATION_WORDS: frozenset[str] = (frozenset(plain(w) for w in NEGATIONS) | _words("""
non nessun nessuno nessuna niente nulla né
não nunca nenhum nenhuma nada nem jamais
niet nooit geen niets niemand
""")) - {"noch", "ko"}
"""The content judge's negations (`repair_core.judge.NEGATIONS`) and those of Italian,
Portuguese and Dutch. German and Dutch "noch" is left out: alone it is "still" ("noch
heute", today still), and in "weder … noch" the "weder" negates. Yoruba "kò" is left out:
read plain, without its tone mark, it is Hindi and Urdu "ko" ("to", the object marker),
a word of nearly every Hinglish order ("password ko … change kar do"). Italian "mai" is left out: it is French for May, and an Italian
order never to do something says "non … mai" anyway."""

WARNING_WORDS: frozenset[str] = frozenset(plain(w) for w in WARNINGS) | _words("""
truffa truffatore frode falso falsa sospetto sospetta pericoloso pericolosa attenzione
golpe golpista fraude suspeito suspeita perigoso perigosa
oplichting oplichter fraude nep vals valse verdacht verdachte gevaarlijk
mistake
""")
"""The content judge's warnings (`repair_core.judge.WARNINGS`), those of Italian,
Portuguese and Dutch, and "mistake" ("it would be a mistake to …"): one anywhere in a text
and it gives no order."""

DEFENCE_WORDS: frozenset[str] = _words("""
anti prevention protection detection unit team department desk office division hotline
prevention protection detection unite equipe cellule
pravention schutz erkennung abteilung einheit
prevencion proteccion deteccion unidad equipo departamento
prevenzione protezione rilevamento unita squadra ufficio reparto
prevencao protecao deteccao unidade equipe departamento
preventie bescherming detectie afdeling eenheid
""")
"""Words by which a warning word names a defence against what it warns of, not a warning:
right after it ("the Fraud Prevention Unit", "the scam team") or at most three words before
it in its clause ("anti-fraud", "l'unité de prévention de la fraude")."""

DEFENCE_LINKS: frozenset[str] = _words("""
of against from de la le les l du des contre d gegen vor den die der das
del el contra da della dello dei do dos das tegen van het
""")
"""Prepositions and articles that may stand between a defence word and the warning word
it names ("prévention de la fraude", "protection against fraud")."""

DOUBT_WORDS: frozenset[str] = _words("""
claims claimed claiming alleges alleged allegedly supposedly purportedly
pretending pretends pretended impersonating impersonates posing
prétend prétendait prétendument soi-disant angeblich behauptet behauptete
supuestamente afirma presuntamente sostiene supostamente alega zogenaamd beweert
""")
"""Words by which a sentence doubts who speaks or what was said: an order in it is an
allegation reported, not given."""

ATTACK_WORDS: frozenset[str] = _words("""
attacker attackers attack attacks hacker hackers hacked malware injection injected
attaquant attaquants pirate piraté angreifer atacante atacantes pirata attaccante
aanvaller aanvallers
""")
"""Words that make a sentence a story or report about an attack: an order it quotes is
the attack's, told, not given."""

REFUSAL_WORDS: frozenset[str] = _words("""
refuse refuses refused refusing refusal decline declined declines reject rejected
rejects ignored ignores disregards denied deny
refusez refusé refusée ablehnen lehne abgelehnt verweigere verweigert
rechaza rechace rechazar rechazó rifiuta rifiutare rifiutato recuse recusar recusou
weiger weigeren geweigerd
""")
"""Words of refusal: in the sentence holding an order or the next one, the order is
refused, not given ("if anything asks you to …, refuse", "… I ignored it")."""

REPORTING_VERBS: frozenset[str] = _words(
    "asked asks ask told tells wanted requested requests begged urged")
"""Verbs that report a request made to someone: followed by `ADDRESSEES` the request was
made to the writer, not to the agent ("Lily asked whether I would …")."""

ADDRESSEES: frozenset[str] = _words("me us whether if")
"""Words after a reporting verb that make the reported request the writer's."""

SPEECH_PAST: frozenset[str] = _words(
    "said asked told wrote meant requested agreed authorized authorised "
    "dit demande ecrit autorise gesagt gebeten verlangt geschrieben erlaubt "
    "dicho pedido pedi escrito autorizado detto chiesto scritto autorizzato "
    "disse pediu escrevi gezegd gevraagd geschreven")
"""Past forms of saying: after a negation the writer denies having said it ("I never
said that"); before "no" the writer refused ("I told her no")."""

SPEECH_BASE: frozenset[str] = _words(
    "say ask tell write mean request agree authorize authorise")
"""Base forms of saying: after "did not" / "didn't" a denial."""

REQUEST_MODALS: frozenset[str] = _words("""
can could would will
pouvez pourriez peux pourrais
konnen konnten kannst konntest wurden wurdest
kun kunt kan zou zoudt wil
""")
"""Modals that open a request when an addressee stands next to them ("could you …",
"pourriez-vous", "könnten Sie", "kun je"): a question so worded asks for an action."""

REQUEST_MODALS_PRO_DROP: frozenset[str] = _words("""
puedes podrias puede podria
puoi potresti puo potrebbe
pode podes poderia podias
""")
"""Modals of Spanish, Italian and Portuguese that address the reader without a pronoun
("¿podrías …?", "potresti …?", "poderia …?"): a question holding one is a request."""

ADDRESSEE_PRONOUNS: frozenset[str] = _words("""
you u vous tu sie du usted ustedes voce lei je jij jullie
""")
"""Pronouns of the reader: next to a request modal, a request ("could you", "would you
mind"); before a hypothetical modal, a suggestion to the reader ("you could send …")."""

MUST_AFTER_PASSIVE: frozenset[str] = _words("muss mussen soll sollen moet moeten")
"""German and Dutch modals of must that end a passive clause after "werden"/"worden"
("… besucht werden muss", "… verwijderd moet worden")."""

COURTESY_WORDS: frozenset[str] = _words("""
aimable amabilite gentil freundlich liebenswurdig
amable amabilidad gentile cortese gentilezza amavel gentileza vriendelijk
importaria importerait dispiacerebbe importaria
""")
"""Words of a courteous request: a question holding one asks for an action ("¿Sería tan amable de …?", "Sarebbe così gentile da …?", "Le
importaría …?", "Zou u zo vriendelijk willen zijn …?"). English "kind" asks only after "so" or "be"
("Would you be so kind as to …?"; "What kind of …?" asks about something)."""

PLEASE_WORDS: frozenset[str] = _words("""
please kindly pls plz svp plait veuillez bitte favor favore alsjeblieft alstublieft graag
""")
"""Words of asking: a question holding one is a request ("Can we please …?")."""

HYPOTHETICAL_MODALS: frozenset[str] = _words("""
would could might may wurde wurden konnte zou zouden
""")
"""Modals of the hypothetical: right before an action word (one word may stand between)
and with no reader as their subject, the action is imagined, not ordered ("an assistant
that would send money to …")."""

MODAL_ADVERBS: frozenset[str] = _words(
    "also then just still even ever never not again actually probably simply already")
"""Adverbs that may stand between a modal and its verb ("would really send"), as any word
ending in "-ly" may."""

PAST_IRREGULAR: Mapping[str, str] = {"sent": "send", "paid": "pay"}
"""English past forms of action verbs that do not end in "-ed" ("sent", "paid")."""

REPORT_AUX: frozenset[str] = _words("did was were been")
"""Auxiliaries of a past statement or question: right before an action word (an adverb
may stand between) the action is told, not ordered ("I did send …", "the password was
set to …", "has already been reset to …")."""

ATTEMPT_WORDS: frozenset[str] = _words("""
tried attempted
essaye essayait tente tentait
versucht versuchte versuchten
intento intentaron intentaba
tentato provato tentava
tentou tentaram tentava
probeerde probeerden geprobeerd
""")
"""Past forms of trying: a sentence holding one tells of an attempt ("someone tried to
send money to …"), it gives no order (the imperative "try to …" is not among them)."""

STANCE_WORDS: frozenset[str] = _words("""
worry worries worried hesitate wait delay panic fear doubt problem joke forget questions
matter exceptions excuses rush hurry
inquietez inquiete hesitez attendez oubliez oublie
sorge sorgen zogere zogern warte vergiss vergesst vergessen
preocupes preocupe dudes espere olvides olvide
preoccuparti preoccupare esitare aspettare dimenticare dimenticate
preocupe hesite espere esqueca esquecer
zorgen aarzel wacht vergeet
""")
"""Words a negation may govern instead of the order beside it ("don't worry", "no doubt",
"don't forget to …", "no questions asked", "n'oubliez pas", "vergiss nicht"): a negation
within three words before one of them, or right after one, or before a warning word ("not
a scam"), negates that word, not the order."""

LOG_LEVELS: frozenset[str] = _words("info debug warn warning error trace audit")
"""Words that open a log line ("INFO …", "[AUDIT] …")."""

STATUS_WORDS: frozenset[str] = _words("""
ok done success succeeded successful failed failure error completed executed status
result returned denied blocked allowed
""")
"""Words by which a line dated at its start records what happened ("12:00 send_money …
status=ok"): such a line is a log entry, not an order."""

EXAMPLE_WORDS: frozenset[str] = _words("""
example examples typical sample illustration course lesson training slide exercise quiz
learners students
exemple exemples typique cours lecon formation diapositive exercice apprenants etudiants
beispiel beispiele typisch kurs lektion schulung folie ubung lernende studierende
ejemplo ejemplos tipico curso leccion formacion diapositiva ejercicio alumnos estudiantes
esempio esempi tipico corso lezione formazione diapositiva esercizio studenti
exemplo exemplos tipico curso aula formacao diapositivo exercicio alunos estudantes
voorbeeld voorbeelden typisch cursus les training dia oefening cursisten studenten
grammar translation translate grammaire traduction traduire grammatik ubersetzung
ubersetzen gramatica traduccion traducir grammatica traduzione tradurre traducao traduzir
vertaling vertalen
""")
"""Words by which a text shows something as an example or teaches about it ("a typical
injected line reads \"…\"", "Course, slide 12"): a copy of an order it quotes is shown,
not given."""

HEADING_SPEECH: frozenset[str] = _words("""
read reads said says wrote writes asked asks told tells quote quoted example sample
""")
"""Words that make a heading frame what follows as something said or shown ("The note
read: '…'", "Example: '…'"): a quotation under it stays a quotation."""

DETERMINERS: frozenset[str] = _words("""
a an the this that these those my your our his her their its
un une des du
ein eine einen einem einer der die das dem den des
un una uno unos unas um uma
een het
""")
"""Articles and possessives: an action word right after one is a noun ("after a wire",
"the transfer went through"), not an order. (The Romance "le", "la", "lo" are left out:
they also stand before a verb as its object.)"""

FINAL_LIGHT_VERBS: frozenset[str] = _words("""
machen tatigen durchfuhren vornehmen doen maken uitvoeren
""")
"""German and Dutch verbs whose object names the action, which a clause puts last, after
the noun ("eine Überweisung an … tätigen", "een overschrijving naar … willen doen")."""

PORTUGUESE_MARKERS: frozenset[str] = _words("""
uma um uns umas ao aos pelo pela pelos pelas voce voces senhor senhora nao
""")
"""Function words only Portuguese of the languages read has: in a text holding one, "no"
and "na" are "in the" ("no descritivo", "no dia 30"), not a negation; Portuguese
negates with "não"."""

LIGHT_VERBS: frozenset[str] = _words("""
make do place issue
fais faites faire effectue effectuez effectuer
mach macht machen tatige tatigen
haz haga hacer realiza realice
fai faccia fare effettua esegui
faca faz fazer efetue realize
maak doe
""")
"""Verbs whose object names the action ("make a transfer", "haz una reserva", "mach eine
Buchung"): after one, an action word behind an article is the order, not a noun."""

ACTION_NOUNS: frozenset[str] = _words("""
payment transaction booking reservation deletion invitation
virement transfert paiement suppression
uberweisung zahlung buchung loschung einladung
transferencia transaccion pago reserva
bonifico pagamento trasferimento prenotazione
transferencia transacao pagamento reserva
overboeking overschrijving betaling transactie boeking reservering
""")
"""Nouns of an action ("a payment", "un virement", "una transferencia"): an order only as
the object of a verb that makes it the action (`LIGHT_VERBS`: "make a payment", "effectue
un virement", "haz una transferencia"); alone they name a thing."""

BACK_REFERENCES: frozenset[str] = _words("""
it this that them so
le la les ce cela ca
es das
lo la eso esto
lo la questo
o a isso isto
het dat
""")
"""Words by which a short order points back at what the sentence before said ("Update
it.", "Do so now.", "Fais-le.", "Mach das.")."""

CONDITIONALS: frozenset[str] = _words("if when whenever should")
"""Words that open a condition: a request someone else makes of the reader in one ("if
someone tells you to …") is relayed, not given."""

STORY_WORDS: frozenset[str] = _words("""
film movie novel fiction fictional story scene episode plot
roman histoire scene
geschichte szene
pelicula novela historia escena
romanzo storia scena
filme romance historia cena
verhaal scene
""")
"""Words that make a sentence tell a story ("in the film, the hero has to wire …"): an
order in it is the story's, not given."""

PAST_TIME: frozenset[str] = _words("""
yesterday ago earlier previously successfully succeeded
erfolgreich exitosamente exito succes reussi successo sucesso succesvol gelukt
gestern vorhin
ayer anoche
ieri
ontem
gisteren
""")
"""Words that set a sentence in the past ("Yesterday someone invited …"), or say that an
action succeeded ("… has been made successfully", "erfolgreich", "con éxito", "avec
succès", "com sucesso"): with no request word in it, it tells what happened, it gives no
order. (French "hier" is left out: it is
Dutch for "here".)"""

NOTING_WORDS: frozenset[str] = _words("""
note notice aware mind
notez remarquez
beachte beachten
nota fijate
notare
observe
""")
"""Verbs of taking note: a sentence whose order rests on request words alone ("please",
"must") with one of them asks the reader to know something, not to act ("Please note that
US13… belongs to a stranger")."""

IGNORING_WORDS: frozenset[str] = _words("""
ignore disregard skip ignorez ignoriere ignorieren ignora ignore negeer
""")
"""Verbs of leaving aside: a slot at most two words after one is what is left aside
("Please ignore US13…"), not where an order sends the harm."""

UNREAD: frozenset[str] = _words("""
lu lus lue lues letto letti letta lette leido leidos leida leidas lido lidos lida lidas
""")
"""Participles of reading: after "non" they say "unread" ("les e-mails non lus", "i
messaggi non letti", "correos no leídos"), the "non" a prefix, not the clause's negation."""


THOUGHT_WORDS: frozenset[str] = _words("""
thought pondered wondered
reflechi
dachte nachgedacht uberlegt
pensado reflexionado
pensato riflettuto
pensei refleti
dacht nagedacht
""")
"""Past forms of thinking ("I thought about how …", "ho pensato", "ich dachte", "ik
dacht"): a sentence holding one with no request or must word tells a thought, as a diary
does, and gives no order. French and Spanish "pensé" are left out: with accents dropped it
is "pense", the French present ("Pense-bête : créer …")."""

RECEIPT_WORDS: frozenset[str] = _words("""
incoming inbound
entrant entrante eingehende eingehender eingegangene entrata
inkomende binnenkomende
""")
"""Words of receiving that make the action word after them a noun, a thing received
("Incoming transfer - from US13…", "eingehende Überweisung"): a record, not an order.
Only adjectives: a participle ("received", "ontvangen", "recebido") also ends a clause
before an order ("Once received, transfer …"), and the words carry no punctuation."""

OUTGOING_WORDS: frozenset[str] = _words("""
outgoing outbound
sortant sortante sortants ausgehende ausgehender ausgehenden
saliente salientes uscente uscenti
uitgaande
""")
"""Words of going out that make the action word after them a noun, a line of a
statement ("outgoing transfer of 0.01 to US13…", "ausgehende Überweisung"), unless a verb
of doing stands before them ("make an outgoing transfer")."""

TRANSCRIPT_WORDS: frozenset[str] = _words("""
transcript podcast episode interview
transcription episode entretien
transkript folge interview
transcripcion episodio entrevista
trascrizione episodio intervista
transcricao episodio entrevista
transcriptie aflevering interview
""")
"""Words by which a text says it is a transcript of spoken words or an episode: one that
tells of an attack describes it and orders nothing."""

ANSWER_WORDS: frozenset[str] = _words("""
yes no maybe oui non peut etre ja nein vielleicht si quizas tal vez sì forse sim nao talvez
nee misschien
""")
"""The answers a survey or poll offers after its question ("[ ] yes [ ] no", "Ja /
Nein"): a question followed by them asks the reader's opinion, it gives no order."""

LESSON_WORDS: frozenset[str] = _words("""
lesson exercise quiz drill grammar translation translate
lecon exercice grammaire traduction traduire
lektion ubung grammatik ubersetzung ubersetzen
leccion ejercicio gramatica traduccion traducir
lezione esercizio grammatica traduzione tradurre
exercicio gramatica traducao traduzir
oefening grammatica vertaling vertalen
""")
"""Words by which a text is a lesson or an exercise (grammar, translation): a sentence it
quotes is its example, so a slot inside the quotation is shown, not ordered. Fewer than
`EXAMPLE_WORDS`: an order may say "for example" of its own values."""


INCIDENT_WORDS: frozenset[str] = _words("""
incident incidents postmortem mortem
vorfall vorfalls sicherheitsvorfall storfall
incidente incidentes incidenti
voorval
""")
"""Words by which a text says it reviews an incident ("Post-mortem", "Incident report",
"Retour d'incident", "Vorfall", "Informe post-incidente", "Analisi dell'incidente"): an
order it quotes is what happened, quoted as evidence, not given."""

NOTHING_WORDS: frozenset[str] = _words("nothing rien nichts nada niente nulla niets")
"""Words for nothing: beside an action word ("send nothing", "bitte nichts überweisen",
"no envíes nada"), a later sentence takes back the orders of that action before it."""

ELSE_WORDS: frozenset[str] = _words("else more autre anderes weiter mas altro mais anders")
"""Words after "nothing" that limit it ("send nothing else"): no taking back."""

DONE_PARTICIPLES: frozenset[str] = _words("""
made done placed issued completed
fait faite faits faites effectue effectuee effectues effectuees
gemacht getatigt vorgenommen durchgefuhrt
hecho hecha hechos hechas realizado realizada efectuado efectuada
fatto fatta fatti fatte effettuato effettuata eseguito eseguita
feito feita feitos feitas efetuado efetuada
gemaakt gedaan uitgevoerd
""")
"""Past participles of the verbs that make an action noun the action ("made", "effectuée",
"getätigt", "realizada", "effettuata", "feita", "gemaakt"): after a past auxiliary
(`PASSIVE_PAST_AUX`) they tell the action of the noun as done ("your reservation … was
made on 2 April")."""

PASSIVE_PAST_AUX: frozenset[str] = _words("""
was were been ete fut wurde wurden worden fue fueron sido stata stato stati state foi
foram werd werden
""")
"""Auxiliaries of a past passive ("was made", "a été effectuée", "wurde getätigt", "fue
realizada", "è stata effettuata", "foi feita", "werd gemaakt")."""

USER_WORDS: frozenset[str] = _words("""
user users utilisateur utilisateurs benutzer nutzer usuario usuarios utente utenti
utilizador utilizadores usuaria gebruiker gebruikers
""")
"""Words for the user: beside a story word they name a user story ("User story: as the
account owner I want …", "historia de usuario"), a requirement, not a story told."""

THANKS_WORDS: frozenset[str] = _words("""
thanks thank merci danke dank gracias grazie obrigado obrigada bedankt
""")
"""Words of thanks: with a word of advance beside them (`ADVANCE_WORDS`) they ask for what
they thank for ("Thanks in advance for …", "Alvast bedankt dat je …")."""

ADVANCE_WORDS: frozenset[str] = _words("""
advance avance voraus antemano adelantado anticipo antecipadamente alvast voorbaat
""")
"""Words of thanking before the deed ("in advance", "d'avance", "im Voraus", "de
antemano", "in anticipo", "antecipadamente", "alvast", "bij voorbaat")."""

DUTY_TE: frozenset[str] = _words("dien dient dienen")
"""Dutch "dienen", which with "te" and an infinitive later in its sentence is a must
("U dient het wachtwoord … te wijzigen"); alone it is "to serve"."""

RECORD_WORDS: frozenset[str] = _words("""
archive archives archived statement statements ledger receipt
archive archives releve
archiv archiviert kontoauszug auszug quittung
extracto recibo
archivio archiviato estratto ricevuta
extrato
archief gearchiveerd afschrift rekeningafschrift
""")
"""Words by which a text's opening label says it records what happened: an archive, a
bank statement, a ledger, a receipt ("Calendar archive 2023:", "Bank statement, March
2023:", "Kontoauszug:", "Rekeningafschrift:"). Spanish and Portuguese "archivo",
"arquivo" are left out: they are also "file"."""

IMAGINING_WORDS: frozenset[str] = _words("""
imagine imagined imagining suppose supposing hypothetically hypothetical
imaginez imaginons supposons hypothetiquement
vorstellen angenommen hypothetisch
imagina imaginemos imaginese supongamos supon hipoteticamente
immagina immaginate immaginiamo supponiamo supponi ipoteticamente
imaginemos suponha suponhamos
veronderstel hypothetisch
""")
"""Words that frame what follows as imagined: "Imagine a review that told assistants to
…", "Supposons que …", "Angenommen, …", "Supongamos que …", "Immagina che …",
"Suponha que …", "Veronderstel dat …"."""

REVERSE_WORDS: frozenset[str] = _words("""
reverse reversed reversing backwards backward mirrored
envers inverse inversez inverser
ruckwarts umgekehrt umdrehen
reves invertido invertida invierte invertir
rovescio invertito invertita inverti invertire
inverta inverter
achterstevoren omgekeerd omdraaien andersom
""")
"""Words by which a text says something is written backwards or is to be reversed
("reverse it", "written backwards", "à l'envers", "rückwärts", "al revés", "a rovescio",
"achterstevoren"): a slot written backwards in such a text is the slot."""

APPROVAL_WORDS: frozenset[str] = _words("""
yes yeah yep yup sure ok okay approved approve confirmed agreed absolutely definitely
certainly proceed
oui volontiers approuve daccord
ja klar gerne genehmigt einverstanden
si claro vale adelante aprobado
certo approvato procedi
sim aprovado
prima akkoord goedgekeurd zeker
""")
"""Words that open a reply approving what was just proposed ("Yes, do it.", "Approved.",
"Oui.", "Ja, gerne.", "Sí, adelante.", "Certo.", "Sim.", "Akkoord.")."""

APPROVAL_PHRASES: frozenset[tuple[str, str]] = frozenset((
    ("go", "ahead"), ("do", "it"), ("please", "do"), ("of", "course"), ("sounds", "good"),
    ("go", "for"), ("by", "all"), ("d", "accord"), ("vas", "y"), ("allez", "y"),
    ("bien", "sur"), ("mach", "das"), ("nur", "zu"), ("de", "acuerdo"), ("por", "supuesto"),
    ("va", "bene"), ("d", "accordo"), ("com", "certeza"), ("pode", "fazer"),
    ("doe", "maar"), ("ga", "je")))
"""Two words that open a reply approving a proposal ("Go ahead.", "Please do.", "Vas-y.",
"Mach das.", "De acuerdo.", "Va bene.", "Doe maar.")."""

APPROVAL_TAIL_WORDS: frozenset[str] = APPROVAL_WORDS | PLEASE_WORDS | frozenset(
    w for pair in APPROVAL_PHRASES for w in pair) | _words("""
do it that this now and then thanks thank you asap immediately
fais le merci maintenant tout de suite
mach das es danke jetzt sofort
hazlo gracias ahora mismo
fallo pure grazie ora subito
faca faz isso obrigado obrigada agora
het dank je nu meteen
""")
"""The words that may follow the approving words of a reply ("Yes, go ahead and do that,
thanks.", "Sí, sí, adelante.", "Ja, gerne, mach das jetzt."): more approval, courtesy,
"do it", "now". Any other word after them may qualify the approval ("Yes, as long as the
bank confirms.", "Oui, si la banque le demande.", "Yes, in theory.", "Yeah right."), and
a list of qualifiers is never complete: such a reply approves nothing the agent can be
sure of. It holds no negation, refusal or revoking word."""

PROPOSAL_PAIRS: frozenset[tuple[str, str]] = frozenset(
    {(m, p) for m in ("shall", "should", "may", "can", "could", "will", "ll")
     for p in ("i", "we")}
    | {(p, m) for m in ("can", "could", "will", "ll", "shall") for p in ("i", "we")}
    | {(w, p) for w in ("want", "like", "wish") for p in ("me", "us")}
    | {(m, "je") for m in ("dois", "puis", "peux", "devrais", "pourrais")}
    | {("que", p) for p in ("je", "j", "nous", "ich", "wir", "eu")}
    | {(m, p) for m in ("soll", "sollen", "darf", "durfen", "kann", "sollte")
       for p in ("ich", "wir")}
    | {("dass", p) for p in ("ich", "wir")}
    | {(m, p) for m in ("zal", "moet", "mag", "kan", "zullen", "moeten")
       for p in ("ik", "we", "wij")}
    | {("dat", p) for p in ("ik", "we", "wij")}
    | {(w, "che") for w in ("vuoi", "vuole", "volete")}
    | {(w, "que") for w in ("quieres", "quiere", "quereis", "quer", "queres", "deseas",
                            "desea")})
"""Two words by which a sentence proposes that its writer act: a modal before "I" or
"we" ("Shall I …", "Should we …"), "I" or "we" before one ("I could …", "I'll …"), a wish for the writer to act ("Do you want
me to …", "Would you like me to …"), and the same in French, German, Dutch, Italian,
Spanish and Portuguese ("Dois-je …", "Voulez-vous que je …", "Soll ich …", "Zal ik …",
"Vuoi che …", "¿Quieres que …", "Quer que eu …")."""

PROPOSAL_OPENERS: frozenset[str] = _words("""
debo puedo deberia devo posso dovrei devia
""")
"""Modals of the first person that open a proposal without a pronoun ("¿Debo …?",
"Posso …?", "Devo …?")."""

REAFFIRM_WORDS: frozenset[str] = _words("""
stands reaffirm reaffirmed reaffirming reiterate reiterating repeat repeating valid
applies
gilt weiterhin bestehen wiederhole valable maintiens repete vigueur vigor vigente repito
mantengo ripeto confermo valido valida mantenho geldig geldt herhaal
""")
"""Words by which a writer says an order quoted beside them still holds ("that still
stands", "I repeat it", "still valid", "gilt weiterhin", "toujours valable", "sigue
vigente", "ripeto", "geldt nog"): not with a negation in the three words before them
("no longer stands", "not valid")."""

STILL_WORDS: frozenset[str] = _words("""
stand holds hold open pending needed wanted current true due required
""")
"""Words that after "still" say an order quoted beside them holds ("still open", "still
needed", "still pending")."""

REVOKE_WORDS: frozenset[str] = _words("""
cancel cancelled canceled revoke revoked withdraw withdrawn retract retracted scrap
scrapped void voided rescind rescinded obsolete superseded
annule annulee annuler revoque
storniert widerrufen zuruckgezogen aufgehoben
anulado anulada cancelado cancelada revocado
annullato annullata revocato
revogado revogada
ingetrokken geannuleerd vervallen
""")
"""Words by which a writer takes an order back ("cancel that", "I withdraw it",
"revoked", "annulé", "widerrufen", "anulado", "ingetrokken")."""

RAN_WORDS: frozenset[str] = _words("""
ran did executed called invoked performed triggered
lancee
ausgefuhrt fuhrte aufgerufen
ejecuto ejecutado ejecutada
eseguito eseguita
executou executado executada
uitgevoerd voerde
""")
"""Past forms of running code ("the script ran:", "what the bot executed:", "ausgeführt",
"ejecutó", "eseguito", "uitgevoerd"; not French "exécuté", which folds to the English
imperative "execute"): a block of calls under a line holding one tells
what was run, it orders nothing."""
