#!/usr/bin/env bash
# doctor's kernel-image verdicts on real nvcc output: a binary built only for sm_100 is NO
# KERNEL IMAGE on CC 9.0 (with the -gencode to add) and runs as SASS on CC 10.3; a PTX-only
# binary runs by JIT. Skipped without nvcc.
set -u
CUCHECK="$1"; BIN_DIR="$3"
fail() { echo "FAIL: $*"; exit 1; }
command -v nvcc >/dev/null || { echo "no nvcc"; exit 77; }
export CUDA_VISIBLE_DEVICES=
work="$BIN_DIR/doctor_nki"
mkdir -p "$work"
cat >"$work/k.cu" <<'CU'
__global__ void k(int *p) { p[threadIdx.x] = 1; }
int main() { int *p; cudaMalloc(&p, 128); k<<<1, 32>>>(p); return cudaDeviceSynchronize() != 0; }
CU
nvcc -gencode arch=compute_100,code=sm_100 -o "$work/k100" "$work/k.cu" || fail "nvcc sm_100"
nvcc -gencode arch=compute_80,code=compute_80 -o "$work/kptx" "$work/k.cu" || fail "nvcc ptx"

out=$("$CUCHECK" doctor --no-search --binary "$work/k100" --cc 9.0 2>&1); rc=$?
[ $rc -eq 1 ] || fail "sm_100-only on CC 9.0 must exit 1, got $rc: $out"
echo "$out" | grep -q "NO KERNEL IMAGE for CC 9.0" || fail "no NO KERNEL IMAGE verdict: $out"
echo "$out" | grep -q -- "-gencode arch=compute_90,code=sm_90" || fail "no gencode fix: $out"

out=$("$CUCHECK" doctor --no-search --binary "$work/k100" --cc 10.3 2>&1); rc=$?
[ $rc -eq 0 ] || fail "sm_100 on CC 10.3 must pass, got $rc: $out"
echo "$out" | grep -q "runs as SASS (sm_100)" || fail "no SASS verdict: $out"

out=$("$CUCHECK" doctor --no-search --binary "$work/kptx" --cc 9.0 2>&1); rc=$?
[ $rc -eq 0 ] || fail "PTX-only must not fail, got $rc: $out"
echo "$out" | grep -q "runs by PTX JIT from compute_80" || fail "no JIT verdict: $out"
echo "doctor_no_kernel_image: ok"
