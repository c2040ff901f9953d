#!/usr/bin/env bash
# The test command (README, and exactly what CI runs through .ci/run).
#
# On a fresh Debian/Ubuntu machine it installs everything the tests need, then runs pytest
# (on every core, below):
#   - the project with its test extras (pip; editable, so the tests exercise this checkout);
#   - Debian's chromium (browser tests) and nodejs (the match page's engine), when missing and
#     installing is allowed (root with apt-get; set CARDGEN_NO_APT=1 to never call apt-get).
# Set CARDGEN_NO_INSTALL=1 to skip the pip step (an environment that already has the deps).
# PYTHON picks the interpreter (default python3; a Debian python3, which refuses pip outside a
# virtualenv, installs into and runs from the clone's .venv instead).
# Arguments are passed to pytest:  ./test.sh -x tests/test_cache.py
# --fast first runs the fast subset, which needs no ../shared and takes about a minute:
#   ./test.sh --fast   (= ./test.sh -m "not slow and not needs_data"; CONTRIBUTING.md)
set -euo pipefail
cd "$(dirname "$0")"
fast=()
if [ "${1:-}" = "--fast" ]; then
  shift
  fast=(-m "not slow and not needs_data")
fi
export DEBIAN_FRONTEND=noninteractive
if [ -z "${PYTHON:-}" ]; then
  PYTHON=python3
  # Debian's and Ubuntu's own Python refuses `pip install` outside a virtualenv (PEP 668,
  # "externally-managed-environment"): the tests then install into the clone's own .venv
  # (made on the first run, used again after), as the README's install does
  if [ -z "${CARDGEN_NO_INSTALL:-}" ] && "$PYTHON" -c 'import os, sys, sysconfig
managed = os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))
sys.exit(0 if managed and sys.prefix == sys.base_prefix else 1)' </dev/null
  then
    if [ ! -x .venv/bin/python ]; then
      echo "test.sh: $(command -v "$PYTHON") is externally managed (Debian): installing into .venv" >&2
      "$PYTHON" -m venv .venv </dev/null
    fi
    PYTHON=.venv/bin/python
  fi
fi

# Debian packages the tests need: chromium (the browser tests) and nodejs (the match page's
# JavaScript engine, played against the Python reference engine: tests/test_play_engine.py)
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
[ ${#fast[@]} -eq 0 ] || missing=()  # the fast subset needs neither (no browser, no match page)
if [ -z "${CARDGEN_NO_APT:-}" ] && [ "${#missing[@]}" -gt 0 ] \
   && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "test.sh: installing Debian's ${missing[*]} for the tests" >&2
  apt-get update -qq </dev/null && apt-get install -y -qq "${missing[@]}" </dev/null >/dev/null
fi
if [ ${#fast[@]} -eq 0 ] && ! command -v chromium >/dev/null 2>&1; then
  echo "test.sh: chromium is not installed (run as root with apt-get, or install it): the browser test will fail" >&2
fi
if [ ${#fast[@]} -eq 0 ] && ! command -v node >/dev/null 2>&1; then
  echo "test.sh: node is not installed (run as root with apt-get, or install nodejs): the match page's engine tests will fail" >&2
fi

if [ -z "${CARDGEN_NO_INSTALL:-}" ]; then
  "$PYTHON" -m pip install -q --disable-pip-version-check -e '.[test]' </dev/null
fi

# The suite runs on every core with pytest-xdist (a test extra): whole test files go to one worker
# (--dist loadfile), so a file's module fixtures are built once, but for a few files whose tests
# go one by one to whichever worker is free; the longest files start first, in the order
# tests/conftest.py sets (--no-loadscope-reorder); the session fixtures that calibrate are shared
# between the workers (tests/conftest.py). One core, no xdist,
# CARDGEN_TEST_WORKERS=1, or a debugging run (--pdb, --trace, -p no:xdist, which xdist refuses or
# cannot serve): the plain serial run. Arguments after these win (./test.sh -n 0).
workers="${CARDGEN_TEST_WORKERS:-$("$PYTHON" -c 'import os; print(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)')}"
for arg in "$@"; do
  case "$arg" in --pdb|--trace|no:xdist) workers=1 ;; esac
done
parallel=()
if [ "$workers" -gt 1 ] && "$PYTHON" -c 'import xdist' >/dev/null 2>&1; then
  parallel=(-n "$workers" --dist loadfile --no-loadscope-reorder)
fi
exec "$PYTHON" -m pytest -q ${parallel[@]+"${parallel[@]}"} ${fast[@]+"${fast[@]}"} "$@"
