"""The free-text oracles on the hand-written adversarial answers
(benchmarks/oracle_adversarial.py): each verdict there is a human judge's, from the
world's truth; the strict rule must be wrong on at most 10% of them, and the confusion
matrices in docs/benchmark.md must be what the committed script prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from script_module import load_script

from repair_core.bench import forbidden_stated, is_recovered, missing_facts
from repair_core.content._normalise import normalise

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):
    return load_script(f"benchmarks/{name}.py")


SET = _load("oracle_adversarial")
TRAVEL = (["UA511", "22C", "aisle"], ["middle", "22B", "H-3896"])
SHOP = (["TS-105", "size S", "blue"], ["size M", "red"])
ORDER = (["O-4873", "processing", "Monday", "16 Rue Verte, Lyon"], ["7 Elm Rd, Austin"])


def test_the_set_is_large_balanced_and_uses_the_committed_labels():
    answers = SET.ANSWERS
    assert len(answers) >= 60
    assert len({a[0] for a in answers + SET.HELD_OUT}) == len(answers) + len(SET.HELD_OUT)
    for case in SET.CASES:
        verdicts = [r for _, c, _, r in answers if c == case]
        assert sum(verdicts) >= 10 and len(verdicts) - sum(verdicts) >= 10, case
    labels = {c: json.loads((ROOT / p).read_text())["eval"] for c, p in SET.CASES.items()}
    assert (labels["ctl-001"]["required_facts"], labels["ctl-001"]["forbidden_facts"]) == \
        (TRAVEL[0], TRAVEL[1])
    assert labels["ctl-002"]["forbidden_facts"] == SHOP[1]
    assert labels["ctl-006"]["required_facts"] == ORDER[0]


@pytest.mark.parametrize("answers", ["ANSWERS", "HELD_OUT"])
def test_the_strict_rule_is_wrong_on_at_most_a_tenth(answers):
    script = _load("oracle_confusion")
    rows = script.judge(getattr(SET, answers))["strict rule (+ no forbidden fact)"]
    wrong = [a for a, human, oracle in rows if human != oracle]
    assert len(wrong) <= 0.10 * len(rows), wrong


def test_the_confusion_matrices_in_the_docs_are_current():
    script = _load("oracle_confusion")
    doc = (ROOT / "docs" / "benchmark.md").read_text()
    block = doc[doc.index(script.BEGIN) + len(script.BEGIN) + 1:doc.index(script.END)]
    assert block == script.section(), "run: python benchmarks/oracle_confusion.py --write"


@pytest.mark.parametrize(("text", "form"), [
    ("22 B", "22b"), ("seat 22-C", "seat 22c"), ("size small", "size s"),
    ("small size", "size s"), ("in a medium.", "in size m"), ("in an M, blue", "in size m blue"),
    ("a centre seat", "a middle seat"), ("in the center of the row", "a middle seat"),
    ("gray", "grey"), ("in small print", "in small print"), ("the city centre", "the city centre"),
])
def test_spacing_units_and_the_suites_synonyms_normalise_to_one_form(text, form):
    assert normalise(text) == form


@pytest.mark.parametrize(("answer", "labels", "right"), [
    # a fault mentioned to reject it
    ("I moved order O-4873 away from 7 Elm Rd, Austin; it ships to 16 Rue Verte, Lyon, "
     "processing, arriving Monday.", ORDER, True),
    ("I changed it from 7 Elm Rd, Austin to 16 Rue Verte, Lyon: O-4873 is processing and "
     "arrives Monday.", ORDER, True),
    ("Added TS-105 in blue, size S — not the red one in size M.", SHOP, True),
    ("O-4873 is processing, due Monday, at 16 Rue Verte, Lyon, no longer at 7 Elm Rd, "
     "Austin.", ORDER, True),
    ("Held aisle seat 22C on UA511; the earlier hold H-3896 on 22B was released.", TRAVEL,
     True),
    # the fault stated in other words, or the truth reported as not done
    ("UA511 has aisle seat 22C listed, but I held 22 B for you.", TRAVEL, False),
    ("I searched for an aisle seat on UA511 but held 22C, a centre seat.", TRAVEL, False),
    ("Aisle 22C on UA511? No – I held 22B.", TRAVEL, False),
    ("O-4873 is processing, arriving Monday. I tried to change the address to 16 Rue Verte, "
     "Lyon, but the change failed.", ORDER, False),
    ("Added TS-105 in blue to your cart in an M.", SHOP, False),
])
def test_rejection_cues_and_other_words(answer, labels, right):
    assert is_recovered(answer, *labels) is right


def test_a_negation_about_another_item_leaves_a_required_fact_stated():
    answer = ("RS-310 Trail Runner, green, size 8 in stock. Added RS-310 in size 8. "
              "BP-075 Day pack, green, size 8 not available.")
    assert missing_facts(answer, ["RS-310", "size 8", "green"]) == []


def test_a_question_asserts_nothing():
    assert forbidden_stated("Did you want seat 22B? I held 22C.", ["22B"], ["22C"]) == []
    assert missing_facts("Seat 22C?", ["22C"]) == ["22C"]
