"""How the Approve page's write-back panel shows a refusal of `dgrr apply`: as many
problems as the refusal lists, under what they are of, and no empty transcript of a
command that said nothing (AppTest of `apply_panel` with the session's last dry run set)."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

# What `dgrr apply` (and so the panel's dry run) said of a replay whose plan, edited on
# the Plan page, refreshes a cleaned source: one problem, its message broken over a line.
ONE_PROBLEM = ("RESULT: report.decisions: no plan of the case takes them (plan edit refused:\n"
               "  - s15: is a diagnosed fault; it is never evidence again and never re-run, "
               "even forced (refresh))")
TWO_PROBLEMS = ("plan edit refused:\n  - s1: is the final answer\n  - s2: is a diagnosed fault")


def _panel(refusal: str) -> None:
    import streamlit as st

    from dgrr_dashboard.apply_panel import ApplyRun, apply_panel

    st.session_state["dgrr_w_apply_run"] = ApplyRun(repair="k", write=False, lines=[],
                                                    refusal=refusal)
    apply_panel("sqlite:///unused.db", object(), object(), repair="k", reviewer="Ana")


@pytest.fixture()
def store_configured(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("DGRR_APPLY_TO", "langgraph")
    monkeypatch.setenv("DGRR_APPLY_STORE", "agent_stores:sqlite_store")


def _shown(refusal: str) -> tuple[str, list[str]]:
    at = AppTest.from_function(_panel, args=(refusal,), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    [error] = at.error
    return re.sub(r"\\(.)", r"\1", error.value), [c.value for c in at.code]


@pytest.mark.usefixtures("store_configured")
def test_a_refusal_broken_over_a_line_is_one_problem_under_its_lead():
    error, code = _shown(ONE_PROBLEM)
    assert "Dry run: refused, nothing written** (1 problem)" in error
    assert "no plan of the case takes them (plan edit refused:" in error
    assert "- s15: is a diagnosed fault" in error
    assert code == []  # the command was refused before it said anything


@pytest.mark.usefixtures("store_configured")
def test_each_item_a_refusal_lists_is_a_problem():
    error, _ = _shown(TWO_PROBLEMS)
    assert "(2 problems)" in error
    assert "- s1: is the final answer" in error and "- s2: is a diagnosed fault" in error
    assert "- plan edit refused:" not in error  # the lead is not a problem of its own


def test_the_widgets_doctests_hold():
    import doctest

    from dgrr_dashboard import widgets

    failures, tried = doctest.testmod(widgets)
    assert tried >= 4 and failures == 0
