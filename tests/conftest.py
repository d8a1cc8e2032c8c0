import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_MODE", "PRODUCTION")


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
