"""A Mem0 history database written by the real `mem0ai` (offline: no telemetry, local
Qdrant, hash embedder, no LLM) as the memory store of an imported trace: records keep
Mem0's ids, status and lineage, and a poisoned UPDATE repairs as in the spec (the new
text deleted, the text it replaced restored, what the run learned from it quarantined)."""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
from pathlib import Path

import pytest

os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))  # not ~/.mem0
pytest.importorskip("mem0", reason="needs the 'import' extra (mem0ai)")
pytest.importorskip("opentelemetry.exporter.otlp.json.file", reason="needs the 'import' extra")

from repair_core import CaseError, plan_case  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.importers import import_trace  # noqa: E402
from repair_core.importers._mem0 import read_mem0_history  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from mem0_travel_store import build  # noqa: E402
from otel_travel_run import STORE  # noqa: E402


@pytest.fixture(scope="module")
def mem0_run(tmp_path_factory):
    return build(tmp_path_factory.mktemp("mem0"))


def _history(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, memory_id, old_memory, new_memory, event "
                           "FROM history").fetchall()
    finally:
        con.close()


def test_history_becomes_records_with_status_and_lineage(mem0_run):
    ids, db, _, _ = mem0_run
    rows = _history(db)
    # what mem0 itself wrote: an ADD per memory, one UPDATE of the seat preference
    assert sorted(r[4] for r in rows) == ["ADD"] * 5 + ["UPDATE"]
    seat_add = next(r[0] for r in rows if r[1] == ids["m3"] and r[4] == "ADD")
    records = {r["id"]: r for r in read_mem0_history(db, user="lin")}
    assert set(records) == {*ids.values(), seat_add}
    current = records[ids["m3"]]
    assert current["text"] == STORE["m3"] and current["status"] == "active"
    old = records[seat_add]
    assert old["text"] == "Lin prefers aisle seats." and old["status"] == "superseded"
    assert old["deps"] == [{"id": ids["m3"], "label": "delete"}]
    for name in ("m2", "m4", "m5"):
        assert records[ids[name]]["text"] == STORE[name]
        assert records[ids[name]]["status"] == "active"


def test_a_poisoned_second_update_restores_only_the_text_it_replaced(tmp_path, capsys):
    from mem0_travel_store import make_memory

    memory = make_memory(tmp_path)
    mid = memory.add("Lin prefers aisle seats.", user_id="lin", infer=False)["results"][0]["id"]
    memory.update(mid, "Lin prefers aisle seats, near the front.")
    memory.update(mid, "Lin prefers window seats.")
    memory.vector_store.client.close()
    records = read_mem0_history(tmp_path / "history.db", user="lin")
    assert [(r["text"], r["status"]) for r in records] == [
        ("Lin prefers window seats.", "active"),
        ("Lin prefers aisle seats, near the front.", "superseded"),
        ("Lin prefers aisle seats.", "superseded")]
    from repair_core import case_from_data

    case = case_from_data({
        "format": "dgrr.case/v1", "case_id": "c", "user_id": "lin",
        "session": [{"id": "u1", "seq": 1, "text": "seat?"}], "memory": records,
        "trajectory": [{"id": "s1", "seq": 2, "turn": "u1", "type": "answer", "text": "window",
                        "deps": [{"id": mid, "label": "cite"}]}], "faults": [mid]})
    plan = plan_case(case)
    assert plan.memory == {mid: "delete", records[1]["id"]: "restore",
                           records[2]["id"]: "keep"}


def test_deleted_memory_is_a_deleted_record(tmp_path):
    from mem0_travel_store import make_memory

    memory = make_memory(tmp_path)
    mid = memory.add("Lin is vegetarian.", user_id="lin", infer=False)["results"][0]["id"]
    memory.delete(mid)
    memory.vector_store.client.close()
    records = read_mem0_history(tmp_path / "history.db", user="lin")
    assert [(r["id"], r["status"], r["text"]) for r in records] == \
        [(mid, "deleted", "Lin is vegetarian.")]


def test_poisoned_update_repairs_against_the_mem0_store(mem0_run):
    ids, db, hex_path, b64_path = mem0_run
    seat_add = next(r[0] for r in _history(db) if r[1] == ids["m3"] and r[4] == "ADD")
    plans = []
    for trace in (hex_path, b64_path):
        imported = import_trace([trace], store=db, faults=[ids["m3"]])
        case = imported.case
        plan = plan_case(case)
        plans.append(plan.report())
        assert plan.memory[ids["m3"]] == "delete"
        assert plan.memory[seat_add] == "restore"
        assert plan.memory[ids["m6"]] == "quarantine"
        assert {plan.memory[ids[n]] for n in ("m2", "m4", "m5")} == {"keep"}
        home = next(s for s in case.trajectory if s.text == "Lin's home airport is SFO.")
        assert plan.steps[home.id] == "keep"
        assert plan.steps[case.final_answer().id] == "replay"
        # the record the run wrote is Mem0's record, produced by the write span
        m6 = next(m for m in case.memory if m.id == ids["m6"])
        write = next(s for s in case.trajectory if s.type == "memory_write")
        assert [(d.id, d.label) for d in m6.deps] == [(write.id, "produce")]
        assert case.user_id == "lin" and {m.user_id for m in case.memory} == {"lin"}
        assert "Mem0 history" in imported.summary.sources[-1]
    assert plans[0] == plans[1]


def test_store_that_is_not_a_mem0_history_is_refused(mem0_run, tmp_path, capsys):
    _, _, hex_path, _ = mem0_run
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE history (id TEXT, memory_id TEXT)")
    con.commit()
    con.close()
    out = tmp_path / "case.json"
    assert main(["import", str(hex_path), "--store", str(other), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "missing column(s) old_memory" in err and "Traceback" not in err
    text = tmp_path / "t.txt"
    text.write_text("hello")
    with pytest.raises(CaseError, match="not an SQLite database"):
        import_trace([hex_path], store=text)
    assert not out.exists()


def test_committed_mem0_sample_imports_to_the_documented_plan():
    import json

    folder = ROOT / "sample_imports" / "mem0"
    ids = json.loads((folder / "ids.json").read_text())
    case = import_trace([folder / "mem0-travel.otlp.jsonl"], store=folder / "history.db",
                        faults=[ids["m3"]]).case
    plan = plan_case(case)
    assert plan.memory[ids["m3"]] == "delete" and plan.memory[ids["m6"]] == "quarantine"
    restored = [m for m, d in plan.memory.items() if d == "restore"]
    assert [next(r.text for r in case.memory if r.id == m) for m in restored] == \
        ["Lin prefers aisle seats."]
    doc = (ROOT / "docs" / "import.md").read_text(encoding="utf-8")
    assert ids["m3"] in doc and restored[0] in doc


@pytest.mark.rule("suspect.carrier")
def test_a_restatement_mem0_holds_without_lineage_is_a_suspected_carrier(tmp_path):
    # records the real Mem0 holds that no span wrote: two restate the poisoned "Lin
    # prefers window seats." in other words, one shares his name and a verb only
    from mem0_travel_store import make_memory

    ids, db, hex_path, _ = build(tmp_path)
    memory = make_memory(tmp_path)
    said = {text: memory.add(text, user_id="lin", infer=False)["results"][0]["id"]
            for text in ("User prefers a window seat.", "Lin likes window seats.",
                         "Lin prefers quiet hotels.")}
    memory.vector_store.client.close()
    case = import_trace([hex_path], store=db, faults=[ids["m3"]]).case
    assert {m.id: m.deps for m in case.memory if m.id in said.values()} == dict.fromkeys(
        said.values(), [])
    plan = plan_case(case, objective="store")
    carriers = {s.id: s for s in plan.suspected if s.role == "carrier"}
    restated = {said["User prefers a window seat."], said["Lin likes window seats."]}
    assert set(carriers) == restated
    for mid in restated:
        assert (carriers[mid].fault, carriers[mid].action) == (ids["m3"], "quarantine")
        assert "restates: seat, window" in carriers[mid].evidence
        assert plan.memory[mid] == "quarantine"
    # the text the fault replaced says "aisle", the other record "quiet hotels": kept
    assert plan.memory[said["Lin prefers quiet hotels."]] == "keep"
    seat_add = next(m.id for m in case.memory if m.text == "Lin prefers aisle seats.")
    assert plan.memory[seat_add] == "restore"
    assert {plan.memory[ids[n]] for n in ("m2", "m4", "m5")} == {"keep"}
    from repair_core.replay import repair

    active = {m.id: m.text for m in repair(case, plan).store.active}
    assert not restated & active.keys() and "Lin prefers aisle seats." in active.values()
