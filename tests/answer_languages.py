"""What the answer oracle's per-language rule tests share: three committed cases' labels
and requests, and one answer read in its language. Used by the
tests/test_rules_answer_oracle_*.py files of the languages read through word lists."""

from __future__ import annotations

import json
from pathlib import Path

from repair_core.bench import judge_recovery
from repair_core.bench._language import ANSWER_READER_LANGUAGES, guess_language

SAMPLES = Path(__file__).resolve().parent.parent / "sample_traces"


def case_labels(name: str) -> tuple[list[str], list[str]]:
    """(required facts, forbidden facts) of the committed case `name` (its path under
    sample_traces/ without `.json`), read from its `eval`: the truth the answers are
    judged against is the suite's, not a copy that could drift from it."""
    facts = json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))["eval"]
    return list(facts["required_facts"]), list(facts["forbidden_facts"])


UA511 = case_labels("controlled/ctl-001-travel-wrong-user")
RJ220 = (["RJ-220", "white", "size XL"], ["black"])  # ctl-028
RS310 = (["RS-310", "size 7", "green"], ["size 9"])  # ctl-031
O8471 = (["O-8471", "processing", "Thursday"], ["O-6672"])  # ctl-004
BOOK = "Book me an aisle seat on UA511."
ADD = "Add the RJ-220 in white, size XL, to my cart."
SHOES = "Find running shoes in my size and favourite colour and add them to my cart."
WHERE = "Where is my order right now?"
LABELS = {"UA511": (UA511, BOOK), "RJ220": (RJ220, ADD), "RS310": (RS310, SHOES),
          "O8471": (O8471, WHERE)}
"""Case -> ((required facts, forbidden facts), the user's request)."""


def read_in(language: str, case: str, answer: str) -> tuple[str, list[str]]:
    """The oracle's outcome and unsure reasons for `answer` to `case`, after checking
    the answer is placed in `language`."""
    assert guess_language(answer, ANSWER_READER_LANGUAGES).code == language
    labels, request = LABELS[case]
    verdict = judge_recovery(answer, *labels, request=request)
    return verdict.outcome, verdict.unsure
