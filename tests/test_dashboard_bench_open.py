"""The Benchmark page opens exactly the case a result was computed on (a controlled case and
its noisy variant share their id), with the plan the method ran (its objective, edits and
suspects setting), labelled as such; a case it cannot tell is refused with the reason."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from dgrr_dashboard.bench_browse import (  # noqa: E402
    BenchFolder,
    find_case_file,
    method_plan,
    read_folder,
    suite_folder,
)
from repair_core import load_case, plan_case  # noqa: E402

APP = str(ROOT / "app.py")
CASE = "ctl-007-shopping-poisoned"
NOISY = ROOT / "sample_traces" / "controlled-noisy" / f"{CASE}.json"
CLEAN = ROOT / "sample_traces" / "controlled" / f"{CASE}.json"


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def test_the_two_files_share_the_id_but_not_the_fault():
    assert load_case(NOISY).case_id == load_case(CLEAN).case_id == CASE
    assert load_case(NOISY).faults != load_case(CLEAN).faults


def test_a_committed_folder_is_read_by_its_suites_name():
    folder = read_folder(ROOT / "docs" / "results" / "controlled-noisy")
    assert suite_folder(folder) == ROOT / "sample_traces" / "controlled-noisy"
    path, _ = find_case_file(CASE, folder, [ROOT / "sample_traces"])
    assert path == NOISY


def test_bench_run_records_the_file_each_case_was_read_from(tmp_path):
    from repair_core.bench import run_bench

    noisy = tmp_path / "noisy"
    noisy.mkdir()
    shutil.copy(NOISY, noisy)
    out = tmp_path / "out"
    run_bench([noisy / NOISY.name], ["no_repair"], out, progress=False, suite="dashboard")
    run = json.loads((out / "run.json").read_text())
    assert run["case_paths"] == {CASE: str((noisy / NOISY.name).resolve())}
    # a later run on another case keeps the earlier one's file named
    other = ROOT / "sample_traces" / "controlled" / "ctl-001-travel-wrong-user.json"
    run_bench([other], ["no_repair"], out, progress=False, suite="dashboard")
    assert set(json.loads((out / "run.json").read_text())["case_paths"]) == \
        {CASE, "ctl-001-travel-wrong-user"}
    found, where = find_case_file(CASE, read_folder(out), [ROOT / "sample_traces"])
    assert found == (noisy / NOISY.name).resolve() and where == "the file the run recorded"


def test_a_case_that_cannot_be_told_apart_is_refused_with_the_reason(tmp_path):
    roots = [tmp_path / "a", tmp_path / "b"]
    for root, source in zip(roots, (NOISY, CLEAN), strict=True):
        root.mkdir()
        shutil.copy(source, root)
    folder = BenchFolder(path=tmp_path / "results-of-nowhere", run={}, rows=[])
    path, why = find_case_file(CASE, folder, roots)
    assert path is None and "several different files have this case_id" in why
    # a suite folder that no longer holds it: said, not found elsewhere
    gone = BenchFolder(path=tmp_path / "x", run={"suite": str(tmp_path / "a")}, rows=[])
    (tmp_path / "a" / NOISY.name).unlink()
    path, why = find_case_file(CASE, gone, roots)
    assert path is None and "has no file with this case_id" in why


def test_the_method_plan_is_the_plan_the_benchmark_ran():
    case = load_case(NOISY)
    ran = method_plan(case, "ours")
    assert ran.plan.objective == "answer" and not ran.plan.edits and not ran.skipped
    assert ran.plan.replay_set == plan_case(case).replay_set
    assert "objective answer, suspects quarantine, 0 edits" in ran.label()
    assert method_plan(case, "ours_store").plan.objective == "store"


def _open_in_workbench(method: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300).run()
    at.switch_page("pages/8_Benchmark.py").run()
    at.selectbox(key="dgrr_w_bench_committed").set_value(
        "committed: docs/results/controlled-noisy").run()
    at.checkbox(key="dgrr_w_bs_only").uncheck().run()
    at.selectbox(key="dgrr_w_bs_case").set_value(CASE).run()
    at.selectbox(key="dgrr_w_bs_open_method").set_value(method).run()
    at.button(key="dgrr_w_bs_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_open_in_the_workbench_opens_the_noisy_case_with_the_plan_as_run():
    at = _open_in_workbench("ours")
    case = at.session_state["dgrr_case"]
    assert case.faults == ["m15"]  # the noisy case's fault, not the controlled one's m11
    assert at.session_state["dgrr_objective"] == "answer"
    success = " ".join(s.value for s in at.success)
    assert "controlled-noisy" in success and "objective answer" in success
    at.switch_page("pages/4_Plan.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("This is the plan benchmark method ours ran" in i.value for i in at.info)
    shown = {m.label: m.value for m in at.metric}
    assert shown["Replayed steps"] == str(len(plan_case(case).replay_set))
    # changing the objective is a change from the plan as run, which the page shows
    at.radio(key="dgrr_w_objective").set_value("both").run()
    at.run()
    assert any("Changed from the plan benchmark method ours ran" in w.value
               for w in at.warning)
    [changes] = [d.value for d in at.dataframe if "as run" in d.value.columns]
    assert changes.iloc[0].to_dict() == {"node": "(objective)", "as run": "answer",
                                         "now": "both"}
