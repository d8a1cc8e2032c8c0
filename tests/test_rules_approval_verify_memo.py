"""Rule `approval.verify-memo`: a store object that verified the approvals log
before reuses the verdict of a row only while that row's stored values are the same. Every
tampering of the signing tests, made between two verifies of one store object behind its
back, gets the verdict a store opened afterwards gives; appended rows are the only rows
hashed and signature-checked again."""

from __future__ import annotations

import sqlite3

import pytest
import test_approval_signing as signing
from test_approval_signing import H_IN, H_OUT, TAMPERINGS, _drop_triggers, _fill, keyed

from repair_core.approvals import ApprovalStore, TrustFile, generate_key
from repair_core.approvals import _store as store_module
from repair_core.approvals._checkpoint import read_checkpoint
from repair_core.approvals._keys import TrustedKey

__all__ = ["keyed"]  # the signing tests' fixture: keys for ana and bob, a trust file

rule = pytest.mark.rule


def _verdict(check) -> tuple:
    return check.ok, check.rows, check.first_broken, check.reason, check.head


@rule("approval.verify-memo")
@pytest.mark.parametrize("signed", [True, False], ids=["trust-and-checkpoint", "chain-only"])
@pytest.mark.parametrize("kind", TAMPERINGS)
def test_tampering_between_two_verifies_of_one_store_gets_a_fresh_stores_verdict(
        keyed, capsys, monkeypatch, kind, signed):
    warm: dict = {}
    make_checkpoint = signing._checkpoint

    def checkpoint_then_verify(k, capsys) -> None:
        # the last moment the log is as dgrr wrote it: a store verifies it, then _tamper
        # goes on to change the file behind that store's back
        make_checkpoint(k, capsys)
        trust = TrustFile.load()
        warm["store"] = store = ApprovalStore(k["db"])
        warm["args"] = (trust, read_checkpoint(k["cp"], trust)) if signed else ()
        first = store.verify(*warm["args"])
        assert first.ok and first.rows >= 4, first.reason

    monkeypatch.setattr(signing, "_checkpoint", checkpoint_then_verify)
    signing._tamper(kind, keyed, capsys)
    again = warm["store"].verify(*warm["args"])
    fresh = ApprovalStore(keyed["db"]).verify(*warm["args"])
    assert _verdict(again) == _verdict(fresh)
    if signed:  # every tampering fails `dgrr history --verify --against` (the CLI's test)
        assert not again.ok


@rule("approval.verify-memo")
def test_a_row_changed_and_the_triggers_put_back_fails_the_next_verify(keyed):
    store = _fill(keyed["db"], 4)
    assert store.verify(TrustFile.load()).ok and store.verify().ok
    con = sqlite3.connect(keyed["db"])
    _drop_triggers(con)
    con.execute("UPDATE dgrr_approvals SET comment = 'changed' WHERE id = 1")
    for ddl in store_module._SQLITE_TRIGGERS.values():
        con.execute(ddl)
    con.commit()
    con.close()
    for check in (store.verify(), store.verify(TrustFile.load())):
        assert not check.ok and check.first_broken == 1
        assert "does not match its hash" in str(check.reason)


@rule("approval.verify-memo")
@pytest.mark.parametrize("dropped", ["dgrr_approvals_no_update", "dgrr_approvals_chained"])
def test_triggers_dropped_after_the_store_opened_fail_its_next_verify(keyed, dropped):
    store = _fill(keyed["db"], 3)
    assert store.verify().ok
    con = sqlite3.connect(keyed["db"])
    con.execute(f"DROP TRIGGER {dropped}")
    con.commit()
    con.close()
    check = store.verify(TrustFile.load())
    assert not check.ok and check.reason == f"append-only triggers were dropped: {dropped}"


@rule("approval.verify-memo")
def test_a_signature_verdict_is_not_kept_when_the_trust_file_changes(keyed):
    store = _fill(keyed["db"], 4)  # ana signs rows 1 and 3, bob 2 and 4
    trust = TrustFile.load()
    assert trust is not None and store.verify(trust).ok
    without_bob = TrustFile(trust.path, [k for k in trust.keys if k.reviewer != "bob"])
    check = store.verify(without_bob)
    assert not check.ok and check.first_broken == 2 and "does not trust" in str(check.reason)
    # bob's public key now trusted for ana: bob's rows name bob, so they still fail
    bob_as_ana = TrustFile(trust.path, [TrustedKey("ana", k.public_raw) if k.reviewer == "bob"
                                        else k for k in trust.keys])
    assert store.verify(bob_as_ana).first_broken == 2
    assert store.verify(trust).ok
    assert store.verify(TrustFile.load()).ok


@rule("approval.verify-memo")
def test_a_forged_signature_put_in_after_a_verify_fails_the_next(keyed):
    store = _fill(keyed["db"], 4)
    assert store.verify(TrustFile.load()).ok
    mallory, _ = generate_key("bob", keyed["tmp"] / "mallory-keys")
    con = sqlite3.connect(keyed["db"])
    _drop_triggers(con)
    (hash2,) = con.execute("SELECT row_hash FROM dgrr_approvals WHERE id = 2").fetchone()
    con.execute("UPDATE dgrr_approvals SET key_id = ?, signature = ? WHERE id = 2",
                (TrustFile.load().keys[1].key_id,
                 mallory.sign(store_module.row_message(hash2))))
    for ddl in store_module._SQLITE_TRIGGERS.values():
        con.execute(ddl)
    con.commit()
    con.close()
    check = store.verify(TrustFile.load())
    assert not check.ok and check.first_broken == 2 and "forged" in str(check.reason)
    assert store.verify().ok  # the chain does not cover signatures: it still verifies


@rule("approval.verify-memo")
def test_a_verify_hashes_and_checks_the_signatures_of_the_new_rows_only(keyed, monkeypatch):
    hashed: list[str] = []
    signatures: list[bytes] = []
    real_hash, real_verifies = store_module.row_hash, TrustedKey.verifies

    def counting_hash(fields, prev):
        hashed.append(prev)
        return real_hash(fields, prev)

    def counting_verifies(self, message, signature):
        signatures.append(message)
        return real_verifies(self, message, signature)

    store = _fill(keyed["db"], 6)
    monkeypatch.setattr(store_module, "row_hash", counting_hash)
    monkeypatch.setattr(TrustedKey, "verifies", counting_verifies)
    assert store.verify(TrustFile.load()).ok  # the first verify: every row
    assert (len(hashed), len(signatures)) == (6, 6)
    for i in range(4):
        store.add(case_id=f"n{i}", reviewer=("ana", "bob")[i % 2], decision="approve",
                  inputs_sha256=H_IN, outputs_sha256=H_OUT)
    hashed.clear()
    signatures.clear()
    check = store.verify(TrustFile.load())  # the trust file read again: the same keys
    assert check.ok and check.rows == 10
    assert (len(hashed), len(signatures)) == (4, 4)  # rows 7-10
    hashed.clear()
    signatures.clear()
    assert store.verify().ok and store.verify(TrustFile.load()).ok
    assert (hashed, signatures) == ([], [])
    # another store object of the same file has checked nothing: it checks every row
    assert ApprovalStore(keyed["db"]).verify(TrustFile.load()).ok
    assert (len(hashed), len(signatures)) == (10, 10)
