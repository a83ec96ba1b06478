#!/usr/bin/env bash
# Round-robin timing of several configurations of one workload: every round runs each
# configuration once, in order, so that slow drift of the machine (the PyTorch step's native time
# moved between 7.7 and 12.9 ms/step from process to process on the H200) falls on all of them
# alike. Each configuration is a line "label<TAB>command" in CONFIG_FILE; the command prints
# BENCH_TIME_MS (bench/workloads). A run counts only if it exits 0 within TIMEOUT_S, prints
# BENCH_TIME_MS, and cucheck did not say on stderr that its agent could not attach or profile,
# or that no process wrote a report (the program then ran unchecked, at native speed); other
# runs are shown as x in the runs column (the reason on stderr, with the run's last line on
# stderr when it exited non-zero) and left out of the median. Each run's figure also goes to
# stderr as it is taken, so a set stopped by an outer time limit keeps what it measured.
# Prints a markdown table: median, ratio to the first configuration's median, failed runs, and
# every run. A command that also prints BENCH_DEVICE_USED_MIB and BENCH_HOST_PEAK_MIB
# (bench/workloads with BENCH_MEMINFO=1) adds four columns: the medians of both and their excess
# over the first configuration's (a tool's own device and host memory). Exit status 1 when a run
# failed, 2 on bad use.
# Usage: rounds.sh CONFIG_FILE ROUNDS [TIMEOUT_S]
set -u
cfg=${1:?usage: rounds.sh CONFIG_FILE ROUNDS [TIMEOUT_S]}
rounds=${2:?usage: rounds.sh CONFIG_FILE ROUNDS [TIMEOUT_S]}
limit=${3:-150}
[ -r "$cfg" ] || { echo "rounds.sh: cannot read $cfg" >&2; exit 2; }
[[ "$rounds" =~ ^[0-9]+$ ]] || { echo "rounds.sh: ROUNDS must be a number" >&2; exit 2; }
mapfile -t lines < <(grep -v '^[[:space:]]*\(#\|$\)' "$cfg")
n=${#lines[@]}
# What cucheck prints when the program ran without its agent (docs/cli.md, the agent's backends).
unchecked='cucheck: cannot (attach|profile)|no process wrote a report|runs (unchecked|unprofiled)'
err=$(mktemp "${TMPDIR:-/tmp}/rounds.XXXXXX")
trap 'rm -f "$err"' EXIT
declare -a vals fails devs hosts
# The median of the numbers among the words of $1, or "-".
median() {
    tr ' ' '\n' <<<"$1" | grep -E '^[0-9.]+$' | sort -g |
        awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'
}
failed=0
for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < n; i++)); do
        label=${lines[i]%%$'\t'*}
        cmd=${lines[i]#*$'\t'}
        out=$(timeout "$limit" bash -c "$cmd" 2>"$err")
        rc=$?
        v=$(sed -n 's/^BENCH_TIME_MS[[:space:]]*//p' <<<"$out" | tail -1)
        dev=$(sed -n 's/^BENCH_DEVICE_USED_MIB[[:space:]]*//p' <<<"$out" | tail -1)
        host=$(sed -n 's/^BENCH_HOST_PEAK_MIB[[:space:]]*//p' <<<"$out" | tail -1)
        why=""
        if [ $rc -ne 0 ]; then
            last=$(grep -v '^[[:space:]]*$' "$err" | tail -1 | cut -c1-200)
            why="exit $rc${last:+ (stderr: $last)}"
        elif [ -z "$v" ]; then why="no BENCH_TIME_MS"
        elif grep -Eq "$unchecked" "$err"; then why=$(grep -Em1 "$unchecked" "$err")
        fi
        if [ -n "$why" ]; then
            echo "rounds.sh: $label, round $((r + 1)): not counted: $why" >&2
            v=x; fails[i]=$(( ${fails[i]:-0} + 1 )); failed=1
        else
            echo "rounds.sh: $label, round $((r + 1)): $v ms" >&2
        fi
        vals[i]="${vals[i]:-} ${v:--}"
        if [ "$v" != x ] && [ -n "$dev$host" ]; then
            memory=1
            devs[i]="${devs[i]:-} ${dev:--}"
            hosts[i]="${hosts[i]:-} ${host:--}"
        fi
    done
done
if [ "${memory:-0}" = 1 ]; then
    echo "| configuration | median | ratio | failed runs | runs | device MiB | extra device MiB | host peak MiB | extra host MiB |"
    echo "|---|---:|---:|---:|---|---:|---:|---:|---:|"
else
    echo "| configuration | median | ratio | failed runs | runs |"
    echo "|---|---:|---:|---:|---|"
fi
# "+X" over the first configuration's median, or "-".
extra() { awk -v m="$1" -v f="$2" 'BEGIN {if (m ~ /^[0-9.]+$/ && f ~ /^[0-9.]+$/) printf "%+.0f", m-f; else print "-"}'; }
first="" first_dev="" first_host=""
for ((i = 0; i < n; i++)); do
    label=${lines[i]%%$'\t'*}
    med=$(median "${vals[i]}")
    [ -z "$first" ] && first=$med
    ratio=$(awk -v m="$med" -v f="$first" 'BEGIN {if (m+0 > 0 && f+0 > 0) printf "%.3f", m/f; else print "-"}')
    row="| $label | $med | $ratio | ${fails[i]:-0} |${vals[i]} |"
    if [ "${memory:-0}" = 1 ]; then
        dmed=$(median "${devs[i]:-}") hmed=$(median "${hosts[i]:-}")
        [ "$i" = 0 ] && first_dev=$dmed first_host=$hmed
        row="$row $dmed | $(extra "$dmed" "$first_dev") | $hmed | $(extra "$hmed" "$first_host") |"
    fi
    echo "$row"
done
exit $failed
