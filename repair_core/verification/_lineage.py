"""What each record's recorded lineage reaches, worked out for every record in one pass.

A record's recorded lineage is every node its deps reach, followed back. The content
check asks the same questions of many records' lineages: which faults or suspected
sources a lineage reaches, in the order a walk back from the record meets them, and what
its texts hold. Walking each record's lineage apart costs the records times the lineage
(at 300k steps, 458 records each walked a chain of about 180,000 nodes); here each node
is read once and hands what it reaches to the nodes that depend on it.

The walk whose order is kept (`walk_back`): from a node, its deps are taken last recorded
first, depth first, each node once; the node itself is met only if a path leads back to
it. Deps may form cycles (a write that updates a record can depend on steps that read
it), so the pass runs over the strongly connected components, each after every
component it reaches (Tarjan's algorithm). Inside a cycle that meets two or more of the
nodes asked about, the order depends on where the walk enters it, so each of its nodes
walks the cycle once: the cost there is the cycle's size squared, and linear everywhere
else.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence

__all__ = ["components", "first_marks_by_lineage", "held_by_lineage", "meets_in_order",
           "record_first_marks", "record_holds", "record_meets", "walk_back"]

Deps = Mapping[str, Sequence[str]]
"""Node id -> the ids of its deps, in recorded order. An id that is not a key has no
deps (a user turn, or an id the case does not hold)."""

_DONE = -1


def walk_back(node: str, deps: Deps) -> Iterator[str]:
    """Every node `node`'s deps reach, followed back, in the order the walk meets them
    (each once; ids that are not keys of `deps` left out), met as the walk goes, so a
    caller may stop it. One node's walk: what the passes below give for every node at
    once."""
    seen: set[str] = set()
    stack = list(deps.get(node, ()))
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n in deps:
            yield n
            stack.extend(deps[n])


def components(deps: Deps, starts: Iterable[str],
               within: Collection[str] | None = None) -> Iterator[list[str]]:
    """The strongly connected components of the nodes `starts` reach through `deps`, each
    after every component it reaches. Only keys of `deps` (and of `within`, when given)
    are entered; any other id is a leaf outside every component."""
    num: dict[str, int] = {}  # order of discovery; _DONE once its component is given
    stack: list[str] = []
    count = 0

    def entered(n: str) -> bool:
        return n in deps and (within is None or n in within)

    for start in starts:
        if start in num or not entered(start):
            continue
        num[start] = count
        count += 1
        stack.append(start)
        # per node being searched: the node, its remaining deps, its lowest reachable number
        work: list[tuple[str, Iterator[str], int]] = [(start, iter(deps[start]), num[start])]
        while work:
            node, rest, low = work[-1]
            for d in rest:
                at = num.get(d)
                if at is None:
                    if not entered(d):
                        continue
                    num[d] = count
                    work.append((d, iter(deps[d]), count))
                    count += 1
                    stack.append(d)
                    break
                if at != _DONE and at < low:
                    low = at
            else:
                work.pop()
                if low == num[node]:
                    component = []
                    while True:
                        n = stack.pop()
                        num[n] = _DONE
                        component.append(n)
                        if n == node:
                            break
                    yield component
                if work:
                    parent, parent_rest, parent_low = work[-1]
                    if low < parent_low:
                        work[-1] = (parent, parent_rest, low)
                continue
            work[-2] = (node, rest, low)  # a dep was entered: keep this node's low so far


def meets_in_order(deps: Deps, targets: Collection[str], starts: Iterable[str],
                   within: Collection[str] | None = None) -> dict[str, tuple[str, ...]]:
    """Node -> the `targets` a walk from it meets, itself first when it is one, in the
    order `walk_back` meets them, for every node `starts` reach. `within`: the nodes from
    which any target can be reached (the rest meet none and are not entered); None for
    every node."""
    met: dict[str, tuple[str, ...]] = {}
    for component in components(deps, starts, within):
        if len(component) == 1:
            node = component[0]
            # a dep that is the node itself meets nothing new: the walk has met it
            met[node] = _joined([node] if node in targets else [],
                                (met.get(d, ()) for d in reversed(deps[node])))
            continue
        inside = set(component)
        reached = {n for n in component if n in targets}
        for n in component:
            for d in deps[n]:
                if d not in inside:
                    reached.update(met.get(d, ()))
        if len(reached) <= 1:  # every node of a cycle reaches all of it: no order to keep
            for n in component:
                met[n] = tuple(reached)
            continue
        for n in component:
            met[n] = _walk_cycle(n, deps, inside, targets, met)
    return met


def _joined(first: list[str], parts: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """`first`, then each part's items not yet given, in order; the part itself when it
    is all there is (most nodes meet what one dep meets: the same tuple is kept)."""
    out = list(first)
    given = set(out)
    only: tuple[str, ...] | None = None
    for part in parts:
        if not part:
            continue
        if not out:
            out.extend(part)
            given.update(part)
            only = part
            continue
        for t in part:
            if t not in given:
                given.add(t)
                out.append(t)
                only = None
    return only if only is not None else tuple(out)


def _walk_cycle(start: str, deps: Deps, inside: set[str], targets: Collection[str],
                met: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The targets a walk from `start`, a node of the cycle `inside`, meets in order: the
    walk itself inside the cycle, and what each dep outside it meets (already known)."""
    out: list[str] = [start] if start in targets else []
    given = set(out)
    marked = {start}
    frames = [reversed(deps[start])]
    while frames:
        for d in frames[-1]:
            if d in inside:
                if d in marked:
                    continue
                marked.add(d)
                if d in targets and d not in given:
                    given.add(d)
                    out.append(d)
                frames.append(reversed(deps[d]))
                break
            for t in met.get(d, ()):
                if t not in given:
                    given.add(t)
                    out.append(t)
        else:
            frames.pop()
    return tuple(out)


def record_meets(node: str, deps: Deps, met: Mapping[str, tuple[str, ...]]
                 ) -> tuple[str, ...]:
    """The targets `node`'s lineage meets in `walk_back`'s order, from `met`
    (`meets_in_order`): what each of its deps meets, last recorded first."""
    return _joined([], (met.get(d, ()) for d in reversed(deps.get(node, ()))))


def held_by_lineage(deps: Deps, holds: Callable[[str], int], starts: Iterable[str]
                    ) -> dict[str, int]:
    """Node -> the union (bits) of `holds` over the node and every node its deps reach,
    for every node `starts` reach. `holds` is asked once per node."""
    got: dict[str, int] = {}
    for component in components(deps, starts):
        bits = 0
        for n in component:
            bits |= holds(n)
            for d in deps[n]:
                bits |= got.get(d, 0)
        for n in component:
            got[n] = bits
    return got


def record_holds(node: str, deps: Deps, got: Mapping[str, int]) -> int:
    """The union of `holds` over `node`'s lineage, from `got` (`held_by_lineage`)."""
    bits = 0
    for d in deps.get(node, ()):
        bits |= got.get(d, 0)
    return bits


def first_marks_by_lineage(deps: Deps, marks: Mapping[str, Sequence[str]],
                           starts: Iterable[str], within: Collection[str] | None = None
                           ) -> dict[str, dict[str, str]]:
    """Node -> {mark: a node carrying it}, one per mark carried by the node or a node its
    deps reach (`marks`: node -> the marks it carries), for every node `starts` reach;
    the node named is the node itself, else the one its deps give, last recorded first
    (in a cycle, any node of the cycle carrying it). `within`: the nodes from which a
    marked node can be reached (the rest carry none and are not entered). Like
    `held_by_lineage` with a witness per bit: each node is read once and costs its deps
    times the marks they carry, so the cost is linear in the graph for a bounded number
    of marks, however many nodes carry them; a node that only passes on one dep's marks
    shares that dep's map."""
    got: dict[str, dict[str, str]] = {}
    empty: dict[str, str] = {}
    for component in components(deps, starts, within):
        inside = set(component)
        found: dict[str, str] | None = None
        only: dict[str, str] | None = None
        for n in component:
            for mark in marks.get(n, ()):
                found = found if found is not None else {}
                found.setdefault(mark, n)
        for n in component:
            for d in reversed(deps[n]):
                part = got.get(d, empty) if d not in inside else empty
                if not part:
                    continue
                if found is None:
                    found, only = part, part
                    continue
                if part is only:
                    continue
                if only is not None:  # about to add to a shared map: copy it first
                    found, only = dict(found), None
                for mark, node in part.items():
                    if mark not in found:
                        found[mark] = node
        for n in component:
            got[n] = found if found is not None else empty
    return got


def record_first_marks(node: str, deps: Deps, got: Mapping[str, Mapping[str, str]]
                       ) -> dict[str, str]:
    """{mark: a node carrying it} over `node`'s lineage, from `got`
    (`first_marks_by_lineage`): what each of its deps gives, last recorded first."""
    out: dict[str, str] = {}
    for d in reversed(deps.get(node, ())):
        for mark, n in got.get(d, {}).items():
            out.setdefault(mark, n)
    return out
