"""The Approve page's write-back: a dry run, then the apply, of the approved repair to the
store the operator configured (`settings.apply_target`), through the very function `dgrr
apply` calls (`repair_core.integrations.apply_result`), each check and its outcome shown
as plain text, refused exactly as the command refuses. Apply is offered only after a dry
run of the same plan and result in the session; a visitor of a team dashboard never gets
here (the page stops for sign-in first).

The content check apply makes (what it will write, against every fault) runs in the
upload worker when the worker is used (team mode, by default), with the operator's model
judge when one is set, as the Approve page's does (`result_check`); a check that did not
finish there is not certified and the write is refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import streamlit as st
from pydantic import BaseModel

from repair_core import DgrrError
from repair_core.replay import replay_again

from .judge_settings import JudgeSettings
from .result_check import SETTING_UNUSABLE, UNFINISHED, check_in_worker, where_checked
from .settings import apply_target, approvals_log, trust_setting
from .state import session_ended
from .text import code
from .widgets import refusal_problems, show_problems

__all__ = ["ApplyRun", "apply_panel", "run_apply"]

_RUN = "dgrr_w_apply_run"  # the last dry run or apply of this session


class ApplyRun(BaseModel):
    """One dry run or apply from the page, as shown."""

    repair: str
    """Which plan and result it was of (the page's key for them)."""
    write: bool
    """True for an apply, False for a dry run."""
    lines: list[str]
    """What `dgrr apply` says, line by line (checks and their outcomes included)."""
    refusal: str | None = None
    """Why nothing was written, when refused."""


def run_apply(url: str, plan: Any, result: Any, *, write: bool, reviewer: str | None,
              judge: JudgeSettings | None = None,
              ended: Callable[[], bool] | None = None) -> ApplyRun:
    """A dry run (or, with `write`, the apply) of `result`, the replay of `plan`, to the
    configured store, checked against the approvals log at `url` as `dgrr apply` checks
    it, its content check with the operator's model `judge` (None: the lexical judge
    alone) in the upload worker when the worker is used: what it said, and its refusal
    if any."""
    from repair_core.approvals import result_data
    from repair_core.integrations.apply_result import apply_result, log_checks

    lines: list[str] = []
    target, problems = apply_target()
    if target is None:
        return ApplyRun(repair="", write=write, lines=[], refusal="; ".join(problems) or
                        "no store is configured ([dgrr] apply_to and apply_store)")
    data = result_data(result) or {}
    verification, unchecked = None, None
    here, unusable = where_checked()
    if unusable:
        return ApplyRun(repair="", write=write, lines=[],
                        refusal=f"{SETTING_UNUSABLE}: " + "; ".join(unusable))
    if not here:
        # as `dgrr apply`: no suspected source but those the result names; the result
        # made again there too, not in the server's process (a large case's repair would
        # hold every other session up)
        verification, why, refusal = check_in_worker(plan.case, json.dumps(data), [],
                                                     judge=judge, ended=ended, recompute=True)
        if why == UNFINISHED and refusal:
            # the worker refused the result (a gate rule, the result made again) or
            # stopped on it: refused as `dgrr apply` refuses it, before any check is shown
            return ApplyRun(repair="", write=write, lines=[], refusal="; ".join(refusal))
        if why is not None:
            unchecked = "; ".join([why, *refusal])
    try:
        trust, against = log_checks(trust_setting(), None)
        log = approvals_log(url)
        try:
            apply_result(log, plan.case, data, target, write=write, reviewer=reviewer,
                         trust=trust, against=against,
                         judge=judge.model_judge() if here and judge is not None else None,
                         say=lines.append, warn=lines.append, verification=verification,
                         unchecked=unchecked,
                         # with the worker, made again in its check above: a result it
                         # refused is refused there, one past its limit is unchecked
                         recompute=replay_again if here else None,
                         to_write="press Apply to write")
        finally:
            log.close()
    except DgrrError as exc:
        return ApplyRun(repair="", write=write, lines=lines, refusal=str(exc))
    return ApplyRun(repair="", write=write, lines=lines)


def _last(repair: str) -> ApplyRun | None:
    """The session's last dry run or apply, when it was of `repair`."""
    last = st.session_state.get(_RUN)
    return last if isinstance(last, ApplyRun) and last.repair == repair else None


def _run(url: str, plan: Any, result: Any, write: bool, reviewer: str | None,
         judge: JudgeSettings | None, repair: str) -> None:
    last = _last(repair)
    if write and (last is None or last.refusal is not None or last.write):
        return  # Apply only right after a dry run of this repair that was not refused
    done = run_apply(url, plan, result, write=write, reviewer=reviewer, judge=judge,
                     ended=session_ended())
    st.session_state[_RUN] = done.model_copy(update={"repair": repair})


def apply_panel(url: str, plan: Any, result: Any, *, repair: str, reviewer: str | None,
                judge: JudgeSettings | None = None) -> None:
    """The section: the configured store, *Dry run*, *Apply* (after a dry run of this
    `repair`, the page's key for the plan and result), and what the last one said."""
    st.subheader("Write back to the store")
    target, problems = apply_target()
    if problems:
        show_problems("The store setting is not usable", problems)
        return
    if target is None:
        st.caption("No store is configured: the operator sets `apply_to` and `apply_store` "
                   "in the `[dgrr]` section of the secrets (or `$DGRR_APPLY_TO`, "
                   "`$DGRR_APPLY_STORE`); until then, `dgrr apply` writes back from the "
                   "command line.")
        return
    st.caption(f"Store: {target.to} {code(target.store)}"
               + (f" · vault {code(target.vault)}" if target.vault else "")
               + " · the same checks as `dgrr apply`; nothing is written by a dry run.")
    if result is None:
        st.caption("Replay the plan first: only a replayed, approved repair is applied.")
        return
    if not reviewer or not reviewer.strip():
        st.caption("Type the reviewer's name in the form above: the apply is recorded "
                   "under it.")
    last = _last(repair)
    dry_done = last is not None and last.refusal is None and not last.write
    c1, c2, _ = st.columns([1, 1, 4])
    # the runs happen in the buttons' callbacks, before the page is drawn again: the
    # Apply button is then drawn knowing the dry run that just finished
    c1.button("Dry run", key="dgrr_w_apply_dry", on_click=_run,
              args=(url, plan, result, False, reviewer, judge, repair))
    c2.button("Apply", type="primary", key="dgrr_w_apply_go",
              disabled=not dry_done or not (reviewer or "").strip(),
              help="After a dry run of this plan and result that was not refused.",
              on_click=_run, args=(url, plan, result, True, reviewer, judge, repair))
    if last is None:
        return
    what = "Apply" if last.write else "Dry run"
    if last.refusal is not None:
        lead, problems = refusal_problems(last.refusal)
        show_problems(f"{what}: refused, nothing written", problems, lead=lead)
        if not last.lines:
            return  # refused before the command said anything: no empty transcript
    elif last.write:
        st.success("Applied: the write-back is recorded in the approvals log next to its "
                   "approval.")
    else:
        failed = [x for x in last.lines if x.startswith("check ") and ": failed" in x]
        if failed:
            st.warning(f"Dry run: nothing written; {len(failed)} check(s) failed, so Apply "
                       "will be refused until they pass.")
        else:
            st.info("Dry run: nothing written; every check passed. Apply performs these "
                    "operations.")
    # what the command says, as plain text: it quotes case ids and texts
    st.code("\n".join(last.lines) or "(nothing said)", language=None, wrap_lines=True)
