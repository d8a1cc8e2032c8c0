#!/usr/bin/env bash
# Set up dgrr: the exact dependency versions of uv.lock, then dgrr itself (editable), into
# the Python that `python3` runs: the active virtual environment if there is one (suggested:
# `python3 -m venv .venv && . .venv/bin/activate` first), else the python3 on PATH (as in
# CI, which runs as root on a fresh clone). With --test also the test tools and Debian's
# Chromium for the browser test. Safe to run again.
#
#   bash scripts/setup.sh [--test] [--pip]
#
# --pip  install with pip from the ranges in pyproject.toml instead of uv and the lock
#        (slower, and the versions are whatever pip picks within the ranges).
# Re-locking after a change to pyproject.toml is one command: `uv lock` (see README).
set -euo pipefail
cd "$(dirname "$0")/.."

want_tests=0
use_pip=0
for arg in "$@"; do
    case "$arg" in
        --test) want_tests=1 ;;
        --pip) use_pip=1 ;;
        *) echo "setup: unknown option '$arg' (expected --test and/or --pip)" >&2; exit 2 ;;
    esac
done
extra=""
[ $want_tests = 1 ] && extra="test"

python=$(command -v python3)
quiet_pip=(--quiet --disable-pip-version-check --root-user-action=ignore)

if [ $use_pip = 1 ]; then
    echo "setup: installing with pip from pyproject.toml's ranges (not the lock)" >&2
    # (pip has no "all extras": with --test add any extra the tests need to the line below)
    "$python" -m pip install "${quiet_pip[@]}" -e ".${extra:+[$extra]}"
else
    if ! command -v uv >/dev/null 2>&1 && ! "$python" -m uv --version >/dev/null 2>&1; then
        "$python" -m pip install "${quiet_pip[@]}" "uv>=0.5,<1"
    fi
    if command -v uv >/dev/null 2>&1; then uv=(uv); else uv=("$python" -m uv); fi
    # Inside a virtual environment install there; otherwise into the python3 on PATH.
    if [ -n "${VIRTUAL_ENV:-}" ]; then target=(--python "$VIRTUAL_ENV/bin/python")
    else target=(--system --python "$python"); fi
    echo "setup: installing dgrr and the locked dependencies${extra:+ (with the test tools)} into ${VIRTUAL_ENV:-$python} (a minute or more on a fresh machine, seconds after)" >&2
    requirements=$(mktemp)
    trap 'rm -f "$requirements"' EXIT
    # --locked: refuse a lock that no longer matches pyproject.toml (re-lock with `uv lock`).
    # With --test every extra is installed (test, and any other extra whose tests run too).
    "${uv[@]}" export --locked --quiet --no-hashes --no-emit-project --format requirements-txt \
        $([ $want_tests = 1 ] && echo --all-extras) -o "$requirements"
    "${uv[@]}" pip install --quiet "${target[@]}" -r "$requirements"
    "${uv[@]}" pip install --quiet "${target[@]}" --no-deps -e .
fi
# Write the bytecode of what `dgrr` (and with --test, the test run) imports, once. Where
# PYTHONDONTWRITEBYTECODE=1 is set, nothing else ever writes it and every `dgrr` start
# would compile pydantic, networkx and numpy again (3.5 s instead of 0.5 s). Compiling only
# what is imported is much faster than compiling every installed package.
# The columnar reader and planner are imported only for large cases: warm them too (with
# PYTHONDONTWRITEBYTECODE set, compiling them cost 86 ms of every 100k-step `dgrr plan`).
warm="from repair_core.cli import build_parser; build_parser(); import repair_core.replay, \
repair_core.case._columns, repair_core.plan._columnar_plan"
[ $want_tests = 1 ] && warm="$warm; import repair_core.model as m; m.import_litellm(); \
import pandas, sqlalchemy, streamlit, pyvis, hypothesis, pytest, xdist, dgrr_dashboard"
env -u PYTHONDONTWRITEBYTECODE LITELLM_OFFLINE_MODE=true LITELLM_MODE=PRODUCTION \
    "$python" -c "$warm"
# pyenv only sees a new console script (dgrr) after a rehash.
if command -v pyenv >/dev/null 2>&1; then pyenv rehash || true; fi

# Debian's packages the tests need: Chromium for the browser tests, PostgreSQL for the
# store and queue tests (tests/postgres_server.py starts a throwaway cluster on loopback).
if [ $want_tests = 1 ]; then
    apt_packages=()
    [ -x /usr/bin/chromium ] || apt_packages+=(chromium)
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
        || apt_packages+=(postgresql)
    if [ ${#apt_packages[@]} -gt 0 ]; then
        echo "setup: installing Debian's ${apt_packages[*]} for the tests" >&2
        SUDO=""
        [ "$(id -u)" != 0 ] && SUDO="sudo"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${apt_packages[@]}" >/dev/null
    fi
fi
