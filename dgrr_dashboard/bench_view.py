"""The Benchmark page's researcher view: a results folder's cases with every method side
by side under every recovery rule, and a case opened in the workbench with one method's
repair loaded (dgrr_dashboard.bench_browse reads the folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from repair_core import CaseError, load_case

from . import state
from .bench_browse import (
    case_table,
    disagreeing,
    find_case_file,
    method_columns,
    method_plan,
    read_folder,
    rule_columns,
)
from .text import MISSING, code, md
from .widgets import show_problems


def recovery_bars(rows: pd.DataFrame, grouping: str) -> Any:
    """Grouped bars of `recovery` per `grouping` and method, each labelled with its value,
    so a bar at 0 is still seen (as a 0 on the axis)."""
    import altair as alt

    base = alt.Chart(rows).encode(
        x=alt.X(f"{grouping}:N", title=grouping.replace("_", " ")),
        xOffset="method:N",
        y=alt.Y("recovery:Q", scale=alt.Scale(domain=[0, 1.08]), title="recovery"),
        color=alt.Color("method:N"),
        tooltip=["method", grouping, alt.Tooltip("recovery:Q", format=".3f")])
    bars = base.mark_bar()
    labels = base.mark_text(dy=-6, fontSize=10).encode(text=alt.Text("recovery:Q",
                                                                     format=".2f"))
    return (bars + labels).properties(height=260)


@st.cache_data(show_spinner="Reading the results folder…", max_entries=4)
def _read(path: str, stamp: float) -> Any:
    return read_folder(Path(path))


def _stamp(path: Path) -> float:
    results = path / "results"
    try:
        return max([results.stat().st_mtime,
                    *(d.stat().st_mtime for d in results.iterdir() if d.is_dir())])
    except OSError:
        return 0.0


def side_by_side(out: Path) -> None:
    st.subheader("Methods side by side")
    if not (out / "results").is_dir():
        st.caption(f"No results folder at {code(out)} yet (it needs a `results/` folder "
                   "that `dgrr bench run --out` writes).")
        return
    folder = _read(str(out), _stamp(out))
    if folder.problems:
        with st.expander(f"{len(folder.problems)} file(s) could not be read"):
            st.text("\n".join(folder.problems))
    rows = folder.rows
    if not rows:
        st.caption("The folder holds no result yet.")
        return
    methods = sorted({str(r["method"]) for r in rows})
    rules = rule_columns(rows)
    st.caption(f"{len({r['case_id'] for r in rows})} cases · methods: "
               + ", ".join(code(m) for m in methods) + " · rules: "
               + ", ".join(code(r) for r in rules)
               + (f" · suite {code(folder.run.get('suite'))}" if folder.run.get("suite") else ""))
    c1, c2, c3 = st.columns([2, 2, 2])
    a = c1.selectbox("Method", methods, index=methods.index("ours") if "ours" in methods else 0,
                     key="dgrr_w_bs_a")
    others = [m for m in methods if m != a] or [a]
    b = c2.selectbox("compared with", others, key="dgrr_w_bs_b")
    only = c3.checkbox("Only cases where they disagree", value=len(methods) > 1,
                       key="dgrr_w_bs_only")
    table = pd.DataFrame(case_table(rows))
    differ = disagreeing(rows, a, b) if a != b else set()
    shown = table[table["case_id"].isin(differ)] if only else table
    st.caption(f"{len(differ)} case(s) where {code(a)} and {code(b)} disagree under some rule"
               f" · {len(shown)} shown")
    st.dataframe(shown, hide_index=True, width="stretch", height=260, placeholder=MISSING)
    ids = shown["case_id"].tolist()
    if not ids:
        return
    cid = st.selectbox("Case", ids, key="dgrr_w_bs_case")
    cols = method_columns(rows, cid)
    pick = st.multiselect("Methods shown", list(cols),
                          default=[m for m in (a, b) if m in cols] or list(cols)[:2],
                          key="dgrr_w_bs_methods")
    if pick:
        panes = st.columns(len(pick))
        for pane, m in zip(panes, pick, strict=True):
            with pane:
                info = cols[m]
                st.markdown(f"**{md(m)}**")
                answer = info.get("answer", "")
                facts = {k: v for k, v in info.items() if k != "answer"}
                st.dataframe(pd.DataFrame(list(facts.items()), columns=["", m]),
                             hide_index=True, width="stretch", key=f"dgrr_w_bs_t_{m}",
                                 placeholder=MISSING)
                st.markdown("Answer")
                st.text(answer)
    o1, o2 = st.columns([2, 3])
    chosen = o1.selectbox("Open this case in the workbench with the repair of", list(cols),
                          key="dgrr_w_bs_open_method")
    if o2.button("Open in the workbench", key="dgrr_w_bs_open", type="primary"):
        _open(cid, chosen, folder)
    opened = st.session_state.get("dgrr_bs_opened")
    if opened and state.case() is not None and state.case().case_id == opened[0]:
        st.success(f"Opened {code(opened[0])} with the repair of {code(opened[1])} as the plan "
                   "(reviewer edits commented with the method's name).")
        if opened[2]:
            st.warning("Decisions the plan could not take (the library refuses them):")
            st.text("\n".join(opened[2]))
        links = st.columns(4)
        for col, (page_file, label) in zip(links, [
                ("pages/3_Graph.py", "Graph"), ("pages/4_Plan.py", "Plan"),
                ("pages/5_Replay.py", "Replay"), ("pages/6_Compare.py", "Compare")],
                strict=True):
            col.page_link(page_file, label=label, icon=":material/arrow_forward:")


def _open(case_id: str, method: str, folder: Any) -> None:
    path = find_case_file(case_id, folder, [state.SAMPLES])
    if path is None:
        show_problems(f"Could not find the case file of {case_id}",
                      ["looked in the run's suite folder, next to the results folder and "
                       "under sample_traces/: no file has this case_id"])
        return
    try:
        case = load_case(path)
        plan, skipped = method_plan(case, method)
    except CaseError as exc:
        show_problems(f"Could not load {path.name}", exc.problems)
        return
    except Exception as exc:  # noqa: BLE001 - a method that fails is shown, not raised
        show_problems(f"Could not rebuild the repair of {method}", [f"{type(exc).__name__}: {exc}"])
        return
    state.set_case(case, f"benchmark {folder.path.name}: {path.name} ({method})")
    state.set_plan(plan if plan.edits else None)
    st.session_state["dgrr_bs_opened"] = (case.case_id, method, skipped)
