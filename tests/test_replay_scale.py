"""Replay at scale changes no outcome: the indexed retrieval, the store kept up to date
as it changes and the faster JSON writer give what the plain forms give.

The plain forms are the definitions: the networkx planner's plan, :class:`LexicalRetriever`
ranking the list of active records it is handed, :func:`store_view` filtering that list,
``json.dumps`` with an indent. A subclass of the retriever takes the executor's list path,
so whole repairs are compared both ways (the fast one from the columnar planner's report,
as `dgrr repair` plans a large case), on the committed cases and on synthetic cases of
several sizes. The repaired trajectory checks only what the replay wrote (`repaired_case`);
the token count and the prompt's JSON are compared with the regular expression and
``json.dumps`` they stand for."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cpu_time import grows_linearly
from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core import case_from_data, load_case, parse_case, plan_case
from repair_core._errors import CaseError, DgrrError
from repair_core._io import json_bytes, object_json_pieces, to_json, write_output_set
from repair_core._synth import synth_case_data
from repair_core.agent import LexicalIndex, LexicalRetriever
from repair_core.case._case import MemoryRecord, MemoryWrite
from repair_core.case._columns import CaseColumns, read_columns
from repair_core.case._load import _check_references, repaired_case, with_faults
from repair_core.cli import main
from repair_core.commands.repair import RESULT_FILES
from repair_core.model import count_tokens
from repair_core.model._contracts import STAGES, render_prompt
from repair_core.plan._planner import columnar_plan_report_of
from repair_core.replay import repair
from repair_core.replay._bounds import MEMORY_ITEMS, store_view
from repair_core.replay._memory import RepairedMemory
from repair_core.replay._models import StoreChanges

ROOT = Path(__file__).resolve().parent.parent


class ListRetriever(LexicalRetriever):
    """The same ranking, handed the whole list of active records on every read."""


WORDS = ["seat", "seats", "aisle", "window", "lin", "pays", "card", "booking", "home", "sfo"]
texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=4).map(" ".join)
records = st.lists(st.tuples(texts, st.sampled_from(["active", "superseded", "deleted"]),
                             st.sampled_from(["lin", "ana"]),
                             st.sampled_from([None, "seat", "home_airport"])),
                   max_size=25)


@settings(max_examples=300, deadline=None)
@given(records, st.lists(st.tuples(st.integers(0, 30), st.booleans()), max_size=30),
       texts, st.integers(1, 6))
def test_index_ranks_as_the_retriever(recs, changes, query, k):
    store = [MemoryRecord(id=f"m{i}", user_id=u, text=t, key=key, status=s)
             for i, (t, s, u, key) in enumerate(recs)]
    index = LexicalIndex(store)
    for at, active in changes:  # records leave and come back, in any order
        if store:
            rec = store[at % len(store)]
            rec.status = "active" if active else "superseded"
            index.put(rec) if active else index.discard(rec.id)
    for user in ("lin", "ana"):
        assert index.search(query, user, k) == LexicalRetriever(k).retrieve(store, query, user)


def _memory(case):
    return RepairedMemory(case, set(case.faults), StoreChanges(), [],
                          taken={m.id for m in case.memory})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "retire"]), st.integers(0, 40),
                          st.sampled_from(["seat", "meal", "home_airport"])), max_size=40),
       st.sampled_from([None, "seat", "meal"]), st.lists(st.integers(0, 40), max_size=3))
def test_store_view_from_the_key_index_is_the_filtered_list(ops, slot, targets):
    case = load_case(ROOT / "sample_traces" / "figure1-travel.json")
    memory = _memory(case)
    write = next(s for s in case.trajectory if isinstance(s, MemoryWrite))
    for n, (op, at, key) in enumerate(ops):
        ids = list(memory.records)
        if op == "add":
            memory.add(write, {"text": f"note {n}", "key": key, "value": n})
        else:
            memory.retire(write, ids[at % len(ids)], [])
    ids = list(memory.records)
    step = write.model_copy(update={"target": [ids[t % len(ids)] for t in targets]})
    evidence = [{"kind": "observation", "tool": "search_flights"}]
    plain = store_view(memory.active_records(), case.user_id, step, slot, evidence)
    assert store_view(memory, case.user_id, step, slot, evidence) == plain
    assert len(plain) <= MEMORY_ITEMS


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, 40), st.sampled_from(["delete", "quarantine", "restore"]),
                       max_size=8), texts, st.integers(1, 6))
def test_store_edits_keep_the_active_records_and_the_index_as_a_rebuild(edits, query, k):
    case = load_case(ROOT / "sample_traces" / "shop-summary-drift.json")  # two superseded
    memory = _memory(case)
    ids = [m.id for m in case.memory]
    memory.apply_edits({ids[i % len(ids)]: action for i, action in edits.items()})
    active = [r for rid, r in memory.records.items() if memory.active(rid)]
    assert memory.active_records() == active  # in store order
    assert memory.search(query, case.user_id, k) == LexicalRetriever(k).retrieve(
        active, query, case.user_id)
    for rec in active:  # every active record is found by its own words, restored ones too
        assert rec.id in memory.search(rec.text, case.user_id, len(active))
    for key in {r.key for r in active if r.key}:
        assert memory.under(case.user_id, [], [key], 3) == [r for r in active
                                                            if r.key == key][-3:]


def _both_ways(case, raw=None):
    """The repair as `dgrr repair` runs it (the columnar planner's report when it plans
    the case's file `raw`, reads from the index) and by the definitions (the networkx
    plan, the list path)."""
    plan = plan_case(case, objective="both")
    report = None if raw is None else columnar_plan_report_of(raw, objective="both")
    fast = repair(case, plan if report is None else report).model_dump(mode="json")
    plain = repair(case, plan, retriever=ListRetriever()).model_dump(mode="json")
    return fast, plain


COMMITTED = sorted(p for p in (ROOT / "sample_traces").rglob("*.json")
                   if not p.name.endswith(".plan.json") and "manifest" not in p.name)


@pytest.mark.parametrize("path", COMMITTED[::6], ids=lambda p: p.stem)  # every suite
def test_committed_cases_repair_alike_either_way(path):
    raw = path.read_bytes()
    fast, plain = _both_ways(parse_case(raw), raw)
    assert fast == plain


@pytest.mark.parametrize("steps", [300, 2_000, 6_000])
def test_synthetic_cases_repair_alike_either_way(steps):
    raw = json.dumps(synth_case_data(steps, steps // 5, 3, seed=7)).encode()
    assert columnar_plan_report_of(raw, objective="both") is not None
    fast, plain = _both_ways(parse_case(raw), raw)
    assert fast == plain
    assert fast["report"]["steps"] and fast["store"]["active"]


def test_a_plan_report_without_operations_is_refused():
    case = load_case(ROOT / "sample_traces" / "figure1-travel.json")
    report = plan_case(case).report().model_dump(mode="json")
    with pytest.raises(DgrrError, match="no ops"):
        repair(case, report)
    with pytest.raises(DgrrError, match="plan is for case"):
        repair(case, {**report, "case_id": "another"})


CLI_RUNS = [["--objective", "both"], ["--objective", "store"], ["--objective", "answer"],
            ["--faults", "m3"], ["--faults", "m6,m3"], ["--suspects", "flag"],
            ["--not-suspect", "m5,s4"], ["--objective", "store", "--suspects", "off"]]


@pytest.mark.parametrize("options", CLI_RUNS, ids=" ".join)
def test_cli_repair_writes_the_same_files_from_either_planner(tmp_path, options, monkeypatch):
    case = ROOT / "sample_traces" / "figure1-travel.json"
    outs = {}
    for planner in ("columnar", "networkx"):
        out = tmp_path / planner
        with monkeypatch.context() as m:
            if planner == "columnar":  # the columnar planner plans it, not a fallback
                m.setattr("repair_core.commands.repair.plan_case", None)
            assert main(["repair", str(case), "--planner", planner, "--out", str(out),
                         *options]) == 0
        outs[planner] = {f.name: f.read_bytes() for f in sorted(out.iterdir())}
    assert outs["columnar"] == outs["networkx"]
    assert set(outs["columnar"]) == set(RESULT_FILES)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(json_values, st.integers(1, 4))
def test_to_json_is_json_dumps(value, indent):
    assert to_json(value, indent) == json.dumps(value, indent=indent, ensure_ascii=False) + "\n"


@settings(max_examples=300, deadline=None)
@given(json_values, st.integers(1, 4))
def test_json_bytes_is_to_json_encoded(value, indent):
    assert json_bytes(value, indent) + b"\n" == to_json(value, indent).encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(), json_values, max_size=6),
       st.dictionaries(st.text(), json_values, max_size=4), st.text())
def test_object_json_from_member_texts_is_to_json(obj, inner, key):
    members: dict = {k: json_bytes(v) for k, v in obj.items()}
    members[key] = object_json_pieces({k: json_bytes(v) for k, v in inner.items()})
    whole = {**obj, key: inner}
    assert b"".join(object_json_pieces(members)) + b"\n" == to_json(whole).encode("utf-8")


def _parts(case):
    """The case's steps in seq order and its records, as the repair hands them over."""
    return list(case.steps_in_order()), list(case.memory)


def test_repaired_case_of_own_objects_and_their_data_is_the_loaded_case():
    case = load_case(ROOT / "sample_traces" / "figure1-travel.json")
    steps, records = _parts(case)
    as_data = [s.model_dump(mode="json") for s in steps[::2]]
    steps[::2] = as_data  # half of them new data: validated into the same models
    records[0] = records[0].model_dump(mode="json")
    got = repaired_case(case, steps, records)
    doc = case.model_dump(mode="json", exclude={"eval"})
    doc["trajectory"] = [s.model_dump(mode="json") for s in case.steps_in_order()]
    assert got.model_dump(mode="json") == case_from_data(doc).model_dump(mode="json")
    assert got.eval is None


BAD_NEW_DATA = [
    ("step", {"deps": [{"id": "nowhere", "label": "cite"}]}, "deps[0]: unknown id 'nowhere'"),
    ("step", {"text": 5}, ".text: input should be a valid string"),
    ("step", {"id": "m1"}, "duplicate id 'm1'"),
    ("step", {"id": "u1"}, "duplicate id 'u1'"),
    ("step", {"seq": 1}, "duplicate seq 1 (also 'u1')"),
    ("step", {"seq": 2}, "duplicate seq 2 (also 's1')"),
    ("step", {"text": "x\ud800"}, "lone surrogate"),
    ("record", {"id": "s1"}, "duplicate id 's1'"),
    ("record", {"value": float("nan")}, "not a finite number"),
    ("record", {"deps": [{"id": "m1", "label": "cite"}, {"id": "ghost", "label": "cite"}]},
     "memory[0].deps[1]: unknown id 'ghost'"),
]


@pytest.mark.parametrize("what,change,problem", BAD_NEW_DATA, ids=[p for _, _, p in BAD_NEW_DATA])
def test_repaired_case_checks_what_the_replay_wrote(what, change, problem):
    case = load_case(ROOT / "sample_traces" / "figure1-travel.json")
    steps, records = _parts(case)
    if what == "step":
        at = len(steps) - 1
        steps[at] = {**steps[at].model_dump(mode="json"), **change}
    else:
        records[0] = {**records[0].model_dump(mode="json"), **change}
    with pytest.raises(CaseError) as exc:
        repaired_case(case, steps, records, source="repaired")
    text = str(exc.value).lower()
    assert problem.lower() in text, text
    if what == "step" and "surrogate" not in problem:
        assert f"trajectory[{at}]" in text


def _every_reference_problem(case, steps, records):
    """What checking every item's references of the repaired case finds: the check
    `repaired_case` ran over the whole case before it asked only about the new items."""
    steps = [s if isinstance(s, dict) else {"id": s.id, "seq": s.seq, "type": s.type}
             for s in steps]
    records = [r if isinstance(r, dict) else {"id": r.id} for r in records]
    return _check_references({"session": [{"id": t.id, "seq": t.seq} for t in case.session],
                              "trajectory": steps, "memory": records,
                              "faults": case.faults}, cycles=False)


NEW_REFERENCES = [
    ("step", {"turn": "u99"}), ("step", {"deps": [{"id": "s1", "label": "cite"},
                                                 {"id": "ghost", "label": "cite"}]}),
    ("step", {"type": "memory_read", "returned": ["m1", "m404"], "query": "q"}),
    ("step", {"type": "memory_write", "target": ["m404"], "op": "delete"}),
    ("step", {"deps": [{"id": "SELF", "label": "cite"}]}),
    ("step", {"seq": 0}), ("step", {"id": "u1"}), ("record", {"id": "s2"}),
    ("record", {"deps": [{"id": "SELF", "label": "cite"}, {"id": "nope", "label": "cite"}]}),
    ("answer", {"type": "claim", "key": "k", "value": None}),
    ("fault", {"type": "claim", "key": "k", "value": None}),
]


@pytest.mark.parametrize("what,change", NEW_REFERENCES)
def test_repaired_case_words_a_bad_new_reference_as_the_whole_check_does(what, change):
    """Only the new items' references are checked; each problem the whole check finds is
    still found, in its words and order."""
    case = load_case(ROOT / "sample_traces" / "figure1-travel.json")
    if what == "fault":  # a tool observation diagnosed too, replaced by a claim
        case = with_faults(case, [*case.faults, "s7"])
    steps, records = _parts(case)
    if what == "record":
        at, item = 0, records[0].model_dump(mode="json")
    else:
        at = next(i for i, s in enumerate(steps) if s.id == {"answer": "s10", "fault": "s7"}
                  .get(what, "s4"))
        item = steps[at].model_dump(mode="json")
    changed = {**item, **{k: [{**d, "id": item["id"]} if d["id"] == "SELF" else d for d in v]
                          if k == "deps" else v for k, v in change.items()}}
    if what == "record":
        records[at] = changed
    else:
        steps[at] = changed
    expected = _every_reference_problem(case, steps, records)
    assert expected
    with pytest.raises(CaseError) as exc:
        repaired_case(case, steps, records, source="repaired")
    assert exc.value.problems == expected


def test_a_replay_that_cites_a_missing_record_is_refused_in_the_same_words(monkeypatch):
    """A replayed step citing an id the repaired case does not hold stops the repair with
    the message the whole reference check gave."""
    from repair_core.case._case import Dep
    from repair_core.replay import _executor

    cited = _executor._Run._deps_from

    def citing_a_ghost(self, step, cites, support=None, keep_labels=("initiate",)):
        return [*cited(self, step, cites, support, keep_labels), Dep(id="ghost", label="cite")]

    monkeypatch.setattr(_executor._Run, "_deps_from", citing_a_ghost)
    with pytest.raises(CaseError) as exc:
        repair(load_case(ROOT / "sample_traces" / "figure1-travel.json"))
    assert str(exc.value) == (
        "repaired fig1-travel: invalid case (3 problems)\n"
        "  - trajectory[2].deps[2]: unknown id 'ghost'\n"
        "  - trajectory[4].deps[4]: unknown id 'ghost'\n"
        "  - trajectory[9].deps[5]: unknown id 'ghost'")


@settings(max_examples=500, deadline=None)
@given(st.text() | st.text(st.characters(max_codepoint=127)))
def test_count_tokens_counts_the_patterns_matches(text):
    assert count_tokens(text) == len(re.findall(r"\w+|[^\w\s]", text))


prompt_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text()
    | st.dates() | st.decimals(allow_nan=False),  # not JSON: written with str()
    lambda inner: st.lists(inner) | st.tuples(inner) | st.dictionaries(st.text(), inner),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(), prompt_values, max_size=6), st.sampled_from(STAGES))
def test_a_prompts_input_block_is_json_dumps_with_an_indent(inputs, stage):
    body = render_prompt(stage, inputs)[1]["content"]
    assert body.endswith(json.dumps(inputs, ensure_ascii=False, indent=1, default=str))


def test_an_output_set_is_written_whole_from_long_texts_and_pieces(tmp_path):
    long = "".join(f"{i} café → {i % 7}\n" for i in range(300_000))  # several write slices
    pieces = ["{", long, "", "é" * 5, "}\n"]
    mixed = [long.encode("utf-8"), "é", b"", "→\n".encode()]
    write_output_set(tmp_path / "out", {"a.txt": long, "b.txt": iter(pieces),
                                        "c.txt": long.encode("utf-8"), "d.txt": iter(mixed)},
                     allowed={"a.txt", "b.txt", "c.txt", "d.txt"})
    read = {f.name: f.read_text(encoding="utf-8") for f in (tmp_path / "out").iterdir()}
    assert read == {"a.txt": long, "b.txt": "".join(pieces), "c.txt": long,
                    "d.txt": long + "é→\n"}


_odd_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text()
    | st.sampled_from(["x\ud800", "\udfff", float("nan"), float("-inf"), "é", 2 ** 64]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text() | st.sampled_from(["k\ud801", "ключ"]), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(_odd_values)
def test_data_without_a_problem_is_told_apart_without_paths(value):
    """The quick pass `data_problems` makes first says 'nothing' exactly when the walk
    with a path for each value finds nothing."""
    from repair_core.case._json import _plain, _walk

    found = list(_walk(value, {}, check_strings=True, check_floats=True))
    assert _plain(value) == (not found)


def test_data_nested_too_deeply_or_with_a_huge_integer_is_not_plain():
    from repair_core.case._json import MAX_NESTING, _plain, data_problems

    deep: list = []
    for _ in range(MAX_NESTING + 2):
        deep = [deep]
    assert not _plain(deep) and data_problems(deep)
    assert _plain(deep[0][0]) and not data_problems(deep[0][0])
    for huge in (10 ** 5000, -(10 ** 4400)):  # more digits than can be printed
        assert not _plain({"a": [1, huge]}) and data_problems({"a": [1, huge]})


def _chain_the_fault_reaches(links: int):
    """A fault read from a page and written to a record, then `links` pages each followed
    by a record written from it and from the record before it, the first citing the
    fault's record: the fault reaches every record, so the repair rewrites them all."""
    from same_source_cases import chain_case

    return case_from_data(chain_case(links, first_cites_fault=True, answer_cites_last=True))


class _CountedRecords(list):  # type: ignore[type-arg]
    """The case's records, counting how many a walk over them reads."""

    read = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for rec in super().__iter__():
            self.read += 1
            yield rec


def test_a_chain_the_fault_reaches_is_repaired_reading_the_store_a_few_times():
    # the fault is a page (a step) and its record: each replayed write looked for the
    # page among the case's records one by one, links squared reads (8,000 links: 5.95
    # CPU s in repair, 2.6 without)
    reads = {}
    for links in (300, 1_200):
        case = _chain_the_fault_reaches(links)
        plan = plan_case(case, objective="store")
        counted = case.__dict__["memory"] = _CountedRecords(case.memory)
        result = repair(case, plan, check=False)
        assert len(result.report.store_changes.added) == links
        assert result.report.store_changes.deleted == ["m_fault"]
        reads[links] = counted.read
        assert counted.read <= 10 * len(case.memory), counted.read
    assert reads[1_200] <= 4.5 * reads[300], reads  # 4 times the chain, 4 times the reads


def test_a_chain_the_fault_reaches_is_planned_reading_each_step_a_few_times(monkeypatch):
    # the answer reads the chain's last record, whose writer reads the record before: the
    # replay set grew by one writer a round, and each round read the whole set again
    # (4,000 links: 1.9 CPU s in plan_case, 0.16 s once each round reads what it added)
    from repair_core.plan import _plan

    reads = {}
    for links in (300, 1_200):
        case = _chain_the_fault_reaches(links)
        counted = [0]

        def premises(G, v, _premises=_plan.premises, counted=counted):  # type: ignore[no-untyped-def]
            counted[0] += 1
            return _premises(G, v)

        monkeypatch.setattr(_plan, "premises", premises)
        plan = plan_case(case, objective="both")
        monkeypatch.undo()
        assert {f"w{k}" for k in range(links)} <= plan.replay_set
        reads[links] = counted[0]
        assert counted[0] <= 4 * len(case.trajectory), counted[0]
    assert reads[1_200] <= 4.5 * reads[300], reads  # 4 times the chain, 4 times the reads


def test_the_columnar_planner_plans_a_chain_the_fault_reaches_in_time_linear_in_it():
    # the columnar planner's rounds each read and closed the whole replay set again, as
    # the networkx planner's did (0.08 CPU s at 250 links, 4.9 s at 4,000: x65)
    from same_source_cases import chain_case

    from repair_core.plan._columnar_plan import columnar_plan_report

    def chain(links: int) -> bytes:
        return json.dumps(chain_case(links, first_cites_fault=True,
                                     answer_cites_last=True)).encode()

    def columns(links: int) -> CaseColumns:
        cols = read_columns(chain(links))
        assert cols is not None
        return cols

    # 16 times the chain, within 32 times the time (the bound this test had before
    # grows_linearly; its default, 48, let a quadratic planner five times slower at 4,000
    # links through)
    report, _, _ = grows_linearly(columns, lambda cols: columnar_plan_report(cols, "both"),
                                  250, 16, margin=2)
    assert all(report["steps"][f"w{k}"] == "replay" for k in range(4_000))
    # the same plan as the networkx planner's
    assert to_json(columnar_plan_report(columns(250), "both")) == to_json(
        plan_case(parse_case(chain(250)), objective="both").report().model_dump(mode="json"))
