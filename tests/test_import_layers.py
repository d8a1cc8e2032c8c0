"""Lower layers never import higher ones: the model layer reaches no benchmark module,
even through an import made inside a function (such an import once closed a cycle
model -> bench -> model)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "repair_core"


def _module(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, package: Path) -> set[str]:
    """Every repair_core module `path` imports, at any depth of its code."""
    mod = _module(path, package)
    pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("repair_core")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("repair_core"):
                found.add(target)
                found |= {f"{target}.{a.name}" for a in node.names}
    return found


def _model_reaches_bench(package: Path) -> list[str]:
    modules = {_module(p, package): p for p in package.rglob("*.py")}
    graph = {m: {t for t in _imports(p, package) if t in modules} for m, p in modules.items()}
    start = {m for m in graph if m == "repair_core.model" or m.startswith("repair_core.model.")}
    seen, todo = set(start), list(start)
    while todo:
        for t in graph.get(todo.pop(), ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return sorted(m for m in seen if m.startswith("repair_core.bench"))


def test_the_model_layer_never_imports_the_benchmark():
    assert _model_reaches_bench(PACKAGE) == []


def test_the_check_finds_an_import_made_inside_a_function(tmp_path):
    pkg = tmp_path / "repair_core"
    for rel, text in {"__init__.py": "", "model/__init__.py": "from ._builtin import f\n",
                      "model/_builtin.py": "def f():\n    from ..bench._agentdojo import g\n",
                      "bench/__init__.py": "", "bench/_agentdojo.py": "def g():\n    pass\n"
                      }.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    assert _model_reaches_bench(pkg) == ["repair_core.bench._agentdojo"]
