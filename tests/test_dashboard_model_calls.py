"""The Model calls page and the step panel show the original run as trace viewers do: a
wall-clock waterfall, each model call's tokens and cost by litellm's price table, its
prompt and completion as text beside the replay's, untrusted text never as markup."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import case_from_data, load_example  # noqa: E402
from repair_core._prices import token_price  # noqa: E402
from repair_core.importers import import_trace  # noqa: E402
from repair_core.model._client import CallRecord  # noqa: E402
from repair_core.viz import money  # noqa: E402

APP = str(ROOT / "app.py")
STRANDS = ROOT / "sample_imports" / "frameworks" / "strands.otlp.json"
EVIL = "<img src=x onerror=alert(1)> [click](http://evil.example) **bold**"


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def _open(case, **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    for k, v in state.items():
        at.session_state[k] = v
    at.switch_page("pages/3_Model_calls.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_page_shows_the_waterfall_calls_cost_and_a_calls_messages():
    case = import_trace([STRANDS]).case
    at = _open(case)
    metrics = {m.label: m.value for m in at.metric}
    price = token_price("gpt-4o-mini")
    assert price is not None
    assert metrics["Model calls"] == "4"
    assert metrics["Cost (litellm prices)"] == money(4 * price.cost(12, 9))
    assert metrics["Tokens (input + output)"] == "48 + 36"
    chart = at.get("vega_lite_chart")
    assert len(chart) == 1  # the waterfall
    spec = json.loads(chart[0].proto.spec)
    assert spec["encoding"]["x2"]["field"] == "drawn end"
    frame = at.dataframe[0].value
    assert list(frame["model"]) == ["gpt-4o-mini"] * 4
    assert list(frame["cost"]) == [money(price.cost(12, 9))] * 4
    texts = [t.value for t in at.text]
    assert any("[user]\nBook my usual seat on the Friday flight to Tokyo." in t for t in texts)
    assert any('call recall_memory({"query": "Lin seat preference"})' in t for t in texts)
    last = at.selectbox(key="dgrr_w_calls_pick").options[-1]
    at.selectbox(key="dgrr_w_calls_pick").set_value(last.split(" · ")[1]).run()
    assert any("Booked JL1 to Tokyo on Friday, window seat 31A." in t.value for t in at.text)


def _evil_case():
    data = load_example().model_dump(mode="json")
    data["trajectory"][0]["trace"] = {
        "start_ns": 1_000_000_000, "end_ns": 2_000_000_000, "model": "made-up-model " + EVIL,
        "input_tokens": 5, "output_tokens": 5,
        "input_messages": [{"role": "user", "content": EVIL}],
        "output_messages": [{"role": "assistant", "content": "reply " + EVIL}]}
    return case_from_data(data)


def test_untrusted_messages_are_text_and_an_unknown_model_is_not_priced():
    at = _open(_evil_case())
    # its one call is not priced: the total is unknown, not $0.00
    assert {m.label: m.value for m in at.metric}["Cost (litellm prices)"] == "—"
    assert list(at.dataframe[0].value["cost"]) == ["price unknown"]
    assert any(EVIL in t.value for t in at.text)  # as it is, in a text element
    shown = [m.value for m in [*at.markdown, *at.caption]]
    outside_code = [re.sub(r"`[^`]*`", "", m) for m in shown]  # a code span is literal
    assert any("<img" in m for m in shown)  # the model's name, in a code span
    assert not any("<img" in m or "](http" in m for m in outside_code)
    assert any("price unknown" in m for m in shown)


def test_totals_over_nothing_recorded_or_priced_are_unknown_not_zero():
    """The OTel GenAI sample's six calls record no tokens and name a model no price table
    lists: neither '0 + 0' tokens nor '$0.00', which read as a free run."""
    case = import_trace([ROOT / "sample_imports" / "otlp" / "figure1-travel.otlp.jsonl"]).case
    at = _open(case)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Model calls"] == "6"
    assert metrics["Tokens (input + output)"] == "—"
    assert metrics["Cost (litellm prices)"] == "—"
    assert any("6 call(s) not priced" in c.value for c in at.caption)


def test_the_replays_prompt_and_reply_are_set_beside_the_originals_with_a_diff():
    case = _evil_case()
    from dgrr_dashboard.state import _plan_digest
    from repair_core import plan_case, repair

    plan = plan_case(case, objective="both")  # the dashboard's objective
    res = repair(case, plan)
    call = CallRecord(stage="claim", attempt=1, messages=[{"role": "user", "content": EVIL}],
                      reply='{"text": "a new reply"}', tokens=10)
    at = _open(case, dgrr_result=res, dgrr_result_key=_plan_digest(plan),
               dgrr_replay_calls=(res, {"s1": [call]}))
    html = [h.proto.body for h in at.get("html")]
    before = [h for h in html if 'class="dgrr-call-before"' in h]
    after = [h for h in html if 'class="dgrr-call-after"' in h]
    assert len(before) == 2 and len(after) == 2  # the prompts, then the replies
    assert not any("<img" in h for h in before + after)
    assert all("&lt;img" in h for h in (before[0], after[0], before[1]))  # escaped
    assert "<mark" in after[1] and "new" in after[1]  # the reply's new words are marked
    assert "<del" in before[1]  # the original completion's words the reply dropped


def test_a_case_with_no_trace_says_so():
    at = _open(load_example())
    assert any("no span timing and no model call" in i.value for i in at.info)


def test_the_graph_inspector_shows_the_original_call_before_a_replay(tmp_path):
    case = import_trace([STRANDS]).case
    chat = next(s for s in case.steps_in_order() if s.type == "plan")
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_selected_node"] = chat.id
    at.switch_page("pages/3_Trace.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("original run's model call" in e.label for e in at.expander)
    assert any("Book my usual seat" in t.value for t in at.text)
    json.dumps([t.value for t in at.text])  # plain strings
