"""Plan: every decision with its reason; reviewer edits validated by the library."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.text import MISSING, code, md
from dgrr_dashboard.widgets import (
    STACK_PREFIX,
    WRAP_PREFIX,
    coloured,
    decision_legend_html,
    page_of,
    page_setup,
    replay_order_line,
    require_plan,
    show_problems,
)
from repair_core import PlanEditError, apply_edits, plan_diff
from repair_core.case._trace import span_labels
from repair_core.plan._edit import EDIT_KINDS, allowed_actions, edit_kind, kind_actions
from repair_core.plan._kept_calls import plan_kept_calls

page_setup("Plan")
st.title("4 · Repair plan")
st.write("The plan follows fixed rules: delete the faults, quarantine affected records with "
         "no independent support, invalidate unsupported steps, and replay only what the "
         "corrected answer needs. You may change a decision; the library refuses an edit "
         "that breaks an invariant unless you override it with a comment.")

_objectives = ["both", "answer", "store"]
_case = state.case()
if _case is not None and not _case.has_answer():
    # a store's records and lineage alone: there is no answer to repair
    _objectives = ["store"]
    st.caption("This case has no steps, only a store's records and their lineage: the plan "
               "repairs the store the next session reads.")
_picked = st.radio("Objective", _objectives, index=_objectives.index(state.objective()),
                   horizontal=True, key="dgrr_w_objective",
                   help="both: a corrected answer and a clean store for the next session; "
                        "answer: only the last answer (the paper); store: only the memory "
                        "the next session reads (no past answer is regenerated)")
if _picked != state.objective():
    state.set_objective(_picked)
    st.rerun()
p = require_plan()
computed = state.computed_plan()
assert computed is not None
c = p.case
a = p.analysis

_as_run = state.plan_as_run()
if _as_run is not None:
    _changes = state.as_run_changes(p)
    if not _changes:
        st.info(f"This is {md(_as_run[0])}.")
    else:
        st.warning(f"Changed from {md(_as_run[0])}: {len(_changes)} difference(s).")
        with st.expander("What changed since the plan the benchmark ran", expanded=True):
            st.dataframe(pd.DataFrame(_changes, columns=["node", "as run", "now"]),
                         hide_index=True, width="stretch", placeholder=MISSING,
                         key="dgrr_w_as_run_changes")

m = st.columns(5)
m[0].metric("Affected (A0)", len(a.affected))
m[1].metric("Kept by support", len(a.supported))
m[2].metric("Unsupported", len(a.unsupported))
m[3].metric("Replayed steps", len(p.replay_set))
m[4].metric("Replay ratio", f"{len(p.replay_set) / max(len(c.trajectory), 1):.3f}")

PICK_LIMIT = 5000
INDEX = "dgrr_plan_index"  # (case, plan key) -> texts, kinds, picker choices, span names
_index = st.session_state.get(INDEX)
if _index is None or _index[0] is not c or _index[1] != state.plan_key(p):
    texts = {**{m.id: m.text for m in c.memory}, **{s.id: s.text for s in c.trajectory}}
    kinds = {**{m.id: "record" for m in c.memory}, **{s.id: s.type for s in c.trajectory}}
    # an imported step's hex id says nothing to a person: its span's name goes beside it
    spans = span_labels(c.trajectory)
    # On a large case the picker lists the affected nodes and the changed decisions (a list
    # of 100k options costs a second on every run); any other id can be typed.
    if len(kinds) <= PICK_LIMIT:
        choices = list(kinds)
    else:
        choices = [n for n in kinds if n in a.affected
                   or (p.memory.get(n) or p.steps.get(n))
                   != (computed.memory.get(n) or computed.steps.get(n))][:PICK_LIMIT]
    _index = (c, state.plan_key(p), texts, kinds, choices, spans)
    st.session_state[INDEX] = _index
_, _, texts, kinds, choices, spans = _index
replay_order_line(p, spans=spans)


def apply(edits: dict[str, str], force: bool, comment: str) -> None:
    if force and not comment.strip():
        show_problems("Override refused", ["an override needs a comment saying why"])
        return
    try:
        new = apply_edits(p, edits, force=force, comment=comment.strip() or None)
    except PlanEditError as exc:
        # The library appends how to override as a last line; it is a hint, not a problem.
        hints = [x for x in exc.problems if x.startswith("(apply with force")]
        show_problems("Edit refused", [x for x in exc.problems if x not in hints],
                      hint="Tick Override and give a comment to force it." if hints else None)
        return
    state.set_plan(new)
    st.session_state["dgrr_plan_flash"] = f"Applied {len(edits)} edit(s): " + ", ".join(
        f"{code(k)} → {v}" for k, v in edits.items())
    st.rerun()


if "dgrr_plan_flash" in st.session_state:
    st.success(st.session_state.pop("dgrr_plan_flash"))

st.subheader("Change one decision")
# one under the other in a narrow window: at 900 px the picker cut its value mid-word
with st.container(key=STACK_PREFIX + "plan_edit"):
    e1, e2, e3 = st.columns([2, 2, 2])
node = e1.selectbox("Record or step", choices, key="dgrr_w_edit_node",
                    format_func=lambda n: f"{n} · " + (f"{spans[n]} · " if n in spans else "")
                    + f"{kinds[n]} · now {p.memory.get(n) or p.steps.get(n)}")
typed = e2.text_input("…or type an id (exact match)", key="dgrr_w_edit_typed",
                      help="the id exactly as written: s1 picks s1, never s10")
target = typed.strip() or node
if target not in kinds:
    e3.caption(f"no record or step {code(target)} in this case")
    allowed: list[str] = []
else:
    now = p.memory.get(target) or p.steps.get(target)
    allowed = allowed_actions(p, target)
    if now not in allowed:
        allowed = [now, *allowed]
# The node's current decision is preselected (again whenever another node is picked, or
# the plan changed it), so the picker never proposes a change nobody chose.
_shown_for = (target, state.plan_key(p))
if target in kinds and st.session_state.get("dgrr_plan_edit_shown_for") != _shown_for:
    st.session_state["dgrr_plan_edit_shown_for"] = _shown_for
    st.session_state["dgrr_w_edit_action"] = now
action = e3.selectbox(f"New decision for {target}" if target in kinds else "New decision",
                      allowed, key="dgrr_w_edit_action",
                      help="only the actions the library accepts for this kind of node")
comment = st.text_input("Comment (why)", key="dgrr_w_edit_comment")
force = st.checkbox("Override an invariant (needs a comment)", key="dgrr_w_edit_force")
if st.button("Apply edit", type="primary", key="dgrr_w_edit_apply",
             disabled=target not in kinds or action is None):
    apply({target: str(action)}, force, comment)

st.subheader("All decisions")
st.html(decision_legend_html())
only = st.checkbox("Only affected nodes and changed decisions", key="dgrr_w_plan_only",
                   value=len(kinds) > 2000, help="on by default for cases over 2,000 nodes")


def _decisions_tables() -> dict[str, pd.DataFrame]:
    rows: dict[str, list[dict[str, str]]] = {k: [] for k in EDIT_KINDS}
    for nid, act in [*p.memory.items(), *p.steps.items()]:
        before = computed.memory.get(nid) or computed.steps.get(nid)
        if only and nid not in a.affected and act == before:
            continue
        rows[edit_kind(kinds[nid])].append({
            "id": nid, "span": spans.get(nid), "type": kinds[nid], "text": texts[nid][:90],
            "computed": before, "decision": act, "reason": p.reasons.get(nid, "unaffected")})
    columns = ["id", *(["span"] if spans else []), "type", "text", "computed", "decision",
               "reason"]
    return {k: pd.DataFrame(v, columns=columns) for k, v in rows.items()}


# One table per kind of node, each offering only the decisions its kind can take (a data
# editor's drop-down has one option list per column): what the library's edit rules say.
tables = state.derived("dgrr_plan_tables", (state.plan_key(p), state.plan_key(computed), only),
                       _decisions_tables)
st.caption("Each table offers the decisions its kind of node can take: "
           + "; ".join(f"{EDIT_KINDS[k].lower()}: {', '.join(kind_actions(k))}"
                       for k in EDIT_KINDS)
           + ". A diagnosed fault, the final answer and restoring an active record are still "
             "refused with the reason; the picker above offers exactly what one node allows.")
changed: dict[str, str] = {}
version = st.session_state.get(state.PLAN_EDITOR_VERSION, 0)
for (kind, full_table), tab in zip(tables.items(),
                                   st.tabs([f"{EDIT_KINDS[k]} ({len(t)})"
                                            for k, t in tables.items()]), strict=True):
    with tab:
        if full_table.empty:
            st.caption("none" + (" affected or changed" if only else " in this case"))
            continue
        page_key = f"dgrr_w_plan_page_{kind}"
        table = page_of(full_table, page_key).reset_index(drop=True)
        page_no = st.session_state.get(page_key, 1) if len(full_table) > len(table) else 1
        edited = st.data_editor(
            table, key=f"dgrr_plan_editor_{kind}_{version}_{int(only)}_{page_no}",
            hide_index=True, width="stretch",
            disabled=["id", "span", "type", "text", "computed", "reason"],
            column_config={"decision": st.column_config.SelectboxColumn(
                "decision", options=list(kind_actions(kind)), required=True,
                help=f"what {EDIT_KINDS[kind].lower()} can take"),
                "reason": st.column_config.TextColumn("reason", width="large")},
            placeholder=MISSING)
        differs = edited["decision"].to_numpy() != table["decision"].to_numpy()
        changed.update({str(i): str(d) for i, d in zip(table["id"][differs],
                                                       edited["decision"][differs],
                                                       strict=True)})
with st.container(key=WRAP_PREFIX + "plan_table_apply"):  # the button's label whole
    t1, t2 = st.columns([1, 3])
table_force = t2.checkbox("Override invariants for the table edits (uses the comment above)",
                          key="dgrr_w_table_force")
if t1.button(f"Apply {len(changed)} table edit(s)", key="dgrr_w_apply_table",
             disabled=not changed):
    apply(changed, table_force, st.session_state.get("dgrr_w_edit_comment", ""))

st.subheader("Difference from the computed plan")
diff = plan_diff(computed, p)
if not diff:
    st.caption("No reviewer edits: this is the computed plan.")
else:
    st.dataframe(coloured(pd.DataFrame([{"id": ch.node, "kind": ch.kind, "computed": ch.before,
                                         "now": ch.action,
                                         "why": "reviewer edit" if ch.edited
                                         else "follows from the edits",
                                         "comment": ch.comment or ""}
                                        for ch in diff]), "now"),
                 hide_index=True, width="stretch", placeholder=MISSING)
    kept_calls = plan_kept_calls(p)
    not_again = [ch.node for ch in diff if ch.kind == "step" and ch.node in kept_calls]
    if not_again:
        st.warning(
            "Not called again: " + ", ".join(
                f"{code(n)} ({code(kept_calls[n].tool)} of {code(kept_calls[n].action)})"
                for n in not_again)
            + ". Each call succeeded in the run and no diagnosed fault led to it: it is the "
              "user's own, so the replay keeps its output and reads the very same text "
              "(rule `replay.world.own-action`). Declare the tool `pure` in the case to call "
              "it again.")
    if p.forced:
        st.warning("Some edits override an invariant of the method; approval needs a comment.")
    if st.button("Reset to the computed plan", key="dgrr_w_reset_plan"):
        state.set_plan(None)
        st.rerun()
st.page_link("pages/5_Replay.py", label="Next: replay the plan", icon=":material/arrow_forward:")
