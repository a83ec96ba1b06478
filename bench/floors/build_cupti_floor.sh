#!/usr/bin/env bash
# Builds floors/cupti_kernel_floor.c (the floor of CUPTI kernel tracing) into OUTPUT_LIB with
# $CC (default gcc) against the CUPTI next to the nvcc on PATH (or under /usr/local/cuda*).
# Used by profile_floor.sh and torch_set.sh. Exit 1 with one line on stderr when nvcc, cupti.h
# or libcupti.so is missing or the build fails.
# Usage: build_cupti_floor.sh OUTPUT_LIB
set -u
out=${1:?usage: build_cupti_floor.sh OUTPUT_LIB}
here=$(cd "$(dirname "$0")" && pwd)
nvcc_path=$(command -v nvcc) || { echo "build_cupti_floor.sh: no nvcc on PATH" >&2; exit 1; }
cuda=$(dirname "$(dirname "$nvcc_path")")
inc=$(find "$cuda"/ /usr/local/cuda*/ -name cupti.h 2>/dev/null | head -1)
lib=$(find "$cuda"/ /usr/local/cuda*/ -name 'libcupti.so' 2>/dev/null | head -1)
if [ -z "$inc" ] || [ -z "$lib" ]; then
    echo "build_cupti_floor.sh: CUPTI (cupti.h, libcupti.so) not found under $cuda" >&2
    exit 1
fi
inc=$(dirname "$inc") lib=$(dirname "$lib")
"${CC:-gcc}" -O2 -shared -fPIC -I"$inc" -I"$cuda/include" -o "$out" "$here/cupti_kernel_floor.c" \
    -L"$lib" -lcupti -Wl,-rpath,"$lib" ||
    { echo "build_cupti_floor.sh: cannot build the CUPTI floor" >&2; exit 1; }
