"""Load: pick a sample, upload a case, or upload a trajectory plus a memory store."""

from __future__ import annotations

import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.text import code, md
from dgrr_dashboard.widgets import page_setup, show_problems
from repair_core import CaseError, case_from_parts, parse_case

page_setup("Load")
st.title("1 · Load a case")
st.write("A case is one `dgrr.case/v1` JSON document: the user turns, the memory store, the "
         "failed trajectory and the diagnosed faults. Nothing of the current case is lost "
         "if a new one is invalid.")


def _load(build, source: str) -> None:
    try:
        new = build()
    except CaseError as exc:
        st.session_state[state.PROBLEMS] = (source, exc.problems)
        return
    state.set_case(new, source)
    st.success(f"Loaded case {code(new.case_id)} from {md(source)}.")


tab_sample, tab_case, tab_pair = st.tabs(["Sample", "Upload a case", "Trajectory + memory files"])
with tab_sample:
    samples = list(state.sample_paths())
    name = st.selectbox("Sample", samples, key="dgrr_w_sample",
                        help="The spec example and every case under sample_traces/")
    if st.button("Load sample", type="primary", key="dgrr_w_load_sample"):
        _load(lambda: state.load_sample(name), name)
with tab_case:
    up = st.file_uploader("Case JSON", type=["json"], key="dgrr_w_upload_case")
    if st.button("Load uploaded case", key="dgrr_w_load_upload", disabled=up is None):
        assert up is not None
        _load(lambda: parse_case(up.getvalue(), source=up.name), up.name)
with tab_pair:
    st.caption("The trajectory file is a case without `memory` (format, case_id, user_id, "
               "session, trajectory, faults, tools); the memory file is a list of records or "
               "`{\"memory\": [...]}`.")
    traj = st.file_uploader("Trajectory JSON", type=["json"], key="dgrr_w_upload_traj")
    mem = st.file_uploader("Memory store JSON", type=["json"], key="dgrr_w_upload_mem")
    if st.button("Load trajectory + memory", key="dgrr_w_load_pair",
                 disabled=traj is None or mem is None):
        assert traj is not None and mem is not None
        src = f"{traj.name} + {mem.name}"
        _load(lambda: case_from_parts(traj.getvalue(), mem.getvalue(), source=src), src)

if state.PROBLEMS in st.session_state:
    source, problems = st.session_state[state.PROBLEMS]
    show_problems(f"Could not load {source}", problems)
    current = state.case()
    if current is not None:
        st.info(f"The previous case {code(current.case_id)} is still loaded, unchanged.")

c = state.case()
st.divider()
if c is None:
    st.info("No case loaded yet.")
else:
    st.subheader(f"Current case: {code(c.case_id)}")
    cols = st.columns(5)
    cols[0].metric("Domain", md(c.domain or "—"))
    cols[1].metric("User turns", len(c.session))
    cols[2].metric("Trajectory steps", len(c.trajectory))
    cols[3].metric("Memory records", len(c.memory))
    cols[4].metric("Diagnosed faults", len(c.faults))
    st.caption(f"Source: {md(st.session_state.get(state.SOURCE, '?'))}")
    st.markdown("**Final answer of the failed run**")
    st.text(c.final_answer().text)
    st.markdown("**User turns**")
    st.dataframe([{"id": t.id, "seq": t.seq, "text": t.text} for t in c.session],
                 hide_index=True, width="stretch")
    st.page_link("pages/2_Faults.py", label="Next: mark the diagnosed faults", icon="➡️")
