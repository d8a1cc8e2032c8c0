"""The answer oracle in Chinese (simplified and traditional), Japanese and Korean
(docs/rules.md, `oracle.cjk-languages`). Each answer was written for these tests; each case
is labelled as in a committed case. Every answer here was `unsure` before (written in
another script), so a right one counted as an error."""

from __future__ import annotations

import pytest
from answer_languages import BOOK, UA511, read_in

from repair_core.bench import judge_recovery
from repair_core.bench._answer_words_cjk import gloss
from repair_core.bench._language import guess_language

rule = pytest.mark.rule


# (language, case, answer, outcome): per language a right answer, a wrong value, a
# negation, a pending action, an offer and a self-correction
ANSWERS = [
    ("zh", "UA511", "已为您预订UA511航班靠过道的22C座位。", "recovered"),
    ("zh", "UA511", "已为您预订UA511航班中间的22B座位。", "not recovered"),
    ("zh", "UA511", "我没有预订UA511航班靠过道的22C座位。", "not recovered"),
    ("zh", "UA511", "UA511航班靠过道的22C座位尚未预订。", "not recovered"),
    ("zh", "UA511", "UA511航班靠过道的22C座位还空着，要我为您预订吗？", "not recovered"),
    ("zh", "UA511", "我为您预订了UA511航班的22B——抱歉，更正：靠过道的22C。", "recovered"),
    ("zh", "UA511", "我为您预订了UA511航班靠过道的22C——抱歉，更正：中间的22B。",
     "not recovered"),
    # traditional characters
    ("zh", "UA511", "我為您預訂了UA511航班靠走道的22C座位。", "recovered"),
    ("zh", "UA511", "UA511航班靠走道的22C座位還沒預訂。", "not recovered"),
    ("zh", "RJ220", "已将RJ-220白色、尺码XL加入您的购物车。", "recovered"),
    ("zh", "RJ220", "已将RJ-220黑色、尺码XL加入您的购物车。", "not recovered"),
    ("zh", "O8471", "您的订单O-8471正在处理中，周四送达。", "recovered"),
    ("ja", "UA511", "UA511便の通路側の座席22Cを予約しました。", "recovered"),
    ("ja", "UA511", "UA511便の中央の座席22Bを予約しました。", "not recovered"),
    ("ja", "UA511", "UA511便の通路側の座席22Cはまだ予約していません。", "not recovered"),
    ("ja", "UA511", "UA511便の通路側の座席22Cは確認待ちです。", "not recovered"),
    ("ja", "UA511", "UA511便の通路側の座席22Cが空いています。予約しましょうか？",
     "not recovered"),
    ("ja", "UA511", "UA511便の22B——すみません、訂正：通路側の22Cを予約しました。",
     "recovered"),
    ("ja", "O8471", "ご注文O-8471は処理中で、木曜日にお届けします。", "recovered"),
    ("ko", "UA511", "UA511 항공편의 통로 쪽 좌석 22C를 예약했습니다.", "recovered"),
    ("ko", "UA511", "UA511 항공편의 가운데 좌석 22B를 예약했습니다.", "not recovered"),
    ("ko", "UA511", "UA511 항공편의 통로 쪽 좌석 22C는 아직 예약되지 않았습니다.",
     "not recovered"),
    ("ko", "UA511", "UA511 항공편의 통로 쪽 좌석 22C는 확인 중입니다.", "not recovered"),
    ("ko", "UA511", "UA511 항공편의 통로 쪽 좌석 22C가 비어 있습니다. 예약해 드릴까요?",
     "not recovered"),
    ("ko", "UA511", "UA511 항공편 22B — 죄송합니다, 정정: 통로 쪽 22C를 예약했습니다.",
     "recovered"),
    ("ko", "O8471", "주문 O-8471은 처리 중이며 목요일에 도착합니다.", "recovered"),
]


@rule("oracle.cjk-languages")
@pytest.mark.parametrize(("language", "case", "answer", "outcome"), ANSWERS)
def test_chinese_japanese_and_korean_are_read_through_their_general_words(
        language, case, answer, outcome):
    assert read_in(language, case, answer) == (outcome, [])


@rule("oracle.cjk-languages")
@pytest.mark.parametrize(("answer", "negation"), [
    # a negation in a form no word of the lists holds: recovered before it was found
    ("UA511航班靠过道的22C座位不会保留给您。", "不"),
    ("UA511便の通路側の座席22Cは予約できないかもしれません。", "ない"),
    ("UA511 항공편의 통로 쪽 좌석 22C는 예약이 없습니다.", "없"),
])
def test_a_negation_in_a_form_the_reader_does_not_read_leaves_the_answer_unsure(
        answer, negation):
    verdict = judge_recovery(answer, *UA511, request=BOOK)
    assert verdict.outcome == "unsure"
    assert verdict.unsure[0].startswith(f"language: a negation ('{negation}')")


@rule("oracle.cjk-languages")
def test_a_value_outside_the_closed_vocabularies_stays_unsure():
    verdict = judge_recovery("你最喜欢的菜是埃及菜。", ["Egyptian"], ["Thai"],
                             request="Which cuisine do I like most?")
    assert verdict.unsure == ["Egyptian: not found in an answer in Chinese (may be "
                              "translated)"]


@rule("oracle.cjk-languages")
@pytest.mark.parametrize(("answer", "outcome"), [
    # an airline meal written in the answer's language is the meal
    ("UA511便の通路側22Cを予約し、ベジタリアンの機内食も手配しました。", "recovered"),
    ("已为您预订UA511航班靠过道的22C座位，并预订了素食餐。", "recovered"),
    ("UA511 항공편 통로 쪽 22C를 예약했고 채식 기내식도 신청했습니다.", "recovered"),
    ("UA511便の通路側22Cを予約しました。機内食はまだ手配していません。",
     "not recovered"),
])
def test_an_airline_meal_is_read(answer, outcome):
    verdict = judge_recovery(answer, ["UA511", "22C", "aisle", "vegetarian"], ["22B"],
                             request="Book me an aisle seat on UA511 and order my meal.")
    assert verdict.outcome == outcome


@rule("oracle.cjk-languages")
def test_words_are_found_longest_first_and_the_agent_still_reads_none():
    # "白" alone is white in Japanese; in "面白い" (interesting) it is no colour
    assert "white" not in gloss("面白いですね", "ja")
    assert gloss("白のTシャツ", "ja").startswith("white")
    # "十一月" is November, not "十" and January
    assert gloss("十一月", "zh").strip() == "november"
    assert guess_language("已为您预订UA511航班靠过道的22C座位。").why_unread.startswith(
        "written mostly in letters of other scripts")


@rule("oracle.scheduled-not-done")
@pytest.mark.parametrize(("answer", "outcome"), [
    # an action that will be carried out later is scheduled, not done
    ("UA511の通路側の座席22Cの予約は今夜実行されます。", "not recovered"),
    ("UA511航班靠过道的22C座位的预订将执行于明早。", "not recovered"),
    ("UA511 항공편 통로 쪽 좌석 22C 예약은 내일 실행될 예정입니다.", "not recovered"),
    # done, it is recovered
    ("UA511便の通路側の座席22Cを予約しました。", "recovered"),
])
def test_an_action_to_be_carried_out_later_is_scheduled(answer, outcome):
    assert judge_recovery(answer, *UA511, request=BOOK).outcome == outcome
