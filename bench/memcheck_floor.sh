#!/usr/bin/env bash
# memcheck --mode full against its floor and compute-sanitizer, in one round-robin run
# (rounds.sh): vector add, reduction, stencil and cuBLAS GEMM, each native, under
# `cucheck memcheck --mode full`, under the same with `--knob CUCHECK_MC_PATCH=floor` (the same
# instruction classes patched with functions that return at once: the Compute Sanitizer API's
# own price for a patched call) and under compute-sanitizer memcheck. Needs a GPU and nvcc.
# Usage: memcheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]
set -u
cc=${1:?usage: memcheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]}
rounds=${2:?rounds}
out=${3:?out dir}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
workloads=${*:-vecadd reduce stencil gemm_cublas}
: >"$out/memcheck_floor.md"
for w in $workloads; do
    libs=""; [ "$w" = gemm_cublas ] && libs=-lcublas
    nvcc -O3 -lineinfo -arch=native -I"$here/workloads" -o "$out/$w" "$here/workloads/$w.cu" $libs ||
        { echo "## $w: build failed" >>"$out/memcheck_floor.md"; continue; }
    cfg="$out/$w.cfg"
    {
        printf 'native\t%s\n' "$out/$w"
        printf 'memcheck --mode full\t%s memcheck --mode full -- %s\n' "$cc" "$out/$w"
        printf 'floor: empty patches\t%s --knob CUCHECK_MC_PATCH=floor memcheck --mode full -- %s\n' "$cc" "$out/$w"
        if command -v compute-sanitizer >/dev/null; then
            printf 'compute-sanitizer memcheck\tcompute-sanitizer --tool memcheck %s\n' "$out/$w"
        fi
    } >"$cfg"
    echo "## $w (ms per iteration)" | tee -a "$out/memcheck_floor.md"
    bash "$here/rounds.sh" "$cfg" "$rounds" 300 | tee -a "$out/memcheck_floor.md"
done
