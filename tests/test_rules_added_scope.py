"""A record the repair adds to a LangGraph store stays in its owner's scope: the namespace
of the record it was re-derived from, else the namespace of the case's user, never a
namespace of dgrr's own that the agent does not read."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from repair_core import plan_case
from repair_core.case._case import Case
from repair_core.integrations import StoreChanged, StoreOp, store_ops
from repair_core.integrations._scopes import OwnerNotAcknowledged
from repair_core.plan._edit import apply_edits
from repair_core.replay import repair

rule = pytest.mark.rule
ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "sample_traces" / "figure1-travel.json"  # m3 the fault; s11 wrote m6
LIN = ["memories", "lin"]
TEAM = ["memories", "team"]


def _langgraph_case(namespace_of: dict[str, list[str]] | None = None) -> Case:
    """Figure 1's case as a LangGraph trace gives it: each record with the namespace and
    key of its item (its owner is its namespace)."""
    data = json.loads(FIG1.read_text())
    for m in data["memory"]:
        ns = (namespace_of or {}).get(m["id"], LIN)
        m.update(langgraph_namespace=ns, langgraph_key=m["id"], owner={"namespace": ns})
    return Case.model_validate(data)


def _rederiving_result(case: Case) -> dict:
    """The repair that keeps m6 and replays its writer s11: m6 is retired (deleted) and
    the replay's m6~r1 is added."""
    plan = apply_edits(plan_case(case), {"m6": "keep", "s11": "replay"}, force=True,
                       comment="re-derive m6")
    return json.loads(repair(case, plan).model_dump_json())


def _sqlite_store(tmp_path, case: Case):
    pytest.importorskip("langgraph.store.sqlite", reason="needs langgraph-checkpoint-sqlite")
    from langgraph.store.sqlite import SqliteStore

    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False,
                           isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    for m in case.memory:
        extra = m.model_extra or {}
        store.put(tuple(extra["langgraph_namespace"]), extra["langgraph_key"], {"text": m.text})
    return store


def _agent_reads(store, namespace) -> dict[str, dict]:
    """What the agent reads next from `namespace`: its search through the traced store
    (the read API an agent is given), key -> value. A write-back counts only as this
    read returns it."""
    from repair_core.integrations.langgraph import traced_store

    return {i.key: i.value for i in traced_store(store).search(tuple(namespace), limit=100)}


def _approval(case_id: str = "c", **extra) -> SimpleNamespace:
    return SimpleNamespace(id=1, decision="approve", kind="decision", case_id=case_id,
                           **extra)


@rule("apply.added-in-owner-scope")
def test_a_rederived_record_is_added_in_the_namespace_of_the_record_it_replaces(tmp_path):
    from repair_core.integrations.langgraph import apply_langgraph

    case = _langgraph_case()
    result = _rederiving_result(case)
    ops = store_ops(case, result)
    assert [(o.op, o.record) for o in ops] == [("delete", "m3"), ("delete", "m6"),
                                               ("add", "m6~r1")]
    store = _sqlite_store(tmp_path, case)
    done = apply_langgraph(store, ops, case_id=case.case_id, approval=_approval(case.case_id),
                           user=case.user_id)
    assert done[-1] == {"op": "add", "record": "m6~r1", "item": "memories/lin/m6~r1"}
    text = next(m["text"] for m in result["store"]["active"] if m["id"] == "m6~r1")
    # the agent's own read of its namespace finds the re-derived record ...
    found = _agent_reads(store, LIN)
    assert found["m6~r1"] == {"text": text, "dgrr_added_by": case.case_id}
    assert "m6" not in found and "m3" not in found
    # ... and nothing went anywhere else
    assert [tuple(ns) for ns in store.list_namespaces()] == [tuple(LIN)]
    added = ops[-1]
    assert (added.replaces, added.namespace, added.key) == ("m6", LIN, "m6~r1")


@rule("apply.added-in-owner-scope")
def test_the_store_tells_the_namespace_when_the_case_does_not(tmp_path):
    """A case without namespaces (ids `ns/.../key`): the record the add re-derives is
    found in the store and the add goes beside it."""
    from repair_core.integrations.langgraph import apply_langgraph

    pytest.importorskip("langgraph.store.sqlite", reason="needs langgraph-checkpoint-sqlite")
    from langgraph.store.sqlite import SqliteStore

    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False,
                           isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    store.put(("u", "lin"), "habit", {"text": "old habit"})
    ops = [StoreOp(op="delete", record="u/lin/habit", text="old habit",
                   memory_id="u/lin/habit", expect_text="old habit"),
           StoreOp(op="add", record="u/lin/habit~r1", text="new habit",
                   replaces="u/lin/habit")]
    done = apply_langgraph(store, ops, case_id="c", approval=_approval(), user="lin")
    assert done[-1]["item"] == "u/lin/habit~r1"
    # the agent's next read of its namespace gets the new record, not the one it replaces
    assert _agent_reads(store, ("u", "lin")) == {
        "habit~r1": {"text": "new habit", "dgrr_added_by": "c"}}
    assert [tuple(ns) for ns in store.list_namespaces()] == [("u", "lin")]


@rule("apply.added-in-owner-scope")
def test_an_added_record_with_no_known_scope_is_refused_and_nothing_written(tmp_path):
    from repair_core.integrations.langgraph import apply_langgraph

    pytest.importorskip("langgraph.store.sqlite", reason="needs langgraph-checkpoint-sqlite")
    from langgraph.store.sqlite import SqliteStore

    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False,
                           isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    store.put(("u", "lin"), "seat", {"text": "poison"})
    ops = [StoreOp(op="delete", record="u/lin/seat", text="poison", memory_id="u/lin/seat",
                   expect_text="poison"),
           StoreOp(op="add", record="s9.m~r1", text="new")]
    with pytest.raises(StoreChanged, match=r"s9\.m~r1: an added record with no namespace"):
        apply_langgraph(store, ops, case_id="c", approval=_approval(), user="lin")
    assert store.get(("u", "lin"), "seat").value == {"text": "poison"}
    assert [tuple(ns) for ns in store.list_namespaces()] == [("u", "lin")]


@rule("apply.added-in-owner-scope")
def test_an_add_with_no_record_to_replace_goes_to_the_users_namespace():
    """The case's user's records live in one namespace: an add that re-derives no record
    of the case goes there."""
    from repair_core.integrations._writeback import _added_scope, _user_namespace

    case = _langgraph_case({"m8": TEAM})
    home = _user_namespace(case)
    assert home == LIN  # ["memories", "team"] holds not the user's id
    assert _added_scope("s11.m~r1", {m.id: m for m in case.memory}, home) == {
        "namespace": LIN, "key": "s11.m~r1"}
    assert _user_namespace(_langgraph_case({"m8": ["memories", "lin", "work"]})) is None


@rule("apply.added-in-owner-scope")
def test_a_rederivation_of_another_owners_record_needs_its_acknowledgement(tmp_path):
    """m6 lives in the team's namespace: its re-derivation goes there too, and only with
    the approval's acknowledgement of m6 (its retirement needs it anyway)."""
    from repair_core.integrations.langgraph import apply_langgraph

    case = _langgraph_case({"m6": TEAM})
    result = _rederiving_result(case)
    ops = store_ops(case, result)
    assert (ops[-1].namespace, ops[-1].owner_record) == (TEAM, "m6")
    store = _sqlite_store(tmp_path, case)
    only_add = [o for o in ops if o.op == "add"]
    with pytest.raises(OwnerNotAcknowledged, match="record 'm6'"):
        apply_langgraph(store, only_add, case_id=case.case_id, approval=_approval(case.case_id),
                        user=case.user_id)
    # refused: the team's namespace reads as it did (m6, and no m6~r1)
    assert set(_agent_reads(store, TEAM)) == {"m6"}
    acked = _approval(case.case_id, acknowledged=["other-owner:m6"])
    apply_langgraph(store, ops, case_id=case.case_id, approval=acked, user=case.user_id)
    text = next(m["text"] for m in result["store"]["active"] if m["id"] == "m6~r1")
    # the agent reading the team's namespace next gets the re-derived m6~r1 and not m6;
    # the user's own namespace lost the fault m3 and gained nothing of the team's
    assert _agent_reads(store, TEAM) == {"m6~r1": {"text": text,
                                                    "dgrr_added_by": case.case_id}}
    lin = _agent_reads(store, LIN)
    assert "m3" not in lin and not {"m6", "m6~r1"} & set(lin)
