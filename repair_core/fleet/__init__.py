"""Fleet repair: one bad memory in many agents' stores — find every case it touched, plan
(and optionally repair) each, on a local process pool or on Ray.

>>> from repair_core.fleet import FleetSpec
>>> FleetSpec(mode="text", value="5 Quay Ln, Dublin").describe()
'--match-text 5 Quay Ln, Dublin'
"""

from ._case_row import ROW_FIELDS, case_row
from ._run import Engine, run_fleet
from ._sources import fleet_items
from ._spec import FleetSpec, WorkItem, parse_match_key

__all__ = ["ROW_FIELDS", "Engine", "FleetSpec", "WorkItem", "case_row", "fleet_items",
           "parse_match_key", "run_fleet"]
