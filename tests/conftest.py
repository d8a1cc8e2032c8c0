import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_MODE", "PRODUCTION")
# apply journals are authenticated with a secret file: the tests' own, never ~/.dgrr's
os.environ.setdefault("DGRR_JOURNAL_KEY", os.path.join(
    tempfile.mkdtemp(prefix="dgrr-journal-key-"), "journal.key"))
# cases the dashboard keeps for a reload go to a throwaway folder, not the user's
os.environ.setdefault("DGRR_CASES_DIR", tempfile.mkdtemp(prefix="dgrr-test-cases-"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(id): the spec rule a test checks (see docs/rules.md)")
    try:  # browser tests: Playwright's `expect` waits 5 s by default, too short on a busy CI box
        from playwright.sync_api import expect
    except ImportError:
        return
    expect.set_options(timeout=30_000)


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> object:
    """A SQLAlchemy URL of a throwaway PostgreSQL cluster on loopback, for the whole session
    (of one xdist worker); tests use their own schema or tables within database `dgrr`."""
    from postgres_server import running_postgres

    with running_postgres(tmp_path_factory.mktemp("pg")) as url:
        yield url


@pytest.fixture
def postgres_db(postgres_url: str) -> str:
    """A SQLAlchemy URL of a new, empty database of its own in the session's PostgreSQL
    cluster (tests that count rows or ids must not see another test's)."""
    import uuid

    import sqlalchemy as sa

    name = f"t_{uuid.uuid4().hex[:16]}"
    engine = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return postgres_url.rsplit("/", 1)[0] + "/" + name
