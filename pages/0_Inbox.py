"""Inbox: repair requests from live agents. Filter, claim one (one reviewer at a time), work
it through Graph → Plan → Replay → Compare → Approve, and come back here."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.identity import reviewer_identity
from dgrr_dashboard.queue_claim import claim, held_elsewhere, held_request, resume
from dgrr_dashboard.settings import ApprovalsLogSettings, approvals_log, approvals_log_settings
from dgrr_dashboard.text import MISSING, code, md
from dgrr_dashboard.widgets import WRAP_PREFIX, database_picker, page_setup, show_problems
from repair_core import DgrrError
from repair_core.approvals import database_exists
from repair_core.queue import STATUSES, RepairQueue

page_setup("Inbox")
st.title("0b · Inbox")
st.caption("Repair requests submitted by agents and detectors (`repair_core.queue.submit`, "
           "`dgrr queue submit`). Claim one to review it; nobody else can claim it while you "
           "hold it. Approved repairs are written back by `dgrr worker`.")

who = reviewer_identity()

url = database_picker("Queue database", "dgrr_w_inbox_db", "Reading",
                      "The approvals database the queue lives in (the same one the Approve "
                      "page writes to).")


@st.cache_resource(show_spinner=False)
def _queue(url: str, settings: ApprovalsLogSettings) -> RepairQueue:
    # decisions signed with the operator's keys; a team dashboard records no unsigned row.
    # Keyed on every setting the log reads: a changed key folder or trust file counts at once.
    return RepairQueue(url, approvals=approvals_log(url, settings))


def _release(queue: RepairQueue, request: int, reviewer: str, working: bool = False) -> None:
    """Release `request` back to the queue and draw the page again; `working`: it is this
    session's working request, which the session then no longer holds."""
    try:
        queue.release(request, reviewer=reviewer)
    except DgrrError as exc:
        show_problems("Not released", [str(exc)])
        return
    if working:
        st.session_state.pop(state.REQUEST, None)
    st.rerun()


if not database_exists(url):  # opening it would create the file: a reader does not
    st.subheader("Requests")
    st.caption("No requests yet: this queue database does not exist yet (nothing has been "
               "submitted to it).")
    st.stop()
try:
    queue = _queue(url, approvals_log_settings())
except DgrrError as exc:
    show_problems("Cannot open the queue", [str(exc)])
    st.stop()

current = held_request(queue, who.name)
active = current.id if current is not None else None
if current is None:
    # A reload or another tab starts a new session, which knew nothing of the request the
    # old one claimed: it stayed claimed by this reviewer with no way here to go back to
    # it or release it, and "the oldest pending" claimed a second one.
    earlier = held_elsewhere(queue, who.name)
    if earlier:
        first = earlier[0]
        active = first.id
        st.warning(f"You hold request #{first.id} (case {code(first.case_id)}), claimed in "
                   "an earlier session (a reload or another tab): resume it to review it "
                   "here, or release it.")
        r1, r2 = st.columns(2)
        if r1.button(f"Resume request #{first.id}", type="primary",
                     key="dgrr_w_inbox_resume"):
            resume(queue, first)
            st.rerun()
        if r2.button("Release it back to the queue", key="dgrr_w_inbox_release_earlier"):
            _release(queue, first.id, who.name)
if current is not None:
    st.info(f"You hold request #{current.id} (case {code(current.case_id)}): it is the "
            "working case. Review it on Graph, Plan, Replay and Compare, then record "
            "your decision on **Approve**.")
    g1, g2 = st.columns(2)
    g1.page_link("pages/3_Graph.py", label="Go to Graph", icon=":material/hub:")
    if g2.button("Release it back to the queue", key="dgrr_w_inbox_release"):
        _release(queue, current.id, who.name, working=True)

st.subheader("Requests")
# the filters wrap onto a second row in a narrow window: five abreast at 900 px, the status
# filter showed a sliver of its first choice
with st.container(key=WRAP_PREFIX + "inbox_filters"):
    f1, f2, f3, f4, f5 = st.columns([3, 1, 1, 1, 1])
statuses = f1.multiselect("Status", list(STATUSES), default=["pending", "claimed"],
                          key="dgrr_w_inbox_status")
agent = f2.text_input("Agent", key="dgrr_w_inbox_agent")
user = f3.text_input("User", key="dgrr_w_inbox_user")
kind = f4.selectbox("Fault kind", ["any", "memory_record", "tool_observation", "memory_read",
                                   "user_turn", "document"], key="dgrr_w_inbox_kind")
age = f5.number_input("Older than (minutes)", min_value=0, value=0, step=5,
                      key="dgrr_w_inbox_age")
filters = {"agent": agent.strip() or None, "user_id": user.strip() or None,
           "fault_kind": None if kind == "any" else kind,
           "older_than": age * 60 if age else None}
try:
    rows = queue.requests(status=statuses or None, limit=2000, **filters)
    # a request just approved leaves the default filter: say where the others are
    hidden = Counter(r.status for r in queue.requests(
        status=[s for s in STATUSES if s not in statuses], limit=2000, **filters)
    ) if statuses and not rows and len(statuses) < len(STATUSES) else Counter()
except DgrrError as exc:
    show_problems("Cannot read the queue", [str(exc)])
    st.stop()

if not rows:
    st.caption("No request matches." + (
        " Under the other statuses: " + ", ".join(
            f"{hidden[s]} {s}" for s in STATUSES if hidden[s])
        + " (add them to the Status filter to list them)." if hidden else ""))
else:
    st.dataframe(pd.DataFrame([{
        "#": r.id, "status": r.status, "case": r.case_id, "agent": r.agent, "user": r.user_id,
        "faults": ", ".join(f"{f} ({k})" for f, k in zip(r.faults, r.fault_kinds, strict=True)),
        "diagnosed by": r.diagnosed_by, "objective": r.objective,
        "submitted (UTC)": f"{r.created_at:%Y-%m-%d %H:%M:%S}",
        "reviewer": r.claimed_by or "", "write back": (r.store_target or {}).get("to", "")}
        for r in rows]), hide_index=True, width="stretch", key="dgrr_w_inbox_table",
            placeholder=MISSING)

pending = [r.id for r in rows if r.status == "pending"]
c1, c2 = st.columns([2, 1])
pick = c1.selectbox("Claim request", ["the oldest pending"] + [f"#{i}" for i in pending],
                    key="dgrr_w_inbox_pick", disabled=active is not None,
                    help="Release the request you hold before claiming another.")
if c2.button("Claim", type="primary", key="dgrr_w_inbox_claim", disabled=active is not None):
    try:
        wanted = None if pick == "the oldest pending" else int(pick.removeprefix("#"))
        got = claim(queue, wanted, who.name)
    except DgrrError as exc:
        show_problems("Not claimed", [str(exc)])
    else:
        if got is None:
            st.warning("Nothing is pending.")
        else:
            st.rerun()

if active is None and rows:
    st.caption(f"Claiming as {md(who.name)}.")
