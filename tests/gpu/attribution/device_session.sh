#!/usr/bin/env bash
# One batched GPU session for the agent work (W1-4): build the agent and CLI, the stack
# self-test, the per-launch cost ablation on the PyTorch step and the CUDA workloads (CUCHECK_TRACK
# groups, against native, the subscribed-but-off baseline and CUDA_LAUNCH_BLOCKING=1), and the
# attribution tests. Debian libdw/libunwind packages carried in build-agent2/debs are unpacked
# into /tmp/dwroot when the machine lacks them (scripts/gpu-debs.sh downloads them; carry
# build-agent2/debs). Results go to $OUT (or /tmp/cucheck-w14).
# Usage: bash tests/gpu/attribution/device_session.sh [STEPS]
#   steps: build stacks ablate bench attr attr-once attr-progress table (default: build stacks
#   ablate bench attr attr-progress)
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="${OUT:-/tmp/cucheck-w14}"
mkdir -p "$out"
steps="${1:-build stacks ablate bench attr attr-progress}"
has() { case " $steps " in *" $1 "*) return 0;; esac; return 1; }
build="$root/build-w14"
cmake_extra=()
if [ ! -f /usr/include/elfutils/libdwfl.h ] && ls "$root"/build-agent2/debs/*.deb >/dev/null 2>&1; then
    for d in "$root"/build-agent2/debs/*.deb; do dpkg -x "$d" /tmp/dwroot; done
    for pc in /tmp/dwroot/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc; do
        sed -i -e 's#^prefix=.*#prefix=/tmp/dwroot/usr#' \
               -e 's#^libdir=/usr#libdir=/tmp/dwroot/usr#' -e 's#^includedir=/usr#includedir=/tmp/dwroot/usr#' "$pc"
    done
    export PKG_CONFIG_PATH=/tmp/dwroot/usr/lib/x86_64-linux-gnu/pkgconfig
    cmake_extra=(-DCMAKE_PREFIX_PATH=/tmp/dwroot/usr)
    export LD_LIBRARY_PATH=/tmp/dwroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    echo "deps: unpacked carried libdw/libunwind into /tmp/dwroot" | tee -a "$out/summary.txt"
fi
if ! ldconfig -p | grep -q libunwind.so.8 && [ -d /tmp/dwroot ]; then
    export LD_LIBRARY_PATH=/tmp/dwroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if has build; then
    start=$SECONDS
    { cmake -S "$root" -B "$build" -DCUCHECK_BUILD_EXAMPLES=OFF -DCUCHECK_PATCH_SMS=90 \
          -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cmake_extra[@]}" &&
      cmake --build "$build" -j "$(nproc)" --target cucheck cucheck_agent cucheck_agent_stacktest; } \
        >"$out/build.log" 2>&1
    echo "build: exit $? in $((SECONDS - start)) s; $(grep -E 'LIBDW' "$out/build.log" | head -1); libdw linked: $(ldd "$build/src/agent/libcucheck_agent.so" 2>/dev/null | grep -c libdw)" | tee -a "$out/summary.txt"
fi
cucheck="$build/cucheck"
if has stacks; then
    timeout 30 "$build/src/agent/cucheck_agent_stacktest" >>"$out/summary.txt" 2>&1
    echo "stacktest: exit $?" | tee -a "$out/summary.txt"
fi
# median BENCH_TIME_MS of REPS runs of "$@" (prints the value or "-")
bench_ms() {
    local reps="$1"; shift
    local vals=()
    for _ in $(seq "$reps"); do
        v="$(timeout 120 "$@" 2>/dev/null | sed -n 's/^BENCH_TIME_MS[[:space:]]*//p' | tail -1)"
        [ -n "$v" ] && vals+=("$v")
    done
    [ ${#vals[@]} -gt 0 ] && printf '%s\n' "${vals[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' || echo "-"
}
row() { # workload mode reps cmd...
    local w="$1" m="$2" reps="$3"; shift 3
    local ms; ms="$(bench_ms "$reps" "$@")"
    echo "| $w | $m | $ms |" | tee -a "$out/ablation.md"
}
modes_for() { # workload reps cmd...
    local w="$1" reps="$2"; shift 2
    row "$w" native "$reps" "$@"
    row "$w" "cucheck run --track off" "$reps" "$cucheck" --quiet run --track off -- "$@"
    row "$w" "cucheck run" "$reps" "$cucheck" --quiet run -- "$@"
    row "$w" "launch-blocking" "$reps" env CUDA_LAUNCH_BLOCKING=1 "$@"
}
if has ablate; then
    echo "| workload | mode | ms/iter (median) |" >>"$out/ablation.md"
    echo "|---|---|---|" >>"$out/ablation.md"
    t=(python3 "$root/bench/workloads/transformer_step.py" --steps 200 --warmup 20)
    modes_for transformer_step 1 "${t[@]}"
    for g in "on,-stacks" "on,-api" "on,-driver" "launch" "launch,stacks" "resource,sync,events,memcpy,memset,graphs"; do
        row transformer_step "CUCHECK_TRACK=$g" 1 env CUCHECK_TRACK="$g" "$cucheck" --quiet run -- "${t[@]}"
    done
fi
if has bench; then
    mkdir -p /tmp/wl
    for w in tiny_launches vecadd reduce gemm_cublas; do
        libs=""; [ "$w" = gemm_cublas ] && libs="-lcublas"
        nvcc -O3 -lineinfo -g -arch=sm_90 -o "/tmp/wl/$w" "$root/bench/workloads/$w.cu" $libs >/dev/null 2>&1 &
    done
    wait
    for w in tiny_launches vecadd reduce gemm_cublas; do modes_for "$w" 3 "/tmp/wl/$w"; done
    row tiny_launches "CUCHECK_TRACK=on,-stacks" 3 env CUCHECK_TRACK=on,-stacks "$cucheck" --quiet run -- /tmp/wl/tiny_launches
fi
# attr: the default run (a second run names the launch when the first left candidates);
# attr-once: --rerun off (the first run alone); attr-progress: --progress on (marks in one run)
attr_run() { # step file timeout [runner options]
    local step="$1" file="$2" limit="$3"; shift 3
    has "$step" || return 0
    timeout "$limit" python3 "$root/tests/gpu/attribution/run_attribution.py" --cucheck "$cucheck" \
        --build-dir /tmp/attr "$@" >"$out/$file" 2>&1
    echo "$step: exit $?" | tee -a "$out/summary.txt"
}
attr_run attr attribution.md 150
attr_run attr-once attribution_once.md 150 --rerun-off
attr_run attr-progress attribution_progress.md 150 --progress
if has attr || has attr-once || has attr-progress; then
    tar -czf "$out/attr-logs.tar.gz" -C /tmp/attr --exclude=bin . 2>/dev/null
fi
if has table; then # the bench runner's own table: native, baseline, tracking, CUDA_LAUNCH_BLOCKING
    modes="cucheck run --track off,cucheck run,launch-blocking"
    python3 "$root/bench/run_bench.py" --cucheck "$cucheck" --reps 3 --modes "$modes" \
        --only tiny_launches --only vecadd --only reduce --only gemm_cublas --build-dir /tmp/bench \
        --out "$out/bench_cuda.md" >/dev/null 2>&1
    python3 "$root/bench/run_bench.py" --cucheck "$cucheck" --reps 2 --modes "$modes" \
        --only transformer_step --build-dir /tmp/bench --out "$out/bench_torch.md" >/dev/null 2>&1
    echo "bench: done" | tee -a "$out/summary.txt"
fi
cat "$out/summary.txt"
