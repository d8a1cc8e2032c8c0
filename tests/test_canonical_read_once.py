"""A long text is made canonical once per plan (`_canonical.long_texts_read_once`): the
carrier search, the rejecting-records rule and their facts each fold a record, and a
megabyte of number words in ten languages cost 0.5 CPU s a reading. What is read once
is what each reading gives, and nothing is kept after the block."""

from __future__ import annotations

import sys
from pathlib import Path

from repair_core import _canonical, case_from_data, plan_case
from repair_core._canonical import (
    canonical,
    canonical_each,
    canonical_joined,
    long_texts_read_once,
)
from repair_core._carried import folded_texts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))


def _counted(monkeypatch) -> list[int]:
    lengths: list[int] = []
    read = _canonical._canonical

    def counting(text: str, *once) -> str:
        lengths.append(len(text))
        return read(text, *once)

    monkeypatch.setattr(_canonical, "_canonical", counting)
    return lengths


LONG = "Ｐａｙ DE89 37O4 OO44 O532 Ol3O OO dos tres cuatro cinco " * 2000
SHORT = ["Straße", "one two three four five six", "ＡＢＣ%2Dx", ""]


def test_a_long_text_is_read_once_inside_the_block_and_gives_what_each_reading_gives(
        monkeypatch):
    assert len(LONG) >= _canonical._LONG_TEXT
    alone, each = canonical(LONG), canonical_each([*SHORT, LONG, *SHORT])
    joined, texts = canonical("\0".join([LONG, *SHORT, LONG])), folded_texts([LONG, *SHORT])
    lengths = _counted(monkeypatch)
    with long_texts_read_once():
        assert canonical(LONG) == alone
        assert canonical_each([*SHORT, LONG, *SHORT]) == each
        assert canonical_joined([LONG, *SHORT, LONG]) == joined
        assert folded_texts([LONG, *SHORT]) == texts
        with long_texts_read_once():  # a nested block shares the outer one's
            assert canonical(LONG) == alone
    assert lengths.count(len(LONG)) == 1
    # the joined runs of short texts are read as they come, never kept
    assert all(n < _canonical._LONG_TEXT for n in lengths if n != len(LONG))


def test_nothing_is_kept_after_the_block(monkeypatch):
    with long_texts_read_once():
        canonical(LONG)
        assert _canonical._read_once.get()[("canonical", LONG)] == canonical(LONG)
    assert _canonical._read_once.get() is None
    lengths = _counted(monkeypatch)
    canonical(LONG)
    canonical(LONG)
    assert lengths.count(len(LONG)) == 2  # outside a block each call reads


def test_a_plan_reads_a_long_record_once(monkeypatch):
    from content_scale import shape_case
    from text_shapes import TOKENS

    text = TOKENS["number words of ten languages"](200_000)
    case = case_from_data(shape_case(text, "record"))
    lengths = _counted(monkeypatch)
    plan_case(case)
    record = len(f"{text} ")  # the record's text: the shape and a short fault's at its end
    assert sum(1 for n in lengths if n >= record) == 1, sorted(lengths)[-5:]


def test_canonical_and_visible_share_their_readings_of_a_long_text(monkeypatch):
    from repair_core._canonical import visible

    for text in (LONG, LONG.replace("Ｐａｙ", "Pay")):  # beyond ASCII, and ASCII
        seen, shown = canonical(text), visible(text)
        numbers: list[int] = []
        real = _canonical._numbers_read
        monkeypatch.setattr(_canonical, "_numbers_read",
                            lambda t, real=real, numbers=numbers: numbers.append(len(t)) or real(t))
        with long_texts_read_once():
            assert (canonical(text), visible(text)) == (seen, shown)
            assert (canonical(text), visible(text)) == (seen, shown)
        # once for canonical and once for visible, which reads its format characters
        # dropped; an ASCII text once for both
        assert len(numbers) == (1 if text.isascii() else 2), numbers
        monkeypatch.undo()


def test_the_columnar_planner_reads_a_long_fault_once_across_reading_and_planning(
        monkeypatch, tmp_path, capsys):
    # the reader's carried-text search folds the fault's text, and so does its signature
    import json

    from content_scale import shape_case
    from text_shapes import TOKENS

    from repair_core.cli import main

    text = TOKENS["distinct Cyrillic hosts"](100_000)
    path = tmp_path / "case.json"
    path.write_text(json.dumps(shape_case(text, "fault")), encoding="utf-8")
    lengths = _counted(monkeypatch)
    assert main(["plan", "--json", "--planner", "columnar", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["memory"]["m1"] == "delete"
    assert lengths.count(len(text)) == 1, sorted(lengths)[-5:]
