# Shared helpers of the tests/cli/cli_*.sh scripts (sourced, not a test itself).
# Each script runs as: bash SCRIPT CUCHECK_BIN SOURCE_DIR BINARY_DIR; exit 0 pass, 77 skip.
set -u
CUCHECK="${1:?usage: SCRIPT CUCHECK_BIN SOURCE_DIR BINARY_DIR}"
SOURCE_DIR="${2:?}"
BINARY_DIR="${3:?}"
DATA="$SOURCE_DIR/tests/cli/data"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/cucheck-clitest.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
FAILS=0

fail() {
  echo "FAIL: $*"
  FAILS=$((FAILS + 1))
}

# run_cc ARGS...: runs cucheck; sets RC, OUT (stdout file), ERR (stderr file).
OUT="$WORK/out"
ERR="$WORK/err"
run_cc() {
  "$CUCHECK" "$@" >"$OUT" 2>"$ERR"
  RC=$?
}

# expect_rc WANT DESC
expect_rc() {
  if [ "$RC" -ne "$1" ]; then
    fail "$2: exit status $RC, expected $1; stderr: $(head -c 600 "$ERR")"
  fi
}

# expect_usage_error DESC ARGS...: exit 2, exactly one line on stderr, nothing on stdout.
expect_usage_error() {
  local desc="$1"
  shift
  run_cc "$@"
  expect_rc 2 "$desc"
  local lines
  lines="$(wc -l <"$ERR")"
  if [ "$lines" -ne 1 ]; then
    fail "$desc: $lines lines on stderr, expected 1: $(cat "$ERR")"
  fi
  if ! grep -q '^cucheck: ' "$ERR"; then
    fail "$desc: stderr does not start with 'cucheck: ': $(cat "$ERR")"
  fi
  if [ -s "$OUT" ]; then
    fail "$desc: unexpected stdout: $(head -c 300 "$OUT")"
  fi
}

# expect_in FILE TEXT DESC: FILE contains TEXT (fixed string).
expect_in() {
  if ! grep -qF -- "$2" "$1"; then
    fail "$3: '$2' not found in: $(head -c 800 "$1")"
  fi
}

expect_not_in() {
  if grep -qF -- "$2" "$1"; then
    fail "$3: '$2' unexpectedly found in: $(head -c 800 "$1")"
  fi
}

finish() {
  if [ "$FAILS" -ne 0 ]; then
    echo "$(basename "$0"): $FAILS check(s) failed"
    exit 1
  fi
  echo "$(basename "$0"): all checks passed"
  exit 0
}

# harmless_agent: prints the path of a shared library that is safe to inject everywhere (the C
# library the programs load anyway), so that the CLI can be tested without the real agent.
harmless_agent() {
  local lib
  lib="$(ldd /bin/sh 2>/dev/null | awk '/libc\.so/ { print $3; exit }')"
  if [ -n "$lib" ] && [ -f "$lib" ]; then
    echo "$lib"
    return 0
  fi
  return 1
}

# A test of the CLI without the real agent: the harmless library above as CUCHECK_AGENT and a
# private TMPDIR (where the CLI keeps report directories); skips the test (exit 77) when no C
# library can stand in.
use_harmless_agent() {
  CUCHECK_AGENT="$(harmless_agent)" || { echo "skip: no C library found to stand in for the agent"; exit 77; }
  export CUCHECK_AGENT
  export TMPDIR="$WORK/tmp"
  mkdir -p "$TMPDIR"
}
