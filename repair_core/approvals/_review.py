"""What a reviewer signs: hashes of inputs and outputs, the exports, a Markdown report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from .._plan import RepairPlan
from ._store import ApprovalRecord, ApprovalStore, sha256_json

__all__ = [
    "approval_hashes",
    "record_decision",
    "repaired_store",
    "repaired_trajectory",
    "markdown_report",
    "result_data",
]


def result_data(result: Any) -> dict[str, Any] | None:
    """A repair result (pydantic model or its JSON dict) as JSON data."""
    if result is None:
        return None
    if hasattr(result, "model_dump"):
        return dict(result.model_dump(mode="json"))
    return dict(result)


def approval_hashes(plan: RepairPlan, result: Any = None) -> tuple[str, str]:
    """(inputs, outputs) sha256: inputs = the case and the plan edits; outputs = the plan
    report and the repair result (when there is one)."""
    inputs = sha256_json({"case": plan.case.model_dump(mode="json"),
                          "edits": [e.model_dump(mode="json") for e in plan.edits]})
    outputs = sha256_json({"plan": plan.report().model_dump(mode="json"),
                           "result": result_data(result)})
    return inputs, outputs


def record_decision(store: ApprovalStore, plan: RepairPlan, *, reviewer: str, decision: str,
                    comment: str = "", result: Any = None) -> ApprovalRecord:
    """Append the reviewer's decision on `plan` (and its replay `result`, if any)."""
    inputs, outputs = approval_hashes(plan, result)
    data = result_data(result)
    model = (data or {}).get("report", {}).get("model") if data else None
    return store.add(case_id=plan.case.case_id, reviewer=reviewer, decision=decision,
                     comment=comment, plan_edits=[e.model_dump(mode="json") for e in plan.edits],
                     forced=plan.forced, inputs_sha256=inputs, outputs_sha256=outputs,
                     model=model)


def repaired_store(plan: RepairPlan, result: Any = None) -> dict[str, Any]:
    """The repaired active store and quarantine partition: the replay's when there is a
    result, else what the plan's dispositions alone give (before any replayed write)."""
    data = result_data(result)
    if data is not None and "store" in data:
        return dict(data["store"])
    active, quarantine = [], []
    for m in plan.case.memory:
        action = plan.memory[m.id]
        record = m.model_dump(mode="json")
        if action == "quarantine":
            quarantine.append(record)
        elif action == "restore":
            active.append({**record, "status": "active"})
        elif action == "keep" and m.status == "active":
            active.append(record)
    return {"active": active, "quarantine": quarantine}


def repaired_trajectory(plan: RepairPlan, result: Any = None) -> dict[str, Any]:
    """The repaired trajectory (the replay's case) or, before a replay, the steps with
    their planned actions."""
    data = result_data(result)
    if data is not None and "trajectory" in data:
        return dict(data["trajectory"])
    return {"case_id": plan.case.case_id, "planned": True,
            "steps": [{**s.model_dump(mode="json"), "action": plan.steps[s.id],
                       "reason": plan.reasons.get(s.id)} for s in plan.case.steps_in_order()]}


def _md(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown_report(plan: RepairPlan, result: Any = None,
                    approvals: Iterable[ApprovalRecord] = (),
                    hashes: tuple[str, str] | None = None) -> str:
    """A Markdown report of the repair: faults, decisions with reasons, edits, answers,
    cost and the recorded approvals (`hashes` saves recomputing `approval_hashes`)."""
    case = plan.case
    data = result_data(result)
    lines = [f"# Repair report — case `{case.case_id}`", ""]
    lines.append(f"- domain: {case.domain or '—'}; user: {case.user_id}")
    lines.append(f"- diagnosed faults: {', '.join(case.faults) or 'none'}")
    lines.append("- seeds: " + (", ".join(f"{f} → {s}" for f, s in plan.analysis.seeds.items())
                                 or "none"))
    mem = Counter(plan.memory.values())
    steps = Counter(plan.steps.values())
    lines.append("- memory: " + ", ".join(f"{n} {k}" for k, n in sorted(mem.items())))
    lines.append("- trajectory: " + ", ".join(f"{n} {k}" for k, n in sorted(steps.items())))
    lines.append(f"- replay: {len(plan.replay_set)} of {len(case.trajectory)} steps "
                 f"({' → '.join(plan.replay_order())})")
    inputs, outputs = hashes if hashes is not None else approval_hashes(plan, result)
    lines.append(f"- inputs sha256: `{inputs}`; outputs sha256: `{outputs}`")
    lines += ["", "## Decisions", "", "| node | decision | reason |", "|---|---|---|"]
    for node, action in [*plan.memory.items(), *plan.steps.items()]:
        if action != "keep" or node in plan.reasons:
            lines.append(f"| {node} | {action} | {_md(plan.reasons.get(node, ''))} |")
    if plan.edits:
        lines += ["", "## Reviewer edits", "", "| node | computed | edited | comment |",
                  "|---|---|---|---|"]
        lines += [f"| {e.node} | {e.before} | {e.action} | {_md(e.comment or '')} |"
                  for e in plan.edits]
        if plan.forced:
            lines.append("\nSome edits override an invariant of the method (forced).")
    lines += ["", "## Answers", "", f"- original: {_md(case.final_answer().text)}"]
    if data is not None:
        lines.append(f"- corrected: {_md(data.get('answer'))}")
        cost = data.get("cost") or {}
        lines.append(f"- cost: {cost.get('llm_calls', '?')} model calls, "
                     f"{cost.get('tokens', '?')} tokens, replay ratio "
                     f"{cost.get('replay_ratio', '?')}")
        report = data.get("report") or {}
        for key, title in (("irreversible_effects", "Irreversible effects (not undone)"),
                           ("skipped_writes", "Skipped writes"),
                           ("failures", "Failures")):
            items = report.get(key) or []
            if items:
                lines += ["", f"## {title}", ""]
                lines += [f"- {_md(item)}" for item in items]
    else:
        lines.append("- corrected: (not replayed yet)")
    approvals = list(approvals)
    if approvals:
        lines += ["", "## Approvals", "", "| time (UTC) | reviewer | decision | comment |",
                  "|---|---|---|---|"]
        lines += [f"| {a.created_at:%Y-%m-%d %H:%M:%S} | {_md(a.reviewer)} | {a.decision} | "
                  f"{_md(a.comment)} |" for a in approvals]
    return "\n".join(lines) + "\n"
