"""Issue 21, item 6: the Approve page shows a tampered approvals database as a problem,
never a traceback (Streamlit AppTest)."""

from __future__ import annotations

import sqlite3

import pytest
from streamlit.testing.v1 import AppTest

from repair_core.approvals import ApprovalStore

APP = str(__import__("pathlib").Path(__file__).resolve().parent.parent / "app.py")
EXAMPLE = "(built-in) spec example: figure1-travel"


@pytest.mark.parametrize("column,value", [("created_at", "garbage"),
                                          ("plan_edits", "{not json"),
                                          ("decision", "maybe"), ("row_hash", b"\x00blob")])
def test_approve_page_on_a_tampered_database(tmp_path, monkeypatch, column, value):
    db = tmp_path / "approvals.db"
    monkeypatch.setenv("DGRR_DB", str(db))
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "none.json"))
    store = ApprovalStore(str(db))
    for i in range(2):
        store.add(case_id="figure1-travel", reviewer=f"r{i}", decision="approve",
                  inputs_sha256="a" * 64, outputs_sha256="b" * 64)
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER dgrr_approvals_no_update")
    con.execute(f"UPDATE dgrr_approvals SET {column} = ? WHERE id = 2", (value,))
    con.commit()
    con.close()
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/1_Load.py").run()
    at.selectbox(key="dgrr_w_sample").set_value(EXAMPLE)
    at.button(key="dgrr_w_load_sample").click().run()
    at.switch_page("pages/7_Approve.py").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(e.value for e in at.error)
    assert "#2" in shown and ("BROKEN" in shown or "malformed" in shown), shown
