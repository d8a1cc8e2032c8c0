"""Time `LexicalRetriever.retrieve`: N reads over a store of M records, as the agent's
runtime reads its store (one retriever, the store's list handed over on every read).

    python benchmarks/retriever_scale.py                       # 1,000 and 10,000 records
    python benchmarks/retriever_scale.py --records 2000 --calls 500 --repeat 3

The records and queries are a synthetic case's (`dgrr synth --steps 5M --memories M
--faults 0 --seed 7`: its memory records, in every status, and its reads' queries). Two
runs per size, each with a fresh retriever: `unchanged` reads the same store N times;
`changing` adds a record (a copy of an earlier one's text under a new id) after every read
and supersedes an active record after every tenth, as a session writes between reads.
Printed per size and run: seconds for the N calls (best of `--repeat`), milliseconds per
call, and a digest of every call's result, so runs on two versions of the code can be
compared for the same output. To time the code before a change, run this file with
PYTHONPATH set to a checkout of that code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import time

import repair_core
from repair_core._synth import synth_case_data
from repair_core.agent import LexicalRetriever
from repair_core.case._case import MemoryRecord


def _store(data: dict) -> list[MemoryRecord]:
    return [MemoryRecord.model_validate(m) for m in data["memory"]]


def _run(data: dict, calls: int, changing: bool) -> tuple[float, str]:
    records = _store(data)
    queries = [s["query"] for s in data["trajectory"] if s["type"] == "memory_read"]
    user = records[0].user_id
    retriever = LexicalRetriever()
    digest = hashlib.sha256()
    spent = 0.0
    for n in range(calls):
        query = queries[n % len(queries)]
        start = time.perf_counter()
        found = retriever.retrieve(records, query, user)
        spent += time.perf_counter() - start
        digest.update(json.dumps(found).encode())
        if changing:  # the writes between two reads are not timed
            model = records[(n * 7919) % len(records)]
            records.append(model.model_copy(update={"id": f"new{n}", "status": "active"}))
            if n % 10 == 9:
                active = [r for r in records if r.status == "active"]
                active[(n * 104729) % len(active)].status = "superseded"
    return spent, digest.hexdigest()[:16]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--records", type=int, nargs="+", default=[1000, 10000])
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    rows = []
    for m in a.records:
        data = synth_case_data(5 * m, m, 0, seed=7)
        for changing in (False, True):
            runs = [_run(data, a.calls, changing) for _ in range(a.repeat)]
            best = min(s for s, _ in runs)
            assert len({d for _, d in runs}) == 1
            rows.append({"records": m, "calls": a.calls,
                         "run": "changing" if changing else "unchanged",
                         "seconds": round(best, 3),
                         "ms_per_call": round(1000 * best / a.calls, 3),
                         "results_digest": runs[0][1]})
    print(json.dumps({"code": os.path.dirname(repair_core.__file__), "rows": rows,
                      "load_average_1min": round(os.getloadavg()[0], 1),
                      "python": platform.python_version()}, indent=1))


if __name__ == "__main__":
    main()
