"""A journal is used once. Each apply records its intent in the approvals log before its
first write and `applied` or `rolled-back` after its last; `--resume` and `--rollback`
refuse a journal whose apply the log records finished, or that is not the latest intent
for its store. A journal copied while an apply ran and put back afterwards authenticates
(its HMAC covers its content), so only the log can tell that it is spent."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from repair_core import DgrrError
from repair_core.approvals import ApplyEvents, ApprovalStore, JournalNotCurrent
from repair_core.cli import main

rule = pytest.mark.rule


def _intent(apply_id: str, approval_id: int, intent_row: int | None = None) -> SimpleNamespace:
    return SimpleNamespace(apply_id=apply_id, approval_id=approval_id, operations=[{}],
                           conflicts=[], intent_row=intent_row)


@pytest.fixture()
def log(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "trust.json"))
    store = ApprovalStore(str(tmp_path / "approvals.db"))
    approval = store.add(case_id="c", reviewer="ana", decision="approve",
                         inputs_sha256="0" * 64, outputs_sha256="1" * 64)
    yield store, approval
    store.close()


@rule("apply.journal-used-once")
def test_a_journal_whose_apply_is_recorded_finished_is_refused(log):
    store, approval = log
    events = ApplyEvents(store, reviewer="ops", target="mem0:x")
    row = events.intent(_intent("a1", approval.id), "store-k")
    events.check_current(_intent("a1", approval.id, row), "store-k")  # pending: current
    store.record_applied(approval.id, reviewer="ops", target="mem0:x",
                         comment=json.dumps({"apply": "a1"}))
    with pytest.raises(JournalNotCurrent, match="records it applied"):
        events.check_current(_intent("a1", approval.id, row), "store-k")
    events.rolled_back(_intent("a2", approval.id), "store-k")
    with pytest.raises(JournalNotCurrent, match="records it rolled-back"):
        events.check_current(_intent("a2", approval.id), "store-k")


@rule("apply.journal-used-once")
def test_a_journal_that_is_not_the_latest_intent_for_its_store_is_refused(log):
    store, approval = log
    events = ApplyEvents(store, reviewer="ops", target="mem0:x")
    first = events.intent(_intent("a1", approval.id), "store-k")
    second = events.intent(_intent("a2", approval.id), "store-k")
    events.intent(_intent("b1", approval.id), "another-store")  # another store's: no matter
    with pytest.raises(JournalNotCurrent, match="not the latest"):
        events.check_current(_intent("a1", approval.id, first), "store-k")
    events.check_current(_intent("a2", approval.id, second), "store-k")
    # a journal naming an intent row the log does not hold for it
    with pytest.raises(JournalNotCurrent, match="does not hold"):
        events.check_current(_intent("a2", approval.id, first), "store-k")


@rule("apply.journal-used-once")
def test_a_rollback_row_is_signed_like_a_decision(log):
    store, approval = log
    assert main(["keys", "generate", "--reviewer", "ana"]) == 0  # a trust file, no key for ops
    events = ApplyEvents(store, reviewer="ops", target="mem0:x")
    events.intent(_intent("a1", approval.id), "store-k")  # an intent may go unsigned
    with pytest.raises(DgrrError, match="rollback event refused"):
        events.rolled_back(_intent("a1", approval.id), "store-k")
    assert main(["keys", "generate", "--reviewer", "ops"]) == 0
    row = events.rolled_back(_intent("a1", approval.id), "store-k")
    assert row.kind == "rolled-back" and row.signature
