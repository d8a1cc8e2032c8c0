"""File uploads whose bytes do not outlive their parse.

Streamlit keeps an uploaded file's bytes in the session's uploaded-file manager for as
long as the uploader shows the file, and `st.file_uploader` returns a deep copy of them on
every script run. A page that keeps that copy in its own namespace keeps it for good: a
page's namespace is a reference cycle (its functions point back at it), and the dashboard
freezes the collector's generations after every load (`repair_core._perf`), so a cycle
that exists then is never collected. A 150 MB upload left the server 294 MB larger, and
a second one of 120 MB 541 MB larger (docs/dashboard.md, "Uploads and memory").

So a page reads an upload only inside a function (never into its namespace), and after
the load attempt, accepted or refused, :func:`load_and_release` drops the file from the
manager, gives the uploader a fresh key (it shows empty again), asks the C allocator to
return freed pages to the system and reruns the page.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.uploaded_file_manager import UploadedFile

_VERSIONS = "dgrr_upload_versions"


def key(base: str) -> str:
    """The uploader's current widget key: `base` until its first release, then `base-N`."""
    n = st.session_state.get(_VERSIONS, {}).get(base, 0)
    return base if n == 0 else f"{base}-{n}"


def uploader(label: str, base: str, **kwargs: Any) -> bool:
    """Show `st.file_uploader(label, **kwargs)` under :func:`key` of `base`; whether it holds
    a file. The file is not returned (Streamlit's copy of it is dropped here): read it with
    :func:`files` inside the function that parses it."""
    return st.file_uploader(label, key=key(base), **kwargs) not in (None, [])


def files(base: str) -> list[UploadedFile]:
    """The files the uploader `base` holds (Streamlit's own objects, not copies; a file
    the manager no longer has is left out)."""
    value = st.session_state.get(key(base))
    held = value if isinstance(value, list) else [value]
    return [f for f in held if isinstance(f, UploadedFile)]


def release(*bases: str) -> None:
    """Forget what the uploaders `bases` hold: their files leave the session's uploaded-file
    manager and each uploader gets a fresh key, so it shows empty on the next run (the old
    widget's state, and its reference to the bytes, goes when that run ends)."""
    ctx = get_script_run_ctx()
    versions = dict(st.session_state.get(_VERSIONS, {}))
    for base in bases:
        if ctx is not None:
            for f in files(base):
                ctx.uploaded_file_mgr.remove_file(ctx.session_id, f.file_id)
        versions[base] = versions.get(base, 0) + 1
    st.session_state[_VERSIONS] = versions


def load_and_release(action: Callable[[], None], *bases: str) -> None:
    """Run `action` (which reads the uploads of `bases` with :func:`files`), then release
    them, return freed memory to the system and rerun the page, whatever the outcome (a
    refused file is not kept for a second try: the user uploads it again)."""
    try:
        action()
    finally:
        release(*bases)
        return_freed_memory()
    st.rerun()


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to trim
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


_TRIM = _malloc_trim()


def return_freed_memory() -> None:
    """Hand the heap pages freed by a parse back to the operating system (glibc keeps them
    for reuse otherwise, so the server's resident size stays at its peak)."""
    if _TRIM is not None:
        _TRIM(0)
