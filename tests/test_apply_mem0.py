"""`dgrr apply --to mem0`: an approved repair written back to a real Mem0 store (mem0ai,
offline), checked record by record; refused without an approval or when the store
changed since the trace; a dry run by default."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))  # not ~/.mem0
pytest.importorskip("mem0", reason="needs the 'import' extra (mem0ai)")
pytest.importorskip("opentelemetry.exporter.otlp.json.file", reason="needs the 'import' extra")

from repair_core import load_case  # noqa: E402
from repair_core.approvals import ApprovalStore  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.integrations import find_approval, store_ops  # noqa: E402
from repair_core.integrations.mem0 import QUARANTINE_USER, apply_mem0  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from carrier_gate import approved_without_acknowledgement  # noqa: E402
from mem0_travel_store import build, make_memory  # noqa: E402
from otel_travel_run import STORE  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture()
def repaired(tmp_path, capsys):
    """A Mem0 store, the traced run, the imported case, its repair result."""
    ids, db, hex_path, _ = build(tmp_path / "mem0")
    case = tmp_path / "case.json"
    assert main(["import", str(hex_path), "--store", str(db), "--faults", ids["m3"],
                 "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--json"]) in (0, 1)  # 1: the offline model's answer
    result = tmp_path / "result.json"
    result.write_text(capsys.readouterr().out)
    factory = tmp_path / "mem0_factory.py"
    factory.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT / "scripts")!r})
        from mem0_travel_store import make_memory

        def memory():
            return make_memory({str(tmp_path / "mem0")!r})
    """))
    sys.path.insert(0, str(tmp_path))
    yield {"ids": ids, "case": case, "result": result, "folder": tmp_path / "mem0",
           "db": str(tmp_path / "approvals.db"), "journal": str(tmp_path / "journal")}
    sys.path.remove(str(tmp_path))
    sys.modules.pop("mem0_factory", None)


def _snapshot(folder: Path) -> dict[str, tuple[str, str]]:
    memory = make_memory(folder)
    try:
        out = {}
        for user in ("lin", QUARANTINE_USER):
            for m in memory.get_all(user_id=user)["results"]:
                out[m["id"]] = (user, m["memory"])
        return out
    finally:
        memory.vector_store.client.close()


def _apply(r, *extra):
    return main(["apply", str(r["result"]), "--case", str(r["case"]), "--to", "mem0",
                 "--store", "mem0_factory:memory", "--db", r["db"], "--journal", r["journal"],
                 *extra])


def _approve(r):
    assert main(["approve", str(r["case"]), "--reviewer", "ana", "--decision", "approve",
                 "--result", str(r["result"]), "--db", r["db"]]) == 0


def test_operations_come_from_the_result_and_apply_record_by_record(repaired):
    r = repaired
    ids = r["ids"]
    case = load_case(r["case"])
    ops = store_ops(case, json.loads(r["result"].read_text()))
    restored = next(o.record for o in ops if o.op == "restore")
    assert [(o.op, o.record) for o in ops] == [
        ("delete", ids["m3"]), ("quarantine", ids["m6"]), ("restore", restored)]
    before = _snapshot(r["folder"])
    _approve(r)
    approval = find_approval(case, json.loads(r["result"].read_text()), r["db"])
    memory = make_memory(r["folder"])
    try:
        done = apply_mem0(memory, ops, user="lin", case_id=case.case_id, approval=approval)
    finally:
        memory.vector_store.client.close()
    after = _snapshot(r["folder"])
    new_id = next(d["mem0_id"] for d in done if d["op"] == "restore")
    # record by record: the fault gone, the learned record hidden, the old text back,
    # everything else exactly as before
    assert ids["m3"] not in after
    assert after[ids["m6"]] == (QUARANTINE_USER, before[ids["m6"]][1])
    assert after[new_id] == ("lin", "Lin prefers aisle seats.")
    for name in ("m2", "m4", "m5"):
        assert after[ids[name]] == before[ids[name]] == ("lin", STORE[name])
    assert set(after) == {ids["m2"], ids["m4"], ids["m5"], ids["m6"], new_id}
    memory = make_memory(r["folder"])
    try:
        hits = [h["id"] for h in memory.search("window seats", user_id="lin")["results"]]
        assert ids["m6"] not in hits and ids["m3"] not in hits
        assert memory.get(new_id)["metadata"]["dgrr_restored_from"] == restored
        assert memory.get(new_id)["user_id"] == "lin"
    finally:
        memory.vector_store.client.close()


def test_dry_run_by_default_and_no_apply_without_approval(repaired, capsys):
    r = repaired
    before = _snapshot(r["folder"])
    assert _apply(r) == 0
    out = capsys.readouterr().out
    assert "delete" in out and "quarantine" in out and "restore" in out
    assert "approval: none" in out and "dry run: nothing written" in out
    assert _apply(r, "--apply", "--reviewer", "ops") == 2
    assert "no approval" in capsys.readouterr().err
    assert _snapshot(r["folder"]) == before
    # an approval of another result (an edited plan) does not count either
    _approve(r)
    other = json.loads(r["result"].read_text())
    other["answer"] = "something else"
    r["result"].write_text(json.dumps(other))
    assert _apply(r) == 0
    assert "approval: none" in capsys.readouterr().out


def test_refused_when_the_store_changed_since_the_trace(repaired, capsys):
    r = repaired
    _approve(r)
    capsys.readouterr()
    memory = make_memory(r["folder"])
    try:
        memory.update(r["ids"]["m6"], "Lin books aisle seats on long-haul flights.")
    finally:
        memory.vector_store.client.close()
    before = _snapshot(r["folder"])
    assert _apply(r, "--apply", "--reviewer", "ops") == 2
    err = capsys.readouterr().err
    assert f"{r['ids']['m6']}: text is now" in err and "nothing applied" in err
    assert _snapshot(r["folder"]) == before


def test_approved_result_is_applied_and_recorded(repaired, capsys):
    r = repaired
    _approve(r)
    if not hasattr(ApprovalStore, "record_applied"):
        # without the hash-chained log (helper i12) nothing is applied at all
        before = _snapshot(r["folder"])
        assert _apply(r, "--apply", "--reviewer", "ops") == 2
        assert "cannot record an applied event" in capsys.readouterr().err
        assert _snapshot(r["folder"]) == before
        pytest.skip("the approvals log of this branch cannot record applied events (i12)")
    assert _apply(r, "--apply", "--reviewer", "ops") == 0
    out = capsys.readouterr().out
    assert "applied delete" in out and "recorded as #" in out
    after = _snapshot(r["folder"])
    assert r["ids"]["m3"] not in after
    assert after[r["ids"]["m6"]][0] == QUARANTINE_USER
    assert "Lin prefers aisle seats." in {text for _, text in after.values()}
    log = ApprovalStore(r["db"])
    try:
        applied = log.find(case_id=load_case(r["case"]).case_id, kind="applied")
        assert len(applied) == 1 and applied[0].reviewer == "ops"
    finally:
        log.close()


@pytest.mark.rule("apply.carriers-acknowledged")
def test_the_carrier_gate_on_the_imported_mem0_case_and_the_agents_next_search(tmp_path,
                                                                               capsys):
    """The run's real Mem0 store also holds "User prefers a window seat.", which no span
    wrote: a restatement of the fault. The answer repair flags it and keeps it (and the
    replayed claim reads it), so the result still carries the fault; apply refuses an
    approval that did not acknowledge each carrier and writes nothing; once acknowledged,
    apply writes, and the agent's next search through Mem0 still returns it (what the
    reviewer acknowledged), but not the fault nor what the run learned from it. The
    default repair (answer and store) quarantines it: nothing to acknowledge, and the next
    search returns no carrier."""
    import shutil


    folder = tmp_path / "mem0"
    ids, db, hex_path, _ = build(folder)
    memory = make_memory(folder)
    restated = memory.add("User prefers a window seat.", user_id="lin",
                          infer=False)["results"][0]["id"]
    memory.vector_store.client.close()
    shutil.copytree(folder, tmp_path / "mem0-both")
    case = tmp_path / "case.json"
    assert main(["import", str(hex_path), "--store", str(db), "--faults", ids["m3"],
                 "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--objective", "answer", "--json"]) in (0, 1)
    result = tmp_path / "result.json"
    result.write_text(capsys.readouterr().out)
    data = json.loads(result.read_text())
    carriers = {c["id"]: c for c in data["verification"]["carriers"]}
    carrier = f"{restated}:{ids['m3']}"
    assert carrier in carriers and carriers[carrier]["kind"] == "record"
    assert {c["evidence"] for c in carriers.values()} == {"restates: seat, window"}
    assert restated in {m["id"] for m in data["store"]["active"]}
    for name, where in (("mem0_factory", folder), ("mem0_factory_both", tmp_path / "mem0-both")):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(f"""
            import sys
            sys.path.insert(0, {str(ROOT / "scripts")!r})
            from mem0_travel_store import make_memory

            def memory():
                return make_memory({str(where)!r})
        """))
    sys.path.insert(0, str(tmp_path))
    try:
        r, approve = approved_without_acknowledgement(tmp_path, case, result, data,
                                                      carriers, capsys)
        before = _snapshot(folder)
        assert _apply(r, "--apply", "--reviewer", "ops") == 2
        err = capsys.readouterr().err
        assert "did not acknowledge" in err and carrier in err and "nothing written" in err
        assert _snapshot(folder) == before
        assert main([*approve, *(a for c in carriers for a in ("--acknowledge", c))]) == 0
        capsys.readouterr()
        assert _apply(r, "--apply", "--reviewer", "ops") == 0
        capsys.readouterr()
        memory = make_memory(folder)
        try:
            hits = {h["id"]: h["memory"]
                    for h in memory.search("window seats", user_id="lin")["results"]}
        finally:
            memory.vector_store.client.close()
        assert ids["m3"] not in hits and ids["m6"] not in hits
        assert hits[restated] == "User prefers a window seat."
        assert "Lin prefers aisle seats." in hits.values()

        # the default objective quarantines the restatement: no carrier to acknowledge
        assert main(["repair", str(case), "--json"]) in (0, 1)
        both = json.loads(capsys.readouterr().out)
        assert both["verification"]["carriers"] == []
        assert restated in both["report"]["store_changes"]["quarantined"]
        result.write_text(json.dumps(both))
        r["db"] = str(tmp_path / "approvals-both.db")
        assert main(["approve", str(case), "--reviewer", "ana", "--decision", "approve",
                     "--result", str(result), "--db", r["db"]]) == 0
        capsys.readouterr()
        assert main(["apply", str(result), "--case", str(case), "--to", "mem0", "--store",
                     "mem0_factory_both:memory", "--db", r["db"], "--journal",
                     str(tmp_path / "journal-both"), "--apply", "--reviewer", "ops"]) == 0
        capsys.readouterr()
        memory = make_memory(tmp_path / "mem0-both")
        try:
            hits = {h["id"]: h["memory"]
                    for h in memory.search("window seats", user_id="lin")["results"]}
            hidden = {m["id"] for m in memory.get_all(user_id=QUARANTINE_USER)["results"]}
        finally:
            memory.vector_store.client.close()
        assert not {ids["m3"], ids["m6"], restated} & hits.keys()
        assert restated in hidden
        assert all("window" not in text for text in hits.values())
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("mem0_factory", "mem0_factory_both"):
            sys.modules.pop(name, None)
