#!/usr/bin/env bash
# Set everything up and run the whole test suite: lint, types, tests (pytest arguments pass through).
set -euo pipefail
cd "$(dirname "$0")"
tools/setup-venv.sh dev
echo "== ruff"; .venv/bin/ruff check src tests bench examples
.venv/bin/ruff format --check src tests bench examples
echo "== mypy --strict"; .venv/bin/mypy
echo "== pytest"; .venv/bin/python -m pytest "$@"
