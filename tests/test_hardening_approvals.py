"""Issue 12, approvals: a hash-chained, tamper-evident log; lock contention waits; every
database failure is one line without SQL."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time

import pytest
from forked_dgrr import fork_safe
from sqlalchemy import insert
from sqlalchemy.orm import Session

from repair_core import DgrrError
from repair_core.approvals import ApprovalStore
from repair_core.approvals._store import _ApprovalRow
from repair_core.cli import main

H = "a" * 64


def _fill(db: str, n: int = 3) -> ApprovalStore:
    store = ApprovalStore(db)
    for i in range(n):
        store.add(case_id=f"c{i}", reviewer="ana", decision="approve", comment=f"ok {i}",
                  inputs_sha256=H, outputs_sha256="b" * 64)
    return store


def _verify(db: str, capsys) -> tuple[int, str]:
    code = main(["history", "--verify", "--db", db])
    out = capsys.readouterr()
    return code, out.out + out.err


def _rows(db: str) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, reviewer, decision, comment FROM dgrr_approvals "
                           "ORDER BY id").fetchall()
    finally:
        con.close()


def test_each_row_is_chained_to_the_previous_one(tmp_path):
    store = _fill(str(tmp_path / "a.db"))
    rows = list(reversed(store.history()))
    assert rows[0].prev_hash == "0" * 64
    assert [r.prev_hash for r in rows[1:]] == [r.row_hash for r in rows[:-1]]
    assert len({r.row_hash for r in rows}) == 3
    assert store.verify().ok and store.verify().rows == 3


def test_verify_exits_0_on_an_intact_log(tmp_path, capsys):
    db = str(tmp_path / "a.db")
    _fill(db)
    code, out = _verify(db, capsys)
    assert code == 0 and "intact: 3 rows" in out


def test_insert_or_replace_of_an_existing_id_is_refused(tmp_path):
    db = str(tmp_path / "a.db")
    _fill(db)
    before = _rows(db)
    con = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("INSERT OR REPLACE INTO dgrr_approvals (id, case_id, reviewer, decision, "
                    "comment, plan_edits, forced, inputs_sha256, outputs_sha256, created_at) "
                    "VALUES (2, 'c1', 'mallory', 'reject', '', '[]', 0, ?, ?, "
                    "'2026-01-01 00:00:00.000000')", (H, H))
    con.close()
    store = ApprovalStore(db)
    with Session(store.engine) as session, pytest.raises(Exception, match="append-only"):
        session.execute(insert(_ApprovalRow).prefix_with("OR REPLACE").values(
            id=1, case_id="c0", reviewer="mallory", decision="reject", comment="",
            plan_edits=[], forced=False, inputs_sha256=H, outputs_sha256=H,
            created_at=store.history()[0].created_at))
        session.commit()
    assert _rows(db) == before


def test_an_insert_naming_a_new_id_is_refused(tmp_path):
    db = str(tmp_path / "a.db")
    _fill(db)
    con = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("INSERT INTO dgrr_approvals (id, case_id, reviewer, decision, comment, "
                    "plan_edits, forced, inputs_sha256, outputs_sha256, created_at) VALUES "
                    "(99, 'c1', 'mallory', 'approve', '', '[]', 0, ?, ?, "
                    "'2026-01-01 00:00:00.000000')", (H, H))
    con.close()
    assert len(_rows(db)) == 3


def test_an_unchained_raw_insert_is_refused(tmp_path):
    db = str(tmp_path / "a.db")
    _fill(db)
    con = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="chain"):
        con.execute("INSERT INTO dgrr_approvals (case_id, reviewer, decision, comment, "
                    "plan_edits, forced, inputs_sha256, outputs_sha256, created_at, "
                    "prev_hash, row_hash) VALUES ('c1', 'mallory', 'approve', '', '[]', 0, "
                    "?, ?, '2026-01-01 00:00:00.000000', ?, ?)", (H, H, "0" * 64, H))
    con.close()


@pytest.mark.parametrize("attack", ["drop trigger + update", "drop triggers + replace",
                                    "drop trigger + delete"])
def test_verify_finds_the_first_broken_row(tmp_path, capsys, attack):
    db = str(tmp_path / "a.db")
    _fill(db, 4)
    con = sqlite3.connect(db)
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")\
            .fetchall():
        con.execute(f"DROP TRIGGER {name}")
    if attack == "drop trigger + update":
        con.execute("UPDATE dgrr_approvals SET reviewer = 'mallory', decision = 'reject' "
                    "WHERE id = 2")
    elif attack == "drop triggers + replace":
        con.execute("INSERT OR REPLACE INTO dgrr_approvals (id, case_id, reviewer, decision, "
                    "comment, plan_edits, forced, inputs_sha256, outputs_sha256, created_at, "
                    "prev_hash, row_hash) SELECT id, case_id, 'mallory', 'reject', comment, "
                    "plan_edits, forced, inputs_sha256, outputs_sha256, created_at, prev_hash, "
                    "row_hash FROM dgrr_approvals WHERE id = 2")
    else:
        con.execute("DELETE FROM dgrr_approvals WHERE id = 2")
    con.commit()
    con.close()
    code, out = _verify(db, capsys)
    assert code == 1
    expected = "row #3" if attack == "drop trigger + delete" else "row #2"
    assert f"BROKEN at {expected}" in out, out
    assert "Traceback" not in out


def test_verify_reports_dropped_triggers(tmp_path, capsys):
    db = str(tmp_path / "a.db")
    _fill(db)
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER dgrr_approvals_no_update")
    con.commit()
    con.close()
    code, out = _verify(db, capsys)
    assert code == 1 and "dgrr_approvals_no_update" in out


def test_a_locked_database_is_waited_for(tmp_path):
    db = str(tmp_path / "a.db")
    store = _fill(db, 1)
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    threading.Timer(0.6, lambda: holder.execute("COMMIT")).start()
    start = time.monotonic()
    rec = store.add(case_id="c9", reviewer="bo", decision="reject", inputs_sha256=H,
                    outputs_sha256=H)
    assert rec.id == 2 and time.monotonic() - start >= 0.5
    holder.close()


def test_a_database_locked_too_long_is_one_line_without_sql(tmp_path):
    db = str(tmp_path / "a.db")
    _fill(db, 1)
    store = ApprovalStore(db, busy_timeout=0.2)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(DgrrError) as err:
            store.add(case_id="c9", reviewer="bo", decision="reject", inputs_sha256=H,
                      outputs_sha256=H)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    msg = str(err.value)
    assert "locked" in msg and "\n" not in msg and "INSERT" not in msg and "SQL" not in msg


def test_a_read_only_database_is_one_line_without_sql(tmp_path, capsys):
    db = tmp_path / "a.db"
    _fill(str(db), 1)
    url = f"sqlite:///file:{db}?mode=ro&uri=true"
    code = main(["approve", "repair_core/fixtures/figure1-travel.json", "--reviewer", "ana",
                 "--decision", "approve", "--db", url])
    err = capsys.readouterr().err
    assert code == 2
    assert "read-only" in err and len(err.strip().splitlines()) == 1
    assert "INSERT" not in err and "SQL" not in err


def test_postgres_without_a_driver_is_one_line(capsys):
    pytest.importorskip("sqlalchemy")
    try:  # psycopg (3) comes with the postgres extra; pg8000 is a driver dgrr never installs
        import pg8000  # noqa: F401
        pytest.skip("pg8000 is installed")
    except ImportError:
        pass
    code = main(["history", "--db", "postgresql+pg8000://u:secret@127.0.0.1:1/x"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "no database driver" in err and "secret" not in err and "Traceback" not in err


def test_postgres_that_refuses_is_one_line_without_the_password(capsys):
    pytest.importorskip("psycopg", reason="needs the postgres extra")
    code = main(["history", "--db", "postgresql+psycopg://u:secret@127.0.0.1:1/x"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "connection failed" in err and "secret" not in err and "Traceback" not in err


def _stress_writer(db: str, n: int, who: int) -> None:
    store = ApprovalStore(db)
    for i in range(n):
        store.add(case_id=f"c{who}", reviewer=f"r{who}", decision="approve",
                  comment=str(i), inputs_sha256=H, outputs_sha256=H)


@pytest.mark.slow
def test_concurrent_writers_all_succeed_and_the_chain_holds(tmp_path):
    db = str(tmp_path / "a.db")
    ApprovalStore(db).close()
    # forked, they start with dgrr imported (a spawned writer spent most of its CPU
    # importing it); spawned when another thread runs here
    ctx = multiprocessing.get_context("fork" if fork_safe() else "spawn")
    procs = [ctx.Process(target=_stress_writer, args=(db, 25, w)) for w in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * 8
    store = ApprovalStore(db)
    assert len(store.history()) == 200
    check = store.verify()
    assert check.ok, check


def test_reviewer_name_length_and_control_characters_are_refused(tmp_path):
    store = ApprovalStore(str(tmp_path / "a.db"))
    with pytest.raises(DgrrError, match="reviewer: at most 200 characters"):
        store.add(case_id="c", reviewer="x" * 5000, decision="approve", inputs_sha256=H,
                  outputs_sha256=H)
    with pytest.raises(DgrrError, match="reviewer: control characters"):
        store.add(case_id="c", reviewer="ana\x1b[2J", decision="approve", inputs_sha256=H,
                  outputs_sha256=H)
    assert store.history() == []


def test_history_escapes_control_characters(tmp_path, capsys):
    db = str(tmp_path / "a.db")
    store = ApprovalStore(db)
    store.add(case_id="c\x07", reviewer="ana", decision="approve", inputs_sha256=H,
              outputs_sha256=H, comment="fine\x1b[31m red\x07 \x9b1m")
    assert main(["history", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
    assert "\\x1b[31m" in out and "\\x07" in out
    assert main(["history", "--db", db, "--json"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out


def test_find_says_whether_a_decision_was_recorded(tmp_path):
    store = _fill(str(tmp_path / "a.db"), 2)
    [hit] = store.find(case_id="c1", reviewer="ana", inputs_sha256=H, outputs_sha256="b" * 64,
                       decision="approve")
    assert hit.case_id == "c1" and hit.kind == "decision"
    assert store.find(case_id="c1", reviewer="bo") == []
    assert store.find(case_id="c1", outputs_sha256="c" * 64) == []


def test_applied_events_refer_to_an_approval_and_join_the_chain(tmp_path):
    store = _fill(str(tmp_path / "a.db"), 1)
    [approval] = store.history()
    ev = store.record_applied(approval.id, reviewer="ops", target="mem0://user/lin",
                              comment="applied to production")
    assert (ev.kind, ev.refers_to, ev.case_id, ev.target) == (
        "applied", approval.id, approval.case_id, "mem0://user/lin")
    assert ev.prev_hash == approval.row_hash and store.verify().ok
    assert [e.id for e in store.find(kind="applied", refers_to=approval.id)] == [ev.id]
    with pytest.raises(DgrrError, match="no approval #99"):
        store.record_applied(99, reviewer="ops", target="x")
    rejected = store.add(case_id="c", reviewer="ana", decision="reject", inputs_sha256=H,
                         outputs_sha256=H)
    with pytest.raises(DgrrError, match="not an approval"):
        store.record_applied(rejected.id, reviewer="ops", target="x")


@pytest.mark.parametrize("kind", ["not a database", "a folder", "unknown dialect"])
def test_other_database_failures_are_one_line(tmp_path, capsys, kind):
    if kind == "not a database":
        bad = tmp_path / "x.db"
        bad.write_text("garbage")
        db = str(bad)
    elif kind == "a folder":
        db = str(tmp_path)
    else:
        db = "nosuch://x"
    assert main(["history", "--db", db]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "SELECT" not in err


def test_a_database_of_the_first_release_is_migrated_and_reported(tmp_path, capsys):
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE dgrr_approvals (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                "case_id VARCHAR(200), reviewer VARCHAR(200), decision VARCHAR(16), "
                "comment TEXT, plan_edits JSON, forced BOOLEAN, inputs_sha256 VARCHAR(64), "
                "outputs_sha256 VARCHAR(64), model VARCHAR(200), created_at DATETIME)")
    con.execute("CREATE TRIGGER dgrr_approvals_no_update BEFORE UPDATE ON dgrr_approvals "
                "BEGIN SELECT RAISE(ABORT, 'dgrr approvals are append-only'); END")
    con.execute("CREATE TRIGGER dgrr_approvals_no_delete BEFORE DELETE ON dgrr_approvals "
                "BEGIN SELECT RAISE(ABORT, 'dgrr approvals are append-only'); END")
    con.execute("INSERT INTO dgrr_approvals (case_id, reviewer, decision, comment, plan_edits, "
                "forced, inputs_sha256, outputs_sha256, created_at) VALUES ('c', 'ana', "
                "'approve', '', '[]', 0, ?, ?, '2026-01-01 00:00:00.000000')", (H, H))
    con.commit()
    con.close()
    store = ApprovalStore(str(db))
    new = store.add(case_id="c", reviewer="bo", decision="reject", inputs_sha256=H,
                    outputs_sha256=H)
    assert new.id == 2 and [r.reviewer for r in store.history()] == ["bo", "ana"]
    code, out = _verify(str(db), capsys)
    assert code == 1 and "row #1" in out and "before the hash chain" in out


def test_history_limit_must_be_positive(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:  # argparse refuses it before any work
        main(["history", "--db", str(tmp_path / "a.db"), "--limit", "-1"])
    assert exit_.value.code == 2
    assert "--limit: '-1' is not a whole number >= 1" in capsys.readouterr().err
    assert not (tmp_path / "a.db").exists()
