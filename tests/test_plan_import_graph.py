"""The plan's modules import one another one way only: no circle (`_ops` <- `_plan` <-
`_plan_ops`, and so on), read from the source at any depth (an import made inside a
function closes a circle as surely as one at the top), and each module imports on its
own in a fresh interpreter. tests/test_import_layers.py checks the folders' tiers; this
checks the modules inside the plan's folder."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PLAN = Path(__file__).resolve().parent.parent / "repair_core" / "plan"


def _plan_imports(path: Path) -> set[str]:
    """The plan modules (by file stem) that `path` imports, at any depth of its code."""
    modules = {p.stem for p in PLAN.glob("*.py")}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 1:
            target = node.module or ""
        elif node.level == 0 and (node.module or "").startswith("repair_core.plan."):
            target = (node.module or "").removeprefix("repair_core.plan.")
        else:
            continue
        if target:
            found.add(target.split(".")[0])
        else:  # `from . import _ops`
            found |= {a.name for a in node.names}
    return (found & modules) - {path.stem}


def import_graph() -> dict[str, set[str]]:
    """Each plan module (by file stem) -> the plan modules it imports."""
    return {p.stem: _plan_imports(p) for p in sorted(PLAN.glob("*.py"))}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of `graph`: one path round each strongly connected part of more than
    one module (or a module importing itself), found iteratively (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for t in targets:
                if t not in index:
                    index[t] = low[t] = len(index)
                    stack.append(t)
                    on_stack.add(t)
                    work.append((t, iter(sorted(graph.get(t, ())))))
                    break
                if t in on_stack:
                    low[node] = min(low[node], index[t])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        part.append(x)
                        if x == node:
                            break
                    if len(part) > 1 or node in graph.get(node, ()):
                        found.append(sorted(part))
    return found


def test_circles_finds_a_circle() -> None:
    graph = {"_ops": {"_plan"}, "_plan": {"_ops", "_reasons"}, "_reasons": set(),
             "_plan_ops": {"_ops", "_plan"}}
    assert circles(graph) == [["_ops", "_plan"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}}) == [
        ["a", "b", "c"], ["d"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = PLAN / "_ops.py"
    assert "_plan" not in _plan_imports(module)
    assert "_ops" in _plan_imports(PLAN / "_plan.py")
    # `_columnar_plan` imports `_suspects` inside functions only
    assert "_suspects" in _plan_imports(PLAN / "_columnar_plan.py")


def test_no_import_circle_in_the_plan() -> None:
    assert circles(import_graph()) == []


def test_operations_do_not_import_the_plan() -> None:
    """`Op` and the plan's types: the operations below, the plan above them."""
    graph = import_graph()
    assert "_plan" not in graph["_ops"] and "_plan_ops" not in graph["_ops"]
    assert "_ops" in graph["_plan_ops"] and "_plan" in graph["_plan_ops"]


@pytest.mark.parametrize("module", sorted(p.stem for p in PLAN.glob("*.py")
                                          if p.stem != "__init__"))
def test_each_plan_module_imports_alone(module: str) -> None:
    run = subprocess.run([sys.executable, "-c", f"import repair_core.plan.{module}"],
                         capture_output=True, text=True, cwd=PLAN.parent.parent)
    assert run.returncode == 0, run.stderr[-2000:]
