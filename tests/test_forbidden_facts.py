"""Recovery = every required fact stated and no forbidden fact stated,
for every method; the failure gallery lists what each failed case got wrong."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from repair_core import load_case
from repair_core.bench import (
    CaseResult,
    evaluate,
    fact_stated,
    failure_gallery,
    forbidden_stated,
    is_recovered,
    normalise_fact,
    write_outputs,
)
from repair_core.bench._metrics import recovery

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_traces" / "cs-stale-address.json"


def _labelled(required, forbidden):
    case = load_case(SAMPLE)
    assert case.eval is not None
    ev = case.eval.model_copy(update={"required_facts": required, "forbidden_facts": forbidden})
    return case.model_copy(update={"eval": ev})


def test_a_baseline_answer_stating_a_forbidden_fact_is_never_recovered():
    # The failed answer ("... ships to 12 Pine St, Seattle with UPS and arrives Thursday")
    # states every required fact below, and the stale fault's value.
    case = _labelled(["O-5521", "Thursday"], ["12 Pine Street, Seattle"])
    answer = case.final_answer().text
    assert all(fact_stated(answer, f) for f in case.eval.required_facts)
    result = evaluate(case, "no_repair")
    assert result.answer == answer
    assert result.missing_facts == []
    assert result.forbidden_stated == ["12 Pine Street, Seattle"]  # Street ~ St
    assert result.recovered is False
    assert recovery([result]) == 0.0
    # the same labels without the forbidden fact would have scored it recovered
    assert evaluate(_labelled(["O-5521", "Thursday"], []), "no_repair").recovered is True


def test_ours_on_the_same_case_is_judged_by_the_same_rule():
    case = _labelled(["O-5521", "48 Harbor Ave, Boston"], ["12 Pine St, Seattle"])
    r = evaluate(case, "ours")
    assert r.recovered == (not r.missing_facts and not r.forbidden_stated)
    assert r.recovered == is_recovered(r.answer, case.eval.required_facts,
                                       case.eval.forbidden_facts)


def test_forbidden_fact_that_is_also_required_does_not_count():
    assert is_recovered("Seat 31C on JL1.", ["JL1", "31C"], ["31C"])
    # inside a stated required fact: "economy" within "premium economy"
    assert is_recovered("Booked premium economy on JL1.", ["premium economy", "JL1"],
                        ["economy"])
    assert not is_recovered("Booked economy, not premium economy, on JL1.",
                            ["premium economy", "JL1"], ["economy"])


def test_whole_words_and_normalisation():
    assert normalise_fact("7 Elm Rd.,  Austin") == "7 elm road austin"
    assert fact_stated("Shipping to 7 ELM RD, Austin!", "7 Elm Road, Austin")
    assert not fact_stated("Mike", "M")
    assert fact_stated("order O-4873 is packed", "o-4873")
    assert not fact_stated("order O-48731 is packed", "O-4873")
    assert forbidden_stated("Size M.", ["M"], []) == ["M"]
    # a size written out is the suite's size (VALUE_SYNONYMS); a word that merely
    # starts with the letter is not
    assert forbidden_stated("Size Medium.", ["M"], []) == ["M"]
    assert forbidden_stated("Medium rare, Mike.", ["M"], []) == []


words = st.text(alphabet="abcdefgh ", min_size=1, max_size=12).filter(lambda s: s.strip())


@given(prefix=st.text(max_size=20), suffix=st.text(max_size=20), fact=words,
       required=st.lists(words, min_size=1, max_size=3))
def test_an_answer_stating_a_forbidden_fact_on_its_own_is_never_recovered(
        prefix, suffix, fact, required):
    required = [r for r in required
                if normalise_fact(fact) not in f" {normalise_fact(r)} "
                and normalise_fact(r) != normalise_fact(fact)]
    if not required:
        return
    answer = f"{prefix} {' '.join(required)} . {fact} . {suffix}"
    assert not is_recovered(answer, required, [fact])


def test_gallery_lists_every_failure_as_plain_text(tmp_path):
    hostile = "see [here](http://x) <script>alert(1)</script> ```` end"
    rs = [CaseResult(case_id="c1", method="ours", answer=hostile, recovered=False,
                     missing_facts=["JL1"], forbidden_stated=["JFK"], replayed_steps=2,
                     replayed_step_ids=["s3", "s9"]),
          CaseResult(case_id="c2", method="ours", answer="fine", recovered=True),
          CaseResult(case_id="c3", method="full_reset", answer="x", recovered=False,
                     missing_facts=["SFO"])]
    text = failure_gallery(rs, {"ours": "Ours", "full_reset": "Full memory reset"})
    assert "1 of 2 cases not recovered" in text and "c2" not in text
    assert "- misses a required fact and states a forbidden fact: 1" in text
    # the hostile answer sits inside a fence longer than its own backtick run
    block = text.split("`````text\n", 1)[1].split("\n`````", 1)[0]
    assert hostile in block and "forbidden facts stated: JFK" in block
    assert "replayed steps (2): s3 s9" in block
    assert "missing required facts: SFO" in text
    write_outputs(rs, tmp_path)
    written = (tmp_path / "failures.md").read_text()
    assert (tmp_path / "summary.json").exists()
    assert hostile in written and "c2" not in written


def test_a_required_fact_that_normalises_to_nothing_is_never_stated():
    # "..." normalises to "": such a case cannot be judged, whatever the answer says
    assert not is_recovered("Order O-5521 ... ships Thursday.", ["O-5521", "..."])
    assert not is_recovered("x", ["  "])
    assert is_recovered("x", ["x"], ["..."])  # an empty forbidden fact is never stated
