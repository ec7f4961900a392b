#!/usr/bin/env bash
# Set everything up and start the main job. Extra arguments go to the `ohhell` command.
set -euo pipefail
cd "$(dirname "$0")"
tools/setup-venv.sh
if [ "$#" -gt 0 ]; then
  exec .venv/bin/ohhell "$@"
fi
exec .venv/bin/ohhell serve
