"""The Approve page shows the LangGraph thread fork `dgrr fork-thread --apply` recorded:
the thread, the old head kept for audit, the new head, the checkpoint it forked from and
the messages the fork dropped, as plain text (Streamlit AppTest). The fork is a real one:
the travel agent of scripts/langgraph_travel_run.py on an InMemorySaver, traced, imported,
repaired, approved, and forked through the CLI."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("langgraph.store.memory", reason="needs the 'import' extra (langgraph)")
pytest.importorskip("openinference.instrumentation.langchain", reason="needs the 'import' extra")

ROOT = Path(__file__).resolve().parents[1]
for where in (ROOT, ROOT / "scripts", ROOT / "tests"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))

from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import load_case  # noqa: E402
from repair_core.approvals import ApprovalStore, sha256_json  # noqa: E402
from repair_core.cli import main  # noqa: E402

pytestmark = pytest.mark.slow

APP = str(ROOT / "app.py")
THREAD = {"configurable": {"thread_id": "lin-1"}}
HOSTILE = "[click](http://evil.example) <b>bold</b> **x** <script>alert(1)</script>"


def _real_fork(tmp_path: Path, capsys, monkeypatch) -> tuple[Path, str]:
    """A real thread forked by `dgrr fork-thread --apply`; the case and approvals db."""
    from langgraph_travel_run import build
    from test_langgraph_threads import SEAT, _replies, traced_thread_run

    inner, saver, trace = traced_thread_run(tmp_path)
    case, result, db = tmp_path / "case.json", tmp_path / "result.json", tmp_path / "a.db"
    assert main(["import", str(trace), "--faults", SEAT, "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--json"]) in (0, 1)
    result.write_text(capsys.readouterr().out)
    assert main(["approve", str(case), "--reviewer", "ana", "--decision", "approve",
                 "--result", str(result), "--db", str(db)]) == 0
    (tmp_path / "fork_graph_factory.py").write_text(textwrap.dedent("""
        GRAPH = None

        def graph():
            return GRAPH
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import fork_graph_factory

    fork_graph_factory.GRAPH = build(inner, checkpointer=saver, replies=_replies(), learns={})
    try:
        assert main(["fork-thread", str(case), "--graph", "fork_graph_factory:graph",
                     "--thread", "lin-1", "--db", str(db), "--apply", "--reviewer", "ops",
                     "--result", str(result)]) == 0
    finally:
        sys.modules.pop("fork_graph_factory", None)
    capsys.readouterr()
    return case, str(db)


def _approve_page(case: Path, db: str, monkeypatch) -> AppTest:
    monkeypatch.setenv("DGRR_DB", db)
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["dgrr_case"] = load_case(case)
    at.session_state["dgrr_source"] = "test"
    at = at.run()
    at = at.switch_page("pages/7_Approve.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _markdown(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.error] + [e.value for e in at.success]
    return "\n".join(map(str, parts))


def test_the_approve_page_shows_the_recorded_fork_as_text(tmp_path, capsys, monkeypatch):
    from langgraph_travel_run import STORE

    case, db = _real_fork(tmp_path, capsys, monkeypatch)
    log = ApprovalStore(db)
    [event] = [r for r in log.history() if r.kind == "applied"]
    record = json.loads(event.comment)
    assert record["fork"] and record["dropped"]
    # a record of the same format with hostile strings, and one altered after recording
    approval = event.refers_to
    hostile = {**record, "thread_id": HOSTILE,
               "dropped": [{"id": "m-x", "type": "ai", "text": HOSTILE}]}
    log.record_applied(approval, reviewer=HOSTILE, target=f"langgraph-thread:{HOSTILE}",
                       outputs_sha256=sha256_json(hostile), comment=json.dumps(hostile))
    log.record_applied(approval, reviewer="mallory", target="langgraph-thread:lin-1",
                       outputs_sha256=sha256_json(record),
                       comment=json.dumps({**record, "fork_from": record["head"]}))
    log.record_applied(approval, reviewer="eve", target="langgraph-thread:lin-1",
                       comment="{not json")
    log.close()

    at = _approve_page(case, db, monkeypatch)
    assert "LangGraph thread forks" in [h.value for h in at.subheader]
    blocks = [t.value for t in at.text if "old head (kept for audit):" in t.value]
    assert len(blocks) == 3  # newest first: the altered one, the hostile one, the real one
    altered, shown_hostile, real = blocks
    for label, value in (("thread:", "lin-1"), ("old head (kept for audit):", record["head"]),
                         ("new head (the fork):", record["fork"]),
                         ("forked from checkpoint:", record["fork_from"]),
                         ("poison first in checkpoint:", record["first_poisoned"])):
        assert re.search(rf"^{re.escape(label)}\s+{re.escape(value)}", real, re.M), label
    assert "the record matches its digest in the log" in real
    assert repr(STORE["seat"]) in real  # the poisoned text found in the thread
    assert "DOES NOT MATCH ITS DIGEST" in altered
    # the dropped messages, as the fork recorded them, in a table (plain text)
    tables = [d.value for d in at.dataframe if list(d.value.columns) == ["type", "id", "text"]]
    assert [t.to_dict("records") for t in tables][2] == record["dropped"]
    assert any(STORE["seat"] in row["text"] or "window" in row["text"]
               for row in record["dropped"])
    # hostile strings: verbatim in text elements, never Markdown or HTML
    assert f"thread:                       {HOSTILE}" in shown_hostile
    assert tables[1].to_dict("records")[0]["text"] == HOSTILE
    markdown = _markdown(at)
    for raw in ("](http", "<b>", "<script>", "**x**"):
        assert raw not in markdown, raw
    assert not [h for h in at.get("html") if "evil.example" in h.proto.body]
    # the unreadable record is named, not a traceback
    assert "the fork record is not JSON" in re.sub(r"\\(.)", r"\1", markdown)


def test_no_fork_recorded_says_how_to_make_one(tmp_path, monkeypatch):
    from repair_core import load_example

    path = tmp_path / "case.json"
    path.write_text(load_example().model_dump_json())
    at = _approve_page(path, str(tmp_path / "empty.db"), monkeypatch)
    assert "LangGraph thread forks" in [h.value for h in at.subheader]
    assert "No thread fork recorded for this case" in _markdown(at)
    assert not [t for t in at.text if "old head (kept for audit):" in t.value]


@pytest.mark.browser
def test_the_fork_in_real_chromium(tmp_path, capsys, monkeypatch):
    """The same view in Debian's Chromium: the case uploaded on the Load page, the fork on
    the Approve page as plain text; a hostile record makes no link, bold text or script,
    and the page asks nothing from outside the loopback server."""
    from dashboard_server import CHROMIUM, goto_page, idle, open_page, running_dashboard

    if not CHROMIUM.exists():
        pytest.skip("needs Debian chromium")
    from dashboard_server import upload_case
    from playwright.sync_api import sync_playwright

    case, db = _real_fork(tmp_path, capsys, monkeypatch)
    log = ApprovalStore(db)
    [event] = [r for r in log.history() if r.kind == "applied"]
    record = json.loads(event.comment)
    hostile = {**record, "thread_id": HOSTILE,
               "dropped": [{"id": "m-x", "type": "ai", "text": HOSTILE}]}
    log.record_applied(event.refers_to, reviewer=HOSTILE, target=f"langgraph-thread:{HOSTILE}",
                       outputs_sha256=sha256_json(hostile), comment=json.dumps(hostile))
    log.close()
    env = {"DGRR_DB": db, "HOME": str(tmp_path)}
    external: list[str] = []
    with running_dashboard(tmp_path, env) as url, sync_playwright() as p:
        browser, page = open_page(p, url, external, width=1440, height=900)
        try:
            page.goto(url)
            idle(page)
            upload_case(page, "Upload a case", "Load uploaded case", case)
            goto_page(page, "Approve")
            idle(page)
            page.get_by_role("heading", name="LangGraph thread forks").wait_for()
            body = page.locator("body").inner_text()
            assert f"old head (kept for audit):    {record['head']}" in body
            assert f"new head (the fork):          {record['fork']}" in body
            assert f"forked from checkpoint:       {record['fork_from']}" in body
            assert f"thread:                       {HOSTILE}" in body  # verbatim
            assert page.locator('a[href*="evil.example"]').count() == 0
            assert page.locator("b", has_text="bold").count() == 0
            assert page.locator("strong", has_text=re.compile(r"^x$")).count() == 0
            assert page.locator("script", has_text="alert(1)").count() == 0
        finally:
            browser.close()
    assert external == [], external
