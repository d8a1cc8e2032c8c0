"""Write the registry's count of methods into README.md and docs/*.md:

    python scripts/sync_method_count.py

Every `<!-- methods:count -->…<!-- /methods:count -->` span gets
`repair_core.bench.methods_phrase()`; tests/test_method_count_documented.py fails when a
span is stale or when a count of methods is written outside one.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BEGIN, END = "<!-- methods:count -->", "<!-- /methods:count -->"
SPAN = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def main() -> int:
    from repair_core.bench import methods_phrase

    phrase = methods_phrase()
    for doc in documents():
        text = doc.read_text()
        new = SPAN.sub(BEGIN + phrase + END, text)
        if new != text:
            doc.write_text(new)
            print(f"updated {doc.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
