"""Compare-and-swap write-back: a resume or rollback writes a slot only while it holds a
state the apply's journal expects. A value the agent wrote after a crash is kept and
reported as a conflict (exit 2), on LangGraph's SqliteStore and PostgresStore and on Mem0
after `memory.update`; `--overwrite` writes over it under an override row of the log
signed with a trusted key, and is refused without one."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("langgraph.store.sqlite", reason="needs the 'postgres' extra")

from crashed_apply import NEWER_CABIN, NEWER_SEAT  # noqa: E402
from test_apply_mem0 import repaired  # noqa: E402, F401
from test_writeback_langgraph_stores import (  # noqa: E402
    APPROVAL,
    LEARNED,
    NAMESPACE,
    SEAT_KEY,
    STORE,
    _Crash,
    _crash,
    _fill,
    _libpq,
    _ops,
    _sync_store,
)

from repair_core.integrations import Journal, resume_apply, rollback_apply  # noqa: E402
from repair_core.integrations.langgraph import LangGraphSlots, apply_langgraph  # noqa: E402
from repair_core.integrations.langgraph_vault import quarantined  # noqa: E402


def _crashed(store, journal: Journal) -> None:
    """An approved apply that dies after its last store write, before it is recorded."""
    _fill(store)
    with pytest.raises(_Crash):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL,
                        journal=journal, record=_crash)
    pending = journal.pending()
    assert pending is not None
    from repair_core.integrations._journal import before_digest

    slots = [st for st in pending.steps if st.kind == "slot"]
    assert slots and all(st.before_sha256 == before_digest(st.before) for st in slots)


def _rollback_keeps_the_agents_newer_value(store, tmp_path) -> None:
    journal = Journal(tmp_path / "journal-rb", "k")
    _crashed(store, journal)
    store.put(NAMESPACE, SEAT_KEY, {"text": NEWER_SEAT})  # the agent, after the crash
    intent = rollback_apply(LangGraphSlots(store), journal)
    assert store.get(NAMESPACE, SEAT_KEY).value == {"text": NEWER_SEAT}
    assert [(c.ref, c.overwritten) for c in intent.conflicts] == [
        ([list(NAMESPACE), SEAT_KEY], False)]
    # every other slot is back as before
    assert store.get(NAMESPACE, "habit").value == {"text": LEARNED}
    assert quarantined(store) == []
    assert journal.pending() is None


def _resume_keeps_the_agents_newer_value(store, tmp_path) -> None:
    journal = Journal(tmp_path / "journal-rs", "k")
    _crashed(store, journal)
    store.put(NAMESPACE, "cabin", {"text": NEWER_CABIN})  # over the restored cabin
    intent = resume_apply(LangGraphSlots(store), journal)
    assert store.get(NAMESPACE, "cabin").value == {"text": NEWER_CABIN}
    assert [c.ref for c in intent.conflicts] == [[list(NAMESPACE), "cabin"]]
    assert store.get(NAMESPACE, SEAT_KEY) is None  # the rest of the apply stands


@pytest.mark.parametrize("what", ["rollback", "resume"])
def test_sqlite_store_keeps_what_the_agent_wrote_after_a_crash(tmp_path, what):
    with _sync_store("sqlite", tmp_path, None) as store:
        if what == "rollback":
            _rollback_keeps_the_agents_newer_value(store, tmp_path)
        else:
            _resume_keeps_the_agents_newer_value(store, tmp_path)


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.parametrize("what", ["rollback", "resume"])
def test_postgres_store_keeps_what_the_agent_wrote_after_a_crash(postgres_db, tmp_path, what):
    pytest.importorskip("langgraph.store.postgres", reason="needs the 'postgres' extra")
    with _sync_store("postgres", tmp_path, _libpq(str(postgres_db))) as store:
        if what == "rollback":
            _rollback_keeps_the_agents_newer_value(store, tmp_path)
        else:
            _resume_keeps_the_agents_newer_value(store, tmp_path)


def test_a_slot_changed_between_plan_and_write_rolls_the_apply_back(tmp_path):
    """The first run of an apply writes a slot only from the state it planned."""
    from langgraph.store.memory import InMemoryStore

    from repair_core import DgrrError

    store = InMemoryStore()
    _fill(store)
    slots = LangGraphSlots(store)

    from repair_core.integrations._apply import run_apply
    from repair_core.integrations.langgraph import _plan, check_langgraph

    def plan(apply_id):
        planned = _plan(slots, _ops(), case_id="lg-case", apply_id=apply_id, namespace=())
        # the agent writes the habit after dgrr planned, before dgrr writes it
        store.put(NAMESPACE, "habit", {"text": "Lin learned to book early."})
        return planned

    journal = Journal(tmp_path / "j", "k")
    with pytest.raises(DgrrError, match="changed while the apply was writing"):
        run_apply(slots, "langgraph", _ops(), case_id="lg-case", approval=APPROVAL,
                  journal=journal, target="t", reviewer="ops",
                  check=lambda: check_langgraph(store, _ops()), plan=plan)
    assert store.get(NAMESPACE, "habit").value == {"text": "Lin learned to book early."}
    assert store.get(NAMESPACE, SEAT_KEY).value == {"text": STORE["seat"]}
    assert quarantined(store) == []


# -- Mem0, after memory.update -----------------------------------------------------------

@pytest.fixture()
def mem0_crashed(repaired):  # noqa: F811
    import test_apply_mem0 as m

    from repair_core import load_case
    from repair_core.integrations import find_approval, journal_dir, store_ops
    from repair_core.integrations._identity import mem0_identity
    from repair_core.integrations.mem0 import apply_mem0

    r = repaired
    m._approve(r)
    case = load_case(r["case"])
    result = json.loads(r["result"].read_text())
    ops = store_ops(case, result)
    approval = find_approval(case, result, r["db"])
    memory = m.make_memory(r["folder"])
    journal = Journal.for_store(journal_dir(r["journal"]), "mem0",
                                mem0_identity(memory, "mem0_factory:memory"))
    try:
        with pytest.raises(_Crash):
            apply_mem0(memory, ops, user="lin", case_id=case.case_id, approval=approval,
                       journal=journal, record=_crash)
    finally:
        memory.vector_store.client.close()
    pending = journal.pending()
    restored = next(o["mem0_id"] for o in pending.operations if o["op"] == "restore")
    memory = m.make_memory(r["folder"])
    try:  # the agent's next session corrects the restored memory through Mem0's API
        memory.update(restored, "Lin prefers aisle seats, except on night flights.")
    finally:
        memory.vector_store.client.close()
    r.update(journal=str(journal.folder), restored=restored, m=m)
    return r


def _mem0_text(r, mid):
    memory = r["m"].make_memory(r["folder"])
    try:
        got = memory.get(mid)
        return None if got is None else got["memory"]
    finally:
        memory.vector_store.client.close()


def _finish(r, *extra):
    from repair_core.cli import main

    return main(["apply", "--to", "mem0", "--store", "mem0_factory:memory", "--db", r["db"],
                 "--journal", r["journal"], "--reviewer", "ops", *extra])


@pytest.mark.slow
@pytest.mark.parametrize("what", ["--rollback", "--resume"])
def test_mem0_keeps_an_update_made_after_a_crash(mem0_crashed, capsys, what):
    r = mem0_crashed
    capsys.readouterr()
    assert _finish(r, what) == 2
    out, err = capsys.readouterr()
    assert "someone changed since the apply planned them" in out
    assert f'"{r["restored"]}": changed since the apply planned it' in err and "kept" in err
    assert _mem0_text(r, r["restored"]) == "Lin prefers aisle seats, except on night flights."


@pytest.mark.slow
@pytest.mark.rule("apply.overwrite-signed")
def test_mem0_overwrite_is_explicit_signed_and_recorded(mem0_crashed, capsys, monkeypatch):
    from repair_core.approvals import ApprovalStore, TrustFile
    from repair_core.cli import main

    r = mem0_crashed
    trust = str(r["folder"].parent / "trust.json")
    monkeypatch.setenv("DGRR_KEYS", str(r["folder"].parent / "keys"))
    monkeypatch.setenv("DGRR_TRUST", trust)
    capsys.readouterr()
    assert _finish(r, "--rollback", "--overwrite") == 2  # no trust file, no key: refused
    assert "override refused" in capsys.readouterr().err
    assert _mem0_text(r, r["restored"]) == "Lin prefers aisle seats, except on night flights."
    assert main(["keys", "generate", "--reviewer", "ops"]) == 0
    capsys.readouterr()
    assert _finish(r, "--rollback", "--overwrite") == 0
    assert "override recorded as #" in capsys.readouterr().out
    assert _mem0_text(r, r["restored"]) is None  # rolled back over the agent's update
    rows = ApprovalStore(r["db"]).find(kind="override")
    assert len(rows) == 1 and rows[0].reviewer == "ops"
    assert TrustFile.load(trust).trusts("ops", rows[0].key_id) and rows[0].signature
    assert r["restored"] in json.loads(rows[0].comment)["overwritten"][0]["ref"]
