"""Every command and option of `dgrr` is documented: in its --help and in docs/cli.md."""

import argparse
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from gen_cli_doc import options, render, subcommands  # noqa: E402

from repair_core.cli import build_parser  # noqa: E402

COMMANDS = list(subcommands(build_parser()))


def test_there_are_commands():
    names = {c for c, _, _ in COMMANDS}
    assert {"dgrr validate", "dgrr plan", "dgrr repair", "dgrr graph"} <= names


@pytest.mark.parametrize("command,sub,summary", COMMANDS, ids=[c for c, _, _ in COMMANDS])
def test_command_and_options_have_help(command, sub, summary):
    assert summary, f"{command} has no help line"
    for name, text in options(sub):
        assert text.strip(), f"{command} {name} has no help text"


def test_docs_cli_is_up_to_date():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert page == render(), "docs/cli.md is stale: run python scripts/gen_cli_doc.py"


def test_every_option_is_on_the_page():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for command, sub, _ in COMMANDS:
        assert f"## `{command}`" in page
        for action in sub._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            for flag in action.option_strings:
                assert f"`{flag}" in page, (command, flag)
