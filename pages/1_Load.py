"""Load: pick a sample, upload a case, or upload a trajectory plus a memory store."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

from dgrr_dashboard import kept_cases, state, uploads
from dgrr_dashboard.settings import team_mode
from dgrr_dashboard.text import MISSING, code, md
from dgrr_dashboard.upload_client import LoadedUpload, load_in_worker, use_worker
from dgrr_dashboard.widgets import page_setup, show_problems
from dgrr_dashboard.worker_messages import WorkerRequest
from repair_core import CaseError, case_from_parts, parse_case

page_setup("Load")
st.title("1 · Load a case")
st.write("A case is one `dgrr.case/v1` JSON document: the user turns, the memory store, the "
         "failed trajectory and the diagnosed faults. Nothing of the current case is lost "
         "if a new one is invalid.")


_LOADED = "dgrr_loaded_message"  # shown once, below the tabs, after a load


def _load(build, source: str, *, sample: bool = False) -> None:
    st.session_state.pop(_LOADED, None)
    try:
        built = build()
    except CaseError as exc:
        st.session_state[state.PROBLEMS] = (source, exc.problems)
        return
    # the upload worker parsed and planned it (dgrr_dashboard/upload_client.py)
    new, planned = (built.case, built.plan) if isinstance(built, LoadedUpload) else (built, None)
    # An uploaded or imported case is kept on the server under its digest (the address
    # names it, so a reload brings it back); a shared dashboard writes nothing for a visitor.
    kept = None if sample or team_mode() else kept_cases.keep_case(new)
    state.set_case(new, source, sample=sample, kept=kept)
    if planned is not None:
        state.set_computed_plan(planned)
    st.session_state[_LOADED] = f"Loaded case {code(new.case_id)} from {md(source)}."


def _in_worker(job: str, held: list, *, faults: tuple[str, ...] = (), with_store: bool = False,
               ended=None) -> LoadedUpload:
    """Parse and plan the uploads `held` in the upload worker (`job`: case, pair, import)."""
    request = WorkerRequest(job=job, source=" + ".join(f.name for f in held),
                            names=[f.name for f in held], with_store=with_store,
                            faults=list(faults), objective=state.objective_setting())
    loaded = load_in_worker(request, [f.getvalue() for f in held], ended=ended)
    if loaded.import_summary is not None:
        st.session_state["dgrr_import_summary"] = loaded.import_summary
    return loaded


# Uploads are read only inside these functions, never into the page's namespace: that
# namespace outlives the run (dgrr_dashboard/uploads.py), a function's locals do not.
CASE_UP, TRAJ_UP, MEM_UP, TRACE_UP, STORE_UP = (
    "dgrr_w_upload_case", "dgrr_w_upload_traj", "dgrr_w_upload_mem", "dgrr_w_upload_trace",
    "dgrr_w_upload_store")


def _load_uploaded_case() -> None:
    held = uploads.files(CASE_UP)
    if not held:  # removed in the browser meanwhile
        return
    up = held[0]

    def _parse():
        from repair_core.importers._otlp import looks_like_otlp

        data = up.getvalue()
        if looks_like_otlp(data):  # a trace, not a case: say where it goes
            raise CaseError(["this file is an OTLP trace, not a dgrr case: import it on the "
                             "tab \"Trace (OTLP) + Mem0 store\" (or with the command dgrr import)"],
                            source=up.name)
        return parse_case(data, source=up.name)

    _load(lambda: _in_worker("case", [up]) if use_worker() else _parse(), up.name)


def _load_uploaded_pair() -> None:
    both = uploads.files(TRAJ_UP), uploads.files(MEM_UP)
    if not all(both):
        return
    traj, mem = both[0][0], both[1][0]
    src = f"{traj.name} + {mem.name}"
    _load(lambda: _in_worker("pair", [traj, mem]) if use_worker()
          else case_from_parts(traj.getvalue(), mem.getvalue(), source=src), src)


def _import_uploaded_trace(faults: list[str]) -> None:
    from dgrr_dashboard.imported_upload import import_uploads

    traces, stores = uploads.files(TRACE_UP), uploads.files(STORE_UP)
    if not traces and not stores:
        return
    src = " + ".join(f.name for f in (*traces, *stores))

    ended = state.session_ended()

    def _import():
        store = (stores[-1].name, stores[-1].getvalue()) if stores else None
        try:
            imported = import_uploads([(t.name, t.getvalue()) for t in traces], store,
                                      faults=faults, cancelled=ended)
        except CaseError:
            if ended():  # nobody to tell but the operator
                print("dgrr dashboard: an import stopped: its browser session ended",
                      file=sys.stderr, flush=True)
            raise
        st.session_state["dgrr_import_summary"] = imported.summary
        return imported.case

    st.session_state.pop("dgrr_import_summary", None)
    _load(lambda: _in_worker("import", [*traces, *stores], faults=tuple(faults),
                             with_store=bool(stores), ended=ended) if use_worker()
          else _import(), src)


tab_sample, tab_case, tab_pair, tab_trace = st.tabs(
    ["Sample", "Upload a case", "Trajectory + memory files", "Trace (OTLP) + Mem0 store"])
with tab_sample:
    samples = state.sample_choices()
    name = st.selectbox("Sample", samples, key="dgrr_w_sample",
                        help="The spec example and every case under sample_traces/")
    if st.button("Load sample", type="primary", key="dgrr_w_load_sample"):
        _load(lambda: state.load_sample(name), name, sample=True)
with tab_case:
    has_case = uploads.uploader("Case JSON", CASE_UP, type=["json"])
    if st.button("Load uploaded case", key="dgrr_w_load_upload", disabled=not has_case):
        uploads.load_and_release(_load_uploaded_case, CASE_UP)
with tab_pair:
    st.caption("The trajectory file is a case without `memory` (format, case_id, user_id, "
               "session, trajectory, faults, tools); the memory file is a list of records or "
               "`{\"memory\": [...]}`.")
    has_traj = uploads.uploader("Trajectory JSON", TRAJ_UP, type=["json"])
    has_mem = uploads.uploader("Memory store JSON", MEM_UP, type=["json"])
    if st.button("Load trajectory + memory", key="dgrr_w_load_pair",
                 disabled=not (has_traj and has_mem)):
        uploads.load_and_release(_load_uploaded_pair, TRAJ_UP, MEM_UP)

with tab_trace:
    st.caption("OTLP JSON traces (OTel GenAI or OpenInference spans; JSON lines with hex ids "
               "or one document with base64 ids) and optionally a Mem0 history database, "
               "imported as by `dgrr import` (docs/import.md). Dependencies a span did not "
               "record are inferred and marked so.")
    has_traces = uploads.uploader("Trace file(s)", TRACE_UP, type=["json", "jsonl"],
                                  accept_multiple_files=True)
    has_store = uploads.uploader("Mem0 history database (alone: the store's records and "
                                 "their lineage)", STORE_UP, type=["db", "sqlite"])
    fault_text = st.text_input("Diagnosed faults (record ids, comma-separated; optional)",
                               key="dgrr_w_import_faults")
    if st.button("Import trace or store", key="dgrr_w_import",
                 disabled=not (has_traces or has_store)):
        faults = [f.strip() for f in fault_text.split(",") if f.strip()]
        uploads.load_and_release(lambda: _import_uploaded_trace(faults), TRACE_UP, STORE_UP)
    if not (has_traces or has_store):
        st.caption("Import needs a trace file, a Mem0 history database, or both.")
    samples_dir = Path(__file__).resolve().parent.parent / "sample_imports"
    sample_imports = {
        "otlp/figure1-travel.otlp.jsonl (OTel GenAI, hex ids)":
            (["otlp/figure1-travel.otlp.jsonl"], None),
        "otlp/figure1-travel.otlp.json (OTel GenAI, base64 ids)":
            (["otlp/figure1-travel.otlp.json"], None),
        "mem0/mem0-travel.otlp.jsonl + mem0/history.db (Mem0 store)":
            (["mem0/mem0-travel.otlp.jsonl"], "mem0/history.db"),
        "langgraph/travel.otlp.json (LangGraph, OpenInference instrumentor)":
            (["langgraph/travel.otlp.json"], None),
        "openlit/openlit-1.45.otlp.json (OpenLit 1.45)": (["openlit/openlit-1.45.otlp.json"], None),
        "openlit/openlit-1.33.otlp.json (OpenLit 1.33)": (["openlit/openlit-1.33.otlp.json"], None),
        "mem0-history/history.db (a Mem0 history alone, no trace)":
            ([], "mem0-history/history.db"),
    }
    pick = st.selectbox("Or a sample import (sample_imports/)", list(sample_imports),
                        key="dgrr_w_import_sample")
    if st.button("Import sample", key="dgrr_w_import_sample_go"):
        from repair_core.importers import import_trace

        files, store_name = sample_imports[pick]
        faults = [f.strip() for f in fault_text.split(",") if f.strip()]

        def _import_sample():
            imported = import_trace([samples_dir / f for f in files],
                                    store=samples_dir / store_name if store_name else None,
                                    faults=faults, cancelled=state.session_ended())
            st.session_state["dgrr_import_summary"] = imported.summary.describe()
            return imported.case

        st.session_state.pop("dgrr_import_summary", None)
        _load(_import_sample, pick)
    if "dgrr_import_summary" in st.session_state:
        st.text(st.session_state["dgrr_import_summary"])


def _outcome_and_case() -> None:
    # In a function, not the page's namespace: a namespace frozen while the sidebar plans
    # (dgrr_dashboard/uploads.py) kept the case it named after the case was replaced.
    if _LOADED in st.session_state:
        st.success(st.session_state.pop(_LOADED))
    if state.PROBLEMS in st.session_state:
        source, problems = st.session_state[state.PROBLEMS]
        show_problems(f"Could not load {source}", problems)
        current = state.case()
        if current is not None:
            st.info(f"The previous case {code(current.case_id)} is still loaded, unchanged.")

    c = state.case()
    st.divider()
    if c is None:
        st.info("No case loaded yet.")
    else:
        st.subheader(f"Current case: {code(c.case_id)}")
        cols = st.columns(5)
        cols[0].metric("Domain", md(c.domain or "—"))
        cols[1].metric("User turns", len(c.session))
        cols[2].metric("Trajectory steps", len(c.trajectory))
        cols[3].metric("Memory records", len(c.memory))
        cols[4].metric("Diagnosed faults", len(c.faults))
        st.caption(f"Source: {md(st.session_state.get(state.SOURCE, '?'))}")
        st.markdown("**Final answer of the failed run**")
        st.text(c.final_answer().text if c.has_answer()
                else "(none: the case has no steps, only a store's records and their lineage)")
        st.markdown("**User turns**")
        st.dataframe([{"id": t.id, "seq": t.seq, "text": t.text} for t in c.session],
                     hide_index=True, width="stretch", placeholder=MISSING)
        st.page_link("pages/2_Faults.py", label="Next: mark the diagnosed faults", icon=":material/arrow_forward:")


_outcome_and_case()
