"""Writing over a slot someone changed after a crashed apply (`dgrr apply --resume` or
`--rollback` with `--overwrite`) discards their write, so it is carried out only under a
signed approval: an `override` row of the approvals log signed with a key the trust file
trusts for the reviewer. Without a trust file, or without a trusted key, it is refused
before the store, the journal or the log is touched. The library's resume and rollback
refuse an overwrite that no hook records. Each outcome is judged by what the agent reads
next: the notes its own next turn's recall search puts in front of the model."""

from __future__ import annotations

import contextlib
import json

import pytest

pytest.importorskip("langgraph.store.sqlite", reason="needs the 'postgres' extra")

from crashed_apply import (  # noqa: E402
    NEWER_CABIN,
    NEWER_SEAT,
    agent_notes,
    crashed_apply,
    factory_world,
    finish,
    store_items,
)
from test_writeback_langgraph_stores import (  # noqa: E402
    LEARNED,
    NAMESPACE,
    SEAT_KEY,
    STORE,
    UPDATED_CABIN,
)

from repair_core import DgrrError  # noqa: E402
from repair_core.approvals import ApprovalStore, TrustFile  # noqa: E402
from repair_core.integrations import resume_apply, rollback_apply  # noqa: E402
from repair_core.integrations.langgraph import LangGraphSlots  # noqa: E402

rule = pytest.mark.rule


@pytest.fixture()
def crashed(tmp_path, monkeypatch, capsys):
    """A LangGraph SqliteStore whose approved apply died after its last write, and then
    the agent wrote a newer seat preference (a conflict for a rollback) and a newer
    cabin (a conflict for a resume). `keys` (the reviewers given) makes a key for each
    and trusts it."""
    with contextlib.ExitStack() as stack:
        def make(*keys: str) -> dict:
            w = stack.enter_context(factory_world(tmp_path, monkeypatch, signers=keys))
            capsys.readouterr()
            journal = crashed_apply(w, w["open"].store_a)
            store = w["open"].store_a()
            store.put(NAMESPACE, SEAT_KEY, {"text": NEWER_SEAT})
            store.put(NAMESPACE, "cabin", {"text": NEWER_CABIN})
            store.conn.close()
            w["journal_file"] = journal.path
            return w

        yield make


@contextlib.contextmanager
def _opening(w, monkeypatch):
    """The list of what is opened inside the block: the store (its factory called), a
    journal, the approvals log."""
    from repair_core.integrations import Journal

    opened: list[str] = []
    real_store, real_journal = w["open"].store_a, Journal.for_store.__func__
    real_log = ApprovalStore.__init__
    with monkeypatch.context() as m:
        m.setattr(w["open"], "store_a", lambda: opened.append("store") or real_store())
        m.setattr(Journal, "for_store", classmethod(
            lambda cls, *a, **k: opened.append("journal") or real_journal(cls, *a, **k)))
        m.setattr(ApprovalStore, "__init__",
                  lambda self, *a, **k: opened.append("log") or real_log(self, *a, **k))
        yield opened


def _state(w) -> tuple:
    """Everything an overwrite could change: the store's items, the journal's bytes, the
    approvals log's rows."""
    log = ApprovalStore(w["db"])
    try:
        rows = [(r.id, r.kind, r.row_hash) for r in log.history()]
    finally:
        log.close()
    return store_items(w["open"].store_a), w["journal_file"].read_bytes(), rows


@rule("apply.overwrite-signed")
@pytest.mark.parametrize("what", ["--rollback", "--resume"])
def test_an_overwrite_without_a_trust_file_is_refused_and_writes_nothing(crashed, capsys,
                                                                        monkeypatch, what):
    w = crashed()  # no key, no trust file
    before = _state(w)
    capsys.readouterr()
    with _opening(w, monkeypatch) as opened:
        assert finish(w, "trustfactory:store_a", what, "--overwrite") == 2
    assert opened == []  # refused before the store, a journal or the log is opened
    out, err = capsys.readouterr()
    assert "override refused" in err and "no trust file at" in err
    assert "trust.json" in err and "dgrr keys generate --reviewer" in err
    assert "nothing written" in err and "Traceback" not in err + out
    assert _state(w) == before  # store, journal and log untouched
    notes = agent_notes(w["open"].store_a)  # the agent still reads what it wrote
    assert NEWER_SEAT in notes and NEWER_CABIN in notes
    # without --overwrite the rollback stays possible, keeping the agent's newer values
    assert finish(w, "trustfactory:store_a", "--rollback") == 2
    notes = agent_notes(w["open"].store_a)
    assert NEWER_SEAT in notes and NEWER_CABIN in notes and STORE["seat"] not in notes
    assert LEARNED in notes  # the habit the apply quarantined is back
    assert not ApprovalStore(w["db"]).find(kind="override")


@rule("apply.overwrite-signed")
def test_an_overwrite_by_a_reviewer_without_a_trusted_key_is_refused(crashed, capsys,
                                                                     monkeypatch):
    w = crashed("ana")  # a trust file, but no key for the applier "ops"
    before = _state(w)
    capsys.readouterr()
    with _opening(w, monkeypatch) as opened:
        assert finish(w, "trustfactory:store_a", "--rollback", "--overwrite") == 2
    assert opened == []
    err = capsys.readouterr().err
    assert "override refused" in err and "'ops' has no signing key" in err
    assert "dgrr keys generate --reviewer" in err and "nothing written" in err
    assert _state(w) == before
    notes = agent_notes(w["open"].store_a)
    assert NEWER_SEAT in notes and NEWER_CABIN in notes and STORE["seat"] not in notes


@rule("apply.overwrite-signed")
def test_a_rollback_overwrite_is_written_under_a_signed_override_row(crashed, capsys):
    w = crashed("ana", "ops")
    capsys.readouterr()
    assert finish(w, "trustfactory:store_a", "--rollback", "--overwrite") == 0
    out = capsys.readouterr().out
    assert "override recorded as #" in out
    # every item is what the store held before the apply, the agent's newer values gone
    items = store_items(w["open"].store_a)
    assert items[(NAMESPACE, SEAT_KEY)] == w["before_apply"][(NAMESPACE, SEAT_KEY)] \
        == {"text": STORE["seat"]}
    assert items == w["before_apply"]
    notes = agent_notes(w["open"].store_a)
    assert STORE["seat"] in notes and UPDATED_CABIN in notes and LEARNED in notes
    assert NEWER_SEAT not in notes and NEWER_CABIN not in notes
    log = ApprovalStore(w["db"])
    [row] = log.find(kind="override")
    assert row.reviewer == "ops" and row.signature and row.key_id
    assert json.loads(row.comment)["rollback"] is True
    trust = TrustFile.load(str(w["tmp"] / "trust.json"))
    assert trust.trusts("ops", row.key_id)
    check = log.verify(trust)
    assert check.ok, check.reason


@rule("apply.overwrite-signed")
def test_a_resume_overwrite_is_written_under_a_signed_override_row(crashed, capsys):
    w = crashed("ana", "ops")
    capsys.readouterr()
    assert finish(w, "trustfactory:store_a", "--resume", "--overwrite") == 0
    assert "override recorded as #" in capsys.readouterr().out
    items = store_items(w["open"].store_a)
    # the planned after-state over the agent's newer values
    assert "dgrr_restored_from" in items[(NAMESPACE, "cabin")]
    assert (NAMESPACE, SEAT_KEY) not in items
    notes = agent_notes(w["open"].store_a)
    assert STORE["cabin"] in notes and NEWER_CABIN not in notes and NEWER_SEAT not in notes
    for text in (STORE["seat"], UPDATED_CABIN, LEARNED):  # nor what the apply took out
        assert text not in notes, text
    log = ApprovalStore(w["db"])
    [row] = log.find(kind="override")
    assert row.signature and row.refers_to == w["approval"].id
    assert [r.kind for r in log.history()] == ["applied", "override", "decision"]
    assert log.verify(TrustFile.load(str(w["tmp"] / "trust.json"))).ok


@rule("apply.overwrite-signed")
@pytest.mark.parametrize("finish", [rollback_apply, resume_apply])
def test_the_library_refuses_an_overwrite_no_hook_records(crashed, finish):
    from repair_core.integrations import Journal
    from repair_core.integrations._identity import langgraph_identity

    w = crashed()
    before = _state(w)
    store = w["open"].store_a()
    try:
        journal = Journal.for_store(w["journal"], "langgraph", langgraph_identity(store, "x"))
        with pytest.raises(DgrrError, match="overwrite refused: 2 slot.*nothing written"):
            finish(LangGraphSlots(store), journal, overwrite=True)
    finally:
        store.conn.close()
    assert _state(w) == before
    notes = agent_notes(w["open"].store_a)
    assert NEWER_SEAT in notes and NEWER_CABIN in notes


@pytest.fixture()
def crashed_under_two(tmp_path, monkeypatch, capsys):
    """The crashed apply of `crashed`, made under a review rule asking two reviewers for
    any store operation, approved by `ana` and then `bo` (the apply rests on `bo`'s
    approval, the newest); keys for ana, bo, ops, cy and the administrator root."""
    from repair_core.cli import main

    with factory_world(tmp_path, monkeypatch, signers=("ana", "bo", "ops", "cy")) as w:
        assert main(["keys", "generate", "--reviewer", "root", "--admin"]) == 0
        capsys.readouterr()
        log = ApprovalStore(w["db"])
        log.record_rule({"over_ops": 0}, reviewer="root")
        w["approval"] = log.add(case_id="lg-case", reviewer="bo", decision="approve",
                                inputs_sha256="0" * 64, outputs_sha256="1" * 64)
        log.close()
        journal = crashed_apply(w, w["open"].store_a)
        store = w["open"].store_a()
        store.put(NAMESPACE, SEAT_KEY, {"text": NEWER_SEAT})
        store.put(NAMESPACE, "cabin", {"text": NEWER_CABIN})
        store.conn.close()
        w["journal_file"] = journal.path
        yield w


def _finish_as(w, reviewer: str, *extra: str) -> int:
    from repair_core.cli import main

    return main(["apply", "--to", "langgraph", "--store", "trustfactory:store_a", "--db",
                 w["db"], "--journal", str(w["journal"]), "--reviewer", reviewer, *extra])


@rule("apply.overwrite-quorum")
def test_under_a_two_reviewer_rule_one_who_approved_nothing_cannot_overwrite_alone(
        crashed_under_two, capsys):
    w = crashed_under_two
    items = store_items(w["open"].store_a)
    capsys.readouterr()
    assert _finish_as(w, "ops", "--resume", "--overwrite") == 2
    out, err = capsys.readouterr()
    assert "asks for 2 distinct reviewers' signed overrides" in err and "'ops'" in err
    assert "nothing written" in err and "Traceback" not in err + out
    assert store_items(w["open"].store_a) == items  # the agent's newer values stay
    assert not ApprovalStore(w["db"]).find(kind="applied")
    # a second reviewer's signed override of the same apply completes the quorum
    assert _finish_as(w, "cy", "--resume", "--overwrite") == 0
    notes = agent_notes(w["open"].store_a)
    assert NEWER_CABIN not in notes and NEWER_SEAT not in notes
    overrides = ApprovalStore(w["db"]).find(kind="override")
    assert sorted(r.reviewer for r in overrides) == ["cy", "ops"]


@rule("apply.overwrite-quorum")
def test_under_a_two_reviewer_rule_one_who_approved_the_apply_may_overwrite(
        crashed_under_two, capsys):
    w = crashed_under_two
    capsys.readouterr()
    assert _finish_as(w, "bo", "--rollback", "--overwrite") == 0
    assert "will be written over" in capsys.readouterr().out
    assert store_items(w["open"].store_a) == w["before_apply"]
    [row] = ApprovalStore(w["db"]).find(kind="rolled-back")
    assert row.reviewer == "bo" and row.signature
