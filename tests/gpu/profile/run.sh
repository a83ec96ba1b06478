#!/usr/bin/env bash
# GPU checks of `cucheck profile` (needs a GPU; exit 77 without one):
#   known_work.cu + check_profile.py  counts, times vs CUDA events, copies, NVTX, trace, graph
#   compare_torch.py                  vs torch.profiler on a PyTorch loop with NVTX ranges
#   bench_overhead.py (BENCH=1)       overhead table in $OUT/profile_overhead.md
# Usage: run.sh CUCHECK [WORKDIR]
set -u
CUCHECK=${1:?usage: run.sh CUCHECK [WORKDIR]}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${2:-$(mktemp -d /tmp/cucheck_profile_gpu.XXXXXX)}
mkdir -p "$WORK"
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 77; fi
nvcc -O2 -lineinfo -o "$WORK/known_work" "$HERE/known_work.cu" || exit 1
status=0
timeout 150 python3 -u "$HERE/check_profile.py" "$CUCHECK" "$WORK/known_work" "$WORK/known" || status=1
timeout 200 python3 -u "$HERE/compare_torch.py" "$CUCHECK" "$WORK/torch"
rc=$?; if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then status=1; fi
if [ "${BENCH:-0}" = 1 ]; then timeout 420 python3 -u "$HERE/bench_overhead.py" "$CUCHECK" || status=1; fi
exit $status
