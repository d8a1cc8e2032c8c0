"""The shipped sample traces plan exactly as their hand-derived expected plans say."""

import json
from pathlib import Path

import pytest

from repair_core import load_case, plan_case

ROOT = Path(__file__).resolve().parent.parent
SPEC_EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"
EXPECTED = sorted((ROOT / "sample_traces").glob("*.plan.json"))


def _compare(case_path: Path, plan_path: Path) -> None:
    got = plan_case(load_case(case_path)).report().model_dump(mode="json")
    expected = json.loads(plan_path.read_text(encoding="utf-8"))
    for key, value in expected.items():
        assert got[key] == value, f"{case_path.name}: {key}"


def test_there_are_at_least_four_samples_with_expected_plans():
    assert len(EXPECTED) >= 4


@pytest.mark.parametrize("plan_path", EXPECTED, ids=lambda p: p.name)
def test_sample_plan_matches_expected(plan_path: Path):
    _compare(plan_path.with_name(plan_path.name.replace(".plan.json", ".json")), plan_path)


@pytest.mark.skipif(not SPEC_EXAMPLES.exists(), reason="shared/spec is not beside the checkout")
def test_spec_example_plan_matches_the_spec_file():
    _compare(SPEC_EXAMPLES / "figure1-travel.json", SPEC_EXAMPLES / "figure1-travel.plan.json")


def test_shipped_fixture_is_the_spec_example():
    shipped = ROOT / "repair_core" / "fixtures" / "figure1-travel.json"
    sample = ROOT / "sample_traces" / "figure1-travel.json"
    assert json.loads(shipped.read_text()) == json.loads(sample.read_text())


@pytest.mark.parametrize("plan_path", EXPECTED, ids=lambda p: p.name)
def test_report_lists_are_sorted_and_cover_every_node(plan_path: Path):
    case = load_case(plan_path.with_name(plan_path.name.replace(".plan.json", ".json")))
    report = plan_case(case).report()
    for key in ("affected", "supported", "unsupported", "answer_relevant"):
        values = getattr(report, key)
        assert values == sorted(values)
    assert set(report.memory) == {m.id for m in case.memory}
    assert set(report.steps) == {s.id for s in case.trajectory}
    assert set(report.supported) | set(report.unsupported) == set(report.affected)
