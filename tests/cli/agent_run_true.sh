#!/usr/bin/env bash
# agent_run_true.sh: `cucheck run -- PROGRAM` on programs without CUDA behaves like the program:
# /bin/true exits 0 with no output, a shell's exit status passes through, `--track off`,
# `--track callbacks` and CUCHECK_TRACK work, and a malformed track value is said in one line
# while the program runs.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
set -u
CUCHECK="$1"
[ -f "$3/src/agent/libcucheck_agent.so" ] || { echo "skip: agent not built"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name expected_rc actual_rc
    if [ "$2" != "$3" ]; then echo "FAIL $1: exit $3, expected $2"; fail=1; else echo "ok   $1"; fi
}
"$CUCHECK" run -- /bin/true >"$tmp/out" 2>"$tmp/err"; rc=$?
check "run -- /bin/true" 0 $rc
# cucheck's own summary lines start with "=========" or "cucheck:"; nothing else may appear.
if grep -v -e '^=========' -e '^cucheck:' "$tmp/out" | grep -q .; then
    echo "FAIL /bin/true: unexpected stdout: $(head -3 "$tmp/out")"; fail=1
fi
if grep -q "cannot\|error" "$tmp/err"; then echo "FAIL /bin/true: $(cat "$tmp/err")"; fail=1; fi
"$CUCHECK" run -- sh -c 'exit 3' >/dev/null 2>&1; check "exit status 3" 3 $?
"$CUCHECK" run --track off -- /bin/true >/dev/null 2>"$tmp/err"; check "--track off" 0 $?
CUCHECK_TRACK=launch,stacks "$CUCHECK" run -- /bin/true >/dev/null 2>&1; check "CUCHECK_TRACK list" 0 $?
# the baseline of the overhead targets is a valid value (no "malformed" line), and the agent's
# self-time diagnostic leaves a program without CUDA alone
out="$(CUCHECK_SELF_TIME=1 "$CUCHECK" run --track callbacks -- sh -c 'echo hi' 2>"$tmp/err")"
check "--track callbacks" 0 $?
[ "$out" = "hi" ] || { echo "FAIL --track callbacks: stdout '$out'"; fail=1; }
if grep -q "track=" "$tmp/err"; then echo "FAIL --track callbacks: $(cat "$tmp/err")"; fail=1; fi
# streamcheck's default group list and the event-thread switch are valid values too
for et in 0 1; do
    out="$(CUCHECK_TRACK=on,-api,apiwork CUCHECK_EVENT_THREAD=$et "$CUCHECK" streamcheck -- \
           sh -c 'echo hi' 2>"$tmp/err")"
    check "apiwork, event thread $et" 0 $?
    # the program's output, then the report's notes (one names CUCHECK_TRACK: docs/agent.md)
    [ "$(printf '%s\n' "$out" | grep -v '^=========')" = "hi" ] ||
        { echo "FAIL apiwork, event thread $et: stdout '$out'"; fail=1; }
    if grep -q "track=\|malformed\|not 'on'" "$tmp/err"; then
        echo "FAIL apiwork, event thread $et: $(cat "$tmp/err")"; fail=1
    fi
done
out="$(CUCHECK_TRACK=bogus "$CUCHECK" run -- sh -c 'echo hi' 2>"$tmp/err")"; rc=$?
check "malformed track" 0 $rc
[ "$out" = "hi" ] || { echo "FAIL malformed track: stdout '$out'"; fail=1; }
n="$(grep -c "track='bogus'" "$tmp/err")"
[ "$n" = 1 ] || { echo "FAIL malformed track: $n message lines: $(cat "$tmp/err")"; fail=1; }
exit $fail
