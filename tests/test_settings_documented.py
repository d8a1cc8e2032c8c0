"""Every `DGRR_*` environment variable the code reads is documented in `docs/` or the
README (a setting nobody can find is a setting nobody can use)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = [*(ROOT / "repair_core").rglob("*.py"), *(ROOT / "dgrr_dashboard").rglob("*.py"),
        *(ROOT / "pages").glob("*.py"), ROOT / "app.py"]
NAME = re.compile(r"\bDGRR_[A-Z][A-Z0-9_]*\b")


def test_every_setting_the_code_reads_is_documented():
    names = {n for p in CODE for n in NAME.findall(p.read_text(encoding="utf-8"))}
    assert {"DGRR_DB", "DGRR_SERVER_CPU", "DGRR_NO_PROGRESS"} <= names  # the scan works
    docs = "\n".join(p.read_text(encoding="utf-8")
                     for p in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md"])
    missing = sorted(n for n in names if not re.search(rf"\b{n}\b", docs))
    assert not missing, f"settings read by the code but in no doc: {missing}"


def test_every_switch_of_the_executor_is_documented():
    """Each field of `ExecutorRules` is named, with the rule it switches, in the replay
    API's table of switches."""
    from repair_core.replay import ExecutorRules

    api = (ROOT / "docs" / "replay-api.md").read_text(encoding="utf-8")
    assert len(ExecutorRules.model_fields) == 2  # the scan works
    for name, info in ExecutorRules.model_fields.items():
        rule = re.search(r"`(replay\.[a-z.-]+)`", info.description or "")
        assert rule is not None, f"ExecutorRules.{name}: its docstring names no rule"
        row = rf"\| `{name}` \| `{info.default}` \| `{re.escape(rule.group(1))}` \|"
        assert re.search(row, api), (
            f"ExecutorRules.{name} is not in docs/replay-api.md's table of switches")
