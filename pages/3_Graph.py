"""Graph: the typed dependency graph coloured by the plan, with filters and node details."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dgrr_dashboard.widgets import graph_frame, node_details_panel, page_setup, require_plan
from repair_core._case import STEP_TYPES
from repair_core.viz import NEIGHBOURHOOD_LIMIT, graph_view, legend

page_setup("Graph")
st.title("3 · Dependency graph")
st.write("Edges point from a premise to what depends on it. Colours say what the plan "
         "decided; dashed grey edges are execution order (`chain`) and never carry a fault. "
         "Hover a node for its details, click it to show them under the picture, or pick it "
         "below.")

p = require_plan()
types_all = ["turn", "record", *STEP_TYPES]
c1, c2, c3, c4 = st.columns([1, 1, 3, 1])
affected_only = c1.checkbox("Affected subgraph only", key="dgrr_w_g_affected")
hide_chain = c2.checkbox("Hide chain edges", key="dgrr_w_g_chain")
types = c3.multiselect("Node types", types_all, default=types_all, key="dgrr_w_g_types")
layout = c4.radio("Layout", ["timeline", "force"], key="dgrr_w_g_layout", horizontal=True)

options = {"affected_only": affected_only, "hide_chain": hide_chain, "layout": layout,
           "node_types": None if set(types) == set(types_all) else sorted(types)}
view = graph_view(p, **options)  # type: ignore[arg-type]
st.caption(f"Showing {len(view.nodes)} of {view.total_nodes} nodes and {len(view.edges)} edges"
           f" · physics {'on' if view.physics else 'off'}")
if view.note:
    st.info(view.note)
if view.total_nodes > NEIGHBOURHOOD_LIMIT:
    st.caption("Large graph: only the affected neighbourhood is drawn.")
html = graph_frame(p, height=760, **options)
st.download_button("Download this picture as standalone HTML", html,
                   file_name=f"{p.case.case_id}-graph.html", mime="text/html",
                   key="dgrr_w_g_download")

with st.expander("Legend"):
    st.dataframe(pd.DataFrame(legend()), hide_index=True, width="stretch")

st.subheader("Node details")
ids = [n.id for n in view.nodes] or list(p.analysis.graph.nodes)
default = next((i for i, n in enumerate(ids) if n in p.case.faults), 0)
node = st.selectbox("Node", ids, index=default, key="dgrr_w_g_node",
                    format_func=lambda n: f"{n} · {p.analysis.graph.nodes[n]['type']}")
node_details_panel(p, node)
st.page_link("pages/4_Plan.py", label="Next: review the plan", icon="➡️")
