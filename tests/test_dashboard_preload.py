"""The server imports what the pages import once, at its first page run
(`dgrr_dashboard/preload.py`), so that no session's run imports a module while another
session waits on its import lock: every module a page or a dashboard module imports
inside a function is imported by the preload, litellm excepted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEVER = ("litellm",)
"""Imported only where an operator set a model judge, never by a preload."""


def _imported_inside_functions() -> set[str]:
    """The absolute modules app.py, the pages and the dashboard's modules import in an
    indented `import`/`from ... import` (a function's), streamlit's own left out."""
    found: set[str] = set()
    for path in [ROOT / "app.py", *(ROOT / "pages").glob("*.py"),
                 *(ROOT / "dgrr_dashboard").glob("*.py")]:
        for m in re.finditer(r"^[ \t]+(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t(]"
                             r"|import[ \t]+([A-Za-z_][\w.]*)[ \t]*(?:as[ \t]|$))",
                             path.read_text(encoding="utf-8"), re.MULTILINE):
            name = m.group(1) or m.group(2)
            if not name.startswith(("streamlit", *NEVER)):
                found.add(name)
    return found


def test_the_preload_imports_what_pages_import_inside_functions_but_litellm():
    wanted = _imported_inside_functions()
    assert {"pandas", "altair", "pyvis.network"} <= wanted  # the scan reads them
    code = ("import sys\nfrom dgrr_dashboard.preload import import_page_modules\n"
            "import_page_modules()\nprint('\\n'.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=300).stdout.split()
    assert sorted(wanted - set(out)) == []
    assert not [m for m in out if m.split(".")[0] in NEVER]


def test_outside_a_real_server_the_preload_imports_nothing():
    # under AppTest (a mocked runtime) or a plain import the tests share their process
    code = ("import sys\nfrom dgrr_dashboard.preload import preload_once\npreload_once()\n"
            "print('altair' in sys.modules, 'pyvis' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=300).stdout.split()
    assert out == ["False", "False"]
