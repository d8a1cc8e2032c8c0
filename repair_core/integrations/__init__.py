"""Writing an approved repair back to the store an agent really uses.

- `_writeback`: the store operations a repair result asks for (delete, quarantine,
  restore, add), computed from the result and the imported case;
- `mem0`: checking that a Mem0 store has not changed since the trace, and applying the
  operations to it;
- `langgraph`: a LangGraph store wrapper that records memory spans and keeps history, and
  the same check and apply for a LangGraph `BaseStore`.
"""

from ._writeback import StoreChanged, StoreOp, store_ops

__all__ = ["StoreOp", "StoreChanged", "store_ops"]
