"""The model judge of answers (`RecoveryJudge`, `dgrr bench run --answer-judge`): asked
about what the lexical answer reader is unsure of, or about every answer when told so,
through a scripted OpenAI-compatible server on 127.0.0.1; the verdict names the judge that
decided, and a model that cannot say leaves the answer unsure (not recovered)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from judge_server import scripted_server

from repair_core.bench import ANSWER_READER, judge_recovery, load_results
from repair_core.cli import main
from repair_core.judge import RecoveryJudge

rule = pytest.mark.rule
ROOT = Path(__file__).resolve().parent.parent
REQUIRED, FORBIDDEN = ["UA511", "22C"], ["22B"]
UNSURE = "Held 22C on UA511. Vorsicht bei 22B."
TRANSLATED = "Votre siège 22C sur UA511 est réservé côté allée."


def _yes(messages):
    data = json.loads(messages[-1]["content"].split("INPUT:\n", 1)[1])
    assert data["required"] == REQUIRED and data["forbidden"] == FORBIDDEN
    return json.dumps({"verdict": "yes", "evidence": "22C on UA511 is told as held"})


@rule("oracle.answer-judge")
def test_the_model_decides_only_what_the_reader_is_unsure_of():
    with scripted_server(_yes) as server:
        judge = RecoveryJudge("openai/scripted", api_base=server.api_base)
        unsure = judge_recovery(UNSURE, REQUIRED, FORBIDDEN, judge=judge)
        read = judge_recovery("Held 22C on UA511, not 22B.", REQUIRED, FORBIDDEN, judge=judge)
        again = judge_recovery(UNSURE, REQUIRED, FORBIDDEN, judge=judge)
    assert (unsure.outcome, unsure.judge) == ("recovered", "model:openai/scripted")
    assert unsure.evidence == "22C on UA511 is told as held" and unsure.unsure
    assert (read.outcome, read.judge) == ("recovered", ANSWER_READER)
    assert again == unsure and len(server.requests) == 1 and judge.calls == 1


@rule("oracle.answer-judge")
def test_asked_about_every_answer_the_model_reads_a_translated_value():
    with scripted_server(_yes) as server:
        judge = RecoveryJudge("openai/scripted", api_base=server.api_base)
        alone = judge_recovery(TRANSLATED, REQUIRED + ["aisle"], FORBIDDEN)
        asked = judge_recovery(TRANSLATED, REQUIRED, FORBIDDEN, judge=judge, ask_all=True)
    # "allée" is no word the reader matches: it may translate "aisle"
    assert alone.outcome == "unsure"
    assert asked.outcome == "recovered" and asked.judge == "model:openai/scripted"


@rule("oracle.answer-judge")
@pytest.mark.parametrize("reply", ["Sure, it recovered.", json.dumps({"verdict": "maybe"})])
def test_a_model_that_cannot_say_leaves_the_answer_unsure(reply):
    with scripted_server(lambda messages: reply) as server:
        judge = RecoveryJudge("openai/scripted", api_base=server.api_base)
        verdict = judge_recovery(UNSURE, REQUIRED, FORBIDDEN, judge=judge)
    assert verdict.outcome == "unsure" and "not the JSON asked for" in verdict.evidence
    spent = RecoveryJudge("openai/scripted", api_base="http://127.0.0.1:9/v1", budget=0)
    assert judge_recovery(UNSURE, REQUIRED, FORBIDDEN, judge=spent).outcome == "unsure"


@pytest.mark.slow
@rule("oracle.answer-judge")
def test_bench_run_records_the_judge_that_decided(tmp_path, capsys):
    case = json.loads((ROOT / "sample_traces" / "controlled" /
                       "ctl-001-travel-wrong-user.json").read_text(encoding="utf-8"))
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "case.json").write_text(json.dumps(case), encoding="utf-8")

    def no(messages):
        return json.dumps({"verdict": "no", "evidence": "the scripted judge says no"})

    with scripted_server(no) as server:
        assert main(["bench", "run", "--suite", str(folder), "--methods", "ours",
                     "--out", str(tmp_path / "out"), "--no-progress", "--answer-judge",
                     "openai/scripted", "--answer-judge-api-base", server.api_base,
                     "--answer-judge-all"]) == 0
    [result] = load_results(tmp_path / "out", ["ours"])
    assert result.recovered is False and result.recovery_judge == "model:openai/scripted"
    assert len(server.requests) == 1 and list((tmp_path / "out" / ".answer-judge").iterdir())
    assert main(["bench", "run", "--suite", str(folder), "--out", str(tmp_path / "o2"),
                 "--answer-judge-all"]) == 2
    assert "--answer-judge-all: needs --answer-judge MODEL" in capsys.readouterr().err
