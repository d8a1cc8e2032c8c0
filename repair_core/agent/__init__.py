"""The instrumented reference agent: store, retriever and runtime."""

from ._evidence import claim_item, observation_item, ordered, record_item, request_item
from ._index import LexicalIndex
from ._runtime import Agent, recurrence_probe
from ._store import LexicalRetriever, MemoryStore, Retriever, tokens

__all__ = [
    "Agent",
    "recurrence_probe",
    "LexicalIndex",
    "LexicalRetriever",
    "MemoryStore",
    "Retriever",
    "claim_item",
    "observation_item",
    "ordered",
    "record_item",
    "request_item",
    "tokens",
]
