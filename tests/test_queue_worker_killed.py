"""The queue on PostgreSQL, a worker killed in the middle of a write-back (SIGKILL before its 2nd store write): the
request stays held until its lease runs out, then the next worker resumes the interrupted
apply from the intent journal and finishes it — the agent's next turn reads the repaired
store, and the applied event is recorded once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from postgres_server import POSTGRES_MARKS

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.slow, *POSTGRES_MARKS]


def _env(store: Path, journal: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "DGRR_AGENT_STORE": str(store), "DGRR_APPLY_DIR": str(journal),
            "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)]), **extra}


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)


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

    worker = [sys.executable, "-m", "repair_core", "worker", "--once", "--db", str(db)]
    killed = _run([*worker, "--name", "w1"], {**env, "DGRR_KILL_AT_WRITE": "2"})
    assert killed.returncode == -9, killed.stderr[-2000:]
    held = q.get(1)
    assert (held.status, held.worker) == ("approved", "w1")  # held by the dead worker
    # a second worker within the lease leaves it alone
    early = _run([*worker, "--name", "w2"], {**env, "DGRR_KILL_AT_WRITE": "0"})
    assert early.returncode == 0 and "request #1" not in early.stdout
    time.sleep(1.5)
    late = _run([*worker, "--name", "w2", "--lease", "1"], {**env, "DGRR_KILL_AT_WRITE": "0"})
    assert late.returncode == 0, late.stderr[-2000:]
    assert "request #1: applied" in late.stdout
    request = q.get(1)
    assert (request.status, request.worker) == ("applied", "w2")
    applied = [r for r in q.approvals.history() if r.kind == "applied"]
    assert len(applied) == 1 and applied[0].reviewer == "w2"
    assert json.loads(applied[0].comment)["operations"]
    q.close()

    seen = json.loads(_run([sys.executable, str(agent), "next-turn", str(store)],
                           env).stdout)
    for texts in (seen["recall"], seen["prefix"]):
        assert STORE["seat"] not in texts and LEARNED not in texts
        assert "Lin flies economy, window seat." not in texts
        assert STORE["cabin"] in texts and STORE["home"] in texts
