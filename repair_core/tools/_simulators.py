"""Deterministic simulators for the travel, shopping and customer-service domains.

Outputs depend only on the arguments (and, for stateful tools, on the world), so a replay
sees exactly what a fresh run would.
"""

from __future__ import annotations

import zlib
from typing import Any

from ._registry import ParamSpec, ToolRegistry, ToolResult, ToolSpec, World

__all__ = ["default_registry", "TRAVEL", "SHOPPING", "CUSTOMER_SERVICE", "CATALOG"]


def _num(*parts: Any, mod: int) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode()) % mod


# ---- travel ----------------------------------------------------------------------------

AIRPORTS: dict[str, tuple[str, ...]] = {
    "NRT": ("Tokyo", "Narita"), "CDG": ("Paris",), "LHR": ("London",),
    "JFK": ("New York",), "SFO": ("San Francisco",), "LAX": ("Los Angeles",),
    "SIN": ("Singapore",), "SYD": ("Sydney",), "SEA": ("Seattle",), "BOS": ("Boston",),
    "ORD": ("Chicago",), "HKG": ("Hong Kong",), "LIS": ("Lisbon",), "MAD": ("Madrid",),
}
# (origin, destination) -> (flight, departure, economy row)
KNOWN_FLIGHTS = {("SFO", "NRT"): ("JL1", "11:05", 31), ("SFO", "CDG"): ("AF83", "15:40", 31),
                 ("JFK", "LHR"): ("BA178", "09:30", 31), ("SEA", "NRT"): ("JL67", "13:15", 31),
                 ("BOS", "LIS"): ("TP218", "18:25", 14), ("JFK", "LIS"): ("TP204", "19:10", 14)}
DATE_PATTERN = (r"(next|this) (monday|tuesday|wednesday|thursday|friday|saturday|sunday|week)"
                r"|tomorrow|today|(january|february|march|april|may|june|july|august|september"
                r"|october|november|december) \d{1,2}")
SEAT_LETTER = {"window": "A", "middle": "B", "aisle": "C"}
CABIN_ROW = {"economy": 31, "premium economy": 22, "business": 8, "first": 2}


def _flight(origin: str, destination: str) -> tuple[str, str, int]:
    if (origin, destination) in KNOWN_FLIGHTS:
        return KNOWN_FLIGHTS[(origin, destination)]
    carrier = ("UA", "DL", "AA", "NH", "LH")[_num(origin, destination, mod=5)]
    return (f"{carrier}{100 + _num(origin, destination, 'n', mod=800)}",
            f"{6 + _num(origin, destination, 'h', mod=16):02d}:{_num(origin, 'm', mod=12) * 5:02d}",
            CABIN_ROW["economy"])


def search_flights(world: World, a: dict[str, Any]) -> ToolResult:
    origin, dest = str(a["origin"]).upper(), str(a["destination"]).upper()
    cabin = str(a.get("cabin", "economy")).lower()
    seat_type = str(a.get("seat", "aisle")).lower()
    flight, departs, economy_row = _flight(origin, dest)
    row = economy_row if cabin == "economy" else CABIN_ROW.get(cabin, economy_row)
    seat = f"{row}{SEAT_LETTER.get(seat_type, 'C')}"
    city = AIRPORTS.get(dest, (dest,))[0]
    out = {"flight": flight, "origin": origin, "destination": dest, "destination_city": city,
           "date": a["date"], "departs": departs, "cabin": cabin, "seat": seat,
           "seat_type": seat_type}
    return ToolResult(out, f"{flight} {origin} to {dest} ({city}) {a['date']} departs "
                           f"{departs}, {cabin}, {seat_type} seat {seat} free.")


def hold_seat(world: World, a: dict[str, Any]) -> ToolResult:
    key = (str(a["flight"]), str(a["seat"]))
    hold = f"H-{_num(*key, mod=9000) + 1000}"
    world.holds[key] = hold
    world.effects.append(f"hold {key[0]} {key[1]}")
    return ToolResult({"flight": key[0], "seat": key[1], "hold": hold, "status": "held"},
                      f"Held seat {key[1]} on {key[0]} (hold {hold}).")


def release_seat(world: World, a: dict[str, Any]) -> str:
    key = (str(a["flight"]), str(a["seat"]))
    world.holds.pop(key, None)
    world.effects.append(f"release {key[0]} {key[1]}")
    return f"released seat {key[1]} on {key[0]}"


TRAVEL = (
    ToolSpec("search_flights", "pure", "Search flights; read-only.", (
        ParamSpec("origin", "departure airport code", slots=("origin", "home_airport")),
        ParamSpec("destination", "arrival airport code", slots=("destination",),
                  choices=AIRPORTS),
        ParamSpec("date", "travel date as the user said it", slots=("date",),
                  pattern=DATE_PATTERN),
        ParamSpec("cabin", "cabin class", slots=("cabin",),
                  choices={c: () for c in CABIN_ROW}, default="economy"),
        ParamSpec("seat", "seat type", slots=("seat_pref", "seat_type"),
                  choices={"aisle": (), "window": (), "middle": ()}, default="aisle"),
    ), search_flights, domain="travel", keywords=("flight", "fly", "flights"), state=()),
    ToolSpec("hold_seat", "resettable", "Hold a seat on a flight; released by reset.", (
        ParamSpec("flight", "flight number", slots=("flight",)),
        ParamSpec("seat", "seat number", slots=("seat",)),
    ), hold_seat, undo=release_seat, domain="travel", keywords=("book", "hold", "reserve"),
        state=("holds",)),
)

# ---- shopping --------------------------------------------------------------------------

CATALOG: dict[str, dict[str, Any]] = {
    "running shoes": {"id": "RS-310", "name": "Trail Runner", "material": "mesh", "price": 89,
                      "sizes": ("7", "8", "9", "10", "11", "12")},
    "rain jacket": {"id": "RJ-220", "name": "Storm Shell", "material": "nylon", "price": 129,
                    "sizes": ("S", "M", "L", "XL")},
    "t-shirt": {"id": "TS-105", "name": "Cotton tee", "material": "cotton", "price": 19,
                "sizes": ("S", "M", "L", "XL")},
    "jeans": {"id": "JN-412", "name": "Slim jeans", "material": "denim", "price": 59,
              "sizes": ("30", "32", "34", "36")},
    "backpack": {"id": "BP-075", "name": "Day pack", "material": "nylon", "price": 75,
                 "sizes": ("one size",)},
}
QUERY_SYNONYMS = {"running shoes": ("running shoe", "sneakers", "trainers", "shoes"),
                  "rain jacket": ("raincoat", "jacket"), "t-shirt": ("tee", "t-shirts", "shirt"),
                  "jeans": ("denim",), "backpack": ("bag",)}
COLORS = ("black", "navy", "blue", "red", "green", "white", "grey")


def search_catalog(world: World, a: dict[str, Any]) -> ToolResult:
    query = str(a["query"]).lower()
    product = CATALOG.get(query) or next(
        (p for q, p in CATALOG.items() if query in QUERY_SYNONYMS.get(q, ())), None)
    if product is None:
        return ToolResult({"query": query, "items": []}, f"No catalog items match {query!r}.")
    color = str(a.get("color") or "black").lower()
    size = str(a.get("size") or product["sizes"][0])
    in_stock = size in product["sizes"]
    item = {"item_id": product["id"], "name": product["name"], "material": product["material"],
            "color": color, "size": size, "price": product["price"], "in_stock": in_stock}
    stock = "in stock" if in_stock else "not available"
    return ToolResult({**item, "items": [dict(item)]},
                      f"{product['id']} {product['name']}, {product['material']}, {color}, "
                      f"size {size} {stock}, ${product['price']}.")


def add_to_cart(world: World, a: dict[str, Any]) -> ToolResult:
    line = {"item_id": str(a["item_id"]), "size": str(a["size"])}
    world.cart.append(line)
    world.effects.append(f"cart add {line['item_id']} {line['size']}")
    return ToolResult({**line, "status": "added", "cart_size": len(world.cart)},
                      f"Added {line['item_id']} in size {line['size']} to the cart.")


def remove_from_cart(world: World, a: dict[str, Any]) -> str:
    line = {"item_id": str(a["item_id"]), "size": str(a["size"])}
    if line in world.cart:
        world.cart.remove(line)
    world.effects.append(f"cart remove {line['item_id']} {line['size']}")
    return f"removed {line['item_id']} size {line['size']} from the cart"


SIZE_SLOTS = ("size", "shoe_size", "clothing_size", "jacket_size", "shirt_size")
SHOPPING = (
    ToolSpec("search_catalog", "pure", "Search the product catalog; read-only.", (
        ParamSpec("query", "product named in the request", slots=("query", "product"),
                  choices=QUERY_SYNONYMS),
        ParamSpec("size", "size to look for", slots=SIZE_SLOTS, required=False),
        ParamSpec("color", "colour to look for", slots=("color", "favorite_color", "jacket_color", "colour"),
                  required=False, choices={c: () for c in COLORS}),
    ), search_catalog, domain="shopping",
        keywords=("find", "search", "looking for", "buy", "order", "get me", "need"), state=()),
    ToolSpec("add_to_cart", "resettable", "Add an item to the cart; removed by reset.", (
        ParamSpec("item_id", "catalog item id", slots=("item_id",)),
        ParamSpec("size", "size", slots=SIZE_SLOTS),
    ), add_to_cart, undo=remove_from_cart, domain="shopping",
        keywords=("buy", "add to cart", "add it", "purchase", "order"), state=("cart",)),
)

# ---- customer service ------------------------------------------------------------------

PLANS = ("basic", "plus", "premium")


def get_account(world: World, a: dict[str, Any]) -> ToolResult:
    uid = str(a["user_id"])
    out = {"user_id": uid, "plan": PLANS[_num(uid, "plan", mod=3)], "status": "active",
           "email": f"{uid.lower()}@example.com"}
    return ToolResult(out, f"Account {uid}: {out['plan']} plan, active, email {out['email']}.")


def get_billing(world: World, a: dict[str, Any]) -> ToolResult:
    uid = str(a["user_id"])
    amount = 10 + _num(uid, "bill", mod=90)
    out = {"user_id": uid, "last_charge": f"${amount}.00", "due_date": "the 1st",
           "card": f"card ending {1000 + _num(uid, 'card', mod=9000)}"}
    return ToolResult(out, f"Billing for {uid}: last charge {out['last_charge']} to "
                           f"{out['card']}, next due {out['due_date']}.")


# order id -> (status, carrier, arrival day); other orders are derived from the id
KNOWN_ORDERS = {"O-5521": ("packed", "UPS", "Thursday")}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")


def get_shipment(world: World, a: dict[str, Any]) -> ToolResult:
    oid = str(a["order_id"])
    status, carrier, eta = KNOWN_ORDERS.get(oid) or (
        ("in transit", "packed", "out for delivery", "processing")[_num(oid, mod=4)],
        ("UPS", "FedEx", "DHL")[_num(oid, "c", mod=3)], WEEKDAYS[_num(oid, "eta", mod=5)])
    address = world.addresses.get(oid, "the address on file")
    out = {"order_id": oid, "status": status, "carrier": carrier, "eta": eta,
           "address": address}
    return ToolResult(out, f"Order {oid} is {status} with {carrier}, arriving {eta}, "
                           f"to {address}.")


def update_shipping_address(world: World, a: dict[str, Any]) -> ToolResult:
    oid, address = str(a["order_id"]), str(a["address"])
    previous = world.addresses.get(oid)
    world.addresses[oid] = address
    world.address_history.setdefault(oid, []).append(address)
    world.effects.append(f"address {oid} -> {address}")
    return ToolResult({"order_id": oid, "address": address, "previous": previous,
                       "status": "updated"},
                      f"Order {oid} will now ship to {address}.")


def restore_shipping_address(world: World, a: dict[str, Any]) -> str:
    """Compensate one earlier change to `address`: the order ships to the address set
    before it (or the address on file), even when later changes were compensated first."""
    oid, address = str(a["order_id"]), str(a["address"])
    history = world.address_history.get(oid, [])
    if address in history:
        del history[len(history) - 1 - history[::-1].index(address)]
    if history:
        world.addresses[oid] = history[-1]
    else:
        world.addresses.pop(oid, None)
    world.effects.append(f"address {oid} restored")
    return f"restored the shipping address of order {oid}"


ORDER_SLOTS = ("order_id", "last_order", "order")
CUSTOMER_SERVICE = (
    ToolSpec("get_account", "pure", "Look up the user's account; read-only.", (
        ParamSpec("user_id", "the user's id", slots=("user_id",)),
    ), get_account, domain="customer_service", keywords=("account", "plan", "subscription"),
        state=()),
    ToolSpec("get_billing", "pure", "Look up the user's billing; read-only.", (
        ParamSpec("user_id", "the user's id", slots=("user_id",)),
    ), get_billing, domain="customer_service",
        keywords=("bill", "billing", "charge", "charged", "payment", "invoice"), state=()),
    ToolSpec("get_shipment", "pure", "Look up an order's shipment; read-only.", (
        ParamSpec("order_id", "order id", slots=ORDER_SLOTS),
    ), get_shipment, domain="customer_service",
        keywords=("order", "shipment", "package", "delivery", "where is"), state=("addresses",)),
    ToolSpec("update_shipping_address", "compensable",
             "Change an order's shipping address; compensated by restoring the old one.", (
        ParamSpec("order_id", "order id", slots=ORDER_SLOTS),
        ParamSpec("address", "new shipping address",
                  slots=("shipping_address", "address", "home_address")),
    ), update_shipping_address, undo=restore_shipping_address, domain="customer_service",
        keywords=("address", "ship it to", "ship to", "moved"), state=("addresses",)),
)


def default_registry() -> ToolRegistry:
    """Every simulator of the three domains."""
    return ToolRegistry([*TRAVEL, *SHOPPING, *CUSTOMER_SERVICE])
