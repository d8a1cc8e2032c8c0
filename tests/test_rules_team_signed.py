"""Rule approval.team-rows-signed: an approvals log opened to record only signed rows
(a team dashboard's) refuses, before anything is written, every row it cannot sign with
a key the trust file trusts for the row's reviewer, and signs every other row, the
apply's intent and applied events included; `dgrr history --verify` then checks each
signature."""

from __future__ import annotations

import pytest
from lg_sqlite_case import trust_key

from repair_core import DgrrError
from repair_core.approvals import ApprovalStore, TrustFile, generate_key
from repair_core.cli import main

rule = pytest.mark.rule
LABEL = "ana@example.org <oidc:https://id.example#u-ana-0001>"
DECISION = dict(case_id="c1", decision="approve", inputs_sha256="0" * 64,
                outputs_sha256="1" * 64)


@rule("approval.team-rows-signed")
def test_a_signed_only_log_refuses_what_it_cannot_sign_and_signs_the_rest(tmp_path, capsys):
    keys, trust, db = tmp_path / "keys", tmp_path / "trust.json", str(tmp_path / "a.db")
    log = ApprovalStore(db, keys=keys, trust=trust, signed_only=True)
    with pytest.raises(DgrrError, match="only signed rows and there is no trust file"):
        log.add(reviewer=LABEL, **DECISION)
    trust_key("bo", keys, trust)
    with pytest.raises(DgrrError, match="has no signing key"):
        log.add(reviewer=LABEL, **DECISION)
    signer, _ = generate_key(LABEL, keys)  # a key, but not one the trust file trusts
    with pytest.raises(DgrrError, match="not in the trust file"):
        log.add(reviewer=LABEL, **DECISION)
    assert log.history() == []  # nothing was written by a refusal
    TrustFile.load(trust).add(LABEL, signer.public_raw)  # type: ignore[union-attr]
    decision = log.add(reviewer=LABEL, **DECISION)
    intent = log.record_applied(decision.id, reviewer=LABEL, target="langgraph:x:y",
                                kind="intent")
    applied = log.record_applied(decision.id, reviewer=LABEL, target="langgraph:x:y")
    for row in (decision, intent, applied):
        assert row.key_id == signer.key_id and row.signature
    # the same rows by a reviewer without a key: an applied event too is refused
    with pytest.raises(DgrrError, match="has no signing key"):
        log.record_applied(decision.id, reviewer="cy", target="langgraph:x:y")
    capsys.readouterr()
    assert main(["history", "--verify", "--db", db, "--trust", str(trust)]) == 0
    out = capsys.readouterr().out
    assert "3 rows" in out and "chain and signatures checked" in out
    assert "unsigned" not in out


def test_a_log_not_opened_signed_only_still_records_unsigned_rows(tmp_path):
    log = ApprovalStore(str(tmp_path / "a.db"), keys=tmp_path / "keys",
                        trust=tmp_path / "none.json")
    row = log.add(reviewer="ana", **DECISION)
    assert row.key_id is None and row.signature is None
