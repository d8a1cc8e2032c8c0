"""A text's own words: what `verify.unexplained-words` asks a record's lineage to explain.

A record an agent writes from its inputs says what they say, in their words or in forms
of them. A record whose words none of its inputs holds says something its lineage does
not record where it came from: a paraphrase of a fault written with no edge to it shares
no token with the fault and no word with the inputs it cites ("settle the small courier
charge through the link from that message", written from a parcel record that says
none of it).

A text's own words (`own_words`) are its words of `MIN_LETTERS` letters or more, read in
canonical text, stemmed (`stem`), leaving out what other rules read or what says nothing
of its own: function words of the languages the lexical judge reads (`FUNCTION_WORDS`,
with the ordinary words of `_stems`), month names (the date rules read days), the words
of numbers (`_number_words`' tables: the amount and count rules read them), and every
whitespace-separated chunk holding a digit, an `@`, a `/` or a dot inside a word (numbers,
amounts, accounts, URLs, hosts, e-mail addresses and file names are the number and token
rules'). A word is explained by a text (`WordBits`) when the text holds a word of the
same stem, or one whose stem and the word's share a start of `PREFIX_LETTERS` letters or
more that is the whole of one of them ("weekly" by "week", "charging" by "charges").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from .._canonical import canonical
from ._dates import month_names
from ._number_words import table_words
from ._shingles import words
from ._stems import ORDINARY_STEMS, stem

__all__ = ["FUNCTION_WORDS", "MIN_LETTERS", "PREFIX_LETTERS", "WordBits", "own_words",
           "text_stems"]

MIN_LETTERS = 3
"""The fewest letters of a word read as the text's own: shorter ones are function words
or abbreviations in every language read."""
PREFIX_LETTERS = 4
"""The fewest letters of a stem another stem may start with and still be the same word:
a light stemmer leaves "weekli" of "weekly" and "week" apart."""

FUNCTION_WORDS = """
about above after again against also although among and another any anyone anything are
because been before being below between both but can cannot could did does doing done down
during each either else even ever every few for from further had has have having her here
hers herself him himself his how however into its itself just least less let lets like
may more most much must myself near neither nor not now off once only onto other others
ought our ours ourselves out over own per same shall she should since some such than that
the their theirs them themselves then there therefore these they this those though through
thus till too toward towards under until upon very via was were what whatever when
whenever where whether which while who whoever whom whose why will with within without
would yet you your yours yourself yourselves
aber alle allem allen aller alles als also am an auch auf aus bei beim bin bis bist da
damit dann darauf darum das dass dem den denn der des dessen dich die dies diese diesem
diesen dieser dieses dir doch dort durch ein eine einem einen einer eines er es etwa euch
euer für gegen hab habe haben hat hatte hier ich ihm ihn ihnen ihr ihre ihrem ihren ihrer
im in ins ist jede jedem jeden jeder jedes jetzt kann kein keine keinem keinen man mich
mir mit muss nach nicht noch nur ob oder ohne schon sehr sein seine seinem seinen seiner
sich sie sind so soll über um und uns unser unsere unter vom von vor war waren was weil
wenn werden wie wieder wir wird wo zu zum zur zwischen
alors au aucun aussi autre aux avec avoir avant ce ceci cela celle celui ces cet cette
chez comme dans de des donc dont du elle elles en encore est et été être eux fait il ils
je la le les leur leurs lui mais me même mes moi mon ne nos notre nous on ont ou où par
pas pendant peu plus pour quand que quel quelle qui sa sans se ses si son sont sous sur
ta te tes toi ton tous tout toute toutes très tu un une vos votre vous
al algo algunos ante antes como con contra cual cuando de del desde donde durante el ella
ellas ellos en entre era eres es esa ese eso esta este esto estos está están fue ha han
hasta hay la las le les lo los más me mi mis muy nada ni no nos nosotros nuestra nuestro
o os para pero poco por porque que quien se sea ser si sin sobre son su sus también te
tiene todo todos tu tus un una uno unos usted ya
agli ai al alla alle allo anche che chi ci come con cui da dal dalla dalle degli dei del
della delle dello di dove ed era gli ha hanno il in io la le lei lo loro lui ma mi mia
mio nei nel nella non noi per più però quale quando quella quello questa questo se sei
si sono su sua sue sui sul sulla suo suoi tra tu tua tuo una uno voi
ao aos as com como da das de dela dele do dos ela elas ele eles em entre era essa esse
esta este eu foi há isso isto já lhe mais mas me mesmo meu minha muito na nas nem no nos
não nós num numa os ou para pela pelas pelo pelos por quando que quem se sem ser seu
seus sua suas só também te tem tu um uma você
aan al als bij dan dat de den der deze die dit door een en er haar had heb hebben heeft
hem het hier hij hoe hun ik in is je kan maar me meer men met mij mijn na naar niet nog
nu of om ons onder ook op over te tot uit van veel voor want was wat we wel werd wie wij
worden zal ze zich zij zijn zo zonder
alla att av bara blir de dem den denna deras dess det detta dig din ditt du efter ej en
er ett för från han har hennes henne hon hos här icke inte jag kan man med mig min mina
mitt mot må ned noe noen når och om oss på sin sina sitt skal skulle som så til till
under upp ut var vara vi vil ville vår og ikke meg deg jeg hun ham det af efter også
aby ale bez bo być był była było co czy dla do go ich ja jak jako jego jej jest jeszcze
już ku lub ma mi mnie na nad nie niż od oraz po pod przez przy się są ta tak także te
tego tej ten też to tu tym tylko wiec więc za ze że
"""
"""Function words of the languages the lexical judge reads (English, German, French,
Spanish, Italian, Portuguese, Dutch, the Scandinavian languages, Polish): articles,
pronouns, auxiliaries, prepositions and conjunctions, which any text may add or drop."""

_NOT_OWN_CHUNK = re.compile(r"\d|@|/|\w\.\w|\[\.\]|hxxp", re.UNICODE)
"""A chunk of a text holding a digit, an `@`, a `/`, a dot inside a word or a defanged
dot or scheme: a number, amount, account, URL, host, address or file name, which the
number and token rules read."""


@cache
def _left_out() -> frozenset[str]:
    """The stems `own_words` leaves out: function and ordinary words, month names and
    the words of numbers."""
    said = ({canonical(w) for w in FUNCTION_WORDS.split()} | month_names()
            | table_words())
    return frozenset(stem(w) for w in said) | ORDINARY_STEMS


def own_words(text: str, memo: dict[str, str] | None = None) -> dict[str, str]:
    """The stems of `text`'s own words (see the module), each with its first word as
    canonical text writes it, in the text's order. `memo`: word -> stem, filled as it
    goes.

    >>> list(own_words("To-do: settle the £1.99 charge at pay.example/x via the link"))
    ['settl', 'charg', 'link']
    """
    left_out = _left_out()
    out: dict[str, str] = {}
    for chunk in canonical(text).split():
        if _NOT_OWN_CHUNK.search(chunk):
            continue
        for w in words(chunk):
            if len(w) < MIN_LETTERS or not w.isalpha():
                continue
            s = _stem(w, memo)
            if s not in left_out:
                out.setdefault(s, w)
    return out


def text_stems(text: str, memo: dict[str, str] | None = None) -> frozenset[str]:
    """The stems of every word of `text` (canonical, split at underscores too: a slot
    key's words are words), what may explain another text's own words."""
    return frozenset(_stem(w, memo) for w in words(text.replace("_", " ")))


def _stem(w: str, memo: dict[str, str] | None) -> str:
    if memo is None:
        return stem(w)
    s = memo.get(w)
    if s is None:
        s = memo[w] = stem(w)
    return s


class WordBits:
    """A bit for each of some stems, and which of them a text's stems explain: the same
    stem, or a stem that starts with one of `PREFIX_LETTERS` letters or more, or a start
    of `PREFIX_LETTERS` letters or more of one.

    >>> bits = WordBits(["weekli", "charg"])
    >>> bits.explained(text_stems("one week, charges due")) == bits.bit["weekli"] | bits.bit["charg"]
    True
    """

    def __init__(self, stems: Iterable[str]) -> None:
        self.bit: dict[str, int] = {}
        """Stem -> its bit."""
        for s in stems:
            self.bit.setdefault(s, 1 << len(self.bit))
        self._starts: dict[str, int] = {}
        """Each start of `PREFIX_LETTERS` letters or more, shorter than the whole, of the
        stems -> the bits of the stems it starts."""
        for s, b in self.bit.items():
            for k in range(PREFIX_LETTERS, len(s)):
                self._starts[s[:k]] = self._starts.get(s[:k], 0) | b

    def explained(self, stems: Iterable[str]) -> int:
        """The bits of the stems that `stems` (a text's, `text_stems`) explain."""
        bit, starts = self.bit, self._starts
        bits = 0
        for s in stems:
            bits |= bit.get(s, 0)
            if len(s) >= PREFIX_LETTERS:
                bits |= starts.get(s, 0)
                for k in range(PREFIX_LETTERS, len(s)):
                    bits |= bit.get(s[:k], 0)
        return bits
