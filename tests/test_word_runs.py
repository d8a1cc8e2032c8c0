"""`held_within` finds, for each run of words, the longer runs holding it, as listing
every run of every holder's words finds them, in time linear in the words."""

from __future__ import annotations

from math import isqrt

from cpu_time import grows_linearly
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


def _long_run_and_parts(n: int) -> list[list[str]]:
    """A run of 2n words, then runs of 2, 4, ... words up to about 2 * sqrt(n): all its
    parts, about n words in all."""
    return [["aaaa", "bbbb"] * n, *(["aaaa", "bbbb"] * k for k in range(1, isqrt(n)))]


def test_a_long_run_of_words_and_its_many_parts_take_time_linear_in_their_words():
    found, _, _ = grows_linearly(_long_run_and_parts, held_within, 6_250)
    holders = isqrt(8 * 6_250)
    assert len(found) == holders and found[0] == ()
    assert all(found[k] == (0, *range(k + 1, holders)) for k in range(1, holders))
