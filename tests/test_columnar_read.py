"""The columnar reader and writer: what `dgrr plan --json` and `dgrr validate`
read and write on the columnar path, and what they import at start-up.

The plan rules are compared with the networkx planner in tests/test_columnar_plan.py;
here: reading in batches and in any item order gives the same columns, the short fields
are judged as strictly as the pydantic models, the report text is json's, and the
columnar commands start without pydantic, networkx or the model layer.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import random
import subprocess
import sys
import typing
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core import _carried, case_from_data
from repair_core._io import to_json
from repair_core._synth import synth_case_data
from repair_core.analysis import _carry
from repair_core.case import _case, _columns
from repair_core.case._columns import read_columns
from repair_core.cli import COMMAND_MODULE, COMMAND_MODULES
from repair_core.plan._columnar_plan import columnar_plan_report, report_json
from repair_core.plan._planner import columnar_plan_json

ROOT = Path(__file__).resolve().parent.parent


def synth_raw(steps: int = 400, seed: int = 3) -> bytes:
    return json.dumps(synth_case_data(steps, steps // 5, 3, seed)).encode()


def shuffled_raw(raw: bytes, seed: int, *, memory: bool = True) -> bytes:
    data = json.loads(raw)
    rng = random.Random(seed)
    for key in ("session", "memory", "trajectory") if memory else ("session", "trajectory"):
        rng.shuffle(data[key])
    for item in data["trajectory"] + data["memory"]:
        rng.shuffle(item.get("deps", []))
    return json.dumps(data).encode()


def same_columns(a: _columns.CaseColumns, b: _columns.CaseColumns) -> None:
    for name in a.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            assert x.shape == y.shape and (x == y).all(), name
        else:
            assert x == y, name


# -- the vocabulary and the short fields mirror the pydantic models ------------------------

def test_vocabulary_is_the_models() -> None:
    assert _columns.LABELS == _case.LABELS
    assert _columns.STEP_TYPES == _case.STEP_TYPES
    assert set(typing.get_args(_columns._Label)) == set(_case.LABELS)
    assert set(typing.get_args(typing.get_type_hints(_columns._MemoryWrite)["op"])) == \
        set(_case.WRITE_OPS)
    assert set(typing.get_args(typing.get_type_hints(_columns._Tool)["effect"])) == \
        set(_case.TOOL_EFFECTS)


@pytest.mark.parametrize(("struct", "model"), [
    (_columns._Tool, _case.Tool), (_columns._EvalLabels, _case.EvalLabels),
    (_columns._Turn, _case.Turn), (_columns._Record, _case.MemoryRecord)])
def test_structs_have_the_model_fields(struct: type, model: type) -> None:
    # a field the model gains and the struct lacks would only send cases to the slow
    # checks; a field the struct has and the model lacks would accept what it refuses
    fields = set(struct.__struct_fields__)  # type: ignore[attr-defined]
    assert fields <= set(model.model_fields)  # type: ignore[attr-defined]
    required = {n for n, f in model.model_fields.items()  # type: ignore[attr-defined]
                if f.is_required()}
    assert required <= fields


def test_short_fields_checked_without_the_models() -> None:
    data = json.loads(synth_raw())
    data["eval"] = {"required_facts": ["a"], "fault_types": {"m1": "poisoned"},
                    "required_state": None, "clean_answer": "x"}
    cols = read_columns(json.dumps(data).encode())
    assert cols is not None and cols.tools == {t["name"]: t.get("effect", "irreversible")
                                               for t in data["tools"]}


@pytest.mark.parametrize("change", [
    lambda d: d["tools"].append({"name": "t", "note": "a field beyond the format's"}),
    lambda d: d.update(eval={"required_facts": [], "extra": {"kept": True}}),
])
def test_short_fields_beyond_the_structs_are_judged_by_the_models(change) -> None:
    data = json.loads(synth_raw())
    change(data)
    _case.Case.model_validate(data, strict=True)  # the format allows it...
    assert read_columns(json.dumps(data).encode()) is not None  # ...and so does the reader


@pytest.mark.parametrize("change", [
    lambda d: d.update(case_id=7),
    lambda d: d.update(domain=["x"]),
    lambda d: d.update(faults="m1"),
    lambda d: d["tools"].append({"name": "t", "effect": "sometimes"}),
    lambda d: d.update(eval={"fault_types": {"m1": 3}}),
    lambda d: d.update(eval={"required_facts": "x"}),
    lambda d: d.pop("user_id"),
])
def test_bad_short_fields_are_declined(change) -> None:
    data = json.loads(synth_raw())
    change(data)
    assert read_columns(json.dumps(data).encode()) is None


# -- reading in batches, in any order ------------------------------------------------------

@pytest.mark.parametrize("batch", [1, 7, 64])
def test_batches_read_the_same_columns(monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    for raw in (synth_raw(), shuffled_raw(synth_raw(), 1)):
        whole = read_columns(raw, keep_text=True)
        monkeypatch.setattr(_columns, "_BATCH", batch)
        small = read_columns(raw, keep_text=True)
        monkeypatch.undo()
        assert whole is not None and small is not None
        same_columns(whole, small)
        assert whole.texts and len(whole.texts) == whole.n_nodes


@pytest.mark.parametrize("seed", range(4))
def test_item_order_does_not_change_the_report(monkeypatch: pytest.MonkeyPatch,
                                                seed: int) -> None:
    # premises later in the file than their dependents, across batch boundaries (the
    # store's order is kept: the report lists records in it)
    monkeypatch.setattr(_columns, "_BATCH", 50)
    raw = synth_raw(600, seed)
    cols, cols_shuffled = read_columns(raw), read_columns(shuffled_raw(raw, seed,
                                                                       memory=False))
    assert cols is not None and cols_shuffled is not None
    assert report_json(columnar_plan_report(cols)) == \
        report_json(columnar_plan_report(cols_shuffled))


@pytest.mark.parametrize("change", [
    lambda d: d["trajectory"][-1]["deps"].append({"id": "nowhere", "label": "cite"}),
    lambda d: d["memory"][-1]["deps"].append({"id": "nowhere", "label": "cite"}),
    lambda d: d["trajectory"][-1].update(id=d["trajectory"][0]["id"]),
    lambda d: d["memory"][-1].update(id=d["trajectory"][-1]["id"]),
    lambda d: d["trajectory"][-1].update(turn=d["trajectory"][0]["id"]),
    lambda d: d["trajectory"][-1]["deps"].append({"id": "s1", "label": "cite",
                                                  "inferred": True}),
    lambda d: d["trajectory"][-1].update(id="s\u0000"),
    lambda d: d["trajectory"][-1].update(seq=d["session"][0]["seq"]),
    lambda d: d["trajectory"][-1].update(id="s" * 65),
    # premises that name no node: longer than any id, and not ASCII
    lambda d: d["trajectory"][-1]["deps"].append({"id": "s" * 65, "label": "cite"}),
    lambda d: d["trajectory"][-1]["deps"].append({"id": "s1\u00e9", "label": "cite"}),
    # beyond numpy's int64 (valid for the exact loader, which plans it)
    lambda d: d["trajectory"][-1].update(seq=2**64),
    lambda d: d["session"][-1].update(seq=-2**63 - 1),
    lambda d: d["memory"][-1].update(created_seq=2**64),
])
def test_invalid_items_are_declined_in_any_batch(monkeypatch: pytest.MonkeyPatch,
                                                 change) -> None:
    monkeypatch.setattr(_columns, "_BATCH", 30)
    data = json.loads(synth_raw())
    change(data)
    assert read_columns(json.dumps(data).encode()) is None


def test_a_mapped_file_reads_as_its_bytes(tmp_path: Path) -> None:
    # `dgrr plan` and `dgrr validate` map a large case instead of copying it
    import mmap

    from repair_core._errors import CaseError
    from repair_core._io import map_input, read_input

    path = tmp_path / "case.json"
    raw = synth_raw(300, 4)
    path.write_bytes(raw)
    mapped = map_input(path)
    assert isinstance(mapped, mmap.mmap)
    one, two = read_columns(raw, keep_text=True), read_columns(mapped, keep_text=True)
    assert one is not None and two is not None
    same_columns(one, two)
    # an escaped NUL is found in a mapping too (a mapping's `in` finds single bytes only)
    path.write_bytes(raw.replace(b'"text": "', b'"text": "\\u0000', 1))
    assert read_columns(read_input(path)) is None and read_columns(map_input(path)) is None
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert map_input(empty) == b""  # an empty file cannot be mapped: its bytes
    for bad in (tmp_path / "missing.json", tmp_path):
        with pytest.raises(CaseError) as mapped_error:
            map_input(bad)
        with pytest.raises(CaseError) as read_error:
            read_input(bad)
        assert str(mapped_error.value) == str(read_error.value)


# -- reading in two processes ---------------------------------------------------------------

@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> list:
    """Read with a second process whatever the size (xdist's workers run threads, which
    `_may_fork` refuses); the list collects the pids of the second processes started."""
    monkeypatch.setattr(_columns, "_PARALLEL_MIN_STEPS", 1)
    monkeypatch.setattr(_columns, "_may_fork", lambda: True)
    monkeypatch.setattr(_columns, "_CHUNK", 50)  # several claims from either end
    started: list = []
    real = _columns._fork_part

    def counted(*args: typing.Any) -> typing.Any:
        child = real(*args)
        started.append(child.pid)
        return child

    monkeypatch.setattr(_columns, "_fork_part", counted)
    return started


def reaped(pids: list[int]) -> bool:
    """Every second process has been waited for (none left as a zombie)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return True


@pytest.mark.parametrize("batch", [7, 10_000])
@pytest.mark.parametrize("shuffle", [False, True])
def test_two_processes_read_the_same_columns(monkeypatch: pytest.MonkeyPatch, forking: list,
                                             batch: int, shuffle: bool) -> None:
    raw = synth_raw(600, 5)
    if shuffle:  # premises on both sides of the split, later in the file than dependents
        raw = shuffled_raw(raw, 5, memory=False)
    monkeypatch.setattr(_columns, "_BATCH", batch)
    one = read_columns(raw, keep_text=True)
    assert not forking
    two = read_columns(raw, keep_text=True, parallel=True)
    assert one is not None and two is not None
    assert len(forking) == 1 and forking[0] > 0 and reaped(forking)
    same_columns(one, two)
    assert one.carry_hits  # the faults' text search, split between the processes
    assert report_json(columnar_plan_report(one)) == report_json(columnar_plan_report(two))


@pytest.mark.parametrize("batch", [7, 10_000])
def test_tools_and_claim_keys_are_the_models_in_one_process_or_two(
        monkeypatch: pytest.MonkeyPatch, forking: list, batch: int) -> None:
    data = json.loads(synth_raw(600, 5))
    claims = [s for s in data["trajectory"] if s["type"] == "claim"]
    plans = [s for s in data["trajectory"] if s["type"] == "plan"]
    for claim in claims[::3]:  # a claim that names no slot has no key column
        claim.pop("key", None)
        claim.pop("value", None)
    for plan in plans[::4]:  # a plan without a tool still has one: ""
        plan.pop("tool", None)
    raw = json.dumps(data).encode()
    case = case_from_data(json.loads(raw))
    n_t = len(case.session)
    tools = [getattr(s, "tool", None) if s.type in ("plan", "tool_action") else None
             for s in case.trajectory]
    keys = {n_t + i: s.key for i, s in enumerate(case.trajectory)
            if s.type == "claim" and s.key is not None}
    assert "" in tools and len(keys) < len(claims)
    monkeypatch.setattr(_columns, "_BATCH", batch)
    for parallel in (False, True):
        cols = read_columns(raw, parallel=parallel)
        assert cols is not None
        assert cols.step_tool == tools and cols.claim_key == keys
        assert list(cols.claim_key) == sorted(keys)
    assert len(forking) == 1 and reaped(forking)


def test_two_processes_find_carriers_on_both_sides_and_in_the_records(forking: list) -> None:
    # the first process searches its observations and the records, the second its own
    # observations: a fault's text copied into one observation of each part and into a
    # record is found in all three, in the order one process finds them
    data = json.loads(synth_raw(600, 5))
    fault_text = next(m["text"] for m in data["memory"] if m["id"] == data["faults"][0])
    observations = [s for s in data["trajectory"] if s["type"] == "tool_observation"]
    for item in (observations[1], observations[-2],
                 next(m for m in data["memory"] if m["id"] not in data["faults"])):
        item["text"] = f"{item['text']}; {fault_text}"
    raw = json.dumps(data).encode()
    one = read_columns(raw)
    two = read_columns(raw, parallel=True)
    assert one is not None and two is not None and len(forking) == 1
    same_columns(one, two)
    first_record = one.n_turns + one.n_steps
    split = one.n_turns + _columns._CHUNK
    found = [node for node, _, _ in one.carry_hits]
    assert any(node < split for node in found)
    assert any(split <= node < first_record for node in found)
    assert any(node >= first_record for node in found)


def test_the_reader_and_the_analysis_take_a_nodes_text_by_one_rule() -> None:
    # the columnar reader searches observations while it reads, the analysis searches
    # the case: both by one definition of a node's text (its text, and an observation's
    # string output the text does not already hold), owned by `_carried`, below both
    assert _columns.text_of is _carried.text_of and _carry.text_of is _carried.text_of
    data = json.loads(synth_raw(200, 5))
    fault_text = next(m["text"] for m in data["memory"] if m["id"] == data["faults"][0])
    observation = next(s for s in data["trajectory"] if s["type"] == "tool_observation")
    observation["output"] = f"Result: {fault_text}"
    columns = read_columns(json.dumps(data).encode())
    assert columns is not None
    by_reader = {columns.ids[node] for node, _, _ in columns.carry_hits}
    by_analysis = {node for node, _ in _carry.carriers(case_from_data(data))}
    assert observation["id"] in by_reader
    assert by_reader - set(data["faults"]) == by_analysis - set(data["faults"])


@pytest.mark.parametrize("kind", ["tool_observation", "turn"])
def test_two_processes_search_for_any_fault(forking: list, kind: str) -> None:
    # a faulty observation is known only once the steps are read: searched after them
    data = json.loads(synth_raw(600, 6))
    items = data["session"] if kind == "turn" else \
        [s for s in data["trajectory"] if s["type"] == kind]
    faults = [data["memory"][0]["id"], items[len(items) // 2]["id"]]
    raw = json.dumps(data).encode()
    one = read_columns(raw, faults_override=faults)
    two = read_columns(raw, faults_override=faults, parallel=True)
    assert one is not None and two is not None and len(forking) == 1
    same_columns(one, two)
    assert len(one.faults) == 2


@pytest.mark.parametrize("change", [
    lambda d: d["trajectory"][-1]["deps"].append({"id": "nowhere", "label": "cite"}),
    lambda d: d["trajectory"][0]["deps"].append({"id": "nowhere", "label": "cite"}),
    lambda d: d["trajectory"][-1].update(returned=["nowhere"], type="memory_read"),
    lambda d: d["trajectory"][-1].update(id=d["trajectory"][0]["id"]),
    # a repeated id within the second process's part; an unknown premise of a record
    lambda d: d["trajectory"][-1].update(id=d["trajectory"][-2]["id"]),
    lambda d: d["memory"][-1]["deps"].append({"id": "nowhere", "label": "support"}),
    lambda d: d["trajectory"][-1].update(turn="nowhere"),
    lambda d: d["trajectory"][-1].update(seq="1"),
    lambda d: d["trajectory"][-1].update(id="s" * 65),
    lambda d: d["memory"][-1].update(id=d["trajectory"][-1]["id"]),
    lambda d: d["memory"][-1].update(status="gone"),
    lambda d: d["trajectory"][-1].update(seq=2**64),
])
def test_two_processes_decline_what_one_declines(forking: list, change) -> None:
    data = json.loads(synth_raw(300, 2))
    change(data)
    raw = json.dumps(data).encode()
    assert read_columns(raw) is None
    assert read_columns(raw, parallel=True) is None
    assert len(forking) == 1 and reaped(forking)


@pytest.mark.parametrize(("kind", "name"), [
    ("memory_read", lambda d: d["trajectory"][0]["id"]),  # a step's id
    ("memory_write", lambda d: d["session"][0]["id"]),  # a turn's
    ("memory_read", lambda d: "m" * 65),  # longer than any node id
    ("memory_write", lambda d: "m" * 200_000),
])
@pytest.mark.parametrize("which", [0, -1])  # in the first process's part, the second's
def test_a_read_or_write_naming_no_record_is_declined(forking: list, kind: str, name,
                                                      which: int) -> None:
    # the ids reads return and writes target are looked up with the premises, at the end
    data = json.loads(synth_raw(600, 5))
    assert read_columns(json.dumps(data).encode(), parallel=True) is not None
    step = [s for s in data["trajectory"] if s["type"] == kind][which]
    field = "returned" if kind == "memory_read" else "target"
    step[field] = [*step[field], name(data)]
    with pytest.raises(ValueError, match="unknown memory record"):
        case_from_data(data)
    raw = json.dumps(data).encode()
    assert read_columns(raw) is None
    assert read_columns(raw, parallel=True) is None
    assert len(forking) == 2 and reaped(forking)


@pytest.mark.parametrize("escaped", [False, True])
def test_the_second_process_finds_a_faulty_record_by_its_id(
        forking: list, monkeypatch: pytest.MonkeyPatch, escaped: bool) -> None:
    # the second process looks for the fault's id as JSON in the records' bytes: a
    # record that holds it as a key is passed over, and an id written with an escape
    # is not found there, so the first process searches the observations instead
    data = json.loads(synth_raw(600, 6))
    record = data["memory"][-1]
    data["memory"][0]["value"] = {record["id"]: "a decoy"}
    observation = [s for s in data["trajectory"] if s["type"] == "tool_observation"][-1]
    observation["output"] = f"Result: {record['text']}"
    raw = json.dumps(data).encode()
    if escaped:
        written = b'"id": "%s"' % record["id"].encode()
        assert raw.count(written) == 1
        raw = raw.replace(written, b'"id": "\\u%04x%s"' % (ord(record["id"][0]),
                                                            record["id"][1:].encode()))
    searched_by_child = []
    real = _columns._Reader._fault_content

    def seen(self: typing.Any, *args: typing.Any) -> typing.Any:
        searched_by_child.append(self.child_hits is not None)
        return real(self, *args)

    monkeypatch.setattr(_columns._Reader, "_fault_content", seen)
    one = read_columns(raw, faults_override=[record["id"]])
    two = read_columns(raw, faults_override=[record["id"]], parallel=True)
    assert one is not None and two is not None and len(forking) == 1
    same_columns(one, two)
    assert observation["id"] in {one.ids[node] for node, _, _ in one.carry_hits}
    assert searched_by_child == [False, not escaped]


def test_the_folding_tables_are_built_before_the_second_process_starts(
        forking: list, monkeypatch: pytest.MonkeyPatch) -> None:
    # both processes search texts for the faults': built after the fork, each built its own
    from repair_core import _canonical, _spelled

    _canonical._tables.cache_clear()
    _spelled._digit_table.cache_clear()
    built = []
    real = _columns._fork_part

    def fork(*args: typing.Any) -> typing.Any:
        built.append((_canonical._tables.cache_info().currsize,
                      _spelled._digit_table.cache_info().currsize))
        return real(*args)

    monkeypatch.setattr(_columns, "_fork_part", fork)
    assert read_columns(synth_raw(600, 6), parallel=True) is not None
    assert built == [(1, 1)] and len(forking) == 1


def test_an_id_in_both_processes_parts_is_declined(forking: list) -> None:
    # a step of the second part, which nothing refers to, takes the id of one of the first
    data = json.loads(synth_raw(600, 5))
    steps = data["trajectory"]
    named = {d["id"] for item in [*steps, *data["memory"]] for d in item["deps"]}
    named |= {i for s in steps for i in s.get("returned", []) + s.get("target", [])}
    split = len(steps) - _columns._CHUNK
    alone = next(s for s in reversed(steps[split:]) if s["id"] not in named)
    alone["id"] = steps[1]["id"]
    raw = json.dumps(data).encode()
    assert read_columns(raw) is None
    assert read_columns(raw, parallel=True) is None
    assert len(forking) == 1 and reaped(forking)


@pytest.mark.parametrize("which", [0, -1])
def test_faults_among_the_second_process_steps_are_found(forking: list, which: int) -> None:
    # the faults are looked up once both processes' ids are known
    data = json.loads(synth_raw(600, 6))
    observations = [s for s in data["trajectory"] if s["type"] == "tool_observation"]
    faults = [data["memory"][0]["id"], observations[which]["id"]]
    raw = json.dumps(data).encode()
    one = read_columns(raw, faults_override=faults)
    two = read_columns(raw, faults_override=faults, parallel=True)
    assert one is not None and two is not None and len(forking) == 1
    same_columns(one, two)
    assert one.ids[one.faults[1]] == faults[1]


def read_as_by_one_process(raw: bytes, forking: list) -> None:
    """`raw` read with a second process (which the test makes fail) gives the columns
    one process reads, and the second process is reaped."""
    two = read_columns(raw, parallel=True)
    assert len(forking) == 1 and reaped(forking)
    one = read_columns(raw)
    assert one is not None and two is not None
    same_columns(one, two)


def test_a_second_process_that_dies_is_replaced(monkeypatch: pytest.MonkeyPatch,
                                                 forking: list) -> None:
    parent = os.getpid()
    real = _columns._Reader._step_part

    def dying(self: typing.Any, *args: typing.Any) -> typing.Any:
        if os.getpid() != parent:
            os._exit(9)  # as if killed or out of memory
        return real(self, *args)

    monkeypatch.setattr(_columns._Reader, "_step_part", dying)
    read_as_by_one_process(synth_raw(300, 4), forking)


@pytest.fixture
def meetings(monkeypatch: pytest.MonkeyPatch) -> list:
    """The `_Meeting`s made, to read where the two processes met."""
    made: list = []
    real = _columns._Meeting.__init__

    def init(self: typing.Any, n: int) -> None:
        real(self, n)
        made.append(self)

    monkeypatch.setattr(_columns._Meeting, "__init__", init)
    return made


def met_at(meeting: typing.Any) -> int:
    import struct

    front, back = struct.unpack_from("qq", meeting.ends, 0)
    assert front == back  # every item claimed by one side
    return int(front)


@pytest.mark.parametrize("slow", ["first", "second"])
def test_the_processes_meet_where_the_faster_has_read_more(
        monkeypatch: pytest.MonkeyPatch, forking: list, meetings: list, slow: str) -> None:
    # no fixed share: a process held up on its first chunk finds the other has claimed
    # everything else. The slow side waits for the ends to meet rather than sleeping a
    # fixed time, so a second process slow to start on a loaded machine cannot flip it;
    # with a fixed share the ends never meet and the wait runs out.
    import struct
    import time

    parent = os.getpid()
    real = _columns._Reader._step_part

    def slowed(self: typing.Any, *args: typing.Any) -> typing.Any:
        if (os.getpid() == parent) == (slow == "first"):
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                front, back = struct.unpack_from("qq", meetings[0].ends, 0)
                if front >= back:
                    break
                time.sleep(0.01)
        return real(self, *args)

    monkeypatch.setattr(_columns._Reader, "_step_part", slowed)
    raw = synth_raw(1000, 4)
    two = read_columns(raw, keep_text=True, parallel=True)
    assert len(forking) == 1 and reaped(forking) and len(meetings) == 1
    monkeypatch.setattr(_columns._Reader, "_step_part", real)
    one = read_columns(raw, keep_text=True)
    assert one is not None and two is not None
    same_columns(one, two)
    # the slow side read only the chunk that was its own from the start
    assert met_at(meetings[0]) == (50 if slow == "first" else 950)


@pytest.mark.parametrize("after", [0, 3])
def test_a_second_process_that_dies_holding_the_token_is_replaced(
        monkeypatch: pytest.MonkeyPatch, forking: list, after: int) -> None:
    # killed between taking the token and giving it back: the first process stops
    # waiting for it once the second has gone, and reads the rest itself
    parent = os.getpid()
    real = _columns._Meeting._acquire
    taken: list = []

    def dying(self: typing.Any, watch: typing.Any) -> bool:
        got = real(self, watch)
        if os.getpid() != parent:
            taken.append(1)
            if len(taken) > after:
                os._exit(9)
        return got

    monkeypatch.setattr(_columns._Meeting, "_acquire", dying)
    read_as_by_one_process(synth_raw(1000, 4), forking)


def test_a_second_process_waiting_for_a_first_that_has_gone_ends() -> None:
    # the first process killed while holding the token: the second stops waiting
    code = """if True:
        import os, sys
        from repair_core.case import _columns
        meeting = _columns._Meeting(1000)
        os.read(meeting.token_r, 1)  # taken, never given back
        pid = os.fork()
        if pid == 0:
            meeting.claim(False)  # its first chunk: no token needed
            meeting.claim(False)  # waits for the token
            os._exit(0)
        print(pid, flush=True)
        os._exit(0)
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)
    pid = int(out.stdout)
    import time

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return
        if state == "Z":  # ended, not yet reaped by its new parent
            return
        time.sleep(0.1)
    raise AssertionError(f"process {pid} still waiting")


def test_interrupted_while_waiting_stops_the_second_process(monkeypatch: pytest.MonkeyPatch,
                                                             forking: list) -> None:
    def interrupted(self: typing.Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(_columns._Child, "result", interrupted)
    with pytest.raises(KeyboardInterrupt):
        read_columns(synth_raw(300, 4), parallel=True)
    assert len(forking) == 1 and reaped(forking)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
def test_threaded_processes_read_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # a thread running (the dashboard's server, tqdm's monitor): no fork, whatever the CPUs
    import threading

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert _columns._may_fork()
    monkeypatch.undo()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not _columns._may_fork()
    finally:
        stop.set()
        thread.join()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert not _columns._may_fork()  # one CPU: nothing to gain


# -- the report text -----------------------------------------------------------------------

text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({
    "case_id": text, "seeds": st.dictionaries(text, text, max_size=3),
    "affected": st.lists(text, max_size=4), "memory": st.dictionaries(text, text, max_size=4),
    "reasons": st.dictionaries(text, text, max_size=4)}))
def test_report_json_is_json_dumps(report: dict) -> None:
    assert report_json(report) == to_json(report)


def test_report_written_as_bytes_or_text_is_the_same(tmp_path: Path) -> None:
    path = tmp_path / "case.json"
    path.write_bytes(synth_raw(1500, 4))
    cols = read_columns(path.read_bytes())
    assert cols is not None
    expected = report_json(columnar_plan_report(cols))
    text_out = io.StringIO()
    assert columnar_plan_json(path, text_out)
    assert text_out.getvalue() == expected
    byte_out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n")
    assert columnar_plan_json(path, byte_out)
    assert byte_out.buffer.getvalue() == expected.encode()  # type: ignore[attr-defined]
    cli = subprocess.run([sys.executable, "-m", "repair_core", "plan", "--json", "--planner",
                          "columnar", "--objective", "answer", str(path)], check=True,
                         capture_output=True).stdout
    assert cli == expected.encode()


# -- start-up ------------------------------------------------------------------------------

HEAVY = ("pydantic", "networkx", "litellm", "pandas", "scipy")


def imported_after(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join("
                          f"m for m in {HEAVY!r} if m in sys.modules))"],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return out.split()


@pytest.mark.parametrize("argv", [["validate", "--planner", "columnar"],
                                  ["plan", "--json", "--planner", "columnar"]])
def test_columnar_commands_start_light(tmp_path: Path, argv: list[str]) -> None:
    path = tmp_path / "case.json"
    path.write_bytes(synth_raw())
    code = ("import contextlib, io\nfrom repair_core.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main({[*argv, str(path)]!r}) == 0")
    assert imported_after(code) == []


def test_library_imports_lazily() -> None:
    assert imported_after("import repair_core") == []
    import repair_core

    for name in repair_core.__all__:
        assert getattr(repair_core, name) is not None
    assert set(repair_core.__all__) <= set(dir(repair_core))
    assert repair_core.plan_case is importlib.import_module("repair_core.plan._plan").plan_case
    with pytest.raises(AttributeError):
        repair_core.no_such_name  # noqa: B018


def test_command_modules_are_known() -> None:
    registered = {}
    for module in COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"repair_core.commands.{module}").register(sub)
        registered.update(dict.fromkeys(sub.choices, module))
    assert registered == COMMAND_MODULE


@given(st.lists(st.integers(-5, 5), max_size=30))
def test_distinct_is_np_unique(values: list[int]) -> None:
    a = np.array(values, np.int64)
    got = _columns._distinct(a)
    assert got.dtype == a.dtype and got.tolist() == np.unique(a).tolist()


_IDS = st.text(st.sampled_from("ab\u00e9\u4e2d1"), min_size=1, max_size=12)


@given(st.lists(_IDS, max_size=40), st.lists(_IDS, max_size=40), st.booleans())
def test_ids_are_joined_as_a_dictionary_looks_them_up(ids: list[str], wanted: list[str],
                                                      collide: bool) -> None:
    # the premises are joined to the nodes by their hashes (`_nodes_of`), ASCII ids as
    # bytes and others as code points; with every hash made the same, one by one
    join = _columns._nodes_of
    if collide:
        join = _with_hashes(lambda keys: np.zeros(len(keys), np.uint64))
    batches = [wanted[i:i + 7] for i in range(0, len(wanted), 7)]
    joined = _columns._joined_ids([*map(_columns._id_array, batches)])
    if len(set(ids)) < len(ids):
        with pytest.raises(_columns._Declined):
            join(ids, joined)
        return
    index = {key: node for node, key in enumerate(ids)}
    assert join(ids, joined).tolist() == [index.get(key, -1) for key in wanted]


def _with_hashes(hashes: typing.Callable[[np.ndarray], np.ndarray]
                 ) -> typing.Callable[[list[str], np.ndarray], np.ndarray]:
    def join(ids: list[str], wanted: np.ndarray) -> np.ndarray:
        real, _columns._hashes = _columns._hashes, hashes
        try:
            return _columns._nodes_of(ids, wanted)
        finally:
            _columns._hashes = real
    return join
