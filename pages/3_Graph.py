"""Graph: the typed dependency graph coloured by the plan; click a node (or find it with
the search box in the picture, or pick it) to see its details beside the picture."""

from __future__ import annotations

import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.text import code, file_stem
from dgrr_dashboard.widgets import (
    NARROW_WINDOW_PX,
    STACK_PREFIX,
    WRAP_PREFIX,
    graph_frame,
    legend_html,
    node_details_panel,
    page_setup,
    require_plan,
    step_panel,
)
from repair_core import fault_dependents, fault_path
from repair_core._text import plural
from repair_core.case._case import STEP_TYPES
from repair_core.viz import NEIGHBOURHOOD_LIMIT, graph_view

page_setup("Graph")
st.title("3 · Dependency graph")
st.caption("Edges point from a premise to what depends on it; colours say what the plan "
           "decided, or each node's class in the analysis (*Colour by*; the legend is above "
           "the picture). Click a node, or find it with the "
           "picture's search box, to see everything about it in the inspector.")

p = require_plan()
types_all = ["turn", "record", *STEP_TYPES]
# the controls on one row and the node types in an expander: the picture starts on the
# first screen
# (in a narrow window they wrap onto two rows rather than break their labels mid-word)
with st.container(key=WRAP_PREFIX + "graph_controls"):
    c1, c2, c3, c0, c4, c5 = st.columns([2, 2, 2, 3, 3, 2], vertical_alignment="center")
affected_only = c1.checkbox("Affected subgraph only", key="dgrr_w_g_affected")
hide_chain = c2.checkbox("Hide chain edges", key="dgrr_w_g_chain")
layout = c3.radio("Layout", ["timeline", "force"], key="dgrr_w_g_layout", horizontal=True)
COLOUR_BY = {"plan decision": "decision", "analysis": "analysis"}
colour_by = COLOUR_BY[c0.radio(
    "Colour by", list(COLOUR_BY), horizontal=True, key="dgrr_w_g_colour",
    help="plan decision: what the plan does with each node; analysis: each node's class "
         "in the analysis (fault, answer-relevant, kept by independent support, affected, "
         "unaffected)")]
beside = c4.radio("Inspector", ["beside the picture", "below the picture (a wider picture)"],
                  horizontal=True, key="dgrr_w_g_inspector",
                  help=f"In a window narrower than {NARROW_WINDOW_PX:,} px the inspector is "
                       "below the picture either way: beside it, the picture would be too "
                       "narrow to show a case.") == "beside the picture"
with c5.expander("Node types"):
    types = st.multiselect("Node types", types_all, default=types_all, key="dgrr_w_g_types",
                           label_visibility="collapsed")

options = {"affected_only": affected_only, "hide_chain": hide_chain, "layout": layout,
           "node_types": None if set(types) == set(types_all) else sorted(types),
           "colour_by": colour_by}
VIEWS = "dgrr_graph_views"  # (plan key, options) -> view: a view of a big case costs seconds
views = st.session_state.setdefault(VIEWS, {})
vkey = (state.plan_key(p), tuple(sorted((k, str(v)) for k, v in options.items())))
view = views.get(vkey)
if view is None:
    if len(views) > 4:
        views.clear()
    view = views[vkey] = graph_view(p, **options)  # type: ignore[arg-type]
# The picture says how many nodes it draws and why some are hidden (its header); the page
# repeats only the counts.
st.caption(f"Showing {len(view.nodes)} of {view.total_nodes} nodes and {len(view.edges)} edges"
           f" · physics {'on' if view.physics else 'off'}"
           + (" · large graph: only the affected neighbourhood is drawn"
              if view.total_nodes > NEIGHBOURHOOD_LIMIT else ""))

ids = [n.id for n in view.nodes] or list(p.analysis.graph.nodes)
if beside:
    # in a narrow window the inspector goes below anyway: beside it the picture was too
    # narrow for the default view to show a sample case
    with st.container(key=STACK_PREFIX + "graph_inspector"):
        picture, inspector = st.columns([3, 1], gap="small")
else:
    picture, inspector = st.container(), st.container()
drawn = set(ids)
# The inspected node: the one clicked or picked, else the picker's, else a drawn fault. It
# leads the picker even when this view does not draw it (filters, the drawing limit): the
# picker, the panel and the outline always name the same node.
selected = st.session_state.get(state.SELECTED)
if selected not in p.analysis.graph:
    selected = st.session_state.get("dgrr_w_g_node")
    if selected not in drawn:
        selected = next((n for n in ids if n in p.case.faults), ids[0])
# outlined on the picture: the path from the fault to the selected node, or for a fault
# what it affected directly
path = list((fault_dependents if selected in p.analysis.faults else fault_path)(
    p.analysis, selected))
with picture:
    html, hit = graph_frame(p, height=760, key="dgrr_w_g_component",
                            selected=st.session_state.get(state.SELECTED), view=view,
                            path=path, **options)
if hit is not None and hit in p.analysis.graph:
    st.session_state[state.SELECTED] = hit
    if hit != selected:
        st.rerun()  # the picture outlines the new node's path
elif hit is not None:
    st.warning(f"No node {code(hit)} in this case.")
picker_ids = ids if selected in drawn else [selected, *ids]
st.session_state["dgrr_w_g_node"] = selected


def _picked() -> None:
    st.session_state[state.SELECTED] = st.session_state["dgrr_w_g_node"]


def _label(n: str) -> str:
    return f"{n} · {p.analysis.graph.nodes[n]['type']}" + ("" if n in drawn else " · not drawn")


with inspector:
    st.subheader("Node details")
    node = st.selectbox("Node", picker_ids, key="dgrr_w_g_node", on_change=_picked,
                        format_func=_label)
    if node not in drawn:
        st.caption(f"{code(node)} is not drawn in this view (filters or the drawing "
                   "limit); its details:")
    if node == selected and node in p.analysis.faults:
        reached = sorted({b for _, b in path} - {p.analysis.seeds[node]})
        seed = p.analysis.seeds[node]
        st.caption(f"Outlined in black: what the fault {code(node)} affected directly, "
                   f"{plural(len(reached), 'node')} one edge from it"
                   + (f" or from its seed {code(seed)}" if seed != node else "")
                   + f" ({sum(n in drawn for n in reached):,} drawn in this view)."
                   if reached else f"The fault {code(node)} affects nothing directly.")
    elif node == selected and path:
        shown_hops = sum(a in drawn and b in drawn for a, b in path)
        st.caption(f"Outlined in black: the path from the fault {code(path[-1][0])} to "
                   f"{code(node)}, {plural(len(path), 'hop')} ({shown_hops:,} drawn in "
                   "this view).")
    elif node == selected and node in p.analysis.affected:
        st.caption(f"{code(node)} is where a fault's traversal starts: no path to outline.")
    # a fixed height scrolls beside the picture; below it the panel takes its length
    # (no `height` at all: Streamlit 1.67 refuses None)
    with st.container(height=700, border=False) if beside else st.container(border=False):
        node_details_panel(p, node, beside=beside, picker="dgrr_w_g_node", known=drawn,
                           step_here=not beside)
# Beside the picture the inspector is a quarter of the page: the step panel (two outputs
# side by side, prompts and replies) takes the page's width below the picture instead.
_result = state.result()
if beside and _result is not None:
    with st.container(key="dgrr_w_g_step_panel"):
        step_panel(p, node, _result)
with st.expander("Legend: shapes and edges"):
    st.html(legend_html(colour_by))
st.download_button("Download this picture as standalone HTML", html,
                   file_name=f"{file_stem(p.case.case_id)}-graph.html",
                   mime="text/html", key="dgrr_w_g_download")
st.page_link("pages/4_Plan.py", label="Next: review the plan", icon=":material/arrow_forward:")
