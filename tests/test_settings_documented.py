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
