"""The attack on a journal's currency, end to end on a real Mem0 store: the intent file
is copied while `dgrr apply --apply` runs, the apply finishes and is recorded, the copy is
put back. It still authenticates; `--rollback` and `--resume` refuse it because the
approvals log records its apply finished (rule `apply.journal-used-once`), and the
repair stays."""

from __future__ import annotations

import shutil

import pytest
from test_apply_mem0 import _apply, _approve, _snapshot, repaired  # noqa: F401

from repair_core.approvals import ApprovalStore
from repair_core.cli import main
from repair_core.integrations import _journal

pytestmark = pytest.mark.slow


def test_a_journal_copied_during_an_apply_and_put_back_is_refused(repaired, capsys,  # noqa: F811
                                                                    monkeypatch, tmp_path):
    r = repaired
    copy = tmp_path / "journal-copy.json"
    write = _journal.Journal.write

    def write_and_copy(self, intent):
        write(self, intent)
        shutil.copy(self.path, copy)  # the attacker's copy, taken while the apply runs

    _approve(r)
    with monkeypatch.context() as m:
        m.setattr(_journal.Journal, "write", write_and_copy)
        assert _apply(r, "--apply", "--reviewer", "ops") == 0
    after = _snapshot(r["folder"])
    log = ApprovalStore(r["db"])
    intents, applied = log.find(kind="intent"), log.find(kind="applied")
    assert len(intents) == 1 and len(applied) == 1 and intents[0].id < applied[0].id
    pending = _journal.Intent.model_validate_json(copy.read_text())
    assert pending.state == "intent" and pending.intent_row == intents[0].id
    kept = next(p for p in (tmp_path / "journal").iterdir()
                if p.name.endswith(f".{pending.apply_id}.json"))
    shutil.copy(copy, kept.with_name(kept.name.split(".")[0] + ".json"))  # put back
    capsys.readouterr()
    for what in ("--rollback", "--resume"):
        assert main(["apply", "--to", "mem0", "--store", "mem0_factory:memory", "--db",
                     r["db"], "--journal", r["journal"], what, "--reviewer", "ops"]) == 2
        err = capsys.readouterr().err
        assert "records it applied" in err and "used once" in err and "Traceback" not in err
    assert _snapshot(r["folder"]) == after  # the repair stays
    assert not log.find(kind="rolled-back")
