"""Model calls a hostile server cannot stretch or redirect.

An SDK's `timeout` bounds each socket read, not the call: a server that sends one byte a
second keeps a 5-second timeout from ever firing. :func:`within` runs the call in a
worker thread and gives up when the wall-clock budget is spent (the abandoned thread is a
daemon and ends when its connection does). :func:`install_no_redirects` gives litellm's
OpenAI-compatible providers an HTTP client that refuses redirects, so no prompt is ever
re-sent to the address a redirect names.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["GRACE", "RedirectRefused", "WallClockTimeout", "abandoned_calls", "guarded_call",
           "install_no_redirects", "within"]

_T = TypeVar("_T")

GRACE = 0.5
"""Seconds a call may run past its timeout before the wall clock abandons it (the setup
inside the SDK before it connects; the SDK's own timeout, clearer, fires first)."""


class WallClockTimeout(TimeoutError):
    """The call did not finish within its wall-clock budget."""


class RedirectRefused(ConnectionError):
    """The server answered with a redirect; dgrr does not follow redirects."""


def within(seconds: float, fn: Callable[[], _T]) -> _T:
    """`fn()`, or :class:`WallClockTimeout` once `seconds` of wall-clock time are spent."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=run, name="dgrr-model-call", daemon=True)
    worker.start()
    worker.join(max(seconds, 0.0))
    if worker.is_alive():
        _count_abandoned()
        raise WallClockTimeout(f"timed out: no complete reply within {seconds:g} s "
                               "(wall clock)")
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


# a count, not the threads: an abandoned thread's closure holds the reply once the
# server sends it, and a dashboard server runs for weeks
_abandoned = 0
_abandoned_lock = threading.Lock()


def _count_abandoned() -> None:
    global _abandoned
    with _abandoned_lock:
        _abandoned += 1


def abandoned_calls() -> int:
    """How many calls :func:`within` gave up on in this process."""
    return _abandoned


def _refuse_redirect(response: Any) -> None:
    if response.is_redirect or 300 <= response.status_code < 400:
        target = str(response.headers.get("location", ""))[:200]
        raise RedirectRefused(f"the server answered {response.status_code} redirect to "
                              f"{target!r}; redirects are not followed")


def install_no_redirects(litellm: Any) -> None:
    """Give litellm an HTTP client that follows no redirect and refuses 3xx replies."""
    import httpx

    if getattr(litellm, "_dgrr_no_redirects", False):
        return
    litellm.client_session = httpx.Client(follow_redirects=False,
                                          event_hooks={"response": [_refuse_redirect]})
    litellm._dgrr_no_redirects = True


def guarded_call(litellm: Any, timeout: float, call: Callable[[], _T]) -> _T:
    """`call()` (a litellm call with `timeout`) as every model call of dgrr runs: no
    redirect followed, and abandoned once `timeout` plus `GRACE` seconds of wall clock are
    spent (the model judge, `repair_core.judge.ModelJudge`, is handed this by the commands
    and the dashboard: it is a lower layer and cannot import this package)."""
    install_no_redirects(litellm)
    return within(timeout + GRACE, call)
