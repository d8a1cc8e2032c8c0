"""One set of field names per shape, shared by the items of a loaded case.

pydantic gives every validated model a set of its own naming the fields its input set
(`__pydantic_fields_set__`): 216 bytes for a step's eight names, 133 of the 400 MB a
100k-step case takes in memory, though such a case has a dozen distinct sets.
:func:`share_field_names` puts one set per distinct set of names in their place, a set
that refuses to change.

Nothing changes for a reader: the names are the same and a model written out is written
as before. A model copied (`model_copy`, `copy`, `deepcopy`) gets a plain set of its
own, which pydantic then adds to; assigning a field of a model that shares its set
first gives it one of its own (`_Model.__setattr__` in `_case`), so a shared set is
never changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

__all__ = ["SharedFieldNames", "share_field_names"]


class SharedFieldNames(set[str]):
    """The names of the fields an input set, one object for every model of that shape:
    a set (pydantic's serializer reads it as one, `exclude_unset` included) that refuses
    to change, copied as a plain set the copy may add to."""

    __slots__ = ()

    def __copy__(self) -> set[str]:
        return set(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> set[str]:
        return set(self)

    def __reduce__(self) -> tuple[Any, ...]:  # unpickled as the plain set of one model
        return set, (list(self),)

    def _shared(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a shared set of field names is not changed; copy it first")

    add = discard = remove = pop = clear = update = _shared
    difference_update = intersection_update = symmetric_difference_update = _shared
    __ior__ = __iand__ = __isub__ = __ixor__ = _shared  # type: ignore[assignment]


def share_field_names(models: Iterable[BaseModel],
                      shared: dict[frozenset[str], SharedFieldNames]) -> None:
    """Give each of `models`, and each dependency (`deps`) of one, the shared set of
    `shared` (filled as new sets of names are met) equal to its own set of field names."""
    put = object.__setattr__
    for model in models:
        _share(model, shared, put)
        deps = model.__dict__.get("deps")
        if type(deps) is list:
            for dep in deps:
                _share(dep, shared, put)


def _share(model: Any, shared: dict[frozenset[str], SharedFieldNames], put: Any) -> None:
    names = model.__pydantic_fields_set__
    if type(names) is SharedFieldNames:
        return
    key = frozenset(names)
    one = shared.get(key)
    if one is None:
        one = shared[key] = SharedFieldNames(key)
    put(model, "__pydantic_fields_set__", one)
