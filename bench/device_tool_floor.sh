#!/usr/bin/env bash
# The cost of a device-checking tool (racecheck, synccheck, initcheck), in one round-robin run per
# workload (rounds.sh): vector add, reduction, transpose and cuBLAS GEMM, each native, under
# `cucheck TOOL --mode full`, under the same with the tool's floor knob (CUCHECK_RC_PATCH,
# CUCHECK_SY_PATCH, CUCHECK_IC_PATCH =floor: the same instructions patched with functions that
# return at once and no device state: the Compute Sanitizer API's own price for the patched
# calls) and under `compute-sanitizer --tool TOOL` (one warm-up and one timed iteration: it is far
# slower; BENCH_TIME_MS is per iteration, so times compare); then the PyTorch training step
# (bench/workloads/transformer_step.py, 200 steps after one warm-up step, so that the checked
# first launches count) native and under `cucheck TOOL` (adaptive). Needs a GPU and nvcc (PyTorch
# for the step: skipped without it). racecheck adds a "shadow floor" row (CUCHECK_RC_PATCH=
# shadow-floor: one atomic exchange per touched word into its shadow slot, nothing checked).
# FLOOR_TIMEOUT: seconds per run (default 300); FLOOR_KNOB_ROWS="KNOB=VALUE ...": one more full-mode
# row per knob setting (e.g. CUCHECK_RC_RECORD=write-cas, to compare a patch variant in the run).
# Usage: device_tool_floor.sh TOOL CUCHECK ROUNDS OUT_DIR [WORKLOAD...]   (workloads: vecadd
#        reduce transpose gemm_cublas torch_step; default all; writes OUT_DIR/TOOL_floor.md)
tool=${1:?usage: device_tool_floor.sh TOOL CUCHECK ROUNDS OUT_DIR [WORKLOAD...]}
case $tool in
    racecheck) knob=CUCHECK_RC_PATCH; shadow_floor=1 ;;
    synccheck) knob=CUCHECK_SY_PATCH ;;
    initcheck) knob=CUCHECK_IC_PATCH ;;
    *) echo "device_tool_floor.sh: no floor knob for '$tool' (racecheck, synccheck, initcheck)" >&2; exit 2 ;;
esac
shift
cc=${1:?usage: device_tool_floor.sh TOOL CUCHECK ROUNDS OUT_DIR [WORKLOAD...]}
rounds=${2:?rounds}
out=${3:?out dir}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
py=${PYTHON:-python3}
workloads=${*:-vecadd reduce transpose gemm_cublas torch_step}
table="$out/${tool}_floor.md"
: >"$table"
status=0
for w in $workloads; do
    cfg="$out/$w.cfg"
    if [ "$w" = torch_step ]; then
        if ! "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
            echo "## $w: skipped ($py has no CUDA PyTorch)" | tee -a "$table"; continue
        fi
        step="$py $here/workloads/transformer_step.py --steps 200 --warmup 1"
        {
            printf 'native\t%s\n' "$step"
            printf '%s (adaptive)\t%s %s -- %s\n' "$tool" "$cc" "$tool" "$step"
        } >"$cfg"
    else
        libs=""; [ "$w" = gemm_cublas ] && libs=-lcublas
        nvcc -O3 -lineinfo -arch=native -I"$here/workloads" -o "$out/$w" "$here/workloads/$w.cu" $libs ||
            { echo "## $w: build failed" | tee -a "$table"; status=1; continue; }
        {
            printf 'native\t%s\n' "$out/$w"
            printf '%s --mode full\t%s %s --mode full -- %s\n' "$tool" "$cc" "$tool" "$out/$w"
            printf 'floor: empty patches\t%s --knob %s=floor %s --mode full -- %s\n' "$cc" "$knob" "$tool" "$out/$w"
            if [ -n "${shadow_floor:-}" ]; then
                printf 'shadow floor: one exchange per word\t%s --knob %s=shadow-floor %s --mode full -- %s\n' "$cc" "$knob" "$tool" "$out/$w"
            fi
            for kv in ${FLOOR_KNOB_ROWS:-}; do
                printf '%s --mode full, %s\t%s --knob %s %s --mode full -- %s\n' "$tool" "$kv" "$cc" "$kv" "$tool" "$out/$w"
            done
            if command -v compute-sanitizer >/dev/null; then
                printf 'compute-sanitizer %s\tenv BENCH_WARMUP=1 BENCH_ITERS=1 compute-sanitizer --tool %s %s\n' "$tool" "$tool" "$out/$w"
            fi
        } >"$cfg"
    fi
    echo "## $w (ms per iteration)" | tee -a "$table"
    bash "$here/rounds.sh" "$cfg" "$rounds" "${FLOOR_TIMEOUT:-300}" | tee -a "$table" || status=1
done
exit $status
