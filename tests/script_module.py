"""A script of `scripts/` or `benchmarks/` (not a package) loaded as a module by its path,
so a test can call its functions and read its constants."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str) -> ModuleType:
    """The module of `ROOT / relative` (e.g. `scripts/regenerate_results.py`)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
