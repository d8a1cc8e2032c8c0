"""The graph picture as data: colour classes, legend, timeline layout, node details and
the large-graph neighbourhood. Nothing here imports pyvis or streamlit; `_html.py` and the
dashboard only draw what this module decides.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from ..case._trace import StepTrace, span_name, step_trace
from ..graph._graph import CHAIN
from ..plan._plan import RepairPlan
from ..plan._suspects import BY_LINEAGE
from ._colours import (
    COLOUR_BY,
    NODE_CLASSES,
    ColourBy,
    NodeClass,
    colour_of,
    node_class,
    node_classes,
)

__all__ = [
    "NodeClass",
    "NODE_CLASSES",
    "EDGE_STYLES",
    "LAYOUTS",
    "PHYSICS_LIMIT",
    "NEIGHBOURHOOD_LIMIT",
    "LABEL_FONT_PX",
    "MIN_LABEL_PX",
    "DOT_SIZE",
    "label_width",
    "ViewNode",
    "ViewEdge",
    "GraphView",
    "NodeDetail",
    "node_class",
    "node_classes",
    "legend",
    "graph_view",
    "node_detail",
    "timeline_positions",
    "affected_neighbourhood",
    "escape_html",
    "json_for_script",
]

# Edge label -> (dashed, colour, meaning).
EDGE_STYLES: dict[str, tuple[bool, str, str]] = {
    CHAIN: (True, "#bbbbbb", "execution order only (does not propagate)"),
    "initiate": (False, "#7f7f7f", "user turn started the step"),
    "cite": (False, "#4c72b0", "cites a premise"),
    "support": (False, "#2ca02c", "sufficient support"),
    "produce": (False, "#222222", "produced"),
    "delete": (False, "#d62728", "deleted or retired"),
    "update": (False, "#8c564b", "updated"),
    "consolidate": (False, "#9467bd", "consolidated"),
    "supersede": (False, "#17becf", "superseded"),
    "derive": (False, "#e377c2", "derived"),
}

LAYOUTS = ("timeline", "force")
# Above this many nodes the physics simulation is switched off (it stalls the browser).
PHYSICS_LIMIT = 300
# Above this many nodes only the affected neighbourhood is drawn.
NEIGHBOURHOOD_LIMIT = 2000

# Timeline layout: turns and steps in trajectory order, one column each, columns
# dropped by a three-level stagger so neighbouring labels never meet; records in a lane below,
# ordered by time and spread so no two boxes touch. Sizes are canvas pixels at zoom 1.
LABEL_FONT_PX = 14
"""Node label font size (canvas px at zoom 1)."""
MIN_LABEL_PX = 11
"""The dashboard never zooms out so far that a label is drawn smaller than this."""
DOT_SIZE = 12
"""Radius of step dots and turn diamonds."""
LABEL_CHARS = 12
"""Text characters on a node label's second line (the full text is on hover and in the
details): short enough that a sample case fits the frame whole at >= MIN_LABEL_PX."""
_X_STEP_MIN = 46.0
_STAGGER = 70.0
_LEVELS = 3  # columns cycle through three heights, so same-height neighbours are 3 apart
_RECORD_Y = 230.0
_RECORD_ROW = 66.0
_RECORD_GAP = 14.0
_CHAR_PX = 0.56 * LABEL_FONT_PX  # average glyph width of the label font, rounded up


def label_width(label: str) -> float:
    """Estimated width in canvas px of a node's label (its longest line), generous."""
    return max((len(line) for line in label.split("\n")), default=0) * _CHAR_PX + 20.0


@dataclass(frozen=True)
class ViewNode:
    """One node as drawn."""

    id: str
    label: str
    title: str
    """Plain-text tooltip (vis-network shows string titles as text)."""
    cls: str
    colour: str
    kind: str
    type: str
    x: float | None = None
    y: float | None = None


@dataclass(frozen=True)
class ViewEdge:
    """One edge as drawn."""

    source: str
    target: str
    label: str
    dashed: bool
    colour: str
    inferred: bool = False
    """The edge was inferred by an importer rather than recorded (drawn with short dashes)."""


@dataclass(frozen=True)
class GraphView:
    """What to draw and what was left out."""

    nodes: list[ViewNode]
    edges: list[ViewEdge]
    total_nodes: int
    """Nodes in the whole graph."""
    physics: bool
    layout: str
    note: str | None = None
    """Says what is hidden, when anything is."""
    details: dict[str, str] = field(default_factory=dict, repr=False)
    """Node id -> plain-text detail (content, edges, decision and reason)."""
    focus: list[str] = field(default_factory=list)
    """Drawn nodes the default view must show: the faults and what they affect."""
    colour_by: ColourBy = "decision"
    """What the nodes' colours say: the plan's decision or the analysis class."""


@dataclass(frozen=True)
class NodeDetail:
    """Everything the dashboard shows for one selected node."""

    id: str
    kind: str
    type: str
    cls: str
    seq: int | None
    content: str
    decision: str | None
    reason: str | None
    path_from_fault: list[str]
    premises: list[tuple[str, str]]
    dependents: list[tuple[str, str]]
    extra: dict[str, Any]
    trace: StepTrace | None = None
    """What an imported trace recorded of the step's span (time, tokens, cost)."""

    def as_text(self) -> str:
        """The detail as plain text (for tooltips and the standalone HTML panel)."""
        lines = [f"{self.id} · {self.type} · {self.cls}"
                 + (f" · seq {self.seq}" if self.seq is not None else "")]
        lines.append(self.content)
        for k, v in self.extra.items():
            lines.append(f"{k}: {_short_json(v)}")
        if self.trace is not None:
            lines.append(f"trace: {self.trace.describe()}")
        if self.decision:
            lines.append(f"decision: {self.decision}")
        if self.reason:
            lines.append(f"reason: {self.reason}")
        if self.path_from_fault:
            lines.append("path from fault: " + " → ".join(self.path_from_fault))
        if self.premises:
            lines.append("premises: " + ", ".join(f"{p} ({lb})" for p, lb in self.premises))
        if self.dependents:
            lines.append("dependents: " + ", ".join(f"{d} ({lb})" for d, lb in self.dependents))
        return "\n".join(lines)


def escape_html(text: object) -> str:
    """`text` safe to place in HTML element content or a quoted attribute.

    >>> escape_html('<script>alert("x")</script>')
    '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
    """
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def json_for_script(data: Any) -> str:
    """JSON that can sit inside a `<script>` element: `<`, `>`, `&` and the JS line
    separators are written as unicode escapes, so no string can close the element.

    >>> json_for_script({"t": "</script>"})
    '{"t": "\\\\u003c/script\\\\u003e"}'
    """
    text = json.dumps(data, ensure_ascii=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def legend() -> list[dict[str, str]]:
    """Legend rows: node classes then edge styles."""
    rows = [{"what": "node", "name": name, "colour": colour, "style": "dot", "meaning": meaning}
            for name, (colour, _, meaning) in NODE_CLASSES.items()]
    rows += [{"what": "edge", "name": label, "colour": colour,
              "style": "dashed" if dashed else "solid", "meaning": meaning}
             for label, (dashed, colour, meaning) in EDGE_STYLES.items()]
    return rows


def _node_data(plan: RepairPlan, only: Collection[str] | None = None) -> dict[str, Any]:
    """Node id -> its turn, step or record (those of `only`, when given)."""
    case = plan.case
    items = (*case.session, *case.trajectory, *case.memory)
    if only is None:
        return {x.id: x for x in items}
    return {x.id: x for x in items if x.id in only}


def _short_json(value: Any, width: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= width else text[: width - 1] + "…"


def node_detail(plan: RepairPlan, node: str, items: Mapping[str, Any] | None = None
                ) -> NodeDetail:
    """Content, edges and the reason for the decision on `node`.

    >>> from repair_core import load_example, plan_case
    >>> d = node_detail(plan_case(load_example()), "m6")
    >>> d.decision, d.path_from_fault
    ('quarantine', ['m3', 's3', 's11', 'm6'])
    """
    G = plan.analysis.graph
    if node not in G:
        raise KeyError(node)
    item = (items if items is not None else _node_data(plan))[node]
    attrs = G.nodes[node]
    extra: dict[str, Any] = {}
    for name in ("status", "user_id", "key", "value", "trust", "query", "returned", "tool",
                 "args", "output", "op", "target", "verified"):
        value = getattr(item, name, None)
        if value not in (None, [], {}, "") and not (name == "status" and value == "ok"):
            extra[name] = value
    decision = plan.memory.get(node) or plan.steps.get(node)
    reason = plan.reasons.get(node)
    suspect = next((x for x in getattr(plan, "suspected", ()) if x.id == node), None)
    if suspect is not None and suspect.action == "flag":
        reason = (f"suspected {suspect.role} of {suspect.fault} by lineage, flagged only "
                  f"({suspect.evidence[len(BY_LINEAGE):]})"
                  if suspect.evidence.startswith(BY_LINEAGE) else
                  f"suspected {suspect.role} of {suspect.fault}, flagged only: it carries the "
                  f"fault's content ({suspect.evidence})")
    if reason is None and decision == "keep":
        reason = "unaffected: no fault reaches it"
    premises = sorted(((src, lb) for src, _, lb in G.in_edges(node, keys=True)),
                      key=lambda e: (e[1] == CHAIN, e[0]))
    dependents = sorted(((dst, lb) for _, dst, lb in G.out_edges(node, keys=True)),
                        key=lambda e: (e[1] == CHAIN, e[0]))
    seq = attrs.get("seq")
    return NodeDetail(id=node, kind=attrs["kind"], type=attrs["type"],
                      cls=node_class(plan, node), seq=seq, content=str(item.text),
                      decision=decision, reason=reason,
                      path_from_fault=plan.analysis.path_from_fault(node),
                      premises=premises, dependents=dependents, extra=extra,
                      trace=step_trace(item))


def timeline_positions(plan: RepairPlan, nodes: Iterable[str] | None = None,
                       labels: Mapping[str, str] | None = None
                       ) -> dict[str, tuple[float, float]]:
    """Left-to-right positions: turns and steps in `seq` order, one column each (gaps in
    seq take no room), columns dropped by a three-level stagger; records in a lane below,
    ordered by time and spread so that no two boxes (of the widths their `labels` need)
    overlap.

    A record created in the execution sits at its `created_seq`; one that predates it sits
    just before the first step that uses it (or left of the first turn if none does).
    """
    G = plan.analysis.graph
    chosen = list(G.nodes if nodes is None else nodes)
    seqs = [G.nodes[n]["seq"] for n in chosen if G.nodes[n]["seq"] is not None]
    first = min(seqs, default=0)

    def column(n: str) -> float:
        seq = G.nodes[n]["seq"]
        if seq is not None:
            return float(seq)
        users = [G.nodes[d]["seq"] for d in G._succ[n] if G.nodes[d]["seq"] is not None]
        return min(users) - 0.5 if users else first - 1.5

    cols = {n: column(n) for n in chosen}
    trajectory = sorted((n for n in chosen if G.nodes[n]["kind"] != "record"),
                        key=lambda n: (cols[n], n))
    records = sorted((n for n in chosen if G.nodes[n]["kind"] == "record"),
                     key=lambda n: (cols[n], n))

    def width(n: str) -> float:
        return label_width(labels[n]) if labels and n in labels else 180.0

    # Same-height neighbours are _LEVELS columns apart: the widest label must fit in that.
    step = max([_X_STEP_MIN, *((width(n) + 20) / _LEVELS for n in trajectory)])
    # Columns are ranks, not raw seq: a neighbourhood cut from a huge run stays compact.
    rank = {c: i for i, c in enumerate(sorted({cols[n] for n in trajectory}))}
    pos: dict[str, tuple[float, float]] = {}
    for n in trajectory:
        i = rank[cols[n]]
        pos[n] = (i * step, _STAGGER * (i % _LEVELS))

    ranked = sorted(rank)

    def desired(n: str) -> float:
        # just left of the first trajectory column after the record's own (the rank of
        # that column is how many columns are at or before the record's)
        return (bisect.bisect_right(ranked, cols[n]) - 0.5) * step

    # Records cycle through _LEVELS rows; each keeps clear of the last one in its row, and
    # consecutive records stay in time order.
    right = [-float("inf")] * _LEVELS
    last_x = -float("inf")
    for k, n in enumerate(records):
        row = k % _LEVELS
        w = width(n)
        x = max(desired(n), right[row] + w / 2 + _RECORD_GAP, last_x + 1.0)
        pos[n] = (x, _RECORD_Y + row * _RECORD_ROW)
        right[row] = x + w / 2
        last_x = x
    return pos


def affected_neighbourhood(plan: RepairPlan, limit: int = NEIGHBOURHOOD_LIMIT,
                           within: Collection[str] | None = None) -> set[str]:
    """The affected nodes plus their direct (non-chain) premises and dependents, at most
    `limit` nodes: affected ones first, then neighbours by seq. With no fault marked, the
    final answer and its direct premises stand in.

    When `A0` alone exceeds `limit`, the part kept is the one nearest the faults: a
    breadth-first walk from every fault and seed together along the propagation edges,
    so each kept node arrives with the edge that affected it (a cut by seq alone kept
    only records, which have no seq, and no edge between them).

    `within` (a filter, e.g. the node types a reviewer wants) limits what is chosen, not
    the walk: the affected nodes of `within` nearest the faults come first even when the
    path to them runs through nodes outside it, then the nodes of `within` next to an
    affected node. Linear in the affected subgraph's size."""
    G = plan.analysis.graph
    a = plan.analysis

    def by_time(n: str) -> tuple[int, int, str]:
        seq = G._node[n]["seq"]
        return (0 if n in a.faults else 1, seq if seq is not None else -1, n)

    affected: Collection[str] = a.affected or ({a.final_answer} if a.final_answer else set())
    candidates = [n for n in affected if within is None or n in within]
    if len(candidates) <= limit:
        chosen = sorted(candidates, key=by_time)
    else:
        chosen = _nearest_affected(G, a, limit, by_time, within)
    picked = set(chosen)
    room = limit - len(picked)
    if room <= 0:
        return picked
    # Room is left only when every affected node of `within` is chosen: the neighbours
    # of every affected node (inside `within` or not) are candidates.
    around: set[str] = set()
    for n in affected:
        for nb, by_label in (*G._pred[n].items(), *G._succ[n].items()):
            if (nb not in picked and (within is None or nb in within)
                    and any(lb != CHAIN for lb in by_label)):
                around.add(nb)
    picked.update(sorted(around, key=by_time)[:room])
    return picked


def _nearest_affected(G: Any, a: Any, limit: int, by_time: Any,
                      within: Collection[str] | None = None) -> list[str]:
    """Up to `limit` affected nodes (of `within`, if given) in breadth-first order from
    the faults and seeds (together, ties by seq), over non-chain edges into affected
    nodes (the walk passes through nodes outside `within`)."""

    def wanted(n: str) -> bool:
        return within is None or n in within

    starts = sorted({*a.faults, *a.seeds.values()}, key=by_time)
    chosen = [n for n in starts if wanted(n)][:limit]
    seen = set(starts)
    frontier = starts
    while frontier and len(chosen) < limit:
        nxt: list[str] = []
        for node in frontier:
            for dst, by_label in G._succ[node].items():
                if dst in a.affected and dst not in seen and any(lb != CHAIN for lb in by_label):
                    seen.add(dst)
                    nxt.append(dst)
        nxt.sort(key=by_time)
        chosen += [n for n in nxt if wanted(n)][:limit - len(chosen)]
        frontier = nxt
    return chosen


_MACHINE_ID = re.compile(r"^[0-9a-f]{12,}(?:[-_@~][\w.-]*)?$", re.IGNORECASE)


def _label(item: Any, node: str, kind: str, type_: str, chars: int = LABEL_CHARS) -> str:
    """`id [type]` and the start of the text; an id that is a machine id (an imported
    span's hex id) or too long to read gives its place to what the node is: the span's
    name when the trace recorded one (`generation [plan]`), else its operation, `[type]`
    and more of its text (the id is in the tooltip and the details)."""
    short = {"memory_read": "read", "tool_action": "action", "tool_observation": "obs",
             "memory_write": "write", "record": "mem"}.get(type_, type_)
    text = " ".join(str(getattr(item, "text", "")).split())
    if _MACHINE_ID.match(node) or len(node) > 2 * LABEL_CHARS:
        width = max(chars, LABEL_CHARS)
        text = text if len(text) <= width else text[: width - 1] + "…"
        span = span_name(item)
        head = f"[{short}]" if span is None else (
            f"{span if len(span) <= width else span[: width - 1] + '…'} [{short}]")
        return f"{head}\n{text}" if text else head
    head = node if len(node) <= LABEL_CHARS else node[: LABEL_CHARS - 1] + "…"
    if chars <= 0:
        return f"{head} [{short}]"
    text = text if len(text) <= chars else text[: chars - 1] + "…"
    return f"{head} [{short}]\n{text}"


def graph_view(plan: RepairPlan, *, affected_only: bool = False, hide_chain: bool = False,
               node_types: Collection[str] | None = None, layout: str = "timeline",
               max_nodes: int = NEIGHBOURHOOD_LIMIT, physics_limit: int = PHYSICS_LIMIT,
               label_chars: int = LABEL_CHARS, colour_by: ColourBy = "decision") -> GraphView:
    """Decide what to draw: filters, colour classes, positions, edge styles, and a note on
    whatever is hidden.

    `node_types` keeps only those types (`turn`, `record` or a step type). Above
    `max_nodes` nodes only the affected neighbourhood is drawn. `label_chars` characters
    of each node's text go on its label (0: the id and type only, a compact picture).
    `colour_by`: each node's colour says its plan decision (`decision`) or its class in
    the analysis (`analysis`: `node_class`).

    >>> from repair_core import load_example, plan_case
    >>> v = graph_view(plan_case(load_example()), affected_only=True)
    >>> len(v.nodes), v.note
    (11, 'Affected subgraph only: 8 unaffected nodes hidden.')
    """
    if layout not in LAYOUTS:
        raise ValueError(f"layout: unknown layout '{layout}' (expected one of {', '.join(LAYOUTS)})")
    if colour_by not in COLOUR_BY:
        raise ValueError(f"colour_by: unknown colouring '{colour_by}' (expected one of "
                         f"{', '.join(COLOUR_BY)})")
    G = plan.analysis.graph
    a = plan.analysis
    attrs_of = G._node
    total = G.number_of_nodes()
    notes: list[str] = []
    keep: Collection[str] = attrs_of  # every node (a view, not a copy, until filtered)
    if affected_only:
        keep = set(a.affected)
        notes.append(f"Affected subgraph only: {total - len(keep)} unaffected nodes hidden.")
    if node_types is not None:
        wanted = set(node_types)
        before = len(keep)
        keep = {n for n in keep if attrs_of[n]["type"] in wanted}
        if len(keep) < before:
            notes.append(f"Node types {', '.join(sorted(wanted)) or '(none)'} only: "
                         f"{before - len(keep)} nodes of other types hidden.")
    if len(keep) > max_nodes:
        # The neighbourhood is chosen among the nodes the filters keep (a neighbourhood
        # cut first and filtered after could leave nothing of the wanted types).
        hood = affected_neighbourhood(plan, max_nodes, within=keep)
        what = ("the affected subgraph and its direct neighbours" if a.affected else
                "no fault is marked, so the final answer and its direct premises")
        if not hood:
            hood = set(sorted(keep, key=lambda n: (attrs_of[n]["seq"] is None,
                                                   attrs_of[n]["seq"] or 0, n))[:max_nodes])
            what = "none of them affected or next to an affected node: the first by time"
        notes.append(
            f"Large graph: {len(keep)} nodes exceed the drawing limit of {max_nodes}; showing "
            f"{len(hood)} nodes — {what} — and hiding "
            f"{len(keep) - len(hood)} others (the command dgrr plan lists every decision).")
        keep = hood
    elif not isinstance(keep, set):
        keep = set(keep)
    data = _node_data(plan, keep)
    labels = {n: _label(data[n], n, attrs_of[n]["kind"], attrs_of[n]["type"], label_chars)
              for n in keep}
    pos = timeline_positions(plan, keep, labels) if layout == "timeline" else {}
    nodes: list[ViewNode] = []
    details: dict[str, str] = {}
    order = sorted(keep, key=lambda n: (attrs_of[n]["seq"] is None, attrs_of[n]["seq"] or 0, n))
    for n in order:
        attrs = attrs_of[n]
        cls = node_class(plan, n)
        detail = node_detail(plan, n, data).as_text()
        details[n] = detail
        x, y = pos.get(n, (None, None))
        nodes.append(ViewNode(id=n, label=labels[n],
                              title=detail, cls=cls,
                              colour=colour_of(plan, n, colour_by),
                              kind=attrs["kind"], type=attrs["type"], x=x, y=y))
    edges: list[ViewEdge] = []
    hidden_chain = 0
    # The edges between kept nodes, in the graph's own order, visiting only the kept
    # nodes' out-edges (every edge of a 130k-node graph cost a second per filter change).
    for src, out in G._succ.items():
        if src not in keep:
            continue
        for dst, by_label in out.items():
            if dst not in keep:
                continue
            for label, edata in by_label.items():
                if hide_chain and label == CHAIN:
                    hidden_chain += 1
                    continue
                dashed, colour, _ = EDGE_STYLES.get(label, (False, "#444444", ""))
                inferred = bool(edata.get("inferred")) if isinstance(edata, Mapping) else False
                edges.append(ViewEdge(src, dst, label, dashed or inferred, colour, inferred))
    if hidden_chain:
        notes.append(f"{hidden_chain} chain edges hidden.")
    physics = layout == "force" and len(nodes) <= physics_limit
    if layout == "force" and not physics:
        notes.append(f"Physics is off above {physics_limit} nodes.")
    focus = sorted(n for n in keep if n in a.affected) or sorted(
        n for n in keep if n == a.final_answer)
    return GraphView(nodes=nodes, edges=edges, total_nodes=total, physics=physics,
                     layout=layout, note=" ".join(notes) or None, details=details, focus=focus,
                     colour_by=colour_by)


# Attributes through which an element fetches a resource as the page loads.
_RESOURCE_ATTRS: dict[str, tuple[str, ...]] = {
    "script": ("src",), "link": ("href",), "img": ("src", "srcset"), "iframe": ("src",),
    "frame": ("src",), "source": ("src", "srcset"), "embed": ("src",), "object": ("data",),
    "video": ("src", "poster"), "audio": ("src",), "track": ("src",), "input": ("src",),
    "image": ("href", "xlink:href"), "use": ("href", "xlink:href"),
}
# An address that leaves the page's own origin: a scheme (other than data:) or `//host`.
_REMOTE = re.compile(r"^\s*(?!data:)(?:[a-z][a-z0-9+.\-]*:|//|\\\\)", re.IGNORECASE)
_CSS_URL = re.compile(r"url\(\s*[\"']?([^\"')]*)|@import\s+[\"']([^\"']*)", re.IGNORECASE)


def _css_remote(css: str) -> list[str]:
    out = []
    for m in _CSS_URL.finditer(css):
        target = m.group(1) if m.group(1) is not None else m.group(2)
        if _REMOTE.match(target or ""):
            out.append(m.group(0))
    return out


class _ResourceScan(HTMLParser):
    """Collects the resources an HTML page would fetch: tag attributes, `<style>` sheets
    and `style` attributes. Element text (escaped user data) and scripts' own text are
    not resources."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = _RESOURCE_ATTRS.get(tag, ())
        for name, value in attrs:
            if value is None:
                continue
            if name in wanted:
                parts = value.split(",") if name == "srcset" else [value]
                if any(_REMOTE.match(part) for part in parts):
                    self.found.append(f"<{tag} {name}={value!r}>")
            elif name == "style":
                self.found += _css_remote(value)
        if tag == "style":
            self._in_style = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "style":
            self._in_style = False

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.found += _css_remote(data)


def external_resources(html: str) -> list[str]:
    """Every resource `html` would fetch from another host as it loads: `src`/`href` of
    scripts, stylesheets, images and frames, and CSS `url()`/`@import` in `<style>`
    elements and `style` attributes (an empty list for dgrr's own output). Text that only
    mentions a URL is data, not a resource.

    >>> external_resources('<p>see url(http://x.example/a.css)</p>')
    []
    >>> external_resources('<script src="https://cdn.example/a.js"></script>')
    ["<script src='https://cdn.example/a.js'>"]
    >>> external_resources('<style>@import url(//x.example/b.css);</style>')
    ['url(//x.example/b.css']
    """
    scan = _ResourceScan()
    scan.feed(html)
    scan.close()
    return scan.found
