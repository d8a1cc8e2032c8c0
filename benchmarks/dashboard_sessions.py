"""Does one reviewer's big case slow another reviewer's dashboard session?

    python benchmarks/dashboard_sessions.py                  # dgrr synth --steps 100000
    python benchmarks/dashboard_sessions.py --steps 10000 --rounds 2

One real server (`streamlit run app.py` on a free loopback port, as the browser tests
start it) and two headless Chromium pages, i.e. two Streamlit sessions:

- Session B (a reviewer on a small case) loops over small page changes on the built-in
  sample: Load sample, Faults, Graph, Trace, Plan, Compare. Each interaction is timed from
  the click until the page is idle again (the new page's title is shown and the app's
  script state is back to "notRunning"): what a person waits for.
- Session A (a reviewer on a 130k-node case) uploads the `dgrr synth` case, loads it,
  opens every page twice and records an approval, each timed the same way.

With `--b-websocket`, B is no browser page but a client of the server's websocket that
sends the messages Streamlit's frontend sends (a rerun of a page; a button's trigger) and
reads what comes back: B's times are then the server's alone, from the request until the
script has finished and its elements have arrived (the page's title and text checked in
them), without drawing.

B first loops alone (baseline, A idle), then while A works, then alone again. B's times
are reported per phase (median, p95, max), A's per step. The machine's load average is
printed at the start and the end: other work on the machine slows both phases alike, so
compare the phases of one run and repeat runs.

With `--a-websocket`, A is driven the same way (its upload too: an upload URL asked of
the session, the file PUT there, as the frontend does): the server does all of A's work
and nothing of A is drawn on this machine, as when each reviewer's browser runs on their
own. B's times in Chromium are then what B waits for: the server's share, with A's load
in it, and B's own drawing. "during A load" reports B's changes that overlapped A's parse,
validate and plan.

With `--pin`, the server runs on CPU 0 and the browser (both sessions' pages, and
Playwright's driver) on CPU 1, so the server shares no CPU with the drawing. Both pages
then draw on one CPU, so with B in Chromium its times grow (docs/performance.md, run 13);
with `--b-websocket` they hold the server's share alone. (The server keeps its threads on
one CPU by itself anyway: `DGRR_SERVER_CPU`, docs/dashboard.md.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
TITLES = {"Load": "1 · Load a case", "Faults": "2 · Diagnosed faults",
          "Graph": "3 · Dependency graph", "Trace": "3c · Trace tree and timeline",
          "Plan": "4 · Repair plan", "Compare": "6 · Compare before and after",
          "Approve": "7 · Approve or reject"}
B_PAGES = ["Faults", "Graph", "Trace", "Plan", "Compare"]
A_PAGES = ["Faults", "Graph", "Trace", "Plan", "Compare", "Approve"]
IDLE_JS = """([title, text]) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    const live = [...document.querySelectorAll(
        '[data-testid="stElementContainer"]:not([data-stale="true"])')];
    const has = (s) => live.some((e) => e.innerText && e.innerText.includes(s));
    return has(title) && (!text || has(text));
}"""


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_seconds() -> dict[str, float]:
    """CPU seconds (user + system) used so far by this script's descendants, summed by kind:
    the dashboard server, Chromium (both sessions' pages), the rest."""
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, str, float]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        procs[int(d.name)] = (int(fields[1]), cmd,
                              (int(fields[11]) + int(fields[12])) / tick)
    mine = {os.getpid()}
    for _ in range(8):
        mine |= {pid for pid, (ppid, _, _) in procs.items() if ppid in mine}
    out = {"server": 0.0, "chromium": 0.0, "other": 0.0}
    for pid in mine - {os.getpid()}:
        _, cmd, cpu = procs.get(pid, (0, "", 0.0))
        kind = ("server" if "streamlit" in cmd else "chromium" if "chrom" in cmd
                else "other")
        out[kind] += cpu
    return out


def big_case(steps: int, seed: int) -> Path:
    cache = Path(tempfile.gettempdir()) / "dgrr-bench-cases"
    cache.mkdir(exist_ok=True)
    path = cache / f"synth-{steps}-s{seed}.json"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", str(steps),
                        "--seed", str(seed), "--out", str(path)], check=True)
    return path


class Session:
    """One browser page (one Streamlit session) and the timings of its interactions."""

    def __init__(self, name: str, page: Any, t0: float) -> None:
        self.name, self.page, self.t0 = name, page, t0
        self.timings: list[dict[str, Any]] = []

    async def idle(self, title: str, text: str | None = None) -> None:
        # a rerun starts a moment after the click; wait for the new page's own content
        await self.page.wait_for_function(IDLE_JS, arg=[title, text], polling=50,
                                          timeout=600_000)

    async def timed(self, label: str, act: Any, title: str, text: str | None = None) -> float:
        start = time.perf_counter()
        await act()
        await self.idle(title, text)
        end = time.perf_counter()
        self.timings.append({"what": label, "start": start - self.t0, "end": end - self.t0,
                             "seconds": end - start})
        return end - start

    async def goto(self, label: str) -> float:
        link = self.page.locator('[data-testid="stSidebarNav"] a', has_text=label).first
        return await self.timed(f"open {label}", link.click, TITLES[label])


    async def load_sample(self) -> float:
        return await self.timed("Load sample",
                                self.page.get_by_role("button", name="Load sample").click,
                                TITLES["Load"], "Loaded case")


class WebsocketSession:
    """One Streamlit session driven over the server's own websocket protocol (the
    protobuf messages Streamlit's frontend sends and receives), no browser: each
    interaction is timed from the rerun request until the server reports the script
    finished, and the page's title (and text) is checked in what it sent."""

    def __init__(self, ws: Any, t0: float, url: str = "") -> None:
        self.ws, self.t0, self.url = ws, t0, url
        self.pages: dict[str, str] = {}
        self.elements: list[Any] = []
        self.timings: list[dict[str, Any]] = []
        self.session_id = ""
        self.page = ""

    async def rerun(self, page: str = "", widgets: tuple[Any, ...] = ()) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = BackMsg()
        msg.rerun_script.query_string = ""
        msg.rerun_script.page_script_hash = self.pages.get(page, "")
        msg.rerun_script.page_name = page
        msg.rerun_script.widget_states.widgets.extend(widgets)
        await self.ws.send(msg.SerializeToString())
        self.elements = []
        self.page = page
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                self.session_id = fwd.new_session.initialize.session_id
            elif kind == "navigation":
                self.pages.update((p.page_name, p.page_script_hash)
                                  for p in fwd.navigation.app_pages)
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                self.elements.append(fwd.delta.new_element)
            elif kind == "script_finished":  # a script's st.rerun() finishes early first
                if fwd.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    return
                if fwd.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    raise RuntimeError(f"the page {page!r} did not compile")

    def shown(self, *texts: str) -> bool:
        from google.protobuf import text_format

        sent = "\n".join(text_format.MessageToString(e, as_utf8=True) for e in self.elements)
        return all(t in sent for t in texts)

    async def timed(self, label: str, page: str, widgets: tuple[Any, ...] = (),
                    *expect: str) -> float:
        start = time.perf_counter()
        await self.rerun(page, widgets)
        end = time.perf_counter()
        if not self.shown(*expect):
            raise RuntimeError(f"{label}: the server did not send {expect}")
        self.timings.append({"what": label, "start": start - self.t0, "end": end - self.t0,
                             "seconds": end - start})
        return end - start

    async def goto(self, label: str) -> float:
        return await self.timed(f"open {label}", label, (), TITLES[label])

    def widget_id(self, kind: str, label: str | None = None) -> str:
        """The id of the first `kind` widget (button, checkbox, ...) labelled `label` on
        the page the server last sent."""
        for e in self.elements:
            if e.WhichOneof("type") == kind and label in (None, getattr(e, kind).label):
                return str(getattr(e, kind).id)
        raise RuntimeError(f"no {kind} {label!r} on the page the server sent")

    def widget_ids(self, kind: str) -> list[str]:
        return [str(getattr(e, kind).id) for e in self.elements if e.WhichOneof("type") == kind]

    async def load_sample(self) -> float:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        click = WidgetState(id=self.widget_id("button", "Load sample"), trigger_value=True)
        return await self.timed("Load sample", "Load", (click,), TITLES["Load"], "Loaded case")

    async def upload(self, path: Path) -> Any:
        """Upload `path` to the file uploader of the page shown, as the frontend does (ask
        the session for an upload URL, PUT the file there): the uploader's widget state."""
        import urllib.request
        import uuid

        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.Common_pb2 import FileUploaderState, UploadedFileInfo
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        uploader = self.widget_id("file_uploader")
        msg = BackMsg()
        msg.file_urls_request.request_id = "a-upload"
        msg.file_urls_request.file_names.append(path.name)
        msg.file_urls_request.session_id = self.session_id
        await self.ws.send(msg.SerializeToString())
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await self.ws.recv())
            if fwd.WhichOneof("type") == "file_urls_response":
                urls = fwd.file_urls_response.file_urls[0]
                break
        data = path.read_bytes()
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"{path.name}\"\r\nContent-Type: application/json\r\n\r\n"
                ).encode() + data + f"\r\n--{boundary}--\r\n".encode()

        def put() -> None:
            # the XSRF token the server sets (on its health check, as the frontend reads
            # it), sent back as cookie and header
            with urllib.request.urlopen(self.url + "/_stcore/health") as r:
                cookie = next((c.split(";", 1)[0] for c in r.headers.get_all("Set-Cookie") or []
                               if c.startswith("_streamlit_xsrf=")), "")
            req = urllib.request.Request(
                self.url + urls.upload_url, data=body, method="PUT",
                headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                         "Cookie": cookie, "X-Xsrftoken": cookie.partition("=")[2]})
            with urllib.request.urlopen(req) as r:
                if r.status not in (200, 204):
                    raise RuntimeError(f"upload: HTTP {r.status}")

        await asyncio.to_thread(put)
        state = FileUploaderState()
        state.uploaded_file_info.append(UploadedFileInfo(
            file_id=urls.file_id, name=path.name, size=len(data), file_urls=urls))
        return WidgetState(id=uploader, file_uploader_state_value=state)


@asynccontextmanager
async def websocket_session(url: str, t0: float) -> AsyncIterator[WebsocketSession]:
    """A new session of the server at `url` over its websocket, its first run done (the
    server has sent its pages)."""
    import websockets
    from websockets.typing import Origin, Subprotocol

    async with websockets.connect(url.replace("http", "ws", 1) + "/_stcore/stream",
                                  subprotocols=[Subprotocol("streamlit")], origin=Origin(url),
                                  max_size=None) as ws:
        session = WebsocketSession(ws, t0, url)
        await session.rerun()
        yield session


async def b_round(b: Session | WebsocketSession, phase: str) -> None:
    await b.goto("Load")
    b.timings[-1]["phase"] = phase
    await b.load_sample()
    b.timings[-1]["phase"] = phase
    for label in B_PAGES:
        await b.goto(label)
        b.timings[-1]["phase"] = phase


async def a_visits(a: Session | WebsocketSession) -> None:
    """A opens each of A_PAGES, then each again."""
    for visit in ("first", "again"):
        for label in A_PAGES:
            await a.goto(label)
            a.timings[-1]["what"] += f" ({visit})"


async def a_work_websocket(a: WebsocketSession, case_file: Path) -> None:
    """`a_work` over the server's websocket: the same steps, nothing drawn (as if A's
    browser ran on A's own machine)."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    await a.goto("Load")
    start = time.perf_counter()
    uploaded = await a.upload(case_file)
    await a.rerun("Load", (uploaded,))
    end = time.perf_counter()
    a.timings.append({"what": "upload the case file", "start": start - a.t0,
                      "end": end - a.t0, "seconds": end - start})
    click = WidgetState(id=a.widget_id("button", "Load uploaded case"), trigger_value=True)
    await a.timed("Load uploaded case (parse, validate)", "Load", (uploaded, click),
                  TITLES["Load"], "Loaded case")
    await a_visits(a)
    states = [WidgetState(id=a.widget_id("text_input", "Reviewer"), string_value="bench A"),
              WidgetState(id=a.widget_id("text_area", "Comment (a rejection needs a reason)"),
                          string_value="timed")]
    for box in a.widget_ids("checkbox"):
        states.append(WidgetState(id=box, bool_value=True))
        await a.rerun("Approve", tuple(states))
    click = WidgetState(id=a.widget_id("button", "Record decision"), trigger_value=True)
    await a.timed("record an approval", "Approve", (*states, click), TITLES["Approve"],
                  "Recorded #")


async def a_work(a: Session, case_file: Path) -> None:
    page = a.page
    await a.goto("Load")
    await page.get_by_role("tab", name="Upload a case").click()
    await a.idle(TITLES["Load"])
    button = page.get_by_role("button", name="Load uploaded case")
    start = time.perf_counter()
    await page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
        str(case_file))
    await button.wait_for(state="visible")
    await page.wait_for_function(
        """() => [...document.querySelectorAll('button')].some(
               (b) => b.innerText.includes('Load uploaded case') && !b.disabled)""",
        polling=100, timeout=600_000)
    end = time.perf_counter()
    a.timings.append({"what": "upload the case file", "start": start - a.t0,
                      "end": end - a.t0, "seconds": end - start})
    await a.timed("Load uploaded case (parse, validate)", button.click, TITLES["Load"],
                  "Loaded case")
    await a_visits(a)
    await page.get_by_label("Reviewer").fill("bench A")
    await page.get_by_label("Comment (a rejection needs a reason)").fill("timed")
    for box in await page.locator('[data-testid="stCheckbox"]').all():
        await box.locator("label").click()
        await a.idle(TITLES["Approve"])
    await a.timed("record an approval",
                  page.get_by_role("button", name="Record decision").click,
                  TITLES["Approve"], "Recorded #")


def stats(xs: list[float]) -> str:
    if not xs:
        return "n=0"
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
    return (f"n={len(xs):3d}  median {statistics.median(xs):5.2f}  p95 {p95:5.2f}  "
            f"max {xs[-1]:5.2f}")


async def run(url: str, case_file: Path, rounds: int, b_websocket: bool,
              a_websocket: bool = False
              ) -> tuple[Session | WebsocketSession, Session | WebsocketSession,
                         list[tuple[str, float, dict[str, float]]]]:
    from dashboard_server import ARGS, CHROMIUM
    from playwright.async_api import async_playwright

    async with async_playwright() as p, AsyncExitStack() as stack:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        t0 = time.perf_counter()
        sessions = []
        in_browser = [name for name, ws in (("A", a_websocket), ("B", b_websocket)) if not ws]
        for name in in_browser:
            ctx = await browser.new_context(viewport={"width": 1440, "height": 900})
            page = await ctx.new_page()
            page.set_default_timeout(600_000)

            async def only_local(route: Any) -> None:
                if route.request.url.startswith((url, "data:", "blob:", "about:")):
                    await route.continue_()
                else:
                    await route.abort()

            await page.route("**/*", only_local)
            await page.goto(url)
            await page.get_by_role("heading", name="dgrr — dependency-guided").wait_for()
            sessions.append(Session(name, page, t0))
        drawn = iter(sessions)
        a: Session | WebsocketSession
        b: Session | WebsocketSession
        a = (await stack.enter_async_context(websocket_session(url, t0)) if a_websocket
             else next(drawn))
        b = (await stack.enter_async_context(websocket_session(url, t0)) if b_websocket
             else next(drawn))
        marks = [("start", time.perf_counter(), cpu_seconds())]
        for _ in range(rounds):
            await b_round(b, "baseline (A idle)")
        marks.append(("baseline (A idle)", time.perf_counter(), cpu_seconds()))
        a_task = asyncio.create_task(a_work_websocket(a, case_file)
                                     if isinstance(a, WebsocketSession) else a_work(a, case_file))
        while not a_task.done():
            await b_round(b, "while A works")
        await a_task
        marks.append(("while A works", time.perf_counter(), cpu_seconds()))
        a_end = a.timings[-1]["end"]
        for row in b.timings:  # a round that A finished during: only what overlapped A
            if row["phase"] == "while A works" and row["start"] > a_end:
                row["phase"] = "after A (A idle)"
        for _ in range(rounds):
            await b_round(b, "after A (A idle)")
        marks.append(("after A (A idle)", time.perf_counter(), cpu_seconds()))
        await browser.close()
    return a, b, marks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100_000, help="dgrr synth --steps (A's case)")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3,
                    help="B's rounds (6 interactions each) before and after A works")
    ap.add_argument("--post-script-gc", action="store_true",
                    help="run the server with Streamlit's default runner.postScriptGC=true "
                         "(a full garbage collection after every script run), as before "
                         "the project's config turned it off")
    ap.add_argument("--b-websocket", action="store_true",
                    help="drive B over Streamlit's websocket protocol, no browser: its "
                         "times are the server's (request to script finished)")
    ap.add_argument("--a-websocket", action="store_true",
                    help="drive A over Streamlit's websocket protocol, no browser: the "
                         "server does all of A's work, and A's drawing (on A's own machine "
                         "in use) takes no CPU from B's browser")
    ap.add_argument("--pin", action="store_true",
                    help="the server on CPU 0, the browser on CPU 1 (needs 2 CPUs)")
    args = ap.parse_args()
    from dashboard_server import running_dashboard

    if args.pin and not {0, 1} <= os.sched_getaffinity(0):
        ap.error("--pin needs CPUs 0 and 1; this process may use "
                 f"{sorted(os.sched_getaffinity(0))}")

    case_file = big_case(args.steps, args.seed)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "?"
    print(f"commit {commit}; {os.cpu_count()} CPUs"
          + ("; --pin: the server on CPU 0, the browser on CPU 1" if args.pin else ""))
    print(f"A's case: {case_file.name} ({case_file.stat().st_size / 1e6:.1f} MB)")
    print(f"load average at start: {loadavg()}; runner.postScriptGC "
          f"{'true (--post-script-gc)' if args.post_script_gc else 'as configured (false)'}",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="dgrr-sessions-") as tmp:
        env = {"DGRR_DB": str(Path(tmp) / "approvals.db"), "HOME": tmp}
        options = {"runner.postScriptGC": "true"} if args.post_script_gc else {}
        if args.pin:  # a child keeps the CPUs of the thread that started it
            os.sched_setaffinity(0, {0})
        with running_dashboard(Path(tmp), env, options) as url:
            if args.pin:
                os.sched_setaffinity(0, {1})
            a, b, marks = asyncio.run(run(url, case_file, args.rounds, args.b_websocket,
                                          args.a_websocket))
    print(f"load average at end:   {loadavg()}")
    print("\nSession B (small case), seconds from "
          + ("rerun request until the server finished (websocket, no browser):"
             if args.b_websocket else "click until idle:"))
    for phase in ("baseline (A idle)", "while A works", "after A (A idle)"):
        xs = [r["seconds"] for r in b.timings if r["phase"] == phase]
        print(f"  {phase:<20} {stats(xs)}")
        for what in ["open Load", "Load sample", *(f"open {x}" for x in B_PAGES)]:
            ys = [r["seconds"] for r in b.timings if r["phase"] == phase and r["what"] == what]
            if ys:
                print(f"      {what:<14} {' '.join(f'{y:.2f}' for y in ys)}")
    load = next(x for x in a.timings if x["what"].startswith("Load uploaded case"))
    during_load = [r["seconds"] for r in b.timings
                   if r["start"] < load["end"] and r["end"] > load["start"]]
    print(f"  {'during A load':<20} {stats(during_load)}   (B's changes that overlapped "
          "A's parse, validate and plan)")
    slow = [r for r in b.timings if r["phase"] == "while A works" and r["seconds"] > 0.5]
    if slow:
        print("  B's interactions over 0.5 s while A works, and what A was doing then:")
    for r in slow:
        during = [x["what"] for x in a.timings if x["start"] < r["end"] and x["end"] > r["start"]]
        print(f"      {r['what']:<14} {r['seconds']:5.2f}  (t={r['start']:.0f} s; A: "
              f"{', '.join(during) or 'between steps'})")
    print("\nCPU seconds used per phase (wall seconds; server process, Chromium):")
    for (_, t0, c0), (name, t1, c1) in zip(marks, marks[1:], strict=False):
        print(f"  {name:<20} wall {t1 - t0:6.1f}   server {c1['server'] - c0['server']:6.1f}"
              f"   chromium {c1['chromium'] - c0['chromium']:6.1f}")
    print("\nSession A (big case), seconds from "
          + ("request until the server finished (websocket, no browser):"
             if args.a_websocket else "action until idle:"))
    for r in a.timings:
        print(f"  {r['what']:<40} {r['seconds']:6.2f}   (t={r['start']:.0f}–{r['end']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
