"""Issue 9, points 1 and 5: gold comes from the generator's world, the committed controlled
suite meets the shape floors, docs/benchmark.md prints the shape from the suite itself,
and the LongMemEval adapter keeps the answer out of structured fields, poisons with
answers of the same question type and counts what it drops."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from test_bench_suite import ADAPTED, CONTROLLED, ROOT, _cases

from repair_core import load_case
from repair_core.bench import _controlled as ctl
from repair_core.bench import (
    fact_stated,
    generate_suite,
    is_recovered,
    load_longmemeval,
    longmemeval_fixture_path,
)
from repair_core.bench._adapted import QUESTION_TYPES, wrong_answers_by_type
from repair_core.bench._describe import CONTROLLED_FLOORS, describe_suite


def test_committed_controlled_suite_meets_the_shape_floors():
    d = describe_suite(CONTROLLED)
    f = CONTROLLED_FLOORS
    assert d["cases"] == 150
    assert f["min_steps"] <= d["steps"]["min"] and d["steps"]["max"] <= f["max_steps"]
    assert d["steps"]["median"] >= f["median_steps"]
    # the suite spans the range, not just sits inside it: short and long sessions exist
    assert d["steps"]["min"] <= 10 and d["steps"]["max"] >= 65, d["steps"]
    hist = d["steps_histogram"]
    assert hist["8-15"] and hist["50-64"] and hist["65-80"], hist
    assert set(d["turns"]) == set(range(f["min_turns"], f["max_turns"] + 1))
    assert d["distinct_sequences"] >= f["distinct_sequences"]
    assert d["off_ancestry_share"] >= f["off_ancestry_share"]
    assert d["independent_support_share"] >= f["independent_support_share"]
    assert d["benign_at_risk_share"] > 0
    # Table 1's domain x fault-type margins are kept
    table = d["domain_x_fault_type"]
    assert {k: sum(v.values()) for k, v in table.items()} == {
        "customer_service": 53, "shopping": 48, "travel": 49}


def test_long_sessions_are_long_because_the_user_asks_for_more():
    """A slot whose user is busy gets earlier turns that each ask for several lookups
    and profile facts; the extra steps are reads, claims, tool calls and remembered
    results, never repeated or empty steps."""
    slot = next(s for s in ctl.controlled_slots(42) if s.n_turns == 5 and s.n_busy == 4)
    design = ctl._design(slot, 42, 0)
    busy = [t for t in design.turns
            if t in {b.format(city=c, day=d, product=design.request.get("product", ""))
                     for b in ctl.BUSY_WARMUP[slot.domain] for c in ctl.DESTINATIONS
                     for d in ctl.DAYS}]
    assert len(busy) == 4 - (1 if design.updates else 0)
    case, _ = ctl.build_controlled_case(slot, 42)
    by_turn: dict[str, list[str]] = {}
    for s in case.steps_in_order():
        by_turn.setdefault(s.turn, []).append(s.type)
    for t in case.session[:-1]:
        if t.text in busy:
            kinds = by_turn[t.id]
            assert kinds.count("tool_action") >= 2 and kinds.count("claim") >= 2, kinds
    assert len(case.trajectory) >= 50


@pytest.mark.parametrize("domain", ["travel", "shopping"])
def test_a_light_one_turn_request_only_looks_up(domain):
    """The shortest sessions: one turn whose request needs a search only; the world's
    labels then need no hold or cart line."""
    slot = ctl.Slot(0, domain, "poisoned", 1, 8, 1)
    design = next(d for d in (ctl._design(slot, 42, a) for a in range(40))
                  if not d.request.get("hold", d.request.get("cart", True)))
    tools = [t for t, _ in ctl._world_calls(domain, design.truth, design.request)]
    assert tools == [("search_flights" if domain == "travel" else "search_catalog")]
    required, _ = ctl.world_labels(design)
    assert not any(r.startswith("H-") for r in required)


def test_docs_print_the_shape_of_the_committed_suites():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "describe_suite.py"),
                          "--check"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr


def test_every_committed_case_fails_the_oracle_and_has_world_gold():
    _, cases = _cases(CONTROLLED)
    for c in cases:
        ev = c.eval
        assert ev.required_facts and ev.forbidden_facts, c.case_id
        assert not is_recovered(c.final_answer().text, ev.required_facts, ev.forbidden_facts)
        fault_values = [str(m.value) for m in c.memory if m.id in c.faults]
        # each fault's value (a size as "size X") is forbidden unless the truth states it
        for v in fault_values:
            assert any(fact_stated(f, v) for f in ev.forbidden_facts) or any(
                fact_stated(r, v) for r in ev.required_facts), (c.case_id, v)
        assert not set(ev.benign) & set(c.faults)


def test_gold_does_not_come_from_the_clean_run(monkeypatch):
    slot = ctl.controlled_slots(42)[5]
    case, _ = ctl.build_controlled_case(slot, 42)
    real_run = ctl._run

    def garbled_clean(design, faulty, case_id, model):
        out = real_run(design, faulty, case_id, model)
        if faulty:
            return out
        answer = out.final_answer()
        steps = [s.model_copy(update={"text": "nothing useful"}) if s.id == answer.id else s
                 for s in out.trajectory]
        return out.model_copy(update={"trajectory": steps})

    monkeypatch.setattr(ctl, "_run", garbled_clean)
    again, _ = ctl.build_controlled_case(slot, 42)
    assert again.eval.clean_answer == "nothing useful" != case.eval.clean_answer
    for field in ("required_facts", "forbidden_facts", "benign", "gold_claims"):
        assert getattr(again.eval, field) == getattr(case.eval, field), field


def test_required_facts_are_what_the_simulators_return_under_the_true_profile():
    slot = next(s for s in ctl.controlled_slots(42) if s.domain == "travel")
    design = ctl._design(slot, 42, 0)
    required, forbidden = ctl.world_labels(design)
    search = ctl._simulate("travel", design.truth, design.request)[0][1]
    assert search["flight"] in required and search["seat"] in required
    for key, wrongs in design.fault_values.items():
        assert str(design.truth[key]) in required
        assert all(str(w) in forbidden for w in wrongs if str(w) != str(design.truth[key]))


def test_committed_adapted_suite_never_holds_the_answer_in_a_structured_field():
    manifest, cases = _cases(ADAPTED)
    assert len(cases) == 50
    kept_types = set(manifest["question_types"])
    assert kept_types == set(QUESTION_TYPES)  # every type that can carry a poisoned memory
    assert manifest["dropped"] == {"abstention": {"abstention: no fact to restore": 3}}
    for c in cases:
        answer = c.eval.required_facts[0]
        for m in c.memory:
            assert m.key is None or answer.casefold() not in str(m.key).casefold()
            assert m.key is None or not str(m.key).startswith("fact_")
            assert str(m.value).strip().casefold() != answer.strip().casefold()
        assert c.eval.forbidden_facts
        assert not is_recovered(c.final_answer().text, [answer], c.eval.forbidden_facts)


def test_wrong_answers_come_from_the_same_question_type(tmp_path):
    items = load_longmemeval(longmemeval_fixture_path())
    wrong = wrong_answers_by_type(items)
    answers_of = {}
    for it in items:
        if "_abs" not in it.question_id:
            answers_of.setdefault(it.question_type, set()).add(it.answer)
    for it in items:
        assert set(wrong[it.question_id]) <= answers_of.get(it.question_type, set())
        assert it.answer not in wrong[it.question_id]
    manifest = generate_suite("adapted", tmp_path, seed=3,
                              longmemeval=str(longmemeval_fixture_path()))
    assert manifest["dropped"] == {
        "abstention": {"abstention: no fact to restore": 1},
        "single-session-user": {"the poison did not make the failed run fail": 1},
        "temporal-reasoning": {"no evidence turn states the answer verbatim": 1}}
    by_id = {it.question_id: it for it in items}
    for name in manifest["files"]:
        case = load_case(tmp_path / name)
        item = by_id[case.case_id.split("-", 2)[2]]
        for f in case.eval.forbidden_facts:
            assert f in answers_of[item.question_type]


@pytest.mark.parametrize("noise", [-0.1, 1.5])
def test_noise_out_of_range_is_refused(noise):
    from repair_core import DgrrError

    with pytest.raises(DgrrError, match="--noise"):
        ctl.model_with_noise("dgrr/reference", noise)


def test_noise_goes_into_the_builtin_model_string():
    assert ctl.model_with_noise("dgrr/reference-b", 0.1) == "dgrr/reference-b/noise=0.1"
    assert ctl.model_with_noise("openai/gpt-4o", 0.0) == "openai/gpt-4o"


def test_count_keeps_the_first_cases_and_the_manifest_names_model_and_noise(tmp_path):
    manifest = generate_suite("controlled", tmp_path, seed=42, count=3)
    assert manifest["cases"] == 3 and manifest["model"] == "dgrr/reference"
    assert manifest["noise"] == 0.0 and "skipped_slots" not in manifest
    committed = json.loads((CONTROLLED / "manifest.json").read_text())["files"][:3]
    assert manifest["files"] == committed
    for name in committed:
        assert (tmp_path / name).read_bytes() == (CONTROLLED / name).read_bytes()


def test_adapter_drops_are_counted_once_with_their_reason():
    from repair_core.bench._adapted import (
        NOT_FAILED,
        adapt_items,
        case_from_longmemeval,
        drop_reason,
    )

    items = load_longmemeval(longmemeval_fixture_path())
    wrong = wrong_answers_by_type(items)
    cases, kept, drops = adapt_items(items, seed=3, model="dgrr/reference")
    assert sum(kept.values()) == len(cases)
    assert sum(n for by in drops.values() for n in by.values()) == len(items) - len(cases)
    for it in items:
        reason = drop_reason(it, wrong[it.question_id])
        case = case_from_longmemeval(it, n_faults=2, wrong=wrong[it.question_id], seed=3)
        if reason is not None:
            assert case is None, it.question_id
            qtype = "abstention" if "_abs" in it.question_id else it.question_type
            assert drops[qtype][reason] >= 1
    assert NOT_FAILED in drops["single-session-user"]


def test_adapted_gold_does_not_come_from_the_clean_run(monkeypatch):
    """As for the controlled suite: garbling the fault-free run's answer changes only
    `clean_answer`, never the labels the metrics read."""
    from repair_core.bench import _adapted as adp

    items = [it for it in adp.synthetic_longmemeval(6, 42) if "_abs" not in it.question_id]
    wrong = wrong_answers_by_type(items)
    real_agent = adp._agent_class()

    class GarbledClean(real_agent):  # type: ignore[misc, valid-type]
        def run_session(self, *a, **kw):
            out = super().run_session(*a, **kw)
            if kw.get("faults"):
                return out
            answer = out.final_answer()
            steps = [s.model_copy(update={"text": "nothing useful"}) if s.id == answer.id
                     else s for s in out.trajectory]
            return out.model_copy(update={"trajectory": steps})

    def build():
        return [adp.case_from_longmemeval(it, n_faults=2, wrong=wrong[it.question_id],
                                          seed=42) for it in items]

    before = build()
    monkeypatch.setattr(adp, "_agent_class", lambda: GarbledClean)
    after = build()
    assert any(c is not None for c in before)
    for b, a in zip(before, after, strict=True):
        assert (b is None) == (a is None)
        if b is None or a is None:
            continue
        assert a.eval.clean_answer == "nothing useful" != b.eval.clean_answer
        for field in ("required_facts", "forbidden_facts", "benign", "gold_claims",
                      "fault_types"):
            assert getattr(a.eval, field) == getattr(b.eval, field), field
