"""Tools with declared effects and deterministic simulators (travel, shopping, customer service)."""

from ._registry import ParamSpec, ToolError, ToolRegistry, ToolResult, ToolSpec, World
from ._simulators import CATALOG, CUSTOMER_SERVICE, SHOPPING, TRAVEL, default_registry

__all__ = [
    "CATALOG",
    "CUSTOMER_SERVICE",
    "SHOPPING",
    "TRAVEL",
    "ParamSpec",
    "ToolError",
    "ToolRegistry",
    "ToolResult",
    "ToolSpec",
    "World",
    "default_registry",
]
