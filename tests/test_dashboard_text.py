"""dgrr_dashboard.text: untrusted strings made inert for Markdown elements and file names
(its doctests are not collected: `testpaths` holds tests/ and repair_core/ only)."""

from __future__ import annotations

import ast
import doctest
import re
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from dgrr_dashboard import text
from dgrr_dashboard.text import code, file_stem, md


def test_doctests_hold():
    failures, tried = doctest.testmod(text)
    assert tried >= 6 and failures == 0


@given(st.text())
@example("\u2060")  # a word joiner of the text's own (hypothesis found it)
def test_md_leaves_no_markdown_syntax_and_shows_the_text(s):
    out = md(s)
    # every ASCII punctuation character is escaped ...
    assert not re.search(r"[!-/:-@\[-`{-~]", re.sub(r"\\[!-/:-@\[-`{-~]", "", out))
    # ... and removing the escapes and word joiners gives the text back, on one line (the
    # joiners md adds are invisible; the text's own are removed from both sides)
    shown = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", out).replace("\u2060", "")
    assert shown == " ".join(s.split()).replace("\u2060", "")


@given(st.text())
def test_code_span_cannot_be_broken_out_of(s):
    out = code(s)
    fence = re.match(r"`+", out).group(0)
    inner = out[len(fence):-len(fence)]
    assert out.endswith(fence) and fence not in inner


@given(st.text())
def test_file_stem_is_one_plain_name(s):
    stem = file_stem(s)
    assert 1 <= len(stem) <= 80 and not stem.startswith(".")
    assert all(ch.isalnum() or ch in "-_." for ch in stem)
    assert "/" not in stem and "\\" not in stem


def test_file_stem_keeps_an_ordinary_case_id():
    assert file_stem("fig1-travel") == "fig1-travel"
    assert file_stem("ctl_003.v2") == "ctl_003.v2"
    assert file_stem("..") == "case"


DASHBOARD = Path(__file__).resolve().parent.parent


def _table_calls() -> list[tuple[str, ast.Call]]:
    calls = []
    for path in [*DASHBOARD.glob("pages/*.py"), *DASHBOARD.glob("dgrr_dashboard/*.py"),
                 DASHBOARD / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("dataframe", "data_editor") \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "st":
                calls.append((f"{path.name}:{node.lineno}", node))
    return calls


def test_every_table_shows_missing_values_as_missing():
    # Streamlit writes "None" in a cell whose value is None, which reads like a value
    calls = _table_calls()
    assert len(calls) >= 15
    for where, call in calls:
        given = {k.arg: k.value for k in call.keywords}
        assert "placeholder" in given, f"{where}: st.{call.func.attr} without placeholder="
        value = given["placeholder"]
        assert isinstance(value, ast.Name) and value.id == "MISSING", where
