"""The page's address keeps which sample case is loaded (and its marked faults and the
objective), so that reloading the page, or opening its address in another tab, brings
the case back: a session's state lives only as long as its browser tab's connection.

Only the samples' names are kept (`state.sample_paths`): an uploaded or imported case
exists in its session alone, and a restored sample comes back without plan edits or a
replay. What the address says is untrusted: a name is used only when it is one of the
samples', faults only when the case has them, an objective only when it is one.
"""

from __future__ import annotations

import streamlit as st

from repair_core import CaseError

from . import state

SAMPLE, FAULTS, OBJECTIVE = "sample", "faults", "objective"
RESTORED = "dgrr_restored"  # what restore() did on this session's first run, to show once
_TRIED = "_dgrr_address_tried"


def restore() -> None:
    """On a session's first run with no case, load the sample the address names."""
    if st.session_state.get(_TRIED):
        return
    st.session_state[_TRIED] = True
    name = st.query_params.get(SAMPLE)
    if name is None or state.case() is not None:
        return
    if name not in state.sample_paths():
        st.session_state[RESTORED] = ("warning", "The page's address names a sample this "
                                      "dashboard does not have; nothing was loaded.")
        return
    try:
        state.set_case(state.load_sample(name), name, sample=True)
    except CaseError:
        st.session_state[RESTORED] = ("warning", "The sample the page's address names "
                                      "could not be loaded; see the Load page.")
        return
    notes = []
    faults = st.query_params.get(FAULTS)
    if faults is not None:
        marked = [f for f in faults.split(",") if f]
        try:
            state.set_faults(marked)
        except CaseError:
            notes.append("the faults in the address are not all this case's: the sample's "
                         "own are marked")
    objective = st.query_params.get(OBJECTIVE)
    if objective in ("answer", "store", "both"):
        state.set_objective(objective)
    elif objective is not None:
        notes.append("the objective in the address is not one of answer, store, both")
    st.session_state[RESTORED] = (
        "info", "Reloaded the sample case this page's address names (plan edits and replay "
        "results are not kept in the address)" + "".join(f"; {n}" for n in notes) + ".")


def keep() -> None:
    """Write the loaded sample, its faults (when changed) and the objective (when not
    the default) into the address; clear them when the case is no sample."""
    wanted: dict[str, str] = {}
    name = state.loaded_sample()
    case = state.case()
    if name is not None and case is not None:
        wanted[SAMPLE] = name
        if list(case.faults) != state.loaded_faults():
            wanted[FAULTS] = ",".join(case.faults)
        chosen = st.session_state.get(state.OBJECTIVE)
        if chosen is not None and chosen != state.DEFAULT_OBJECTIVE:
            wanted[OBJECTIVE] = chosen
    for key in (SAMPLE, FAULTS, OBJECTIVE):
        if key in wanted:
            if st.query_params.get(key) != wanted[key]:
                st.query_params[key] = wanted[key]
        elif key in st.query_params:
            del st.query_params[key]

