import functools
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_MODE", "PRODUCTION")
# apply journals are authenticated with a secret file: the tests' own, never ~/.dgrr's
os.environ.setdefault("DGRR_JOURNAL_KEY", os.path.join(
    tempfile.mkdtemp(prefix="dgrr-journal-key-"), "journal.key"))
# cases the dashboard keeps for a reload go to a throwaway folder, not the user's
os.environ.setdefault("DGRR_CASES_DIR", tempfile.mkdtemp(prefix="dgrr-test-cases-"))

# Property tests check what holds, not how fast: hypothesis' default 200 ms deadline per
# example failed a scan test at 319 ms on a loaded machine. Speed is measured in
# benchmarks/, not in unit tests.
hypothesis_settings.register_profile("dgrr", deadline=None)
hypothesis_settings.load_profile("dgrr")


# Test files holding a test that took 20 s or more in CI, longest first (its seconds). They
# run before every other file: `pytest -n 2 --dist worksteal` hands each worker one half of
# the collection, in order, and a worker only steals from the end of the other's queue, so
# a long test in the middle of the alphabet (the 100k-step walk sits at the boundary)
# started after half the run and the other worker then sat idle for its last minutes.
# Whole files move, so a module-scoped fixture is still set up once.
LONGEST_FIRST = (  # seconds per file in a full run on 2 workers (2026-12-06)
    "tests/test_queue_postgres.py",  # 213
    "tests/test_e2e_walk.py",  # 162
    "tests/test_apply_atomic.py",  # 129
    "tests/test_fleet_ray.py",  # 104
    "tests/test_dashboard_judge_worker.py",  # 87
    "tests/test_e2e_workbench.py",  # 73
    "tests/test_queue_worker_killed.py",  # 56
    "tests/test_e2e_browser.py",  # 56
    "tests/test_e2e_upload_memory.py",  # 55
    "tests/test_rules_objective.py",  # 52
    "tests/test_rules_judge.py",  # 52
    "tests/test_rules_suspects.py",  # 48
    "tests/test_e2e_journeys.py",  # 46
    "tests/test_case_texts_not_retained.py",  # 45
    "tests/test_graph_scale.py",  # 44
    "tests/test_e2e_apply.py",  # 40
    "tests/test_hardening_approvals.py",  # 37
    "tests/test_columnar_plan.py",  # 36
    "tests/test_apply_result_fuzz.py",  # 35
    "tests/test_replay_scale.py",  # 34
    "tests/test_hardening_campaign.py",  # 34
    "tests/test_e2e_queue.py",  # 26 (74 in an earlier run)
    "tests/test_dashboard_thread_fork.py",  # 14 (70 in an earlier run)
    "tests/test_e2e_team.py",  # 24 (67 in an earlier run)
    "tests/test_fleet_browser.py",  # 12 (67 in an earlier run)
    "tests/test_dashboard_scale.py",  # 30
    "tests/test_import_strict.py",  # 29
    "tests/test_dashboard_sessions.py",  # 29
    "tests/test_import_frameworks.py",  # 28
    "tests/test_e2e_queue_two_servers.py",  # 28
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def pytest_runtest_setup(item: pytest.Item) -> None:
    scan_streamlit_components_once()
    compile_streamlit_scripts_once()


def scan_streamlit_components_once() -> None:
    """Every AppTest scans the metadata of every installed distribution (700 here) for
    Streamlit v2 component manifests: 0.3 CPU s per AppTest, most of a short dashboard
    test. The installed packages do not change during a session, so the scan is made once
    per process and its result handed to each AppTest. Streamlit is not imported for a
    test process that has not imported it."""
    if "streamlit" not in sys.modules:
        return
    import streamlit.components.v2.manifest_scanner as scanner

    if hasattr(scanner.scan_component_manifests, "cache_info"):
        return
    once = functools.lru_cache(maxsize=None)(scanner.scan_component_manifests)

    def scan(max_workers: int | None = None) -> list[Any]:
        return list(once())

    scan.cache_info = once.cache_info  # type: ignore[attr-defined]
    scanner.scan_component_manifests = scan


def compile_streamlit_scripts_once() -> None:
    """Every AppTest run makes a new script cache, so app.py and the page were compiled
    (with Streamlit's magic, an AST rewrite) again on every run of every test: 40% of the
    CPU of a walk through the pages. A served dashboard keeps one cache for all reruns;
    here compiled scripts are kept per process, keyed by path, the file's bytes and the
    magic setting, so a changed script is compiled again."""
    if "streamlit" not in sys.modules:
        return
    from streamlit import config
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    if hasattr(ScriptCache.get_bytecode, "compiled"):
        return
    compile_script = ScriptCache.get_bytecode
    compiled: dict[tuple[str, bytes, bool], Any] = {}

    def get_bytecode(self: ScriptCache, script_path: str) -> Any:
        path = os.path.abspath(script_path)
        with open(path, "rb") as f:
            key = (path, f.read(), bool(config.get_option("runner.magicEnabled")))
        if key not in compiled:
            compiled[key] = compile_script(self, script_path)
        return compiled[key]

    get_bytecode.compiled = compiled  # type: ignore[attr-defined]
    ScriptCache.get_bytecode = get_bytecode  # type: ignore[method-assign]


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
