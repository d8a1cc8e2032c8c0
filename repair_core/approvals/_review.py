"""What a reviewer signs: hashes of inputs and outputs, the exports, a Markdown report."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Annotated, Any

from pydantic import BaseModel, Field, ValidationError

from .._errors import DgrrError
from .._perf import without_gc
from .._text import markdown_code, markdown_text, plural, printable
from ..case._owner import OWNER_ACK_PREFIX
from ..judge import Judge
from ..plan._plan import RepairPlan
from ..verification._gate import SUPPLIED_BY_HAND, added_writers
from ..verification._models import Carrier, Uncertain, Verification, places_by_kind
from ._canonical import canonical_chunks, model_json
from ._reviewer import same_reviewer
from ._store import ApprovalRecord, ApprovalStore, sha256_json

__all__ = [
    "CARRIER_WARNING",
    "NOT_CERTIFIED_WARNING",
    "ApprovalHasher",
    "ApprovalSummary",
    "CarriersNotAcknowledgedError",
    "DuplicateApprovalError",
    "ResultMismatchError",
    "approval_hashes",
    "approval_summary",
    "carrier_groups",
    "decisions_sha256",
    "find_decision",
    "obligation_problems",
    "record_decision",
    "result_problems",
    "result_carriers",
    "unacknowledged_carriers",
    "repaired_store",
    "repaired_trajectory",
    "markdown_report",
    "named_carriers",
    "other_owners",
    "result_data",
]


def result_data(result: Any) -> dict[str, Any] | None:
    """A repair result (pydantic model or its JSON dict) as JSON data."""
    if result is None:
        return None
    if isinstance(result, BaseModel):
        return model_json(result)
    if hasattr(result, "model_dump"):
        return dict(result.model_dump(mode="json"))
    return dict(result)


class ResultMismatchError(DgrrError):
    """A repair result offered for approval is not the replay of this case and plan."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("--result: not the repair of this case and plan:\n"
                         + "\n".join(f"  - {p}" for p in self.problems))


class DuplicateApprovalError(DgrrError):
    """The reviewer already recorded a decision on exactly this case, plan and result."""

    def __init__(self, existing: ApprovalRecord) -> None:
        self.existing = existing
        super().__init__(
            f"already recorded: #{existing.id} ({existing.decision}) by {existing.reviewer} at "
            f"{existing.created_at:%Y-%m-%d %H:%M:%S} UTC on the same case, plan and result "
            "(inputs and outputs sha256 match); a reviewer decides once per repair")


class CarriersNotAcknowledgedError(DgrrError):
    """An approval of a result that still carries a fault, without the reviewer's
    acknowledgement of each carrier (or naming ids that are not its carriers)."""

    def __init__(self, missing: Iterable[Any], unknown: Iterable[str] = (),
                 unshown: Iterable[str] = ()) -> None:
        self.missing = list(missing)
        self.unknown = list(unknown)
        self.unshown = set(unshown)
        """Ids of missing carriers the result names that the carriers given left out."""
        lines = [(f"{printable(c)}: not acknowledged" if isinstance(c, str) else
                  f"{printable(c.id)}: not acknowledged — {c.kind} {printable(c.where)} "
                  + ("carries" if c.status == "carrier" else "is not certified clean of")
                  + f" {printable(c.fault)} ({printable(c.evidence)[:200]})")
                 + (" (the result names it as a carrier; the carriers given left it out)"
                    if _carrier_id(c) in self.unshown else "")
                 for c in self.missing]
        lines += [f"{printable(a[:120])}: acknowledged, but not a carrier of this result"
                  for a in self.unknown]
        head = ("approval refused: what the agent reads next still carries a fault or is "
                "not certified clean of one; read each carrier and not-certified item (dgrr "
                "verify) and acknowledge it by its id (dgrr approve --acknowledge ID):"
                if self.missing else
                "approval refused: an id acknowledged is neither a carrier nor a "
                "not-certified item of this result (dgrr verify lists them):")
        super().__init__(head + "\n" + "\n".join(f"  - {line}" for line in lines))


def _carrier_id(carrier: Any) -> str:
    return carrier if isinstance(carrier, str) else str(_get(carrier, "id"))


def named_carriers(result: Any) -> list[Any]:
    """The carriers `result` (a RepairResult or its JSON) names in its `verification`
    (each carrier, as a :class:`Carrier` when it reads as one, else its id; and each
    fault's carrier ids): what the repair's own content check found, read without a
    new one. An approval of the result acknowledges each at the least, whatever list
    of carriers its caller gives (rule `approval.carriers-cover-result`)."""
    verification = _get(result, "verification")
    named: dict[str, Any] = {}
    for field, model in (("carriers", Carrier), ("uncertain", Uncertain)):
        listed = _get(verification, field)
        for c in listed if isinstance(listed, list | tuple) else []:
            if isinstance(c, Mapping):
                try:
                    c = model.model_validate(c)
                except ValidationError:
                    c = _get(c, "id")
            if c is not None and _carrier_id(c):
                named.setdefault(_carrier_id(c), c)
    faults = _get(verification, "faults")
    for f in faults if isinstance(faults, list | tuple) else []:
        ids = _get(f, "carriers")
        for cid in ids if isinstance(ids, list | tuple) else []:
            if cid is not None and str(cid):
                named.setdefault(str(cid), str(cid))
    return list(named.values())


def result_carriers(case: Any, result: Any, plan: RepairPlan | None = None, *,
                    judge: Judge | None = None,
                    verification: Verification | None = None) -> list[Any]:
    """What an approval of `result` (a RepairResult or its JSON) of repairing `case` must
    acknowledge: its carriers of a fault, then what is not certified clean of one
    (`Uncertain`), by a fresh content check against the case's faults, the suspected
    sources `plan` cleans and those the result names: the result's own lists are not
    trusted. `judge`: asked what the lexical judge leaves unsure (`--judge`).
    `verification`: that check, run already elsewhere (the dashboard's worker process) on
    `check_sources(plan)`, used instead of running it here."""
    from ..verification import verify_result

    if verification is not None:
        return verification.acknowledgeable()
    return verify_result(case, result, sources=check_sources(plan), judge=judge).acknowledgeable()


def check_sources(plan: RepairPlan | None) -> list[str]:
    """The suspected sources `plan` cleans like a fault: the approval's content check
    looks for them besides the case's faults."""
    return [s.id for s in getattr(plan, "suspected", ())
            if s.role == "source" and s.action == "clean"]


def unacknowledged_carriers(case: Any, result: Any, approval: Any, *,
                            judge: Judge | None = None,
                            verification: Verification | None = None) -> list[Any]:
    """The carriers and not-certified items of `result` that `approval` (an
    ApprovalRecord) did not acknowledge: `dgrr apply` and the queue's worker refuse to
    write while there is one. `verification`: the content check run already elsewhere
    (the dashboard's worker process) against no suspected source but those the result
    names, used instead of running it here."""
    acknowledged = set(_get(approval, "acknowledged") or [])
    return [c for c in result_carriers(case, result, judge=judge, verification=verification)
            if c.id not in acknowledged]


def other_owners(plan: RepairPlan) -> dict[str, str]:
    """The records of someone other than the case's user (plan warning `other-owner`)
    that `plan` changes, or whose restored version it writes back: record id -> the
    warning's message. An approval acknowledges each (`dgrr approve
    --acknowledge-owner`) for `dgrr apply` to write in their scope."""
    from ..plan._warnings import case_warnings

    touched: set[str] = set()
    records = {m.id: m for m in plan.case.memory}
    for rid, action in plan.memory.items():
        if action == "keep":
            continue
        touched.add(rid)
        extra = (records[rid].model_extra or {}) if rid in records else {}
        touched.update(str(v) for v in (extra.get("mem0_memory_id"), extra.get("version_of"))
                       if v)
    return {w.node: w.message for w in case_warnings(plan.case)
            if w.kind == "other-owner" and w.node in touched}


class ApprovalSummary(BaseModel):
    """What an approval approves, in words: the answer change, the store operations, the
    replay outcome of every step that changed, irreversible effects, and the warnings a
    reviewer must acknowledge one by one before approving."""

    case_id: str
    """The case repaired."""
    replayed: bool
    """A repair result is there (else only the plan is approved)."""
    answer_before: str
    """The failed run's final answer."""
    answer_after: str | None = None
    """The corrected answer (None before a replay, or when regenerating it failed)."""
    store: dict[str, list[str]] = Field(default_factory=dict)
    """Record ids by their final state: deleted, quarantined, restored, added, retired,
    added then retired (written by one replayed step, superseded by a later one); each
    record under one of them."""
    steps: dict[str, list[str]] = Field(default_factory=dict)
    """Step ids by outcome (replayed, refreshed, invalidated, failed, needs_observation,
    skipped, irreversible); kept steps are left out."""
    irreversible_effects: list[str] = Field(default_factory=list)
    """External effects the rollback cannot undo, one line each."""
    warnings: list[str] = Field(default_factory=list)
    """Each one needs the reviewer's explicit acknowledgement before an approval."""
    carriers: list[str] = Field(default_factory=list)
    """Ids of the carriers of a fault the result still has, then of what is not certified
    clean of one (a fresh content check, then any the result's own verification names
    that it did not find, with or without their details): each is a warning of its own
    kind, and an approval records them as acknowledged."""
    carrier_details: list[Annotated[Carrier | Uncertain, Field(discriminator="status")]] = \
        Field(default_factory=list)
    """Those of `carriers` whose details are known (kind, where, fault, evidence, text),
    in the same order: what a reviewer reads before acknowledging them
    (:func:`carrier_groups`). A carrier the result names only by id has none."""
    judges: list[str] = Field(default_factory=list)
    """The judges that decided something in the content check (`lexical`,
    `model:<model>`), as :attr:`Verification.judges`; empty before a replay."""
    other_owners: dict[str, str] = Field(default_factory=dict)
    """Records of someone other than the case's user that the repair writes to (record
    id -> why it is not the user's): a group of its own to acknowledge; an approval
    records each as `other-owner:RECORD` (see `case._owner`)."""


def _get(obj: Any, key: str, default: Any = None) -> Any:
    """`obj[key]` for JSON data, `obj.key` for models; `default` when absent (so results
    from before and after a report field was added both read)."""
    if obj is None:
        return default
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _line(item: Any) -> str:
    """One report item (a ToolNote, a Failure, a string, any dict) as one line of text."""
    if isinstance(item, str):
        return item
    data = item.model_dump(mode="json") if hasattr(item, "model_dump") else item
    if not isinstance(data, Mapping):
        return str(data)
    step = data.get("step") or data.get("id")
    tool = data.get("tool")
    args = data.get("args")
    call = f"{tool}({json.dumps(args, ensure_ascii=False, sort_keys=True)})" if tool else ""
    what = data.get("reason") or data.get("error") or data.get("effect") or data.get("detail")
    rest = {k: v for k, v in data.items()
            if k not in ("step", "id", "tool", "args", "reason", "error", "effect", "detail")}
    parts = [p for p in (f"step {step}" if step else "", call, str(what) if what else "") if p]
    if rest:
        parts.append(json.dumps(rest, ensure_ascii=False, sort_keys=True, default=str))
    return ": ".join(parts) if parts else json.dumps(data, default=str)


_STEP_OUTCOMES = ("replayed", "refreshed", "invalidated", "failed", "needs_observation",
                  "skipped", "irreversible")


def _original_answer(case: Any) -> str:
    """The failed run's final answer; "" for a case without steps (`case.store-only`),
    as `RepairResult.original_answer` says."""
    return case.final_answer().text if case.has_answer() else ""


def approval_summary(plan: RepairPlan, result: Any = None, *,
                     judge: Judge | None = None,
                     verification: Verification | None = None) -> ApprovalSummary:
    """What approving `plan` with its replay `result` (a RepairResult or its JSON) means
    (`judge`: asked what the lexical judge leaves unsure in the content check;
    `verification`: that content check run already, see `result_carriers`).

    Reads only the report and the answers (not the whole store), and reads report fields
    added later (e.g. irreversible effects) when they are there.
    """
    case = plan.case
    before = _original_answer(case)
    warnings: list[str] = []
    if plan.forced:
        warnings.append("Some plan edits override an invariant of the method (forced).")
    if result is None:
        steps: dict[str, list[str]] = {}
        for sid, action in plan.steps.items():
            if action != "keep":
                word = {"invalidate": "invalidated", "replay": "replayed",
                        "refresh": "refreshed"}[action]
                steps.setdefault(word, []).append(sid)
        store: dict[str, list[str]] = {}
        for rid, disposition in plan.memory.items():
            if disposition != "keep":
                done = {"delete": "deleted", "quarantine": "quarantined",
                        "restore": "restored"}[disposition]
                store.setdefault(done, []).append(rid)
        warnings.append("This plan has not been replayed: you would approve the plan only, "
                        "with no corrected answer.")
        return ApprovalSummary(case_id=case.case_id, replayed=False, answer_before=before,
                               store=store, steps=steps, warnings=warnings,
                               other_owners=other_owners(plan))
    report = _get(result, "report")
    after = _get(result, "answer")
    changes = _get(report, "store_changes")
    store = {kind: list(_get(changes, kind) or []) for kind in
             ("deleted", "quarantined", "restored", "added", "retired")}
    # Each record is listed once, under its final state: one the plan restored and a
    # replayed write retired again ends retired; one a replayed write added and a later
    # one retired is neither a new record nor an old one retired (`added then retired`).
    again = set(store["retired"]) & set(store["restored"])
    store["restored"] = [r for r in store["restored"] if r not in again]
    transient = set(store["added"]) & set(store["retired"])
    store["added then retired"] = [r for r in store["added"] if r in transient]
    store["added"] = [r for r in store["added"] if r not in transient]
    store["retired"] = [r for r in store["retired"] if r not in transient]
    store = {k: v for k, v in store.items() if v}
    steps = {}
    for o in _get(report, "steps") or []:
        outcome = str(_get(o, "outcome"))
        if outcome in _STEP_OUTCOMES:
            steps.setdefault(outcome, []).append(str(_get(o, "id")))
    effects = list(_get(report, "irreversible_effects") or [])
    irreversible = [_line(i) for i in effects]
    declared = {str(_get(w, "step")): str(_get(w, "effect") or "")
                for w in _get(report, "world") or []}
    if not case.has_answer() or getattr(plan, "objective", None) == "store":
        pass  # no answer is regenerated: none can be missing or unchanged
    elif after is None:
        warnings.append("The corrected answer could not be generated (the answer step "
                        "failed).")
    elif " ".join(after.split()) == " ".join(before.split()):
        warnings.append("The corrected answer is the same as the failed run's answer.")
    for f in _get(report, "failures") or []:
        warnings.append("Failed step — " + _line(f))
    for n in _get(report, "needs_observation") or []:
        warnings.append("Needs an observation (its output was not produced) — " + _line(n))
    for item, line in zip(effects, irreversible, strict=True):
        warnings.append(f"{_effect_kind(item, declared)}, not undone by the repair — " + line)
    for w in _get(report, "skipped_writes") or []:
        warnings.append("Write not applied — " + _line(w))
    for o in _get(report, "steps") or []:
        if str(_get(o, "detail") or "") == SUPPLIED_BY_HAND:
            warnings.append(f"Observation typed by hand (not returned by the tool) — step "
                            f"{_get(o, 'id')}")
    if verification is None:
        from ..verification import verify_result

        verification = verify_result(plan.case, result, sources=check_sources(plan),
                                     judge=judge)
    carriers = verification.acknowledgeable()
    found = {c.id for c in carriers}
    # and any the result names that the fresh check did not find: the approval must
    # acknowledge those too (approval.carriers-cover-result), so the reviewer sees them
    named = [c for c in named_carriers(result) if _carrier_id(c) not in found]
    carriers += [c for c in named if isinstance(c, Carrier)]
    # a carrier the result names without its details (in a fault's check, or in a form
    # this dgrr does not read): known by its id alone, and acknowledged all the same
    only_ids = [c for c in named if isinstance(c, str)]
    for c in carriers:  # one kind each: a carrier is acknowledged on its own
        head = CARRIER_WARNING if c.status == "carrier" else NOT_CERTIFIED_WARNING
        warnings.append(f"{head} {c.fault}: {c.kind} {c.where} (id {c.id})"
                        f"{WARNING_KIND_SEPARATOR}{c.evidence}; it says: "
                        f"{' '.join(c.text.split())}")
    for cid in only_ids:
        warnings.append(f"{CARRIER_WARNING} (id {cid}){WARNING_KIND_SEPARATOR}the result "
                        "names it as a carrier without its details; a fresh content check "
                        "does not find it")
    return ApprovalSummary(case_id=case.case_id, replayed=True, answer_before=before,
                           answer_after=after, store=store, steps=steps,
                           irreversible_effects=irreversible, warnings=warnings,
                           carriers=[c.id for c in carriers] + only_ids,
                           carrier_details=carriers, judges=list(verification.judges),
                           other_owners=other_owners(plan))


def _effect_kind(item: Any, declared: Mapping[str, str]) -> str:
    """An irreversible effect's warning kind: its tool and the effect the tool declares
    (from the world ledger, else the first word of the reason), so that a reviewer
    acknowledges each tool's kind of effect once, with its steps listed.

    >>> _effect_kind({"step": "s2", "tool": "pay", "reason": "irreversible: paid"}, {})
    'Irreversible effect of pay (irreversible)'
    """
    if isinstance(item, str):
        return "Irreversible effect"
    tool = str(_get(item, "tool") or "a tool")
    effect = declared.get(str(_get(item, "step"))) or re.split(
        r"[:,;(]", str(_get(item, "reason") or ""), maxsplit=1)[0].strip()
    return f"Irreversible effect of {tool}" + (f" ({effect})" if effect else "")


WARNING_KIND_SEPARATOR = " — "
CARRIER_WARNING = "Carries fault"
"""How the warning of a carrier of a fault starts (each carrier is a warning kind of its own)."""
NOT_CERTIFIED_WARNING = "Not certified clean of fault"
"""How the warning of an item no judge could clear of a fault starts (acknowledged like a
carrier)."""


def warning_groups(warnings: Iterable[str]) -> list[tuple[str, list[str]]]:
    """`warnings` grouped by kind (the words before " — "; a warning without one is a
    kind of its own), kinds in order of first appearance: a reviewer acknowledges a kind
    once, seeing every warning it covers.

    >>> warning_groups(["Failed step — step s1", "Forced.", "Failed step — step s2"])
    [('Failed step', ['Failed step — step s1', 'Failed step — step s2']), ('Forced.', ['Forced.'])]
    """
    groups: dict[str, list[str]] = {}
    for w in warnings:
        kind = w.split(WARNING_KIND_SEPARATOR, 1)[0] if WARNING_KIND_SEPARATOR in w else w
        groups.setdefault(kind, []).append(w)
    return list(groups.items())


_KINDS = ("answer", "output", "record")
"""The places a carrier or an uncertain item is in, in the order they are shown."""


def items_on(items: Collection[Carrier | Uncertain]) -> str | None:
    """The places `items` are on, counted by kind (`1 record`, `1 answer and 2 records`),
    when some place holds more than one of them; None when each is on a place of its own.
    An item is one (place, fault) pair to acknowledge: one record read against two faults
    is two items on one record, where `dgrr repair` counts the record once.

    >>> c = [Carrier(id=f"m1:{f}", kind="record", where="m1", fault=f, evidence="",
    ...              score=1.0, text="") for f in ("m3", "m4")]
    >>> items_on(c), items_on(c[:1])
    ('1 record', None)
    """
    places = places_by_kind(items)
    if sum(places.values()) == len(items):
        return None
    return " and ".join(plural(n, k) for k, n in places.items())


def carrier_groups(carriers: Iterable[Carrier | Uncertain], ids: Iterable[str] = ()
                   ) -> list[tuple[str, list[Carrier | Uncertain | str]]]:
    """`carriers` grouped by kind (the answer, replayed outputs, records), in that order,
    the carriers first, then the items not certified clean (`Uncertain`),
    each group named by its count and the faults it carries: as irreversible effects are
    acknowledged per tool and kind, hundreds of carriers are read as a few tables, one
    acknowledgement each, while the approval still names every carrier's id
    (`approval.carriers-acknowledged`). Those of `ids` (an
    :attr:`ApprovalSummary.carriers`) without details in `carriers` come last, in a group
    of their own as their ids, so that every carrier can be acknowledged
    (`approval.carriers-cover-result`).

    >>> c = [Carrier(id=f"m{i}:m3", kind="record", where=f"m{i}", fault="m3", evidence="",
    ...              score=1.0, text="") for i in (1, 2)]
    >>> [(g, [_carrier_id(x) for x in cs]) for g, cs in carrier_groups(c, ["m1:m3", "x"])]
    [('Carries fault m3: 2 records', ['m1:m3', 'm2:m3']), ('Carries fault: 1 carrier known only by id', ['x'])]
    >>> two = [Carrier(id=f"m1:{f}", kind="record", where="m1", fault=f, evidence="",
    ...                score=1.0, text="") for f in ("m3", "m4")]
    >>> [g for g, _ in carrier_groups(two)]
    ['Carries fault m3, m4: 2 items on 1 record']
    """
    groups: dict[tuple[str, str], list[Carrier | Uncertain]] = {
        (status, kind): [] for status in ("carrier", "not_certified")
        for kind in _KINDS}
    for c in carriers:
        groups.setdefault((c.status, c.kind), []).append(c)
    named: list[tuple[str, list[Carrier | Uncertain | str]]] = []
    for (status, kind), cs in groups.items():
        if not cs:
            continue
        faults = list(dict.fromkeys(c.fault for c in cs))
        which = ", ".join(faults) if len(faults) <= 3 else f"(one of {len(faults)} faults)"
        head = CARRIER_WARNING if status == "carrier" else NOT_CERTIFIED_WARNING
        on = items_on(cs)
        count = plural(len(cs), kind) if on is None else f"{plural(len(cs), 'item')} on {on}"
        named.append((f"{head} {which}: {count}", list(cs)))
    detailed = {c.id for cs in groups.values() for c in cs}
    only_ids: list[Carrier | Uncertain | str] = list(dict.fromkeys(
        i for i in ids if i not in detailed))
    if only_ids:
        named.append((f"{CARRIER_WARNING}: {plural(len(only_ids), 'carrier')} known only "
                      "by id", only_ids))
    return named


def decisions_sha256(decisions: Mapping[str, str]) -> str:
    """sha256 of a plan's decisions (`id -> action` over records and steps)."""
    return sha256_json(sorted(decisions.items()))


def result_problems(plan: RepairPlan, result: Any) -> list[str]:
    """Why `result` is not the repair of `plan`'s case with `plan`'s decisions (empty if
    it is): compares the case id, the failed run's answer, and the sha256 of the
    decisions the result was replayed from with the plan's."""
    case = plan.case
    report = _get(result, "report")
    problems = []
    rid = _get(report, "case_id")
    if rid != case.case_id:
        problems.append(f"report.case_id: the result repairs case {rid!r}, not {case.case_id!r}")
    original = _get(result, "original_answer")
    if rid == case.case_id and original != _original_answer(case):
        problems.append("original_answer: differs from this case's final answer (a result of "
                        "another version of the case)")
    theirs = {str(_get(d, "id")): str(_get(d, "action")) for d in _get(report, "decisions") or []}
    ours = {**plan.memory, **plan.steps}
    if not problems and not theirs:
        problems.append("report.decisions: the result lists no decisions, so it cannot be "
                        "matched to the plan")
    elif not problems and theirs != ours:
        differ = sorted(n for n in set(ours) | set(theirs) if ours.get(n) != theirs.get(n))
        example = ", ".join(f"{n}: plan {ours.get(n, '—')}, result {theirs.get(n, '—')}"
                            for n in differ[:3])
        problems.append(
            f"report.decisions: replayed from another plan — decisions sha256 "
            f"{decisions_sha256(theirs)[:12]} in the result, {decisions_sha256(ours)[:12]} in "
            f"the plan given; {len(differ)} decision(s) differ ({example})")
    if not problems:
        problems.extend(obligation_problems(plan, result))
    return problems


_DONE_TO = {"deleted": "delete", "quarantined": "quarantine", "restored": "restore"}
_OUTCOME_OF = {"replay": "replayed", "refresh": "refreshed", "invalidate": "invalidated"}


def obligation_problems(plan: RepairPlan, result: Any) -> list[str]:
    """What `result` does that `plan` does not: a store change the plan's disposition of
    that record does not ask for (a kept record deleted, say), a record added by a step
    the plan does not replay, a step replayed, refreshed or invalidated against the
    plan's action. The decisions a result lists are only its own claim; its store changes
    and steps are what `dgrr apply` and a reader act on."""
    report = _get(result, "report")
    changes = _get(report, "store_changes") or {}
    problems: list[str] = []
    for kind, action in _DONE_TO.items():
        for rid in _get(changes, kind) or []:
            planned: str | None = plan.memory.get(str(rid))
            if planned != action:
                said = ("keeps it" if planned == "keep" else "does not name it"
                        if planned is None else f"says {planned}")
                problems.append(f"report.store_changes.{kind}: {str(rid)[:80]!r} — the plan "
                                f"{said}, it does not {action} it")
    store = _get(result, "store") or {}
    written = {str(_get(m, "id")): m for part in ("active", "quarantine")
               for m in (_get(store, part) or [])}
    retired = {str(r) for r in _get(changes, "retired") or []}
    # the write whose replay names each record so, by the case: the result's deps are only
    # its claim (rule gate.added-by-replayed-write); one pass over the case for them all
    added_ids = [str(a) for a in _get(changes, "added") or []]
    writers = added_writers(plan.case, [r for r in added_ids if r in written])
    for rid in added_ids:
        if rid in retired and rid not in written and rid not in plan.memory:
            continue  # written, then superseded by a later replayed step: in no store
        if rid in plan.memory:
            problems.append(f"report.store_changes.added: {rid[:80]!r} is a record of the "
                            "case, not one a replayed step wrote")
            continue
        steps = writers.get(rid, [])
        if not steps or not any(plan.steps.get(sid) in ("replay", "refresh") for sid in steps):
            problems.append(f"report.store_changes.added: {rid[:80]!r} — no step the plan "
                            "replays wrote it")
    for outcome in _get(report, "steps") or []:
        sid, done = str(_get(outcome, "id")), str(_get(outcome, "outcome"))
        step_action: str | None = plan.steps.get(sid)
        if step_action is None:
            problems.append(f"report.steps: {sid[:80]!r} is not a step of the plan")
        elif step_action == "keep" and done != "kept":
            problems.append(f"report.steps: {sid[:80]!r} was {done}, the plan keeps it")
        elif done in _OUTCOME_OF.values() and _OUTCOME_OF.get(step_action) != done:
            problems.append(f"report.steps: {sid[:80]!r} was {done}, the plan says "
                            f"{step_action}")
    return problems


def find_decision(store: ApprovalStore, *, case_id: str, reviewer: str, inputs_sha256: str,
                  outputs_sha256: str) -> ApprovalRecord | None:
    """The decision `reviewer` already recorded on exactly these inputs and outputs."""
    return _same_decision(store.history(case_id=case_id), reviewer=reviewer,
                          inputs_sha256=inputs_sha256, outputs_sha256=outputs_sha256)


def _same_decision(records: Iterable[ApprovalRecord], *, reviewer: str, inputs_sha256: str,
                   outputs_sha256: str) -> ApprovalRecord | None:
    for rec in records:
        if (same_reviewer(rec.reviewer, reviewer) and rec.inputs_sha256 == inputs_sha256
                and rec.outputs_sha256 == outputs_sha256):
            return rec
    return None


class ApprovalHasher:
    """:func:`approval_hashes` that writes each case and each plan's report once: the
    sha256 state after a case's (or a plan report's) canonical JSON is kept, so another
    plan of the same case, or a result of the same plan, only hashes what is new (the
    edits, the result). The digests are exactly `approval_hashes`'.

    Objects are recognised by identity (held weakly, the last `keep` of each): a case or
    plan changed in place after it was hashed would keep its old digest, so use one only
    where they are not (dgrr's edits return new objects; the dashboard keeps one per
    session).

    >>> from repair_core import load_example, plan_case
    >>> hasher = ApprovalHasher()
    >>> p = plan_case(load_example())
    >>> hasher(p) == approval_hashes(p)
    True
    """

    def __init__(self, keep: int = 2) -> None:
        self.keep = keep
        self._cases: list[tuple[weakref.ref[Any], Any]] = []
        self._plans: list[tuple[weakref.ref[Any], Any]] = []
        self._lock = threading.Lock()

    @without_gc
    def __call__(self, plan: RepairPlan, result: Any = None) -> tuple[str, str]:
        """(inputs, outputs) sha256 of `plan` and its replay `result`."""
        with self._lock:
            inputs = self._prefix(self._cases, plan.case, b'{"case":',
                                  lambda: model_json(plan.case))
            outputs = self._prefix(self._plans, plan, b'{"plan":',
                                   lambda: model_json(plan.report()))
        _feed(inputs, b',"edits":', [e.model_dump(mode="json") for e in plan.edits])
        _feed(outputs, b',"result":', result_data(result))
        return inputs.hexdigest(), outputs.hexdigest()

    def _prefix(self, held: list[tuple[weakref.ref[Any], Any]], obj: Any, head: bytes,
                data: Any) -> Any:
        """A copy of the sha256 state after `head` and `obj`'s canonical JSON."""
        held[:] = [(ref, state) for ref, state in held if ref() is not None]
        for ref, state in held:
            if ref() is obj:
                return state.copy()
        state = hashlib.sha256(head)
        for piece in canonical_chunks(data()):
            state.update(piece)
        held.append((weakref.ref(obj), state))
        del held[:-self.keep]
        return state.copy()


def _feed(state: Any, head: bytes, value: Any) -> None:
    """`head`, `value`'s canonical JSON and the closing brace into `state`."""
    state.update(head)
    for piece in canonical_chunks(value):
        state.update(piece)
    state.update(b"}")


def approval_hashes(plan: RepairPlan, result: Any = None) -> tuple[str, str]:
    """(inputs, outputs) sha256: inputs = the case and the plan edits; outputs = the plan
    report and the repair result (when there is one): the sha256 of the canonical JSON of
    `{"case": ..., "edits": [...]}` and of `{"plan": ..., "result": ...}`.

    To hash several plans of one case, or several results of one plan, keep an
    :class:`ApprovalHasher`: it writes the case and the report once."""
    # model_json and the canonical chunks work in pieces: on a large case one model_dump
    # or json.dumps call would hold the interpreter lock for a second (other dashboard
    # sessions in the same server stand still meanwhile); the digests are unchanged. The
    # JSON data of a 130k-node case is a million short-lived containers: without the
    # pause (ApprovalHasher pauses collection) they set off a full collection of the
    # whole heap (another second, lock held).
    return ApprovalHasher(keep=1)(plan, result)


def record_decision(store: ApprovalStore, plan: RepairPlan, *, reviewer: str, decision: str,
                    comment: str = "", result: Any = None,
                    hashes: tuple[str, str] | None = None,
                    acknowledged: Iterable[str] = (),
                    carrier_ids: Iterable[str] | None = None,
                    judge: Judge | None = None,
                    recompute: Callable[[Any, Any], None] | None) -> ApprovalRecord:
    """Append the reviewer's decision on `plan` (and its replay `result`, if any).

    Refuses (DgrrError) a result that is not the repair of this case and plan
    (:class:`ResultMismatchError`), a rejection without a reason, an approval of a result
    that still carries a fault unless `acknowledged` names each carrier's id and nothing
    else (:class:`CarriersNotAcknowledgedError`; the ids are recorded with the approval),
    and a second decision by the same reviewer on the same inputs and outputs
    (:class:`DuplicateApprovalError`). `hashes` saves recomputing :func:`approval_hashes`
    (seconds on a large case), and `carrier_ids` the content check (the ids of the
    result's carriers as :func:`approval_summary` found them); every carrier the result
    itself names (:func:`named_carriers`) must be acknowledged all the same, whatever
    `carrier_ids` leaves out. A rejection acknowledges nothing. `judge` is asked what
    the lexical judge leaves unsure in the content check (`--judge`). `recompute`: run
    on the case and a result to approve after the gate, to refuse what the gate's own
    recomputation finds (`replay.replay_again`, rule gate.replay-recomputed: a layer
    above this one). It has no default, so that no caller leaves it out by omission
    (rule gate.recompute-named); None only where no result is approved.
    """
    if result is not None:
        problems = result_problems(plan, result)
        if problems:
            raise ResultMismatchError(problems)
        if decision == "approve":
            from ..verification import gated_store

            # rules gate.*, whatever form the result comes in (gate.every-result): JSON
            # read from a file and a result model a dashboard's replay made are the same
            # data once written out, and either must say what applying it would write
            data = result_data(result) or {}
            gated_store(plan.case, data)
            if recompute is not None:
                recompute(plan.case, data)
    if decision == "reject" and not comment.strip():
        raise DgrrError("approval refused:\n  - comment: a rejection needs a reason")
    acknowledged = list(dict.fromkeys(acknowledged))
    # rule approval.other-owner-acknowledged: an acknowledgement of a record of another
    # owner names one the plan warns about; the carriers are the rest
    owners = [a for a in acknowledged if a.startswith(OWNER_ACK_PREFIX)]
    if decision == "approve":
        _check_owner_acks(plan, owners)
    acknowledged = [a for a in acknowledged if a not in owners]
    if decision == "approve" and (result is not None or acknowledged):
        # rule approval.carriers-acknowledged
        carriers: list[Any] = (list(carrier_ids) if carrier_ids is not None else
                               result_carriers(plan.case, result, plan, judge=judge)
                               if result is not None
                               else [])
        ids = {_carrier_id(c) for c in carriers}
        # rule approval.carriers-cover-result: the carriers given cannot leave out one the
        # (hash-bound) result names; read from the result, no second content check
        unshown = [c for c in named_carriers(result) if _carrier_id(c) not in ids]
        carriers += unshown
        ids |= {_carrier_id(c) for c in unshown}
        missing = [c for c in carriers if _carrier_id(c) not in acknowledged]
        unknown = [a for a in acknowledged if a not in ids]
        if missing or unknown:
            raise CarriersNotAcknowledgedError(missing, unknown,
                                               unshown=[_carrier_id(c) for c in unshown])
    else:
        acknowledged = []
    acknowledged += owners if decision == "approve" else []
    inputs, outputs = hashes if hashes is not None else approval_hashes(plan, result)

    def refuse_same(records: list[ApprovalRecord]) -> None:
        # run under the store's write lock: a double click's second run sees the first's row
        existing = _same_decision(records, reviewer=reviewer, inputs_sha256=inputs,
                                  outputs_sha256=outputs) if reviewer.strip() else None
        # an approval that acknowledges carriers an earlier one did not (one recorded
        # before carriers were checked) is a new decision, not the same one again
        if existing is not None and (existing.decision != decision or sorted(
                existing.acknowledged) == sorted(acknowledged)):
            raise DuplicateApprovalError(existing)

    model = _get(_get(result, "report"), "model")
    return store.add(case_id=plan.case.case_id, reviewer=reviewer, decision=decision,
                     comment=comment, plan_edits=[e.model_dump(mode="json") for e in plan.edits],
                     forced=plan.forced, inputs_sha256=inputs, outputs_sha256=outputs,
                     model=model, acknowledged=acknowledged, check=refuse_same)


def _check_owner_acks(plan: RepairPlan, owners: list[str]) -> None:
    """Refuse an acknowledgement of a record of another owner that is not one the plan
    warns about (`other-owner`)."""
    if not owners:
        return
    from ..plan._warnings import case_warnings

    others = {w.node for w in case_warnings(plan.case) if w.kind == "other-owner"}
    unknown = [a for a in owners if a.removeprefix(OWNER_ACK_PREFIX) not in others]
    if unknown:
        raise DgrrError("approval refused: --acknowledge-owner names a record that is not "
                        "of another owner in this case (dgrr plan lists them under "
                        "other-owner):\n" + "\n".join(
                            f"  - {printable(a.removeprefix(OWNER_ACK_PREFIX)[:120])}"
                            for a in unknown))


def repaired_store(plan: RepairPlan, result: Any = None) -> dict[str, Any]:
    """The repaired active store and quarantine partition: the replay's when there is a
    result, else what the plan's dispositions alone give (before any replayed write)."""
    data = result_data(result)
    if data is not None and "store" in data:
        return dict(data["store"])
    active, quarantine = [], []
    for m in plan.case.memory:
        action = plan.memory[m.id]
        record = m.model_dump(mode="json")
        if action == "quarantine":
            quarantine.append(record)
        elif action == "restore":
            active.append({**record, "status": "active"})
        elif action == "keep" and m.status == "active":
            active.append(record)
    return {"active": active, "quarantine": quarantine}


def repaired_trajectory(plan: RepairPlan, result: Any = None) -> dict[str, Any]:
    """The repaired trajectory (the replay's case) or, before a replay, the steps with
    their planned actions."""
    data = result_data(result)
    if data is not None and "trajectory" in data:
        return dict(data["trajectory"])
    return {"case_id": plan.case.case_id, "planned": True,
            "steps": [{**s.model_dump(mode="json"), "action": plan.steps[s.id],
                       "reason": plan.reasons.get(s.id)} for s in plan.case.steps_in_order()]}


def _md(text: Any) -> str:
    return markdown_text(text)


def _ids(ids: Iterable[Any], sep: str = ", ") -> str:
    return sep.join(_md(i) for i in ids)


def markdown_report(plan: RepairPlan, result: Any = None,
                    approvals: Iterable[ApprovalRecord] = (),
                    hashes: tuple[str, str] | None = None) -> str:
    """A Markdown report of the repair: faults, decisions with reasons, edits, answers,
    cost and the recorded approvals (`hashes` saves recomputing `approval_hashes`).

    Every string from the case, the model or a reviewer is escaped (no link, image, HTML
    or table break survives) and the case id is a code span whatever backticks it holds.
    """
    case = plan.case
    data = result_data(result)
    lines = [f"# Repair report — case {markdown_code(case.case_id)}", ""]
    lines.append(f"- domain: {_md(case.domain or '—')}; user: {_md(case.user_id)}")
    lines.append(f"- diagnosed faults: {_ids(case.faults) or 'none'}")
    lines.append("- seeds: " + (", ".join(f"{_md(f)} → {_md(s)}"
                                          for f, s in plan.analysis.seeds.items()) or "none"))
    mem = Counter(plan.memory.values())
    steps = Counter(plan.steps.values())
    lines.append("- memory: " + ", ".join(f"{n} {k}" for k, n in sorted(mem.items())))
    lines.append("- trajectory: " + ", ".join(f"{n} {k}" for k, n in sorted(steps.items())))
    lines.append(f"- replay: {len(plan.replay_set)} of {len(case.trajectory)} steps "
                 f"({_ids(plan.replay_order(), ' → ')})")
    inputs, outputs = hashes if hashes is not None else approval_hashes(plan, result)
    lines.append(f"- inputs sha256: `{inputs}`; outputs sha256: `{outputs}`")
    lines += ["", "## Decisions", "", "| node | decision | reason |", "|---|---|---|"]
    for node, action in [*plan.memory.items(), *plan.steps.items()]:
        if action != "keep" or node in plan.reasons:
            lines.append(f"| {_md(node)} | {action} | {_md(plan.reasons.get(node, ''))} |")
    if plan.edits:
        lines += ["", "## Reviewer edits", "", "| node | computed | edited | comment |",
                  "|---|---|---|---|"]
        lines += [f"| {_md(e.node)} | {e.before} | {e.action} | {_md(e.comment or '')} |"
                  for e in plan.edits]
        if plan.forced:
            lines.append("\nSome edits override an invariant of the method (forced).")
    lines += ["", "## Answers", "", f"- original: {_md(_original_answer(case))}"]
    if data is not None:
        answer = data.get("answer")
        lines.append(f"- corrected: {_md(answer) if answer is not None else '(none)'}")
        cost = data.get("cost") or {}
        lines.append(f"- cost: {_md(cost.get('llm_calls', '?'))} model calls, "
                     f"{_md(cost.get('tokens', '?'))} tokens, replay ratio "
                     f"{_md(cost.get('replay_ratio', '?'))}")
        report = data.get("report") or {}
        for key, title in (("irreversible_effects", "Irreversible effects (not undone)"),
                           ("skipped_writes", "Skipped writes"),
                           ("failures", "Failures")):
            items = report.get(key) or []
            if items:
                lines += ["", f"## {title}", ""]
                lines += [f"- {_md(_line(item))}" for item in items]
    else:
        lines.append("- corrected: (not replayed yet)")
    approvals = list(approvals)
    if approvals:
        lines += ["", "## Approvals", "", "| time (UTC) | reviewer | decision | comment |",
                  "|---|---|---|---|"]
        lines += [f"| {a.created_at:%Y-%m-%d %H:%M:%S} | {_md(a.reviewer)} | {_md(a.decision)} | "
                  f"{_md(a.comment)} |" for a in approvals]
    return "\n".join(lines) + "\n"
