"""The `dgrr.*` provenance convention for agents that want exact repairs (docs/import.md).

An instrumented agent adds these to its OpenTelemetry spans; `dgrr import` reads them and
records the edges as given instead of guessing them (`inferred`):

- `dgrr.step.type` on a span: what the step is (claim, plan, answer, memory_read, ...).
- `dgrr.deps` on a span: a JSON list of `{id, label, sufficient?}` naming memory record
  ids (the store's own ids) or span ids (hex) of earlier spans.
- a span link with `dgrr.dep.label` (and optionally `dgrr.dep.sufficient`): the linked
  span is a premise with that label.
- `dgrr.claim.verified` on a claim span: the runtime verified it.
- `dgrr.tool.effect` on a tool span: pure, idempotent, resettable, compensable or
  irreversible (the default when absent).

>>> attrs = step_attributes("claim", [dep("m2", "cite", sufficient=True)])
>>> attrs["dgrr.step.type"], attrs["dgrr.deps"]
('claim', '[{"id": "m2", "label": "cite", "sufficient": true}]')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "STEP_TYPE", "DEPS", "DEP_LABEL", "DEP_SUFFICIENT", "VERIFIED", "TOOL_EFFECT",
    "dep", "step_attributes", "span_ref", "dep_link", "memory_records", "OLD_CONTENT",
    "MEMORY_VALUE", "MEMORY_NAMESPACE", "MEMORY_KEY", "canonical_json",
]

STEP_TYPE = "dgrr.step.type"
DEPS = "dgrr.deps"
DEP_LABEL = "dgrr.dep.label"
DEP_SUFFICIENT = "dgrr.dep.sufficient"
VERIFIED = "dgrr.claim.verified"
TOOL_EFFECT = "dgrr.tool.effect"
OLD_CONTENT = "dgrr.memory.old_content"
"""On an update_memory / delete_memory span: the text the write replaced or removed."""
MEMORY_VALUE = "dgrr.memory.value"
"""On a create_memory / update_memory span (and in a returned record's `metadata`): the
record's whole stored value as canonical JSON (keys sorted, no spaces), so that a value
changed since the trace is seen even when its text is the same."""
MEMORY_NAMESPACE = "dgrr.memory.namespace"
"""With :data:`MEMORY_VALUE`: a LangGraph item's namespace, a JSON list of strings."""
MEMORY_KEY = "dgrr.memory.key"
"""With :data:`MEMORY_VALUE`: a LangGraph item's key (any string, `/` included)."""


def canonical_json(value: Any) -> str:
    """`value` as canonical JSON: keys sorted, no spaces, non-ASCII kept.

    >>> canonical_json({"text": "é", "a": [1, 2]})
    '{"a":[1,2],"text":"é"}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


def dep(id: str, label: str, *, sufficient: bool = False) -> dict[str, Any]:
    """One premise for `dgrr.deps`: a record id or a span id (see :func:`span_ref`)."""
    d: dict[str, Any] = {"id": id, "label": label}
    if sufficient:
        d["sufficient"] = True
    return d


def step_attributes(step_type: str | None = None, deps: Iterable[Mapping[str, Any]] = (),
                    *, verified: bool | None = None, tool_effect: str | None = None
                    ) -> dict[str, str | bool]:
    """Span attributes that say what a step is and what it rests on."""
    attrs: dict[str, str | bool] = {}
    if step_type is not None:
        attrs[STEP_TYPE] = step_type
    deps = list(deps)
    if deps:
        attrs[DEPS] = json.dumps(deps)
    if verified is not None:
        attrs[VERIFIED] = verified
    if tool_effect is not None:
        attrs[TOOL_EFFECT] = tool_effect
    return attrs


def span_ref(span: Any) -> str:
    """The id `dgrr import` gives a span's step: its span id in hex (16 digits). Takes an
    OpenTelemetry span or span context."""
    ctx = span.get_span_context() if hasattr(span, "get_span_context") else span
    return format(ctx.span_id, "016x")


def dep_link(span: Any, label: str, *, sufficient: bool = False) -> Any:
    """An OpenTelemetry `Link` to `span` (a span or span context) marking it as a premise
    with `label`; pass it in `links=` when starting the dependent span."""
    from opentelemetry.trace import Link

    ctx = span.get_span_context() if hasattr(span, "get_span_context") else span
    attrs: dict[str, str | bool] = {DEP_LABEL: label}
    if sufficient:
        attrs[DEP_SUFFICIENT] = True
    return Link(ctx, attrs)


def memory_records(records: Sequence[Mapping[str, Any]]) -> str:
    """The `gen_ai.memory.records` attribute: a JSON list of `{id, content, score?,
    metadata?}`.

    >>> memory_records([{"id": "m1", "content": "Lin prefers aisle seats."}])
    '[{"id": "m1", "content": "Lin prefers aisle seats."}]'
    """
    keep = ("id", "content", "score", "metadata")
    return json.dumps([{k: r[k] for k in keep if k in r} for r in records])
