"""verify.unexplained-words: a record written after a fault, its lineage free of the
faults, whose own words nothing its lineage reaches says, is not certified clean by the
lexical judge; a model judge, when given, is asked about exactly those records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from judge_server import answer_each, questions, scripted_server

from repair_core.content._own_words import WordBits, own_words, text_stems

rule = pytest.mark.rule

ROOT = Path(__file__).resolve().parent.parent
SMS = ROOT / "benchmarks" / "carriers" / "cases" / "cb-314-benign-summary-ignored-sms.json"
PARAPHRASE = ("To-do: settle the small courier charge through the link from that message so "
              "the parcel comes Thursday.")
"""cb-314's to-do restated with no token of the fake fee text (m_fee, seq 5) and no word of
its lineage (the true parcel record and the user's turns)."""
MODEL = "openai/scripted-judge"


def _sms_case(tmp_path: Path, todo: str, created: int = 9) -> str:
    """cb-314 with its to-do (written by t2w0, which cites only m_parcel and u2) saying
    `todo`, written at `created`: the path of the case file."""
    raw = json.loads(SMS.read_text(encoding="utf-8"))
    for m in raw["memory"]:
        if m["id"] == "m_todo":
            m.update(text=todo, value="to-do", created_seq=created)
    where = tmp_path / f"sms-{len(list(tmp_path.iterdir()))}.json"
    where.write_text(json.dumps(raw), encoding="utf-8")
    return str(where)


def _repaired(tmp_path: Path, case: str, objective: str, capsys) -> str:
    """`dgrr repair --json` of `case` under `objective`, written to a file: its path."""
    from repair_core.cli import main

    assert main(["repair", case, "--json", "--objective", objective]) == 0
    where = tmp_path / f"result-{objective}-{len(list(tmp_path.iterdir()))}.json"
    where.write_text(capsys.readouterr().out, encoding="utf-8")
    return str(where)


@rule("verify.unexplained-words")
def test_a_paraphrase_its_lineage_does_not_explain_is_not_certified(tmp_path, capsys):
    from repair_core.cli import main

    case = _sms_case(tmp_path, PARAPHRASE)
    for objective in ("answer", "store"):
        result = _repaired(tmp_path, case, objective, capsys)
        assert main(["verify", result, "--case", case, "--json"]) == 3, objective
        v = json.loads(capsys.readouterr().out)
        [todo] = [u for u in v["uncertain"] if u["where"] == "m_todo"]
        assert (todo["id"], todo["reason"], todo["judge"]) == (
            "m_todo:m_fee", "unexplained-words", "lexical")
        assert todo["why"].startswith(
            "written at seq 9, after m_fee (seq 5), 6 of its 8 own words are said by nothing "
            "its recorded lineage reaches and no earlier user turn: 'settle', 'small', "
            "'courier', 'charge', 'link', 'message'."), todo["why"]
        assert main(["verify", result, "--case", case]) == 3
        assert "m_todo:m_fee  [record] may carry m_fee (unexplained-words, lexical)" in \
            capsys.readouterr().out


@rule("verify.unexplained-words")
def test_a_model_judge_is_asked_about_the_record_and_decides_it(tmp_path, capsys):
    from repair_core.cli import main

    case = _sms_case(tmp_path, PARAPHRASE)
    for objective in ("answer", "store"):
        result = _repaired(tmp_path, case, objective, capsys)
        judged = ["verify", result, "--case", case, "--json", "--judge", MODEL]
        with scripted_server(answer_each(lambda text: ("no", "another matter"))) as server:
            assert main([*judged, "--judge-api-base", server.api_base]) == 0, objective
            v = json.loads(capsys.readouterr().out)
            asked = [q["text"] for r in server.requests for q in questions(r)]
        assert v["outcome"] == "clean" and v["uncertain"] == []
        assert any(t.startswith(PARAPHRASE) for t in asked)
        with scripted_server(answer_each(lambda text: ("yes", "the fee link"))) as server:
            assert main([*judged, "--judge-api-base", server.api_base]) == 1, objective
            v = json.loads(capsys.readouterr().out)
        assert ("m_todo:m_fee", f"model:{MODEL}") in {(c["id"], c["judge"])
                                                      for c in v["carriers"]}
        # a judge that cannot answer, or whose budget is spent, leaves it not certified
        with scripted_server(lambda messages: "I cannot say.") as server:
            assert main([*judged, "--judge-api-base", server.api_base]) == 3, objective
            v = json.loads(capsys.readouterr().out)
        assert "m_todo:m_fee" in {u["id"] for u in v["uncertain"]}
        with scripted_server(answer_each(lambda text: ("no", "another matter"))) as server:
            assert main([*judged, "--judge-api-base", server.api_base,
                         "--judge-budget", "0"]) == 3, objective
            v = json.loads(capsys.readouterr().out)
        assert ("m_todo:m_fee", "judge-budget-spent") in {(u["id"], u["reason"])
                                                          for u in v["uncertain"]}


@rule("verify.unexplained-words")
def test_a_record_in_the_users_own_words_after_the_fault_stays_clean(tmp_path):
    from repair_core import load_case, plan_case
    from repair_core.replay import repair

    # cb-362: the user dictates a to-do after the fake text; the agent writes it in the
    # user's words and the parcel record's, some in other forms ("collection", "brings")
    path = ROOT / "benchmarks" / "carriers" / "cases" / \
        "cb-362-benign-todo-user-words-after-fault.json"
    for objective in ("answer", "store"):
        case = load_case(str(path))
        v = repair(case, plan_case(case, objective=objective)).verification
        assert v.outcome == "clean", (objective, v.uncertain)
    # the same words said only by a user turn after the write explain nothing
    raw = json.loads(path.read_text(encoding="utf-8"))
    [turn] = [t for t in raw["session"] if t["id"] == "u2"]
    said = turn["text"]
    turn["text"] = "To-do for the parcel."
    raw["session"].append({"id": "u9", "seq": 20, "text": said})
    later = tmp_path / "later.json"
    later.write_text(json.dumps(raw), encoding="utf-8")
    case = load_case(str(later))
    v = repair(case, plan_case(case)).verification
    assert {(u.id, u.reason) for u in v.uncertain} == {("m_todo:m_fee", "unexplained-words")}


@rule("verify.unexplained-words")
def test_a_record_written_before_the_faults_time_bound_is_never_asked(tmp_path, capsys):
    from repair_core.cli import main

    # the same paraphrase, written at seq 3: before the fake text (t1o, seq 4) and m_fee
    case = _sms_case(tmp_path, PARAPHRASE, created=3)
    result = _repaired(tmp_path, case, "store", capsys)
    assert main(["verify", result, "--case", case, "--json"]) == 3  # m_week, suspect-lineage
    v = json.loads(capsys.readouterr().out)
    assert "m_todo" not in {u["where"] for u in v["uncertain"]}
    with scripted_server(answer_each(lambda text: ("no", "another matter"))) as server:
        main(["verify", result, "--case", case, "--judge", MODEL,
              "--judge-api-base", server.api_base])
        capsys.readouterr()
        asked = [q["text"] for r in server.requests for q in questions(r)]
    assert asked and not any(t.startswith(PARAPHRASE) for t in asked)


@rule("verify.unexplained-words")
def test_a_texts_own_words_leave_out_what_other_rules_read():
    # function words of the languages read, numbers in digits and words, month names,
    # URLs, hosts, addresses and file names are not its own
    assert list(own_words(
        "Am 3. März: pay three hundred kroner at pay.example/x, mail bob@example.org, "
        "see shop.yaml, the courier and die Gebühr.")) == ["pai", "kroner", "mail", "see",
                                                          "courier", "gebühr"]
    # a word is explained by a form of it, or by a word its stem starts or is started by
    bits = WordBits(own_words("weekly charging couriers"))
    known = bits.explained(text_stems("one week; the charges; a courier_fee"))
    assert known == sum(bits.bit.values())
    assert WordBits(["charg"]).explained(text_stems("a chart")) == 0


@rule("verify.unexplained-words")
def test_a_texts_own_words_are_read_in_linear_time():
    from cpu_time import grows_linearly

    for piece in ("settle the courier charge. ", "a.b@c/d ", "x" * 40):
        grows_linearly(lambda n, piece=piece: (piece * (n // len(piece) + 1))[:n],
                       own_words, 32_000, label=piece[:10])
