"""A synthetic fleet: N agents' cases whose stores share K knowledge-base records, P of
them poisoned — for tests and benchmarks of `dgrr fleet`.

Each case is a synthetic run of the benchmark's domains (travel, shopping,
customer_service) made by :func:`repair_core._synth.synth_case_data` (20–80 steps by
default). A shared record belongs to one domain; an agent of that domain holds it with
probability `coverage`, in place of one of the records its store held before the run
(claims that cite that record state the shared fact). Whether the agent then *read* it,
and whether its answer depends on it, is left to the run: so only some agents read a
shared record and only some answers depend on it. The poisoned records are each case's
diagnosed faults.

`DIR/manifest.json` holds the generator's truth: the shared records (poisoned or not) and,
per case, which local record carries which shared one and which of them a memory read
returned. Tests compare `dgrr fleet` against it, never against the method's output.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._errors import DgrrError
from .._io import atomic_write_json, atomic_write_text
from .._synth import synth_case_data

__all__ = ["SharedRecord", "shared_records", "synth_fleet_case", "write_synth_fleet",
           "DOMAINS", "SYNTH_FLEET_FORMAT"]

SYNTH_FLEET_FORMAT = "dgrr.fleet-synth/v1"
DOMAINS = ("travel", "shopping", "customer_service")

# domain -> (key, true value, poisoned values, text template)
_KB: dict[str, tuple[tuple[str, str, tuple[str, ...], str], ...]] = {
    "travel": (
        ("carry_on_limit", "8 kg", ("23 kg", "15 kg"), "Cabin bags may weigh up to {v}."),
        ("checkin_closes", "45 minutes", ("5 minutes", "10 minutes"),
         "Check-in closes {v} before departure."),
        ("rebooking_fee", "EUR 70", ("no fee", "EUR 5"), "Changing a booking costs {v}."),
        ("visa_rule", "a visa for stays over 90 days", ("no visa ever", "a visa for any stay"),
         "Travellers need {v}."),
    ),
    "shopping": (
        ("express_fee", "$9.99", ("$0.00", "$99.00"), "Express shipping costs {v}."),
        ("warranty", "2 years", ("10 years", "30 days"), "Electronics carry a {v} warranty."),
        ("price_match", "within 14 days", ("forever", "within 1 year"),
         "We match lower prices {v} of purchase."),
        ("gift_wrap", "$4", ("free", "$40"), "Gift wrapping costs {v}."),
    ),
    "customer_service": (
        ("returns_window", "30 days", ("365 days", "3 days"),
         "Returns are accepted within {v} of delivery."),
        ("support_hours", "9:00-17:00 CET", ("24/7", "10:00-11:00 CET"),
         "Phone support is open {v}."),
        ("refund_method", "the original payment method", ("store credit only", "cash by post"),
         "Refunds go to {v}."),
        ("address_change", "before dispatch", ("after delivery", "never"),
         "A shipping address can be changed {v}."),
    ),
}


@dataclass(frozen=True)
class SharedRecord:
    """A knowledge-base record ingested into many agents' stores."""

    shared_id: str
    """Fleet-wide id, e.g. `kb-003` (each store gives its copy a local record id)."""
    domain: str
    """The domain whose agents may hold it."""
    key: str
    """Structured key, `kb.<topic>`."""
    value: str
    """The value the stores hold (the poisoned one when `poisoned`)."""
    text: str
    """The record's text, the same in every store."""
    poisoned: bool
    """The value is wrong: the records the operator wants gone."""

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def shared_records(k: int, poison: int, seed: int) -> list[SharedRecord]:
    """The `k` shared records of a fleet, `poison` of them poisoned (chosen by `seed`)."""
    rng = random.Random(f"fleet-kb:{seed}")
    topics = [(d, t) for d in DOMAINS for t in _KB[d]]
    rng.shuffle(topics)
    poisoned = set(rng.sample(range(k), poison))
    records = []
    for j in range(k):
        domain, (key, good, bad, template) = topics[j % len(topics)]
        value = rng.choice(bad) if j in poisoned else good
        records.append(SharedRecord(
            shared_id=f"kb-{j + 1:03d}", domain=domain, key=f"kb.{key}", value=value,
            text=f"KB-{j + 1:03d}: " + template.format(v=value), poisoned=j in poisoned))
    return records


def synth_fleet_case(i: int, shared: list[SharedRecord], seed: int, *, min_steps: int = 20,
                     max_steps: int = 80, coverage: float = 0.5
                     ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Case `i` of the fleet (as JSON data) and its truth entry for the manifest."""
    rng = random.Random(f"fleet-case:{seed}:{i}")
    domain = DOMAINS[rng.randrange(len(DOMAINS))]
    steps = rng.randint(min_steps, max_steps)
    mine = [s for s in shared if s.domain == domain and rng.random() < coverage]
    memories = max(len(mine) + 4, steps // 4)
    data = synth_case_data(steps, memories, 0, seed=rng.randrange(2**31))
    agent = f"customer-{i + 1:06d}"
    case_id = f"fleet-{seed}-{i + 1:06d}"
    data.update(case_id=case_id, domain=domain, user_id=agent)
    original_user = "user-0"
    for m in data["memory"]:
        if m["user_id"] == original_user:
            m["user_id"] = agent
    # Shared records replace records the store held before the run (no producer, active).
    slots = [m for m in data["memory"] if m["created_seq"] is None and m["status"] == "active"
             and not m["deps"]]
    rng.shuffle(slots)
    placed: dict[str, str] = {}
    for record, slot in zip(mine, slots, strict=False):
        _carry(data, slot, record)
        placed[record.shared_id] = slot["id"]
    by_local = {v: k for k, v in placed.items()}
    read = sorted({by_local[r] for s in data["trajectory"] if s["type"] == "memory_read"
                   for r in s["returned"] if r in by_local})
    poisoned = {s.shared_id for s in shared if s.poisoned}
    faults = [m["id"] for m in data["memory"] if by_local.get(m["id"]) in poisoned]
    data["faults"] = faults
    data["eval"] = {"fault_types": {f: "poisoned" for f in faults}}
    truth = {"case_id": case_id, "file": f"{case_id}.json", "domain": domain, "steps": steps,
             "shared": placed, "read": read, "faults": faults}
    return data, truth


def _carry(data: dict[str, Any], slot: dict[str, Any], record: SharedRecord) -> None:
    """Make `slot` the store's copy of `record`; claims citing it now state its fact."""
    old_key = slot["key"]
    slot.update(text=record.text, key=record.key, value=record.value,
                shared_id=record.shared_id)
    for s in data["trajectory"]:
        if s["type"] == "claim" and s.get("key") == old_key and \
                any(d["id"] == slot["id"] for d in s["deps"]):
            s.update(key=record.key, value=record.value, text=record.text.split(": ", 1)[1])


def write_synth_fleet(out: str | Path, agents: int, shared_k: int, poison: int, seed: int, *,
                      min_steps: int = 20, max_steps: int = 80, coverage: float = 0.5,
                      on_case: Callable[[], None] | None = None) -> dict[str, Any]:
    """Write `agents` case files and `manifest.json` into `out`; return the manifest
    (`on_case` is called after each case file, for progress)."""
    check_fleet_args(agents, shared_k, poison, min_steps, max_steps, coverage)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DgrrError(f"--out {out}: exists and is not a folder")
    shared = shared_records(shared_k, poison, seed)
    cases = []
    for i in range(agents):
        data, truth = synth_fleet_case(i, shared, seed, min_steps=min_steps,
                                       max_steps=max_steps, coverage=coverage)
        atomic_write_text(out / truth["file"], json.dumps(data, ensure_ascii=False) + "\n")
        cases.append(truth)
        if on_case is not None:
            on_case()
    manifest = {"format": SYNTH_FLEET_FORMAT, "agents": agents, "seed": seed,
                "min_steps": min_steps, "max_steps": max_steps, "coverage": coverage,
                "shared_records": [s.as_json() for s in shared], "cases": cases}
    atomic_write_json(out / "manifest.json", manifest)
    return manifest


def check_fleet_args(agents: int, shared_k: int, poison: int, min_steps: int, max_steps: int,
                     coverage: float) -> None:
    """A clear error naming the option for every impossible fleet."""
    if agents < 1:
        raise DgrrError(f"--agents must be at least 1, got {agents}")
    if shared_k < 1:
        raise DgrrError(f"--shared-records must be at least 1, got {shared_k}")
    if not 0 <= poison <= shared_k:
        raise DgrrError(f"--poison must be between 0 and --shared-records ({shared_k}), "
                        f"got {poison}")
    if min_steps < 12:
        raise DgrrError(f"--min-steps must be at least 12 (one full turn), got {min_steps}")
    if max_steps < min_steps:
        raise DgrrError(f"--max-steps {max_steps} is less than --min-steps {min_steps}")
    if not 0 < coverage <= 1:
        raise DgrrError(f"--coverage must be in (0, 1], got {coverage}")
