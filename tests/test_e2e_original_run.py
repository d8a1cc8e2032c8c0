"""In real headless Chromium (Debian's, 1440×900) against `streamlit run app.py`: the graph
coloured by analysis, with its legend, and an imported framework trace's original run —
its waterfall, its model calls with their cost, a call's prompt and completion — with no
request leaving the machine. `DGRR_UPDATE_SCREENSHOT=1` copies the screenshots to
`docs/dashboard-analysis.png` and `docs/dashboard-model-calls.png`."""

from __future__ import annotations

import os
import shutil

from dashboard_server import BROWSER_MARKS, ROOT, goto_page, idle, open_page, upload_case
from test_e2e_browser import server  # noqa: F401
from test_e2e_workbench import _graph, _load_sample

pytestmark = BROWSER_MARKS

ARTIFACTS = ROOT / "test-artifacts"
STRANDS = ROOT / "sample_imports" / "frameworks" / "strands.otlp.json"


def test_analysis_colouring_and_the_original_runs_model_calls(server):  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    from repair_core import load_example, plan_case
    from repair_core.viz import NODE_CLASSES, node_class

    url, _ = server
    external: list[str] = []
    ARTIFACTS.mkdir(exist_ok=True)
    plan = plan_case(load_example(), objective="both")
    with sync_playwright() as p:
        browser, page = open_page(p, url, external, width=1440, height=900)
        page.goto(url)
        page.get_by_role("heading", name="dgrr — dependency-guided rollback repair").wait_for()
        _load_sample(page, "(built-in) spec example: figure1-travel")
        goto_page(page, "Graph")
        _graph(page)
        page.locator('[data-testid="stRadio"]').filter(has_text="Colour by") \
            .get_by_text("analysis", exact=True).click()
        idle(page)
        page.wait_for_timeout(500)
        g = _graph(page)
        colours = g.evaluate("""() => Object.fromEntries(network.body.data.nodes.get()
            .map(n => [n.id, typeof n.color === 'string' ? n.color : n.color.background]))""")
        assert colours["m3"] == NODE_CLASSES["fault"][0]
        assert colours["s11"] == NODE_CLASSES[node_class(plan, "s11")][0]
        for _, label, _ in NODE_CLASSES.values():
            expect(page.get_by_text(label, exact=True).first).to_be_attached()
        analysis_shot = ARTIFACTS / "original-run-analysis.png"
        page.screenshot(path=str(analysis_shot))

        upload_case(page, "Trace (OTLP) + Mem0 store", "Import trace", STRANDS)
        goto_page(page, "Model calls")
        idle(page)
        expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("4")
        expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible(
            timeout=60_000)
        expect(page.get_by_text("Book my usual seat on the Friday flight to Tokyo.").first) \
            .to_be_visible()
        page.wait_for_timeout(1000)  # the chart draws after it is attached
        calls_shot = ARTIFACTS / "original-run-model-calls.png"
        page.screenshot(path=str(calls_shot), full_page=True)
        browser.close()
    assert external == [], external
    if os.environ.get("DGRR_UPDATE_SCREENSHOT") == "1":
        shutil.copy(analysis_shot, ROOT / "docs" / "dashboard-analysis.png")
        shutil.copy(calls_shot, ROOT / "docs" / "dashboard-model-calls.png")
