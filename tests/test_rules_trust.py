"""Trust rules (ids `replay.no-fault-echo`, `approval.*` in docs/rules.md)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from repair_core import load_case
from repair_core.approvals import ApprovalStore, honoured_approval
from repair_core.model import POLICIES
from repair_core.model._reference import reference_reply
from repair_core.replay import repair

rule = pytest.mark.rule
H = "a" * 64


@rule("replay.no-fault-echo")
def test_no_fault_echo(monkeypatch):
    def factory(noise):
        def reply(messages):
            out = json.loads(reference_reply(messages))
            if "records" in out:
                for r in out["records"]:
                    r["text"] += " Old address: 12 pine st. seattle"
            elif "text" in out and "tool" not in out and "key" not in out:
                out["text"] += " (or 12 Pine Street, Seattle?)"
            return json.dumps(out)
        return reply

    monkeypatch.setitem(POLICIES, "echo-rule", factory)
    result = repair(load_case("sample_traces/cs-stale-address.json"), model="dgrr/echo-rule")
    kinds = {(e.type, e.action, e.fault) for e in result.report.fault_echoes}
    assert ("answer", "flagged", "m1") in kinds and ("memory_write", "refused", "m1") in kinds
    assert all("pine" not in m.text.lower() for m in result.store.active)


@rule("approval.latest-wins")
def test_latest_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "none.json"))
    store = ApprovalStore(str(tmp_path / "a.db"))
    store.add(case_id="c", reviewer="ana", decision="approve", inputs_sha256=H,
              outputs_sha256=H)
    assert honoured_approval(store, "c", lambda r: True).record is not None
    store.add(case_id="c", reviewer="bob", decision="reject", comment="no",
              inputs_sha256=H, outputs_sha256=H)
    assert honoured_approval(store, "c", lambda r: True).record is None


@rule("approval.verified-only")
def test_verified_only(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "none.json"))
    db = tmp_path / "a.db"
    store = ApprovalStore(str(db))
    store.add(case_id="c", reviewer="ana", decision="approve", inputs_sha256=H,
              outputs_sha256=H)
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER dgrr_approvals_no_update")
    con.execute("UPDATE dgrr_approvals SET reviewer = 'mallory'")
    con.commit()
    con.close()
    standing = honoured_approval(ApprovalStore(str(db)), "c", lambda r: True)
    assert standing.record is None and "does not verify" in standing.reason
