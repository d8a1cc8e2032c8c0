"""Malformed RESULT files given to `dgrr apply` get a named error, never a traceback:
hypothesis mutates a real repair result (any subtree replaced by any JSON value, or
removed) and also throws arbitrary JSON at it. Thousands of shapes through the parser of
RESULT (`store_ops`), hundreds through the whole CLI with an approval in the log (so the
approval digests of the malformed result are computed too)."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("opentelemetry.exporter.otlp.json.file", reason="needs the 'import' extra")

from repair_core import DgrrError, load_case  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.integrations import store_ops  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_imports" / "langgraph" / "travel.otlp.json"

pytestmark = pytest.mark.slow

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False,
                                                                        allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    case = tmp / "case.json"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["import", str(SAMPLE), "--faults", "lin/prefs/seat", "--out",
                     str(case)]) == 0
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["repair", str(case), "--json"]) in (0, 1)
    result = json.loads(buf.getvalue())
    (tmp / "result.json").write_text(json.dumps(result))
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["approve", str(case), "--reviewer", "bo", "--decision", "approve",
                     "--result", str(tmp / "result.json"), "--db", str(tmp / "a.db")]) == 0
    return {"tmp": tmp, "case": case, "case_obj": load_case(case), "result": result}


def _paths(doc):
    """Every path into `doc`, depth first in document order (the root's `()` first). A
    stack, not nested generators: each path of those passed up through every level above
    it, the most of the property test's own CPU."""
    out = []
    stack = [((), doc)]
    while stack:
        prefix, node = stack.pop()
        out.append(prefix)
        if isinstance(node, dict):
            stack.extend(((*prefix, k), v) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend(((*prefix, i), node[i]) for i in reversed(range(len(node))))
    return out


@st.composite
def mutated(draw, base):
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        # the parts apply reads most often: store_changes and store
        interesting = [p for p in paths if p[0] in ("report", "store")]
        path = draw(st.sampled_from(interesting or paths))
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(json_values)
    return doc


def _shapes(base):
    return st.one_of(mutated(base), json_values)


def test_store_ops_refuses_every_malformed_result_by_name(made):
    case = made["case_obj"]

    @settings(max_examples=3000, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(_shapes(made["result"]))
    def check(doc):
        try:
            ops = store_ops(case, doc)
        except DgrrError as exc:
            assert str(exc).startswith("RESULT"), str(exc)
        else:
            assert all(op.op in ("delete", "quarantine", "restore", "add") for op in ops)

    check()


def test_apply_cli_never_shows_a_traceback(made):
    tmp = made["tmp"]
    path = tmp / "fuzzed.json"
    n = {"refused": 0, "shown": 0}

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(_shapes(made["result"]))
    def check(doc):
        path.write_text(json.dumps(doc))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["apply", str(path), "--case", str(made["case"]), "--to", "langgraph",
                         "--store", "nosuchmodule:store", "--db", str(tmp / "a.db"),
                         "--journal", str(tmp / "journal"), "--apply", "--reviewer", "ops"])
        assert code in (0, 2)
        assert "Traceback" not in err.getvalue()
        if code == 2:
            # the refusal, after at most why an approval was read as it was (no trust
            # file to check its signature against)
            lines = err.getvalue().splitlines()
            while lines and lines[0].startswith("approval: "):
                lines.pop(0)
            assert lines and lines[0].startswith("dgrr apply: "), err.getvalue()
            n["refused"] += 1
        else:
            n["shown"] += 1

    check()
    assert n["refused"] > 250  # almost every mutation is refused by name
