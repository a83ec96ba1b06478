#!/usr/bin/env bash
# cucheck occupancy: spec examples through the CLI (text + JSON), advice, waves, launch failures
# and bad input (one line, exit 2). Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR.
set -u
BIN=$1
command -v python3 >/dev/null || { echo "python3 needed"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# jget JSON EXPR: evaluate a Python expression over the parsed object `o`.
jget() { python3 -c 'import json,sys; o=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"; }
expect() { # expect "ARGS" EXPR VALUE
    local out; out=$("$BIN" occupancy $1 --json) || { bad "$1: exit $?"; return; }
    local got; got=$(jget "$out" "$2") || { bad "$1: bad JSON"; return; }
    [ "$got" = "$3" ] || bad "$1: $2 = $got, expected $3"
}

expect "--arch sm_80 --threads 256 --regs 32" "o['blocks_per_sm']" 8
expect "--arch sm_80 --threads 256 --regs 32" "o['occupancy']" 1.0
expect "--arch sm_80 --threads 256 --regs 32" "','.join(o['limiters'])" "warps,registers"
expect "--arch sm_80 --threads 256 --regs 32" "o['block_limits']['shared_memory']" 164
expect "--arch sm_80 --threads 256 --regs 32 --smem-static 48K" "o['blocks_per_sm']" 3
expect "--arch sm_80 --threads 256 --regs 32 --smem-dynamic 49152" "o['blocks_per_sm']" 3
expect "--arch sm_80 --threads 256 --regs 32 --smem-dynamic 41K" "o['blocks_per_sm']" 3
expect "--arch sm_80 --threads 256 --regs 32 --smem-dynamic 40K" "o['blocks_per_sm']" 4
expect "--arch sm_80 --threads 256 --regs 32 --smem-dynamic 100K" "o['blocks_per_sm']" 1
expect "--arch sm_80 --threads 256 --regs 32 --smem-dynamic 100K --max-dynamic-smem 48K" "o['blocks_per_sm']" 0
expect "--arch sm_80 --threads 128 --regs 32 --carveout 0" "o['blocks_per_sm']" 8
expect "--arch sm_86 --threads 768 --regs 32" "o['occupancy']" 1.0
expect "--arch sm_86 --threads 1024 --regs 32" "o['blocks_per_sm']" 1
expect "--arch sm_70 --threads 320 --regs 37" "o['warps_per_sm']" 40
expect "--arch sm_90 --threads 32 --regs 32 --barriers 3" "o['block_limits']['barriers']" 21
expect "--arch sm_120 --threads 32 --regs 32" "','.join(o['limiters'])" "blocks,barriers"
expect "--arch sm_80 --threads 1024 --regs 65" "o['blocks_per_sm']" 0
expect "--arch sm_80 --threads 1024 --regs 65" "'registers' in o['reason']" True
expect "--arch sm_80 --threads 256 --regs 32 --grid 1024" "round(o['waves_per_sm'],2)" 1.19
expect "--arch sm_80 --threads 256 --regs 32 --grid 1024" "o['tail_blocks']" 160
expect "--arch sm_80 --threads 256 --regs 32 --max-threads 128" "o['blocks_per_sm']" 0
expect "--arch a100 --threads 256 --regs 32 --curves" "len(o['curves']['registers']['points'])" 255
# advice: the issue's examples
expect "--arch sm_75 --threads 256 --regs 96" "[a['text'] for a in o['advice'] if a['kind']=='registers'][0].startswith('cap registers at 80 per thread (now 96) with \`__launch_bounds__(256, 3)\`')" True
expect "--arch sm_75 --threads 256 --regs 72" "[a['occupancy'] for a in o['advice'] if a['kind']=='registers'][0]" 1.0
expect "--arch sm_80 --threads 256 --regs 32 --smem-dynamic 50K" "[a['text'] for a in o['advice'] if a['kind']=='shared_memory'][0].startswith('shared memory per block 50 KB -> 40 KB gives 4 blocks')" True
expect "--arch sm_86 --threads 1024 --regs 32" "[a['text'] for a in o['advice'] if a['kind']=='block_size'][0].startswith('block size 768')" True

# text output
out=$("$BIN" occupancy --arch sm_80 --threads 256 --regs 32 --smem-static 48K --curves)
echo "$out" | grep -q "theoretical occupancy: 37.5%" || bad "text occupancy"
echo "$out" | grep -q "Impact of Varying Register Count Per Thread" || bad "text curves"
echo "$out" | grep -q "<- current" || bad "current point in curves"
"$BIN" occupancy --list-archs | grep -q "^sm_120" || bad "--list-archs"

# bad input: one line on stderr, exit 2
err_case() {
    local err rc
    err=$("$BIN" occupancy "$@" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] || bad "'$*': exit $rc, expected 2"
    [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || bad "'$*': not one line: $err"
    [ -n "$err" ] || bad "'$*': no message"
}
err_case --arch sm_80 --threads 2048 --regs 32
err_case --arch sm_75 --threads 1024 --regs 32 --max-threads 2048
err_case --arch sm_80 --threads 256 --regs -3
err_case --arch sm_80 --threads 256 --regs 300
err_case --arch sm_80 --threads 0 --regs 32
err_case --arch sm_99 --threads 256 --regs 32
err_case --arch sm_80 --threads 256 --regs 32 --carveout 101
err_case --arch sm_80 --threads 256 --regs 32 --smem-static 64K
err_case --arch sm_80 --threads 256 --regs 32 --smem-dynamic 1G
err_case --arch sm_80 --threads 256 --regs 32 --smem-dynamic abc
err_case --arch sm_80 --regs 32
err_case --threads 256 --regs 32
err_case --arch sm_80 --threads 256 --regs 32 --bogus
err_case --arch sm_80 --gpu 0 --threads 256 --regs 32
err_case --binary /nonexistent/file
"$BIN" occupancy --arch sm_80 --threads 2048 --regs 32 2>&1 | grep -q "1024 threads per block" || bad "threads limit named"
exit $fail
