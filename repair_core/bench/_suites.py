"""Writing a generated suite: one case file per case and a manifest of counts, all
deterministic for a seed (byte-identical on regeneration)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from .._case import Case
from .._errors import DgrrError
from .._io import atomic_write_json

__all__ = ["generate_suite", "suite_manifest", "GENERATOR_VERSION"]

GENERATOR_VERSION = "dgrr-bench/1"


def _count(values: list[Any]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(Counter(values).items(), key=lambda kv: str(kv[0]))}


def suite_manifest(suite: str, seed: int, cases: list[Case], **extra: Any) -> dict[str, Any]:
    """Counts of a suite: per domain, primary fault type, number of faults, benign size."""
    primary = [c.eval.fault_types.get(c.faults[0], "") if c.eval and c.faults else ""
               for c in cases]
    return {
        "suite": suite, "seed": seed, "generator": GENERATOR_VERSION, "cases": len(cases),
        "domain": _count([c.domain or "" for c in cases]),
        "primary_fault_type": _count(primary),
        "n_faults": _count([len(c.faults) for c in cases]),
        "n_benign": _count([len(c.eval.benign) if c.eval else 0 for c in cases]),
        "trajectory_steps": {"min": min(len(c.trajectory) for c in cases),
                             "max": max(len(c.trajectory) for c in cases),
                             "total": sum(len(c.trajectory) for c in cases)},
        **extra,
        "files": [f"{c.case_id}.json" for c in cases],
    }


def _write(out: Path, suite: str, seed: int, cases: list[Case], **extra: Any) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    old = out / "manifest.json"
    stale: set[str] = set()
    if old.exists():
        try:
            stale = set(json.loads(old.read_text()).get("files", []))
        except ValueError:
            stale = set()
    for c in cases:
        atomic_write_json(out / f"{c.case_id}.json", c.model_dump(mode="json"))
    manifest = suite_manifest(suite, seed, cases, **extra)
    for name in stale - set(manifest["files"]):
        (out / name).unlink(missing_ok=True)
    atomic_write_json(out / "manifest.json", manifest)
    return manifest


def generate_suite(suite: str, out: Path, *, seed: int = 42, longmemeval: str | None = None,
                   model: str = "dgrr/reference", progress: bool = False,
                   count: int | None = None) -> dict[str, Any]:
    """Generate the `controlled` or `adapted` suite into `out` with `model` playing the
    agent; returns the manifest. `count` keeps only the first `count` cases."""
    if count is not None and count < 1:
        raise DgrrError(f"--count: must be at least 1, got {count}")
    if suite == "controlled":
        if longmemeval:
            raise DgrrError("--longmemeval: only for --suite adapted")
        cases, skipped = _controlled(seed, model, count)
        if not cases:
            raise DgrrError(f"--model {model}: no slot of the controlled suite could be "
                            "filled (the injected faults never change its answer)")
        return _write(out, suite, seed, cases, **_by(model),
                      **({"skipped_slots": skipped} if skipped else {}))
    if suite == "adapted":
        cases, source = _adapted(seed, longmemeval, model, count)
        return _write(out, suite, seed, cases, source=source, **_by(model))
    raise DgrrError(f"--suite: unknown suite {suite!r}; choose controlled or adapted")


def _by(model: str) -> dict[str, str]:
    """The manifest names the generating model unless it is the default one."""
    return {} if model == "dgrr/reference" else {"model": model}


def _controlled(seed: int, model: str, count: int | None = None
                ) -> tuple[list[Case], list[str]]:
    """The cases, and the slots no design could fill with this model. Only the default
    model must fill every slot: another model may be one a fault cannot mislead (the
    `reference-b` policy reads the user's earlier turns, so a stale record whose new value
    the user stated does not change its answer); its unfillable slots are skipped and
    listed, and later slots are used until `count` cases exist."""
    from ._controlled import build_controlled_case, controlled_slots

    cases: list[Case] = []
    skipped: list[str] = []
    for slot in controlled_slots(seed):
        if count is not None and len(cases) >= count:
            break
        try:
            cases.append(build_controlled_case(slot, seed, model=model)[0])
        except DgrrError as exc:
            if model == "dgrr/reference":
                raise
            skipped.append(f"slot {slot.index} ({slot.domain}, {slot.fault_type}): {exc}")
    return cases, skipped


def _adapted(seed: int, path: str | None, model: str, count: int | None = None
             ) -> tuple[list[Case], str]:
    from ._adapted import (
        ADAPTED_COUNTS,
        FACTS,
        adapted_fault_counts,
        case_from_longmemeval,
        synthetic_longmemeval,
    )
    from ._longmemeval import load_longmemeval

    if path:
        items = load_longmemeval(path)
        source = f"LongMemEval-format file {Path(path).name}"
        answers = [i.answer for i in items]
        wrong_of = {i.question_id: [a for a in answers if a != i.answer] for i in items}
    else:
        items = synthetic_longmemeval(3 * ADAPTED_COUNTS["cases"], seed)
        source = "built-in synthetic LongMemEval-format histories"
        by_q = {f[1]: list(f[4]) for f in FACTS}
        wrong_of = {i.question_id: by_q[i.question] for i in items}
    counts = adapted_fault_counts(seed)[:count]
    cases: list[Case] = []
    for item in items:
        if len(cases) == len(counts):
            break
        case = case_from_longmemeval(item, n_faults=counts[len(cases)],
                                     wrong=wrong_of[item.question_id], seed=seed,
                                     case_id=f"adp-{len(cases) + 1:03d}-{item.question_id}",
                                     model=model)
        if case is not None:
            cases.append(case)
    if not cases:
        raise DgrrError(f"{source}: no instance could be turned into a case (the answer must "
                        "appear in a user turn marked has_answer)")
    return cases, source + ("" if len(cases) == len(counts) else
                            f"; only {len(cases)} of {len(counts)} instances were usable")
