"""Cases the workbench must survive, made from committed inputs: an imported trace with no
memory records (the LangGraph sample import with its memory spans left out, through the
real importer), the spec example with data that mentions CSS urls and a backtick in its id,
and synthetic cases of any size (`dgrr synth`)."""

from __future__ import annotations

import json
from pathlib import Path

from repair_core import Case, case_from_data, load_example

ROOT = Path(__file__).resolve().parents[1]
LANGGRAPH_SAMPLE = ROOT / "sample_imports" / "langgraph" / "travel.otlp.json"

URL_TEXT = ("see url(http://evil.example/x.css) and @import url(//evil.example/y.css); "
            "<img src=http://evil.example/i.png> ![x](http://evil.example/p.png)")


def no_record_otlp(tmp_path: Path) -> Path:
    """The LangGraph sample trace without its memory spans (what an agent with no memory
    tool records): OTLP JSON as the OpenInference instrumentor wrote it, minus spans."""
    data = json.loads(LANGGRAPH_SAMPLE.read_text())
    for rs in data["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            ss["spans"] = [s for s in ss["spans"] if not s["name"].endswith("_memory")]
    out = tmp_path / "no-memory.otlp.json"
    out.write_text(json.dumps(data))
    return out


def no_record_case(tmp_path: Path) -> Case:
    from repair_core.importers import import_trace

    case = import_trace([no_record_otlp(tmp_path)]).case
    assert not case.memory
    return case


def url_text_case() -> Case:
    """The spec example with URL-mentioning text in a record, a step and the answer, and a
    backtick and markup in its case id."""
    data = load_example().model_dump(mode="json")
    data["case_id"] = "fig`1 <b>x</b> ![i](http://evil.example/c.png)"
    data["memory"][0]["text"] = URL_TEXT
    data["trajectory"][0]["text"] = URL_TEXT
    data["trajectory"][-1]["text"] = "Answer: " + URL_TEXT
    return case_from_data(data, source="test")
