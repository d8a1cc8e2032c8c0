"""The shipped sample traces plan exactly as their hand-derived expected plans say."""

import json
from pathlib import Path

import pytest

from repair_core import load_case, plan_case

ROOT = Path(__file__).resolve().parent.parent
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


def test_the_documented_example_plan_matches():
    """docs/case-format.md names the Figure-1 case and its expected plan as the example."""
    page = (ROOT / "docs" / "case-format.md").read_text(encoding="utf-8")
    case, plan = "sample_traces/figure1-travel.json", "sample_traces/figure1-travel.plan.json"
    assert f"`{case}`" in page and f"`{plan}`" in page
    _compare(ROOT / case, ROOT / plan)


def test_docs_point_at_nothing_outside_the_repository():
    """A clone has no ../shared or ../reference: every pointer stays inside the repository."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for outside in ("../shared", "shared/spec", "../reference"):
            assert outside not in text, f"{page.name} points at {outside}"
    for name in ("method.md", "case-format.md"):
        assert (ROOT / "docs" / name).stat().st_size > 3000


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
