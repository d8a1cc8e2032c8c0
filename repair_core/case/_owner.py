"""Whose memory a record is: the scope its source gave it (a record's `owner`), compared
with the case's user.

A source names a record's scope in one of two ways:

- Mem0's scope ids `user_id`, `agent_id`, `run_id` (a record is the user's when its
  `user_id` is the user);
- a LangGraph store namespace, `{"namespace": [...]}` (a record is the user's when one
  part of its namespace is the user's id, as in langmem's `("memories", "{user_id}")`;
  when the trace names no user, `UNKNOWN_USER`, a namespace is not compared).

A record with no owner is the case's user's: its source said nothing else. An approval
acknowledges a record of another owner by `OWNER_ACK_PREFIX` + the record id
(`dgrr approve --acknowledge-owner RECORD`)."""

from __future__ import annotations

from typing import Any

__all__ = ["OWNER_ACK_PREFIX", "MEM0_SCOPES", "UNKNOWN_USER", "owner_ack", "acknowledged_owners",
           "other_owner", "scopes_of"]

OWNER_ACK_PREFIX = "other-owner:"
"""How an approval's `acknowledged` list names a record of another owner it accepts
writing to."""

UNKNOWN_USER = "unknown"
"""The case's user when the trace names none (the importers' placeholder): a namespace
cannot be told to be the user's or not, so it is not compared."""

MEM0_SCOPES = ("user_id", "agent_id", "run_id")
"""Mem0's scope ids: whose memory a record is."""


def owner_ack(record: str) -> str:
    """The acknowledgement of writing to `record`, a record of another owner."""
    return OWNER_ACK_PREFIX + record


def acknowledged_owners(acknowledged: Any) -> set[str]:
    """The record ids of another owner an approval's `acknowledged` list accepts."""
    if not isinstance(acknowledged, list | tuple | set | frozenset):
        return set()
    return {a.removeprefix(OWNER_ACK_PREFIX) for a in acknowledged
            if isinstance(a, str) and a.startswith(OWNER_ACK_PREFIX)}


def scopes_of(owner: Any) -> dict[str, Any]:
    """The scope ids and namespace `owner` gives (strings, and a list of strings for the
    namespace); {} for anything else."""
    if not isinstance(owner, dict):
        return {}
    out: dict[str, Any] = {k: v for k in MEM0_SCOPES
                           if isinstance(v := owner.get(k), str) and v}
    ns = owner.get("namespace")
    if isinstance(ns, list | tuple) and all(isinstance(p, str) for p in ns):
        out["namespace"] = list(ns)
    return out


def other_owner(owner: Any, user: str) -> str | None:
    """Why a record with source scope `owner` is not `user`'s (None: it is, or its
    source gave no scope)."""
    scopes = scopes_of(owner)
    if not scopes or scopes.get("user_id") == user:
        return None
    if "user_id" not in scopes and (user in scopes.get("namespace", ())
                                    or user == UNKNOWN_USER):
        return None
    shown = ", ".join(f"{k} {v!r}" for k, v in sorted(scopes.items()))
    if "user_id" in scopes:
        return f"belongs to another user ({shown}), not the case's user {user!r}"
    return f"is scoped to {shown}, not to the case's user {user!r}"
