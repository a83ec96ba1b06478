#!/usr/bin/env bash
# Build cucheck's libFuzzer targets (tests/fuzz/fuzz_*.c) with clang, ASan and UBSan in
# build-fuzz/, then run each for SECONDS (default 30) on a scratch copy of its seed corpus
# (tests/fuzz/corpus/<name>/). Fails on the first crash, leak, UB report or timeout; the
# reproducer is left in build-fuzz/artifacts/<name>/. New interesting inputs stay in
# build-fuzz/corpus-work/<name>/ (copy the small ones you want to keep into the seed corpus).
# A libFuzzer dictionary tests/fuzz/<name>.dict is used when present.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]    e.g. scripts/fuzz.sh 60 cuevt_reader
set -euo pipefail

seconds=${1:-30}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
jobs=${JOBS:-2}

san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
san="$san -fno-omit-frame-pointer -g"
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCHECK_FUZZ=ON -DCUCHECK_BUILD_EXAMPLES=OFF \
    -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" >/dev/null

targets=()
if [ $# -gt 0 ]; then
    for t in "$@"; do targets+=("fuzz_${t#fuzz_}"); done
else
    for src in "$root"/tests/fuzz/fuzz_*.c; do targets+=("$(basename "$src" .c)"); done
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
    name=${t#fuzz_}
    work=$build/corpus-work/$name
    artifacts=$build/artifacts/$name
    mkdir -p "$work" "$artifacts"
    if [ -d "$root/tests/fuzz/corpus/$name" ]; then
        cp -n "$root/tests/fuzz/corpus/$name"/* "$work"/ 2>/dev/null || true
    fi
    dict=()
    if [ -f "$root/tests/fuzz/$name.dict" ]; then dict=(-dict="$root/tests/fuzz/$name.dict"); fi
    echo "== $t: ${seconds}s"
    if ! "$build/tests/fuzz/$t" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" \
            >"$build/$t.log" 2>&1; then
        echo "!! $t failed; see $build/$t.log and $artifacts/" >&2
        tail -n 40 "$build/$t.log" >&2
        status=1
    else
        grep -E '^stat::(number_of_executed_units|new_units_added)' "$build/$t.log" || true
    fi
done
exit $status
