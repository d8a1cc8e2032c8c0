"""The lexical retriever reads each record's words once and still ranks as the definition:
every record of the list it is handed, re-read on every call. One retriever is asked again
and again while the list changes under it the ways a caller changes it: records added,
edited in place or replaced by an edited copy under the same id, retired and restored,
moved to another user, dropped from the list, moved in it, or handed as another list."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core.agent import LexicalRetriever
from repair_core.case._case import MemoryRecord
from repair_core.content._lexical import text_tokens


def reference_retrieve(records, query, user_id, k):
    """The ranking as written before the retriever kept any words: every active record of
    the user, re-read, scored by the query words it holds, ties in list order."""
    wanted = text_tokens(str(query))
    scored = []
    for pos, rec in enumerate(records):
        if rec.status != "active" or rec.user_id != user_id:
            continue
        words = text_tokens(str(rec.text)) | text_tokens((rec.key or "").replace("_", " "))
        score = len(wanted & words)
        if score:
            scored.append((-score, pos, rec.id))
    scored.sort()
    return [rid for _, _, rid in scored[:k]]


WORDS = ["seat", "seats", "aisle", "window", "lin", "pays", "card", "booking", "home", "sfo",
         "the", "shipping", "ship"]
texts = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)
keys = st.sampled_from([None, "", "seat", "home_airport", "card_pays"])
statuses = st.sampled_from(["active", "superseded", "deleted"])
users = st.sampled_from(["lin", "ana"])
record_fields = st.tuples(texts, keys, statuses, users)

changes = st.one_of(
    st.tuples(st.just("add"), record_fields),
    st.tuples(st.just("edit_text"), st.integers(0, 40), texts),  # in place
    st.tuples(st.just("edit_key"), st.integers(0, 40), keys),
    st.tuples(st.just("replace"), st.integers(0, 40), texts),  # an edited copy, same id
    st.tuples(st.just("copy"), st.integers(0, 40), texts),  # the id twice in one list
    st.tuples(st.just("status"), st.integers(0, 40), statuses),
    st.tuples(st.just("user"), st.integers(0, 40), users),
    st.tuples(st.just("drop"), st.integers(0, 40)),
    st.tuples(st.just("move"), st.integers(0, 40), st.integers(0, 40)),
    st.tuples(st.just("subset"), st.integers(0, 40), st.integers(0, 40)),
)
reads = st.tuples(texts, users, st.sampled_from([None, 1, 2, 3, 6]))


def _change(records: list[MemoryRecord], change: tuple, made: int) -> list[MemoryRecord]:
    """`records` after `change` (in place where a caller would change it in place)."""
    op, *args = change
    if op == "add":
        text, key, status, user = args[0]
        records.append(MemoryRecord(id=f"m{made}", user_id=user, text=text, key=key,
                                    status=status))
        return records
    if not records:
        return records
    rec = records[args[0] % len(records)]
    if op == "edit_text":
        rec.text = args[1]
    elif op == "edit_key":
        rec.key = args[1]
    elif op == "replace":
        records[records.index(rec)] = rec.model_copy(update={"text": args[1]})
    elif op == "copy":
        records.append(rec.model_copy(update={"text": args[1]}))
    elif op == "status":
        rec.status = args[1]
    elif op == "user":
        rec.user_id = args[1]
    elif op == "drop":
        records.remove(rec)
    elif op == "move":
        records.remove(rec)
        records.insert(args[1] % (len(records) + 1), rec)
    elif op == "subset":  # another list: a slice of this one, the rest kept for later
        lo, hi = sorted((args[0] % len(records), args[1] % len(records)))
        return records[lo:hi + 1]
    return records


@settings(max_examples=400, deadline=None)
@given(st.lists(record_fields, max_size=20),
       st.lists(st.tuples(st.lists(changes, max_size=4), st.lists(reads, min_size=1,
                                                                   max_size=3)),
                max_size=12),
       st.integers(1, 6))
def test_a_kept_retriever_ranks_as_re_reading_every_record(start, rounds, k):
    records = [MemoryRecord(id=f"m{i}", user_id=u, text=t, key=key, status=s)
               for i, (t, key, s, u) in enumerate(start)]
    made = len(records)
    retriever = LexicalRetriever(k)
    for round_changes, round_reads in rounds:
        handed = records  # after a "subset", a slice of it, for the rest of the round
        for change in round_changes:
            made += 1
            handed = _change(handed, change, made)
        for query, user, asked_k in round_reads:
            assert retriever.retrieve(handed, query, user, asked_k) == reference_retrieve(
                handed, query, user, asked_k or k)


def test_a_record_edited_in_place_is_found_by_its_new_words():
    rec = MemoryRecord(id="m1", user_id="lin", text="Lin prefers aisle seats.", status="active")
    other = MemoryRecord(id="m2", user_id="lin", text="Lin pays by card.", status="active")
    retriever = LexicalRetriever()
    assert retriever.retrieve([rec, other], "aisle", "lin") == ["m1"]
    rec.text = "Lin prefers window seats."
    assert retriever.retrieve([rec, other], "aisle", "lin") == []
    assert retriever.retrieve([rec, other], "window card", "lin") == ["m1", "m2"]
    rec.key = "card"
    assert retriever.retrieve([rec, other], "card", "lin") == ["m1", "m2"]
    assert retriever.retrieve([other, rec], "card", "lin") == ["m2", "m1"]
    assert retriever.retrieve([other], "card", "ana") == []
    assert retriever.retrieve([rec, other], "aisle window", "lin") == ["m1"]
