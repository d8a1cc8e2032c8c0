"""Approve: record the reviewer's decision (append-only), see the history, export."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.text import code, md
from dgrr_dashboard.widgets import db_url, page_setup, require_plan, show_problems
from repair_core import DgrrError
from repair_core.approvals import (
    ApprovalStore,
    approval_hashes,
    markdown_report,
    record_decision,
    repaired_store,
    repaired_trajectory,
)
from repair_core.approvals import db_url as resolve_db_url

page_setup("Approve")
st.title("7 · Approve or reject")

p = require_plan()
res = state.result()

with st.expander("Approvals database"):
    url_in = st.text_input("Database URL or SQLite file", key="dgrr_w_db",
                           value=st.session_state.get(state.DB) or "",
                           placeholder=resolve_db_url(None),
                           help="Empty: $DGRR_DB, else ~/.dgrr/approvals.db. Any SQLAlchemy URL works, "
                                "e.g. postgresql://user@host/dgrr.")
    st.session_state[state.DB] = url_in.strip() or None
    st.caption(f"Writing to `{resolve_db_url(db_url())}` (append-only).")


@st.cache_resource(show_spinner=False)
def _store(url: str) -> ApprovalStore:
    return ApprovalStore(url)


try:
    store = _store(resolve_db_url(db_url()))
except DgrrError as exc:
    show_problems("Cannot open the approvals database", [str(exc)])
    st.stop()

@st.cache_data(show_spinner=False, max_entries=8)
def _signed(key: str, _plan: Any, _res: Any) -> tuple[str, str, str, str]:
    """Hashes and JSON exports of one plan and result (key: plan digest + result id)."""
    inputs, outputs = approval_hashes(_plan, _res)
    return (inputs, outputs, json.dumps(repaired_store(_plan, _res), indent=1),
            json.dumps(repaired_trajectory(_plan, _res), indent=1))


inputs, outputs, store_json, trajectory_json = _signed(
    f"{state.plan_key(p)}:{id(res) if res is not None else 'none'}", p, res)
st.markdown(f"Case `{p.case.case_id}` · {len(p.edits)} plan edit(s)"
            + (" (some override an invariant)" if p.forced else "")
            + f" · replay: {'done' if res is not None else 'not run'}")
st.caption(f"inputs sha256 `{inputs}` · outputs sha256 `{outputs}`")
if res is None:
    st.warning("This plan has not been replayed: you would approve the plan only.")

with st.form("dgrr_w_approve_form"):
    reviewer = st.text_input("Reviewer", key="dgrr_w_reviewer")
    decision = st.radio("Decision", ["approve", "reject"], horizontal=True, key="dgrr_w_decision")
    comment = st.text_area("Comment", key="dgrr_w_comment")
    submitted = st.form_submit_button("Record decision", type="primary")
if submitted:
    try:
        rec = record_decision(store, p, reviewer=reviewer, decision=decision, comment=comment,
                              result=res)
    except DgrrError as exc:
        show_problems("Not recorded", str(exc).splitlines()[1:] or [str(exc)])
    else:
        st.success(f"Recorded #{rec.id}: {rec.decision} by {rec.reviewer} at "
                   f"{rec.created_at:%Y-%m-%d %H:%M:%S} UTC.")

st.subheader("History")
scope = st.radio("Show", ["this case", "all cases"], horizontal=True, key="dgrr_w_hist_scope")
rows = store.history(case_id=p.case.case_id if scope == "this case" else None, limit=500)
if not rows:
    st.caption("No decisions recorded yet.")
else:
    st.dataframe(pd.DataFrame([{
        "#": r.id, "time (UTC)": f"{r.created_at:%Y-%m-%d %H:%M:%S}", "case": r.case_id,
        "reviewer": r.reviewer, "decision": r.decision, "comment": r.comment,
        "edits": ", ".join(f"{e['node']}→{e['action']}" for e in r.plan_edits),
        "forced": r.forced, "inputs": r.inputs_sha256[:12], "outputs": r.outputs_sha256[:12]}
        for r in rows]), hide_index=True, width="stretch")

st.subheader("Export")
cid = p.case.case_id
x1, x2, x3 = st.columns(3)
x1.download_button("Repaired store (JSON)", store_json,
                   file_name=f"{cid}-store.json", mime="application/json",
                   key="dgrr_w_dl_store")
x2.download_button("Trajectory (JSON)", trajectory_json,
                   file_name=f"{cid}-trajectory.json", mime="application/json",
                   key="dgrr_w_dl_traj")
x3.download_button("Report (Markdown)",
                   markdown_report(p, res, store.history(case_id=cid, limit=50),
                                   hashes=(inputs, outputs)),
                   file_name=f"{cid}-report.md", mime="text/markdown", key="dgrr_w_dl_report")
