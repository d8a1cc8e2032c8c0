"""Lower layers never import higher ones. The library's folders form tiers (`LAYERS`,
lowest first, as README.md's Layout lists them); a module may import its own folder and
any folder of a lower tier, never a folder of its own tier or a higher one. Imports are
read from the source (`ast`), at any depth: an import made inside a function once closed
a cycle model -> bench -> model, one in the replay reached up into the benchmark, one in
the reference model into the agent runtime and one in the columnar reader into the
analysis.
An import of a root-level module (`repair_core._io`, or a name of the `repair_core`
facade) counts as importing whatever that module imports."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "repair_core"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("case",),
    ("content", "graph", "tools"),
    ("judge",),
    ("analysis", "verification"),
    ("plan", "model", "importers"),
    ("agent", "viz", "approvals"),
    ("replay", "integrations"),
    ("bench", "fleet", "queue"),
    ("commands",),
)
"""The library's folders in tiers, lowest first."""

def _module(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, package: Path, modules: set[str]) -> set[str]:
    """Every repair_core module `path` imports, at any depth of its code: `from X import
    a` imports the module X.a when there is one, else X (a name X defines)."""
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
                found |= {f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target
                          for a in node.names}
    return found


def _folder(module: str) -> str | None:
    """The library folder `module` belongs to (None for a root-level module)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in _TIER) else None


_TIER = {folder: tier for tier, folders in enumerate(LAYERS) for folder in folders}


def folders(package: Path) -> set[str]:
    return {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}


def inversions(package: Path) -> dict[tuple[str, str], list[str]]:
    """(importing folder, imported folder) -> `module -> module` lines, for every import
    that reaches a folder of the same tier or a higher one (through root-level modules,
    which are followed)."""
    modules = {_module(p, package): p for p in package.rglob("*.py")}
    graph = {m: {t for t in _imports(p, package, set(modules)) if t in modules}
             for m, p in modules.items()}
    found: dict[tuple[str, str], list[str]] = {}
    for mod in sorted(graph):
        src = _folder(mod)
        if src is None:
            continue
        seen, todo = set(), [(t, t) for t in graph[mod]]
        while todo:
            target, first = todo.pop()
            if target in seen:
                continue
            seen.add(target)
            dst = _folder(target)
            if dst is None:  # a root-level module: what it imports counts
                todo += [(t, first) for t in graph[target]]
            elif dst != src and _TIER[dst] >= _TIER[src]:
                via = "" if first == target else f" (via {first})"
                found.setdefault((src, dst), []).append(f"{mod} -> {target}{via}")
    return found


def test_every_folder_of_the_library_has_one_tier():
    placed = [f for tier in LAYERS for f in tier]
    assert len(placed) == len(set(placed))
    assert set(placed) == folders(PACKAGE)


def test_no_folder_imports_one_of_its_own_tier_or_a_higher_one():
    assert inversions(PACKAGE) == {}


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "repair_core"
    for rel, text in {"__init__.py": "", **files}.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    for folder in _TIER:
        (pkg / folder).mkdir(exist_ok=True)
        (pkg / folder / "__init__.py").touch()
    return pkg


def test_the_check_finds_an_import_made_inside_a_function(tmp_path):
    pkg = _package(tmp_path, {
        "model/__init__.py": "from ._builtin import f\n",
        "model/_builtin.py": "def f():\n    from ..bench._agentdojo import g\n",
        "bench/_agentdojo.py": "def g():\n    pass\n"})
    assert inversions(pkg) == {("model", "bench"): [
        "repair_core.model._builtin -> repair_core.bench._agentdojo"]}


def test_the_check_finds_an_import_of_a_higher_folder_by_its_absolute_name(tmp_path):
    pkg = _package(tmp_path, {
        "replay/_slips.py": "import repair_core.bench._normalise as n\n",
        "bench/_normalise.py": ""})
    assert inversions(pkg) == {("replay", "bench"): [
        "repair_core.replay._slips -> repair_core.bench._normalise"]}


def test_the_check_follows_root_level_modules_and_the_facade(tmp_path):
    pkg = _package(tmp_path, {
        "__init__.py": "from .replay import execute\n",
        "_helper.py": "from .plan import plan_case\n",
        "content/_a.py": "from .. import execute\n",
        "graph/_b.py": "from .._helper import plan_case\n",
        "bench/_c.py": "from .. import execute\n"})
    assert inversions(pkg) == {
        ("content", "replay"): ["repair_core.content._a -> repair_core.replay (via repair_core)"],
        ("graph", "plan"): ["repair_core.graph._b -> repair_core.plan (via repair_core._helper)"]}


def test_a_folder_may_not_import_a_peer_of_its_own_tier(tmp_path):
    pkg = _package(tmp_path, {"content/_a.py": "from ..graph import build_graph\n"})
    assert inversions(pkg) == {("content", "graph"): ["repair_core.content._a -> repair_core.graph"]}
