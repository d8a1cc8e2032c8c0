"""The adversarial carrier set (benchmarks/carriers/) is well-formed, and the case part of
benchmarks/carrier_judges.py measures the repaired store it is handed. How well the judges
do on the set is recorded in docs/benchmark.md, not asserted here."""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from script_module import load_script

from repair_core.cli import main as dgrr

bench = load_script("benchmarks/carrier_judges.py")


@pytest.fixture(scope="module")
def items() -> list:
    return bench.load_items()


def test_item_set_has_every_category_and_enough_items(items: list) -> None:
    assert len(items) >= 150
    per_category = Counter(i.category for i in items)
    assert set(per_category) == set(bench.CATEGORIES)
    assert min(per_category.values()) >= 8, per_category
    assert len({i.id for i in items}) == len(items)


def test_item_verdicts_are_mostly_decided_and_both_ways(items: list) -> None:
    verdicts = Counter(i.carries for i in items)
    assert verdicts["yes"] and verdicts["no"]
    # unsure is for texts a careful person must read, not a way out of deciding
    assert verdicts["unsure"] <= len(items) // 10, verdicts
    assert all(i.reason.strip() and "\n" not in i.reason for i in items)


def test_a_malformed_item_line_is_refused_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "items.jsonl"
    bad.write_text('{"id": "x-01", "category": "sarcasm", "domain": "travel", '
                   '"fault": {"text": "t"}, "candidate": "c", "carries": "yes", '
                   '"reason": "r"}\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="line 1"):
        bench.load_items(bad)


def test_labels_naming_a_missing_case_are_refused_naming_the_entry(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / bench.REVIEWER).write_text(json.dumps([{
        "file": "../cb-01-paraphrase.json", "variant": "v", "must_not_remain": [],
        "benign": [], "payload": ["x"]}]), encoding="utf-8")
    assert bench.main(["--no-items", "--cases", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "reviewer.json[0].file" in err and "Traceback" not in err


def test_a_label_may_say_why_in_a_note_but_no_other_key_is_taken(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = "cb-11-lookalike-ibans.json"
    shutil.copy(bench.CASES / name, tmp_path / name)
    entry = {"file": name, "variant": "v", "must_not_remain": ["m_iban"], "benign": [],
             "payload": ["DE12500105170648489890"]}
    (tmp_path / bench.REVIEWER).write_text(json.dumps([{**entry, "note": "why"}]),
                                           encoding="utf-8")
    assert [label.note for label in bench.load_labels(tmp_path)] == ["why"]
    (tmp_path / bench.REVIEWER).write_text(json.dumps([{**entry, "remark": "why"}]),
                                           encoding="utf-8")
    assert bench.main(["--no-items", "--cases", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "reviewer.json[0]" in err and "Traceback" not in err


def test_every_case_validates_and_is_labelled() -> None:
    labels = bench.load_labels()
    files = sorted(p.name for p in bench.CASES.glob("*.json") if p.name != bench.REVIEWER)
    assert [label.file for label in labels] == files
    assert len(files) >= 12
    for label in labels:
        path = bench.CASES / label.file
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            assert dgrr(["validate", str(path)]) == 0, err.getvalue()
        case = json.loads(path.read_text(encoding="utf-8"))
        records = {m["id"] for m in case["memory"]}
        assert set(label.must_not_remain) <= records and set(label.benign) <= records
        assert not set(label.must_not_remain) & set(label.benign)
        assert set(case["faults"]) & records <= set(label.must_not_remain)
        assert label.payload and all(bench.letters_and_digits(p) for p in label.payload)


def test_payload_is_found_through_grouping_width_and_invisible_characters() -> None:
    payload = ["DE89370400440532013000"]
    for text in ("rent to DE89 3704 0044 0532 0130 00",
                 "rent to ＤＥ８９ ３７０４ ００４４ ０５３２ ０１３０ ００",
                 "rent to de89\u200b3704\u200b0044\u200b0532\u200b0130\u200b00"):
        assert bench.holds_payload({"text": text}, payload), text
    assert bench.holds_payload({"text": "payee", "value": {"iban": "DE89-3704-0044-0532-0130-00"}},
                               payload)
    assert not bench.holds_payload({"text": "savings DE35 3704 0044 0532 0130 99"}, payload)


def test_a_host_payload_keeps_its_dots_and_hyphens() -> None:
    # the look-alike differs from the true supplier's domain by a hyphen and a suffix
    payload = ["ap.remit@hartley-build.co", "hartley-build.co"]
    assert not bench.holds_payload(
        {"text": "remittance advice to accounts@hartleybuild.co.uk"}, payload)
    for text in ("remit to ap.remit@hartley-build.co", "see HARTLEY-BUILD.CO",
                 "see hartley\u2010build[.]co", "see hartley-build . co",
                 "ap.remit@hartley\u200b-build.co"):
        assert bench.holds_payload({"text": text}, payload), text


def test_a_defanged_host_or_address_is_the_host_it_spells() -> None:
    # threat reports and warned users bracket an address's `@` and dots so that nothing
    # links it; a record so writing the payload still holds it
    payload = ["ap.remit@hartley-build.co", "hartley-build.co"]
    for text in ("remit to ap.remit[@]hartley-build.co", "remit to ap.remit(at)hartley-build[.]co",
                 "see hartley-build(dot)co", "see hartley-build[.]co",
                 "remit to ap [dot] remit [at] hartley-build {.} co",
                 "see HARTLEY-BUILD(DOT)CO", "remit to ap.remit{@}hartley-build.co"):
        assert bench.holds_payload({"text": text}, payload), text
    assert bench.holds_payload({"text": "mail ap.remit[@]hartley-build.co"},
                               ["ap.remit@hartley-build.co"])
    # the true supplier, defanged, is still not the look-alike
    assert not bench.holds_payload({"text": "see accounts[@]hartleybuild(dot)co(dot)uk"}, payload)
    # a bracketed "at" in prose is a word: only where an address is being written (a
    # local part before it, a domain after it) is it an `@`
    for prose in ("meet (at) noon", "meet (at) noon. Then lunch", "sold [at] 9.50 each",
                  "Ask Ann (at) reception"):
        assert "@" not in bench.host_form(prose), prose
    assert bench.host_form("ann (at) noon.io") == "ann@noon.io"
    assert not bench.holds_payload({"text": "ops (at) noon. Then the team@"}, ["ops@noon.then"])


def test_a_dotted_amount_or_position_is_found_whatever_its_grouping() -> None:
    # a dot alone names no host: these are looked for by their letters and digits, as
    # a record may write them with another grouping (or none)
    for payload, text in ((["3,275.50"], "sent 3275.50 to the new account"),
                          (["1.450,00"], "Betrag EUR 1 450,00 heute"),
                          (["41.38739, 2.16861"], "meet at 41.38739 2.16861"),
                          (["0.5 g"], "take 0,5 g twice a day")):
        assert bench.holds_payload({"text": text}, payload), (payload, text)
    # a host is still looked for with its dots, here after an ideographic full stop
    assert bench.holds_payload({"text": "see hartley-build\u3002co"}, ["hartley-build.co"])
    assert not bench.holds_payload({"text": "see hartleybuild.co.uk"}, ["hartley-build.co"])
    for address in ("185.234.72.19", "apple-unlock.xn--p1ai", "bit.ly/3Ezp6Tz",
                    "secretary.gvchs@ybl", "http://proxy.lindqvist-se.net:3128"):
        assert bench.names_address(address), address


def test_case_counts_come_from_the_repaired_store(tmp_path: Path) -> None:
    """A case whose answer is known from the method's rules: the diagnosed fault always
    leaves the active store, and a record outside its lineage sharing none of its tokens
    stays. Labelled the wrong way round on purpose (the fault as benign, the true record as
    must-not-remain), the counts must say so."""
    name = "cb-11-lookalike-ibans.json"
    shutil.copy(bench.CASES / name, tmp_path / name)
    (tmp_path / bench.REVIEWER).write_text(json.dumps([{
        "file": name, "variant": "labels reversed", "must_not_remain": ["m_old"],
        "benign": ["m_iban", "m_rent"], "payload": ["DE12500105170648489890"]}]),
        encoding="utf-8")
    runs = bench.run_cases(tmp_path)
    assert [r.objective for r in runs] == ["answer", "store"]
    for run in runs:
        assert run.remaining == ["m_old"]
        assert run.benign_lost == ["m_iban"]
        assert run.written_back == []  # m_old holds the payload but is the case's own
        assert run.false_clean == (run.verify_exit == 0)


def test_case_runs_only_count_records_the_replay_wrote() -> None:
    labels = {label.file: label for label in bench.load_labels()}
    for run in bench.run_cases(only=["cb-05-split-two-emails.json", "cb-12-phone-warning.json"]):
        case = json.loads((bench.CASES / run.case).read_text(encoding="utf-8"))
        records = {m["id"] for m in case["memory"]}
        assert not set(run.written_back) & records
        assert set(run.remaining) <= set(labels[run.case].must_not_remain)
        assert run.false_clean == (run.verify_exit == 0 and bool(run.remaining
                                                                  or run.written_back))


def _cells(row: str) -> list[str]:
    """A GFM table row's cells: split at each `|` no backslash escapes."""
    out, cur, i = [], "", 0
    while i < len(row):
        if row[i] == "\\" and row[i + 1:i + 2] == "|":
            cur += "\\|"
            i += 2
            continue
        if row[i] == "|":
            out.append(cur)
            cur = ""
        else:
            cur += row[i]
        i += 1
    return out[1:]


def _rendered_rows(table: str) -> list[list[str]]:
    """The text of each body cell of the first table in `table`, as a CommonMark renderer
    with GFM tables shows it (markdown-it-py, which the dashboard's dependencies bring)."""
    markdown_it = pytest.importorskip("markdown_it")
    out = markdown_it.MarkdownIt("commonmark").enable("table").render(table)
    body = out[out.index("<tbody>"):out.index("</tbody>")]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_a_reviewer_string_stays_one_cell_and_renders_literally() -> None:
    # a regular expression's alternation, a line break, and Markdown and HTML that a
    # renderer would otherwise turn into emphasis, a tag, a link, an image or an autolink
    variant = ("host in a regex (evil\\.example|good\\.com)\nsecond line | **x** <b>bold</b> "
               "[a](b) ![i](j.png) `c` https://evil.example")
    run = bench.CaseRun(case="cb-x-bar.json", variant=variant, objective="answer",
                        suspected=1, verify_exit=0, remaining=["m|a"], written_back=[],
                        benign_lost=["m\nb"], false_clean=True)
    for table in (bench.case_table([run]), bench.cases_compact([run])):
        lines = table.splitlines()
        width = len(_cells(lines[0]))
        rows = [line for line in lines if line.startswith(f"| {bench.cell('cb-x-bar')} |")]
        assert len(rows) == 1, table
        assert len(_cells(rows[0])) == width, rows[0]
        rendered = _rendered_rows(table)[0]
        assert len(rendered) == width, rendered
        # shown as its text: no tag but the table's own, the autolink split by a word
        # joiner (which shows nothing), the line break as the escape `printable` writes
        assert "<" not in rendered[1], rendered[1]
        assert html.unescape(rendered[1]).replace("\u2060", "") == variant.replace("\n", "\\x0a")
        assert rendered[0] == "cb-x-bar"
        assert "m|a" in html.unescape(" ".join(rendered))
