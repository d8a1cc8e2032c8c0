"""The dependency-graph picture: colour classes, legend, timeline layout, node details,
large-graph neighbourhood and escaping, as data. The HTML rendering (pyvis) lives with the
dashboard, in `dgrr_dashboard.graph_html`: the library never imports pyvis.

>>> from repair_core import load_example, plan_case
>>> from repair_core.viz import node_class
>>> node_class(plan_case(load_example()), "m6")
'affected'
"""

from ._colours import (
    COLOUR_BY,
    DECISION_STYLES,
    ColourBy,
    colour_legend,
    colour_of,
    colour_summary,
    decision_key,
    decision_keys,
    decision_legend,
)
from ._original_run import ModelCall, OriginalRun, WaterfallBar, money, original_run
from ._view import (
    DOT_SIZE,
    EDGE_STYLES,
    LABEL_FONT_PX,
    LAYOUTS,
    MIN_LABEL_PX,
    NEIGHBOURHOOD_LIMIT,
    NODE_CLASSES,
    PHYSICS_LIMIT,
    GraphView,
    NodeDetail,
    ViewEdge,
    ViewNode,
    affected_neighbourhood,
    escape_html,
    external_resources,
    graph_view,
    json_for_script,
    label_width,
    legend,
    node_class,
    node_classes,
    node_detail,
    timeline_positions,
)

__all__ = [
    "COLOUR_BY",
    "ColourBy",
    "colour_legend",
    "colour_of",
    "colour_summary",
    "DECISION_STYLES",
    "decision_key",
    "decision_keys",
    "decision_legend",
    "DOT_SIZE",
    "LABEL_FONT_PX",
    "MIN_LABEL_PX",
    "label_width",
    "EDGE_STYLES",
    "LAYOUTS",
    "NEIGHBOURHOOD_LIMIT",
    "NODE_CLASSES",
    "PHYSICS_LIMIT",
    "GraphView",
    "NodeDetail",
    "ViewEdge",
    "ViewNode",
    "affected_neighbourhood",
    "escape_html",
    "external_resources",
    "graph_view",
    "json_for_script",
    "legend",
    "node_class",
    "node_classes",
    "node_detail",
    "timeline_positions",
    "ModelCall",
    "OriginalRun",
    "WaterfallBar",
    "money",
    "original_run",
]
