"""A real LangGraph agent run (scripts/langgraph_travel_run.py: StateGraph, ToolNode, a
GenericFakeChatModel, InMemoryStore behind dgrr's traced store, the OpenInference
LangChain instrumentor) imported, planned, repaired, and written back with
`dgrr apply --to langgraph`, checked record by record."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("langgraph.store.memory", reason="needs the 'import' extra (langgraph)")
pytest.importorskip("openinference.instrumentation.langchain", reason="needs the 'import' extra")

from repair_core import load_case, plan_case  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.importers import import_trace  # noqa: E402
from repair_core.integrations import NotApproved, StoreChanged, find_approval, store_ops  # noqa: E402
from repair_core.integrations.langgraph import (  # noqa: E402
    apply_langgraph,
    record_id,
    record_text,
    traced_store,
)
from repair_core.integrations.langgraph_vault import quarantined  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from carrier_gate import approved_without_acknowledgement  # noqa: E402
from langgraph_travel_run import LEARNED, NAMESPACE, RECALL_QUERY, STORE, run  # noqa: E402

pytestmark = pytest.mark.slow

SEAT, CABIN, HABIT = (record_id(NAMESPACE, k) for k in ("seat", "cabin", "habit"))


@pytest.fixture()
def traced(tmp_path):
    """(OTLP JSON path, the traced store) of one run of the real graph."""
    return run(tmp_path)


def _spans(path: Path) -> list[dict]:
    doc = json.loads(path.read_text())
    return [s for rs in doc["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]


def _attrs(span: dict) -> dict:
    return {a["key"]: next(iter(a["value"].values())) for a in span.get("attributes", [])}


def _items(store) -> dict[str, str]:
    """Every item of the store (`search(())`: any namespace): record id -> text."""
    return {record_id(item.namespace, item.key): record_text(item.value)
            for item in store.search((), limit=1000)}


def test_the_wrapper_records_memory_spans_inside_the_graph_and_keeps_history(traced):
    path, store = traced
    spans = _spans(path)
    by_id = {s["spanId"]: s for s in spans}
    memory = [s for s in spans if _attrs(s).get("gen_ai.operation.name", "").endswith("memory")]
    ops = [_attrs(s)["gen_ai.operation.name"] for s in memory]
    assert ops == ["search_memory", "create_memory", "update_memory"]
    for s in memory:
        assert _attrs(s)["gen_ai.memory.store.id"] == "lin-prefs"
        # each is a child of the LangGraph node that made it (recall, learn)
        assert _attrs(by_id[s["parentSpanId"]])["openinference.span.kind"] == "CHAIN"
    search, create, update = (_attrs(s) for s in memory)
    assert {r["id"] for r in json.loads(search["gen_ai.memory.records"])} == {
        record_id(NAMESPACE, k) for k in STORE}
    assert create["gen_ai.memory.record.id"] == HABIT
    assert create["gen_ai.memory.content"] == LEARNED
    assert update["gen_ai.memory.record.id"] == CABIN
    assert update["dgrr.memory.old_content"] == STORE["cabin"]
    # LangGraph keeps only the current value; the wrapper keeps each version
    assert [(v.op, v.value["text"]) for v in store.history[CABIN]] == [
        ("add", STORE["cabin"]), ("update", "Lin flies economy, window seat.")]
    store.delete(NAMESPACE, "habit")
    assert [v.op for v in store.history[HABIT]] == ["add", "delete"]
    assert store.inner.get(NAMESPACE, "habit") is None


def test_the_real_trace_imports_and_plans_like_figure1(traced):
    path, _ = traced
    imported = import_trace([path], faults=[SEAT])
    case = imported.case
    steps = case.steps_in_order()
    assert [s.type for s in steps] == ["memory_read", "plan", "tool_action", "tool_observation",
                                       "answer", "memory_write", "memory_write"]
    plan_step, action, observation = steps[1], steps[2], steps[3]
    # the plan's text is its tool call, not the instrumentor's raw output object
    assert plan_step.text.startswith("call search_flights(")
    # the tool span has no call id attribute: it is found inside the ToolMessage
    assert observation.output == {"flight": "JL1", "seat": "31A"}
    assert action.args["seat"] == "window"
    records = {m.id: m for m in case.memory}
    old_cabin = next(m for m in case.memory if m.id.startswith(CABIN + "@"))
    assert old_cabin.text == STORE["cabin"] and old_cabin.status == "superseded"
    assert records[CABIN].text == "Lin flies economy, window seat."
    plan = plan_case(case)
    assert plan.memory[SEAT] == "delete"
    assert plan.memory[CABIN] == plan.memory[HABIT] == "quarantine"
    assert plan.memory[old_cabin.id] == "restore"
    for k in ("home", "meal"):
        assert plan.memory[record_id(NAMESPACE, k)] == "keep"


def test_the_case_keeps_each_items_namespace_key_and_whole_value(traced):
    """traced_store records each item's namespace, key and value (canonical JSON) on its
    writes and in the records a search returns; the importer puts them on the case
    record (`langgraph_namespace`, `langgraph_key`, `langgraph_value`): the value the
    agent last saw."""
    path, _ = traced
    spans = [_attrs(s) for s in _spans(path)]
    update = next(a for a in spans if a.get("gen_ai.operation.name") == "update_memory")
    assert update["dgrr.memory.value"] == '{"text":"Lin flies economy, window seat."}'
    assert json.loads(update["dgrr.memory.namespace"]) == list(NAMESPACE)
    assert update["dgrr.memory.key"] == "cabin"
    records = {m.id: m.model_extra for m in import_trace([path], faults=[SEAT]).case.memory}
    for key in ("home", "seat", "meal"):  # seen by the recall search only
        extra = records[record_id(NAMESPACE, key)]
        assert extra["langgraph_value"] == {"text": STORE[key]}
        assert (extra["langgraph_namespace"], extra["langgraph_key"]) == (list(NAMESPACE), key)
    # the cabin was read, then updated: the case keeps the value the update wrote
    assert records[CABIN]["langgraph_value"] == {"text": "Lin flies economy, window seat."}
    assert records[HABIT]["langgraph_value"] == {"text": LEARNED}


def test_a_bad_recorded_value_is_a_named_import_error(traced, tmp_path, capsys):
    path, _ = traced
    doc = json.loads(path.read_text())
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for span in ss["spans"]:
                for a in span.get("attributes", []):
                    if a["key"] == "dgrr.memory.value":
                        a["value"] = {"stringValue": "[1, 2]"}
    bad = tmp_path / "bad.otlp.json"
    bad.write_text(json.dumps(doc))
    assert main(["import", str(bad), "--out", str(tmp_path / "c.json")]) == 2
    err = capsys.readouterr().err
    assert "dgrr.memory.value: expected a JSON object, got \"[1, 2]\"" in err
    assert "Traceback" not in err and not (tmp_path / "c.json").exists()


@pytest.fixture()
def repaired(traced, tmp_path, capsys):
    path, store = traced
    case = tmp_path / "case.json"
    assert main(["import", str(path), "--faults", SEAT, "--out", str(case)]) == 0
    assert main(["validate", str(case)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--json"]) in (0, 1)  # 1: the offline model's answer
    result = tmp_path / "result.json"
    result.write_text(capsys.readouterr().out)
    (tmp_path / "lg_factory.py").write_text(textwrap.dedent("""
        STORE = None

        def store():
            return STORE
    """))
    sys.path.insert(0, str(tmp_path))
    import lg_factory

    lg_factory.STORE = store.inner
    yield {"case": case, "result": result, "store": store.inner,
           "db": str(tmp_path / "approvals.db"), "journal": str(tmp_path / "journal")}
    sys.path.remove(str(tmp_path))
    sys.modules.pop("lg_factory", None)


def _approval(r):
    assert main(["approve", str(r["case"]), "--reviewer", "ana", "--decision", "approve",
                 "--result", str(r["result"]), "--db", r["db"]]) == 0
    return find_approval(load_case(r["case"]), json.loads(r["result"].read_text()), r["db"])


def test_apply_round_trip_record_by_record(repaired):
    r = repaired
    case = load_case(r["case"])
    ops = store_ops(case, json.loads(r["result"].read_text()))
    assert [(o.op, o.record.split("@")[0]) for o in ops] == [
        ("delete", SEAT), ("quarantine", CABIN), ("quarantine", HABIT), ("restore", CABIN)]
    before = _items(r["store"])
    with pytest.raises(NotApproved):  # the library has the approval gate too
        apply_langgraph(r["store"], ops, case_id=case.case_id, approval=None)
    assert _items(r["store"]) == before
    done = apply_langgraph(r["store"], ops, case_id=case.case_id, approval=_approval(r))
    after = _items(r["store"])
    apply_id = done[1]["item"].split("/")[1]
    vault = {(tuple(e["namespace"]), e["key"]): e for e in quarantined(r["store"])}
    assert SEAT not in after
    assert record_text(vault[NAMESPACE, "cabin"]["value"]) == before[CABIN] == \
        "Lin flies economy, window seat."
    assert record_text(vault[NAMESPACE, "habit"]["value"]) == before[HABIT] == LEARNED
    assert after[CABIN] == STORE["cabin"]  # the text the poisoned update replaced is back
    for k in ("home", "meal"):
        assert after[record_id(NAMESPACE, k)] == before[record_id(NAMESPACE, k)] == STORE[k]
    # every item any namespace holds: the quarantined ones are in the vault, not the store
    assert set(after) == {record_id(NAMESPACE, "home"), record_id(NAMESPACE, "meal"), CABIN}
    # a search of the agent's namespace no longer returns what was quarantined
    hits = {i.key for i in r["store"].search(NAMESPACE, limit=100) if i.namespace == NAMESPACE}
    assert hits == {"home", "meal", "cabin"}
    restored = r["store"].get(NAMESPACE, "cabin").value
    assert restored["dgrr_restored_from"] == ops[-1].record
    entry = vault[NAMESPACE, "habit"]
    assert entry["apply"] == apply_id and entry["case"] == case.case_id
    assert entry["key"] == "habit" and entry["value"] == {"text": LEARNED}
    assert [d["op"] for d in done] == ["delete", "quarantine", "quarantine", "restore"]


def test_refused_when_the_store_changed_since_the_trace(repaired):
    r = repaired
    case = load_case(r["case"])
    ops = store_ops(case, json.loads(r["result"].read_text()))
    r["store"].put(NAMESPACE, "habit", {"text": "Lin books aisle seats."})
    before = _items(r["store"])
    approval = _approval(r)
    with pytest.raises(StoreChanged, match=f"{HABIT}: text is now 'Lin books aisle seats.'"):
        apply_langgraph(r["store"], ops, case_id=case.case_id, approval=approval)
    assert _items(r["store"]) == before


def test_a_value_changed_since_the_trace_with_the_same_text_is_refused(repaired, capsys):
    """The habit's text is what the trace saw, but someone added a field to its value:
    `dgrr apply --apply` refuses with the field named and writes nothing."""
    r = repaired
    r["store"].put(NAMESPACE, "habit", {"text": LEARNED, "source": "admin"})
    r["store"].put(NAMESPACE, "cabin", {"text": "Lin flies economy, window seat.",
                                        "pinned": True})
    before = _items(r["store"])
    _approval(r)
    capsys.readouterr()
    assert _apply(r, "--apply", "--reviewer", "ops") == 2
    err = capsys.readouterr().err
    assert f"{HABIT}: value.source was added ('admin')" in err
    assert f"{CABIN}: value.pinned was added (True)" in err
    assert "Traceback" not in err
    assert _items(r["store"]) == before and quarantined(r["store"]) == []
    # the same values as the trace: applied
    r["store"].put(NAMESPACE, "habit", {"text": LEARNED})
    r["store"].put(NAMESPACE, "cabin", {"text": "Lin flies economy, window seat."})
    assert _apply(r, "--apply", "--reviewer", "ops") == 0
    assert {e["key"] for e in quarantined(r["store"])} == {"cabin", "habit"}


class _Opaque:
    """A BaseStore dgrr knows nothing about (it keeps its backing store privately)."""

    def __new__(cls, backing):
        from langgraph.store.base import BaseStore

        class Opaque(BaseStore):
            def batch(self, ops):
                return backing.batch(ops)

            async def abatch(self, ops):
                return backing.batch(ops)

        return Opaque()


def test_cli_apply_to_a_store_dgrr_has_no_vault_for_needs_a_vault_file(repaired, capsys,
                                                                       tmp_path):
    import lg_factory

    from repair_core.integrations.langgraph_vault import SqliteVault

    r = repaired
    lg_factory.STORE = _Opaque(r["store"])
    _approval(r)
    before = _items(r["store"])
    capsys.readouterr()
    assert _apply(r, "--apply", "--reviewer", "ops") == 2
    err = capsys.readouterr().err
    assert "dgrr apply --vault FILE" in err and "Traceback" not in err
    assert _items(r["store"]) == before
    vault = tmp_path / "quarantine.db"
    assert _apply(r, "--apply", "--reviewer", "ops", "--vault", str(vault)) == 0
    entries = {e["key"]: e for e in SqliteVault(str(vault)).entries()}
    assert set(entries) == {"cabin", "habit"}
    assert entries["habit"]["value"] == {"text": LEARNED}
    assert all(LEARNED not in str(i.value) for i in r["store"].search((), limit=1000))
    capsys.readouterr()
    assert _apply(r, "--to", "mem0", "--vault", str(vault)) == 2  # the last --to wins
    assert "--vault: only for --to langgraph" in capsys.readouterr().err


def test_the_queue_worker_keeps_quarantined_items_in_the_vault_file_it_names(
        tmp_path, monkeypatch, capsys):
    """`dgrr worker --vault FILE` is `dgrr apply --vault FILE` for the queue: a store dgrr
    has no vault for fails its request, named, with nothing written; with the file, the
    items the repair quarantines are kept there, outside the store."""
    from repair_core.integrations.langgraph_vault import SqliteVault
    from repair_core.queue import RepairQueue, review
    from repair_core.replay import repair

    monkeypatch.setenv("HOME", str(tmp_path))  # no trust file of the machine's
    path, traced_ = run(tmp_path)
    store = traced_.inner
    case = import_trace([path], faults=[SEAT]).case
    plan = plan_case(case)
    result = repair(case, plan)
    carriers = [c.id for c in result.verification.carriers]
    (tmp_path / "lg_factory.py").write_text("STORE = None\n\ndef store():\n    return STORE\n")
    sys.path.insert(0, str(tmp_path))
    vault = tmp_path / "quarantine.db"
    try:
        import lg_factory

        lg_factory.STORE = _Opaque(store)
        for extra, status in (([], "failed"), (["--vault", str(vault)], "applied")):
            db = str(tmp_path / f"{status}.db")  # a reviewer approves a repair once per log
            monkeypatch.setenv("DGRR_APPLY_DIR", str(tmp_path / f"{status}-journal"))
            queue = RepairQueue(db)
            try:
                r = queue.submit(case, [SEAT], diagnosed_by="d", objective=plan.objective,
                                 store_target={"to": "langgraph", "store": "lg_factory:store"})
                queue.claim(r.id, reviewer="ana")
                review(queue, r.id, reviewer="ana", decision="approve", plan=plan,
                       result=result, acknowledged=carriers)
            finally:
                queue.close()
            before = _items(store)
            capsys.readouterr()
            assert main(["worker", "--once", "--db", db, *extra]) == (status == "failed")
            out = capsys.readouterr().out
            assert f"request #{r.id}: {status}" in out, out
            if status == "failed":
                assert "dgrr worker --vault FILE" in out and "nothing written" in out
                assert _items(store) == before and not vault.exists()
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("lg_factory", None)
    entries = {e["key"]: e for e in SqliteVault(str(vault)).entries()}
    assert set(entries) == {"cabin", "habit"}
    assert entries["habit"]["value"] == {"text": LEARNED}
    assert all(LEARNED not in str(i.value) for i in store.search((), limit=1000))


def _apply(r, *extra):
    return main(["apply", str(r["result"]), "--case", str(r["case"]), "--to", "langgraph",
                 "--store", "lg_factory:store", "--db", r["db"], "--journal", r["journal"],
                 *extra])


def test_cli_dry_run_by_default_and_refused_without_approval(repaired, capsys):
    r = repaired
    before = _items(r["store"])
    assert _apply(r) == 0
    out = capsys.readouterr().out
    assert "on the LangGraph store" in out and "dry run: nothing written" in out
    assert f"delete     {SEAT}" in out and f"quarantine {HABIT}" in out
    assert _apply(r, "--apply", "--reviewer", "ops") == 2
    assert "no approval" in capsys.readouterr().err
    assert _items(r["store"]) == before


def test_cli_refuses_a_changed_store_with_an_approval(repaired, capsys):
    r = repaired
    assert main(["approve", str(r["case"]), "--reviewer", "ana", "--decision", "approve",
                 "--result", str(r["result"]), "--db", r["db"]]) == 0
    r["store"].delete(NAMESPACE, "seat")
    before = _items(r["store"])
    capsys.readouterr()
    assert _apply(r, "--apply", "--reviewer", "ops") == 2
    err = capsys.readouterr().err
    assert f"{SEAT}: no longer in the store" in err and "nothing applied" in err
    assert _items(r["store"]) == before


def test_missing_langgraph_names_the_extra(monkeypatch):
    from langgraph.store.memory import InMemoryStore

    inner = InMemoryStore()
    monkeypatch.setitem(sys.modules, "langgraph.store.base", None)
    with pytest.raises(ImportError, match=r"pip install 'dgrr\[import\]'"):
        traced_store(inner)


def test_the_committed_sample_imports_to_the_documented_plan(tmp_path, capsys):
    sample = ROOT / "sample_imports" / "langgraph" / "travel.otlp.json"
    case = import_trace([sample], faults=[SEAT]).case
    plan = plan_case(case)
    old_cabin = next(m.id for m in case.memory if m.id.startswith(CABIN + "@"))
    assert {k: v for k, v in plan.memory.items() if v != "keep"} == {
        SEAT: "delete", CABIN: "quarantine", HABIT: "quarantine", old_cabin: "restore"}
    doc = (ROOT / "docs" / "import.md").read_text()
    assert old_cabin in doc
    # every plan line the doc shows for this sample is a line `dgrr plan` prints
    shown = doc.split("$ dgrr plan lg.json", 1)[1].split("```", 1)[0].splitlines()[1:]
    out = tmp_path / "lg.json"
    assert main(["import", str(sample), "--faults", SEAT, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["plan", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(shown) == 5 and all(line in printed for line in shown), shown


def test_async_store_calls_are_recorded_too():
    import asyncio

    from langgraph.store.memory import InMemoryStore
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    store = traced_store(InMemoryStore(), tracer=provider.get_tracer("t"))

    async def use():
        await store.aput(("u",), "k", {"text": "one"})
        await store.aput(("u",), "k", {"text": "two"})
        assert [i.value["text"] for i in await store.asearch(("u",))] == ["two"]
        await store.adelete(("u",), "k")

    asyncio.run(use())
    spans = [dict(s.attributes) for s in exporter.get_finished_spans()]
    assert [s["gen_ai.operation.name"] for s in spans] == [
        "create_memory", "update_memory", "search_memory", "delete_memory"]
    assert spans[1]["dgrr.memory.old_content"] == "one"
    assert spans[3]["dgrr.memory.old_content"] == "two"
    assert [(v.op, v.value and v.value["text"]) for v in store.history["u/k"]] == [
        ("add", "one"), ("update", "two"), ("delete", None)]


def test_cli_apply_with_an_approval(repaired, capsys):
    r = repaired
    assert main(["approve", str(r["case"]), "--reviewer", "ana", "--decision", "approve",
                 "--result", str(r["result"]), "--db", r["db"]]) == 0
    capsys.readouterr()
    from repair_core.approvals import ApprovalStore

    before = _items(r["store"])
    code = _apply(r, "--apply", "--reviewer", "ops")
    if not hasattr(ApprovalStore, "record_applied"):
        # without the hash-chained log (helper i12) nothing is applied at all
        assert code == 2 and "cannot record an applied event" in capsys.readouterr().err
        assert _items(r["store"]) == before
        return
    assert code == 0
    out = capsys.readouterr().out
    assert f"applied delete     {SEAT} -> langgraph {SEAT}" in out
    after = _items(r["store"])
    assert SEAT not in after and after[CABIN] == STORE["cabin"]


def test_cli_apply_hashes_each_plan_once_however_many_approvals(repaired, capsys, monkeypatch):
    """Finding the approval computes the (seconds-long on a large case) digests once per
    distinct set of plan edits, not once per approval in the log."""
    r = repaired
    assert main(["approve", str(r["case"]), "--reviewer", "ana", "--decision", "approve",
                 "--result", str(r["result"]), "--db", r["db"]]) == 0
    for reviewer in ("bo", "cy"):  # newer approvals of the plan alone: not this result's
        assert main(["approve", str(r["case"]), "--reviewer", reviewer, "--decision",
                     "approve", "--db", r["db"]]) == 0
    import repair_core.approvals as approvals

    calls = []
    real = approvals.approval_hashes
    monkeypatch.setattr(approvals, "approval_hashes",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    capsys.readouterr()
    assert _apply(r) == 0
    assert "approval: #1 by ana" in capsys.readouterr().out  # the one of this result
    assert len(calls) == 1


@pytest.mark.rule("apply.carriers-acknowledged")
def test_the_carrier_gate_on_the_imported_langgraph_case_and_the_agents_next_search(
        tmp_path, capsys):
    """The real graph's store also holds "User prefers a window seat." (an item no write
    of the run made; the recall node reads it beside the poisoned seat record): a
    restatement of the fault. The answer repair keeps it, so the result still carries the
    fault; apply refuses an approval that did not acknowledge each carrier and writes
    nothing; once acknowledged, apply writes, and the agent's next recall (the graph's own
    search of its namespace) still reads it, but not the fault nor what the run learned
    from it. The default repair (answer and store) quarantines it: nothing to acknowledge,
    and the next recall reads no carrier."""
    from langgraph.store.memory import InMemoryStore


    note = record_id(NAMESPACE, "note")
    stores = {}
    for name in ("answer", "both"):
        inner = InMemoryStore()
        inner.put(NAMESPACE, "note", {"text": "User prefers a window seat."})
        path, traced_ = run(tmp_path / name, inner=inner)
        stores[name] = (path, traced_.inner)
    case = tmp_path / "case.json"
    assert main(["import", str(stores["answer"][0]), "--faults", SEAT, "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--objective", "answer", "--json"]) in (0, 1)
    result = tmp_path / "result.json"
    result.write_text(capsys.readouterr().out)
    data = json.loads(result.read_text())
    carriers = {c["id"]: c for c in data["verification"]["carriers"]}
    assert f"{note}:{SEAT}" in carriers and carriers[f"{note}:{SEAT}"]["kind"] == "record"
    assert {c["evidence"] for c in carriers.values()} == {"restates: seat, window"}
    (tmp_path / "lg_factory.py").write_text("STORE = None\n\ndef store():\n    return STORE\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import lg_factory

        lg_factory.STORE = stores["answer"][1]
        r, approve = approved_without_acknowledgement(tmp_path, case, result, data,
                                                      carriers, capsys)
        before = _items(stores["answer"][1])
        assert _apply(r, "--apply", "--reviewer", "ops") == 2
        err = capsys.readouterr().err
        assert "did not acknowledge" in err and f"{note}:{SEAT}" in err
        assert "nothing written" in err and _items(stores["answer"][1]) == before
        assert main([*approve, *(a for c in carriers for a in ("--acknowledge", c))]) == 0
        capsys.readouterr()
        assert _apply(r, "--apply", "--reviewer", "ops") == 0
        capsys.readouterr()
        read = {i.key: record_text(i.value)
                for i in stores["answer"][1].search(NAMESPACE, query=RECALL_QUERY)}
        assert "seat" not in read and "habit" not in read
        assert read["note"] == "User prefers a window seat."

        # the default objective quarantines the restatement: no carrier to acknowledge
        case_both = tmp_path / "case-both.json"
        assert main(["import", str(stores["both"][0]), "--faults", SEAT,
                     "--out", str(case_both)]) == 0
        capsys.readouterr()
        assert main(["repair", str(case_both), "--json"]) in (0, 1)
        both = json.loads(capsys.readouterr().out)
        assert both["verification"]["carriers"] == []
        result.write_text(json.dumps(both))
        lg_factory.STORE = stores["both"][1]
        r.update(case=case_both, db=str(tmp_path / "approvals-both.db"),
                 journal=str(tmp_path / "journal-both"))
        assert main(["approve", str(case_both), "--reviewer", "ana", "--decision", "approve",
                     "--result", str(result), "--db", r["db"]]) == 0
        capsys.readouterr()
        assert _apply(r, "--apply", "--reviewer", "ops") == 0
        capsys.readouterr()
        read = {i.key: record_text(i.value)
                for i in stores["both"][1].search(NAMESPACE, query=RECALL_QUERY)}
        assert not {"seat", "habit", "note"} & read.keys()
        assert all("window" not in text for text in read.values())
        assert record_text(vault_of(stores["both"][1])[NAMESPACE, "note"]["value"]) == \
            "User prefers a window seat."
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("lg_factory", None)


def vault_of(store):
    return {(tuple(e["namespace"]), e["key"]): e for e in quarantined(store)}


@pytest.mark.rule("apply.carriers-acknowledged")
def test_the_queue_worker_gate_on_the_imported_langgraph_case(tmp_path):
    """The queue's worker writes the real graph's store back only under an approval that
    acknowledged each carrier: the honoured approval (the newest) that did not fails the
    request with nothing written; one that did is applied, and the graph's next recall
    reads the acknowledged restatement but not the fault."""
    from langgraph.store.memory import InMemoryStore

    from repair_core.approvals import approval_hashes
    from repair_core.queue import RepairQueue, apply_request, review
    from repair_core.replay import repair

    inner = InMemoryStore()
    inner.put(NAMESPACE, "note", {"text": "User prefers a window seat."})
    path, traced_ = run(tmp_path, inner=inner)
    store = traced_.inner
    case = import_trace([path], faults=[SEAT]).case
    plan = plan_case(case, objective="answer")
    result = repair(case, plan)
    carriers = [c.id for c in result.verification.carriers]
    assert f"{record_id(NAMESPACE, 'note')}:{SEAT}" in carriers
    (tmp_path / "lg_factory.py").write_text("STORE = None\n\ndef store():\n    return STORE\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import lg_factory

        lg_factory.STORE = store
        target = {"to": "langgraph", "store": "lg_factory:store"}
        for name, newest_acknowledges in (("refused", False), ("applied", True)):
            queue = RepairQueue(str(tmp_path / f"{name}.db"))
            try:
                r = queue.submit(case, [SEAT], diagnosed_by="d", objective="answer",
                                 store_target=target)
                queue.claim(r.id, reviewer="ana")
                review(queue, r.id, reviewer="ana", decision="approve", plan=plan,
                       result=result, acknowledged=carriers)
                if not newest_acknowledges:
                    # a newer approval of the same result, recorded by a tool that skipped
                    # the check, is the one honoured: it acknowledged nothing
                    inputs, outputs = approval_hashes(plan, result)
                    queue.approvals.add(case_id=case.case_id, reviewer="bo",
                                        decision="approve", inputs_sha256=inputs,
                                        outputs_sha256=outputs, model="dgrr/reference")
                before = _items(store)
                held = queue.take_approved(worker="w1")
                done = apply_request(queue, held, worker="w1")
            finally:
                queue.close()
            if not newest_acknowledges:
                assert done.status == "failed"
                assert "did not acknowledge" in done.error and "nothing written" in done.error
                assert _items(store) == before
                continue
            assert done.status == "applied", done.error
            read = {i.key: record_text(i.value)
                    for i in store.search(NAMESPACE, query=RECALL_QUERY)}
            assert "seat" not in read and "habit" not in read
            assert read["note"] == "User prefers a window seat."
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("lg_factory", None)
