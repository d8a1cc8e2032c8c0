"""The workbench on a case with thousands of steps: each page's primary action comes before
its long lists, the irreversible effects are acknowledged per tool and kind, Compare and
Approve count the store alike, decision colours are drawn as cell backgrounds, and a
refused approval writes nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import Case, load_case, plan_case, repair, with_faults  # noqa: E402
from repair_core.approvals import approval_summary, warning_groups  # noqa: E402

APP = str(ROOT / "app.py")
RECORD = "FormSubmitter:dgrr_w_approve_form-Record decision"


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


@pytest.fixture(scope="module")
def many_faults(tmp_path_factory) -> Case:
    """3,000 steps with 40 faults: tens of irreversible effects of four tools, records a
    replayed step writes and a later one supersedes."""
    from repair_core.cli import main

    out = tmp_path_factory.mktemp("synth") / "case.json"
    assert main(["synth", "--steps", "3000", "--faults", "40", "--out", str(out)]) == 0
    return load_case(out)


def replayed(case: Case, page: str) -> AppTest:
    """The app on `page` with `case` loaded and its computed plan replayed."""
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.session_state["dgrr_case"] = case
    at.switch_page(page).run()
    p = at.session_state["dgrr_computed_plan"]
    at.session_state["dgrr_result"] = repair(case, p)
    at.session_state["dgrr_result_key"] = at.session_state["dgrr_plan_keys"][id(p)][1]
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def in_order(at: AppTest) -> list:
    """Every element of the page's main area, in the order the page shows them."""
    def walk(node):
        for child in getattr(node, "children", {}).values():
            yield child
            yield from walk(child)
    return list(walk(at.main))


def test_approve_puts_the_decision_before_the_long_lists(many_faults):
    at = replayed(many_faults, "pages/7_Approve.py")
    elements = in_order(at)
    record = next(i for i, e in enumerate(elements)
                  if e.type == "button" and e.label == "Record decision")
    for e in elements[:record]:
        # above the button: nothing long is printed inline (lists sit in expanders)
        if e.type in ("text", "markdown", "caption"):
            assert str(e.value).count("\n") < 20, e.value[:200]
        assert e.type != "dataframe" or len(e.value) <= 50
    # one acknowledgement per tool and kind of irreversible effect, its steps beside it
    effects = approval_summary(at.session_state["dgrr_computed_plan"],
                               at.session_state["dgrr_result"]).irreversible_effects
    boxes = [b for b in at.checkbox if b.key.startswith("dgrr_w_ack_")]
    effect_boxes = [b for b in boxes if "Irreversible effect of" in b.label]
    assert len(effects) > 50 and 2 <= len(effect_boxes) < 10
    tools = {line.split(": ", 1)[1].split("(", 1)[0] for line in effects}
    assert all(any(t.replace("_", "\\_") in b.label for b in effect_boxes) for t in tools)
    assert not any(e.type == "text" and e.value == "\n".join(effects) for e in elements)


def test_approve_and_compare_count_the_store_alike(many_faults):
    at = replayed(many_faults, "pages/6_Compare.py")
    [mem] = [d.value for d in at.dataframe if "change" in d.value.columns]
    # Compare tells a record restored and then retired again from one retired outright;
    # the approval lists both as retired
    compare = mem["change"].replace({"retired again": "retired"}).value_counts()
    compare = {k: int(n) for k, n in compare.items() if k != "kept"}
    summary = approval_summary(at.session_state["dgrr_computed_plan"],
                               at.session_state["dgrr_result"])
    approve = {k: len(v) for k, v in summary.store.items()}
    assert approve.get("added then retired")  # the case has such records
    assert approve == compare
    # each record under one final state
    ids = [r for v in summary.store.values() for r in v]
    assert len(ids) == len(set(ids))


def test_approve_lists_store_operations_with_record_text_and_plan_edits_with_comment():
    from repair_core import apply_edits, load_example

    case = load_example()
    p = plan_case(case)
    node = next(n for n, a in p.steps.items() if a == "keep" and n != case.final_answer().id)
    edited = apply_edits(p, {node: "invalidate"}, comment="stale after the move")
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_plan"] = edited
    at.switch_page("pages/7_Approve.py").run()
    assert not at.exception, [e.value for e in at.exception]
    texts = {m.id: m.text for m in case.memory}
    tables = [d.value for d in at.dataframe]
    ops = [t for t in tables if {"operation", "id", "text"} <= set(t.columns)]
    assert ops and all(row.text == texts[row.id] for t in ops for row in t.itertuples())
    [edits] = [t for t in tables if "comment" in t.columns and "edited" in t.columns]
    assert edits.to_dict("records") == [{"node": node, "computed": "keep",
                                         "edited": "invalidate",
                                         "comment": "stale after the move"}]


@pytest.mark.parametrize("decision", ["approve", "reject"])
def test_a_refused_approval_creates_no_database(tmp_path, decision):
    from repair_core import load_example

    db = tmp_path / "approvals.db"
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = load_example()
    at.switch_page("pages/7_Approve.py").run()
    for b in [b for b in at.checkbox if b.key.startswith("dgrr_w_ack_")]:
        b.check()
    at.radio(key="dgrr_w_decision").set_value(decision)
    if decision == "reject":
        at.text_input(key="dgrr_w_reviewer").set_value("ana")  # but no reason given
    at.button(key=RECORD).click().run()
    assert not at.exception
    assert at.error and "Not recorded" in at.error[0].value
    assert not db.exists()
    # an accepted decision still creates it
    at.text_input(key="dgrr_w_reviewer").set_value("ana")
    at.text_area(key="dgrr_w_comment").set_value("checked")
    at.button(key=RECORD).click().run()
    assert any("Recorded #" in s.value for s in at.success), [e.value for e in at.error]
    assert db.exists()


def test_decision_colours_are_cell_backgrounds(many_faults):
    from dgrr_dashboard.widgets import pale
    from repair_core.viz import DECISION_STYLES

    for page in ("pages/6_Compare.py", "pages/7_Approve.py"):
        at = replayed(many_faults, page)
        styles = " ".join(d.proto.arrow_data.styler.styles for d in at.dataframe)
        assert "border-left" not in styles
        assert f"background-color: {pale(DECISION_STYLES['delete'][0])}" in styles, page
        assert f"background-color: {pale(DECISION_STYLES['quarantine'][0])}" in styles, page


def test_a_store_only_case_asks_for_no_answer():
    from repair_core.importers import import_trace

    history = ROOT / "sample_imports" / "mem0-history" / "history.db"
    case = import_trace([], store=history, user="lin").case
    assert not case.has_answer()
    ids = [m.id for m in case.memory][:1]
    case = with_faults(case, ids)
    p = plan_case(case, objective="store")
    summary = approval_summary(p, repair(case, p))
    assert not any("answer" in k.lower() for k, _ in warning_groups(summary.warnings))
