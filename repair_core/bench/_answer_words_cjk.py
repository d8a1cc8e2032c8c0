"""The answer reader's words in Chinese (simplified and traditional), Japanese and Korean
(docs/benchmark.md, "Reading an answer"; rule `oracle.cjk-languages`).

Chinese and Japanese write no space between words, and Korean joins its endings to the
word. So the reader finds the general words of these languages by their letters: one
pass over the answer, at each place the longest word of a closed list that starts there
(the list's longest word bounds each try, so the pass is linear in the answer's length),
and writes each word found as the English words the reader reads (`gloss`): "预订了" as
"booked", "予約していません" as "not booked", "예약할까요" as "shall i book", "星期四"
as "thursday", "通路側" as "aisle", "而不是" as "instead of". The answer is then read as an
English one. The lists hold general words only — verbs of booking, adding, putting,
changing, sending, buying and holding with the endings that make them done, negated,
offered or promised; negations, rejections, corrections, apologies and pending words;
weekdays, months, colours, seat positions, cabins, an order's statuses, the names of
languages, "size" and "order" — never an answer's text or a case's values. A value
written otherwise ("埃塞俄比亚菜" for *Ethiopian*) stays unsure (`oracle.unsure-translated`).

A negation left over once the words are found ("不", "没", "ません", "않", ...) is one the
reader does not read in that form: the answer is then unsure (`unread_negation`).
"""

from __future__ import annotations

__all__ = ["CJK_LANGUAGES", "gloss", "unread_negation"]

CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})
"""Chinese, Japanese and Korean: read through `gloss`."""

_VERBS = {"book": "booked", "add": "added", "put": "put", "change": "changed",
          "send": "sent", "buy": "bought", "hold": "held"}

# -- Chinese ----------------------------------------------------------------------------

_ZH_STEMS = {
    "预订": "book", "預訂": "book", "预定": "book", "預定": "book", "订好": "book",
    "訂好": "book", "预约": "book", "預約": "book", "添加": "add", "加入": "add",
    "加到": "add", "放入": "put", "放进": "put", "放進": "put", "更改": "change",
    "修改": "change", "改为": "change", "改為": "change", "改成": "change",
    "更换": "change", "更換": "change", "发送": "send", "發送": "send", "寄出": "send",
    "发出": "send", "發出": "send", "寄送": "send", "购买": "buy", "購買": "buy",
    "买": "buy", "買": "buy", "保留": "hold"}
_ZH_FOR_YOU = ("", "为您", "為您", "帮您", "幫您", "给您", "給您", "为你", "為你", "帮你",
               "幫你")
_ZH_DONE_BEFORE = ("已", "已经", "已經", "我已", "我已经", "我已經", "均已", "都已")
_ZH_DONE_AFTER = ("了", "好了", "好", "成功", "完成", "完毕", "完畢")
_ZH_NOT = ("没有", "沒有", "没", "沒", "未", "尚未", "还没有", "還沒有", "还没", "還沒",
           "并未", "並未", "没能", "沒能", "未能", "并没有", "並沒有")
_ZH_CANNOT = ("无法", "無法", "不能", "没法", "沒法")
_ZH_OFFER = ("要我", "需要我", "是否要", "是否需要", "要不要", "需要")
_ZH_CAN = ("我可以", "可以", "我能", "能")
_ZH_WILL = ("我会", "我會", "我将", "我將", "我来", "我來", "将", "將", "会", "會")


def _zh_words() -> dict[str, str]:
    out: dict[str, str] = {}
    for stem, verb in _ZH_STEMS.items():
        past = _VERBS[verb]
        out[stem] = verb
        for you in _ZH_FOR_YOU:
            for done in _ZH_DONE_BEFORE:
                out[done + you + stem] = past
            for neg in _ZH_NOT:
                out[neg + you + stem] = f"not {past}"
            for neg in _ZH_CANNOT:
                out[neg + you + stem] = f"cannot {verb}"
            for offer in _ZH_OFFER:
                out[offer + "我" * (not offer.endswith("我")) + you + stem] = (
                    f"shall i {verb}")
            for can in _ZH_CAN:
                out[can + you + stem] = f"i can {verb}"
            for will in _ZH_WILL:
                out[will + you + stem] = f"i will {verb}"
        for after in _ZH_DONE_AFTER:
            out[stem + after] = past
    return out


_ZH = {
    **_zh_words(),
    # negations and rejections before a value, rejections after it
    "不是": "not", "并不是": "not", "並不是": "not", "而不是": "instead of", "而非": "instead of",
    "代替": "instead of", "错误的": "wrong", "錯誤的": "wrong", "旧的": "old", "舊的": "old",
    "之前的": "old", "以前的": "old", "原来的": "old", "原來的": "old", "是错的": "was wrong",
    "是錯的": "was wrong", "有误": "was wrong", "有誤": "was wrong", "不对": "was wrong",
    "不對": "was wrong", "已取消": "was cancelled", "已作废": "was cancelled",
    "已作廢": "was cancelled",
    # corrections, apologies, pending
    "更正": "correction", "纠正": "correction", "糾正": "correction", "抱歉": "sorry",
    "对不起": "sorry", "對不起": "sorry", "不好意思": "sorry", "待确认": "pending",
    "待確認": "pending", "等待确认": "pending", "等待確認": "pending", "审核中": "pending",
    "審核中": "pending", "待处理": "pending", "待處理": "pending", "仍在": "still",
    "将执行": "scheduled", "將執行": "scheduled", "将被执行": "scheduled",
    "將被執行": "scheduled",
    "还在": "still", "還在": "still", "吗": "?", "嗎": "?",
    # values of the closed vocabularies
    "星期一": "monday", "星期二": "tuesday", "星期三": "wednesday", "星期四": "thursday",
    "星期五": "friday", "星期六": "saturday", "星期日": "sunday", "星期天": "sunday",
    "周一": "monday", "周二": "tuesday", "周三": "wednesday", "周四": "thursday",
    "周五": "friday", "周六": "saturday", "周日": "sunday", "週一": "monday",
    "週二": "tuesday", "週三": "wednesday", "週四": "thursday", "週五": "friday",
    "週六": "saturday", "週日": "sunday", "礼拜四": "thursday", "禮拜四": "thursday",
    "一月": "january", "二月": "february", "三月": "march", "四月": "april", "五月": "may",
    "六月": "june", "七月": "july", "八月": "august", "九月": "september",
    "十月": "october", "十一月": "november", "十二月": "december",
    "红色": "red", "紅色": "red", "蓝色": "blue", "藍色": "blue", "绿色": "green",
    "綠色": "green", "白色": "white", "黑色": "black", "灰色": "grey",
    "靠过道": "aisle", "靠過道": "aisle", "过道": "aisle", "過道": "aisle", "靠走道": "aisle",
    "走道": "aisle", "靠通道": "aisle", "通道": "aisle", "靠窗": "window", "窗口": "window",
    "中间": "middle", "中間": "middle", "经济舱": "economy", "經濟艙": "economy",
    "商务舱": "business", "商務艙": "business", "超级经济舱": "premium economy",
    "素食": "vegetarian",
    "超級經濟艙": "premium economy", "豪华经济舱": "premium economy",
    "豪華經濟艙": "premium economy", "处理中": "processing", "處理中": "processing",
    "正在处理": "processing", "正在處理": "processing", "运输中": "in transit",
    "運輸中": "in transit", "在途中": "in transit", "运送中": "in transit",
    "運送中": "in transit", "派送中": "out for delivery", "正在派送": "out for delivery",
    "已送达": "delivered", "已送達": "delivered", "已签收": "delivered",
    "已簽收": "delivered", "已打包": "packed", "已包装": "packed", "已包裝": "packed",
    "英语": "english", "英語": "english", "法语": "french", "法語": "french",
    "德语": "german", "德語": "german", "西班牙语": "spanish", "西班牙語": "spanish",
    "意大利语": "italian", "義大利語": "italian", "葡萄牙语": "portuguese",
    "葡萄牙語": "portuguese", "荷兰语": "dutch", "荷蘭語": "dutch", "日语": "japanese",
    "日語": "japanese", "中文": "chinese", "汉语": "chinese", "漢語": "chinese",
    "韩语": "korean", "韓語": "korean", "俄语": "russian", "俄語": "russian",
    "阿拉伯语": "arabic", "阿拉伯語": "arabic", "希腊语": "greek", "希臘語": "greek",
    "瑞典语": "swedish", "瑞典語": "swedish", "波兰语": "polish", "波蘭語": "polish",
    "土耳其语": "turkish", "土耳其語": "turkish",
    "尺码": "size", "尺碼": "size", "尺寸": "size", "订单": "order", "訂單": "order",
}

# -- Japanese ---------------------------------------------------------------------------

_JA_STEMS = {"予約": "book", "追加": "add", "変更": "change", "送信": "send",
             "発送": "send", "購入": "buy", "確保": "hold", "手配": "book"}
_JA_ENDINGS = {
    "しました": "{past}", "いたしました": "{past}", "済み": "{past}", "済": "{past}",
    "されました": "{past}", "しておきました": "{past}", "しております": "{past}",
    "しています": "{past}", "されています": "{past}", "されております": "{past}",
    "完了": "{past}", "が完了しました": "{past}",
    "していません": "not {past}", "しておりません": "not {past}",
    "されていません": "not {past}", "されておりません": "not {past}",
    "しませんでした": "not {past}", "できませんでした": "not {past}",
    "していない": "not {past}", "されていない": "not {past}", "できていません": "not {past}",
    "できません": "cannot {verb}", "しましょうか": "shall i {verb}",
    "いたしましょうか": "shall i {verb}", "しますか": "shall i {verb}",
    "してもよろしいですか": "shall i {verb}", "いたしますか": "shall i {verb}",
    "できます": "i can {verb}", "することができます": "i can {verb}",
    "します": "i will {verb}", "いたします": "i will {verb}", "しておきます": "i will {verb}",
    "": "{verb}"}
_JA_PUT = {"入れました": "put", "入れておきました": "put", "入れています": "put",
           "入れていません": "not put", "入れませんでした": "not put",
           "入れましょうか": "shall i put", "入れます": "i will put", "入れ": "put"}

_JA = {
    **{stem + ending: form.format(verb=verb, past=_VERBS[verb])
       for stem, verb in _JA_STEMS.items() for ending, form in _JA_ENDINGS.items()},
    **_JA_PUT,
    "ではなく": "was wrong ,", "じゃなく": "was wrong ,", "の代わりに": "was replaced ,",
    "代わりに": "was replaced ,", "ではありません": "was wrong", "じゃありません": "was wrong",
    "誤り": "wrong", "間違い": "wrong", "以前の": "old", "古い": "old",
    "訂正": "correction", "失礼しました": "sorry", "すみません": "sorry",
    "申し訳ありません": "sorry", "保留中": "pending", "確認待ち": "pending",
    "承認待ち": "pending", "処理待ち": "pending", "まだ": "",
    "実行されます": "scheduled", "実行される予定": "scheduled", "実行予定": "scheduled",
    "月曜日": "monday", "火曜日": "tuesday", "水曜日": "wednesday", "木曜日": "thursday",
    "金曜日": "friday", "土曜日": "saturday", "日曜日": "sunday", "月曜": "monday",
    "火曜": "tuesday", "水曜": "wednesday", "木曜": "thursday", "金曜": "friday",
    "土曜": "saturday", "日曜": "sunday",
    "赤": "red", "赤色": "red", "レッド": "red", "青": "blue", "青色": "blue",
    "ブルー": "blue", "緑": "green", "緑色": "green", "グリーン": "green", "白": "white",
    "白色": "white", "ホワイト": "white", "黒": "black", "黒色": "black",
    "ブラック": "black", "灰色": "grey", "グレー": "grey",
    # words that hold a colour's letter and are no colour
    "面白": "面白", "空白": "空白", "告白": "告白", "明白": "明白", "青年": "青年",
    "赤ちゃん": "赤ちゃん",
    "通路側": "aisle", "窓側": "window", "中央": "middle", "真ん中": "middle",
    "エコノミークラス": "economy", "エコノミー": "economy", "ビジネスクラス": "business",
    "ビジネス": "business", "プレミアムエコノミー": "premium economy",
    "ベジタリアン": "vegetarian", "菜食": "vegetarian",
    "処理中": "processing", "輸送中": "in transit", "配送中": "in transit",
    "配達中": "out for delivery", "配達済み": "delivered", "お届け済み": "delivered",
    "配達完了": "delivered", "梱包済み": "packed", "梱包完了": "packed",
    "英語": "english", "フランス語": "french", "ドイツ語": "german", "スペイン語": "spanish",
    "イタリア語": "italian", "ポルトガル語": "portuguese", "オランダ語": "dutch",
    "日本語": "japanese", "中国語": "chinese", "韓国語": "korean", "ロシア語": "russian",
    "アラビア語": "arabic", "ギリシャ語": "greek", "スウェーデン語": "swedish",
    "ポーランド語": "polish", "トルコ語": "turkish", "サイズ": "size", "注文": "order",
}

# -- Korean -----------------------------------------------------------------------------

_KO_STEMS = {"예약": "book", "추가": "add", "변경": "change", "발송": "send",
             "구매": "buy", "확보": "hold"}
_KO_ENDINGS = {
    "했습니다": "{past}", "했어요": "{past}", "했다": "{past}", "하였습니다": "{past}",
    "해 두었습니다": "{past}", "해 드렸습니다": "{past}", "해드렸습니다": "{past}",
    "되었습니다": "{past}", "됐습니다": "{past}", "되었어요": "{past}", "됐어요": "{past}",
    "되어 있습니다": "{past}", "돼 있습니다": "{past}", "완료": "{past}", " 완료": "{past}",
    "하지 않았습니다": "not {past}", "하지 않았어요": "not {past}",
    "되지 않았습니다": "not {past}", "되지 않았어요": "not {past}",
    "하지 못했습니다": "not {past}", "하지 못했어요": "not {past}",
    " 안 했습니다": "not {past}", " 안 했어요": "not {past}", "되지 않은": "not {past}",
    "하지 않은": "not {past}", "할까요": "shall i {verb}", "해 드릴까요": "shall i {verb}",
    "해드릴까요": "shall i {verb}", "하시겠습니까": "shall i {verb}",
    "하시겠어요": "shall i {verb}", "할 수 있습니다": "i can {verb}",
    "해 드릴 수 있습니다": "i can {verb}", "해드릴 수 있습니다": "i can {verb}",
    "할 수 있어요": "i can {verb}", "하겠습니다": "i will {verb}", "할게요": "i will {verb}",
    "해 드리겠습니다": "i will {verb}", "해드리겠습니다": "i will {verb}",
    "해 드릴게요": "i will {verb}", "": "{verb}"}

_KO = {
    **{stem + ending: form.format(verb=verb, past=_VERBS[verb])
       for stem, verb in _KO_STEMS.items() for ending, form in _KO_ENDINGS.items()},
    "담았습니다": "added", "담았어요": "added", "담아 두었습니다": "added",
    "담지 않았습니다": "not added", "담아 드릴까요": "shall i add",
    "담아드릴까요": "shall i add",
    "아니라": "was wrong ,", "아닙니다": "was wrong", "아니에요": "was wrong",
    "대신": "was replaced ,", "잘못된": "wrong", "이전": "old", "예전": "old",
    "정정": "correction", "죄송합니다": "sorry", "죄송해요": "sorry",
    "미안합니다": "sorry", "대기 중": "pending", "대기중": "pending", "보류 중": "pending",
    "확인 중": "pending", "아직": "",
    "실행될 예정": "scheduled", "실행됩니다": "scheduled", "실행 예정": "scheduled",
    "월요일": "monday", "화요일": "tuesday", "수요일": "wednesday", "목요일": "thursday",
    "금요일": "friday", "토요일": "saturday", "일요일": "sunday",
    "빨간색": "red", "빨간": "red", "빨강": "red", "레드": "red", "파란색": "blue",
    "파란": "blue", "파랑": "blue", "블루": "blue", "초록색": "green", "초록": "green",
    "녹색": "green", "그린": "green", "흰색": "white", "하얀색": "white", "하얀": "white",
    "화이트": "white", "검은색": "black", "검정색": "black", "검은": "black",
    "검정": "black", "블랙": "black", "회색": "grey", "그레이": "grey",
    "통로 쪽": "aisle", "통로측": "aisle", "통로석": "aisle", "통로": "aisle",
    "창가 쪽": "window", "창가석": "window", "창가": "window", "창측": "window",
    "가운데": "middle", "중간": "middle", "이코노미": "economy", "비즈니스": "business",
    "채식": "vegetarian", "베지테리언": "vegetarian",
    "프리미엄 이코노미": "premium economy", "처리 중": "processing", "처리중": "processing",
    "배송 중": "in transit", "배송중": "in transit", "운송 중": "in transit",
    "배달 중": "out for delivery", "배달중": "out for delivery", "배송 완료": "delivered",
    "배달 완료": "delivered", "포장 완료": "packed",
    "영어": "english", "프랑스어": "french", "독일어": "german", "스페인어": "spanish",
    "이탈리아어": "italian", "포르투갈어": "portuguese", "네덜란드어": "dutch",
    "일본어": "japanese", "중국어": "chinese", "한국어": "korean", "러시아어": "russian",
    "아랍어": "arabic", "그리스어": "greek", "스웨덴어": "swedish", "폴란드어": "polish",
    "터키어": "turkish", "사이즈": "size", "치수": "size", "주문": "order",
}

_PUNCTUATION = {"。": ". ", "！": "! ", "？": "? ", "，": ", ", "、": ", ", "：": ": ",
                "；": "; ", "（": " (", "）": ") "}
_WORDS = {"zh": _ZH, "ja": _JA, "ko": _KO}
_LONGEST = {code: max(map(len, words)) for code, words in _WORDS.items()}

_NEGATIONS = {"zh": ("不", "没", "沒", "未", "无", "無", "非", "别", "別"),
              "ja": ("ない", "ません", "ず", "無", "不", "未"),
              "ko": ("않", "못", "없", "안 ", "아니")}
"""Negations of each language: one left in the answer once its words are found is in a
form the reader does not read."""


def gloss(text: str, language: str) -> str:
    """`text` with each general word of `language` written as the English words the
    reader reads (see the module docstring); other letters are kept as they are.

    >>> gloss("UA511的22C座位已为您预订。", "zh")
    'UA511的22C座位 booked . '
    >>> gloss("22C席はまだ予約していません", "ja")
    '22C席は not booked '
    """
    words, longest = _WORDS[language], _LONGEST[language]
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        for size in range(min(longest, n - i), 0, -1):
            found = words.get(text[i:i + size])
            if found is not None:
                out.append(f" {found} " if found else " ")
                i += size
                break
        else:
            out.append(_PUNCTUATION.get(text[i], text[i]))
            i += 1
    return "".join(out).replace("  ", " ").lstrip()


def unread_negation(glossed: str, language: str) -> str | None:
    """A negation of `language` left in the answer once its words are found (`gloss`):
    one the reader does not read in that form; None when there is none."""
    return next((neg for neg in _NEGATIONS.get(language, ()) if neg in glossed), None)
