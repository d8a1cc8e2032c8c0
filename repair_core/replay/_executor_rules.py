"""Which of the executor's rules for baselines at their best a replay applies.

Two rules of the replay executor serve every repair method alike: a replayed answer sees
what the replay re-derived or refreshed in its turn (`replay.answer.sees-replayed`), and
only calls that descend from a diagnosed fault are taken back (`replay.world.own-action`).
Both are on by default; turning one off runs the executor as it ran before that rule, so
what each rule moves can be measured on any suite (`benchmarks/executor_rules_across_seeds.py`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["ExecutorRules", "RULES_BEFORE"]


class ExecutorRules(BaseModel):
    """The executor's switchable rules (default: both on, the executor as documented)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    answer_sees_replayed: bool = True
    """Rule `replay.answer.sees-replayed`: the replayed answer's evidence adds every claim
    the replay re-derived and every observation it refreshed in the answer's turn. Off:
    the answer sees only its own premises, as the replay left them."""
    keep_own_actions: bool = True
    """Rule `replay.world.own-action`: a removed call no diagnosed fault led to keeps its
    effect and its output, and is not issued again. Off: every invalidated or replayed
    call's effect is undone and a replayed one is issued again."""


RULES_BEFORE = ExecutorRules(answer_sees_replayed=False, keep_own_actions=False)
"""The executor as it was before both rules."""
