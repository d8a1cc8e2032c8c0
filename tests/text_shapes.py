"""Adversarial texts of any size, one builder per shape: the tests check that reading
them grows linearly with their size (`cpu_time.grows_linearly`), and
`benchmarks/content_scale.py --shapes` and `--readers` print the CPU seconds of a
megabyte of each. A builder takes a size in characters and returns a text of about it."""

from __future__ import annotations

from collections.abc import Callable

from stdnum import iban

Shape = Callable[[int], str]


def repeated(unit: str, head: str = "", tail: str = "") -> Shape:
    """`unit` repeated to about `size` characters, between `head` and `tail`."""
    return lambda size: head + unit * max(1, size // len(unit)) + tail


def _joined(item: Callable[[int], str], width: int) -> Shape:
    """" ".join(item(i) for i < size / width), each item about `width` characters."""
    return lambda size: " ".join(item(i) for i in range(max(1, size // width)))


def _cjk_word(i: int) -> str:
    """A word of CJK ideographs spelling `i` in base 20,000, and an emoji."""
    word, n = "", i
    while True:
        word += chr(0x4E00 + n % 20000)
        n //= 20000
        if not n:
            return word + chr(0x1F600 + i % 80)


def _iban(i: int) -> str:
    """A German IBAN whose account number is `i`, with the check digits that make it valid."""
    bban = f"37040044{i:010d}"
    return f"DE{iban.calc_check_digits('DE00' + bban)}{bban}"


TOKENS: dict[str, Shape] = {
    "at signs": repeated("@"),
    "digits and separators": repeated("1 2-3.4/5 "),
    "a dot a dot": repeated("a."),
    "a scheme and a long host": repeated("a", head="http://"),
    "one long word": repeated("x"),
    "capitalised words": repeated("Aaaa Bbbb "),
    "mixed letters and digits": repeated("a1"),
    "e-mail addresses": repeated("a@b.co "),
    "IBAN groups": repeated("DE89 "),
    "hosts": _joined(lambda i: f"x{i}.com/", 9),
    "plus signs": repeated("+1 "),
    "sentences": repeated("Prefers window seats. "),
    "common capitalised words": repeated("The "),
    "names after long blanks": repeated(" " * 70 + "Aaaa"),
    "hex groups": repeated("ab12 "),
    "percent escapes": repeated("%2D"),
    "URLs in a URL": repeated("http://a.io/?u=https://"),
    "digits with O and l": repeated("Ol6l "),
    "one long run of O and 1": repeated("O1"),
    "groups ending on a word": repeated("1O 2l ", tail="x"),
    "IPv6 addresses": _joined(lambda i: f"2001:db8::{i:x}", 15),
    "uncompressed IPv6 addresses": repeated("2001:0DB8:0000:0000:0000:0000:0000:0001 "),
    "colons": repeated("a:"),
    "IPv4 addresses": repeated("10.0.0.1 "),
    "IBAN starts with O": repeated("DEOO "),
    "IBANs with O": repeated("DE89 3704 OO44 O532 Ol3O OO "),
    "spaced dots": repeated("a . "),
    "bracketed dots": repeated("a[.]"),
    "payment addresses": repeated("ab@cd "),
    "ids with parts": repeated("a_1234567_"),
    "number words": repeated("two thousand three hundred and ten kroner "),
    "number words of ten languages": repeated(
        "one deux drei cuatro cinque seis zeven åtte tre tusen mil mille thousand "),
    "combining marks alone": repeated("\u093f\u0301\u0e48"),
    "a combining mark after every letter": repeated("\u0915\u093f"),
    "HTML cells": repeated("<td>GB12</td>"),
    "HTML tags in a row": repeated("</td>\n<td>"),
    "HTML tags never closed": repeated('<td class="a b" '),
    "HTML tag starts": repeated("<b"),
    "numbers with open brackets": repeated("1 (2 "),
    "numbers with closed brackets": repeated("1 (2)3 "),
    # distinct tokens, none read twice: hosts beyond ASCII (each its own punycode),
    # CJK words with an emoji, IBANs that pass their checksum, e-mail addresses; and a
    # text of format characters alone (removed before matching)
    "distinct Cyrillic hosts": _joined(lambda i: f"ф{i}.рф", 9),
    "distinct emoji/CJK words": _joined(lambda i: _cjk_word(i), 4),
    "distinct IBANs": _joined(lambda i: _iban(i), 23),
    "distinct e-mail addresses": _joined(lambda i: f"u{i}@h{i}.com", 15),
    "format characters": repeated("\u00ad\u200b\u200d\u2060\ufeff\u200e"),
    "JSON escapes": repeated("\\u0044"),
    "escaped backslashes before u": repeated("\\\\u0044"),
    "base64 runs of text": repeated("REUxMjUwMDEwNTE3MDY0ODQ4OTg5MA== "),
    "one long base64 run": repeated("QUJD"),
    "base64 runs just under the longest": repeated("QUJD" * 1023 + " "),
    "Markdown marks in a word": repeated("a**b*c`"),
    "Markdown marks paired": repeated("`GB12`**SRLG**6083*7138*2519 "),
    "form bodies": repeated("a=b+c&"),
    "form names without values": repeated("a&b"),
    "equals signs": repeated("a=b=c+"),
    "Czech account numbers": repeated("19-2000145399/0800 "),
    "slashes after digits": repeated("12/"),
    "Italian account fields": repeated("abi: 05428 cab: 11101 c/c 000000123456 "),
    "ABI labels alone": repeated("abi 12345 "),
    "NACHA entry lines": repeated("62209100001944001234567890000840000 "),
    "sixes": repeated("6"),
}
"""Shapes the token finders and the scan read (match.linear)."""

SPOKEN_MAIL: list[Shape] = [
    repeated("at "), repeated("a at "), repeated("a dot "),
    repeated("a dot a dot a dot a dot a dot a dot a at b dot "),
    repeated("x at y dot c o m o "), repeated("a艾特b点"), repeated("a [at] b (dot) "),
    repeated("x point arobase point "),
    lambda size: "".join(f"u{i} at h{i} dot com " for i in range(max(1, size // 17))),
    repeated("a"), repeated("собака точка "),
]
"""Addresses spoken in words (`canonical`, `_spelled.spoken_mail`)."""

AMOUNTS_AND_POINTS: list[Shape] = [
    repeated("1,23,"), repeated("12,34,56,78,90,12,34,"), repeated("1 lakh "),
    repeated("2.45 lakh "), repeated("Rs 1234 "), repeated("₹"), repeated("1234 nok "),
    repeated("1'234'567 "), repeated("1"), repeated("41°23'14.6''n "), repeated("1.234, "),
    repeated("n 1.234 e "), repeated("°"), repeated("41°23.243' "), repeated("-1.2345 "),
    lambda size: "".join(f"{i % 90}.{i:05d}, {i % 180}.{i:05d}; "
                         for i in range(max(1, size // 20))),
    # labelled coordinates, labels alone, longitudes first
    repeated('"lng": 151.2093, "lat": -33.8688, '), repeated("lon "), repeated("lat=1.234&"),
    repeated("151.2093, 33.8688; "),
    # openings of formats writing longitude first, alone and with a pair
    repeated("point("), repeated('"coordinates": ['), repeated("point(13.41053 52.52437) "),
    # a record's value flattened: keys and numbers a line each
    repeated("amount\n1234\n"), repeated("amount\n"), repeated("\n1234"),
    repeated("lat\n1.234\nlng\n"), repeated("coordinates\n"), repeated("1.234\n"),
    # a k or M after a number, a currency next to it or not
    repeated("4.9k "), repeated("ꞓ4.9k "), repeated("1k"), repeated("12 k usd "),
    repeated("1.2m, "),
    # an amount under a JSON key, keys alone, quotes alone
    repeated('"amount": 2310, '), repeated('"amount": '), repeated('"'),
    repeated('"a": 1234, '),
    # hemisphere words and letters, alone and after coordinates
    repeated("40.7128 north, 74.0060 west, "), repeated("1.234 nord "), repeated("süd "),
    repeated("1.234 o "), repeated("1.234 so̸r 1.234 "),
    # indented JSON: pairs, line ends with long indents, a GeoJSON opening
    repeated('{\n    "lat": 40.7128,\n    "lng": -74.006\n},\n'), repeated(",\n" + " " * 40),
    repeated('"coordinates": [\n' + "\t" * 40), repeated("1.234,\n" + " " * 31),
]
"""Amounts and points in digits (`content.amounts`, `content._points.points`)."""

AMOUNTS_IN_WORDS: list[Shape] = [
    # one long run, each word a number of its own, words of many languages, compounds,
    # leading digits and "a", near-compounds, random words
    repeated("two thousand three hundred and ten kroner "), repeated("thousand "),
    repeated("twenty-one "), repeated("zweitausenddreihundertzehn "),
    repeated("zwei" * 25 + " "), repeated("zwei"), repeated("quatre-vingt-dix-sept mille "),
    repeated("one deux drei cuatro cinque seis zeven åtte tre tusen mil mille "),
    repeated("12 a "), _joined(lambda i: f"zweitausend{i}x", 16),
    _joined(lambda i: f"thousand w{i}", 15),
    # commas after powers, digits after them, lists of powers
    repeated("two thousand, "), repeated("2 thousand 310 "), repeated("thousand, 3 "),
    repeated("one million, two million, "), repeated("twenty-three hundred thousand, "),
    repeated("deux mille, trois cent "), repeated("thousand 999 hundred "),
]
"""Amounts in words (`content.amounts`)."""

DIGIT_WORD_PROSE: dict[str, str] = {
    "cy": "Does dim un ohonyn nhw wedi ffonio heddiw. Mae dau neu dri o blant yn chwarae yn "
          "yr ardd, ac un ci. Dim ond naw diwrnod sydd ar ôl cyn y gwyliau, ac mae tair "
          "merch a pedwar bachgen yn y dosbarth.",
    "de": "Wir haben uns um acht Uhr getroffen und sind zu viert in die Stadt gefahren. Gib "
          "acht auf die Stufen! Eins ist sicher: zwei, drei Tage Urlaub tun jedem gut. Die "
          "Null-Toleranz-Regel gilt seit neun Jahren.",
    "fr": "Il y a un neuf dans le jeu de cartes et six enfants dans la cour. J'ai acheté un "
          "vélo neuf, et nous partons dans sept ou huit jours. Deux ou trois amis viendront.",
    "es": "Los dos hermanos llegaron a las seis y media. Tengo uno para ti y dos para tu "
          "madre; nos vemos en tres o cuatro días. Cero problemas, dijo el nueve de mayo.",
    "it": "Sei sicuro che siano tre? Sei uno dei migliori, e tra otto giorni partiamo in due. "
          "Nove volte su dieci ha ragione, ma sei troppo stanco stasera.",
    "pt": "Um dia destes vamos os dois ao mercado; meia dúzia de ovos e três pães, por favor. "
          "Às sete e meia, nove pessoas esperavam quatro táxis.",
    "nl": "Een vriend van mij viert zijn verjaardag; we vieren het met een taart. Acht mensen "
          "kwamen, twee of drie bleven tot negen uur. Let op: nul fouten graag.",
    "no": "Det tar en to tre dager før pakken kommer. Vi var fire på tur og gikk ni "
          "kilometer. Hun har to katter og en hund, og ett barn på seks år.",
    "da": "Der er fire børn i huset og en hund. Vi ses om to eller tre dage, ni gange ud af "
          "ti går det godt. Hun fik et nul i prøven og otte point i den næste.",
    "sv": "Det tar en eller två dagar. Vi var fyra på resan och åt sex bullar vid nio. Ett "
          "barn och en hund väntade i tre timmar.",
    "fi": "Kuusi kasvaa pihalla ja yksi koira haukkuu. Kaksi tai kolme päivää riittää. Viisi "
          "ystävää tuli kylään, ja neljä heistä jäi yöksi.",
    "pl": "Dwa koty siedzą na oknie, a jeden pies śpi. Za trzy albo cztery dni wrócę. Osiem "
          "osób przyszło zero minut przed czasem.",
    "cs": "Jedna kočka a dva psi spí na gauči. Za tři nebo čtyři dny přijedu. Osm lidí "
          "čekalo pět minut a šest jich odešlo.",
    "hr": "Jedna mačka i dva psa spavaju. Za tri ili četiri dana dolazim; osam ljudi je "
          "čekalo pet minuta, a šest ih je otišlo, devet nije ni došlo.",
    "ca": "Un dia u vaig veure dos gats i tres gossos. A les sis, set amics i vuit cosins "
          "van sopar; el pis nou té quatre habitacions i cinc finestres.",
    "tr": "Bir gün bir adam iki ekmek aldı ve yedi. Masanın altı tozluydu. Üç ya da dört gün "
          "sonra sekiz arkadaşla buluştuk; dokuz kişi geldi, bir iki saat kaldı.",
    "id": "Satu hari dia membeli dua buku dan tiga pensil. Lima orang datang, enam pergi, dan "
          "rumah itu kosong. Tujuh hari kemudian, sembilan anak bermain satu dua jam.",
    "sw": "Watoto saba walikuja shuleni, na mmoja alikuwa na kitabu kimoja. Nne kati yao "
          "walikula ndizi mbili. Saa tatu asubuhi, tisa walirudi nyumbani.",
    "tl": "Isa sa kanila ang may dalawang aso at tatlong pusa. Lima ang dumating, pito ang "
          "umalis. Siyam na araw bago ang pista, apat na bata ang naglaro.",
    "ru": "Один человек купил два билета на три часа. Семь раз отмерь, один раз отрежь. "
          "Через пять минут пришли восемь друзей и девять соседей.",
    "uk": "Один чоловік купив два квитки на три години. Через п'ять хвилин прийшли вісім "
          "друзів і дев'ять сусідів. Сім разів відміряй.",
    "el": "Ένα παιδί έχει δύο γάτες και τρία σκυλιά. Σε πέντε λεπτά ήρθαν έξι φίλοι, και "
          "εννέα γείτονες έμειναν μέχρι τις οκτώ.",
}
"""Ordinary prose in each language, its digit words used as words (and "en to tre",
"bir iki", "satu dua": one, two or three of them in a row)."""

DIGIT_WORD_SHAPES: list[Shape] = [
    repeated("yi "), repeated("yi yi yi x "), repeated("liu,"), repeated("ling    "),
    repeated("xyi "), repeated("yī èr sān, "), repeated("lianglianglia"), repeated("er"),
    repeated("xyi yi yi yi "), repeated("yi ", head="x"),
    repeated("DE89 3704 OO44 O532 Ol3O OO "),
    # the other languages: runs, runs broken by a word or a digit, words of two languages
    # in turn, apostrophes and combining marks, and each language's prose
    repeated("dim dau "), repeated("en to tre "), repeated("un,"), repeated("один два три "),
    repeated("п'ять дев'ять "), repeated("τρία, δύο "), repeated("uno dos tres quatro "),
    repeated("dim dau naw x "), repeated("dim2 "), repeated("'dim' "), repeated("x'dim "),
    repeated("'"), repeated("a'"), repeated("üç\u0326 "), repeated("sıfır beş "),
    repeated("dimdimdim "), *(repeated(prose + " ") for prose in DIGIT_WORD_PROSE.values()),
]
"""Numbers in digit words said one by one (`canonical`, `_spelled.digit_words`)."""

SPELLED: list[Shape] = [
    repeated("a+"), repeated("//0x1."), repeated("&#"), repeated("one, "), repeated("一"),
    repeated("i, double "), repeated("alpha, "), repeated("alpha dash "), repeated("xalpha "),
    repeated("x-ray-"),
]
"""Values spelled out (`canonical`, `_spelled.spoken_characters`, `spelling_alphabet`)."""

QUANTITIES: list[Shape] = [
    repeated("1.5 g, "), repeated("1"), repeated("1 ", tail="mg"), repeated("αβγ 5 mg "),
    repeated("9.9,9 l"),
]
"""Quantities and letters of unread scripts (`content.quantities`,
`verification._check.unread_letters`)."""

DOSES: list[Shape] = [
    repeated("tablets "), repeated("one and a half tablet "), repeated("½"), repeated("a "),
    repeated("1,2,3 pills "), repeated("of the ", tail="tablets"),
]
"""Counts of doses (`content._counts.dose_counts`)."""

IDENTITIES: list[Shape] = [
    repeated("From: a@x.example\n"),  # every line a header named again
    repeated("s", head="Subject: "),  # one header as long as the text
    lambda size: ("HTTP/1.1 301 Moved\n" + "Location: https://x.example/"
                  + "a/" * max(1, size // 2)),
    repeated("HTTP/1.1 301\nLocation: "),
    repeated(":"), repeated("\n"), repeated("F"), repeated("From:"),
    lambda size: ("https://" + "a." * max(1, size // 2) + "/" + "%2" * max(1, size // 3)
                  + "?" * 100),
    repeated("[", head="//"), repeated("a", head="mailto:"),
]
"""Identities of a source's text (`verification._same_source`: header_identities,
url_identity, redirects)."""
