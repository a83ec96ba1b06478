#!/usr/bin/env bash
# One batched run of every GPU check on a GPU machine (build, GPU tests, occupancy against the
# runtime and ncu, doctor, inspect against cuobjdump on PyTorch's libraries). Logs go to
# $OUT/gpu-logs.tar.gz and a summary to $OUT/summary.txt (or /tmp/cucheck-gpu without OUT).
# Usage: bash tests/gpu/session_checks.sh [STEP...]   (steps: build ctest occupancy ncu doctor
# inspect examples; default all)
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT:-/tmp/cucheck-gpu}"
logs="$out/logs"
mkdir -p "$logs"
build="$root/build-gpu"
summary="$out/summary.txt"
steps="${*:-build ctest occupancy ncu doctor inspect examples}"
step() { # name timeout command...
    local name="$1" t="$2"; shift 2
    local start=$SECONDS
    timeout "$t" "$@" >"$logs/$name.log" 2>&1
    local rc=$?
    echo "$name: exit $rc in $((SECONDS - start)) s" | tee -a "$summary"
    tail -n 25 "$logs/$name.log" | sed 's/^/    /' >>"$summary"
}
has() { case " $steps " in *" $1 "*) return 0;; esac; return 1; }
: >"$summary"
nvidia-smi -L >>"$summary" 2>&1
if has build; then
    step build 400 bash -c "cmake -S '$root' -B '$build' -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build '$build' -j \$(nproc)"
fi
has ctest && step ctest 300 ctest --test-dir "$build" --output-on-failure -j 8
has examples && step examples 240 python3 "$root/tests/gpu/run_gpu_tests.py" --cucheck "$build/cucheck"
has occupancy && step occupancy 240 bash "$root/tests/gpu/occupancy/run.sh"
has ncu && step ncu 240 bash "$root/tests/gpu/occupancy/ncu_compare.sh"
has doctor && step doctor 240 bash "$root/tests/gpu/doctor/run.sh" "$build/cucheck" "$logs/doctor"
if has inspect; then
    tl="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2>/dev/null)"
    libs=""
    for l in libc10_cuda.so libtorch_cuda.so libcaffe2_nvrtc.so; do
        [ -f "$tl/$l" ] && libs="$libs $tl/$l"
    done
    step inspect 300 python3 "$root/tests/gpu/inspect/compare_cuobjdump.py" "$build/cucheck" $libs
fi
tar -czf "$out/gpu-logs.tar.gz" -C "$out" logs 2>/dev/null && rm -rf "$logs"
cat "$summary"
