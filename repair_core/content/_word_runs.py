"""Which word sequences hold which others as a run of their words, in time linear in
their words (an Aho-Corasick automaton over words)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["held_within"]


def held_within(runs: Sequence[Sequence[str]]) -> list[tuple[int, ...]]:
    """For each of `runs`, the indices (ascending, each once) of the longer runs that hold
    its words as a run of theirs.

    A fault's text may be one name of a hundred thousand capitalised words: listing every
    run of every name's words grew with the cube of its length. Here each run is walked
    once through an automaton of all of them; a run found at a place is reported with the
    shorter runs that end there (its suffixes), and that walk stops at the first one
    already reported for this holder, whose own suffixes were reported with it.

    >>> held_within([["emma", "johnson"], ["johnson"], ["emma"], ["lin"], ["johnson"]])
    [(), (0,), (0,), (), (0,)]
    >>> held_within([["a", "b", "a", "b"], ["a", "b"], ["b", "a", "b"]])
    [(), (0, 2), (0,)]
    """
    goto: list[dict[str, int]] = [{}]
    depth = [0]
    ending: list[list[int]] = [[]]  # the runs that are exactly this state's words
    for i, run in enumerate(runs):
        state = 0
        for word in run:
            nxt = goto[state].get(word)
            if nxt is None:
                nxt = len(goto)
                goto[state][word] = nxt
                goto.append({})
                depth.append(depth[state] + 1)
                ending.append([])
            state = nxt
        if run:
            ending[state].append(i)
    fail = [0] * len(goto)
    # the nearest state down the failure links (itself excluded) at which a run ends
    report = [0] * len(goto)
    queue = deque(goto[0].values())
    while queue:
        state = queue.popleft()
        for word, nxt in goto[state].items():
            if state:
                back = fail[state]
                while back and word not in goto[back]:
                    back = fail[back]
                fail[nxt] = goto[back].get(word, 0)
            report[nxt] = fail[nxt] if ending[fail[nxt]] else report[fail[nxt]]
            queue.append(nxt)
    holders: list[list[int]] = [[] for _ in runs]
    for j, run in enumerate(runs):
        seen: set[int] = set()  # states whose runs are reported for this holder
        state = 0
        for word in run:
            while state and word not in goto[state]:
                state = fail[state]
            state = goto[state].get(word, 0)
            at = state if ending[state] else report[state]
            while at and at not in seen:
                seen.add(at)
                if depth[at] < len(run):
                    for i in ending[at]:
                        holders[i].append(j)
                at = report[at]
    return [tuple(h) for h in holders]
