"""Write docs/cli.md from the dgrr argument parser: python scripts/gen_cli_doc.py

tests/test_cli_documented.py fails when a command or option is missing from the page,
so run this after changing the command line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from repair_core._io import atomic_write_text  # noqa: E402
from repair_core.cli import build_parser  # noqa: E402

HEADER = """# The `dgrr` command line

Generated from the parser by `python scripts/gen_cli_doc.py`; every command and option
below is checked by `tests/test_cli_documented.py`. Exit codes everywhere: 0 success,
1 the work ran but something in it failed (the report says what), 2 invalid input (the
message names the field and value; nothing is written). Text from the input (ids, texts,
case ids, reviewer names) is printed, in the readable output and in error messages, with
every control and format character shown as an escape (`\\x1b`, `\\x0d`, `\\u202e`:
`repair_core._text.printable`), so a case cannot drive the terminal; `--json` output is
JSON (its strings escape C0 control characters, as JSON does).

## Environment

| variable | meaning |
|---|---|
| `DGRR_DB` | approvals database for `dgrr approve`/`history` and the dashboard: a SQLite path or any SQLAlchemy URL (default `~/.dgrr/approvals.db`); `--db` overrides it |
| `DGRR_KEYS` | folder of reviewers' private Ed25519 keys (default `~/.dgrr/keys`; mode 0700, each key 0600); a decision or applied event is signed with its reviewer's key when there is one (docs/approvals.md); `--keys` overrides it |
| `DGRR_TRUST` | trust file of reviewers' public keys, kept outside the approvals database (default `~/.dgrr/trusted_keys.json`); when it exists, unsigned decisions and decisions by keys it does not list are refused, `history --verify` checks every row's signature, and `apply`/`worker` honour only signed, trusted approvals; keys marked `"admin": true` may change the review rule; `apply --overwrite` is refused without it (its override row must be signed by a key it trusts); `--trust` overrides it |
| `DGRR_JOURNAL_KEY` | the secret file that authenticates apply journals (default `~/.dgrr/journal.key`, made 0600 on first use; refused inside the journal folder); everyone who applies to one store needs the same one (docs/writeback.md) |
| `DGRR_REQUIRE_SIGNED` | `1`: `apply` and `worker` refuse to honour any approval without a trust file (fail closed) |
| `LITELLM_OFFLINE_MODE`, `LITELLM_MODE` | set to `true` and `PRODUCTION` by dgrr before litellm is imported (no network calls at import) |
| `OPENBLAS_NUM_THREADS` | set to `1` by `dgrr` unless already set (numpy's OpenBLAS would start a thread per CPU at import, for linear algebra dgrr does not do: docs/performance.md) |
| `OPENAI_API_KEY`, ... | whatever the litellm provider of a real `--model` needs |
"""


def subcommands(parser: argparse.ArgumentParser, prefix: str = "dgrr"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield f"{prefix} {name}", sub, helps.get(name) or ""
                yield from subcommands(sub, f"{prefix} {name}")


def options(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        name = ", ".join(action.option_strings) if action.option_strings else action.dest.upper()
        default = action.default
        text = (action.help or "").replace("|", "\\|")
        if action.choices and "{" not in text:
            text += f" (one of: {', '.join(map(str, action.choices))})"
        if default not in (None, False, "", argparse.SUPPRESS) and "default" not in text:
            text += f" (default: `{default}`)"
        yield name, text


def render() -> str:
    out = [HEADER]
    for command, sub, summary in subcommands(build_parser()):
        has_own = any(not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
                      for a in sub._actions)
        out.append(f"\n## `{command}`\n\n{summary}\n")
        if has_own:
            out.append("\n| argument | meaning |\n|---|---|\n")
            out += [f"| `{name}` | {text} |\n" for name, text in options(sub)]
    return "".join(out)


if __name__ == "__main__":
    path = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
    atomic_write_text(path, render())
    print(f"wrote {path}")
