"""`dgrr graph` on a large case draws steps and the edges between what it keeps."""

from __future__ import annotations

import pytest

from repair_core import case_from_data, plan_case
from repair_core._synth import synth_case_data
from repair_core.viz import NEIGHBOURHOOD_LIMIT, affected_neighbourhood, graph_view


@pytest.mark.slow
def test_neighbourhood_of_a_100k_step_case_has_steps_and_edges() -> None:
    plan = plan_case(case_from_data(synth_case_data(100_000, 20_000, 3, 2)))
    assert len(plan.analysis.affected) > NEIGHBOURHOOD_LIMIT  # the cut is exercised
    hood = affected_neighbourhood(plan)
    assert len(hood) <= NEIGHBOURHOOD_LIMIT
    assert set(plan.case.faults) <= hood
    G = plan.analysis.graph
    steps = [n for n in hood if G.nodes[n]["kind"] == "step"]
    assert len(steps) > len(hood) // 2
    view = graph_view(plan)
    assert len(view.nodes) == len(hood)
    drawn = [e for e in view.edges if e.label != "chain"]
    # each kept affected node but the faults and seeds came with the edge that reached it
    assert len(drawn) >= len(hood) - len(plan.case.faults) * 2
    kept = {n.id for n in view.nodes}
    assert all(e.source in kept and e.target in kept for e in view.edges)
