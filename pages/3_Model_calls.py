"""Model calls: the original run as trace viewers show it — a waterfall of its steps by
wall-clock time, its model calls with tokens and cost in dollars (litellm's own price
table; an unlisted model is "price unknown") per call and in total, and a call's prompt
and completion as its span recorded them, beside the replay's when there is one."""

from __future__ import annotations

import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.original_run import (
    WATERFALL_BARS,
    calls_frame,
    waterfall_chart,
    waterfall_frame,
)
from dgrr_dashboard.text import MISSING, code, md
from dgrr_dashboard.widgets import original_call_panel, page_setup, require_case
from repair_core.case._trace import step_trace
from repair_core.viz import money, original_run

page_setup("Model calls")
st.title("3b · The original run: waterfall and model calls")
st.write("What the imported trace recorded of the failed run, as a trace viewer shows it: "
         "each step's span on the wall clock, and each model call with its model, tokens "
         "and cost in US dollars, priced with litellm's own price table. Pick a call to "
         "read its prompt and completion; after a replay, the replay's prompt and reply "
         "for the step are set beside them.")

c = require_case()
run = state.derived("dgrr_original_run", (c.case_id, id(c)), lambda: original_run(c))
if not run.calls and not run.waterfall:
    st.info("This case records no span timing and no model call. A case made from a trace "
            "(the Load page's sample imports, or `dgrr import`) keeps each span's start and "
            "end, and each model call's model, messages and tokens.")
    st.stop()

k = st.columns(4)
k[0].metric("Model calls", len(run.calls))
k[1].metric("Tokens (input + output)",
            f"{run.input_tokens:,} + {run.output_tokens:,}" if run.tokens_recorded else MISSING)
k[2].metric("Cost (litellm prices)", money(run.priced_cost),
            help="the sum over the calls litellm's price table lists; the calls it does "
                 "not are counted below, never priced by a guess")
k[3].metric("Wall clock", f"{run.seconds:.3f} s" if run.seconds is not None else "—")
if run.unpriced:
    unknown = ", ".join(code(m) for m in run.unknown_models)
    st.caption(f"{run.unpriced} call(s) not priced"
               + (f" — price unknown (not in litellm's price table): {unknown}"
                  if unknown else "") + ": the total leaves them out.")

st.subheader("Waterfall")
if run.waterfall:
    first = 0
    if len(run.waterfall) > WATERFALL_BARS:
        first = int(st.number_input(
            f"First step shown (of {len(run.waterfall):,}; {WATERFALL_BARS} at a time)",
            min_value=1, max_value=len(run.waterfall), value=1, step=WATERFALL_BARS,
            key="dgrr_w_calls_first")) - 1
    frame = waterfall_frame(run, first)
    st.altair_chart(waterfall_chart(frame), width="stretch")
    if len(frame) < len(run.waterfall):
        st.caption(f"Steps {first + 1:,}–{first + len(frame):,} of {len(run.waterfall):,} "
                   "with a start and an end.")
else:
    st.caption("The trace recorded no span's start and end.")

st.subheader("Model calls")
if not run.calls:
    st.caption("The trace recorded no model call.")
    st.stop()
st.dataframe(calls_frame(run), hide_index=True, width="stretch", placeholder=MISSING)
by_step = {call.step: call for call in run.calls}
picked = st.selectbox("Call", list(by_step), key="dgrr_w_calls_pick",
                      format_func=lambda s: f"{by_step[s].seq} · {s} · {by_step[s].type} · "
                                            f"{by_step[s].model or 'no model named'}")
call = by_step[picked]
step = next(s for s in c.trajectory if s.id == picked)
trace = step_trace(step)
st.markdown(f"{code(picked)} · {md(call.type)} · "
            + (f"{money(call.cost)} (priced as {code(call.priced_as)})" if call.cost is not None
               else md(call.price)))
held = st.session_state.get(state.REPLAY_CALLS)
res = state.result()
replayed = held[1].get(picked, []) if held is not None and res is not None \
    and held[0] is res else []
if trace is not None and (trace.input_messages or trace.output_messages):
    original_call_panel(trace, replayed)
else:
    st.caption("The span recorded this call's tokens but not its messages.")
