"""The original run as trace viewers show it: each imported model call keeps its model and
the messages it was sent and answered, a waterfall by wall-clock time, tokens and cost in
US dollars by litellm's own price table (an unknown model is "price unknown", never
priced), through the library and `dgrr calls`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from repair_core import case_from_data, load_example
from repair_core._prices import price_table, token_price
from repair_core.case._trace import step_trace
from repair_core.cli import main
from repair_core.importers import import_trace
from repair_core.importers._call_messages import MESSAGE_CHARS, MESSAGES, call_messages
from repair_core.importers._otlp import Span, SpanEvent
from repair_core.viz import money, original_run

ROOT = Path(__file__).resolve().parent.parent
FRAMEWORKS = ROOT / "sample_imports" / "frameworks"
sys.path.insert(0, str(ROOT / "scripts"))

from story_model import ANSWER, QUESTION  # noqa: E402


def _calls(path: Path):
    case = import_trace([path]).case
    return case, original_run(case).calls


@pytest.mark.parametrize("name", [
    "strands.otlp.json",  # GenAI messages in operation-details events
    "strands-legacy.otlp.json",  # the per-message events of semconv <= 1.36
    "openai-v2.otlp.json",  # gen_ai.input/output.messages attributes
    "openai-agents.otlp.json",  # OpenInference llm.*_messages
    "smolagents.otlp.json",  # OpenInference message contents and output tool calls
    "vercel-ai.otlp.json",  # ai.prompt.messages and ai.response.toolCalls
    "adk.otlp.json",  # gen_ai.system_instructions
])
def test_each_model_call_keeps_its_prompt_and_completion(name):
    case, calls = _calls(FRAMEWORKS / name)
    assert calls, name
    first = calls[0]
    assert first.model and "gpt-4o-mini" in first.model
    assert any(QUESTION in m.content and m.role == "user" for m in first.sent)
    assert first.sent[0].role == "system"
    assert first.answered and first.answered[0].content.startswith("call ")
    last = calls[-1]  # the call that answered (in text, or through a final-answer tool)
    assert ANSWER in "\n".join(m.content for m in last.answered)
    assert case.final_answer().seq >= last.seq
    assert last.input_tokens == 12 and last.output_tokens == 9


def test_the_messages_are_kept_in_the_case_under_the_trace_key_and_read_back():
    case = import_trace([FRAMEWORKS / "openai-agents.otlp.json"]).case
    data = case.model_dump(mode="json")
    chat = [s for s in data["trajectory"] if s.get("trace", {}).get("input_messages")]
    assert chat and all(s["type"] in ("claim", "plan", "answer") for s in chat)
    assert chat[0]["trace"]["model"] == "gpt-4o-mini"
    again = case_from_data(json.loads(json.dumps(data)))  # the case stays dgrr.case/v1
    assert step_trace(again.trajectory[0]) == step_trace(case.trajectory[0])


def test_a_trace_key_not_of_its_shape_loses_only_the_bad_messages():
    t = step_trace({"trace": {"model": 3, "input_messages": [
        {"role": "user", "content": "hi"}, {"role": "user", "content": ["x"]}, "text",
        {"content": "no role"}], "output_messages": {"role": "assistant"}}})
    assert t is not None and t.model is None
    assert [(m.role, m.content) for m in t.input_messages] == [("user", "hi")]
    assert t.output_messages == ()


def _span(attributes: dict, events=()) -> Span:
    return Span(trace_id="t" * 32, span_id="s" * 16, parent_id=None, name="chat", start=1,
                end=2, status_error=False, attributes=attributes, events=tuple(events))


def test_long_prompts_are_bounded_and_say_what_was_left_out():
    many = {f"llm.input_messages.{i}.message.{k}": v for i in range(MESSAGES + 5)
            for k, v in (("role", "user"), ("content", f"turn {i}"))}
    many["llm.output_messages.0.message.role"] = "assistant"
    many["llm.output_messages.0.message.content"] = "x" * (MESSAGE_CHARS + 7)
    found = call_messages(_span(many))
    assert len(found.sent) == MESSAGES
    assert found.sent[0] == {"role": "dgrr", "content": "[6 earlier messages not kept]"}
    assert found.sent[-1]["content"] == f"turn {MESSAGES + 4}"
    assert found.answered[0]["content"].endswith("… [7 more characters not kept]")


def test_openllmetry_and_openlit_events_are_read():
    found = call_messages(_span({"gen_ai.request.model": "gpt-4o",
                                 "gen_ai.prompt.0.role": "user",
                                 "gen_ai.prompt.0.content": "Where to?",
                                 "gen_ai.completion.0.role": "assistant",
                                 "gen_ai.completion.0.content": "",
                                 "gen_ai.completion.0.tool_calls.0.name": "book",
                                 "gen_ai.completion.0.tool_calls.0.arguments": '{"a": 1}'}))
    assert found.sent == [{"role": "user", "content": "Where to?"}]
    assert found.answered == [{"role": "assistant", "content": 'call book({"a": 1})'}]
    evented = call_messages(_span({}, [
        SpanEvent(name="gen_ai.content.prompt", time=1,
                  attributes={"gen_ai.prompt": '[{"role": "user", "content": "hello"}]'}),
        SpanEvent(name="gen_ai.content.completion", time=2,
                  attributes={"gen_ai.completion": "hi there"})]))
    assert evented.sent == [{"role": "user", "content": "hello"}]
    assert evented.answered == [{"role": "assistant", "content": "hi there"}]


TABLE = {"known-model": {"input_cost_per_token": 2e-06, "output_cost_per_token": 1e-05,
                         "litellm_provider": "openai"},
         "half-priced": {"input_cost_per_token": 1e-06}}


def _traced_case(traces: dict[str, dict]):
    data = load_example().model_dump(mode="json")
    for step in data["trajectory"]:
        if step["id"] in traces:
            step["trace"] = traces[step["id"]]
    return case_from_data(data)


def test_cost_per_call_and_in_total_only_from_the_table_never_guessed():
    case = _traced_case({
        "s1": {"start_ns": 5_000_000_000, "end_ns": 6_500_000_000, "model": "known-model",
               "input_tokens": 1000, "output_tokens": 100},
        "s3": {"start_ns": 7_000_000_000, "end_ns": 7_250_000_000,
               "model": "openai/known-model", "input_tokens": 10, "output_tokens": 10},
        "s4": {"model": "known-model-2025", "input_tokens": 10, "output_tokens": 10},
        "s5": {"model": "half-priced", "input_tokens": 10, "output_tokens": 10},
        "s6": {"model": "known-model", "input_tokens": 10},
        "s7": {"start_ns": 4_000_000_000, "end_ns": 4_100_000_000},  # a tool: no call
    })
    run = original_run(case, table=TABLE)
    by = {c.step: c for c in run.calls}
    assert set(by) == {"s1", "s3", "s4", "s5", "s6"}
    assert by["s1"].cost == pytest.approx(1000 * 2e-06 + 100 * 1e-05)
    assert by["s3"].priced_as == "known-model" and by["s3"].cost == pytest.approx(1.2e-04)
    assert (by["s4"].price, by["s4"].cost) == ("price unknown", None)
    assert (by["s5"].price, by["s5"].cost) == ("price unknown", None)
    assert (by["s6"].price, by["s6"].cost) == ("tokens not recorded", None)
    assert run.cost == pytest.approx(by["s1"].cost + by["s3"].cost)
    assert run.unpriced == 3 and run.unknown_models == ["known-model-2025", "half-priced"]
    assert (run.input_tokens, run.output_tokens) == (1040, 130)
    assert "3 not priced (price unknown: known-model-2025, half-priced)" in \
        run.describe_total()
    # the waterfall: every timed step, in seconds after the first span's start
    bars = {b.step: (b.start_s, b.end_s, b.model_call) for b in run.waterfall}
    assert bars == {"s1": (1.0, 2.5, True), "s3": (3.0, 3.25, True),
                    "s7": (0.0, pytest.approx(0.1), False)}
    assert run.seconds == 3.25


def test_the_table_is_litellms_own():
    import litellm  # the reference: what litellm itself holds when offline

    ours = price_table()
    assert ours and all(ours[k] == litellm.model_cost[k] for k in ("gpt-4o-mini", "gpt-4o"))
    price = token_price("gpt-4o-mini")
    assert price is not None
    assert price.input_per_token == litellm.model_cost["gpt-4o-mini"]["input_cost_per_token"]
    assert token_price("no-such-model-anywhere") is None
    assert money(0.0000288) == "$0.0000288"


def test_cli_lists_the_calls_with_cost_and_total(tmp_path, capsys):
    out = tmp_path / "strands.json"
    assert main(["import", str(FRAMEWORKS / "strands.otlp.json"), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["calls", str(out)]) == 0
    text = capsys.readouterr().out
    price = token_price("gpt-4o-mini")
    assert price is not None
    assert "gpt-4o-mini" in text and money(price.cost(12, 9)) in text
    assert f"total: 4 model calls · 48 input + 36 output tokens · {money(4 * price.cost(12, 9))}" \
        in text
    assert main(["calls", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["calls"]) == 4 and report["calls"][0]["sent"][0]["role"] == "system"
    assert report["cost"] == pytest.approx(4 * price.cost(12, 9))


def test_cli_prints_untrusted_messages_escaped_and_refuses_a_bad_case(tmp_path, capsys):
    case = _traced_case({"s1": {"model": "evil\x1b[2J", "input_tokens": 1,
                                "output_tokens": 1, "input_messages": [
                                    {"role": "user\x07", "content": "hi\x1b]0;owned\x07"}]}})
    path = tmp_path / "c.json"
    path.write_text(case.model_dump_json())
    assert main(["calls", str(path), "--messages"]) == 0
    text = capsys.readouterr().out
    assert "\x1b" not in text and "\x07" not in text
    assert "evil\\x1b[2J" in text and "hi\\x1b]0;owned\\x07" in text and "price unknown" in text
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "dgrr.case/v1", "case_id": 3}')
    assert main(["calls", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "case_id" in err and "Traceback" not in err


def test_a_reply_whose_tool_calls_are_kept_elsewhere_shows_them():
    # OpenLit 1.33 writes "None" as the text of a tool-calling reply and keeps the calls in
    # gen_ai.response.tool_calls (a Python repr)
    case, calls = _calls(ROOT / "sample_imports" / "openlit" / "openlit-1.33.otlp.json")
    first = calls[0]
    assert [m.content for m in first.answered] == \
        ['call search_flights({"date": "Friday", "dest": "NRT"})']
    assert first.recorded_cost == 0 and first.cost is not None and first.cost > 0


def test_a_replayed_step_does_not_keep_the_failed_runs_span():
    """The repaired trajectory's replayed steps carry no `trace`: the time, tokens and
    messages of the failed run's span are not the replay's; kept steps keep theirs."""
    from repair_core import plan_case, repair

    case = import_trace([FRAMEWORKS / "strands-memory.otlp.json"], faults=["mem-seat"]).case
    traced = {s.id for s in case.trajectory if step_trace(s) is not None}
    result = repair(case, plan_case(case, objective="answer"))
    replayed = {o.id for o in result.report.steps if o.outcome in ("replayed", "refreshed")}
    assert traced & replayed
    after = {s.id: s.model_dump(mode="json") for s in result.trajectory.trajectory}
    assert not any("trace" in after[sid] for sid in traced & replayed)
    kept = traced - replayed - {o.id for o in result.report.steps if o.outcome != "kept"}
    assert all("trace" in after[sid] for sid in kept if sid in after)


def test_totals_over_nothing_recorded_or_priced_are_unknown_not_zero():
    """Calls of a model no table lists, no tokens recorded (the shape of the OTel GenAI
    sample's six calls; two here): `dgrr calls` said '0 input + 0 output tokens · $0.00',
    a free run."""
    data = load_example().model_dump(mode="json")
    for step in data["trajectory"][:2]:
        step["trace"] = {"start_ns": 10**9, "end_ns": 2 * 10**9, "model": "unlisted-model"}
    run = original_run(case_from_data(data), table={})
    assert len(run.calls) == 2 and not run.tokens_recorded and run.priced_cost is None
    line = run.describe_total()
    assert line.startswith("2 model calls · tokens not recorded · — (litellm prices)"), line
    assert "$0.00" not in line and "0 input" not in line
    # one call with tokens and a price: the totals are its own
    data["trajectory"][0]["trace"].update(model="m-1", input_tokens=1000, output_tokens=10)
    run = original_run(case_from_data(data), table={"m-1": {
        "input_cost_per_token": 1e-06, "output_cost_per_token": 2e-06}})
    assert run.tokens_recorded and run.priced_cost == pytest.approx(0.00102)
    assert "1,000 input + 10 output tokens · $0.00102" in run.describe_total()
