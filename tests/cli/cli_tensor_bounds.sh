#!/usr/bin/env bash
# No tool changes the program's PyTorch allocator settings: memcheck reads tensor bounds from
# PyTorch's caching allocator inside the process, so PYTORCH_CUDA_ALLOC_CONF stays unset when it
# was unset and keeps the user's value, with nothing said about it.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR
set -u
cucheck="$1"; build="$3"
[ -f "$build/src/agent/libcucheck_agent.so" ] || { echo "SKIP: agent not built"; exit 77; }
fail=0
check() { # expected command...
    local want="$1"; shift
    local got
    got="$(env -u PYTORCH_CUDA_ALLOC_CONF "$@" 2>/dev/null | tail -1)"
    if [ "$got" != "$want" ]; then echo "FAIL: $* printed '$got', expected '$want'"; fail=1; fi
}
show='echo "conf=${PYTORCH_CUDA_ALLOC_CONF:-unset}"'
check "conf=unset" "$cucheck" --quiet memcheck -- sh -c "$show"
check "conf=unset" "$cucheck" --quiet streamcheck -- sh -c "$show"
check "conf=unset" "$cucheck" --quiet run -- sh -c "$show"
err=/tmp/cc-tb-err.$$
got="$(PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "$cucheck" --quiet memcheck -- sh -c "$show" 2>$err | tail -1)"
[ "$got" = "conf=expandable_segments:True" ] || { echo "FAIL: user configuration not kept: $got"; fail=1; }
if grep -q "PYTORCH_CUDA_ALLOC_CONF" $err; then echo "FAIL: a note about the allocator settings"; fail=1; fi
rm -f $err
[ $fail -eq 0 ] && echo "PASS"
exit $fail
