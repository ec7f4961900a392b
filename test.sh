#!/usr/bin/env bash
# Set everything up and run the whole test suite: lint, types, tests (pytest arguments pass through).
set -euo pipefail
cd "$(dirname "$0")"
tools/setup-venv.sh dev
echo "== ruff"; .venv/bin/ruff check src tests bench examples
.venv/bin/ruff format --check src tests bench examples
echo "== mypy --strict"; .venv/bin/mypy
# Two workers (pytest-xdist; OHHELL_TEST_WORKERS to change, 0 for none). A module whose tests follow on from each
# other is kept on one worker by its xdist_group mark (--dist loadgroup), in the collection's order, where the
# browser tests come last (--no-loadscope-reorder: xdist would run the largest groups first); later arguments win.
echo "== pytest"; .venv/bin/python -m pytest -n "${OHHELL_TEST_WORKERS:-2}" --dist loadgroup --no-loadscope-reorder "$@"
