"""The executor on synthetic cases (unregistered tools, failed updates, consolidations,
several faults): it never crashes, the repaired trajectory is a valid case, no fault stays
active, and an invalidated claim's text reaches a prompt only where a valid source says
the same thing."""

from __future__ import annotations

import pytest

from repair_core import case_from_data, plan_case
from repair_core._synth import synth_case_data
from repair_core.model import ModelClient
from repair_core.replay import repair


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("size", [(40, 10, 2), (120, 30, 3)], ids=["small", "medium"])
def test_synthetic_case_repairs_safely(seed, size):
    case = case_from_data(synth_case_data(*size, seed=seed))
    plan = plan_case(case)
    client = ModelClient()
    result = repair(case, plan, client=client)
    again = case_from_data(result.trajectory.model_dump(mode="json"))
    assert len(again.trajectory) == len(case.trajectory)
    assert not {m.id for m in result.store.active} & set(case.faults)
    assert result.answer is not None and not result.report.failures
    valid = [m.text for m in result.store.active]
    retired = set(result.report.store_changes.retired)  # valid until a replayed write retired them
    valid += [m.text for m in result.trajectory.memory if m.id in retired]
    valid += [s.text for s in case.trajectory if plan.steps[s.id] == "keep"]
    valid += [s.text for s in result.trajectory.trajectory
              if s.model_extra.get("repair") in ("replayed", "refreshed")]
    prompts = client.prompts()
    for claim in case.trajectory:
        if (claim.type == "claim" and plan.steps[claim.id] in ("invalidate", "replay")
                and any(claim.text in p for p in prompts)):
            assert any(claim.text in v for v in valid), (claim.id, claim.text)
