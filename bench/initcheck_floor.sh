#!/usr/bin/env bash
# initcheck's cost, in one round-robin run per workload (rounds.sh): vector add, reduction,
# transpose and cuBLAS GEMM, each native, under `cucheck initcheck --mode full`, under the same
# with `--knob CUCHECK_IC_PATCH=floor` (global accesses patched with a function that returns at
# once and no ranges uploaded: the Compute Sanitizer API's own price for the patched calls) and
# under compute-sanitizer initcheck (one warm-up and one timed iteration; BENCH_TIME_MS is per
# iteration, so times compare; the target is initcheck <= 0.5x compute-sanitizer initcheck);
# then the PyTorch training step (bench/workloads/transformer_step.py, 200 steps after one
# warm-up step) native and under `cucheck initcheck` (adaptive). Needs a GPU and nvcc (PyTorch
# for the step: skipped without it).
# Usage: initcheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]   (workloads: vecadd reduce
#        transpose gemm_cublas torch_step; default all)
set -u
cc=${1:?usage: initcheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]}
rounds=${2:?rounds}
out=${3:?out dir}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
py=${PYTHON:-python3}
workloads=${*:-vecadd reduce transpose gemm_cublas torch_step}
table="$out/initcheck_floor.md"
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
            printf 'initcheck (adaptive)\t%s initcheck -- %s\n' "$cc" "$step"
        } >"$cfg"
    else
        libs=""; [ "$w" = gemm_cublas ] && libs=-lcublas
        nvcc -O3 -lineinfo -arch=native -I"$here/workloads" -o "$out/$w" "$here/workloads/$w.cu" $libs ||
            { echo "## $w: build failed" | tee -a "$table"; status=1; continue; }
        {
            printf 'native\t%s\n' "$out/$w"
            printf 'initcheck --mode full\t%s initcheck --mode full -- %s\n' "$cc" "$out/$w"
            printf 'floor: empty patches\t%s --knob CUCHECK_IC_PATCH=floor initcheck --mode full -- %s\n' "$cc" "$out/$w"
            if command -v compute-sanitizer >/dev/null; then
                printf 'compute-sanitizer initcheck\tenv BENCH_WARMUP=1 BENCH_ITERS=1 compute-sanitizer --tool initcheck %s\n' "$out/$w"
            fi
        } >"$cfg"
    fi
    echo "## $w (ms per iteration)" | tee -a "$table"
    bash "$here/rounds.sh" "$cfg" "$rounds" "${IC_FLOOR_TIMEOUT:-300}" | tee -a "$table" || status=1
done
exit $status
