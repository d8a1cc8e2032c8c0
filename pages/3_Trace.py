"""Trace: the session as a collapsible tree (turn → steps, and the memory store) and a
timeline, each row coloured by its decision, searchable and filterable; a click shows the
same details as the Graph page."""

from __future__ import annotations

import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.component import clicked, tree_component
from dgrr_dashboard.text import md
from dgrr_dashboard.trace import trace_data
from dgrr_dashboard.widgets import node_details_panel, page_setup, require_plan

page_setup("Trace")
st.title("3b · Trace tree and timeline")
st.write("The session as a tree: each user turn with its steps in trajectory order, then the "
         "memory store. The colour of a row is the plan's decision (after a replay, its "
         "outcome is shown next to it). Search by id or text, filter by type or decision, and "
         "click a row or a bar of the timeline to see its details below.")

p = require_plan()
c = p.case
res = state.result()
large = len(c.trajectory) + len(c.memory) > 2000
changed_only = st.checkbox("Affected or changed nodes only", value=large,
                           key="dgrr_w_t_changed",
                           help="on by default for cases over 2,000 steps and records")
tkey = (state.plan_key(p), id(res) if res is not None else None, changed_only)
data = state.derived("dgrr_trace_tree", tkey,
                     lambda: trace_data(p, res, changed_only=changed_only))
if data["note"]:
    st.caption(md(data["note"]))
value = tree_component(data, key="dgrr_w_t_component", digest=f"{tkey}", height=460,
                       selected=st.session_state.get(state.SELECTED))
hit = clicked(value, "dgrr_w_t_seen", st.session_state)
if hit is not None and hit in p.analysis.graph:
    st.session_state[state.SELECTED] = hit

st.subheader("Details")
node = st.session_state.get(state.SELECTED)
if node not in p.analysis.graph:
    node = next(iter(c.faults), None) or c.final_answer().id
node_details_panel(p, node)
st.page_link("pages/4_Plan.py", label="Next: review the plan", icon="➡️")
