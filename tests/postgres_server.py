"""For tests that need a real PostgreSQL: a throwaway cluster made with `initdb` and started
with `pg_ctl` on a free loopback port, stopped and removed afterwards.

`scripts/setup.sh --test` installs Debian's postgresql when its binaries are absent. As root
(CI) the cluster runs as the unprivileged `postgres` user, since PostgreSQL refuses to run as
root. Use the session fixture `postgres_url` (conftest.py), or `running_postgres(tmp_path)`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from dashboard_server import free_port

# Every test module that needs it: `pytestmark = POSTGRES_MARKS`.
POSTGRES_MARKS = [pytest.mark.postgres]


def postgres_bin() -> Path | None:
    """The folder holding initdb, pg_ctl and createdb (Debian keeps them off PATH), or None."""
    folders = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                     key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    found = shutil.which("initdb")
    if found:
        folders.append(Path(found).parent)
    complete = [f for f in folders if all((f / n).exists() for n in ("initdb", "pg_ctl", "createdb"))]
    return complete[-1] if complete else None


def _as_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


@contextmanager
def running_postgres(base: Path | None = None) -> Iterator[str]:
    """A SQLAlchemy URL (`postgresql+psycopg://…`) of a fresh cluster on 127.0.0.1 while it
    runs; database `dgrr`, user `postgres`, trust authentication on loopback only."""
    bindir = postgres_bin()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed (run: bash scripts/setup.sh --test)")
    # As root the cluster's folder must be reachable by `postgres`: pytest's tmp folders are
    # not (mode 0700), so then it lives directly under the system's temp folder.
    root = Path(tempfile.mkdtemp(prefix="dgrr-pg-", dir=None if os.geteuid() == 0 else base))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        root.chmod(0o700)
    port = free_port()
    log = root / "server.log"
    try:
        subprocess.run(_as_user([str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                                 "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]),
                       check=True, capture_output=True)
        subprocess.run(_as_user([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w",
                                 "-t", "60", "-o",
                                 f"-h 127.0.0.1 -p {port} -k {root} -c fsync=off "
                                 "-c max_connections=200", "start"]),
                       check=True, capture_output=True)
        subprocess.run(_as_user([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port),
                                 "-U", "postgres", "dgrr"]), check=True, capture_output=True)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/dgrr"
    except subprocess.CalledProcessError as e:
        tail = log.read_text()[-2000:] if log.exists() else ""
        raise RuntimeError(f"PostgreSQL did not start: {e.stderr!r}\n{tail}") from e
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(_as_user([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                                     "-w", "stop"]), capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
