"""A real LangGraph agent run on a `SqliteStore` file, imported as a case, for the tests
of applying from the dashboard: the store file, a factory module `dgrr apply --store`
(and the dashboard's `apply_store`) names, the imported case, and a reviewer's key
trusted for a signed-in label."""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))

FACTORY = "dgrr_test_lg_sqlite"
"""The module name of the store factory (`dgrr_test_lg_sqlite:store`)."""


@dataclass
class SqliteRun:
    """One run of the travel graph on a SqliteStore file, imported."""

    store_file: Path
    trace: Path
    case: object
    seat: str
    cabin: str


def sqlite_run(folder: Path, faults: tuple[str, ...] = ()) -> SqliteRun:
    """Run the travel graph with a `SqliteStore` at `folder/store.db`, import its trace
    with the seat preference (or `faults`) as the fault, and write the factory module
    `FACTORY` into `folder` (put it on sys.path to use it)."""
    from langgraph.store.sqlite import SqliteStore
    from langgraph_travel_run import NAMESPACE, run

    from repair_core.importers import import_trace
    from repair_core.integrations.langgraph import record_id

    folder.mkdir(parents=True, exist_ok=True)
    store_file = folder / "store.db"
    with SqliteStore.from_conn_string(str(store_file)) as store:
        store.setup()
        trace, _ = run(folder, inner=store)
    seat = record_id(NAMESPACE, "seat")
    case = import_trace([trace], faults=list(faults) or [seat]).case
    (folder / f"{FACTORY}.py").write_text(textwrap.dedent(f"""
        from langgraph.store.sqlite import SqliteStore


        def store():
            return SqliteStore.from_conn_string({str(store_file)!r})
    """))
    return SqliteRun(store_file, trace, case, seat, record_id(NAMESPACE, "cabin"))


def store_texts(store_file: Path) -> dict[tuple[tuple[str, ...], str], str]:
    """Every item of the store file as a fresh connection reads it: (namespace, key) ->
    text (the vault is a table of its own, not an item)."""
    from langgraph.store.sqlite import SqliteStore

    with SqliteStore.from_conn_string(str(store_file)) as store:
        return {(tuple(i.namespace), i.key): str(i.value.get("text"))
                for i in store.search((), limit=1000)}


def trust_key(label: str, keys: Path, trust: Path) -> None:
    """A server key for reviewer `label` in the key folder `keys`, trusted in `trust`."""
    from repair_core.approvals import TrustFile, generate_key

    signer, _ = generate_key(label, keys)
    found = TrustFile.load(trust, missing_ok=True) or TrustFile(trust, [])
    found.add(label, signer.public_raw)
