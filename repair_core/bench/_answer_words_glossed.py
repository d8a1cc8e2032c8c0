"""The answer reader's words in Catalan, Galician, Romanian, Indonesian, Russian and
Ukrainian (docs/benchmark.md, "Reading an answer"; rule `oracle.glossed-languages`).

As Chinese, Japanese, Korean (`_answer_words_cjk`) and Turkish (`_answer_words_turkish`)
are, an answer in one of these languages is read through a gloss: each general word,
or phrase of up to three words, found in its language's one table is written as the
English words the reader reads, the other words are kept as they are, and the answer is
then read as an English one. The tables hold general words only — verbs of booking,
adding, holding, changing, sending and buying with their done, negated, offered and
promised forms; negations, "not yet", pending words, offers, "instead of", "old",
"wrong", corrections and apologies; weekdays, months, colours, seat positions, cabins,
an order's statuses, the names of languages, "size", "order", "cart" and "and" — never
an answer's text or a case's values. Russian and Ukrainian adjectives are written by
their stems with each language's adjective endings (`_adjectives`), so every form is a
word of the table and the look-up stays one dictionary probe per word.

A negation the gloss does not write as "not" ("nimic", "nada", "нет", "нічого": the
table's `None`) is one the reader does not read in that form: the answer is then unsure
(`read`). So is a conditional ("я бы добавил", "am fi adăugat", "hauria afegit": would
have added, `CONDITIONALS`), which would otherwise leave its done verb read as done.
"""

from __future__ import annotations

from . import _answer_words_four as _four
from . import _answer_words_scripts as _scripts
from ._answer_words_scripts import _each
from ._answer_words_turkish import SIZE_BEFORE

__all__ = ["CONDITIONALS", "GLOSSED_LANGUAGES", "GLOSS_WORDS", "GOVERNING", "read", "unread_kind"]

_EDGES = "\"'()[]{}.,;:!?«»“”„‘’"
_APOSTROPHES = ("'", "\u2019")


def _forms(stems: str, endings: tuple[str, ...], english: str) -> dict[str, str]:
    return {stem + ending: english for stem in stems.split() for ending in endings}


_RU_ADJ = ("ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие", "ого", "его", "ую", "юю",
           "ей", "ом", "ем", "ых", "их", "ым", "им")
_UK_ADJ = ("ий", "ій", "а", "я", "е", "є", "і", "ого", "ього", "у", "ю", "ої", "ьої", "ому",
           "ьому", "им", "ім", "их", "іх")
_RU_PAST = ("", "а", "о", "и")
"""Russian and Ukrainian past endings after the stem ("добавил", "добавила", "добавили")."""
_RU_PARTICIPLE = ("", "а", "о", "ы")
_UK_PARTICIPLE = ("о", "а", "і", "ий", "е")

_CONDITIONALS = {
    "ca": ("hauria", "hauries", "hauríem", "hauríeu", "haurien", "podria", "podríem",
           "afegiria", "reservaria"),
    "gl": ("tería", "teriamos", "podería", "poderiamos", "engadiría", "reservaría"),
    "ro": ("aș", "ar", "am fi", "ai fi", "ați fi"),
    "ru": ("бы",),
    "uk": ("би", "б"),
}
"""Words that make a verb conditional ("я бы добавил", "am fi adăugat", "hauria afegit":
would have added): unread (`None` in the tables), so the done verb after them leaves the
answer unsure instead of read as done."""

_CA: dict[str, str | None] = {
    "he intentat": "i tried", "vaig intentar": "i tried", "hem intentat": "i tried",
    "he afegit": "i added", "he reservat": "i booked",
    "he canviat": "i changed", "he enviat": "i sent", "he bloquejat": "i held",
    "he retingut": "i held", "he comprat": "i bought",
    **_each("afegit afegida afegits afegides", "added"),
    **_each("reservat reservada reservats reservades", "booked"),
    **_each("bloquejat bloquejada retingut retinguda", "held"),
    **_each("canviat canviada", "changed"), **_each("enviat enviada", "sent"),
    **_each("comprat comprada", "bought"),
    **{f"no he {verb}": "not " + past for verb, past in (
        ("afegit", "added"), ("reservat", "booked"), ("canviat", "changed"),
        ("enviat", "sent"), ("bloquejat", "held"), ("comprat", "bought"))},
    "vaig reservar": "i booked", "vaig afegir": "i added", "vaig enviar": "i sent",
    "vaig canviar": "i changed", "vas comprar": "you bought", "vaig comprar": "i bought",
    "s'enviarà": "will ship", "arribarà": "arrives", "arriba": "arrives",
    "reservaré": "i will book", "afegiré": "i will add", "enviaré": "i will send",
    "vols que": "shall i", "voleu que": "shall i", "puc": "i can",
    "no": "not>", "encara no": "not yet>", "mai": "never", **_each("cap res tampoc", None),
    **dict.fromkeys(_CONDITIONALS["ca"]),
    "pendent": "pending", "en espera": "pending", "en lloc de": "instead of",
    **_each("antic antiga anterior", "old"),
    **_each("erroni errònia incorrecte incorrecta", "wrong"), "correcció": "correction",
    **_each("perdó disculpa", "sorry"),
    "dilluns": "monday", "dimarts": "tuesday", "dimecres": "wednesday", "dijous": "thursday",
    "divendres": "friday", "dissabte": "saturday", "diumenge": "sunday",
    "gener": "january", "febrer": "february", "març": "march", "maig": "may",
    "juny": "june", "juliol": "july", "agost": "august", "setembre": "september",
    "octubre": "october", "novembre": "november", "desembre": "december",
    **_each("vermell vermella vermells vermelles", "red"),
    **_each("blau blava blaus blaves", "blue"), **_each("verd verda verds verdes", "green"),
    **_each("blanc blanca blancs blanques", "white"),
    **_each("negre negra negres", "black"), "gris": "grey", "blau marí": "navy",
    "passadís": "aisle", "finestra": "window", "del mig": "middle", "seient": "seat",
    "turista": "economy", "econòmica": "economy", "en procés": "processing",
    "en tràmit": "processing", "en preparació": "processing", "en trànsit": "in transit", "en camí": "in transit",
    "en repartiment": "out for delivery",
    **_each("empaquetada empaquetat embalada embalat", "packed"),
    **_each("lliurada lliurat", "delivered"),
    "talla": "size", "comanda": "order", **_each("carret carretó cistella", "cart"),
    "vol": "flight", "anglès": "english", "francès": "french", "alemany": "german",
    "castellà": "spanish", "espanyol": "spanish", "italià": "italian",
    "portuguès": "portuguese", "neerlandès": "dutch", "japonès": "japanese",
    "xinès": "chinese", "coreà": "korean", "rus": "russian", "àrab": "arabic",
    "grec": "greek", "suec": "swedish", "polonès": "polish", "turc": "turkish",
    "i": "and", "amb": "with", "per": "for",
}
"""Catalan."""

_GL: dict[str, str | None] = {
    "intentei": "i tried", "tentei": "i tried", "intentamos": "i tried", "tentamos": "i tried",
    "engadín": "i added", **_each("engadido engadida engadidos engadidas", "added"),
    "reservei": "i booked", **_each("reservado reservada reservados reservadas", "booked"),
    "bloqueei": "i held", **_each("bloqueado bloqueada retido retida", "held"),
    "cambiei": "i changed", **_each("cambiado cambiada", "changed"), "enviei": "i sent",
    **_each("enviado enviada", "sent"), **_each("mercaches compraches", "you bought"),
    **_each("mercei comprei", "i bought"), "enviarase": "will ship",
    "será enviado": "will ship", "será enviada": "will ship",
    "reservarei": "i will book", "engadirei": "i will add", "enviarei": "i will send",
    "queres que": "shall i", "quere que": "shall i", "podo": "i can",
    "non": "not>", "aínda non": "not yet>", "nin": "not>",
    **_each("ningún ningunha nada", None),
    **dict.fromkeys(_CONDITIONALS["gl"]),
    "pendente": "pending", "en espera": "pending", "en vez de": "instead of",
    "no canto de": "instead of", **_each("antigo antiga anterior", "old"),
    **_each("erróneo errónea incorrecto incorrecta", "wrong"), "corrección": "correction",
    **_each("perdón desculpa", "sorry"),
    "luns": "monday", "martes": "tuesday", "mércores": "wednesday", "xoves": "thursday",
    "venres": "friday", "sábado": "saturday", "domingo": "sunday",
    "xaneiro": "january", "febreiro": "february", "marzo": "march", "abril": "april",
    "maio": "may", "xuño": "june", "xullo": "july", "agosto": "august",
    "setembro": "september", "outubro": "october", "novembro": "november",
    "decembro": "december",
    **_each("vermello vermella vermellos vermellas", "red"),
    **_each("azul azuis", "blue"), **_each("verde verdes", "green"),
    **_each("branco branca brancos brancas", "white"),
    **_each("negro negra negros negras", "black"), "gris": "grey",
    "corredor": "aisle", **_each("xanela ventá", "window"), "do medio": "middle",
    "asento": "seat", "turista": "economy", "económica": "economy",
    "en proceso": "processing", "en tramitación": "processing",
    "en tránsito": "in transit", "en camiño": "in transit", "en reparto": "out for delivery",
    **_each("empaquetado empaquetada embalado embalada", "packed"),
    **_each("entregado entregada", "delivered"),
    "talla": "size", **_each("pedido encarga", "order"), **_each("carriño carro", "cart"),
    "voo": "flight", "inglés": "english", "francés": "french", "alemán": "german",
    "español": "spanish", "castelán": "spanish", "italiano": "italian",
    "portugués": "portuguese", "neerlandés": "dutch", "xaponés": "japanese",
    "chinés": "chinese", "coreano": "korean", "ruso": "russian", "árabe": "arabic",
    "grego": "greek", "sueco": "swedish", "polaco": "polish", "turco": "turkish",
    "e": "and", "con": "with", "para": "for",
    # "in the", never "no" (Galician writes "not" as "non")
    **_each("no na nos nas", "in the"), **_each("ao á aos ás", "to the"),
}
"""Galician."""

_RO: dict[str, str | None] = {
    "am încercat": "i tried", "am incercat": "i tried",
    "am adăugat": "i added", **_each("adăugat adăugată adăugate", "added"),
    "am rezervat": "i booked", **_each("rezervat rezervată rezervate", "booked"),
    "am blocat": "i held", "am reținut": "i held", **_each("blocat blocată", "held"),
    "am schimbat": "i changed", **_each("schimbat schimbată modificat modificată",
                                        "changed"),
    "am trimis": "i sent", **_each("trimis trimisă expediat expediată", "sent"),
    "ai cumpărat": "you bought", "am cumpărat": "i bought",
    **{f"{negated} {verb}": "not " + past for negated in ("nu am", "n-am")
       for verb, past in (("adăugat", "added"), ("rezervat", "booked"), ("blocat", "held"),
                          ("schimbat", "changed"), ("trimis", "sent"),
                          ("cumpărat", "bought"))},
    **_each("cumpărat cumpărată", "bought"),
    "va fi expediată": "will ship", "va fi expediat": "will ship",
    "va fi trimisă": "will ship", "va fi trimis": "will ship",
    "voi rezerva": "i will book", "voi adăuga": "i will add", "voi trimite": "i will send",
    "vrei să": "shall i", "doriți să": "shall i", "pot": "i can",
    "nu": "not>", "încă nu": "not yet>", "niciodată": "never",
    **_each("niciun nicio nimic nici", None),
    **dict.fromkeys(_CONDITIONALS["ro"]),
    "în așteptare": "pending", "în loc de": "instead of",
    **_each("vechi vechea vechiul veche anterior anterioară", "old"),
    **_each("greșit greșită incorect incorectă", "wrong"),
    **_each("corectură corecție", "correction"), **_each("scuze pardon", "sorry"),
    **_each("luni lunea", "monday"), **_each("marți marțea", "tuesday"),
    **_each("miercuri miercurea", "wednesday"), **_each("joi joia", "thursday"),
    **_each("vineri vinerea", "friday"), **_each("sâmbătă sâmbăta", "saturday"),
    **_each("duminică duminica", "sunday"),
    "ianuarie": "january", "februarie": "february", "martie": "march",
    "aprilie": "april", "mai": "may", "iunie": "june", "iulie": "july",
    "august": "august", "septembrie": "september", "octombrie": "october",
    "noiembrie": "november", "decembrie": "december",
    **_each("roșu roșie roșii", "red"), **_each("albastru albastră albaștri albastre",
                                               "blue"),
    **_each("verde verzi", "green"), **_each("alb albă albi albe", "white"),
    **_each("negru neagră negri negre", "black"), "gri": "grey", "bleumarin": "navy",
    "la culoar": "aisle", "culoar": "aisle", "la geam": "window",
    "la fereastră": "window", "din mijloc": "middle", "loc": "seat", "locul": "seat",
    **_each("economic economică", "economy"), "în procesare": "processing",
    "în curs de procesare": "processing", "în tranzit": "in transit",
    "în curs de livrare": "out for delivery", **_each("ambalată ambalat", "packed"),
    **_each("livrată livrat", "delivered"),
    **_each("mărime mărimea mărimii", "size"), **_each("comanda comandă comenzii",
                                                     "order"),
    **_each("coș coșul", "cart"), **_each("zbor zborul", "flight"),
    **_each("engleză engleza", "english"), **_each("franceză franceza", "french"),
    **_each("germană germana", "german"), **_each("spaniolă spaniola", "spanish"),
    **_each("italiană italiana", "italian"), **_each("portugheză portugheza", "portuguese"),
    **_each("olandeză olandeza", "dutch"), **_each("japoneză japoneza", "japanese"),
    **_each("chineză chineza", "chinese"), **_each("coreeană coreeana", "korean"),
    **_each("rusă rusa", "russian"), **_each("arabă araba", "arabic"),
    **_each("greacă greaca", "greek"), **_each("suedeză suedeza", "swedish"),
    **_each("poloneză poloneza", "polish"), **_each("turcă turca", "turkish"),
    "și": "and", "cu": "with", "pentru": "for",
}
"""Romanian (written with comma-below ș and ț; `_lower` reads the cedilla forms as them)."""

_ID_VERBS = {"menambahkan": ("add", "added"), "ditambahkan": ("add", "added"),
             "memesan": ("book", "booked"), "dipesan": ("book", "booked"),
             "memesankan": ("book", "booked"), "menahan": ("hold", "held"),
             "ditahan": ("hold", "held"), "mengirim": ("send", "sent"),
             "mengirimkan": ("send", "sent"), "dikirim": ("send", "sent"),
             "dikirimkan": ("send", "sent"), "mengubah": ("change", "changed"),
             "diubah": ("change", "changed"), "mengganti": ("change", "changed"),
             "diganti": ("change", "changed"), "membeli": ("buy", "bought"),
             "dibeli": ("buy", "bought"), "memasukkan": ("put", "put"),
             "masukkan": ("put", "put"), "dimasukkan": ("put", "put")}
"""Indonesian verbs of acting, which no ending marks as done: "sudah" (already) or
nothing before them is done, "akan" (will) a promise, "belum" (not yet) and "tidak"
(not) not done."""

_ID: dict[str, str | None] = {
    "mencoba": "i tried", "berusaha": "i tried", "sudah mencoba": "i tried",
    **{word: past for word, (_, past) in _ID_VERBS.items()},
    **{f"akan {word}": f"i will {verb}" for word, (verb, _) in _ID_VERBS.items()},
    **{f"belum {word}": f"not yet {past}" for word, (_, past) in _ID_VERBS.items()},
    **{f"tidak {word}": f"not {past}" for word, (_, past) in _ID_VERBS.items()},
    **{f"mau saya {word}": f"shall i {verb}" for word, (verb, _) in _ID_VERBS.items()},
    "sudah": "", "telah": "", "masuk keranjang": "added to cart",
    "tidak": "not>", "tak": "not>", "bukan": "not>", "belum": "not yet>",
    "gagal": "failed", "tidak berhasil": "failed",
    **_each("jangan tiada", None), "tidak ada": None, "tanpa": "without",
    "menunggu": "pending", "tertunda": "pending", "mau saya": "shall i",
    "saya bisa": "i can", "aku bisa": "i can",
    "alih-alih": "instead of", "sebagai ganti": "instead of", "daripada": "rather than",
    "yang lama": "old", "salah": "wrong", "koreksi": "correction", "maaf": "sorry",
    "senin": "monday", "selasa": "tuesday", "rabu": "wednesday", "kamis": "thursday",
    "jumat": "friday", "jum'at": "friday", "sabtu": "saturday", "hari minggu": "sunday",
    "januari": "january", "februari": "february", "maret": "march", "april": "april",
    "mei": "may", "juni": "june", "juli": "july", "agustus": "august",
    "september": "september", "oktober": "october", "november": "november",
    "desember": "december",
    "merah": "red", "biru": "blue", "hijau": "green", "putih": "white", "hitam": "black",
    "abu-abu": "grey", "biru tua": "navy", "biru dongker": "navy",
    "lorong": "aisle", "dekat lorong": "aisle", "jendela": "window",
    "dekat jendela": "window", "tengah": "middle", "kursi": "seat",
    "kelas ekonomi": "economy", "ekonomi": "economy", "bisnis": "business",
    "diproses": "processing", "sedang diproses": "processing",
    "dalam perjalanan": "in transit", "sedang diantar": "out for delivery",
    "dikemas": "packed", "sudah dikemas": "packed", "diterima": "delivered",
    "ukuran": "size", "pesanan": "order", "keranjang": "cart", "penerbangan": "flight",
    "bahasa inggris": "english", "bahasa prancis": "french", "bahasa jerman": "german",
    "bahasa spanyol": "spanish", "bahasa italia": "italian",
    "bahasa portugis": "portuguese", "bahasa belanda": "dutch",
    "bahasa jepang": "japanese", "bahasa mandarin": "chinese", "bahasa korea": "korean",
    "bahasa rusia": "russian", "bahasa arab": "arabic", "bahasa yunani": "greek",
    "bahasa swedia": "swedish", "bahasa polandia": "polish", "bahasa turki": "turkish",
    "dan": "and", "dengan": "with", "untuk": "for", "saya": "i", "aku": "i",
}
"""Indonesian (and the Malay it shares these words with)."""

_RU_VERBS = {"добавил": "added", "забронировал": "booked", "зарезервировал": "booked",
             "отправил": "sent", "изменил": "changed", "поменял": "changed",
             "купил": "bought", "придержал": "held"}
_RU_PARTICIPLES = {"добавлен": "added", "забронирован": "booked",
                   "зарезервирован": "booked", "отправлен": "sent", "изменён": "changed",
                   "изменен": "changed", "упакован": "packed", "доставлен": "delivered"}

_RU: dict[str, str | None] = {
    **dict.fromkeys(("пытался", "пыталась", "пытались", "попытался", "попыталась",
                     "попытались", "пробовал", "пробовала", "попробовал", "попробовала"),
                    "i tried"),
    **{stem + e: past for stem, past in _RU_VERBS.items() for e in _RU_PAST},
    **{stem + e: past for stem, past in _RU_PARTICIPLES.items() for e in _RU_PARTICIPLE},
    **{f"не {stem}{e}": f"not {past}" for stem, past in _RU_VERBS.items() for e in _RU_PAST},
    "добавлю": "i will add", "забронирую": "i will book", "отправлю": "i will send",
    "изменю": "i will change",
    **{f"будет {verb}{e}": "will ship" for verb in ("отправлен", "доставлен")
       for e in ("", "а", "о")},
    **_each("добавить", "add"), **_each("забронировать зарезервировать", "book"),
    **_each("отправить", "send"), **_each("изменить", "change"),
    "у курьера": "out for delivery", "передан курьеру": "out for delivery",
    "передана курьеру": "out for delivery",
    "на доставке": "out for delivery",
    "могу": "i can", "хотите": "shall i", "хочешь": "shall i",
    "не": "not>", "ещё не": "not yet>", "еще не": "not yet>", "никогда": "never",
    **_each("нет ни ничего никакой никакого ничто", None),
    **dict.fromkeys(_CONDITIONALS["ru"]),
    "в ожидании": "pending", "ожидает": "pending", "вместо": "instead of",
    **_forms("стар прежн предыдущ", _RU_ADJ, "old"),
    **_forms("неверн неправильн ошибочн", _RU_ADJ, "wrong"),
    **_each("поправка исправление", "correction"), **_each("извините простите", "sorry"),
    **_each("понедельник понедельника", "monday"), **_each("вторник вторника", "tuesday"),
    **_each("среда среду среды", "wednesday"), **_each("четверг четверга", "thursday"),
    **_each("пятница пятницу пятницы", "friday"), **_each("суббота субботу субботы",
                                                         "saturday"),
    **_each("воскресенье воскресенья", "sunday"),
    **_each("январь января", "january"), **_each("февраль февраля", "february"),
    **_each("март марта", "march"), **_each("апрель апреля", "april"),
    **_each("май мая", "may"), **_each("июнь июня", "june"), **_each("июль июля", "july"),
    **_each("август августа", "august"), **_each("сентябрь сентября", "september"),
    **_each("октябрь октября", "october"), **_each("ноябрь ноября", "november"),
    **_each("декабрь декабря", "december"),
    **_forms("красн", _RU_ADJ, "red"), **_forms("син", _RU_ADJ, "blue"),
    **_forms("зелён зелен", _RU_ADJ, "green"), **_forms("бел", _RU_ADJ, "white"),
    **_forms("чёрн черн", _RU_ADJ, "black"), **_forms("сер", _RU_ADJ, "grey"),
    **_forms("тёмно-син темно-син", _RU_ADJ, "navy"),
    "у прохода": "aisle", "у окна": "window", **_forms("средн", _RU_ADJ, "middle"),
    "место": "seat", **_each("эконом эконом-класс экономкласс", "economy"),
    **_each("бизнес бизнес-класс", "business"), "премиум-эконом": "premium economy",
    "в пути": "in transit", "в обработке": "processing", "обрабатывается": "processing",
    "в доставке": "out for delivery", "доставляется": "out for delivery",
    **_each("размер размера размере", "size"), **_each("заказ заказа заказе", "order"),
    **_each("корзина корзину корзине корзины", "cart"),
    **_each("рейс рейса рейсе", "flight"),
    **_forms("английск", _RU_ADJ, "english"), **_forms("французск", _RU_ADJ, "french"),
    **_forms("немецк", _RU_ADJ, "german"), **_forms("испанск", _RU_ADJ, "spanish"),
    **_forms("итальянск", _RU_ADJ, "italian"),
    **_forms("португальск", _RU_ADJ, "portuguese"),
    **_forms("нидерландск голландск", _RU_ADJ, "dutch"),
    **_forms("японск", _RU_ADJ, "japanese"), **_forms("китайск", _RU_ADJ, "chinese"),
    **_forms("корейск", _RU_ADJ, "korean"), **_forms("русск", _RU_ADJ, "russian"),
    **_forms("арабск", _RU_ADJ, "arabic"), **_forms("греческ", _RU_ADJ, "greek"),
    **_forms("шведск", _RU_ADJ, "swedish"), **_forms("польск", _RU_ADJ, "polish"),
    **_forms("турецк", _RU_ADJ, "turkish"),
    "и": "and", "с": "with", "для": "for", "в": "in", "на": "on",
}
"""Russian."""

_UK_VERBS = {"додав": "added", "додала": "added", "додали": "added",
             "забронював": "booked", "забронювала": "booked", "забронювали": "booked",
             "зарезервував": "booked", "зарезервувала": "booked",
             "надіслав": "sent", "надіслала": "sent", "відправив": "sent",
             "відправила": "sent", "змінив": "changed", "змінила": "changed",
             "купив": "bought", "купила": "bought", "купили": "bought"}
_UK_PARTICIPLES = {"додан": "added", "заброньован": "booked",
                   "зарезервован": "booked", "надіслан": "sent", "відправлен": "sent",
                   "змінен": "changed", "упакован": "packed", "спакован": "packed",
                   "доставлен": "delivered"}

_UK: dict[str, str | None] = {
    **dict.fromkeys(("намагався", "намагалася", "намагалась", "намагалися", "спробував",
                     "спробувала", "спробували", "пробував", "пробувала"), "i tried"),
    **_UK_VERBS,
    **{stem + e: past for stem, past in _UK_PARTICIPLES.items() for e in _UK_PARTICIPLE},
    **{f"не {verb}": f"not {past}" for verb, past in _UK_VERBS.items()},
    "додам": "i will add", "забронюю": "i will book", "надішлю": "i will send",
    "зміню": "i will change",
    **{f"буде {verb}{e}": "will ship" for verb in ("відправлен", "доставлен")
       for e in ("о", "ий", "а")},
    "додати": "add", "забронювати": "book", "зарезервувати": "book",
    "надіслати": "send", "відправити": "send", "змінити": "change",
    "у кур'єра": "out for delivery", "передано кур'єру": "out for delivery",
    "можу": "i can", "хочете": "shall i", "хочеш": "shall i",
    "не": "not>", "ще не": "not yet>", "ніколи": "never",
    **_each("ні немає нічого жоден жодного жодної", None),
    **dict.fromkeys(_CONDITIONALS["uk"]),
    "в очікуванні": "pending", "очікує": "pending", "замість": "instead of",
    **_forms("стар попередн", _UK_ADJ, "old"),
    **_forms("неправильн помилков хибн", _UK_ADJ, "wrong"),
    "виправлення": "correction", **_each("вибачте перепрошую", "sorry"),
    **_each("понеділок понеділка", "monday"), **_each("вівторок вівторка", "tuesday"),
    **_each("середа середу середи", "wednesday"), **_each("четвер четверга", "thursday"),
    **_each("п'ятниця п'ятницю п'ятниці", "friday"),
    **_each("субота суботу суботи", "saturday"), **_each("неділя неділю неділі", "sunday"),
    **_each("січень січня", "january"), **_each("лютий лютого", "february"),
    **_each("березень березня", "march"), **_each("квітень квітня", "april"),
    **_each("травень травня", "may"), **_each("червень червня", "june"),
    **_each("липень липня", "july"), **_each("серпень серпня", "august"),
    **_each("вересень вересня", "september"), **_each("жовтень жовтня", "october"),
    **_each("листопад листопада", "november"), **_each("грудень грудня", "december"),
    **_forms("червон", _UK_ADJ, "red"), **_forms("син синь", _UK_ADJ, "blue"),
    **_forms("зелен", _UK_ADJ, "green"), **_forms("біл", _UK_ADJ, "white"),
    **_forms("чорн", _UK_ADJ, "black"), **_forms("сір", _UK_ADJ, "grey"),
    **_forms("темно-син темно-синь", _UK_ADJ, "navy"),
    "біля проходу": "aisle", "біля вікна": "window", **_forms("середн", _UK_ADJ, "middle"),
    "місце": "seat", **_each("економ економ-клас", "economy"),
    **_each("бізнес бізнес-клас", "business"), "преміум-економ": "premium economy",
    "в дорозі": "in transit", "у дорозі": "in transit", "в обробці": "processing",
    "обробляється": "processing", "доставляється": "out for delivery",
    **_each("розмір розміру розмірі", "size"), "замовлення": "order",
    **_each("кошик кошика кошику", "cart"), **_each("рейс рейсу рейсі", "flight"),
    **_forms("англійськ", _UK_ADJ, "english"), **_forms("французьк", _UK_ADJ, "french"),
    **_forms("німецьк", _UK_ADJ, "german"), **_forms("іспанськ", _UK_ADJ, "spanish"),
    **_forms("італійськ", _UK_ADJ, "italian"),
    **_forms("португальськ", _UK_ADJ, "portuguese"),
    **_forms("нідерландськ", _UK_ADJ, "dutch"), **_forms("японськ", _UK_ADJ, "japanese"),
    **_forms("китайськ", _UK_ADJ, "chinese"), **_forms("корейськ", _UK_ADJ, "korean"),
    **_forms("російськ", _UK_ADJ, "russian"), **_forms("арабськ", _UK_ADJ, "arabic"),
    **_forms("грецьк", _UK_ADJ, "greek"), **_forms("шведськ", _UK_ADJ, "swedish"),
    **_forms("польськ", _UK_ADJ, "polish"), **_forms("турецьк", _UK_ADJ, "turkish"),
    **_forms("українськ", _UK_ADJ, "ukrainian"),
    "і": "and", "й": "and", "та": "and", "з": "with", "для": "for", "в": "in", "у": "in",
    "на": "on",
}
"""Ukrainian."""

_WORDS: dict[str, dict[str, str | None]] = {"ca": _CA, "gl": _GL, "ro": _RO, "id": _ID,
                                             "ru": _RU, "uk": _UK, **_scripts.SCRIPT_WORDS,
                                             **_four.WORDS}
"""Each language's one table (Vietnamese, Hindi, Hungarian, Greek, Arabic, Hebrew and
Swahili: `_answer_words_scripts`; Welsh, Tagalog, Basque and Croatian:
`_answer_words_four`): a word or a phrase of up to three words, lower case, and
the English words the reader reads for it ("" drops it; None is a negation the reader
does not read in that form)."""

CONDITIONALS = (frozenset().union(*_CONDITIONALS.values()) | _scripts.CONDITIONALS
                | _four.CONDITIONALS)
"""The words of `_CONDITIONALS`, named as a conditional, not a negation, when they leave
an answer unsure."""

GOVERNING = frozenset({"i can", "failed"})
"""Glosses that say what became of the verb after them: the agent can do it, or it
failed ("tudok", "אני יכול", "могу", "nem sikerült", "gagal"). Before a word the table
does not hold, in the same clause, the reader cannot tell what is offered or what failed
("אני יכול להזמין", "nem sikerült lefoglalnom"), and read with no verb the values would
be taken as stated: the word is unread and named, as a negation is; before a word of the
table or ending its clause it is read. An offer asked as a question ("vols que",
"क्या मैं", "هل تريد أن") stays read: the question offers whatever its verb."""

GLOSSED_LANGUAGES = frozenset(_WORDS)
"""The languages read through `gloss`."""

_SIZE_AFTER = _scripts.SIZE_AFTER | _four.SIZE_AFTER
"""The languages that write a size before the word for size ("XL méretben", "XL tamaina"),
which the gloss writes "size XL"."""

GLOSS_WORDS = {code: frozenset(k for k, english in table.items()
                               if " " not in k and k != english)
               for code, table in _WORDS.items()}
"""The single words of each language's table, which the language guess counts
(`repair_core.bench._language`); not one written as English writes it ("december",
"august"), which says nothing of the language."""



def unread_kind(word: str, language: str) -> str:
    """What `read` left `word` unread as: a verb after a gloss of `GOVERNING` ("a verb
    after 'failed'"), a conditional (`CONDITIONALS`) or a negation."""
    gloss = _WORDS.get(language, {}).get(word)
    if gloss in GOVERNING:
        return f"a verb after '{gloss}'"
    return "a conditional" if word in CONDITIONALS else "a negation"


def _lower(word: str) -> str:
    """Lower case, with Romanian cedilla s and t as the comma-below letters and the
    apostrophe written one way."""
    return word.lower().replace("ş", "ș").replace("ţ", "ț").replace("\u2019", "'")


def _word(word: str, table: dict[str, str | None]) -> str | None | bool:
    """A single lower-case word's gloss: the table's, or that of the word after an elided
    article ("l'italià"), or False when it has none."""
    if word in table:
        return table[word]
    if "'" in word and (rest := word.split("'", 1)[1]) in table:
        return table[rest]
    return False


_PREFIXES = {code: frozenset(" ".join(k.split(" ")[:n]) for k in table if " " in k
                             for n in range(1, k.count(" ") + 1))
             for code, table in _WORDS.items()}
"""The first words of each table's phrases, one or more but not all: only after them is
a longer phrase looked for."""


class _Words:
    """A text's tokens as written, lower case, and their words without the punctuation
    around them."""

    def __init__(self, text: str) -> None:
        self.written = text.split()
        lower = _lower(text).split()
        self.lower = (lower if len(lower) == len(self.written)
                      else [_lower(t) for t in self.written])
        self.words = [t.strip(_EDGES) for t in self.lower]
        self._last: tuple[int, tuple[str | None | bool, int]] = (-1, (False, 1))
        """The last word `at` was asked about, and its answer."""

    def at(self, i: int, language: str) -> tuple[str | None | bool, int]:
        """What `language`'s table holds for the longest phrase starting at word `i`: its
        gloss, None for an unread negation or False for none, and how many words it
        spans. A phrase is read only when no punctuation breaks it inside."""
        if self._last[0] == i:
            return self._last[1]
        words, table, prefixes = self.words, _WORDS[language], _PREFIXES[language]
        found: tuple[str | None | bool, int] = (
            (_word(words[i], table) if words[i] else False), 1)
        key, size = words[i], 1
        while key in prefixes and i + size < len(words):
            key = f"{key} {words[i + size]}"
            size += 1
            if key in table and self._unbroken(i, size):
                found = (table[key], size)
        self._last = (i, found)
        return found

    def _unbroken(self, i: int, size: int) -> bool:
        """No punctuation after any but the last of words `i`.. and before any but the
        first."""
        words, lower = self.words, self.lower
        return all(lower[j].endswith(words[j]) for j in range(i, i + size - 1)) and all(
            lower[j].startswith(words[j]) for j in range(i + 1, i + size))

    def edges(self, i: int) -> tuple[str, str]:
        """The punctuation before and after the word of token `i`, as written."""
        token = self.written[i]
        if self.lower[i] == self.words[i]:
            return "", ""
        core = token.strip(_EDGES)
        if not core:
            return token, ""
        start = token.find(core)
        return token[:start], token[start + len(core):]


def read(text: str, language: str) -> tuple[str, str | None]:
    """`text` with each general word or phrase of `language` written as the English words
    the reader reads, other words kept as they are; and the first negation the reader
    does not read in its form, lower case, or None. A negation is read ("not", "not yet")
    only right before a word or phrase of the table ("nu am adăugat", "не добавил"):
    before any other ("не стал отправлять"), or one the table marks unread ("nimic",
    "нет"), it is kept as written and named. One pass over the words.

    >>> read("He afegit la samarreta al carret, talla M.", "ca")
    ('i added la samarreta al cart, size M.', None)
    >>> read("Comanda nu a fost trimisă.", "ro")
    ('order nu a fost sent.', 'nu')
    """
    if language in _scripts.SCRIPT_WORDS:
        text = _scripts.detach(_scripts.normalise(text, language), language)
    elif language == "eu":
        text = _four.BASQUE_CASE_ENDING.sub("", text)  # "SEA-tik" names SEA
    elif language == "hr":
        text = _four.serbian_latin(text)  # Serbian in Cyrillic letters reads as in Latin
    words = _Words(text)
    out: list[str] = []
    unread: str | None = None
    i, n = 0, len(words.words)
    while i < n:
        found, size = words.at(i, language)
        if found is False:
            out.append(words.written[i])
            i += 1
            continue
        head, tail = words.edges(i)
        if size > 1:
            tail = words.edges(i + size - 1)[1]
        if isinstance(found, str) and found.endswith(">"):
            after = (words.at(i + size, language)[0] if i + size < n and not tail
                     else False)
            found = (found[:-1] if isinstance(after, str) and after
                     and not after.endswith(">") else None)
        elif found in GOVERNING and i + size < n and not tail and words.words[i + size] and (
                words.at(i + size, language)[0] is False):
            found = None  # "nem sikerült lefoglalnom": what failed is not read
        if (found == "size" and language in _SIZE_AFTER and out and not head
                and SIZE_BEFORE.match(out[-1])):
            # "M méretben": the size comes before the word for size
            out[-1], found = "size", out[-1]
        if isinstance(found, str):
            out.append(head + found + tail)
        else:
            unread = unread or " ".join(words.words[i:i + size])
            out.append(" ".join(words.written[i:i + size]))
        i += size
    return " ".join(p for p in out if p.strip()), unread
