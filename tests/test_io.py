"""Atomic writes: all or nothing, with ordinary permissions."""

import os
import stat

import pytest

from repair_core._io import OutputError, atomic_write_json, atomic_write_text


def test_atomic_write_replaces_whole_file_with_ordinary_permissions(tmp_path):
    target = tmp_path / "sub" / "out.json"
    atomic_write_json(target, {"a": 1})
    assert target.read_text() == '{\n "a": 1\n}\n'
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    os.chmod(target, 0o640)
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in target.parent.iterdir()] == ["out.json"]


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    target.write_text("old")

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OutputError, match="disk full"):
        atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
