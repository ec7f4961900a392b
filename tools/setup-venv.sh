#!/usr/bin/env bash
# Create .venv (once) and install ohhell into it, with the extras named in $1 (e.g. "dev").
# Used by ./start.sh and ./test.sh; safe to run again.
#
# ohhell is installed as a wheel (not in editable mode) so that its engine modules are
# compiled with mypyc (see setup.py); the wheel is rebuilt from the source tree on every
# run, so what runs is always what is checked out. OHHELL_PURE=1 builds pure Python.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
if [ ! -x .venv/bin/uv ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check uv
fi
rm -rf build  # a stale build folder would put old compiled modules into the wheel
target="."
[ -n "$extras" ] && target=".[$extras]"
.venv/bin/uv pip install --quiet --python .venv/bin/python --reinstall-package ohhell "$target" 2>&1 \
  | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import ohhell" # fail loudly if the install did not work

# The training path's tests need PyTorch: the CPU build (pip takes it from the machine's local wheels, where a plain
# "torch" from an index would be a CUDA build of several GB). Only for dev: the players themselves never import it.
if [[ ",$extras," == *",dev,"* || ",$extras," == *",train,"* ]]; then
  if ! .venv/bin/python -c "import torch" 2>/dev/null; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "torch==2.13.0" 2>&1 | grep -v "^WARNING: Location" || true
    .venv/bin/python -c "import torch" # fail loudly if it did not install
  fi
fi

# The browser tests inject axe-core (the accessibility checker) from npm: installed here, never at test time.
if [[ ",$extras," == *",dev,"* ]]; then
  lock=tests/a11y/package-lock.json
  stamp=tests/a11y/node_modules/.installed-lock.json
  if ! cmp -s "$lock" "$stamp" 2>/dev/null; then
    command -v npm >/dev/null || { echo "npm is needed for the accessibility tests (apt-get install npm)" >&2; exit 1; }
    (cd tests/a11y && npm ci --no-audit --no-fund --silent)
    cp "$lock" "$stamp"
  fi
fi
