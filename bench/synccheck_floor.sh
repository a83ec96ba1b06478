#!/usr/bin/env bash
# synccheck's cost, in one round-robin run per workload (rounds.sh): vector add (block exits
# only), reduction, transpose (barriers, shuffles) and cuBLAS GEMM, each native, under `cucheck
# synccheck --mode full`, under the same with `--knob CUCHECK_SY_PATCH=floor` (the same
# instructions patched with functions that return at once and no block state: the Compute
# Sanitizer API's own price for the patched calls; the target is full <= 1.2x floor) and under
# compute-sanitizer synccheck (one warm-up and one timed iteration; BENCH_TIME_MS is per
# iteration, so times compare); then the PyTorch training step (bench/workloads/
# transformer_step.py, 200 steps after one warm-up step, so that the checked first launches
# count) native and under `cucheck synccheck` (adaptive). Needs a GPU and nvcc (PyTorch for the
# step: skipped without it).
# Usage: synccheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]   (workloads: vecadd reduce
#        transpose gemm_cublas torch_step; default all)
set -u
cc=${1:?usage: synccheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]}
rounds=${2:?rounds}
out=${3:?out dir}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
py=${PYTHON:-python3}
workloads=${*:-vecadd reduce transpose gemm_cublas torch_step}
table="$out/synccheck_floor.md"
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
            printf 'synccheck (adaptive)\t%s synccheck -- %s\n' "$cc" "$step"
        } >"$cfg"
    else
        libs=""; [ "$w" = gemm_cublas ] && libs=-lcublas
        nvcc -O3 -lineinfo -arch=native -I"$here/workloads" -o "$out/$w" "$here/workloads/$w.cu" $libs ||
            { echo "## $w: build failed" | tee -a "$table"; status=1; continue; }
        {
            printf 'native\t%s\n' "$out/$w"
            printf 'synccheck --mode full\t%s synccheck --mode full -- %s\n' "$cc" "$out/$w"
            printf 'floor: empty patches\t%s --knob CUCHECK_SY_PATCH=floor synccheck --mode full -- %s\n' "$cc" "$out/$w"
            if command -v compute-sanitizer >/dev/null; then
                printf 'compute-sanitizer synccheck\tenv BENCH_WARMUP=1 BENCH_ITERS=1 compute-sanitizer --tool synccheck %s\n' "$out/$w"
            fi
        } >"$cfg"
    fi
    echo "## $w (ms per iteration)" | tee -a "$table"
    bash "$here/rounds.sh" "$cfg" "$rounds" "${SY_FLOOR_TIMEOUT:-300}" | tee -a "$table" || status=1
done
exit $status
