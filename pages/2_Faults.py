"""Faults: the memory store as a filterable table; mark and unmark diagnosed faults."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.text import MISSING, code
from dgrr_dashboard.widgets import page_setup, require_case

page_setup("Faults")
st.title("2 · Diagnosed faults")
st.write("Diagnosis is not part of the method: you say which records are wrong. Tick the "
         "**fault** column and press **Apply fault marks**; the graph, plan and replay "
         "follow the new choice.")

c = require_case()
faults = set(c.faults)
if not c.memory:
    st.info("This case has no memory records (e.g. an imported trace of an agent without a "
            "memory tool), so there is no record to mark as a fault. The graph, plan and "
            "replay still work: with no fault, the plan keeps everything.")


def _show(value: object) -> str:
    return "" if value is None else value if isinstance(value, str) else json.dumps(value)


STORE_COLUMNS = ["fault", "id", "user", "key", "value", "status", "trust", "created", "text"]
STORE_TABLE = "dgrr_fault_table"  # the store as a table, built once per case
_held = st.session_state.get(STORE_TABLE)
if _held is None or _held[0] is not c:
    _held = (c, pd.DataFrame([{"fault": m.id in faults, "id": m.id, "user": m.user_id,
                               "key": m.key or "", "value": _show(m.value), "status": m.status,
                               "trust": m.trust, "created": m.created_seq, "text": m.text}
                              for m in c.memory], columns=STORE_COLUMNS))
    st.session_state[STORE_TABLE] = _held
rows = _held[1]

f1, f2, f3, f4 = st.columns([2, 2, 2, 1])
text = f1.text_input("Search text, key or value", key="dgrr_w_fault_search")
statuses = f2.multiselect("Status", ["active", "superseded", "deleted"], key="dgrr_w_fault_status")
users = sorted(rows["user"].unique())
user = f3.selectbox("User", ["(all)", *users], key="dgrr_w_fault_user")
only = f4.checkbox("Faults only", key="dgrr_w_fault_only")

shown = rows
if text and len(shown):
    needle = text.lower()
    shown = shown[shown[["id", "key", "value", "text"]].apply(
        lambda r: any(needle in str(v).lower() for v in r), axis=1)]
if statuses:
    shown = shown[shown["status"].isin(statuses)]
if user != "(all)":
    shown = shown[shown["user"] == user]
if only:
    shown = shown[shown["fault"]]
shown = shown.reset_index(drop=True)

st.caption(f"{len(shown)} of {len(rows)} records shown · {len(faults)} marked as faults")
# Pending ticks refer to rows of this filtered view: a new filter starts a fresh editor.
view_id = abs(hash((text, tuple(statuses), user, only))) % 10**8
editor_key = (f"dgrr_faults_editor_{st.session_state.get(state.FAULT_EDITOR_VERSION, 0)}"
              f"_{view_id}")
edited = st.data_editor(
    shown, key=editor_key, hide_index=True, width="stretch",
    disabled=[col for col in shown.columns if col != "fault"],
    column_config={"fault": st.column_config.CheckboxColumn("fault", help="diagnosed faulty"),
                   "trust": st.column_config.NumberColumn("trust", format="%.2f"),
                   # a bare "created" over "17" or "—" said neither when nor what
                   "created": st.column_config.NumberColumn(
                       "created at seq", help="the seq of the step of this run that wrote "
                       "the record; — when the record is older than the run"),
                   "text": st.column_config.TextColumn("text", width="large")},
    placeholder=MISSING)

# Rows hidden by the filters keep their current mark.
marked = (faults - set(shown["id"])) | set(edited.loc[edited["fault"], "id"])
if st.button("Apply fault marks", type="primary", key="dgrr_w_apply_faults",
             disabled=marked == faults):
    state.set_faults(sorted(marked))
    st.rerun()

with st.expander("Mark or unmark by id"):
    # records, and untrusted inputs that are not records: tool results/documents, user turns
    inputs = [s.id for s in c.steps_in_order() if s.type == "tool_observation"]
    pick = st.multiselect("Diagnosed faults", [m.id for m in c.memory] + inputs
                          + [t.id for t in c.session], default=sorted(faults),
                          help="memory records, tool observations (a tool result or a retrieved "
                               "document) or user turns",
                          key=f"dgrr_w_fault_pick_{st.session_state.get(state.FAULT_EDITOR_VERSION, 0)}")
    if st.button("Set these as the faults", key="dgrr_w_apply_pick", disabled=set(pick) == faults):
        state.set_faults(list(pick))
        st.rerun()

loaded = set(st.session_state.get(state.LOADED_FAULTS, []))
if faults != loaded:
    st.info(f"Changed from the loaded case's faults ({', '.join(code(f) for f in sorted(loaded)) or 'none'}).")
if not faults:
    st.warning("No fault is marked: nothing is affected and the plan keeps everything.")
else:
    p = state.plan()
    assert p is not None
    a = p.analysis
    st.success(f"{len(faults)} fault(s) marked: {', '.join(code(f) for f in sorted(faults))}. They reach "
               f"{len(a.affected)} nodes; {len(a.supported)} are kept by independent support; "
               f"the plan replays {len(p.replay_set)} of {len(c.trajectory)} steps.")

# Suspects: what the faults' content finds beyond the lineage (docs/method.md, "Suspects").
# Their ids and evidence are untrusted text: shown in a dataframe's cells, never as markup.
p = state.plan() if faults else None
unmarked = state.not_suspect()
if p is not None and (p.suspected or unmarked):
    st.subheader("Suspected by content")
    st.caption("Inputs and records no diagnosis or lineage names that carry a fault's "
               "content. A source is cleaned like a fault; a carrier record is quarantined "
               "under the store and both objectives. Un-mark one to plan without it.")
    if p.suspected:
        st.dataframe(pd.DataFrame([{"id": x.id, "role": x.role, "fault": x.fault,
                                    "action": x.action, "evidence": x.evidence}
                                   for x in p.suspected]),
                     hide_index=True, width="stretch", key="dgrr_w_suspects_table",
                     placeholder=MISSING)
    choice = st.multiselect("Un-marked (never a suspect)",
                            sorted({x.id for x in p.suspected} | unmarked),
                            default=sorted(unmarked), key="dgrr_w_not_suspect")
    if st.button("Apply un-marking", key="dgrr_w_apply_not_suspect",
                 disabled=set(choice) == set(unmarked)):
        state.set_not_suspect(choice)
        st.rerun()
    # Clean this source: the reviewer's other choice for a source the rules only flag
    # (docs/rules.md, suspect.reviewer-clean); the reason is plain text in a table cell
    cleaned = state.clean_source()
    flagged = sorted({x.id for x in p.suspected if x.role == "source" and x.id not in cleaned})
    if flagged or cleaned:
        st.markdown("**Clean a suspected source like a fault**")
        if cleaned:
            st.dataframe(pd.DataFrame([{"id": k, "reviewer's reason": v}
                                       for k, v in sorted(cleaned.items())]),
                         hide_index=True, width="stretch", key="dgrr_w_cleaned_table",
                         placeholder=MISSING)
            if st.button("Stop cleaning these", key="dgrr_w_undo_clean_source"):
                state.set_clean_source({})
                st.rerun()
        if flagged:
            pick = st.selectbox("Source to clean", flagged, key="dgrr_w_clean_source_pick")
            why = st.text_input("Why (recorded with the cleaning)",
                                key="dgrr_w_clean_source_reason")
            if st.button("Clean this source", key="dgrr_w_clean_source",
                         disabled=not why.strip()):
                state.set_clean_source({**cleaned, pick: why.strip()})
                st.rerun()

st.page_link("pages/3_Graph.py", label="Next: see what the faults reached", icon=":material/arrow_forward:")
