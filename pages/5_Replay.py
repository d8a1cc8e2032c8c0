"""Replay: run the selective replay of the plan with a chosen model."""

from __future__ import annotations

import json
import time
from typing import Any

import pandas as pd
import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.identity import reviewer_identity
from dgrr_dashboard.kept_replays import REPLAYS_KEPT
from dgrr_dashboard.replay_job import ReplayJob, calls_by_step, replay_estimate
from dgrr_dashboard.result_check import replay_and_check
from dgrr_dashboard.settings import (
    REFERENCE,
    offered_models,
    operator_judge_settings,
    team_mode,
    typed_model_client,
)
from dgrr_dashboard.text import MISSING, code, md
from dgrr_dashboard.widgets import (
    WRAP_PREFIX,
    check_line,
    page_of,
    page_setup,
    replay_order_line,
    require_plan,
    show_problems,
)
from repair_core import repair
from repair_core._text import ratio_text
from repair_core.model import ModelClient
from repair_core.tools import default_registry
from repair_core.verification._gate import SUPPLIED_BY_HAND
from repair_core.viz import money

page_setup("Replay")
st.title("5 · Selective replay")
shared = team_mode()
st.write("Only the replay set is re-run, in trajectory order, against the repaired store. "
         "The offline reference model (`dgrr/reference`) needs no network or key; "
         + ("the other models are those the operator of this dashboard offers, for signed-in "
            "reviewers." if shared else
            "any litellm model string works too, with an optional API base."))

p = require_plan()
c = p.case


def _unavailable_tools() -> list[Any]:
    """Tool actions in the replay set whose tool this installation cannot call."""
    registry = default_registry()
    # The last replay may also have asked for some (e.g. a known tool name whose
    # arguments do not fit this installation's tool).
    last = st.session_state.get(state.RESULT)
    asked = {n.step for n in last.report.needs_observation} if last is not None else set()
    steps = {s.id: s for s in c.trajectory}
    out = []
    for sid in p.replay_order():
        s = steps[sid]
        if s.type == "tool_action" and (sid in asked
                                        or getattr(s, "tool", "") not in registry):
            out.append(s)
    return out


def _row(item: Any) -> dict[str, Any]:
    """One report item as a table row (nested values as JSON text)."""
    data = item.model_dump(mode="json") if hasattr(item, "model_dump") else dict(item)
    return {k: v if isinstance(v, str | int | float | bool) or v is None else json.dumps(v)
            for k, v in data.items()}


if shared:
    # A shared dashboard calls only the operator's models, each at the address and with
    # the key the operator set; one that costs money or reaches a network needs a reviewer.
    offered, unusable = offered_models()
    if unusable:
        show_problems("Some models of the operator's settings are not offered", unusable)
    m1, m3, m4 = st.columns([6, 2, 2])
    picked = m1.selectbox("Model", range(len(offered)), key="dgrr_w_model_pick",
                          format_func=lambda i: offered[i].label,
                          help="the models the operator of this dashboard offers")
    chosen = offered[picked if picked is not None else 0]
    if chosen != REFERENCE:
        reviewer_identity()  # stops the page with a sign-in button until signed in
else:
    m1, m2, mk, m3, m4 = st.columns([3, 3, 2, 2, 2])
    model = m1.text_input("Model", value="dgrr/reference", key="dgrr_w_model",
                          help="dgrr/reference (offline), or e.g. openai/gpt-4o, ollama/llama3")
    api_base = m2.text_input("API base (optional)", key="dgrr_w_api_base",
                             help="e.g. http://127.0.0.1:8000/v1 for a local server")
    api_key = mk.text_input("API key for that base", key="dgrr_w_api_key", type="password",
                            help="sent to the API base; the server's own keys (e.g. "
                                 "$OPENAI_API_KEY) never are")
timeout = m3.number_input("Timeout per call (s)", min_value=1.0, max_value=3600.0, value=60.0,
                          step=5.0, key="dgrr_w_timeout",
                          help="a call with no reply after this long fails (no SDK retries)")
deadline = m4.number_input("Deadline (s, 0 = none)", min_value=0.0,
                           max_value=86400.0, value=0.0, step=30.0, key="dgrr_w_deadline",
                           help="no model call starts after this long, retries included")

JOB = "dgrr_replay_job"
CHECK_FLASH = "dgrr_replay_check_flash"  # why the last replay's content check is not certified
# A replay of more steps than this runs beside the page, with progress and Cancel.
FOREGROUND_STEPS = 100
estimate = replay_estimate(p)
st.markdown(f"Replays **{estimate['steps']:,}** of {len(c.trajectory):,} steps: about "
            f"**{estimate['model_calls']:,}** model call"
            f"{'s' if estimate['model_calls'] != 1 else ''} and {estimate['tool_calls']:,} "
            f"tool call{'s' if estimate['tool_calls'] != 1 else ''} (retries not counted).")
replay_order_line(p)
job: ReplayJob | None = st.session_state.get(JOB)
running = job is not None and not job.finished
run = st.button("Run replay", type="primary", key="dgrr_w_run_replay", disabled=running)
progress_slot = st.container()

observations: dict[str, Any] = {}
missing = _unavailable_tools()
if missing:
    last = st.session_state.get(state.RESULT)
    # The replayed call's arguments (from the last replay) are what the tool must answer;
    # before any replay, the failed run's arguments are all there is.
    replayed_args = ({n.step: n.args for n in last.report.needs_observation}
                     if last is not None else {})
    with st.expander(f"Tool observations by hand ({len(missing):,} tool call"
                     f"{'s' if len(missing) != 1 else ''} this installation cannot run)",
                     expanded=len(missing) <= 5):
        st.caption("These actions call tools this installation cannot run. Give the output "
                   "the tool would return now (JSON, or plain text); left empty, the step is "
                   "reported as needing an observation.")
        for s in page_of(missing, "dgrr_w_obs_page", size=50):
            args = replayed_args.get(s.id, getattr(s, "args", {}))
            which = "replayed call" if s.id in replayed_args else "failed run's call"
            raw = st.text_area(md(f"{s.id}: {getattr(s, 'tool', '')}({json.dumps(args)}) — "
                                  f"{which}"), key=f"dgrr_w_obs_{s.id}")
    # every typed observation, the pages not shown included
    for s in missing:
        raw = st.session_state.get(f"dgrr_w_obs_{s.id}") or ""
        if raw.strip():
            try:
                observations[s.id] = json.loads(raw)
            except json.JSONDecodeError:
                observations[s.id] = raw


def _client() -> ModelClient:
    if shared:
        return chosen.client(timeout=float(timeout), deadline=float(deadline) or None)
    return typed_model_client(model.strip() or REFERENCE.model, api_base.strip() or None,
                              api_key.strip() or None, timeout=float(timeout),
                              deadline=float(deadline) or None)


if run and estimate["steps"] > FOREGROUND_STEPS:
    try:
        st.session_state[JOB] = ReplayJob(c, p, client=_client(),
                                          observations=observations or None,
                                          session_ended=state.session_ended(),
                                          judge=operator_judge_settings()[0]).start()
    except Exception as exc:  # a user-facing page: show the error, keep the state
        with progress_slot:
            show_problems("Replay failed", [f"{type(exc).__name__}: {exc}"])
    else:
        st.rerun()
elif run:
    with progress_slot:
        bar = st.progress(0.0, text="starting…")
        live = st.empty()
    started = time.monotonic()

    def on_progress(done: int, total: int, step_id: str, cost: Any) -> None:
        calls = getattr(cost, "llm_calls", 0)
        tokens = getattr(cost, "tokens", 0)
        bar.progress(done / max(total, 1), text=f"step {done}/{total}: {code(step_id)}")
        live.markdown(f"**{calls}** model calls · **{tokens}** tokens · "
                      f"{time.monotonic() - started:.1f}s")

    try:
        client = _client()
        judge = operator_judge_settings()[0]

        def replay(here: bool) -> Any:
            return repair(c, p, client=client, observations=observations or None,
                          on_progress=on_progress, check=here,
                          judge=judge.model_judge() if here and judge is not None else None)

        res, why, problems = replay_and_check(
            p, replay, judge=judge, ended=state.session_ended(),
            checking=lambda: bar.progress(1.0, text="content check of the result…"))
        if why is not None:
            st.session_state[CHECK_FLASH] = (why, problems)
    except Exception as exc:  # a user-facing page: show the error, keep the state
        with progress_slot:
            show_problems("Replay failed", [f"{type(exc).__name__}: {exc}"])
    else:
        st.session_state[state.REPLAY_CALLS] = (res, calls_by_step(client))
        state.keep_replay(res, p, client, time.monotonic() - started)
        st.session_state["dgrr_replay_flash"] = "Replay finished."
        st.rerun()  # so the sidebar and the next pages see the result


@st.fragment(run_every=1.0)
def _background_progress() -> None:
    """The running replay's progress and its Cancel button, redrawn every second."""
    job = st.session_state.get(JOB)
    if job is None:
        return
    if job.finished:
        st.rerun()  # the whole page takes the result
    left = (job.elapsed / job.done * (job.total - job.done)) if job.done else None
    st.progress(job.done / max(job.total, 1),
                text=f"step {job.done:,}/{job.total:,}" + (f": {code(job.step)}"
                                                           if job.step else ""))
    st.markdown(f"**{job.calls:,}** model calls · **{job.tokens:,}** tokens · "
                f"{job.elapsed:.0f} s" + (f" · about {left:.0f} s left" if left is not None
                                          else ""))
    if st.button("Cancel replay", key="dgrr_w_cancel_replay"):
        job.cancel()
        st.caption("Cancelling after the step being replayed…")


if job is not None and job.finished:
    st.session_state.pop(JOB, None)
    with progress_slot:
        if job.cancelled:
            st.warning(f"Replay cancelled after {job.done:,} of {job.total:,} steps; nothing "
                       "of it was kept.")
        elif job.error is not None:
            show_problems("Replay failed", [job.error])
        elif job.plan is p:
            st.session_state[state.REPLAY_CALLS] = (job.result, calls_by_step(job.client))
            state.keep_replay(job.result, p, job.client, job.elapsed)
            st.success(f"Replay finished in {job.elapsed:.0f} s.")
            if job.check_unfinished is not None:
                st.session_state[CHECK_FLASH] = (job.check_unfinished, job.check_problems)
        else:
            st.info("The plan changed while it was replayed; run it again.")
elif running:
    with progress_slot:
        _background_progress()

res = state.result()
if "dgrr_replay_flash" in st.session_state:
    st.success(st.session_state.pop("dgrr_replay_flash"))
if CHECK_FLASH in st.session_state:
    # never shown as clean: the Approve page checks again, and refuses while not certified
    why, problems = st.session_state.pop(CHECK_FLASH)
    show_problems(f"Content check of what the agent reads next: not certified: {why}",
                  problems)
if res is not None:
    st.subheader("Result")
    shown_replay = state.current_replay(p)
    if shown_replay is not None and shown_replay.restored:
        st.info(f"Replay {shown_replay.number} by model {md(shown_replay.model)}, finished "
                f"{shown_replay.finished:%Y-%m-%d %H:%M:%S} UTC, ran before this page was "
                "reloaded: the server kept it. Its model calls are not kept.")
    cost = res.cost
    with st.container(key=WRAP_PREFIX + "replay_counts"):  # each label whole
        k = st.columns(4)
    k[0].metric("Model calls", cost.llm_calls)
    k[1].metric("Connection failures", cost.connection_failures,
                help="calls that got no reply (refused, dropped, timed out); not model calls")
    k[2].metric("Tokens", cost.tokens)
    k[3].metric("Replay ratio", ratio_text(cost.replay_ratio))
    st.markdown("**Corrected answer**")
    typed = [o.id for o in res.report.steps if o.detail == SUPPLIED_BY_HAND]
    if typed:
        # not a green box: the answer rests on what a person typed, not on a tool's output
        st.warning("This answer uses observation(s) typed by hand, not returned by the tool: "
                   + ", ".join(code(x) for x in typed) + ". The approval lists each one.")
        st.info(md(res.answer) if res.answer is not None else "(answer generation failed)")
    elif res.answer is None:
        st.warning("(answer generation failed)")
    elif res.verification is None or not res.verification.clean:
        # not a green box either: the content check did not certify what the agent reads
        # next (the line under the answer says why)
        st.info(md(res.answer))
    else:
        st.success(md(res.answer))
    st.caption(f"Original: {md(res.original_answer)}")
    if res.verification is not None:  # None: the check did not finish, said above
        st.caption(check_line(res.verification))
    rep = res.report
    for key, title in (("failures", "Failures"), ("needs_observation", "Needs an observation"),
                       ("skipped_writes", "Skipped writes")):
        items = getattr(rep, key, None) or []
        if items:
            st.warning(f"**{title}** ({len(items)})")
            st.dataframe(pd.DataFrame([_row(i) for i in items]), hide_index=True,
                         width="stretch", placeholder=MISSING)
    # Effects of the failed run the repair could not undo, and the world ledger: plain
    # text and tables only (tool names, arguments and reasons come from the case).
    if res.needs_human:
        st.subheader("Needs a human")
        st.text("These effects happened in the failed run and cannot be undone: the "
                "repaired world may still carry them.")
        st.dataframe([{"step": n.step, "tool": n.tool,
                       "args": json.dumps(n.args, ensure_ascii=False, default=str),
                       "reason": n.reason} for n in res.needs_human],
                     hide_index=True, width="stretch", placeholder=MISSING)
    if rep.world:
        st.subheader("Tool world: the failed run's effects")
        st.dataframe([{"step": w.step, "tool": w.tool, "effect": w.effect,
                       "removed": w.removed, "disposition": w.disposition,
                       "undone before": w.undone_before or "",
                       "args": json.dumps(w.args, ensure_ascii=False, default=str),
                       "detail": w.detail} for w in rep.world],
                     hide_index=True, width="stretch", placeholder=MISSING)
    held = st.session_state.get("dgrr_replay_steps")  # built once per result
    if held is None or held[0] is not res:
        held = (res, [s.model_dump(mode="json") for s in rep.steps])
        st.session_state["dgrr_replay_steps"] = held
    steps = held[1]
    changed_only = st.checkbox("Changed steps only", value=True, key="dgrr_w_replay_changed",
                               help="hide the steps the replay kept as they were")
    shown = [s for s in steps if s["outcome"] != "kept"] if changed_only else steps
    st.caption(f"{len(shown)} of {len(steps)} steps shown")
    st.dataframe(pd.DataFrame(page_of(shown, "dgrr_w_replay_page"),
                              columns=list(steps[0]) if steps else None),
                 hide_index=True, width="stretch", placeholder=MISSING)
    st.page_link("pages/6_Compare.py", label="Next: compare before and after", icon=":material/arrow_forward:")
elif state.RESULT in st.session_state:
    st.info("The plan changed since the last replay; run it again.")

kept = state.replays()
if kept:
    st.subheader("Replays of this plan")
    st.caption(f"The last {REPLAYS_KEPT} replays of this plan are kept in this session, the "
               "newest first; Compare sets any two side by side. Cost is by litellm's price "
               "table (built-in models cost nothing; a model it does not list: unknown).")
    st.dataframe([{"replay": k.number, "model": k.model,
                   "finished (UTC)": f"{k.finished:%H:%M:%S}", "seconds": round(k.seconds, 1),
                   "model calls": k.llm_calls, "tokens": k.tokens,
                   "cost": money(k.dollars) if k.dollars is not None else "unknown",
                   "answer": k.result.answer if k.result.answer is not None
                   else "(answer generation failed)"} for k in reversed(kept)],
                 hide_index=True, width="stretch", placeholder=MISSING)
