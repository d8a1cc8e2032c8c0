"""`held_within` finds, for each run of words, the longer runs holding it, as listing
every run of every holder's words finds them, in time linear in the words."""

from __future__ import annotations

from cpu_time import cpu_seconds
from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core.content._word_runs import held_within


def _listed(runs: list[list[str]]) -> list[tuple[int, ...]]:
    """Every run of every holder's words listed: the definition, cubic in a run's length."""
    holders: dict[tuple[str, ...], set[int]] = {}
    for j, run in enumerate(runs):
        w = tuple(run)
        for a in range(len(w)):
            for b in range(a + 1, len(w) + 1):
                if b - a < len(w):
                    holders.setdefault(w[a:b], set()).add(j)
    return [tuple(sorted(holders.get(tuple(run), ()))) for run in runs]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["emma", "johnson", "lin", "a"]), max_size=7),
                max_size=8))
def test_held_within_finds_what_listing_every_run_finds(runs):
    assert held_within(runs) == _listed(runs)


def test_a_run_of_a_hundred_thousand_words_and_its_many_parts_take_well_under_a_second():
    runs = [["aaaa", "bbbb"] * 50_000, *(["aaaa", "bbbb"] * k for k in range(1, 300))]
    found, seconds = cpu_seconds(lambda: held_within(runs))
    assert seconds < 1.0
    assert found[0] == ()
    assert all(found[k] == (0, *range(k + 1, 300)) for k in range(1, 300))
