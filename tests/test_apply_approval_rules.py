"""Issue 21, item 1 (approval rules): `dgrr apply` honours only the latest decision on a
result, and nothing from a log that does not verify (a real Mem0 store, offline)."""

from __future__ import annotations

import sqlite3

import pytest
from test_apply_mem0 import _apply, _approve, _snapshot, repaired  # noqa: F401

from repair_core.cli import main

pytestmark = pytest.mark.slow


def test_a_later_rejection_by_another_reviewer_blocks_apply(repaired, capsys):  # noqa: F811
    r = repaired
    before = _snapshot(r["folder"])
    _approve(r)
    assert main(["approve", str(r["case"]), "--reviewer", "bob", "--decision", "reject",
                 "--comment", "the restored preference is stale too",
                 "--result", str(r["result"]), "--db", r["db"]]) == 0
    capsys.readouterr()
    assert _apply(r, "--apply", "--reviewer", "ops") == 2
    err = capsys.readouterr().err
    assert "rejected in #2" in err and "latest decision" in err and "Traceback" not in err
    assert _snapshot(r["folder"]) == before


def test_an_approval_in_a_log_that_does_not_verify_is_not_honoured(repaired, capsys):  # noqa: F811
    r = repaired
    before = _snapshot(r["folder"])
    _approve(r)
    con = sqlite3.connect(r["db"])
    con.execute("DROP TRIGGER dgrr_approvals_no_update")
    con.execute("UPDATE dgrr_approvals SET comment = 'edited' WHERE id = 1")
    con.commit()
    con.close()
    capsys.readouterr()
    assert _apply(r, "--apply", "--reviewer", "ops") == 2
    err = capsys.readouterr().err
    assert "does not verify" in err and "Traceback" not in err
    assert _snapshot(r["folder"]) == before
