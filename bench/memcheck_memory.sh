#!/usr/bin/env bash
# W1-5's memory target: the device memory memcheck adds to a program (launch headers, allocation
# tables, the device-heap table, patched code: everything in the process beyond what it holds
# natively), for the benchmark workloads and the PyTorch step. Each runs with BENCH_MEMINFO=1
# natively, under `cucheck memcheck` (adaptive), `--mode full` and compute-sanitizer memcheck
# (CUDA workloads only), and prints the device memory in use while its buffers were live.
# Target: extra <= max(10% of the program's memory, 256 MiB).
# Usage: memcheck_memory.sh CUCHECK OUT_DIR [TORCH_STEPS]
set -u
cc=${1:?usage: memcheck_memory.sh CUCHECK OUT_DIR [TORCH_STEPS]}
out=${2:?out dir}
steps=${3:-30}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
used() { BENCH_MEMINFO=1 timeout 600 "$@" 2>/dev/null | sed -n 's/^BENCH_DEVICE_USED_MIB[[:space:]]*//p' | tail -1; }
program() { BENCH_MEMINFO=1 timeout 600 "$@" 2>/dev/null | sed -n 's/^BENCH_PROGRAM_MIB[[:space:]]*//p' | tail -1; }
table="$out/memcheck_memory.md"
{
    echo "| workload | program's buffers MiB | native used MiB | memcheck (adaptive) | memcheck --mode full | compute-sanitizer memcheck | limit MiB |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
} >"$table"
row() { # name program_mib native adaptive full cs
    awk -v n="$1" -v p="$2" -v nat="$3" -v ad="$4" -v fu="$5" -v cs="$6" 'BEGIN {
        lim = p * 0.10; if (lim < 256) lim = 256;
        printf "| %s | %s | %s | %s (%+.0f) | %s (%+.0f) | %s | %.0f |\n", n, p, nat, ad, ad - nat, fu, fu - nat,
               (cs == "" ? "-" : sprintf("%s (%+.0f)", cs, cs - nat)), lim }' >>"$table"
}
# Buffers each CUDA workload allocates (bench/workloads/*.cu), MiB.
declare -A buffers=([vecadd]=768 [reduce]=256 [stencil]=128 [gemm_cublas]=192)
for w in vecadd reduce stencil gemm_cublas; do
    libs=""; [ "$w" = gemm_cublas ] && libs=-lcublas
    nvcc -O3 -lineinfo -arch=native -I"$here/workloads" -o "$out/$w" "$here/workloads/$w.cu" $libs || continue
    nat=$(used "$out/$w")
    ad=$(used "$cc" memcheck -- "$out/$w")
    fu=$(used "$cc" memcheck --mode full -- "$out/$w")
    cs=""; command -v compute-sanitizer >/dev/null && cs=$(used compute-sanitizer --tool memcheck "$out/$w")
    row "$w" "${buffers[$w]}" "$nat" "$ad" "$fu" "$cs"
done
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    step=(python3 "$here/workloads/transformer_step.py" --steps "$steps" --warmup 3)
    p=$(program "${step[@]}")
    nat=$(used "${step[@]}")
    ad=$(used "$cc" memcheck -- "${step[@]}")
    fu=$(used "$cc" memcheck --mode full -- "${step[@]}")
    row "PyTorch step ($steps steps)" "$p" "$nat" "$ad" "$fu" ""
    # memcheck runs PyTorch with the cudaMallocAsync backend (tensor bounds): the same program
    # natively under that backend is the baseline of the tool's own memory.
    p=$(PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync program "${step[@]}")
    nat=$(PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync used "${step[@]}")
    row "PyTorch step, native also with cudaMallocAsync" "$p" "$nat" "$ad" "$fu" ""
fi
cat "$table"
