"""The queue's worker gates a result as `dgrr apply` does, through the same function: a
result edited to leave the fault out of its store changes, to hide an added record in its
quarantine, to omit an active record or to drop its irreversible effects is refused by
the worker with the rule and the words `dgrr apply` refuses it with; both count the same
reviewers with a trust file and without one; and `dgrr queue decide` plans with the
reviewer's suspects edits, as `dgrr plan` and `dgrr approve` do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from repair_core import load_case
from repair_core.approvals import ApprovalStore, TrustFile, approval_hashes, generate_key
from repair_core.case._case import Case
from repair_core.cli import main
from repair_core.plan._plan import plan_case
from repair_core.queue import RepairQueue, ReviewRule, apply_request, review
from repair_core.replay import repair

rule = pytest.mark.rule
ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "sample_traces" / "figure1-travel.json"  # m3 the fault; m6 quarantined
BANKING = ROOT / "sample_traces" / "agentdojo" / (
    "adj-banking-usertask0-injectiontask0-usertask2-importantinstructions.json")  # s3 a source
NOWHERE = "dgrr_no_such_module:store"


def _fig1(tmp_path: Path, *, irreversible: bool = False) -> tuple[Case, str]:
    """Figure 1's case (its search tool declared irreversible, when asked: the repair
    replays s6, a call of it that descends from the fault), and its file."""
    data = json.loads(FIG1.read_text())
    if irreversible:
        for tool in data["tools"]:
            tool["effect"] = "irreversible"
    path = tmp_path / "case.json"
    path.write_text(json.dumps(data))
    return load_case(path), str(path)


def _result(case: Case) -> dict[str, Any]:
    return json.loads(repair(case, plan_case(case, objective="both")).model_dump_json())


def _approved(queue: RepairQueue, case: Case, data: dict[str, Any], *,
              reviewers: tuple[str, ...] = ("ana",), target: str = NOWHERE) -> Any:
    """A request whose approval of `data` a tool that skipped every check recorded (its
    digests match the result), held by worker w1: only the worker's gate stands between
    it and the store."""
    r = queue.submit(case, ["m3"], diagnosed_by="d", objective="both",
                     store_target={"to": "langgraph", "store": target})
    inputs, outputs = approval_hashes(plan_case(case, objective="both"), data)
    for who in reviewers:
        queue.claim(r.id, reviewer=who)
        row = queue.approvals.add(case_id=case.case_id, reviewer=who, decision="approve",
                                  inputs_sha256=inputs, outputs_sha256=outputs)
        queue.decide(r.id, reviewer=who, decision="approve", decision_id=row.id,
                     result=data, needed=len(reviewers))
    held = queue.take_approved(worker="w1")
    assert held is not None and held.id == r.id
    return held


def _apply_refusal(capsys, tmp_path: Path, case_path: str, data: dict[str, Any], db: str,
                   *extra: str) -> str:
    """The error `dgrr apply --apply` exits 2 with, nothing journalled."""
    result = tmp_path / "result.json"
    result.write_text(json.dumps(data))
    journal = tmp_path / "journal"
    capsys.readouterr()
    assert main(["apply", str(result), "--case", case_path, "--to", "langgraph",
                 "--store", NOWHERE, "--db", db, "--journal", str(journal), "--apply",
                 "--reviewer", "ops", *extra]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and not journal.exists()
    return err


def _fault_dropped(data: dict[str, Any]) -> None:
    data["report"]["store_changes"]["deleted"].remove("m3")


def _added_hidden(data: dict[str, Any]) -> None:
    [added] = [m for m in data["store"]["active"] if m["id"] == "m6~r1"]
    data["store"]["active"].remove(added)
    data["store"]["quarantine"].append({**added, "text": "Lin prefers window seats."})


def _active_omitted(data: dict[str, Any]) -> None:
    data["store"]["active"] = [m for m in data["store"]["active"] if m["id"] != "m4"]


@rule("apply.same-gate")
@pytest.mark.parametrize("tamper,named", [
    (_fault_dropped, ("gate.store-changes-match-decisions", "'m3'")),
    (_added_hidden, ("gate.quarantine-matches-plan", "'m6~r1'")),
    (_active_omitted, ("gate.active-matches-plan", "'m4'"))])
def test_the_worker_refuses_a_tampered_result_with_the_words_of_dgrr_apply(
        tmp_path, capsys, tamper, named):
    case, case_path = _fig1(tmp_path)
    data = _result(case)
    tamper(data)
    db = str(tmp_path / "q.db")
    queue = RepairQueue(db)
    try:
        failed = apply_request(queue, _approved(queue, case, data), worker="w1")
        assert failed.status == "failed" and all(n in failed.error for n in named)
        assert [e.kind for e in queue.approvals.history()] == ["decision"]  # no applied row
    finally:
        queue.close()
    err = _apply_refusal(capsys, tmp_path, case_path, data, db)
    assert failed.error in err  # the same refusal, word for word


@rule("apply.other-owner-acknowledged")
def test_the_worker_refuses_a_write_in_another_owners_scope_before_opening_the_store(
        tmp_path, capsys):
    """m3 lies in the team's namespace, not the user's; its deletion was approved without
    `--acknowledge-owner m3`. The worker did not look before opening the store (its copy
    of apply's checks left this one out); now it refuses as `dgrr apply` does."""
    data_case = json.loads(FIG1.read_text())
    for m in data_case["memory"]:
        ns = ["memories", "team" if m["id"] == "m3" else "lin"]
        m.update(langgraph_namespace=ns, langgraph_key=m["id"], owner={"namespace": ns})
    case_path = tmp_path / "case.json"
    case_path.write_text(json.dumps(data_case))
    case = load_case(case_path)
    data = _result(case)
    db = str(tmp_path / "q.db")
    queue = RepairQueue(db)
    try:
        failed = apply_request(queue, _approved(queue, case, data), worker="w1")
        assert failed.status == "failed"
        assert failed.error.startswith("refused: the repair writes in the scope of someone "
                                       "other than the case's user (1 record: ")
        assert "m3" in failed.error and NOWHERE not in failed.error  # store never opened
    finally:
        queue.close()
    err = _apply_refusal(capsys, tmp_path, str(case_path), data, db)
    assert failed.error in err


def _signing(tmp_path: Path, monkeypatch) -> Path:
    """Keys for admin, ana and bo, trusted (admin an administrator)."""
    monkeypatch.setenv("DGRR_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "trust.json"))
    trust = TrustFile(tmp_path / "trust.json", [])
    for who in ("admin", "ana", "bo"):
        trust.add(who, generate_key(who)[0].public_raw, admin=who == "admin")
    return tmp_path / "trust.json"


@rule("apply.irreversible-recomputed")
def test_a_result_that_drops_its_irreversible_effects_still_needs_two_reviewers(
        tmp_path, capsys, monkeypatch):
    """Under `--irreversible yes`, a result edited to name no irreversible effect (its
    `needs_human` and `report.irreversible_effects` emptied) was approved by one reviewer
    and written by the worker and `dgrr apply`: the count was read from the file. It is
    recomputed from the case and the decisions."""
    trust = _signing(tmp_path, monkeypatch)
    case, case_path = _fig1(tmp_path, irreversible=True)
    data = _result(case)
    assert [n["step"] for n in data["needs_human"]] == ["s6"]
    data["needs_human"], data["report"]["irreversible_effects"] = [], []
    db = str(tmp_path / "q.db")
    queue = RepairQueue(db)
    try:
        queue.set_rule(ReviewRule(irreversible=True), actor="admin")
        # the reviewer's decision asks for a second one
        r = queue.submit(case, ["m3"], diagnosed_by="d", objective="both",
                         store_target={"to": "langgraph", "store": NOWHERE})
        queue.claim(r.id, reviewer="ana")
        first = review(queue, r.id, reviewer="ana", decision="approve", result=data,
                       plan=plan_case(case, objective="both"))
        assert (first.status, first.needed) == ("pending", 2)
        # a request pushed to approved with that one approval is refused by the worker
        queue.claim(r.id, reviewer="bo")
        queue.decide(r.id, reviewer="bo", decision="approve",
                     decision_id=first.decision_id, result=data, needed=1)
        held = queue.take_approved(worker="w1")
        failed = apply_request(queue, held, worker="w1", trust=TrustFile.load(trust))
        assert failed.status == "failed"
        assert "the review rule asks for 2 distinct reviewers' approvals" in failed.error
    finally:
        queue.close()
    err = _apply_refusal(capsys, tmp_path, case_path, data, db, "--trust", str(trust))
    assert failed.error in err


@rule("apply.irreversible-recomputed")
def test_irreversible_effects_are_read_from_the_case_and_the_decisions(tmp_path):
    from repair_core.integrations._target import irreversible_effects

    case, _ = _fig1(tmp_path, irreversible=True)
    data = _result(case)
    data["needs_human"], data["report"]["irreversible_effects"] = [], []
    assert irreversible_effects(case, data) == ["s6"]
    plain, _ = _fig1(tmp_path)  # a pure search takes nothing back
    assert irreversible_effects(plain, _result(plain)) == []
    # a result may name more (an undo that could not run), never fewer
    named = {**_result(plain), "needs_human": [{"step": "s10", "tool": "t", "args": {},
                                                "reason": "undo failed"}]}
    assert irreversible_effects(plain, named) == ["s10"]
    # the result is untrusted: a list that is not one names nothing, and raises nothing
    odd = {**_result(plain), "needs_human": 5}
    odd["report"] = {**odd["report"], "irreversible_effects": "s10"}
    assert irreversible_effects(plain, odd) == []


@rule("apply.same-gate")
@pytest.mark.parametrize("with_trust", [True, False])
def test_the_worker_and_dgrr_apply_count_the_same_reviewers(tmp_path, capsys, monkeypatch,
                                                            with_trust):
    """A signed rule asks for two reviewers over one store operation. The worker counted
    them through the approvals store's own trust file while its approval was checked
    without one; now it counts as `dgrr apply` does: two with the trust file, one (no rule
    is honoured unsigned) without."""
    pytest.importorskip("langgraph")
    from langgraph.store.memory import InMemoryStore

    trust = _signing(tmp_path, monkeypatch)
    data_case = json.loads(FIG1.read_text())
    for m in data_case["memory"]:
        m.update(langgraph_namespace=["memories", "lin"], langgraph_key=m["id"],
                 owner={"namespace": ["memories", "lin"]})
    case_path = tmp_path / "case.json"
    case_path.write_text(json.dumps(data_case))
    case = load_case(case_path)
    data = _result(case)
    db = str(tmp_path / "q.db")
    queue = RepairQueue(db, approvals=ApprovalStore(db, trust=str(trust)))
    try:
        queue.set_rule(ReviewRule(over_ops=1), actor="admin")
        r = queue.submit(case, ["m3"], diagnosed_by="d", objective="both",
                         store_target={"to": "langgraph", "store": "unused:store"})
        for who in ("ana", "bo"):
            queue.claim(r.id, reviewer=who)
            review(queue, r.id, reviewer=who, decision="approve", result=data,
                   plan=plan_case(case, objective="both"))
        if not with_trust:
            monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "no-trust.json"))
        result = tmp_path / "result.json"
        result.write_text(json.dumps(data))
        capsys.readouterr()
        assert main(["apply", str(result), "--case", str(case_path), "--to", "langgraph",
                     "--store", NOWHERE, "--db", db,
                     *(["--trust", str(trust)] if with_trust else [])]) == 0
        out = capsys.readouterr().out
        needed = 2 if with_trust else 1
        assert f"; {needed} distinct reviewer{'s' if needed > 1 else ''} needed;" in out
        store = InMemoryStore()
        for m in case.memory:
            store.put(("memories", "lin"), m.id, {"text": m.text})
        monkeypatch.setenv("DGRR_APPLY_DIR", str(tmp_path / "journal"))
        held = queue.take_approved(worker="w1")
        done = apply_request(queue, held, worker="w1", open_store=lambda _target: store,
                             trust=TrustFile.load(trust) if with_trust else None)
        assert done.status == "applied", done.error
        intents = [json.loads(p.read_text()) for p in (tmp_path / "journal").glob("*.json")]
        assert [i["needed"] for i in intents] == [needed]
    finally:
        queue.close()


def test_queue_decide_plans_with_the_reviewers_suspects_edits(tmp_path, capsys):
    """s3, the bill the injection came in, is a suspected source the plan cleans; a
    reviewer's `--not-suspect s3` or `--clean-source s3=WHY` was dropped by a decision
    without a plan, which replayed the default plan."""
    db = str(tmp_path / "q.db")

    def decided(*edits: str) -> dict[str, Any]:
        assert main(["queue", "submit", str(BANKING), "--by", "d", "--objective", "store",
                     "--db", db]) == 0
        assert main(["queue", "claim", "--reviewer", "ana", "--db", db]) == 0
        rid = _read(db, lambda q: q.requests(status=["claimed"])[0].id)
        assert main(["queue", "decide", str(rid), "--reviewer", "ana", "--decision",
                     "approve", "--db", db, *edits]) == 0, capsys.readouterr().err
        return _read(db, lambda q: q.result(rid)) or {}

    default = decided()
    assert {d["id"]: d["action"] for d in default["report"]["decisions"]}["s3"] == "invalidate"
    unmarked = decided("--not-suspect", "s3")
    assert unmarked["report"]["not_suspect"] == ["s3"]
    assert {d["id"]: d["action"] for d in unmarked["report"]["decisions"]}["s3"] == "keep"
    cleaned = decided("--clean-source", "s3=the bill carries the injection")
    assert cleaned["report"]["clean_source"] == {"s3": "the bill carries the injection"}
    flagged = decided("--suspects", "flag")
    assert flagged["report"]["suspects"] == "flag"
    # an id the case does not hold is named, nothing decided
    assert main(["queue", "submit", str(BANKING), "--by", "d", "--db", db]) == 0
    assert main(["queue", "claim", "--reviewer", "ana", "--db", db]) == 0
    rid = _read(db, lambda q: q.requests(status=["claimed"])[0].id)
    capsys.readouterr()
    assert main(["queue", "decide", str(rid), "--reviewer", "ana", "--decision", "approve",
                 "--db", db, "--not-suspect", "s999"]) == 2
    err = capsys.readouterr().err
    assert "--not-suspect: not an id of the case: 's999'" in err and "Traceback" not in err
    assert _read(db, lambda q: q.get(rid).status) == "claimed"


def _read(db: str, what: Any) -> Any:
    """`what(queue)` on the queue at `db`, closed after."""
    queue = RepairQueue(db)
    try:
        return what(queue)
    finally:
        queue.close()
