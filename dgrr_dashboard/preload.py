"""The modules the dashboard's pages import, imported once by the server's first page run.

Every session of a `streamlit run` server is a thread of one process, and a module is
imported by the first run that needs it: a reviewer's first visit of Benchmark imported
altair (0.6 CPU s), of Graph pyvis, of a page with a table pandas, and a visitor's first
upload the worker's client. A run importing a module holds that module's import lock
until the whole of it is imported, so another session needing it meanwhile waits that
long (seconds on a busy machine), and the run itself is that much slower. Here they are
imported once, by the first page run of the server (app.py, before any page), while the
sessions after it find them imported: `streamlit run` offers no hook before the first
session. Sessions that start together wait for that one import (a lock) instead of
importing the same modules side by side. Not litellm: a server whose operator set no
model judge imports it nowhere (`upload_client`).
"""

from __future__ import annotations

import importlib
import pkgutil
import threading

__all__ = ["LIBRARIES", "import_page_modules", "preload_once"]

LIBRARIES = ("pandas", "altair", "pyvis.network", "repair_core.bench",
             "repair_core.importers._otlp", "repair_core._fixtures",
             "repair_core.integrations.apply_result", "repair_core.model._bounded")
"""What the pages import inside functions, besides the dashboard's own modules."""

_LOCK = threading.Lock()
_done = False


def preload_once() -> None:
    """Import every module of `dgrr_dashboard` and `LIBRARIES`, once per process, in a
    real server only (under AppTest, a mocked runtime, the tests share their process and
    import what each test needs)."""
    global _done
    if _done:
        return
    from streamlit.runtime import Runtime, exists, get_instance

    if not (exists() and type(get_instance()) is Runtime):
        return
    with _LOCK:
        if not _done:
            import_page_modules()
            _done = True


def import_page_modules() -> None:
    """Import every module of `dgrr_dashboard` and `LIBRARIES`."""
    import dgrr_dashboard

    for module in pkgutil.iter_modules(dgrr_dashboard.__path__):
        importlib.import_module(f"dgrr_dashboard.{module.name}")
    for name in LIBRARIES:
        importlib.import_module(name)
