"""dgrr's bidirectional Streamlit component (`frontend/index.html`: plain HTML and JS, no
build step, no CDN). It draws the graph HTML or the trace tree and returns the id of the
node the reviewer clicked (or found with the search box) to the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit.components.v1 as components

__all__ = ["graph_component", "tree_component", "clicked"]

_FRONTEND = Path(__file__).resolve().parent / "frontend"
_component = components.declare_component("dgrr_view", path=str(_FRONTEND))


def graph_component(html: str, *, key: str, digest: str, height: int,
                    selected: str | None,
                    path: list[tuple[str, str]] | None = None) -> dict[str, Any] | None:
    """Show the graph HTML; returns `{"id", "n"}` of the last node clicked, or None.
    `digest` names the HTML (a new digest reloads the picture); `selected` is centred and
    highlighted when it changes (the picker of the page); `path`: the hops (premise,
    dependent) outlined on the picture, those it draws."""
    return _component(mode="graph", html=html, key=key, digest=digest, height=height,
                      selected=selected, path=[list(h) for h in path or []], default=None)


def tree_component(data: dict[str, Any], *, key: str, digest: str, height: int,
                   selected: str | None) -> dict[str, Any] | None:
    """Show the trace tree and timeline of :func:`dgrr_dashboard.trace.trace_data`."""
    return _component(mode="tree", data=data, key=key, digest=digest, tree_height=height,
                      selected=selected, default=None)


def clicked(value: dict[str, Any] | None, seen_key: str, state: Any) -> str | None:
    """The id of a click not handled yet (component values persist across reruns)."""
    if not value or "id" not in value:
        return None
    stamp = (value.get("n"), value.get("t"))
    if state.get(seen_key) == stamp:
        return None
    state[seen_key] = stamp
    return str(value["id"])
