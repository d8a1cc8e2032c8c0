"""With the upload worker used (team mode, by default), every content check of the
dashboard runs there, the operator's model judge's too: the worker asks the operator's
model at the operator's address with the key the operator named (never another of the
server's), its calls count in the worker's limits, and a check past a limit or the
judge's budget is not certified, never clean. The Apply panel's check (what apply will
write) goes there as well, and a write on a check that did not finish is refused. The
judge is a scripted OpenAI-compatible server on 127.0.0.1 (`judge_server`)."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
from judge_server import answer_each, scripted_server
from test_dashboard import _ok, loaded, page, plain, texts
from test_dashboard_upload_worker import ROOMY
from test_replay_fault_echo import _hostile

from dgrr_dashboard import result_check, upload_client
from dgrr_dashboard.apply_panel import run_apply
from dgrr_dashboard.judge_settings import JudgeSettings
from dgrr_dashboard.result_check import LIMIT_REACHED, check_in_worker
from dgrr_dashboard.upload_client import LimitExceeded, verify_in_worker
from dgrr_dashboard.worker_messages import WorkerRequest
from repair_core import load_example, plan_case, repair
from repair_core.approvals import ApprovalStore, record_decision
from repair_core.model import POLICIES
from repair_core.replay import replay_again
from repair_core.verification import verify_result

JUDGE = "openai/scripted-judge"
DENIES = "Lin does not want window seats."  # a negation: the lexical judge is unsure


@pytest.fixture(scope="module")
def _home(tmp_path_factory):
    return tmp_path_factory.mktemp("home")


@pytest.fixture(autouse=True)
def _settings(tmp_path, monkeypatch, _home):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))
    # one HOME for the module: a worker's environment holds HOME, and a spare started
    # with another one is stopped unused, so a HOME per test threw away the spare (and
    # its litellm import, about 6 CPU s) each test before had left waiting
    monkeypatch.setenv("HOME", str(_home))
    # for the same reason one locale and one CPU limit (the page's and apply's jobs have
    # ROOMY's), and the tests ordered so that those that change the environment or the
    # limits come last: a spare is used only by a job with its environment and limits
    monkeypatch.setenv("LC_TIME", "C")
    monkeypatch.setenv("DGRR_UPLOAD_CPU_SECONDS", str(ROOMY.cpu_seconds))
    monkeypatch.setitem(POLICIES, "denies-window", _hostile(DENIES, {"answer"}))


def _denied():
    """The example's plan and its replay by a model that adds the negation to the answer."""
    plan = plan_case(load_example())
    return plan, repair(plan.case, plan, model="dgrr/denies-window")


def _deny(text):
    return "no", "it denies the fault"


def _server_checks_nothing(monkeypatch):
    """Make the server's own content check fail: what passes ran in the worker."""
    import repair_core.verification as verification
    from repair_core.replay import _executor

    def checked_here(*args, **kwargs):
        raise AssertionError("the server ran the content check in its own interpreter")

    monkeypatch.setattr(_executor, "verify_result", checked_here)
    monkeypatch.setattr(verification, "verify_result", checked_here)


def test_the_workers_model_judge_check_is_the_one_made_here():
    plan, result = _denied()
    assert verify_result(plan.case, result).outcome == "not_certified"  # lexical alone
    with scripted_server(answer_each(_deny)) as server:
        settings = JudgeSettings(model=JUDGE, api_base=server.api_base, budget=300)
        there = verify_in_worker(plan.case, result.model_dump_json(), [], judge=settings,
                                 limits=ROOMY)
        assert len(server.requests) == 1  # asked from the worker
        here = verify_result(plan.case, result, judge=settings.model_judge())
    assert there.outcome == "clean" and there.judges == ["lexical", f"model:{JUDGE}"]
    assert there.judge_use.calls == 1
    assert there == here


def test_a_check_with_the_judge_is_made_by_a_spare_started_for_the_judge():
    # litellm's import (about 6 CPU s) is made by a spare that waits for the next check
    # with the judge, not by the worker each check starts; uploads keep their own spare
    plan, result = _denied()
    with scripted_server(answer_each(_deny)) as server:
        settings = JudgeSettings(model=JUDGE, api_base=server.api_base, budget=300)
        verify_in_worker(plan.case, result.model_dump_json(), [], judge=settings,
                         limits=ROOMY)
        [spare] = [p for p in upload_client._SPARE if p.args[-1] == "judge"]
        assert spare.poll() is None  # waiting for its request
        verify_in_worker(plan.case, result.model_dump_json(), [], judge=settings,
                         limits=ROOMY)
    assert spare.returncode == 0 and spare not in upload_client._SPARE  # it made the check
    assert len(server.requests) == 2  # each check asked the judge (no cache folder)
    verify_in_worker(plan.case, result.model_dump_json(), [], limits=ROOMY)
    assert any(p.args[-1] != "judge" for p in upload_client._SPARE)


def test_a_spent_judge_budget_in_the_worker_is_not_certified():
    plan, result = _denied()
    with scripted_server(answer_each(_deny)) as server:
        settings = JudgeSettings(model=JUDGE, api_base=server.api_base, budget=0)
        there = verify_in_worker(plan.case, result.model_dump_json(), [], judge=settings,
                                 limits=ROOMY)
    assert server.requests == []
    assert there.outcome == "not_certified" and not there.clean
    assert [u.reason for u in there.uncertain] == ["judge-budget-spent"]


def test_in_team_mode_the_pages_model_judge_checks_run_in_the_worker(monkeypatch):
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "on")
    monkeypatch.setenv("DGRR_JUDGE", JUDGE)
    with scripted_server(answer_each(_deny)) as server:
        monkeypatch.setenv("DGRR_JUDGE_API_BASE", server.api_base)
        at = loaded()
        _server_checks_nothing(monkeypatch)
        page(at, "5_Replay")
        at.text_input(key="dgrr_w_model").set_value("dgrr/denies-window")
        _ok(at.button(key="dgrr_w_run_replay").click().run())
        verification = at.session_state["dgrr_result"].verification
        assert verification is not None and verification.outcome == "clean"
        page(at, "7_Approve")
    # the replay's check asked, and Approve's fresh check asked again, both from the worker
    assert len(server.requests) == 2
    shown = texts(at)
    assert ("clean by lineage and the lexical judge and the judge "
            "model:openai/scripted-judge (nothing carries a fault and nothing was left "
            "uncertain)") in shown, shown
    # the model string is shown as text: its punctuation escaped, never read as Markdown
    assert [c.value for c in at.caption if "model\\:openai\\/scripted\\-judge" in c.value]
    assert not [c for c in at.checkbox if "agent would read each" in plain(c.label)]


def _apply_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "on")
    monkeypatch.setenv("DGRR_APPLY_TO", "langgraph")
    monkeypatch.setenv("DGRR_APPLY_STORE", "agent_store_not_opened_by_a_dry_run:store")
    monkeypatch.setenv("DGRR_APPLY_DIR", str(tmp_path / "journal"))
    return str(tmp_path / "approvals.db")


def _carrier_check(run) -> str:
    [line] = [x for x in run.lines if x.startswith("check carriers of a fault")]
    return line


def test_in_team_mode_the_apply_panels_check_runs_in_the_worker(tmp_path, monkeypatch):
    url = _apply_settings(tmp_path, monkeypatch)
    plan, result = _denied()
    _server_checks_nothing(monkeypatch)
    # the lexical judge alone, in the worker: the negation is not certified clean
    dry = run_apply(url, plan, result, write=False, reviewer="Ana")
    assert _carrier_check(dry) == "check carriers of a fault: failed: 1 carrier not acknowledged"
    assert ("carriers of a fault or items not certified clean the approval did not "
            "acknowledge: s10:m3") in dry.lines
    # the operator's model judge, asked from the worker, clears it
    with scripted_server(answer_each(_deny)) as server:
        settings = JudgeSettings(model=JUDGE, api_base=server.api_base, budget=300)
        judged = run_apply(url, plan, result, write=False, reviewer="Ana", judge=settings)
    assert len(server.requests) == 1
    assert _carrier_check(judged) == ("check carriers of a fault: passed: none the approval "
                                      "did not acknowledge")


def test_the_apply_panel_refuses_to_write_on_a_check_that_did_not_finish(tmp_path,
                                                                          monkeypatch):
    url = _apply_settings(tmp_path, monkeypatch)
    plan, result = _denied()
    log = ApprovalStore(url)
    # approved with the not-certified answer acknowledged, as `dgrr approve --acknowledge`
    record_decision(log, plan, reviewer="Ana", decision="approve", result=result,
                    acknowledged=["s10:m3"], carrier_ids=["s10:m3"], recompute=replay_again)
    dry = run_apply(url, plan, result, write=False, reviewer="Ana")
    assert dry.refusal is None
    assert _carrier_check(dry) == ("check carriers of a fault: passed: none the approval did "
                                   "not acknowledge")

    def over_limit(*args, **kwargs):
        raise LimitExceeded(["refused: it needs more than the 1 CPU seconds an upload may "
                             "use here (setting upload_cpu_seconds / "
                             "$DGRR_UPLOAD_CPU_SECONDS)"], source="the content check")

    monkeypatch.setattr(result_check, "verify_in_worker", over_limit)
    dry = run_apply(url, plan, result, write=False, reviewer="Ana")
    assert _carrier_check(dry).startswith(
        f"check carriers of a fault: failed: not certified: {LIMIT_REACHED}; refused: it "
        "needs more than the 1 CPU seconds"), dry.lines
    wrote = run_apply(url, plan, result, write=True, reviewer="Ana")
    assert wrote.refusal is not None and wrote.refusal.startswith(
        "refused: the content check of the result is not certified"), wrote.refusal
    assert wrote.refusal.endswith("nothing written")
    assert [r.kind for r in ApprovalStore(url).history()] == ["decision"]  # no intent row


def test_the_worker_sends_the_judge_only_the_key_the_operator_named(monkeypatch):
    plan, result = _denied()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-servers-own")
    monkeypatch.setenv("DGRR_TEST_JUDGE_KEY", "the-judges-key")
    with scripted_server(answer_each(_deny)) as server:
        unnamed = JudgeSettings(model=JUDGE, api_base=server.api_base, budget=300)
        named = unnamed.model_copy(update={"api_key_env": "DGRR_TEST_JUDGE_KEY"})
        for settings in (unnamed, named):
            verify_in_worker(plan.case, result.model_dump_json(), [], judge=settings,
                             limits=ROOMY)
            # the request names the variable; its value never travels in it
            line = WorkerRequest(job="verify", source="s", judge=settings).model_dump_json()
            assert "the-judges-key" not in line and "sk-the-servers-own" not in line
    assert server.keys == ["Bearer dgrr-no-key", "Bearer the-judges-key"]


def _environment_of(pid: int) -> dict[str, str]:
    """The environment process `pid` was started with, as the kernel keeps it."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace")
    return dict(entry.split("=", 1) for entry in raw.split("\0") if "=" in entry)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_a_worker_is_started_with_none_of_the_servers_secrets(monkeypatch):
    """A worker reads visitors' uploads: it is given the server's path, home, temporary
    folder and locale, and the judge's worker the one key variable the operator named,
    never another secret of the server's."""
    monkeypatch.setenv("DGRR_TEST_SECRET", "the-servers-secret")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-servers-own")
    monkeypatch.setenv("DGRR_TEST_JUDGE_KEY", "the-judges-key")
    monkeypatch.setenv("LC_TIME", "C")
    plan, result = _denied()
    with scripted_server(answer_each(_deny)) as server:
        settings = JudgeSettings(model=JUDGE, api_base=server.api_base, budget=300,
                                 api_key_env="DGRR_TEST_JUDGE_KEY")
        there = verify_in_worker(plan.case, result.model_dump_json(), [], judge=settings,
                                 limits=ROOMY)
    assert there.outcome == "clean" and server.keys == ["Bearer the-judges-key"]
    verify_in_worker(plan.case, result.model_dump_json(), [], limits=ROOMY)
    # the spares each job left waiting were started as the job's worker was
    spares = {p.args[-1] == "judge": p for p in upload_client._SPARE}
    assert set(spares) == {True, False}
    for judged, proc in spares.items():
        # what it was started with, and what the kernel holds while it runs (a process
        # that has already ended shows an empty environment there)
        seen = [proc.environment]
        if proc.poll() is None and (kept := _environment_of(proc.pid)):
            seen.append(kept)
        for given in seen:
            assert "DGRR_TEST_SECRET" not in given and "OPENAI_API_KEY" not in given, judged
            assert given.get("DGRR_TEST_JUDGE_KEY") == ("the-judges-key" if judged else None)
            assert given["PATH"] == os.environ["PATH"] and given["HOME"] == os.environ["HOME"]
            assert given["LC_TIME"] == "C"


def test_the_workers_environment_is_the_named_few_of_the_servers():
    server = {"PATH": "/bin", "HOME": "/home/op", "LANG": "C.UTF-8", "LC_ALL": "C",
              "PYTHONPATH": "/srv/dgrr", "DGRR_DB": "postgresql://op:pw@db/dgrr",
              "OPENAI_API_KEY": "sk-x", "JUDGE_KEY": "k", "AWS_SECRET_ACCESS_KEY": "a"}
    assert upload_client.worker_environment(None, server) == {
        "PATH": "/bin", "HOME": "/home/op", "LANG": "C.UTF-8", "LC_ALL": "C",
        "PYTHONPATH": "/srv/dgrr"}
    assert upload_client.worker_environment("JUDGE_KEY", server)["JUDGE_KEY"] == "k"
    assert "OPENAI_API_KEY" not in upload_client.worker_environment("JUDGE_KEY", server)


@pytest.fixture()
def short_wall(monkeypatch):
    """The settings' worker limits with a wall clock of 12 s: a stalled judge is stopped
    by them. The judge must be asked before the limit, or the test would pass on the
    worker's start; see `_judge_spare_waiting`."""
    monkeypatch.setenv("DGRR_UPLOAD_CPU_SECONDS", "12")
    monkeypatch.setattr("dgrr_dashboard.upload_client.WALL_FACTOR", 1)


def _cpu_and_state(pid: int) -> tuple[int, str]:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return int(fields[11]) + int(fields[12]), fields[0]


def _judge_spare_waiting(settings: JudgeSettings) -> upload_client._Worker:
    """The judge's spare for the limits in force, started and waited for until it has
    imported litellm and sleeps on its input (its CPU time still over a second): the
    next check's wall clock then runs from a worker that is ready, as on a server between
    two checks. A fresh worker's import (about 5 CPU s) took longer than the 12 s limit on
    a loaded machine, and the judge was never asked."""
    upload_client._refill(upload_client.worker_limits(), True,
                          upload_client.worker_environment(settings.api_key_env))
    [spare] = [p for p in upload_client._SPARE if p.args[-1] == "judge"]
    deadline, last = time.monotonic() + 300, (-1, "")
    while time.monotonic() < deadline:
        time.sleep(1)
        now = _cpu_and_state(spare.pid)
        if now == last and now[1] == "S":
            return spare
        last = now
    pytest.fail("the judge's spare did not finish starting in 300 s")


def test_a_judge_slower_than_the_workers_limit_is_not_certified(short_wall):
    plan, result = _denied()
    release, asked = threading.Event(), threading.Event()

    def stalled(messages):
        asked.set()
        release.wait(60)
        return json.dumps({"verdict": "no", "evidence": "late"})

    with scripted_server(stalled) as server:
        settings = JudgeSettings(model=JUDGE, api_base=server.api_base, budget=300)
        spare = _judge_spare_waiting(settings)
        try:
            check, why, problems = check_in_worker(
                plan.case, result.model_dump_json(), [], judge=settings)
        finally:
            release.set()
    assert spare.returncode is not None and spare not in upload_client._SPARE  # it was used
    assert asked.is_set(), "the worker was stopped before it asked the judge"
    assert check is None and why == LIMIT_REACHED
    assert "longer than 12 s of wall-clock time" in problems[0], problems
