"""A tiny language for writing small cases in tests.

    make_case(
        turn("u1", 1),
        rec("m1"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite", returned=["m1"]),
        step("s3", 3, "claim", "s2:cite m1:cite!"),
        step("s4", 4, "answer", "s3:cite"),
        faults=["m1"],
    )

A dependency is `id:label`; a trailing `!` marks a sufficient cite, a trailing `~` an
inferred edge (an importer's guess), e.g. `m1:cite!~`.
"""

from __future__ import annotations

from typing import Any

from repair_core import Case, case_from_data


def deps(spec: str) -> list[dict[str, Any]]:
    out = []
    for token in spec.split():
        node, label = token.split(":")
        inferred = label.endswith("~")
        label = label.rstrip("~")
        d: dict[str, Any] = {"id": node, "label": label.rstrip("!")}
        if label.endswith("!"):
            d["sufficient"] = True
        if inferred:
            d["inferred"] = True
        out.append(d)
    return out


def turn(node: str, seq: int, text: str = "user turn") -> dict[str, Any]:
    return {"_kind": "turn", "id": node, "seq": seq, "text": text}


def rec(node: str, dep_spec: str = "", status: str = "active", user: str = "u",
        **extra: Any) -> dict[str, Any]:
    return {"_kind": "record", "id": node, "user_id": user, "text": f"record {node}",
            "status": status, "deps": deps(dep_spec), **extra}


def step(node: str, seq: int, kind: str, dep_spec: str = "", turn_id: str = "u1",
         **extra: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"_kind": "step", "id": node, "seq": seq, "turn": turn_id,
                         "type": kind, "text": f"{kind} {node}", "deps": deps(dep_spec)}
    if kind == "memory_write":
        d.setdefault("op", "add")
    d.update(extra)
    return d


def plain(node: dict[str, Any]) -> dict[str, Any]:
    """A node of this language as the case format writes it, to add to a case's data."""
    return {k: v for k, v in node.items() if k != "_kind"}


def case_data(*nodes: dict[str, Any], faults: list[str] | tuple[str, ...] = (),
              tools: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    buckets: dict[str, list[dict[str, Any]]] = {"turn": [], "record": [], "step": []}
    for n in nodes:
        n = dict(n)
        buckets[n.pop("_kind")].append(n)
    if not buckets["turn"]:
        buckets["turn"].append({"id": "u1", "seq": 0, "text": "user turn"})
    # a record a step of the run produced was written then (case.produced-in-run): it is
    # dated by its producer unless the test dates it
    seq_of = {s["id"]: s["seq"] for s in buckets["step"]}
    for r in buckets["record"]:
        if "created_seq" not in r:
            made = [seq_of[d["id"]] for d in r["deps"]
                    if d["label"] == "produce" and d["id"] in seq_of]
            if made:
                r["created_seq"] = min(made)
    data = {"format": "dgrr.case/v1", "case_id": "t", "user_id": "u",
            "session": buckets["turn"], "memory": buckets["record"],
            "trajectory": buckets["step"], "faults": list(faults), "tools": tools or []}
    data.update(extra)
    return data


def make_case(*nodes: dict[str, Any], **kw: Any) -> Case:
    return case_from_data(case_data(*nodes, **kw))
