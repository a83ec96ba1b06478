#!/usr/bin/env bash
# What `cucheck streamcheck --mode api` costs on the PyTorch training step, part by part:
# native, `cucheck run`, streamcheck api mode with every callback group, and with host stacks
# or API callbacks left off (CUCHECK_TRACK, docs/agent.md), and the default mode. One run each
# unless REPS is given; prints a markdown table of BENCH_TIME_MS per step.
# Usage: ablate_api.sh CUCHECK [STEPS] [REPS]   (GPU machine)
set -u
cc=${1:?usage: ablate_api.sh CUCHECK [STEPS] [REPS]}; steps=${2:-100}; reps=${3:-1}
root=$(cd "$(dirname "$0")/../../.." && pwd)
wl=("$root/bench/workloads/transformer_step.py" --steps "$steps")
med() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
row() {
    local label=$1; shift
    local v; v=$(for _ in $(seq "$reps"); do
        timeout 150 "$@" 2>/dev/null | sed -n 's/^BENCH_TIME_MS[[:space:]]*//p' | tail -1; done | med)
    echo "| $label | $v |"
}
echo "| configuration | ms/step |"; echo "|---|---:|"
row native python3 "${wl[@]}"
row "run" "$cc" --quiet run -- python3 "${wl[@]}"
row "streamcheck api" "$cc" --quiet streamcheck --mode api -- python3 "${wl[@]}"
row "streamcheck api, no stacks" env CUCHECK_TRACK=all,-stacks "$cc" --quiet streamcheck --mode api -- python3 "${wl[@]}"
row "streamcheck api, no runtime/driver callbacks" env CUCHECK_TRACK=all,-api "$cc" --quiet streamcheck --mode api -- python3 "${wl[@]}"
row "streamcheck default" "$cc" --quiet streamcheck -- python3 "${wl[@]}"
row native python3 "${wl[@]}"
