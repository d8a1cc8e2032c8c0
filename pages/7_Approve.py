"""Approve: see what the repair does, acknowledge each warning, record the reviewer's
decision once (append-only), see the history, export."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.apply_panel import apply_panel
from dgrr_dashboard.identity import reviewer_identity
from dgrr_dashboard.result_check import SETTING_UNUSABLE, check_in_worker, where_checked
from dgrr_dashboard.settings import (
    ApprovalsLogSettings,
    approvals_log,
    approvals_log_settings,
    operator_judge_settings,
    team_mode,
    trust_setting,
)
from dgrr_dashboard.text import MISSING, code, file_stem, md
from dgrr_dashboard.widgets import (
    WRAP_PREFIX,
    answer_columns,
    coloured,
    database_picker,
    decision_legend_html,
    page_of,
    page_setup,
    refusal_problems,
    require_plan,
    show_problems,
)
from repair_core import DgrrError
from repair_core._text import plural
from repair_core.approvals import (
    CARRIER_WARNING,
    NOT_CERTIFIED_WARNING,
    ApprovalStore,
    TrustFile,
    approval_summary,
    carrier_groups,
    check_sources,
    database_exists,
    items_on,
    markdown_report,
    record_decision,
    repaired_store,
    repaired_trajectory,
    warning_groups,
)
from repair_core.case._owner import owner_ack
from repair_core.integrations.langgraph_threads import fork_lines, recorded_forks
from repair_core.queue import RepairQueue, review
from repair_core.replay import replay_again
from repair_core.verification import Verification, judged_by

page_setup("Approve")
st.title("7 · Approve or reject")

p = require_plan()
res = state.result()
# A shared dashboard records nothing for a visitor and shows them no one's decisions: sign
# in first (the page stops here with a sign-in button until then).
signed_in = reviewer_identity() if team_mode() else None

url = database_picker("Approvals database", "dgrr_w_db", "Writing (append-only) to",
                      "Empty: $DGRR_DB, else ~/.dgrr/approvals.db. Any SQLAlchemy URL works, "
                      "e.g. postgresql://user@host/dgrr.")


@st.cache_resource(show_spinner=False)
def _store(url: str, settings: ApprovalsLogSettings) -> ApprovalStore:
    # signed with the operator's keys; a team dashboard records no unsigned row. Keyed on
    # every setting the log reads: a changed key folder or trust file counts at once.
    return approvals_log(url, settings)


def _opened() -> ApprovalStore:
    try:
        return _store(url, approvals_log_settings())
    except DgrrError as exc:
        show_problems("Cannot open the approvals database", [str(exc)])
        st.stop()


# A SQLite file that does not exist yet is created with the first decision, not by
# opening this page.
store = _opened() if database_exists(url) else None

# What is signed, computed once per plan and result in the session (hashing a large case
# takes seconds; a rerun of this page, or recording, must not redo it).
sign_key = f"{state.plan_key(p)}:{id(res) if res is not None else 'none'}"
# the operator's model judge, if set, reads what the lexical judge leaves unsure
judge, judge_problems = operator_judge_settings()
if judge_problems:
    show_problems("The judge setting is not usable; the lexical judge reads alone",
                  judge_problems)
sign_key += f":{judge.name if judge is not None else 'lexical'}"


def _checked_elsewhere() -> tuple[Verification | None, str | None, list[str]]:
    """The content check of the result run in the upload worker (team mode, by default:
    setting `upload_worker`) with the operator's model judge when one is set, as every
    check of a replay's result there runs (`check_in_worker`); (None, None, []) when it
    is for `approval_summary` to run here (no result, or the worker not used)."""
    if res is None:
        return None, None, []
    here, unusable = where_checked()
    if unusable:
        return None, SETTING_UNUSABLE, unusable
    if here:
        return None, None, []
    # the session's result is the server's own replay (restored ones included: the
    # server wrote them); anything else would be read as a file is
    made_here = hasattr(res, "model_dump_json")
    data = res.model_dump_json() if made_here else json.dumps(res)
    return check_in_worker(p.case, data, check_sources(p), judge=judge,
                           ended=state.session_ended(), made_here=made_here)


def _sign() -> tuple[tuple[str, str], Any, str | None, list[str]]:
    with st.spinner("Hashing the case, the plan and the result…"):
        hashes = state.approval_hasher()(p, res)
        verification, unfinished, problems = _checked_elsewhere()
        # an unfinished check stands in as an empty one: nothing can be approved then
        here = verification is None and not unfinished
        summary = approval_summary(
            p, res, judge=judge.model_judge() if here and judge is not None else None,
            verification=Verification() if unfinished else verification)
        return hashes, summary, unfinished, problems


(inputs, outputs), summary, check_unfinished, check_problems = state.derived(
    "dgrr_signed", sign_key, _sign)

def _counts(groups: dict[str, list[str]]) -> str:
    return ", ".join(f"{len(v):,} {k}" for k, v in groups.items()) or "none"


warning_kinds = warning_groups(summary.warnings)
# Carriers of a fault are acknowledged a group (answer, outputs, records) at a time, every
# carrier of the group in a table under its box; the approval names each carrier whose
# group is ticked, and the library refuses it while any carrier is not named.
ordinary = [(k, v) for k, v in warning_kinds
            if not k.startswith((CARRIER_WARNING, NOT_CERTIFIED_WARNING))]
carrier_kinds = carrier_groups(summary.carrier_details, summary.carriers)
kinds_to_tick = [k for k, _ in ordinary] + [g for g, _ in carrier_kinds]
if summary.other_owners:  # records of someone else: a group of their own
    kinds_to_tick.append("records of another owner")
st.markdown(f"Case {code(p.case.case_id)} · {plural(len(p.edits), 'plan edit')}"
            + (" (some override an invariant)" if p.forced else "")
            + f" · replay: {'done' if res is not None else 'not run'}")
st.caption(f"Store: {_counts(summary.store)} · steps: {_counts(summary.steps)} · "
           f"{plural(len(summary.irreversible_effects), 'irreversible effect')} · "
           f"{plural(len(summary.warnings), 'warning')} in "
           f"{plural(len(kinds_to_tick), 'kind')} (details below the decision)")
if summary.replayed and check_unfinished:
    st.caption(f"Content check of what the agent reads next: not certified: {check_unfinished}"
               "; it cannot be approved")
    show_problems("The content check did not finish", check_problems)
elif summary.replayed:
    # what no judge could clear is acknowledged like a carrier, and is never called clean
    uncertain = [c for c in summary.carrier_details if c.status == "not_certified"]
    unsure = len(uncertain)
    carrying = len(summary.carriers) - unsure
    by = md(judged_by(summary.judges))  # an operator's model string is text too
    found = [plural(carrying, "carrier") + " of a fault"] if carrying else []
    if unsure:
        # `dgrr repair` counts records: say both when one is uncertain of several faults
        on = items_on(uncertain)
        found.append(f"{plural(unsure, 'item')}{'' if on is None else ' on ' + on} not "
                     "certified clean (no judge could clear them)")
    st.caption("Content check of what the agent reads next: " + (
        " and ".join(found) + ", acknowledged by kind (answer, outputs, records), each "
        f"listed; judged by lineage and {by}" if summary.carriers
        else f"clean by lineage and {by} (nothing carries a fault and nothing was left "
             "uncertain)"))
answer_columns(summary.answer_before, summary.answer_after, id_prefix="dgrr-approve",
               titles=("Answer before (failed run)", "Answer after the repair"),
               missing="(no corrected answer)" if p.case.has_answer() and
               p.objective != "store" else "(no answer: this repair is of the store)")

# First the decision (acknowledgements, reviewer, Record), then what it covers in detail:
# on a large case the lists run to thousands of lines.
acknowledged = True
acknowledged_ids: list[str] = []
# The warnings and the form side by side: however many kinds there are, Record stays on
# the first screen.
warn_area, form_area = (st.columns([3, 2], gap="medium") if kinds_to_tick
                        else (st.container(), st.container()))
with warn_area:
    if kinds_to_tick:
        st.markdown(f"**Warnings** — tick each of the "
                    f"{plural(len(kinds_to_tick), 'kind')} to confirm you have "
                    "read it; its items are listed under it.")
    for i, (kind, items) in enumerate(ordinary):
        many = len(items) > 1 or items[0] != kind
        label = f"Read all {len(items):,}: {md(kind)}" if many else md(kind)
        ticked = st.checkbox(label, key=f"dgrr_w_ack_{sign_key}_{i}")
        if many:
            with st.expander(f"its {plural(len(items), 'item')}"):
                lines = [w.split(" — ", 1)[-1] for w in items]
                if len(lines) <= 20:
                    st.text("\n".join(lines))
                else:
                    st.dataframe(pd.DataFrame({"item": lines}), hide_index=True,
                                 width="stretch", height=300, key=f"dgrr_w_ack_list_{i}",
                                 placeholder=MISSING)
        acknowledged = acknowledged and ticked
    for i, (group, carriers) in enumerate(carrier_kinds):
        ticked = st.checkbox(
            f"Acknowledged, the agent would read each: {md(group)}",
            key=f"dgrr_w_ack_carriers_{sign_key}_{i}")
        uncertain = group.startswith(NOT_CERTIFIED_WARNING)
        with st.expander(f"its {plural(len(carriers), 'item' if uncertain else 'carrier')}",
                            expanded=len(carrier_kinds) == 1 and len(carriers) <= 3):
            # case text: in a table's cells, never as markup; a carrier the result names
            # only by id has nothing else to show
            st.dataframe(pd.DataFrame([{"id": c} if isinstance(c, str) else
                                       {"id": c.id, "fault": c.fault, "where": c.where,
                                        "evidence": c.evidence,
                                        "it says": " ".join(c.text.split())} for c in carriers],
                                      columns=["id", "fault", "where", "evidence", "it says"]),
                         hide_index=True, width="stretch",
                         height=min(300, 38 + 35 * len(carriers)), key=f"dgrr_w_ack_carriers_list_{i}", placeholder=MISSING)
        if ticked:
            acknowledged_ids += [c if isinstance(c, str) else c.id for c in carriers]
        acknowledged = acknowledged and ticked
    if summary.other_owners:
        # rule approval.other-owner-acknowledged: each record named in the approval, so
        # that `dgrr apply` may write in its owner's scope
        ticked = st.checkbox(
            f"Acknowledged, the repair writes to memory someone else reads: "
            f"{plural(len(summary.other_owners), 'record')} of another owner",
            key=f"dgrr_w_ack_owners_{sign_key}")
        with st.expander(f"its {plural(len(summary.other_owners), 'record')}",
                         expanded=len(summary.other_owners) <= 3):
            st.dataframe(pd.DataFrame([{"record": r, "why": why}
                                       for r, why in summary.other_owners.items()],
                                      columns=["record", "why"]),
                         hide_index=True, width="stretch",
                         height=min(300, 38 + 35 * len(summary.other_owners)),
                         key="dgrr_w_ack_owners_list", placeholder=MISSING)
        if ticked:
            acknowledged_ids += [owner_ack(r) for r in summary.other_owners]
        acknowledged = acknowledged and ticked

with form_area:
    # A queue request the reviewer claimed on the Inbox: the decision also moves the request.
    request_id = st.session_state.get(state.REQUEST)
    # Signed in (OIDC), or the name the Inbox claimed with: the same reviewer decides.
    if signed_in is None and request_id is not None:
        signed_in = reviewer_identity()
    if request_id is not None:
        st.info(f"This decision is on queue request #{request_id}: approving hands it to the "
                "worker, which writes the repair back to the agent's store.")
    with st.form("dgrr_w_approve_form"):
        # in a narrow window the decision goes under the reviewer ("approve" broke in two)
        with st.container(key=WRAP_PREFIX + "approve_form"):
            f1, f2 = st.columns([2, 1])
        with f1:
            if signed_in is not None:
                st.markdown(f"Reviewer: {md(signed_in.name)}"
                            + (" (signed in)" if signed_in.authenticated else ""))
                reviewer = signed_in.name
            else:
                reviewer = st.text_input("Reviewer", key="dgrr_w_reviewer")
        decision = f2.radio("Decision", ["approve", "reject"], horizontal=True,
                            key="dgrr_w_decision")
        comment = st.text_area("Comment (a rejection needs a reason)", key="dgrr_w_comment",
                               height=68)
        submitted = st.form_submit_button("Record decision", type="primary")
    if submitted:
        # What can be refused without the database is refused before it is opened: a refused
        # attempt creates no approvals file.
        refused = []
        if decision == "approve" and check_unfinished:
            refused.append(f"the content check is not certified: {check_unfinished}")
        elif decision == "approve" and not acknowledged:
            refused.append("acknowledge every warning above before approving")
        if not reviewer.strip():
            refused.append("reviewer: a reviewer name is required")
        if decision == "reject" and not comment.strip():
            refused.append("comment: a rejection needs a reason")
        if refused:
            show_problems("Not recorded", refused)
        else:
            store = store or _opened()
            try:
                if request_id is not None:
                    request = review(RepairQueue(store.url, approvals=store), request_id,
                                     reviewer=reviewer, decision=decision, comment=comment,
                                     plan=p, result=res, hashes=(inputs, outputs),
                                     acknowledged=acknowledged_ids,
                                     carrier_ids=summary.carriers)
                    rec = store.find(id=request.decision_id, kind=None)[0]
                    st.session_state.pop(state.REQUEST, None)
                    st.success(f"Request #{request.id} is now {request.status}.")
                else:
                    rec = record_decision(store, p, reviewer=reviewer, decision=decision,
                                          comment=comment, result=res, hashes=(inputs, outputs),
                                          acknowledged=acknowledged_ids,
                                          carrier_ids=summary.carriers, recompute=replay_again)
            except DgrrError as exc:
                lead, problems = refusal_problems(str(exc))
                show_problems("Not recorded", problems, lead=lead)
            else:
                st.success(f"Recorded #{rec.id}: {rec.decision} by {md(rec.reviewer)} at "
                           f"{rec.created_at:%Y-%m-%d %H:%M:%S} UTC.")
st.caption(f"inputs sha256 {code(inputs)} · outputs sha256 {code(outputs)}")

# After an approval: the dry run, then the apply, to the operator's store, as `dgrr apply`.
apply_panel(url, p, res, repair=sign_key,
            reviewer=signed_in.name if signed_in is not None
            else str(st.session_state.get("dgrr_w_reviewer") or ""), judge=judge)

st.subheader("What you approve")
st.html(decision_legend_html())


def _record_texts() -> dict[str, str]:
    texts = {m.id: m.text for m in p.case.memory}
    if res is not None:
        texts.update((m.id, m.text) for m in res.trajectory.memory if m.id not in texts)
    return texts


texts = state.derived("dgrr_approve_texts", sign_key, _record_texts)
st.markdown("**Store operations**")
if not summary.store:
    st.caption("none")
else:
    st.dataframe(coloured(pd.DataFrame([{"operation": k, "records": len(v)}
                                        for k, v in summary.store.items()]), "operation"),
                 hide_index=True, key="dgrr_w_sum_store", placeholder=MISSING)
    for k, ids in summary.store.items():
        with st.expander(f"{plural(len(ids), 'record')} {k}", expanded=False):
            st.dataframe(coloured(pd.DataFrame(
                page_of([{"operation": k, "id": r, "text": texts.get(r, "")} for r in ids],
                        f"dgrr_w_store_page_{k}"), columns=["operation", "id", "text"]),
                "operation"), hide_index=True, width="stretch", placeholder=MISSING)
st.markdown(f"**Plan edits** ({len(p.edits)})")
if p.edits:
    st.dataframe(coloured(pd.DataFrame([{"node": e.node, "computed": e.before,
                                         "edited": e.action, "comment": e.comment or ""}
                                        for e in p.edits]), "edited"),
                 hide_index=True, width="stretch", key="dgrr_w_sum_edits", placeholder=MISSING)
else:
    st.caption("none: the computed plan")
st.markdown("**Steps**" + ("" if summary.replayed else " (planned, not replayed)"))
st.dataframe(coloured(pd.DataFrame([{"outcome": k, "steps": len(v),
                                     "ids": ", ".join(v[:50]) + (" …" if len(v) > 50 else "")}
                                    for k, v in summary.steps.items()],
                                   columns=["outcome", "steps", "ids"]), "outcome"),
             hide_index=True, width="stretch", key="dgrr_w_sum_steps", placeholder=MISSING)
st.markdown("**Irreversible effects** (external effects the rollback does not undo)")
if summary.irreversible_effects:
    kinds = [(k, v) for k, v in warning_kinds if k.startswith("Irreversible effect")]
    st.dataframe(pd.DataFrame([{"tool and kind": k.removeprefix("Irreversible effect of "),
                                "steps": len(v)} for k, v in kinds]),
                 hide_index=True, key="dgrr_w_sum_effects", placeholder=MISSING)
    with st.expander(f"all {plural(len(summary.irreversible_effects), 'effect')}"):
        st.dataframe(pd.DataFrame({"effect": summary.irreversible_effects}), hide_index=True,
                     width="stretch", height=300, placeholder=MISSING)
else:
    st.caption("none reported" if summary.replayed else "unknown until the plan is replayed")

st.subheader("History")
if store is None:
    st.caption("No decisions recorded yet: the database file is created with the first one.")
    rows = []
else:
    try:
        trust_file = TrustFile.load(trust_setting(), missing_ok=True)
    except DgrrError as exc:
        show_problems("The trust file is not usable; signatures not checked", [str(exc)])
        trust_file = None
    chain = store.verify(trust_file)
    if chain.ok:
        st.caption(f"Approvals log verified: {plural(chain.rows, 'row')}, hash chain intact."
                   + (" Signatures checked against the trust file." if chain.signed
                      else " No trust file: signatures not checked."))
    else:
        where = (f"row #{chain.first_broken}" if chain.first_broken is not None
                 else "its triggers")
        st.error(f"Approvals log BROKEN at {where}: {chain.reason}", icon=":material/warning:")
    scope = st.radio("Show", ["this case", "all cases"], horizontal=True,
                     key="dgrr_w_hist_scope")
    try:
        rows = store.history(case_id=p.case.case_id if scope == "this case" else None,
                             limit=500)
    except DgrrError as exc:  # a row changed outside dgrr: one line, no traceback
        show_problems("Cannot list the approvals", [str(exc)])
        rows = []
    if not rows:
        st.caption("No decisions recorded yet.")
if rows:
    st.dataframe(pd.DataFrame([{
        "#": r.id, "time (UTC)": f"{r.created_at:%Y-%m-%d %H:%M:%S}", "case": r.case_id,
        "reviewer": r.reviewer, "decision": r.decision, "comment": r.comment,
        "edits": ", ".join(f"{e['node']}→{e['action']}" for e in r.plan_edits),
        "forced": r.forced, "inputs": r.inputs_sha256[:12], "outputs": r.outputs_sha256[:12]}
        for r in rows]), hide_index=True, width="stretch", key="dgrr_w_history",
            placeholder=MISSING)

st.subheader("LangGraph thread forks")
# What `dgrr fork-thread --apply` recorded for this case: shown as plain text (thread and
# checkpoint ids, message texts come from the agent's state).
try:
    forks, fork_problems = (recorded_forks(store, p.case.case_id) if store is not None
                            else ([], []))
except DgrrError as exc:
    forks, fork_problems = [], [str(exc)]
if fork_problems:
    show_problems("Some recorded forks cannot be read", fork_problems)
if not forks:
    st.caption("No thread fork recorded for this case. When the poison reached a LangGraph "
               "thread's state, `dgrr fork-thread CASE --graph MODULE:FUNCTION --thread ID "
               "--result RESULT --apply` forks it from the last clean checkpoint and records "
               "the fork here.")
for n, rf in enumerate(forks):
    st.markdown(f"**Fork #{rf.event_id}** of approval #{rf.approval_id} by "
                f"{md(rf.reviewer)} at {code(rf.created_at[:19])} UTC")
    digest = ("the record matches its digest in the log" if rf.digest_matches else
              "THE RECORD DOES NOT MATCH ITS DIGEST IN THE LOG")
    st.text("\n".join([*fork_lines(rf.fork), f"audit:                        {digest}"]))
    if rf.fork.dropped:
        st.dataframe(pd.DataFrame([dict(d) for d in rf.fork.dropped],
                                  columns=["type", "id", "text"]),
                     hide_index=True, width="stretch", key=f"dgrr_w_fork_dropped_{n}",
                         placeholder=MISSING)

st.subheader("Export")
cid = p.case.case_id
safe = file_stem(cid)
x1, x2, x3 = st.columns(3)
# Each export is built when its button is clicked, not on every run of the page.

x1.download_button("Repaired store (JSON)",
                   lambda: json.dumps(repaired_store(p, res), indent=1),
                   file_name=f"{safe}-store.json", mime="application/json",
                   key="dgrr_w_dl_store", on_click="ignore")
x2.download_button("Trajectory (JSON)",
                   lambda: json.dumps(repaired_trajectory(p, res), indent=1),
                   file_name=f"{safe}-trajectory.json", mime="application/json",
                   key="dgrr_w_dl_traj", on_click="ignore")
x3.download_button("Report (Markdown)",
                   lambda: markdown_report(
                       p, res, store.history(case_id=cid, limit=50) if store else [],
                       hashes=(inputs, outputs)),
                   file_name=f"{safe}-report.md", mime="text/markdown", key="dgrr_w_dl_report",
                   on_click="ignore")
