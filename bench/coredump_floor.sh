#!/usr/bin/env bash
# The driver's GPU core dump as an attribution method (W1-4): whether it is written natively and
# under `cucheck run` (settings made through the driver API, global and per context, with and
# without skip-abort), and what enabling it costs a memory-bound kernel natively (rounds.sh).
# Needs a GPU and nvcc.
# Usage: coredump_floor.sh CUCHECK ROUNDS OUT_DIR
set -u
cc=${1:?usage: coredump_floor.sh CUCHECK ROUNDS OUT_DIR}
rounds=${2:?rounds}
out=${3:?out dir}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
probe="$out/coredump_probe"
nvcc -O3 -arch=native -o "$probe" "$here/floors/coredump_probe.cu" -lcuda || exit 1
dump_dir=$(mktemp -d)
{
    for how in none global global_skip ctx ctx_skip; do
        for under in native cucheck; do
            echo "### $how, $under"
            rm -f "$dump_dir"/*
            start=$SECONDS
            if [ "$under" = native ]; then
                timeout 120 "$probe" fault "$how" "$dump_dir/core.%p" 2>&1 | grep -v '^===' | head -20
            else
                timeout 120 "$cc" run -- "$probe" fault "$how" "$dump_dir/core.%p" 2>&1 | grep -v '^===' | head -20
            fi
            echo "exit status ${PIPESTATUS[0]} after $((SECONDS - start)) s"
        done
    done
} >"$out/coredump_matrix.txt" 2>&1
rm -rf "$dump_dir"
cfg="$out/coredump.cfg"
{
    printf 'native\t%s bench none\n' "$probe"
    printf 'core dump on exception (global)\t%s bench global /tmp/coredump_probe_bench.%%p\n' "$probe"
    printf 'native, again\t%s bench none\n' "$probe"
} >"$cfg"
echo "## 16M-element vector add, core dump on exception enabled (ms per launch)" | tee "$out/coredump_floor.md"
bash "$here/rounds.sh" "$cfg" "$rounds" | tee -a "$out/coredump_floor.md"
