"""Traces made by real agent frameworks and their own instrumentors
(scripts/framework_run.py: each framework in its own venv, against the scripted
OpenAI-compatible server of scripts/story_model.py on 127.0.0.1) import with the user's
turn, the answer, the memory the agent recalled and the memory it saved; the poisoned
recalled note is a fault, and planning for the store quarantines the memory derived from
it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repair_core import plan_case
from repair_core.importers import import_trace

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_imports" / "frameworks"
sys.path.insert(0, str(ROOT / "scripts"))

from story_model import ANSWER, LEARNED, POISONED, QUESTION  # noqa: E402

NESTED = "nested span of the same call (part of the outer one)"
"""How an import counts a span merged into the span of the same call around it."""


def check_story(path: Path, *, poisoned: str | None = "mem-seat", derived: str = "mem-habit",
                **kwargs) -> None:
    """The story's turn, answer, read and derived write, and the store plan. `poisoned`
    None: the poisoned note's id is the one the trace gave its text (a store's own id)."""
    if poisoned is None:
        first = import_trace([path], **kwargs).case
        poisoned = next(r.id for r in first.memory if r.text == POISONED)
    case = import_trace([path], faults=[poisoned], **kwargs).case
    assert [t.text for t in case.session] == [QUESTION]
    assert case.final_answer().text == ANSWER
    records = {r.id: r for r in case.memory}
    assert records[poisoned].text == POISONED
    reads = [s for s in case.steps_in_order() if s.type == "memory_read"]
    assert reads and poisoned in reads[0].returned
    writes = [s for s in case.steps_in_order() if s.type == "memory_write"]
    assert [w.target for w in writes] == [[derived]]
    assert records[derived].text == LEARNED
    assert any(d.id == writes[0].id and d.label == "produce" for d in records[derived].deps)
    plan = plan_case(case, objective="store")
    assert plan.memory[poisoned] == "delete"
    assert plan.memory[derived] == "quarantine"
    assert all(action == "keep" for rid, action in plan.memory.items()
               if rid not in (poisoned, derived))


def test_openai_agents_sdk():
    """OpenAI Agents SDK 0.24 + openinference-instrumentation-openai-agents 2.6: the root
    AGENT span has no input (the turn is the LLM span's first user message); the memory
    tools are TOOL spans without call ids, read by their default names."""
    check_story(SAMPLES / "openai-agents.otlp.json")


@pytest.mark.slow
def test_framework_script_makes_the_openai_agents_trace(tmp_path):
    """Runs scripts/framework_run.py for the OpenAI Agents SDK (a venv from the package
    index) and checks its fresh trace the same way."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "framework_run.py"),
                           str(tmp_path / "out"), "--venvs", str(tmp_path / "venvs"),
                           "--only", "openai-agents"],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    check_story(tmp_path / "out" / "openai-agents.otlp.json")


def test_declared_memory_tools_win_over_the_default_names(tmp_path, capsys):
    from repair_core.cli import main

    path = SAMPLES / "openai-agents.otlp.json"
    case = import_trace([path], memory_tools={"recall_memory": "none",
                                              "save_memory": "none"}).case
    assert not [s for s in case.trajectory if s.type in ("memory_read", "memory_write")]
    assert {s.tool for s in case.trajectory if s.type == "tool_action"} == {
        "recall_memory", "book_seat", "save_memory"}
    config = tmp_path / "dgrr.toml"
    config.write_text('[memory_tools]\nrecall_memory = "none"\n', encoding="utf-8")
    out = tmp_path / "case.json"
    # the config file says recall_memory is no memory tool: mem-seat is then unknown
    assert main(["import", str(path), "--config", str(config), "--faults", "mem-seat",
                 "--out", str(out)]) == 2
    assert "mem-seat" in capsys.readouterr().err and not out.exists()
    # --memory-tool wins over the file
    assert main(["import", str(path), "--config", str(config), "--memory-tool",
                 "recall_memory=read", "--faults", "mem-seat", "--out", str(out)]) == 0
    assert main(["import", str(path), "--memory-tool", "recall_memory=reed",
                 "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "--memory-tool 'recall_memory=reed'" in err and "Traceback" not in err


def _otel_file(tmp_path, build):
    from opentelemetry.exporter.otlp.json.file import FileSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    path = tmp_path / "t.jsonl"
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(FileSpanExporter(path)))
    build(provider.get_tracer("t"))
    provider.shutdown()
    return path


def test_a_tool_span_without_its_result_is_incomplete_not_null(tmp_path):
    pytest.importorskip("opentelemetry.exporter.otlp.json.file")

    def build(tracer):
        with tracer.start_as_current_span("agent", attributes={
                "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "travel-agent"}):
            with tracer.start_as_current_span("chat", attributes={
                    "gen_ai.operation.name": "chat",
                    "gen_ai.input.messages": '[{"role": "user", "parts": [{"type": "text", '
                                             '"content": "Book my seat."}]}]',
                    "gen_ai.output.messages": '[{"role": "assistant", "parts": [{"type": '
                                              '"tool_call", "id": "c1", "name": "book_seat", '
                                              '"arguments": {"seat": "31A"}}]}]'}):
                pass
            with tracer.start_as_current_span("execute_tool book_seat", attributes={
                    "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "book_seat",
                    "gen_ai.tool.call.id": "c1"}):
                pass
            with tracer.start_as_current_span("chat", attributes={
                    "gen_ai.operation.name": "chat",
                    "gen_ai.output.messages": '[{"role": "assistant", "parts": [{"type": '
                                              '"text", "content": "Booked."}]}]'}):
                pass

    imported = import_trace([_otel_file(tmp_path, build)])
    case, summary = imported.case, imported.summary
    # the turn is the model's user message, never the agent's name
    assert [t.text for t in case.session] == ["Book my seat."]
    obs = [s for s in case.trajectory if s.type == "tool_observation"]
    assert [(s.text, s.output) for s in obs] == [("", None)]
    assert summary.incomplete == {
        "tool span without the tool's arguments and result (gen_ai.tool.call.arguments, "
        "gen_ai.tool.call.result)": 1}
    assert "incomplete: 1 tool span without the tool's arguments and result" in \
        summary.describe()


def test_a_write_of_several_entries_is_one_write_per_entry(tmp_path):
    """`add_memory(entries=[a, b])` (Strands' memory manager's tool) writes two records:
    each entry is its own memory write, so a fault in one quarantines that one only."""
    pytest.importorskip("opentelemetry.exporter.otlp.json.file")
    entries = ["Lin books window seats on long-haul flights.", "Lin flies out of SFO."]
    args = json.dumps({"entries": entries})

    def build(tracer):
        with tracer.start_as_current_span("agent", attributes={
                "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "a"}):
            with tracer.start_as_current_span("chat", attributes={
                    "gen_ai.operation.name": "chat",
                    "gen_ai.input.messages": '[{"role": "user", "parts": [{"type": "text", '
                                             '"content": "Remember my habits."}]}]',
                    "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
                        {"type": "tool_call", "id": "c1", "name": "add_memory",
                         "arguments": {"entries": entries}}]}])}):
                pass
            with tracer.start_as_current_span("execute_tool add_memory", attributes={
                    "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "add_memory",
                    "gen_ai.tool.call.id": "c1", "gen_ai.tool.call.arguments": args,
                    "gen_ai.tool.call.result": '{"stored": 2}'}):
                pass
            with tracer.start_as_current_span("chat", attributes={
                    "gen_ai.operation.name": "chat",
                    "gen_ai.output.messages": '[{"role": "assistant", "parts": [{"type": '
                                              '"text", "content": "Noted."}]}]'}):
                pass

    from repair_core.importers._semconv import content_id

    case = import_trace([_otel_file(tmp_path, build)]).case
    writes = [s for s in case.steps_in_order() if s.type == "memory_write"]
    assert [w.target for w in writes] == [[content_id(e)] for e in entries]
    assert {r.text for r in case.memory} == set(entries)
    assert writes[1].id == writes[0].id + "-entry2"


def test_a_refused_trace_says_what_was_read(tmp_path):
    pytest.importorskip("opentelemetry.exporter.otlp.json.file")
    from repair_core._errors import CaseError

    def build(tracer):
        with tracer.start_as_current_span("http"), tracer.start_as_current_span(
                "chat", attributes={
                    "gen_ai.operation.name": "chat",
                    "gen_ai.output.messages": '[{"role": "assistant", "parts": [{"type": '
                                              '"tool_call", "id": "c1", "name": "book_seat", '
                                              '"arguments": {}}]}]'}):
            pass

    with pytest.raises(CaseError) as err:
        import_trace([_otel_file(tmp_path, build)])
    problems = err.value.problems
    assert any("no answer step" in p for p in problems)
    assert problems[-1] == "read: 1 chat span, 1 application span parenting GenAI spans (the turn)"


def test_openai_client_with_opentelemetry_genai_instrumentation():
    """openai + opentelemetry-instrumentation-openai-v2 2.4b0 (latest experimental GenAI
    conventions, content on spans): no agent and no tool span; the application's plain
    span is the turn, its text the first user message of `gen_ai.input.messages`, and
    each tool's result is a `tool_call_response` part of the next call's input, matched to
    its plan by call id."""
    path = SAMPLES / "openai-v2.otlp.json"
    check_story(path)
    imported = import_trace([path])
    assert imported.summary.skipped == {} and imported.summary.incomplete == {}
    actions = [s for s in imported.case.trajectory if s.type == "tool_action"]
    assert [(s.id, s.tool, s.args) for s in actions] == [
        ("call-call_book-action", "book_seat", {"flight": "JL1", "seat": "31A"})]
    plans = {s.tool: s.id for s in imported.case.trajectory if s.type == "plan"}
    assert [(d.id, d.inferred_by) for d in actions[0].deps] == [(plans["book_seat"],
                                                                  "call-id")]


def test_openai_client_without_content_is_incomplete_never_invented():
    """The same run with the instrumentor's default (no message content): the import
    keeps the shape, counts what is missing under `incomplete:`, and carries no text it
    did not read."""
    imported = import_trace([SAMPLES / "openai-v2-no-content.otlp.json"])
    case, summary = imported.case, imported.summary
    assert [t.text for t in case.session] == [""]
    assert {s.text for s in case.trajectory} == {""}
    assert case.memory == [] and case.final_answer().text == ""
    assert summary.incomplete == {
        "agent span without the user's message (an agent or application span's input, or "
        "a user message in its model calls)": 1,
        "chat span without the model's output (gen_ai.output.messages, "
        "gen_ai.completion.N.content, llm.output_messages.N.message.content or a "
        "gen_ai.content.completion event)": 4}


def test_smolagents():
    """smolagents 1.26 ToolCallingAgent + openinference-instrumentation-smolagents 0.1.43:
    the turn from the AGENT span's `{"task": ...}` input, TOOL spans whose input is the
    Python call (`{"args", "kwargs"}`), and the answer given through the `final_answer`
    tool."""
    check_story(SAMPLES / "smolagents.otlp.json")
    case = import_trace([SAMPLES / "smolagents.otlp.json"]).case
    answer = case.final_answer()
    assert answer.type == "answer" and answer.text == ANSWER
    assert [s.tool for s in case.trajectory if s.type == "tool_action"] == ["book_seat"]


def test_llamaindex():
    """LlamaIndex 0.14 (`condense_plus_context` chat engine over a `VectorStoreIndex`) +
    openinference-instrumentation-llama-index 4.6: the index build, the turn and the
    application's `index.insert` are traces of one session. The turn's text is the root
    CHAIN's `{"message": ...}`; the nested RETRIEVER and LLM spans are one read and one
    model step; retrieved node ids become the documents' ids (the build's node parser
    names both); the build is no turn, and the insert after the turn is a memory write of
    the new document."""
    path = SAMPLES / "llamaindex.otlp.json"
    check_story(path)
    imported = import_trace([path])
    assert [s.type for s in imported.case.steps_in_order()] == [
        "memory_read", "answer", "memory_write"]
    assert imported.summary.skipped[NESTED] == 2
    assert imported.summary.skipped[
        "agent span without a user message or steps (not a turn)"] == 2


def test_smolagents_code_agent_tool_call_depends_on_the_code_that_made_it():
    """smolagents' CodeAgent: the model writes Python that calls the tools, so no plan
    names the call. The booking is produced by the model call whose code called
    `book_seat(` (`code-call`), so the poisoned note reaches it and the plan flags the
    irreversible booking instead of keeping it as the turn's own act."""
    path = SAMPLES / "smolagents-code.otlp.json"
    check_story(path)
    case = import_trace([path], faults=["mem-seat"]).case
    action = next(s for s in case.trajectory if s.type == "tool_action")
    assert action.tool == "book_seat"
    [dep] = action.deps
    writer = next(s for s in case.trajectory if s.id == dep.id)
    assert (dep.label, dep.inferred_by) == ("produce", "code-call")
    assert "book_seat(" in writer.text
    plan = plan_case(case, objective="both")
    assert plan.steps[action.id] == "replay"
    assert "irreversible" in plan.reasons[action.id]


def test_crewai_alone_imports_and_says_it_has_no_model_call():
    """CrewAI 1.15 traced by OpenInference's CrewAI instrumentor alone: the crew's kickoff
    (a root CHAIN without `input.value`) is the turn, its text the task's description
    (`crew_tasks`), its answer the crew output's `raw`; the tools are TOOL spans. No span
    records a model call, so what the calls depended on is not in the trace: the import
    says so rather than guessing, and the booking and the saved memory stay the turn's."""
    path = SAMPLES / "crewai.otlp.json"
    imported = import_trace([path], faults=["mem-seat"])
    case = imported.case
    assert [t.text for t in case.session] == [QUESTION]
    assert case.final_answer().text == ANSWER
    reads = [s for s in case.trajectory if s.type == "memory_read"]
    assert reads and "mem-seat" in reads[0].returned
    assert [s.type for s in case.steps_in_order()].count("claim") == 0
    [(why, n)] = imported.summary.incomplete.items()
    assert n == 1 and "no model call" in why and "trace the model client too" in why
    plan = plan_case(case, objective="both")
    assert plan.memory["mem-seat"] == "delete"
    assert plan.steps[case.final_answer().id] == "replay"


def test_semantic_kernel_with_its_logs():
    """Semantic Kernel 1.45's ChatCompletionAgent with a `LinPlugin`, traced by its own
    GenAI diagnostics (sensitive data on): the tool spans carry arguments and results, but
    the chat messages are OTel log records, not span content. With the run's OTLP logs
    (`--logs`) each record becomes an event of its span and the case is the story's; the
    plugin's prefixed `LinPlugin-recall_memory` is a memory read by default, as
    `LinPlugin-save_memory` is a write."""
    logs = [SAMPLES / "semantic-kernel.logs.json"]
    check_story(SAMPLES / "semantic-kernel.otlp.json", logs=logs)
    imported = import_trace([SAMPLES / "semantic-kernel.otlp.json"], logs=logs)
    assert not imported.summary.incomplete
    assert "semantic-kernel.logs.json (OTLP JSON logs)" in imported.summary.sources


def test_semantic_kernel_without_its_logs_says_what_is_missing(tmp_path, capsys):
    from repair_core.cli import main

    imported = import_trace([SAMPLES / "semantic-kernel.otlp.json"], faults=["mem-seat"])
    assert imported.summary.incomplete == {
        "agent span without the user's message (gen_ai.input.messages or a "
        "gen_ai.content.prompt event)": 1,
        "chat span without the model's output (gen_ai.output.messages, "
        "gen_ai.completion.N.content, llm.output_messages.N.message.content or a "
        "gen_ai.content.completion event)": 4}
    # a trace given as --logs is refused by name, nothing written
    out = tmp_path / "case.json"
    assert main(["import", str(SAMPLES / "semantic-kernel.otlp.json"), "--logs",
                 str(SAMPLES / "semantic-kernel.otlp.json"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--logs: not OTLP JSON logs" in err and "Traceback" not in err
    assert not out.exists()


def test_log_records_need_an_event_name_and_a_span(tmp_path):
    """A log record becomes an event only of the span it names, and only when it has an
    `event.name`; a bad span id is named with its place in the file."""
    from repair_core._errors import CaseError
    from repair_core.importers._otlp_logs import parse_otlp_logs

    def doc(*records):
        return json.dumps({"resourceLogs": [{"scopeLogs": [{"logRecords": list(records)}]}]})

    name = {"key": "event.name", "value": {"stringValue": "gen_ai.user.message"}}
    events = parse_otlp_logs(doc(
        {"spanId": "00000000000000aa", "attributes": [name],
         "body": {"stringValue": '{"role": "user", "content": "Hi"}'}},
        {"spanId": "00000000000000aa", "body": {"stringValue": "usage: 12 tokens"}},
        {"attributes": [name], "body": {"stringValue": "no span"}}).encode())
    assert list(events) == ["00000000000000aa"]
    [event] = events["00000000000000aa"]
    assert event.name == "gen_ai.user.message" and "Hi" in event.attributes["content"]
    with pytest.raises(CaseError) as bad:
        parse_otlp_logs(doc({"spanId": "zz", "attributes": [name]}).encode(), "x.json")
    assert "resourceLogs[0].scopeLogs[0].logRecords[0].spanId" in str(bad.value)


def test_langmem_over_a_langgraph_store_applied_back(tmp_path, capsys):
    """LangChain's `create_agent` with langmem's tools over a LangGraph `SqliteStore`, two
    turns of one session. `manage_memory` answers "created memory <uuid>" (a bare key); the
    second turn's `search_memory` returns the same item as `memories/lin/<uuid>`: one item,
    one record. After repair, approval and `dgrr apply --to langgraph` on a copy of the
    store the agent wrote, the agent's own search returns neither the poisoned note nor
    the memory derived from it, and keeps the rest."""
    import shutil
    import textwrap

    from langgraph.store.sqlite import SqliteStore

    from repair_core.cli import main

    poisoned = "memories/lin/mem-seat"
    path = SAMPLES / "langmem.otlp.json"
    case = import_trace([path], faults=[poisoned]).case
    derived = [r for r in case.memory if r.text == LEARNED]
    assert len(derived) == 1 and derived[0].id.startswith("memories/lin/")
    plan = plan_case(case, objective="store")
    assert plan.memory[poisoned] == "delete" and plan.memory[derived[0].id] == "quarantine"

    shutil.copy(SAMPLES / "langmem" / "store.db", tmp_path / "store.db")
    (tmp_path / "agent_store.py").write_text(textwrap.dedent(f"""
        import sqlite3
        from langgraph.store.sqlite import SqliteStore

        def store():
            conn = sqlite3.connect({str(tmp_path / "store.db")!r}, check_same_thread=False,
                                   isolation_level=None)
            return SqliteStore(conn)
    """))
    case_file, result = tmp_path / "case.json", tmp_path / "result.json"
    assert main(["import", str(path), "--faults", poisoned, "--out", str(case_file)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case_file), "--objective", "store", "--json"]) in (0, 1)
    result.write_text(capsys.readouterr().out)
    db = str(tmp_path / "approvals.db")
    sys.path.insert(0, str(tmp_path))
    try:
        assert main(["approve", str(case_file), "--reviewer", "ana", "--decision", "approve",
                     "--result", str(result), "--db", db]) == 0
        assert main(["apply", str(result), "--case", str(case_file), "--to", "langgraph",
                     "--store", "agent_store:store", "--db", db, "--journal",
                     str(tmp_path / "journal"), "--apply", "--reviewer", "ops"]) == 0, \
            capsys.readouterr().err
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("agent_store", None)
    with SqliteStore.from_conn_string(str(tmp_path / "store.db")) as store:
        seen = {item.value["content"] for item in
                store.search(("memories", "lin"), query="seats", limit=50)}
    assert POISONED not in seen and LEARNED not in seen
    assert "Lin's home airport is SFO." in seen


def test_a_bare_key_takes_the_one_namespace_read_or_stays():
    """Without a read of the item itself, a bare key written by a memory tool takes the
    namespace when every namespaced item read is in one; with two namespaces it stays as
    it is (dgrr apply then names it as missing rather than guess)."""
    from repair_core.importers._memtools import one_id_per_item
    from repair_core.importers._otlp import Span
    from repair_core.importers._semconv import Operation, Retrieved

    span = Span("t" * 32, "s" * 16, None, "x", 0, 0, False, {})
    read = Operation(span, "memory_search", "openinference",
                     records=(Retrieved("memories/lin/mem-seat", "Lin prefers window seats."),))
    write = Operation(span, "memory_write", "openinference", tool="manage_memory",
                      record_id="k1", records=(Retrieved("k1", LEARNED),), write_op="add")
    assert one_id_per_item([read, write])[1].record_id == "memories/lin/k1"
    other = Operation(span, "memory_search", "openinference",
                      records=(Retrieved("notes/bob/n1", "Bob's note."),))
    assert one_id_per_item([read, other, write])[2].record_id == "k1"
    mem0 = Operation(span, "memory_write", "gen_ai", record_id="k1",
                     records=(Retrieved("k1", LEARNED),), write_op="add")
    assert one_id_per_item([read, mem0])[1].record_id == "k1"  # not a memory tool's


def test_autogen_memory_in_the_prompt_and_nested_tool_spans(tmp_path, capsys):
    """AutoGen AgentChat 0.7.5's AssistantAgent with a `ListMemory`, traced by
    OpenInference's AutoGen instrumentor beside AutoGen's own spans. The notes reach the
    model only inside a developer message ("Relevant memory content (in chronological
    order): 1. …"): each model call reads them as records named by their texts' content
    ids, so the poisoned note can be named and its harm followed. AutoGen's own
    `execute_tool` span inside OpenInference's TOOL span of the same tool is one call."""
    from repair_core.cli import main
    from repair_core.importers._semconv import content_id

    path = SAMPLES / "autogen.otlp.json"
    check_story(path, poisoned=None)
    poisoned = content_id(POISONED)
    case = import_trace([path], faults=[poisoned]).case
    reads = [s for s in case.steps_in_order() if s.type == "memory_read"]
    assert len(reads) == 3 and all(poisoned in r.returned for r in reads)
    assert [s.tool for s in case.trajectory if s.type == "tool_action"] == ["book_seat"]
    assert main(["import", str(path), "--faults", "mem-seat", "--out",
                 str(tmp_path / "case.json")]) == 2
    err = capsys.readouterr().err
    assert f"record ids in the trace: {poisoned}" in err


def test_agno_memories_in_the_system_message():
    """Agno 3.1's Agent with `add_memories_to_context`: Lin's memories are in its system
    message between `<memories_from_previous_interactions>` and its closing tag, known
    without a declaration; each model call reads them as records."""
    from repair_core.importers._semconv import content_id

    path = SAMPLES / "agno.otlp.json"
    check_story(path, poisoned=None)
    case = import_trace([path]).case
    assert {r.text for r in case.memory} >= {POISONED, "Lin's home airport is SFO."}
    assert "</memories_from_previous_interactions>" not in {r.text for r in case.memory}
    assert any(content_id(POISONED) in s.returned for s in case.trajectory
               if s.type == "memory_read")


def test_memory_lines_under_a_declared_header():
    from repair_core.importers._prompt_memory import KNOWN_HEADERS, memory_lines

    text = "Be brief.\n## What you know about the user\n- Lin prefers window seats.\n" \
           "* Lin flies from SFO.\n\nRelevant memory content (in chronological order):"
    assert memory_lines(text, KNOWN_HEADERS) == []
    assert memory_lines(text, ["## what you know about the user"]) == [
        "Lin prefers window seats.", "Lin flies from SFO."]
    # a header must be the whole line: a sentence that merely holds it is no block
    assert memory_lines("Note: ## What you know about the user\n- x", [
        "## What you know about the user"]) == []


def test_code_call_needs_the_tool_name_as_a_call():
    from repair_core.importers._infer import _code_caller, _Turn

    turn = _Turn()
    for text in ("rebook_seat(flight='JL1')", "I will book_seat later", "x = 1"):
        turn.models.append(({"id": text, "text": text}, frozenset()))
    assert _code_caller(turn, "book_seat") is None
    turn.models.append(({"id": "w", "text": "r = tools.book_seat (flight='JL1')"}, frozenset()))
    assert _code_caller(turn, "book_seat")["id"] == "w"


@pytest.mark.parametrize("name", ["strands", "strands-legacy", "strands-attributes"])
def test_strands_agents_in_each_telemetry_mode(name):
    """Strands Agents 1.62 traced by its own tracer: the latest GenAI conventions (the
    messages in `gen_ai.client.inference.operation.details` events), its default (the
    per-message `gen_ai.user.message` / `gen_ai.tool.message` / `gen_ai.choice` events
    with Bedrock-style content blocks, tool calls as `toolUse` blocks), and the latest
    conventions as span attributes. The event-loop cycles are containers, not steps."""
    path = SAMPLES / f"{name}.otlp.json"
    check_story(path)
    imported = import_trace([path], faults=["mem-seat"])
    assert imported.summary.skipped == {
        "Strands event-loop cycle (its chat and tool spans are read)": 4}
    assert not imported.summary.incomplete
    # the recalled records come through the tool's result blocks, not as one text block
    case = imported.case
    assert {r.id for r in case.memory} == {"mem-seat", "mem-airport", "mem-habit"}


def test_strands_memory_manager():
    """Strands' MemoryManager (`search_memory` / `add_memory(entries=[...])` over its
    TestMemoryStore): each tool's span holds the store's own `memory.search` /
    `memory.add` span, and each pair is one read (one write). The entries' ids are in
    their metadata; the written entry has no id in the trace (the store makes a uuid it
    never reports), so its record is the text's content id."""
    from repair_core.importers._semconv import content_id

    path = SAMPLES / "strands-memory.otlp.json"
    check_story(path, derived=content_id(LEARNED))
    imported = import_trace([path], faults=["mem-seat"])
    assert imported.summary.skipped[NESTED] == 2
    assert sum(1 for s in imported.case.trajectory if s.type == "memory_read") == 1


def test_google_adk():
    """Google ADK 2.13 native tracing (GenAI conventions, content on spans) with ADK's own
    `load_memory` over an `InMemoryMemoryService`: the turn from the first
    `generate_content` span (the `invoke_workflow` span has no input, and its name is
    never the turn); `load_memory`'s `{"result": {"memories": [...]}}` entries are
    records by their memory ids."""
    check_story(SAMPLES / "adk.otlp.json", poisoned=None)


def test_google_adk_with_content_in_events_only_is_incomplete():
    """ADK with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=EVENT_ONLY: the spans
    hold no message, argument or result. The memory tools stay tools (a read without its
    result names no record), every gap is counted, and no text is made up."""
    imported = import_trace([SAMPLES / "adk-event-only.otlp.json"])
    case, summary = imported.case, imported.summary
    assert case.memory == []
    assert [t.text for t in case.session] == [""]
    actions = [s for s in case.trajectory if s.type == "tool_action"]
    assert [s.text for s in actions] == [f"{t}(arguments not recorded)" for t in (
        "load_memory", "book_seat", "save_memory")]
    assert {s.text for s in case.trajectory if s.type != "tool_action"} == {""}
    assert summary.incomplete["tool span without the tool's arguments and result "
                              "(gen_ai.tool.call.arguments, gen_ai.tool.call.result)"] == 3
    assert summary.incomplete["chat span without the model's output (gen_ai.output.messages, "
                              "gen_ai.completion.N.content, llm.output_messages.N.message"
                              ".content or a gen_ai.content.completion event)"] == 4


@pytest.mark.parametrize("name", ["vercel-ai", "vercel-ai-stream"])
def test_vercel_ai_sdk(name):
    """The Vercel AI SDK (`ai` 6.0.333 on node, its own OpenTelemetry spans): `ai.
    generateText` (`ai.streamText`) is the turn (`ai.prompt`), `doGenerate` (`doStream`)
    the model calls (`ai.response.text`, `ai.response.toolCalls`), `ai.toolCall` the tool
    calls; the session and user from `ai.telemetry.metadata.*` stitch in the `ai.embed`
    trace, which is no step."""
    check_story(SAMPLES / f"{name}.otlp.json")
    imported = import_trace([SAMPLES / f"{name}.otlp.json"])
    assert imported.case.user_id == "lin" and imported.summary.session == "lin-trip"
    assert imported.summary.skipped == {"Vercel AI SDK embed span (no agent step)": 2}


def _mem0_ids(case) -> dict[str, str]:
    return {r.text: r.id for r in case.memory}


def test_openai_agents_sdk_with_a_mem0_store():
    """The same agent with a real Mem0 store (mem0ai 0.1.116) behind its memory tools
    (`search`, `add(infer=False)`), imported with the Mem0 history as the store: the
    records are Mem0's memory ids, and the Mem0 ADD of the saved text is the traced
    write's record (its producer), so planning for the store quarantines it."""
    path = SAMPLES / "openai-agents-mem0.otlp.json"
    db = SAMPLES / "openai-agents-mem0" / "history.db"
    ids = _mem0_ids(import_trace([], store=db, user="lin").case)
    assert set(ids) == {POISONED, LEARNED, "Lin's home airport is SFO."}
    case = import_trace([path], store=db, user="lin", faults=[ids[POISONED]]).case
    writes = [s for s in case.trajectory if s.type == "memory_write"]
    assert [w.target for w in writes] == [[ids[LEARNED]]]
    learned = next(r for r in case.memory if r.id == ids[LEARNED])
    assert [(d.id, d.label) for d in learned.deps] == [(writes[0].id, "produce")]
    plan = plan_case(case, objective="store")
    assert plan.memory == {ids[POISONED]: "delete", ids[LEARNED]: "quarantine",
                           ids["Lin's home airport is SFO."]: "keep"}


def test_a_mem0_add_matching_a_traced_write_is_that_writes_record():
    """A write tool whose output names an id of its own (`mem-habit`), imported with a
    Mem0 history holding an ADD of the same text: the Mem0 memory is what the write
    produced, and no second record is made."""
    db = SAMPLES / "openai-agents-mem0" / "history.db"
    ids = _mem0_ids(import_trace([], store=db, user="lin").case)
    case = import_trace([SAMPLES / "openai-agents.otlp.json"], store=db, user="lin").case
    writes = [s for s in case.trajectory if s.type == "memory_write"]
    assert [w.target for w in writes] == [[ids[LEARNED]]]
    assert "mem-habit" not in {r.id for r in case.memory}


@pytest.mark.slow
def test_openai_agents_sdk_mem0_repair_applied_back_to_mem0(tmp_path, capsys):
    """The Mem0-backed run end to end: import with the Mem0 history, repair, approve and
    `dgrr apply --to mem0` on a copy of the store the agent wrote (Qdrant's files and the
    history, as the run left them); then the agent's own `search` and `get_all` return
    neither the poisoned note nor the memory derived from it."""
    import os
    import shutil
    import tempfile
    import textwrap

    os.environ["MEM0_TELEMETRY"] = "False"  # before mem0 is imported
    os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))  # not ~/.mem0
    pytest.importorskip("mem0", reason="needs mem0ai")
    from repair_core.cli import main

    folder = tmp_path / "mem0"
    shutil.copytree(SAMPLES / "openai-agents-mem0", folder)
    ids = _mem0_ids(import_trace([], store=folder / "history.db", user="lin").case)
    case, result = tmp_path / "case.json", tmp_path / "result.json"
    assert main(["import", str(SAMPLES / "openai-agents-mem0.otlp.json"), "--store",
                 str(folder / "history.db"), "--user", "lin", "--faults", ids[POISONED],
                 "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--objective", "store", "--json"]) in (0, 1)
    result.write_text(capsys.readouterr().out)
    (tmp_path / "agent_mem0.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT / "scripts")!r})
        from mem0_travel_store import make_memory

        def memory():
            return make_memory({str(folder)!r})
    """))
    db = str(tmp_path / "approvals.db")
    sys.path.insert(0, str(tmp_path))
    try:
        assert main(["approve", str(case), "--reviewer", "ana", "--decision", "approve",
                     "--result", str(result), "--db", db]) == 0
        assert main(["apply", str(result), "--case", str(case), "--to", "mem0", "--store",
                     "agent_mem0:memory", "--db", db, "--journal", str(tmp_path / "journal"),
                     "--apply", "--reviewer", "ops"]) == 0
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("agent_mem0", None)
    sys.path.insert(0, str(ROOT / "scripts"))
    from mem0_travel_store import make_memory

    memory = make_memory(folder)
    try:
        seen = {m["memory"] for m in memory.get_all(user_id="lin")["results"]}
        seen |= {m["memory"] for m in memory.search("window seats", user_id="lin")["results"]}
    finally:
        memory.vector_store.client.close()
    assert POISONED not in seen and LEARNED not in seen
    assert "Lin's home airport is SFO." in seen


def test_memory_tool_results_and_writes_in_the_shapes_frameworks_return():
    """Read results as Mem0, ADK, LangGraph and plain tools return them; write outputs
    that name the memory (Mem0's add, langmem's text) or do not (a content id)."""
    from repair_core.importers import content_id, memory_tool_kind
    from repair_core.importers._memtools import _records, _written_id

    assert [memory_tool_kind(n) for n in ("recall_notes", "load_memory", "save_user_memory",
                                          "remember", "manage_memory", "book_seat")] == [
        "read", "read", "write", "write", "write", None]
    assert memory_tool_kind("remember", {"remember": "none"}) is None
    assert memory_tool_kind("book_seat", {"book_seat": "write"}) == "write"
    shapes = {
        "mem0": {"results": [{"id": "u1", "memory": "Lin prefers window seats.", "score": 0.9}]},
        "adk": '{"result": {"memories": [{"id": "e1", "content": {"parts": [{"text": '
               '"Lin prefers window seats."}]}, "author": "user"}]}}',
        "langgraph": [{"namespace": ["lin", "prefs"], "key": "seat",
                       "value": {"content": "Lin prefers window seats."}}],
        "plain": ["Lin prefers window seats."],
    }
    got = {k: [(r.id, r.content) for r in _records(v)[0]] for k, v in shapes.items()}
    assert got == {"mem0": [("u1", "Lin prefers window seats.")],
                   "adk": [("e1", "Lin prefers window seats.")],
                   "langgraph": [("lin/prefs/seat", "Lin prefers window seats.")],
                   "plain": [(content_id("Lin prefers window seats."),
                              "Lin prefers window seats.")]}
    assert _records([{"score": 1}])[1] == 1  # neither id nor text: skipped and counted
    assert _written_id({"results": [{"id": "u2", "event": "ADD"}]}, {}) == "u2"
    assert _written_id("created memory 7f3a-11", {}) == "7f3a-11"
    assert _written_id("ok", {"text": "x"}) is None


def test_an_agent_span_output_is_the_answer_when_no_model_call_gave_one(tmp_path):
    pytest.importorskip("opentelemetry.exporter.otlp.json.file")

    def build(tracer):
        agent = {"openinference.span.kind": "AGENT", "input.value": '{"query": "Which seat?"}',
                 "output.value": "Seat 31A."}
        llm = {"openinference.span.kind": "LLM",
               "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "book_seat"}
        with tracer.start_as_current_span("agent", attributes=agent), \
                tracer.start_as_current_span("llm", attributes=llm):
            pass

    case = import_trace([_otel_file(tmp_path, build)]).case
    assert [t.text for t in case.session] == ["Which seat?"]
    assert [(s.type, s.text) for s in case.steps_in_order()] == [
        ("plan", "call book_seat({})"), ("answer", "Seat 31A.")]


def test_call_ids_from_messages_make_distinct_plain_step_ids():
    from repair_core.importers._implied import _step_part

    assert _step_part("call_book") == "call_book"
    odd = [_step_part(c) for c in ("a b", "a/b", "a\nb", "x" * 500)]
    assert len(set(odd)) == 4
    assert all(len(p) <= 61 and p.isprintable() and " " not in p and "/" not in p
               for p in odd)
