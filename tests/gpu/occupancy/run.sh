#!/usr/bin/env bash
# Builds and runs the GPU occupancy comparison (occupancy_gpu.cu + the engine's C files compiled
# with gcc). Run from the repository root on a GPU machine; writes $OUT/occupancy_gpu_summary.txt
# when OUT is set. Exit 77 without nvcc or a GPU.
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
command -v nvcc >/dev/null || { echo "nvcc not found"; exit 77; }
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
ARCH=${OCC_GPU_ARCH:-native}
for f in occ_engine occ_arch_rules occ_presets; do
    gcc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$ROOT/src" -c "$ROOT/src/occupancy/$f.c" -o "$B/$f.o" || exit 1
done
nvcc -O2 -arch="$ARCH" -I"$ROOT/src" -o "$B/occupancy_gpu" "$ROOT/tests/gpu/occupancy/occupancy_gpu.cu" \
    "$B"/occ_*.o || exit 1
"$B/occupancy_gpu"
