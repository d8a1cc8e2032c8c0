"""The Replay page bounds model calls: its timeout and deadline reach the model client, and
calls that got no reply show as connection failures, not model calls."""

from __future__ import annotations

import time

import pytest
from test_dashboard import _ok, loaded, metrics, page
from test_model_bounds import SilentServer


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def test_replay_page_bounds_a_silent_server_and_counts_connection_failures():
    server = SilentServer()
    try:
        at = loaded()
        page(at, "5_Replay")
        at.text_input(key="dgrr_w_model").set_value("openai/dgrr-reference")
        at.text_input(key="dgrr_w_api_base").set_value(f"http://127.0.0.1:{server.port}/v1")
        at.number_input(key="dgrr_w_timeout").set_value(1.0)
        at.number_input(key="dgrr_w_deadline").set_value(3.0)
        start = time.monotonic()
        _ok(at.button(key="dgrr_w_run_replay").click().run(timeout=120))
        took = time.monotonic() - start
    finally:
        server.stop()
    res = at.session_state["dgrr_result"]
    assert res.answer is None and res.report.failures
    assert res.cost.llm_calls == 0 and res.cost.connection_failures >= 2
    shown = metrics(at)
    assert shown["Model calls"] == "0"
    assert shown["Connection failures"] == str(res.cost.connection_failures)
    assert took < 150  # the deadline, plus litellm's import on a busy machine
