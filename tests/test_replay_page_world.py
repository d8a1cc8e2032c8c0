"""The Replay page shows the effects that need a human and the world ledger."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the pages import the `dgrr_dashboard` helpers
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import load_case  # noqa: E402

APP = str(ROOT / "app.py")
STALE = ROOT / "sample_traces" / "cs-stale-address.json"


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _replayed(data: dict) -> AppTest:
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())
    _ok(at.switch_page("pages/1_Load.py").run())
    at.file_uploader(key="dgrr_w_upload_case").set_value(
        ("case.json", json.dumps(data).encode(), "application/json"))
    at.run()
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    _ok(at.switch_page("pages/5_Replay.py").run())
    return _ok(at.button(key="dgrr_w_run_replay").click().run())


def test_irreversible_effect_is_shown_as_needing_a_human_in_plain_text():
    data = load_case(STALE).model_dump(mode="json")
    for tool in data["tools"]:
        if tool["name"] == "update_shipping_address":
            tool["effect"] = "irreversible"
    at = _replayed(data)
    res = at.session_state["dgrr_result"]
    [note] = res.needs_human
    heads = [s.value for s in at.subheader]
    assert "Needs a human" in heads and "Tool world: the failed run's effects" in heads
    assert any("cannot be undone" in t.value for t in at.text)
    tables = [d.value for d in at.dataframe]
    human = next(t for t in tables if list(t.columns) == ["step", "tool", "args", "reason"])
    assert list(human["step"]) == [note.step]
    assert "needs a human" in human["reason"].iloc[0]
    world = next(t for t in tables if "disposition" in t.columns)
    assert list(world["disposition"]) == ["needs_human"]


def test_compensated_effect_is_listed_in_the_world_table_and_nothing_needs_a_human():
    at = _replayed(load_case(STALE).model_dump(mode="json"))
    heads = [s.value for s in at.subheader]
    assert "Needs a human" not in heads
    world = next(d.value for d in at.dataframe if "disposition" in d.value.columns)
    assert list(world["disposition"]) == ["undone"]
    assert list(world["effect"]) == ["compensable"]
