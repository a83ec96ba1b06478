#!/usr/bin/env bash
# agent_conflict.sh: when another Compute Sanitizer client already subscribed (as compute-sanitizer
# would), the agent prints exactly one line saying it cannot attach, and the program runs on
# with its own exit status. The test program subscribes first, then dlopen()s the agent.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
set -u
BINARY_DIR="$3"
AGENT="$BINARY_DIR/src/agent/libcucheck_agent.so"
[ -f "$AGENT" ] || { echo "skip: $AGENT not built"; exit 77; }
CC="${CC:-cc}"
command -v "$CC" >/dev/null 2>&1 || { echo "skip: no C compiler"; exit 77; }
LIB="$(sed -n 's/^ComputeSanitizer_LIBRARY:FILEPATH=//p' "$BINARY_DIR/CMakeCache.txt")"
[ -f "$LIB" ] || { echo "FAIL: ComputeSanitizer_LIBRARY not in $BINARY_DIR/CMakeCache.txt"; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/first.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
typedef int (*subscribe_fn)(void **handle, void (*cb)(void *, int, unsigned, const void *), void *);
static void cb(void *u, int d, unsigned c, const void *p) { (void)u; (void)d; (void)c; (void)p; }
int main(int argc, char **argv) {
    if (argc != 3) return 90;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
    if (!lib) { printf("dlopen sanitizer: %s\n", dlerror()); return 91; }
    subscribe_fn sub = (subscribe_fn)dlsym(lib, "sanitizerSubscribe");
    void *handle = NULL;
    if (!sub || sub(&handle, cb, NULL) != 0) { printf("first subscribe failed\n"); return 92; }
    if (!dlopen(argv[2], RTLD_NOW)) { printf("dlopen agent: %s\n", dlerror()); return 93; }
    printf("still running\n");
    return 4;
}
C
"$CC" -O0 -o "$tmp/first" "$tmp/first.c" -ldl || exit 1
(
    unset CUCHECK_TOOL CUCHECK_OPTIONS CUCHECK_RECORD CUCHECK_QUIET CUCHECK_VERBOSE LD_PRELOAD
    export CUCHECK_REPORT="$tmp/report.%p.jsonl"
    "$tmp/first" "$LIB" "$AGENT" >"$tmp/out" 2>"$tmp/err"
    echo $? >"$tmp/rc"
)
fail=0
[ "$(cat "$tmp/rc")" = 4 ] || { echo "FAIL: exit status $(cat "$tmp/rc"), expected 4"; cat "$tmp/out"; fail=1; }
[ "$(cat "$tmp/out")" = "still running" ] || { echo "FAIL: stdout:"; cat "$tmp/out"; fail=1; }
expected="cucheck: cannot attach: another CUDA tools-API client (compute-sanitizer, Nsight, a profiler) is active; the program runs unchecked (try 'cucheck doctor')"
if [ "$(cat "$tmp/err")" != "$expected" ]; then
    echo "FAIL: stderr was:"; cat "$tmp/err"; fail=1
fi
if ls "$tmp"/report.*.jsonl >/dev/null 2>&1; then
    echo "FAIL: an unattached agent left a report that would read as a clean run"; fail=1
fi
[ $fail -eq 0 ] && echo ok
exit $fail
