"""Where the repair removed the only record an answer rested on, the corrected answer and
the Compare page say what could not be determined and why, not a generic "not found"
(rule replay.answer-says-what-was-lost)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from repair_core import load_case, plan_case, repair
from repair_core.commands.repair import write_summary
from repair_core.importers import import_trace
from repair_core.model._reference import answer_policy

rule = pytest.mark.rule

ROOT = Path(__file__).resolve().parent.parent
STORY = ROOT / "sample_imports" / "frameworks" / "strands-memory.otlp.json"


def _story_result():
    case = import_trace([STORY], faults=["mem-seat"]).case
    return repair(case, plan_case(case, objective="answer"))


@rule("replay.answer-says-what-was-lost")
def test_the_story_says_the_poisoned_preference_could_not_be_determined():
    """Lin's only seat note is the poisoned one: once it is gone, the corrected answer
    names it as what could not be determined, and never restates it."""
    result = _story_result()
    assert "could not find the information" not in result.answer
    assert "could not determine" in result.answer and "mem-seat" in result.answer
    assert "window" not in result.answer.lower()
    assert [(p.id, p.why) for p in result.report.answer_lost] == [
        ("mem-seat", "deleted as a diagnosed fault")]
    out = io.StringIO()
    write_summary(result, out)
    assert "not determined:   what mem-seat said: deleted as a diagnosed fault" in out.getvalue()


def test_a_slot_other_evidence_still_speaks_for_is_not_lost():
    """Figure 1: the wrong seat preference goes, but the replayed read finds the true one:
    nothing is reported lost and the answer states the aisle seat."""
    case = load_case(ROOT / "sample_traces" / "figure1-travel.json")
    result = repair(case, plan_case(case))
    assert result.report.answer_lost == []
    assert "could not determine" not in result.answer and "aisle" in result.answer
    assert "answer_lost" not in result.report.model_dump(mode="json")


def test_the_reference_answer_names_each_lost_slot_once():
    removed = [{"id": "m1", "kind": "removed", "key": "seat_preference",
                "why": "deleted as a diagnosed fault"},
               {"id": "m2", "kind": "removed", "key": "seat_preference",
                "why": "quarantined by the repair"},
               {"id": "m3", "kind": "removed", "key": "home_airport",
                "why": "quarantined by the repair"}]
    claim = {"id": "c1", "kind": "claim", "text": "Lin's home airport is SFO.",
             "key": "home_airport", "value": "SFO"}
    out = answer_policy({"request": {"id": "u1", "text": "Book it."}, "evidence": [claim],
                         "removed": {"note": "…", "items": removed}})
    assert out["text"] == (
        "Lin's home airport is SFO. I could not determine the seat preference: the records "
        "of it were removed (m1: deleted as a diagnosed fault; m2: quarantined by the repair).")
    assert out["cites"] == ["c1"]  # a removed record is never cited
    none = answer_policy({"request": {"id": "u1", "text": "Book it."}, "evidence": []})
    assert none["text"] == "I could not find the information needed to answer that."


def test_a_model_may_not_cite_a_removed_record():
    from repair_core.model._contracts import evidence_ids
    ids = evidence_ids({"request": {"id": "u1"}, "evidence": [{"id": "c1"}],
                        "removed": {"items": [{"id": "m1", "key": None, "why": "deleted"}]}})
    assert "m1" not in ids and ids == ["u1", "c1"]


def test_the_cli_prints_what_could_not_be_determined(tmp_path):
    case = import_trace([STORY], faults=["mem-seat"]).case
    path = tmp_path / "case.json"
    path.write_text(case.model_dump_json())
    out = subprocess.run([sys.executable, "-m", "repair_core", "repair", str(path),
                          "--objective", "answer"], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "not determined:   what mem-seat said" in out.stdout
