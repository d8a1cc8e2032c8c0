"""Any JSON value as text: what a scorer reads of a list of tool calls or a record's value
(written in `repair_core._flat`, which every layer can import)."""

from .._flat import flatten

__all__ = ["flatten"]
