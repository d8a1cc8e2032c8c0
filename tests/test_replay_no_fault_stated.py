"""No corrected answer of the method states a diagnosed fault.

Every committed suite case and every sample trace is repaired with the default (offline
reference) model; the corrected answer must not contain any diagnosed fault's `value`
(or, for a fault without one, its text), whole-word and case-insensitive. The faults are
read from the case itself (`faults` and the records), never from `eval`, so the check
does not depend on what the generator chose to label.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from repair_core import Case, load_case
from repair_core.replay import repair

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_traces"


def case_paths() -> list[Path]:
    suites = [p for d in ("controlled", "adapted") for p in sorted((SAMPLES / d).glob("*.json"))
              if p.name != "manifest.json"]
    singles = [p for p in sorted(SAMPLES.glob("*.json")) if not p.name.endswith(".plan.json")]
    return suites + singles


def fault_phrases(case: Case) -> dict[str, str]:
    """Fault id -> the phrase that the fault put into the run: its `value`, else its text."""
    records = {m.id: m for m in case.memory}
    out = {}
    for fid in case.faults:
        rec = records[fid]
        value = rec.value if isinstance(rec.value, str) and rec.value.strip() else None
        out[fid] = value or rec.text
    return out


def _pattern(phrase: str) -> str:
    # A word does not start right after an apostrophe: the "s" of "Ines's" is no size S.
    words = [re.escape(w) for w in phrase.split()]
    return r"(?<![\w'’])" + r"\s+".join(words) + r"(?!\w)"


def states(text: str, phrase: str, longer: tuple[str, ...] = ()) -> bool:
    """`phrase` occurs in `text` as whole words, ignoring case and runs of spaces, outside
    any of the `longer` phrases that contain it ("economy" inside "premium economy")."""
    for other in longer:
        text = re.sub(_pattern(other), " ", text, flags=re.IGNORECASE)
    return re.search(_pattern(phrase), text, flags=re.IGNORECASE) is not None


def benign_containers(case: Case, phrase: str) -> tuple[str, ...]:
    """Values of records that predate the run (no producing step), are not faults and
    contain `phrase` as a longer phrase. Records the run wrote are left out: they may
    carry a fault onward (a summary built from it)."""
    values = {m.value for m in case.memory
              if m.id not in case.faults and isinstance(m.value, str)
              and not any(d.label == "produce" for d in m.deps)}
    return tuple(v for v in sorted(values, key=len, reverse=True)
                 if len(v) > len(phrase) and states(v, phrase))


def faults_stated(case: Case, answer: str) -> list[str]:
    """The faults whose phrase the answer states. Nothing here reads `eval`: no model
    run's text (such as a clean run's answer) decides which phrases are excused."""
    out = []
    for fid, phrase in fault_phrases(case).items():
        if states(answer, phrase, benign_containers(case, phrase)):
            out.append(f"{fid}={phrase!r}")
    return out


def test_states_is_whole_word_and_case_insensitive():
    assert states("ship to 7 ELM Rd,  Austin today", "7 Elm Rd, Austin")
    assert not states("ship to 17 Elm Rd, Austin", "7 Elm Rd, Austin")
    assert not states("size 10", "1")
    assert states("Size M.", "m")
    assert not states("Ines's size is M", "S")
    assert states("Tomas's order", "Tomas")
    assert states("flies economy", "economy", longer=("premium economy",))
    assert not states("flies premium economy", "economy", longer=("premium economy",))


def test_there_are_cases_to_check():
    paths = case_paths()
    assert len([p for p in paths if p.parent.name == "controlled"]) >= 100
    assert any(p.parent.name == "adapted" for p in paths)
    assert any(p.parent == SAMPLES for p in paths)


@pytest.mark.slow
def test_no_corrected_answer_states_a_fault():
    stated = {}
    for path in case_paths():
        case = load_case(path)
        answer = repair(case).answer or ""
        found = faults_stated(case, answer)
        if found:
            stated[f"{path.parent.name}/{path.name}"] = (found, answer)
    assert not stated, f"{len(stated)} corrected answers state a fault: {stated}"
