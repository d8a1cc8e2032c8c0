"""An upload's memory is released after it is parsed: in real Chromium against
`streamlit run app.py`, a 150 MB case (valid; its bulk is JSON whitespace, so the parsed
case is the small spec example) and then a 120 MB case the page refuses (1,200 records of
100 kB text and a wrong format) are uploaded on the Load page. After each, the server's
resident size (/proc/PID/status VmRSS) must come back to within BOUND_MB of what it was
before the first big upload, the parsed case must work (Load shows it, the Graph draws it)
and the uploader must be empty and usable again. A second test replaces a 20k-step case
on the Load page and checks that the server lets go of it.

The bound: 40 MB, a third of the smaller upload. It leaves room for what a run may
legitimately keep (Streamlit's per-session message cache, the objects the dashboard
freezes after each load, allocator slack): measured here the server ended 5 MB below to
6 MB above its baseline. Before the fix it stayed 294 MB larger after the first upload
and 541 MB after the second: the page kept Streamlit's per-run copy of the bytes in its
namespace (frozen by the dashboard's gc.freeze(), so never collected) and the
uploaded-file manager kept the original while the uploader showed the file.

The replaced-case test measures what the server's allocators still hand out to live
objects (tests/heap_probe/sitecustomize.py, read on a signal), not its resident size:
after a 20k-step case is replaced the server held 0.9 MB more than before it, while its
RSS stayed 27-38 MB higher from run to run (with the same 0.9 MB) — freed memory the
allocators keep mapped: Python's 1 MiB arenas that still hold a few live blocks and
glibc's per-thread arenas (Streamlit runs each script run in a new thread).
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

from dashboard_server import (
    BROWSER_MARKS,
    GRAPH_READY,
    ROOT,
    goto_page,
    idle,
    open_page,
    running_dashboard,
)

pytestmark = BROWSER_MARKS

MB = 1 << 20
BOUND_MB = 40
VALID_MB = 150
REFUSED_MB = 120
EXAMPLE = ROOT / "sample_traces" / "figure1-travel.json"


def padded_case(path: Path, size: int) -> None:
    """The spec example as one valid JSON document of exactly `size` bytes, the rest
    whitespace (as a pretty-printer with deep indentation might write it)."""
    text = EXAMPLE.read_text().strip()
    path.write_text(text[0] + "\n" + " " * (size - len(text) - 1) + text[1:])


def refused_case(path: Path, size: int) -> None:
    """About `size` bytes of a case with 100 kB record texts and a format dgrr refuses."""
    data = json.loads(EXAMPLE.read_text())
    data["format"] = "dgrr.case/v9"
    n = size // 100_000
    data["memory"] += [{"id": f"long{i}", "user_id": "lin", "status": "active", "deps": [],
                        "text": f"note {i} " + "x" * 100_000} for i in range(n)]
    path.write_text(json.dumps(data))


def _server_pid(url: str) -> int:
    """The `streamlit run` child of this process serving `url`."""
    port = url.rsplit(":", 1)[1].encode()
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (d / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and port in cmd:
            return int(d.name)
    raise AssertionError(f"no server process for {url}")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def settled_rss(pid: int, at_most: float, seconds: float = 15) -> float:
    """The RSS once it is at most `at_most` MB, or after `seconds` (freeing happens when
    the rerun that follows a load ends)."""
    deadline = time.monotonic() + seconds
    while True:
        now = rss_mb(pid)
        if now <= at_most or time.monotonic() > deadline:
            return now
        time.sleep(0.5)


PROBE = Path(__file__).resolve().parent / "heap_probe"
LIVE_BOUND_MB = 5


def probe_env(folder: Path) -> dict[str, str]:
    """The environment that makes a server started with it answer SIGUSR1 with its live
    heap in `folder` (heap_probe/sitecustomize.py)."""
    folder.mkdir()
    path = os.pathsep.join(p for p in (str(PROBE), os.environ.get("PYTHONPATH")) if p)
    return {"DGRR_HEAP_PROBE": str(folder), "PYTHONPATH": path}


class HeapProbe:
    """Reads the live heap of the server `pid` started with :func:`probe_env` of `folder`."""

    def __init__(self, pid: int, folder: Path) -> None:
        self.pid, self.folder, self.count = pid, folder, 0

    def read(self) -> dict[str, float]:
        """MB: `live` (what Python's small-object allocator and glibc's malloc have handed
        out), `pymalloc`, `malloc` and `rss`."""
        self.count += 1
        os.kill(self.pid, signal.SIGUSR1)
        path = self.folder / f"{self.count}.json"
        deadline = time.monotonic() + 60
        while not path.exists():
            assert time.monotonic() < deadline, "the server's heap probe did not answer"
            time.sleep(0.1)
        mb = {k: v / MB for k, v in json.loads(path.read_text()).items()}
        return {**mb, "live": mb["pymalloc"] + mb["malloc"]}

    def settled(self, at_most: float, seconds: float = 15) -> dict[str, float]:
        """The live heap once it is at most `at_most` MB, or after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            now = self.read()
            if now["live"] <= at_most or time.monotonic() > deadline:
                return now
            time.sleep(0.5)


def _upload(page, path: Path, expect_text: str) -> None:
    from playwright.sync_api import expect

    panel = page.locator('[role="tabpanel"]:visible')
    go = page.get_by_role("button", name="Load uploaded case")
    expect(go).to_be_disabled()  # an empty uploader
    panel.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    expect(go).to_be_enabled(timeout=180_000)
    idle(page)
    go.click()
    page.get_by_text(expect_text).first.wait_for(timeout=180_000)
    idle(page)
    # the file is gone from the uploader: it is empty and ready for the next upload
    expect(go).to_be_disabled(timeout=60_000)
    assert panel.locator('[data-testid="stFileUploaderFile"]').count() == 0


def _select_tab(page, name: str) -> None:
    """Select the Load page's tab `name`; a click that lands while the page re-renders
    (right after a load under a busy machine) is lost, so it is retried until selected."""
    tab = page.get_by_role("tab", name=name)
    for _ in range(10):
        idle(page)
        tab.click()
        idle(page)
        if tab.get_attribute("aria-selected") == "true":
            return
        time.sleep(1)
    raise AssertionError(f"the {name!r} tab could not be selected")


def _upload_tab(page) -> None:
    goto_page(page, "Load")
    _select_tab(page, "Upload a case")


def test_a_large_upload_is_released_after_it_is_parsed(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    valid, refused = tmp_path / "big-case.json", tmp_path / "big-refused.json"
    padded_case(valid, VALID_MB * MB)
    refused_case(refused, REFUSED_MB * MB)
    assert valid.stat().st_size == VALID_MB * MB and refused.stat().st_size > 115 * MB
    env = {"DGRR_DB": str(tmp_path / "approvals.db"), "HOME": str(tmp_path)}
    external: list[str] = []
    with running_dashboard(tmp_path, env) as url, sync_playwright() as p:
        pid = _server_pid(url)
        browser, page = open_page(p, url, external)
        page.goto(url)
        idle(page)
        # warm up: what one small upload, a load and a graph import stay in the baseline
        _upload_tab(page)
        _upload(page, EXAMPLE, "Loaded case fig1-travel from figure1-travel.json")
        goto_page(page, "Graph")
        page.wait_for_function(GRAPH_READY, timeout=120_000)
        _upload_tab(page)
        time.sleep(2)
        before = rss_mb(pid)

        _upload(page, valid, "Loaded case fig1-travel from big-case.json")
        after_valid = settled_rss(pid, before + BOUND_MB)
        expect(page.get_by_role("heading", name=re.compile("Current case: fig1-travel"))
               ).to_be_visible()
        goto_page(page, "Graph")
        page.wait_for_function(GRAPH_READY, timeout=120_000)
        assert page.locator('[data-testid="stException"]').count() == 0

        _upload_tab(page)
        _upload(page, refused, "Could not load big-refused.json")
        page.get_by_text("The previous case fig1-travel is still loaded, unchanged.").wait_for()
        after_refused = settled_rss(pid, before + BOUND_MB)
        browser.close()
    print(f"server RSS: before {before:.0f} MB, after a {VALID_MB} MB valid upload "
          f"{after_valid:.0f} MB, after a {REFUSED_MB} MB refused one {after_refused:.0f} MB")
    assert external == []
    assert after_valid - before <= BOUND_MB, (before, after_valid)
    assert after_refused - before <= BOUND_MB, (before, after_refused)


def _load_sample(page, name: str) -> None:
    """Choose and load the sample `name` on the Load page. Choosing reruns the page; in two
    fresh-clone runs of the whole suite (not reproduced alone or under load) the Load page's
    tabs or its button were then not shown for 60 s after a large case had been loaded, so
    the page is opened again and the choice repeated when the button does not appear."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(3):
        goto_page(page, "Load")
        _select_tab(page, "Sample")
        box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Sample").first
        box.locator("input").click()
        box.locator("input").fill(name)
        page.locator('[role="option"]').filter(has_text=name).first.click()
        # once in a full suite run the menu stayed open over the button, the click on the
        # option lost (/tmp/dgrr-load-sample-*.png): close it, and choose again if need be
        if page.locator('[role="option"]').first.is_visible():
            page.keyboard.press("Escape")
        idle(page)
        try:
            page.get_by_role("button", name="Load sample").click(timeout=20_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                page.screenshot(path=f"/tmp/dgrr-load-sample-{os.getpid()}.png")
                raise
    page.get_by_text(f"Loaded case fig1-travel from {name}").first.wait_for()
    idle(page)


def test_a_case_replaced_on_the_load_page_is_released(tmp_path):
    """A 20k-step case uploaded, then the spec example loaded over it on the Load page: the
    server's live heap comes back to within LIVE_BOUND_MB of what it was before the big
    case (it grew by about 36 MB with it, 110 MB before loaded items shared their field
    names and the sidebar stopped planning on Load; the Load page's namespace, the session's
    plan-digest cache and process-wide caches of texts kept it before), and at least half
    of what the case added to the resident size is returned (memory outside the two
    allocators the probe reads)."""
    from playwright.sync_api import sync_playwright

    from repair_core.cli import main

    big = tmp_path / "synth-20k.json"
    assert main(["synth", "--steps", "20000", "--seed", "2", "--out", str(big)]) == 0
    small = tmp_path / "synth-2k.json"
    assert main(["synth", "--steps", "2000", "--seed", "2", "--out", str(small)]) == 0
    env = {"DGRR_DB": str(tmp_path / "approvals.db"), "HOME": str(tmp_path),
           **probe_env(tmp_path / "heap")}
    with running_dashboard(tmp_path, env) as url, sync_playwright() as p:
        heap = HeapProbe(_server_pid(url), tmp_path / "heap")
        browser, page = open_page(p, url, [])
        page.goto(url)
        idle(page)
        # a case a tenth the size goes the same way first: the modules and one-time
        # tables a large case's pages import stay, the case itself must not
        _upload_tab(page)
        _upload(page, small, "Loaded case synth-2000s-400m-seed2 from synth-2k.json")
        _load_sample(page, "(built-in) spec example: figure1-travel")
        goto_page(page, "Faults")
        idle(page)
        goto_page(page, "Load")
        idle(page)
        _upload_tab(page)
        time.sleep(2)
        before = heap.read()
        _upload(page, big, "Loaded case synth-20000s-4000m-seed2 from synth-20k.json")
        with_big = heap.read()
        _load_sample(page, "(built-in) spec example: figure1-travel")
        # Streamlit lets go of a session-state key's previous value at the next run
        goto_page(page, "Faults")
        idle(page)
        goto_page(page, "Load")
        idle(page)
        after = heap.settled(before["live"] + LIVE_BOUND_MB)
        browser.close()
    print("server MB (live heap = pymalloc + malloc, RSS): " + "; ".join(
        f"{name} {m['live']:.1f} = {m['pymalloc']:.1f} + {m['malloc']:.1f}, {m['rss']:.0f}"
        for name, m in (("before", before), ("with the 20k-step case", with_big),
                        ("after replacing it", after))))
    # the big case was really held, several times the bound it must come back within
    assert with_big["live"] - before["live"] > 4 * LIVE_BOUND_MB
    assert after["live"] - before["live"] <= LIVE_BOUND_MB, (before, with_big, after)
    assert after["rss"] - before["rss"] <= (with_big["rss"] - before["rss"]) / 2, (
        before, with_big, after)
