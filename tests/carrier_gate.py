"""The carrier gate's set-up shared by the write-back tests of each store: `dgrr approve`
refuses a result naming every carrier not acknowledged, then an approval of the same
result is recorded by a tool that skipped that check, so only the gate of `dgrr apply`
stands between the result and the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from repair_core import load_case, plan_case
from repair_core.approvals import ApprovalStore, approval_hashes
from repair_core.cli import main


def approved_without_acknowledgement(tmp_path: Path, case: Path, result: Path,
                                     data: dict[str, Any], carriers: Any,
                                     capsys: Any) -> tuple[dict[str, str], list[str]]:
    """The paths `dgrr apply` needs (case, result, approvals db, journal) once the
    unacknowledged approval is in the log, and the `dgrr approve` arguments that were
    refused; `data` is the result's JSON, planned for the answer."""
    r = {"case": str(case), "result": str(result), "db": str(tmp_path / "approvals.db"),
         "journal": str(tmp_path / "journal")}
    approve = ["approve", str(case), "--reviewer", "ana", "--decision", "approve",
               "--result", str(result), "--db", r["db"]]
    assert main(approve) == 2
    err = capsys.readouterr().err
    assert all(f"{c}: not acknowledged" in err for c in carriers)
    loaded = load_case(case)
    inputs, outputs = approval_hashes(plan_case(loaded, objective="answer"), data)
    ApprovalStore(r["db"]).add(case_id=loaded.case_id, reviewer="ana", decision="approve",
                               inputs_sha256=inputs, outputs_sha256=outputs,
                               model="dgrr/reference")
    return r, approve
