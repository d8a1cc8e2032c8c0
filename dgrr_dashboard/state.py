"""The dashboard's working state in `st.session_state` (widget state is cleared on a page
change, so everything that must survive lives under these keys)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import streamlit as st

from repair_core import Case, CaseError, PlanEditError, RepairPlan, plan_case, with_faults
from repair_core._perf import freeze_after_pauses

from .kept_replays import REPLAYS_KEPT, KeptReplay, ReplayOfPlan, kept_replay
from .server_cpu import pin_server_threads


def _serve_sessions_side_by_side() -> None:
    """A case loaded or planned in one session stays out of the collector's walks, which
    would otherwise stall every other session, and the server's threads share one CPU
    (`server_cpu`: other sessions wait less for the interpreter lock; docs/performance.md).
    Only in a real server: under AppTest (a mocked runtime) the tests share their process."""
    from streamlit.runtime import Runtime, exists, get_instance

    if exists() and type(get_instance()) is Runtime:  # a spec mock passes isinstance
        freeze_after_pauses()
        pin_server_threads()


_serve_sessions_side_by_side()

CASE = "dgrr_case"
SOURCE = "dgrr_source"
SAMPLE = "dgrr_sample"  # the sample's name when the working case is one (address.py)
KEPT = "dgrr_kept_case"  # the digest an uploaded or imported case is kept under (kept_cases)
LOADED_FAULTS = "dgrr_loaded_faults"
COMPUTED = "dgrr_computed_plan"
PLAN = "dgrr_plan"  # the edited plan; absent = the computed plan
RESULT = "dgrr_result"
RESULT_KEY = "dgrr_result_key"  # plan_key() of the plan the result was replayed from
REPLAYS = "dgrr_replays"  # plan_key -> the replays kept of that plan (kept_replays), oldest first
REPLAY_CALLS = "dgrr_replay_calls"  # (result, step id -> the model calls replaying it made)
PROBLEMS = "dgrr_problems"
FAULT_EDITOR_VERSION = "dgrr_fault_editor_version"
PLAN_EDITOR_VERSION = "dgrr_plan_editor_version"
DB = "dgrr_db"
REQUEST = "dgrr_queue_request"  # the queue request the reviewer holds (its case is loaded)
PLAN_KEYS = "dgrr_plan_keys"  # id(plan) -> (plan, plan_key): a digest is computed once
SELECTED = "dgrr_selected_node"  # the node the reviewer inspects (graph click, tree, picker)
OBJECTIVE = "dgrr_objective"  # what the plan repairs: answer | store | both (default both)
DEFAULT_OBJECTIVE = "both"
NOT_SUSPECT = "dgrr_not_suspect"  # ids the reviewer un-marked as suspects (plan_case's)
CLEAN_SOURCE = "dgrr_clean_source"  # suspected sources the reviewer cleaned -> reason
AS_RUN = "dgrr_as_run"  # (label, plan): the benchmark method's plan the case was opened with
HASHER = "dgrr_approval_hasher"  # the session's ApprovalHasher (a case is hashed once)
_HOOK = "_dgrr_on_change"

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_traces"
EXAMPLE = "(built-in) spec example: figure1-travel"


def session_ended() -> Callable[[], bool]:
    """A check, cheap enough to call often from long work in this session's script
    thread, that is true once the session is gone (its browser tab closed or reloaded,
    so its websocket disconnected): Streamlit stops a script only at its next `st` call,
    and an import reading a file never makes one."""
    from streamlit.runtime import Runtime, exists, get_instance
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or not exists() or type(get_instance()) is not Runtime:  # AppTest
        return lambda: False
    runtime, session = get_instance(), ctx.session_id
    return lambda: not runtime.is_active_session(session)


def on_change(hook: Callable[[], None]) -> None:
    """Call `hook` after every change of the case, faults, plan or result in this run
    (the sidebar redraws itself with it)."""
    st.session_state[_HOOK] = hook


def _changed() -> None:
    hook = st.session_state.get(_HOOK)
    if hook is not None:
        hook()


_T = TypeVar("_T")


def derived(name: str, key: Hashable, build: Callable[[], _T]) -> _T:
    """What a page derives, built once per `key` (e.g. the plan's digest and the result)
    and kept in the session under `name`; only the latest key's value is kept."""
    held = st.session_state.get(name)
    if held is None or held[0] != key:
        held = (key, build())
        st.session_state[name] = held
    return held[1]  # type: ignore[no-any-return]


def case() -> Case | None:
    """The working case, or None before one is loaded."""
    return st.session_state.get(CASE)


def set_case(new: Case, source: str, *, sample: bool = False, kept: str | None = None) -> None:
    """Make `new` the working case; the plan edits and replay result of the old one go.
    `sample`: `source` is the name of the sample `new` was loaded from
    (:func:`sample_paths`), which the page's address then keeps; `kept`: the digest the
    case is kept under on the server (`kept_cases`), which the address keeps instead."""
    st.session_state[CASE] = new
    st.session_state[SOURCE] = source
    if sample:
        st.session_state[SAMPLE] = source
    else:
        st.session_state.pop(SAMPLE, None)
    if kept is not None and not sample:
        st.session_state[KEPT] = kept
    else:
        st.session_state.pop(KEPT, None)
    st.session_state[LOADED_FAULTS] = list(new.faults)
    st.session_state.pop(PROBLEMS, None)
    st.session_state.pop(NOT_SUSPECT, None)
    st.session_state.pop(CLEAN_SOURCE, None)
    st.session_state.pop(AS_RUN, None)
    st.session_state.pop(SELECTED, None)
    st.session_state.pop(PLAN_KEYS, None)  # its plans hold the old case (kept it alive)
    _reset_downstream()
    _changed()


def loaded_sample() -> str | None:
    """The name of the sample the working case was loaded from, if it was."""
    return st.session_state.get(SAMPLE)


def kept_case() -> str | None:
    """The digest the working case is kept under on the server, if it is kept."""
    return st.session_state.get(KEPT)


def loaded_faults() -> list[str]:
    """The faults the working case had when it was loaded."""
    return list(st.session_state.get(LOADED_FAULTS, []))


def set_faults(faults: list[str]) -> None:
    """Mark exactly `faults` as the diagnosed faults (everything downstream is redone)."""
    current = case()
    assert current is not None
    st.session_state[CASE] = with_faults(current, faults)
    # the suspects are the new faults' now: a source cleaned for another fault may be none
    st.session_state.pop(CLEAN_SOURCE, None)
    _reset_downstream()
    _changed()


def _reset_downstream() -> None:
    for key in (COMPUTED, PLAN, RESULT, RESULT_KEY, REPLAYS):
        st.session_state.pop(key, None)
    for key in (FAULT_EDITOR_VERSION, PLAN_EDITOR_VERSION):
        st.session_state[key] = st.session_state.get(key, 0) + 1


def objective() -> str:
    """What the plan repairs; the dashboard's default is `both` (a reviewer wants a
    corrected answer and a clean store). A case without an answer step (a store's records
    and lineage alone, e.g. a Mem0 history imported on its own) is always planned for the
    `store` (rule `objective.no-answer`)."""
    c = case()
    if c is not None and not c.has_answer():
        return "store"
    return objective_setting()


def objective_setting() -> str:
    """What the session plans for, before the case is looked at (a new case without an
    answer step is planned for the `store` whatever this says: :func:`objective`)."""
    return str(st.session_state.get(OBJECTIVE, DEFAULT_OBJECTIVE))


def set_objective(new: str) -> None:
    """Plan for `new` (answer, store or both): the plan, its edits and the result go."""
    st.session_state[OBJECTIVE] = new
    _reset_downstream()
    _changed()


def not_suspect() -> frozenset[str]:
    """The suspects the reviewer un-marked (never a suspected source or carrier)."""
    return frozenset(st.session_state.get(NOT_SUSPECT, ()))


def set_not_suspect(ids: Iterable[str]) -> None:
    """Un-mark exactly `ids` as suspects: the plan and everything after it are redone."""
    st.session_state[NOT_SUSPECT] = frozenset(ids)
    # a source is cleaned or cleared, never both: the latest word stands
    st.session_state[CLEAN_SOURCE] = {k: v for k, v in clean_source().items() if k not in ids}
    _reset_downstream()
    _changed()


def clean_source() -> dict[str, str]:
    """The suspected sources the reviewer cleaned like a fault -> the reviewer's reason."""
    return dict(st.session_state.get(CLEAN_SOURCE, {}))


def set_clean_source(cleaned: dict[str, str]) -> None:
    """Clean exactly the sources of `cleaned` (id -> reason): the plan and everything
    after it are redone."""
    st.session_state[CLEAN_SOURCE] = dict(cleaned)
    _reset_downstream()
    _changed()


def computed_plan() -> RepairPlan | None:
    """The rule-based plan of the working case, computed once per case and fault choice.

    Kept in the session next to the case rather than in `st.cache_data`: a cached plan is
    pickled and unpickled on every read, which costs seconds for a case of 20k steps.
    """
    c = case()
    if c is None:
        return None
    held = _computed_if_ready(c)
    if held is None:
        held = _plan(c)
        st.session_state[COMPUTED] = held
        _changed()  # the sidebar said the plan was not made yet
    return held


def _computed_if_ready(c: Case) -> RepairPlan | None:
    held = st.session_state.get(COMPUTED)
    if (held is None or held.case is not c or held.objective != objective()
            or held.not_suspect != not_suspect() or held.clean_source != clean_source()):
        return None
    return held  # type: ignore[no-any-return]


def _plan(c: Case) -> RepairPlan:
    """Plan `c` for the session's objective and un-marked suspects: in the upload worker
    when the settings say so (`upload_client.use_worker`; team mode by default), else
    here. A plan the worker refuses (a limit, a bad setting) stops the page with why."""
    from .upload_client import plan_in_worker, use_worker

    try:
        if use_worker():
            return plan_in_worker(c, objective(), not_suspect(), ended=session_ended(),
                                  clean_source=clean_source())
    except CaseError as exc:
        from .widgets import show_problems

        show_problems(f"Could not plan {exc.source or 'the case'}", exc.problems)
        st.stop()
    except PlanEditError as exc:
        return _without_cleaning(c, exc)
    try:
        return plan_case(c, objective=objective(),  # type: ignore[arg-type]
                         not_suspect=not_suspect(), clean_source=clean_source())
    except PlanEditError as exc:
        return _without_cleaning(c, exc)


def _without_cleaning(c: Case, refused: PlanEditError) -> RepairPlan:
    """The plan of `c` once the reviewer's cleanings it refused are dropped, saying why
    (plain text): the rest of the session's choices stand."""
    from .widgets import show_problems

    show_problems("The sources cleaned by the reviewer were dropped", refused.problems)
    st.session_state.pop(CLEAN_SOURCE, None)
    return _plan(c)


def set_computed_plan(p: RepairPlan) -> None:
    """Keep `p`, computed elsewhere (the upload worker) for the working case with the
    session's objective and un-marked suspects, as its computed plan; a plan for another
    case or choice is not kept (the next page plans again)."""
    if (p.case is case() and p.objective == objective() and p.not_suspect == not_suspect()
            and p.clean_source == clean_source()):
        st.session_state[COMPUTED] = p
        _changed()


def plan() -> RepairPlan | None:
    """The plan the reviewer is working on: the edited one, else the computed one."""
    edited = st.session_state.get(PLAN)
    return edited if edited is not None else computed_plan()


def plan_if_ready() -> RepairPlan | None:
    """:func:`plan` when it needs no planning now (edited, or computed already for this
    case and choice), else None: what the sidebar shows without planning a large case on
    every page, the Load page's first run included."""
    edited = st.session_state.get(PLAN)
    if edited is not None:
        return edited  # type: ignore[no-any-return]
    c = case()
    return None if c is None else _computed_if_ready(c)


def set_plan(new: RepairPlan | None) -> None:
    """Store an edited plan (None resets to the computed plan); a stale result goes."""
    if new is None or not new.edits:
        st.session_state.pop(PLAN, None)
    else:
        st.session_state[PLAN] = new
    st.session_state[PLAN_EDITOR_VERSION] = st.session_state.get(PLAN_EDITOR_VERSION, 0) + 1
    _changed()


def set_plan_as_run(label: str, ran: RepairPlan) -> None:
    """Open the working case with the plan a benchmark method ran on it (`ran`, described
    by `label`): its objective and edits become the session's, and the pages compare the
    plan to it from now on (`as_run_changes`) until another case is loaded."""
    set_objective(ran.objective)
    set_plan(ran)
    st.session_state[AS_RUN] = (label, ran)


def plan_as_run() -> tuple[str, RepairPlan] | None:
    """(label, plan) of the benchmark method's plan the working case was opened with."""
    return st.session_state.get(AS_RUN)


def as_run_changes(now: RepairPlan) -> list[dict[str, str]]:
    """How `now` differs from the plan the working case was opened with: the objective,
    then each node whose decision changed (`node`, `as run`, `now`); empty when the same."""
    held = plan_as_run()
    if held is None:
        return []
    ran = held[1]
    changes = []
    if ran.objective != now.objective:
        changes.append({"node": "(objective)", "as run": ran.objective, "now": now.objective})
    if list(ran.case.faults) != list(now.case.faults):
        changes.append({"node": "(faults)", "as run": ", ".join(ran.case.faults),
                        "now": ", ".join(now.case.faults)})
    for decisions, were in ((now.memory, ran.memory), (now.steps, ran.steps)):
        for node, action in decisions.items():
            if were.get(node) != action:
                changes.append({"node": node, "as run": str(were.get(node)), "now": action})
    return changes


def plan_key(p: RepairPlan) -> str:
    """A digest of everything a plan decides (for caches and result freshness); computed
    once per plan object in a session (it costs a JSON dump of every decision)."""
    held = st.session_state.setdefault(PLAN_KEYS, {})
    hit = held.get(id(p))
    if hit is not None and hit[0] is p:
        return str(hit[1])
    key = _plan_digest(p)
    if len(held) > 8:
        held.clear()
    held[id(p)] = (p, key)
    return key


def _plan_digest(p: RepairPlan) -> str:
    data = {"case": p.case.case_id, "faults": p.case.faults, "memory": p.memory,
            "steps": p.steps, "edits": [e.model_dump(mode="json") for e in p.edits]}
    if p.not_suspect:
        data["not_suspect"] = sorted(p.not_suspect)
    if p.clean_source:
        data["clean_source"] = dict(p.clean_source)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def approval_hasher() -> Any:
    """The session's `ApprovalHasher`: the case and each plan's report are hashed once,
    whatever the plan edits and replays after (the session never changes a case or plan
    in place: every change stores a new object)."""
    from repair_core.approvals import ApprovalHasher

    hasher = st.session_state.get(HASHER)
    if hasher is None:
        hasher = st.session_state[HASHER] = ApprovalHasher()
    return hasher


def result(p: RepairPlan | None = None) -> Any:
    """The replay result of the current plan (or of `p`), or None (a result of another
    plan is stale)."""
    if p is None:
        p = plan()
    if p is None or st.session_state.get(RESULT_KEY) != plan_key(p):
        return None
    return st.session_state.get(RESULT)


def set_result(res: Any, p: RepairPlan) -> None:
    st.session_state[RESULT] = res
    st.session_state[RESULT_KEY] = plan_key(p)
    _changed()


# the plans whose replays are kept: an edited plan is another plan, and the session keeps
# the replays of only this many of them (the ones used last)
_PLANS_WITH_REPLAYS = 3


def replays() -> list[KeptReplay]:
    """The replays kept of the current plan, oldest first (at most `REPLAYS_KEPT`)."""
    p = plan()
    if p is None:
        return []
    return list(st.session_state.get(REPLAYS, {}).get(plan_key(p), []))


def keep_replay(res: Any, p: RepairPlan, client: Any, seconds: float) -> KeptReplay:
    """Keep `res`, replayed from `p` by `client` in `seconds`, among `p`'s replays (the
    oldest beyond `REPLAYS_KEPT` is dropped), and make it the current result."""
    held: dict[str, list[KeptReplay]] = st.session_state.setdefault(REPLAYS, {})
    key = plan_key(p)
    kept = held.pop(key, [])  # re-inserted last: the plan used most recently
    number = kept[-1].number + 1 if kept else 1
    new = kept_replay(number, res, client, seconds)
    held[key] = [*kept, new][-REPLAYS_KEPT:]
    while len(held) > _PLANS_WITH_REPLAYS:
        del held[next(iter(held))]
    set_result(res, p)
    return new


def current_replay(p: RepairPlan) -> KeptReplay | None:
    """The kept replay that is `p`'s current result, or None."""
    res = result(p)
    if res is None:
        return None
    for kept in reversed(st.session_state.get(REPLAYS, {}).get(plan_key(p), [])):
        if kept.result is res:
            return kept  # type: ignore[no-any-return]
    return None


def restore_replay(kept: ReplayOfPlan) -> KeptReplay:
    """Make `kept`'s replay, read back after a reload, the result of the plan it replayed
    (the current result whenever the session's plan is that one) and its first kept
    replay; call after the case, faults, objective and edits are restored (each of those
    drops the result)."""
    replay = kept.replay.model_copy(update={"restored": True})
    held: dict[str, list[KeptReplay]] = st.session_state.setdefault(REPLAYS, {})
    held[kept.plan_key] = [replay]
    st.session_state[RESULT] = replay.result
    st.session_state[RESULT_KEY] = kept.plan_key
    _changed()
    return replay


def sample_paths() -> dict[str, Path | None]:
    """Sample cases: the built-in spec example, then `sample_traces/**/*.json` cases, the
    hand-written ones at the top of the folder first (then the suites' folders)."""
    found: dict[str, Path | None] = {EXAMPLE: None}
    if SAMPLES.is_dir():
        for path in sorted(SAMPLES.rglob("*.json"),
                           key=lambda p: (len(p.relative_to(SAMPLES).parts), p)):
            name = path.name
            if name.endswith(".plan.json") or name in ("summary.json", "manifest.json"):
                continue
            if any(part in ("results", "runs") for part in path.relative_to(SAMPLES).parts):
                continue
            found[str(path.relative_to(ROOT))] = path
    return found


def sample_choices() -> list[str]:
    """The samples a picker offers: :func:`sample_paths` but a file holding exactly the
    built-in spec example (`sample_traces/figure1-travel.json` is a copy of it), which the
    picker would list twice. Its name still loads it (an address naming it)."""
    from repair_core._fixtures import fixture_path

    example = fixture_path("figure1-travel.json").read_bytes()
    names = []
    for name, path in sample_paths().items():
        if path is not None and path.stat().st_size == len(example) \
                and path.read_bytes() == example:
            continue
        names.append(name)
    return names


def load_sample(name: str) -> Case:
    """Load a sample by its name in :func:`sample_paths` (raises CaseError)."""
    from repair_core import load_case, load_example

    path = sample_paths().get(name)
    return load_example() if path is None else load_case(path)
