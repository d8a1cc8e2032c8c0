"""Cases: a list to work through — a folder of the server's samples, the cases kept on
this server, or the repair queue — each with its id, domain, faults and status (planned,
replayed, approved, rejected, applied), filtered; open one, then the next or the previous."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dgrr_dashboard import kept_cases, state
from dgrr_dashboard.case_list import cases_frame, filter_cases, moved
from dgrr_dashboard.identity import reviewer_identity
from dgrr_dashboard.queue_claim import claim, held_elsewhere, held_request
from dgrr_dashboard.settings import team_mode
from dgrr_dashboard.text import MISSING, code, md
from dgrr_dashboard.widgets import WRAP_PREFIX, database_picker, page_setup, show_problems
from repair_core import CaseError, DgrrError
from repair_core.approvals import (
    CASE_STATUSES,
    ApprovalStore,
    case_files,
    database_exists,
    list_cases,
)
from repair_core.queue import RepairQueue

page_setup("Cases")
st.title("0 · Cases")
st.write("A list of cases to work through: pick where they come from, filter them, open one "
         "as the working case, then go to the next or the previous one. A case's status is "
         "how far its repair has gone: planned (nothing recorded yet), replayed (in this "
         "session), approved or rejected (the latest decision in the approvals database), "
         "applied (an approved repair was written to a store).")

FOLDER, KEPT, QUEUE = "a folder of samples", "cases kept on this server", "the repair queue"
sources = [FOLDER, QUEUE] if team_mode() else [FOLDER, KEPT, QUEUE]
source = st.radio("Cases from", sources, horizontal=True, key="dgrr_w_cases_source",
                  help="kept cases are the uploads and imports this server keeps for a "
                       "reload; a dashboard served to a team does not list them (they are "
                       "other people's)")
url = database_picker("Approvals database", "dgrr_w_cases_db", "Statuses are read from",
                      "The approvals database whose decisions and applied events give each "
                      "case its status.")



def _claim_from_queue(pending: list[int]) -> None:
    """Claim a pending request as this session's reviewer, as the Inbox does (the page
    stops at the sign-in or name prompt until there is a reviewer)."""
    who = reviewer_identity()
    try:
        queue = RepairQueue(url)
        try:
            held = held_request(queue, who.name)
            if held is not None:
                st.info(f"You hold request #{held.id} (case {code(held.case_id)}): it is the "
                        "working case. Release it on the Inbox page before claiming another.")
                st.page_link("pages/3_Graph.py", label="Go to Graph", icon=":material/hub:")
                return
            earlier = held_elsewhere(queue, who.name)
            if earlier:  # a reload forgot it: a second claim would hold two
                st.info(f"You hold request #{earlier[0].id} (case "
                        f"{code(earlier[0].case_id)}), claimed in an earlier session (a "
                        "reload or another tab): resume or release it on the Inbox page "
                        "before claiming another.")
                st.page_link("pages/0_Inbox.py", label="Go to the Inbox",
                             icon=":material/inbox:")
                return
            if not pending:
                st.caption("Nothing is pending.")
                return
            c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
            pick = c1.selectbox("Claim request", [f"#{i}" for i in pending],
                                key="dgrr_w_cases_claim_pick")
            if not c2.button("Claim", type="primary", key="dgrr_w_cases_claim"):
                st.caption(f"Claiming as {md(who.name)}.")
                return
            got = claim(queue, int(pick.removeprefix("#")), who.name)
        finally:
            queue.close()
    except DgrrError as exc:
        show_problems("Not claimed", [str(exc)])
        return
    if got is not None:
        st.rerun()  # the sidebar and the table show the claim


if source == QUEUE:
    st.caption("Claim a pending request here or on the **Inbox** page (one reviewer at a "
               "time): its case becomes the working case.")
    st.page_link("pages/0_Inbox.py", label="Go to the Inbox", icon=":material/inbox:")
    if not database_exists(url):
        st.caption("No request yet: the queue's database does not exist yet.")
        st.stop()
    try:
        queue = RepairQueue(url)
        try:
            requests = queue.requests()
        finally:
            queue.close()
    except DgrrError as exc:
        show_problems("Cannot read the queue", [str(exc)])
        st.stop()
    st.dataframe(pd.DataFrame([{"request": r.id, "case": r.case_id, "faults": ", ".join(r.faults),
                                "status": r.status, "agent": r.agent, "user": r.user_id,
                                "claimed by": r.claimed_by} for r in requests],
                              columns=["request", "case", "faults", "status", "agent", "user",
                                       "claimed by"]),
                 hide_index=True, width="stretch", placeholder=MISSING)
    _claim_from_queue([r.id for r in requests if r.status == "pending"])
    st.stop()

if source == FOLDER:
    folders = ["(every folder)", *sorted(p.name for p in state.SAMPLES.iterdir()
                                          if p.is_dir() and not p.name.startswith("."))]
    picked = st.selectbox("Folder of sample_traces/", folders, key="dgrr_w_cases_folder")
    root = state.SAMPLES if picked == folders[0] else state.SAMPLES / picked
else:
    root = kept_cases.folder()
files = [p for p in case_files(root)
         if not (source == FOLDER and any(part in ("results", "runs")
                                           for part in p.relative_to(root).parts))
         and not (source == KEPT and p.name.startswith(kept_cases.KEPT_PREFIXES))
         ] if root.is_dir() else []

res = state.result()
working = state.case()
replayed = {working.case_id} if res is not None and working is not None else set()


def _listing() -> list:
    store = None
    try:
        if database_exists(url):
            store = ApprovalStore(url)
        return list_cases(files, root=root, store=store, replayed=replayed)
    finally:
        if store is not None:
            store.close()


try:
    cases = state.derived("dgrr_case_list", (str(root), len(files), url, tuple(replayed),
                                             st.session_state.get("dgrr_cases_refresh", 0)),
                          _listing)
except DgrrError as exc:
    show_problems("Cannot list the cases", [str(exc)])
    st.stop()
if not cases:
    st.info("No case here." if source == FOLDER else
            "No case is kept on this server yet: uploads and imports on the Load page are.")
    st.stop()

# (a narrow window wraps them rather than cut a button's label: "Refresh" showed "R…")
with st.container(key=WRAP_PREFIX + "cases_filters"):
    f1, f2, f3, f4 = st.columns([3, 2, 3, 1], vertical_alignment="bottom")
present = [s for s in CASE_STATUSES if any(c.status == s for c in cases)]
statuses = f1.multiselect("Status", present, key="dgrr_w_cases_status")
domains = ["(all)", *sorted({c.domain for c in cases if c.domain})]
domain = f2.selectbox("Domain", domains, key="dgrr_w_cases_domain")
search = f3.text_input("Search id or file", key="dgrr_w_cases_search")
if f4.button("Refresh", key="dgrr_w_cases_refresh", help="read the statuses again"):
    st.session_state["dgrr_cases_refresh"] = st.session_state.get("dgrr_cases_refresh", 0) + 1
    st.rerun()
shown = filter_cases(cases, statuses=statuses, domain="" if domain == domains[0] else domain,
                     search=search)
counts = ", ".join(f"{sum(c.status == s for c in shown)} {s}" for s in present
                   if any(c.status == s for c in shown))
st.caption(f"{len(shown)} of {len(cases)} cases" + (f" · {counts}" if counts else ""))

POS = "dgrr_cases_pos"
paths = [c.path for c in shown]
current = st.session_state.get(POS)
position = paths.index(current) if current in paths else None
table = st.dataframe(cases_frame(shown), hide_index=True, width="stretch", height=360,
                     placeholder=MISSING, on_select="rerun", selection_mode="single-row",
                     key="dgrr_w_cases_table")
rows = table.selection.rows if table is not None else []
if rows and rows[0] < len(shown) and shown[rows[0]].path != st.session_state.get(
        "dgrr_cases_clicked"):
    st.session_state["dgrr_cases_clicked"] = shown[rows[0]].path
    position = rows[0]
    st.session_state[POS] = paths[position]


def _open(entry) -> None:
    """Make `entry` the working case (every check of a load; a refusal is shown)."""
    try:
        if source == FOLDER:
            name = str((root / entry.path).relative_to(state.ROOT))
            state.set_case(state.load_sample(name), name, sample=True)
        else:
            case = kept_cases.load_case_kept(entry.path.removesuffix(".json"))
            if case is None:
                raise CaseError(["no longer kept on this server, or changed"],
                                source=entry.path)
            state.set_case(case, "kept case", kept=entry.path.removesuffix(".json"))
    except CaseError as exc:
        show_problems(f"Cannot open {entry.path}", exc.problems)
        return
    st.session_state[POS] = entry.path
    st.session_state["dgrr_cases_opened"] = entry.path


with st.container(key=WRAP_PREFIX + "cases_moves"):
    b1, b2, b3, b4 = st.columns([1, 1, 1, 3], vertical_alignment="center")
go: int | None = None
if b1.button("Previous", key="dgrr_w_cases_prev", icon=":material/arrow_back:",
             disabled=not shown):
    go = moved(position, len(shown), -1)
if b2.button("Open", key="dgrr_w_cases_open", type="primary",
             disabled=position is None):
    go = position
if b3.button("Next", key="dgrr_w_cases_next", icon=":material/arrow_forward:",
             disabled=not shown):
    go = moved(position, len(shown), 1)
if go is not None:
    _open(shown[go])
    position = go
if position is not None:
    entry = shown[position]
    b4.markdown(f"Selected: {code(entry.case_id or entry.path)} · {md(entry.status)}"
                + (f" · {md(entry.problem)}" if entry.problem else ""))
opened = st.session_state.get("dgrr_cases_opened")
if opened is not None and state.case() is not None:
    st.success(f"Working case: {code(state.case().case_id)} (from {code(opened)}). "
               "Review it on Graph, Plan and Replay, approve it, then come back for the next.")
    st.page_link("pages/3_Graph.py", label="Go to Graph", icon=":material/hub:")
