#!/usr/bin/env bash
# Without a CUDA driver, `cucheck run` says so ("no CUDA driver (libcuda.so.1) could be loaded:
# <the loader's reason>", with the hint to try `cucheck doctor`) instead of "this process made no
# CUDA calls", for a program without CUDA (/bin/true) and for a CUDA program built with nvcc
# (the examples). With a driver, /bin/true keeps the plain note and no driver note appears.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
set -u
CUCHECK="$1"; BIN_DIR="$3"
[ -f "$BIN_DIR/src/agent/libcucheck_agent.so" ] || { echo "skip: agent not built"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
have_driver=0
python3 -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null && have_driver=1

out="$("$CUCHECK" run -- /bin/true 2>&1)" || fail "run -- /bin/true exited $?"
if [ $have_driver = 1 ]; then
    echo "$out" | grep -q "no CUDA driver" && fail "driver present, yet: $out"
    echo "$out" | grep -q "made no CUDA calls" || fail "no plain note: $out"
    echo "ok (driver present: the no-driver case needs a machine without one)"
    exit 0
fi
echo "$out" | grep -q "^========= no CUDA driver (libcuda.so.1) could be loaded: libcuda.so.1: .*(try 'cucheck doctor')$" ||
    fail "/bin/true: $out"
echo "$out" | grep -q "made no CUDA calls" && fail "/bin/true: both notes: $out"

prog="$BIN_DIR/examples/vecadd_ok"
if [ -x "$prog" ]; then
    out="$("$CUCHECK" run -- "$prog" 2>&1)"
    echo "$out" | grep -q "^========= no CUDA driver (libcuda.so.1) could be loaded" ||
        fail "$prog: $out"
    echo "$out" | grep -q "made no CUDA calls" && fail "$prog: both notes: $out"
    # the JSON report keeps the note too
    json="$("$CUCHECK" --format json run -- "$prog" 2>/dev/null)"
    echo "$json" | grep -q '"text":"no CUDA driver (libcuda.so.1) could be loaded' ||
        fail "--format json: $json"
else
    echo "note: $prog not built (no nvcc): only /bin/true checked"
fi
echo "ok"
