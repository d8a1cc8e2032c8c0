"""A registry of tools, each declaring its effect, run against a simulated world."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..case._case import TOOL_EFFECTS, Tool

__all__ = ["ParamSpec", "ToolSpec", "ToolResult", "ToolError", "World", "ToolRegistry"]


class ToolError(ValueError):
    """A tool call that cannot run (unknown tool, missing or bad argument)."""


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of a tool, as the plan prompt shows it."""

    name: str
    description: str = ""
    slots: tuple[str, ...] = ()
    """Claim/observation keys that fill it, most specific first."""
    required: bool = True
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Allowed values named in a request, each with its synonyms."""
    default: Any = None
    pattern: str | None = None
    """A regular expression that finds the value in a request (case-insensitive)."""

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "description": self.description,
                               "required": self.required}
        if self.slots:
            out["slots"] = list(self.slots)
        if self.choices:
            out["choices"] = {k: list(v) for k, v in self.choices.items()}
        if self.default is not None:
            out["default"] = self.default
        if self.pattern:
            out["pattern"] = self.pattern
        return out


@dataclass(frozen=True)
class ToolResult:
    """What a call returned: structured output and a one-line text."""

    output: Any
    text: str


@dataclass
class World:
    """Deterministic simulator state shared by the tools (seat holds, carts, addresses)."""

    holds: dict[tuple[str, str], str] = field(default_factory=dict)
    cart: list[dict[str, Any]] = field(default_factory=list)
    addresses: dict[str, str] = field(default_factory=dict)
    address_history: dict[str, list[str]] = field(default_factory=dict)
    """Per order, every address set and not compensated, oldest first."""
    effects: list[str] = field(default_factory=list)
    """Log of every state change, in order."""


Runner = Callable[[World, dict[str, Any]], ToolResult]
Undoer = Callable[[World, dict[str, Any]], str]


@dataclass(frozen=True)
class ToolSpec:
    """A tool: its effect on the world, its parameters and its simulator."""

    name: str
    effect: str
    description: str
    params: tuple[ParamSpec, ...]
    run: Runner
    undo: Undoer | None = None
    """Reset (resettable) or compensation (compensable) of an earlier call."""
    domain: str = ""
    keywords: tuple[str, ...] = ()
    """Words in a request that call for this tool."""
    state: tuple[str, ...] | None = None
    """The parts of the world the tool reads or changes (`()`: none); None when unknown,
    which counts as all of it. A replay undoes removed effects on this state first."""

    def __post_init__(self) -> None:
        if self.effect not in TOOL_EFFECTS:
            raise ValueError(f"tool {self.name}: unknown effect {self.effect!r}")
        if self.effect in ("resettable", "compensable") and self.undo is None:
            raise ValueError(f"tool {self.name}: a {self.effect} tool needs an undo")

    def describe(self) -> dict[str, Any]:
        """The tool as the plan prompt lists it."""
        return {"name": self.name, "description": self.description, "effect": self.effect,
                "keywords": list(self.keywords), "params": [p.describe() for p in self.params]}

    def as_case_tool(self) -> Tool:
        """The `tools` entry of a case."""
        return Tool(name=self.name, effect=self.effect, description=self.description)  # type: ignore[arg-type]


class ToolRegistry:
    """Tools by name."""

    def __init__(self, specs: Iterable[ToolSpec] = ()) -> None:
        self._specs: dict[str, ToolSpec] = {}
        for spec in specs:
            self.add(spec)

    def add(self, spec: ToolSpec) -> None:
        self._specs[spec.name] = spec

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def get(self, name: str) -> ToolSpec | None:
        return self._specs.get(name)

    def names(self, domain: str | None = None) -> list[str]:
        return [n for n, s in self._specs.items() if domain in (None, s.domain)]

    def describe(self, names: Iterable[str] | None = None) -> list[dict[str, Any]]:
        chosen = self.names() if names is None else [n for n in names if n in self._specs]
        return [self._specs[n].describe() for n in chosen]

    def new_world(self) -> World:
        return World()

    def call(self, world: World, name: str, args: Mapping[str, Any]) -> ToolResult:
        spec = self._require(name)
        clean = self._check_args(spec, args)
        return spec.run(world, clean)

    def undo(self, world: World, name: str, args: Mapping[str, Any]) -> str:
        spec = self._require(name)
        if spec.undo is None:
            raise ToolError(f"tool {name} ({spec.effect}) has no reset or compensation")
        return spec.undo(world, self._check_args(spec, args))

    def _require(self, name: str) -> ToolSpec:
        spec = self._specs.get(name)
        if spec is None:
            raise ToolError(f"tool {name!r} is not registered")
        return spec

    @staticmethod
    def _check_args(spec: ToolSpec, args: Mapping[str, Any]) -> dict[str, Any]:
        known = {p.name for p in spec.params}
        unknown = sorted(set(args) - known)
        if unknown:
            raise ToolError(f"{spec.name}: unknown argument(s) {', '.join(unknown)}")
        clean = {}
        for p in spec.params:
            value = args.get(p.name, p.default)
            if value is None or value == "":
                if p.required:
                    raise ToolError(f"{spec.name}: missing required argument {p.name!r}")
                continue
            clean[p.name] = value
        return clean
