"""Issue 21, item 2: an approvals log its owner cannot rewrite unnoticed. Reviewers sign
rows with Ed25519 keys whose public halves live in a trust file outside the database;
signed checkpoints of the head detect truncation and rollback. Every tampering of the
issue's campaign is run for real on a SQLite file and must fail
`dgrr history --verify --against CHECKPOINT`."""

from __future__ import annotations

import json
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from repair_core import DgrrError
from repair_core.approvals import ApprovalStore, TrustFile, honoured_approval
from repair_core.approvals._store import GENESIS_HASH, _row_fields, row_hash
from repair_core.cli import main

FIXTURE = "repair_core/fixtures/figure1-travel.json"
H_IN, H_OUT = "a" * 64, "b" * 64


@pytest.fixture()
def keyed(tmp_path, monkeypatch, capsys):
    """Keys for ana and bob in a private folder, trusted in a trust file; a database."""
    monkeypatch.setenv("DGRR_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "trust.json"))
    for who in ("ana", "bob"):
        assert main(["keys", "generate", "--reviewer", who]) == 0
    capsys.readouterr()
    return {"db": str(tmp_path / "a.db"), "cp": str(tmp_path / "head.json"),
            "tmp": tmp_path}


def _fill(db: str, n: int = 4) -> ApprovalStore:
    store = ApprovalStore(db)
    for i in range(n):
        store.add(case_id=f"c{i}", reviewer="ana" if i % 2 == 0 else "bob",
                  decision="approve", comment=f"ok {i}", inputs_sha256=H_IN,
                  outputs_sha256=H_OUT)
    return store


def _checkpoint(k, capsys) -> None:
    assert main(["history", "--db", k["db"], "--checkpoint", k["cp"], "--reviewer", "ana"]) == 0
    capsys.readouterr()


def _verify(k, capsys, *extra: str) -> tuple[int, str]:
    code = main(["history", "--db", k["db"], "--verify", "--against", k["cp"], *extra])
    out = capsys.readouterr()
    return code, out.out + out.err


def _drop_triggers(con: sqlite3.Connection) -> None:
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"
                               ).fetchall():
        con.execute(f"DROP TRIGGER {name}")


def _raw_rows(con: sqlite3.Connection) -> list[dict]:
    con.row_factory = sqlite3.Row
    rows = [dict(r) for r in con.execute("SELECT * FROM dgrr_approvals ORDER BY id")]
    con.row_factory = None
    return rows


def _rechain(con: sqlite3.Connection, start_id: int) -> None:
    """What an owner who knows the (secret-free) chain does: recompute every hash from
    `start_id` on, so the chain alone verifies again."""
    prev = GENESIS_HASH
    for r in _raw_rows(con):
        if r["id"] >= start_id:
            new = row_hash(_row_fields(r), prev)
            con.execute("UPDATE dgrr_approvals SET prev_hash = ?, row_hash = ? WHERE id = ?",
                        (prev, new, r["id"]))
            prev = new
        else:
            prev = r["row_hash"]


def test_keys_generate_private_0600_outside_the_repo_public_in_the_trust_file(keyed, capsys):
    folder = keyed["tmp"] / "keys"
    files = list(folder.iterdir())
    assert len(files) == 2
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600
        assert "ana" not in f.name and "bob" not in f.name  # reviewer text is no file name
    trust = json.loads((keyed["tmp"] / "trust.json").read_text())
    assert trust["format"] == "dgrr.trust/v1"
    assert sorted(k["reviewer"] for k in trust["keys"]) == ["ana", "bob"]
    assert all("private" not in json.dumps(k) for k in trust["keys"])
    assert main(["keys", "list"]) == 0
    out = capsys.readouterr().out
    assert out.count("ana") == 2 and out.count("ed25519:") == 4
    # a second key for the same reviewer is refused unless --replace
    assert main(["keys", "generate", "--reviewer", "ana"]) == 2
    assert "already has a key" in capsys.readouterr().err


def test_default_key_folder_is_outside_the_repo(monkeypatch):
    from repair_core.approvals import key_dir, trust_path

    monkeypatch.delenv("DGRR_KEYS", raising=False)
    monkeypatch.delenv("DGRR_TRUST", raising=False)
    repo = Path(__file__).resolve().parent.parent
    for p in (key_dir(), trust_path()):
        assert p == p.expanduser() and repo not in p.resolve().parents
        assert str(p).startswith(str(Path.home()))


def test_a_key_readable_by_others_is_refused(keyed, capsys):
    for f in (keyed["tmp"] / "keys").iterdir():
        f.chmod(0o644)
    code = main(["approve", FIXTURE, "--reviewer", "ana", "--decision", "approve",
                 "--db", keyed["db"]])
    err = capsys.readouterr().err
    assert code == 2 and "readable by other users" in err and "Traceback" not in err


def test_approve_signs_and_prints_the_new_head(keyed, capsys):
    assert main(["approve", FIXTURE, "--reviewer", "ana", "--decision", "approve",
                 "--db", keyed["db"]]) == 0
    out = capsys.readouterr().out
    rec = ApprovalStore(keyed["db"]).history()[0]
    assert rec.signature and rec.key_id and rec.key_id.startswith("ed25519:")
    assert f"log head now {rec.row_hash}" in out and "signed with" in out
    assert main(["history", "--db", keyed["db"], "--verify"]) == 0
    out = capsys.readouterr().out
    assert f"head {rec.row_hash}" in out and "signatures checked" in out


def test_unsigned_decision_refused_when_a_trust_file_is_in_use(keyed, capsys):
    code = main(["approve", FIXTURE, "--reviewer", "mallory", "--decision", "approve",
                 "--db", keyed["db"]])
    err = capsys.readouterr().err
    assert code == 2 and "no signing key" in err and "Traceback" not in err
    assert not ApprovalStore(keyed["db"]).history()


def test_an_intact_log_verifies_against_its_checkpoint(keyed, capsys):
    _fill(keyed["db"])
    _checkpoint(keyed, capsys)
    cp = json.loads(Path(keyed["cp"]).read_text())
    assert cp["format"] == "dgrr.checkpoint/v1" and cp["rows"] == 4 and cp["signature"]
    _fill(keyed["db"], 2)  # rows appended after the checkpoint are fine
    code, out = _verify(keyed, capsys)
    assert code == 0, out
    assert "contains the checkpoint" in out and "6 rows" in out


def _tamper(kind: str, k, capsys) -> None:
    db = k["db"]
    if kind.startswith("rollback to an older copy"):
        _fill(db, 2)
        shutil.copy(db, k["tmp"] / "old.db")
        _fill(db, 2)
        _checkpoint(k, capsys)
        shutil.copy(k["tmp"] / "old.db", db)
        if kind == "rollback to an older copy, then new rows":
            _fill(db, 3)  # as many rows as before and more: the head differs
        return
    _fill(db, 4)
    _checkpoint(k, capsys)
    con = sqlite3.connect(db)
    if kind == "forged row, hash recomputed, triggers in place":
        last = _raw_rows(con)[-1]
        forged = {**last, "case_id": "c9", "reviewer": "ana", "decision": "approve",
                  "comment": "looks fine"}
        forged["row_hash"] = row_hash(_row_fields(forged), last["row_hash"])
        forged["prev_hash"] = last["row_hash"]
        cols = [c for c in forged if c not in ("id", "key_id", "signature")]
        con.execute(f"INSERT INTO dgrr_approvals ({', '.join(cols)}) VALUES "
                    f"({', '.join('?' * len(cols))})", [forged[c] for c in cols])
    elif kind == "forged row signed with an untrusted key":
        from repair_core.approvals import generate_key
        from repair_core.approvals._store import row_message

        mallory, _ = generate_key("ana", k["tmp"] / "mallory-keys")  # claims to be ana
        last = _raw_rows(con)[-1]
        forged = {**last, "case_id": "c9", "comment": "sure"}
        forged["prev_hash"] = last["row_hash"]
        forged["row_hash"] = row_hash(_row_fields(forged), last["row_hash"])
        forged["key_id"] = mallory.key_id
        forged["signature"] = mallory.sign(row_message(forged["row_hash"]))
        cols = [c for c in forged if c != "id"]
        con.execute(f"INSERT INTO dgrr_approvals ({', '.join(cols)}) VALUES "
                    f"({', '.join('?' * len(cols))})", [forged[c] for c in cols])
    else:
        _drop_triggers(con)
        if kind == "edited row":
            con.execute("UPDATE dgrr_approvals SET decision = 'reject' WHERE id = 2")
        elif kind == "deleted middle row":
            con.execute("DELETE FROM dgrr_approvals WHERE id = 2")
        elif kind == "reordered ids":
            con.execute("UPDATE dgrr_approvals SET id = -1 WHERE id = 2")
            con.execute("UPDATE dgrr_approvals SET id = 2 WHERE id = 3")
            con.execute("UPDATE dgrr_approvals SET id = 3 WHERE id = -1")
        elif kind == "bad appended hash":
            last = _raw_rows(con)[-1]
            con.execute("INSERT INTO dgrr_approvals (case_id, reviewer, decision, comment, "
                        "plan_edits, forced, inputs_sha256, outputs_sha256, created_at, kind, "
                        "prev_hash, row_hash) VALUES ('c9', 'ana', 'approve', '', '[]', 0, ?, "
                        "?, ?, 'decision', ?, ?)",
                        (H_IN, H_OUT, last["created_at"], last["row_hash"], "f" * 64))
        elif kind == "deleted last rows":
            con.execute("DELETE FROM dgrr_approvals WHERE id >= 3")
        elif kind == "deleted all rows":
            con.execute("DELETE FROM dgrr_approvals")
        elif kind == "last row flipped to approve and rehashed":
            con.execute("UPDATE dgrr_approvals SET decision = 'reject', comment = 'no' "
                        "WHERE id = 4")
            con.commit()  # the checkpoint above pinned 'approve'; flip the other way too
            _rechain(con, 4)
        elif kind == "edited row, everything after re-chained":
            con.execute("UPDATE dgrr_approvals SET reviewer = 'bob', comment = 'changed' "
                        "WHERE id = 2")
            _rechain(con, 2)
        else:  # pragma: no cover
            raise AssertionError(kind)
        # the owner puts the triggers back, so "dropped triggers" gives nothing away
        ApprovalStore(db).close()
        con.commit()
        con.close()
        con = sqlite3.connect(db)
        import repair_core.approvals._store as st

        for ddl in st._SQLITE_TRIGGERS.values():
            con.execute(ddl)
    con.commit()
    con.close()


TAMPERINGS = ["edited row", "deleted middle row", "reordered ids", "bad appended hash",
              "deleted last rows", "deleted all rows", "rollback to an older copy",
              "rollback to an older copy, then new rows",
              "forged row, hash recomputed, triggers in place",
              "forged row signed with an untrusted key",
              "last row flipped to approve and rehashed",
              "edited row, everything after re-chained"]


@pytest.mark.parametrize("kind", TAMPERINGS)
def test_every_tampering_is_detected_by_verify_against(keyed, capsys, kind):
    _tamper(kind, keyed, capsys)
    code, out = _verify(keyed, capsys)
    assert code == 1, out
    assert "BROKEN" in out and "Traceback" not in out


def test_rechaining_defeats_the_chain_alone_but_not_signatures(keyed, capsys, monkeypatch):
    """The attack the signatures are for: after a re-chain the secret-free chain verifies,
    the signed log does not."""
    _tamper("edited row, everything after re-chained", keyed, capsys)
    store = ApprovalStore(keyed["db"])
    assert store.verify().ok  # chain only: the rewrite is invisible
    check = store.verify(TrustFile.load())
    assert not check.ok and check.first_broken == 2 and "forged or re-chained" in check.reason


def test_a_changed_or_untrusted_checkpoint_is_refused(keyed, capsys):
    _fill(keyed["db"], 4)
    _checkpoint(keyed, capsys)
    cp = json.loads(Path(keyed["cp"]).read_text())
    Path(keyed["cp"]).write_text(json.dumps({**cp, "rows": 2}))
    code, out = _verify(keyed, capsys)
    assert code == 2 and "does not verify" in out and "Traceback" not in out
    Path(keyed["cp"]).write_text(json.dumps({**cp, "reviewer": "carol"}))
    code, out = _verify(keyed, capsys)
    assert code == 2 and "does not trust" in out
    Path(keyed["cp"]).write_text('{"format": "dgrr.checkpoint/v1", "rows": "x"}')
    code, out = _verify(keyed, capsys)
    assert code == 2 and "field" in out and "Traceback" not in out


def test_verify_against_needs_the_trust_file(keyed, capsys, tmp_path, monkeypatch):
    _fill(keyed["db"], 2)
    _checkpoint(keyed, capsys)
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "nowhere.json"))
    code, out = _verify(keyed, capsys)
    assert code == 2 and "trust file" in out and "does not exist" in out


def test_no_checkpoint_of_a_broken_log(keyed, capsys):
    _fill(keyed["db"], 3)
    con = sqlite3.connect(keyed["db"])
    _drop_triggers(con)
    con.execute("UPDATE dgrr_approvals SET comment = 'x' WHERE id = 1")
    con.commit()
    con.close()
    code = main(["history", "--db", keyed["db"], "--checkpoint", keyed["cp"], "--reviewer",
                 "ana"])
    assert code == 2 and "does not verify" in capsys.readouterr().err
    assert not Path(keyed["cp"]).exists()


# -- which approval is honoured ------------------------------------------------------

def _all(_record) -> bool:
    return True


def test_a_later_reject_blocks_an_approval(keyed):
    store = _fill(keyed["db"], 0)
    a = store.add(case_id="c", reviewer="ana", decision="approve", inputs_sha256=H_IN,
                  outputs_sha256=H_OUT)
    assert honoured_approval(store, "c", _all).record.id == a.id
    store.add(case_id="c", reviewer="bob", decision="reject", comment="no",
              inputs_sha256=H_IN, outputs_sha256=H_OUT)
    standing = honoured_approval(store, "c", _all)
    assert standing.record is None and "rejected" in standing.reason
    # a decision on another result does not count
    standing = honoured_approval(store, "c", lambda r: r.id == a.id)
    assert standing.record.id == a.id
    # and a later approval wins over the rejection
    store.add(case_id="c", reviewer="carol" if False else "ana", decision="approve",
              comment="re-reviewed", inputs_sha256=H_IN, outputs_sha256="c" * 64)
    assert honoured_approval(store, "c", _all).record.outputs_sha256 == "c" * 64


def test_an_approval_that_fails_verification_is_never_honoured(keyed, capsys):
    _tamper("forged row, hash recomputed, triggers in place", keyed, capsys)
    store = ApprovalStore(keyed["db"])
    assert store.verify().ok  # the chain alone accepts the forgery
    standing = honoured_approval(store, "c9", _all)
    assert standing.record is None and "does not verify" in standing.reason


def test_broken_chain_honours_nothing_even_without_trust(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "none.json"))
    monkeypatch.setenv("DGRR_KEYS", str(tmp_path / "nokeys"))
    store = _fill(str(tmp_path / "a.db"), 3)
    con = sqlite3.connect(tmp_path / "a.db")
    _drop_triggers(con)
    con.execute("UPDATE dgrr_approvals SET comment = 'x' WHERE id = 1")
    con.commit()
    con.close()
    assert honoured_approval(store, "c2", _all).record is None


# -- a tampered database: one line, no traceback ---------------------------------------

@pytest.mark.parametrize("column,value", [
    ("created_at", "garbage"), ("plan_edits", "{not json"), ("decision", "maybe"),
    ("row_hash", b"\x00\x01blob"), ("case_id", b"\xffblob"), ("forced", "yes")])
def test_a_tampered_database_gives_one_line_not_a_traceback(tmp_path, capsys, monkeypatch,
                                                             column, value):
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "none.json"))
    monkeypatch.setenv("DGRR_KEYS", str(tmp_path / "nokeys"))
    db = str(tmp_path / "a.db")
    _fill(db, 3)
    con = sqlite3.connect(db)
    _drop_triggers(con)
    con.execute(f"UPDATE dgrr_approvals SET {column} = ? WHERE id = 2", (value,))
    con.commit()
    con.close()
    assert main(["history", "--case", "c0", "--db", db]) == 0  # rows it need not read
    capsys.readouterr()
    for argv in (["history"], ["history", "--json"], ["history", "--verify"]):
        code = main([*argv, "--db", db])
        out = capsys.readouterr()
        text = out.out + out.err
        assert code in (1, 2), (argv, text)
        assert "Traceback" not in text and "#2" in text, (argv, text)
        assert len(out.err.strip().splitlines()) == 1, out.err
    with pytest.raises(DgrrError):
        ApprovalStore(db).history()
    assert honoured_approval(ApprovalStore(db), "c1", _all).record is None


def test_an_unsigned_applied_event_is_reported_not_fatal(keyed, capsys):
    store = _fill(keyed["db"], 1)
    approval = store.history()[0]
    event = store.record_applied(approval.id, reviewer="ops-without-key", target="mem0:x")
    assert event.signature is None
    check = store.verify(TrustFile.load())
    assert check.ok and check.unsigned_applied == 1
    assert main(["history", "--db", keyed["db"], "--verify"]) == 0
    assert "1 applied event(s) unsigned" in capsys.readouterr().out
    # an applied event signed by the applier's key must verify like any row
    signed = store.record_applied(approval.id, reviewer="bob", target="mem0:x")
    assert signed.signature and store.verify(TrustFile.load()).ok


def test_a_checkpoint_may_not_overwrite_the_database_or_the_trust_file(keyed, capsys):
    _fill(keyed["db"], 2)
    before = Path(keyed["db"]).read_bytes()
    for target in (keyed["db"], str(keyed["tmp"] / "trust.json")):
        code = main(["history", "--db", keyed["db"], "--checkpoint", target, "--reviewer", "ana"])
        assert code == 2 and "is also an input" in capsys.readouterr().err
    assert Path(keyed["db"]).read_bytes() == before
