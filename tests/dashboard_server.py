"""For browser tests: `streamlit run app.py` on a free loopback port, stopped afterwards;
Debian's Chromium with every non-local request blocked and recorded; the sidebar
navigation."""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# Every browser test module: `pytestmark = BROWSER_MARKS`.
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                       reason="needs Debian chromium (.ci/run installs it; in CI its absence fails)"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def oidc_secrets(path: Path, provider: Any, extra: str = "") -> Path:
    """`path`, written as the Streamlit secrets of a dashboard that signs in through
    `provider` (tests/oidc_provider.py), followed by `extra` (a `[dgrr]` section)."""
    from oidc_provider import CLIENT_ID, CLIENT_SECRET

    path.write_text(
        "[auth]\n"
        'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_hex(32)}"\n'
        f'client_id = "{CLIENT_ID}"\n'
        f'client_secret = "{CLIENT_SECRET}"\n'
        f'server_metadata_url = "{provider.metadata_url}"\n' + extra)
    return path


@contextmanager
def running_dashboard(tmp_path: Path, env: dict[str, str],
                      options: dict[str, str] | None = None) -> Iterator[str]:
    """The dashboard's URL while it runs with `env` added to this process's environment
    and `options` as `--name value` flags (they override .streamlit/config.toml); its log
    is `tmp_path/streamlit.log` (its tail is in the error if it does not start)."""
    port = free_port()
    log_path = tmp_path / "streamlit.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed after the server stops
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
         *(arg for name, value in (options or {}).items() for arg in (f"--{name}", value))],
        cwd=ROOT, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                raise RuntimeError("streamlit did not start:\n" + log_path.read_text()[-3000:])
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def open_page(p: Any, base: str, external: list[str], *, width: int = 1500,
              height: int = 1100, allow: tuple[str, ...] = ()) -> tuple[Any, Any]:
    """(browser, page) in Debian's Chromium from Playwright `p`: a request to anything but
    `base` (and data:, blob:, about:) is aborted and its URL appended to `external`.
    Requests a frame makes (srcdoc documents included) go through the same route; a
    request listener also records what a route might miss. `allow`: further URL prefixes
    let through (a test's own loopback servers, e.g. an identity provider)."""
    browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(60_000)
    local = route_local_only(page, base, external, allow)
    page.on("request", lambda r: None if r.url.startswith(local) else external.append(r.url))
    return browser, page


def route_local_only(target: Any, base: str, external: list[str],
                     allow: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Route every request of `target` (a Playwright page or context): those to `base`,
    `allow`, data:, blob: and about: go through, any other is aborted and its URL appended
    to `external`. The prefixes let through."""
    local = (base, *allow, "data:", "blob:", "about:")

    def route(r: Any) -> None:
        if r.request.url.startswith(local):
            r.continue_()
        else:
            external.append(r.request.url)
            r.abort()

    target.route("**/*", route)
    return local


GRAPH_READY = """() => {
  for (const f of document.querySelectorAll('iframe')) {
    try {
      const g = f.contentDocument && f.contentDocument.getElementById('dgrr-graph');
      if (g && g.contentWindow.dgrrReady) return true;
    } catch (e) {}
  }
  return false; }"""
"""A Playwright predicate: the Graph page's network drawing has finished."""


def goto_page(page: Any, label: str) -> None:
    """Open the page `label` from the sidebar and wait for its title."""
    page.locator('[data-testid="stSidebarNav"] a', has_text=label).first.click()
    page.get_by_role("heading", level=1).filter(has_text=label).first.wait_for(timeout=60_000)


def widget_label(page: Any, label: str) -> Any:
    """The label of a Streamlit widget that starts with `label`, for `filter(has=...)`: a
    widget's `has_text` matches any part of its text, and "Sample" is part of the Load
    page's other box, "Or a sample import", hidden in a closed expander."""
    return page.locator('[data-testid="stWidgetLabel"]').get_by_text(
        re.compile("^" + re.escape(label)))


def idle(page: Any) -> None:
    """Wait until the app has finished its run (the status widget is gone)."""
    page.wait_for_timeout(300)
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=120_000)


def upload_case(page: Any, tab: str, button: str, path: Path) -> None:
    """On the Load page's tab `tab`, upload the file `path` and press `button`; wait until
    the case is loaded."""
    from playwright.sync_api import expect

    goto_page(page, "Load")
    page.get_by_role("tab", name=tab).click()
    idle(page)
    go = page.get_by_role("button", name=button)
    panel = page.locator('[role="tabpanel"]:visible')
    for _ in range(3):  # the upload is a request of its own; on a busy machine retry it
        panel.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
            str(path))
        try:
            expect(go).to_be_enabled(timeout=60_000)
            break
        except AssertionError:
            continue
    idle(page)
    go.click()
    page.get_by_text(re.compile(r"^Loaded case")).first.wait_for(timeout=300_000)
    idle(page)
