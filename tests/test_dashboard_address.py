"""The page's address keeps the loaded sample (dgrr_dashboard/address.py): a new session
opened at that address (a reload, another tab) gets the sample back, with its faults and
objective; what the address says is checked like any other input."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from tests.test_dashboard import APP, EXAMPLE, _ok, loaded, page, texts  # noqa: E402

SAMPLE = "sample_traces/travel-two-faults.json"


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def address(at: AppTest) -> dict[str, str]:
    return {k: at.query_params[k][0] if isinstance(at.query_params[k], list)
            else at.query_params[k] for k in at.query_params}


def reopened(params: dict[str, str], name: str = "2_Faults") -> AppTest:
    """A new session (a reload) of page `name` at an address with `params`."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    return page(at, name)  # the session's first run is that page's


def working_case(at: AppTest) -> str:
    return "\n".join(c.value for c in at.sidebar.caption)


def test_a_loaded_sample_is_in_the_address_and_comes_back_after_a_reload():
    at = loaded(SAMPLE, objective="both")
    kept = address(at)
    assert kept == {"sample": SAMPLE}
    again = reopened(kept)
    assert "`travel-two-faults`" in working_case(again)
    assert "Reloaded the sample case" in texts(again)
    # shown once: the next page of that session says nothing of it
    assert "Reloaded the sample case" not in texts(page(again, "4_Plan"))


def test_the_home_demo_and_the_benchmark_browser_name_their_sample_too():
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    at.selectbox(key="dgrr_w_demo_sample").set_value(SAMPLE)
    _ok(at.button(key="dgrr_w_demo_run").click().run())
    assert address(at)["sample"] == SAMPLE
    page(at, "8_Benchmark")
    pick = at.selectbox(key="dgrr_w_b_pick").value
    _ok(at.button(key="dgrr_w_b_open").click().run())
    assert pick != SAMPLE and address(at)["sample"] == pick
    assert "none loaded" not in working_case(reopened({"sample": pick}))


def test_changed_faults_and_objective_are_kept_too():
    at = loaded(SAMPLE, objective="both")
    page(at, "2_Faults")
    at.session_state["dgrr_objective"] = "store"
    from dgrr_dashboard import state

    faults = list(at.session_state[state.LOADED_FAULTS])
    assert len(faults) == 2
    at.session_state[state.CASE] = at.session_state[state.CASE].model_copy(
        update={"faults": faults[:1]})
    _ok(at.run())
    kept = address(at)
    assert kept == {"sample": SAMPLE, "faults": faults[0], "objective": "store"}
    again = reopened(kept, "4_Plan")
    case = again.session_state[state.CASE]
    assert list(case.faults) == faults[:1]
    assert again.session_state["dgrr_objective"] == "store"


def test_an_uploaded_case_is_named_by_its_digest_not_as_a_sample(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_CASES_DIR", str(tmp_path / "cases"))
    at = loaded(objective="answer")
    assert address(at) == {"sample": EXAMPLE, "objective": "answer"}
    data = (ROOT / SAMPLE).read_bytes()
    at.file_uploader(key="dgrr_w_upload_case").set_value(
        ("(built-in) spec example: figure1-travel.json", data, "application/json"))
    at.run()
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    assert "`travel-two-faults`" in working_case(at)
    kept = address(at)  # an upload is no sample, whatever it is called
    assert set(kept) == {"case", "objective"} and len(kept["case"]) == 64


@pytest.mark.parametrize("params,words", [
    ({"sample": "../../etc/passwd"}, "names a sample this dashboard does not have"),
    ({"sample": "sample_traces/nope.json"}, "names a sample this dashboard does not have"),
])
def test_an_address_naming_no_sample_loads_nothing(params, words):
    at = reopened(params)
    assert words in texts(at)
    assert "none loaded" in working_case(at)


def test_faults_or_objective_the_case_does_not_have_are_said_and_left_out():
    at = reopened({"sample": SAMPLE, "faults": "m404,<b>x</b>", "objective": "everything"})
    said = texts(at)
    assert "the faults in the address are not all this case's" in said
    assert "the objective in the address is not one of answer, store, both" in said
    from dgrr_dashboard import state

    assert list(at.session_state[state.CASE].faults) == \
        list(at.session_state[state.LOADED_FAULTS])
    assert "<b>" not in said  # the address's text is never shown


def test_an_uploaded_case_and_its_plan_edits_come_back_after_a_reload(tmp_path, monkeypatch):
    import json

    from repair_core import load_example

    monkeypatch.setenv("DGRR_CASES_DIR", str(tmp_path / "cases"))
    data = load_example().model_dump(mode="json")
    data["case_id"] = "uploaded-fig1"
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    page(at, "1_Load")
    at.file_uploader(key="dgrr_w_upload_case").set_value(
        ("mine.json", json.dumps(data).encode(), "application/json"))
    at.run()
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    kept = address(at)
    assert set(kept) == {"case"} and len(kept["case"]) == 64
    assert (tmp_path / "cases" / f"{kept['case']}.json").is_file()
    # a reviewer edit with its comment
    page(at, "4_Plan")
    at.text_input(key="dgrr_w_edit_typed").set_value("s2").run()
    at.selectbox(key="dgrr_w_edit_action").set_value("invalidate")
    at.text_input(key="dgrr_w_edit_comment").set_value("stale")
    _ok(at.button(key="dgrr_w_edit_apply").click().run())
    kept = address(at)
    assert set(kept) == {"case", "edits"}
    # F5: a new session at that address
    again = reopened(kept, "4_Plan")
    assert "`uploaded-fig1`" in working_case(again)
    assert "Reloaded the uploaded or imported case" in texts(again)
    edits = again.session_state["dgrr_plan"].edits
    assert [(e.node, e.action, e.comment) for e in edits] == [("s2", "invalidate", "stale")]
    # the case the first session still holds is not parsed again
    assert again.session_state["dgrr_case"] is at.session_state["dgrr_case"]


def test_a_kept_case_is_checked_against_its_digest(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_CASES_DIR", str(tmp_path / "cases"))
    from dgrr_dashboard import kept_cases
    from repair_core import load_example

    held = load_example()  # held while its file changes: the file decides, not the object
    digest = kept_cases.keep_case(held)
    assert digest is not None and kept_cases.load_case_kept(digest) is held
    path = tmp_path / "cases" / f"{digest}.json"
    path.write_bytes(path.read_bytes().replace(b"window", b"aisle!"))
    assert kept_cases.load_case_kept(digest) is None  # changed on disk: not trusted
    assert kept_cases.load_case_kept("../../etc/passwd") is None
    again = reopened({"case": digest})
    assert "no longer kept on this server" in texts(again)
    assert again.session_state["dgrr_case"] is None if "dgrr_case" in again.session_state \
        else True


def test_a_file_unused_for_a_week_goes_when_something_new_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_CASES_DIR", str(tmp_path / "cases"))
    import os
    import time

    from dgrr_dashboard import kept_cases

    old = kept_cases.keep_edits([{"node": "s2", "action": "invalidate"}], False)
    assert old is not None
    stale = time.time() - kept_cases.EXPIRE_SECONDS - 60
    os.utime(tmp_path / "cases" / f"edits-{old}.json", (stale, stale))
    assert kept_cases.keep_edits([{"node": "s3", "action": "keep"}], True) is not None
    assert not (tmp_path / "cases" / f"edits-{old}.json").exists()
    assert kept_cases.load_edits(old) is None


def test_the_last_replay_comes_back_after_a_reload_with_its_model_and_time(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("DGRR_CASES_DIR", str(tmp_path / "cases"))
    at = loaded(SAMPLE, objective="both")
    assert "no replay is kept" in texts(reopened(address(at)))
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    ran = at.session_state["dgrr_result"]
    kept = address(at)
    assert set(kept) == {"sample", "replay"} and len(kept["replay"]) == 64
    assert (tmp_path / "cases" / f"replay-{kept['replay']}.json").is_file()
    # F5 on the Load page: the replay is back before any page has planned the case again
    again = reopened(kept, "1_Load")
    said = texts(again)
    assert "the last replay is back (replay 1 by model dgrr/reference, finished" in said
    assert "no replay is kept" not in said
    assert address(again)["replay"] == kept["replay"]  # a second F5 finds it too
    page(again, "5_Replay")
    # the first session still holds it (as a reloaded tab's old session does for a while):
    # the same object, not tens of MB validated again
    assert again.session_state["dgrr_result"] is ran
    said = texts(again)
    assert "Replay 1 by model dgrr/reference, finished" in said and "ran before" in said
    assert "Replay finished." not in said
    # a replay file changed on disk, or named by something that is no digest, is refused
    path = tmp_path / "cases" / f"replay-{kept['replay']}.json"
    path.write_bytes(path.read_bytes().replace(b"aisle", b"aislE"))
    refused = reopened(kept, "5_Replay")
    assert "the replay in the address is no longer kept: run it again" in texts(refused)
    assert "dgrr_result" not in refused.session_state or \
        refused.session_state["dgrr_result"] is None
    assert "no longer kept" in texts(reopened({**kept, "replay": "../../etc/passwd"}))


def test_a_replay_with_a_cleaned_source_comes_back_after_a_reload(tmp_path, monkeypatch):
    """The replay is matched to the plan it replayed, which the reviewer's cleaned sources
    are part of: the address keeps them too, so after F5 the plan is that one again."""
    monkeypatch.setenv("DGRR_CASES_DIR", str(tmp_path / "cases"))
    why = "the user never said so"
    at = loaded("sample_traces/shop-summary-drift.json", objective="both")
    page(at, "2_Faults")
    at.selectbox(key="dgrr_w_clean_source_pick").set_value("m1")
    _ok(at.text_input(key="dgrr_w_clean_source_reason").set_value(why).run())
    _ok(at.button(key="dgrr_w_clean_source").click().run())
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    kept = address(at)
    assert set(kept) == {"sample", "suspects", "replay"}
    again = reopened(kept, "1_Load")
    said = texts(again)
    assert "1 cleaned source and 0 cleared suspects restored" in said
    assert "the last replay is back (replay 1 by model dgrr/reference" in said
    assert again.session_state["dgrr_clean_source"] == {"m1": why}
    page(again, "5_Replay")
    said = texts(again)
    assert "Replay 1 by model dgrr/reference, finished" in said and "ran before" in said
    result = again.session_state["dgrr_result"]
    assert result is not None and result.report.clean_source == {"m1": why}
    assert address(again)["replay"] == kept["replay"]
    # a suspects file changed on disk is refused: the plan is made without the cleaning,
    # and the replay, of the plan with it, is not shown as its result
    path = tmp_path / "cases" / f"suspects-{kept['suspects']}.json"
    path.write_bytes(path.read_bytes().replace(b"never", b"NEVER"))
    refused = reopened(kept, "1_Load")
    assert "the cleaned and cleared suspects in the address are no longer kept" in \
        texts(refused)
    assert "ran before" not in texts(page(refused, "5_Replay"))
    assert refused.session_state["dgrr_computed_plan"].clean_source == {}


def test_a_replay_too_large_to_keep_is_tried_once_and_the_address_names_none(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setenv("DGRR_CASES_DIR", str(tmp_path / "cases"))
    from dgrr_dashboard import kept_cases

    tried = []
    keep = kept_cases.keep_replay

    def counted(kept):
        tried.append(kept)
        return keep(kept)

    monkeypatch.setattr(kept_cases, "MAX_CASE", 1000)  # a replay's file is larger
    monkeypatch.setattr(kept_cases, "keep_replay", counted)
    at = loaded(SAMPLE, objective="both")
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    assert at.session_state["dgrr_result"] is not None
    page(at, "6_Compare")
    page(at, "5_Replay")
    assert "replay" not in address(at)
    assert len(tried) == 1  # not dumped again on every rerun
