#!/usr/bin/env bash
# What each part of `cucheck profile` costs on the PyTorch training step (bench/workloads/
# transformer_step.py): native, the full profile, and the profile with one part left off at a
# time through `--knob CUCHECK_PROFILE_OFF` (docs/profile.md), plus torch.profiler with CUDA activities.
# Prints one markdown row per configuration (median BENCH_TIME_MS of REPS runs, ratio to native).
# Usage: ablate.sh CUCHECK [REPS]   (GPU machine; exit 77 without one)
set -u
cc=${1:?usage: ablate.sh CUCHECK [REPS]}; reps=${2:-1}
root=$(cd "$(dirname "$0")/../../.." && pwd)
wl="$root/bench/workloads/transformer_step.py"
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
med() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
run() { # label, then the command
    local label=$1; shift
    local v; v=$(for _ in $(seq "$reps"); do
        timeout 120 "$@" 2>/dev/null | sed -n 's/^BENCH_TIME_MS[[:space:]]*//p' | tail -1; done | med)
    echo "$label $v"
}
{
    run native python3 "$wl"
    run "profile" "$cc" --quiet profile --summary none -- python3 "$wl"
    for off in api sync kernel tscb memcpy,memset,marker "api,sync,memcpy,memset,marker,tscb"; do
        run "profile-off:$off" "$cc" --quiet --knob CUCHECK_PROFILE_OFF="$off" profile --summary none -- python3 "$wl"
    done
    run "torch.profiler" env BENCH_TORCH_PROFILER=1 python3 "$wl"
    run native python3 "$wl"
} | awk 'BEGIN {print "| configuration | ms/step | ratio to first native |"; print "|---|---:|---:|"}
         {if (NR == 1) n = $2; printf "| %s | %s | %s |\n", $1, $2, (n > 0 && $2 != "-") ? sprintf("%.3f", $2 / n) : "-"}'
