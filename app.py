"""dgrr dashboard (`streamlit run app.py`): the home page with the guided demo, and the
navigation to the pages in `pages/`, which walk one case from its diagnosed fault to an
approved repair.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.preload import preload_once
from dgrr_dashboard.text import code, md
from dgrr_dashboard.widgets import answer_diff_html, graph_frame, page_setup, show_problems
from repair_core import CaseError, repair
from repair_core._text import plural, ratio_text

PAGES = Path(__file__).resolve().parent / "pages"

# what the pages import, imported by the server's first page run and never again by a
# session while another waits on it (dgrr_dashboard/preload.py)
preload_once()


def home() -> None:
    """The home page: what dgrr does, and the guided demo."""
    page_setup("Home")
    st.title("dgrr — dependency-guided rollback repair")
    st.write(
        "A memory-augmented agent answered wrongly because a memory record was wrong. Deleting "
        "the record does not undo what it caused. dgrr follows the recorded dependencies from "
        "the fault, keeps everything that still has independent evidence, and re-runs only what "
        "the corrected answer needs.")
    st.markdown(
        "**Pages:** 0 Cases (a list of cases to work through) · 0b Inbox (repair requests "
        "from live agents) · 1 Load a case · 2 mark the Faults · 3 see the Graph · 3b the "
        "original run's Model calls and waterfall · 3c the Trace tree and timeline · 4 "
        "review and edit the Plan · 5 Replay · 6 Compare before and after · 7 Approve · 8 "
        "Benchmark · 9 Fleet (triage a `dgrr fleet` result)")

    st.header("Guided demo")
    st.write("Pick a sample and press the button: the whole story runs — fault, graph, plan, "
             "replay, compare — with one sentence per step. The case stays loaded for the other "
             "pages.")
    samples = state.sample_choices()
    name = st.selectbox("Sample", samples, key="dgrr_w_demo_sample")
    working = state.case()
    replaces = working is not None and not (st.session_state.get("dgrr_demo") == name
                                            and state.loaded_sample() == name)
    confirmed = True
    if replaces:
        assert working is not None
        edits = st.session_state.get(state.PLAN)
        losing = [what for what, lost in (
            ("its plan edits", edits is not None and bool(edits.edits)),
            ("its replay", state.result() is not None),
            ("its marked faults", list(working.faults) != state.loaded_faults())) if lost]
        lost = (" and ".join([", ".join(losing[:-1]), losing[-1]]) if len(losing) > 1
                else "".join(losing))
        verb = "goes" if losing == ["its replay"] else "go"  # one replay; edits, faults
        st.warning(f"The story loads {code(name)} as the working case, in place of "
                   f"{code(working.case_id)}" + (f" ({lost} {verb} with it)"
                                                 if losing else "") + ".")
        confirmed = st.checkbox("Replace the working case", key="dgrr_w_demo_replace")
    if st.button("Run the whole story", type="primary", key="dgrr_w_demo_run",
                 disabled=not confirmed):
        try:
            state.set_case(state.load_sample(name), name, sample=True)
        except CaseError as exc:
            show_problems(f"Could not load {name}", exc.problems)
        else:
            st.session_state["dgrr_demo"] = name
            p = state.plan()
            if p is not None:
                with st.spinner("Replaying with the offline reference model…"):
                    state.set_result(repair(p.case, p), p)
            st.rerun()  # so the sidebar shows the loaded case

    c = state.case()
    if st.session_state.get("dgrr_demo") and c is not None:
        p = state.plan()
        assert p is not None
        a = p.analysis
        records = {m.id: m for m in c.memory}

        st.subheader("1 · The fault")
        if not c.faults:
            st.write("This case has no diagnosed fault: nothing needs repair.")
        for f in c.faults:
            seed = a.seeds[f]
            how = ("it predates the run, so the record itself is where the damage starts"
                   if seed == f else f"the step {code(seed)} that produced or mutated it is the seed")
            st.markdown(f"Record {code(f)} — “{md(records[f].text)}” — was diagnosed as wrong; "
                        f"{how}.")

        st.subheader("2 · What it reached")
        kept = len(a.supported)
        st.markdown(f"Following the dependency edges (never the mere order of steps) the fault "
                    f"reaches {plural(len(a.affected), 'node')}. {kept} of them "
                    + ("is kept because it has" if kept == 1 else "are kept because they have")
                    + " independent evidence: "
                    + (", ".join(code(n) for n in sorted(a.supported)) or "none") + ".")
        # Ids and types only: the whole story's graph fits the page with legible labels.
        graph_frame(p, height=480, key="dgrr_w_demo_graph", affected_only=False, hide_chain=True,
                    label_chars=0)

        st.subheader("3 · The plan")
        mem = Counter(p.memory.values())
        st.write(
            "Memory: " + ", ".join(f"{n} {k}" for k, n in sorted(mem.items())) + ". "
            f"Trajectory: replay {len(p.replay_set)} of {len(c.trajectory)} steps "
            f"({md(' → '.join(p.replay_order()))}); the rest is kept or invalidated without "
            "re-running.")

        st.subheader("4 · Replay")
        res = state.result()
        if res is None:
            st.write("Replay is not available in this installation, so the story "
                     "stops at the plan.")
        else:
            st.markdown(f"The replay re-ran the plan with {code(res.report.model)}: "
                     f"{res.cost.llm_calls} model calls, {res.cost.tokens} tokens, replay ratio "
                     f"{ratio_text(res.cost.replay_ratio)}.")

            st.subheader("5 · Compare")
            before, after = answer_diff_html(res.original_answer, res.answer or "")
            st.write("The corrected answer differs only where the fault had reached it:")
            st.html(f"<p><b>Before:</b> {before}</p><p><b>After:</b> {after}</p>")
        st.page_link("pages/7_Approve.py", label="Review and approve this repair", icon=":material/check_circle:")


# The pages listed here rather than found in `pages/`, so that the home page is called
# "Home" in the sidebar (Streamlit names a found main page after its file: "app").
# expanded: every page in the sidebar (collapsed, Streamlit shows ten and hides the rest
# behind "View more", Approve among them)
st.navigation([st.Page(home, title="Home", default=True),
               *(st.Page(f"pages/{page.name}") for page in sorted(PAGES.glob("*.py")))],
              expanded=True).run()
