"""No session waits on another visitor's upload: a real `streamlit run app.py` in team
mode (sign-in configured, the provider of tests/oidc_provider.py on loopback), two
sessions over Streamlit's own websocket protocol (`benchmarks/dashboard_sessions.py`).
Session A uploads an 860 kB hostile case (planned in one interpreter it takes about a
minute of CPU); while the upload worker processes it, every page rerun of session B must
finish within 2 s. The worker's CPU limit then refuses A's case with a message."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest
from dashboard_server import running_dashboard
from script_module import load_script
from test_dashboard_upload_worker import heavy_case

pytestmark = [pytest.mark.slow]

RERUN_BOUND = 2.0


def _team_secrets(tmp_path, provider) -> str:
    from oidc_provider import CLIENT_ID, CLIENT_SECRET

    conf = tmp_path / "secrets.toml"
    conf.write_text("[auth]\n"
                    'redirect_uri = "http://127.0.0.1:8501/oauth2callback"\n'
                    f'cookie_secret = "{secrets.token_hex(32)}"\n'
                    f'client_id = "{CLIENT_ID}"\n'
                    f'client_secret = "{CLIENT_SECRET}"\n'
                    f'server_metadata_url = "{provider.metadata_url}"\n')
    return str(conf)


async def _two_sessions(bench, url: str, upload) -> tuple[float, list[float], bool]:
    """(A's load in seconds, B's reruns meanwhile in seconds, A shown a limit's refusal)."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    t0 = time.perf_counter()
    async with bench.websocket_session(url, t0) as a, bench.websocket_session(url, t0) as b:
        await b.goto("Load")
        await b.load_sample()  # B works on a case of its own (planned before A starts)
        await b.goto("Faults")
        await a.goto("Load")
        uploaded = await a.upload(upload)
        await a.rerun("Load", (uploaded,))
        click = WidgetState(id=a.widget_id("button", "Load uploaded case"), trigger_value=True)
        finished = asyncio.Event()

        async def a_loads() -> float:
            start = time.perf_counter()
            await a.rerun("Load", (uploaded, click))
            finished.set()
            return time.perf_counter() - start

        async def b_reruns() -> list[float]:
            await asyncio.sleep(1.0)  # A's run has begun and handed the upload over
            waits = []
            pages = ["Faults", "Load", "Plan"]
            while not finished.is_set():
                waits.append(await b.goto(pages[len(waits) % len(pages)]))
            return waits

        a_seconds, waits = await asyncio.gather(a_loads(), b_reruns())
        # (the page shows it as Markdown, its punctuation escaped)
        refused = a.shown("Could not load inbox") and (
            a.shown("CPU seconds an upload may use here") or a.shown("longer than"))
        return a_seconds, waits, refused


def test_no_session_waits_on_another_visitors_hostile_upload(tmp_path, monkeypatch):
    pytest.importorskip("authlib", reason="needs the 'auth' extra")
    from oidc_provider import running_oidc_provider

    bench = load_script("benchmarks/dashboard_sessions.py")
    upload = tmp_path / "inbox.json"
    upload.write_bytes(heavy_case(6))
    monkeypatch.delenv("DGRR_UPLOAD_WORKER", raising=False)
    env = {"HOME": str(tmp_path), "DGRR_DB": str(tmp_path / "approvals.db"),
           "DGRR_UPLOAD_CPU_SECONDS": "3"}
    with running_oidc_provider({}) as provider, running_dashboard(
            tmp_path, env, {"secrets.files": _team_secrets(tmp_path, provider)}) as url:
        a_seconds, waits, refused = asyncio.run(_two_sessions(bench, url, upload))
    assert refused, ("A's upload was not refused at the worker's limit", a_seconds, waits)
    assert a_seconds > 2, a_seconds  # the worker really worked on it meanwhile
    assert len(waits) >= 3, waits
    assert max(waits) <= RERUN_BOUND, waits
