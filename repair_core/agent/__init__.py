"""The instrumented reference agent: store, retriever and runtime."""

from ._evidence import claim_item, observation_item, ordered, record_item, request_item
from ._store import LexicalRetriever, MemoryStore, Retriever, tokens

__all__ = [
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
