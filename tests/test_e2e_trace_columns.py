"""The Trace page's tree of an imported trace, in Debian's Chromium: every row's columns
line up (a row with a longer id or type pushed its type, decision and text out of line
with the others), and each step made from a span shows the span's name beside its hex id
(docs/dashboard.md, Trace)."""

from __future__ import annotations

from dashboard_server import BROWSER_MARKS, ROOT, goto_page, idle, open_page, upload_case
from test_e2e_browser import server  # noqa: F401

pytestmark = BROWSER_MARKS

TRACE = ROOT / "sample_imports" / "frameworks" / "openai-agents.otlp.json"

COLUMNS = """() => {
  const rows = [...document.querySelectorAll('#tree details[open] .row')];
  const lefts = {};
  for (const c of ['id', 'sp', 'ty', 'de', 'tx'])
    lefts[c] = [...new Set(rows.map(r => Math.round(r.querySelector('.' + c)
                                                     .getBoundingClientRect().left)))];
  const span = {};
  for (const r of rows) span[r.dataset.id] = r.querySelector('.sp').textContent;
  return {rows: rows.length, lefts: lefts, span: span}; }"""


def test_the_tree_of_an_imported_trace_lines_up_and_names_each_span(server):  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _ = server
    external: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, url, external, width=1440, height=900)
        page.goto(url)
        page.get_by_role("heading", name="dgrr — dependency-guided rollback repair").wait_for()
        upload_case(page, "Trace (OTLP) + Mem0 store", "Import trace or store", TRACE)
        goto_page(page, "Trace")
        idle(page)
        page.wait_for_function("""() => { for (const f of document.querySelectorAll('iframe'))
            { try { if (f.contentDocument.querySelector('#tree .row')) return true; }
              catch (e) {} } return false; }""")
        tree = next(f for f in page.frames
                    if f.evaluate("() => !!document.querySelector('#tree .row')"))
        seen = tree.evaluate(COLUMNS)
        browser.close()
    assert external == [], external
    assert seen["rows"] == 11, seen  # 8 steps and 3 records, every group open
    assert all(len(x) == 1 for x in seen["lefts"].values()), seen["lefts"]
    assert seen["span"]["d6c6289efedf91b1"] == "generation (LLM)"
    assert seen["span"]["9816007ee2968591-action"] == "book_seat (TOOL)"
    assert seen["span"]["9816007ee2968591-observation"] == ""
