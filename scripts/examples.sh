#!/usr/bin/env bash
# The main job: build cucheck and the bundled examples, then run cucheck on them (on a machine
# without a GPU it runs what works without one and says so). Usage: scripts/examples.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
"$root/scripts/build.sh" "$build"
exec "$root/scripts/run-examples.sh" "$build" "$build/cucheck"
