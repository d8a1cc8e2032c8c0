"""A bound apply journal: named by the store's resolved identity (not the `--store` text),
authenticated with a key kept outside the journal folder, resting on an approval row
that must still be honoured, remembering its `--vault`. A planted or copied journal is
refused; two specs of one store share one journal and one lock; the CLI and the worker
name a Mem0 store alike."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("langgraph.store.sqlite", reason="needs the 'postgres' extra")

from crashed_apply import crashed_apply, factory_world, finish, store_items  # noqa: E402
from test_writeback_langgraph_stores import (  # noqa: E402
    LEARNED,
    NAMESPACE,
    SEAT_KEY,
    STORE,
    _fill,
)

from repair_core.approvals import ApprovalStore  # noqa: E402
from repair_core.integrations import Intent, Journal  # noqa: E402
from repair_core.integrations._identity import langgraph_identity, mem0_identity  # noqa: E402
from repair_core.integrations.langgraph_vault import SqliteVault, quarantined  # noqa: E402


@pytest.fixture()
def world(tmp_path, monkeypatch):
    with factory_world(tmp_path, monkeypatch) as w:
        yield w


def test_a_journal_copied_to_another_stores_name_is_refused(world, capsys):
    w = world
    journal_a = crashed_apply(w, w["open"].store_a)
    store_b = w["open"].store_b()
    store_b.put(("bo", "prefs"), "seat", {"text": "Bo prefers the front row."})
    identity_b = langgraph_identity(store_b, "x")
    store_b.conn.close()
    before_b = store_items(w["open"].store_b)
    planted = Journal.for_store(w["journal"], "langgraph", identity_b)
    shutil.copy(journal_a.path, planted.path)  # A's pending journal under B's name
    capsys.readouterr()
    assert finish(w, "trustfactory:store_b", "--resume") == 2
    err = capsys.readouterr().err
    assert "is of another store" in err and "nothing written" in err
    assert store_items(w["open"].store_b) == before_b


def test_a_planted_journal_is_refused_by_resume_and_rollback(world, capsys):
    w = world
    store = w["open"].store_a()
    _fill(store)
    identity = langgraph_identity(store, "x")
    store.conn.close()
    before = store_items(w["open"].store_a)
    journal = Journal.for_store(w["journal"], "langgraph", identity)
    planted = Intent(apply_id="p1", store="langgraph", target="t", case_id="lg-case",
                     approval_id=w["approval"].id, created_at="2026-12-05T00:00:00Z",
                     store_identity=identity, approval_row_hash=w["approval"].row_hash,
                     inputs_sha256="0" * 64, outputs_sha256="1" * 64,
                     steps=[{"kind": "slot", "ref": [list(NAMESPACE), "home"],
                             "before": None, "after": {"value": {"text": "pwned"}}}])
    journal.folder.mkdir(parents=True, exist_ok=True)
    journal.path.write_text(json.dumps(planted.model_dump(mode="json")))
    for what in ("--resume", "--rollback"):
        capsys.readouterr()
        assert finish(w, "trustfactory:store_a", what) == 2
        assert "not authenticated by the journal key" in capsys.readouterr().err
    assert store_items(w["open"].store_a) == before
    assert not ApprovalStore(w["db"]).find(kind="applied")


def test_two_specs_of_one_store_share_its_journal_and_lock(world, capsys):
    w = world
    crashed_apply(w, w["open"].store_a)
    import trustreexport

    store = trustreexport.same_store()
    key_a = Journal.for_store(w["journal"], "langgraph", langgraph_identity(store, "one")).key
    key_b = Journal.for_store(w["journal"], "langgraph",
                              langgraph_identity(store, "another spec")).key
    store.conn.close()
    assert key_a == key_b
    capsys.readouterr()
    # the interrupted apply of the first spec is found through the second one
    assert finish(w, "trustreexport:same_store", "--rollback") == 0
    assert "rolled back: every touched item is as before" in capsys.readouterr().out
    items = store_items(w["open"].store_a)
    assert items[(NAMESPACE, SEAT_KEY)] == {"text": STORE["seat"]}
    assert items[(NAMESPACE, "habit")] == {"text": LEARNED}


def test_resume_refuses_an_approval_rejected_since(world, capsys):
    w = world
    crashed_apply(w, w["open"].store_a)
    ApprovalStore(w["db"]).add(case_id="lg-case", reviewer="bo", decision="reject",
                               comment="m6 is fine", inputs_sha256="0" * 64,
                               outputs_sha256="1" * 64)
    capsys.readouterr()
    assert finish(w, "trustfactory:store_a", "--resume") == 2
    err = capsys.readouterr().err
    assert "no longer honoured" in err and "rejected in #2" in err
    assert not ApprovalStore(w["db"]).find(kind="applied")
    assert finish(w, "trustfactory:store_a", "--rollback") == 0  # undoing stays possible


def test_resume_rests_on_the_journals_own_approval(world, capsys):
    """A second approval of the same plan and result recorded after the apply started
    does not stand in for the one the journal rests on: resume finishes under its own."""
    w = world
    crashed_apply(w, w["open"].store_a)
    first = ApprovalStore(w["db"]).find(case_id="lg-case")[0]
    ApprovalStore(w["db"]).add(case_id="lg-case", reviewer="cy", decision="approve",
                               comment="me too", inputs_sha256=first.inputs_sha256,
                               outputs_sha256=first.outputs_sha256)
    capsys.readouterr()
    assert finish(w, "trustfactory:store_a", "--resume") == 0, capsys.readouterr().err


def test_rollback_remembers_the_vault(world, capsys):
    w = world
    vault_file = w["tmp"] / "vault.db"
    crashed_apply(w, w["open"].store_a, vault_file)
    assert len(quarantined(None, SqliteVault(str(vault_file)))) == 2
    capsys.readouterr()
    assert finish(w, "trustfactory:store_a", "--rollback") == 0  # no --vault given
    assert quarantined(None, SqliteVault(str(vault_file))) == []
    assert store_items(w["open"].store_a)[(NAMESPACE, "habit")] == {"text": LEARNED}
    other = w["tmp"] / "other-vault.db"
    crashed_apply(w, w["open"].store_a, vault_file)
    capsys.readouterr()
    assert finish(w, "trustfactory:store_a", "--rollback", "--vault", str(other)) == 2
    assert "the journal remembers it" in capsys.readouterr().err


def test_the_worker_and_the_cli_name_a_relative_mem0_config_alike(tmp_path, monkeypatch):
    pytest.importorskip("mem0", reason="needs the 'import' extra (mem0ai)")
    os.environ["MEM0_TELEMETRY"] = "False"
    monkeypatch.setenv("MEM0_DIR", str(tmp_path / "mem0-home"))
    from repair_core.integrations._target import open_mem0
    from repair_core.integrations.mem0 import close_mem0

    work = tmp_path / "agent"
    work.mkdir()
    (work / "mem0.json").write_text(json.dumps({
        "vector_store": {"provider": "qdrant", "config": {
            "path": "qdrant", "on_disk": True, "collection_name": "travel",
            "embedding_model_dims": 16}},
        "history_db_path": "history.db",
        "llm": {"provider": "openai", "config": {"api_key": "offline"}},
        "embedder": {"provider": "openai", "config": {"api_key": "offline",
                                                      "embedding_dims": 16}}}))
    names = []
    monkeypatch.chdir(work)  # the store's paths are relative to where the agent runs
    for spec in ("mem0.json", str(work / "mem0.json"), "./mem0.json"):
        memory = open_mem0(spec)
        try:
            names.append(mem0_identity(memory, spec))
        finally:
            close_mem0(memory)
    assert names[0] == names[1] == names[2]
    assert str(work / "qdrant") not in names[0]  # by file identity, not by a spelling


def test_the_worker_refuses_a_journal_planted_with_another_requests_approval(world,
                                                                          monkeypatch):
    """A planted journal naming the request's own approval id is not resumed: the
    request fails with the reason and the store is as before, nothing recorded."""
    from repair_core import load_example
    from repair_core.queue import RepairQueue, apply_next, review

    w = world
    monkeypatch.setenv("DGRR_APPLY_DIR", str(w["journal"]))
    store = w["open"].store_a()
    _fill(store)
    identity = langgraph_identity(store, "x")
    store.conn.close()
    before = store_items(w["open"].store_a)
    queue = RepairQueue(str(w["tmp"] / "queue.db"))
    r = queue.submit(load_example(), ["m3"], diagnosed_by="d",
                     store_target={"to": "langgraph", "store": "trustfactory:store_a"})
    queue.claim(r.id, reviewer="ana")
    approved = review(queue, r.id, reviewer="ana", decision="approve")
    journal = Journal.for_store(w["journal"], "langgraph", identity)
    planted = Intent(apply_id="p1", store="langgraph", target="t", case_id="fig1-travel",
                     approval_id=approved.decision_id, created_at="2026-12-05T00:00:00Z",
                     store_identity=identity,
                     steps=[{"kind": "slot", "ref": [list(NAMESPACE), "home"],
                             "before": None, "after": {"value": {"text": "pwned"}}}])
    journal.folder.mkdir(parents=True, exist_ok=True)
    journal.path.write_text(json.dumps(planted.model_dump(mode="json")))
    done = apply_next(queue, worker="w1")
    assert done is not None and done.status == "failed"
    assert "not authenticated by the journal key" in str(done.error)
    assert store_items(w["open"].store_a) == before
    assert not queue.approvals.find(kind="applied")
    queue.close()
