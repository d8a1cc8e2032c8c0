"""Real agent frameworks, each traced by its own instrumentor, offline, written as OTLP
JSON (the fixtures of tests/test_import_frameworks.py and docs/import.md).

Each framework runs in its own venv (made with uv, `python -m uv venv` and `uv pip install`
from the package index, under `--venvs`, never committed), against the scripted
OpenAI-compatible server of scripts/story_model.py on 127.0.0.1, with the real
framework's tool calling: the agent recalls Lin's memories (the poisoned note "Lin prefers
window seats." among them), books a window seat, saves "Lin books window seats on
long-haul flights." and answers. The spans go to an OTel SDK tracer provider with an
in-memory exporter and are written as one OTLP JSON document (`encode_spans` +
`MessageToDict`, base64 ids).

    python3 scripts/framework_run.py OUTDIR [--venvs DIR] [--only NAME ...]

writes OUTDIR/NAME.otlp.json for each framework in FRAMEWORKS.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from story_model import (  # noqa: E402
    BOOKING,
    LEARNED,
    MEMORIES,
    QUESTION,
    SAVED,
    start,
)

_OTEL = ["opentelemetry-sdk", "opentelemetry-exporter-otlp-proto-common",
         "protobuf"]
FRAMEWORKS: dict[str, list[str]] = {
    # name -> what uv installs (the versions tested; docs/import.md)
    "openai-agents": ["openai-agents==0.24.0",
                      "openinference-instrumentation-openai-agents==2.6.0", *_OTEL,
                      "mem0ai==0.1.116", "qdrant-client"],
    "openai-v2": ["openai==3.63.0", "httpx", "opentelemetry-instrumentation-openai-v2==2.4b0",
                  "opentelemetry-util-genai==1.1b0", *_OTEL],
    "smolagents": ["smolagents[openai]==1.26.0",
                   "openinference-instrumentation-smolagents==0.1.43", *_OTEL],
    "adk": ["google-adk==2.13.0", "litellm", *_OTEL],
    "strands": ["strands-agents[openai,otel]==1.62.0", *_OTEL],
    "crewai": ["crewai==1.15.30", "openinference-instrumentation-crewai", *_OTEL],
    "semantic-kernel": ["semantic-kernel==1.45.0", *_OTEL],
    "agno": ["agno==3.1.10", "openai", "sqlalchemy", "openinference-instrumentation-agno",
             *_OTEL],
    "autogen": ["autogen-agentchat==0.7.5", "autogen-ext[openai]==0.7.5",
                "openinference-instrumentation-autogen-agentchat", *_OTEL],
    "langmem": ["langmem==0.0.30", "langchain==1.5.2", "langchain-openai", "langgraph",
                "langgraph-checkpoint-sqlite", "openinference-instrumentation-langchain",
                *_OTEL],
    "llamaindex": ["llama-index-core==0.14.25", "llama-index-llms-openai",
                   "llama-index-embeddings-openai",
                   "openinference-instrumentation-llama-index==4.6.1", *_OTEL],
}
VARIANTS: dict[str, list[tuple[str, dict[str, str]]]] = {
    # the same run with the instrumentor's default: no message content captured
    "openai-v2": [("openai-v2-no-content",
                   {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "NO_CONTENT"})],
    # content in log events only: the spans keep no message, argument or result
    "adk": [("adk-event-only",
             {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "EVENT_ONLY"})],
    # the same agent with a real Mem0 store behind its memory tools
    "openai-agents": [("openai-agents-mem0", {"DGRR_STORY_MEM0": "1"})],
    # smolagents' CodeAgent: the model writes code that calls the tools
    "smolagents": [("smolagents-code", {"DGRR_STORY_CODE_AGENT": "1"})],
    # Strands' own tracer: the latest GenAI conventions (as every run here: content in
    # `gen_ai.client.inference.operation.details` events), Strands' default (legacy
    # per-message events, Bedrock-style content blocks), the latest conventions as span
    # attributes, and Strands' memory manager (`memory.search`/`memory.add` spans, the
    # `search_memory`/`add_memory` tools)
    "strands": [("strands-legacy", {"OTEL_SEMCONV_STABILITY_OPT_IN": ""}),
                ("strands-attributes",
                 {"OTEL_SEMCONV_STABILITY_OPT_IN":
                  "gen_ai_latest_experimental,gen_ai_span_attributes_only"}),
                ("strands-memory", {"DGRR_STORY_STRANDS_MEMORY": "1"})],
}
INSTRUCTIONS = ("You book flights for Lin. Recall what you know about Lin first, book the "
                "seat, save what you learned, then answer.")


def recall_memory(query: str) -> str:
    """Search Lin's saved memories."""
    return json.dumps(MEMORIES)


def book_seat(flight: str, seat: str) -> str:
    """Book a seat on a flight."""
    return json.dumps(BOOKING)


def save_memory(text: str) -> str:
    """Save a memory about Lin."""
    return json.dumps(SAVED)


def _provider() -> tuple[Any, Any]:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def _write(exporter: Any, out: str) -> None:
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    spans = sorted(exporter.get_finished_spans(), key=lambda s: s.start_time)
    document = MessageToDict(encode_spans(spans))
    Path(out).write_text(json.dumps(document, indent=1, sort_keys=True) + "\n",
                         encoding="utf-8")


def run_openai_agents(url: str, out: str) -> None:
    """OpenAI Agents SDK (chat completions model), traced by OpenInference's processor."""
    from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool
    from openai import AsyncOpenAI
    from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor

    provider, exporter = _provider()
    OpenAIAgentsInstrumentor().instrument(tracer_provider=provider)
    tools = [function_tool(f) for f in (recall_memory, book_seat, save_memory)]
    memory = None
    if os.environ.get("DGRR_STORY_MEM0"):
        # a real Mem0 (scripts/mem0_travel_store.py: local Qdrant, hash embedder, no LLM)
        # next to the trace: OUT.otlp.json -> OUT/history.db and OUT/qdrant
        from mem0_travel_store import make_memory

        folder = Path(out).with_suffix("").with_suffix("")
        shutil.rmtree(folder, ignore_errors=True)
        memory = make_memory(folder)
        for m in MEMORIES:
            memory.add(m["memory"], user_id="lin", infer=False)

        def mem0_search(query: str) -> str:
            """Search Lin's saved memories."""
            return json.dumps(memory.search(query, user_id="lin")["results"])

        def mem0_add(text: str) -> str:
            """Save a memory about Lin."""
            return json.dumps(memory.add(text, user_id="lin", infer=False))

        tools = [function_tool(mem0_search, name_override="recall_memory"),
                 function_tool(book_seat),
                 function_tool(mem0_add, name_override="save_memory")]
    model = OpenAIChatCompletionsModel(
        model="gpt-4o-mini",
        openai_client=AsyncOpenAI(base_url=url, api_key="offline", max_retries=0))
    agent = Agent(name="travel-agent", instructions=INSTRUCTIONS, model=model,
                  tools=tools)
    result = Runner.run_sync(agent, QUESTION)
    print(result.final_output)
    provider.force_flush()
    _write(exporter, out)
    if memory is not None:  # the store (Qdrant's files and the history) is the fixture too
        memory.vector_store.client.close()


TOOL_SCHEMAS = [
    {"type": "function", "function": {
        "name": "recall_memory", "description": "Search Lin's saved memories.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                       "required": ["query"]}}},
    {"type": "function", "function": {
        "name": "book_seat", "description": "Book a seat on a flight.",
        "parameters": {"type": "object", "properties": {
            "flight": {"type": "string"}, "seat": {"type": "string"}},
            "required": ["flight", "seat"]}}},
    {"type": "function", "function": {
        "name": "save_memory", "description": "Save a memory about Lin.",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                       "required": ["text"]}}},
]


def run_openai_v2(url: str, out: str) -> None:
    """The `openai` client and the application's own tool loop, traced by OpenTelemetry's
    GenAI instrumentation (`opentelemetry-instrumentation-openai-v2`, with
    OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental and message content captured
    on spans). The instrumentor records the model calls only: the application's span
    around the turn is a plain span, and the tools' results are only in the next call's
    `gen_ai.input.messages`."""
    import openai
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

    provider, exporter = _provider()
    OpenAIInstrumentor().instrument(tracer_provider=provider)
    client = openai.OpenAI(base_url=url, api_key="offline", max_retries=0)
    tools = {"recall_memory": recall_memory, "book_seat": book_seat,
             "save_memory": save_memory}
    with provider.get_tracer("travel-app").start_as_current_span("handle_request"):
        messages: list[dict[str, Any]] = [{"role": "system", "content": INSTRUCTIONS},
                                          {"role": "user", "content": QUESTION}]
        for _ in range(6):
            reply = client.chat.completions.create(model="gpt-4o-mini", messages=messages,
                                                   tools=TOOL_SCHEMAS).choices[0].message
            if not reply.tool_calls:
                print(reply.content)
                break
            messages.append({"role": "assistant", "content": reply.content, "tool_calls": [
                {"id": c.id, "type": "function", "function": {
                    "name": c.function.name, "arguments": c.function.arguments}}
                for c in reply.tool_calls]})
            for c in reply.tool_calls:
                result = tools[c.function.name](**json.loads(c.function.arguments))
                messages.append({"role": "tool", "tool_call_id": c.id, "content": result})
    provider.force_flush()
    _write(exporter, out)


def run_smolagents(url: str, out: str) -> None:
    """smolagents' ToolCallingAgent (the answer through its `final_answer` tool), or with
    DGRR_STORY_CODE_AGENT its CodeAgent (the model writes Python that calls the tools),
    traced by OpenInference's smolagents instrumentor."""
    from openinference.instrumentation.smolagents import SmolagentsInstrumentor
    from smolagents import OpenAIServerModel, ToolCallingAgent, tool

    provider, exporter = _provider()
    SmolagentsInstrumentor().instrument(tracer_provider=provider)

    @tool
    def recall_memory(query: str) -> str:
        """Search Lin's saved memories.

        Args:
            query: what to look for.
        """
        return json.dumps(MEMORIES)

    @tool
    def book_seat(flight: str, seat: str) -> str:
        """Book a seat on a flight.

        Args:
            flight: the flight number.
            seat: the seat.
        """
        return json.dumps(BOOKING)

    @tool
    def save_memory(text: str) -> str:
        """Save a memory about Lin.

        Args:
            text: the memory.
        """
        return json.dumps(SAVED)

    model = OpenAIServerModel(model_id="gpt-4o-mini", api_base=url, api_key="offline")
    if os.environ.get("DGRR_STORY_CODE_AGENT"):
        from smolagents import CodeAgent

        agent: Any = CodeAgent(tools=[recall_memory, book_seat, save_memory], model=model,
                               max_steps=6, instructions=INSTRUCTIONS)
    else:
        agent = ToolCallingAgent(tools=[recall_memory, book_seat, save_memory], model=model,
                                 max_steps=6, instructions=INSTRUCTIONS)
    print(agent.run(QUESTION))
    provider.force_flush()
    _write(exporter, out)


def run_llamaindex(url: str, out: str) -> None:
    """LlamaIndex's `condense_plus_context` chat engine over a `VectorStoreIndex` of Lin's
    memories (each a `Document` whose `doc_id` is the memory id), with a `Memory` buffer;
    after the turn the application inserts what it learned as a new `Document`. Traced by
    OpenInference's LlamaIndex instrumentor, the index build, the turn and the insert in
    one session (`using_session`)."""
    from llama_index.core import Document, Settings, VectorStoreIndex
    from llama_index.core.memory import Memory
    from llama_index.embeddings.openai import OpenAIEmbedding
    from llama_index.llms.openai import OpenAI
    from openinference.instrumentation import using_session, using_user
    from openinference.instrumentation.llama_index import LlamaIndexInstrumentor

    provider, exporter = _provider()
    Settings.llm = OpenAI(model="gpt-4o-mini", api_base=url, api_key="offline",
                          max_retries=0)
    Settings.embed_model = OpenAIEmbedding(model="text-embedding-3-small", api_base=url,
                                           api_key="offline", max_retries=0)
    LlamaIndexInstrumentor().instrument(tracer_provider=provider)
    with using_session("lin-trip"), using_user("lin"):
        # the store as earlier sessions left it (its build is traced: an index build, no turn)
        index = VectorStoreIndex.from_documents(
            [Document(text=m["memory"], doc_id=m["id"]) for m in MEMORIES])
        engine = index.as_chat_engine(chat_mode="condense_plus_context",
                                      memory=Memory.from_defaults(session_id="lin-trip"),
                                      similarity_top_k=2)
        print(engine.chat(QUESTION))
        index.insert(Document(text=LEARNED, doc_id=SAVED["id"]))
    provider.force_flush()
    _write(exporter, out)


def run_adk(url: str, out: str) -> None:
    """Google ADK's `LlmAgent` (a LiteLLM model pointed at the local server) with ADK's own
    `load_memory` tool over an `InMemoryMemoryService` filled from an earlier session, and
    a `save_memory` function tool; traced by ADK's native OpenTelemetry spans."""
    import asyncio

    from google.adk.agents import LlmAgent
    from google.adk.events import Event
    from google.adk.memory import InMemoryMemoryService
    from google.adk.models.lite_llm import LiteLlm
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.tools import FunctionTool, load_memory
    from google.genai import types
    from opentelemetry import trace

    provider, exporter = _provider()
    trace.set_tracer_provider(provider)

    def book_seat(flight: str, seat: str) -> dict:
        """Book a seat on a flight."""
        return dict(BOOKING)

    def save_memory(text: str) -> dict:
        """Save a memory about Lin."""
        return dict(SAVED)

    async def main() -> None:
        sessions = InMemorySessionService()
        memory = InMemoryMemoryService()
        earlier = await sessions.create_session(app_name="travel", user_id="lin",
                                                session_id="earlier")
        for m in MEMORIES:
            await sessions.append_event(earlier, Event(
                author="user", content=types.Content(role="user",
                                                     parts=[types.Part(text=m["memory"])])))
        await memory.add_session_to_memory(earlier)
        agent = LlmAgent(name="travel_agent", instruction=INSTRUCTIONS,
                         model=LiteLlm(model="openai/gpt-4o-mini", api_base=url,
                                       api_key="offline"),
                         tools=[load_memory, FunctionTool(book_seat),
                                FunctionTool(save_memory)])
        runner = Runner(agent=agent, app_name="travel", session_service=sessions,
                        memory_service=memory)
        await sessions.create_session(app_name="travel", user_id="lin", session_id="trip")
        async for event in runner.run_async(
                user_id="lin", session_id="trip",
                new_message=types.Content(role="user", parts=[types.Part(text=QUESTION)])):
            if event.is_final_response() and event.content and event.content.parts:
                print(event.content.parts[0].text)

    asyncio.run(main())
    provider.force_flush()
    _write(exporter, out)


def run_strands(url: str, out: str) -> None:
    """Strands Agents (its OpenAI model provider pointed at the local server) traced by
    Strands' own tracer, whose semantic-convention mode OTEL_SEMCONV_STABILITY_OPT_IN
    chooses. With DGRR_STORY_STRANDS_MEMORY the memories are in Strands' `TestMemoryStore`
    (each with its id in the entry's metadata, as an application that keeps its own ids
    does) behind the `MemoryManager`'s `search_memory` and `add_memory` tools; else the
    story's three function tools."""
    from opentelemetry import trace
    from strands import Agent, tool
    from strands.models.openai import OpenAIModel

    provider, exporter = _provider()
    trace.set_tracer_provider(provider)
    model = OpenAIModel(client_args={"base_url": url, "api_key": "offline", "max_retries": 0},
                        model_id="gpt-4o-mini")
    tools: list[Any] = [tool(book_seat)]
    plugins: list[Any] = []
    if os.environ.get("DGRR_STORY_STRANDS_MEMORY"):
        import asyncio

        from strands.memory import MemoryManager
        from strands.vended_memory_stores.test_memory_store import TestMemoryStore

        store = TestMemoryStore(name="lin", persist=False, writable=True)
        for m in MEMORIES:
            asyncio.run(store.add(m["memory"], metadata={"id": m["id"]}))
        plugins.append(MemoryManager(stores=[store], add_tool_config=True, injection=False))
    else:
        tools += [tool(recall_memory), tool(save_memory)]
    agent = Agent(model=model, system_prompt=INSTRUCTIONS, tools=tools, plugins=plugins,
                  callback_handler=None)
    print(agent(QUESTION))
    provider.force_flush()
    _write(exporter, out)


def run_crewai(url: str, out: str) -> None:
    """CrewAI: one agent with the story's tools and one task in a crew, traced by
    OpenInference's CrewAI instrumentor alone (no instrumentor of the model client)."""
    from crewai import LLM, Agent, Crew, Task
    from crewai.tools import tool as crew_tool
    from openinference.instrumentation.crewai import CrewAIInstrumentor

    provider, exporter = _provider()
    CrewAIInstrumentor().instrument(tracer_provider=provider)
    llm = LLM(model="openai/gpt-4o-mini", base_url=url, api_key="offline")
    tools = [crew_tool(f.__name__)(f) for f in (recall_memory, book_seat, save_memory)]
    agent = Agent(role="travel agent", goal=INSTRUCTIONS, backstory="You book Lin's flights.",
                  tools=tools, llm=llm, max_iter=6, verbose=False)
    task = Task(description=QUESTION, expected_output="The booking, in one sentence.",
                agent=agent)
    print(Crew(agents=[agent], tasks=[task], verbose=False, tracing=False).kickoff())
    provider.force_flush()
    _write(exporter, out)


def run_semantic_kernel(url: str, out: str) -> None:
    """Semantic Kernel's ChatCompletionAgent (its OpenAI connector) with a `LinPlugin` of
    the story's functions, traced by Semantic Kernel's own diagnostics with sensitive data
    (SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS_SENSITIVE): the spans go to
    OUT, and the chat messages, which Semantic Kernel writes as log records, to
    OUT.logs.json (OTLP JSON logs, `encode_logs`) through an OTel `LoggingHandler`."""
    import asyncio
    import logging

    from openai import AsyncOpenAI
    from opentelemetry import trace
    from opentelemetry._logs import set_logger_provider
    from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
    from opentelemetry.sdk._logs.export import (
        InMemoryLogRecordExporter,
        SimpleLogRecordProcessor,
    )

    os.environ["SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS_SENSITIVE"] = "true"
    from semantic_kernel.agents import ChatCompletionAgent
    from semantic_kernel.connectors.ai import FunctionChoiceBehavior
    from semantic_kernel.connectors.ai.open_ai import (
        OpenAIChatCompletion,
        OpenAIChatPromptExecutionSettings,
    )
    from semantic_kernel.functions import KernelArguments, kernel_function

    provider, exporter = _provider()
    trace.set_tracer_provider(provider)
    logs = InMemoryLogRecordExporter()
    logger_provider = LoggerProvider()
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
    set_logger_provider(logger_provider)
    handler = LoggingHandler(logger_provider=logger_provider)
    handler.addFilter(logging.Filter("semantic_kernel"))
    logging.getLogger().addHandler(handler)
    logging.getLogger().setLevel(logging.INFO)

    class LinPlugin:
        @kernel_function(description="Search Lin's saved memories.")
        def recall_memory(self, query: str) -> str:
            return recall_memory(query)

        @kernel_function(description="Book a seat on a flight.")
        def book_seat(self, flight: str, seat: str) -> str:
            return book_seat(flight, seat)

        @kernel_function(description="Save a memory about Lin.")
        def save_memory(self, text: str) -> str:
            return save_memory(text)

    service = OpenAIChatCompletion(ai_model_id="gpt-4o-mini", async_client=AsyncOpenAI(
        base_url=url, api_key="offline", max_retries=0))
    settings = OpenAIChatPromptExecutionSettings(
        function_choice_behavior=FunctionChoiceBehavior.Auto())
    agent = ChatCompletionAgent(service=service, name="travel_agent",
                                instructions=INSTRUCTIONS, plugins=[LinPlugin()],
                                arguments=KernelArguments(settings=settings))

    async def main() -> None:
        print((await agent.get_response(messages=QUESTION)).content)

    asyncio.run(main())
    provider.force_flush()
    logger_provider.force_flush()
    _write(exporter, out)
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs

    records = sorted(logs.get_finished_logs(), key=lambda r: r.log_record.timestamp or 0)
    target = Path(out).with_suffix("").with_suffix(".logs.json")
    target.write_text(json.dumps(MessageToDict(encode_logs(records)), indent=1,
                                 sort_keys=True) + "\n", encoding="utf-8")


def run_langmem(url: str, out: str) -> None:
    """LangChain's `create_agent` with langmem's `manage_memory` and `search_memory` tools
    over a LangGraph `SqliteStore` (OUT/store.db beside the trace, committed: the store the
    agent wrote), traced by OpenInference's LangChain instrumentor in one session
    (`using_session`): the story, then a
    second turn ("What do you remember about my seats?") that searches the memories again
    and finds the one the first turn created under the uuid langmem gave it."""
    from langchain.agents import create_agent
    from langchain_core.tools import tool as lc_tool
    from langchain_openai import ChatOpenAI
    from langgraph.store.sqlite import SqliteStore
    from langmem import create_manage_memory_tool, create_search_memory_tool
    from openinference.instrumentation import using_session
    from openinference.instrumentation.langchain import LangChainInstrumentor
    from story_model import RECHECK

    provider, exporter = _provider()
    LangChainInstrumentor().instrument(tracer_provider=provider)
    folder = Path(out).with_suffix("").with_suffix("")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with SqliteStore.from_conn_string(str(folder / "store.db")) as store:
        store.setup()
        for m in MEMORIES:
            store.put(("memories", "lin"), m["id"], {"content": m["memory"]})
        namespace = ("memories", "{langgraph_user_id}")
        agent = create_agent(
            ChatOpenAI(model="gpt-4o-mini", base_url=url, api_key="offline", max_retries=0),
            tools=[create_manage_memory_tool(namespace=namespace),
                   create_search_memory_tool(namespace=namespace), lc_tool(book_seat)],
            system_prompt=INSTRUCTIONS, store=store)
        config = {"configurable": {"langgraph_user_id": "lin"}}
        with using_session("lin-trip"):  # the two turns' traces are one session
            for question in (QUESTION, RECHECK):
                result = agent.invoke({"messages": [{"role": "user", "content": question}]},
                                      config=config)
                print(result["messages"][-1].content)
    provider.force_flush()
    _write(exporter, out)


def run_autogen(url: str, out: str) -> None:
    """AutoGen AgentChat's `AssistantAgent` whose memory is a `ListMemory` of Lin's notes
    (each with its id in the metadata): AutoGen puts them into the model's prompt as a
    system message, so no tool reads them. Tools `book_seat` and `save_memory`. Traced by
    OpenInference's AutoGen AgentChat instrumentor, with AutoGen's own spans going to the
    same (global) tracer provider."""
    import asyncio

    from autogen_agentchat.agents import AssistantAgent
    from autogen_core.memory import ListMemory, MemoryContent, MemoryMimeType
    from autogen_ext.models.openai import OpenAIChatCompletionClient
    from openinference.instrumentation.autogen_agentchat import AutogenAgentChatInstrumentor
    from opentelemetry import trace

    provider, exporter = _provider()
    trace.set_tracer_provider(provider)
    AutogenAgentChatInstrumentor().instrument(tracer_provider=provider)
    memory = ListMemory(name="lin")

    async def main() -> None:
        for m in MEMORIES:
            await memory.add(MemoryContent(content=m["memory"], mime_type=MemoryMimeType.TEXT,
                                           metadata={"id": m["id"]}))
        client = OpenAIChatCompletionClient(
            model="gpt-4o-mini", base_url=url, api_key="offline",
            model_info={"vision": False, "function_calling": True, "json_output": False,
                        "family": "unknown", "structured_output": False,
                        "multiple_system_messages": True})
        agent = AssistantAgent("travel_agent", model_client=client, memory=[memory],
                               tools=[book_seat, save_memory], system_message=INSTRUCTIONS,
                               max_tool_iterations=6, reflect_on_tool_use=False)
        result = await agent.run(task=QUESTION)
        print(result.messages[-1].content)

    asyncio.run(main())
    provider.force_flush()
    _write(exporter, out)


def run_agno(url: str, out: str) -> None:
    """Agno's `Agent` (its `OpenAIChat` model) with Lin's memories in an in-memory Agno
    database, added to the system message (`add_memories_to_context`) rather than read by
    a tool; tools `book_seat` and `save_memory`. Traced by OpenInference's Agno
    instrumentor."""
    from agno.agent import Agent
    from agno.db.in_memory import InMemoryDb
    from agno.db.schemas.memory import UserMemory
    from agno.models.openai import OpenAIChat
    from openinference.instrumentation.agno import AgnoInstrumentor

    provider, exporter = _provider()
    AgnoInstrumentor().instrument(tracer_provider=provider)
    db = InMemoryDb()
    for m in MEMORIES:
        db.upsert_user_memory(UserMemory(memory=m["memory"], memory_id=m["id"], user_id="lin"))
    agent = Agent(model=OpenAIChat(id="gpt-4o-mini", base_url=url, api_key="offline"),
                  db=db, add_memories_to_context=True, instructions=INSTRUCTIONS,
                  tools=[book_seat, save_memory])
    print(agent.run(QUESTION, user_id="lin").content)
    provider.force_flush()
    _write(exporter, out)


CHILDREN = {"adk": run_adk, "agno": run_agno, "autogen": run_autogen, "crewai": run_crewai, "langmem": run_langmem, "semantic-kernel": run_semantic_kernel, "llamaindex": run_llamaindex, "openai-agents": run_openai_agents, "openai-v2": run_openai_v2,
            "smolagents": run_smolagents, "strands": run_strands}


def _child(name: str, out: str) -> None:
    server, url = start()
    try:
        CHILDREN[name](url, out)
    finally:
        server.shutdown()


def make_venv(name: str, folder: Path) -> Path:
    """A venv in `folder` with framework `name`'s packages."""
    python = folder / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    if not python.exists():
        subprocess.run([sys.executable, "-m", "uv", "venv", "-q", "--python", sys.executable,
                        str(folder)], check=True, env=env, timeout=300)
    subprocess.run([sys.executable, "-m", "uv", "pip", "install", "-q", "--python",
                    str(python), *FRAMEWORKS[name]], check=True, env=env, timeout=1800)
    return python


NPM_PACKAGES = ["ai@6.0.333", "@ai-sdk/openai-compatible@2.0.92",
                "@opentelemetry/api@1.9.0", "@opentelemetry/sdk-trace-base@2.12.1",
                "@opentelemetry/context-async-hooks@2.12.1", "zod@4.6.7"]
"""What npm installs for the Vercel AI SDK run (scripts/vercel_ai_run.mjs)."""


def run_vercel_ai(out: Path, folder: Path) -> dict[str, Path]:
    """The Vercel AI SDK (node) with its OpenTelemetry telemetry: `generateText` and
    `streamText` runs of the story, each followed by an `embed` of what was learned."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text('{"name": "dgrr-vercel-ai-run", "private": true, '
                                         '"type": "module"}\n', encoding="utf-8")
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent", *NPM_PACKAGES],
                   cwd=folder, check=True, timeout=1800)
    script = folder / "vercel_ai_run.mjs"
    script.write_bytes((HERE / "vercel_ai_run.mjs").read_bytes())
    story = json.dumps({"memories": MEMORIES, "booking": BOOKING, "saved": SAVED,
                        "question": QUESTION, "instructions": INSTRUCTIONS,
                        "learned": LEARNED})
    made = {}
    server, url = start()
    try:
        for label, mode in (("vercel-ai", "generate"), ("vercel-ai-stream", "stream")):
            target = out / f"{label}.otlp.json"
            subprocess.run(["node", str(script), url, str(target.resolve()), story, mode],
                           cwd=folder, check=True, timeout=600)
            made[label] = target
    finally:
        server.shutdown()
    return made


def run(outdir: str | Path, venvs: str | Path | None = None,
        only: list[str] | None = None) -> dict[str, Path]:
    """Write NAME.otlp.json into `outdir` for each framework; returns name -> file."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    base = Path(venvs) if venvs else Path(tempfile.gettempdir()) / "dgrr-framework-venvs"
    made = {}
    for name in only or [*FRAMEWORKS, "vercel-ai"]:
        if name == "vercel-ai":
            made.update(run_vercel_ai(out, base / name))
            continue
        python = make_venv(name, base / name)
        target = out / f"{name}.otlp.json"
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        env.update(OTEL_SDK_DISABLED="false", OPENAI_API_KEY="offline",
                   LITELLM_LOCAL_MODEL_COST_MAP="True",
                   OTEL_SEMCONV_STABILITY_OPT_IN="gen_ai_latest_experimental",
                   OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="SPAN_ONLY")
        subprocess.run([str(python), __file__, "--child", name, str(target)], check=True,
                       env=env, timeout=600)
        made[name] = target
        for label, extra in VARIANTS.get(name, ()):
            target = out / f"{label}.otlp.json"
            subprocess.run([str(python), __file__, "--child", name, str(target)], check=True,
                           env={**env, **extra}, timeout=600)
            made[label] = target
    return made


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--venvs", default=None,
                        help="folder for the venvs (default: the temp folder)")
    parser.add_argument("--only", nargs="*", default=None,
                        choices=sorted([*FRAMEWORKS, "vercel-ai"]),
                        help="the frameworks to run (default: all)")
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.out)
    else:
        for label, path in run(args.out, args.venvs, args.only).items():
            print(label, path)
