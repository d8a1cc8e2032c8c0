"""How the approvals log's verification (`ApprovalStore.verify`) grows with the log.

    python benchmarks/approval_log_verify.py                  # 500 … 8,000 rows
    python benchmarks/approval_log_verify.py --sizes 1000 4000 --repeat 5

Each size gets a SQLite log written as the queue writes one (per request a signed
decision, an unsigned `intent` and an unsigned `applied` row; two reviewers' Ed25519
keys in a trust file). Then, CPU seconds (best of `--repeat`):

- `cold`: `verify(trust)` by a store object opened on the file (`dgrr history --verify`,
  an apply run by the CLI); `plain`: the same without a trust file;
- `warm`: `verify(trust)` again on a store object that has verified the log before and
  that has since appended one row (a queue worker's or the dashboard's store, before
  each write);
- what a cold verify is made of, each part timed alone over every row: `read` (the SQL
  select and a dict per row), `decode` (`_row_fields`: JSON, times, types), `hash` (the
  chained sha256 of each row), `sign` (each signature checked against the trust file),
  and `pydantic` (an `ApprovalRecord` per row, which verify does not build: history does).

The apply-loop column is the CPU seconds of 100 rounds of "verify, then append one row"
starting at that size, per round: what one apply pays to the log.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from repair_core.approvals import ApprovalStore, TrustFile  # noqa: E402
from repair_core.approvals._keys import generate_key  # noqa: E402
from repair_core.approvals._store import (  # noqa: E402
    _ApprovalRow,
    _raw_select,
    _record,
    _row_fields,
    row_hash,
    row_message,
)

H_IN, H_OUT = "a" * 64, "b" * 64
REVIEWERS = ("ana", "bob")


def cpu(call: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            call()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def grow(store: ApprovalStore, rows: int) -> None:
    """Append requests (decision, intent, applied) until the log holds `rows` rows."""
    have = store.verify().rows
    while have < rows:
        approval = store.add(case_id=f"case-{have}", reviewer=REVIEWERS[have % 2],
                             decision="approve", comment=f"looks right {have}",
                             inputs_sha256=H_IN, outputs_sha256=H_OUT, model="m3")
        have += 1
        for kind in ("intent", "applied")[:rows - have]:
            store.record_applied(approval.id, reviewer="worker-1",
                                 target=f"langgraph:/stores/{have}.db", kind=kind)
            have += 1


def parts(store: ApprovalStore, trust: TrustFile, repeat: int) -> dict[str, float]:
    with store.engine.connect() as conn:
        raw = [dict(r) for r in conn.execute(
            _raw_select().order_by(_ApprovalRow.id)).mappings()]
    fields = [_row_fields(r) for r in raw]

    def read() -> None:
        with store.engine.connect() as conn:
            [dict(r) for r in conn.execute(_raw_select().order_by(_ApprovalRow.id)).mappings()]

    def signatures() -> None:
        for r, f in zip(raw, fields, strict=True):
            if r.get("signature"):
                trust.check(str(f["reviewer"]), r.get("key_id"), row_message(r["row_hash"]),
                            r.get("signature"))

    return {
        "read": cpu(read, repeat),
        "decode": cpu(lambda: [_row_fields(r) for r in raw], repeat),
        "hash": cpu(lambda: [row_hash(f, r["prev_hash"]) for r, f in
                             zip(raw, fields, strict=True)], repeat),
        "sign": cpu(signatures, repeat),
        "pydantic": cpu(lambda: [_record(r) for r in raw], repeat),
    }


def measure(db: str, keys: Path, trust_path: Path, n: int, repeat: int) -> str:
    """One line of the table for the log in `db` (of `n` rows)."""
    trust = TrustFile.load(trust_path)
    assert trust is not None
    cold = cpu(lambda: ApprovalStore(db, trust=trust_path).verify(trust), repeat)
    plain = cpu(lambda: ApprovalStore(db).verify(), repeat)
    store = ApprovalStore(db, keys=keys, trust=trust_path)
    assert store.verify(trust).ok
    warm = float("inf")
    for _ in range(repeat):
        store.add(case_id="warm", reviewer="ana", decision="approve", inputs_sha256=H_IN,
                  outputs_sha256=H_OUT)
        warm = min(warm, cpu(lambda: store.verify(trust), 1))
    split = parts(store, trust, repeat)

    def apply_loop() -> None:
        for _ in range(100):
            assert store.verify(trust).ok
            store.record_applied(1, reviewer="worker-1", target="langgraph:/bench.db",
                                 kind="intent")

    per_apply = cpu(apply_loop, 1) / 100
    store.close()
    return (f"{n:>6} {cold:>7.3f} {plain:>7.3f} {warm:>7.3f} {split['read']:>6.3f} "
            f"{split['decode']:>6.3f} {split['hash']:>6.3f} {split['sign']:>6.3f} "
            f"{split['pydantic']:>6.3f} {per_apply * 1000:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 4000, 8000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dgrr-approval-verify-"))
    keys, trust_path = folder / "keys", folder / "trust.json"
    trust_file = TrustFile(trust_path, [])
    for who in REVIEWERS:
        trust_file.add(who, generate_key(who, keys)[0].public_raw)
    db = str(folder / "approvals.db")
    writer = ApprovalStore(db, keys=keys, trust=trust_path)

    @event.listens_for(writer.engine, "connect")
    def _unsynced(dbapi_conn: Any, record: Any) -> None:
        # the log is built without waiting for the disk; what is timed reads it
        dbapi_conn.execute("PRAGMA synchronous = OFF")

    writer.engine.dispose()
    print(f"{'rows':>6} {'cold s':>7} {'plain s':>7} {'warm s':>7} {'read':>6} {'decode':>6} "
          f"{'hash':>6} {'sign':>6} {'pydant':>6} {'apply ms':>8}")
    for n in sorted(args.sizes):
        grow(writer, n)
        print(measure(db, keys, trust_path, n, args.repeat), flush=True)


if __name__ == "__main__":
    main()
