"""Several replays of one plan are kept in the session (model, time, calls, tokens, cost)
and listed on the Replay page; Compare sets any two of them side by side (answers with the
word diff, the store after each, the step outcomes), untrusted text as text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from dgrr_dashboard.kept_replays import REPLAYS_KEPT, replay_cost  # noqa: E402
from repair_core.model._client import CallRecord  # noqa: E402

APP = str(ROOT / "app.py")
EXAMPLE = "(built-in) spec example: figure1-travel"
EVIL = "<img src=x onerror=alert(1)> [click](http://evil.example) **bold**"


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _page(at: AppTest, name: str) -> AppTest:
    return _ok(at.switch_page(f"pages/{name}.py").run())


def _loaded() -> AppTest:
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())
    _page(at, "1_Load")
    at.selectbox(key="dgrr_w_sample").set_value(EXAMPLE)
    return _ok(at.button(key="dgrr_w_load_sample").click().run())


def _replay(at: AppTest, model: str) -> AppTest:
    _page(at, "5_Replay")
    at.text_input(key="dgrr_w_model").set_value(model)
    return _ok(at.button(key="dgrr_w_run_replay").click().run())


def _kept_table(at: AppTest):
    return next(d.value for d in at.dataframe if "finished (UTC)" in d.value.columns)


def test_two_replays_are_listed_and_compared_side_by_side():
    at = _loaded()
    _replay(at, "dgrr/reference")
    _replay(at, "dgrr/rolling")
    table = _kept_table(at)
    assert list(table["model"]) == ["dgrr/rolling", "dgrr/reference"]  # newest first
    assert list(table["replay"]) == [2, 1]
    # the caption says the order the table has (it said "newest last")
    assert any("newest first" in c.value for c in at.caption)
    assert list(table["cost"]) == ["$0.00", "$0.00"]  # built-in models are offline
    kept = at.session_state["dgrr_replays"]
    (replays,) = kept.values()
    assert [r.result.cost.llm_calls for r in reversed(replays)] == list(table["model calls"])
    assert all(n > 0 for n in table["model calls"]) and all(n > 0 for n in table["tokens"])
    # the current result is the newest replay
    assert at.session_state["dgrr_result"] is replays[-1].result

    _page(at, "6_Compare")
    # the default is today's view: the original against the newest replay
    assert at.radio(key="dgrr_w_cmp_mode").value == "Original vs replay"
    assert any("dgrr-answer-after" in h.proto.body for h in at.get("html"))
    at.radio(key="dgrr_w_cmp_mode").set_value("Replay A vs replay B")
    _ok(at.run())
    assert at.selectbox(key="dgrr_w_cmp_replay_a").value == 0
    assert at.selectbox(key="dgrr_w_cmp_replay_b").value == 1
    html = [h.proto.body for h in at.get("html")]
    a_html = next(h for h in html if 'id="dgrr-replays-answer-before"' in h)
    b_html = next(h for h in html if 'id="dgrr-replays-answer-after"' in h)
    assert "<mark" in b_html and "Your" in b_html  # the rolling policy's words marked
    assert "<del" in a_html
    assert not any('id="dgrr-answer-after"' in h for h in html)  # not the original view
    frames = {tuple(d.value.columns): d.value for d in at.dataframe}
    steps = next(v for k, v in frames.items() if "outcome in A" in k).set_index("id")
    assert steps.loc["s3", "output in A"] == "Lin prefers aisle seats."
    assert steps.loc["s3", "output in B"] == "Your seat pref is aisle."
    store = next(v for k, v in frames.items() if "text in A" in k).set_index("id")
    assert set(store["A"]) | set(store["B"]) <= {"active", "quarantine", "gone"}
    assert (store["A"] != store["B"]).any() or (store["text in A"] != store["text in B"]).any()
    assert "The two answers differ." in [c.value for c in at.caption]

    # the same replay on both sides differs nowhere
    at.selectbox(key="dgrr_w_cmp_replay_a").set_value(1)
    _ok(at.run())
    captions = [c.value for c in at.caption]
    assert "The two answers agree." in captions
    assert any(c.startswith("0 of ") and "steps differ" in c for c in captions)


def test_one_replay_keeps_todays_compare_without_a_mode_choice():
    at = _loaded()
    _replay(at, "dgrr/reference")
    assert len(_kept_table(at)) == 1
    _page(at, "6_Compare")
    assert not [r for r in at.radio if r.key == "dgrr_w_cmp_mode"]
    assert any("dgrr-answer-after" in h.proto.body for h in at.get("html"))


def test_only_the_last_replays_of_a_plan_are_kept_and_a_new_case_drops_them():
    at = _loaded()
    for _ in range(REPLAYS_KEPT + 1):
        _replay(at, "dgrr/reference/noise=0.5")
    assert list(_kept_table(at)["replay"]) == list(range(REPLAYS_KEPT + 1, 1, -1))
    _page(at, "1_Load")
    at.selectbox(key="dgrr_w_sample").set_value(EXAMPLE)
    _ok(at.button(key="dgrr_w_load_sample").click().run())
    assert "dgrr_replays" not in at.session_state


def test_an_untrusted_answer_is_shown_as_text_on_both_pages():
    at = _loaded()
    _replay(at, "dgrr/reference")
    _replay(at, "dgrr/reference")
    (replays,) = at.session_state["dgrr_replays"].values()
    evil = replays[-1].result.model_copy(update={"answer": EVIL})
    replays[-1] = replays[-1].model_copy(update={"result": evil})
    _page(at, "5_Replay")
    assert EVIL in list(_kept_table(at)["answer"])  # a data frame shows it as it is
    _page(at, "6_Compare")
    at.radio(key="dgrr_w_cmp_mode").set_value("Replay A vs replay B")
    _ok(at.run())
    b_html = next(h.proto.body for h in at.get("html")
                  if 'id="dgrr-replays-answer-after"' in h.proto.body)
    assert "<img" not in b_html and "&lt;img" in b_html


def test_a_replays_cost_is_priced_by_the_table_and_unknown_when_unlisted():
    table = {"gpt-4o-mini": {"input_cost_per_token": 1e-06, "output_cost_per_token": 1e-05,
                             "litellm_provider": "openai"}}
    log = [CallRecord(stage="claim", attempt=1, messages=[{"role": "user", "content": ""}],
                      reply="x", tokens=100)]
    # an empty prompt: all 100 tokens priced as completion
    assert replay_cost("openai/gpt-4o-mini", log, table=table) == pytest.approx(1e-03)
    assert replay_cost("some/unlisted-model", log, table=table) is None
    assert replay_cost("dgrr/rolling", log, table=table) == 0.0


def test_the_original_can_be_set_against_an_older_replay():
    at = _loaded()
    _replay(at, "dgrr/reference")
    _replay(at, "dgrr/rolling")
    _page(at, "6_Compare")
    def after() -> str:
        return next(h.proto.body for h in at.get("html")
                    if 'id="dgrr-answer-after"' in h.proto.body)
    assert at.selectbox(key="dgrr_w_cmp_replay_orig").value == 1  # the newest
    assert "Your" in after()
    at.selectbox(key="dgrr_w_cmp_replay_orig").set_value(0)
    _ok(at.run())
    assert "Your" not in after() and "Lin prefers aisle seats" in after()
    assert any("An older replay is shown" in c.value for c in at.caption)
    (replays,) = at.session_state["dgrr_replays"].values()
    assert at.session_state["dgrr_result"] is replays[-1].result  # Approve's is unchanged


@pytest.mark.parametrize(("sample", "verdict"), [
    (EXAMPLE, "clean by lineage"),
    ("sample_traces/travel-two-faults.json", "not certified"),
])
def test_compare_says_whether_the_content_check_certified_the_answer(sample, verdict):
    """Compare marks the corrected answer's new words green, as any diff does: the line
    under it says what the content check found, so a result that is not certified never
    reads as a clean one there."""
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())
    _page(at, "1_Load")
    at.selectbox(key="dgrr_w_sample").set_value(sample)
    _ok(at.button(key="dgrr_w_load_sample").click().run())
    _replay(at, "dgrr/reference")
    _page(at, "6_Compare")
    lines = [c.value for c in at.caption if "Content check" in c.value]
    assert len(lines) == 1 and verdict in lines[0], lines
    if verdict == "not certified":
        assert "clean by" not in lines[0]
