"""One count of methods everywhere: README.md and docs/ say how many repair methods the
registry holds only inside `methods:count` spans, and every span says what
`methods_phrase()` derives from the registry (scripts/sync_method_count.py writes them)."""

from __future__ import annotations

import re
from pathlib import Path

from script_module import load_script

from repair_core.bench import ABLATIONS, BASELINES, METHOD_LABELS, methods_phrase

ROOT = Path(__file__).resolve().parent.parent
SYNC = load_script("scripts/sync_method_count.py")

# a count of ten or more (cardinal or ordinal) within a few words of "method(s)"
COUNT = re.compile(r"\b(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
                   r"eighteen|nineteen|twenty|tenth|eleventh|twelfth|thirteenth|fourteenth|"
                   r"fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth)"
                   r"(?:\s+\S+){0,2}?\s+methods?\b", re.I)


def test_the_phrase_is_the_registry():
    phrase = methods_phrase()
    assert phrase.count(",") == len(METHOD_LABELS) - len(BASELINES) - len(ABLATIONS) + 1
    assert "ten baselines" in phrase and "three ablations" in phrase
    assert set(METHOD_LABELS) >= set(BASELINES) | set(ABLATIONS)


def test_every_span_says_the_registry_count():
    spans = 0
    for doc in SYNC.documents():
        for m in SYNC.SPAN.finditer(doc.read_text()):
            spans += 1
            assert m.group(0) == SYNC.BEGIN + methods_phrase() + SYNC.END, (
                f"{doc.name}: stale count of methods; run scripts/sync_method_count.py")
    assert spans >= 3  # README, docs/benchmark.md, docs/results.md


def test_no_count_of_methods_outside_a_span():
    for doc in SYNC.documents():
        text = SYNC.SPAN.sub("", doc.read_text())
        found = [m.group(0) for m in COUNT.finditer(text)]
        assert not found, f"{doc.name}: a count of methods outside a methods:count span: {found}"


def test_the_check_catches_a_stale_count():
    assert COUNT.search("fourteen repair methods (Ours, ten baselines)")
    assert COUNT.search("A thirteenth method, Ours (store)")
    assert not COUNT.search("pick two methods")
