"""A plan report's large members written as JSON text straight from node arrays.

A 1M-step report lists about three million (id, value) entries. Made into dicts of
strings and then encoded, they cost more than the whole plan (docs/performance.md). Here
each entry is a row of *tokens*, numbers of the rows of one table of UTF-8 byte strings:
the case's ids, the punctuation of the JSON text, and the values' texts (each cut into
pieces as wide as the table). Rows are gathered from the table as 64-bit words, the
padding is masked out, and what is left is the text, for thousands of entries per numpy
call.

The text is `json.dumps(report, indent=1, ensure_ascii=False)`'s for the member: each
entry on its own line, two spaces in. It is made only for ids that JSON writes as they
are (no quote, backslash or control character: :func:`plain_ids`); values are escaped by
msgspec, which escapes exactly what json does (tests/test_columnar_plan.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import msgspec
import numpy as np

__all__ = ["RowTable", "plain_ids", "escaped", "member", "padded"]

_BLOCK_BYTES = 4 << 20
"""Bytes of token rows gathered at a time (bounds the memory of a block)."""
_encode = msgspec.json.Encoder().encode


def escaped(text: str) -> bytes:
    """The UTF-8 bytes of `text` inside a JSON string (quotes and control characters
    escaped, as `json.dumps(text, ensure_ascii=False)[1:-1]`)."""
    return _encode(text)[1:-1]


def plain_ids(units: np.ndarray, n: int) -> bool:
    """Whether the `n` ids whose UTF-8 bytes, each followed by a NUL, are `units` are
    written by JSON as they are: no quote, no backslash, no control character (the NULs
    are the only bytes below 0x20)."""
    return (np.count_nonzero(units < 0x20) == n and not (units == 0x22).any()
            and not (units == 0x5C).any())


def padded(units: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int
           ) -> np.ndarray:
    """The strings at `starts` (of `lengths` units) in `units` as the rows of a matrix
    `width` wide, zero-padded: made a column at a time, transposed (an index of every
    unit, made with np.repeat, was several times slower at a million ids)."""
    columns = np.zeros((width, len(starts)), units.dtype)
    last = len(units) - 1
    for j in range(int(lengths.max())):
        np.copyto(columns[j], units[np.minimum(starts + j, last)], where=lengths > j)
    return np.ascontiguousarray(columns.T)


class RowTable:
    """The ids' padded UTF-8 rows (row `i` is node `i`) followed by `pieces` (raw bytes,
    each cut into one or more rows of the table's width); rows of tokens are rendered
    with :meth:`render`.

    >>> t = RowTable(np.array([[97, 0, 0, 0, 0, 0, 0, 0], [98, 99, 0, 0, 0, 0, 0, 0]],
    ...              np.uint8), np.array([1, 2]), [b"-", b"0123456789"])
    >>> t.tokens(1)  # ten bytes: two rows of the table's eight
    array([3, 4])
    >>> t.render(np.array([[0, *t.tokens(0), 1], [1, *t.tokens(1)]]))
    b'a-bcbc0123456789'
    """

    def __init__(self, id_rows: np.ndarray, id_lengths: np.ndarray,
                 pieces: Sequence[bytes]) -> None:
        n, width = id_rows.shape
        lengths = np.fromiter(map(len, pieces), np.int64, len(pieces))
        counts = np.maximum(-(-lengths // width), 1)  # an empty piece: one empty row
        self.first = n + np.cumsum(counts) - counts
        """Row of each piece's first part."""
        self.counts = counts
        """Rows of each piece."""
        # each piece padded to its rows, written once into the table: no index of every
        # part and no second copy (a 1M-step report's reasons are 1.6M rows of pieces)
        rows = int(counts.sum())
        table = np.empty((n + rows, width), np.uint8)
        table[:n] = id_rows
        table[n:] = np.frombuffer(b"".join(
            piece.ljust(k * width, b"\0") for piece, k in zip(pieces, counts.tolist(),
                                                             strict=True)),
            np.uint8).reshape(rows, width)
        # each row's filled bytes, as a count (the render masks the padding out with it):
        # every row of a piece is full but its last (an empty piece: its one empty row)
        filled = np.full(n + rows, width, np.uint16)
        filled[:n] = id_lengths
        filled[self.first + counts - 1] = lengths - (counts - 1) * width
        self._words = table.view(np.uint64)
        self._filled = filled
        # when no id or piece holds a NUL (as many bytes are not NUL as the rows fill),
        # every NUL of the table is padding: the render drops them all from the
        # gathered bytes in one pass instead of masking the padding out (a third less
        # time at 1M steps)
        self._nul_padded = np.count_nonzero(table) == int(filled.sum(dtype=np.int64))
        self._columns = np.arange(width, dtype=np.uint16)
        self.width = width

    def tokens(self, piece: int) -> np.ndarray:
        """The rows of piece number `piece`, in order."""
        return self.first[piece] + np.arange(self.counts[piece])

    def padded(self, pieces: np.ndarray, empty: int) -> np.ndarray:
        """The rows of each of `pieces`, one line of tokens each, filled out with the
        piece `empty` (which must be one empty row) to the longest."""
        counts = self.counts[pieces]
        columns = np.arange(int(counts.max()) if len(pieces) else 0)
        return np.where(columns < counts[:, None], self.first[pieces][:, None] + columns,
                        self.first[empty])

    def render(self, tokens: np.ndarray) -> bytes:
        """The texts of the rows of `tokens` (a 2-d array of table rows), one after the
        other."""
        words = np.take(self._words, tokens, axis=0)
        if self._nul_padded:
            return words.tobytes().translate(None, b"\0")
        own = np.take(self._filled, tokens)[..., None] > self._columns
        return words.view(np.uint8)[own].tobytes()

    def render_blocks(self, tokens: np.ndarray) -> Iterator[bytes]:
        """:meth:`render` of `tokens` a block of rows at a time."""
        per_row = max(1, tokens.shape[1] * self.width)
        step = max(1, _BLOCK_BYTES // per_row)
        for lo in range(0, len(tokens), step):
            yield self.render(tokens[lo:lo + step])


def member(blocks: Iterator[bytes], brackets: bytes) -> Iterator[bytes]:
    """A JSON list or object (`brackets`: b"[]" or b"{}") at depth one whose entries are
    the texts in `blocks`, each entry written as its line (newline, two spaces, the entry)
    and a comma: the comma after the last entry is dropped, and an empty one is `[]`."""
    held = None
    for block in blocks:
        if not block:
            continue
        if held is None:
            yield brackets[:1]
        else:
            yield held
        held = block
    if held is None:
        yield brackets
        return
    yield held[:-1]  # the last entry's comma
    yield b"\n " + brackets[1:]
