"""One set of field names per shape, shared by the items of a loaded case.

pydantic gives every validated model a set of its own naming the fields its input set
(`__pydantic_fields_set__`): 216 bytes for a step's eight names, 133 of the 400 MB a
100k-step case takes in memory, though such a case has a dozen distinct sets; and a
dict of extra members, most of them empty (another 22 MB). :func:`share_field_names` puts
one set per distinct set of names in their place, and one empty dict for every item
without extra members, each refusing to change.

Nothing changes for a reader: the names and members are the same and a model written
out is written as before. A model copied (`model_copy`, `copy`, `deepcopy`) gets a plain
set and dict of its own, which pydantic then adds to (models unpickled together share them
again); assigning an attribute of a
model that shares them first gives it its own (:class:`SharingModel`, the base of the
case's models and of the repair's decisions and step outcomes), so what is shared is never
changed.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

__all__ = ["NO_EXTRA", "SharedExtra", "SharedFieldNames", "SharingModel", "share_field_names",
           "share_ids"]


class SharedFieldNames(set[str]):
    """The names of the fields an input set, one object for every model of that shape:
    a set (pydantic's serializer reads it as one, `exclude_unset` included) that refuses
    to change, copied as a plain set the copy may add to."""

    __slots__ = ()

    def __copy__(self) -> set[str]:
        return set(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> set[str]:
        return set(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # unpickled as what it was, one object the unpickled models share: a plain set
        # there would be one set that each model's assignment adds to
        return SharedFieldNames, (list(self),)

    def _shared(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a shared set of field names is not changed; copy it first")

    add = discard = remove = pop = clear = update = _shared
    difference_update = intersection_update = symmetric_difference_update = _shared
    __ior__ = __iand__ = __isub__ = __ixor__ = _shared  # type: ignore[assignment]


class SharedExtra(dict[str, Any]):
    """Extra members (`__pydantic_extra__`) every model holding the same ones shares:
    a dict that refuses to change, copied as a plain dict the copy may add to."""

    __slots__ = ()

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self) -> tuple[Any, ...]:  # unpickled shared, as a shared set of names
        return SharedExtra, (dict(self),)

    def _shared(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("shared extra members are not changed; copy them first")

    __setitem__ = __delitem__ = setdefault = pop = popitem = clear = update = _shared
    __ior__ = _shared  # type: ignore[assignment]


NO_EXTRA = SharedExtra()
"""The extra members of a loaded item that has none (64 bytes an item otherwise)."""


class SharingModel(BaseModel):
    """A model whose set of field names and extra members may be shared, and whose dict
    of field values may be shared with the models it was marked from or as (a repaired
    trajectory's kept step and the case's own, `replay._executor._marked`): assigning or
    deleting an attribute of a model holding a shared set of names first gives it its
    own set, extra members and dict of values."""

    def __setattr__(self, name: str, value: Any) -> None:
        self._own_parts()
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        self._own_parts()
        super().__delattr__(name)

    def _own_parts(self) -> None:
        names, extra = self.__pydantic_fields_set__, self.__pydantic_extra__
        if type(names) is SharedFieldNames:
            object.__setattr__(self, "__pydantic_fields_set__", set(names))
            object.__setattr__(self, "__dict__", dict(self.__dict__))
        if type(extra) is SharedExtra:
            object.__setattr__(self, "__pydantic_extra__", dict(extra))


def share_field_names(models: Iterable[BaseModel],
                      shared: dict[frozenset[str], SharedFieldNames]) -> None:
    """Give each of `models`, and each dependency (`deps`) of one, the shared set of
    `shared` (filled as new sets of names are met) equal to its own set of field names,
    and :data:`NO_EXTRA` for its extra members when it has none."""
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
    extra = model.__pydantic_extra__
    if type(extra) is dict and not extra:
        put(model, "__pydantic_extra__", NO_EXTRA)


def share_ids(session: Iterable[BaseModel], memory: Iterable[BaseModel],
              trajectory: Iterable[BaseModel]) -> None:
    """Point each reference of a loaded case's items to an item (a step's turn, a read's
    returned records, a write's target records, every dependency's id) at the string the
    item's own id is: the JSON reader makes a string per occurrence, so a 300k-step case
    held its 704k dependencies' ids, 300k turns and the reads' and writes' record ids a
    second time (about 55 MB). The strings are equal, so nothing a reader sees changes;
    the items are freshly validated and share no dict of values yet."""
    own: dict[str, str] = {}
    for items in (session, memory, trajectory):
        for item in items:
            own.setdefault(item.id, item.id)  # type: ignore[attr-defined]
    get = own.get
    for items in (memory, trajectory):
        for item in items:
            values = item.__dict__
            turn = values.get("turn")
            if turn is not None:
                values["turn"] = get(turn, turn)
            for name in ("returned", "target"):
                ids = values.get(name)
                if ids:
                    ids[:] = [get(x, x) for x in ids]
            for dep in values.get("deps") or ():
                dep_values = dep.__dict__
                dep_values["id"] = get(dep_values["id"], dep_values["id"])
