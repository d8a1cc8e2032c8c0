"""The queue on PostgreSQL, a worker killed in the middle of a write-back (SIGKILL before its
2nd store write): the request stays held until its lease runs out, then the next worker
resumes the interrupted apply from the intent journal and finishes it — the agent's next
turn reads the repaired store, and the applied event is recorded once. Two agents: the
LangGraph travel agent on LangGraph's SqliteStore, and a Mem0 agent (mem0ai, offline)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from forked_dgrr import run_dgrr
from postgres_server import POSTGRES_MARKS

from repair_core.integrations._journal import Intent

os.environ["MEM0_TELEMETRY"] = "False"  # before mem0 is imported
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))  # not ~/.mem0
ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.slow, *POSTGRES_MARKS]


def _env(store: Path, journal: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "DGRR_AGENT_STORE": str(store), "DGRR_APPLY_DIR": str(journal),
            "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)]), **extra}


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)


def _dgrr(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """`dgrr ARGS` in a process of its own (forked: see forked_dgrr), as `dgrr worker` runs."""
    return run_dgrr(args, env, ROOT, [ROOT / "tests", ROOT])


def _taken_over_after_lease(worker: list[str], env: dict[str, str], q: Any,
                            within_lease: Callable[[], bool] = lambda: True) -> Any:
    """Request #1, held by a killed worker w1: a second worker (w2) leaves it alone within
    the lease (and `within_lease()` still holds), takes it over after it and applies it once;
    the one `applied` record of the log."""
    early = _dgrr([*worker, "--name", "w2"], {**env, "DGRR_KILL_AT_WRITE": "0"})
    assert early.returncode == 0 and "request #1" not in early.stdout
    assert within_lease()  # left alone within the lease
    time.sleep(1.5)
    late = _dgrr([*worker, "--name", "w2", "--lease", "1"], {**env, "DGRR_KILL_AT_WRITE": "0"})
    assert late.returncode == 0, late.stderr[-2000:]
    assert "request #1: applied" in late.stdout
    request = q.get(1)
    assert (request.status, request.worker) == ("applied", "w2")
    applied = [r for r in q.approvals.history() if r.kind == "applied"]
    assert len(applied) == 1 and applied[0].reviewer == "w2"
    return applied[0]


def test_a_killed_workers_apply_is_resumed_by_the_next(tmp_path, postgres_db):
    pytest.importorskip("langgraph.store.sqlite", reason="needs the 'postgres' extra")
    sys.path.insert(0, str(ROOT / "scripts"))
    from langgraph_travel_run import LEARNED, STORE

    from repair_core.queue import RepairQueue, review

    # the queue on PostgreSQL (as a team runs it), the agent's store on LangGraph's SQLite
    store, journal = tmp_path / "store.db", tmp_path / "journal"
    db = postgres_db
    env = _env(store, journal)
    agent = ROOT / "tests" / "queue_agent.py"
    done = _run([sys.executable, str(agent), "run", str(store), str(tmp_path / "t"), str(db),
                 "queue_agent:open_store_killed_at_write"], env)
    assert done.returncode == 0, done.stderr[-2000:]
    q = RepairQueue(db)
    q.claim(1, reviewer="ana")
    assert review(q, 1, reviewer="ana", decision="approve").status == "approved"

    worker = ["worker", "--once", "--db", str(db)]
    killed = _dgrr([*worker, "--name", "w1"], {**env, "DGRR_KILL_AT_WRITE": "2"})
    assert killed.returncode == -9, killed.stderr[-2000:]
    held = q.get(1)
    assert (held.status, held.worker) == ("approved", "w1")  # held by the dead worker
    applied = _taken_over_after_lease(worker, env, q)
    assert json.loads(applied.comment)["operations"]
    q.close()

    seen = json.loads(_run([sys.executable, str(agent), "next-turn", str(store)],
                           env).stdout)
    for texts in (seen["recall"], seen["prefix"]):
        assert STORE["seat"] not in texts and LEARNED not in texts
        assert "Lin flies economy, window seat." not in texts
        assert STORE["cabin"] in texts and STORE["home"] in texts


def test_a_killed_workers_mem0_apply_is_resumed_by_the_next(tmp_path, postgres_db):
    pytest.importorskip("mem0", reason="needs the 'import' extra (mem0ai)")
    pytest.importorskip("opentelemetry.exporter.otlp.json.file", reason="needs the 'import' extra")
    sys.path.insert(0, str(ROOT / "scripts"))
    from mem0_travel_store import build, make_memory
    from otel_travel_run import STORE

    from repair_core.importers import import_trace
    from repair_core.integrations import Journal
    from repair_core.integrations._identity import mem0_identity
    from repair_core.integrations._journal import intent_state
    from repair_core.integrations.mem0 import Mem0Slots, close_mem0, mem0_get_all, mem0_search
    from repair_core.queue import RepairQueue, review, submit

    learned = "Lin books window seats on long-haul flights."  # what the run derived (m6)
    # the agent's real Mem0 store and its traced run; the queue on PostgreSQL
    folder, journal = tmp_path / "mem0", tmp_path / "journal"
    ids, history, trace, _ = build(folder)
    case = import_trace([trace], store=history, faults=[ids["m3"]]).case
    spec = "queue_mem0_store:open_memory_killed_at_write"
    submit(case, [ids["m3"]], diagnosed_by="seat-detector", agent="mem0-travel-agent",
           objective="store", db=postgres_db, store_target={"to": "mem0", "store": spec})
    q = RepairQueue(postgres_db)
    q.claim(1, reviewer="ana")
    assert review(q, 1, reviewer="ana", decision="approve").status == "approved"
    env = {**_env(tmp_path / "unused.db", journal), "DGRR_MEM0_STORE": str(folder),
           "MEM0_TELEMETRY": "False", "MEM0_DIR": str(tmp_path / "mem0-home")}
    worker = ["worker", "--once", "--db", postgres_db]

    def store_state(steps: list) -> str:
        memory = make_memory(folder)
        try:
            return intent_state(Mem0Slots(memory), steps)
        finally:
            close_mem0(memory)

    killed = _dgrr([*worker, "--name", "w1"], {**env, "DGRR_KILL_AT_WRITE": "2"})
    assert killed.returncode == -9, killed.stderr[-2000:]
    held = q.get(1)
    assert (held.status, held.worker) == ("approved", "w1")  # held by the dead worker
    memory = make_memory(folder)
    try:
        identity = mem0_identity(memory, spec)
    finally:
        close_mem0(memory)
    book = Journal.for_store(journal, "mem0", identity)
    interrupted = book.pending()
    assert interrupted is not None and interrupted.approval_id == held.decision_id
    assert store_state(interrupted.steps) == "mixed"  # killed between two writes
    assert [o["op"] for o in interrupted.operations] == ["delete", "quarantine", "restore"]

    applied = _taken_over_after_lease(
        worker, env, q, within_lease=lambda: book.pending() == interrupted)
    # resumed, not started anew: the same apply, its operations as planned before the kill
    assert json.loads(applied.comment) == {"apply": interrupted.apply_id,
                                           "operations": interrupted.operations}
    assert book.pending() is None
    kept = Intent.model_validate_json(
        (journal / f"{book.key}.{interrupted.apply_id}.json").read_text())
    assert kept.state == "applied" and kept.steps == interrupted.steps
    assert store_state(interrupted.steps) == "after"  # the planned after-state, exactly
    q.close()

    # the agent's next session: its own searches and listing through Mem0's API
    memory = make_memory(folder)
    try:
        seen = [h["memory"] for h in mem0_get_all(memory, user_id="lin")]
        for query in ("window seats", "travel seat preference", learned):
            seen += [h["memory"] for h in mem0_search(memory, query, user_id="lin")]
        for mid in (ids["m3"], ids["m6"]):
            # one DELETE row each in Mem0's own history: the resume wrote none twice
            events = [r["event"] for r in memory.history(mid)]
            assert events.count("DELETE") == 1, (mid, events)
    finally:
        close_mem0(memory)
    assert STORE["m3"] not in seen and learned not in seen  # gone, quarantined
    assert "Lin prefers aisle seats." in seen  # restored to its value before the poison
    assert {STORE["m2"], STORE["m4"], STORE["m5"]} <= set(seen)
