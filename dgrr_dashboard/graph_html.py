"""The graph picture as one standalone HTML file (pyvis / vis-network, all inline).

It lives with the dashboard, outside `repair_core`, because it needs pyvis (imported inside
:func:`graph_html` only); `dgrr graph` and the Graph page both use it.
The output has no external script or style: pyvis's `in_line` mode still links Bootstrap
from a CDN, so those tags are stripped, and :func:`external_resources` checks the result.
"""

from __future__ import annotations

import json
import re
from typing import Any

from repair_core import DgrrError, RepairPlan
from repair_core._io import atomic_write_text
from repair_core.viz import (
    DOT_SIZE,
    LABEL_FONT_PX,
    MIN_LABEL_PX,
    ColourBy,
    GraphView,
    colour_legend,
    escape_html,
    external_resources,
    graph_view,
    json_for_script,
)

__all__ = ["graph_html", "write_graph_html"]

_SHAPES = {"turn": "diamond", "record": "box", "step": "dot"}
LABEL_BACKGROUND = "rgba(255,255,255,0.85)"
"""Behind the label under a step or turn, so that the edges drawn there do not cross its
letters."""
PATH_COLOUR = "#111111"
"""Outline of the path from the fault to the selected node (no decision has this colour)."""

# Bootstrap <link>/<script> blocks pyvis writes whatever cdn_resources says.
_CDN_TAG = re.compile(
    r"<link\b[^>]*\bhref\s*=\s*[\"']https?://[^>]*>|"
    r"<script\b[^>]*\bsrc\s*=\s*[\"']https?://[^>]*>\s*</script>",
    re.IGNORECASE | re.DOTALL)
_EMPTY_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>", re.IGNORECASE)


def _pyvis_network(view: GraphView, height: str) -> Any:
    try:
        from pyvis.network import Network
    except ImportError:  # pragma: no cover - pyvis is a dependency
        raise DgrrError("drawing the graph needs pyvis: install with pip install pyvis") from None
    net = Network(height=height, width="100%", directed=True, cdn_resources="in_line")
    fixed = view.layout == "timeline"
    for n in view.nodes:
        extra: dict[str, Any] = {}
        if n.x is not None and n.y is not None:
            extra.update(x=n.x, y=n.y)
        shape = _SHAPES.get(n.kind, "dot")
        font: dict[str, Any] = {"multi": False, "size": LABEL_FONT_PX}
        if shape != "box":  # a box holds its label, on its own colour
            font["background"] = LABEL_BACKGROUND
        net.add_node(n.id, label=n.label, title=n.title, color=n.colour, shape=shape,
                     physics=not fixed, size=DOT_SIZE, font=font, **extra)
    for e in view.edges:
        # Edge names show on hover (the title), not on the canvas, where they collide.
        what = e.label + (" (inferred)" if e.inferred else "")
        dashes: Any = [2, 5] if e.inferred else ([6, 5] if e.dashed else False)
        net.add_edge(e.source, e.target, title=f"{what}: {e.source} → {e.target}", label="",
                     dashes=dashes, color=e.colour, arrows="to", width=2 if e.inferred else 1)
    options = {
        "physics": {"enabled": view.physics, "stabilization": {"iterations": 200}},
        "interaction": {"hover": True, "tooltipDelay": 120, "navigationButtons": False,
                        "hoverConnectedEdges": True},
        "edges": {"smooth": {"enabled": True, "type": "curvedCW", "roundness": 0.15}},
        "layout": {"improvedLayout": len(view.nodes) <= 300},
    }
    net.set_options(json.dumps(options))
    return net


def _render(net: Any) -> str:
    # Rendered here rather than by Network.generate_html: pyvis switches to a popup that
    # sets innerHTML whenever a title contains "href"; titles are plain text, and
    # vis-network shows a string title as text, so that switch stays off.
    template = net.templateEnv.get_template(net.path)
    nodes, edges, heading, height, width, options = net.get_network_data()
    return str(template.render(
        height=height, width=width, nodes=nodes, edges=edges, heading="", options=options,
        physics_enabled=net.options.physics.enabled if not isinstance(net.options, dict)
        else net.options.get("physics", {}).get("enabled", True),
        use_DOT=net.use_DOT, dot_lang=net.dot_lang, widget=net.widget, bgcolor=net.bgcolor,
        conf=net.conf, tooltip_link=False, neighborhood_highlight=net.neighborhood_highlight,
        select_menu=net.select_menu, filter_menu=net.filter_menu, notebook=False,
        cdn_resources=net.cdn_resources))


def _legend_html(colour_by: ColourBy = "decision") -> str:
    what = "analysis" if colour_by == "analysis" else "decision"
    items = [f'<span class="dgrr-key"><b>Colour = {what}</b>:</span>']
    items += [f'<span class="dgrr-key" title="{escape_html(meaning)}"><span class="dgrr-dot" '
              f'style="background:{colour}"></span>{escape_html(label)}</span>'
              for _, colour, label, meaning in colour_legend(colour_by)]
    items.append('<span class="dgrr-key">◆ turn · ● step · ■ record</span>')
    items.append('<span class="dgrr-key"><span class="dgrr-line dgrr-dashed"></span>chain '
                 '(order only)</span>')
    items.append('<span class="dgrr-key"><span class="dgrr-line dgrr-dotted"></span>inferred '
                 '</span>')
    items.append('<span class="dgrr-key"><span class="dgrr-line"></span>propagation '
                 '(hover an edge for its label)</span>')
    items.append(f'<span class="dgrr-key"><span class="dgrr-line" style="border-top:4px '
                 f'solid {PATH_COLOUR}"></span>path from the fault to the selected node</span>')
    return '<div id="dgrr-legend">' + "".join(items) + "</div>"


_PANEL_CSS = """
<style>
#dgrr-header{font-family:system-ui,sans-serif;font-size:13px;padding:4px 6px}
#dgrr-legend{display:flex;flex-wrap:wrap;gap:10px;margin:4px 0}
.dgrr-key{display:inline-flex;align-items:center;gap:4px}
.dgrr-dot{width:12px;height:12px;border-radius:50%;display:inline-block;border:1px solid #555}
.dgrr-line{width:24px;border-top:2px solid #4c72b0;display:inline-block}
.dgrr-dashed{border-top:2px dashed #999}
.dgrr-dotted{border-top:2px dotted #4c72b0}
#dgrr-search{font-size:13px;padding:2px 6px;width:16em}
#dgrr-search-note{color:#8a5a00;margin-left:6px}
body{margin:0}
#mynetwork{box-sizing:border-box}
#dgrr-note,#dgrr-view-note{color:#8a5a00}
#dgrr-detail{font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap;
  border:1px solid #ddd;padding:6px;margin:4px;min-height:3em;background:#fafafa}
</style>
"""

_VIEW_JS = """
<script>
(function(){
  // The default view: the whole graph if its labels stay legible (labels >= %(min_px)d
  // px, scale >= MIN), else the smallest legible zoom centred on the faults and what they
  // affect, kept inside the graph's extent (one side of the graph flush with the frame's,
  // not a margin of nothing) with the faults in view. The extents are the nodes' boxes,
  // labels included: vis-network's own fit() measures centres and pads them, and opened
  // the Figure-1 graph below MIN in a 550 px frame it fits at 11 px.
  var MIN = %(min_scale).4f, MAX = 1.5, PAD = 8;
  var focus = JSON.parse(document.getElementById("dgrr-focus").textContent);
  var details = JSON.parse(document.getElementById("dgrr-details").textContent);
  var panel = document.getElementById("dgrr-detail");
  function bbox(ids) {
    var b = null;
    (ids || network.body.data.nodes.getIds()).forEach(function (id) {
      if (!network.body.nodes[id]) return;
      var n = network.getBoundingBox(id);
      b = b ? {left: Math.min(b.left, n.left), right: Math.max(b.right, n.right),
               top: Math.min(b.top, n.top), bottom: Math.max(b.bottom, n.bottom)} : n;
    });
    return b;
  }
  function clamp(v, lo, hi) { return lo > hi ? (lo + hi) / 2 : Math.min(Math.max(v, lo), hi); }
  function defaultView() {
    var el = document.getElementById("mynetwork");
    var cw = el.clientWidth, ch = el.clientHeight, all = bbox();
    if (!all) return;
    var s = Math.min((cw - 2 * PAD) / Math.max(all.right - all.left, 1),
                     (ch - 2 * PAD) / Math.max(all.bottom - all.top, 1));
    var note = document.getElementById("dgrr-view-note");
    if (s >= MIN) {
      network.moveTo({position: {x: (all.left + all.right) / 2, y: (all.top + all.bottom) / 2},
                      scale: Math.min(s, MAX), animation: false});
      if (note) note.textContent = "";
      return;
    }
    // part of the graph is outside the frame: say so, or a reader takes it for the whole
    if (note) note.textContent = " Zoomed in so that labels stay legible, on the faults " +
      "and what they affect: drag to see the rest, scroll to zoom out.";
    var b = (focus.length && bbox(focus)) || all;
    var c = {x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2};
    // half the frame in canvas units at MIN
    var W = (cw / 2 - PAD) / MIN, H = (ch / 2 - PAD) / MIN;
    c.x = clamp(c.x, all.left + W, all.right - W);
    c.y = clamp(c.y, all.top + H, all.bottom - H);
    var faults = JSON.parse(document.getElementById("dgrr-faults").textContent);
    var fb = faults.length ? bbox(faults) : null;
    if (fb) {  // the faults' boxes (labels included) inside the frame
      c.x = Math.min(Math.max(c.x, fb.right - W), fb.left + W);
      c.y = Math.min(Math.max(c.y, fb.bottom - H), fb.top + H);
    }
    network.moveTo({position: c, scale: MIN, animation: false});
  }
  function show(id) {
    if (panel) { panel.textContent = details[id] || ""; panel.setAttribute("data-node", id); }
  }
  function focusNode(id, report) {
    if (!network.body.data.nodes.get(id)) return false;
    network.selectNodes([id], true);
    network.focus(id, {scale: Math.max(network.getScale(), MIN), animation: false});
    show(id);
    if (report && window.dgrrReport) window.dgrrReport(id);
    return true;
  }
  // The path from the fault to the selected node (repair_core.fault_path, sent
  // by the page): its drawn edges and nodes outlined in PATH; the previous one restored.
  var PATH = "%(path_colour)s", held = {edges: [], nodes: []};
  function showPath(hops) {
    var E = network.body.data.edges, N = network.body.data.nodes;
    E.update(held.edges); N.update(held.nodes);
    held = {edges: [], nodes: []};
    var want = {}, ends = {}, upE = [], upN = [], drawn = [];
    (hops || []).forEach(function (h) {
      want[JSON.stringify([h[0], h[1]])] = want[JSON.stringify([h[1], h[0]])] = true;
      ends[h[0]] = ends[h[1]] = true;
    });
    E.get().forEach(function (e) {
      if (!want[JSON.stringify([e.from, e.to])]) return;
      held.edges.push({id: e.id, color: e.color, width: e.width});
      upE.push({id: e.id, color: {color: PATH, highlight: PATH, hover: PATH, inherit: false},
                width: 4});
      drawn.push([e.from, e.to]);
    });
    Object.keys(ends).forEach(function (id) {
      var n = N.get(id);
      if (!n) return;
      held.nodes.push({id: id, color: n.color, borderWidth: n.borderWidth === undefined
                       ? 1 : n.borderWidth});
      var fill = typeof n.color === "string" ? n.color : (n.color || {}).background;
      upN.push({id: id, borderWidth: 4, color: {background: fill, border: PATH,
                highlight: {background: fill, border: PATH}}});
    });
    E.update(upE); N.update(upN);
    window.dgrrPathShown = {edges: drawn, nodes: upN.map(function (n) { return n.id; })};
    return drawn.length;
  }
  function search(text) {
    var q = (text || "").trim().toLowerCase(), note = document.getElementById("dgrr-search-note");
    if (!q) { note.textContent = ""; return null; }
    var all = network.body.data.nodes.get(), hit = null, i;
    for (i = 0; i < all.length && !hit; i++) if (String(all[i].id).toLowerCase() === q) hit = all[i].id;
    for (i = 0; i < all.length && !hit; i++) if (String(all[i].id).toLowerCase().indexOf(q) === 0) hit = all[i].id;
    for (i = 0; i < all.length && !hit; i++) if (String(all[i].label).toLowerCase().indexOf(q) >= 0) hit = all[i].id;
    for (i = 0; i < all.length && !hit; i++) if (String(details[all[i].id] || "").toLowerCase().indexOf(q) >= 0) hit = all[i].id;
    note.textContent = hit ? "" : (window.dgrrReport
      ? "not drawn in this view: looked up in the whole case" : "no node matches");
    if (hit) focusNode(hit, true);
    else if (window.dgrrReport) window.dgrrReport(String(text).trim());
    return hit;
  }
  if (typeof network !== "undefined") {
    network.on("click", function(p){
      if (p.nodes && p.nodes.length) { show(p.nodes[0]); if (window.dgrrReport) window.dgrrReport(p.nodes[0]); }
    });
    var box = document.getElementById("dgrr-search");
    box.addEventListener("keydown", function(e){ if (e.key === "Enter") search(box.value); });
    box.addEventListener("change", function(){ search(box.value); });
    var done = false;
    function once() { if (!done) { done = true; defaultView(); window.dgrrReady = true; } }
    network.once("afterDrawing", once);
    setTimeout(once, 400);
  }
  window.dgrrNodeCount = %(count)d;
  window.dgrrShow = show;
  window.dgrrFocus = focusNode;
  window.dgrrSearch = search;
  window.dgrrPath = showPath;
  window.dgrrDefaultView = defaultView;
  window.dgrrMinScale = MIN;
  window.dgrrFontPx = %(font_px)d;
})();
</script>
"""


def graph_html(plan: RepairPlan, *, view: GraphView | None = None, height: str = "640px",
               title: str | None = None, panel: bool = True, **view_options: Any) -> str:
    """The graph of `plan` as one standalone HTML document (no network access needed).

    Every user string is escaped: labels are drawn on a canvas, tooltips are plain text,
    and the data sit in script elements as JSON whose `<`, `>` and `&` are unicode escapes.
    The default view never draws a label smaller than MIN_LABEL_PX (when the whole graph
    does not fit, it centres on the faults and what they affect at the smallest legible
    zoom instead); a search box centres and selects a node. `panel=False` leaves
    out the detail box under the picture (the dashboard shows details in the page).
    """
    if view is None:
        view = graph_view(plan, **view_options)
    html = _render(_pyvis_network(view, height))
    html = _CDN_TAG.sub("", html)
    html = _EMPTY_HEADING.sub("", html)
    heading = title if title is not None else f"dgrr · case {plan.case.case_id}"
    note = f'<div id="dgrr-note">{escape_html(view.note)}</div>' if view.note else ""
    header = (f'{_PANEL_CSS}<div id="dgrr-header"><b>{escape_html(heading)}</b> — '
              f'{len(view.nodes)} of {view.total_nodes} nodes, {len(view.edges)} edges; '
              'click a node for its details. <input id="dgrr-search" type="search" '
              'placeholder="find a node (id or text), Enter" aria-label="find a node">'
              '<span id="dgrr-search-note"></span><span id="dgrr-view-note"></span>'
              f'{_legend_html(view.colour_by)}{note}</div>')
    faults = [n for n in plan.case.faults if any(v.id == n for v in view.nodes)]
    tail = (('<div id="dgrr-detail" data-node="">Click a node to see its content, its edges '
             "and the reason for its decision.</div>") if panel else "")
    tail += (f'<script type="application/json" id="dgrr-details">'
             f"{json_for_script(view.details)}</script>"
             f'<script type="application/json" id="dgrr-focus">{json_for_script(view.focus)}'
             f'</script><script type="application/json" id="dgrr-faults">'
             f"{json_for_script(faults)}</script>"
             + _VIEW_JS % {"min_scale": MIN_LABEL_PX / LABEL_FONT_PX + 0.02,
                           "min_px": MIN_LABEL_PX, "count": len(view.nodes),
                           "font_px": LABEL_FONT_PX, "path_colour": PATH_COLOUR})
    html = re.sub(r"<body>", lambda m: "<body>" + header, html, count=1)
    html = html.replace("</body>", tail + "</body>", 1) if "</body>" in html else html + tail
    found = external_resources(html)
    if found:  # pragma: no cover - guards against a pyvis template change
        raise DgrrError(f"graph HTML would load external resources: {found[:3]}")
    return html


def write_graph_html(plan: RepairPlan, path: str, **options: Any) -> GraphView:
    """Write the standalone graph HTML atomically; returns the view that was drawn."""
    view = graph_view(plan, **{k: v for k, v in options.items()
                               if k in ("affected_only", "hide_chain", "node_types", "layout",
                                        "max_nodes", "physics_limit", "label_chars",
                                        "colour_by")})
    rest = {k: v for k, v in options.items() if k in ("height", "title")}
    atomic_write_text(path, graph_html(plan, view=view, **rest))
    return view

