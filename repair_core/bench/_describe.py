"""The shape of a suite, measured from its case files: how long and how varied the
trajectories are, how much of each lies off the final answer's ancestry, how often an
affected step has independent support, and how often a benign record sits where an
over-eager repair would remove it. `scripts/describe_suite.py` prints this into
docs/benchmark.md; `tests/test_suite_shape.py` checks the committed suites against the
floors it states (enough cases of each fault type and domain to tell methods apart).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import networkx as nx

from ..case._case import Case
from ._metrics import STEP_BUCKETS

__all__ = ["describe_cases", "describe_suite", "describe_markdown", "CONTROLLED_FLOORS",
           "benign_at_risk"]

CONTROLLED_FLOORS: dict[str, Any] = {
    "min_steps": 8, "max_steps": 80, "min_turns": 1, "max_turns": 5, "median_steps": 25,
    "distinct_sequences": 100, "off_ancestry_share": 0.30, "independent_support_share": 0.40,
}
"""Issue 9, point 5: the controlled suite's shape floors."""


def _off_ancestry(case: Case, G: nx.MultiDiGraph) -> int:
    """Steps that are not premises (over recorded edges, not the derived `chain` order)
    of the final answer."""
    final = case.final_answer().id
    recorded = nx.subgraph_view(G, filter_edge=lambda a, b, label: label != "chain")
    ancestors = nx.ancestors(recorded, final) | {final}
    return sum(1 for s in case.trajectory if s.id not in ancestors)


def _words(text: Any) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", str(text).casefold()) if len(w) >= 3}


def benign_at_risk(case: Case) -> list[str]:
    """Benign records an over-eager repair would remove: they share a diagnosed fault's
    key, repeat a word of a fault's value, or were returned by a read that also returned
    a fault."""
    if case.eval is None:
        return []
    records = {m.id: m for m in case.memory}
    faults = [records[f] for f in case.faults if f in records]
    fault_keys = {f.key for f in faults if f.key}
    fault_words = set().union(*(_words(f.value) for f in faults if f.value is not None))
    co_read: set[str] = set()
    for s in case.trajectory:
        returned = getattr(s, "returned", None) or []
        if set(returned) & set(case.faults):
            co_read |= set(returned)
    out = []
    for b in case.eval.benign:
        m = records.get(b)
        if m is None:
            continue
        if (m.key in fault_keys or _words(m.text) & fault_words or b in co_read):
            out.append(b)
    return out


def describe_cases(cases: Sequence[Case]) -> dict[str, Any]:
    """Every shape statistic of `cases`."""
    from .. import analyse, build_graph

    steps = [len(c.trajectory) for c in cases]
    turns = [len(c.session) for c in cases]
    sequences = Counter(tuple(s.type for s in c.steps_in_order()) for c in cases)
    off = supported = at_risk = 0
    supported_kinds: Counter[str] = Counter()
    for c in cases:
        G = build_graph(c)
        off += _off_ancestry(c, G)
        a = analyse(c.without_eval(), G)
        if a.supported:
            supported += 1
            ids = {s.id: s.type for s in c.trajectory}
            supported_kinds.update({ids.get(n, "record") for n in a.supported})
        at_risk += bool(benign_at_risk(c))
    primary = [c.eval.fault_types.get(c.faults[0], "") if c.eval and c.faults else ""
               for c in cases]
    table: dict[str, dict[str, int]] = {}
    for c, f in zip(cases, primary, strict=True):
        row = table.setdefault(c.domain or "-", {})
        row[f] = row.get(f, 0) + 1
    n = len(cases) or 1
    return {
        "cases": len(cases),
        "steps": {"min": min(steps, default=0), "median": statistics.median(steps or [0]),
                  "max": max(steps, default=0), "total": sum(steps)},
        "steps_histogram": _histogram(steps, STEP_BUCKETS),
        "turns": dict(sorted(Counter(turns).items())),
        "distinct_sequences": len(sequences),
        "off_ancestry_share": off / (sum(steps) or 1),
        "independent_support_share": supported / n,
        "supported_node_types": dict(sorted(supported_kinds.items())),
        "benign_at_risk_share": at_risk / n,
        "n_faults": dict(sorted(Counter(len(c.faults) for c in cases).items())),
        "n_benign": dict(sorted(Counter(len(c.eval.benign) if c.eval else 0
                                        for c in cases).items())),
        "forbidden_facts": dict(sorted(Counter(len(c.eval.forbidden_facts) if c.eval else 0
                                               for c in cases).items())),
        "required_facts": dict(sorted(Counter(len(c.eval.required_facts) if c.eval else 0
                                              for c in cases).items())),
        "domain_x_fault_type": {d: dict(sorted(r.items())) for d, r in sorted(table.items())},
    }


def _histogram(values: Sequence[int], edges: Sequence[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for lo, hi in zip(edges, edges[1:], strict=False):
        out[f"{lo}-{hi - 1}"] = sum(1 for v in values if lo <= v < hi)
    out["other"] = sum(1 for v in values if v < edges[0] or v >= edges[-1])
    return out


def describe_suite(folder: Path) -> dict[str, Any]:
    """:func:`describe_cases` of every case file in `folder`."""
    from ..case._load import load_case
    from ._runner import suite_case_paths

    return describe_cases([load_case(p) for p in suite_case_paths(str(folder))])


def describe_markdown(d: dict[str, Any]) -> str:
    """The statistics as Markdown tables (numbers only; no case text)."""
    s = d["steps"]
    lines = [
        "| statistic | value |", "|---|---:|",
        f"| cases | {d['cases']} |",
        f"| trajectory steps: min / median / max | {s['min']} / {s['median']:g} / {s['max']} |",
        f"| distinct step-type sequences | {d['distinct_sequences']} |",
        f"| steps off the final answer's ancestry | {d['off_ancestry_share']:.1%} |",
        f"| cases with an independently supported affected node | "
        f"{d['independent_support_share']:.1%} |",
        f"| cases with a benign record an over-eager repair would remove | "
        f"{d['benign_at_risk_share']:.1%} |",
        "",
        "| distribution | counts |", "|---|---|",
        "| steps | " + ", ".join(f"{k}: {v}" for k, v in d["steps_histogram"].items()) + " |",
        "| user turns | " + ", ".join(f"{k}: {v}" for k, v in d["turns"].items()) + " |",
        "| diagnosed faults | " + ", ".join(f"{k}: {v}" for k, v in d["n_faults"].items())
        + " |",
        "| benign records | " + ", ".join(f"{k}: {v}" for k, v in d["n_benign"].items())
        + " |",
        "| required facts | " + ", ".join(f"{k}: {v}" for k, v in d["required_facts"].items())
        + " |",
        "| forbidden facts | "
        + ", ".join(f"{k}: {v}" for k, v in d["forbidden_facts"].items()) + " |",
        "| supported node types | "
        + (", ".join(f"{k}: {v}" for k, v in d["supported_node_types"].items()) or "none")
        + " |",
        "",
    ]
    types = sorted({f for r in d["domain_x_fault_type"].values() for f in r})
    lines += ["| domain \\ primary fault | " + " | ".join(types) + " | total |",
              "|---|" + "---:|" * (len(types) + 1)]
    for dom, row in d["domain_x_fault_type"].items():
        lines.append(f"| {dom} | " + " | ".join(str(row.get(t, 0)) for t in types)
                     + f" | {sum(row.values())} |")
    return "\n".join(lines) + "\n"
