"""The content check of a replay's result runs in the upload worker when the worker is
used (team mode, by default): the Replay page's check after a replay and the Approve
page's hold no other session up, and a check past the worker's limits is shown as not
certified, never as clean, and cannot be approved."""

from __future__ import annotations

import json
import time

import pytest
from script_module import load_script
from test_dashboard import _ok, _record, loaded, page, plain, texts
from test_dashboard_upload_worker import ROOMY
from test_replay_fault_echo import _hostile

from dgrr_dashboard import result_check, upload_client
from dgrr_dashboard.replay_job import ReplayJob
from dgrr_dashboard.result_check import LIMIT_REACHED
from dgrr_dashboard.upload_client import LimitExceeded, WorkerLimits, verify_in_worker
from repair_core import CaseError, load_example, parse_case, plan_case, repair
from repair_core.approvals import check_sources
from repair_core.model import POLICIES, ModelClient
from repair_core.verification import verify_result


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def test_the_workers_check_is_the_check_made_here(monkeypatch):
    monkeypatch.setitem(POLICIES, "says-window", _hostile("Lin prefers WINDOW seats!",
                                                          {"answer"}))
    plan = plan_case(load_example())
    result = repair(plan.case, plan, model="dgrr/says-window")
    here = verify_result(plan.case, result, sources=["m3"])
    there = verify_in_worker(plan.case, result.model_dump_json(), ["m3"], limits=ROOMY)
    assert there.carriers and there.outcome == "carriers"
    assert there == here
    # and the check `repair` makes at the end of the replay, on the sources the page sends
    assert there == repair(plan.case, plan, model="dgrr/says-window").verification
    assert check_sources(plan) == []


def test_the_servers_own_replay_is_read_there_as_here():
    # a replay whose refreshed observation's output was given by hand: in the server's
    # process it is the replay's own; sent as a file, it is the result's word alone
    from test_rules_gate_lineage import (
        HANDBOOK_REFRESHED,
        HOLIDAYS,
        MENU_AGAIN,
        TWO_EDITS,
        _two_writes,
    )

    from repair_core import apply_edits, case_from_data

    data, _ = _two_writes()
    plan = apply_edits(plan_case(case_from_data(data), objective="store"), TWO_EDITS)
    result = repair(plan.case, plan, observations={"s0a": HOLIDAYS, "s1a": HANDBOOK_REFRESHED,
                                                   "s5a": MENU_AGAIN})
    here = result.verification
    assert here is not None and here.uncertain
    sent = result.model_dump_json()
    there = verify_in_worker(plan.case, sent, check_sources(plan), limits=ROOMY,
                             made_here=True)
    assert there == here
    # made again there too (as the Apply panel asks): the recomputation reads its JSON
    assert verify_in_worker(plan.case, sent, check_sources(plan), limits=ROOMY,
                            made_here=True, recompute=True) == here
    edited = json.loads(sent)
    edited["answer"] = "Something else."
    with pytest.raises(CaseError, match="answer"):
        verify_in_worker(plan.case, json.dumps(edited), check_sources(plan), limits=ROOMY,
                         made_here=True, recompute=True)
    as_file = verify_in_worker(plan.case, sent, check_sources(plan), limits=ROOMY)
    assert as_file != here
    assert any("an output was supplied by hand" in u.why for u in as_file.uncertain)
    assert not any("supplied by hand" in u.why for u in here.uncertain)


def test_a_result_sent_as_the_servers_own_that_is_no_result_is_named_so():
    # JSON that is no repair result is refused for what it is, not called "not JSON"
    from dgrr_dashboard.upload_worker import _verify
    from dgrr_dashboard.worker_messages import WorkerRequest
    from repair_core import CaseError

    case = load_example().model_dump_json().encode()
    request = WorkerRequest(job="verify", source="the content check of case x",
                            names=["case", "result"], made_here=True)
    with pytest.raises(CaseError) as err:
        _verify(request, [case, b'{"answer": 1}'])
    assert "the result sent is not a repair result" in str(err.value), str(err.value)
    with pytest.raises(CaseError) as err:
        _verify(request, [case, b"{not json"])
    assert "the result sent is not JSON" in str(err.value), str(err.value)


def _heavy_check(cpu_seconds: float):
    """The smallest hostile case at scales 2, 4, 8, ... whose content check takes at least
    `cpu_seconds` here, measured in this process, with its repair: a fixed size (1,800
    records, 4.7 CPU s once) fell inside the limit as the check became faster. The
    repair leaves the check out (`check=False`), as the dashboard's replay does before it
    sends the result to the worker: the check it would make is the one measured here."""
    bench = load_script("benchmarks/content_scale.py")
    scale = 2
    while True:
        case = parse_case(json.dumps(bench.carrier_case(scale, records=600)).encode(),
                          source="inbox.json")
        result = repair(case, plan_case(case), check=False)
        start = time.process_time()
        verify_result(case, result)
        if time.process_time() - start >= cpu_seconds or scale >= 256:
            return case, result
        scale *= 2


def test_a_check_past_the_cpu_limit_is_a_limit_exceeded():
    case, result = _heavy_check(3)
    with pytest.raises(LimitExceeded) as refused:
        verify_in_worker(case, result.model_dump_json(), [],
                         limits=WorkerLimits(cpu_seconds=1, memory_mb=2048, wall_seconds=60))
    assert "CPU seconds" in refused.value.problems[0] or "wall-clock" in refused.value.problems[0]


def _replayed(monkeypatch):
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "on")
    monkeypatch.setitem(POLICIES, "says-window", _hostile("Lin prefers WINDOW seats!",
                                                          {"answer"}))
    at = loaded()
    page(at, "5_Replay")
    at.text_input(key="dgrr_w_model").set_value("dgrr/says-window")
    return _ok(at.button(key="dgrr_w_run_replay").click().run())


def test_with_the_worker_the_approve_pages_check_runs_there(monkeypatch):
    import repair_core.verification as verification

    at = _replayed(monkeypatch)
    asked = []
    real = upload_client.verify_in_worker

    def in_worker(*args, **kwargs):
        asked.append(args[2])
        return real(*args, **kwargs)

    def checked_here(*args, **kwargs):
        raise AssertionError("the server ran the content check in its own interpreter")

    monkeypatch.setattr(result_check, "verify_in_worker", in_worker)
    monkeypatch.setattr(verification, "verify_result", checked_here)
    page(at, "7_Approve")
    assert asked, "the check did not go to the worker"
    assert "Content check of what the agent reads next: 1 carrier of a fault" in texts(at)
    [table] = [d.value for d in at.dataframe if "it says" in d.value.columns]
    assert list(table["id"]) == ["s10:m3"]


def _approval_refused(at, shown: list[str], tmp_path) -> None:
    """The Approve page shows no clean check, and an approval with every box ticked is
    refused for the check that is not certified, nothing recorded."""
    assert "clean (nothing carries a fault" not in shown
    at.text_input(key="dgrr_w_reviewer").set_value("Ana")
    at.radio(key="dgrr_w_decision").set_value("approve")
    for c in at.checkbox:
        c.check()
    _record(at)
    assert "the content check is not certified" in plain(at.error[-1].value), texts(at)
    assert not (tmp_path / "approvals.db").exists()


def test_a_check_past_the_limit_is_not_certified_and_cannot_be_approved(tmp_path, monkeypatch):
    at = _replayed(monkeypatch)
    monkeypatch.setattr(result_check, "verify_in_worker", _over_limit)
    page(at, "7_Approve")
    shown = texts(at)
    assert ("Content check of what the agent reads next: not certified: the check ran out "
            "of its CPU/memory limit") in shown
    assert "1 CPU seconds an upload may use here" in shown
    _approval_refused(at, shown, tmp_path)


def test_an_unusable_worker_setting_leaves_the_approve_check_not_certified(tmp_path,
                                                                            monkeypatch):
    # the setting broke after the replay: the check is not run in the server in its place
    import repair_core.verification as verification

    at = _replayed(monkeypatch)

    def checked_here(*args, **kwargs):
        raise AssertionError("the server ran the content check in its own interpreter")

    monkeypatch.setattr(verification, "verify_result", checked_here)
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "sometimes")
    page(at, "7_Approve")
    shown = texts(at)
    assert ("Content check of what the agent reads next: not certified: the upload_worker "
            "setting is not usable, so no check ran") in shown
    assert "'sometimes': expected auto, on or off" in shown
    _approval_refused(at, shown, tmp_path)


def _over_limit(*args, **kwargs):
    raise LimitExceeded(["refused: it needs more than the 1 CPU seconds an upload may use "
                         "here (setting upload_cpu_seconds / $DGRR_UPLOAD_CPU_SECONDS)"],
                        source="the content check")


def test_with_the_worker_the_replay_pages_check_runs_there(monkeypatch):
    from repair_core.replay import _executor

    def checked_here(*args, **kwargs):
        raise AssertionError("the server ran the content check in its own interpreter")

    monkeypatch.setattr(_executor, "verify_result", checked_here)
    at = _replayed(monkeypatch)
    verification = at.session_state["dgrr_result"].verification
    assert [c.id for c in verification.carriers] == ["s10:m3"]
    assert "not certified" not in texts(at)


def test_a_replays_check_past_the_limit_is_not_certified(monkeypatch):
    monkeypatch.setattr(result_check, "verify_in_worker", _over_limit)
    at = _replayed(monkeypatch)
    assert at.session_state["dgrr_result"].verification is None  # not checked: not clean
    shown = texts(at)
    assert ("Content check of what the agent reads next: not certified: the check ran out "
            "of its CPU/memory limit") in shown
    assert "1 CPU seconds an upload may use here" in shown


def test_a_replay_beside_the_page_has_its_check_made_in_the_worker(monkeypatch):
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "on")
    plan = plan_case(load_example())
    job = ReplayJob(plan.case, plan, client=ModelClient()).start()
    assert job.wait(120) and job.error is None, job.error
    assert job.check_unfinished is None
    assert job.result.verification == verify_result(plan.case, job.result)
    monkeypatch.setattr(result_check, "verify_in_worker", _over_limit)
    job = ReplayJob(plan.case, plan, client=ModelClient()).start()
    assert job.wait(120) and job.error is None, job.error
    assert job.check_unfinished == LIMIT_REACHED
    assert job.result.verification is None


def _no_check_here(monkeypatch):
    from repair_core.replay import _executor

    def checked_here(*args, **kwargs):
        raise AssertionError("the server ran the content check in its own interpreter")

    monkeypatch.setattr(_executor, "verify_result", checked_here)


def test_an_unusable_worker_setting_keeps_the_replay_not_certified(monkeypatch):
    # the setting broke after the case was loaded: the replay is kept, its check is not run
    # in the server in the worker's place, and the page says why it is not certified
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "on")
    at = loaded()
    page(at, "5_Replay")  # plans the case, in the worker
    _no_check_here(monkeypatch)
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "sometimes")
    at = _ok(at.button(key="dgrr_w_run_replay").click().run())
    shown = texts(at)
    assert "Replay failed" not in shown
    assert at.session_state["dgrr_result"].verification is None  # not checked: not clean
    assert ("Content check of what the agent reads next: not certified: the upload_worker "
            "setting is not usable, so no check ran") in shown
    assert "'sometimes': expected auto, on or off" in shown


def test_an_unusable_worker_setting_keeps_a_background_replay_not_certified(monkeypatch):
    _no_check_here(monkeypatch)
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "sometimes")
    plan = plan_case(load_example())
    job = ReplayJob(plan.case, plan, client=ModelClient()).start()
    assert job.wait(120) and job.error is None, job.error
    assert job.result is not None and job.result.verification is None
    assert job.check_unfinished == result_check.SETTING_UNUSABLE
    assert any("'sometimes': expected auto, on or off" in p for p in job.check_problems)
