"""The pages' numbers follow the order the sidebar lists them in: Streamlit orders the
files of `pages/` by their number, then by name, so `0_Cases` comes before `0_Inbox` and
`3_Model_calls` before `3_Trace`. A newcomer read '0b · Cases' above '0 · Inbox' and '3c'
above '3b'. The Home page's list of pages and the docs' table use the same numbers."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TITLE = re.compile(r'^st\.title\("(\d+[a-z]?) · ', re.MULTILINE)


def _in_sidebar_order() -> list[tuple[str, str]]:
    """(number in the page's title, the sidebar's label) of every page, as listed."""
    files = sorted(ROOT.glob("pages/*.py"), key=lambda p: (
        int(p.stem.split("_", 1)[0]), p.stem.split("_", 1)[1].lower()))
    out = []
    for path in files:
        found = TITLE.search(path.read_text(encoding="utf-8"))
        assert found is not None, f"{path.name}: no numbered st.title"
        out.append((found.group(1), path.stem.split("_", 1)[1].replace("_", " ")))
    return out


def _key(number: str) -> tuple[int, str]:
    return int(number.rstrip("abcdefghijklmnopqrstuvwxyz")), number.lstrip("0123456789")


def test_page_numbers_rise_down_the_sidebar():
    numbers = [n for n, _ in _in_sidebar_order()]
    assert len(set(numbers)) == len(numbers), numbers
    assert numbers == sorted(numbers, key=_key), numbers


def test_home_and_docs_give_each_page_its_titles_number():
    home = (ROOT / "app.py").read_text(encoding="utf-8")
    docs = (ROOT / "docs" / "dashboard.md").read_text(encoding="utf-8")
    listed = re.search(r'"\*\*Pages:\*\* (.*?)"\)', home, re.DOTALL)
    assert listed is not None
    line = re.sub(r'"\s+"', "", listed.group(1))
    for number, label in _in_sidebar_order():
        assert re.search(rf"(^|· ){number} [^·]*{label}", line, re.IGNORECASE), (number, label)
        row = re.search(rf"^\| (\S+) \*\*{label}\*\* \|", docs, re.MULTILINE | re.IGNORECASE)
        if row is not None:  # the Inbox is described with the queue (docs/queue.md)
            assert row.group(1) == number, (label, row.group(1), number)
