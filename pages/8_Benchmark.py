"""Benchmark: browse the suites, open any case, run methods, see metrics by group."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from dgrr_dashboard import state
from dgrr_dashboard.bench_browse import committed_folders, default_out, is_results_folder
from dgrr_dashboard.bench_view import recovery_bars, side_by_side
from dgrr_dashboard.identity import is_signed_in
from dgrr_dashboard.settings import operator_setting, team_mode
from dgrr_dashboard.text import MISSING, code, md
from dgrr_dashboard.widgets import page_setup, remember, remembered, show_problems
from repair_core import CaseError, DgrrError
from repair_core.bench import METHOD_LABELS, load_results, run_bench

page_setup("Benchmark")
st.title("8 · Benchmark")

SUITES = {"controlled": state.SAMPLES / "controlled", "adapted": state.SAMPLES / "adapted"}


@st.cache_data(show_spinner=False)
def _index(paths_and_mtimes: tuple[tuple[str, float], ...]) -> pd.DataFrame:
    rows = []
    for path, _ in paths_and_mtimes:
        try:
            data = json.loads(Path(path).read_bytes())
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or data.get("format") != "dgrr.case/v1":
            continue
        ev = data.get("eval") or {}
        types = ev.get("fault_types") or {}
        faults = data.get("faults") or []
        rel = Path(path).relative_to(state.ROOT)
        rows.append({"case_id": str(data.get("case_id", rel.stem)),
                     "suite": rel.parent.name if rel.parent != Path("sample_traces") else "samples",
                     "domain": data.get("domain") or "-",
                     "fault_type": types.get(faults[0], "-") if faults else "-",
                     "n_faults": len(faults), "steps": len(data.get("trajectory") or []),
                     "path": str(rel)})
    return pd.DataFrame(rows, columns=["case_id", "suite", "domain", "fault_type", "n_faults",
                                       "steps", "path"])


paths = [p for p in state.sample_paths().values() if p is not None]
cases = _index(tuple((str(p), p.stat().st_mtime) for p in paths))
missing = [name for name, folder in SUITES.items() if not folder.is_dir()]
if missing:
    st.warning("Not generated yet: " + ", ".join(f"the **{m}** suite (`sample_traces/{m}/`)"
                                                   for m in missing)
               + ". Generate it with `dgrr bench generate --suite NAME`; meanwhile this page "
               "browses the cases that are there.")
st.caption(f"{len(cases)} cases under `sample_traces/`.")

COMMITTED = state.ROOT / "docs" / "results"
committed = {f"committed: docs/results/{p.name}": p for p in committed_folders(COMMITTED)}
BELOW = "the results folder below"


def _browse_the_folder_below() -> None:
    """A results folder just typed is the one to browse."""
    remember("dgrr_w_bench_committed", BELOW)


# Opens on the results folder when it holds results, else on a committed suite's (it used
# to open on an empty folder), and keeps the choice from one visit to the next.
remembered("dgrr_w_bench_committed",
           BELOW if is_results_folder(default_out()) or not committed else next(iter(committed)),
           [BELOW, *committed])
browse = st.selectbox("Results to browse", [BELOW, *committed],
                      key="dgrr_w_bench_committed",
                      help="a committed suite's results (results.csv and summary.json), or "
                           "any `dgrr bench run --out` folder")
if team_mode():  # a shared dashboard reads and writes no folder a visitor names
    out_dir = operator_setting("bench_out", "DGRR_BENCH_OUT") or str(default_out())
    st.caption(f"Results folder {code(out_dir)} (set by the operator of this dashboard).")
else:
    remembered("dgrr_w_bench_out", str(default_out()))
    out_dir = st.text_input("Results folder (`dgrr bench run --out`: a committed suite's, a "
                            "generated one, anywhere)",
                            key="dgrr_w_bench_out", on_change=_browse_the_folder_below,
                            help="results this page runs are written here; the default is "
                                 "$DGRR_BENCH_OUT, else ~/.dgrr/bench-out (outside the "
                                 "repository)")
out = Path(out_dir).expanduser()
if not out.is_absolute():
    out = Path.cwd() / out
browsed = committed.get(browse, out)
try:
    results = load_results(out) if (out / "results").is_dir() else []
except (ValueError, OSError) as exc:
    results = []
    st.warning(f"Could not read results in {code(out)}: {md(exc)}")
recovered = pd.DataFrame([{"case_id": r.case_id, "method": r.method, "recovered": r.recovered}
                          for r in results])
if not recovered.empty:
    wide = recovered.pivot_table(index="case_id", columns="method", values="recovered",
                                 aggfunc="first")
    cases = cases.merge(wide, left_on="case_id", right_index=True, how="left")

side_by_side(browsed)

st.subheader("Cases of the suites")
f = st.columns(5)
suite = f[0].multiselect("Suite", sorted(cases["suite"].unique()), key="dgrr_w_b_suite")
domain = f[1].multiselect("Domain", sorted(cases["domain"].unique()), key="dgrr_w_b_domain")
ftype = f[2].multiselect("Fault type", sorted(cases["fault_type"].unique()), key="dgrr_w_b_type")
nf = f[3].multiselect("Faults", sorted(cases["n_faults"].unique()), key="dgrr_w_b_nf")
methods_seen = sorted(recovered["method"].unique()) if not recovered.empty else []
rec_filter = f[4].selectbox("Recovered by", ["(any)", *[f"{m}: yes" for m in methods_seen],
                                             *[f"{m}: no" for m in methods_seen]],
                            key="dgrr_w_b_rec")
shown = cases
for col, chosen in (("suite", suite), ("domain", domain), ("fault_type", ftype),
                    ("n_faults", nf)):
    if chosen:
        shown = shown[shown[col].isin(chosen)]
if rec_filter != "(any)":
    m, yes = rec_filter.rsplit(": ", 1)
    shown = shown[shown[m].fillna(False).astype(bool) == (yes == "yes")]
st.dataframe(shown, hide_index=True, width="stretch", placeholder=MISSING)

o1, o2 = st.columns([3, 1])
pick = o1.selectbox("Open a case in the other pages", shown["path"].tolist(),
                    key="dgrr_w_b_pick")
if o2.button("Open", key="dgrr_w_b_open", disabled=pick is None):
    try:
        state.set_case(state.load_sample(pick), pick, sample=True)
    except CaseError as exc:
        show_problems(f"Could not load {pick}", exc.problems)
    else:
        st.success(f"Opened {code(state.case().case_id)}.")  # type: ignore[union-attr]
        st.page_link("pages/3_Graph.py", label="See its graph", icon=":material/arrow_forward:")

st.subheader("Run methods on the selection")
methods = st.multiselect("Methods", list(METHOD_LABELS), default=["ours"],
                         format_func=lambda m: METHOD_LABELS.get(m, m), key="dgrr_w_b_methods")
may_run = not team_mode() or is_signed_in()  # a run spends the server's time
if not may_run:
    st.caption("Sign in (on the Inbox or Approve page) to run methods on this dashboard.")
if st.button(f"Run {len(methods)} method(s) on {len(shown)} case(s)", key="dgrr_w_b_run",
             disabled=not methods or shown.empty or not may_run):
    bar = st.progress(0.0, text="starting…")
    total = len(methods) * len(shown)
    done: list[Any] = []

    def on_result(method: str, case_id: str) -> None:
        done.append((method, case_id))
        bar.progress(len(done) / max(total, 1), text=f"{len(done)}/{total}: {md(method)} on {code(case_id)}")

    try:
        assert run_bench is not None
        run_bench([state.ROOT / p for p in shown["path"]], methods, out, progress=False,
                  suite="dashboard", on_result=on_result)
    except DgrrError as exc:
        show_problems("Run failed", [str(exc)])
    else:
        bar.progress(1.0, text=f"done: {len(done)} new result(s), the rest were stored already")
        st.rerun()

st.subheader("Metrics")
if not results:
    st.caption(f"No results in {code(out)} yet.")
else:
    from repair_core.bench import summaries, summarise_by

    ids = set(shown["case_id"])
    sel = [r for r in results if r.case_id in ids]
    table = pd.DataFrame({METHOD_LABELS.get(m, m): s.model_dump() for m, s in
                          summaries(sel).items()}).T
    st.dataframe(table, width="stretch", placeholder=MISSING)
    for grouping in ("domain", "fault_type"):
        rows = []
        for m in sorted({r.method for r in sel}):
            for g, s in summarise_by([r for r in sel if r.method == m], grouping).items():
                rows.append({"method": METHOD_LABELS.get(m, m), grouping: g, "recovery": s.recovery})
        if rows:
            st.markdown(f"**Recovery by {grouping.replace('_', ' ')}**")
            st.altair_chart(recovery_bars(pd.DataFrame(rows), grouping))
