#!/usr/bin/env bash
# Set up dgrr on a fresh machine: the package and its dependencies, and with --test the
# test tools and Debian's Chromium for the browser test. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

want_tests=0
[ "${1:-}" = "--test" ] && want_tests=1

python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    -e ".$([ $want_tests = 1 ] && echo '[test]')"
# pyenv only sees a new console script (dgrr) after a rehash.
if command -v pyenv >/dev/null 2>&1; then pyenv rehash || true; fi

if [ $want_tests = 1 ] && [ ! -x /usr/bin/chromium ]; then
    echo "setup: installing Debian's chromium for the browser test" >&2
    SUDO=""
    [ "$(id -u)" != 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
