#!/usr/bin/env bash
# Tools that need tensor bounds (memcheck) run PyTorch programs with the cudaMallocAsync
# allocator backend unless the user configured the allocator; `run` and `streamcheck` do not
# (streamcheck keys its state by allocation and learns stream-ordered allocations on the GPU
# path later).
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
check "conf=backend:cudaMallocAsync" "$cucheck" --quiet memcheck -- sh -c "$show"
check "conf=unset" "$cucheck" --quiet streamcheck -- sh -c "$show"
check "conf=unset" "$cucheck" --quiet run -- sh -c "$show"
got="$(PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "$cucheck" --quiet memcheck -- sh -c "$show" 2>/tmp/cc-tb-err.$$ | tail -1)"
[ "$got" = "conf=expandable_segments:True" ] || { echo "FAIL: user configuration not kept: $got"; fail=1; }
grep -q "hides overruns between tensors" /tmp/cc-tb-err.$$ || { echo "FAIL: no note about the kept configuration"; fail=1; }
rm -f /tmp/cc-tb-err.$$
[ $fail -eq 0 ] && echo "PASS"
exit $fail
