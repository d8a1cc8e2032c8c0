"""Loaded at start-up by a Python process whose PYTHONPATH names this folder (a dashboard
server a memory test starts): when $DGRR_HEAP_PROBE names a folder, SIGUSR1 makes the
process write `<n>.json` there, n counting from 1, with the bytes its allocators hand
out to live objects at that moment:

- `pymalloc`: bytes in the blocks Python's small-object allocator has handed out
  (objects of up to 512 bytes; `sys._debugmallocstats`' "bytes in allocated blocks"),
- `malloc`: bytes glibc's malloc has handed out (`mallinfo2`: in-use chunks of every
  arena plus mmapped ones; Python's larger objects, numpy's and protobuf's buffers),
- `rss`: the resident size, for comparison.

Unlike the resident size, the first two do not count memory that was freed but stays
mapped (an allocator arena kept for the few live blocks it still holds, a thread's
malloc arena kept for reuse), so they say what the process still holds. Nothing is
collected or changed: the handler only reads."""

from __future__ import annotations

import os

if os.environ.get("DGRR_HEAP_PROBE"):
    import ctypes
    import json
    import re
    import signal
    import sys
    import tempfile

    _OUT = os.environ["DGRR_HEAP_PROBE"]
    _count = 0

    class _Mallinfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]

    _libc = ctypes.CDLL(None)
    _libc.mallinfo2.restype = _Mallinfo2

    def _pymalloc_bytes() -> int:
        # _debugmallocstats writes to the C stderr: it goes to a file for the call
        sys.stderr.flush()
        with tempfile.TemporaryFile() as out:
            saved = os.dup(2)
            os.dup2(out.fileno(), 2)
            try:
                sys._debugmallocstats()
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            out.seek(0)
            text = out.read().decode()
        found = re.search(r"^# bytes in allocated blocks\s*=\s*([\d,]+)$", text, re.M)
        if found is None:
            raise RuntimeError("sys._debugmallocstats() printed no allocated bytes")
        return int(found.group(1).replace(",", ""))

    def _rss() -> int:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS")

    def _report(signum: int, frame: object) -> None:
        global _count
        _count += 1
        info = _libc.mallinfo2()
        report = {"pymalloc": _pymalloc_bytes(), "malloc": info.uordblks + info.hblkhd,
                  "rss": _rss()}
        path = os.path.join(_OUT, f"{_count}.json")
        with open(path + ".part", "w") as fh:
            json.dump(report, fh)
        os.replace(path + ".part", path)

    signal.signal(signal.SIGUSR1, _report)
