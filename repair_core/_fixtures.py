"""Cases shipped inside the package, for doctests, demos and tests."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .case._case import Case
from .case._load import parse_case

__all__ = ["fixture_path", "load_example"]


def fixture_path(name: str) -> Path:
    """Path of a file shipped in `repair_core/fixtures/`."""
    return Path(str(resources.files("repair_core") / "fixtures" / name))


def load_example() -> Case:
    """The worked example of the spec (Figure 1, a poisoned seat preference)."""
    return parse_case(fixture_path("figure1-travel.json").read_bytes(), source="figure1-travel.json")
