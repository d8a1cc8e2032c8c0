"""A computed plan as JSON data and back, so that a worker process can plan a case and the
server rebuild the same `RepairPlan` without redoing any of the work (docs/dashboard.md,
"Uploads in a worker process").

Everything of the plan and its analysis is carried field by field, but the case (the
server has it already) and the dependency graph (rebuilt from the case: it is the case's
structure, and building it reads no text). The fields are found from the dataclasses
themselves, so a field added to `RepairPlan` or `Analysis` travels without a change here.
No Streamlit here (the worker imports it).
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, create_model

from repair_core import Case, RepairPlan
from repair_core.analysis._analysis import Analysis
from repair_core.graph._graph import build_graph

__all__ = ["plan_data", "plan_from_data"]

_NOT_CARRIED = {RepairPlan: frozenset({"case", "analysis"}), Analysis: frozenset({"graph"})}


_MODELS: dict[str, type[BaseModel]] = {}


def _fields_model(cls: type) -> type[BaseModel]:
    """A pydantic model with the dataclass `cls`'s fields but those not carried (made
    once per class)."""
    made = _MODELS.get(cls.__qualname__)
    if made is not None:
        return made
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {f.name: (hints[f.name], ...) for f in dataclasses.fields(cls)
                              if f.name not in _NOT_CARRIED[cls]}
    made = _MODELS[cls.__qualname__] = create_model(
        f"{cls.__name__}Fields", __config__=ConfigDict(extra="forbid"), **fields)
    return made


def _as_data(obj: RepairPlan | Analysis) -> dict[str, Any]:
    model = _fields_model(type(obj))
    values = {name: getattr(obj, name) for name in model.model_fields}
    return model.model_validate(values).model_dump(mode="json")


def _fields(cls: type, data: Any) -> dict[str, Any]:
    model = _fields_model(cls)
    parsed = model.model_validate(data)
    return {name: getattr(parsed, name) for name in model.model_fields}


def plan_data(plan: RepairPlan) -> dict[str, Any]:
    """`plan` (a computed plan, no reviewer edits) as JSON data: `plan` and `analysis`."""
    return {"plan": _as_data(plan), "analysis": _as_data(plan.analysis)}


def plan_from_data(case: Case, data: Any) -> RepairPlan:
    """The plan :func:`plan_data` gave, for `case` (the case it was computed for; its
    graph is rebuilt here). Raises pydantic's `ValidationError` on data of another shape."""
    analysis = Analysis(graph=build_graph(case), **_fields(Analysis, data["analysis"]))
    return RepairPlan(case=case, analysis=analysis, **_fields(RepairPlan, data["plan"]))
