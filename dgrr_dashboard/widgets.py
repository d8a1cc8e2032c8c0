"""Pieces every page shows: the sidebar status, the 'load a case first' stop, problem
lists, the answer diff and the embedded graph."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import streamlit as st

from dgrr_dashboard.graph_html import graph_html
from repair_core import RepairPlan
from repair_core.case._trace import span_labels, step_trace

from . import address, state
from .text import MISSING, code, md

_SIDEBAR_SLOT = "_dgrr_sidebar_slot"
_NAVIGATED = "_dgrr_navigated"  # this session has run a page (a rerun would lose clicks)


# Streamlit cuts a checkbox's label to one line with an ellipsis: on the Approve page that
# hid the end of the warning a reviewer ticks to acknowledge ("This plan has not been
# replayed: you would approve the plan only, with no …" at 1280 px), and on the Graph page
# "Affected subgraph only". The labels of the page's checkboxes wrap instead.
_WRAP_CHECKBOX_LABELS = (
    "<style>[data-testid='stMain'] [data-testid='stCheckbox'] .stMarkdownEllipsis, "
    "[data-testid='stMain'] [data-testid='stCheckbox'] .stMarkdownEllipsis p "
    "{white-space: normal; overflow: visible; text-overflow: clip;}</style>")

NARROW_WINDOW_PX = 1100
"""Below this window width the page's side margins shrink and the columns of a container
keyed with STACK_PREFIX go one under the other."""
WRAP_PREFIX = "dgrr_wrap_"
"""Key prefix of a container whose columns, in a window narrower than NARROW_WINDOW_PX, wrap
onto a new row rather than shrink below 10rem."""
STACK_PREFIX = "dgrr_stack_"
"""Key prefix of a container whose columns go one under the other in a window narrower
than NARROW_WINDOW_PX."""

# At a 900 px window the sidebar takes 300 px and Streamlit's 5rem side margins 160 more,
# leaving 440: five filters side by side were 75 px each (the Inbox's status filter showed
# a sliver of its first choice), the Graph page's checkbox labels broke a word across three
# lines and the picture beside its inspector was 320 px, where the default zoom (labels >=
# 11 px) cut off 10 of the Figure-1 graph's 19 nodes. A container keyed with WRAP_PREFIX
# wraps its columns there instead of shrinking them; one keyed with STACK_PREFIX puts them
# one under the other, so the picture takes the page's width.
_NARROW_LAYOUT = (
    "<style>"
    f"@media (max-width: {NARROW_WINDOW_PX - 0.02}px) {{"
    "[data-testid='stMainBlockContainer'] {padding-left: 1.5rem; padding-right: 1.5rem;}"
    f"[class*='st-key-{WRAP_PREFIX}'] [data-testid='stColumn'] {{min-width: 10rem;}}"
    f"[class*='st-key-{STACK_PREFIX}'] [data-testid='stColumn'] {{min-width: 100%;}}"
    "}</style>")


def page_setup(title: str) -> None:
    _through_navigation()
    st.set_page_config(page_title=f"dgrr · {title}", layout="wide")
    st.html(_WRAP_CHECKBOX_LABELS + _NARROW_LAYOUT)
    address.restore()
    st.session_state[_SIDEBAR_SLOT] = st.sidebar.empty()
    state.on_change(_after_change)
    sidebar_status()
    restored = st.session_state.pop(address.RESTORED, None)
    if restored is not None:
        (st.info if restored[0] == "info" else st.warning)(restored[1])
    address.keep()


def remembered(key: str, default: Any, options: Sequence[Any] | None = None) -> None:
    """Give the widget `key` (created after this call, with no default of its own) the value
    it had when the page was last left, else `default`: Streamlit forgets a widget's value
    when the page changes. A value no longer among `options` gives way to `default`."""
    store = _kept_key(key)
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(store, default)
    if options is not None and st.session_state[key] not in options:
        st.session_state[key] = default
    st.session_state[store] = st.session_state[key]


def remember(key: str, value: Any) -> None:
    """Set the :func:`remembered` widget `key` to `value`, now and on the next visit (from
    a callback, before the widget is drawn again)."""
    st.session_state[key] = value
    st.session_state[_kept_key(key)] = value


def _kept_key(key: str) -> str:
    return f"dgrr_kept_{key}"


def _after_change() -> None:
    sidebar_status()
    address.keep()


def _through_navigation() -> None:
    """Run this page through app.py's navigation. Until some session of this server has
    run app.py (which calls `st.navigation`), Streamlit serves the files of `pages/` by
    itself, naming the home page after its file ("app"): a first visit straight to a
    page's address did so for the whole server. Leaving that mode and running again
    runs app.py, and through it the page asked for. (`PagesManager.uses_pages_directory`
    is Streamlit's own flag, not its public API: tests/test_e2e_browser.py opens a page
    first on a fresh server and fails if this stops working.)"""
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False  # what `st.navigation` itself sets
        if _NAVIGATED not in st.session_state:  # a session's first run: nothing to lose
            st.session_state[_NAVIGATED] = True
            st.rerun()
    st.session_state[_NAVIGATED] = True


def sidebar_status() -> None:
    """Draw the working-case summary into the sidebar slot (again after every change of
    the case, faults, plan or result, so it never lags one run behind)."""
    slot = st.session_state.get(_SIDEBAR_SLOT)
    if slot is None:
        return
    c = state.case()
    with slot.container():
        st.markdown("**Working case**")
        if c is None:
            st.caption("none loaded — start on the Load page")
            return
        p = state.plan_if_ready()
        st.caption(f"{code(c.case_id)} · {md(c.domain or 'no domain')} · "
                   f"{len(c.trajectory)} steps · {len(c.memory)} records")
        st.caption("faults: " + (", ".join(code(f) for f in c.faults) or "none marked"))
        if p is None:
            # planning a large case takes seconds: the pages that need the plan make it
            st.caption("plan: not made yet (the first page that needs it makes it)")
            return
        st.caption(f"plan: {len(p.edits)} reviewer edit(s), replay {len(p.replay_set)} "
                   f"of {len(c.trajectory)} steps")
        st.caption("replay: " + ("done" if state.result(p) is not None
                                 else "not run for this plan"))


def require_case() -> Any:
    """The working case, or stop the page with a pointer to the Load page."""
    c = state.case()
    if c is None:
        st.info("No case is loaded yet. Load a sample or upload a case on the **Load** page.")
        st.page_link("pages/1_Load.py", label="Go to Load", icon=":material/folder_open:")
        st.stop()
    return c


def require_plan() -> RepairPlan:
    require_case()
    p = state.plan()
    assert p is not None
    return p


def show_problems(title: str, problems: Sequence[str], hint: str | None = None,
                  *, lead: str | None = None) -> None:
    """An error box: `title` (plain text), an optional `lead` saying what the problems are
    of, one line per problem (plain text, since problems quote case values), and an
    optional `hint`; neither the lead nor the hint is counted as a problem."""
    lines = "\n".join(f"- {md(p)}" for p in problems)
    text = f"**{md(title)}** ({len(problems)} problem{'s' if len(problems) != 1 else ''})"
    if lead:
        text += f"\n\n{md(lead)}"
    text += f"\n\n{lines}"
    if hint:
        text += f"\n\n{md(hint)}"
    st.error(text)


def check_line(verification: Any) -> str:
    """The caption under a replay's corrected answer (Replay, Compare): what the content
    check of what the agent reads next found (`verification`, a `Verification`; None: no
    check of it finished, so not certified, never clean), as Markdown."""
    found = (md(verification.summary()) if verification is not None
             else "not certified: no check of it finished")
    return (f"Content check of what the agent reads next: {found} (Approve checks it again "
            "and lists what is found)")


def refusal_problems(message: str) -> tuple[str | None, list[str]]:
    """A library refusal as the library writes it: the lines before its first `- ` item
    (what the items are of, None when there are none) and its items, each one problem; a
    line after an item continues it. A message without items is one problem: a line break
    in a sentence does not make two (`RESULT: ... (plan edit refused:\\n  - s15: ...)` is
    one problem under its lead).

    >>> refusal_problems("plan edit refused:\\n  - s1: a\\n  - s2: b\\n    more")
    ('plan edit refused:', ['s1: a', 's2: b more'])
    >>> refusal_problems("refused: no approval;\\nnothing written")
    (None, ['refused: no approval; nothing written'])
    """
    lead: list[str] = []
    items: list[str] = []
    for line in (x.strip() for x in message.splitlines()):
        if not line:
            continue
        if line.startswith("- "):
            items.append(line[2:].strip())
        elif items:
            items[-1] += " " + line
        else:
            lead.append(line)
    if not items:
        return None, [" ".join(lead)] if lead else []
    return " ".join(lead) or None, items


# Words, single punctuation marks and runs of spaces: "31A," is the word "31A" and a comma,
# so an answer that keeps "31A" but drops the comma marks the comma alone.
_TOKENS = re.compile(r"\w+|\s+|[^\w\s]")


def answer_diff_html(before: str, after: str) -> tuple[str, str]:
    """Both answers as HTML with removed words and punctuation struck in the first and
    added ones highlighted in the second (every token escaped; spaces are not compared).

    >>> answer_diff_html("Seat 31A, aisle.", "Seat 31A aisle.")[0]
    'Seat 31A<del style="background:#fdd">,</del> aisle.'
    """
    a, b = _TOKENS.findall(" ".join(before.split())), _TOKENS.findall(" ".join(after.split()))
    left: list[str] = []
    right: list[str] = []
    matcher = difflib.SequenceMatcher(lambda t: t.isspace(), a=a, b=b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        old = escape("".join(a[i1:i2]))
        new = escape("".join(b[j1:j2]))
        if op == "equal":
            left.append(old)
            right.append(new)
            continue
        for text, out, tag in ((old, left, "del"), (new, right, "mark")):
            if text.strip():  # a changed space is not marked
                colour = "#fdd" if tag == "del" else "#cfc"
                lead, core, trail = _split_space(text)
                out.append(f'{lead}<{tag} style="background:{colour}">{core}</{tag}>{trail}')
            else:
                out.append(text)
    return "".join(left), "".join(right)


def _split_space(text: str) -> tuple[str, str, str]:
    core = text.strip()
    lead = text[:len(text) - len(text.lstrip())]
    return lead, core, text[len(lead) + len(core):]


def answer_columns(before: str, after: str | None, *, id_prefix: str, titles: tuple[str, str],
                   missing: str) -> None:
    """The two answers side by side as a word diff in elements `#{id_prefix}-before` and
    `#{id_prefix}-after`; `missing` (a caption) stands in for an `after` of None."""
    left, right = answer_diff_html(before, after if after is not None else before)
    a1, a2 = st.columns(2)
    with a1:
        st.markdown(f"**{titles[0]}**")
        st.html(f'<div id="{id_prefix}-before">{left}</div>')
    with a2:
        st.markdown(f"**{titles[1]}**")
        if after is None:
            st.caption(missing)
        else:
            st.html(f'<div id="{id_prefix}-after">{right}</div>')


_GRAPHS = "dgrr_graph_html"  # digest -> HTML, in the session (no pickling on every run)


def _graph_html(digest: str, options: tuple[tuple[str, Any], ...], plan: RepairPlan,
                view: Any = None) -> str:
    held: dict[str, str] = st.session_state.setdefault(_GRAPHS, {})
    html = held.get(digest)
    if html is None:
        if len(held) >= 4:
            held.clear()
        html = held[digest] = graph_html(plan, view=view, **dict(options))
    return html


# Room the header (title, search box, legend) takes above the canvas inside the frame.
_HEADER_PX = 120


def graph_frame(p: RepairPlan, height: int = 700, *, key: str = "dgrr_w_graph",
                selected: str | None = None, view: Any = None,
                path: list[tuple[str, str]] | None = None,
                **options: Any) -> tuple[str, str | None]:
    """Embed the plan's graph (offline HTML in dgrr's component) and return the HTML and
    the id of a node clicked (or found by the search box) since the last run, if any.
    `view`: the `graph_view(p, **options)` the page already has (not computed again);
    `path`: the hops outlined (`repair_core.fault_path` of the selected node)."""
    from .component import clicked, graph_component

    opts = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
    opts += (("height", f"{height - _HEADER_PX}px"), ("panel", False))
    digest = f"{state.plan_key(p)}:{hash(opts)}"
    html = _graph_html(digest, opts, p, view)
    value = graph_component(html, key=key, digest=digest, height=height, selected=selected,
                            path=path)
    return html, clicked(value, f"{key}_seen", st.session_state)


def db_url() -> str | None:
    """The approvals database the dashboard writes to: on a shared dashboard (sign-in
    configured) the operator's (`[dgrr] db`, else `$DGRR_DB`), else the setting on the
    Approve page, else `$DGRR_DB`, else the default file."""
    from .settings import operator_setting, team_mode

    if team_mode():
        return operator_setting("db", "DGRR_DB")
    return st.session_state.get(state.DB) or os.environ.get("DGRR_DB") or None


def database_picker(title: str, key: str, caption: str, help: str) -> str:
    """An expander to set the approvals database (the queue lives there too) for the
    session; the database URL in force. `caption` names what the page does with it. On a
    shared dashboard the database is the operator's: shown (password hidden), not set."""
    from repair_core.approvals import db_url as resolve_db_url

    from .settings import shown_url, team_mode

    with st.expander(title):
        if team_mode():
            url = resolve_db_url(db_url())
            st.caption(f"{caption} {code(shown_url(url))} (set by the operator of this "
                       "dashboard).")
            return url
        url_in = st.text_input("Database URL or SQLite file", key=key,
                               value=st.session_state.get(state.DB) or "",
                               placeholder=resolve_db_url(None), help=help)
        st.session_state[state.DB] = url_in.strip() or None
        url = resolve_db_url(db_url())
        st.caption(f"{caption} {code(url)}.")
    return url


LINKED_IDS = 40  # premises or dependents shown as buttons; the rest in a table


def _goto(node: str, picker: str | None) -> None:
    st.session_state[state.SELECTED] = node
    if picker is not None:
        st.session_state[picker] = node


def _linked_ids(edges: list[tuple[str, str]], what: str, key: str, picker: str | None,
                known: Any, beside: bool = False) -> None:
    """Each id of `edges` as a button that inspects that node (within the app, never a
    link); past LINKED_IDS the rest are listed in a table."""
    import pandas as pd

    st.markdown(f"**{what}** ({len(edges)})")
    if not edges:
        st.caption("none")
        return
    cols = [st.container()] if beside else st.columns(2)
    for i, (nid, label) in enumerate(edges[:LINKED_IDS]):
        cols[i % len(cols)].button(f"{md(nid)} · {md(label)}", key=f"{key}_{what}_{i}",
                           on_click=_goto, args=(nid, picker if nid in known else None),
                           help=f"inspect {nid}", width="stretch")
    if len(edges) > LINKED_IDS:
        st.dataframe(pd.DataFrame(edges[LINKED_IDS:], columns=["id", "label"]),
                     hide_index=True, width="stretch", placeholder=MISSING)


def node_details_panel(p: RepairPlan, node: str, *, beside: bool = False,
                       picker: str | None = None, known: Any = (),
                       step_here: bool = True) -> None:
    """Everything about one node, as plain text: content, status, what the imported
    trace recorded of the step (start, duration, tokens, cost), decision, reason, the
    path from the fault, premises and dependents (buttons that inspect that node), and
    the replay's cost for a step. `beside`: one column (next to the graph); `picker`: the
    page's node picker to move with a click on an id among `known`; `step_here=False`:
    the page shows the `step_panel` itself, somewhere wider."""
    from repair_core.viz import node_detail

    d = node_detail(p, node)
    key = f"dgrr_w_nd_{node}"
    if beside:
        left = right = st.container()
    else:
        left, right = st.columns([3, 2])
    with left:
        st.markdown(f"{code(d.id)} · {md(d.type)} · analysis: **{md(d.cls)}**"
                    + (f" · seq {d.seq}" if d.seq is not None else ""))
        st.text(d.content)
        if d.trace is not None:
            st.markdown("**From the trace:** " + md(d.trace.describe()))
        if d.extra:
            with st.expander(f"Other fields ({len(d.extra)})"):
                st.json(d.extra)
        st.markdown(f"**Decision:** {md(d.decision or '—')}")
        st.markdown(f"**Reason:** {md(d.reason or '—')}")
        if d.path_from_fault:
            st.markdown("**Path from the fault:** "
                        + " → ".join(code(x) for x in d.path_from_fault))
        res = state.result()
        outcome = (next((o for o in res.report.steps if o.id == node), None)
                   if res is not None else None)
        if outcome is None and _recorded_call(d.trace):
            with st.expander("The original run's model call: prompt and completion"):
                original_call_panel(d.trace, [])
        if res is not None and outcome is not None:
            st.markdown(f"**Replay:** {md(outcome.outcome)} · {outcome.llm_calls} model "
                        f"call(s) · {outcome.tokens} tokens")
            if outcome.detail:
                st.text(outcome.detail)
            if step_here:
                step_panel(p, node, res)
            else:
                st.caption("The original and replayed output, and the replay's model "
                           "calls, are below the picture.")
    with right:
        _linked_ids(d.premises, "Premises", key, picker, known, beside)
        _linked_ids(d.dependents, "Dependents", key, picker, known, beside)


def step_panel(p: RepairPlan, node: str, res: Any) -> None:
    """The step as the failed run had it and as the replay made it, side by side with a
    word diff of the outputs, and the replay's model calls: the rendered prompt (each
    message with its role), the reply and its tokens. The original step's timing, tokens
    and cost, when the trace recorded them, are in the panel above it."""
    step = next((s for s in p.case.trajectory if s.id == node), None)
    new = next((s for s in res.trajectory.trajectory if s.id == node), None)
    if step is None or new is None:
        return
    held = st.session_state.get(state.REPLAY_CALLS)
    calls = held[1].get(node, []) if held is not None and held[0] is res else []
    trace = step_trace(step)
    if new.text == step.text and not calls and not _recorded_call(trace):
        return
    st.markdown("**Original and replayed output**")
    before, after = answer_diff_html(step.text, new.text)
    o1, o2 = st.columns(2)
    o1.caption("original (failed run)")
    o1.html(f'<div class="dgrr-step-before">{before}</div>')
    o2.caption("replay")
    o2.html(f'<div class="dgrr-step-after">{after}</div>')
    if _recorded_call(trace):
        original_call_panel(trace, calls)
    if not calls:
        st.caption("No model call of this replay is held for this step (a tool, a read, or "
                   "a replay from another session).")
        return
    for i, call in enumerate(calls, start=1):
        with st.expander(f"Model call {i} of {len(calls)}: {call.stage}, attempt "
                         f"{call.attempt}, {call.tokens} tokens"
                         + (" — refused" if call.error else "")):
            m1, m2 = st.columns(2)
            m1.caption("prompt sent")
            m1.text("\n\n".join(f"[{m.get('role', '?')}]\n{m.get('content') or ''}"
                                 for m in call.messages))
            m2.caption("reply")
            m2.text(call.reply if call.reply is not None else "(no reply)")
            if call.error:
                m2.text(f"refused: {call.error}")


def _recorded_call(trace: Any) -> bool:
    return trace is not None and bool(trace.input_messages or trace.output_messages)


DIFF_TOKENS = 6000
"""Above this many words and signs in two texts together, they are shown side by side
without a word diff (its matching grows with the product of the two lengths)."""


def _beside(left: Any, right: Any, before: str, after: str, captions: tuple[str, str]
            ) -> None:
    """`before` in `left` and `after` in `right`, with a word diff when both are short
    enough (every word escaped), else as plain text."""
    left.caption(captions[0])
    right.caption(captions[1])
    if len(_TOKENS.findall(before)) + len(_TOKENS.findall(after)) <= DIFF_TOKENS:
        was, now = answer_diff_html(before, after)
        left.html(f'<div class="dgrr-call-before">{was}</div>')
        right.html(f'<div class="dgrr-call-after">{now}</div>')
        return
    left.text(before)
    right.text(after)
    right.caption("Too long to compare word by word: shown as they are.")


def original_call_panel(trace: Any, calls: Sequence[Any]) -> None:
    """The original run's model call for a step, as its span recorded it (model, prompt
    and completion, message by message), and, when the replay called a model for the
    step, its prompt and reply beside them with a word diff (the replay's last attempt)."""
    from .original_run import messages_text

    prompt = messages_text(trace.input_messages) or "(not recorded)"
    completion = messages_text(trace.output_messages) or "(not recorded)"
    st.markdown("**The original run's model call**"
                + (f" · model {code(trace.model)}" if trace.model else "")
                + " (as its span recorded it)")
    if not calls:
        o1, o2 = st.columns(2)
        o1.caption("prompt sent (original run)")
        o1.text(prompt)
        o2.caption("completion (original run)")
        o2.text(completion)
        return
    call = calls[-1]
    replayed = messages_text(call.messages)
    p1, p2 = st.columns(2)
    _beside(p1, p2, prompt, replayed, ("prompt sent (original run)",
                                       f"prompt sent (replay, {call.stage})"))
    r1, r2 = st.columns(2)
    _beside(r1, r2, completion, call.reply if call.reply is not None else "(no reply)",
            ("completion (original run)", "reply (replay)"))


def decision_legend_html(colour_by: str = "decision") -> str:
    """The one colour legend of the plan's decisions (repair_core.viz.DECISION_STYLES),
    the same on every page that colours by decision; with `colour_by="analysis"`, the
    legend of the analysis classes (repair_core.viz.NODE_CLASSES) instead."""
    from repair_core.viz import colour_legend

    analysis = colour_by == "analysis"
    keys = "".join(
        f'<span style="margin-right:14px" title="{escape(meaning)}" data-key="{escape(key)}">'
        f'<span style="display:inline-block;width:12px;height:12px;border-radius:50%;'
        f'background:{escape(colour)};border:1px solid #555;margin-right:4px"></span>'
        f"{escape(label)}</span>"
        for key, colour, label, meaning in colour_legend("analysis" if analysis else "decision"))
    title = "the node's class in the analysis" if analysis else "the plan's decision"
    return (f'<div class="dgrr-decision-legend" style="font-size:13px;line-height:1.9">'
            f"<b>Colour = {title}</b>: {keys}</div>")


# Words the pages use for a decision's effect -> its colour key.
_EFFECT_KEYS = {"deleted": "delete", "quarantined": "quarantine", "restored": "restore",
                "replayed": "replay", "refreshed": "refresh", "invalidated": "invalidate",
                "kept": "keep"}


def decision_colour(word: object) -> str | None:
    """The decision colour of a decision or its effect (`quarantine`, `quarantined`,
    `replayed (planned)`), or None for a word that names no decision."""
    from repair_core.viz import DECISION_STYLES

    head = str(word).split(" ")[0]
    # the word "kept" says nothing of support: its colour is keep's (grey); the green of
    # "keep (supported)" comes from the plan (`coloured`'s `keys`)
    key = _EFFECT_KEYS.get(head) or (head if head in DECISION_STYLES else None)
    return DECISION_STYLES[key][0] if key else None


def pale(colour: str, strength: float = 0.45) -> str:
    """`colour` (#rrggbb) mixed with white, light enough for dark text on it.

    >>> pale("#000000", 0.5)
    '#808080'
    """
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * strength):02x}" for c in rgb)


def coloured(frame: Any, column: str, keys: Mapping[str, str] | None = None) -> Any:
    """`frame` styled with the decision colour (made pale, the text stays black) as the
    background of `column`'s cells: the data grid draws a cell's background and text
    colour from a Styler, not its borders. With `keys` (node id -> colour key,
    `repair_core.viz.decision_keys`), a kept row's colour is its node's in the plan: the
    green of "keep (supported)" only for a node kept by independent support, grey for an
    unaffected one (the row's node is its `id` column). For a page of at most a thousand
    rows (styling is per cell)."""
    from repair_core.viz import DECISION_STYLES

    def css(value: object, node: object = None) -> str:
        colour = decision_colour(value)
        if keys is not None and colour == DECISION_STYLES["keep"][0]:
            colour = DECISION_STYLES["kept" if keys.get(str(node)) == "kept" else "keep"][0]
        return f"background-color: {pale(colour)}; color: #000000" if colour else ""

    if column not in getattr(frame, "columns", ()) or len(frame) > PAGE_ROWS:
        return frame
    if keys is None or "id" not in frame.columns:
        return frame.style.map(css, subset=[column])
    ids = frame["id"]
    return frame.style.apply(lambda cells: [css(v, ids[i]) for i, v in cells.items()],
                             subset=[column])


def legend_html(colour_by: str = "decision") -> str:
    """The graph legend: the colours (of the decisions, or of the analysis classes), the
    node shapes and the edge styles (static text, escaped all the same)."""
    from repair_core.viz import EDGE_STYLES

    edges = "".join(
        f'<span style="margin-right:12px" title="{escape(meaning)}"><span style="display:'
        f'inline-block;width:22px;border-top:2px {"dashed" if dashed else "solid"} '
        f'{escape(colour)};margin-right:4px;vertical-align:middle"></span>{escape(label)}</span>'
        for label, (dashed, colour, meaning) in EDGE_STYLES.items())
    edges += ('<span title="recorded by an importer as inferred, not observed"><span style="'
              "display:inline-block;width:22px;border-top:2px dotted #4c72b0;margin-right:4px;"
              'vertical-align:middle"></span>inferred</span>')
    return (f'<div id="dgrr-page-legend" style="font-size:13px;line-height:1.9">'
            f"{decision_legend_html(colour_by)}"
            "<div><b>Shapes</b>: ◆ user turn · ● trajectory step · ■ memory record</div>"
            f"<div><b>Edges</b> (premise → dependent; hover one in the picture for its "
            f"label): {edges}</div></div>")


def replay_order_line(plan: RepairPlan, shown: int = 12,
                      spans: Mapping[str, str] | None = None) -> None:
    """The plan's replay order: its first `shown` ids on one line, all of them in an
    expander (on a large case it runs to thousands of ids, which must not push the page's
    action down); an imported step's id with its span's name beside it (`span_labels`,
    or `spans` when the page holds them already), as `dgrr plan` prints it."""
    order = plan.replay_order()
    if spans is None:
        spans = span_labels(plan.case.trajectory, set(order))

    def named(sid: str, show: Any) -> str:
        return show(sid) + (f" [{show(spans[sid])}]" if sid in spans else "")

    head = " → ".join(named(s, code) for s in order[:shown])
    more = len(order) - shown
    st.markdown(f"**Replay order** ({len(order):,} step{'s' if len(order) != 1 else ''}): "
                + (head or "nothing to replay") + (f" → … ({more:,} more)" if more > 0 else ""))
    if more > 0:
        with st.expander(f"the whole replay order ({len(order):,} steps)"):
            st.text(" → ".join(named(s, str) for s in order))


PAGE_ROWS = 1000


def page_of(rows: Any, key: str, size: int = PAGE_ROWS) -> Any:
    """The page of `rows` (a DataFrame or a list) the reviewer chose: a table of a large
    case is sent to the browser one page at a time, with a page picker above it."""
    n = len(rows)
    if n <= size:
        return rows
    pages = (n + size - 1) // size
    c1, c2 = st.columns([1, 4])
    number = int(c1.number_input("Page", min_value=1, max_value=pages, value=1, step=1,
                                 key=key))
    start = (number - 1) * size
    c2.caption(f"rows {start + 1}–{min(start + size, n)} of {n} ({pages} pages of {size})")
    return rows[start:start + size]
