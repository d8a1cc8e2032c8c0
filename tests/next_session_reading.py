"""What the next-session agent's rule tests ask of its reader: the goals a text orders, a
record holding a text, and why the agent is unsure of a text. Shared by the
tests/test_rules_next_session*.py files; import it after `pytest.importorskip("agentdojo")`."""

from __future__ import annotations

from types import SimpleNamespace

from repair_core.bench._agentdojo_unsure import unsure_readings
from repair_core.model._agentdojo import orders_in


def asked(text: str) -> list[str]:
    """The injection goals `text` orders, in the reader's order."""
    return [goal for goal, _ in orders_in(text)]


def record(text: str) -> SimpleNamespace:
    """A memory record holding `text`, as the agent reads one."""
    return SimpleNamespace(id="m_note", key="note", text=text, value=None)


def unsure(text: str, goal: str) -> list[str]:
    """The reasons the agent gives for being unsure of `text` as an order of `goal`."""
    return [r.reason for r in unsure_readings([record(text)], goal)]
