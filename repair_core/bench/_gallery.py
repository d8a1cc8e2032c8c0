"""The failure gallery: `failures.md`, one entry per case a method did not recover.

Each entry gives the case id, the required facts the corrected answer misses, the
forbidden facts it states, the steps the repair replayed and the corrected answer. Every
string that comes from a case or a model (ids, facts, answers) is untrusted text: it is
written only inside a fenced code block whose fence is longer than any backtick run in
it, so it is shown as plain text and never rendered as Markdown, HTML or a link.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from .._io import atomic_write_text
from ._metrics import CaseResult

__all__ = ["failure_gallery", "write_failure_gallery", "failure_cause"]


def failure_cause(r: CaseResult) -> str:
    """One of: crashed, misses a required fact and states a forbidden one, misses a
    required fact, states a forbidden fact."""
    if r.error:
        return "crashed"
    if r.missing_facts and r.forbidden_stated:
        return "misses a required fact and states a forbidden fact"
    if r.missing_facts:
        return "misses a required fact"
    if r.forbidden_stated:
        return "states a forbidden fact"
    return "not recovered"  # a result stored before the gallery fields existed


def _fenced(text: str) -> list[str]:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", text, fence]


def _entry(r: CaseResult) -> str:
    lines = [f"case: {r.case_id}",
             f"cause: {failure_cause(r)}",
             "missing required facts: " + (" | ".join(r.missing_facts) or "none"),
             "forbidden facts stated: " + (" | ".join(r.forbidden_stated) or "none"),
             f"replayed steps ({r.replayed_steps}): "
             + (" ".join(r.replayed_step_ids) or "none")]
    if r.error:
        lines.append(f"error: {r.error}")
    lines.append("corrected answer:")
    lines += ["    " + line for line in (r.answer or "(empty)").splitlines() or ["(empty)"]]
    return "\n".join(lines)


def failure_gallery(results: Sequence[CaseResult], labels: dict[str, str] | None = None,
                    methods: Sequence[str] | None = None) -> str:
    """The gallery as Markdown text: per method (in `results` order; only `methods` when
    given), a count of failures by cause, then one plain-text block per failed case."""
    labels = labels or {}
    by_method: dict[str, list[CaseResult]] = {}
    for r in results:
        if methods is None or r.method in methods:
            by_method.setdefault(r.method, []).append(r)
    out = ["# Failure gallery", "",
           "Every case a method did not recover: a required fact missing from the corrected "
           "answer, or a forbidden fact (a value only a fault put into the run) stated in it. "
           "Case text is shown verbatim as plain text.", ""]
    for method, rs in by_method.items():
        failed = sorted((r for r in rs if not r.recovered), key=lambda r: r.case_id)
        name = labels.get(method, method)
        out += [f"## {_safe_heading(name)}", "",
                f"{len(failed)} of {len(rs)} cases not recovered."]
        causes: dict[str, int] = {}
        for r in failed:
            causes[failure_cause(r)] = causes.get(failure_cause(r), 0) + 1
        for cause, n in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"- {cause}: {n}")
        out.append("")
        for i, r in enumerate(failed, start=1):
            out += [f"### {_safe_heading(name)}, failure {i}", "", *_fenced(_entry(r)), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _safe_heading(text: str) -> str:
    # method labels come from our registry, but keep headings inert all the same
    return re.sub(r"[^\w .,()/+-]", "", text)


def write_failure_gallery(results: Sequence[CaseResult], out: Path,
                          labels: dict[str, str] | None = None) -> Path:
    """Write `out/failures.md` (atomically) and return its path."""
    path = out / "failures.md"
    atomic_write_text(path, failure_gallery(results, labels))
    return path
