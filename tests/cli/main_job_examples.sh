#!/usr/bin/env bash
# The README's main job over the bundled examples (scripts/run-examples.sh, what
# scripts/examples.sh runs after building) must pass on this build: on a machine without a GPU
# its CPU parts (inspect, occupancy, scenario replays) pass and every GPU check is listed as a
# row marked skipped. Usage: main_job_examples.sh CUCHECK_BIN SOURCE_DIR BINARY_DIR
set -u
cucheck="$1"; src="$2"; bin="$3"
out="$(mktemp "${TMPDIR:-/tmp}/cucheck-mainjob.XXXXXX")"
trap 'rm -f "$out"' EXIT
bash "$src/scripts/run-examples.sh" "$bin" "$cucheck" >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL: scripts/run-examples.sh exited $rc"
    grep -E '\| FAIL \||failed' "$out" | head -20
    exit 1
fi
grep -q '^run-examples: all available checks passed' "$out" || {
    echo "FAIL: no 'all available checks passed' line"; tail -5 "$out"; exit 1; }
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    n="$(grep -c '| skipped (no GPU) |' "$out")"
    rows="$(grep -Evc '^[[:space:]]*(#|$)' "$src/examples/expected.txt")"
    if [ "$n" -lt 1 ] || [ "$rows" -lt 1 ]; then
        echo "FAIL: without a GPU the table lists no skipped GPU check ($n rows)"; exit 1
    fi
    echo "ok: CPU parts passed, $n GPU checks listed as skipped"
else
    echo "ok: every check passed"
fi
