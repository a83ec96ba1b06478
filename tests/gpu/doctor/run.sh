#!/usr/bin/env bash
# GPU checks of `cucheck doctor`, for the lead to run on the H200 machine:
#   bash tests/gpu/doctor/run.sh [CUCHECK] [OUTDIR]   (defaults: build/cucheck, $OUT or /tmp)
# 1. doctor's full output (text, --json, --python) into OUTDIR;
# 2. a binary built only for sm_100 is flagged NO KERNEL IMAGE and really fails when run;
# 3. `python -m torch.utils.collect_env` beside doctor, with the CUDA-related fields doctor
#    misses listed in OUTDIR/collect_env_gaps.txt (compare_collect_env.py);
# 4. `doctor -- python -c 'import torch; torch.zeros(1).cuda()'` (what PyTorch really loads).
# Exit status: 0 if every check passed, 1 otherwise; each check prints PASS/FAIL.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CUCHECK="${1:-build/cucheck}"
OUTDIR="${2:-${OUT:-/tmp}/doctor}"
mkdir -p "$OUTDIR"
status=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; status=1; }
PY="${PYTHON:-python3}"

"$CUCHECK" doctor >"$OUTDIR/doctor.txt" 2>&1; echo "exit $?" >>"$OUTDIR/doctor.txt"
"$CUCHECK" doctor --json >"$OUTDIR/doctor.json" 2>"$OUTDIR/doctor.json.stderr"
"$CUCHECK" doctor --python "$PY" >"$OUTDIR/doctor_python.txt" 2>&1
"$CUCHECK" doctor --python "$PY" --json >"$OUTDIR/doctor_python.json" 2>/dev/null
grep -q "CC 9.0" "$OUTDIR/doctor.txt" && pass "doctor lists the CC 9.0 GPU" \
    || fail "doctor does not list a CC 9.0 GPU (see doctor.txt)"

# 2. sm_100-only binary
work="$OUTDIR/sm100"
mkdir -p "$work"
cat >"$work/k.cu" <<'CU'
#include <cstdio>
__global__ void k(int *p) { p[threadIdx.x] = 1; }
int main() {
    int *p; cudaMalloc(&p, 128); k<<<1, 32>>>(p);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
CU
if nvcc -gencode arch=compute_100,code=sm_100 -o "$work/k100" "$work/k.cu"; then
    "$CUCHECK" doctor --no-search --binary "$work/k100" >"$work/doctor.txt" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && grep -q "NO KERNEL IMAGE" "$work/doctor.txt"; then
        pass "doctor flags the sm_100-only binary NO KERNEL IMAGE"
    else
        fail "doctor did not flag the sm_100-only binary (exit $rc, see $work/doctor.txt)"
    fi
    "$work/k100" >"$work/run.txt" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -qi "no kernel image" "$work/run.txt"; then
        pass "the sm_100-only binary really fails: $(head -1 "$work/run.txt")"
    else
        fail "the sm_100-only binary did not fail with no kernel image (exit $rc)"
    fi
else
    fail "nvcc could not build the sm_100 binary"
fi

# 3. collect_env side by side
if "$PY" -c "import torch" 2>/dev/null; then
    "$PY" -m torch.utils.collect_env >"$OUTDIR/collect_env.txt" 2>&1
    if "$PY" "$here/compare_collect_env.py" "$OUTDIR/collect_env.txt" \
        "$OUTDIR/doctor_python.json" >"$OUTDIR/collect_env_gaps.txt"; then
        pass "doctor prints every CUDA-related collect_env field"
    else
        fail "doctor misses collect_env fields: see collect_env_gaps.txt"
    fi
    cat "$OUTDIR/collect_env_gaps.txt"
    "$CUCHECK" doctor -- "$PY" -c "import torch; torch.zeros(1).cuda(); print('ok')" \
        >"$OUTDIR/doctor_program.txt" 2>&1
    grep -q "CUDA runtime\|cuBLAS" "$OUTDIR/doctor_program.txt" \
        && pass "doctor -- python lists the CUDA libraries torch loaded" \
        || fail "doctor -- python found no CUDA library (see doctor_program.txt)"
else
    echo "SKIP: no torch in $PY (collect_env comparison and doctor -- python skipped)"
fi
exit $status
