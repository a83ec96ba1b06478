#!/usr/bin/env bash
# Configure and build cucheck into BUILD_DIR (default: build), installing missing dependencies
# first (scripts/setup-deps.sh). Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
# The build type is RelWithDebInfo unless the extra arguments say otherwise
# (-DCMAKE_BUILD_TYPE=Release). CUCHECK_WERROR=ON in the environment turns compiler warnings into
# errors (developers and CI; .ci/run sets it); users' builds leave it OFF.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
shift || true
"$root/scripts/setup-deps.sh"
jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCUCHECK_WERROR="${CUCHECK_WERROR:-OFF}" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
