"""Subcommands of `dgrr`, one module each (see `repair_core.cli`)."""
