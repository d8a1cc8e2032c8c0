"""What a trace recorded of each step's span besides its content — start, end, tokens,
cost — is kept on the imported step (`trace`), read back as case data (a value not of its
shape is dropped), never read by the plan, and shown in the step panel as plain text.
The traces are those real instrumentors wrote (sample_imports/, made by committed
scripts); the expected values are read from the files' raw JSON here."""

from __future__ import annotations

import base64
import copy
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from repair_core import plan_case  # noqa: E402
from repair_core.case._trace import TRACE_FIELD, step_trace  # noqa: E402
from repair_core.importers import import_trace  # noqa: E402

OPENLIT = ROOT / "sample_imports" / "openlit" / "openlit-1.45.otlp.json"
OPENINFERENCE = ROOT / "sample_imports" / "frameworks" / "openai-agents.otlp.json"


def _raw_spans(path: Path) -> dict[str, dict]:
    """Span hex id -> {start, end, attributes (scalar values)} straight from the file."""
    doc = json.loads(path.read_text())
    out = {}
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for sp in ss["spans"]:
                sid = sp["spanId"]
                if len(sid) != 16:  # base64 ids in one-document OTLP JSON
                    sid = base64.b64decode(sid).hex()
                attrs = {a["key"]: next(iter(a["value"].values())) for a in sp["attributes"]}
                out[sid] = {"start": int(sp["startTimeUnixNano"]),
                            "end": int(sp["endTimeUnixNano"]), "attributes": attrs}
    return out


def test_openlit_model_calls_keep_their_time_tokens_and_cost():
    raw = _raw_spans(OPENLIT)
    case = import_trace([OPENLIT]).case
    chats = [s for s in case.trajectory if s.type in ("plan", "claim", "answer")]
    assert len(chats) == 2
    for s in chats:
        span = raw[s.id]
        t = step_trace(s)
        assert t is not None
        assert (t.start_ns, t.end_ns) == (span["start"], span["end"])
        assert t.input_tokens == int(span["attributes"]["gen_ai.usage.input_tokens"])
        assert t.output_tokens == int(span["attributes"]["gen_ai.usage.output_tokens"])
        assert t.cost == float(span["attributes"]["gen_ai.usage.cost"])
        assert "12 input + 9 output tokens" in t.describe() and "cost 0" in t.describe()
    # a tool call: its span's time on the action; the observation has none of its own
    action = next(s for s in case.trajectory if s.type == "tool_action")
    assert step_trace(action) is not None and step_trace(action).input_tokens is None
    assert all(step_trace(s) is None for s in case.trajectory if s.type == "tool_observation")


def test_openinference_token_counts_are_kept():
    raw = _raw_spans(OPENINFERENCE)
    case = import_trace([OPENINFERENCE]).case
    counted = [s for s in case.trajectory if s.id in raw
               and "llm.token_count.prompt" in raw[s.id]["attributes"]]
    assert counted
    for s in counted:
        a = raw[s.id]["attributes"]
        t = step_trace(s)
        assert (t.input_tokens, t.output_tokens) == (int(a["llm.token_count.prompt"]),
                                                     int(a["llm.token_count.completion"]))


@pytest.mark.parametrize("value", [{"intValue": "-5"}, {"stringValue": "many"},
                                   {"boolValue": True}, {"doubleValue": 1.5}])
def test_a_usage_value_of_another_shape_is_not_kept(tmp_path, value):
    doc = json.loads(OPENLIT.read_text())
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for sp in ss["spans"]:
                for a in sp["attributes"]:
                    if a["key"] == "gen_ai.usage.input_tokens":
                        a["value"] = value
    path = tmp_path / "odd.otlp.json"
    path.write_text(json.dumps(doc))
    case = import_trace([path]).case
    kept = [step_trace(s) for s in case.trajectory if s.type in ("plan", "answer")]
    assert kept and all(t.input_tokens is None and t.output_tokens == 9 for t in kept)


def test_a_hostile_trace_field_is_dropped_and_the_plan_never_reads_it():
    case = import_trace([OPENLIT]).case
    data = case.model_dump(mode="json")
    bare = copy.deepcopy(data)
    for s in bare["trajectory"]:
        s.pop(TRACE_FIELD, None)
    odd = copy.deepcopy(data)
    odd["trajectory"][0][TRACE_FIELD] = {"start_ns": 10, "end_ns": 5, "input_tokens": "<b>",
                                         "cost": float("nan")}
    assert step_trace(odd["trajectory"][0]) is None  # nothing of its shape is left
    from repair_core import case_from_data

    plans = [plan_case(case_from_data(d)).report().model_dump() for d in (data, bare)]
    assert plans[0] == plans[1]


def test_a_timestamp_past_any_date_is_dropped_not_shown():
    # a start the panel could not turn into a date would raise where it is described
    t = step_trace({TRACE_FIELD: {"start_ns": 10**30, "end_ns": 10**30 + 5,
                                  "input_tokens": 3}})
    assert t is not None and (t.start_ns, t.end_ns, t.input_tokens) == (None, None, 3)
    assert t.describe() == "3 input tokens"


@pytest.mark.parametrize("page", ["pages/3_Trace.py", "pages/3_Graph.py"])
def test_the_step_panel_shows_what_the_trace_recorded(page):
    from streamlit.testing.v1 import AppTest

    case = import_trace([OPENLIT]).case
    answer = case.final_answer()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_selected_node"] = answer.id
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [m.value for m in at.markdown if "From the trace" in m.value]
    assert len(shown) == 1
    line = shown[0].replace("\\", "")
    assert step_trace(answer).describe() in line and "12 input + 9 output tokens" in line
    # a step the trace recorded nothing of shows no such line
    obs = next(s for s in case.trajectory if s.type == "tool_observation")
    at.session_state["dgrr_selected_node"] = obs.id
    at.switch_page(page).run()
    assert not any("From the trace" in m.value for m in at.markdown)
