"""The files trust rests on are refused when someone else could have put them there: a
journal lock file that is a symbolic link (or anything but a regular file), a key folder
or a trust file that group or other users can write. A key folder others can read is
warned about."""

from __future__ import annotations

import os
import stat

import pytest

from repair_core import DgrrError
from repair_core.approvals import TrustFile, generate_key
from repair_core.approvals._keys import load_signer
from repair_core.integrations import Journal

rule = pytest.mark.rule


@rule("apply.lock-file-regular")
def test_a_planted_lock_symlink_is_refused_and_its_target_never_made(tmp_path):
    folder = tmp_path / "journal"
    folder.mkdir()
    target = tmp_path / "victim.txt"
    journal = Journal(folder, "k" * 24)
    os.symlink(target, journal.lock_path)
    with pytest.raises(DgrrError, match="symbolic link"), journal.locked():
        pass
    assert not target.exists()


@rule("apply.lock-file-regular")
def test_a_lock_that_is_not_a_regular_file_is_refused(tmp_path):
    folder = tmp_path / "journal"
    folder.mkdir()
    journal = Journal(folder, "k" * 24)
    os.mkfifo(journal.lock_path)
    with pytest.raises(DgrrError, match="not a regular file"), journal.locked():
        pass


def test_a_regular_lock_file_is_made_private_and_used(tmp_path):
    journal = Journal(tmp_path / "journal", "k" * 24)
    with journal.locked():
        assert stat.S_IMODE(journal.lock_path.lstat().st_mode) == 0o600


@rule("keys.folder-private")
def test_a_key_folder_others_can_write_is_refused_naming_it_and_its_mode(tmp_path):
    keys = tmp_path / "keys"
    generate_key("ana", keys)
    keys.chmod(0o770)
    with pytest.raises(DgrrError) as refused:
        load_signer("ana", keys)
    assert str(keys) in str(refused.value) and "0770" in str(refused.value)
    with pytest.raises(DgrrError, match="writable by group or other users"):
        generate_key("bo", keys)


@rule("keys.folder-private")
def test_a_key_folder_others_can_read_is_warned_about(tmp_path, capsys):
    keys = tmp_path / "keys"
    generate_key("ana", keys)
    capsys.readouterr()
    keys.chmod(0o755)
    assert load_signer("ana", keys) is not None
    err = capsys.readouterr().err
    assert "warning" in err and str(keys) in err and "0755" in err


@rule("keys.trust-file-not-writable")
def test_a_trust_file_others_can_write_is_refused_naming_it_and_its_mode(tmp_path):
    signer, _ = generate_key("ana", tmp_path / "keys")
    path = tmp_path / "trusted_keys.json"
    trust = TrustFile(path, [])
    trust.add("ana", signer.public_raw)
    path.chmod(0o666)
    with pytest.raises(DgrrError) as refused:
        TrustFile.load(path)
    assert str(path) in str(refused.value) and "0666" in str(refused.value)


@rule("keys.trust-file-not-writable")
def test_a_trust_file_is_never_written_group_writable_whatever_the_umask(tmp_path):
    signer, _ = generate_key("ana", tmp_path / "keys")
    path = tmp_path / "trusted_keys.json"
    old = os.umask(0o002)
    try:
        TrustFile(path, []).add("ana", signer.public_raw)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) & 0o022 == 0
    assert TrustFile.load(path) is not None
