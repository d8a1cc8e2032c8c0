"""Atomic file writes: a reader sees the old file or the new one, never half of one.

A single file is written to a temporary file beside it, fsynced and renamed over it. A
set of files (`dgrr repair --out DIR`) is written into a temporary sibling folder and
swapped in whole (an atomic exchange of the two folders where Linux offers it), so a
reader sees the old set or the new one. Existing targets that are not ours to replace
(a device such as /dev/null, a FIFO, a symbolic link, a folder where a file is expected,
a folder holding other files) are refused with a :class:`OutputError`. Temporary files
are removed on every exit path; those a killed writer (kill -9) left behind are swept by
the next write to the same target once their writer's process is gone.
"""

from __future__ import annotations

import errno
import json
import mmap
import os
import re
import shutil
import stat
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any, Literal, cast, overload

from ._errors import MAX_SHOWN_PROBLEMS, DgrrError

__all__ = ["OutputError", "atomic_open", "check_secret_file", "atomic_write_text", "atomic_write_json",
           "check_output_dir", "check_output_file", "check_output_folder", "indented_json", "json_bytes",
           "object_json_pieces", "LaidOut", "to_json", "write_output_set"]


class OutputError(DgrrError):
    """An output target that dgrr refuses to write (or could not write)."""


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# mkstemp makes files readable by their owner only; a written file gets the permissions
# an ordinary open() would give it (or keeps those of the file it replaces).
_UMASK = _read_umask()
_DEFAULT_MODE = 0o666 & ~_UMASK
_DEFAULT_DIR_MODE = 0o777 & ~_UMASK


def _describe_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _check_common(path: str | Path, flag: str) -> tuple[Path, os.stat_result | None]:
    if str(path) == "":
        raise OutputError(f"{flag}: an empty path is not a file name")
    target = Path(path)
    try:
        st = target.lstat()
    except FileNotFoundError:
        return target, None
    except OSError as exc:
        raise OutputError(f"{flag}: cannot write '{target}': {exc.strerror}") from None
    if stat.S_ISLNK(st.st_mode):
        where = "a dangling symbolic link" if not target.exists() else "a symbolic link"
        raise OutputError(f"{flag}: '{target}' is {where}; give the real path")
    return target, st


def check_output_file(path: str | Path, flag: str = "--out") -> Path:
    """`path` if it is free or an existing regular file; :class:`OutputError` otherwise."""
    target, st = _check_common(path, flag)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(f"{flag}: '{target}' exists and is {_describe_mode(st.st_mode)}, "
                          "not a regular file; refusing to replace it")
    return target


def check_output_folder(path: str | Path, allowed: Collection[str],
                        flag: str = "--out") -> Path:
    """`path` if it is free or a folder holding only files named in `allowed` (an
    earlier output set); :class:`OutputError` otherwise."""
    target, st = _check_common(path, flag)
    if st is None:
        return target
    if not stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{flag}: '{target}' exists and is {_describe_mode(st.st_mode)}, "
                          "not a folder")
    try:
        foreign = sorted(p.name for p in target.iterdir() if p.name not in allowed
                         or not p.is_file() or p.is_symlink())
    except OSError as exc:
        raise OutputError(f"{flag}: cannot read folder '{target}': {exc.strerror}") from None
    if foreign:
        shown = ", ".join(repr(n) for n in foreign[:5]) + (", ..." if len(foreign) > 5 else "")
        raise OutputError(f"{flag}: '{target}' is not a dgrr output folder (it holds {shown}); "
                          "give an empty or new folder")
    return target


def check_output_dir(path: str | Path, flag: str = "--out") -> Path:
    """`path` if it is free or an existing folder (whatever it holds: a results folder
    that is resumed); :class:`OutputError` for anything else."""
    target, st = _check_common(path, flag)
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{flag}: '{target}' exists and is {_describe_mode(st.st_mode)}, "
                          "not a folder")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _write_error(target, flag, exc) from None
    return target


_TEMP = re.compile(r"\.(?P<name>.+)\.dgrr-(?P<pid>\d+)-[0-9a-f]+\.(?:tmp|old)$")


def check_secret_file(path: Path, what: str) -> None:
    """Refuse (DgrrError naming `what` and `path`) a secret that is not a regular file
    (a symlink is not followed) or that other users can read."""
    info = path.lstat()
    if not stat.S_ISREG(info.st_mode):
        raise DgrrError(f"{what} {path}: not a regular file")
    if info.st_mode & 0o077:
        raise DgrrError(f"{what} {path}: readable by other users (mode "
                        f"{stat.S_IMODE(info.st_mode):04o}); chmod 600 it")


def _temp_name(target: Path, suffix: str) -> Path:
    import secrets  # here: its import (hmac, OpenSSL) costs a short command 4 ms

    return target.parent / f".{target.name}.dgrr-{os.getpid()}-{secrets.token_hex(4)}.{suffix}"


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep_stale(target: Path) -> None:
    """Remove temporaries of `target` whose writer process no longer runs."""
    try:
        entries = list(target.parent.iterdir())
    except OSError:
        return
    for entry in entries:
        m = _TEMP.match(entry.name)
        if not m or m["name"] != target.name or _pid_alive(int(m["pid"])):
            continue
        _remove(entry)


def _remove(path: Path) -> None:
    with suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _write_error(target: Path, flag: str, exc: OSError) -> OutputError:
    return OutputError(f"{flag}: cannot write '{target}': {exc.strerror or exc}")


@contextmanager
def atomic_open(path: str | Path, flag: str = "--out") -> Iterator[IO[str]]:
    """A text file to write that appears at `path` only when the block ends without error
    (through a temporary file in the same folder, fsync and a rename). An existing target
    that is not a regular file is refused."""
    target = check_output_file(path, flag)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _sweep_stale(target)
        tmp = _temp_name(target, "tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise _write_error(target, flag, exc) from None
    try:
        try:
            os.chmod(tmp, target.stat().st_mode & 0o7777 if target.exists() else _DEFAULT_MODE)
            fh = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as exc:
            os.close(fd)
            raise _write_error(target, flag, exc) from None
        with fh:
            yield fh
            try:
                fh.flush()
                os.fsync(fh.fileno())
            except OSError as exc:
                raise _write_error(target, flag, exc) from None
        check_output_file(target, flag)  # nothing special appeared meanwhile
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise _write_error(target, flag, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str, flag: str = "--out") -> Path:
    """Write `text` to `path` atomically (see :func:`atomic_open`)."""
    with atomic_open(path, flag) as fh:
        fh.write(text)
    return Path(path)


def to_json(data: Any, indent: int | None = 1) -> str:
    """JSON text as dgrr writes it (UTF-8, stable key order as given, trailing newline).

    The same text as ``json.dumps(data, indent=indent, ensure_ascii=False)``: the standard
    library writes indented JSON in Python, byte by byte (4 s for a 100k-step repair's
    result), so the compact text comes from its C encoder and msgspec lays it out, which
    changes only the whitespace between tokens."""
    if indent is None or indent <= 0:
        return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"
    return indented_json(data, indent) + "\n"


def indented_json(data: Any, indent: int, *, default: Callable[[Any], Any] | None = None,
                  allow_nan: bool = False) -> str:
    """``json.dumps(data, indent=indent, ensure_ascii=False, default=default,
    allow_nan=allow_nan)``, the same text, laid out by msgspec from the C encoder's
    compact text (see :func:`to_json`); `indent` is at least 1."""
    import msgspec  # here: most commands write no indented JSON

    try:
        compact = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                             default=default)
    except ValueError:
        if not allow_nan:
            raise
        # a non-finite number, which msgspec does not read: the standard library lays it out
        return json.dumps(data, ensure_ascii=False, indent=indent, default=default)
    return msgspec.json.format(compact, indent=indent)


def write_marked_block(path: str | Path, begin: str, end: str, body: str, *,
                       append: bool = False) -> bool:
    """Put `body` (lines ending in a newline) between the markers `begin` and `end` of the
    text file `path`, atomically: the generated tables of the docs. Without the markers the
    block is added at the end when `append` (a missing file is created), else nothing is
    written and False is returned.

    >>> import tempfile, os
    >>> f = os.path.join(tempfile.mkdtemp(), "doc.md")
    >>> write_marked_block(f, "<!-- a -->", "<!-- /a -->", "x\\n", append=True)
    True
    >>> _ = write_marked_block(f, "<!-- a -->", "<!-- /a -->", "y\\n")
    >>> open(f).read()
    '<!-- a -->\\ny\\n<!-- /a -->\\n'
    """
    target = Path(path)
    text = target.read_text(encoding="utf-8") if target.exists() else ""
    block = f"{begin}\n{body}{end}"
    start = text.find(begin)
    stop = text.find(end, start) if start >= 0 else -1
    if start >= 0 and stop >= 0:
        text = text[:start] + block + text[stop + len(end):]
    elif append:
        text += ("\n" if text else "") + block + "\n"
    else:
        return False
    atomic_write_text(target, text, flag=str(target))
    return True


_MAY_DIFFER = re.compile(rb"[0-9][eE]|0\.0000")
"""Where msgspec's compact text of a float may differ from the standard library's: Python
writes a float below 1e-4 or from 1e16 up with an exponent (`1e-07`, `2.5e-05`, `1e+16`),
msgspec as `1e-7`, `0.000025`, `1e16`; every other float the two write alike (the same
shortest digits). Text in a string that looks so only sends that text the slow way."""


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789E", b"000000000e")
"""Every digit read as 0 and E as e: a digit before an e or E is then `0e`."""


def _may_differ(compact: bytes) -> bool:
    """`_MAY_DIFFER.search(compact) is not None`, found by two plain searches (the
    pattern's search looked at every byte, about 8 ns a byte: 0.9 CPU s for the 100 MB of
    a 100k-step repair's text)."""
    return b"0e" in compact.translate(_DIGITS_AS_ZERO) or b"0.0000" in compact


def json_bytes(data: Any, indent: int = 1) -> bytes:
    """:func:`to_json`'s text as UTF-8 without its final newline, made as bytes from the
    start: a large result's text is never also a str (which holds two or four bytes a
    character once one is not Latin-1) nor encoded again to be written.

    The compact text comes from msgspec (about five times faster than the standard
    library's C encoder on a repair result), unless it may write a float differently
    (:data:`_MAY_DIFFER`) or cannot write a key (`true`, `null`): then from the standard
    library, as before. A non-finite float, which the standard library refuses, is written
    as `null`, as pydantic's JSON dump writes one in an untyped field."""
    import msgspec  # here: most commands write no indented JSON

    try:
        compact: bytes | None = msgspec.json.encode(data)
    except TypeError:
        compact = None
    if compact is None or _may_differ(compact):
        compact = json.dumps(data, ensure_ascii=False, allow_nan=False,
                             separators=(",", ":")).encode("utf-8")
    return msgspec.json.format(compact, indent=indent)


class LaidOut:
    """The pieces of a member's JSON text already indented for where it stands (an
    object :func:`object_json_pieces` lays out at that member's depth): written as they
    are, not indented again."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: Iterable[bytes]) -> None:
        self.pieces = pieces

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.pieces)


def object_json_pieces(members: Mapping[str, bytes | Iterable[bytes]], *, depth: int = 0
                       ) -> Iterator[bytes]:
    """The UTF-8 text of :func:`to_json` of an object, without its final newline, in
    pieces to be written as they come, from its members' values already as JSON text:
    each a :func:`json_bytes` text, or the pieces of one, or (:class:`LaidOut`) the
    pieces of an object this function lays out one level deeper. A large value shared by
    several files is encoded once, and the whole text is never in memory at once.

    `depth`: the object stands that many levels inside another, so each of its lines
    after the first is indented by that many more spaces. An object inside an object is
    laid out at its own depth, so each piece is indented once: indented by the inner
    object and again by the outer, the long lists of a repair's result.json were copied
    twice (about 2 ms a megabyte each time, 340 MB at 300k steps).

    >>> members = {"a": json_bytes([1, 2]), "b": object_json_pieces({"c": json_bytes("x")})}
    >>> b"".join(object_json_pieces(members)).decode() + "\\n" == to_json({"a": [1, 2], "b": {"c": "x"}})
    True
    >>> laid = {"a": json_bytes([1, 2]),
    ...         "b": LaidOut(object_json_pieces({"c": json_bytes([3])}, depth=1))}
    >>> b"".join(object_json_pieces(laid)).decode() + "\\n" == to_json({"a": [1, 2], "b": {"c": [3]}})
    True
    """
    if not members:
        yield b"{}"
        return
    line = b"\n" + b" " * depth  # a new line of this object
    inside = line + b" "  # a new line of one of its members' values
    head = b"{" + line
    for k, v in members.items():
        yield head + b" " + json.dumps(k, ensure_ascii=False).encode("utf-8") + b": "
        if isinstance(v, LaidOut):
            yield from v
        else:
            for piece in (v,) if isinstance(v, bytes) else v:
                yield piece.replace(b"\n", inside)  # a JSON string holds no raw newline
        head = b"," + line
    yield line + b"}"


def atomic_write_json(path: str | Path, data: Any, indent: int | None = 1,
                      flag: str = "--out") -> Path:
    """Write `data` as JSON atomically."""
    return atomic_write_text(path, to_json(data, indent), flag)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two existing paths (Linux renameat2 RENAME_EXCHANGE); False when
    the system or file system cannot."""
    import ctypes  # here: only an exchange needs it

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


_WRITE_CHARS = 1 << 20


def write_output_set(path: str | Path, files: Mapping[str, Any], *,
                     allowed: Collection[str], flag: str = "--out") -> Path:
    """Write `files` (name -> text, UTF-8 bytes, or the pieces of either in order) as
    the whole content of folder `path`, swapped in at once: a reader sees the earlier set or this
    one, never a mix. An existing `path` must be a folder holding only names in
    `allowed` (an earlier output set).

    (A value that is an exception class raises it mid-write; tests use this.)
    """
    target = check_output_folder(path, allowed, flag)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _sweep_stale(target)
        tmp = _temp_name(target, "tmp")
        tmp.mkdir(mode=0o700)
    except OSError as exc:
        raise _write_error(target, flag, exc) from None
    old: Path | None = None
    try:
        try:
            os.chmod(tmp, _DEFAULT_DIR_MODE)
            for name, content in files.items():
                if isinstance(content, type) and issubclass(content, BaseException):
                    raise content(f"write of {name} failed")
                text = content() if callable(content) else content
                fd = os.open(tmp / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _DEFAULT_MODE)
                with os.fdopen(fd, "wb") as fh:
                    for piece in (text,) if isinstance(text, str | bytes) else text:
                        if isinstance(piece, bytes):
                            fh.write(piece)
                            continue
                        # a slice at a time: the encoded copy of a 100 MB text is never whole
                        for at in range(0, len(piece), _WRITE_CHARS):
                            fh.write(piece[at:at + _WRITE_CHARS].encode("utf-8"))
                    fh.flush()
                    os.fsync(fh.fileno())
            _fsync_dir(tmp)
            check_output_folder(target, allowed, flag)
            if target.exists():
                if _exchange(tmp, target):
                    old = tmp  # after the exchange the temporary name holds the old set
                else:  # two renames: a reader may briefly find no folder, never a mix
                    old = _temp_name(target, "old")
                    os.rename(target, old)
                    os.rename(tmp, target)
            else:
                os.rename(tmp, target)
            _fsync_dir(target.parent)
        except OSError as exc:
            raise _write_error(target, flag, exc) from None
    except BaseException:
        if old is None:
            _remove(tmp)
        raise
    finally:
        if old is not None:
            _remove(old)
    return target


def _fsync_dir(path: Path) -> None:
    with suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def check_not_input(out: str | Path, inputs: Collection[str | Path | None],
                    flag: str = "--out") -> None:
    """Refuse an output path that names one of the command's inputs (the same file, by
    any path or link): writing it would replace what was read."""
    target = Path(out)
    for given in inputs:
        if given is None or str(given) == "":
            continue
        src = Path(given)
        try:
            same = target.exists() and src.exists() and os.path.samefile(target, src)
        except OSError:
            same = False
        if same or os.path.abspath(target) == os.path.abspath(src):
            raise OutputError(f"{flag}: '{target}' is also an input ('{src}'); writing it "
                              "would replace what was read: give another path")


@overload
def _read_regular(p: Path, mapped: Literal[False] = False) -> bytes: ...
@overload
def _read_regular(p: Path, mapped: bool) -> bytes | mmap.mmap: ...
def _read_regular(p: Path, mapped: bool = False) -> bytes | mmap.mmap:
    """The bytes of a regular file (`mapped`: the file mapped read-only, when it is not
    empty); a FIFO, device or socket is refused before any read (opened non-blocking, so
    a FIFO without a writer cannot hang the open)."""
    fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(21, "Is a directory", str(p))
        if not stat.S_ISREG(info.st_mode):
            raise _NotRegular(_describe_mode(info.st_mode))
        if mapped and info.st_size > 0:
            return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        return fh.read()


class _NotRegular(OSError):
    pass


def read_input(path: str | Path, what: str = "case file") -> bytes:
    """The bytes of an input file; :class:`CaseError` naming the file when it is missing,
    a folder, not a regular file (FIFO, device: refused before reading) or unreadable (one
    message for every reader of cases and traces)."""
    return cast(bytes, _input(path, what, mapped=False))


def map_input(path: str | Path, what: str = "case file") -> bytes | mmap.mmap:
    """An input file mapped into memory, read-only, as :func:`read_input` reads it (the
    same refusals): for a large case, whose copy costs more than its decoding does at
    1M steps (0.2-0.3 s of 322 MB). The mapping shares the page cache's copy of the file,
    so a file truncated by another process while it is read stops this one (SIGBUS):
    docs/performance.md says so. dgrr's own writes replace a file by renaming."""
    return _input(path, what, mapped=True)


def _input(path: str | Path, what: str, mapped: bool) -> bytes | mmap.mmap:
    from ._errors import CaseError

    p = Path(path)
    try:
        return _read_regular(p, mapped)
    except _NotRegular as exc:
        raise CaseError([f"'{p}' is {exc.args[0]}, not a regular file: refused before "
                         f"reading (give a {what})"], source=str(p)) from None
    except FileNotFoundError:
        raise CaseError([f"file not found: '{p}'"], source=str(p)) from None
    except IsADirectoryError:
        raise CaseError([f"is a directory, not a {what}: '{p}'"], source=str(p)) from None
    except OSError as exc:
        raise CaseError([f"cannot read '{p}': {exc.strerror}"], source=str(p)) from None


def read_json(path: str, flag: str) -> object:
    """The JSON document an option names; a clear error naming the option otherwise
    (strictly parsed: duplicate keys, NaN, lone surrogates, too deep nesting and huge
    integers are refused with their path)."""
    from .case._json import loads_strict

    try:
        raw = _read_regular(Path(path))
    except _NotRegular as exc:
        raise DgrrError(f"{flag}: '{path}' is {exc.args[0]}, not a regular file: refused "
                        "before reading") from None
    except FileNotFoundError:
        raise DgrrError(f"{flag}: no such file: '{path}'") from None
    except IsADirectoryError:
        raise DgrrError(f"{flag}: '{path}' is a folder, not a JSON file") from None
    except OSError as exc:
        raise DgrrError(f"{flag}: cannot read '{path}': {exc.strerror}") from None
    data, problems = loads_strict(raw)
    syntax = re.fullmatch(r"line (\d+), column (\d+): invalid JSON: (.*)", problems[0]) \
        if len(problems) == 1 else None
    if syntax:
        raise DgrrError(f"{flag}: '{path}' is not JSON (line {syntax[1]} column {syntax[2]}: "
                        f"{syntax[3]})")
    if problems:
        shown = problems[:MAX_SHOWN_PROBLEMS]
        more = len(problems) - len(shown)
        raise DgrrError(f"{flag}: '{path}' is not usable JSON:\n"
                        + "\n".join(f"  - {p}" for p in shown)
                        + (f"\n  ... and {more} more problems" if more else ""))
    return data
