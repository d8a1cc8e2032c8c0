"""Pieces every page shows: the sidebar status, the 'load a case first' stop, problem
lists, the answer diff and the embedded graph."""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from html import escape
from typing import Any

import streamlit as st

from dgrr_dashboard.graph_html import graph_html
from repair_core import RepairPlan

from . import state


def page_setup(title: str) -> None:
    st.set_page_config(page_title=f"dgrr · {title}", layout="wide")
    sidebar_status()


def sidebar_status() -> None:
    c = state.case()
    with st.sidebar:
        st.markdown("**Working case**")
        if c is None:
            st.caption("none loaded — start on the Load page")
            return
        p = state.plan()
        st.caption(f"`{c.case_id}` · {c.domain or 'no domain'} · {len(c.trajectory)} steps · "
                   f"{len(c.memory)} records")
        st.caption("faults: " + (", ".join(c.faults) or "none marked"))
        if p is not None:
            st.caption(f"plan: {len(p.edits)} reviewer edit(s), replay {len(p.replay_set)} "
                       f"of {len(c.trajectory)} steps")
        st.caption("replay: " + ("done" if state.result() is not None else "not run for this plan"))


def require_case() -> Any:
    """The working case, or stop the page with a pointer to the Load page."""
    c = state.case()
    if c is None:
        st.info("No case is loaded yet. Load a sample or upload a case on the **Load** page.")
        st.page_link("pages/1_Load.py", label="Go to Load", icon="📂")
        st.stop()
    return c


def require_plan() -> RepairPlan:
    require_case()
    p = state.plan()
    assert p is not None
    return p


def show_problems(title: str, problems: Sequence[str]) -> None:
    lines = "\n".join(f"- `{p}`" if "`" not in p else f"- {p}" for p in problems)
    st.error(f"**{title}** ({len(problems)} problem{'s' if len(problems) != 1 else ''})\n\n"
             f"{lines}")


def answer_diff_html(before: str, after: str) -> tuple[str, str]:
    """Both answers as HTML with removed words struck in the first and added words
    highlighted in the second (every word escaped)."""
    a, b = before.split(), after.split()
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        old = escape(" ".join(a[i1:i2]))
        new = escape(" ".join(b[j1:j2]))
        if op == "equal":
            left.append(old)
            right.append(new)
            continue
        if old:
            left.append(f'<del style="background:#fdd">{old}</del>')
        if new:
            right.append(f'<mark style="background:#cfc">{new}</mark>')
    return " ".join(left), " ".join(right)


@st.cache_data(show_spinner=False, max_entries=32)
def _graph_html(key: str, options: tuple[tuple[str, Any], ...], _plan: RepairPlan) -> str:
    return graph_html(_plan, **dict(options))


def graph_frame(p: RepairPlan, height: int = 700, **options: Any) -> str:
    """Embed the plan's graph (offline HTML) and return it."""
    opts = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
    html = _graph_html(state.plan_key(p), opts, p)
    st.iframe(html, height=height)
    return html


def db_url() -> str | None:
    """The approvals database the dashboard writes to (setting on the Approve page,
    else `$DGRR_DB`, else the default file)."""
    return st.session_state.get(state.DB) or os.environ.get("DGRR_DB") or None
