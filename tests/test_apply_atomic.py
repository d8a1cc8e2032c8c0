"""`dgrr apply` never half-applies: a real subprocess killed with SIGKILL before each write
of an apply (to a LangGraph SqliteStore and to a Mem0 store), then `--resume` or
`--rollback`: the store equals the planned after-state or the exact before-state, never
anything else. A store that raises inside a write leaves nothing written. One apply per
store at a time; an interrupted one blocks new applies until resumed or rolled back."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from forked_dgrr import run_dgrr

os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))
pytest.importorskip("langgraph.store.sqlite", reason="needs the 'postgres' extra")
pytest.importorskip("openinference.instrumentation.langchain", reason="needs the 'import' extra")

from repair_core.cli import main  # noqa: E402
from repair_core.integrations import Intent, Journal, journal_dir  # noqa: E402
from repair_core.integrations._identity import file_identity  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

pytestmark = pytest.mark.slow

LG_FACTORY = textwrap.dedent("""
    import os, signal, sqlite3
    from langgraph.store.base import BaseStore, PutOp
    from langgraph.store.sqlite import SqliteStore

    class Killing(BaseStore):
        '''The store, killed (SIGKILL) before its Nth write, or raising at it.'''
        def __init__(self, inner, at, how):
            self.inner, self.at, self.how, self.writes = inner, at, how, 0
        def batch(self, ops):
            ops = list(ops)
            for op in ops:
                if isinstance(op, PutOp):
                    self.writes += 1
                    if self.writes == self.at:
                        if self.how == "raise":
                            raise RuntimeError("disk full")
                        os.kill(os.getpid(), signal.SIGKILL)
            return self.inner.batch(ops)
        async def abatch(self, ops):
            return self.batch(ops)

    def store():
        conn = sqlite3.connect(os.environ["T_STORE"], check_same_thread=False,
                               isolation_level=None)
        inner = SqliteStore(conn)
        inner.setup()
        at = int(os.environ.get("T_KILL_AT", "0"))
        return Killing(inner, at, os.environ.get("T_HOW", "kill")) if at else inner
""")

MEM0_FACTORY = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {scripts!r})
    from mem0_travel_store import make_memory

    def memory():
        m = make_memory(os.environ["T_STORE"])
        at = int(os.environ.get("T_KILL_AT", "0"))
        how = os.environ.get("T_HOW", "kill")
        count = [0]
        def wrap(obj, name):
            real = getattr(obj, name)
            def call(*a, **k):
                count[0] += 1
                if count[0] == at:
                    if how == "raise":
                        raise RuntimeError("vector store unavailable")
                    os.kill(os.getpid(), signal.SIGKILL)
                return real(*a, **k)
            setattr(obj, name, call)
        if at:
            for name in ("insert", "update", "delete"):
                wrap(m.vector_store, name)
            wrap(m.db, "add_history")
        return m
""")


def _in_process(args: list[str], env: dict[str, str], cwd: Path, monkeypatch, capsys
                ) -> tuple[int, str, str]:
    """`dgrr` in this process, with the factory module of `cwd` importable."""
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("T_KILL_AT", raising=False)
    monkeypatch.syspath_prepend(str(cwd))
    capsys.readouterr()
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def _run_killed(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    """`dgrr` in a process of its own, which a factory may kill (returncode -9)."""
    return run_dgrr(args, env, cwd, [cwd, ROOT])


# -- LangGraph ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lg(tmp_path_factory):
    """The real traced run imported, repaired and approved; a SQLite store file holding
    what the run left in the agent's store."""
    import sqlite3

    from langgraph.store.sqlite import SqliteStore
    from langgraph_travel_run import run

    base = tmp_path_factory.mktemp("lg")
    path, traced = run(base)
    case, result, db = base / "case.json", base / "result.json", base / "approvals.db"
    seat = "lin/prefs/seat"
    assert main(["import", str(path), "--faults", seat, "--out", str(case)]) == 0
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["repair", str(case), "--json"]) in (0, 1)
    result.write_text(buf.getvalue())
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["approve", str(case), "--reviewer", "ana", "--decision", "approve",
                     "--result", str(result), "--db", str(db)]) == 0
    template = base / "store.db"
    store = SqliteStore(sqlite3.connect(template, check_same_thread=False,
                                        isolation_level=None))
    store.setup()
    for ns in traced.inner.list_namespaces():
        for item in traced.inner.search(ns, limit=1000):
            store.put(item.namespace, item.key, item.value)
    store.conn.close()
    (base / "killstore.py").write_text(LG_FACTORY)
    return {"base": base, "case": case, "result": result, "db": db, "template": template}


def _lg_snapshot(path: Path) -> dict:
    """Every item of the SQLite store and every entry of its quarantine vault (a table of
    the same database), apply ids masked (they differ run to run)."""
    import sqlite3

    from langgraph.store.sqlite import SqliteStore

    from repair_core.integrations.langgraph_vault import quarantined

    store = SqliteStore(sqlite3.connect(path, check_same_thread=False, isolation_level=None))
    out = {}
    try:
        for item in store.search((), limit=1000):
            out[json.dumps([list(item.namespace), item.key])] = dict(item.value)
        for entry in quarantined(store):
            # an item rolled back is put again and LangGraph stamps it anew: its value is
            # what is restored
            out[json.dumps(["vault", entry["namespace"], entry["key"]])] = {
                **entry, "apply": "*", "created_at": "*", "updated_at": "*"}
    finally:
        store.conn.close()
    return out


def _lg_setup(lg, tmp_path):
    shutil.copy(lg["template"], tmp_path / "store.db")
    shutil.copy(lg["db"], tmp_path / "approvals.db")
    return {"T_STORE": str(tmp_path / "store.db")}


def _lg_args(lg, tmp_path, *extra):
    return ["apply", str(lg["result"]), "--case", str(lg["case"]), "--to", "langgraph",
            "--store", "killstore:store", "--db", str(tmp_path / "approvals.db"),
            "--journal", str(tmp_path / "journal"), "--apply", "--reviewer", "ops", *extra]


def _lg_journal(work: Path) -> Journal:
    """The journal of the SQLite store file `work/store.db`, as dgrr names it (by the
    file's identity, not the spec that opens it)."""
    return Journal.for_store(journal_dir(str(work / "journal")), "langgraph",
                             "langgraph:sqlite:" + file_identity(work / "store.db"))


def _finish_args(to, store, tmp_path, what):
    return ["apply", "--to", to, "--store", store, "--db", str(tmp_path / "approvals.db"),
            "--journal", str(tmp_path / "journal"), what, "--reviewer", "ops"]


@pytest.fixture(scope="module")
def lg_reference(lg, tmp_path_factory):
    """Before and after snapshots of one uninterrupted apply."""
    tmp = tmp_path_factory.mktemp("lgref")
    env = _lg_setup(lg, tmp)
    before = _lg_snapshot(tmp / "store.db")
    done = _run_killed(_lg_args(lg, tmp), env, lg["base"])
    assert done.returncode == 0, done.stderr
    after = _lg_snapshot(tmp / "store.db")
    assert after != before
    writes = sum(1 for line in done.stdout.splitlines() if "applied" in line)
    return {"before": before, "after": after, "ops": writes}


N_LG_WRITES = 4  # store writes: delete seat; cabin, habit (each after its vault entry); restore


@pytest.mark.parametrize("kill_at", range(1, N_LG_WRITES + 1))
def test_langgraph_killed_at_each_write_then_resume_or_rollback(lg, lg_reference, tmp_path,
                                                                kill_at, monkeypatch, capsys):
    # each of --resume and --rollback on a store killed of its own: a copy of a store
    # file is another store (its journal is bound to the file's identity)
    for what in ("--resume", "--rollback"):
        work = tmp_path / what.strip("-")
        work.mkdir()
        env = _lg_setup(lg, work)
        killed = _run_killed(_lg_args(lg, work), {**env, "T_KILL_AT": str(kill_at)},
                             lg["base"])
        assert killed.returncode == -9, (killed.returncode, killed.stderr[-2000:])
        mid = _lg_snapshot(work / "store.db")
        if kill_at > 1:
            assert mid not in (lg_reference["before"], lg_reference["after"])  # half-applied
        # a new apply is refused while the interrupted one is pending
        code, _, err = _in_process(_lg_args(lg, work), env, lg["base"], monkeypatch, capsys)
        assert code == 2 and "interrupted apply" in err
        code, _, err = _in_process(_finish_args("langgraph", "killstore:store", work, what),
                                   env, lg["base"], monkeypatch, capsys)
        assert code == 0, err
        want = lg_reference["after"] if what == "--resume" else lg_reference["before"]
        assert _lg_snapshot(work / "store.db") == want, what
        # the journal is finished; nothing is pending any more
        journal = _lg_journal(work)
        assert journal.pending() is None
        kept = [Intent.model_validate_json(p.read_text())
                for p in (work / "journal").glob("*.*.json")]
        assert [k.state for k in kept] == ["applied" if what == "--resume" else "rolled-back"]


def test_langgraph_store_raising_inside_a_write_leaves_nothing_written(lg, lg_reference,
                                                                      tmp_path):
    env = _lg_setup(lg, tmp_path)
    out = _run_killed(_lg_args(lg, tmp_path), {**env, "T_KILL_AT": "4", "T_HOW": "raise"},
                      lg["base"])
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and "disk full" in out.stderr
    assert "rolled back" in out.stderr
    assert _lg_snapshot(tmp_path / "store.db") == lg_reference["before"]
    # and the apply can then be done properly
    out = _run_killed(_lg_args(lg, tmp_path), env, lg["base"])
    assert out.returncode == 0, out.stderr
    assert _lg_snapshot(tmp_path / "store.db") == lg_reference["after"]


def test_two_applies_on_one_store_cannot_both_write(lg, lg_reference, tmp_path):
    env = _lg_setup(lg, tmp_path)
    journal = _lg_journal(tmp_path)
    with journal.locked():  # another apply is running
        out = _run_killed(_lg_args(lg, tmp_path), env, lg["base"])
    assert out.returncode == 2 and "another apply to this store is running" in out.stderr
    assert _lg_snapshot(tmp_path / "store.db") == lg_reference["before"]
    first = _run_killed(_lg_args(lg, tmp_path), env, lg["base"])
    assert first.returncode == 0, first.stderr
    second = _run_killed(_lg_args(lg, tmp_path), env, lg["base"])
    assert second.returncode == 2 and "no longer in the store" in second.stderr
    assert _lg_snapshot(tmp_path / "store.db") == lg_reference["after"]  # copies kept


def test_resume_or_rollback_with_nothing_pending_is_a_clear_error(lg, tmp_path, monkeypatch,
                                                                 capsys):
    env = _lg_setup(lg, tmp_path)
    code, _, err = _in_process(_finish_args("langgraph", "killstore:store", tmp_path,
                                            "--resume"), env, lg["base"], monkeypatch, capsys)
    assert code == 2 and "no interrupted apply" in err


# -- Mem0 --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def m0(tmp_path_factory):
    import contextlib
    import io

    from mem0_travel_store import build

    base = tmp_path_factory.mktemp("m0")
    ids, db, hex_path, _ = build(base / "store")
    case, result, approvals = base / "case.json", base / "result.json", base / "approvals.db"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["import", str(hex_path), "--store", str(db), "--faults", ids["m3"],
                     "--out", str(case)]) == 0
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["repair", str(case), "--json"]) in (0, 1)
    result.write_text(buf.getvalue())
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["approve", str(case), "--reviewer", "ana", "--decision", "approve",
                     "--result", str(result), "--db", str(approvals)]) == 0
    (base / "killmem.py").write_text(MEM0_FACTORY.format(scripts=str(ROOT / "scripts")))
    return {"base": base, "case": case, "result": result, "db": approvals,
            "template": base / "store", "ids": ids}


def _m0_points(folder: Path) -> dict:
    """Every point of the Mem0 store: id -> (payload, vector)."""
    from mem0_travel_store import make_memory

    memory = make_memory(folder)
    try:
        store = memory.vector_store
        points, _ = store.client.scroll(collection_name=store.collection_name, limit=1000,
                                        with_payload=True, with_vectors=True)
        return {str(p.id): (dict(p.payload), [round(x, 6) for x in p.vector]) for p in points}
    finally:
        memory.vector_store.client.close()


def _m0_setup(m0, tmp_path):
    shutil.copytree(m0["template"], tmp_path / "store")
    shutil.copy(m0["db"], tmp_path / "approvals.db")
    return {"T_STORE": str(tmp_path / "store"), "MEM0_DIR": str(tmp_path / "mem0dir")}


def _m0_args(m0, tmp_path):
    return ["apply", str(m0["result"]), "--case", str(m0["case"]), "--to", "mem0",
            "--store", "killmem:memory", "--db", str(tmp_path / "approvals.db"),
            "--journal", str(tmp_path / "journal"), "--apply", "--reviewer", "ops"]


def _m0_view(points: dict) -> list:
    """What the agent and an auditor see: (user scope, text) of every memory."""
    return sorted((p["user_id"], p["data"]) for p, _ in points.values())


@pytest.fixture(scope="module")
def m0_reference(m0, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("m0ref")
    env = _m0_setup(m0, tmp)
    before = _m0_points(tmp / "store")
    out = _run_killed(_m0_args(m0, tmp), env, m0["base"])
    assert out.returncode == 0, out.stderr
    after = _m0_points(tmp / "store")
    kept = next((tmp / "journal").glob("*.*.json"))
    intent = Intent.model_validate_json(kept.read_text())
    return {"before": before, "after_view": _m0_view(after),
            "writes": sum(1 for s in intent.steps)}


def _m0_planned_after(work: Path, before: dict) -> dict:
    """The after-state the interrupted apply's own journal planned, for every point."""
    pending = next((work / "journal").glob("*[0-9a-f].json"))
    intent = Intent.model_validate_json(pending.read_text())
    want = {k: v[0] for k, v in before.items()}
    for step in intent.steps:
        if step.kind == "slot":
            if step.after is None:
                want.pop(step.ref, None)
            else:
                want[step.ref] = step.after["payload"]
    return want


def test_mem0_killed_at_each_write_then_resume_or_rollback(m0, m0_reference, tmp_path,
                                                           monkeypatch, capsys):
    before = m0_reference["before"]
    for kill_at in range(1, m0_reference["writes"] + 1):
        for what in ("--resume", "--rollback"):  # each on a store killed of its own
            work = tmp_path / f"{kill_at}{what}"
            work.mkdir()
            env = _m0_setup(m0, work)
            killed = _run_killed(_m0_args(m0, work), {**env, "T_KILL_AT": str(kill_at)},
                                 m0["base"])
            assert killed.returncode == -9, (kill_at, killed.stderr[-2000:])
            env = {"T_STORE": str(work / "store"), "MEM0_DIR": str(work / "mem0dir")}
            planned = _m0_planned_after(work, before)
            code, _, err = _in_process(_finish_args("mem0", "killmem:memory", work, what),
                                       env, m0["base"], monkeypatch, capsys)
            assert code == 0, err
            now = _m0_points(work / "store")
            if what == "--rollback":
                assert now == before, kill_at  # payloads and vectors, exactly
            else:
                assert {k: p for k, (p, _) in now.items()} == planned, kill_at
                assert _m0_view(now) == m0_reference["after_view"], kill_at


def test_mem0_store_raising_inside_add_leaves_nothing_half_applied(m0, m0_reference, tmp_path):
    env = _m0_setup(m0, tmp_path)
    # the third vector-store call is the restore's insert (after a delete, a quarantine)
    out = _run_killed(_m0_args(m0, tmp_path), {**env, "T_KILL_AT": "5", "T_HOW": "raise"},
                      m0["base"])
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and "vector store unavailable" in out.stderr
    assert _m0_points(tmp_path / "store") == m0_reference["before"]
