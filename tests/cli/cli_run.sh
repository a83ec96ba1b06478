#!/usr/bin/env bash
# cucheck run with the real agent library injected: the program's exit status comes through
# (0, 3, 128+signal with a message, 127 for a missing program), and the temporary report
# directory is removed afterwards. Skipped (77) when the agent library is not built.
source "$(dirname "$0")/data/common.bash"
AGENT="$BINARY_DIR/src/agent/libcucheck_agent.so"
if [ ! -f "$AGENT" ]; then
  echo "skip: $AGENT is not built"
  exit 77
fi
unset CUCHECK_AGENT
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"

run_cc run -- /bin/true
expect_rc 0 "run -- /bin/true"
run_cc run -- sh -c 'exit 3'
expect_rc 3 "run -- sh -c 'exit 3'"
run_cc run sh -c 'exit 4'
expect_rc 4 "run without --"
run_cc --quiet run -- sh -c 'echo out; echo err >&2; exit 0'
expect_rc 0 "program output"
expect_in "$OUT" "out" "program stdout passes through"
expect_in "$ERR" "err" "program stderr passes through"
run_cc run -- sh -c 'kill -SEGV $$'
expect_rc 139 "program killed by SIGSEGV"
expect_in "$ERR" "cucheck: program killed by signal 11" "signal message"
run_cc run -- "$WORK/no-such-program"
expect_rc 127 "missing program"
expect_in "$ERR" "cannot run '$WORK/no-such-program': No such file or directory" "missing program"
run_cc --error-exitcode 9 run -- sh -c 'exit 0'
expect_rc 0 "--error-exitcode without errors"

# The agent really is injected, and told where to report.
run_cc run -- sh -c 'case "$LD_PRELOAD" in *libcucheck_agent.so*) ;; *) exit 10;; esac;
                     [ -n "$CUDA_INJECTION64_PATH" ] || exit 11; [ "$CUCHECK_TOOL" = run ] || exit 12;
                     [ -n "$CUCHECK_REPORT" ] || exit 13'
expect_rc 0 "agent environment"

left="$(find "$TMPDIR" -mindepth 1 | head -5)"
[ -z "$left" ] || fail "temporary report files left behind: $left"
finish
