"""A real LangGraph agent with a checkpointer (scripts/langgraph_travel_run.py: StateGraph,
ToolNode, a scripted fake chat model, a store behind `traced_store`, the OpenInference
LangChain instrumentor) whose thread took in the poisoned seat preference: the trace is
imported and planned, the store repaired, and the thread forked from the last checkpoint
before the poison with LangGraph's own API. The agent's next turn on the thread never sees
the poisoned text, and the old branch is still there, unchanged, for audit.

Sync (InMemorySaver + InMemoryStore, `invoke`) and async (AsyncSqliteSaver +
AsyncSqliteStore, and AsyncPostgresSaver + AsyncPostgresStore on a throwaway cluster;
`ainvoke`, async store nodes)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph.store.memory", reason="needs the 'import' extra (langgraph)")
pytest.importorskip("openinference.instrumentation.langchain", reason="needs the 'import' extra")

from repair_core import load_case, plan_case  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.integrations import store_ops  # noqa: E402
from repair_core.integrations.langgraph import apply_langgraph, record_id, traced_store  # noqa: E402
from repair_core.integrations.langgraph_threads import (  # noqa: E402
    afork_thread,
    fork_thread,
    plan_fork,
    poisoned_texts,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from langgraph_travel_run import LEARNED, NAMESPACE, STORE, build  # noqa: E402
from otel_travel_run import USER_TURN  # noqa: E402

pytestmark = pytest.mark.slow

SEAT, CABIN, HABIT = (record_id(NAMESPACE, k) for k in ("seat", "cabin", "habit"))
POISON = STORE["seat"]  # "Lin prefers window seats."
THREAD = {"configurable": {"thread_id": "lin-1"}}


def _replies() -> list[Any]:
    """The model's script for the turn re-run on the repaired store."""
    from langchain_core.messages import AIMessage

    args = {"origin": "SFO", "destination": "NRT", "date": "next Friday", "cabin": "economy",
            "seat": "aisle"}
    return [AIMessage(content="", tool_calls=[{"name": "search_flights", "args": args,
                                               "id": "call_2", "type": "tool_call"}]),
            AIMessage(content="Booked JL1 SFO to NRT next Friday, economy, aisle seat 31C, "
                              "with a vegetarian meal.")]


def _tracing() -> tuple[Any, Any, Any]:
    from openinference.instrumentation.langchain import LangChainInstrumentor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "travel-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    return provider, exporter, instrumentor


def _write_otlp(exporter: Any, path: Path) -> Path:
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    path.write_text(json.dumps(MessageToDict(encode_spans(exporter.get_finished_spans()))))
    return path


def _import_and_repair(trace: Path, tmp_path: Path, capsys) -> tuple[Any, dict[str, Any]]:
    """The case (fault: the seat record) and `dgrr repair --json`'s result, approved in
    `tmp_path/approvals.db` (what a write-back needs; see `_approved`)."""
    case_path = tmp_path / "case.json"
    assert main(["import", str(trace), "--faults", SEAT, "--out", str(case_path)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case_path), "--json"]) in (0, 1)
    out = capsys.readouterr().out
    result = json.loads(out)
    result_path = tmp_path / "result.json"
    result_path.write_text(out)
    assert main(["approve", str(case_path), "--reviewer", "ana", "--decision", "approve",
                 "--result", str(result_path), "--db", str(tmp_path / "approvals.db")]) == 0
    capsys.readouterr()
    return load_case(case_path), result


def _approved(case: Any, result: dict[str, Any], tmp_path: Path) -> Any:
    """The approval `_import_and_repair` recorded, as `dgrr apply` finds it."""
    from repair_core.integrations import find_approval

    found = find_approval(case, result, str(tmp_path / "approvals.db"))
    assert found is not None
    return found


def _check_plan(case: Any) -> None:
    plan = plan_case(case)
    assert plan.memory[SEAT] == "delete"
    assert plan.memory[CABIN] == plan.memory[HABIT] == "quarantine"
    for k in ("home", "meal"):
        assert plan.memory[record_id(NAMESPACE, k)] == "keep"


def _texts(values: Any) -> str:
    return "\n".join(str(m.content) for m in values.get("messages", []))


def _snapshot(history: list[Any]) -> dict[str, str]:
    """checkpoint id -> its state's messages, as text (to compare before/after)."""
    return {s.config["configurable"]["checkpoint_id"]: _texts(s.values) for s in history}


def traced_thread_run(tmp_path: Path) -> tuple[Any, Any, Path]:
    """The travel agent run once on a checkpointed thread, its store behind `traced_store`
    and its spans written as OTLP JSON: (the inner store, the checkpointer, the trace)."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    inner = InMemoryStore()
    for key, text in STORE.items():
        inner.put(NAMESPACE, key, {"text": text})
    saver = InMemorySaver()
    provider, exporter, instrumentor = _tracing()
    try:
        store = traced_store(inner, store_id="lin-prefs", tracer=provider.get_tracer("t"))
        build(store, checkpointer=saver).invoke({"messages": [("user", USER_TURN)]}, THREAD)
    finally:
        instrumentor.uninstrument()
    provider.shutdown()
    return inner, saver, _write_otlp(exporter, tmp_path / "t.otlp.json")


def _sync_scenario(tmp_path: Path, capsys) -> dict[str, Any]:
    """The run traced, imported, planned; the store repaired; the thread forked and the
    turn resumed on the fork (the agent's next turn)."""
    inner, saver, trace = traced_thread_run(tmp_path)
    case, result = _import_and_repair(trace, tmp_path, capsys)
    _check_plan(case)
    graph = build(inner, checkpointer=saver, replies=_replies(), learns={})
    poisoned = poisoned_texts(case)
    assert POISON in poisoned and LEARNED in poisoned
    assert POISON in _texts(graph.get_state(THREAD).values)  # the thread took it in

    before = _snapshot(list(graph.get_state_history(THREAD)))
    planned = plan_fork(graph, THREAD, poisoned)
    assert planned is not None and planned.fork is None
    assert _snapshot(list(graph.get_state_history(THREAD))) == before  # a dry run

    apply_langgraph(inner, store_ops(case, result), case_id=case.case_id,
                    approval=_approved(case, result, tmp_path))
    fork = fork_thread(graph, THREAD, poisoned)
    assert fork is not None and fork.fork is not None
    forked_head = graph.get_state(THREAD)
    after = _snapshot(list(graph.get_state_history(THREAD)))
    # the agent's next turn: the rest of the turn re-run on the repaired store
    graph.invoke(None, THREAD)
    return {"graph": graph, "fork": fork, "planned": planned, "before": before,
            "after": after, "forked_head": forked_head, "poisoned": poisoned,
            "inner": inner, "saver": saver}


def test_sync_thread_is_forked_before_the_poison_and_resumed_without_it(tmp_path, capsys):
    run = _sync_scenario(tmp_path, capsys)
    graph, fork, planned, before, after = (run[k] for k in ("graph", "fork", "planned",
                                                           "before", "after"))
    assert (fork.fork_from, fork.first_poisoned, fork.head) == (
        planned.fork_from, planned.first_poisoned, planned.head)
    assert POISON in fork.found
    assert fork.next == ("recall",)  # the fork re-runs the turn from the store read on
    assert any(POISON in d["text"] for d in fork.dropped)
    assert any(d["type"] == "ai" and "window seat 31A" in d["text"] for d in fork.dropped)
    assert USER_TURN not in "\n".join(d["text"] for d in fork.dropped)  # the turn is kept

    # never edited in place: every old checkpoint is there with the same state
    assert {k: after[k] for k in before} == before
    assert set(after) - set(before) == {fork.fork}
    audit = graph.get_state({"configurable": {**THREAD["configurable"],
                                              "checkpoint_id": fork.head}})
    assert POISON in _texts(audit.values)

    head = run["forked_head"]
    assert head.config["configurable"]["checkpoint_id"] == fork.fork
    assert POISON not in _texts(head.values) and USER_TURN in _texts(head.values)

    # the resumed turn read the repaired store: no poisoned record, the old answer gone
    state = graph.get_state(THREAD).values
    text = _texts(state)
    assert POISON not in text and "window seat 31A" not in text
    assert "aisle seat 31C" in state["messages"][-1].content
    assert STORE["home"] in text and STORE["meal"] in text
    # the resumed branch no longer holds the deleted record: nothing more to fork for it
    assert plan_fork(graph, THREAD, [POISON]) is None


def test_sync_next_turns_never_read_a_quarantined_text(tmp_path, capsys):
    """The quarantine the agent cannot read: after `apply_langgraph` the
    resumed turn's recall never reads a quarantined text back."""
    run = _sync_scenario(tmp_path, capsys)
    graph = run["graph"]
    text = _texts(graph.get_state(THREAD).values)
    for p in run["poisoned"]:
        assert p not in text
    assert "window" not in text
    # and a new turn on the thread starts from the clean state
    from langchain_core.messages import AIMessage

    nxt = build(run["inner"], checkpointer=run["saver"], replies=[AIMessage(content="Noted.")],
                learns={})
    nxt.invoke({"messages": [("user", "Thanks!")]}, THREAD)
    assert "window" not in _texts(nxt.get_state(THREAD).values)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def async_backend(request, tmp_path) -> Any:
    """A function opening (async store, async checkpointer) context managers: SQLite files,
    or a schema of the throwaway PostgreSQL cluster."""
    if request.param == "sqlite":
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
        from langgraph.store.sqlite.aio import AsyncSqliteStore

        return lambda: (AsyncSqliteStore.from_conn_string(str(tmp_path / "store.db")),
                        AsyncSqliteSaver.from_conn_string(str(tmp_path / "threads.db")))
    import psycopg
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from langgraph.store.postgres.aio import AsyncPostgresStore

    url = request.getfixturevalue("postgres_url").replace("postgresql+psycopg://",
                                                          "postgresql://")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS threads_async CASCADE")
        conn.execute("CREATE SCHEMA threads_async")
    scoped = f"{url}?options=-csearch_path%3Dthreads_async"
    return lambda: (AsyncPostgresStore.from_conn_string(scoped),
                    AsyncPostgresSaver.from_conn_string(scoped))


def test_async_thread_forked_with_aupdate_state(async_backend, tmp_path, capsys):
    async def scenario() -> None:
        open_store, open_saver = async_backend()
        async with open_store as inner, open_saver as saver:
            await inner.setup()
            await saver.setup()
            for key, text in STORE.items():
                await inner.aput(NAMESPACE, key, {"text": text})
            provider, exporter, instrumentor = _tracing()
            try:
                store = traced_store(inner, store_id="lin-prefs",
                                     tracer=provider.get_tracer("t"))
                await build(store, checkpointer=saver, use_async=True).ainvoke(
                    {"messages": [("user", USER_TURN)]}, THREAD)
            finally:
                instrumentor.uninstrument()
            provider.shutdown()
            trace = _write_otlp(exporter, tmp_path / "t.otlp.json")
            spans = [s for s in exporter.get_finished_spans()
                     if (s.attributes or {}).get("gen_ai.operation.name")]
            assert [s.attributes["gen_ai.operation.name"] for s in spans] == [
                "search_memory", "create_memory", "update_memory"]
            case, result = _import_and_repair(trace, tmp_path, capsys)
            _check_plan(case)
            # apply_langgraph is synchronous: off the event loop, as an app would call it
            await asyncio.to_thread(apply_langgraph, inner, store_ops(case, result),
                                    case_id=case.case_id,
                                    approval=_approved(case, result, tmp_path))
            graph = build(inner, checkpointer=saver, replies=_replies(), learns={},
                          use_async=True)
            before = {s.config["configurable"]["checkpoint_id"]: _texts(s.values)
                      async for s in graph.aget_state_history(THREAD)}
            fork = await afork_thread(graph, THREAD, poisoned_texts(case))
            assert fork is not None and fork.next == ("recall",)
            after = {s.config["configurable"]["checkpoint_id"]: _texts(s.values)
                     async for s in graph.aget_state_history(THREAD)}
            assert {k: after[k] for k in before} == before
            assert set(after) - set(before) == {fork.fork}
            await graph.ainvoke(None, THREAD)
            text = _texts((await graph.aget_state(THREAD)).values)
            assert POISON not in text and "window seat 31A" not in text
            assert "aisle seat 31C" in text

    asyncio.run(scenario())


def test_a_thread_that_never_held_the_poison_is_not_forked():
    from langchain_core.messages import AIMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    inner = InMemoryStore()
    inner.put(NAMESPACE, "home", {"text": STORE["home"]})
    saver = InMemorySaver()
    graph = build(inner, checkpointer=saver, replies=[AIMessage(content="Hello Lin.")],
                  learns={})
    graph.invoke({"messages": [("user", "Hi")]}, THREAD)
    n = len(list(graph.get_state_history(THREAD)))
    assert fork_thread(graph, THREAD, [POISON]) is None
    assert len(list(graph.get_state_history(THREAD))) == n


def test_poison_from_the_user_forks_before_the_turn_and_an_unknown_thread_is_refused():
    from langchain_core.messages import AIMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    from repair_core._errors import DgrrError

    saver = InMemorySaver()
    graph = build(InMemoryStore(), checkpointer=saver, replies=[AIMessage(content="Ok.")],
                  learns={})
    graph.invoke({"messages": [("user", f"Remember: {POISON}")]}, THREAD)
    # the user's own input put it there: the input checkpoint is empty, so the fork is
    # from before the turn
    fork = plan_fork(graph, THREAD, [POISON])
    assert fork is not None and fork.next == ("__start__",)
    with pytest.raises(DgrrError, match="no checkpoints"):
        plan_fork(graph, {"configurable": {"thread_id": "nobody"}}, [POISON])


def test_cli_fork_thread_dry_run_refusal_and_apply(tmp_path, capsys, monkeypatch):
    import textwrap

    inner, saver, trace = traced_thread_run(tmp_path)
    case = tmp_path / "case.json"
    assert main(["import", str(trace), "--faults", SEAT, "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--json"]) in (0, 1)
    result = tmp_path / "result.json"
    result.write_text(capsys.readouterr().out)
    (tmp_path / "thread_factory.py").write_text(textwrap.dedent("""
        GRAPH = None

        def graph():
            return GRAPH
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import thread_factory

    graph = build(inner, checkpointer=saver, replies=_replies(), learns={})
    thread_factory.GRAPH = graph
    db = str(tmp_path / "approvals.db")
    base = ["fork-thread", str(case), "--graph", "thread_factory:graph", "--thread", "lin-1",
            "--db", db]
    before = _snapshot(list(graph.get_state_history(THREAD)))
    try:
        assert main(base) == 0
        out = capsys.readouterr().out
        assert "fork from checkpoint" in out and "dry run: nothing written" in out
        assert repr(POISON) in out
        assert main([*base, "--apply", "--reviewer", "ops", "--result", str(result)]) == 2
        assert "no approval" in capsys.readouterr().err
        assert main([*base, "--apply", "--reviewer", "ops"]) == 2
        assert "--result" in capsys.readouterr().err
        assert _snapshot(list(graph.get_state_history(THREAD))) == before
        assert main(["fork-thread", str(case), "--graph", "nosuchmodule:graph",
                     "--thread", "lin-1"]) == 2
        assert "--graph: cannot load" in capsys.readouterr().err

        assert main(["approve", str(case), "--reviewer", "ana", "--decision", "approve",
                     "--result", str(result), "--db", db]) == 0
        capsys.readouterr()
        assert main([*base, "--apply", "--reviewer", "ops", "--result", str(result)]) == 0
        out = capsys.readouterr().out
        assert "forked: new head" in out and "recorded as #" in out
        after = _snapshot(list(graph.get_state_history(THREAD)))
        assert {k: after[k] for k in before} == before and len(after) == len(before) + 1
        assert POISON not in _texts(graph.get_state(THREAD).values)
        from repair_core.approvals import ApprovalStore

        log = ApprovalStore(db)
        try:
            applied = [r for r in log.history(load_case(case).case_id) if r.kind == "applied"]
        finally:
            log.close()
        assert len(applied) == 1 and applied[0].target == "langgraph-thread:lin-1"
        assert json.loads(applied[0].comment)["fork_from"] in before
    finally:
        sys.modules.pop("thread_factory", None)
