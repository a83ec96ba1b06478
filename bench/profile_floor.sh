#!/usr/bin/env bash
# What `cucheck profile` costs against the floor of CUPTI kernel tracing, in one round-robin
# run (rounds.sh): tiny launches and the PyTorch training step, each native, under
# `cucheck profile`, under `cucheck profile` with kernel records only (`--knob CUCHECK_PROFILE_OFF`),
# under the minimal CUPTI tracer floors/cupti_kernel_floor.c (concurrent-kernel records and
# nothing else), and torch.profiler (the step only). Needs a GPU, nvcc and CUPTI.
# Usage: profile_floor.sh CUCHECK ROUNDS OUT_DIR [TINY_LAUNCHES] [TORCH_STEPS]
set -u
cc=${1:?usage: profile_floor.sh CUCHECK ROUNDS OUT_DIR [TINY_LAUNCHES] [TORCH_STEPS]}
rounds=${2:?rounds}
out=${3:?out dir}
tiny_n=${4:-100000}
steps=${5:-200}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
floor="$out/libcupti_kernel_floor.so"
bash "$here/floors/build_cupti_floor.sh" "$floor" || exit 1
nvcc -O3 -lineinfo -arch=native -I"$here/workloads" -o "$out/tiny_launches" \
    "$here/workloads/tiny_launches.cu" || exit 1
kernel_only="--knob CUCHECK_PROFILE_OFF=memcpy,memset,sync,marker,api"
pin=${PROFILE_FLOOR_PIN:-taskset -c 3}
cfg="$out/tiny.cfg"
{
    printf 'native\t%s %s %s\n' "$pin" "$out/tiny_launches" "$tiny_n"
    printf 'cucheck profile\t%s %s profile -- %s %s\n' "$pin" "$cc" "$out/tiny_launches" "$tiny_n"
    printf 'profile, kernel records only\t%s %s %s profile -- %s %s\n' "$pin" "$cc" "$kernel_only" \
        "$out/tiny_launches" "$tiny_n"
    printf 'CUPTI kernel floor\tLD_PRELOAD=%s %s %s %s\n' "$floor" "$pin" "$out/tiny_launches" "$tiny_n"
} >"$cfg"
echo "## $tiny_n tiny launches (ms per launch)" | tee "$out/profile_floor.md"
bash "$here/rounds.sh" "$cfg" "$rounds" | tee -a "$out/profile_floor.md"
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    step="${TORCH_PIN:-taskset -c 2-9} python3 $here/workloads/transformer_step.py --steps $steps"
    cfg="$out/torch.cfg"
    {
        printf 'native\t%s\n' "$step"
        printf 'cucheck profile\t%s profile -- %s\n' "$cc" "$step"
        printf 'profile, kernel records only\t%s %s profile -- %s\n' "$cc" "$kernel_only" "$step"
        printf 'CUPTI kernel floor\tLD_PRELOAD=%s %s\n' "$floor" "$step"
        printf 'torch.profiler\tBENCH_TORCH_PROFILER=1 %s\n' "$step"
    } >"$cfg"
    echo "## PyTorch step, $steps steps (ms per step)" | tee -a "$out/profile_floor.md"
    bash "$here/rounds.sh" "$cfg" "$rounds" 300 | tee -a "$out/profile_floor.md"
fi
