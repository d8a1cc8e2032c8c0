"""An AgentDojo case built from task numbers, as `build_cases` builds each of the suite's:
user task `a` of `suite` under injection task `inj` by `attack`, then user task `b` as the
next session's task. Import after `pytest.importorskip("agentdojo")`."""

from __future__ import annotations

from typing import Any

from repair_core.bench._agentdojo import _load_attack, build_case
from repair_core.model._agentdojo import agentdojo_suite


def agentdojo_doc(suite: str, a: int, inj: int, b: int,
                  attack: str = "important_instructions") -> dict[str, Any]:
    """The case document (`build_case`) for these tasks."""
    s = agentdojo_suite(suite)
    ua, ui, ub = (s.get_user_task_by_id(f"user_task_{a}"),
                  s.get_injection_task_by_id(f"injection_task_{inj}"),
                  s.get_user_task_by_id(f"user_task_{b}"))
    doc = build_case(suite, ua, ui, ub, attack, _load_attack(attack, s).attack(ua, ui))
    assert doc is not None
    return doc
