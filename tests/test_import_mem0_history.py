"""A Mem0 history database on its own (`dgrr import --store history.db`, no trace): a case
of records and their lineage, no steps, planned for the store, repaired and written back
to the real Mem0 store. The history is what the real `mem0ai` wrote (offline, Mem0's own
`add(infer=True)` with a scripted LLM: scripts/mem0_history_run.py): a poisoned UPDATE of
the seat memory that a later UPDATE merged into, and a poisoned UPDATE of the meal memory
that is still its current text."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))  # not ~/.mem0
pytest.importorskip("mem0", reason="needs the 'import' extra (mem0ai)")

from repair_core import load_case, plan_case  # noqa: E402
from repair_core._errors import ObjectiveError  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.importers import import_trace  # noqa: E402
from repair_core.integrations.mem0 import QUARANTINE_USER, mem0_get_all, mem0_search  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import mem0_history_run as run  # noqa: E402
from mem0_travel_store import make_memory  # noqa: E402

SAMPLE = ROOT / "sample_imports" / "mem0-history"


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mem0-history")
    return run.build(folder), folder


def _faults(ids: dict[str, str]) -> str:
    # the poisoned seat version (since merged into by a later UPDATE) and the meal memory
    # whose current text is a poisoned UPDATE
    return f"{ids['seat-window']},{ids['meal']}"


def _import(folder: Path, ids: dict[str, str], out: Path, capsys) -> str:
    assert main(["import", "--store", str(folder / "history.db"), "--user", "lin",
                 "--faults", _faults(ids), "--out", str(out)]) == 0
    return capsys.readouterr().out


def test_mem0_wrote_the_lineage_itself(history):
    ids, folder = history
    con = sqlite3.connect(folder / "history.db")
    try:
        rows = con.execute("SELECT memory_id, old_memory, new_memory, event FROM history "
                           "ORDER BY rowid").fetchall()
    finally:
        con.close()
    assert [r[3] for r in rows] == ["ADD"] * 4 + ["UPDATE"] * 3 + ["DELETE"]
    assert (ids["seat"], run.WINDOW, run.LEGROOM, "UPDATE") in rows
    assert (ids["meal"], run.VEGETARIAN, run.ANYTHING, "UPDATE") in rows


def test_history_alone_is_a_case_of_records_and_lineage(history, tmp_path, capsys):
    ids, folder = history
    out = _import(folder, ids, tmp_path / "case.json", capsys)
    assert "no trace: a case of the store's records and their lineage alone" in out
    case = load_case(tmp_path / "case.json")
    assert case.trajectory == [] and case.session == [] and case.user_id == "lin"
    records = {m.id: m for m in case.memory}
    # every text Mem0 wrote: 4 memories' current texts and 3 replaced ones
    assert len(records) == 7
    seat, window, aisle = (records[ids[n]] for n in ("seat", "seat-window", "seat-aisle"))
    assert (seat.text, seat.status) == (run.LEGROOM, "active")
    assert (window.text, window.status) == (run.WINDOW, "superseded")
    assert (aisle.text, aisle.status) == (run.AISLE, "superseded")
    assert records[ids["delta"]].status == "deleted"
    # lineage: each UPDATE's text rewrote the text it replaced; the current text retires
    # the one it replaced
    assert [(d.id, d.label) for d in seat.deps] == [(ids["seat-window"], "update")]
    assert [(d.id, d.label) for d in window.deps] == [(ids["seat"], "delete"),
                                                      (ids["seat-aisle"], "update")]
    assert aisle.deps == []
    assert {(m.model_extra or {}).get("mem0_memory_id") for m in (seat, window, aisle)} == \
        {ids["seat"]}
    assert (seat.model_extra or {}).get("mem0_role") == "user"
    again = import_trace([], store=folder / "history.db", user="lin").case
    assert again.case_id == case.case_id  # the same history is the same case


def test_store_plan_quarantines_what_derives_from_the_poison(history, tmp_path, capsys):
    ids, folder = history
    _import(folder, ids, tmp_path / "case.json", capsys)
    assert main(["plan", str(tmp_path / "case.json"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["objective"] == "store"  # the default for a case without an answer
    assert report["memory"] == {
        ids["home"]: "keep", ids["seat"]: "quarantine", ids["seat-window"]: "delete",
        ids["seat-aisle"]: "restore", ids["meal"]: "delete", ids["meal-vegetarian"]: "restore",
        ids["delta"]: "keep"}
    assert report["steps"] == {}
    # the path from the fault, not a loop through the text that carries it
    assert report["reasons"][ids["seat"]].startswith(
        f"affected via {ids['seat-window']} → {ids['seat']};")
    assert main(["plan", str(tmp_path / "case.json"), "--objective", "store", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == report
    assert main(["plan", str(tmp_path / "case.json")]) == 0
    text = capsys.readouterr().out
    assert "Objective: store" in text and "Trajectory: none" in text
    assert main(["plan", str(tmp_path / "case.json"), "--ops"]) == 0
    ops = json.loads(capsys.readouterr().out)
    assert {(o["op"], o.get("record") or o.get("id")) for o in ops} == {
        ("revoke", ids["meal"]), ("revoke", ids["seat-window"]), ("quarantine", ids["seat"]),
        ("restore", ids["meal-vegetarian"]), ("restore", ids["seat-aisle"])}


@pytest.mark.parametrize("objective", ["answer", "both"])
def test_answer_objective_without_an_answer_step_is_refused(history, tmp_path, capsys,
                                                            objective):
    ids, folder = history
    _import(folder, ids, tmp_path / "case.json", capsys)
    assert main(["plan", str(tmp_path / "case.json"), "--objective", objective]) == 2
    err = capsys.readouterr().err
    assert f"objective '{objective}'" in err and "no answer step" in err
    assert "--objective store" in err and "Traceback" not in err
    assert main(["repair", str(tmp_path / "case.json"), "--objective", objective]) == 2
    assert "no answer step" in capsys.readouterr().err
    with pytest.raises(ObjectiveError, match="no answer step"):
        plan_case(load_case(tmp_path / "case.json"), objective=objective)  # type: ignore[arg-type]


def test_approved_store_repair_is_applied_to_mem0(tmp_path, capsys):
    """Import, repair, approve and apply as a user would; then the agent's own next
    searches and listings (by user, agent and run) never return the poisoned texts."""
    ids = run.build(tmp_path / "mem0")
    case, result = tmp_path / "case.json", tmp_path / "result.json"
    _import(tmp_path / "mem0", ids, case, capsys)
    assert main(["repair", str(case), "--json"]) == 0
    result.write_text(capsys.readouterr().out)
    data = json.loads(result.read_text())
    assert data["answer"] is None and data["original_answer"] == ""
    assert data["report"]["objective"] == "store"
    factory = tmp_path / "mem0_history_factory.py"
    factory.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT / "scripts")!r})
        from mem0_travel_store import make_memory

        def memory():
            return make_memory({str(tmp_path / "mem0")!r})
    """))
    memory = make_memory(tmp_path / "mem0")
    try:
        meal_before = memory.get(ids["meal"])
    finally:
        memory.vector_store.client.close()
    db, journal = str(tmp_path / "approvals.db"), str(tmp_path / "journal")
    assert main(["approve", str(case), "--reviewer", "ana", "--decision", "approve",
                 "--result", str(result), "--db", db]) == 0
    sys.path.insert(0, str(tmp_path))
    try:
        assert main(["apply", str(result), "--case", str(case), "--to", "mem0", "--store",
                     "mem0_history_factory:memory", "--db", db, "--journal", journal,
                     "--apply", "--reviewer", "ops"]) == 0
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("mem0_history_factory", None)
    out = capsys.readouterr().out
    # the superseded poisoned version is not in the store: nothing to delete there
    assert "quarantine" in out and "restore" in out and ids["seat-window"] not in out
    memory = make_memory(tmp_path / "mem0")
    try:
        reachable = set()
        for scope in ({"user_id": "lin"}, {"agent_id": "travel-bot"}, {"run_id": "trip-42"},
                      run.SCOPE):
            reachable |= {m["memory"] for m in mem0_get_all(memory, **scope)}
            for query in ("seat preference", "window seats", "what does Lin eat"):
                reachable |= {m["memory"] for m in mem0_search(memory, query, **scope)}
        assert reachable == {run.HOME, run.AISLE, run.VEGETARIAN}
        hidden = {m["memory"] for m in mem0_get_all(memory, user_id=QUARANTINE_USER)}
        assert hidden == {run.LEGROOM}
        listed = {m["memory"]: m for m in mem0_get_all(memory, **run.SCOPE)}
        restored = listed[run.VEGETARIAN]
        # the restored memories keep every scope id and the metadata of the memory they
        # were a version of, and name the history row they came from
        for text in (run.AISLE, run.VEGETARIAN):
            assert (listed[text]["user_id"], listed[text]["agent_id"],
                    listed[text]["run_id"]) == ("lin", "travel-bot", "trip-42")
        assert listed[run.AISLE]["metadata"]["dgrr_restored_from"] == ids["seat-aisle"]
        kept = {k: v for k, v in restored["metadata"].items() if k != "dgrr_restored_from"}
        assert kept == (meal_before.get("metadata") or {})
        assert restored["metadata"]["dgrr_restored_from"] == ids["meal-vegetarian"]
        assert [(h["event"], h["old_memory"]) for h in memory.history(ids["seat"])][-1] == \
            ("DELETE", run.LEGROOM)
    finally:
        memory.vector_store.client.close()


def test_committed_history_sample_plans_as_documented():
    ids = json.loads((SAMPLE / "ids.json").read_text())
    case = import_trace([], store=SAMPLE / "history.db", user="lin",
                        faults=_faults(ids).split(",")).case
    plan = plan_case(case)
    assert plan.objective == "store"
    assert plan.memory[ids["seat"]] == "quarantine" and plan.memory[ids["meal"]] == "delete"
    assert plan.memory[ids["meal-vegetarian"]] == "restore"
    assert plan.memory[ids["seat-aisle"]] == "restore"
    assert plan.memory[ids["seat-aisle"]] == "restore"
    doc = (ROOT / "docs" / "import.md").read_text(encoding="utf-8")
    assert ids["seat"] in doc and ids["meal-vegetarian"] in doc


def test_dashboard_marks_faults_and_plans_the_store(history, tmp_path, capsys):
    """The dashboard with the history alone: the Faults page marks the poisoned version and
    memory by id, the Plan page plans the store (the only objective offered) and shows it."""
    from streamlit.testing.v1 import AppTest

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    ids, folder = history
    assert main(["import", "--store", str(folder / "history.db"), "--user", "lin",
                 "--out", str(tmp_path / "case.json")]) == 0
    capsys.readouterr()
    os.environ.setdefault("DGRR_DB", str(tmp_path / "approvals.db"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["dgrr_case"] = load_case(tmp_path / "case.json")
    at.session_state["dgrr_loaded_faults"] = []
    at.run()
    for page in ("1_Load", "2_Faults"):
        at = at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
    pick = next(m for m in at.multiselect if m.key.startswith("dgrr_w_fault_pick_"))
    pick.set_value(_faults(ids).split(","))
    at = at.run()
    at = at.button(key="dgrr_w_apply_pick").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["dgrr_case"].faults == _faults(ids).split(",")
    at = at.switch_page("pages/4_Plan.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key="dgrr_w_objective").options == ["store"]
    plan = at.session_state["dgrr_computed_plan"]
    assert plan.objective == "store"
    assert plan.memory[ids["seat"]] == "quarantine"
    assert plan.memory[ids["meal-vegetarian"]] == "restore"
    assert plan.memory[ids["seat-aisle"]] == "restore"
