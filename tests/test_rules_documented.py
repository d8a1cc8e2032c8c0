"""Every rule in docs/rules.md has a unit test, and every rule a test names is documented."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def documented_rules() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([a-z0-9.-]+)` \|", text, flags=re.M))


def rules_with_tests() -> set[str]:
    """Rule ids named by `rule("...")` in tests/test_rules*.py (stage 4's world rules live
    in test_rules_replay_world.py)."""
    found = set()
    for path in sorted((ROOT / "tests").glob("test_rules*.py")):
        found |= _rules_in(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _rules_in(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "rule" and node.args
                and isinstance(node.args[0], ast.Constant)):
            found.add(node.args[0].value)
    return found


def test_rules_doc_lists_some_rules():
    assert len(documented_rules()) >= 30


def test_every_documented_rule_has_a_test():
    assert documented_rules() - rules_with_tests() == set()


def test_every_tested_rule_is_documented():
    assert rules_with_tests() - documented_rules() == set()
