"""Replay prompts carry the step's premises and a bounded conversation, not the case."""

from __future__ import annotations

import pytest

from repair_core import Turn, case_from_data
from repair_core._synth import synth_case_data
from repair_core.case._case import Answer, Dep
from repair_core.replay import repair
from repair_core.replay._bounds import EARLIER_TURNS, Conversation


def test_earlier_turns_are_the_recent_ones_and_those_depended_on() -> None:
    session = [Turn(id=f"u{i}", seq=i * 10, text=f"turn {i}") for i in range(40)]
    session.reverse()  # session order is kept, whatever it is
    conv = Conversation(session)
    turn = next(t for t in session if t.id == "u30")
    step = Answer(id="a", seq=305, turn="u30", text="", type="answer",
                  deps=[Dep(id="u2", label="cite"), Dep(id="u35", label="cite")])
    got = [t.id for t in conv.earlier(turn, step)]
    assert got == [f"u{i}" for i in range(29, 29 - EARLIER_TURNS, -1)] + ["u2"]


@pytest.mark.slow
def test_prompt_tokens_do_not_grow_with_the_case() -> None:
    def largest_call(steps: int) -> int:
        case = case_from_data(synth_case_data(steps, steps // 5, 3, 2))
        assert len(case.session) > 10 * EARLIER_TURNS * (steps // 3000)
        outcomes = repair(case).report.steps
        return max(o.tokens // max(o.llm_calls, 1) for o in outcomes if o.llm_calls)

    small, large = largest_call(1500), largest_call(12000)
    assert large < 2 * small
