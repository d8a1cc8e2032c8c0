"""Writing a generated suite: one case file per case and a manifest of counts, all
deterministic for a seed (byte-identical on regeneration)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from .._errors import DgrrError
from .._io import atomic_write_json
from ..case._case import Case

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


def check_generate_args(suite: str, *, count: int | None = None,
                        steps_per_case: float | None = None, quiet_at: str = "request"
                        ) -> None:
    """The checks of `generate_suite`'s arguments that need no model, as a
    :class:`DgrrError` naming the option: run before anything is written."""
    from ._controlled import QUIET_PLACES

    if count is not None and count < 1:
        raise DgrrError(f"--count: must be at least 1, got {count}")
    if steps_per_case is not None and suite != "controlled":
        raise DgrrError(f"--steps-per-case: only for --suite controlled, not {suite!r}")
    if steps_per_case is not None and not 8 <= steps_per_case <= 400:
        raise DgrrError(f"--steps-per-case: must be between 8 and 400, got {steps_per_case:g}")
    if quiet_at not in QUIET_PLACES:
        raise DgrrError(f"--quiet-turns-at: unknown place {quiet_at!r}; choose from "
                        f"{', '.join(QUIET_PLACES)}")
    if quiet_at != "request" and steps_per_case is None:
        raise DgrrError(f"--quiet-turns-at {quiet_at}: only with --steps-per-case")


def generate_suite(suite: str, out: Path, *, seed: int = 42, longmemeval: str | None = None,
                   model: str = "dgrr/reference", noise: float = 0.0, count: int | None = None,
                   progress: bool = False, steps_per_case: float | None = None,
                   quiet_at: str = "request") -> dict[str, Any]:
    """Generate the `controlled` or `adapted` suite into `out`, the failed runs made by
    `model` with `noise` (built-in policies only); `count` keeps the first K cases.
    `steps_per_case` (controlled only) pads the suite with quiet turns to about that many
    trajectory steps per case, the same faults over more steps (see `_padded_suite`), its
    quiet turns just before the final request or at the session's start (`quiet_at`).
    Returns the manifest."""
    from ..model import parse_builtin
    from ._controlled import model_with_noise

    check_generate_args(suite, count=count, steps_per_case=steps_per_case, quiet_at=quiet_at)
    run_model = model_with_noise(model, noise)
    # the model that made the runs, and its slip rate read back from that string: the CLI
    # folds --noise into the model string, so `noise` here may be 0 while the runs slipped
    builtin = parse_builtin(run_model)
    meta = {"model": run_model, "noise": builtin[1] if builtin else 0.0}
    if suite == "controlled":
        if longmemeval:
            raise DgrrError("--longmemeval: only for --suite adapted")
        cases, skipped = _controlled(seed, run_model, count)
        if not cases:
            raise DgrrError(f"--model {run_model}: no slot of the controlled suite could be "
                            "filled (the injected faults never make its runs fail)")
        if steps_per_case is not None:
            cases = _padded_suite(seed, run_model, cases, steps_per_case, quiet_at)
            meta["steps_per_case_target"] = steps_per_case
            if quiet_at != "request":  # the default's manifest stays as it was
                meta["quiet_turns_at"] = quiet_at
        return _write(out, suite, seed, cases, **meta,
                      **({"skipped_slots": skipped} if skipped else {}))
    if suite == "adapted":
        cases, extra = _adapted(seed, longmemeval, run_model, count)
        return _write(out, suite, seed, cases, **extra, **meta)
    raise DgrrError(f"--suite: unknown suite {suite!r}; choose controlled or adapted")


def _controlled(seed: int, model: str, count: int | None = None
                ) -> tuple[list[Case], list[str]]:
    """The cases, and the slots no design could fill with this model. Only the default
    model must fill every slot: another model may be one a fault cannot mislead (a policy
    that reads the user's earlier turns is not misled by a stale record whose new value
    the user stated); its unfillable slots are skipped and listed, and later slots are
    used until `count` cases exist."""
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


def _padded_suite(seed: int, model: str, cases: list[Case], steps_per_case: float,
                  quiet_at: str = "request") -> list[Case]:
    """The same cases, each padded with quiet turns in proportion to its own length, so
    that the suite's steps per case reach `steps_per_case` with the same faults (a lower
    fault density per step) and the spread of lengths keeps its shape. A case already
    that long is kept as it is."""
    import math

    from ._controlled import build_controlled_case, controlled_slots

    scale = steps_per_case * len(cases) / sum(len(c.trajectory) for c in cases)
    slots = {f"ctl-{s.index + 1:03d}": s for s in controlled_slots(seed)}
    out: list[Case] = []
    for case in cases:
        target = math.ceil(len(case.trajectory) * scale)
        if target <= len(case.trajectory):
            out.append(case)
            continue
        out.append(build_controlled_case(slots[case.case_id[:7]], seed, model=model,
                                         min_steps=target, quiet_at=quiet_at)[0])
    return out


def _adapted(seed: int, path: str | None, model: str, count: int | None = None
             ) -> tuple[list[Case], dict[str, Any]]:
    from ._adapted import ADAPTED_COUNTS, adapt_items, synthetic_longmemeval
    from ._longmemeval import load_longmemeval

    if path:
        items = load_longmemeval(path)
        source = f"LongMemEval-format file {Path(path).name}"
    else:
        items = synthetic_longmemeval(3 * ADAPTED_COUNTS["cases"], seed)
        source = "built-in synthetic LongMemEval-format histories"
    cases, kept, drops = adapt_items(items, seed=seed, model=model, count=count)
    if not cases:
        raise DgrrError(f"{source}: no instance could be turned into a case (the answer must "
                        "appear verbatim in a turn marked has_answer)")
    wanted = min(count or ADAPTED_COUNTS["cases"], ADAPTED_COUNTS["cases"])
    if len(cases) < wanted:
        source += f"; only {len(cases)} of {wanted} instances were usable"
    return cases, {"source": source, "question_types": kept, "dropped": drops}
