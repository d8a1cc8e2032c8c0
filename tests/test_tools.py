"""Tool registry and simulators: declared effects, determinism, reset and compensation."""

from __future__ import annotations

import pytest

from repair_core.case._case import TOOL_EFFECTS
from repair_core.tools import (
    ParamSpec,
    ToolError,
    ToolRegistry,
    ToolResult,
    ToolSpec,
    default_registry,
)

FLIGHT = {"origin": "SFO", "destination": "NRT", "date": "next Friday", "cabin": "economy",
          "seat": "aisle"}


def test_every_tool_declares_a_known_effect_and_the_sample_tools_exist():
    reg = default_registry()
    effects = {n: reg.get(n).effect for n in reg.names()}
    assert set(effects.values()) <= set(TOOL_EFFECTS)
    assert effects == {
        "search_flights": "pure", "hold_seat": "resettable", "search_catalog": "pure",
        "add_to_cart": "resettable", "get_account": "pure", "get_billing": "pure",
        "get_shipment": "pure", "update_shipping_address": "compensable"}
    assert set(reg.names("travel")) == {"search_flights", "hold_seat"}


def test_simulators_are_deterministic_across_worlds():
    reg = default_registry()
    a = reg.call(reg.new_world(), "search_flights", FLIGHT)
    b = reg.call(reg.new_world(), "search_flights", FLIGHT)
    assert a == b and a.output["flight"] == "JL1" and a.output["seat"] == "31C"
    window = reg.call(reg.new_world(), "search_flights", {**FLIGHT, "seat": "window"})
    assert window.output["seat"] == "31A"
    assert reg.call(reg.new_world(), "get_billing", {"user_id": "maya"}) == \
        reg.call(reg.new_world(), "get_billing", {"user_id": "maya"})


def test_resettable_hold_is_released_by_reset():
    reg = default_registry()
    world = reg.new_world()
    reg.call(world, "hold_seat", {"flight": "JL1", "seat": "31A"})
    assert ("JL1", "31A") in world.holds
    reg.undo(world, "hold_seat", {"flight": "JL1", "seat": "31A"})
    assert not world.holds and world.effects == ["hold JL1 31A", "release JL1 31A"]


def test_cart_reset_and_address_compensation():
    reg = default_registry()
    world = reg.new_world()
    reg.call(world, "add_to_cart", {"item_id": "RJ-220", "size": "M"})
    reg.undo(world, "add_to_cart", {"item_id": "RJ-220", "size": "M"})
    assert world.cart == []
    reg.call(world, "update_shipping_address", {"order_id": "O-1", "address": "12 Pine St"})
    shown = reg.call(world, "get_shipment", {"order_id": "O-1"})
    assert shown.output["address"] == "12 Pine St"
    reg.undo(world, "update_shipping_address", {"order_id": "O-1", "address": "12 Pine St"})
    assert reg.call(world, "get_shipment", {"order_id": "O-1"}).output["address"] == \
        "the address on file"


def test_catalog_search_finds_fixed_items():
    reg = default_registry()
    out = reg.call(reg.new_world(), "search_catalog",
                   {"query": "rain jacket", "size": "L", "color": "navy"}).output
    assert (out["item_id"], out["size"], out["color"], out["in_stock"]) == \
        ("RJ-220", "L", "navy", True)
    assert reg.call(reg.new_world(), "search_catalog", {"query": "zeppelin"}).output["items"] == []


@pytest.mark.parametrize("name, args, why", [
    ("search_flights", {"origin": "SFO"}, "missing required argument 'destination'"),
    ("hold_seat", {"flight": "JL1", "seat": "1A", "x": 1}, "unknown argument(s) x"),
    ("teleport", {}, "not registered"),
])
def test_bad_calls_raise_tool_errors(name, args, why):
    reg = default_registry()
    with pytest.raises(ToolError, match=why.replace("(", r"\(").replace(")", r"\)")):
        reg.call(reg.new_world(), name, args)


def test_pure_tools_cannot_be_undone_and_side_effects_need_an_undo():
    reg = default_registry()
    with pytest.raises(ToolError, match="no reset or compensation"):
        reg.undo(reg.new_world(), "search_flights", FLIGHT)
    with pytest.raises(ValueError, match="needs an undo"):
        ToolSpec("x", "resettable", "", (ParamSpec("a"),), lambda w, a: ToolResult(None, ""))
    with pytest.raises(ValueError, match="unknown effect"):
        ToolSpec("x", "magic", "", (), lambda w, a: ToolResult(None, ""))
    assert "x" not in ToolRegistry()
