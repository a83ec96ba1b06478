#!/usr/bin/env bash
# Round-robin timing of several configurations of one workload: every round runs each
# configuration once, in order, so that slow drift of the machine (the PyTorch step's native time
# moved between 7.7 and 12.9 ms/step from process to process on the H200) falls on all of them
# alike. Each configuration is a line "label<TAB>command" in CONFIG_FILE; the command prints
# BENCH_TIME_MS (bench/workloads). Prints a markdown table: median, ratio to the first
# configuration's median, and every run.
# Usage: rounds.sh CONFIG_FILE ROUNDS [TIMEOUT_S]
set -u
cfg=${1:?usage: rounds.sh CONFIG_FILE ROUNDS [TIMEOUT_S]}
rounds=${2:?usage: rounds.sh CONFIG_FILE ROUNDS [TIMEOUT_S]}
limit=${3:-150}
[ -r "$cfg" ] || { echo "rounds.sh: cannot read $cfg" >&2; exit 2; }
mapfile -t lines < <(grep -v '^[[:space:]]*\(#\|$\)' "$cfg")
n=${#lines[@]}
declare -a vals
for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < n; i++)); do
        cmd=${lines[i]#*$'\t'}
        v=$(timeout "$limit" bash -c "$cmd" 2>/dev/null | sed -n 's/^BENCH_TIME_MS[[:space:]]*//p' | tail -1)
        vals[i]="${vals[i]:-} ${v:--}"
    done
done
echo "| configuration | median | ratio | runs |"
echo "|---|---:|---:|---|"
first=""
for ((i = 0; i < n; i++)); do
    label=${lines[i]%%$'\t'*}
    med=$(tr ' ' '\n' <<<"${vals[i]}" | grep -E '^[0-9.]+$' | sort -g |
          awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}')
    [ -z "$first" ] && first=$med
    ratio=$(awk -v m="$med" -v f="$first" 'BEGIN {if (m+0 > 0 && f+0 > 0) printf "%.3f", m/f; else print "-"}')
    echo "| $label | $med | $ratio |${vals[i]} |"
done
