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
    is_results_folder,
    method_columns,
    method_plan,
    read_folder,
    rule_columns,
    suite_folder,
)
from .text import MISSING, code, md
from .widgets import remembered, show_problems


def recovery_bars(rows: pd.DataFrame, grouping: str | None = None) -> Any:
    """`recovery` per method as horizontal bars sorted from best to worst, each labelled
    with its value (a bar at 0 still shows its 0), one colour: legible with fifteen
    methods. With `grouping`, one such panel per group (small multiples, three a row)."""
    import altair as alt

    order = (rows.groupby("method")["recovery"].mean().sort_values(ascending=False)
             .index.tolist())
    base = alt.Chart(rows).encode(
        y=alt.Y("method:N", sort=order, title=None),
        x=alt.X("recovery:Q", scale=alt.Scale(domain=[0, 1.15]), title="recovery"),
        tooltip=["method", *([grouping] if grouping else []),
                 alt.Tooltip("recovery:Q", format=".3f")])
    bars = base.mark_bar(color="#4c72b0")
    labels = base.mark_text(align="left", dx=3, fontSize=11).encode(
        text=alt.Text("recovery:Q", format=".2f"))
    layered = (bars + labels).properties(height=16 * len(order) + 10,
                                         width=220 if grouping else "container")
    if grouping is None:
        return layered
    return layered.facet(facet=alt.Facet(f"{grouping}:N", title=grouping.replace("_", " ")),
                         columns=3)


def outcome_styles(frame: pd.DataFrame, columns: list[str]) -> Any:
    """`frame` with each method's outcome as a word on a coloured cell (a yes green, a no
    red, not judged grey): the grid shows booleans as unlabelled checkboxes."""
    words = frame.copy()
    for c in columns:
        words[c] = frame[c].map(lambda v: "—" if v is None or v != v else
                                "yes" if bool(v) else "no")
    colours = {"yes": "#c8e6c9", "no": "#ffcdd2", "—": "#eeeeee"}
    if len(words) > 1000:
        return words
    return words.style.map(lambda v: f"background-color: {colours[v]}; color: #000000"
                           if v in colours else "", subset=columns)


@st.cache_data(show_spinner="Reading the results folder…", max_entries=4)
def _read(path: str, stamp: float) -> Any:
    return read_folder(Path(path))


def _stamp(path: Path) -> float:
    results = path / "results"
    if not results.is_dir():
        try:
            return (path / "results.csv").stat().st_mtime
        except OSError:
            return 0.0
    try:
        return max([results.stat().st_mtime,
                    *(d.stat().st_mtime for d in results.iterdir() if d.is_dir())])
    except OSError:
        return 0.0


def side_by_side(out: Path) -> None:
    st.subheader("Methods side by side")
    if not is_results_folder(out):
        st.caption(f"No results at {code(out)} yet (a folder `dgrr bench run --out` wrote, "
                   "with a results/ folder, or a committed one with results.csv and "
                   "summary.json).")
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
    suite = suite_folder(folder)
    st.caption(f"{len({r['case_id'] for r in rows})} cases · methods: "
               + ", ".join(code(m) for m in methods) + " · rules: "
               + ", ".join(code(r) for r in rules)
               + (f" · suite {code(suite.name)}" if suite is not None else " · suite unknown"))
    c1, c2, c3 = st.columns([2, 2, 2])
    remembered("dgrr_w_bs_a", "ours" if "ours" in methods else methods[0], methods)
    a = c1.selectbox("Method", methods, key="dgrr_w_bs_a")
    others = [m for m in methods if m != a] or [a]
    remembered("dgrr_w_bs_b", others[0], others)
    b = c2.selectbox("compared with", others, key="dgrr_w_bs_b")
    only = c3.checkbox("Only cases where they disagree", value=len(methods) > 1,
                       key="dgrr_w_bs_only")
    table = pd.DataFrame(case_table(rows))
    differ = disagreeing(rows, a, b) if a != b else set()
    shown = table[table["case_id"].isin(differ)] if only else table
    st.caption(f"{len(differ)} case(s) where {code(a)} and {code(b)} disagree under some rule"
               f" · {len(shown)} shown")
    # the two methods compared first, right after the case; the others after them
    outcomes = [c for c in shown.columns if c not in ("case_id", "domain", "fault_type")]
    chosen_two = [c for m in dict.fromkeys((a, b)) for c in outcomes
                  if c.startswith(f"{m} · ")]
    outcomes = chosen_two + [c for c in outcomes if c not in chosen_two]
    shown = shown[["case_id", "domain", "fault_type", *outcomes]]
    if shown.empty:  # an empty grid of blank rows reads as a table that failed to load
        st.info(f"{code(a)} and {code(b)} have the same outcome on every case: untick "
                "\"Only cases where they disagree\" to list them all.")
    else:
        st.dataframe(outcome_styles(shown, outcomes), hide_index=True, width="stretch",
                     height="auto", placeholder=MISSING, key="dgrr_w_bs_table")
    chart = pd.DataFrame([{"method": m, "recovery": sum(bool(r.get("recovered"))
                                                        for r in rows if r["method"] == m)
                           / max(1, sum(r["method"] == m for r in rows))} for m in methods])
    with st.expander(f"Strict recovery of the {len(methods)} methods, best first"):
        st.altair_chart(recovery_bars(chart), width="stretch")
    ids = shown["case_id"].tolist()
    if not ids:
        return
    cid = st.selectbox("Case", ids, key="dgrr_w_bs_case")
    cols = method_columns(rows, cid)
    # the two compared methods, again whenever the comparison changes (a widget keeps its
    # own value across runs: it showed the methods of the previous comparison)
    pair = [m for m in (a, b) if m in cols] or list(cols)[:2]
    if st.session_state.get("dgrr_bs_methods_for") != (a, b, cid) \
            or "dgrr_w_bs_methods" not in st.session_state:
        st.session_state["dgrr_bs_methods_for"] = (a, b, cid)
        st.session_state["dgrr_w_bs_methods"] = pair
    pick = st.multiselect("Methods shown", list(cols), key="dgrr_w_bs_methods")
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
        st.success(f"Opened {code(opened[0])} from {code(opened[3])} ({md(opened[4])}) with "
                   f"{md(opened[5])} (the method's own decisions are reviewer edits commented "
                   "with its name).")
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
    path, where = find_case_file(case_id, folder, [state.SAMPLES])
    if path is None:
        st.session_state.pop("dgrr_bs_opened", None)
        show_problems(f"Could not open {case_id}: which case file its results were computed "
                      "on cannot be told", [where])
        return
    try:
        case = load_case(path)
        ran = method_plan(case, method)
    except CaseError as exc:
        show_problems(f"Could not load {path.name}", exc.problems)
        return
    except Exception as exc:  # noqa: BLE001 - a method that fails is shown, not raised
        show_problems(f"Could not rebuild the repair of {method}", [f"{type(exc).__name__}: {exc}"])
        return
    try:
        shown_path = str(path.relative_to(state.ROOT))
    except ValueError:
        shown_path = str(path)
    state.set_case(case, f"benchmark {folder.path.name}: {shown_path} ({method})")
    state.set_plan_as_run(ran.label(), ran.plan)
    st.session_state["dgrr_bs_opened"] = (case.case_id, method, ran.skipped, shown_path, where,
                                          ran.label())
