"""Fleet repair: one bad memory in many agents' stores — find every case it touched, plan
(and optionally repair) each, on a local process pool or on Ray.

>>> from repair_core.fleet import FleetSpec
>>> FleetSpec(mode="text", value="5 Quay Ln, Dublin").describe()
'--match-text 5 Quay Ln, Dublin'
"""

from ._case_row import ROW_FIELDS, case_row
from ._result import FleetResult, by_severity, read_fleet_result
from ._run import Engine, run_fleet
from ._sources import case_at, fleet_items
from ._spec import FleetSpec, WorkItem, parse_match_key

__all__ = ["ROW_FIELDS", "Engine", "FleetResult", "FleetSpec", "by_severity", "read_fleet_result", "WorkItem", "case_at", "case_row", "fleet_items",
           "parse_match_key", "run_fleet"]
