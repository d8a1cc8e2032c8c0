"""What a fleet run looks for in each case and what it does with it."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_jsonable_python

from .._errors import DgrrError
from ..case._case import Case
from ..case._json import json_or_text

__all__ = ["FleetSpec", "WorkItem", "MatchMode", "parse_match_key"]

MatchMode = Literal["faults", "text", "key", "field"]


class FleetSpec(BaseModel):
    """How each case of a fleet is matched and repaired (the same for every case)."""

    model_config = ConfigDict(frozen=True)

    mode: MatchMode
    """`faults`: records with these ids; `text`: records whose text contains `value`;
    `key`: records whose structured key is `key` and value is `value`; `field`: records
    whose field `key` (any record field, e.g. an importer's `source`) contains `value`."""
    value: str
    """The ids (comma-separated), the text, or the value to match."""
    key: str | None = None
    """For `key` mode: the structured key a record must have; for `field` mode: the
    record field to search."""
    replay: bool = False
    """Repair (replay) each matched case, not only plan it."""
    model: str = "dgrr/reference"
    """litellm model string used by the replay."""
    api_base: str | None = None
    """API base URL of the model."""
    # Written only when not `answer`, so existing runs' recorded specs read as before.
    objective: Literal["answer", "store", "both"] = Field(
        default="answer", exclude_if=lambda v: v == "answer")
    """What each case's plan repairs (`plan_case(..., objective=)`)."""

    def matching_records(self, case: Case) -> list[str]:
        """Ids of the records of `case` this spec marks as faults, in store order.

        Every record counts whatever its status: a superseded copy of a poisoned fact
        is still where the poison came from.
        """
        if self.mode == "faults":
            wanted = {i.strip() for i in self.value.split(",") if i.strip()}
            return [m.id for m in case.memory if m.id in wanted]
        if self.mode == "text":
            return [m.id for m in case.memory if self.value in m.text]
        if self.mode == "field":
            found = []
            for m in case.memory:
                text = _field_text(getattr(m, str(self.key), None))
                if text is not None and self.value in text:
                    found.append(m.id)
            return found
        target = json_or_text(self.value)
        return [m.id for m in case.memory
                if m.key == self.key and (m.value == self.value or m.value == target)]

    def describe(self) -> str:
        """The matching option as given on the command line."""
        if self.mode == "faults":
            return f"--faults {self.value}"
        if self.mode == "text":
            return f"--match-text {self.value}"
        if self.mode == "field":
            return f"--match-field {self.key}={self.value}"
        return f"--match-key {self.key}={self.value}"


class WorkItem(BaseModel):
    """One case to process: where it comes from and how to read it."""

    index: int
    """Position of the case in the fleet (its row order in `cases.parquet`)."""
    source: str
    """Where the case is: a file path, `FILE:LINE` in a JSON-lines file or `FILE#ROW` in
    a Parquet dataset."""
    path: str | None = None
    """A case file to read (None when `text` holds the case)."""
    text: str | None = None
    """The case's JSON text, when it came from a dataset."""


def parse_match_key(spec: str, option: str = "--match-key") -> tuple[str, str]:
    """`KEY=VALUE` of `--match-key` (or `--match-field`), or a clear error naming it."""
    key, sep, value = spec.partition("=")
    if not sep or not key.strip():
        example = ("shipping_address=\"5 Quay Ln, Dublin\"" if option == "--match-key"
                   else "source=faq.example.com")
        raise DgrrError(f"{option} {spec!r}: expected {option[8:].upper()}=VALUE "
                        f"(e.g. {example})")
    if option == "--match-field" and not value:
        raise DgrrError(f"{option} {spec!r}: empty text would match every record")
    return key.strip(), value


def _field_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(to_jsonable_python(value), ensure_ascii=False)

