#!/usr/bin/env bash
# GPU checks of `cucheck run` attribution (needs a GPU; exit 77 without one).
# Usage: run.sh CUCHECK [BUILD_DIR]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/run_attribution.py" --cucheck "${1:?usage: run.sh CUCHECK [BUILD_DIR]}" \
    --build-dir "${2:-/tmp/cucheck-attribution}"
