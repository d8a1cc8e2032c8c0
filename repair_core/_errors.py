"""The small exception hierarchy of dgrr."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["DgrrError", "CaseError", "Problem", "PlanEditError", "ModelError",
           "ObjectiveError"]


class DgrrError(Exception):
    """Base class of every error dgrr raises on purpose."""


class Problem(str):
    """One problem with an input, as `path: message` (e.g. `trajectory[4].deps[1]: unknown id 's99'`)."""

    __slots__ = ()

    @classmethod
    def at(cls, path: str, message: str) -> Problem:
        return cls(f"{path}: {message}" if path else message)


MAX_SHOWN_PROBLEMS = 100
"""A message lists at most this many problems, then how many more there are."""


class CaseError(DgrrError, ValueError):
    """A case could not be loaded; `problems` lists every problem found (the message shows
    the first :data:`MAX_SHOWN_PROBLEMS` and a count of the rest)."""

    def __init__(self, problems: Iterable[str], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source
        where = f"{source}: " if source else ""
        n = len(self.problems)
        head = f"{where}invalid case ({n} problem{'s' if n != 1 else ''})"
        lines = [head, *(f"  - {p}" for p in self.problems[:MAX_SHOWN_PROBLEMS])]
        if n > MAX_SHOWN_PROBLEMS:
            lines.append(f"  ... and {n - MAX_SHOWN_PROBLEMS} more problems ({n} in all)")
        super().__init__("\n".join(lines))


class PlanEditError(DgrrError, ValueError):
    """An edit to a plan was refused; `problems` says why."""

    def __init__(self, problems: Iterable[str], *, nodes: Iterable[str] = ()) -> None:
        self.problems = list(problems)
        self.nodes = tuple(nodes)
        """The ids of the edits refused whatever the force (none for a plan file's
        problems)."""
        super().__init__("plan edit refused:\n" + "\n".join(f"  - {p}" for p in self.problems))


class ObjectiveError(DgrrError, ValueError):
    """A plan objective the case cannot be planned for (e.g. `answer` for a case without
    an answer step)."""


class ModelError(DgrrError):
    """A model call failed or its reply could not be used."""
