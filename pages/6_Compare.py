"""Compare: the answers, the memory store and the trajectory before and after the repair."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.kept_replays import KeptReplay
from dgrr_dashboard.text import MISSING
from dgrr_dashboard.widgets import (
    answer_columns,
    check_line,
    coloured,
    decision_legend_html,
    page_of,
    page_setup,
    require_plan,
)
from repair_core.result_compare import compare_results
from repair_core.viz import decision_keys, money

page_setup("Compare")
st.title("6 · Compare before and after")

p = require_plan()
c = p.case
res: Any = state.result()


def _replay_pick(kept: list[KeptReplay], label: str, default: int, key: str) -> KeptReplay:
    i = st.selectbox(label, range(len(kept)), index=default, key=key,
                     format_func=lambda j: kept[j].label)  # options are shown as plain text
    return kept[i if i is not None else default]


def _replays_side_by_side(kept: list[KeptReplay]) -> None:
    """Two kept replays of this plan: their answers with the word diff, the records each
    leaves differently and the steps whose outcome or new output differ."""
    k1, k2 = st.columns(2)
    with k1:
        a = _replay_pick(kept, "Replay A", len(kept) - 2, "dgrr_w_cmp_replay_a")
    with k2:
        b = _replay_pick(kept, "Replay B", len(kept) - 1, "dgrr_w_cmp_replay_b")
    st.dataframe([{"": side, "replay": k.number, "model": k.model,
                   "finished (UTC)": f"{k.finished:%H:%M:%S}", "seconds": round(k.seconds, 1),
                   "model calls": k.llm_calls, "tokens": k.tokens,
                   "cost": money(k.dollars) if k.dollars is not None else "unknown"}
                  for side, k in (("A", a), ("B", b))],
                 hide_index=True, width="stretch", placeholder=MISSING)
    diff = state.derived("dgrr_compare_replays", (id(a.result), id(b.result)),
                         lambda: compare_results(a.result, b.result))
    st.subheader("Answer")
    failed = "(answer generation failed)"
    answer_columns(diff.answer_a if diff.answer_a is not None else failed,
                   diff.answer_b if diff.answer_b is not None else failed,
                   id_prefix="dgrr-replays-answer",
                   titles=(f"Replay A ({a.number})", f"Replay B ({b.number})"), missing="")
    st.caption("The two answers agree." if diff.answers_agree else "The two answers differ.")
    st.subheader("Memory store")
    st.caption(f"{len(diff.records):,} of {diff.records_compared:,} records end differently "
               "(active: retrievable · quarantine: kept for audit · gone: in neither)")
    _differences(diff.records, "dgrr_w_cmp_replays_mem_page",
                 {"placement_a": "A", "placement_b": "B", "text_a": "text in A",
                  "text_b": "text in B"})
    st.subheader("Steps")
    st.caption(f"{len(diff.steps):,} of {diff.steps_compared:,} steps differ in outcome or "
               "new output")
    _differences(diff.steps, "dgrr_w_cmp_replays_steps_page",
                 {"outcome_a": "outcome in A", "outcome_b": "outcome in B",
                  "output_a": "output in A", "output_b": "output in B"})


def _differences(rows: list[Any], page_key: str, columns: dict[str, str]) -> None:
    """One page of a comparison's differing records or steps, as a table (plain text)."""
    if rows:
        st.dataframe(pd.DataFrame(page_of([r.model_dump() for r in rows], page_key))
                     .rename(columns=columns),
                     hide_index=True, width="stretch", placeholder=MISSING)

kept = state.replays()
if len(kept) >= 2:
    mode = st.radio("Compare", ("Original vs replay", "Replay A vs replay B"),
                    horizontal=True, key="dgrr_w_cmp_mode",
                    help=f"the last {len(kept)} replays of this plan are kept (Replay page)")
    if mode == "Replay A vs replay B":
        _replays_side_by_side(kept)
        st.page_link("pages/7_Approve.py", label="Next: approve or reject",
                     icon=":material/arrow_forward:")
        st.stop()
    shown = _replay_pick(kept, "Replay", len(kept) - 1, "dgrr_w_cmp_replay_orig")
    if shown is not kept[-1]:
        st.caption("An older replay is shown; Approve and the downloads use the newest.")
    res = shown.result
if res is None:
    st.info("No replay of this plan yet: the store below is what the plan's dispositions "
            "give, and the corrected answer appears after a replay.")
    st.page_link("pages/5_Replay.py", label="Run the replay", icon=":material/play_arrow:")

st.html(decision_legend_html())
st.subheader("Answer")
before = c.final_answer().text if c.has_answer() else "(none: the case has no steps)"
after = res.answer if res is not None and res.answer is not None else None
answer_columns(before, after, id_prefix="dgrr-answer",
               titles=("Original (failed run)", "Corrected"), missing="(not replayed yet)")
if res is not None:
    # The corrected answer's new words are marked green, as any diff marks them: the line
    # says whether the content check certified it, which the page did not say at all.
    st.caption(check_line(res.verification))
if res is not None and res.report.answer_lost:
    st.markdown("**Could not be determined from memory** (the failed answer rested on "
                "these records; the repair removed them and nothing stands in their place):")
    st.text("\n".join(f"{lost.id}" + (f" (slot {lost.key})" if lost.key else "")
                       + f": {lost.why}" for lost in res.report.answer_lost))

def _memory_table() -> pd.DataFrame:
    if res is not None:
        changes = res.report.store_changes
        change_of = {}
        for kind in ("deleted", "quarantined", "restored", "added", "retired"):
            for rid in getattr(changes, kind, None) or []:
                # restored by the plan, then retired by a replayed write (or written and
                # retired by replayed steps): one final state, as the approval lists it
                before = change_of.get(rid)
                change_of[rid] = ("retired again" if kind == "retired" and before == "restored"
                                  else "added then retired" if kind == "retired"
                                  and before == "added" else kind)
        active_after = {m.id: m for m in res.store.active}
        quarantine_after = {m.id: m for m in res.store.quarantine}
        written = {m.id: m for m in res.trajectory.memory}
    else:
        change_of = {rid: {"delete": "deleted", "quarantine": "quarantined",
                           "restore": "restored"}[d] for rid, d in p.memory.items() if d != "keep"}
        active_after = {m.id: m for m in c.memory
                        if (m.status == "active" and p.memory[m.id] == "keep")
                        or p.memory[m.id] == "restore"}
        quarantine_after = {m.id: m for m in c.memory if p.memory[m.id] == "quarantine"}
        written = {}
    records = {m.id: m for m in c.memory}
    rows = []
    for rid in [*records, *[r for r in active_after if r not in records],
                *[r for r, k in change_of.items() if k == "added then retired"]]:
        old = records.get(rid)
        new = active_after.get(rid) or quarantine_after.get(rid) or written.get(rid)
        status_after = ("active" if rid in active_after else "quarantine" if rid in quarantine_after
                        else "gone")
        # a record of the case that is gone has no text after (the replayed trajectory still
        # holds it, marked deleted or retired); one a replayed step wrote and a later one
        # retired keeps what was written, its only text
        after = new.text if new is not None and (status_after != "gone" or old is None) else ""
        rows.append({"id": rid, "change": change_of.get(rid, "added" if old is None else "kept"),
                     "before": old.status if old else "—", "after": status_after,
                     "text before": old.text if old else "", "text after": after})
    mem = pd.DataFrame(rows, columns=["id", "change", "before", "after", "text before",
                                      "text after"])
    order = {"deleted": 0, "quarantined": 1, "restored": 2, "added": 3, "retired": 4,
             "retired again": 5, "added then retired": 6, "kept": 7}
    mem = mem.sort_values("change", key=lambda s: s.map(order), kind="stable")
    return mem


def _trajectory_rows() -> list[dict[str, Any]]:
    if res is not None:
        new_steps = {s.id: s for s in res.trajectory.trajectory}
        outcome = {o.id: (o.outcome, o.detail) for o in res.report.steps}
    else:
        new_steps = {}
        outcome = {}
    plan_word = {"keep": "kept", "invalidate": "invalidated", "replay": "replayed",
                 "refresh": "refreshed"}
    traj = []
    for s in c.steps_in_order():
        what, detail = outcome.get(s.id, (plan_word[p.steps[s.id]] + ("" if res else " (planned)"), ""))
        new = new_steps.get(s.id)
        traj.append({"seq": s.seq, "id": s.id, "type": s.type, "outcome": what,
                     "old output": s.text,
                     "new output": new.text if new is not None and what in ("replayed", "refreshed")
                     else "", "detail": detail or ""})
    return traj


mem, traj = state.derived("dgrr_compare_tables",  # both tables, once per plan and result
                          (state.plan_key(p), id(res) if res is not None else None),
                          lambda: (_memory_table(), _trajectory_rows()))

# a kept row is green only when the plan kept its node by independent support
colour_keys = state.derived("dgrr_compare_colour_keys", state.plan_key(p),
                            lambda: decision_keys(p))
st.subheader("Memory store")
counts = mem["change"].value_counts()
st.caption(" · ".join(f"{n} {k}" for k, n in counts.items()))
st.caption("deleted: left the active store (the faults) · quarantined: kept for audit, never "
           "retrieved · restored: back in the active store · added: written by a replayed "
           "step · retired: superseded or deleted by a replayed step · retired again: restored by "
           "the plan, then superseded again by a replayed step · added then retired: written "
           "by one replayed step and superseded by a later one · kept: unchanged")
mem_changed = st.checkbox("Changed records only", value=len(mem) > 200,
                          key="dgrr_w_cmp_mem_changed",
                          help="on by default for stores over 200 records")
if mem_changed:
    mem = mem[mem["change"] != "kept"]
st.dataframe(coloured(page_of(mem, "dgrr_w_cmp_mem_page"), "change", colour_keys),
             hide_index=True,
             width="stretch", placeholder=MISSING)

st.subheader("Trajectory")
traj_changed = st.checkbox("Changed steps only", value=len(traj) > 200,
                           key="dgrr_w_cmp_traj_changed",
                           help="hide kept steps; on by default for runs over 200 steps")
if traj_changed:
    traj = [t for t in traj if not str(t["outcome"]).startswith("kept")]
st.dataframe(coloured(pd.DataFrame(page_of(traj, "dgrr_w_cmp_traj_page")), "outcome",
                      colour_keys),
             hide_index=True, width="stretch", placeholder=MISSING)
st.page_link("pages/7_Approve.py", label="Next: approve or reject", icon=":material/arrow_forward:")
