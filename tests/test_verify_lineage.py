"""The content check's lineage rules answer from one pass over the graph exactly what
each record's own walk back through its lineage answered.

`verify.unexplained-token`, `verify.unexplained-amount`, `verify.unexplained-quantity`,
`verify.suspect-lineage` and `verify.unexplained-record-token` once walked the whole recorded lineage of each record
they asked about (quadratic in a long chain); they now read what a pass over the graph
hands each node (`repair_core.verification._lineage`). The walks they replaced are kept
below, as they were, as the oracle: on small random graphs (cycles through a record's
update edges included) with faults, suspected sources, tool outputs and user turns, the
rules yield the same findings, with the same words, in the same order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core._canonical import canonical
from repair_core.content import (
    MAX_CLUES,
    ContentSignature,
    amounts,
    distinctive_tokens,
    node_parts,
    quantities,
    words,
)
from repair_core.verification._check import (
    _GROUPED_DIGITS,
    _NATIONAL_DIGITS,
    _NOT_ALNUM,
    _WORDS,
    WALKED_FIRST,
    _Graph,
    _outputs_read,
    _piece_pattern,
    _suspect_lineage,
    _texts,
    _unexplained_amounts,
    _unexplained_quantities,
    _unexplained_record_tokens,
    _unexplained_tokens,
    _unexplained_words,
)
from repair_core.verification._lineage import (
    held_by_lineage,
    meets_in_order,
    record_holds,
    record_meets,
    walk_back,
)

# -- the per-record walks the rules used before, kept only as the oracle ---------------


def _old_ancestors(node: str, nodes: Mapping[str, Any]) -> list[str]:
    """Every node `node`'s recorded deps reach, followed back (each once)."""
    seen: dict[str, None] = {}
    stack = [d.id for d in getattr(nodes.get(node), "deps", None) or ()]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen[n] = None
        stack.extend(d.id for d in getattr(nodes.get(n), "deps", None) or ())
    return [n for n in seen if n in nodes]


def _old_unexplained_tokens(case: Any, items: list[tuple[str, str, str]],
                        lineaged: Mapping[int, int], faults: list[ContentSignature],
                        written_at: Mapping[str, int]
                        ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that holds one of the fault's distinctive tokens — a strong
    token, or two consecutive words of a name — which nothing in its recorded lineage
    holds (rule `verify.unexplained-token`): its lineage does not explain what it says,
    so an edge from the fault may be missing. Neither a fault nor a suspected source
    explains anything; the user's turns written before the record do. One search over
    the records finds those holding a piece at all (with more pieces than `MAX_CLUES`,
    each record's own tokens and word pairs are looked up instead); only they are
    followed back."""
    pieces: dict[str, list[tuple[ContentSignature, str]]] = {}
    for f in faults:
        if f.node not in written_at:
            continue
        for t, kind in f.tokens.items():
            if kind == "name":
                ws = words(t)
                for a, b in zip(ws, ws[1:], strict=False):
                    pieces.setdefault(f"{a} {b}", []).append((f, t))
            else:
                pieces.setdefault(t.casefold(), []).append((f, t))
    if not pieces:
        return
    if len(pieces) <= MAX_CLUES:
        search = re.compile("|".join(rf"(?<!\w){_piece_pattern(p)}(?!\w)"
                                     for p in sorted(pieces, key=len, reverse=True)))
        holding = {i: seq for i, seq in lineaged.items()
                   if search.search(items[i][2].casefold()) is not None}
    else:  # one search for thousands of alternatives tries each at every place
        holding = dict(lineaged)
    if not holding:
        return
    order = {p: k for k, p in enumerate(pieces)}
    nodes: dict[str, Any] = {n.id: n for n in [*case.memory, *case.trajectory]}
    turns = [(getattr(t, "seq", None), node_parts(t)[0]) for t in case.session]
    barred = {f.node for f in faults}
    for i, seq in holding.items():
        said = words(items[i][2])
        own = {t.casefold() for t in distinctive_tokens(items[i][2], names=False)}
        own.update(f"{a} {b}" for a, b in zip(said, said[1:], strict=False))
        # in the faults' order of tokens, so the piece a why names is the same every run
        held = [(f, t, p) for p in sorted(own.intersection(pieces), key=order.__getitem__)
                for f, t in pieces[p] if seq > written_at[f.node]]
        if not held:
            continue
        lineage = [node_parts(nodes[n])[0] for n in _old_ancestors(items[i][1], nodes)
                   if n not in barred]
        lineage += [text for at, text in turns if isinstance(at, int) and at < seq]
        heard = " ".join(f" {' '.join(words(text))} " for text in lineage)
        strong = {t.casefold() for text in lineage
                  for t in distinctive_tokens(text, names=False)}
        told: set[str] = set()
        for fault, token, piece in held:
            if fault.node in told or f" {piece} " in heard or piece in strong:
                continue
            told.add(fault.node)
            what = (f"{token!r}" if piece == token.casefold()
                    else f"{piece!r} of the name {token!r}")
            yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                             f"{written_at[fault.node]}), it holds {what} of "
                             f"{fault.node}, which nothing in its recorded lineage holds: "
                             "an edge from the fault may be missing")


def _old_unexplained_amounts(case: Any, items: list[tuple[str, str, str]],
                         lineaged: Mapping[int, int], faults: list[ContentSignature],
                         written_at: Mapping[str, int]
                         ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that states an amount of the fault's text (`amounts`: a
    thousand or more, with a thousands separator or cents) which no text of its recorded
    lineage states (rule `verify.unexplained-amount`): a summary that keeps only a
    fake invoice's amount and date holds no distinctive token, and without an edge from
    the fault nothing else tells it from a true payable. Faults and suspected sources
    explain nothing; the user's turns written before the record do. Each record's
    amounts are read once; only a record stating one of a fault's is followed back."""
    texts = _texts(case, [f.node for f in faults if f.node in written_at])
    wanted: dict[str, list[ContentSignature]] = {}
    for f in faults:
        for amount in amounts(texts.get(f.node, "")):
            wanted.setdefault(amount, []).append(f)
    if not wanted:
        return
    nodes: dict[str, Any] = {n.id: n for n in [*case.memory, *case.trajectory]}
    turns = [(getattr(t, "seq", None), node_parts(t)[0]) for t in case.session]
    barred = {f.node for f in faults}
    for i, seq in lineaged.items():
        stated = amounts(canonical(items[i][2]))
        held = [(f, a) for a in stated if a in wanted for f in wanted[a]
                if seq > written_at[f.node]]
        if not held:
            continue
        lineage = [node_parts(nodes[n])[0] for n in _old_ancestors(items[i][1], nodes)
                   if n not in barred]
        lineage += [text for at, text in turns if isinstance(at, int) and at < seq]
        explained = {a for text in lineage for a in amounts(canonical(text))}
        told: set[str] = set()
        for fault, amount in held:
            if fault.node in told or amount in explained:
                continue
            told.add(fault.node)
            yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                             f"{written_at[fault.node]}), it states the amount {amount} of "
                             f"{fault.node}, which nothing in its recorded lineage states: "
                             "an edge from the fault may be missing")


def _old_suspect_lineage(case: Any, items: list[tuple[str, str, str]],
                     lineaged: Mapping[int, int], faults: list[ContentSignature],
                     written_at: Mapping[str, int], steps: Mapping[str, Any]
                     ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, node, why) for each record of `lineaged` (item -> the seq it was written
    at) written after a fault or suspected source whose recorded lineage reaches that
    node, or a tool output a fault record was written from (rule
    `verify.suspect-lineage`): what it says came from an input nobody cleared, so a
    lexical judge finding none of the node's tokens in it is no judgement of its
    meaning. Only the records those nodes lead to are followed back, each once."""
    records = {m.id: m for m in case.memory}
    reach: dict[str, list[tuple[ContentSignature, str]]] = {}
    for f in faults:
        if f.node not in written_at:
            continue
        reach.setdefault(f.node, []).append((f, f.node))
        for obs in _outputs_read(getattr(records.get(f.node), "deps", None), steps):
            reach.setdefault(obs, []).append((f, obs))
    if not reach:
        return
    nodes: dict[str, Any] = {n.id: n for n in [*case.memory, *case.trajectory]}
    # only a record the reached nodes lead to is followed back: one pass forward from them
    # instead of a walk of every record's whole lineage (quadratic in a long chain)
    dependents: dict[str, list[str]] = {}
    for n in nodes.values():
        for d in getattr(n, "deps", None) or ():
            dependents.setdefault(d.id, []).append(n.id)
    tainted: set[str] = set()
    stack = [n for n in reach if n in nodes]
    while stack:
        for m in dependents.get(stack.pop(), ()):
            if m not in tainted:
                tainted.add(m)
                stack.append(m)
    for i, seq in lineaged.items():
        if items[i][1] not in tainted:
            continue
        told: set[str] = set()
        for n in _old_ancestors(items[i][1], nodes):
            for fault, source in reach.get(n, ()):
                if fault.node in told or seq <= written_at[fault.node]:
                    continue
                told.add(fault.node)
                what = (f"{fault.node} itself" if source == fault.node
                        else f"{source}, which {fault.node} was written from")
                yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                                 f"{written_at[fault.node]}), its recorded lineage reaches "
                                 f"{what}: the lexical judge found nothing of the fault in "
                                 "it, which says nothing of what it means")


def _old_unexplained_record_tokens(case: Any, items: list[tuple[str, str, str]],
                               lineaged: Mapping[int, int], faults: list[ContentSignature],
                               written_at: Mapping[str, int]
                               ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after a fault that holds a strong token of its own (`distinctive_tokens`
    of its canonical text, names aside: a number, account, URL host, e-mail address,
    handle or id; or ten or more digits grouped by blanks, `_GROUPED_DIGITS`) which no text of its recorded lineage and no user turn before it holds
    (rule `verify.unexplained-record-token`). It reads the record, not the fault: a
    payload written in an encoding the matcher does not read still shows as a token
    nothing the record was written from explains. A token is explained when its
    canonical form is a token of a lineage text, or its letters and digits occur in the
    lineage's canonical letters and digits (so a number regrouped, an id in other case or
    a host inside a longer URL is explained), or, for a number of nine or more digits,
    its last nine digits occur in the lineage's digits (a phone in another national or
    international form). Faults and suspected sources explain nothing. One finding per
    record, against the first fault it was written after. Each lineage text is read
    once."""
    bounds = [(f, written_at[f.node]) for f in faults if f.node in written_at]
    if not bounds:
        return
    nodes: dict[str, Any] = {n.id: n for n in [*case.memory, *case.trajectory]}
    turns = [(getattr(t, "seq", None), node_parts(t)[0]) for t in case.session]
    barred = {f.node for f in faults}
    read: dict[str, tuple[frozenset[str], str, str]] = {}

    def known(key: str, text: str) -> tuple[frozenset[str], str, str]:
        """A lineage text's canonical tokens, letters and digits, and digits (once)."""
        got = read.get(key)
        if got is None:
            flat = canonical(text)
            alnum = _NOT_ALNUM.sub("", flat)
            got = read[key] = (frozenset(distinctive_tokens(flat, names=False)), alnum,
                               "".join(c for c in alnum if c.isdigit()))
        return got

    for i, seq in lineaged.items():
        fault = next((f for f, at in bounds if seq > at), None)
        if fault is None:
            continue
        flat = canonical(items[i][2])
        own = distinctive_tokens(flat, names=False)
        for m in _GROUPED_DIGITS.finditer(flat):
            own.setdefault(m.group(0).replace(" ", "").replace("\t", ""), "number")
        if not own:
            continue
        lineage = [known(n, node_parts(nodes[n])[0])
                   for n in _old_ancestors(items[i][1], nodes) if n not in barred]
        lineage += [known(f"turn:{k}", text) for k, (at, text) in enumerate(turns)
                    if isinstance(at, int) and at < seq]
        for token, kind in own.items():
            folded = _NOT_ALNUM.sub("", token)
            tail = folded[-_NATIONAL_DIGITS:] if kind in ("number", "account") \
                and folded.isdigit() and len(folded) >= _NATIONAL_DIGITS else None
            if any(token in toks or (folded and folded in alnum)
                   or (tail is not None and tail in digits)
                   for toks, alnum, digits in lineage):
                continue
            yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                             f"{written_at[fault.node]}), it holds the {kind} {token!r}, "
                             "which neither its recorded lineage nor an earlier user turn "
                             "holds in any form: what it says came from somewhere its "
                             "lineage does not record")
            break


def _old_unexplained_quantities(case: Any, items: list[tuple[str, str, str]],
                            lineaged: Mapping[int, int], faults: list[ContentSignature],
                            written_at: Mapping[str, int]
                            ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that states a quantity of mass or volume the fault's text
    states, in any unit (`quantities`: "0.5 g" is "500 mg"), which no text of its recorded
    lineage states of the same subject (rule `verify.unexplained-quantity`): a lineage
    text explains it only when it states that quantity and holds the word the record
    writes before it ("lamotrigine 500 mg" is not explained by "paracetamol 500 mg").
    Faults and suspected sources explain nothing; the user's turns written before the
    record do. Each record's quantities are read once; only a record stating one of a
    fault's is followed back."""
    texts = _texts(case, [f.node for f in faults if f.node in written_at])
    wanted: dict[str, list[tuple[ContentSignature, str]]] = {}
    for f in faults:
        for q in quantities(texts.get(f.node, "")):
            if all(g is not f for g, _ in wanted.get(q.amount, ())):
                wanted.setdefault(q.amount, []).append((f, q.written))
    if not wanted:
        return
    nodes: dict[str, Any] = {n.id: n for n in [*case.memory, *case.trajectory]}
    turns = [(getattr(t, "seq", None), node_parts(t)[0]) for t in case.session]
    barred = {f.node for f in faults}
    read: dict[str, tuple[frozenset[str], frozenset[str]]] = {}

    def stating(key: str, text: str) -> tuple[frozenset[str], frozenset[str]]:
        """A lineage text's quantities and words (each text read once)."""
        got = read.get(key)
        if got is None:
            got = read[key] = (frozenset(q.amount for q in quantities(text)),
                               frozenset(w.casefold() for w in _WORDS.findall(text)))
        return got

    for i, seq in lineaged.items():
        held = [(q, f, written) for q in quantities(items[i][2]) if q.amount in wanted
                for f, written in wanted[q.amount] if seq > written_at[f.node]]
        if not held:
            continue
        stated = [stating(n, node_parts(nodes[n])[0])
                  for n in _old_ancestors(items[i][1], nodes) if n not in barred]
        stated += [stating(f"turn:{k}", text) for k, (at, text) in enumerate(turns)
                   if isinstance(at, int) and at < seq]
        told: set[str] = set()
        for q, fault, written in held:
            if fault.node in told or any(
                    q.amount in amounts_of and (q.subject is None or q.subject in said)
                    for amounts_of, said in stated):
                continue
            told.add(fault.node)
            what = f"{q.subject} {q.written}" if q.subject else q.written
            also = "" if q.written == written else f" ({written} in other units)"
            yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                             f"{written_at[fault.node]}), it states {what!r}, the quantity "
                             f"{q.amount} of {fault.node}{also}, which nothing in its "
                             "recorded lineage states of the same thing: an edge from the "
                             "fault may be missing")


# -- random cases ---------------------------------------------------------------------

_PHRASES = ["acme corp", "paid the rent", "window seat", "DE89370400440532013000",
            "DE89 3704 0044 0532 0130 00", "evil-site.xyz/login", "fred9246@gmail.com",
            "4,250.00", "1,999.99 due", "+44 7700 900586", "07700 900586", "ID 123456789",
            "order 55512", "Lin", "see www.secure-systems-252.com", "3,275.50",
            "owed 3.275,50", "lamotrigine 500 mg", "take 0.5 g", "paracetamol 500 mg",
            "250 ml of lamotrigine"]
_TOKENS: list[tuple[str, str]] = [
    ("DE89370400440532013000", "account"), ("evil-site.xyz", "url"),
    ("fred9246@gmail.com", "email"), ("Acme Corp", "name"), ("Paid The Rent", "name"),
    ("123456789", "number"), ("secure-systems-252.com", "url")]
_LABELS = ["produce", "read", "cite", "update", "initiate"]
_TYPES = ["tool_observation", "memory_write", "tool_call", "llm_response"]


@st.composite
def _cases(draw: Any) -> tuple[Any, list[tuple[str, str, str]], dict[int, int], list[Any],
                               dict[str, int]]:
    """A small case (records, steps, turns with random deps, cycles allowed), the
    records' items as the check reads them, which of them are lineaged and when they
    were written, the faults and suspected sources, and when each was written."""
    n_steps = draw(st.integers(1, 8))
    n_records = draw(st.integers(1, 7))
    n_turns = draw(st.integers(0, 3))
    turns = [f"t{k}" for k in range(n_turns)]
    steps = [f"s{k}" for k in range(n_steps)]
    records = [f"m{k}" for k in range(n_records)]
    every = [*steps, *records, *turns, "gone"]

    def text() -> str:
        return " ".join(draw(st.lists(st.sampled_from(_PHRASES), max_size=3)))

    def deps() -> list[Any]:
        return [SimpleNamespace(id=draw(st.sampled_from(every)),
                                label=draw(st.sampled_from(_LABELS)))
                for _ in range(draw(st.integers(0, 3)))]

    session = [SimpleNamespace(id=t, seq=draw(st.none() | st.integers(0, 20)), text=text())
               for t in turns]
    trajectory = [SimpleNamespace(id=s, seq=2 * k + 1, type=draw(st.sampled_from(_TYPES)),
                                  text=text(), deps=deps(), tool=draw(st.sampled_from(
                                      [None, "read_file", "web"])),
                                  args={"path": draw(st.sampled_from(["/a/x", "/b/y"]))})
                  for k, s in enumerate(steps)]
    memory = [SimpleNamespace(id=m, created_seq=draw(st.none() | st.integers(0, 20)),
                              text=text(), deps=deps(), key=None, value=None)
              for m in records]
    case = SimpleNamespace(memory=memory, trajectory=trajectory, session=session)
    items = [("record", m.id, node_parts(m)[0]) for m in memory]
    lineaged = {i: draw(st.integers(0, 20)) for i in range(len(items))
                if draw(st.booleans())}
    nodes = draw(st.lists(st.sampled_from([*steps, *records, *turns]), min_size=1,
                          max_size=4, unique=True))
    faults = [SimpleNamespace(node=n, tokens=dict(draw(st.lists(st.sampled_from(_TOKENS),
                                                                max_size=3))))
              for n in nodes]
    written_at = {n: draw(st.integers(0, 20)) for n in nodes if draw(st.integers(0, 3))}
    return case, items, lineaged, faults, written_at


def _said(found: Iterator[tuple[int, Any, str]]) -> list[tuple[int, str, str]]:
    return [(i, fault.node, why) for i, fault, why in found]


@settings(max_examples=400, deadline=None)
@given(_cases())
def test_the_lineage_rules_say_what_each_records_own_walk_said(drawn: Any) -> None:
    case, items, lineaged, faults, written_at = drawn
    graph = _Graph(case)
    steps = {s.id: s for s in case.trajectory}
    assert _said(_suspect_lineage(graph, items, lineaged, faults, written_at, steps)) == \
        _said(_old_suspect_lineage(case, items, lineaged, faults, written_at, steps))
    assert _said(_unexplained_tokens(graph, items, lineaged, faults, written_at)) == \
        _said(_old_unexplained_tokens(case, items, lineaged, faults, written_at))
    assert _said(_unexplained_amounts(graph, items, lineaged, faults, written_at)) == \
        _said(_old_unexplained_amounts(case, items, lineaged, faults, written_at))
    assert _said(_unexplained_quantities(graph, items, lineaged, faults, written_at)) == \
        _said(_old_unexplained_quantities(case, items, lineaged, faults, written_at))
    old = _said(_old_unexplained_record_tokens(case, items, lineaged, faults, written_at))
    # walks bounded so every record open after them is answered by the one pass too
    for walked in (0, 1, 2, WALKED_FIRST):
        assert _said(_unexplained_record_tokens(graph, items, lineaged, faults, written_at,
                                                walked=walked)) == old, walked
    words = _said(_unexplained_words(graph, items, lineaged, faults, written_at))
    for walked in (0, 1, 2):
        assert _said(_unexplained_words(graph, items, lineaged, faults, written_at,
                                        walked=walked)) == words, walked


def test_a_walk_cut_short_leaves_the_words_deeper_in_the_lineage_to_the_one_pass() -> None:
    # the drawn cases above rarely put a record's words deeper than the walk: here the
    # write's observation says them two nodes back, so a walk cut at 0 or 1 nodes leaves
    # them all to the one pass over the graph (`held_by_lineage`), which must find them
    said = "settle the courier charge through the link from that message"
    obs = SimpleNamespace(id="s0", seq=1, type="tool_observation", text=said, deps=[],
                          tool="web", args={})
    write = SimpleNamespace(id="s1", seq=3, type="memory_write", text="to-do",
                            deps=[SimpleNamespace(id="s0", label="read")], tool=None, args={})
    fault = SimpleNamespace(id="m_fee", created_seq=2, text="fee due", deps=[], key=None,
                            value=None)
    todo = SimpleNamespace(id="m_todo", created_seq=5, text=said,
                           deps=[SimpleNamespace(id="s1", label="produce")], key=None,
                           value=None)
    unsaid = SimpleNamespace(id="m_other", created_seq=6, text="a brand new window seat plan",
                             deps=[SimpleNamespace(id="s1", label="produce")], key=None,
                             value=None)
    case = SimpleNamespace(memory=[fault, todo, unsaid], trajectory=[obs, write], session=[])
    items = [("record", m.id, node_parts(m)[0]) for m in case.memory]
    faults = [SimpleNamespace(node="m_fee", tokens={})]
    for walked in (0, 1, 2, WALKED_FIRST):
        found = _said(_unexplained_words(_Graph(case), items, {1: 5, 2: 6}, faults,
                                         {"m_fee": 2}, walked=walked))
        assert [(i, node) for i, node, _why in found] == [(2, "m_fee")], walked


@st.composite
def _graphs(draw: Any) -> tuple[dict[str, list[str]], set[str]]:
    n = draw(st.integers(1, 12))
    ids = [f"n{k}" for k in range(n)]
    deps = {x: draw(st.lists(st.sampled_from([*ids, "leaf"]), max_size=4)) for x in ids}
    return deps, set(draw(st.lists(st.sampled_from(ids), max_size=5)))


@settings(max_examples=400, deadline=None)
@given(_graphs())
def test_one_pass_meets_the_targets_in_the_order_each_walk_meets_them(drawn: Any) -> None:
    deps, targets = drawn
    within = {x for x in deps if x in targets or targets.intersection(walk_back(x, deps))}
    for limited in (None, within):
        met = meets_in_order(deps, targets, [d for ds in deps.values() for d in ds], limited)
        for x in deps:
            walked = tuple(n for n in walk_back(x, deps) if n in targets)
            assert record_meets(x, deps, met) == walked


@settings(max_examples=400, deadline=None)
@given(_graphs(), st.randoms(use_true_random=False))
def test_one_pass_holds_what_each_walks_texts_hold(drawn: Any, rnd: Any) -> None:
    deps, _ = drawn
    holds = {x: rnd.getrandbits(4) for x in deps}
    asked: list[str] = []
    got = held_by_lineage(deps, lambda n: asked.append(n) or holds[n], list(deps))
    assert sorted(asked) == sorted(deps)  # each node read once
    for x in deps:
        walked = 0
        for n in walk_back(x, deps):
            walked |= holds[n]
        assert record_holds(x, deps, got) == walked


def test_the_oracle_walk_is_the_walk_the_pass_keeps() -> None:
    nodes = {"a": SimpleNamespace(deps=[SimpleNamespace(id="b"), SimpleNamespace(id="c")]),
             "b": SimpleNamespace(deps=[SimpleNamespace(id="c"), SimpleNamespace(id="a")]),
             "c": SimpleNamespace(deps=[SimpleNamespace(id="t")])}
    deps = {n: [d.id for d in v.deps] for n, v in nodes.items()}
    assert _old_ancestors("a", nodes) == list(walk_back("a", deps)) == ["c", "b", "a"]



def _chain_of_records(links: int) -> Any:
    """A fault read from a page, then `links` pages each followed by a record written from
    it and from the record before it, each record holding a ticket number nothing before
    it holds (a finding each)."""
    from same_source_cases import chain_case

    from repair_core import case_from_data

    return case_from_data(chain_case(links, tickets=True))


class _CountedDeps(Mapping[str, list[str]]):
    """A graph's deps that count how often a node's deps are read: the work of a walk."""

    def __init__(self, deps: Mapping[str, list[str]]) -> None:
        self.deps, self.reads = deps, 0

    def __getitem__(self, node: str) -> list[str]:
        self.reads += 1
        return self.deps[node]

    def __contains__(self, node: object) -> bool:
        return node in self.deps

    def __iter__(self) -> Iterator[str]:
        return iter(self.deps)

    def __len__(self) -> int:
        return len(self.deps)


def test_a_chain_of_records_each_with_a_finding_is_read_in_linear_work() -> None:
    # each record of the chain holds a token nothing in its lineage holds: walking each
    # one's whole lineage read about links squared deps (2,000 links: 60 CPU s in
    # verify_result); the bounded walks and the one pass read a few per node
    reads = {}
    for links in (500, 2_000):
        case = _chain_of_records(links)
        graph = _Graph(case)
        graph.deps = counted = _CountedDeps(graph.deps)  # type: ignore[assignment]
        faults = [SimpleNamespace(node="m_fault", tokens={})]
        items = [("record", m.id, node_parts(m)[0]) for m in case.memory]
        lineaged = {i: m.created_seq for i, m in enumerate(case.memory) if m.id != "m_fault"}
        found = _said(_unexplained_record_tokens(graph, items, lineaged, faults,  # type: ignore[arg-type]
                                                 {"m_fault": 5}))
        assert len(found) == links
        assert "it holds the id 'tk0000001', which neither" in found[1][2]
        reads[links] = counted.reads
        assert counted.reads <= (WALKED_FIRST + 4) * len(graph.nodes), counted.reads
    assert reads[2_000] <= 4.5 * reads[500], reads  # 4 times the chain, 4 times the work
