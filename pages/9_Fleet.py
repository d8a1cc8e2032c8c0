"""Fleet: triage the result of `dgrr fleet` — counts, the worst cases first, filters, and
one click to open a case in the other pages (Graph, Plan, Replay, Compare, Approve)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.identity import reviewer_identity
from dgrr_dashboard.settings import operator_setting, team_mode
from dgrr_dashboard.text import MISSING, md
from dgrr_dashboard.widgets import page_setup, show_problems
from repair_core import CaseError, DgrrError, with_faults
from repair_core.fleet import by_severity, case_at, read_fleet_result

page_setup("Fleet")
st.title("9 · Fleet")
st.write("The result of `dgrr fleet`: every case a bad memory may have touched, the worst "
         "first. Open a case to see its graph and plan, replay it, compare and approve it; "
         "approvals land in the same append-only log as any other case.")

SHOWN = 200  # rows offered in the "open a case" list (the table shows every filtered row)
COLUMNS = ["case_id", "domain", "faults", "affected", "answer_relevant", "answer_affected",
           "answer_changed", "irreversible", "replay_size", "store_operations", "llm_calls",
           "tokens", "error", "source"]


@st.cache_data(show_spinner="Reading the fleet result…", max_entries=4)
def _read(folder: str, stamp: float) -> tuple[Any, dict[str, Any], dict[str, Any], str | None]:
    r = read_fleet_result(folder)
    rows = by_severity(r.rows)
    rows["faults"] = rows["faults"].map(lambda f: ", ".join(map(str, f)))
    return rows, r.summary, r.run, str(r.base) if r.base else None


if team_mode():
    # A shared dashboard reads no folder a visitor names: the operator's, for reviewers.
    reviewer_identity()  # stops the page with a sign-in button until signed in
    folder = operator_setting("fleet_dir", "DGRR_FLEET_DIR") or ""
    if not folder:
        st.info("The operator of this dashboard has set no fleet result folder "
                "(`[dgrr] fleet_dir` in its secrets, or `DGRR_FLEET_DIR`).")
        st.stop()
else:
    folder = st.text_input("Fleet result folder (the --out of dgrr fleet)",
                           value=st.session_state.get("dgrr_fleet_dir")
                           or os.environ.get("DGRR_FLEET_DIR", ""), key="dgrr_w_fleet_dir")
if not folder:
    st.info("Enter the folder a `dgrr fleet … --out DIR` run wrote. To try the page on the "
            "committed samples (about 2 s), run this in the project folder and enter "
            "`fleet-out`:")
    # a block of its own: copied whole, never broken inside an option
    st.code('dgrr fleet sample_traces/controlled --match-text "5 Quay Ln, Dublin" '
            "--out fleet-out", language="bash")
    st.stop()
st.session_state["dgrr_fleet_dir"] = folder
cases_file = Path(folder) / "cases.parquet"
try:
    rows, summary, run, base = _read(folder, cases_file.stat().st_mtime
                                     if cases_file.exists() else 0.0)
except DgrrError as exc:
    st.error("Could not read the fleet result")
    st.text(str(exc))
    st.stop()

st.text(f"{summary.get('match', '?')} · {summary.get('engine', '?')} engine · "
        f"{summary.get('workers', '?')} workers · {summary.get('wall_seconds', '?')} s")
cols = st.columns(6)
for col, (label, key) in zip(cols, [
        ("Cases", "cases"), ("Matched", "matched_cases"), ("Affected", "affected_cases"),
        ("Answers affected", "answers_affected"), ("Answers changed", "answers_changed"),
        ("Errors", "error_cases")], strict=True):
    value = summary.get(key)
    col.metric(label, "—" if value is None else md(value))

st.subheader("Cases, most severe first")
f1, f2, f3 = st.columns([2, 2, 3])
show = f1.radio("Show", ["affected", "matched", "errors", "all"], horizontal=True,
                key="dgrr_w_fleet_show",
                help="affected: the faults reached some step; matched: a record matched")
domains = sorted(d for d in rows["domain"].dropna().unique())
chosen = f2.multiselect("Domain", domains, key="dgrr_w_fleet_domains")
needle = f3.text_input("Case id contains", key="dgrr_w_fleet_find")
only = st.checkbox("Only cases whose answer is affected", key="dgrr_w_fleet_answer")

view = rows
if show == "affected":
    view = view[view["affected"] > 0]
elif show == "matched":
    view = view[view["matched"]]
elif show == "errors":
    view = view[view["error"].notna()]
if chosen:
    view = view[view["domain"].isin(chosen)]
if needle:
    view = view[view["case_id"].fillna("").str.contains(needle, regex=False)]
if only:
    view = view[view["answer_affected"] | view["answer_changed"].fillna(False).astype(bool)]

st.caption(f"{len(view)} of {len(rows)} cases · click a row to open that case")
# The table's key follows the filters: a new filter is a new table with no selection, so a
# selected position never points at another row of a changed view.
filters = "|".join([show, ",".join(chosen), needle, str(only)])
table = st.dataframe(view[COLUMNS], hide_index=True, width="stretch", height=420,
                     on_select="rerun", selection_mode="single-row",
                     key=f"dgrr_w_fleet_table:{filters}", placeholder=MISSING)


def _open(row: Any) -> None:
    """Make the case of `row` the working case, with the fleet's matching records as its
    faults (shown as text: case ids and sources are untrusted)."""
    try:
        case = case_at(str(row["source"]), Path(base) if base else None)
        faults = [f for f in str(row["faults"]).split(", ") if f]
        case = with_faults(case, faults)
    except CaseError as exc:
        show_problems(f"Could not open {row['source']}", exc.problems)
        return
    state.set_case(case, f"fleet {folder}: {row['source']}")
    st.session_state["dgrr_fleet_opened"] = case.case_id
    st.session_state["dgrr_fleet_opened_index"] = int(row["index"])


selected = list(table.selection.rows) if table is not None else []
if selected and selected[0] < len(view):
    row = view.iloc[selected[0]]
    if row["error"] is not None and row["error"] == row["error"]:
        st.warning("That case could not be processed; its error:")
        st.text(str(row["error"]))
    elif st.session_state.get("dgrr_fleet_opened_index") != int(row["index"]):
        _open(row)

st.subheader("Open a case")
openable = view[view["error"].isna()].head(SHOWN)
if openable.empty:
    st.info("No case to open under these filters.")
else:
    labels = {int(r["index"]): f"{r['case_id']}  ·  replay {r['replay_size']}  ·  {r['source']}"
              for _, r in openable.iterrows()}
    pick = st.selectbox(f"Case (the {min(len(view), SHOWN)} most severe shown)", list(labels),
                        format_func=labels.__getitem__, key="dgrr_w_fleet_pick")
    if st.button("Open in the workbench", type="primary", key="dgrr_w_fleet_open"):
        _open(rows[rows["index"] == pick].iloc[0])

opened = st.session_state.get("dgrr_fleet_opened")
current = state.case()
if opened and current is not None and current.case_id == opened:
    st.success("Opened as the working case, with the fleet's matching records as its faults:")
    st.text(f"{current.case_id} · faults: {', '.join(current.faults) or 'none'}")
    links = st.columns(5)
    for col, (page_file, label) in zip(links, [
            ("pages/3_Graph.py", "Graph"), ("pages/4_Plan.py", "Plan"),
            ("pages/5_Replay.py", "Replay"), ("pages/6_Compare.py", "Compare"),
            ("pages/7_Approve.py", "Approve")], strict=True):
        col.page_link(page_file, label=label, icon=":material/arrow_forward:")
