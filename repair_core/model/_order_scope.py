"""Whether an order a text gives is for the next-session agent to carry out now: not an
order addressed by name to another person or by title to a role or a team, not one whose
condition the text shows unmet,
not a line of a text that lists what is forbidden or blocked or that answers questions
about an attack, not a filter's rule over what it quotes nor a test's check, not one under a
condition on a quantity of the workspace the text does not tell (`_agentdojo_goals` asks these of every sentence it reads as an order).

The words are a language's general words (greetings, openers, words of prohibition,
comparison and condition, the labels of a question-and-answer text) in the languages the
agent reads; none is the wording of a particular text. Each check is one pass of a fixed
pattern without nested repetition: linear in the text's length.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from ._order_words import plain

__all__ = ["capitalised_words", "addressed_to_other", "addressed_to_role", "role_header",
           "has_blank", "conditional",
           "threshold_fails", "stated_figures", "superlative", "listed_spans", "answers_questions",
           "states_filter_rule", "states_check", "state_unknown", "PROHIBITION_WORDS"]


def _words(text: str) -> frozenset[str]:
    return frozenset(plain(w) for w in text.split())


AGENT_NAMES: frozenset[str] = _words("""
assistant assistants agent bot ai model copilot assistent assistente asistente
""")
"""Words by which a text addresses the agent itself ("Assistant, send …")."""

OPENERS: frozenset[str] = _words("""
also now then so ok okay first next finally lastly again today tomorrow tonight yes no
well right sure note reminder urgent important update fyi ps hi hello hey dear thanks
however meanwhile besides otherwise anyway actually instead afterwards later please
alors puis ensuite enfin aussi maintenant bonjour salut merci oui cher chere
also dann jetzt danach zuerst hallo danke ja liebe lieber
entonces luego ahora tambien hola gracias si querido querida
allora poi ora anche ciao grazie caro cara
entao depois agora tambem ola obrigado obrigada sim
dan nu ook daarna hallo dank ja beste
""")
"""Words that open a sentence before a comma without naming anyone ("Also, send …",
"Now, …", "Dear, …"), every language read."""

_FOR_AGENT = AGENT_NAMES | _words("user utilisateur benutzer nutzer usuario utente utilizador "
                                 "usuario gebruiker")
"""A role in brackets by which a name is the user or the agent, not someone else."""

GREETINGS: frozenset[str] = _words("""
hi hello hey dear cher chere hallo liebe lieber hola querido querida ciao caro cara ola
beste
""")
"""Greetings that may stand before the name a sentence is addressed to ("Hi Bob, …")."""

PROHIBITION_WORDS: frozenset[str] = _words("""
forbidden prohibited banned blocked blocklist blacklist denylist disallowed
interdit interdits interdite interdites prohibe bloque bloques
verboten untersagt gesperrt gesperrte sperrliste
prohibido prohibida prohibidos bloqueado bloqueados bloqueada
vietato vietata vietati proibito bloccato bloccati
proibido proibida proibidos
verboden geblokkeerd geblokkeerde
""")
"""Words by which a text lists what must not be done or paid ("forbidden actions:",
"Blocked IBANs:"): a slot listed under one is a thing to avoid, not an order."""

CONDITION_WORDS: frozenset[str] = _words("""
if unless once after until provided when only
si sauf quand lorsque apres seulement
wenn falls sobald nachdem nur erst
si cuando solo solamente despues
se quando solo soltanto dopo
se quando somente apenas depois
als zodra nadat alleen pas
""")
"""Words that put an order under a condition ("only once the user signs", "sobald")."""

_LOWER = r"(?:below|under|beneath|less than|fewer than|lower than|cheaper than|moins de|en dessous de" \
    r"|unter|weniger als|menos de|por debajo de|meno di|sotto|abaixo de|onder|minder dan)"
_UPPER = r"(?:above|over|more than|higher than|exceeds?|plus de|au-dessus de|uber|mehr als" \
    r"|mas de|por encima de|piu di|sopra|acima de|boven|meer dan)"
_NUMBER = r"(\d+(?:[.,]\d+)?)"
_ZERO_WORDS = ("zero", "null", "cero", "nul")
"""The word for zero in the languages read ("zéro" and Italian and Portuguese "zero" fold
to "zero"): a bound written with it is a bound of 0 ("menos de zero mensagens")."""
_BOUND = r"(\d+(?:[.,]\d+)?|(?<![^\W_])(?:" + "|".join(_ZERO_WORDS) + r")(?![^\W_]))"
_UNIT = r"[ \t]*([$€£%]|[^\W\d_]+)"
_THRESHOLD = re.compile(rf"(?<![^\W_])(?:({_LOWER})|{_UPPER})[ \t]+[$€£]?[ \t]*{_BOUND}{_UNIT}")
_STATED = re.compile(rf"(?<![\d.,]){_NUMBER}{_UNIT}")
_BARE = re.compile(rf"(?<![^\W_])([^\W\d_]+)[ \t]+[$€£]?[ \t]*{_NUMBER}(?=[ \t]*(?:[.!?;]|$))",
                   re.M)
_WORD_BEFORE = re.compile(r"([^\W\d_]+)[ \t]*$")
_BLANK = re.compile(r"_{3,}")
_ADDRESSED = re.compile(r"^[ \t]*(?:([^\W\d_]+)[ \t]+)?([^\W\d_]+)[ \t]*"
                        r"(?:,|\(([^()\n]{1,40})\)[ \t]*[,:])")
_CAPITALISED = re.compile(r"(?<![^\W_])[A-Z][a-z]+(?![^\W_])")
_QUESTION_LABEL = re.compile(
    r"^[ \t]*(?:q|question|faq|frage|f|pregunta|p|domanda|d|pergunta|vraag|v)[ \t]*:", re.M)
_ANSWER_LABEL = re.compile(
    r"^[ \t]*(?:a|answer|r|reponse|antwort|respuesta|risposta|resposta|antwoord)[ \t]*:",
    re.M)


def capitalised_words(text: str) -> frozenset[str]:
    """The words `text` (as written) spells with a capital and small letters, folded."""
    return frozenset(plain(w) for w in _CAPITALISED.findall(text))


def addressed_to_other(sentence: str, capitalised: frozenset[str],
                       known: Iterable[frozenset[str]]) -> bool:
    """The folded `sentence` opens by naming someone before a comma ("Bob, please …",
    "Hi Marco, could you …"), or before a role in brackets and a colon or comma ("Priya
    (finance): please …"): a word the text writes capitalised that is no word the agent
    knows (`known`), no opener, greeting or word for the agent itself. An order so
    addressed is that person's to carry out, not the agent's."""
    m = _ADDRESSED.match(sentence)
    if m is None or (m.group(1) is not None and m.group(1) not in GREETINGS):
        return False
    name = m.group(2)
    if name not in capitalised or name in AGENT_NAMES or name in OPENERS:
        return False
    if m.group(3) is not None and not _FOR_AGENT.isdisjoint(re.findall(r"[^\W_]+", m.group(3))):
        return False  # "Emma (user): …", "Max (assistant): …" speak to the agent
    return not any(name in words for words in known)


ROLE_WORDS: frozenset[str] = _words("""
head administrator administrators admin manager managers director officer officers clerk
clerks team teams office department desk helpdesk servicedesk division staff secretary
secretariat accountant
accountants accounts committee board colleague colleagues editor supervisor
equipe bureau departement responsable directeur directrice administrateur
secretariat comptabilite collegue collegues
abteilung buro sachbearbeitung leiter leiterin leitung verwaltung sekretariat buchhaltung
kollege kollegin kollegen referat
equipo oficina departamento jefe jefa administrador secretaria contabilidad companero
companera
squadra ufficio reparto responsabile direttore direttrice capo amministratore segreteria
contabilita collega colleghi
equipa escritorio setor responsavel diretor diretora chefe contabilidade colega
afdeling kantoor verantwoordelijke hoofd beheerder secretariaat boekhouding redacteur
""")
"""Words by which a text names a person by a role or a group by its title ("Head of
Accounts", "the IT administrator", "das Reisebüro-Team", "the Records Office"), every
language read. None is the user's or the agent's."""

ADDRESS_WORDS: frozenset[str] = _words("""
to for attn attention fao pour an fur para per aan voor
""")
"""Prepositions by which a note is addressed to someone ("Memo to …", "For the …",
"Hinweis an …", "Nota para …", "Notitie voor …"), every language read. The Romance "a"
and "à" are left out: folded, they are the English article ("A new team policy: …")."""

_HEAD = re.compile(r"^[^,:(\n]{1,80}")
_BRACKETED = re.compile(r"\(([^()\n]{1,40})\)[ \t]*[,:]")
_ROLE_HEADER = re.compile(r"^[ \t]*([^\W\d_]+)[ \t]*:[ \t]*([^\n:]{1,60})$")


_OF = _words("of de des du der di del della do da van")
"""Words that join a role to what it is of ("Head of Accounts", "escritório de viagens")."""


def _names_a_role(words: list[str], last: bool = False) -> bool:
    """`words` name a role or a team and not the agent or the user; when `last`, the role
    word ends them or is followed only by what it is of, at most two words ("the Records
    Office", "o escritório de viagens"; not "the office supplies")."""
    if not _FOR_AGENT.isdisjoint(words):
        return False
    if not last:
        return not ROLE_WORDS.isdisjoint(words)
    j = max((k for k, w in enumerate(words) if w in ROLE_WORDS), default=-1)
    return j >= 0 and (j == len(words) - 1 or (words[j + 1] in _OF and len(words) - j <= 4))


def addressed_to_role(sentence: str, known: Iterable[frozenset[str]]) -> bool:
    """The folded `sentence` opens by addressing a role or a team by its title before a
    comma, a colon or a bracket: a preposition of address (`ADDRESS_WORDS`) among its
    first three words, none of the words before it the agent's own (`known`: an action or
    order word), and a role word ending it (`ROLE_WORDS`), no word for the agent or the
    user ("For the IT administrator: …", "Memo to the Records Office, …", "Hinweis an das
    Reisebüro-Team (…), …"; not "For the music streaming service, …", whose "service" is
    a thing). A role in brackets right after the head, before the colon or comma, may end
    it ("To the IT helpdesk (human staff): …"). An order so addressed is
    that colleague's to carry out."""
    m = _HEAD.match(sentence)
    if m is None or m.end() >= len(sentence):
        return False
    words = _ALNUM.findall(m.group())
    b = _BRACKETED.match(sentence, m.end())
    bracketed = _ALNUM.findall(b.group(1)) if b is not None else []
    if len(words) > 8:
        return False
    for i, w in enumerate(words[:3]):
        if w in ADDRESS_WORDS:
            # "To the IT helpdesk (human staff): …": the role may end in the brackets
            return _names_a_role(words[i + 1:], last=True) or bool(bracketed) and (
                _names_a_role(words[i + 1:] + bracketed, last=True))
        if any(w in k for k in known):
            return False
    return False


def role_header(sentence: str) -> bool:
    """The folded `sentence` is a header line addressing a role or a team by its title: a
    preposition of address before a colon and a role word after it ("To: Head of
    Accounts", "An: Buchhaltung", "Aan: afdeling Financiën"). A memo so headed addresses
    everything after it to that colleague."""
    m = _ROLE_HEADER.match(sentence)
    if m is None or m.group(1) not in ADDRESS_WORDS:
        return False
    words = _ALNUM.findall(m.group(2))
    return len(words) <= 6 and _names_a_role(words)


def has_blank(folded: str) -> bool:
    """The text holds a field left to fill: three or more underscores ("Signature: ____")."""
    return _BLANK.search(folded) is not None


def conditional(tokens: list[str]) -> bool:
    """The sentence's words put something under a condition (`CONDITION_WORDS`)."""
    return not CONDITION_WORDS.isdisjoint(tokens)


def stated_figures(folded: str) -> dict[str, tuple[float, float]]:
    """The smallest and largest figure `folded` states in each unit ("210 euros", "15 %"),
    leaving out the bounds of its comparisons ("below 50 euros" states no price); a figure
    with no unit that ends its sentence is kept under "@" and the word before it ("It costs
    180." under "@costs")."""
    bounds = {m.start(2) for m in _THRESHOLD.finditer(folded)}
    out: dict[str, tuple[float, float]] = {}
    stated = [(s.start(1), s.group(1), s.group(2)) for s in _STATED.finditer(folded)]
    # a figure with no unit that ends its sentence is kept under the word before it
    # ("It costs 180."): a bound set after the same word ("if it costs under 40 euros")
    # measures the same thing
    stated += [(b.start(2), b.group(2), "@" + b.group(1)) for b in _BARE.finditer(folded)]
    for start, number, unit in stated:
        if start in bounds:
            continue
        value = _number(number)
        low, high = out.get(unit, (value, value))
        out[unit] = (min(low, value), max(high, value))
    return out


def threshold_fails(sentence: str, figures: dict[str, tuple[float, float]]) -> bool:
    """The folded `sentence` sets a bound ("below 50 euros", "more than 10 %") that a
    figure with the same unit the text states (`stated_figures`) does not meet ("… Checked
    this morning: 210 euros a night"), or a figure with no unit stated after the word the
    bound follows ("if it costs under 40 euros … It costs 180.")."""
    for m in _THRESHOLD.finditer(sentence):
        bound, found = _number(m.group(2)), figures.get(m.group(3))
        if found is None and (before := _WORD_BEFORE.search(sentence[max(0, m.start() - 40):m.start()])):
            found = figures.get("@" + before.group(1))
        if found is None:
            continue
        if (m.group(1) is not None and found[1] >= bound) or (
                m.group(1) is None and found[0] <= bound):
            return True
    return False


def listed_spans(folded: str) -> list[tuple[int, int]]:
    """Where `folded` lists what is forbidden or blocked, in order and not overlapping: from
    a line whose label (the words before its colon) holds a word of prohibition
    ("Forbidden actions:", "Blocked IBANs (never pay):", "proxy_blocklist:") to the next
    empty line or the text's end."""
    spans: list[tuple[int, int]] = []
    for m in _LABEL.finditer(folded):
        if (spans and m.start() < spans[-1][1]) or PROHIBITION_WORDS.isdisjoint(
                _ALNUM.findall(m.group(1))):
            continue  # a label inside a list already found extends nothing
        end = folded.find("\n\n", m.end())
        spans.append((m.start(), len(folded) if end < 0 else end))
    return spans


_LABEL = re.compile(r"^([^:\n]{1,80}):", re.M)
_ALNUM = re.compile(r"[^\W_]+")


def _number(text: str) -> float:
    return 0.0 if text in _ZERO_WORDS else float(text.replace(",", "."))


def answers_questions(text: str) -> bool:
    """The text is questions and answers: a line labelled as a question ("Q:", "Frage:")
    and one labelled as its answer ("A:", "Antwort:"), or a text headed as answers to
    frequent questions ("FAQ:", "FAQ —", "Häufige Fragen:") that asks a question. What an
    answer says is explained, not ordered."""
    if _FAQ_HEADING.match(text) is not None and "?" in text:
        return True
    return _QUESTION_LABEL.search(text) is not None and _ANSWER_LABEL.search(text) is not None


_FAQ_HEADING = re.compile(
    r"[ \t\n]*(?:faq|f\.a\.q\.?|foire aux questions|haufige fragen|preguntas frecuentes"
    r"|domande frequenti|perguntas frequentes|veelgestelde vragen)[ \t]*[:\u2014\u2013-]")
"""The heading of a text of answers to frequent questions, every language read (folded)."""


SUPERLATIVES: frozenset[str] = _words("""
most least best worst highest lowest cheapest dearest priciest biggest largest
plus moins meilleur meilleure
meisten teuerste teuersten billigste billigsten beste besten hochste
mas menos mejor peor
piu meno migliore peggiore
mais menos melhor pior
meest minst duurste goedkoopste beste hoogste
""")
"""Words that pick one thing out of many ("the most expensive", "le plus cher", "il più
caro", "o mais caro", "die teuerste", "het duurste"), every language read."""


def superlative(words: Iterable[str]) -> bool:
    """Some of the folded `words` is a superlative (`SUPERLATIVES`)."""
    return not SUPERLATIVES.isdisjoint(words)


FILTER_WORDS: frozenset[str] = _words("""
filter filters filtered spam junk quarantine quarantined block blocks dlp firewall
filtre filtres filtrer indesirable indesirables quarantaine bloquer bloquez bloque
spamfilter filtern quarantane blockieren blockiere blockiert sperren sperre sperrt
filtro filtros filtrar cuarentena bloquear bloquea bloquee
filtrare quarantena bloccare blocca blocchi
quarentena bloqueie
filteren blokkeer blokkeren blokkeert
""")
"""Words of a rule that stops or sets aside messages ("spam filter", "quarantine",
"block"), every language read."""

MATCH_WORDS: frozenset[str] = _words("""
containing contains contain matching matches match mentioning mentions asking
contenant contient contiennent mentionnant demandant
enthalt enthalten enthaltend erwahnt erwahnen
contenga contiene contengan conteniendo mencione pidiendo
contenente contengono chiede chiedono
contenha contem contendo mencione pedindo
bevat bevatten vermeldt vraagt
""")
"""Words by which a filter's rule says which messages it catches ("any message containing
…", "qui contient …", "die … enthält"), every language read."""


def states_filter_rule(tokens: list[str]) -> bool:
    """The sentence's folded words state a rule that filters, blocks or quarantines the
    messages matching what it quotes or names ("Spam rule: quarantine any mail containing
    '…'", "block every message that mentions …"): what it names is caught, not ordered."""
    return not FILTER_WORDS.isdisjoint(tokens) and not MATCH_WORDS.isdisjoint(tokens)


_CHECK = re.compile(r"^[ \t]*(?:assert|expect[ \t]*\(|self\.assert)|!==?|(?<![=!<>])==(?!=)")


def states_check(sentence: str) -> bool:
    """The sentence is a test's check: it opens with an assertion (`assert …`,
    `expect(…)`, `self.assertEqual(…)`) or compares with `==` or `!=`. It says what must
    hold, it orders nothing, nor does the sentence before reach into it."""
    return _CHECK.search(sentence) is not None


_EMPTY = _words("empty vide vides vacio vacia vacios vuoto vuota vuoti vazio vazia leeg")
_EMPTY_GERMAN = _words("leer leere leeren")
"""German "leer" is also Spanish for "to read": it is only empty before a verb of being."""
_BEING_GERMAN = _words("ist sind war bleibt")


def state_unknown(sentence: str, tokens: list[str],
                  figures: dict[str, tuple[float, float]]) -> bool:
    """A condition on a quantity of the workspace that the text does not tell: a bound
    ("over 10 million dollars", "unter 20 Euro") that no figure the text states measures
    (`stated_figures`), or emptiness ("if the channel is empty", "si el canal está vacío",
    "wenn der Ordner leer ist"). The agent cannot check it from the text: an order under
    it is not one to carry out as given."""
    if not _EMPTY.isdisjoint(tokens) or any(
            w in _EMPTY_GERMAN and nxt in _BEING_GERMAN for w, nxt in pairwise(tokens)):
        return True
    for m in _THRESHOLD.finditer(sentence):
        found = figures.get(m.group(3))
        if found is None and (before := _WORD_BEFORE.search(sentence[max(0, m.start() - 40):m.start()])):
            found = figures.get("@" + before.group(1))
        if found is None:
            return True
    return False
