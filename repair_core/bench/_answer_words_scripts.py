"""The answer reader's words in Vietnamese, Hindi, Hungarian, Greek, Arabic, Hebrew and
Swahili (docs/rules.md, `oracle.glossed-scripts`).

These tables are read by `_answer_words_glossed.read` exactly as that module's own are:
each general word or phrase found in its language's one table is written as the English
words the reader reads, other words are kept, and a negation ("not>") is read only right
before a word of the table. They hold general words only — verbs of booking, adding,
holding, changing, sending and buying in their done, negated, promised and offered
forms; negations, "not yet", pending words, offers, "instead of", "old", "wrong",
corrections and apologies; weekdays, months, colours, seat positions, cabins, an order's
statuses, airline meals, the names of languages, "size", "order", "cart", "flight" — never
an answer's text or a case's values. A conditional ("nếu … sẽ", "volna", "θα", "لو",
"הייתי", "होता", "ninge-") is unread (`None`, named in `CONDITIONALS`), so a done verb
after it leaves the answer unsure.

Words that take a clitic prefix in writing — Arabic "و", "ب", "ل", "ف" (and, in, to, so)
and the article "ال", Hebrew "ו", "ב", "ל", "מ", "ה", "ש" — are listed in each prefixed
form (`_prefixed`), so the look-up stays one dictionary probe per word; Hebrew and
Hungarian attach a prefix or an ending to a Latin value with a hyphen ("מ-SFO",
"AA882-es"), which `detach` writes apart before the gloss.
"""

from __future__ import annotations

import re
import unicodedata

from ..model._order_gloss import PUNCTUATION

__all__ = ["CONDITIONALS", "SCRIPT_WORDS", "SIZE_AFTER", "detach", "normalise"]


def _each(words: str, english: str | None) -> dict[str, str | None]:
    return dict.fromkeys(words.split(), english)


def _prefixed(table: dict[str, str | None], prefixes: tuple[str, ...],
              article: str = "") -> dict[str, str | None]:
    """`table` with each single word of three or more letters also written after each of
    `prefixes` (the clitics that attach to the next word), with the same gloss; a word
    beginning with `article` after "ل" loses the article's first letter (Arabic "للطلب").
    An entry already in the table is kept."""
    out = dict(table)
    for word, english in table.items():
        if " " in word or len(word) < 3:
            continue
        for p in prefixes:
            out.setdefault(p + word, english)
        if article and word.startswith(article):
            out.setdefault("ل" + word[1:], english)
            out.setdefault("ول" + word[1:], english)
    for phrase, english in table.items():
        if " " in phrase:
            first, rest = phrase.split(" ", 1)
            for p in prefixes:
                out.setdefault(f"{p}{first} {rest}", english)
    return out


# -- Vietnamese -------------------------------------------------------------------------

_VI_VERBS = {"thêm": ("add", "added"), "bổ sung": ("add", "added"),
             "đặt": ("book", "booked"), "đặt chỗ": ("book", "booked"),
             "đặt vé": ("book", "booked"), "giữ": ("hold", "held"),
             "giữ chỗ": ("hold", "held"), "gửi": ("send", "sent"),
             "giao": ("deliver", "delivered"), "đổi": ("change", "changed"),
             "thay đổi": ("change", "changed"), "cập nhật": ("change", "changed"),
             "mua": ("buy", "bought"), "cho vào": ("put", "put"), "bỏ vào": ("put", "put")}
"""Vietnamese verbs of acting, which no ending marks: "đã" (past) or "được" (passive)
before them is done, "sẽ" (will) a promise, "chưa" (not yet) and "không" (not) not
done; a bare verb is the verb alone, not done ("nhớ đặt vé": remember to book)."""

_VI: dict[str, str | None] = {
    "đã cố": "i tried", "đã thử": "i tried", "cố gắng": "i tried", "đã cố gắng": "i tried",
    **{verb: base for verb, (base, _) in _VI_VERBS.items()},
    **{f"{done} {verb}": past for verb, (_, past) in _VI_VERBS.items()
       for done in ("đã", "đã được", "được")},
    **{f"sẽ {verb}": f"i will {base}" for verb, (base, _) in _VI_VERBS.items()},
    **{f"sẽ được {verb}": "will ship" for verb in ("gửi", "giao", "chuyển")},
    **{f"chưa {verb}": f"not yet {past}" for verb, (_, past) in _VI_VERBS.items()},
    **{f"chưa được {verb}": f"not yet {past}" for verb, (_, past) in _VI_VERBS.items()},
    **{f"không {verb}": f"not {past}" for verb, (_, past) in _VI_VERBS.items()},
    **{f"đã không {verb}": f"not {past}" for verb, (_, past) in _VI_VERBS.items()},
    **{f"có thể {verb}": f"can {base}" for verb, (base, _) in _VI_VERBS.items()},
    **{f"không thể {verb}": f"cannot {base}" for verb, (base, _) in _VI_VERBS.items()},
    "đã": "", "rồi": "", "nhé": "", "nha": "", "ạ": "", "nữa": "",
    "tôi có thể": "i can", "mình có thể": "i can", "bạn có muốn": "shall i",
    "có muốn": "shall i", "muốn tôi": "shall i", "muốn mình": "shall i",
    "không": "not>", "chưa": "not yet>", "không còn": "no longer",
    "không còn là": "no longer", "thất bại": "failed", "không thành công": "failed",
    **_each("chẳng chả đừng", None), "không có": None,
    "nếu": "if", "lẽ ra": None, "đáng lẽ": None, "lẽ ra đã": None,
    "đang chờ": "pending", "chờ xử lý": "pending", "chờ xác nhận": "pending",
    "thay vì": "instead of", "thay cho": "instead of", "cũ": "old",
    "trước đó": "old", "sai": "wrong", "nhầm": "wrong", "đính chính": "correction",
    "xin lỗi": "sorry",
    "thứ hai": "monday", "thứ ba": "tuesday", "thứ tư": "wednesday",
    "thứ năm": "thursday", "thứ sáu": "friday", "thứ bảy": "saturday",
    "chủ nhật": "sunday", "tới": "to",
    **{f"{day} tới": f"next {day_en}" for day, day_en in (
        ("thứ hai", "monday"), ("thứ ba", "tuesday"), ("thứ tư", "wednesday"),
        ("thứ năm", "thursday"), ("thứ sáu", "friday"), ("thứ bảy", "saturday"),
        ("chủ nhật", "sunday"))},
    "tháng một": "january", "tháng giêng": "january", "tháng hai": "february",
    "tháng ba": "march", "tháng tư": "april", "tháng năm": "may", "tháng sáu": "june",
    "tháng bảy": "july", "tháng tám": "august", "tháng chín": "september",
    "tháng mười": "october", "tháng mười một": "november", "tháng mười hai": "december",
    "màu": "", "đỏ": "red", "xanh dương": "blue", "xanh lam": "blue",
    "xanh lá": "green", "xanh lá cây": "green", "trắng": "white", "đen": "black",
    "xám": "grey", "xanh navy": "navy", "xanh đậm": "navy",
    "ghế": "seat", "chỗ ngồi": "seat", "lối đi": "aisle", "cạnh lối đi": "aisle",
    "cửa sổ": "window", "cạnh cửa sổ": "window", "giữa": "middle", "ở giữa": "middle",
    "hạng phổ thông": "economy", "phổ thông": "economy",
    "hạng phổ thông đặc biệt": "premium economy", "phổ thông đặc biệt": "premium economy",
    "hạng thương gia": "business", "thương gia": "business",
    "đang xử lý": "processing", "đang vận chuyển": "in transit",
    "đang trên đường": "in transit", "đang giao": "out for delivery",
    "đang giao hàng": "out for delivery", "đã giao hàng": "delivered",
    "đã đóng gói": "packed", "đóng gói": "packed",
    "chay": "vegetarian", "ăn chay": "vegetarian", "suất ăn chay": "vegetarian",
    "tiếng anh": "english", "tiếng pháp": "french", "tiếng đức": "german",
    "tiếng tây ban nha": "spanish", "tiếng ý": "italian",
    "tiếng bồ đào nha": "portuguese", "tiếng hà lan": "dutch", "tiếng nhật": "japanese",
    "tiếng trung": "chinese", "tiếng hàn": "korean", "tiếng nga": "russian",
    "tiếng ả rập": "arabic", "tiếng hy lạp": "greek", "tiếng thụy điển": "swedish",
    "tiếng ba lan": "polish", "tiếng thổ nhĩ kỳ": "turkish",
    "cỡ": "size", "kích cỡ": "size", "đơn hàng": "order", "đơn": "order",
    "giỏ hàng": "cart", "giỏ": "cart", "chuyến bay": "flight", "chuyến": "flight",
    "và": "and", "với": "with", "cho": "for", "từ": "from", "đến": "to",
    "trên": "on", "tôi": "i", "mình": "i",
}
"""Vietnamese."""

# -- Hindi ------------------------------------------------------------------------------

_HI_VERBS = {"जोड़": ("add", "added"), "बुक": ("book", "booked"),
             "आरक्षित": ("book", "booked"), "रिज़र्व": ("book", "booked"),
             "होल्ड": ("hold", "held"), "भेज": ("send", "sent"), "बदल": ("change", "changed"),
             "खरीद": ("buy", "bought"), "डाल": ("put", "put")}
"""Hindi verb stems; a light verb ("कर", "दे") or an ending after them says done,
promised or offered."""
_HI_DONE = ("ा", "ी", "े", " दिया", " दी", " दिए", " दिये", " किया", " की", " किए",
            " कर दिया", " कर दी", " कर दिए", " दिया है", " दी है", " किया है", " की है",
            " कर दिया है", " कर दी है", " दिया गया", " दी गई", " किया गया", " की गई",
            " कर दिया गया", " कर दी गई", "ा गया", "ी गई", " हो गया", " हो गई", " हो चुका",
            " हो चुकी", " कर लिया", " कर ली", " कर चुका", " कर चुकी", " दिया गया है",
            " कर दिया गया है", "ा गया है", "ी गई है",
            # could, managed to: "जोड़ी जा सकी", "जोड़ पाया"; after "नहीं", not done
            "ा जा सका", "ी जा सकी", "े जा सके", " पाया", " पाई", " पाए", " सका", " सकी",
            " सके", " कर पाया", " कर पाई", " कर सका", " कर सकी")
_HI_WILL = (" करूँगा", " करूंगा", " करूँगी", " करूंगी", " कर दूँगा", " कर दूंगा",
            " कर दूँगी", " कर दूंगी", "ूँगा", "ूंगा", "ूँगी", "ूंगी", " दूँगा", " दूंगा",
            " दूँगी", " दूंगी")
_HI_OFFER = (" करूँ", " करूं", " कर दूँ", " कर दूं", "ूँ", "ूं", " दूँ", " दूं")


def _hi_verbs() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for stem, (base, past) in _HI_VERBS.items():
        for ending in _HI_DONE:
            out[stem + ending] = past
        for ending in _HI_WILL:
            out[stem + ending] = f"i will {base}"
        for ending in _HI_OFFER:
            out[stem + ending] = f"shall i {base}"
        # about to, was about to (so not yet done), will be able to: "जोड़ने वाला हूँ",
        # "जोड़ने वाली थी", "जोड़ पाऊँगा"
        for ending in ("ने वाला हूँ", "ने वाली हूँ", "ने वाले हैं", "ने वाला हूं",
                       "ने वाली हूं", "ने वाला था", "ने वाली थी", "ने वाले थे", " पाऊँगा",
                       " पाऊंगा", " पाऊँगी", " पाऊंगी", " सकूँगा", " सकूंगा", " सकूँगी",
                       " सकूंगी"):
            out[stem + ending] = f"i will {base}"
        # can be added, booked: "जोड़ी जा सकती है", "बुक की जा सकती है", not "जोड़ी",
        # "बुक की" (added, booked) and the words after it unread
        for ending in ("ा जा सकता है", "ी जा सकती है", "े जा सकते हैं", " किया जा सकता है",
                       " की जा सकती है", " किए जा सकते हैं", " दिया जा सकता है",
                       " दी जा सकती है", " दिए जा सकते हैं"):
            out[stem + ending] = f"i can {base}"
        for ending in ("ा जाएगा", "ी जाएगी", "े जाएँगे", "े जाएंगे", "ा जायेगा", "ी जायेगी"):
            out[stem + ending] = "will ship" if base == "send" else f"will be {past}"
        out[stem + " कर सकता हूँ"] = out[stem + " कर सकती हूँ"] = f"i can {base}"
        out[stem + " सकता हूँ"] = out[stem + " सकती हूँ"] = f"i can {base}"
    return out


_HI: dict[str, str | None] = {
    **_hi_verbs(),
    "क्या मैं": "shall i", "मैं कर सकता हूँ": "i can", "मैं कर सकती हूँ": "i can",
    "नहीं": "not>", "अभी तक नहीं": "not yet>", "अभी नहीं": "not yet>",
    **_each("न ना मत", None), "कोई नहीं": None, "कुछ नहीं": None,
    "अगर": "if", "यदि": "if", **_each("होता होती होते", None),
    "विफल": "failed", "असफल": "failed",
    "लंबित": "pending", "प्रतीक्षा में": "pending", "इंतज़ार में": "pending",
    "इंतजार में": "pending", "के बजाय": "was replaced ,", "की बजाय": "was replaced ,",
    "के स्थान पर": "was replaced ,", "की जगह": "was replaced ,",
    **_each("पुराना पुरानी पुराने पिछला पिछली पिछले", "old"),
    **_each("गलत ग़लत", "wrong"), "सुधार": "correction",
    **_each("क्षमा माफ़ी माफी सॉरी", "sorry"), "माफ़ कीजिए": "sorry",
    "माफ कीजिए": "sorry", "क्षमा करें": "sorry",
    "सोमवार": "monday", "मंगलवार": "tuesday", "बुधवार": "wednesday",
    **_each("गुरुवार बृहस्पतिवार", "thursday"), "शुक्रवार": "friday",
    "शनिवार": "saturday", "रविवार": "sunday",
    "जनवरी": "january", **_each("फ़रवरी फरवरी", "february"), "मार्च": "march",
    "अप्रैल": "april", "मई": "may", "जून": "june", "जुलाई": "july", "अगस्त": "august",
    **_each("सितंबर सितम्बर", "september"), **_each("अक्टूबर अक्तूबर", "october"),
    **_each("नवंबर नवम्बर", "november"), **_each("दिसंबर दिसम्बर", "december"),
    "लाल": "red", **_each("नीला नीली नीले", "blue"), **_each("हरा हरी हरे", "green"),
    **_each("सफ़ेद सफेद", "white"), **_each("काला काली काले", "black"),
    **_each("स्लेटी धूसर ग्रे", "grey"), "गहरा नीला": "navy", "नेवी": "navy",
    "सीट": "seat", **_each("गलियारे गलियारा आइल", "aisle"), "खिड़की": "window",
    "बीच की": "middle", "बीच वाली": "middle", "मिडिल": "middle",
    **_each("इकॉनमी इकोनॉमी इकॉनोमी", "economy"), **_each("बिज़नेस बिजनेस", "business"),
    "प्रीमियम इकॉनमी": "premium economy", "प्रीमियम इकोनॉमी": "premium economy",
    "प्रक्रिया में": "processing", "प्रोसेस हो रहा है": "processing",
    "रास्ते में": "in transit", "ट्रांज़िट में": "in transit",
    "डिलीवरी के लिए निकला": "out for delivery", "पैक": "packed",
    **_each("पहुँचेगा पहुंचेगा पहुँचेगी पहुंचेगी", "arrives"),
    **_each("शाकाहारी", "vegetarian"),
    **_each("अंग्रेज़ी अंग्रेजी", "english"), **_each("फ़्रेंच फ्रेंच फ़्रांसीसी", "french"),
    "जर्मन": "german", **_each("स्पेनिश स्पैनिश", "spanish"), "इतालवी": "italian",
    "पुर्तगाली": "portuguese", "डच": "dutch", "जापानी": "japanese", "चीनी": "chinese",
    "कोरियाई": "korean", "रूसी": "russian", "अरबी": "arabic",
    **_each("यूनानी ग्रीक", "greek"), "स्वीडिश": "swedish", "पोलिश": "polish",
    "तुर्की": "turkish",
    **_each("साइज़ साइज आकार", "size"), "ऑर्डर": "order", "कार्ट": "cart",
    **_each("उड़ान फ़्लाइट फ्लाइट", "flight"), "और": "and", "के साथ": "with",
    "के लिए": "for", "मैंने": "i", "मैं": "i",
}
"""Hindi."""

# -- Hungarian --------------------------------------------------------------------------

_HU_VERBS = {"foglal": ("book", "booked", "le"), "ad": ("add", "added", "hozzá"),
             "tesz": ("put", "put", "be"), "küld": ("send", "sent", "el"),
             "változtat": ("change", "changed", "meg"), "vesz": ("buy", "bought", "meg"),
             "tart": ("hold", "held", "fenn"), "zárol": ("hold", "held", "")}
_HU_PAST = {"foglal": "foglaltam foglaltuk", "ad": "adtam adtuk",
            "tesz": "tettem tettük", "küld": "küldtem küldtük",
            "változtat": "változtattam változtattuk", "vesz": "vettem vettük",
            "tart": "tartottam tartottuk", "zárol": "zároltam zároltuk"}
_HU_WILL = {"foglal": "foglalom", "ad": "adom", "tesz": "teszem", "küld": "küldöm",
            "változtat": "változtatom", "vesz": "veszem", "tart": "tartom",
            "zárol": "zárolom"}
_HU_OFFER = {"foglal": "foglaljam", "ad": "adjam", "tesz": "tegyem", "küld": "küldjem",
             "változtat": "változtassam", "vesz": "vegyem", "tart": "tartsam",
             "zárol": "zároljam"}
_HU_DONE_PASSIVE = {"foglal": "foglalva", "ad": "adva", "tesz": "téve", "küld": "küldve",
                    "változtat": "változtatva", "vesz": "véve", "tart": "tartva",
                    "zárol": "zárolva"}


def _hu_verbs() -> dict[str, str | None]:
    """Each verb with and without its particle ("lefoglaltam", "foglaltam le"): done,
    negated with the particle after ("nem foglaltam le"), promised ("lefoglalom"),
    offered ("lefoglaljam?") and done in the passive ("le van foglalva", "lefoglalva")."""
    out: dict[str, str | None] = {}
    for verb, (base, past, particle) in _HU_VERBS.items():
        for form in _HU_PAST[verb].split():
            out[particle + form] = past
            out[form] = past
            out[f"nem {form}"] = f"not {past}"
            out[f"még nem {form}"] = f"not yet {past}"
            if particle:
                out[f"{form} {particle}"] = past
        out[particle + _HU_WILL[verb]] = f"i will {base}"
        out[particle + _HU_OFFER[verb]] = f"shall i {base}"
        out[particle + _HU_DONE_PASSIVE[verb]] = past
        if particle:
            out[f"{particle} van {_HU_DONE_PASSIVE[verb]}"] = past
            out[f"{particle} lett {_HU_DONE_PASSIVE[verb]}"] = past
            out[f"nincs {particle}{_HU_DONE_PASSIVE[verb]}"] = f"not {past}"
    return out


_HU: dict[str, str | None] = {
    **_hu_verbs(), "megrendeltem": "i ordered", "feladtam": "i sent",
    "nem": "not>", "még nem": "not yet>", "se": None, "sem": None, "soha": "never",
    **_each("nincs nincsen semmi semmit", None), "volna": None,
    "ne": None, "ha": "if", "sikertelen": "failed", "nem sikerült": "failed",
    "megpróbáltam": "i tried", "megpróbáltuk": "i tried", "próbáltam": "i tried", "próbáltuk": "i tried",
    "függőben": "pending", "várakozik": "pending", "jóváhagyásra vár": "pending",
    "helyett": "was replaced ,", "tudok": "i can",
    **_each("régi régit korábbi előző", "old"),
    **_each("hibás rossz téves helytelen", "wrong"), **_each("helyesbítés javítás",
                                                               "correction"),
    **_each("bocsánat elnézést", "sorry"),
    **_each("hétfő hétfőn", "monday"), **_each("kedd kedden", "tuesday"),
    **_each("szerda szerdán", "wednesday"), **_each("csütörtök csütörtökön", "thursday"),
    **_each("péntek pénteken", "friday"), **_each("szombat szombaton", "saturday"),
    **_each("vasárnap", "sunday"), **_each("jövő", "next"),
    **_each("január januárban", "january"), **_each("február februárban", "february"),
    **_each("március márciusban", "march"), **_each("április áprilisban", "april"),
    **_each("május májusban", "may"), **_each("június júniusban", "june"),
    **_each("július júliusban", "july"), **_each("augusztus augusztusban", "august"),
    **_each("szeptember szeptemberben", "september"),
    **_each("október októberben", "october"), **_each("november novemberben", "november"),
    **_each("december decemberben", "december"),
    **_each("piros vörös", "red"), "kék": "blue", "zöld": "green", "fehér": "white",
    "fekete": "black", "szürke": "grey", "sötétkék": "navy",
    **_each("ülés ülést ülőhely ülőhelyet hely helyet", "seat"),
    **_each("folyosói folyosó", "aisle"), "folyosó melletti": "aisle",
    **_each("ablak ablaknál", "window"), "ablak melletti": "window",
    **_each("középső", "middle"), "turista osztály": "economy",
    "turistaosztály": "economy", "gazdaságos": "economy", "osztály": "class",
    "prémium turista": "premium economy",
    "feldolgozás alatt": "processing", "úton van": "in transit", "úton": "in transit",
    "kiszállítás alatt": "out for delivery", "kézbesítve": "delivered",
    "becsomagolva": "packed", "vegetáriánus": "vegetarian",
    **_each("angol angolul", "english"), **_each("francia franciául", "french"),
    **_each("német németül", "german"), **_each("spanyol spanyolul", "spanish"),
    **_each("olasz olaszul", "italian"), **_each("portugál portugálul", "portuguese"),
    **_each("holland hollandul", "dutch"), **_each("japán japánul", "japanese"),
    **_each("kínai kínaiul", "chinese"), **_each("koreai koreaiul", "korean"),
    **_each("orosz oroszul", "russian"), **_each("arab arabul", "arabic"),
    **_each("görög görögül", "greek"), **_each("svéd svédül", "swedish"),
    **_each("lengyel lengyelül", "polish"), **_each("török törökül", "turkish"),
    **_each("méret méretben méretű", "size"),
    **_each("rendelés rendelést rendelésed rendelése", "order"),
    **_each("kosár kosárba kosaradba kosaradhoz kosárhoz kosárban", "cart"),
    **_each("járat járatot járaton járatra", "flight"), "és": "and",
}
"""Hungarian."""

_HU_ENDINGS = ("es", "as", "os", "ös", "et", "at", "ot", "öt", "t", "nak", "nek", "ban",
               "ben", "ba", "be", "ra", "re", "ról", "ről", "hoz", "hez", "höz", "kor",
               "on", "en", "ön", "n", "ig", "tól", "től", "val", "vel", "ból", "ből", "ként",
               "ás")

# -- Greek ------------------------------------------------------------------------------

_EL_VERBS = {"πρόσθεσα": "added", "προσθέσαμε": "added", "κράτησα": "held",
             "κρατήσαμε": "held", "έκλεισα": "booked", "κλείσαμε": "booked",
             "δέσμευσα": "held", "άλλαξα": "changed", "αλλάξαμε": "changed",
             "έστειλα": "sent", "στείλαμε": "sent", "αγόρασα": "bought",
             "έβαλα": "put", "προστέθηκε": "added", "προστέθηκαν": "added",
             "κρατήθηκε": "held", "κλείστηκε": "booked", "στάλθηκε": "sent",
             "εστάλη": "sent", "άλλαξε": "changed", "αλλάχθηκε": "changed",
             "παραδόθηκε": "delivered", "συσκευάστηκε": "packed"}
_EL_FUTURE = {"προσθέσω": "add", "κρατήσω": "hold", "κλείσω": "book", "αλλάξω": "change",
              "στείλω": "send", "αγοράσω": "buy", "βάλω": "put"}

_EL: dict[str, str | None] = {
    **_EL_VERBS,
    **{f"δεν {verb}": f"not {past}" for verb, past in _EL_VERBS.items()},
    **{f"θα {verb}": f"i will {base}" for verb, base in _EL_FUTURE.items()},
    **{f"να {verb}": f"shall i {base}" for verb, base in _EL_FUTURE.items()},
    **{f"μπορώ να {verb}": f"i can {base}" for verb, base in _EL_FUTURE.items()},
    "θα σταλεί": "will ship", "θα αποσταλεί": "will ship", "θα παραδοθεί": "will ship",
    "θέλετε να": "shall i", "θέλεις να": "shall i", "μπορώ": "i can",
    "δεν": "not>", "όχι": "not>", "ακόμα δεν": "not yet>", "ακόμη δεν": "not yet>",
    **_each("μην μη ούτε τίποτα κανένα καμία κανένας", None), "θα": None, "αν": "if",
    "απέτυχε": "failed",
    "εκκρεμεί": "pending", "σε εκκρεμότητα": "pending", "σε αναμονή": "pending",
    "αντί για": "instead of", "αντί": "instead of",
    **_each("παλιό παλιά παλιός παλιάς προηγούμενο προηγούμενη προηγούμενος", "old"),
    **_each("λάθος λανθασμένο λανθασμένη", "wrong"), "διόρθωση": "correction",
    "συγγνώμη": "sorry",
    "δευτέρα": "monday", "τρίτη": "tuesday", "τετάρτη": "wednesday", "πέμπτη": "thursday",
    "παρασκευή": "friday", "σάββατο": "saturday", "κυριακή": "sunday",
    **_each("ιανουάριος ιανουαρίου", "january"), **_each("φεβρουάριος φεβρουαρίου",
                                                           "february"),
    **_each("μάρτιος μαρτίου", "march"), **_each("απρίλιος απριλίου", "april"),
    **_each("μάιος μαΐου", "may"), **_each("ιούνιος ιουνίου", "june"),
    **_each("ιούλιος ιουλίου", "july"), **_each("αύγουστος αυγούστου", "august"),
    **_each("σεπτέμβριος σεπτεμβρίου", "september"),
    **_each("οκτώβριος οκτωβρίου", "october"), **_each("νοέμβριος νοεμβρίου", "november"),
    **_each("δεκέμβριος δεκεμβρίου", "december"),
    **_each("κόκκινο κόκκινη κόκκινος κόκκινα", "red"), "μπλε": "blue",
    **_each("πράσινο πράσινη πράσινος πράσινα", "green"),
    **_each("λευκό λευκή λευκός άσπρο άσπρη άσπρος", "white"),
    **_each("μαύρο μαύρη μαύρος μαύρα", "black"), "γκρι": "grey", "σκούρο μπλε": "navy",
    **_each("θέση θέσης", "seat"), **_each("διάδρομο διάδρομος διαδρόμου", "aisle"),
    **_each("παράθυρο παραθύρου", "window"), **_each("μεσαία μεσαίο μεσαίας", "middle"),
    "οικονομική θέση": "economy", **_each("οικονομική οικονομικής", "economy"),
    "διακεκριμένη θέση": "business", "σε επεξεργασία": "processing",
    "καθ' οδόν": "in transit", "σε διαμετακόμιση": "in transit",
    "χορτοφαγικό": "vegetarian", "χορτοφαγικό γεύμα": "vegetarian",
    "αγγλικά": "english", "γαλλικά": "french", "γερμανικά": "german",
    "ισπανικά": "spanish", "ιταλικά": "italian", "πορτογαλικά": "portuguese",
    "ολλανδικά": "dutch", "ιαπωνικά": "japanese", "κινεζικά": "chinese",
    "κορεατικά": "korean", "ρωσικά": "russian", "αραβικά": "arabic",
    "ελληνικά": "greek", "σουηδικά": "swedish", "πολωνικά": "polish",
    "τουρκικά": "turkish",
    **_each("μέγεθος μεγέθους νούμερο", "size"), **_each("παραγγελία παραγγελίας",
                                                         "order"),
    **_each("καλάθι καλαθιού", "cart"), **_each("πτήση πτήσης", "flight"),
    "και": "and", "με": "with", "για": "for",
}
"""Greek (written with its tonos; a final sigma and a medial one are one letter)."""

# -- Arabic -----------------------------------------------------------------------------

_AR_NOUNS = {"الحجز": ("book", "booked"), "حجز": ("book", "booked"),
             "إضافة": ("add", "added"), "اضافة": ("add", "added"),
             "إرسال": ("send", "sent"), "ارسال": ("send", "sent"),
             "شحن": ("send", "shipped"), "تغيير": ("change", "changed"),
             "تعديل": ("change", "changed"), "شراء": ("buy", "bought"),
             "تثبيت": ("hold", "held")}
"""Arabic verbal nouns after "تم" (was done), "سيتم" (will be done) and "لم يتم" (was
not done)."""
_AR_VERBS = {"أضفت": "added", "اضفت": "added", "حجزت": "booked", "أرسلت": "sent",
             "ارسلت": "sent", "غيرت": "changed", "عدلت": "changed", "اشتريت": "bought",
             "وضعت": "put", "ثبتت": "held", "أضفنا": "added", "حجزنا": "booked",
             "أرسلنا": "sent"}
_AR_NOT = {"أضف": "added", "احجز": "booked", "أحجز": "booked", "أرسل": "sent",
           "أغير": "changed", "أشتر": "bought", "أضع": "put"}
_AR_WILL = {"سأضيف": "add", "سأحجز": "book", "سأرسل": "send", "سأغير": "change",
            "سأشتري": "buy"}

_AR: dict[str, str | None] = _prefixed({
    **_AR_VERBS,
    **{f"تم {noun}": past for noun, (_, past) in _AR_NOUNS.items()},
    **{f"تمت {noun}": past for noun, (_, past) in _AR_NOUNS.items()},
    **{f"لم يتم {noun}": f"not {past}" for noun, (_, past) in _AR_NOUNS.items()},
    **{f"لم تتم {noun}": f"not {past}" for noun, (_, past) in _AR_NOUNS.items()},
    **{f"سيتم {noun}": ("will ship" if base == "send" else f"will {base}")
       for noun, (base, _) in _AR_NOUNS.items()},
    # "I did / will do the adding": قمت بإضافة, سأقوم بإضافة, لم أقم بإضافة
    **{f"{did} ب{noun}": past for noun, (_, past) in _AR_NOUNS.items()
       for did in ("قمت", "قمنا")},
    **{f"{will} ب{noun}": f"i will {base}" for noun, (base, _) in _AR_NOUNS.items()
       for will in ("سأقوم", "سنقوم")},
    **{f"{did} ب{noun}": f"not {past}" for noun, (_, past) in _AR_NOUNS.items()
       for did in ("لم أقم", "لم نقم")},
    **{f"لم {verb}": f"not {past}" for verb, past in _AR_NOT.items()},
    **{verb: f"i will {base}" for verb, base in _AR_WILL.items()},
    **{"سن" + verb[2:]: f"we will {base}" for verb, base in _AR_WILL.items()},  # سنضيف
    "تم": "done", "هل تريد أن": "shall i", "هل تريدني أن": "shall i",
    "هل أقوم": "shall i", "يمكنني": "i can", "أستطيع": "i can",
    **_each("لا ولا فلا لم ولم فلم لن ولن ما", "not>"),
    **_each("ليس ليست لست وليس غير", None), "لا يوجد": None,
    "لو": None, "ولو": None, "لكنت": None,
    **{f"كنت {verb}": None for verb in _AR_WILL}, "إذا": "if", "اذا": "if",
    "فشل": "failed", "فشلت": "failed",
    "حاولت": "i tried", "حاولنا": "i tried",
    "قيد الانتظار": "pending", "معلق": "pending", "معلقة": "pending",
    "بانتظار": "pending", "بدلا من": "instead of", "بدلاً من": "instead of",
    **_each("القديم القديمة قديم قديمة السابق السابقة", "old"),
    **_each("خطأ خاطئ خاطئة الخاطئ الخاطئة", "wrong"), "تصحيح": "correction",
    **_each("آسف آسفة عذرا عذراً", "sorry"),
    **_each("الاثنين الإثنين", "monday"), "الثلاثاء": "tuesday", "الأربعاء": "wednesday",
    "الخميس": "thursday", "الجمعة": "friday", "السبت": "saturday", "الأحد": "sunday",
    "يوم": "", "يناير": "january", "فبراير": "february", "مارس": "march",
    **_each("أبريل إبريل", "april"), "مايو": "may", **_each("يونيو يونيه", "june"),
    **_each("يوليو يوليه", "july"), "أغسطس": "august", "سبتمبر": "september",
    "أكتوبر": "october", "نوفمبر": "november", "ديسمبر": "december",
    **_each("أحمر حمراء الأحمر الحمراء", "red"), **_each("أزرق زرقاء الأزرق الزرقاء",
                                                       "blue"),
    **_each("أخضر خضراء الأخضر الخضراء", "green"),
    **_each("أبيض بيضاء الأبيض البيضاء", "white"),
    **_each("أسود سوداء الأسود السوداء", "black"), **_each("رمادي رمادية الرمادي",
                                                         "grey"),
    **_each("كحلي كحلية", "navy"), **_each("مقعد المقعد", "seat"),
    **_each("الممر", "aisle"), "بجانب الممر": "aisle", **_each("النافذة", "window"),
    "بجانب النافذة": "window", **_each("الأوسط الوسط الأوسط", "middle"),
    "الدرجة الاقتصادية": "economy", **_each("الاقتصادية السياحية", "economy"),
    "درجة رجال الأعمال": "business", "رجال الأعمال": "business",
    "الاقتصادية الممتازة": "premium economy", "قيد المعالجة": "processing",
    "قيد التجهيز": "processing", "في الطريق": "in transit", "قيد الشحن": "in transit",
    "قيد التوصيل": "out for delivery", "تم التسليم": "delivered",
    "تم التوصيل": "delivered", "تم التغليف": "packed", "نباتي": "vegetarian",
    "نباتية": "vegetarian",
    **_each("يصل تصل سيصل ستصل", "arrives"),
    **_each("الإنجليزية الانجليزية الإنكليزية", "english"), "الفرنسية": "french",
    "الألمانية": "german", "الإسبانية": "spanish", "الإيطالية": "italian",
    "البرتغالية": "portuguese", "الهولندية": "dutch", "اليابانية": "japanese",
    "الصينية": "chinese", "الكورية": "korean", "الروسية": "russian",
    "العربية": "arabic", "اليونانية": "greek", "السويدية": "swedish",
    "البولندية": "polish", "التركية": "turkish",
    **_each("المقاس مقاس الحجم", "size"), **_each("الطلب طلب طلبك", "order"),
    **_each("السلة سلة سلتك", "cart"), **_each("الرحلة رحلة", "flight"),
    "و": "and", "مع": "with", "إلى": "to", "الى": "to", "من": "from", "في": "in",
    "على": "on", "الآن": "now",
}, ("و", "ف", "ب", "وب", "ك"), article="ال")
"""Arabic (read without its short-vowel marks, `normalise`)."""

# -- Hebrew -----------------------------------------------------------------------------

_HE_VERBS = {"הוספתי": "added", "הוספנו": "added", "הזמנתי": "booked",
             "הזמנו": "booked", "שריינתי": "booked", "שמרתי": "held", "שמרנו": "held",
             "החזקתי": "held", "שלחתי": "sent", "שלחנו": "sent", "שיניתי": "changed",
             "עדכנתי": "changed", "קניתי": "bought", "שמתי": "put", "נוסף": "added",
             "נוספה": "added", "נוספו": "added", "הוזמן": "booked", "הוזמנה": "booked",
             "נשמר": "held", "נשמרה": "held", "נשלח": "sent", "נשלחה": "sent",
             "שונה": "changed", "שונתה": "changed", "עודכן": "changed",
             "עודכנה": "changed", "נמסר": "delivered", "נמסרה": "delivered",
             "נארז": "packed", "נארזה": "packed"}
_HE_WILL = {"אוסיף": "add", "אזמין": "book", "אשמור": "hold", "אשלח": "send",
            "אשנה": "change", "אקנה": "buy", "אשים": "put"}

_HE: dict[str, str | None] = _prefixed({
    **_HE_VERBS,
    **{verb: f"i will {base}" for verb, base in _HE_WILL.items()},
    "ישלח": "will ship", "תישלח": "will ship", "יישלח": "will ship",
    **{f"{want} ש{verb}": f"shall i {base}" for verb, base in _HE_WILL.items()
       for want in ("רוצה", "תרצה", "תרצי", "רוצים", "תרצו")},
    "אני יכול": "i can", "אני יכולה": "i can", "אוכל": "i can",
    **_each("לא ולא שלא כשלא", "not>"), "וגם לא": "not>", "עדיין לא": "not yet>",
    "טרם": "not yet>", "אל": None,
    **_each("אין אינו אינה אף שום", None), **_each("הייתי היה הייתה אילו", None),
    "אם": "if", "נכשל": "failed", "נכשלה": "failed",
    "ניסיתי": "i tried", "ניסינו": "i tried",
    **_each("ממתין ממתינה בהמתנה", "pending"), "במקום": "instead of",
    **_each("ישן ישנה הקודם הקודמת קודם", "old"), **_each("שגוי שגויה", "wrong"),
    "לא נכון": "wrong", "תיקון": "correction",
    **_each("סליחה מצטער מצטערת", "sorry"),
    "יום ראשון": "sunday", "יום שני": "monday", "יום שלישי": "tuesday",
    "יום רביעי": "wednesday", "יום חמישי": "thursday", "יום שישי": "friday",
    "שבת": "saturday", "הבא": "next", "הקרוב": "next",
    "ינואר": "january", "פברואר": "february", "מרץ": "march", "אפריל": "april",
    "מאי": "may", "יוני": "june", "יולי": "july", "אוגוסט": "august",
    "ספטמבר": "september", "אוקטובר": "october", "נובמבר": "november",
    "דצמבר": "december",
    **_each("אדום אדומה", "red"), **_each("כחול כחולה", "blue"),
    **_each("ירוק ירוקה", "green"), **_each("לבן לבנה", "white"),
    **_each("שחור שחורה", "black"), **_each("אפור אפורה", "grey"), "כחול כהה": "navy",
    "מושב": "seat", "מעבר": "aisle", "ליד המעבר": "aisle", "חלון": "window",
    "ליד החלון": "window", **_each("אמצעי אמצעית", "middle"),
    "מחלקת תיירים": "economy", "תיירים": "economy", "מחלקת עסקים": "business",
    "עסקים": "business", "פרימיום אקונומי": "premium economy",
    **_each("בטיפול בעיבוד", "processing"), "בדרך": "in transit",
    "צמחונית": "vegetarian", "צמחוני": "vegetarian", "ארוחה צמחונית": "vegetarian",
    "אנגלית": "english", "צרפתית": "french", "גרמנית": "german", "ספרדית": "spanish",
    "איטלקית": "italian", "פורטוגזית": "portuguese", "הולנדית": "dutch",
    "יפנית": "japanese", "סינית": "chinese", "קוריאנית": "korean", "רוסית": "russian",
    "ערבית": "arabic", "יוונית": "greek", "שוודית": "swedish", "פולנית": "polish",
    "טורקית": "turkish",
    "מידה": "size", "הזמנה": "order", **_each("עגלה סל", "cart"), "טיסה": "flight",
    "את": "", "עם": "with", "עבור": "for", "בשביל": "for",
    "ב": "at", "מ": "from", "ל": "to", "ו": "and", "ה": "", "ש": "that",
}, ("ו", "ה", "ב", "ל", "מ", "ש", "וה", "וב", "ול", "ומ", "שה", "שב", "של"))
"""Hebrew."""

_HE_PREFIX = re.compile(
    r"(?<!\S)([\u05d5\u05d1\u05dc\u05de\u05d4\u05e9\u05db]{1,3})[-\u05be](?=[^\s\u05d0-\u05ea])")
"""A Hebrew prefix joined by a hyphen or a maqaf to a Latin value or a number
("מ-SFO", "ב-12:45")."""
_HU_SUFFIX = re.compile(r"(?<=[0-9A-Z])-(?:" + "|".join(
    sorted(_HU_ENDINGS, key=len, reverse=True)) + r")(?=[\s.,;:!?)]|$)")
"""A Hungarian ending joined by a hyphen to a value of digits or capitals ("AA882-es",
"17:05-kor", "8B-t")."""

# -- Swahili ----------------------------------------------------------------------------

_SW_ROOTS = {"ongeza": ("add", "added", "ongezwa", "ongeze"),
             "hifadhi": ("hold", "held", "hifadhiwa", "hifadhi"),
             "weka": ("put", "put", "wekwa", "weke"),
             "tuma": ("send", "sent", "tumwa", "tume"),
             "badilisha": ("change", "changed", "badilishwa", "badilishe"),
             "nunua": ("buy", "bought", "nunuliwa", "nunue"),
             "agiza": ("order", "ordered", "agizwa", "agize"),
             "safirisha": ("send", "shipped", "safirishwa", "safirishe")}
"""Swahili roots of acting: (the verb, done, the passive root, the offered form)."""
_SW_CLASSES = ("i", "u", "li", "ki", "zi", "ya", "vi")
"""Subject prefixes of the things a passive is said of (it, they)."""


_SW_UNABLE = ("sikuweza", "hatukuweza", "sijaweza", "hatujaweza", "siwezi", "hatuwezi",
              "sitaweza", "hatutaweza")
"""Could not, cannot, will not be able to (I, we): before an infinitive of the table the
action is not done ("siwezi kuongeza", I cannot add); before any other word a negation the
reader does not read."""


def _sw_verbs() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for root, (base, past, passive, offered) in _SW_ROOTS.items():
        for subject, person in (("ni", "i "), ("tu", "we ")):
            for tense in ("me", "li"):
                out[subject + tense + root] = person + past
            out[f"{subject}ta{root}"] = f"{person}will {base}"
            out[f"{subject}nge{root}"] = None
        out[f"ni{offered}"] = f"shall i {base}"
        out[f"naweza ku{root}"] = f"i can {base}"
        for negated in ("sija", "siku", "hatuja", "hatuku"):
            out[negated + root] = f"not {past}"
        for unable in _SW_UNABLE:
            out[f"{unable} ku{root}"] = f"not {past}"  # "sikuweza kuongeza"
        for cls in _SW_CLASSES:
            for tense in ("me", "li"):
                out[cls + tense + passive] = past
            out[f"{cls}ta{passive}"] = "will ship" if base == "send" else f"will {base}"
            out[f"ha{cls}ja{passive}"] = f"not yet {past}"
            out[f"ha{cls}ku{passive}"] = f"not {past}"
    return out


_SW: dict[str, str | None] = {
    **_sw_verbs(), "naweza": "i can", "ungependa": "shall i", "mngependa": "shall i",
    **_each(" ".join(_SW_UNABLE), "not>"),
    "hapana": None, "si": None, "wala": None, "hakuna": None, "sio": None, "siyo": None,
    "kama": "if", "ikiwa": "if", "bado": "", "tayari": "",
    "imeshindwa": "failed", "ilishindwa": "failed",
    **_each("nilijaribu tulijaribu nimejaribu tumejaribu", "i tried"),
    "inasubiri": "pending", "inasubiriwa": "pending", "badala ya": "instead of",
    "ya zamani": "old", "zamani": "old", "ya awali": "old",
    **_each("makosa kosa", "wrong"), "si sahihi": "wrong", "marekebisho": "correction",
    "samahani": "sorry",
    "jumatatu": "monday", "jumanne": "tuesday", "jumatano": "wednesday",
    "alhamisi": "thursday", "ijumaa": "friday", "jumamosi": "saturday",
    "jumapili": "sunday", "januari": "january", "februari": "february", "machi": "march",
    "aprili": "april", "mei": "may", "juni": "june", "julai": "july",
    "agosti": "august", "septemba": "september", "oktoba": "october",
    "novemba": "november", "desemba": "december",
    "nyekundu": "red", **_each("bluu buluu samawati", "blue"), "kijani": "green",
    "nyeupe": "white", "nyeusi": "black", "kijivu": "grey",
    "kiti": "seat", "karibu na njia": "aisle", "karibu na dirisha": "window",
    "dirishani": "window", "katikati": "middle", "daraja la kawaida": "economy",
    "daraja la uchumi": "economy", "daraja la biashara": "business",
    "inashughulikiwa": "processing", "iko njiani": "in transit",
    "imewasilishwa": "delivered", "imefikishwa": "delivered",
    "chakula cha mboga": "vegetarian",
    "kiingereza": "english", "kifaransa": "french", "kijerumani": "german",
    "kihispania": "spanish", "kiitaliano": "italian", "kireno": "portuguese",
    "kiholanzi": "dutch", "kijapani": "japanese", "kichina": "chinese",
    "kikorea": "korean", "kirusi": "russian", "kiarabu": "arabic",
    "kigiriki": "greek", "kiswidi": "swedish", "kipolandi": "polish",
    "kituruki": "turkish",
    **_each("saizi ukubwa", "size"), **_each("oda agizo", "order"),
    **_each("kikapu kapu", "cart"), "safari ya ndege": "flight", "na": "and",
    "kwa": "for",
}
"""Swahili."""

SCRIPT_WORDS: dict[str, dict[str, str | None]] = {
    "vi": _VI, "hi": _HI, "hu": _HU, "el": _EL, "ar": _AR, "he": _HE, "sw": _SW}
"""Each language's one table, as `_answer_words_glossed._WORDS` holds its own."""

SIZE_AFTER = frozenset({"hu", "hi"})
"""The languages that write a size before the word for size ("M méretben", "M साइज़"),
which the gloss writes "size M"."""

_CONDITIONALS = {
    "vi": ("lẽ ra", "đáng lẽ", "lẽ ra đã"), "hi": ("होता", "होती", "होते"),
    "hu": ("volna",), "el": ("θα",), "ar": ("لو", "ولو", "لكنت", *(f"كنت {verb}" for verb in _AR_WILL)),
    "he": ("הייתי", "היה", "הייתה", "אילו"),
    "sw": tuple(k for k, v in _SW.items() if v is None and "nge" in k)}
CONDITIONALS = frozenset().union(*_CONDITIONALS.values())
"""The words of these tables that make a verb conditional (would, would have), named as
a conditional when they leave an answer unsure."""

_ARABIC_MARKS = re.compile("[\u064b-\u0652\u0670\u0640]")
"""Arabic short vowels, shadda, sukun and the tatweel, which a word may or may not be
written with."""
_SAWFA = re.compile(r"(?<![^\W\d_])سوف\s+(?=[أن])")
"""Arabic "سوف" (will) before a verb of the first person: the same future as the prefix
"س" the table reads ("سوف أضيف" is "سأضيف", "سوف أقوم" "سأقوم")."""
_MAQAF = str.maketrans({"\u05be": "-"})
_GREEK_PUNCTUATION = str.maketrans({";": "?", "·": ";"})


def normalise(text: str, language: str) -> str:
    """`text` as its table is written: in NFKC (Hindi's nukta letters decomposed), Arabic
    without its vowel marks and with "سوف" joined to its verb as "س", the Devanagari danda and the Arabic comma, semicolon and
    question mark as the next-session agent reads them (`PUNCTUATION`), the Hebrew maqaf
    as a hyphen, and in Greek ";" (its question mark) as "?" and the raised dot as ";"."""
    text = unicodedata.normalize("NFKC", text)
    if language == "ar":
        text = _SAWFA.sub("س", _ARABIC_MARKS.sub("", text))
    text = text.translate(PUNCTUATION).translate(_MAQAF)
    return text.translate(_GREEK_PUNCTUATION) if language == "el" else text


def detach(text: str, language: str) -> str:
    """`text` with a Hebrew prefix or a Hungarian ending that a hyphen joins to a value
    written apart from it: "מ-SFO" as "מ SFO", "AA882-es" as "AA882"."""
    if language == "he":
        return _HE_PREFIX.sub(r"\1 ", text)
    if language == "hu":
        return _HU_SUFFIX.sub("", text)
    return text


def _normalised_keys() -> None:
    for code, table in SCRIPT_WORDS.items():
        if any(normalise(k, code) != k for k in table):
            SCRIPT_WORDS[code] = {normalise(k, code): v for k, v in table.items()}


_normalised_keys()
