"""Stage 4 world rules (ids `replay.world.*` in docs/rules.md): the tool world a replayed
step sees, for each declared effect and each read/write order.

The cases are built here: a fault `m1` says the user's colour is red, the current turn says
green. In the failed run the agent read the colour from a key-value tool (`read_kv`, pure)
and wrote red with `set_kv`, whose declared effect each test chooses; the read came either
before the faulty write or after it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from casebuild import make_case, rec, step, turn
from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core import Case, apply_edits, case_from_data, load_case, plan_case
from repair_core.cli import main
from repair_core.replay import RepairResult, execute, repair
from repair_core.replay._world import NEEDS_HUMAN, ToolWorld
from repair_core.tools import ParamSpec, ToolRegistry, ToolResult, ToolSpec, World

rule = pytest.mark.rule
STALE_ADDRESS = Path(__file__).resolve().parent.parent / "sample_traces" / "cs-stale-address.json"


# ---- a key-value tool world -------------------------------------------------------------

def read_kv(world: World, a: dict[str, Any]) -> ToolResult:
    value = world.addresses.get(a["key"], "unset")
    return ToolResult({"key": a["key"], "value": value}, f"{a['key']} is {value}.")


def set_kv(world: World, a: dict[str, Any]) -> ToolResult:
    world.addresses[a["key"]] = a["value"]
    world.address_history.setdefault(a["key"], []).append(a["value"])
    world.effects.append(f"set {a['key']}={a['value']}")
    return ToolResult({"key": a["key"], "value": a["value"]}, f"{a['key']} set to {a['value']}.")


def take_back(world: World, a: dict[str, Any]) -> str:
    """Reset / compensation: the value set before this call (or nothing) comes back."""
    history = world.address_history.get(a["key"], [])
    if a["value"] in history:
        del history[len(history) - 1 - history[::-1].index(a["value"])]
    if history:
        world.addresses[a["key"]] = history[-1]
    else:
        world.addresses.pop(a["key"], None)
    world.effects.append(f"undo {a['key']}={a['value']}")
    return f"took back {a['key']}={a['value']}"


KEY = ParamSpec("key", choices={"colour": ()})
VALUE = ParamSpec("value", slots=("colour",))


def registry(effect: str) -> ToolRegistry:
    undo = take_back if effect in ("resettable", "compensable") else None
    return ToolRegistry([
        ToolSpec("read_kv", "pure", "read a key", (KEY,), read_kv, state=("kv",)),
        ToolSpec("set_kv", effect if effect != "pure" else "idempotent", "set a key",
                 (KEY, VALUE), set_kv, undo=undo, state=("kv",)),
        ToolSpec("ping", "pure", "touches nothing", (), lambda w, a: ToolResult("pong", "pong"),
                 state=()),
    ])


def _read(first: int, deps: str) -> list[dict[str, Any]]:
    return [step(f"s{first}", first, "plan", deps, tool="read_kv", args={"key": "colour"}),
            step(f"s{first + 1}", first + 1, "tool_action", f"s{first}:produce",
                 tool="read_kv", args={"key": "colour"}),
            step(f"s{first + 2}", first + 2, "tool_observation", f"s{first + 1}:produce",
                 output={"key": "colour", "value": "?"}, text="colour is ?")]


def _write(first: int, status: str = "ok") -> list[dict[str, Any]]:
    args = {"key": "colour", "value": "red"}
    return [step(f"s{first}", first, "plan", "u1:initiate s2:cite s4:cite", tool="set_kv",
                 args=args),
            step(f"s{first + 1}", first + 1, "tool_action", f"s{first}:produce", tool="set_kv",
                 args=args, status=status),
            step(f"s{first + 2}", first + 2, "tool_observation", f"s{first + 1}:produce",
                 output=args, text="colour set to red.", status=status)]


def kv_case(effect: str | None, order: str, write_status: str = "ok") -> Case:
    """order: `read-before` (read s5-s7, write s8-s10) or `read-after` (write s5-s7, read
    s8-s10). `effect` None leaves set_kv undeclared."""
    if order == "read-before":
        middle = _read(5, "u1:initiate s4:cite") + _write(8, write_status)
        read_obs, write_obs = "s7", "s10"
    else:
        middle = _write(5, write_status) + _read(8, "u1:initiate s4:cite")
        read_obs, write_obs = "s10", "s7"
    tools = [{"name": "read_kv", "effect": "pure"}, {"name": "ping", "effect": "pure"}]
    if effect is not None:
        tools.append({"name": "set_kv", "effect": effect})
    return make_case(
        turn("u1", 1, "Set my colour to green."),
        rec("m1", key="colour", value="red", text="colour is red"),
        step("s2", 2, "claim", "u1:support", key="colour", value="green"),
        step("s3", 3, "memory_read", "u1:initiate m1:cite", returned=["m1"], query="colour"),
        step("s4", 4, "claim", "s3:cite m1:cite!", key="colour", value="red"),
        *middle,
        step("s11", 11, "answer", f"u1:initiate {read_obs}:cite {write_obs}:cite"),
        faults=["m1"], tools=tools)


def run(effect: str, order: str, **kw: Any) -> tuple[RepairResult, dict[str, Any]]:
    case = kv_case(None if effect == "undeclared" else effect, order, **kw)
    result = repair(case, tools=registry("irreversible" if effect == "undeclared" else effect))
    steps = {s.id: s for s in result.trajectory.trajectory}
    return result, steps


def read_obs(order: str) -> str:
    return "s7" if order == "read-before" else "s10"


def write_action(order: str) -> str:
    return "s9" if order == "read-before" else "s6"


ORDERS = ("read-before", "read-after")


# ---- the rules --------------------------------------------------------------------------

@rule("replay.world.failed-run")
def test_world_starts_as_the_failed_run_left_it_and_ledgers_state_changing_calls():
    case = kv_case("compensable", "read-after")
    world = ToolWorld.after_failed_run(case, registry("compensable"), removed={"s6"})
    assert world.state.addresses == {"colour": "red"}  # the failed run's write is in effect
    assert [(e.step, e.declared, e.removed, e.disposition) for e in world.ledger] == [
        ("s6", "compensable", True, "pending")]  # the pure read has no entry
    failed = kv_case("compensable", "read-after", write_status="failed")
    assert ToolWorld.after_failed_run(failed, registry("compensable"), {"s6"}).ledger == []
    undeclared = kv_case(None, "read-after")
    entry = ToolWorld.after_failed_run(undeclared, registry("resettable"), {"s6"}).ledger[0]
    assert entry.declared == "irreversible" and entry.disposition == "needs_human"
    # the ledger comes from the declared effects and the trajectory, not the case's words
    data = case.model_dump(mode="json")
    for s in data["trajectory"]:
        s["text"] = "something else entirely"
    reworded = ToolWorld.after_failed_run(case_from_data(data), registry("compensable"), {"s6"})
    assert reworded.ledger == world.ledger


@rule("replay.world.removed")
def test_an_unsupported_action_a_forced_edit_kept_still_loses_its_effect():
    case = kv_case("resettable", "read-after")
    plan = apply_edits(plan_case(case), {"s5": "keep", "s6": "keep", "s7": "keep"},
                       force=True, comment="keep the write")
    assert plan.steps["s6"] == "keep" and "s6" in plan.analysis.unsupported
    result = repair(case, plan, tools=registry("resettable"))
    assert [(w.step, w.removed, w.disposition) for w in result.report.world] == [
        ("s6", True, "undone")]
    steps = {s.id: s for s in result.trajectory.trajectory}
    assert steps["s10"].output["value"] == "unset"  # the kept write's effect is gone
    # an ablation through `execute` that keeps the write keeps its effect
    kept = execute(case, plan.memory, {"s9", "s10", "s11"}, tools=registry("resettable"))
    assert [(w.removed, w.disposition) for w in kept.report.world] == [(False, "kept")]


@rule("replay.world.kept")
def test_effects_of_kept_actions_stand():
    case = kv_case("resettable", "read-after")
    world = ToolWorld.after_failed_run(case, registry("resettable"), removed=set())
    assert world.prepare("s9", "read_kv") == [] and world.finish() == []
    assert world.ledger[0].disposition == "kept" and world.state.addresses == {"colour": "red"}


@rule("replay.world.read-before-faulty-write")
@pytest.mark.parametrize("effect", ["resettable", "compensable"])
def test_a_read_replayed_before_a_faulty_write_does_not_see_it(effect):
    result, steps = run(effect, "read-before")
    assert steps["s7"].output == {"key": "colour", "value": "unset"}  # as before the write
    assert steps["s10"].output == {"key": "colour", "value": "green"}
    assert "red" not in (result.answer or "") and "green" in (result.answer or "")
    [w] = result.report.world
    assert (w.step, w.disposition, w.undone_before) == ("s9", "undone", "s6")
    assert [(n.step, n.args["value"]) for n in result.report.resets] == [("s9", "red")]
    assert "before replayed s6" in result.report.resets[0].reason
    assert result.needs_human == []


@rule("replay.world.read-after-faulty-write")
@pytest.mark.parametrize("effect", ["resettable", "compensable", "idempotent"])
def test_a_read_replayed_after_a_faulty_write_sees_the_repaired_write(effect):
    result, steps = run(effect, "read-after")
    assert steps["s7"].output == {"key": "colour", "value": "green"}
    assert steps["s10"].output == {"key": "colour", "value": "green"}
    assert "red" not in (result.answer or "")
    [w] = result.report.world
    assert w.step == "s6" and w.disposition == ("overwritten" if effect == "idempotent"
                                                else "undone")
    assert result.needs_human == []


@rule("replay.world.resettable")
def test_resettable_effect_of_a_removed_action_is_reset_even_when_not_replayed():
    case = kv_case("resettable", "read-before")
    plan = plan_case(case)
    # an ablation that replays only the read and the answer: the write is invalidated
    result = execute(case, plan.memory, {"s6", "s7", "s11"}, invalidated={"s8", "s9", "s10"},
                     tools=registry("resettable"))
    steps = {s.id: s for s in result.trajectory.trajectory}
    assert steps["s7"].output["value"] == "unset"
    assert [(w.step, w.disposition, w.undone_before) for w in result.report.world] == [
        ("s9", "undone", "s6")]
    # with no replayed call on its state, the reset still happens, after the replay
    late = execute(case, plan.memory, {"s11"}, invalidated={"s8", "s9", "s10"},
                   tools=registry("resettable"))
    assert [(w.disposition, w.undone_before) for w in late.report.world] == [("undone", None)]
    assert "after the replay" in late.report.resets[0].reason


@rule("replay.world.compensable")
def test_compensation_restores_what_a_kept_earlier_call_set():
    case = kv_case("compensable", "read-after")
    reg = registry("compensable")
    world = ToolWorld.after_failed_run(case, reg, removed={"s6"})
    # a kept call before the faulty one had set the colour to blue
    reg.call(world.state, "set_kv", {"key": "colour", "value": "blue"})
    world.state.address_history["colour"] = ["blue", "red"]
    world.state.addresses["colour"] = "red"
    handled = world.prepare("s9", "read_kv")
    assert [e.step for e in handled] == ["s6"] and world.state.addresses == {"colour": "blue"}


@rule("replay.world.idempotent")
@pytest.mark.parametrize("order", ORDERS)
def test_idempotent_effect_is_left_as_it_is_until_the_reissued_call_overwrites_it(order):
    result, steps = run("idempotent", order)
    [w] = result.report.world
    assert w.disposition == "overwritten" and w.undone_before is None
    assert steps[write_action(order)].args == {"key": "colour", "value": "green"}
    if order == "read-before":  # nothing could take it back before the read: said so
        assert steps["s7"].output["value"] == "red"
        detail = {o.id: o.detail for o in result.report.steps}["s6"]
        assert "could not undo: s9 (set_kv, idempotent)" in detail
        assert any(n.startswith("s6 ran on tool state") for n in result.report.notes)
    # not re-issued: nothing overwrites it, and a human must deal with it
    case = kv_case("idempotent", order)
    plan = plan_case(case)
    act = write_action(order)
    kept = execute(case, plan.memory, {"s11"},
                   invalidated={act, f"s{int(act[1:]) - 1}", f"s{int(act[1:]) + 1}"},
                   tools=registry("idempotent"))
    assert [(n.step, NEEDS_HUMAN in n.reason) for n in kept.needs_human] == [(act, True)]


@rule("replay.world.irreversible")
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("effect", ["irreversible", "undeclared"])
def test_irreversible_effect_is_never_undone_and_needs_a_human(effect, order):
    result, steps = run(effect, order)
    act = write_action(order)
    outcome = {o.id: o for o in result.report.steps}[act]
    assert outcome.outcome == "irreversible" and NEEDS_HUMAN in outcome.detail
    assert [n.step for n in result.needs_human] == [act]
    assert result.needs_human == result.report.irreversible_effects
    assert NEEDS_HUMAN in result.needs_human[0].reason
    assert [(w.step, w.disposition) for w in result.report.world] == [(act, "needs_human")]
    assert result.report.resets == []
    # the world really carries it, and the replayed read says what it is
    assert steps[read_obs(order)].output["value"] == "red"
    assert result.model_dump(mode="json")["needs_human"][0]["step"] == act


@rule("replay.world.irreversible")
def test_a_failed_irreversible_call_had_no_effect_to_undo():
    result, _ = run("irreversible", "read-before", write_status="failed")
    assert result.needs_human == []
    detail = {o.id: o.detail for o in result.report.steps}["s9"]
    assert "no effect to undo" in detail


@rule("replay.world.pure")
def test_pure_calls_leave_no_effect_and_are_simply_reissued():
    result, steps = run("pure", "read-before")  # set_kv declared pure: trusted, no entry
    assert result.report.world == [] and result.report.resets == []
    case = kv_case("resettable", "read-before")
    world = ToolWorld.after_failed_run(case, registry("resettable"), removed={"s9"})
    # a pure call that touches no state undoes nothing; one on the state undoes first
    assert world.prepare("sX", "ping") == []
    assert world.ledger[0].disposition == "pending"
    assert [e.step for e in world.prepare("s6", "read_kv")] == ["s9"]


@rule("replay.world.order")
def test_replayed_writes_run_in_order_on_clean_state_and_are_never_undone_later():
    # the faulty write (s6) is replayed; a later call on the same state (s9, here made a
    # write) is removed but not replayed: its compensation runs before s6 is re-issued,
    # so it cannot take back the repaired value.
    data = kv_case("compensable", "read-after").model_dump(mode="json")
    for s in data["trajectory"]:
        if s["id"] in ("s8", "s9"):
            s["tool"], s["args"] = "set_kv", {"key": "colour", "value": "red"}
    case = case_from_data(data)
    plan = plan_case(case)
    result = execute(case, plan.memory, {"s4", "s5", "s6", "s7", "s11"},
                     invalidated={"s3", "s8", "s9", "s10"}, tools=registry("compensable"))
    assert [(w.step, w.disposition, w.undone_before) for w in result.report.world] == [
        ("s6", "undone", "s6"), ("s9", "undone", "s6")]
    assert [n.step for n in result.report.resets] == ["s9", "s6"]  # newest first
    world_after = ToolWorld.after_failed_run(case, registry("compensable"), {"s6", "s9"})
    world_after.prepare("s6", "set_kv")
    world_after.call("set_kv", {"key": "colour", "value": "green"})
    assert world_after.finish() == [] and world_after.state.addresses == {"colour": "green"}


def test_strict_exits_1_only_when_an_effect_needs_a_human(tmp_path, capsys):
    data = load_case(STALE_ADDRESS).model_dump(mode="json")
    for tool in data["tools"]:
        if tool["name"] == "update_shipping_address":
            tool["effect"] = "irreversible"
    path = tmp_path / "case.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["repair", str(path)]) == 0
    out = capsys.readouterr().out
    assert "cannot be undone: needs a human" in out
    assert main(["repair", str(path), "--strict"]) == 1
    assert "--strict" in capsys.readouterr().err
    assert main(["repair", str(STALE_ADDRESS), "--strict"]) == 0


# ---- an invariant over random failed runs (hypothesis) ------------------------------------

CALLS = st.lists(
    st.tuples(st.sampled_from(["update_shipping_address", "hold_seat", "add_to_cart",
                               "get_shipment"]),
              st.sampled_from(["O-1", "O-2"]), st.booleans()),
    min_size=1, max_size=8)


def _args(tool: str, order: str, n: int) -> dict[str, Any]:
    if tool == "update_shipping_address":
        return {"order_id": order, "address": f"{n} Main St"}  # distinct per call
    if tool == "hold_seat":
        return {"flight": f"F{n}", "seat": "1A"}
    if tool == "add_to_cart":
        return {"item_id": f"I-{n}", "size": "M"}
    return {"order_id": order}


@settings(max_examples=150, deadline=None)
@given(CALLS, st.sampled_from(["resettable", "compensable"]))
def test_undoing_every_removed_effect_leaves_the_world_of_the_kept_calls(calls, how):
    """Whatever the order of kept and removed calls, once every removed effect is undone
    the world is the one the kept calls alone would have left."""
    from repair_core.tools import default_registry

    reg = default_registry()
    steps, removed, kept_world = [], set(), reg.new_world()
    for n, (tool, order, remove) in enumerate(calls, start=2):
        args = _args(tool, order, n)
        steps.append(step(f"s{n}", n, "tool_action", "u1:initiate", tool=tool, args=args))
        if remove:
            removed.add(f"s{n}")
        else:
            reg.call(kept_world, tool, args)
    declared = [{"name": "get_shipment", "effect": "pure"}] + [
        {"name": t, "effect": how} for t in ("update_shipping_address", "hold_seat",
                                              "add_to_cart")]
    answer = step("s99", 99, "answer", "u1:initiate")
    case = make_case(turn("u1", 1), *steps, answer, tools=declared)
    world = ToolWorld.after_failed_run(case, reg, removed)
    world.prepare("sX", "get_shipment")  # a replayed read: its state is clean from here
    assert world.state.addresses == kept_world.addresses
    world.finish()
    assert world.state.addresses == kept_world.addresses
    assert world.state.holds == kept_world.holds
    assert sorted(map(str, world.state.cart)) == sorted(map(str, kept_world.cart))
    assert {e.step for e in world.undone} == removed - {
        s["id"] for s in steps if s["tool"] == "get_shipment"}
