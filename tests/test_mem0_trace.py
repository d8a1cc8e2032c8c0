"""`traced_memory`: a real Mem0 `Memory` / `AsyncMemory` (offline: local Qdrant, a hash
embedder, a scripted LLM where Mem0 infers) recorded as OTel GenAI memory spans, and a
Mem0 agent traced with it (scripts/mem0_agent_run.py) imported to the plan a careful
reviewer would write."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("MEM0_TELEMETRY", "False")  # before mem0 is imported
pytest.importorskip("mem0", reason="needs the 'import' extra (mem0ai)")

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)

from repair_core import load_case, plan_case  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.integrations.mem0_trace import (  # noqa: E402
    AGENT_ID,
    HISTORY_ID,
    HISTORY_PREVIOUS_ID,
    RUN_ID,
    traced_memory,
)
from repair_core.provenance import OLD_CONTENT  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import mem0_agent_run as agent_run  # noqa: E402
from mem0_agent_run import scoped  # noqa: E402
from mem0_travel_store import DIMS, HashEmbedder, make_memory  # noqa: E402

MEM0_2 = "filters" in scoped("lin")  # mem0ai 2.x: scope ids of a search go in filters=

pytestmark = pytest.mark.slow


def _tracer() -> tuple[Any, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider.get_tracer("test"), exporter


def _spans(exporter: InMemorySpanExporter) -> list[tuple[str, dict[str, Any]]]:
    return [(s.name, dict(s.attributes or {})) for s in exporter.get_finished_spans()]


def _close(memory: Any) -> None:
    for store in (getattr(memory, "vector_store", None),
                  getattr(memory, "_telemetry_vector_store", None)):
        client = getattr(store, "client", None)
        if client is not None:
            client.close()


class ScriptedLLM:
    """Mem0's LLM for an inferring `add`: first the facts, then the memory actions, which
    name the existing memory by the temporary id Mem0 gave it in the prompt."""

    def __init__(self, facts: list[str], actions: list[dict[str, Any]]) -> None:
        self.facts, self.actions, self.calls = facts, actions, 0

    def generate_response(self, messages: list[dict[str, str]], **kwargs: Any) -> str:
        self.calls += 1
        if self.calls == 1:
            return json.dumps({"facts": self.facts})
        prompt = messages[-1]["content"]
        out = []
        for action in self.actions:
            action = dict(action)
            if "old_text" in action:  # the temporary id Mem0 gave that memory
                old = re.escape(action.pop("old_text"))
                m = re.search(r"""['"]id['"]: ['"](\d+)['"], ['"]text['"]: ['"]""" + old, prompt)
                assert m, f"memory {old!r} not offered to the LLM"
                action["id"] = m[1]
            out.append(action)
        return json.dumps({"memory": out})


def test_each_call_is_a_memory_span_with_ids_scope_and_lineage(tmp_path: Path) -> None:
    tracer, exporter = _tracer()
    raw = make_memory(tmp_path)
    try:
        memory = traced_memory(raw, store_id="lin-prefs", tracer=tracer)
        seat = memory.add("Lin prefers aisle seats.", user_id="lin", agent_id="travel",
                          run_id="r1", metadata={"source": "onboarding"},
                          infer=False)["results"][0]["id"]
        meal = memory.add("Lin is vegetarian.", user_id="lin", infer=False)["results"][0]["id"]
        hits = memory.search("seat", **scoped("lin"))["results"]
        assert memory.get(seat)["memory"] == "Lin prefers aisle seats."
        memory.get_all(**scoped("lin"))
        memory.update(seat, "Lin prefers window seats.")
        memory.delete(meal)
        memory.delete_all(user_id="lin")
        history = {r["event"]: r["id"] for r in raw.history(seat)}
    finally:
        _close(raw)
    spans = _spans(exporter)
    assert [n for n, _ in spans] == [
        "create_memory", "create_memory", "search_memory", "search_memory", "search_memory",
        "update_memory", "delete_memory", "delete_memory"]
    for _, a in spans:
        assert a["gen_ai.provider.name"] == "mem0"
        assert a["gen_ai.memory.store.id"] == "lin-prefs"
        assert a["gen_ai.operation.name"] in ("create_memory", "search_memory",
                                              "update_memory", "delete_memory")
    create = spans[0][1]
    assert create["gen_ai.memory.record.id"] == seat
    assert create["gen_ai.memory.content"] == "Lin prefers aisle seats."
    assert (create["user.id"], create[AGENT_ID], create[RUN_ID]) == ("lin", "travel", "r1")
    (rec,) = json.loads(create["gen_ai.memory.records"])
    assert rec["id"] == seat
    assert rec["metadata"]["source"] == "onboarding"
    assert (rec["metadata"]["user_id"], rec["metadata"]["agent_id"]) == ("lin", "travel")
    assert create[HISTORY_ID] == history["ADD"]
    search = spans[2][1]
    assert search["gen_ai.memory.query.text"] == "seat"
    records = json.loads(search["gen_ai.memory.records"])
    assert [r["id"] for r in records] == [h["id"] for h in hits]
    assert all(isinstance(r["score"], float) and r["metadata"]["user_id"] == "lin"
               for r in records)
    get = spans[3][1]
    assert get["gen_ai.memory.query.text"] == seat
    assert [r["id"] for r in json.loads(get["gen_ai.memory.records"])] == [seat]
    assert {r["id"] for r in json.loads(spans[4][1]["gen_ai.memory.records"])} == {seat, meal}
    update = spans[5][1]
    assert update["gen_ai.memory.record.id"] == seat
    assert update["gen_ai.memory.content"] == "Lin prefers window seats."
    assert update[OLD_CONTENT] == "Lin prefers aisle seats."
    assert update["user.id"] == "lin"  # the scope of the memory updated
    assert update[HISTORY_ID] == history["UPDATE"]
    assert update[HISTORY_PREVIOUS_ID] == history["ADD"]
    delete = spans[6][1]
    assert delete["gen_ai.memory.record.id"] == meal
    assert delete[OLD_CONTENT] == "Lin is vegetarian."
    assert "gen_ai.memory.content" not in delete
    # delete_all: one delete span per memory it removed (only the seat was left)
    assert spans[7][1]["gen_ai.memory.record.id"] == seat
    assert spans[7][1][OLD_CONTENT] == "Lin prefers window seats."
    assert spans[7][1][HISTORY_ID] == history["DELETE"]


@pytest.mark.skipif(MEM0_2, reason="mem0ai 2.x's inferring add only adds: no UPDATE or "
                    "DELETE events to record")
def test_an_inferring_add_records_each_event_mem0_reports(tmp_path: Path) -> None:
    tracer, exporter = _tracer()
    raw = make_memory(tmp_path)
    try:
        seat = raw.add("Lin prefers aisle seats.", user_id="lin", infer=False)["results"][0]["id"]
        tea = raw.add("Lin drinks tea.", user_id="lin", infer=False)["results"][0]["id"]
        raw.llm = ScriptedLLM(
            ["Lin prefers window seats", "Lin drinks coffee"],
            [{"old_text": "Lin prefers aisle seats.", "text": "Lin prefers window seats.",
              "event": "UPDATE", "old_memory": "(what the LLM claims it was)"},
             {"old_text": "Lin drinks tea.", "text": "Lin drinks tea.", "event": "DELETE"},
             {"text": "Lin drinks coffee.", "event": "ADD"}])
        memory = traced_memory(raw, tracer=tracer)
        out = memory.add([{"role": "user", "content": "I fly window now, and coffee not tea"}],
                         user_id="lin")
        history = {r["event"]: r["id"] for r in raw.history(seat)}
    finally:
        _close(raw)
    assert [r["event"] for r in out["results"]] == ["UPDATE", "DELETE", "ADD"]
    spans = _spans(exporter)
    assert [n for n, _ in spans] == ["update_memory", "delete_memory", "create_memory"]
    update, delete, create = (a for _, a in spans)
    assert update["gen_ai.memory.record.id"] == seat
    # the replaced text is Mem0's history row, not the LLM's claim
    assert update[OLD_CONTENT] == "Lin prefers aisle seats."
    assert (update[HISTORY_ID], update[HISTORY_PREVIOUS_ID]) == (history["UPDATE"],
                                                                 history["ADD"])
    assert delete["gen_ai.memory.record.id"] == tea
    assert delete[OLD_CONTENT] == "Lin drinks tea."
    assert create["gen_ai.memory.content"] == "Lin drinks coffee."
    assert create["user.id"] == "lin"


def test_async_memory_is_wrapped_with_async_methods(tmp_path: Path) -> None:
    from mem0 import AsyncMemory

    from repair_core.integrations.mem0_trace import TracedAsyncMemory

    tracer, exporter = _tracer()

    async def session() -> tuple[str, dict[str, str]]:
        config = {
            "vector_store": {"provider": "qdrant", "config": {
                "path": str(tmp_path / "qdrant"), "on_disk": True, "collection_name": "t",
                "embedding_model_dims": DIMS}},
            "history_db_path": str(tmp_path / "history.db"),
            "llm": {"provider": "openai", "config": {"api_key": "offline"}},
            "embedder": {"provider": "openai", "config": {"api_key": "offline",
                                                          "embedding_dims": DIMS}},
        }
        raw = AsyncMemory.from_config(config)
        if asyncio.iscoroutine(raw):  # 0.1.x: a coroutine; 2.x: the memory
            raw = await raw
        raw.embedding_model = HashEmbedder(raw.embedding_model.config)
        try:
            memory = traced_memory(raw, tracer=tracer)
            assert isinstance(memory, TracedAsyncMemory)
            seat = (await memory.add("Lin prefers aisle seats.", user_id="lin",
                                     infer=False))["results"][0]["id"]
            await memory.update(seat, "Lin prefers window seats.")
            hits = await memory.search("seat", **scoped("lin"))
            assert [h["memory"] for h in hits["results"]] == ["Lin prefers window seats."]
            await memory.delete(seat)
            history = {r["event"]: r["id"] for r in await raw.history(seat)}
        finally:
            _close(raw)
        return seat, history

    seat, history = asyncio.run(session())
    spans = _spans(exporter)
    assert [n for n, _ in spans] == ["create_memory", "update_memory", "search_memory",
                                     "delete_memory"]
    update = spans[1][1]
    assert update[OLD_CONTENT] == "Lin prefers aisle seats."
    assert (update[HISTORY_ID], update[HISTORY_PREVIOUS_ID]) == (history["UPDATE"],
                                                                 history["ADD"])
    assert spans[3][1]["gen_ai.memory.record.id"] == seat
    assert spans[3][1][OLD_CONTENT] == "Lin prefers window seats."


# -- a Mem0 agent, traced, imported, planned -------------------------------------------------


@pytest.fixture(scope="module")
def agent_trace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    out = tmp_path_factory.mktemp("mem0-agent")
    path, ids, memory = agent_run.run(out)
    _close(memory.inner)
    return path, ids


def _otlp_spans(path: Path) -> list[dict[str, Any]]:
    doc = json.loads(path.read_text())
    return [s for rs in doc["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]


def _attrs(span: dict[str, Any]) -> dict[str, Any]:
    return {a["key"]: next(iter(a["value"].values())) for a in span.get("attributes", [])}


def test_agent_memory_spans_are_children_of_the_instrumented_turn(agent_trace) -> None:
    path, ids = agent_trace
    spans = _otlp_spans(path)
    by_id = {s["spanId"]: s for s in spans}
    memory = [s for s in spans if "gen_ai.operation.name" in _attrs(s)]
    assert [_attrs(s)["gen_ai.operation.name"] for s in memory] == [
        "update_memory", "search_memory", "create_memory"]
    for s in memory:
        assert _attrs(by_id[s["parentSpanId"]])["openinference.span.kind"] == "AGENT"
    assert _attrs(memory[0])["gen_ai.memory.record.id"] == ids["m3"]
    assert _attrs(memory[2])["gen_ai.memory.record.id"] == ids["m6"]


def test_agent_trace_imports_to_the_reviewers_plan(agent_trace, tmp_path: Path, capsys) -> None:
    """The poisoned update's text is the fault: it is deleted and the aisle text it replaced
    restored, the memory learned from it quarantined, the read and the answer replayed, the
    three other preferences kept."""
    path, ids = agent_trace
    out = tmp_path / "case.json"
    assert main(["import", str(path), "--faults", ids["m3"], "--out", str(out)]) == 0
    capsys.readouterr()
    case = load_case(out)
    assert case.user_id == "lin"
    records = {m.id: m for m in case.memory}
    (old_seat,) = [m for m in case.memory if m.id.startswith(ids["m3"] + "@")]
    assert old_seat.text == agent_run.TRUE_SEAT and old_seat.status == "superseded"
    assert records[ids["m3"]].text == agent_run.POISONED
    assert records[ids["m6"]].text == agent_run.LEARNED
    plan = plan_case(case)
    assert plan.memory[ids["m3"]] == "delete"
    assert plan.memory[old_seat.id] == "restore"
    assert plan.memory[ids["m6"]] == "quarantine"
    for name in ("m2", "m4", "m5"):
        assert plan.memory[ids[name]] == "keep", name
    steps = {s.id: s for s in case.steps_in_order()}
    replayed = sorted(steps[i].type for i, act in plan.steps.items() if act == "replay")
    assert replayed == ["answer", "memory_read"]
    learn = next(s for s in steps.values() if s.type == "memory_write" and s.op == "add")
    assert plan.steps[learn.id] == "invalidate"


def test_only_the_text_an_update_replaced_comes_back(tmp_path: Path, capsys) -> None:
    """Two traced updates (aisle -> middle -> window): diagnosing the current text restores
    the middle one only."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("t")
    raw = make_memory(tmp_path)
    try:
        memory = traced_memory(raw, tracer=tracer)
        seat = raw.add("Lin prefers aisle seats.", user_id="lin", infer=False)["results"][0]["id"]
        with tracer.start_as_current_span("invoke_agent", attributes={
                "gen_ai.operation.name": "invoke_agent", "user.id": "lin"}):
            memory.update(seat, "Lin prefers middle seats.")
            memory.update(seat, "Lin prefers window seats.")
            memory.search("seat", **scoped("lin"))
            with tracer.start_as_current_span("chat", attributes={
                    "gen_ai.operation.name": "chat", "gen_ai.output.messages": json.dumps(
                        [{"role": "assistant", "parts": [
                            {"type": "text", "content": "A window seat, then."}]}])}):
                pass
    finally:
        _close(raw)
    trace = tmp_path / "t.otlp.json"
    trace.write_text(json.dumps(MessageToDict(encode_spans(exporter.get_finished_spans()))))
    out = tmp_path / "case.json"
    assert main(["import", str(trace), "--faults", seat, "--out", str(out)]) == 0
    capsys.readouterr()
    case = load_case(out)
    plan = plan_case(case)
    versions = {m.text: plan.memory[m.id] for m in case.memory if m.id.startswith(seat + "@")}
    assert versions == {"Lin prefers aisle seats.": "keep",
                        "Lin prefers middle seats.": "restore"}
    assert plan.memory[seat] == "delete"


def test_a_failing_call_is_an_error_span_and_still_raises(tmp_path: Path) -> None:
    from opentelemetry.trace import StatusCode

    tracer, exporter = _tracer()
    raw = make_memory(tmp_path)
    missing = "00000000-0000-0000-0000-000000000000"
    try:
        memory = traced_memory(raw, tracer=tracer)
        with pytest.raises(Exception) as raised:
            memory.update(missing, "Lin prefers window seats.")
    finally:
        _close(raw)
    (span,) = exporter.get_finished_spans()
    assert span.name == "update_memory"
    assert span.status.status_code == StatusCode.ERROR
    assert span.attributes["error.type"] == type(raised.value).__qualname__
    assert span.attributes["gen_ai.memory.record.id"] == missing
