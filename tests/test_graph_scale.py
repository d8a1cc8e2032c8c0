"""`dgrr graph` on a large case draws steps and the edges between what it keeps."""

from __future__ import annotations

import pytest

from repair_core import case_from_data, plan_case, with_faults
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


def _types_of(view) -> set[str]:
    return {n.type for n in view.nodes}


def test_type_filter_on_a_large_graph_draws_the_wanted_types_up_to_the_limit() -> None:
    """The neighbourhood is chosen among the nodes the type filter keeps (a neighbourhood
    cut first and filtered after drew 1,800 of 2,000 on a 130k-node case without records,
    and only 200 records with records alone; an older cut drew none)."""
    from repair_core.case._case import STEP_TYPES

    plan = plan_case(case_from_data(synth_case_data(3000, 600, 3, 2)))
    limit = 300
    a = plan.analysis
    assert len(a.affected) > limit
    every = ["turn", "record", *STEP_TYPES]
    steps_only = graph_view(plan, node_types=[t for t in every if t != "record"],
                            max_nodes=limit)
    assert len(steps_only.nodes) == limit and "record" not in _types_of(steps_only)
    drawn = {n.id for n in steps_only.nodes}
    assert drawn <= a.affected  # the affected steps nearest the faults, not far ones
    assert set(a.seeds.values()) - set(a.faults) <= drawn  # where the faults entered
    recorded = [e for e in steps_only.edges if e.label != "chain"]
    assert len(recorded) >= limit // 2
    assert all(e.source in drawn and e.target in drawn for e in steps_only.edges)
    records = graph_view(plan, node_types=["record"], max_nodes=limit)
    G = a.graph
    hit = {m.id for m in plan.case.memory if m.id in a.affected}
    near = {m.id for m in plan.case.memory
            if any(nb in a.affected for nb in (*G.pred[m.id], *G.succ[m.id]))} - hit
    assert len(hit) < limit < len(hit | near)  # every affected record, then neighbours
    assert _types_of(records) == {"record"} and len(records.nodes) == limit
    assert hit <= {n.id for n in records.nodes}
    assert set(plan.case.faults) <= {n.id for n in records.nodes}
    # With no node of the wanted types affected or next to one, the first ones by time
    # are drawn (and the note says so), never an empty picture.
    calm = plan_case(with_faults(plan.case, []))
    only_records = graph_view(calm, node_types=["record"], max_nodes=50)
    assert len(only_records.nodes) == 50 and _types_of(only_records) == {"record"}
    assert "the first by time" in (only_records.note or "")
