"""The page's address keeps which case is loaded (and its marked faults, the objective,
the sources the reviewer cleaned or cleared and the reviewer's plan edits), so that
reloading the page, or opening its address in another tab, brings the case back: a
session's state lives only as long as its browser tab's connection.

A sample is named by its name (`state.sample_paths`); an uploaded or imported case by the
digest it is kept under on the server (`kept_cases`), and the cleaned and cleared
suspects, the plan edits and the last replay likewise (a replay counts only while the plan
is the one it replayed, and the cleaned sources are part of that plan). What the address
says is untrusted: a name is used only when it is one of the samples', a digest only when
a kept file still has it, faults only when the case has them, an objective only when it
is one, cleaned sources only when the plan accepts them, edits only when the library
accepts them, a replay only when it is of the case (and it counts only while the plan is
the one it replayed).
"""

from __future__ import annotations

import streamlit as st

from repair_core import CaseError

from . import state
from .identity import is_signed_in
from .settings import team_mode
from .text import md

SAMPLE, CASE, FAULTS, OBJECTIVE, SUSPECTS, EDITS, REPLAY = (
    "sample", "case", "faults", "objective", "suspects", "edits", "replay")
RESTORED = "dgrr_restored"  # what restore() did on this session's first run, to show once
_TRIED = "_dgrr_address_tried"
# (result, digest) of the replay this session kept on the server or read back from it:
# written once, and named while it is the result even before the plan is made again
_KEPT_REPLAY = "dgrr_kept_replay_file"


def restore() -> None:
    """On a session's first run with no case, load the sample the address names."""
    if st.session_state.get(_TRIED):
        return
    st.session_state[_TRIED] = True
    name = st.query_params.get(SAMPLE)
    digest = st.query_params.get(CASE)
    if (name is None and digest is None) or state.case() is not None:
        return
    what = "sample case"
    if name is None:
        from . import kept_cases

        kept = kept_cases.load_case_kept(str(digest))
        if kept is None:
            st.session_state[RESTORED] = ("warning", "The case the page's address names is "
                                          "no longer kept on this server (kept cases expire "
                                          "after a week unused); load it again.")
            return
        state.set_case(kept, "a case kept on this server", kept=str(digest))
        what = "uploaded or imported case"
    elif name not in state.sample_paths():
        st.session_state[RESTORED] = ("warning", "The page's address names a sample this "
                                      "dashboard does not have; nothing was loaded.")
        return
    else:
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
    suspects = st.query_params.get(SUSPECTS)
    if suspects is not None:  # before the edits: they apply to the plan these make
        notes.append(_restore_suspect_choices(str(suspects)))
    edits = st.query_params.get(EDITS)
    if edits is not None:
        notes.append(_restore_edits(str(edits)))
    replay = st.query_params.get(REPLAY)
    if replay is not None:  # last: every step above drops the result
        notes.append(_restore_replay(str(replay)))
    st.session_state[RESTORED] = (
        "info", f"Reloaded the {what} this page's address names"
        + (" (no replay is kept: run it again)" if replay is None else "")
        + "".join(f"; {n}" for n in notes) + ".")


def _restore_replay(digest: str) -> str:
    """Bring back the replay kept under `digest`; what became of it, in words."""
    from . import kept_cases

    with st.spinner("Reading the last replay kept on this server…"):  # seconds at 100k steps
        kept = kept_cases.load_replay(digest)
    current = state.case()
    if kept is None or current is None:
        return "the replay in the address is no longer kept: run it again"
    if kept.replay.result.report.case_id != current.case_id:
        return "the replay in the address is of another case: run it again"
    replay = state.restore_replay(kept)
    st.session_state[_KEPT_REPLAY] = (replay.result, digest)
    kept_cases.hold_live_replay(digest, kept.model_copy(update={"replay": replay}))
    return (f"the last replay is back (replay {replay.number} by model {md(replay.model)}, "
            f"finished {replay.finished:%Y-%m-%d %H:%M:%S} UTC; shown while the plan is the "
            "one it replayed)")


def _restore_suspect_choices(digest: str) -> str:
    """Clean and un-mark the suspects kept under `digest` as the reviewer did; what
    became of them, in words (a cleaning the plan refuses is dropped when it plans)."""
    from . import kept_cases

    held = kept_cases.load_suspect_choices(digest)
    if held is None:
        return ("the cleaned and cleared suspects in the address are no longer kept: the "
                "plan is made without them")
    cleaned, unmarked = held
    state.set_not_suspect(unmarked)
    state.set_clean_source(cleaned)
    return (f"{len(cleaned)} cleaned source{'s' if len(cleaned) != 1 else ''} and "
            f"{len(unmarked)} cleared suspect{'s' if len(unmarked) != 1 else ''} restored")


def _restore_edits(digest: str) -> str:
    """Apply the plan edits kept under `digest`, one by one with their comments; what
    became of them, in words."""
    from repair_core import PlanEditError, apply_edits

    from . import kept_cases

    held = kept_cases.load_edits(digest)
    plan = state.computed_plan()
    if held is None or plan is None:
        return "the plan edits in the address are no longer kept: the computed plan is shown"
    edits, forced = held
    try:
        for e in edits:
            plan = apply_edits(plan, {str(e["node"]): str(e["action"])}, force=forced,
                               comment=e.get("comment"))
    except (PlanEditError, KeyError):
        return "the plan edits in the address no longer apply: the computed plan is shown"
    state.set_plan(plan)
    return f"{len(edits)} plan edit{'s' if len(edits) != 1 else ''} restored"


def _may_write() -> bool:
    """Whether this session may keep anything on the server's disk: on a dashboard shared
    by a team, only a signed-in reviewer (a visitor's work stays in the session's memory)."""
    return not team_mode() or is_signed_in()


def _kept_replay() -> str | None:
    """The digest the session's current replay is kept under on the server (written the
    first time it is asked for), or None when there is none."""
    held = st.session_state.get(_KEPT_REPLAY)
    p = state.plan_if_ready()
    if p is None:  # not planned again yet (after a reload): the replay read back stands
        if held is not None and held[0] is st.session_state.get(state.RESULT):
            return held[1]  # type: ignore[no-any-return]
        return None
    current = state.current_replay(p)
    if current is None:
        return None
    if held is not None and held[0] is current.result:
        # None: it could not be kept (over the size cap, a disk error), and is not
        # written again on every rerun
        return held[1]  # type: ignore[no-any-return]
    from . import kept_cases
    from .kept_replays import ReplayOfPlan

    digest = kept_cases.keep_replay(ReplayOfPlan(plan_key=state.plan_key(p), replay=current))
    st.session_state[_KEPT_REPLAY] = (current.result, digest)
    return digest


def keep() -> None:
    """Write the loaded sample, its faults (when changed), the objective (when not the
    default), the cleaned and cleared suspects, the plan edits and the last replay (the
    last three kept on the server, not for a visitor of a shared dashboard: `_may_write`)
    into the address; clear them when the case is neither a sample nor kept."""
    wanted: dict[str, str] = {}
    name = state.loaded_sample()
    digest = state.kept_case()
    case = state.case()
    if (name is not None or digest is not None) and case is not None:
        if name is not None:
            wanted[SAMPLE] = name
        else:
            wanted[CASE] = str(digest)
        if list(case.faults) != state.loaded_faults():
            wanted[FAULTS] = ",".join(case.faults)
        chosen = st.session_state.get(state.OBJECTIVE)
        if chosen is not None and chosen != state.DEFAULT_OBJECTIVE:
            wanted[OBJECTIVE] = chosen
        cleaned, unmarked = state.clean_source(), state.not_suspect()
        if (cleaned or unmarked) and _may_write():
            from . import kept_cases

            choices = kept_cases.keep_suspect_choices(cleaned, sorted(unmarked))
            if choices is not None:
                wanted[SUSPECTS] = choices
        edited = st.session_state.get(state.PLAN)  # the edited plan only (none computed here)
        if edited is not None and edited.edits and _may_write():
            from . import kept_cases

            kept = kept_cases.keep_edits([e.model_dump(mode="json") for e in edited.edits],
                                         edited.forced)
            if kept is not None:
                wanted[EDITS] = kept
        replay = _kept_replay() if _may_write() else None
        if replay is not None:
            wanted[REPLAY] = replay
    for key in (SAMPLE, CASE, FAULTS, OBJECTIVE, SUSPECTS, EDITS, REPLAY):
        if key in wanted:
            if st.query_params.get(key) != wanted[key]:
                st.query_params[key] = wanted[key]
        elif key in st.query_params:
            del st.query_params[key]

