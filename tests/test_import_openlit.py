"""Traces made by OpenLit itself (scripts/openlit_run.py: the real `openlit` in a scratch
venv, the real `openai` client against an OpenAI-compatible server on 127.0.0.1) import
with their text: OpenLit 1.33 carries the content in span events, 1.45 in
`gen_ai.input.messages` / `gen_ai.output.messages`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repair_core import plan_case
from repair_core.importers import import_trace

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_imports" / "openlit"
sys.path.insert(0, str(ROOT / "scripts"))

from openlit_run import ANSWER, QUESTION  # noqa: E402


def _chat_spans(path: Path) -> list[dict]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [sp for rs in doc["resourceSpans"] for ss in rs["scopeSpans"] for sp in ss["spans"]
            if any(a["key"] == "gen_ai.operation.name" and a["value"].get("stringValue") == "chat"
                   for a in sp.get("attributes", []))]


def _check(folder: Path) -> None:
    for label in ("1.33", "1.45"):
        path = folder / f"openlit-{label}.otlp.json"
        chats = _chat_spans(path)
        assert len(chats) == 2, label
        keys = {a["key"] for sp in chats for a in sp.get("attributes", [])}
        events = {e["name"] for sp in chats for e in sp.get("events", [])}
        if label == "1.33":  # the content only in span events
            assert "gen_ai.output.messages" not in keys
            assert "gen_ai.content.completion" in events
        else:
            assert "gen_ai.output.messages" in keys
        imported = import_trace([path])
        case = imported.case
        assert [t.text for t in case.session] == [QUESTION], label
        assert case.final_answer().text == ANSWER, label
        assert case.user_id == "lin"
        # the tool call: 1.45 in gen_ai.output.messages, 1.33 in gen_ai.response.tool_calls
        # (a Python repr) beside a completion event whose text is "None"
        steps = case.steps_in_order()
        if label == "1.33":  # no tool span and no tool result in the messages
            assert [s.type for s in steps] == ["plan", "answer"], label
        else:  # the tool's result only in the answer call's gen_ai.input.messages
            assert [s.type for s in steps] == ["plan", "tool_action", "tool_observation",
                                               "answer"], label
            assert (steps[1].tool, steps[1].args) == ("search_flights",
                                                      {"dest": "NRT", "date": "Friday"})
            assert steps[2].output == {"flight": "JL1", "seat": "31A"}
        assert steps[0].tool == "search_flights"
        assert steps[0].args == {"dest": "NRT", "date": "Friday"}
        plan = plan_case(case)
        assert plan.steps[case.final_answer().id] == "replay"
        assert all(a == "keep" for sid, a in plan.steps.items()
                   if sid != case.final_answer().id)


def test_committed_openlit_traces_import_with_their_text():
    _check(SAMPLE)


@pytest.mark.slow
def test_openlit_script_makes_the_same_traces(tmp_path):
    """Runs scripts/openlit_run.py (two scratch venvs from the package index) and checks
    its fresh traces the same way."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "openlit_run.py"),
                           str(tmp_path / "out"), "--venvs", str(tmp_path / "venvs")],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    _check(tmp_path / "out")


def test_openlit_tool_calls_are_read_as_data_only():
    from repair_core.importers._semconv import _openlit_calls

    calls = _openlit_calls("[{'id': 'call_1', 'type': 'function', 'function': "
                           "{'name': 'book', 'arguments': '{\"seat\": \"31A\"}'}}]")
    assert [(c.id, c.name, c.args) for c in calls] == [("call_1", "book", {"seat": "31A"})]
    for hostile in ("[__import__('os').system('true')]", "[" * 5000 + "]" * 5000,
                    "[{'function': {'name': 1}}]", "[" + "1," * 60000 + "]"):
        assert _openlit_calls(hostile) == []
