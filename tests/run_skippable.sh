#!/usr/bin/env bash
# Runs one test program for ctest and passes its output and exit status through, except that a
# program that exits 0 after printing a line beginning with "skipped:" (a unit test that needs
# nvcc and found none) exits 77, which ctest reports as skipped (SKIP_RETURN_CODE) rather than
# passed. A failing program fails, whatever it printed.
# Usage: run_skippable.sh PROGRAM [ARGS...]
set -u
out="$(mktemp "${TMPDIR:-/tmp}/cucheck-test-out.XXXXXX")"
trap 'rm -f "$out"' EXIT
"$@" >"$out"
rc=$?
cat "$out"
if [ $rc -eq 0 ] && grep -q '^skipped:' "$out"; then
  exit 77
fi
exit $rc
