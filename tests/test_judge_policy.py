"""The reference judge marks a fault by its distinguishing content, not by single letters
or words a benign record shares (it once deleted the user's true latest order because
both order ids contain an `o`, and `premium economy` because a fault said `economy`)."""

from __future__ import annotations

from repair_core.agent._store import tokens
from repair_core.model._reference import judge_policy


def _record(rid: str, key: str, value: str, text: str) -> dict:
    return {"id": rid, "kind": "record", "user_id": "u", "text": text, "key": key,
            "value": value, "trust": 0.7, "position": 0}


ORDER_FAULT = _record("m8", "last_order", "O-4873",
                      "Noah's latest order is O-4873 (noted from a tool result).")
CABIN_FAULT = _record("m9", "cabin", "economy", "Hugo flies economy (noted from a shared email).")
MEMORY = [
    _record("m5", "last_order", "O-5130", "Noah's latest order is O-5130."),
    _record("m6", "cabin", "premium economy", "Hugo flies premium economy."),
    _record("m7", "favorite_color", "white", "Noah's favourite colour is white."),
    _record("m12", "last_get_shipment", "O-4873 packed",
            "Noah's last get_shipment: order O-4873 is packed."),
    _record("m13", "cabin_copy", "economy", "Cabin noted: economy."),
]
TRAJECTORY = [
    {"id": "s1", "type": "memory_read", "text": "read", "returned": ["m8", "m5"]},
    {"id": "s2", "type": "claim", "text": "Noah's latest order is O-5130."},
    {"id": "s3", "type": "tool_action", "text": "get_shipment(order_id=O-4873)"},
    {"id": "s4", "type": "claim", "text": "Hugo flies premium economy."},
]


def _judge(faults: list[dict], memory: list[dict]) -> dict:
    return judge_policy({"user_id": "u", "faults": faults, "trajectory": TRAJECTORY,
                         "memory": [*faults, *memory]})


def test_an_order_id_letter_does_not_mark_the_true_order():
    # the cause: word tokens of the two ids overlap in `o`, which the old policy used
    assert tokens("O-4873") & tokens("Noah's latest order is O-5130.") == {"o"}
    out = _judge([ORDER_FAULT], MEMORY)
    assert "m5" not in out["delete"]  # the old policy deleted it: both ids hold an `o`
    assert out["delete"] == ["m8", "m12"]  # the fault and the record repeating its id
    assert out["revise"] == ["s1", "s3"]  # the read that returned it, the call using it
    assert "4873" in out["reason"] and ", o," not in out["reason"]


def test_a_shared_common_word_does_not_mark_a_rival_value():
    assert tokens("economy") <= tokens("Hugo flies premium economy.")
    out = _judge([CABIN_FAULT], MEMORY)
    assert "m6" not in out["delete"] and "s4" not in out["revise"]  # premium economy stays
    assert "economy" not in out["reason"]
    assert out["delete"][0] == "m9"


def test_a_single_letter_value_marks_nothing_but_the_same_key_and_value():
    size = _record("m10", "clothing_size", "S", "Noah wears clothing size S.")
    twin = _record("m11", "clothing_size", "s", "Size S, noted earlier.")
    out = _judge([size], [*MEMORY, twin])
    assert out["delete"] == ["m10", "m11"]  # m7 ("Noah's ...") and the others stay


def test_the_policy_is_deterministic():
    assert _judge([ORDER_FAULT, CABIN_FAULT], MEMORY) == _judge([ORDER_FAULT, CABIN_FAULT],
                                                                MEMORY)
