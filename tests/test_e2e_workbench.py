"""The reviewer's workbench in real headless Chromium (Debian's, 1440×900) against
`streamlit run app.py`: legible, non-overlapping graphs on every sample, click and search
to the page's details, the trace tree's search, the approval warnings gate and a double
click, a case full of Markdown/HTML/backtick payloads on every page with every non-local
request recorded (none may happen), and the guided demo's whole graph."""

from __future__ import annotations

import json
import os
import re
import shutil

from dashboard_server import (
    BROWSER_MARKS,
    GRAPH_READY,
    ROOT,
    goto_page,
    idle,
    open_page,
    upload_case,
    widget_label,
)
from test_e2e_browser import server  # noqa: F401

pytestmark = BROWSER_MARKS

ARTIFACTS = ROOT / "test-artifacts"
SAMPLES = ["(built-in) spec example: figure1-travel",
           "sample_traces/travel-two-faults.json",
           "sample_traces/cs-stale-address.json", "sample_traces/shop-summary-drift.json",
           "sample_traces/adapted/adp-001-syn_42_001.json"]


def _graph(page):
    """The Playwright frame holding the vis-network graph (inside dgrr's component)."""
    page.wait_for_function(GRAPH_READY, timeout=60_000)
    for f in page.frames:
        try:
            if f.evaluate("() => !!window.dgrrReady && typeof network !== 'undefined'"):
                return f
        except Exception:  # noqa: BLE001 - frames that are gone or cross-document
            continue
    raise AssertionError("no graph frame")


def _tree(page):
    page.wait_for_function("""() => { for (const f of document.querySelectorAll('iframe')) {
        try { if (f.contentDocument.getElementById('tree-count')) return true; } catch (e) {} }
        return false; }""")
    for f in page.frames:
        try:
            if f.evaluate("() => !!document.getElementById('tree-count')"):
                return f
        except Exception:  # noqa: BLE001
            continue
    raise AssertionError("no tree frame")


_TREE_ROWS_BELOW = """() => { for (const f of document.querySelectorAll('iframe')) {
    try { const c = f.contentDocument.getElementById('tree-count');
          if (c && Number(c.dataset.shown) < %d) return true; } catch (e) {} }
    return false; }"""


def _selectbox(page, label: str):
    return page.locator('[data-testid="stSelectbox"]').filter(has=widget_label(page, label)).first


def _pick(page, label: str, option: str) -> None:
    """Choose `option` in the Streamlit selectbox whose label starts with `label`."""
    box = _selectbox(page, label)
    box.locator("input").click()
    page.locator('[role="option"]').filter(has_text=option).first.click()
    idle(page)


def _load_sample(page, name: str) -> None:
    goto_page(page, "Load")
    box = _selectbox(page, "Sample")
    box.locator("input").click()
    box.locator("input").fill(name)
    page.locator('[role="option"]').filter(has_text=name).first.click()
    page.get_by_role("button", name="Load sample").click()
    page.get_by_text(re.compile(r"^Loaded case")).first.wait_for()
    idle(page)


MEASURE = """() => {
  const ids = network.body.data.nodes.getIds();
  const boxes = ids.map(id => [id, network.getBoundingBox(id)]);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i][1], b = boxes[j][1];
    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
      overlaps.push([boxes[i][0], boxes[j][0]]);
  }
  const fonts = ids.map(id => network.body.nodes[id].options.font.size);
  const r = document.getElementById('mynetwork').getBoundingClientRect();
  const inView = id => { const p = network.canvasToDOM(network.getPositions([id])[id]);
    return p.x >= 0 && p.y >= 0 && p.x <= r.width && p.y <= r.height; };
  // The whole node, label included, inside the canvas (not just its centre).
  const boxInView = id => { const b = network.getBoundingBox(id);
    const a = network.canvasToDOM({x: b.left, y: b.top}), c = network.canvasToDOM({x: b.right, y: b.bottom});
    return a.x >= 0 && a.y >= 0 && c.x <= r.width && c.y <= r.height; };
  const faults = JSON.parse(document.getElementById('dgrr-faults').textContent);
  return {n: ids.length, scale: network.getScale(), minFont: Math.min(...fonts),
          overlaps: overlaps, faultsInView: faults.every(inView),
          allInView: ids.every(inView), outside: ids.filter(id => !boxInView(id)),
          canvas: [r.width, r.height]}; }"""


def test_graphs_are_legible_without_overlap_and_click_and_search_reach_the_page(server):  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    url, _ = server
    external: list[str] = []
    seen = {}
    with sync_playwright() as p:
        browser, page = open_page(p, url, external, width=1440, height=900)
        page.goto(url)
        page.get_by_role("heading", name="dgrr — dependency-guided rollback repair").wait_for()
        for name in SAMPLES:
            _load_sample(page, name)
            goto_page(page, "Graph")
            # beside the inspector the picture is narrower: labels stay legible and the
            # faults in view (the default view zooms to them when the whole does not fit)
            beside = _graph(page).evaluate(MEASURE)
            assert beside["minFont"] * beside["scale"] >= 11 and beside["faultsInView"], beside
            # with the inspector below, the full-width picture opens whole
            page.get_by_text("below the picture (a wider picture)").click()
            idle(page)
            page.wait_for_timeout(500)
            # the inspector below the picture draws too (no error box in the page)
            expect(page.get_by_role("heading", name="Node details")).to_be_visible()
            assert page.locator('[data-testid="stException"]').count() == 0, name
            m = _graph(page).evaluate(MEASURE)
            seen[name] = m
            assert m["n"] <= 200
            assert m["minFont"] * m["scale"] >= 11, (name, m)  # every label >= 11 px
            assert m["overlaps"] == [], (name, m["overlaps"][:5])
            assert m["faultsInView"], name
            # A small case opens whole: every node (label included) inside the frame.
            assert m["allInView"] and m["outside"] == [], (name, m)

        # Click a node: its details appear in the page and the picker follows.
        _load_sample(page, SAMPLES[0])
        goto_page(page, "Graph")
        g = _graph(page)
        ARTIFACTS.mkdir(exist_ok=True)
        graph_shot = ARTIFACTS / "workbench-graph.png"
        # the picture starts on the first screen (1440×900), its canvas whole in its frame
        frame = page.locator("iframe").first
        page.evaluate("window.scrollTo(0, 0)")
        top = frame.bounding_box()
        assert top is not None and top["y"] < 600, top
        assert g.evaluate("""() => { const el = document.getElementById('mynetwork');
            return el.getBoundingClientRect().right <= document.documentElement.clientWidth; }""")
        xy = g.evaluate("""() => { const p = network.canvasToDOM(network.getPositions(['m6'])['m6']);
            return [p.x, p.y]; }""")  # relative to #mynetwork
        g.locator("#mynetwork").click(position={"x": xy[0], "y": xy[1]})
        picker = page.get_by_role("combobox", name="Node", exact=True)
        expect(picker).to_have_value("m6 · record", timeout=30_000)
        expect(page.get_by_text("no independent support: quarantined").first).to_be_visible()
        idle(page)
        # the path from the fault m3 to m6 is outlined on the picture (the docs' picture)
        _graph(page).wait_for_function(
            "() => window.dgrrPathShown && window.dgrrPathShown.edges.length === 3")
        assert sorted(map(tuple, _graph(page).evaluate("window.dgrrPathShown.edges"))) == [
            ("m3", "s3"), ("s11", "m6"), ("s3", "s11")]
        # no tooltip over the picture: the pointer to an empty corner of the canvas
        _graph(page).locator("#mynetwork").hover(position={"x": 4, "y": 4})
        page.wait_for_timeout(600)
        frame.screenshot(path=str(graph_shot))
        # Search: centres and selects the node, and the page shows it. Under load the
        # re-run after the click can reach the graph after the search and select m6 again
        # (seen once in a fresh-clone run), so the search is repeated until it holds.
        for _ in range(3):
            g = _graph(page)
            g.locator("#dgrr-search").fill("s11")
            g.locator("#dgrr-search").press("Enter")
            page.wait_for_timeout(500)
            idle(page)
            if _graph(page).evaluate("network.getSelectedNodes()") == ["s11"]:
                break
        g = _graph(page)
        assert g.evaluate("network.getSelectedNodes()") == ["s11"]
        off = g.evaluate("""() => { const p = network.canvasToDOM(network.getPositions(['s11'])['s11']);
            const el = document.getElementById('mynetwork');
            return [Math.abs(p.x - el.clientWidth / 2), Math.abs(p.y - el.clientHeight / 2)]; }""")
        dbg = g.evaluate("""() => { const p = network.canvasToDOM(network.getPositions(['s11'])['s11']);
            const el = document.getElementById('mynetwork');
            return [p.x, p.y, el.clientWidth, el.clientHeight, network.getScale(), window.innerHeight, document.body.scrollHeight]; }""")
        assert off[0] < 5 and off[1] < 5, (off, dbg)
        expect(picker).to_have_value("s11 · memory_write", timeout=30_000)
        idle(page)

        # The trace tree: the page's search and filters (server-side, over every row)
        # choose the rows; a click shows the details in the page.
        goto_page(page, "Trace")
        total = _tree(page).locator(".row").count()
        search = page.get_by_label("Search id or text (every step and record)")
        search.fill("seat")
        search.press("Enter")
        idle(page)
        page.wait_for_function(_TREE_ROWS_BELOW % total, timeout=30_000)
        t = _tree(page)
        shown = t.locator(".row")
        n = shown.count()
        assert 0 < n < total
        for i in range(n):
            assert "seat" in shown.nth(i).get_attribute("title").lower()
        _pick(page, "Decision", "quarantine")
        page.wait_for_function(_TREE_ROWS_BELOW % 2, timeout=30_000)
        t = _tree(page)
        assert t.locator(".row").count() == 1
        t.locator(".row").first.click()
        expect(page.get_by_text("Decision: quarantine").first).to_be_visible(timeout=30_000)
        _pick(page, "Decision", "(all)")
        search.fill("")
        search.press("Enter")
        idle(page)
        tree_shot = ARTIFACTS / "workbench-tree.png"
        page.locator("iframe").first.screenshot(path=str(tree_shot))

        # The approval summary of the replayed Figure-1 repair.
        goto_page(page, "Replay")
        page.get_by_role("button", name="Run replay").click()
        expect(page.get_by_text("Replay finished.")).to_be_visible(timeout=120_000)
        goto_page(page, "Approve")
        heading = page.get_by_role("heading", name="What you approve")
        heading.scroll_into_view_if_needed()
        idle(page)
        page.mouse.wheel(0, 150)
        page.wait_for_timeout(300)
        summary_shot = ARTIFACTS / "workbench-approve.png"
        page.screenshot(path=str(summary_shot))

        # The guided demo draws the whole Figure-1 graph, the fault in view, legibly.
        page.goto(url)
        page.get_by_role("button", name="Run the whole story").click()
        page.get_by_text("1 · The fault").wait_for(timeout=120_000)
        idle(page)
        m = _graph(page).evaluate(MEASURE)
        assert m["n"] == 19 and m["allInView"] and m["faultsInView"] and m["outside"] == [], m
        assert m["minFont"] * m["scale"] >= 11 and m["overlaps"] == []
        browser.close()
    assert external == [], external
    if os.environ.get("DGRR_UPDATE_SCREENSHOT") == "1":
        shutil.copy(graph_shot, ROOT / "docs" / "dashboard.png")
        shutil.copy(tree_shot, ROOT / "docs" / "dashboard-trace.png")
        shutil.copy(summary_shot, ROOT / "docs" / "dashboard-approve.png")


EVIL = "evil.example"
PAYLOAD = (f"![t](http://{EVIL}/img.png) <img src=\"http://{EVIL}/tag.png\" onerror=\"alert(1)\">"
           f" [link](http://{EVIL}/l) http://{EVIL}/auto www.{EVIL} :red[x] $x^2$ "
           f"<script>alert(2)</script> `tick` **b**")


def _nothing_live(page) -> None:
    """No link or image in the page (or dgrr's frames) points at the payloads' host."""
    for frame in page.frames:
        try:
            found = frame.evaluate(
                f"() => [...document.querySelectorAll('a[href*=\"{EVIL}\"], img[src*=\"{EVIL}\"]')]"
                ".map(e => e.outerHTML)")
        except Exception:  # noqa: BLE001 - a frame that went away
            continue
        assert found == [], found


def payload_case() -> str:
    """Figure 1 with Markdown, HTML and backtick payloads in ids, texts, the case id and
    the domain (ids renamed everywhere they are referenced)."""
    text = (ROOT / "repair_core" / "fixtures" / "figure1-travel.json").read_text()
    renames = {"m3": f"m3`![i](http://{EVIL}/id.png)`",
               "s11": f"s11](http://{EVIL}/x)<img src=http://{EVIL}/i2.png>",
               "m1": "m1``<b>`"}
    for old, new in renames.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    data = json.loads(text)
    data["case_id"] = f"evil`![c](http://{EVIL}/c.png)`"
    data["domain"] = f"![d](http://{EVIL}/d.png)"
    for item in [*data["memory"], *data["session"], *data["trajectory"]]:
        item["text"] = f"{item['text']} {PAYLOAD}"
    return json.dumps(data)


def test_payloads_never_leave_the_machine_and_approval_gates(server, tmp_path):  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    url, db = server
    external: list[str] = []
    dialogs: list[str] = []
    case_file = tmp_path / "evil-case.json"
    case_file.write_text(payload_case())
    with sync_playwright() as p:
        browser, page = open_page(p, url, external, width=1440, height=900)
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(url)
        upload_case(page, "Upload a case", "Load uploaded case", case_file)
        _nothing_live(page)
        for label in ("Faults", "Graph", "Trace", "Plan"):
            goto_page(page, label)
            idle(page)
            _nothing_live(page)
        goto_page(page, "Graph")
        _graph(page)
        goto_page(page, "Trace")
        _tree(page)
        # Approve before any replay: one warning (not replayed) gates the approval; a
        # double click and one more click record one decision.
        goto_page(page, "Approve")
        expect(page.get_by_role("heading", name="What you approve")).to_be_visible()
        page.get_by_label("Reviewer").fill("Ana Reviewer")
        page.get_by_label("Comment (a rejection needs a reason)").fill("checked")
        warnings = page.locator('[data-testid="stCheckbox"]')
        assert warnings.count() == 1
        expect(warnings.first).to_contain_text("This plan has not been replayed")
        page.get_by_role("button", name="Record decision").click()
        page.get_by_text("acknowledge every warning").first.wait_for()
        warnings.first.locator("label").click()
        idle(page)
        page.get_by_role("button", name="Record decision").dblclick()
        page.get_by_text("by Ana Reviewer").first.wait_for(timeout=30_000)
        idle(page)
        page.get_by_role("button", name="Record decision").click()  # and once more
        page.get_by_text("already recorded").first.wait_for(timeout=30_000)
        alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
        assert any("already recorded: #1 (approve) by Ana Reviewer" in a for a in alerts), alerts

        goto_page(page, "Replay")
        page.get_by_role("button", name="Run replay").click()
        expect(page.get_by_text("Replay finished.")).to_be_visible(timeout=120_000)
        idle(page)
        _nothing_live(page)
        for label in ("Compare", "Trace", "Graph"):
            goto_page(page, label)
            idle(page)
            _nothing_live(page)
        _graph(page)
        goto_page(page, "Approve")
        expect(page.get_by_role("heading", name="What you approve")).to_be_visible()
        idle(page)
        _nothing_live(page)
        goto_page(page, "Benchmark")
        idle(page)
        goto_page(page, "Load")
        idle(page)
        _nothing_live(page)
        page.goto(url)  # the home page with the case loaded
        idle(page)
        _nothing_live(page)
        browser.close()

    from repair_core.approvals import ApprovalStore

    rows = ApprovalStore(str(db)).history()
    assert len(rows) == 1 and rows[0].reviewer == "Ana Reviewer"
    assert external == [], external
    assert dialogs == []


def test_payload_case_is_valid():
    """The payload case loads (its ids are renamed consistently)."""
    from repair_core import parse_case

    case = parse_case(payload_case().encode(), source="evil")
    assert any("evil.example/id.png" in f for f in case.faults)
