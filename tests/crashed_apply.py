"""A LangGraph SqliteStore whose approved apply died after its last write, opened by
`dgrr apply --store trustfactory:store_a` through a factory module written to the test's
folder; what the agent writes after the crash; and what the agent reads next. Shared by
the write-back tests of `--resume`, `--rollback` and `--overwrite`."""

from __future__ import annotations

import contextlib
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_writeback_langgraph_stores import _Crash, _crash, _fill, _ops

from repair_core.approvals import ApprovalStore
from repair_core.cli import main
from repair_core.integrations import Journal
from repair_core.integrations._identity import langgraph_identity
from repair_core.integrations.langgraph import apply_langgraph
from repair_core.integrations.langgraph_vault import SqliteVault

NEWER_SEAT = "Lin now asks for window seats on short hops (said on the phone today)."
"""What the agent writes after the crash over the seat the apply deleted (a conflict for
a rollback, and for a resume)."""
NEWER_CABIN = "Lin flies business from now on."
"""What the agent writes after the crash over the cabin the apply restored."""

FACTORY = textwrap.dedent("""
    import os, sqlite3
    from langgraph.store.sqlite import SqliteStore

    def _open(path):
        store = SqliteStore(sqlite3.connect(path, check_same_thread=False,
                                            isolation_level=None))
        store.setup()
        return store

    def store_a():
        return _open(os.environ["T_STORE_A"])

    def store_b():
        return _open(os.environ["T_STORE_B"])
""")
REEXPORT = "from trustfactory import store_a as same_store  # noqa: F401\n"
MODULES = ("trustfactory", "trustreexport")


@contextlib.contextmanager
def factory_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  signers: tuple[str, ...] = ()) -> Iterator[dict[str, Any]]:
    """Two SqliteStores (`trustfactory:store_a`, `:store_b`; `trustreexport:same_store`
    is store A again), an approvals log holding one approval of case `lg-case`, and a
    journal folder. Keys and the trust file live in `tmp_path`: each of `signers` gets a
    trusted key before the approval is recorded; with none there is no trust file. `open`
    is the factory module."""
    (tmp_path / "trustfactory.py").write_text(FACTORY)
    (tmp_path / "trustreexport.py").write_text(REEXPORT)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("T_STORE_A", str(tmp_path / "a.db"))
    monkeypatch.setenv("T_STORE_B", str(tmp_path / "b.db"))
    monkeypatch.setenv("DGRR_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "trust.json"))
    monkeypatch.delenv("DGRR_REQUIRE_SIGNED", raising=False)
    for who in signers:
        assert main(["keys", "generate", "--reviewer", who]) == 0
    for name in MODULES:  # a factory of another test's folder
        sys.modules.pop(name, None)
    import trustfactory

    db = str(tmp_path / "approvals.db")
    approval = ApprovalStore(db).add(case_id="lg-case", reviewer="ana", decision="approve",
                                     inputs_sha256="0" * 64, outputs_sha256="1" * 64)
    try:
        yield {"tmp": tmp_path, "db": db, "approval": approval, "open": trustfactory,
               "journal": tmp_path / "journal"}
    finally:
        for name in MODULES:
            sys.modules.pop(name, None)


def crashed_apply(w: dict[str, Any], opener: Callable[[], Any],
                  vault_file: Path | None = None) -> Journal:
    """An approved apply to the store `opener` gives, dead after its last write. The
    store's items just before the apply are kept as `w["before_apply"]`."""
    store = opener()
    _fill(store)
    w["before_apply"] = _search_all(store)
    vault = SqliteVault(str(vault_file)) if vault_file is not None else None
    binding = {"vault": str(vault_file.resolve()) if vault_file is not None else None}
    journal = Journal.for_store(w["journal"], "langgraph", langgraph_identity(store, "x"),
                                binding=binding)
    with pytest.raises(_Crash):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=w["approval"],
                        journal=journal, record=_crash, vault=vault)
    store.conn.close()
    return journal


def finish(w: dict[str, Any], spec: str, *extra: str) -> int:
    """`dgrr apply --to langgraph --store SPEC ... EXTRA` (e.g. `--resume`) by `ops`."""
    return main(["apply", "--to", "langgraph", "--store", spec, "--db", w["db"],
                 "--journal", str(w["journal"]), "--reviewer", "ops", *extra])


def _search_all(store: Any) -> dict[tuple[tuple[str, ...], str], Any]:
    return {(tuple(i.namespace), i.key): i.value for i in store.search((), limit=1000)}


def store_items(opener: Callable[[], Any]) -> dict[tuple[tuple[str, ...], str], Any]:
    """Every item of the store `opener` gives: (namespace, key) -> value."""
    store = opener()
    try:
        return _search_all(store)
    finally:
        store.conn.close()


def agent_notes(opener: Callable[[], Any]) -> str:
    """What the agent reads next: the notes its own next turn (the travel graph of
    scripts/langgraph_travel_run.py) puts in front of the model from the store `opener`
    gives, by the graph's recall search. The turn learns nothing, so reading leaves the
    store as it was."""
    # scripts/, put on sys.path by test_writeback_langgraph_stores
    from langgraph_travel_run import build

    store = opener()
    try:
        out = build(store, learns={}).invoke({"messages": [("user", "Book my usual flight.")]})
    finally:
        store.conn.close()
    return next(m.content for m in out["messages"] if m.type == "system")
