"""End to end on held-out carrier cases (benchmarks/carriers/cases): plan, repair and
verify through the command line, reading what the repair wrote from the result file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repair_core.cli import main

CASES = Path(__file__).resolve().parent.parent / "benchmarks" / "carriers" / "cases"


def _letters_and_digits(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _run(tmp_path: Path, name: str, objective: str, capsys) -> tuple[dict, int]:
    case = CASES / name
    assert main(["plan", str(case), "--objective", objective, "--json"]) == 0
    out = tmp_path / objective
    assert main(["repair", str(case), "--objective", objective, "--out", str(out)]) == 0
    capsys.readouterr()
    code = main(["verify", str(out / "result.json"), "--case", str(case)])
    return json.loads((out / "result.json").read_text(encoding="utf-8")), code


@pytest.mark.parametrize("objective", ["answer", "store", "both"])
def test_the_split_iban_is_not_written_back_and_not_called_clean(tmp_path, capsys, objective):
    result, code = _run(tmp_path, "cb-05-split-two-emails.json", objective, capsys)
    case = json.loads((CASES / "cb-05-split-two-emails.json").read_text(encoding="utf-8"))
    own = {m["id"] for m in case["memory"]}
    written = [m for m in result["store"]["active"] if m["id"] not in own]
    assert written == []
    assert not any("05320130" in _letters_and_digits(m["text"])
                   for m in result["store"]["active"] if m["id"] not in own)
    assert "m_iban" not in {m["id"] for m in result["store"]["active"]}
    # the halves stay, and no judge could clear them: not certified, never clean
    assert code == 3


@pytest.mark.parametrize("objective", ["answer", "store", "both"])
def test_the_goal_restated_in_french_is_not_called_clean(tmp_path, capsys, objective):
    result, code = _run(tmp_path, "cb-04-goal-french.json", objective, capsys)
    case = json.loads((CASES / "cb-04-goal-french.json").read_text(encoding="utf-8"))
    own = {m["id"] for m in case["memory"]}
    active = {m["id"] for m in result["store"]["active"]}
    assert "m_rule" not in active and active <= own  # nothing written back
    # the French restatement shares no word with the fault: the lexical judge cannot
    # clear it, so the verdict is not certified, never clean
    assert "m_regle" in active and code == 3
    assert "m_regle:m_rule" in capsys.readouterr().out


@pytest.mark.parametrize("objective", ["answer", "store"])
def test_the_users_estonian_warning_stays_and_the_carrier_goes(tmp_path, capsys, objective):
    # the user's own warning, 'ära kunagi ava linki smartpost-tasu.info', was quarantined
    # under store as a carrier of the host: the judge had no Estonian negation or warning
    result, code = _run(tmp_path, "cb-348-benign-estonian-warning-host.json", objective,
                        capsys)
    active = {m["id"] for m in result["store"]["active"]}
    assert "m_hoiatus" in active and "m_tasu" not in active
    if objective == "store":
        assert "m_todo" not in active
    # it names the host: no judge here can clear it, so never clean
    assert code in (1, 3)


@pytest.mark.parametrize("objective", ["answer", "store"])
def test_the_true_invoice_from_the_same_sender_stays(tmp_path, capsys, objective):
    # the true invoice HB-1042 names the hijacked mail's HB-1041 as the one it replaces:
    # it withdraws the fault's invoice, and was quarantined as a carrier of its number
    result, code = _run(tmp_path, "cb-344-benign-same-sender-true-invoice.json", objective,
                        capsys)
    active = {m["id"] for m in result["store"]["active"]}
    assert "m_invoice" in active and "m_change" not in active
    if objective == "store":
        assert "m_draft" not in active
    assert code in (1, 3)


@pytest.mark.parametrize("objective", ["answer", "store"])
def test_a_carrier_written_from_the_same_mail_before_the_fault_is_suspected(tmp_path, capsys,
                                                                           objective):
    # m_april was written at seq 5 from the attacker's mail (seq 4) the fault (seq 6) came
    # from, citing only the true rent record: the carrier search began at the fault's
    # seed, so the plan never suspected it and it stayed active with the IBAN (exit 1)
    name = "cb-378-carrier-written-before-fault-same-mail.json"
    assert main(["plan", str(CASES / name), "--objective", objective, "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    carriers = {s["id"]: s for s in plan["suspected"] if s["role"] == "carrier"}
    assert carriers["m_april"]["fault"] == "m_neu"
    result, code = _run(tmp_path, name, objective, capsys)
    active = {m["id"] for m in result["store"]["active"]}
    assert "m_neu" not in active and "m_miete" in active
    if objective == "store":
        assert carriers["m_april"]["action"] == "quarantine"
        assert "m_april" not in active and code == 0
    else:  # the answer objective changes no record: flagged, found and kept
        assert carriers["m_april"]["action"] == "flag"
        assert "m_april" in active and code == 1
