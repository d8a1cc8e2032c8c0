"""Stage 4 (selective replay) and stage 5 (repair outputs)."""

from ._again import replay_again
from ._executor import ProgressFn, execute, repair
from ._executor_rules import RULES_BEFORE, ExecutorRules
from ._models import (
    Cost,
    Decision,
    Failure,
    RemovedPremise,
    RepairedStore,
    RepairReport,
    RepairResult,
    SkippedWrite,
    StepOutcome,
    StoreChanges,
    ToolNote,
    WorldEffect,
)
from ._taken_plan import TakenPlan, take_plan

__all__ = [
    "Cost",
    "Decision",
    "ExecutorRules",
    "Failure",
    "ProgressFn",
    "RULES_BEFORE",
    "RemovedPremise",
    "RepairReport",
    "RepairResult",
    "RepairedStore",
    "SkippedWrite",
    "StepOutcome",
    "StoreChanges",
    "TakenPlan",
    "ToolNote",
    "WorldEffect",
    "execute",
    "repair",
    "replay_again",
    "take_plan",
]
