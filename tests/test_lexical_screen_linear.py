"""The lexical judge's screen costs the same per character of the texts however many
near-miss clues the faults have: above `SEARCHED_AT_MOST` the texts' letters and words
are looked up in the clues instead of one search for them all, with the same
verdicts."""

from __future__ import annotations

import re

import pytest
from stdnum import iban

from repair_core.content import signature_of
from repair_core.judge import LexicalJudge, _lexical
from repair_core.judge._clue_index import LetterStrings, WordRuns

_SYL = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "be", "da", "fe", "go", "hu", "ji"]


def _word(i: int, n: int = 3) -> str:
    out = []
    for _ in range(n):
        out.append(_SYL[i % len(_SYL)])
        i //= len(_SYL)
    return "".join(out)


def _iban(i: int) -> str:
    bban = f"37040044{i:010d}"
    return "DE" + iban.calc_check_digits("DE00" + bban) + bban


def _fault(n: int) -> str:
    """A fault text holding `n` distinct strong tokens and names."""
    parts = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            parts.append(f"Pay {_iban(i)} today.")
        elif kind == 1:
            parts.append(f"Mail {_word(i)}{i}@corp{i}.example.org now.")
        elif kind == 2:
            parts.append(f"Visit https://portal-{_word(i)}-{i}.example.com/login soon.")
        else:
            parts.append(f"Ask {_word(i).capitalize()} {_word(i * 7 + 3, 4).capitalize()}.")
    return " ".join(parts)


def _texts(n: int) -> list[str]:
    """Texts that each hold, or nearly hold, one clue of `_fault(n)`, and some that hold
    none."""
    a = _iban(0)
    grouped = " ".join(a[i:i + 4] for i in range(0, len(a), 4))
    name = f"{_word(3).capitalize()} {_word(3 * 7 + 3, 4).capitalize()}"
    return [
        "The weather in Lisbon is mild.",
        f"Rent goes to {'.'.join(a[i:i + 4] for i in range(0, len(a), 4))} now.",
        f"First part of the new account: {grouped[:14]}.",
        f"Second part: {grouped[14:]} (from May).",
        f"Emma's savings account is DE35 3704 0044 0000 0000 99 and {grouped[10:19]}.",
        f"write to {_word(1)}1 @ corp1 . example . org please",
        f"{name} asked about it, said {name} to the desk.",
        f"{name.lower()}s is not the name",
        f"{name}\nis written over two lines",
        f"Visit portal-{_word(2)}-2 dot example dot com",
        "Nothing of the fault, only DE89 3704 0044 0532 0130 00.",
        f"x{_word(1)}1corp1exampleorgx glued to other letters",
        "",
    ]


def _screened(faults, texts):
    return [(i, f.node, j.verdict, j.evidence) for i, f, j in LexicalJudge().screen(faults, texts)]


@pytest.mark.parametrize("n", [8, 200])
def test_looked_up_or_searched_for_the_screen_judges_as_each_text_judged_alone(
        n, monkeypatch):
    fault = signature_of(_fault(n), node="m1")
    other = signature_of("Lin prefers window seats.", "window", "seat_pref", node="m2")
    texts = _texts(n)
    judge = LexicalJudge()
    each = [(i, f.node, j.verdict, j.evidence) for i, t in enumerate(texts)
            for f in (fault, other) if (j := judge.carries(t, f)).verdict != "no"]
    assert len(each) >= 6  # the texts are near misses of several kinds
    looked_up = _screened([fault, other], texts)
    monkeypatch.setattr(_lexical, "SEARCHED_AT_MOST", 10 ** 9)
    searched = _screened([fault, other], texts)
    assert looked_up == searched == sorted(each)


def test_a_fault_of_thousands_of_clues_compiles_nothing_of_their_size(monkeypatch):
    fault = signature_of(_fault(2000), node="m1")
    assert len(fault.tokens) > 10 * _lexical.SEARCHED_AT_MOST
    compiled: list[int] = []
    real = re.compile
    monkeypatch.setattr(_lexical.re, "compile",
                        lambda p, *a: compiled.append(len(p)) or real(p, *a))
    found = _screened([fault], _texts(2000))
    assert found
    # the old screen compiled one pattern of every clue, hundreds of kilobytes; this one
    # compiles none here (what it did compile was stdnum's, once per IBAN it checked,
    # until the IBANs got a validator of their own)
    assert max(compiled, default=0) < 1000


class _Counted(dict):
    """A lookup table counting its lookups and the lengths each one has to try."""

    work = 0

    def get(self, key, default=None):
        found = super().get(key, default)
        _Counted.work += 1 + len(found or ())
        return found


def test_looking_a_text_up_costs_the_same_however_many_clues_there_are(monkeypatch):
    """Work counted, not timed: the lookups (and the lengths tried at each) made over
    the same texts do not grow with the number of clues (a few more lengths are tried
    where more clues start with the same letters: a handful, never one per clue)."""
    for cls in (LetterStrings, WordRuns):
        real_init = cls.__init__

        def init(self, items, real_init=real_init):
            real_init(self, items)
            self._lengths = _Counted(self._lengths)

        monkeypatch.setattr(cls, "__init__", init)
    texts = _texts(3200) * 5
    counts = []
    for n in (200, 800, 3200):
        fault = signature_of(_fault(n), node="m1")
        _Counted.work = 0
        list(LexicalJudge().screen([fault], texts))
        counts.append(_Counted.work)
    assert counts[0] > sum(map(len, texts)) // 2  # every text was looked up
    assert counts[0] <= counts[1] <= counts[2] < counts[0] * 1.05  # with 16 times the clues


def test_letter_strings_and_bounded_phrases_find_what_the_patterns_find():
    strings = ["de893704", "de89370400440532013000", "3704004405", "opscorpexampleorg"]
    index = LetterStrings(strings)
    for letters in ["xde8937040044053201300", "opscorpexampleor", "de89370400440532013000y",
                    "", "3704004405"]:
        expected = {s for s in strings if s in letters}
        assert index.found(letters) == expected
        assert bool(index.found(letters, first=True)) == bool(expected)
    with pytest.raises(ValueError):
        LetterStrings(["short"])
    names = [("emma", "johnson"), ("lin",), ("o", "brien"), ()]
    runs = WordRuns(names)
    assert () not in runs.runs
    for said in (["ask", "emma", "johnson", "not", "lina"], ["lin", "o", "brien"],
                 ["emma", "johnsons"], ["lin"], []):
        expected = {n for n in names if n and any(
            tuple(said[i:i + len(n)]) == n for i in range(len(said)))}
        assert runs.found(said) == expected
        assert bool(runs.found(said, first=True)) == bool(expected)


def test_a_text_is_scored_once_by_carries_and_by_the_screen(monkeypatch):
    """carries() scored a text at the threshold and again at 0 for a named subject, and
    the screen scored again each near-miss candidate the scan had already scored."""
    from repair_core.content import _match

    calls: list[str] = []
    real = _match._match
    monkeypatch.setattr(_match, "_match",
                        lambda sig, *a, **k: calls.append(sig.node) or real(sig, *a, **k))
    seat = signature_of("Lin prefers window seats on long flights to Lisbon.", node="m3")
    near = LexicalJudge().carries("Lin likes the window seats on long flights home.", seat)
    assert near.verdict == "unsure" and "(subject)" in near.evidence
    assert calls == ["m3"]
    calls.clear()
    pay = signature_of(f"Pay the rent to {_iban(7)} from May.", node="m9")
    a = _iban(7)
    dotted = f"Rent goes to {'.'.join(a[i:i + 4] for i in range(0, len(a), 4))} now."
    found = [(i, j.verdict) for i, _f, j in LexicalJudge().screen([pay], [dotted])]
    assert found == [(0, "unsure")]
    assert calls == ["m9"]  # by the scan alone


@pytest.mark.parametrize("n", [2, 200])
def test_the_screen_finds_a_subject_whatever_separates_its_words(n, monkeypatch):
    """The near miss reads a name as words in a row; the screen looked for it as written
    with one blank, so "Emma  Johnson" (two blanks) or a line break between the words
    was never judged, and a text the judge calls unsure passed as nothing shared."""
    fault = signature_of("Emma Johnson wants the deposit wired to the escrow agent before "
                         "the viewing on Friday. " + _fault(n), node="m1")
    texts = ["Emma  Johnson: the deposit wired to the agent arrived.",
             "Emma\nJohnson: the deposit wired to the agent arrived.",
             "Emma Johnson: the deposit wired to the agent arrived."]
    judge = LexicalJudge()
    assert [judge.carries(t, fault).verdict for t in texts] == ["unsure"] * 3
    assert [(i, j.verdict) for i, _f, j in judge.screen([fault], texts)] == [
        (0, "unsure"), (1, "unsure"), (2, "unsure")]


def test_a_text_near_several_faults_has_its_words_read_once(monkeypatch):
    """The near miss read a text's words (its canonical form, the costliest part) once
    for each fault the text was asked about; the screen reads them once per text, with
    the judgements `carries` gives each pair alone."""
    faults = [signature_of("Lin prefers window seats.", "window", "seat_pref", node="m1"),
              signature_of("Lin wants a window table at dinner.", "window", "table_pref",
                           node="m2"),
              signature_of("Emma Johnson wants the deposit wired to the escrow agent "
                           "before the viewing on Friday.", node="m3")]
    texts = ["The window is open today.",
             "Nothing of any fault here.",
             "Emma  Johnson: the deposit wired to the agent arrived, and the window."]
    judge = LexicalJudge()
    each = [(i, f.node, j.verdict, j.evidence) for i, t in enumerate(texts)
            for f in faults if (j := judge.carries(t, f)).verdict != "no"]
    assert len(each) == 5  # near misses of two faults and of three
    read: list[str] = []
    real = _lexical.words
    monkeypatch.setattr(_lexical, "words", lambda text: read.append(text) or real(text))
    assert _screened(faults, texts) == sorted(each)
    near = [t for t in read if t in texts]
    assert sorted(near) == sorted({texts[i] for i, *_ in each})  # once each
