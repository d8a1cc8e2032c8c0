"""dgrr: dependency-guided rollback repair for memory-augmented LLM agents.

The pipeline, folder by folder: `case/` reads the case, `graph/` builds the dependency
graph (stage 1), `analysis/` finds what the faults affected and what keeps independent
support (stage 2), `plan/` plans the repair by fixed rules (stage 3), `replay/` replays
what needs it and reports (stages 4-5). Around them: `model/` (the model layer), `agent/`
and `tools/` (the agent runtime), `approvals/` and `queue/` (review), `integrations/`
(write-back to real stores), `importers/`, `bench/`, `fleet/`, `viz/`, `commands/` (CLI).

>>> from repair_core import load_example, plan_case
>>> plan_case(load_example()).report().memory["m3"]
'delete'
"""

import importlib
from typing import TYPE_CHECKING, Any

from ._errors import CaseError, DgrrError, ModelError, PlanEditError

if TYPE_CHECKING:
    from ._fixtures import fixture_path, load_example
    from .analysis._analysis import (
        Analysis,
        analyse,
        fault_dependents,
        fault_path,
        find_seed,
        lineage,
    )
    from .case._case import (
        CASE_FORMAT,
        Answer,
        Case,
        Claim,
        Dep,
        EvalLabels,
        MemoryRead,
        MemoryRecord,
        MemoryWrite,
        Plan,
        Step,
        Tool,
        ToolAction,
        ToolObservation,
        Turn,
    )
    from .case._load import (
        case_from_data,
        case_from_parts,
        check_case_data,
        load_case,
        load_case_parts,
        parse_case,
        with_faults,
    )
    from .graph._graph import build_graph
    from .model import ModelClient
    from .plan._edit import PlanChange, apply_edits, check_edits, edits_from_report, plan_diff
    from .plan._plan import PlanEdit, PlanReport, RepairPlan, plan_case
    from .replay import Cost, ExecutorRules, RepairReport, RepairResult, execute, repair

# Every name is imported on first use (module `__getattr__`), so that a command that needs
# only part of the library (`dgrr validate`, `dgrr plan --json` on the columnar path) does
# not pay at start-up for networkx, pydantic, the model layer and the replay.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("fixture_path", "load_example"), "_fixtures"),
    **dict.fromkeys(("Analysis", "analyse", "fault_dependents", "fault_path", "find_seed",
                     "lineage"),
                   "analysis._analysis"),
    **dict.fromkeys(("CASE_FORMAT", "Answer", "Case", "Claim", "Dep", "EvalLabels",
                     "MemoryRead", "MemoryRecord", "MemoryWrite", "Plan", "Step", "Tool",
                     "ToolAction", "ToolObservation", "Turn"), "case._case"),
    **dict.fromkeys(("case_from_data", "case_from_parts", "check_case_data", "load_case",
                     "load_case_parts", "parse_case", "with_faults"), "case._load"),
    "build_graph": "graph._graph",
    "ModelClient": "model",
    **dict.fromkeys(("PlanChange", "apply_edits", "check_edits", "edits_from_report",
                     "plan_diff"), "plan._edit"),
    **dict.fromkeys(("PlanEdit", "PlanReport", "RepairPlan", "plan_case"), "plan._plan"),
    **dict.fromkeys(("Cost", "ExecutorRules", "RepairReport", "RepairResult", "execute",
                     "repair"), "replay"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

__version__ = "0.1.0"

__all__ = [
    "Cost",
    "ExecutorRules",
    "ModelClient",
    "RepairReport",
    "RepairResult",
    "execute",
    "repair",
    "CASE_FORMAT",
    "Analysis",
    "Answer",
    "Case",
    "CaseError",
    "Claim",
    "Dep",
    "DgrrError",
    "EvalLabels",
    "MemoryRead",
    "MemoryRecord",
    "MemoryWrite",
    "ModelError",
    "Plan",
    "PlanChange",
    "PlanEdit",
    "PlanEditError",
    "PlanReport",
    "RepairPlan",
    "Step",
    "Tool",
    "ToolAction",
    "ToolObservation",
    "Turn",
    "analyse",
    "fault_dependents",
    "fault_path",
    "apply_edits",
    "check_edits",
    "edits_from_report",
    "plan_diff",
    "build_graph",
    "case_from_data",
    "case_from_parts",
    "check_case_data",
    "find_seed",
    "fixture_path",
    "lineage",
    "load_case",
    "load_case_parts",
    "load_example",
    "parse_case",
    "plan_case",
    "with_faults",
]
