"""The hand-written answer set (benchmarks/answers/answers.jsonl) and the error rates
docs/benchmark.md records for it ("The answer oracle on free text"): the set is large,
spread over committed cases and labelled; no rule decides wrong on, is unsure of or errs
on more answers of a split than recorded, and the strict rule errs on at most a tenth of
a split it was not tuned on, an unsure answer counted as not recovered."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from script_module import load_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = load_script("benchmarks/answer_oracle.py")


@pytest.fixture(scope="module")
def answers():
    return SCRIPT.load_answers()


def test_the_set_is_large_spread_over_committed_cases_and_labelled(answers):
    assert len(answers) >= 300
    assert len({a.id for a in answers}) == len(answers)
    assert len({a.case for a in answers}) >= 30
    for case in {a.case for a in answers}:
        ev = json.loads((ROOT / case).read_text(encoding="utf-8"))["eval"]
        # an AgentDojo case's truth is AgentDojo's utility on its environment, not facts
        # of text: round 12's author wrote answers to four, which the oracle cannot pass
        assert ev["required_facts"] or case.startswith("sample_traces/agentdojo/"), case
    splits = Counter(a.split for a in answers)
    assert 0.25 <= splits["held-out"] / (splits["dev"] + splits["held-out"]) <= 0.45
    for split in SCRIPT.SPLITS:
        verdicts = Counter(a.verdict for a in answers if a.split == split)
        least = 20 if "languages" in split else 40
        assert verdicts["right"] >= least and verdicts["wrong"] >= least, split
    fresh = {a.case for a in answers if a.split == "fresh"}
    # fresh was written on cases the splits the oracle was tuned on do not use; later
    # blind rounds (round 12) may answer them too
    assert not fresh & {a.case for a in answers if a.split in ("dev", "held-out")}
    assert {"paraphrase", "negation", "pending", "format", "hedge",
            "rejection-of-poison"} <= {a.category for a in answers}


def test_no_rule_errs_on_more_answers_than_recorded(answers):
    recorded = SCRIPT.recorded_errors((ROOT / "docs" / "benchmark.md").read_text())
    assert {rule for _, rule in recorded} == set(SCRIPT.RULES)
    assert {split for split, _ in recorded} == set(SCRIPT.SPLITS)
    for split in SCRIPT.SPLITS:
        judged = SCRIPT.judge([a for a in answers if a.split == split])
        for rule, rows in judged.items():
            figures = recorded[(split, rule)]
            wrong = [a.id for a in SCRIPT.decided_wrong(rows)]
            errors = [a.id for a in SCRIPT.errors(rows)]
            assert len(wrong) <= figures.decided_wrong, (split, rule, wrong)
            assert len(errors) <= figures.errors, (split, rule, errors)


@pytest.mark.parametrize("field, value", [
    ("category", "**bold** | <b>x</b>"), ("category", "Paraphrase"),
    ("id", "[x](http://evil.example)"), ("case", "../../etc/passwd.json"),
    ("case", "/etc/passwd"), ("case", "sample_traces/../x.json")])
def test_an_answer_line_holding_markdown_or_a_path_outside_the_cases_is_refused(field, value):
    # ids and categories become cells of docs/benchmark.md's tables; the case names a file
    line = {"id": "adp-001-r1-1", "case": "sample_traces/controlled/ctl-001.json",
            "answer": "It is 12B.", "verdict": "right", "category": "paraphrase",
            "split": "dev"}
    SCRIPT.Answer.model_validate(line)
    with pytest.raises(ValueError, match=field):
        SCRIPT.Answer.model_validate({**line, field: value})


def test_an_unsure_answer_is_an_error_when_it_is_right():
    right, wrong = (SCRIPT.Answer(id=f"x-{v}", case="sample_traces/c.json", answer="", verdict=v,
                                  category="paraphrase", split="languages")
                    for v in ("right", "wrong"))
    rows = [(right, "unsure"), (wrong, "unsure")]
    assert SCRIPT.decided_wrong(rows) == []
    assert SCRIPT.unsure(rows) == [right, wrong]
    assert SCRIPT.errors(rows) == [right]


@pytest.mark.parametrize("split", ["held-out", "fresh"])
def test_the_strict_rule_errs_on_at_most_a_tenth_of_an_untuned_split(answers, split):
    rows = SCRIPT.judge([a for a in answers if a.split == split])["strict rule (is_recovered)"]
    errors = [a.id for a in SCRIPT.errors(rows)]
    assert len(errors) <= 0.10 * len(rows), errors


def test_on_answers_in_other_languages_the_strict_rule_is_never_wrong_with_confidence(answers):
    # the languages split is where the rules for other languages were developed: there
    # the reader decides nothing wrong, and defers only answers whose values it cannot
    # match (translated values)
    rows = SCRIPT.judge([a for a in answers if a.split == "languages"])[
        "strict rule (is_recovered)"]
    assert [a.id for a in SCRIPT.decided_wrong(rows)] == []
    assert len(SCRIPT.errors(rows)) <= 0.10 * len(rows)
