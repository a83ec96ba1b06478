#!/usr/bin/env bash
# Build cucheck and run every test: unit, CLI, scenario, fuzz-corpus and (with a GPU) GPU tests,
# then a short libFuzzer run of every fuzz target when clang is available.
# Usage: scripts/test.sh [BUILD_DIR]   (FUZZ_SECONDS=N sets the fuzzing time per target, 0 skips;
# CUCHECK_WERROR=ON builds with warnings as errors, see scripts/build.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
"$root/scripts/build.sh" "$build"
jobs="$(nproc 2>/dev/null || echo 2)"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
fuzz_seconds="${FUZZ_SECONDS:-20}"
if [ "$fuzz_seconds" != 0 ]; then
  if command -v clang >/dev/null 2>&1; then
    "$root/scripts/fuzz.sh" "$fuzz_seconds"
  else
    echo "test.sh: clang not found: fuzzing skipped (the fuzz corpora ran as ctest cases)"
  fi
fi
echo "test.sh: all tests passed"
