"""What keeps the large-case plan's memory down does not change what is read or written:
a mapped case file whose pages are let go while it is read gives the same columns as its
bytes, and the report's table of tokens renders every id and piece as it is."""

from __future__ import annotations

import mmap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from repair_core._synth import write_synth_case
from repair_core.case import _columns
from repair_core.case._columns import _batches, _page_release, read_columns
from repair_core.plan._json_rows import RowTable


@pytest.fixture(scope="module")
def case_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mem") / "case.json"
    write_synth_case(path, 3_000, 600, 3, 11)
    return path


def test_batches_release_the_pages_every_so_many_batches() -> None:
    calls: list[int] = []
    items = [b"1"] * (_columns._BATCH * (2 * _columns._RELEASE_BATCHES + 3))
    batches = list(_batches(items, _columns.msgspec.json.Decoder(list[int]),
                            lambda: calls.append(1)))
    assert sum(map(len, batches)) == len(items)
    assert len(calls) == 2


def test_release_of_bytes_is_a_no_op_and_of_a_mapping_keeps_its_content(
        case_path: Path) -> None:
    _page_release(b"{}")()
    with case_path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as m:
        before = m[:4096]
        _page_release(m)()
        assert m[:4096] == before
    _page_release(m)()  # closed: nothing to let go


def test_a_mapping_released_while_read_gives_the_bytes_columns(
        case_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = case_path.read_bytes()
    expected = read_columns(raw)
    # release after every small batch, so the reader reads pages it let go
    monkeypatch.setattr(_columns, "_BATCH", 50)
    monkeypatch.setattr(_columns, "_RELEASE_BATCHES", 1)
    released: list[int] = []
    real = _columns._page_release

    def counting(raw: bytes | mmap.mmap) -> Callable[[], None]:
        release = real(raw)

        def counted() -> None:
            released.append(1)
            release()
        return counted

    monkeypatch.setattr(_columns, "_page_release", counting)
    with case_path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as m:
        got = read_columns(m)
    assert expected is not None and got is not None
    assert len(released) > 10
    assert got.ids == expected.ids and got.contents == expected.contents
    assert got.carry_texts == expected.carry_texts
    assert got.record_slots == expected.record_slots
    for name in ("src", "dst", "label", "seq", "type_code"):
        assert np.array_equal(getattr(got, name), getattr(expected, name)), name


@pytest.mark.parametrize("width", [8, 16])
@pytest.mark.parametrize("nul", [True, False])
def test_row_table_renders_every_id_and_piece(width: int, nul: bool) -> None:
    """With a NUL in a piece the padding is masked out; without, every NUL is padding
    and is dropped: the same text either way."""
    rng = np.random.default_rng(width)
    id_lengths = rng.integers(0, width + 1, 40)
    ids = np.zeros((40, width), np.uint8)
    for i, k in enumerate(id_lengths):
        ids[i, :k] = rng.integers(1, 256, k)
    pieces = [bytes(rng.integers(0 if nul else 1, 256, k).astype(np.uint8))
              for k in (0, 1, width - 1, width, width + 1, 3 * width, 3 * width + 5, 0, 2)]
    if nul:
        pieces.append(b"\0")  # a NUL piece is text too (the paths' separator)
    table = RowTable(ids, id_lengths, pieces)
    assert table._nul_padded is not nul
    for i in range(40):
        assert table.render(np.array([[i]])) == ids[i, :id_lengths[i]].tobytes()
    for k, piece in enumerate(pieces):
        assert table.render(table.tokens(k)[None, :]) == piece
    every = np.concatenate([table.tokens(k) for k in range(len(pieces))])
    assert table.render(every[None, :]) == b"".join(pieces)
