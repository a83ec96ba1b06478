#!/usr/bin/env bash
# The lead's batched GPU run for the agent-based tools: one build (tests/gpu/attribution/
# device_session.sh), then attribution and overhead (W1-4), memcheck programs and PyTorch checks
# (W1-5), profile accuracy and overhead (W1-7), and the examples runner. Everything lands in
# $OUT/batch.tar.gz with the summary in $OUT/summary.txt.
# Usage: bash tests/gpu/lead_batch.sh [PART...]
#   parts: agent (attribution + CUDA and PyTorch tables), agentlite (attribution + PyTorch table),
#          memcheck, torchmc (MC_FULL=1 adds full mode), profile, examples,
#          streamapi (streamcheck --mode api verdicts), occgpu (occupancy --gpu against --arch and
#          the runtime comparison), profablate (what each part of the profile costs),
#          learned (streamcheck --mode default/full verdicts), sctargets (streamcheck on the
#          cuBLAS, pipeline, graph and record_stream programs), scbench (streamcheck speed on the
#          PyTorch step), overhead (run and memcheck against native, the bare subscription
#          `run --track callbacks`, CUDA_LAUNCH_BLOCKING=1 and compute-sanitizer on every bench
#          workload, OVERHEAD_REPS rounds, default 3)
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT:-/tmp/cucheck-batch}"
parts="${*:-agent memcheck torchmc profile examples}"
has() { case " $parts " in *" $1 "*) return 0;; esac; return 1; }
work="$out/batch"; mkdir -p "$work"
sum="$out/summary.txt"; : >"$sum"
log() { echo "$*" | tee -a "$sum"; }
steps="build stacks"; has agent && steps="$steps attr table"; has agentlite && steps="$steps attr"
OUT="$work/w14" bash "$root/tests/gpu/attribution/device_session.sh" "$steps" >/dev/null 2>&1
cat "$work/w14/summary.txt" >>"$sum" 2>/dev/null
for f in attribution.md bench_cuda.md bench_torch.md; do
    [ -f "$work/w14/$f" ] && { echo "== $f"; cat "$work/w14/$f"; } >>"$sum"
done
if has agentlite; then # the PyTorch step only: native, agent with tracking off, run, CUDA_LAUNCH_BLOCKING
    timeout 200 python3 "$root/bench/run_bench.py" --cucheck "$root/build-w14/cucheck" --reps 1 \
        --modes "cucheck run --track off,cucheck run,launch-blocking" --only transformer_step \
        --build-dir /tmp/bench --out "$work/bench_torch.md" >/dev/null 2>&1
    log "bench torch: exit $?"; cat "$work/bench_torch.md" >>"$sum" 2>/dev/null
fi
[ -d /tmp/dwroot ] && export LD_LIBRARY_PATH=/tmp/dwroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cc="$root/build-w14/cucheck"
if has memcheck; then
    timeout 200 python3 "$root/tests/gpu/memcheck/run_memcheck_gpu.py" --cucheck "$cc" \
        --build-dir /tmp/mc-gpu >"$work/memcheck.md" 2>&1
    log "memcheck tests: exit $?"; tail -45 "$work/memcheck.md" >>"$sum"
fi
if has torchmc; then
    t="$root/tests/gpu/memcheck"
    timeout 120 "$cc" --format json memcheck -- python3 "$t/torch_overrun.py" >"$work/torch_overrun.json" 2>"$work/torch_overrun.err"
    log "torch overrun: exit $? findings: $(grep -c '"type":"finding"' "$work/torch_overrun.json") kinds: $(grep -o '"kind":"[a-z-]*"' "$work/torch_overrun.json" | sort | uniq -c | tr '\n' ' ')"
    grep '"type":"finding"' "$work/torch_overrun.json" | head -2 | cut -c1-900 >>"$sum"
    timeout 120 env FIXED=1 "$cc" --format json memcheck -- python3 "$t/torch_overrun.py" >"$work/torch_fixed.json" 2>&1
    log "torch overrun FIXED=1: exit $? findings: $(grep -c '"type":"finding"' "$work/torch_fixed.json")"
    for mode in native adaptive ${MC_FULL:+full}; do
        case $mode in
            native) cmd=(python3 "$t/torch_train_clean.py" 30);;
            adaptive) cmd=("$cc" --format json memcheck -- python3 "$t/torch_train_clean.py" 30);;
            full) cmd=("$cc" --format json memcheck --mode full -- python3 "$t/torch_train_clean.py" 5);;
        esac
        timeout 240 "${cmd[@]}" >"$work/train_$mode.out" 2>"$work/train_$mode.err"
        log "clean train step ($mode): exit $? $(grep BENCH_TIME_MS "$work/train_$mode.out") findings: $(grep -c '"type":"finding"' "$work/train_$mode.out") note: $(grep -o '"text":"[^"]*checked[^"]*"' "$work/train_$mode.out" | head -1)"
    done
fi
if has streamapi; then
    CUCHECK="$cc" OUT="$work/streamapi" timeout 240 bash "$root/tests/gpu/streamcheck/run_api_mode.sh" >"$work/streamapi.log" 2>&1
    log "streamcheck api mode: exit $?"; tail -8 "$work/streamapi.log" >>"$sum"
fi
if has occgpu; then
    for a in "--gpu 0" "--arch sm_90"; do
        log "== cucheck occupancy $a --threads 256 --regs 32 --smem-dynamic 40000"
        timeout 30 "$cc" occupancy $a --threads 256 --regs 32 --smem-dynamic 40000 >>"$sum" 2>&1
        log "exit $?"
    done
    timeout 30 "$cc" occupancy --gpu 0 --threads 256 --regs 32 --smem-dynamic 40000 --json >"$work/occ_gpu.json" 2>&1
    timeout 30 "$cc" occupancy --arch sm_90 --threads 256 --regs 32 --smem-dynamic 40000 --json >"$work/occ_arch.json" 2>&1
    log "occupancy --gpu 0 vs --arch sm_90 json: $(python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); k=["blocks_per_sm","warps_per_sm","occupancy","limiters","block_limits"]; print("equal" if all(a.get(x)==b.get(x) for x in k) else "DIFFER "+str([(x,a.get(x),b.get(x)) for x in k if a.get(x)!=b.get(x)]))' "$work/occ_gpu.json" "$work/occ_arch.json" 2>&1)"
    OUT="$work" timeout 200 bash "$root/tests/gpu/occupancy/run.sh" >"$work/occ_runtime.log" 2>&1
    log "occupancy runtime comparison: exit $?"; tail -12 "$work/occ_runtime.log" >>"$sum"
fi
if has profile; then
    nvcc -O2 -o /tmp/known_work_native "$root/tests/gpu/profile/known_work.cu" >/dev/null 2>&1 &&
        { timeout 60 /tmp/known_work_native >/tmp/kw_native.out 2>&1; log "known_work native: exit $? $(tail -c 300 /tmp/kw_native.out)"; }
    BENCH=1 OUT="$work" timeout "${PROFILE_TIMEOUT:-300}" bash "$root/tests/gpu/profile/run.sh" "$cc" /tmp/prof >"$work/profile.log" 2>&1
    log "profile: exit $?"; tail -40 "$work/profile.log" >>"$sum"
    [ -f "$work/profile_overhead.md" ] && cat "$work/profile_overhead.md" >>"$sum"
fi
if has profablate; then
    timeout 300 bash "$root/tests/gpu/profile/ablate.sh" "$cc" 1 >"$work/ablate.md" 2>&1
    log "profile ablation: exit $?"; cat "$work/ablate.md" >>"$sum"
fi
if has learned; then
    CUCHECK="$cc" OUT="$work/learned" timeout 300 bash "$root/tests/gpu/streamcheck/run_learned.sh" >"$work/learned.log" 2>&1
    log "streamcheck learned/full: exit $?"; tail -25 "$work/learned.log" >>"$sum"
fi
if has sctargets; then
    CUCHECK="$cc" OUT="$work/sctargets" SC_TIMEOUT=60 timeout 300 bash "$root/tests/gpu/streamcheck/run_targets.sh" >"$work/sctargets.log" 2>&1
    log "streamcheck target programs: exit $?"; grep -E '^\| ' "$work/sctargets/verdicts.md" | cut -d'|' -f2-6 >>"$sum"
fi
if has scbench; then # streamcheck on the PyTorch step: default and api mode against native and CSAN
    timeout 420 python3 "$root/bench/run_bench.py" --cucheck "$cc" --reps "${SC_REPS:-2}" \
        --modes "cucheck streamcheck,cucheck streamcheck --mode api,torch-csan" --only transformer_step \
        --build-dir /tmp/bench --out "$work/bench_sc.md" >"$work/bench_sc.log" 2>&1
    log "bench streamcheck: exit $?"; cat "$work/bench_sc.md" >>"$sum" 2>/dev/null
fi
if has overhead; then
    timeout "${OVERHEAD_TIMEOUT:-540}" python3 "$root/bench/run_bench.py" --cucheck "$cc" \
        --reps "${OVERHEAD_REPS:-3}" --build-dir /tmp/bench --out "$work/overhead.md" \
        --modes "cucheck run --track callbacks,cucheck run,cucheck memcheck,cucheck memcheck --mode full,launch-blocking,compute-sanitizer-memcheck" \
        >"$work/overhead.log" 2>&1
    log "overhead: exit $?"; cat "$work/overhead.md" >>"$sum" 2>/dev/null
fi
if has examples; then
    timeout 240 python3 "$root/tests/gpu/run_gpu_tests.py" --cucheck "$cc" >"$work/examples.md" 2>&1
    log "examples: exit $?"; tail -30 "$work/examples.md" >>"$sum"
fi
tar -czf "$out/batch.tar.gz" -C "$out" batch 2>/dev/null && rm -rf "$work"
cat "$sum"
