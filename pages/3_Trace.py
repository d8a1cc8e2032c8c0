"""Trace: the session as a collapsible tree (turn → steps, and the memory store) and a
timeline, each row coloured by its decision, searchable and filterable; a click shows the
same details as the Graph page."""

from __future__ import annotations

import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.component import clicked, tree_component
from dgrr_dashboard.text import md
from dgrr_dashboard.trace import DECISION_COLOURS, trace_data, trace_rows
from dgrr_dashboard.widgets import (
    decision_legend_html,
    node_details_panel,
    page_setup,
    require_plan,
)

page_setup("Trace")
st.title("3c · Trace tree and timeline")
st.write("The session as a tree: each user turn with its steps in trajectory order, then the "
         "memory store. The colour of a row is the plan's decision (after a replay, its "
         "outcome is shown next to it). Search by id or text and filter by type or decision "
         "over every step and record; click a row or a bar of the timeline to see its details below.")

p = require_plan()
c = p.case
res = state.result()
large = len(c.trajectory) + len(c.memory) > 2000
rkey = (state.plan_key(p), id(res) if res is not None else None)
all_rows = state.derived("dgrr_trace_rows", rkey, lambda: trace_rows(p, res))
types_present = sorted({r["type"] for r in all_rows})
decisions_present = [d for d in DECISION_COLOURS if any(r["decision"] == d for r in all_rows)]
f1, f2, f3, f4 = st.columns([3, 2, 2, 3])  # the checkbox label on one line
search = f1.text_input("Search id or text (every step and record)", key="dgrr_w_t_search")
node_type = f2.selectbox("Type", ["(all)", *types_present], key="dgrr_w_t_type")
decision = f3.selectbox("Decision", ["(all)", *decisions_present], key="dgrr_w_t_decision")
changed_only = f4.checkbox("Affected or changed nodes only", value=large,
                           key="dgrr_w_t_changed",
                           help="on by default for cases over 2,000 steps and records")
filters = (search.strip(), "" if node_type == "(all)" else node_type,
           "" if decision == "(all)" else decision, changed_only)
# The rows that match are sent a page at a time (the tree runs in the browser); a change
# of the filters goes back to the first page.
PAGE, PAGE_KEY = 2000, "dgrr_w_t_page"
if st.session_state.get("dgrr_t_page_filters") != filters:
    st.session_state["dgrr_t_page_filters"] = filters
    st.session_state[PAGE_KEY] = 1
page_no = int(st.session_state.get(PAGE_KEY, 1))
tkey = (*rkey, filters, page_no)
data = state.derived("dgrr_trace_tree", tkey,
                     lambda: trace_data(p, res, search=filters[0], node_type=filters[1],
                                        decision=filters[2], changed_only=changed_only,
                                        rows=all_rows, limit=PAGE,
                                        offset=(page_no - 1) * PAGE))
pages = max(1, -(-data["matching"] // PAGE))
st.html(decision_legend_html())
g1, g2 = st.columns([1, 5], vertical_alignment="bottom")
if pages > 1:
    g1.number_input(f"Page (of {pages})", min_value=1, max_value=pages, step=1, key=PAGE_KEY)
g2.caption(f"{data['matching']} of {len(all_rows)} steps and records match"
           + (f" · {md(data['note'])}" if data["note"] else ""))
if data["matching"] == 0:
    st.info("No step or record matches these filters.")
value = tree_component(data, key="dgrr_w_t_component", digest=f"{tkey}", height=460,
                       selected=st.session_state.get(state.SELECTED))
hit = clicked(value, "dgrr_w_t_seen", st.session_state)
if hit is not None and hit in p.analysis.graph:
    st.session_state[state.SELECTED] = hit
elif search.strip() in p.analysis.graph and st.session_state.get("dgrr_t_last_search") != search:
    st.session_state[state.SELECTED] = search.strip()  # an exact id typed: inspect it
st.session_state["dgrr_t_last_search"] = search

st.subheader("Details")
node = st.session_state.get(state.SELECTED)
if node not in p.analysis.graph:
    node = next(iter(c.faults), None) or (c.final_answer().id if c.has_answer() else
                                          next((m.id for m in c.memory), None))
node_details_panel(p, node)
st.page_link("pages/4_Plan.py", label="Next: review the plan", icon=":material/arrow_forward:")
