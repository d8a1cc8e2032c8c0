"""The Load page lets go of an upload once it is parsed: the uploader is empty
again under a fresh key, whether the case was loaded or refused, and takes the next
upload; a replaced case is not pinned by the session's plan-digest cache. The memory
itself is measured in a real server: tests/test_e2e_upload_memory.py."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from test_dashboard import APP, EXAMPLE, _ok, load_pair, page, plain, texts

from repair_core import load_example


def _uploaders(at: AppTest) -> dict[str, object]:
    return {u.key: u.value for u in at.get("file_uploader")}


def test_a_loaded_or_refused_upload_leaves_the_uploader_empty_and_usable():
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    page(at, "1_Load")
    case = load_example().model_dump_json().encode()
    at.file_uploader(key="dgrr_w_upload_case").set_value(("a.json", case, "application/json"))
    at.run()
    assert not at.button(key="dgrr_w_load_upload").disabled
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    assert "Loaded case `fig1-travel` from a.json" in plain(at.success[0].value)
    shown = _uploaders(at)
    assert "dgrr_w_upload_case" not in shown and shown["dgrr_w_upload_case-1"] is None
    assert at.button(key="dgrr_w_load_upload").disabled
    assert at.session_state["dgrr_case"].case_id == "fig1-travel"

    # the fresh uploader takes the next file; a refused one is let go of as well
    at.file_uploader(key="dgrr_w_upload_case-1").set_value(
        ("bad.json", b'{"format": "dgrr.case/v9"}', "application/json"))
    at.run()
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    assert "Could not load bad.json" in plain(at.error[0].value)
    assert "The previous case fig1-travel is still loaded, unchanged." in texts(at)
    shown = _uploaders(at)
    assert "dgrr_w_upload_case-1" not in shown and shown["dgrr_w_upload_case-2"] is None


def test_both_files_of_a_pair_are_let_go_of():
    at = load_pair(lambda memory: memory)
    assert "Loaded case `fig1-travel` from t.json + m.json" in plain(at.success[0].value)
    shown = _uploaders(at)
    assert shown["dgrr_w_upload_traj-1"] is None and shown["dgrr_w_upload_mem-1"] is None
    assert at.button(key="dgrr_w_load_pair").disabled


def test_loading_another_case_lets_go_of_the_old_cases_plans():
    """The digest cache (state.PLAN_KEYS) held up to nine plans, each holding its case, so a
    replaced case stayed reachable after a new one was loaded."""
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    page(at, "1_Load")
    at.selectbox(key="dgrr_w_sample").set_value("sample_traces/travel-two-faults.json")
    _ok(at.button(key="dgrr_w_load_sample").click().run())
    page(at, "4_Plan")
    held = at.session_state["dgrr_plan_keys"]
    assert {p.case.case_id for p, _ in held.values()} == {at.session_state["dgrr_case"].case_id}
    page(at, "1_Load")
    at.selectbox(key="dgrr_w_sample").set_value(EXAMPLE)
    _ok(at.button(key="dgrr_w_load_sample").click().run())
    current = at.session_state["dgrr_case"]
    assert current.case_id == "fig1-travel"
    held = at.session_state.get("dgrr_plan_keys", {})
    assert all(p.case is current for p, _ in held.values())
