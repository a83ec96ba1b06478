#!/usr/bin/env bash
# agent_preload.sh: the agent, LD_PRELOADed into programs that never use CUDA, changes nothing:
# /bin/true, `sh -c 'exit 3'`, a program that forks, one that calls abort() and one that
# dereferences NULL keep their exit status (or signal), stdout and stderr. It must also really start: each process leaves a report
# file and a recording that ends with its PROCESS_EXIT (checked with `cucheck dump`).
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
set -u
CUCHECK_BIN="$1"
BINARY_DIR="$3"
AGENT="$BINARY_DIR/src/agent/libcucheck_agent.so"
[ -f "$AGENT" ] || { echo "skip: $AGENT not built"; exit 77; }
CC="${CC:-cc}"
command -v "$CC" >/dev/null 2>&1 || { echo "skip: no C compiler to build the test programs"; exit 77; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0

cat > "$tmp/forker.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return 10;
    if (pid == 0) { printf("child\n"); exit(7); }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return 11;
    printf("parent saw %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 5;
}
C
cat > "$tmp/aborter.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void) { printf("before abort\n"); fflush(stdout); abort(); }
C
cat > "$tmp/segv.c" <<'C'
#include <stdio.h>
int main(int argc, char **argv) {
    (void)argv;
    volatile int *p = (volatile int *)(long)(argc - 1); /* NULL */
    printf("before fault\n");
    fflush(stdout);
    return *p;
}
C
"$CC" -O0 -o "$tmp/segv" "$tmp/segv.c" || exit 1
"$CC" -O0 -o "$tmp/forker" "$tmp/forker.c" || exit 1
"$CC" -O0 -o "$tmp/aborter" "$tmp/aborter.c" || exit 1

# Runs "$@" in a clean cucheck environment, with or without the agent; writes NAME.{out,err,rc}.
run_case() {
    local name="$1" preload="$2"
    shift 2
    mkdir -p "$tmp/$name"
    (
        cd "$tmp/$name" || exit 99
        unset CUCHECK_TOOL CUCHECK_OPTIONS CUCHECK_REPORT CUCHECK_RECORD CUCHECK_SUPPRESSIONS \
              CUCHECK_PRINT_LIMIT CUCHECK_QUIET CUCHECK_VERBOSE CUDA_INJECTION64_PATH
        if [ -n "$preload" ]; then
            export CUCHECK_REPORT="$tmp/$name/report.%p.jsonl"
            export CUCHECK_RECORD="$tmp/$name/record.%p.cuevt"
            export CUCHECK_QUIET=1 # tool output is not the agent's; checked: the agent adds nothing
            export LD_PRELOAD="$preload"
        fi
        ulimit -c 0
        "$@" >"$tmp/$name/out" 2>"$tmp/$name/err"
        echo $? >"$tmp/$name/rc"
    )
}

# Compares a case run with and without the agent.
compare() {
    local label="$1"
    shift
    run_case "$label.plain" "" "$@"
    run_case "$label.agent" "$AGENT" "$@"
    local a="$tmp/$label.plain" b="$tmp/$label.agent" before=$fail
    if [ "$(cat "$a/rc")" != "$(cat "$b/rc")" ]; then
        echo "FAIL $label: exit status $(cat "$a/rc") without the agent, $(cat "$b/rc") with it"
        fail=1
    fi
    if ! cmp -s "$a/out" "$b/out"; then
        echo "FAIL $label: stdout differs"; diff "$a/out" "$b/out" | head -5; fail=1
    fi
    if ! cmp -s "$a/err" "$b/err"; then
        echo "FAIL $label: stderr differs"; diff "$a/err" "$b/err" | head -5; fail=1
    fi
    # The agent really ran: a report and a recording for the process.
    if ! ls "$b"/report.*.jsonl >/dev/null 2>&1; then
        echo "FAIL $label: the agent wrote no report (did it initialize?)"; fail=1
    fi
    local rec
    rec="$(ls "$b"/record.*.cuevt 2>/dev/null | head -n 1)"
    if [ -z "$rec" ]; then
        echo "FAIL $label: the agent wrote no recording"; fail=1
    elif ! "$CUCHECK_BIN" dump "$rec" >"$b/dump.txt" 2>"$b/dump.err"; then
        echo "FAIL $label: cucheck dump $rec failed: $(head -n 1 "$b/dump.err")"; fail=1
    else
        mv "$b/dump.txt" "$b/dump"
    fi
    [ $fail -eq $before ] && echo "ok   $label: exit $(cat "$b/rc")"
}

# Checks that a recording of case LABEL holds process_start and a process_exit matching PATTERN.
expect_exit() {
    local label="$1" pattern="$2" d="$tmp/$1.agent/dump"
    [ -f "$d" ] || return 0 # already reported
    if ! grep -q '^process_start' "$d"; then
        echo "FAIL $label: recording has no process_start"; fail=1
    fi
    if ! grep -E '^process_exit' "$d" | grep -E -q "$pattern"; then
        echo "FAIL $label: recording lacks process_exit matching '$pattern':"; cat "$d"; fail=1
    fi
}

compare true /bin/true
expect_exit true '^process_exit( t=[0-9]+)?( tid=[0-9]+)?$' # reason normal, code 0: both omitted
compare exit3 /bin/sh -c 'exit 3'
expect_exit exit3 'code=3( |$)' # dash ends with _exit (reason=fast), bash with exit()
compare fork "$tmp/forker"
expect_exit fork 'code=5( |$)'
compare abort "$tmp/aborter"
expect_exit abort 'reason=abort code=6( |$)'

compare segv "$tmp/segv"
expect_exit segv 'reason=signal code=11( |$)'

# The abort really ended by SIGABRT (128+6 from the subshell), not by some other exit.
if [ "$(cat "$tmp/abort.agent/rc")" != 134 ]; then
    echo "FAIL abort: expected status 134 (SIGABRT), got $(cat "$tmp/abort.agent/rc")"; fail=1
fi
if [ "$(cat "$tmp/segv.agent/rc")" != 139 ]; then
    echo "FAIL segv: expected status 139 (SIGSEGV), got $(cat "$tmp/segv.agent/rc")"; fail=1
fi
exit $fail
